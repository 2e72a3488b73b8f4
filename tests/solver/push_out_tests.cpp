// Bodies placed inside others (a level's copy-and-paste slip, a teleport) come out at the
// push-out speed instead of being thrown out.
#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

#include "build_world.h"
#include "scenes.h"
#include "solver/constants.h"
#include "solver/world.h"
#include "test_bodies.h"

using namespace ragdoll;
using namespace ragdoll::test;

namespace {

constexpr double kDt = 1.0 / 60.0;

double fastest(const World& world, const std::vector<BodyId>& bodies) {
    double speed = 0.0;
    for (BodyId id : bodies) speed = std::max(speed, length(world.bodyState(id).linearVelocity));
    return speed;
}

}  // namespace

TEST_CASE("two crates placed in one place come apart at the push-out speed, not thrown", "[solver][contacts]") {
    // The whole metre of overlap taken back in one substep threw the upper crate up at 59 m/s.
    World world(awakeWorldDef());
    addGround(world);
    const std::vector<BodyId> crates = {addBox(world, {0.0, 0.5}, 0.5, 0.5, 10.0), addBox(world, {0.0, 0.5}, 0.5, 0.5, 10.0)};
    double fastestSeen = 0.0, highest = 0.0;
    int apartAt = -1;
    for (int i = 0; i < 180; ++i) {
        world.step(kDt);
        fastestSeen = std::max(fastestSeen, fastest(world, crates));
        const double top = std::max(world.bodyState(crates[0]).position.y, world.bodyState(crates[1]).position.y);
        highest = std::max(highest, top);
        if (apartAt < 0 && world.overlap(crates[0], crates[1]) < 0.005) apartAt = i + 1;
    }
    const double upper = std::max(world.bodyState(crates[0]).position.y, world.bodyState(crates[1]).position.y);
    const double lower = std::min(world.bodyState(crates[0]).position.y, world.bodyState(crates[1]).position.y);
    CAPTURE(fastestSeen, highest, apartAt, upper, lower);
    CHECK(fastestSeen <= kMaxPushOutSpeed);                         // m/s
    CHECK(highest < 1.6);                                           // no throw: it rests at 1.5 m
    CHECK(apartAt > 0);
    CHECK(apartAt * kDt <= 1.0 / kMaxPushOutSpeed + 4 * kDt);        // a metre at the push-out speed
    CHECK(upper == Approx(1.5).margin(0.005));                      // on the lower crate
    CHECK(lower == Approx(0.5).margin(0.005));                      // on the ground
    CHECK(fastest(world, crates) < 0.01);
}

TEST_CASE("a crate placed 0.3 m into the ground rises out at the push-out speed", "[solver][contacts]") {
    World world(awakeWorldDef());
    const BodyId ground = addGround(world);
    const BodyId crate = addBox(world, {0.0, 0.2}, 0.5, 0.5, 10.0);
    double y = world.bodyState(crate).position.y, fastestRise = 0.0;
    int outAt = -1;
    for (int i = 0; i < 60; ++i) {
        world.step(kDt);
        const double now = world.bodyState(crate).position.y;
        fastestRise = std::max(fastestRise, (now - y) / kDt);
        y = now;
        if (outAt < 0 && world.overlap(crate, ground) < 0.005) outAt = i + 1;
    }
    CAPTURE(fastestRise, outAt, y);
    CHECK(fastestRise <= kMaxPushOutSpeed + 1e-9);  // m/s (in one substep it rose 0.3 m)
    CHECK(outAt > 0);
    CHECK(outAt * kDt <= 0.3 / kMaxPushOutSpeed + 2 * kDt);
    CHECK(y == Approx(0.5).margin(0.003));
    CHECK(length(world.bodyState(crate).linearVelocity) < 0.01);
}

TEST_CASE("a crate placed 0.9 m into the ground, sleeping on, rises all the way out before it sleeps", "[solver][contacts][sleep]") {
    // The velocity pass takes back the speed a push-out gives, so a crate rising out looked at
    // rest to the sleep test: it slept 0.1 m in the ground after 0.25 s (and a 2 m post 0.2 m in).
    WorldDef def = defaultWorldDef();
    REQUIRE(def.enableSleep);
    World world(def);
    const BodyId ground = addGround(world);
    const BodyId crate = addBox(world, {0.0, -0.4}, 0.5, 0.5, 10.0);
    const BodyId post = addBox(world, {3.0, 0.0}, 0.15, 1.0, 10.0);
    for (int i = 0; i < 120; ++i) world.step(kDt);
    CAPTURE(world.bodyState(crate).position.y, world.bodyState(post).position.y);
    CHECK(world.overlap(crate, ground) < 0.005);  // metres
    CHECK(world.overlap(post, ground) < 0.005);
    CHECK_FALSE(world.bodyState(crate).awake);  // and then it sleeps
    CHECK_FALSE(world.bodyState(post).awake);
}

TEST_CASE("a stickman put 0.3 m into the ground climbs out of it without being thrown", "[solver][contacts][trees]") {
    // A teleport into the terrain: its contacts solved through its tree threw limbs out at
    // 5.2 m/s and the figure hopped.
    scenes::SceneSpec scene;
    scenes::BodySpec ground;
    ground.name = "ground";
    ground.shape = scenes::ShapeKind::Box;
    ground.p0 = {0.0, -0.5};
    ground.halfExtents = {50.0, 0.5};
    ground.mass = 0.0;
    ground.isStatic = true;
    scene.bodies.push_back(ground);
    scenes::addStickman(scene, 0.0, -0.3, {0.0, 0.0}, 0);
    World world(awakeWorldDef());
    const scenes::BuiltScene built = scenes::buildWorld(world, scene);
    const std::vector<BodyId> figure(built.bodies.begin() + 1, built.bodies.end());
    double fastestSeen = 0.0;
    for (int i = 0; i < 120; ++i) {
        world.step(kDt);
        fastestSeen = std::max(fastestSeen, fastest(world, figure));
    }
    double deepest = 0.0;
    for (BodyId id : figure) deepest = std::max(deepest, world.overlap(id, built.bodies[0]));
    double separation = 0.0, violation = 0.0;
    scenes::measureJoints(world, built, separation, violation);
    CAPTURE(fastestSeen, deepest, separation, violation);
    CHECK(fastestSeen <= kMaxPushOutSpeed);  // m/s
    CHECK(deepest <= 0.005);                 // metres into the ground after 2 s
    CHECK(separation <= 0.001);              // the joints held: metres
    CHECK(violation * 180.0 / kPi <= 1.0);   // degrees
}
