// Crates stacked on crates, awake: nothing pushes them, so they stay where they settle.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

#include "solver/constants.h"
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

TEST_CASE("a crate up to 10000 times as heavy as the crate under it rests on it", "[solver][contacts]") {
    // A 1 kg crate (0.5 m) on the ground and a heavy one landing on it: the same width and
    // square over it (both face points), narrower, wider, off-centre, and dropped from 1 m.
    // Body by body on their own masses, the light crate took nearly all of each push and was
    // pushed into the ground, which pushed it back: at 100:1 an off-centre crate sank through
    // it, at 1000:1 every one did. The terrain holds the lower crate now (TerrainHold).
    struct Case {
        const char* name;
        double topHalf, offset, drop;
    };
    const Case cases[] = {{"square", 0.25, 0.0, 0.05},
                          {"narrower", 0.15, 0.0, 0.05},
                          {"wider", 0.4, 0.0, 0.05},
                          {"off-centre", 0.25, 0.1, 0.05},
                          {"dropped from 1 m", 0.25, 0.03, 1.0}};
    const Case& k = cases[GENERATE(range(0, 5))];
    const double ratio = GENERATE(1.0, 10.0, 100.0, 1000.0, 10000.0);
    World world(awakeWorldDef());
    addGround(world, 0.0, 4.0);
    const BodyId bottom = addBox(world, {0.0, 0.25}, 0.25, 0.25, 1.0);
    const BodyId top = addBox(world, {k.offset, 0.5 + k.topHalf + k.drop}, k.topHalf, k.topHalf, ratio);
    auto gap = [&] { return (world.bodyState(top).position.y - k.topHalf) - (world.bodyState(bottom).position.y + 0.25); };
    double deepest = 0.0, rebound = 0.0, tilt = 0.0;
    bool landed = false;
    for (int i = 0; i < 300; ++i) {
        world.step(1.0 / 60.0);
        deepest = std::max(deepest, -gap());
        landed = landed || gap() < 0.0;
        if (landed) rebound = std::max(rebound, world.bodyState(top).linearVelocity.y);
        tilt = std::max({tilt, std::abs(world.bodyState(top).angle), std::abs(world.bodyState(bottom).angle)});
    }
    INFO(k.name << " at " << ratio << ":1: the heavy crate " << deepest * 1000.0 << " mm into the light one at most, "
                << -gap() * 1000.0 << " mm after 5 s; rebound " << rebound << " m/s; tilt " << tilt << " rad; the light crate at x = "
                << world.bodyState(bottom).position.x);
    CHECK(deepest <= kLinearSlop);
    CHECK(-gap() <= kLinearSlop);
    CHECK(rebound < 0.05);  // restitution 0
    CHECK(tilt < 0.01);
    CHECK(std::abs(world.bodyState(bottom).position.x) < 0.001);  // not squeezed out from under it
    CHECK(world.bodyState(bottom).position.y > 0.25 - kLinearSlop);
}

TEST_CASE("a stack of crates holds a crate 1000 times as heavy on top", "[solver][contacts]") {
    // 1 kg crates of 0.5 m stacked 3, 5 and 10 high, each a little off the one under it, and
    // the top one 1, 100 or 1000 kg, awake for 10 s. A prop on a held prop is held by it in
    // turn (World::holdStackedProps): held only by the terrain, the crate above the bottom one
    // was pressed into it by a crate 100 times its mass and the stack fell, at every height.
    const int height = GENERATE(3, 5, 10);
    const double topMass = GENERATE(1.0, 100.0, 1000.0);
    World world(awakeWorldDef());
    addGround(world, 0.0, 6.0);
    std::vector<BodyId> crates;
    auto offset = [](int k) { return 0.01 * (k % 3); };
    for (int k = 0; k < height; ++k)
        crates.push_back(addBox(world, {offset(k), 0.25 + 0.51 * k}, 0.25, 0.25, k == height - 1 ? topMass : 1.0));
    double deepest = 0.0;
    for (int i = 0; i < 600; ++i) {
        world.step(1.0 / 60.0);
        for (int k = 0; k + 1 < height; ++k) deepest = std::max(deepest, world.overlap(crates[size_t(k)], crates[size_t(k) + 1]));
    }
    double drift = 0.0;
    for (int k = 0; k < height; ++k) drift = std::max(drift, std::abs(world.bodyState(crates[size_t(k)]).position.x - offset(k)));
    const double topY = world.bodyState(crates.back()).position.y, restingY = 0.25 + (0.5 - kAllowedPenetration) * (height - 1);
    INFO(height << " high, " << topMass << " kg on top: crates " << deepest * 1000.0 << " mm into one another at most, the top at y = "
                << topY << " (resting " << restingY << "), " << drift * 1000.0 << " mm sideways at most");
    CHECK(deepest <= kLinearSlop);
    CHECK(topY == Approx(restingY).margin(0.005));
    CHECK(drift < 0.02);
}
