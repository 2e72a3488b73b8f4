// Joint friction (JointDef::frictionTorque): a joint holds its angle while the torque
// turning it stays under the friction, and turns against the friction above it — in a
// tree touching nothing, in a tree touching the world (its contact system) and with the
// Gauss-Seidel joints.
#include <catch2/catch.hpp>

#include <cmath>

#include "solver/world.h"

using namespace ragdoll;

namespace {

constexpr double kDt = 1.0 / 60.0;
constexpr double kDegree = kPi / 180.0;
constexpr double kGravity = 9.81;

World makeWorld(JointSolver solver, Vec2 gravity = {0.0, -kGravity}) {
    WorldDef def = defaultWorldDef();
    def.jointSolver = solver;
    def.enableSleep = false;
    def.gravity = gravity;
    return World(def);
}

BodyId addStatic(World& world, Vec2 centre, Vec2 halfExtents) {
    BodyDef def = defaultBodyDef();
    def.type = BodyType::Static;
    def.position = centre;
    const BodyId id = world.createBody(def);
    world.setPolygon(id, defaultShapeDef(), makeBox(halfExtents.x, halfExtents.y));
    return id;
}

/// A 1.5 kg capsule of radius 0.04 m from `from`, `length` long at `angle`.
BodyId addLimb(World& world, Vec2 from, double angle, double length) {
    const Vec2 axis = {std::cos(angle), std::sin(angle)};
    BodyDef def = defaultBodyDef();
    def.position = from + 0.5 * length * axis;
    def.angle = angle;
    const BodyId id = world.createBody(def);
    ShapeDef shape = defaultShapeDef();
    shape.mass = 1.5;
    world.setCapsule(id, shape, Capsule{{-0.5 * length, 0.0}, {0.5 * length, 0.0}, 0.04});
    return id;
}

/// How far a level forearm (1.5 kg, 0.27 m, pinned at one end to a static body) has
/// turned `seconds` after it is let go, with the given joint friction.
double forearmTurn(JointSolver solver, double friction, double seconds) {
    World world = makeWorld(solver);
    const BodyId wall = addStatic(world, {-0.1, 0.0}, {0.1, 0.1});
    const BodyId forearm = addLimb(world, {0.0, 0.0}, 0.0, 0.27);
    JointDef joint = makeRevoluteJointDef(world, wall, forearm, {0.0, 0.0});
    joint.frictionTorque = friction;
    REQUIRE(!isNull(world.createJoint(joint)));
    for (int i = 0; i < int(std::lround(seconds / kDt)); ++i) world.step(kDt);
    return -world.bodyState(forearm).angle;
}

}  // namespace

// Gravity turns the level forearm with m·g·0.135 m = 1.99 N·m about its pin. Friction of
// 2.5 N·m holds it level; 1 N·m lets it fall with (1.99 − 1)/I, half the free fall's
// angular acceleration, so after 0.1 s (small angles: the torque barely changes) it has
// turned half as far as it does without friction.
TEST_CASE("joint friction holds a level forearm above its weight's torque and halves its fall at half of it",
          "[solver][joints][friction]") {
    const JointSolver solver = GENERATE(JointSolver::Direct, JointSolver::Iterative);
    INFO((solver == JointSolver::Direct ? "direct tree" : "Gauss-Seidel"));
    const double weight = 1.5 * kGravity * 0.135;
    const double held = forearmTurn(solver, 2.5, 2.0);
    const double free = forearmTurn(solver, 0.0, 0.1);
    const double rubbing = forearmTurn(solver, 1.0, 0.1);
    INFO("held by 2.5 N·m: turned " << held / kDegree << " deg in 2 s; in 0.1 s free " << free / kDegree
                                    << " deg, with 1 N·m " << rubbing / kDegree << " deg (expected ratio "
                                    << (weight - 1.0) / weight << ")");
    CHECK(std::abs(held) < 0.05 * kDegree);
    CHECK(free > 5.0 * kDegree);  // it does fall
    CHECK(rubbing / free == Approx((weight - 1.0) / weight).margin(0.03));
}

