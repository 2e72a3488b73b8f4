// Contacts between two ragdolls where one of them lies on the terrain (TerrainHold): the
// other's push moves the lying body as if the terrain held it, so a light limb under a heavy
// body stays out of the ground, and a lying figure can still be pushed along it. Depths in
// metres, momentum in kg·m/s.
#include <catch2/catch.hpp>

#include <algorithm>

#include "solver/constants.h"
#include "test_bodies.h"

using namespace ragdoll;
using namespace ragdoll::test;

namespace {

constexpr double kDt = 1.0 / 60.0;

struct LyingFigure {
    BodyId torso, limb;
};

/// A two-body ragdoll lying on the ground (top at y = 0) from x = -0.9 to 0.3: a 10 kg torso
/// (radius 0.1 m) and a 0.5 kg limb (radius 4 cm) pinned to its right end.
LyingFigure addLyingFigure(World& world, double friction) {
    LyingFigure f;
    f.torso = addCapsule(world, {-0.9, 0.1}, {-0.3, 0.1}, 0.1, 10.0, friction);
    f.limb = addCapsule(world, {-0.3, 0.04}, {0.3, 0.04}, 0.04, 0.5, friction);
    REQUIRE(world.isValid(world.createJoint(makeRevoluteJointDef(world, f.torso, f.limb, {-0.3, 0.07}))));
    return f;
}

/// A second ragdoll: a box of `mass` kg (0.4 × 0.3 m) centred at `center` moving at
/// `velocity`, with a 1 kg head pinned on top (a joint tree of its own).
BodyId addHeavyFigure(World& world, Vec2 center, double mass, Vec2 velocity) {
    const BodyId body = addBox(world, center, 0.2, 0.15, mass);
    const BodyId head = addCircle(world, center + Vec2{0.0, 0.25}, 0.1, 1.0);
    REQUIRE(world.isValid(world.createJoint(makeRevoluteJointDef(world, body, head, center + Vec2{0.0, 0.15}))));
    for (BodyId id : {body, head}) world.setVelocity(id, velocity, 0.0);
    return body;
}

}  // namespace

TEST_CASE("another ragdoll's heavy body landing on a limb lying on the ground rests on it",
          "[solver][contacts]") {
    // Solved body by body on its own 0.5 kg, the limb took nearly all of each push from the
    // heavy body and went into the ground, and its tree's contact system put it back after:
    // the heavy body sank through it, 78–106 mm into the 8 cm limb, and came to rest on
    // the ground or halfway through the limb.
    struct Landing {
        double x, mass, speed;
    };
    for (const Landing landing : {Landing{0.15, 60.0, 4.0}, Landing{0.0, 60.0, 4.0}, Landing{-0.1, 60.0, 4.0},
                                  Landing{0.35, 60.0, 4.0}, Landing{0.15, 60.0, 2.0}, Landing{0.1, 80.0, 6.0},
                                  Landing{0.15, 20.0, 4.0}}) {
        World world(awakeWorldDef());
        const BodyId ground = addGround(world);
        const LyingFigure lying = addLyingFigure(world, 0.6);
        const BodyId heavy = addHeavyFigure(world, {landing.x, 0.4}, landing.mass, {0.0, -landing.speed});
        double deepest = 0.0, into = 0.0;
        for (int i = 0; i < 120; ++i) {
            world.step(kDt);
            deepest = std::max(deepest, world.overlap(lying.limb, ground));
            into = std::max(into, world.overlap(lying.limb, heavy));
        }
        INFO("landing at x = " << landing.x << " m, " << landing.mass << " kg at " << landing.speed << " m/s: the heavy body "
                               << into * 1000.0 << " mm into the limb at most, " << world.overlap(lying.limb, heavy) * 1000.0
                               << " mm at the end; the limb " << deepest * 1000.0 << " mm into the ground");
        CHECK(into <= 0.01);
        CHECK(world.overlap(lying.limb, heavy) <= kLinearSlop);
        CHECK(deepest <= kLinearSlop);
        if (landing.x == 0.15 && landing.mass == 60.0) CHECK(world.bodyState(heavy).position.y > 0.2);  // on the limb
    }
}

TEST_CASE("a ragdoll lying on frictionless ground is pushed along it by another, momentum kept",
          "[solver][contacts]") {
    // The terrain holds the lying body only along its normal: a push across the ground moves
    // it, and with no friction the two figures' momentum along the ground is kept.
    World world(awakeWorldDef());
    addGround(world, 0.0, 50.0, 0.5, 0.0);
    const LyingFigure lying = addLyingFigure(world, 0.0);
    addHeavyFigure(world, {0.6, 0.151}, 20.0, {-2.0, 0.0});
    auto momentumX = [&] {
        double p = 0.0;
        world.forEachBody([&](BodyId id) {
            if (world.bodyType(id) == BodyType::Dynamic) p += world.bodyMass(id) * world.bodyState(id).linearVelocity.x;
        });
        return p;
    };
    const double before = momentumX();
    const double torsoStart = world.bodyState(lying.torso).position.x;
    for (int i = 0; i < 30; ++i) world.step(kDt);
    const double after = momentumX();
    const double moved = world.bodyState(lying.torso).position.x - torsoStart;
    INFO("momentum along the ground " << before << " -> " << after << " kg m/s; the torso moved " << moved << " m");
    CHECK(before == Approx(-42.0).epsilon(1e-9));
    CHECK(after == Approx(before).margin(0.05));
    CHECK(moved < -0.15);  // pushed along, not held where it lay
}

TEST_CASE("a ragdoll landing on another drives it onto ground it had no contact with, and the ground stops it",
          "[solver][contacts]") {
    // The lower figure hangs still 8 cm over the ground: its own speed puts the ground out of
    // its contact search's reach (2 cm), and the 60 kg body falling onto it at 6 m/s drives it
    // ~10 cm down within a step. The ground is looked for as far as a tree whose bounds
    // overlap its own can travel in the step (Body::terrainReach), so it is there when the
    // push comes.
    World world(awakeWorldDef());
    const BodyId ground = addGround(world);
    const BodyId torso = addCapsule(world, {-0.9, 0.18}, {-0.3, 0.18}, 0.1, 10.0);
    const BodyId limb = addCapsule(world, {-0.3, 0.12}, {0.3, 0.12}, 0.04, 0.5);
    REQUIRE(world.isValid(world.createJoint(makeRevoluteJointDef(world, torso, limb, {-0.3, 0.15}))));
    const BodyId heavy = addHeavyFigure(world, {0.15, 0.16 + 0.15 + 0.12}, 60.0, {0.0, -6.0});
    double deepest = 0.0, into = 0.0, rebound = 0.0;
    for (int i = 0; i < 30; ++i) {
        world.step(kDt);
        deepest = std::max({deepest, world.overlap(limb, ground), world.overlap(torso, ground)});
        into = std::max(into, world.overlap(limb, heavy));
        rebound = std::max(rebound, world.bodyState(heavy).linearVelocity.y);
    }
    INFO("deepest in the ground " << deepest * 1000.0 << " mm; the heavy body " << into * 1000.0
                                  << " mm into the limb at most, rebounding at " << rebound << " m/s, at y = "
                                  << world.bodyState(heavy).position.y);
    CHECK(world.bodyState(heavy).position.y < 0.25);  // it landed, the figure under it on the ground
    CHECK(deepest <= kLinearSlop);
    CHECK(rebound < 0.5);  // restitution 0: not thrown back up
}
