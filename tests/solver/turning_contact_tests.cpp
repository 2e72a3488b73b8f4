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

TEST_CASE("a limb its ragdoll drags down within the step is caught by the ground it had no contact with",
          "[solver][contacts]") {
    // A light limb at rest, 4 cm over a ledge, pinned to a 20 kg body falling at 6 m/s beside
    // the ledge: its own speed puts the ledge out of its contact search's reach (2 cm), and
    // the pin drags it ~10 cm down within the step. Found from what its joint group can
    // carry it (Body::terrainReach), the contact stops it: 1.4 mm in at most (10.6 mm without).
    World world = makeWorld();
    const BodyId ledge = addStatic(world, {0.3, -0.5}, 0.0, makeBox(0.2, 0.5));  // top y = 0, x 0.1 to 0.5
    BodyDef heavyDef = defaultBodyDef();
    heavyDef.position = {-0.15, 0.07};
    heavyDef.linearVelocity = {0.0, -6.0};
    const BodyId heavy = world.createBody(heavyDef);
    ShapeDef heavyShape = defaultShapeDef();
    heavyShape.mass = 20.0;
    world.setCircle(heavy, heavyShape, Circle{{0.0, 0.0}, 0.1});
    const BodyId limb = addForearm(world, {0.15, 0.07}, 0.0, 0.0);  // from x = 0 to 0.3, 4 cm over the ledge
    JointDef pin;
    pin.bodyA = heavy;
    pin.bodyB = limb;
    pin.localAnchorA = {0.15, 0.0};
    pin.localAnchorB = {-0.15, 0.0};
    REQUIRE(world.isValid(world.createJoint(pin)));
    double deepest = 0.0;
    for (int i = 0; i < 3; ++i) {
        world.step(kDt);
        deepest = std::max(deepest, world.overlap(limb, ledge));
    }
    INFO("deepest " << deepest * 1000.0 << " mm; the heavy body at y = " << world.bodyState(heavy).position.y);
    CHECK(world.bodyState(heavy).position.y < -0.05);  // it did fall past the ledge, dragging the limb
    CHECK(deepest <= kLinearSlop);
}

TEST_CASE("a limb its ground contact lifts at one end does not drive the other end into the ground",
          "[solver][contacts]") {
    // A shin-sized limb (0.46 m, 5 cm radius, 1.5 kg) lies nearly flat, as a shin spinning
    // in a pile lands: placed with its left end 40 mm in the ground and its right end
    // 6.8 mm above it, 42.7 and 4.1 mm once gravity has moved it in the substep. A free
    // 0.1 kg body 0.3 m above, pinned at the limb's centre, makes the limb a joint tree, so
    // its ground contact is solved in the tree's contact system. The system lifts the left
    // end, which turns the limb about its centre and lowers the right end by about a third
    // as much: that point, more than the 5 mm slop of touching off, was no row of the
    // system, and went 9.7 mm in (the N=1000 pile's deepest limb, 11.8 mm, was such a
    // shin). A row now, as its manifold's deepest point is far past the allowed depth, it
    // stops at the allowed 2 mm. One substep, so that the step ends where the contact
    // system left the limb.
    WorldDef def = defaultWorldDef();
    def.substeps = 1;
    def.enableSleep = false;
    World world(def);
    const BodyId ground = addStatic(world, {0.0, -0.5}, 0.0, makeBox(5.0, 0.5));
    const double half = 0.23, radius = 0.05;
    const double leftCore = radius - 0.04, rightCore = radius + 0.0068;  // core heights of the ends
    BodyDef limbDef = defaultBodyDef();
    limbDef.position = {0.0, 0.5 * (leftCore + rightCore)};
    limbDef.angle = std::asin((rightCore - leftCore) / (2.0 * half));
    const BodyId limb = world.createBody(limbDef);
    ShapeDef limbShape = defaultShapeDef();
    limbShape.mass = 1.5;
    world.setCapsule(limb, limbShape, Capsule{{-half, 0.0}, {half, 0.0}, radius});
    BodyDef lightDef = defaultBodyDef();
    lightDef.position = {0.0, 0.3};
    const BodyId light = world.createBody(lightDef);
    ShapeDef lightShape = defaultShapeDef();
    lightShape.mass = 0.1;
    world.setCircle(light, lightShape, Circle{{0.0, 0.0}, 0.02});
    JointDef pin;
    pin.bodyA = limb;
    pin.bodyB = light;
    pin.localAnchorB = {0.0, limbDef.position.y - 0.3};
    REQUIRE(world.isValid(world.createJoint(pin)));
    world.step(kDt);
    const double depth = world.overlap(limb, ground);
    INFO("the limb " << depth * 1000.0 << " mm in, at " << world.bodyState(limb).angle << " rad");
    CHECK(std::abs(world.bodyState(limb).angle) < 0.001);  // lifted flat
    CHECK(depth <= kLinearSlop);
}