// A limb leaning up at 45° from the end of an 8 kg body lying on the ground: its weight
// turns it with 1.5·g·0.14·cos 45° = 1.46 N·m about the joint. The body touches the world,
// so the joint's friction is a row of the tree's contact system: 2 N·m holds the limb
// where it leans (and the body stays where it lies); 1 N·m lets it fall. Measured from
// 0.5 s: first the body drops into the contacts' 2 mm of slop, and stopping that drop
// slips the joint by 0.6° (the limb's 0.03 J taken by 2 N·m of friction over 0.01 rad).
TEST_CASE("joint friction holds a limb leaning up from a body lying on the ground", "[solver][joints][friction][contacts]") {
    // The limb's turn on the body from 0.5 s to 3 s and from the start; how far the body moved from 0.5 s.
    auto run = [](double friction, double& limbTurn, double& limbTurnInAll, double& bodyMoved) {
        World world = makeWorld(JointSolver::Direct);
        addStatic(world, {0.0, -0.5}, {20.0, 0.5});
        BodyDef def = defaultBodyDef();
        def.position = {0.0, 0.09};
        const BodyId body = world.createBody(def);
        ShapeDef shape = defaultShapeDef();
        shape.mass = 8.0;
        world.setPolygon(body, shape, makeBox(0.4, 0.09));
        const BodyId limb = addLimb(world, {0.4, 0.09}, 45.0 * kDegree, 0.28);
        JointDef joint = makeRevoluteJointDef(world, body, limb, {0.4, 0.09});
        joint.frictionTorque = friction;
        REQUIRE(!isNull(world.createJoint(joint)));
        auto bend = [&] { return world.bodyState(limb).angle - world.bodyState(body).angle; };
        const double startBend = bend();
        for (int i = 0; i < 30; ++i) world.step(kDt);
        const double settledBend = bend();
        const Vec2 settled = world.bodyState(body).position;
        for (int i = 0; i < 150; ++i) world.step(kDt);
        limbTurn = std::abs(bend() - settledBend);
        limbTurnInAll = std::abs(bend() - startBend);
        bodyMoved = length(world.bodyState(body).position - settled);
    };
    double heldTurn = 0.0, heldInAll = 0.0, heldMoved = 0.0, fallLate = 0.0, fallTurn = 0.0, fallMoved = 0.0;
    run(2.0, heldTurn, heldInAll, heldMoved);
    run(1.0, fallLate, fallTurn, fallMoved);
    INFO("from 0.5 s to 3 s, 2 N·m: the limb turned " << heldTurn / kDegree << " deg on the body, the body moved "
                                                     << heldMoved * 1000.0 << " mm (from the start " << heldInAll / kDegree
                                                     << " deg); 1 N·m: the limb turned " << fallTurn / kDegree << " deg");
    CHECK(heldTurn < 0.01 * kDegree);
    CHECK(heldInAll < 1.0 * kDegree);
    CHECK(heldMoved < 1e-5);
    CHECK(fallTurn > 30.0 * kDegree);
}

// Two limbs pinned end to end in empty space, spun against each other at 2 rad/s: the
// friction stops their relative turn and, being internal, changes neither their linear
// momentum (zero) nor, beyond 1%, their angular momentum.
TEST_CASE("joint friction stops two limbs turning against each other in free flight and keeps their momentum",
          "[solver][joints][friction]") {
    World world = makeWorld(JointSolver::Direct, {0.0, 0.0});
    const BodyId a = addLimb(world, {-0.3, 0.0}, 0.0, 0.3);
    const BodyId b = addLimb(world, {0.0, 0.0}, 0.0, 0.3);
    JointDef joint = makeRevoluteJointDef(world, a, b, {0.0, 0.0});
    joint.frictionTorque = 0.2;
    REQUIRE(!isNull(world.createJoint(joint)));
    world.setVelocity(a, {0.0, 0.15}, -1.0);
    world.setVelocity(b, {0.0, -0.15}, 1.0);
    // Angular momentum about the origin, kg·m²/s: each body's centre of mass moving, and its spin.
    auto angularMomentum = [&] {
        double total = 0.0;
        for (BodyId id : {a, b}) {
            const BodyState s = world.bodyState(id);
            const Vec2 c = world.worldCenterOfMass(id);
            const Vec2 vc = s.linearVelocity + cross(s.angularVelocity, c - s.position);
            total += world.bodyMass(id) * cross(c, vc) + world.bodyInertia(id) * s.angularVelocity;
        }
        return total;
    };
    const double spinBefore = angularMomentum();
    double stoppedAt = -1.0, largestMomentum = 0.0, largestSpinChange = 0.0;
    for (int i = 1; i <= 120; ++i) {
        world.step(kDt);
        const BodyState sa = world.bodyState(a), sb = world.bodyState(b);
        const Vec2 pa = world.bodyMass(a) * world.bodyState(a).linearVelocity, pb = world.bodyMass(b) * sb.linearVelocity;
        largestMomentum = std::max(largestMomentum, length(pa + pb));
        largestSpinChange = std::max(largestSpinChange, std::abs(angularMomentum() - spinBefore));
        if (stoppedAt < 0.0 && std::abs(sb.angularVelocity - sa.angularVelocity) < 1e-6) stoppedAt = i * kDt;
    }
    INFO("relative turn stopped at " << stoppedAt << " s; largest momentum " << largestMomentum
                                     << " kg·m/s; angular momentum " << spinBefore << " kg·m²/s, changed by "
                                     << largestSpinChange << " at most");
    CHECK(stoppedAt > 0.05);  // friction of 0.2 N·m takes a while, it is no weld
    CHECK(stoppedAt < 1.0);
    CHECK(largestMomentum < 1e-9);
    CHECK(std::abs(spinBefore) > 0.01);  // they do spin together
    CHECK(largestSpinChange <= 0.01 * std::abs(spinBefore));
}
