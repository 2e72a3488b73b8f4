// Loose bodies (props) touching a joint tree: the contacts are rows of the tree's contact
// system, and so are the prop's contacts with the terrain under it.
#include <catch2/catch.hpp>

#include <cmath>

#include "solver/world.h"

using namespace ragdoll;

namespace {

constexpr double kDt = 1.0 / 60.0;

/// A dynamic body at `position` of the given mass, its shape a horizontal capsule of the
/// given half-length (0: a circle) and radius.
BodyId addBody(World& world, Vec2 position, double mass, double halfLength, double radius) {
    BodyDef def = defaultBodyDef();
    def.position = position;
    const BodyId id = world.createBody(def);
    ShapeDef shape = defaultShapeDef();
    shape.mass = mass;
    if (halfLength > 0.0) world.setCapsule(id, shape, Capsule{{-halfLength, 0.0}, {halfLength, 0.0}, radius});
    else world.setCircle(id, shape, Circle{{0.0, 0.0}, radius});
    return id;
}

}  // namespace

TEST_CASE("a plank lying across a tree's capsule and circle settles on both", "[solver][contacts][trees]") {
    WorldDef worldDef = defaultWorldDef();
    worldDef.enableSleep = false;
    World world(worldDef);
    BodyDef groundDef = defaultBodyDef();
    groundDef.type = BodyType::Static;
    groundDef.position = {0.0, -0.5};
    const BodyId ground = world.createBody(groundDef);
    world.setPolygon(ground, defaultShapeDef(), makeBox(3.0, 0.5));

    // A limb lying on the ground and a head joined to its end: one tree.
    const BodyId limb = addBody(world, {0.2, 0.04}, 1.5, 0.2, 0.04);
    const BodyId head = addBody(world, {0.55, 0.1}, 4.0, 0.0, 0.1);
    JointDef neck = makeRevoluteJointDef(world, limb, head, {0.45, 0.07});
    neck.enableLimit = true;
    neck.lowerAngle = -0.3;
    neck.upperAngle = 0.3;
    REQUIRE(!isNull(world.createJoint(neck)));

    // A plank dropped across both. Made after the limb, it is B against the limb (a capsule
    // too, of a lower slot) and A against the head (a circle ranks below a capsule): the
    // tree is A in one contact and B in the other.
    const BodyId plank = addBody(world, {0.35, 0.3}, 2.0, 0.3, 0.03);

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
    WorldDef worldDef = defaultWorldDef();
    worldDef.enableSleep = false;
    World world(worldDef);
    BodyDef groundDef = defaultBodyDef();
    groundDef.type = BodyType::Static;
    groundDef.position = {0.0, -0.5};
    const BodyId ground = world.createBody(groundDef);
    world.setPolygon(ground, defaultShapeDef(), makeBox(4.0, 0.5));

    BodyDef crateDef = defaultBodyDef();
    crateDef.position = {0.0, 0.5};
    const BodyId crate = world.createBody(crateDef);
    ShapeDef crateShape = defaultShapeDef();
    crateShape.mass = 25.0;
    world.setPolygon(crate, crateShape, makeBox(0.3, 0.5));

    // A rod of two 0.5 m capsules (10 kg), its knee held nearly straight, leaning 20° on the
    // crate: it pushes the crate with about (m·g/2)·tan 20° = 18 N, where the crate's
    // friction holds 0.6 · 25 kg · g = 147 N.
    const double lean = 0.35, radius = 0.04;
    const Vec2 top{-0.3 - radius, radius + std::cos(lean)};
    const Vec2 along{-std::sin(lean), -std::cos(lean)};
    auto segment = [&](Vec2 from) {
        BodyDef def = defaultBodyDef();
        def.position = from + 0.25 * along;
        def.angle = std::atan2(along.y, along.x);
        const BodyId id = world.createBody(def);
        ShapeDef shape = defaultShapeDef();
        shape.mass = 5.0;
        world.setCapsule(id, shape, Capsule{{-0.25, 0.0}, {0.25, 0.0}, radius});
        return id;
    };
    const BodyId upper = segment(top);
    const BodyId lower = segment(top + 0.5 * along);
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
