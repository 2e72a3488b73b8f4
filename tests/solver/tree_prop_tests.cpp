// A loose body (a prop) touching a joint tree at two of its bodies: both contacts are rows
// of the tree's contact system, and the prop answers to each on its own. Which of a
// contact's two bodies is A depends on their shapes and slots, so the tree can be A in one
// contact and B in the other.
#include <catch2/catch.hpp>

#include <cmath>

#include "solver/world.h"

using namespace ragdoll;

namespace {

constexpr double kDt = 1.0 / 60.0;

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
    BodyDef limbDef = defaultBodyDef();
    limbDef.position = {0.2, 0.04};
    const BodyId limb = world.createBody(limbDef);
    ShapeDef limbShape = defaultShapeDef();
    limbShape.mass = 1.5;
    world.setCapsule(limb, limbShape, Capsule{{-0.2, 0.0}, {0.2, 0.0}, 0.04});
    BodyDef headDef = defaultBodyDef();
    headDef.position = {0.55, 0.1};
    const BodyId head = world.createBody(headDef);
    ShapeDef headShape = defaultShapeDef();
    headShape.mass = 4.0;
    world.setCircle(head, headShape, Circle{{0.0, 0.0}, 0.1});
    JointDef neck = makeRevoluteJointDef(world, limb, head, {0.45, 0.07});
    neck.enableLimit = true;
    neck.lowerAngle = -0.3;
    neck.upperAngle = 0.3;
    REQUIRE(!isNull(world.createJoint(neck)));

    // A plank dropped across both. Made after the limb, it is B against the limb (a capsule
    // too, of a lower slot) and A against the head (a circle ranks below a capsule): the
    // tree is A in one contact and B in the other.
    BodyDef plankDef = defaultBodyDef();
    plankDef.position = {0.35, 0.3};
    const BodyId plank = world.createBody(plankDef);
    ShapeDef plankShape = defaultShapeDef();
    plankShape.mass = 2.0;
    world.setCapsule(plank, plankShape, Capsule{{-0.3, 0.0}, {0.3, 0.0}, 0.03});

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
