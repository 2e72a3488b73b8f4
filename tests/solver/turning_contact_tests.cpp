// Contacts of fast-turning bodies: a limb's far end closes on the ground faster than its
// centre. Depths in metres, against the slop.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "solver/constants.h"
#include "solver/world.h"

using namespace ragdoll;

namespace {

constexpr double kDt = 1.0 / 60.0;

World makeWorld() {
    WorldDef def = defaultWorldDef();
    def.substeps = 4;
    def.enableSleep = false;
    return World(def);
}

BodyId addStatic(World& world, Vec2 position, double angle, const Polygon& polygon) {
    BodyDef def = defaultBodyDef();
    def.type = BodyType::Static;
    def.position = position;
    def.angle = angle;
    BodyId id = world.createBody(def);
    world.setPolygon(id, defaultShapeDef(), polygon);
    return id;
}

/// A forearm-sized capsule (0.3 m long, 3 cm radius, 1.2 kg) centred at `center`.
BodyId addForearm(World& world, Vec2 center, double angle, double angularVelocity) {
    BodyDef def = defaultBodyDef();
    def.position = center;
    def.angle = angle;
    def.angularVelocity = angularVelocity;
    BodyId id = world.createBody(def);
    ShapeDef shape = defaultShapeDef();
    shape.mass = 1.2;
    world.setCapsule(id, shape, Capsule{{-0.15, 0.0}, {0.15, 0.0}, 0.03});
    return id;
}

}  // namespace

TEST_CASE("a limb spinning at 30 rad/s with its ends 4 cm above the ground is caught the step it lands",
          "[solver][contacts]") {
    // Its centre hardly moves: reach counted from the centres' speeds alone (2 cm) missed
    // the ground, and the end swung 34 mm into it before the next step found the contact.
    World world = makeWorld();
    const BodyId ground = addStatic(world, {0.0, -0.5}, 0.0, makeBox(5.0, 0.5));
    const BodyId limb = addForearm(world, {0.0, 0.07}, 0.0, -30.0);
    double deepest = 0.0;
    for (int i = 0; i < 10; ++i) {
        world.step(kDt);
        deepest = std::max(deepest, world.overlap(limb, ground));
    }
    INFO("deepest " << deepest * 1000.0 << " mm");
    CHECK(deepest <= kLinearSlop);
}
