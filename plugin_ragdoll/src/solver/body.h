// Internal body storage. The solver works on the centre of mass; the body's origin
// (what the API speaks of) is derived from it through localCenter.
#pragma once

#include <cstdint>

#include "solver/geometry.h"
#include "solver/types.h"

namespace ragdoll {

/// One shape per body: a circle (1 vertex), a capsule (2 vertices) or a polygon, all as
/// a rounded convex polygon in the body's frame (origin-relative).
struct Shape {
    ShapeType type = ShapeType::Circle;
    Polygon geometry;
    double friction = 0.6;
    double restitution = 0.0;
    Filter filter;
};

/// What the solver touches every substep, kept in its own dense array beside the cold
/// Body records (136 bytes; Body with its shape is ~500).
struct BodySim {
    Vec2 center;          ///< world centre of mass
    double angle = 0.0;
    Vec2 linearVelocity;  ///< of the centre of mass
    double angularVelocity = 0.0;
    Vec2 prevCenter;      ///< at the start of the substep
    double prevAngle = 0.0;
    double invMass = 0.0;
    double invInertia = 0.0;
    Rot q;                ///< cos/sin of angle, refreshed when the angle changes
    double linearDamping = 0.0, angularDamping = 0.0, gravityScale = 1.0;
    bool active = false;  ///< awake, dynamic or kinematic, not frozen: the solver moves it
    bool dynamic = false;
};

/// The rest of a body: shape, bookkeeping, what queries and the broadphase need.
struct Body {
    BodyType type = BodyType::Dynamic;
    Vec2 localCenter;  ///< centre of mass in the body's frame
    double mass = 0.0, inertia = 0.0;
    double extent = 0.0;  ///< farthest point of the shape from the centre of mass, metres
    Shape shape;
    bool hasShape = false;
    AABB aabb;  ///< fattened bounds for the broadphase
    /// Set with aabb: the body's joint group when its shape filter's group is negative and
    /// no joint of the group lets its bodies collide, else -1. Two bodies with the same
    /// value and filter group never collide (World::shouldCollide), so the broadphase does
    /// not pair them.
    int apartInGroup = -1;
    /// Set with aabb: how far its joint group's fastest point can travel in the step (metres).
    /// The joints can carry the body that far whatever its own speed, so its contacts with
    /// static bodies are looked for within that distance too (World::contactReach): in the
    /// N=1000 pile a forearm rising at 0.5 m/s, 3.2 cm over the ground, was dragged 7 cm down
    /// by its ragdoll (bodies at 5.7 m/s) and ended the step 40 mm in, with no contact.
    double terrainReach = 0.0;

    bool awake = true;
    double sleepTime = 0.0;     ///< seconds spent slow enough to sleep, counted twice while still (kStillSpeed)
    std::int64_t sleepingIsland = -1;  ///< when asleep: the island it fell asleep with
    int firstJoint = -1;        ///< head of this body's joint list (through Joint::next)
    int jointGroup = -1;        ///< direct-solve group, or -1
    bool frozen = false;        ///< left the world bounds: stopped and excluded

    Vec2 lastGoodCenter;        ///< state after the last step that ended finite
    double lastGoodAngle = 0.0;
    bool recovering = false;    ///< reset at this step's start: reset again at its end

    std::uint64_t userData = 0;
    std::uint16_t generation = 0;
    bool alive = false;

    bool isDynamic() const { return type == BodyType::Dynamic; }
};

/// The body's frame: its origin, not its centre of mass.
inline Transform bodyFrame(const Body& body, const BodySim& sim) {
    return {sim.center - rotate(sim.q, body.localCenter), sim.q};
}
/// Tight bounds of the body's shape where it stands now.
AABB shapeBounds(const Body& body, const BodySim& sim);

/// Moves the body by (Δc_x, Δc_y, Δθ): its position (q turned with it), or, for `velocity`,
/// its linear and angular velocity.
inline void moveBody(BodySim& sim, const double (&delta)[3], bool velocity) {
    if (velocity) {
        sim.linearVelocity += Vec2{delta[0], delta[1]};
        sim.angularVelocity += delta[2];
    } else {
        sim.center += Vec2{delta[0], delta[1]};
        sim.angle += delta[2];
        sim.q = integrateRotation(sim.q, delta[2]);
    }
}

}  // namespace ragdoll
