// Shape geometry in a body's local frame: circles, capsules and convex polygons, their
// mass properties and bounding boxes.
#pragma once

#include "solver/math.h"

namespace ragdoll {

/// Most vertices of a convex polygon.
inline constexpr int kMaxPolygonVertices = 8;

struct Circle {
    Vec2 center;          ///< local, metres
    double radius = 0.0;  ///< metres
};

/// A segment swept by a radius: a drawn bone with round ends.
struct Capsule {
    Vec2 center1;  ///< local, metres
    Vec2 center2;
    double radius = 0.0;
};

/// A convex polygon, counter-clockwise, optionally rounded by a radius.
struct Polygon {
    Vec2 vertices[kMaxPolygonVertices];
    Vec2 normals[kMaxPolygonVertices];  ///< outward unit normal of edge i → i+1
    Vec2 centroid;
    double radius = 0.0;
    int count = 0;
};

/// Builds a polygon from up to 8 points forming a convex hull in any order of winding.
/// Returns false (and leaves out untouched) if they are not convex or are degenerate.
bool makePolygon(const Vec2* points, int count, double radius, Polygon& out);
/// A capsule as a body keeps it: a two-vertex polygon rounded by its radius, normals[0]
/// the unit normal on the right of center1 → center2 and normals[1] its opposite (the
/// narrow phase reads them instead of normalising the segment for every pair). The capsule
/// must be at least kMinCapsuleLength long (World::setCapsule makes a shorter one a circle).
Polygon capsuleShape(const Capsule& capsule);
/// An axis-aligned box of half-extents hx, hy centred on the origin, then placed.
Polygon makeBox(double hx, double hy, Vec2 center = {}, double angle = 0.0);

struct MassData {
    double mass = 0.0;     ///< kg
    Vec2 center;           ///< local centre of mass
    double rotationalInertia = 0.0;  ///< about the centre of mass, kg·m²
};

double area(const Circle& s);
double area(const Capsule& s);
double area(const Polygon& s);
/// Mass properties at uniform density (kg/m²).
MassData computeMass(const Circle& s, double density);
MassData computeMass(const Capsule& s, double density);
MassData computeMass(const Polygon& s, double density);

AABB computeAABB(const Circle& s, const Transform& xf);
AABB computeAABB(const Capsule& s, const Transform& xf);
AABB computeAABB(const Polygon& s, const Transform& xf);

}  // namespace ragdoll
