// Bodies the solver tests build their scenes from: a static ground and dynamic boxes,
// capsules and circles of a given mass.
#pragma once

#include <cmath>

#include "solver/world.h"

namespace ragdoll::test {

/// A world that never sleeps: the tests that use it measure motion sleeping would stop.
inline WorldDef awakeWorldDef() {
    WorldDef def = defaultWorldDef();
    def.enableSleep = false;
    return def;
}

/// A static box, its top at y = topY.
inline BodyId addGround(World& world, double topY = 0.0, double halfWidth = 50.0, double halfHeight = 0.5, double friction = 0.6) {
    BodyDef def = defaultBodyDef();
    def.type = BodyType::Static;
    def.position = {0.0, topY - halfHeight};
    const BodyId id = world.createBody(def);
    ShapeDef shape = defaultShapeDef();
    shape.friction = friction;
    world.setPolygon(id, shape, makeBox(halfWidth, halfHeight));
    return id;
}

inline BodyId addDynamic(World& world, Vec2 position, double angle) {
    BodyDef def = defaultBodyDef();
    def.position = position;
    def.angle = angle;
    return world.createBody(def);
}

inline ShapeDef withMass(double mass) {
    ShapeDef shape = defaultShapeDef();
    shape.mass = mass;
    return shape;
}

inline BodyId addBox(World& world, Vec2 position, double halfWidth, double halfHeight, double mass) {
    const BodyId id = addDynamic(world, position, 0.0);
    world.setPolygon(id, withMass(mass), makeBox(halfWidth, halfHeight));
    return id;
}

/// A capsule body whose segment runs from p0 to p1 (origin at the midpoint).
inline BodyId addCapsule(World& world, Vec2 p0, Vec2 p1, double radius, double mass, double friction = 0.6) {
    const Vec2 axis = p1 - p0;
    const BodyId id = addDynamic(world, lerp(p0, p1, 0.5), std::atan2(axis.y, axis.x));
    ShapeDef shape = withMass(mass);
    shape.friction = friction;
    const double half = 0.5 * length(axis);
    world.setCapsule(id, shape, Capsule{{-half, 0.0}, {half, 0.0}, radius});
    return id;
}

inline BodyId addCircle(World& world, Vec2 position, double radius, double mass) {
    const BodyId id = addDynamic(world, position, 0.0);
    world.setCircle(id, withMass(mass), Circle{{0.0, 0.0}, radius});
    return id;
}

}  // namespace ragdoll::test
