// Narrow phase: contact manifolds between pairs of shapes placed in the world.
// Each function takes shape A and B in their bodies' local frames with the bodies'
// transforms, and returns up to two contact points whose separation is below
// `speculativeDistance` (metres), so contacts are found before the shapes touch and a fast
// limb cannot pass through thin ground within one step.
#pragma once

#include <cstdint>

#include "solver/geometry.h"

namespace ragdoll {

struct ManifoldPoint {
    Vec2 pointA;        ///< world point on A's surface, metres
    Vec2 pointB;        ///< world point on B's surface, metres
    double separation;  ///< dot(pointB - pointA, normal); < 0 when overlapping
    std::uint32_t id;   ///< feature key, stable while the same features touch
};

struct Manifold {
    Vec2 normal;  ///< world unit normal pointing from A to B
    ManifoldPoint points[2];
    int pointCount = 0;
};

Manifold collideCircles(const Circle& a, const Transform& xfA, const Circle& b, const Transform& xfB,
                        double speculativeDistance);
Manifold collideCapsuleAndCircle(const Capsule& a, const Transform& xfA, const Circle& b, const Transform& xfB,
                                 double speculativeDistance);
Manifold collidePolygonAndCircle(const Polygon& a, const Transform& xfA, const Circle& b, const Transform& xfB,
                                 double speculativeDistance);
Manifold collideCapsules(const Capsule& a, const Transform& xfA, const Capsule& b, const Transform& xfB,
                         double speculativeDistance);
Manifold collidePolygonAndCapsule(const Polygon& a, const Transform& xfA, const Capsule& b, const Transform& xfB,
                                  double speculativeDistance);
/// The same for capsules as bodies keep them (capsuleShape, at least kMinCapsuleLength long):
/// their normals are read rather than made, a square root and a division per capsule per pair.
Manifold collideCapsuleShapes(const Polygon& a, const Transform& xfA, const Polygon& b, const Transform& xfB,
                              double speculativeDistance);
Manifold collidePolygonAndCapsuleShape(const Polygon& a, const Transform& xfA, const Polygon& b, const Transform& xfB,
                                       double speculativeDistance);
Manifold collidePolygons(const Polygon& a, const Transform& xfA, const Polygon& b, const Transform& xfB,
                         double speculativeDistance);

}  // namespace ragdoll
