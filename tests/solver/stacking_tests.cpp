// Crates stacked on crates, awake: nothing pushes them, so they stay where they settle.
#include <catch2/catch.hpp>

#include <cmath>

#include "solver/world.h"
#include "test_bodies.h"

using namespace ragdoll;
using namespace ragdoll::test;

TEST_CASE("a crate resting off-centre on another stays put", "[solver][contacts]") {
    // The harness's stack: a 0.4 m crate of 4 kg on a 0.6 m crate of 10 kg, the top one
    // shifted sideways by `offset` (its centre still over the lower crate's top face).
    const double offset = GENERATE(0.0, 0.1, -0.1, 0.18, -0.18);
    World world(awakeWorldDef());
    addGround(world, 0.0, 4.0);
    const BodyId bottom = addBox(world, {0.0, 0.3}, 0.3, 0.3, 10.0);
    const BodyId top = addBox(world, {offset, 0.8}, 0.2, 0.2, 4.0);

    constexpr double kDt = 1.0 / 60.0;
    for (int i = 0; i < 60; ++i) world.step(kDt);
    const Vec2 bottomAt = world.bodyState(bottom).position, topAt = world.bodyState(top).position;
    for (int i = 0; i < 300; ++i) world.step(kDt);
    const double bottomMoved = length(world.bodyState(bottom).position - bottomAt);
    const double topMoved = length(world.bodyState(top).position - topAt);
    CAPTURE(offset, bottomMoved, topMoved, world.bodyState(top).position.y);
    CHECK(world.bodyState(top).position.y > 0.75);  // still on the lower crate
    CHECK(bottomMoved < 0.001);  // metres over 5 s
    CHECK(topMoved < 0.001);
}
