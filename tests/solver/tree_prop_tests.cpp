// Loose bodies (props) touching a joint tree: the contacts are rows of the tree's contact
// system, and so are the prop's contacts with the terrain under it.
#include <catch2/catch.hpp>

#include <cmath>

#include "solver/world.h"
#include "test_bodies.h"

using namespace ragdoll;
using namespace ragdoll::test;

namespace {

constexpr double kDt = 1.0 / 60.0;

}  // namespace

TEST_CASE("a plank lying across a tree's capsule and circle settles on both", "[solver][contacts][trees]") {
    World world(awakeWorldDef());
    addGround(world, 3.0);

    // A limb lying on the ground and a head joined to its end: one tree.
    const BodyId limb = addCapsule(world, {0.2, 0.04}, 0.0, 0.2, 0.04, 1.5);
    const BodyId head = addCircle(world, {0.55, 0.1}, 0.1, 4.0);
    JointDef neck = makeRevoluteJointDef(world, limb, head, {0.45, 0.07});
    neck.enableLimit = true;
    neck.lowerAngle = -0.3;
    neck.upperAngle = 0.3;
    REQUIRE(!isNull(world.createJoint(neck)));

    // A plank dropped across both. Made after the limb, it is B against the limb (a capsule
    // too, of a lower slot) and A against the head (a circle ranks below a capsule): the
    // tree is A in one contact and B in the other.
    const BodyId plank = addCapsule(world, {0.35, 0.3}, 0.0, 0.3, 0.03, 2.0);

    const int plankSlot = plank.index1 - 1, limbSlot = limb.index1 - 1, headSlot = head.index1 - 1;
    double deepest = 0.0, fastest = 0.0;
    bool onLimb = false, onHead = false;
    for (int i = 0; i < 180; ++i) {
        world.step(kDt);
        for (const Contact& c : world.contacts()) {
            const int other = c.bodyA == plankSlot ? c.bodyB : c.bodyB == plankSlot ? c.bodyA : -1;
            if (other != limbSlot && other != headSlot) continue;
            for (int p = 0; p < c.pointCount; ++p) {
                if (c.points[p].separation >= 0.0) continue;
                (other == limbSlot ? onLimb : onHead) = true;
                if (i >= 60) deepest = std::max(deepest, -c.points[p].separation);
            }
        }
        if (i >= 120) fastest = std::max(fastest, length(world.bodyState(plank).linearVelocity));
    }
    CAPTURE(deepest, fastest, world.bodyState(plank).position, world.bodyState(plank).angle);
    CHECK(onLimb);
    CHECK(onHead);
    CHECK(deepest < 0.004);  // metres: the contacts' 2 mm allowance and some
    CHECK(fastest < 0.005);  // m/s over the last second: at rest
}

TEST_CASE("a tree leaning on a crate does not push it along", "[solver][contacts][trees]") {
    World world(awakeWorldDef());
    addGround(world, 4.0);
    const BodyId crate = addBox(world, {0.0, 0.5}, 0.3, 0.5, 25.0);

    // A rod of two 0.5 m capsules (10 kg), its knee held nearly straight, leaning 20° on the
    // crate: it pushes the crate with about (m·g/2)·tan 20° = 18 N, where the crate's
    // friction holds 0.6 · 25 kg · g = 147 N.
    const double lean = 0.35, radius = 0.04;
    const Vec2 top{-0.3 - radius, radius + std::cos(lean)};
    const Vec2 along{-std::sin(lean), -std::cos(lean)};
    const double angle = std::atan2(along.y, along.x);
    const BodyId upper = addCapsule(world, top + 0.25 * along, angle, 0.25, radius, 5.0);
    const BodyId lower = addCapsule(world, top + 0.75 * along, angle, 0.25, radius, 5.0);
    JointDef knee = makeRevoluteJointDef(world, upper, lower, top + 0.5 * along);
    knee.enableLimit = true;
    knee.lowerAngle = -0.05;
    knee.upperAngle = 0.05;
    REQUIRE(!isNull(world.createJoint(knee)));

    for (int i = 0; i < 60; ++i) world.step(kDt);
    const Vec2 settled = world.bodyState(crate).position;
    const Vec2 foot = world.bodyState(lower).position;
    for (int i = 0; i < 300; ++i) world.step(kDt);
    const double crateMoved = length(world.bodyState(crate).position - settled);
    const double footMoved = length(world.bodyState(lower).position - foot);
    // Still leaning: the rod's top touches the crate.
    const int crateSlot = crate.index1 - 1, upperSlot = upper.index1 - 1;
    bool leaning = false;
    for (const Contact& c : world.contacts())
        if ((c.bodyA == crateSlot && c.bodyB == upperSlot) || (c.bodyA == upperSlot && c.bodyB == crateSlot))
            for (int p = 0; p < c.pointCount; ++p) leaning = leaning || c.points[p].separation < 0.0;
    CAPTURE(settled.x, world.bodyState(crate).position.x, crateMoved, footMoved, world.bodyState(upper).position.y);
    CHECK(leaning);
    CHECK(crateMoved < 0.001);  // metres in 5 s (before the crate was solved with the tree: 31 mm)
    CHECK(footMoved < 0.001);
}
