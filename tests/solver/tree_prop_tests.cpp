// Loose bodies (props) touching a joint tree: the contacts are rows of the tree's contact
// system, and so are the prop's contacts with the terrain under it.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "solver/world.h"
#include "test_bodies.h"

using namespace ragdoll;
using namespace ragdoll::test;

namespace {

constexpr double kDt = 1.0 / 60.0;

}  // namespace

TEST_CASE("a plank lying across a tree's capsule and circle settles on both", "[solver][contacts][trees]") {
    World world(awakeWorldDef());
    addGround(world, 0.0, 3.0);

    // A limb lying on the ground and a head joined to its end: one tree.
    const BodyId limb = addCapsule(world, {0.0, 0.04}, {0.4, 0.04}, 0.04, 1.5);
    const BodyId head = addCircle(world, {0.55, 0.1}, 0.1, 4.0);
    JointDef neck = makeRevoluteJointDef(world, limb, head, {0.45, 0.07});
    neck.enableLimit = true;
    neck.lowerAngle = -0.3;
    neck.upperAngle = 0.3;
    REQUIRE(!isNull(world.createJoint(neck)));

    // A plank dropped across both. Made after the limb, it is B against the limb (a capsule
    // too, of a lower slot) and A against the head (a circle ranks below a capsule): the
    // tree is A in one contact and B in the other.
    const BodyId plank = addCapsule(world, {0.05, 0.3}, {0.65, 0.3}, 0.03, 2.0);

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

namespace {

/// A rod of two capsules of 5 kg and `length` / 2 each, its knee held within ±0.05 rad,
/// leaning 20° from upright with its top at `top` (to the left of what it leans on).
struct Rod {
    BodyId upper, lower;
};
Rod addLeaningRod(World& world, Vec2 top, double length) {
    const double lean = 0.35, radius = 0.04;
    const Vec2 along{-std::sin(lean), -std::cos(lean)};
    top.x -= radius;
    const Vec2 knee = top + 0.5 * length * along, foot = top + length * along;
    const Rod rod{addCapsule(world, top, knee, radius, 5.0), addCapsule(world, knee, foot, radius, 5.0)};
    JointDef joint = makeRevoluteJointDef(world, rod.upper, rod.lower, knee);
    joint.enableLimit = true;
    joint.lowerAngle = -0.05;
    joint.upperAngle = 0.05;
    REQUIRE(!isNull(world.createJoint(joint)));
    return rod;
}

/// Whether two bodies overlap at some point of their contact.
bool touching(const World& world, BodyId a, BodyId b) {
    const int slotA = a.index1 - 1, slotB = b.index1 - 1;
    for (const Contact& c : world.contacts())
        if ((c.bodyA == slotA && c.bodyB == slotB) || (c.bodyA == slotB && c.bodyB == slotA))
            for (int p = 0; p < c.pointCount; ++p)
                if (c.points[p].separation < 0.0) return true;
    return false;
}

/// Over 5 s after 1 s to settle, how far each body moved (metres).
std::vector<double> movedOver5s(World& world, const std::vector<BodyId>& bodies) {
    for (int i = 0; i < 60; ++i) world.step(kDt);
    std::vector<Vec2> settled;
    for (BodyId id : bodies) settled.push_back(world.bodyState(id).position);
    for (int i = 0; i < 300; ++i) world.step(kDt);
    std::vector<double> moved;
    for (size_t i = 0; i < bodies.size(); ++i) moved.push_back(length(world.bodyState(bodies[i]).position - settled[i]));
    return moved;
}

}  // namespace

TEST_CASE("a tree leaning on a crate does not push it along", "[solver][contacts][trees]") {
    World world(awakeWorldDef());
    addGround(world, 0.0, 4.0);
    const BodyId crate = addBox(world, {0.0, 0.5}, 0.3, 0.5, 25.0);
    // 10 kg leaning 20° on the crate push it with about (m·g/2)·tan 20° = 18 N, where the
    // crate's friction holds 0.6 · 25 kg · g = 147 N.
    const Rod rod = addLeaningRod(world, {-0.3, 0.04 + std::cos(0.35)}, 1.0);

    const std::vector<double> moved = movedOver5s(world, {crate, rod.lower});
    CAPTURE(moved[0], moved[1]);
    CHECK(touching(world, rod.upper, crate));  // still leaning on it
    CHECK(moved[0] < 0.001);  // the crate; before it was solved with the tree: 31 mm
    CHECK(moved[1] < 0.001);  // the rod's foot
}

TEST_CASE("a tree leaning on the top crate of a stack does not push it off", "[solver][contacts][trees]") {
    // The top crate's friction (0.6 · 12 kg · g = 71 N) holds the rod's ~18 N push, and
    // the lower crate carries both.
    World world(awakeWorldDef());
    addGround(world, 0.0, 4.0);
    const BodyId bottom = addBox(world, {0.0, 0.3}, 0.3, 0.3, 10.0);
    const BodyId top = addBox(world, {0.0, 0.85}, 0.25, 0.25, 12.0);
    const Rod rod = addLeaningRod(world, {-0.25, 0.04 + 1.1 * std::cos(0.35)}, 1.1);

    const std::vector<double> moved = movedOver5s(world, {top, bottom, rod.lower});
    CAPTURE(moved[0], moved[1], moved[2]);
    CHECK(touching(world, rod.upper, top));
    CHECK(moved[0] < 0.001);  // the top crate; with only the crate the rod touches in the
                              // rod's system it slid 190 mm
    CHECK(moved[1] < 0.001);
    CHECK(moved[2] < 0.001);
}
