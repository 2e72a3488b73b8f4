// Bodies the solver tests build their scenes from: a static ground and dynamic boxes,
// capsules and circles of a given mass.
#pragma once

#include "solver/world.h"

namespace ragdoll::test {

/// A world that never sleeps: the tests that use it measure motion sleeping would stop.
inline WorldDef awakeWorldDef() {
    WorldDef def = defaultWorldDef();
    def.enableSleep = false;
    return def;
}

/// A static box of the given half-width, 1 m thick, its top at y = 0.
inline BodyId addGround(World& world, double halfWidth) {
    BodyDef def = defaultBodyDef();
    def.type = BodyType::Static;
    def.position = {0.0, -0.5};
    const BodyId id = world.createBody(def);
    world.setPolygon(id, defaultShapeDef(), makeBox(halfWidth, 0.5));
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

/// A capsule along its body's x axis, turned by `angle`.
inline BodyId addCapsule(World& world, Vec2 position, double angle, double halfLength, double radius, double mass) {
    const BodyId id = addDynamic(world, position, angle);
    world.setCapsule(id, withMass(mass), Capsule{{-halfLength, 0.0}, {halfLength, 0.0}, radius});
    return id;
}

inline BodyId addCircle(World& world, Vec2 position, double radius, double mass) {
    const BodyId id = addDynamic(world, position, 0.0);
    world.setCircle(id, withMass(mass), Circle{{0.0, 0.0}, radius});
    return id;
}

}  // namespace ragdoll::test
