// The solver's behaviour, with numbers a user relies on: stretch in metres, limit error
// in degrees, momentum in kg·m/s, penetration against the slop.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <vector>

#include "build_world.h"
#include "solver/constants.h"
#include "solver/world.h"
#include "test_bodies.h"

using namespace ragdoll;
using namespace ragdoll::test;

namespace {

constexpr double kDt = 1.0 / 60.0;
constexpr double kDegree = kPi / 180.0;

World makeWorld(int substeps = 4, JointSolver solver = JointSolver::Direct, bool sleep = false, Vec2 gravity = {0.0, -9.81}) {
    WorldDef def = defaultWorldDef();
    def.substeps = substeps;
    def.jointSolver = solver;
    def.enableSleep = sleep;
    def.gravity = gravity;
    return World(def);
}

/// Max anchor separation over a run of the tests/scenes/SCENES.md chain.
double chainStretch(bool horizontal, int substeps, JointSolver solver, int iterations = 1) {
    World world = makeWorld(substeps, solver, false, {0.0, -10.0});
    world.setIterations(iterations);
    scenes::BuiltScene built = scenes::buildWorld(world, scenes::makeChain(horizontal));
    double worst = 0.0;
    for (int i = 0; i < 300; ++i) {
        world.step(kDt);
        double sep = 0.0, viol = 0.0;
        scenes::measureJoints(world, built, sep, viol);
        worst = std::max(worst, sep);
    }
    return worst;
}

}  // namespace

// ---------------------------------------------------------------- stretch

TEST_CASE("the SCENES chain with a 50 kg end mass stretches under 1 mm with the direct solver", "[solver][stretch]") {
    double straight = chainStretch(false, 4, JointSolver::Direct);
    double swinging = chainStretch(true, 4, JointSolver::Direct);
    CAPTURE(straight, swinging);
    CHECK(straight <= 0.001);
    CHECK(swinging <= 0.001);
}

TEST_CASE("on the iterative path the chain's stretch falls as substeps grow", "[solver][stretch]") {
    double e1 = chainStretch(true, 1, JointSolver::Iterative);
    double e2 = chainStretch(true, 2, JointSolver::Iterative);
    double e4 = chainStretch(true, 4, JointSolver::Iterative);
    double e8 = chainStretch(true, 8, JointSolver::Iterative);
    CAPTURE(e1, e2, e4, e8);
    CHECK(e2 < e1);
    CHECK(e4 < e2);
    CHECK(e8 < e4);
    // And the direct solver beats every one of them at 4 substeps.
    CHECK(chainStretch(true, 4, JointSolver::Direct) < e8);
}

// ---------------------------------------------------------------- stiffness

namespace {
/// A 1 kg ball hanging 1 m below a static pin through a joint of stiffness k: how far the
/// anchor has sagged after 2 s.
double sag(double stiffness, int iterations, JointSolver solver) {
    World world = makeWorld(4, solver);
    world.setIterations(iterations);
    BodyDef pinDef = defaultBodyDef();
    pinDef.type = BodyType::Static;
    BodyId pin = world.createBody(pinDef);
    BodyDef ballDef = defaultBodyDef();
    ballDef.position = {0.0, -1.0};
    BodyId ball = world.createBody(ballDef);
    ShapeDef shape = defaultShapeDef();
    shape.mass = 1.0;
    world.setCircle(ball, shape, Circle{{0.0, 0.0}, 0.1});
    JointDef def = makeRevoluteJointDef(world, pin, ball, {0.0, 0.0});
    def.stiffness = stiffness;
    JointId joint = world.createJoint(def);
    for (int i = 0; i < 120; ++i) world.step(kDt);
    return world.jointError(joint).separation;
}
}  // namespace

TEST_CASE("joint stiffness 0.5 sags the same for 1, 2, 4 and 8 iterations", "[solver][stiffness]") {
    for (JointSolver solver : {JointSolver::Iterative, JointSolver::Direct}) {
        double reference = sag(0.5, 1, solver);
        CAPTURE(int(solver), reference);
        // Per substep gravity adds g·h² of error and the joint removes half of it: the
        // error settles at (1 − k)/k · g·h² = 9.81 / 240² m ≈ 0.17 mm.
        CHECK(reference == Approx(9.81 / (240.0 * 240.0)).epsilon(0.05));
        for (int iterations : {2, 4, 8}) {
            CAPTURE(iterations);
            CHECK(sag(0.5, iterations, solver) == Approx(reference).epsilon(0.05));
        }
        CHECK(sag(1.0, 1, solver) < 1e-9);  // k = 1 is rigid
    }
}

// ---------------------------------------------------------------- limits

namespace {
struct Hinge {
    World world = makeWorld();
    BodyId upper, lower;
    JointId joint;
};

/// A forearm hanging from an upper arm that is pinned to the world, with a hinge limit.
void makeHinge(Hinge& h, double lowerDeg, double upperDeg, double parentMass = 1.5, double childMass = 1.5) {
    BodyDef pinDef = defaultBodyDef();
    pinDef.type = BodyType::Static;
    pinDef.position = {0.0, 2.0};
    BodyId pin = h.world.createBody(pinDef);
    h.upper = addCapsule(h.world, {0.0, 2.0}, {0.3, 2.0}, 0.04, parentMass);
    h.lower = addCapsule(h.world, {0.3, 2.0}, {0.6, 2.0}, 0.04, childMass);
    h.world.createJoint(makeRevoluteJointDef(h.world, pin, h.upper, {0.0, 2.0}));
    JointDef def = makeRevoluteJointDef(h.world, h.upper, h.lower, {0.3, 2.0});
    def.enableLimit = true;
    def.lowerAngle = lowerDeg * kDegree;
    def.upperAngle = upperDeg * kDegree;
    h.joint = h.world.createJoint(def);
}

/// Kinetic plus potential energy of the world's dynamic bodies under gravity (0, −9.81), J.
double mechanicalEnergy(const World& world) {
    double energy = 0.0;
    world.forEachBody([&](BodyId id) {
        const double mass = world.bodyMass(id);
        if (mass == 0.0) return;
        const BodyState s = world.bodyState(id);
        const Vec2 c = world.worldCenterOfMass(id);
        const Vec2 vc = s.linearVelocity + cross(s.angularVelocity, c - s.position);
        energy += 0.5 * mass * lengthSquared(vc) + 0.5 * world.bodyInertia(id) * s.angularVelocity * s.angularVelocity +
                  mass * 9.81 * c.y;
    });
    return energy;
}

double worstViolationDegrees(Hinge& h, int steps) {
    double worst = 0.0;
    for (int i = 0; i < steps; ++i) {
        h.world.step(kDt);
        worst = std::max(worst, h.world.jointError(h.joint).limitViolation / kDegree);
    }
    return worst;
}
}  // namespace

TEST_CASE("a hinge limited to [0, 140] degrees holds under gravity and a large impulse", "[solver][limits]") {
    for (JointSolver solver : {JointSolver::Direct, JointSolver::Iterative}) {
        Hinge h;
        h.world.setJointSolver(solver);
        makeHinge(h, 0.0, 140.0);
        double worst = worstViolationDegrees(h, 60);
        // Kick the forearm hard both ways.
        h.world.applyLinearImpulse(h.lower, {0.0, 40.0}, h.world.worldCenterOfMass(h.lower) + Vec2{0.1, 0.0});
        worst = std::max(worst, worstViolationDegrees(h, 60));
        h.world.applyLinearImpulse(h.lower, {0.0, -60.0}, h.world.worldCenterOfMass(h.lower) + Vec2{0.1, 0.0});
        worst = std::max(worst, worstViolationDegrees(h, 120));
        CAPTURE(int(solver));
        CHECK(worst <= 0.5);
    }
}

TEST_CASE("a knee cannot hyperextend", "[solver][limits]") {
    // Knee range [-135, 0]: the shin may only fold one way. Push it the forbidden way.
    Hinge h;
    makeHinge(h, -135.0, 0.0);
    double worst = 0.0;
    for (int i = 0; i < 120; ++i) {
        h.world.applyLinearImpulse(h.lower, {0.0, 2.0}, h.world.worldCenterOfMass(h.lower) + Vec2{0.1, 0.0});
        h.world.step(kDt);
        worst = std::max(worst, h.world.jointError(h.joint).limitViolation / kDegree);
        CHECK(h.world.jointError(h.joint).relativeAngle <= 0.5 * kDegree);
    }
    CHECK(worst <= 0.5);
}

TEST_CASE("lower equal to upper welds the angle", "[solver][limits]") {
    Hinge h;
    makeHinge(h, 30.0, 30.0);
    // The forearm starts 30 degrees off its weld angle: the solver snaps it in and holds it.
    for (int i = 0; i < 30; ++i) h.world.step(kDt);
    for (int i = 0; i < 120; ++i) {
        h.world.step(kDt);
        CHECK(h.world.jointError(h.joint).relativeAngle == Approx(30.0 * kDegree).margin(0.5 * kDegree));
    }
}

TEST_CASE("a limit range that crosses plus or minus 180 degrees works", "[solver][limits]") {
    // Allowed: 150..210 degrees, i.e. the forearm folded back on itself, across ±180.
    Hinge h;
    makeHinge(h, 150.0, 210.0);
    for (int i = 0; i < 30; ++i) h.world.step(kDt);
    for (int i = 0; i < 240; ++i) {
        if (i % 40 == 0)
            h.world.applyLinearImpulse(h.lower, {0.0, i % 80 == 0 ? 3.0 : -3.0}, h.world.worldCenterOfMass(h.lower) + Vec2{0.1, 0.0});
        h.world.step(kDt);
        double angle = h.world.jointError(h.joint).relativeAngle;  // wrapped to (−π, π]
        double fromFolded = std::abs(wrapAngle(angle - kPi));       // 0 when fully folded
        CHECK(fromFolded <= 30.5 * kDegree);
    }
}

TEST_CASE("heavy limbs on a light parent do not spin", "[solver][limits]") {
    // godot#88481: a 10 kg limb on a 0.5 kg parent. The parent must not be spun around.
    // Released level, the undamped pair swings for the whole 10 s; a runaway spin would
    // have to take its energy from somewhere, so the pair's energy must never rise above
    // what it started with (the limit's stops and the solver only take energy out).
    Hinge h;
    makeHinge(h, -45.0, 45.0, 0.5, 10.0);
    const double start = mechanicalEnergy(h.world);
    double worst = 0.0, fastest = 0.0, mostGained = 0.0;
    for (int i = 0; i < 600; ++i) {
        h.world.step(kDt);
        worst = std::max(worst, h.world.jointError(h.joint).limitViolation / kDegree);
        fastest = std::max(fastest, std::abs(h.world.bodyState(h.upper).angularVelocity));
        mostGained = std::max(mostGained, mechanicalEnergy(h.world) - start);
    }
    INFO("the parent turned at " << fastest << " rad/s at most; the energy rose by " << mostGained << " J at most");
    CHECK(worst <= 0.5);
    CHECK(mostGained <= 0.01);
}

// ---------------------------------------------------------------- contacts

TEST_CASE("a capsule resting on flat ground penetrates no more than the slop and stops", "[solver][contacts]") {
    World world = makeWorld();
    addGround(world);
    BodyId capsule = addCapsule(world, {-0.25, 0.3}, {0.25, 0.3}, 0.05, 1.5);
    for (int i = 0; i < 120; ++i) world.step(kDt);  // 2 s
    double worstSpeed = 0.0, lowest = 1.0;
    for (int i = 0; i < 60; ++i) {
        world.step(kDt);
        BodyState s = world.bodyState(capsule);
        worstSpeed = std::max({worstSpeed, length(s.linearVelocity), std::abs(s.angularVelocity) * 0.25});
        lowest = std::min(lowest, s.position.y - 0.05);  // bottom of the capsule
    }
    CHECK(lowest >= -kLinearSlop);
    CHECK(worstSpeed < 1e-3);  // m/s: no jitter
    CHECK(std::abs(world.bodyState(capsule).angle) < 1e-3);  // lies flat, both ends touching
}

namespace {
/// A capsule lying on a ramp of `degrees`; returns how far it moved along the ramp in 2 s.
double slideOnRamp(double degrees, double friction) {
    World world = makeWorld();
    double a = degrees * kDegree;
    BodyDef def = defaultBodyDef();
    def.type = BodyType::Static;
    def.angle = a;
    BodyId ramp = world.createBody(def);
    ShapeDef shape = defaultShapeDef();
    shape.friction = friction;
    world.setPolygon(ramp, shape, makeBox(5.0, 0.5, {0.0, -0.5}));
    Vec2 along{std::cos(a), std::sin(a)}, up{-std::sin(a), std::cos(a)};
    Vec2 center = 0.051 * up;
    BodyId capsule = addCapsule(world, center - 0.25 * along, center + 0.25 * along, 0.05, 1.5, friction);
    Vec2 start = world.bodyState(capsule).position;
    for (int i = 0; i < 120; ++i) world.step(kDt);
    return dot(world.bodyState(capsule).position - start, -1.0 * along);
}
}  // namespace

TEST_CASE("friction 0.6 holds a capsule on a 20 degree ramp and lets it slide at 40", "[solver][contacts]") {
    double at20 = slideOnRamp(20.0, 0.6);
    double at40 = slideOnRamp(40.0, 0.6);
    CAPTURE(at20, at40);
    CHECK(std::abs(at20) < 0.005);
    // Sliding at 40°: a = g(sin 40° − 0.6 cos 40°) ≈ 1.80 m/s², 3.6 m in 2 s.
    CHECK(at40 == Approx(0.5 * 9.81 * (std::sin(40 * kDegree) - 0.6 * std::cos(40 * kDegree)) * 4.0).epsilon(0.1));
}

TEST_CASE("a capsule dropped onto stairs comes to rest on a step", "[solver][contacts]") {
    World world = makeWorld();
    addGround(world);
    // Five steps, 0.4 m wide and 0.18 m tall, rising to the right from x = 0.
    for (int i = 0; i < 5; ++i) {
        BodyDef def = defaultBodyDef();
        def.type = BodyType::Static;
        double height = 0.18 * (i + 1);
        def.position = {0.4 * i + 0.2, 0.5 * height};
        BodyId step = world.createBody(def);
        world.setPolygon(step, defaultShapeDef(), makeBox(0.2, 0.5 * height));
    }
    // Drop a short capsule over the third step (top at 0.54 m).
    BodyId capsule = addCapsule(world, {0.9, 1.5}, {1.1, 1.5}, 0.05, 1.5);
    for (int i = 0; i < 180; ++i) world.step(kDt);
    BodyState s = world.bodyState(capsule);
    CHECK(s.position.x > 0.8);
    CHECK(s.position.x < 1.2);
    CHECK(s.position.y - 0.05 == Approx(0.54).margin(kLinearSlop));
    CHECK(length(s.linearVelocity) < 1e-3);
}

TEST_CASE("a limb at 50 m/s does not tunnel through 0.1 m ground", "[solver][contacts]") {
    for (double angleDeg : {0.0, 30.0, 90.0}) {
        World world = makeWorld();
        addGround(world, 0.0, 50.0, 0.05);  // 10 cm thick
        double a = angleDeg * kDegree;
        Vec2 axis{0.15 * std::cos(a), 0.15 * std::sin(a)};
        BodyId limb = addCapsule(world, Vec2{0.0, 1.0} - axis, Vec2{0.0, 1.0} + axis, 0.05, 1.5);
        world.setVelocity(limb, {0.0, -50.0}, 0.0);
        // The capsule's lowest surface point: its centre less its half-length's drop and
        // its radius (the centre is the body's origin).
        double deepest = 0.0;
        for (int i = 0; i < 60; ++i) {
            world.step(kDt);
            const BodyState s = world.bodyState(limb);
            const double lowest = s.position.y - 0.15 * std::abs(std::sin(s.angle)) - 0.05;
            deepest = std::max(deepest, -lowest);
        }
        CAPTURE(angleDeg, deepest);
        CHECK(deepest <= 0.01);  // never more than 1 cm into the ground, let alone through it
    }
}

// ---------------------------------------------------------------- momentum

namespace {
struct Momentum {
    Vec2 linear;
    double angular = 0.0;  // about the origin
};
Momentum momentum(const World& world) {
    Momentum m;
    world.forEachBody([&](BodyId id) {
        double mass = world.bodyMass(id);
        if (mass == 0.0) return;
        BodyState s = world.bodyState(id);
        Vec2 c = world.worldCenterOfMass(id);
        Vec2 vc = s.linearVelocity + cross(s.angularVelocity, c - s.position);
        m.linear += mass * vc;
        m.angular += mass * cross(c, vc) + world.bodyInertia(id) * s.angularVelocity;
    });
    return m;
}
}  // namespace

TEST_CASE("free bodies without gravity keep their linear and angular momentum", "[solver][momentum]") {
    World world = makeWorld(4, JointSolver::Direct, false, {0.0, 0.0});
    BodyId a = addCapsule(world, {0.0, 0.0}, {0.5, 0.0}, 0.05, 2.0);
    BodyId b = addCapsule(world, {3.0, -2.0}, {3.0, -1.6}, 0.06, 1.0);
    world.setVelocity(a, {1.0, 0.5}, 3.0);
    world.setVelocity(b, {-0.5, 0.0}, -7.0);
    Momentum before = momentum(world);
    for (int i = 0; i < 300; ++i) world.step(kDt);
    Momentum after = momentum(world);
    CHECK(after.linear.x == Approx(before.linear.x).margin(1e-9));  // kg·m/s
    CHECK(after.linear.y == Approx(before.linear.y).margin(1e-9));
    CHECK(after.angular == Approx(before.angular).epsilon(1e-9));   // kg·m²/s
}

TEST_CASE("a collision between free bodies keeps their momentum", "[solver][momentum]") {
    World world = makeWorld(4, JointSolver::Direct, false, {0.0, 0.0});
    BodyId a = addCapsule(world, {-1.0, 0.0}, {-0.5, 0.1}, 0.05, 2.0);
    BodyId b = addCapsule(world, {0.5, -0.2}, {0.6, 0.3}, 0.06, 1.0);
    world.setVelocity(a, {2.0, 0.0}, 1.0);
    world.setVelocity(b, {-1.0, 0.1}, -2.0);
    Momentum before = momentum(world);
    bool touched = false;
    for (int i = 0; i < 120; ++i) {
        world.step(kDt);
        touched = touched || world.stats().contacts > 0;
    }
    Momentum after = momentum(world);
    REQUIRE(touched);
    CHECK(after.linear.x == Approx(before.linear.x).margin(1e-9));
    CHECK(after.linear.y == Approx(before.linear.y).margin(1e-9));
    // Both bodies are pushed at one point, so the pushes carry no net torque; what is left
    // is the second-order error of deriving velocities from positions.
    CHECK(after.angular == Approx(before.angular).epsilon(1e-3));
}

TEST_CASE("two pinned bodies keep their momentum too", "[solver][momentum]") {
    // Linear momentum is exact. Angular momentum of a spinning jointed pair decays at
    // O(h): projecting positions back onto the joint shortens each substep's arc. The test
    // pins the figure (about 2% over 5 s at 4 substeps, spinning at ~4 rad/s) and that it
    // halves when the substeps double, as an O(h) error must.
    double lost[2] = {};
    for (JointSolver solver : {JointSolver::Direct, JointSolver::Iterative}) {
        for (int k = 0; k < 2; ++k) {
            World world = makeWorld(k == 0 ? 4 : 8, solver, false, {0.0, 0.0});
            BodyId a = addCapsule(world, {0.0, 0.0}, {0.5, 0.0}, 0.05, 8.0);
            BodyId b = addCapsule(world, {0.5, 0.0}, {0.9, 0.0}, 0.04, 1.5);
            world.createJoint(makeRevoluteJointDef(world, a, b, {0.5, 0.0}));
            world.setVelocity(a, {0.3, 0.2}, 1.0);
            world.setVelocity(b, {0.0, 2.0}, -4.0);
            for (int i = 0; i < 2; ++i) world.step(kDt);  // the joint settles the mismatch
            Momentum before = momentum(world);
            for (int i = 0; i < 300; ++i) world.step(kDt);
            Momentum after = momentum(world);
            CAPTURE(int(solver), k);
            CHECK(after.linear.x == Approx(before.linear.x).margin(1e-6));  // kg·m/s
            CHECK(after.linear.y == Approx(before.linear.y).margin(1e-6));
            lost[k] = (before.angular - after.angular) / before.angular;
        }
        CAPTURE(lost[0], lost[1]);
        CHECK(lost[0] >= 0.0);  // dissipates, never gains
        CHECK(lost[0] < 0.025);
        CHECK(lost[1] < 0.6 * lost[0]);
    }
}

// ---------------------------------------------------------------- the stickman

TEST_CASE("the SCENES stickman dropped on flat ground keeps its joints and comes to rest", "[solver][stickman]") {
    World world = makeWorld(4, JointSolver::Direct, false, {0.0, -10.0});
    scenes::SceneSpec scene;
    scenes::addStickman(scene, 0.0, 1.0, {1.0, 0.0}, 0);  // dropped from 1 m, moving sideways
    addGround(world);
    scenes::BuiltScene built = scenes::buildWorld(world, scene);
    double stretch = 0.0, violation = 0.0;
    int restFrame = -1;
    for (int i = 0; i < 300; ++i) {
        world.step(kDt);
        double sep = 0.0, viol = 0.0;
        scenes::measureJoints(world, built, sep, viol);
        stretch = std::max(stretch, sep);
        violation = std::max(violation, viol);
        double fastest = 0.0;
        for (BodyId b : built.bodies) fastest = std::max(fastest, length(world.bodyState(b).linearVelocity));
        if (fastest < 0.01 && restFrame < 0) restFrame = i;
        if (fastest >= 0.01) restFrame = -1;
    }
    CAPTURE(stretch, violation / kDegree, restFrame);
    CHECK(stretch <= 0.001);
    CHECK(violation / kDegree <= 0.5);
    CHECK(restFrame >= 0);  // at rest within 5 s, and stayed at rest
}

TEST_CASE("the step's profile splits its whole time into stages", "[solver][profile]") {
    World world = makeWorld(4, JointSolver::Direct, false, {0.0, -10.0});
    scenes::SceneSpec scene;
    scenes::addStickman(scene, 0.0, 1.0, {1.0, 0.0}, 0);
    addGround(world);
    scenes::buildWorld(world, scene);
    for (int i = 0; i < 90; ++i) {  // falling, landing, lying
        world.step(kDt);
        const WorldStats s = world.stats();
        const StepProfile& p = s.profile;
        const double stages[] = {p.collide, p.integrate, p.bodyContacts, p.jointTrees, p.treeContacts, p.velocities, p.finish};
        double sum = 0.0;
        for (double ms : stages) {
            CHECK(ms >= 0.0);
            sum += ms;
        }
        CHECK(sum == Approx(s.stepMilliseconds).epsilon(1e-9).margin(1e-12));
    }
}

// ---------------------------------------------------------------- API, determinism, memory

TEST_CASE("handles are validated on every call", "[solver][api]") {
    World world = makeWorld();
    BodyId a = addCapsule(world, {0, 0}, {1, 0}, 0.1, 1.0);
    BodyId b = addCapsule(world, {1, 0}, {2, 0}, 0.1, 1.0);
    JointId j = world.createJoint(makeRevoluteJointDef(world, a, b, {1, 0}));
    REQUIRE(world.isValid(j));
    CHECK(world.destroyBody(a));
    CHECK_FALSE(world.isValid(a));
    CHECK_FALSE(world.isValid(j));  // the body's joints went with it
    CHECK_FALSE(world.destroyBody(a));
    BodyId c = addCapsule(world, {0, 0}, {1, 0}, 0.1, 1.0);  // reuses a's slot
    CHECK(c.index1 == a.index1);
    CHECK_FALSE(c == a);
    CHECK_FALSE(world.isValid(a));
    world.setVelocity(a, {100, 0}, 0);  // stale: ignored
    CHECK(world.bodyState(c).linearVelocity.x == 0.0);
    CHECK(isNull(world.createJoint(makeRevoluteJointDef(world, a, c, {0, 0}))));
    CHECK(world.stats().bodies == 2);
    CHECK(world.stats().joints == 0);
}

// Each def value a setter refuses is refused at creation too: taken, they broke the body or
// joint without a word (a body of density 0 weighed 0 kg and fell through the ground).
TEST_CASE("creating a body refuses damping and gravity scales the setters would refuse", "[solver][api]") {
    World world = makeWorld();
    const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
    const struct {
        const char* what;
        double linear, angular, gravityScale;
    } bad[] = {{"NaN linear damping", nan, 0.0, 1.0},
               {"negative linear damping", -1.0, 0.0, 1.0},
               {"infinite angular damping", 0.0, inf, 1.0},
               {"negative angular damping", 0.0, -0.5, 1.0},
               {"NaN gravity scale", 0.0, 0.0, nan}};
    for (const auto& b : bad) {
        CAPTURE(b.what);
        BodyDef def = defaultBodyDef();
        def.linearDamping = b.linear;
        def.angularDamping = b.angular;
        def.gravityScale = b.gravityScale;
        CHECK(isNull(world.createBody(def)));
    }
    CHECK(world.stats().bodies == 0);
    BodyDef good = defaultBodyDef();
    good.linearDamping = 0.5;
    good.angularDamping = 2.0;
    CHECK_FALSE(isNull(world.createBody(good)));
}

TEST_CASE("giving a body its shape refuses a mass or density that would not make it weigh something", "[solver][api]") {
    World world = makeWorld();
    const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
    const BodyId body = addDynamic(world, {0.0, 1.0}, 0.0);
    const struct {
        const char* what;
        double density, mass, friction, restitution;
    } bad[] = {{"density 0", 0.0, 0.0, 0.6, 0.0},
               {"negative density", -1.0, 0.0, 0.6, 0.0},
               {"NaN density", nan, 0.0, 0.6, 0.0},
               {"infinite density", inf, 0.0, 0.6, 0.0},
               {"negative mass", 1.0, -2.0, 0.6, 0.0},
               {"NaN mass", 1.0, nan, 0.6, 0.0},
               {"infinite mass", 1.0, inf, 0.6, 0.0},
               {"NaN friction", 1.0, 1.0, nan, 0.0},
               {"NaN restitution", 1.0, 1.0, 0.6, nan}};
    for (const auto& b : bad) {
        CAPTURE(b.what);
        ShapeDef shape = defaultShapeDef();
        shape.density = b.density;
        shape.mass = b.mass;
        shape.friction = b.friction;
        shape.restitution = b.restitution;
        CHECK_FALSE(world.setCircle(body, shape, Circle{{0.0, 0.0}, 0.1}));
        CHECK_FALSE(world.setCapsule(body, shape, Capsule{{-0.2, 0.0}, {0.2, 0.0}, 0.1}));
        CHECK_FALSE(world.setPolygon(body, shape, makeBox(0.1, 0.1)));
        CHECK(world.bodyShape(body) == nullptr);  // left as it was
        CHECK(world.bodyMass(body) == 1.0);
    }
    // A mass makes the density irrelevant, and a static body has none.
    ShapeDef massGiven = defaultShapeDef();
    massGiven.density = 0.0;
    massGiven.mass = 3.0;
    CHECK(world.setCircle(body, massGiven, Circle{{0.0, 0.0}, 0.1}));
    CHECK(world.bodyMass(body) == 3.0);
    BodyDef groundDef = defaultBodyDef();
    groundDef.type = BodyType::Static;
    ShapeDef weightless = defaultShapeDef();
    weightless.density = 0.0;
    CHECK(world.setPolygon(world.createBody(groundDef), weightless, makeBox(1.0, 0.1)));
}

TEST_CASE("creating a joint refuses the stiffness, damping, friction and limits its setters refuse", "[solver][api]") {
    World world = makeWorld();
    const BodyId a = addCapsule(world, {0, 0}, {1, 0}, 0.1, 1.0);
    const BodyId b = addCapsule(world, {1, 0}, {2, 0}, 0.1, 1.0);
    const JointDef good = makeRevoluteJointDef(world, a, b, {1, 0});
    const struct {
        const char* what;
        void (*spoil)(JointDef&);
    } bad[] = {
        {"NaN stiffness", [](JointDef& d) { d.stiffness = std::numeric_limits<double>::quiet_NaN(); }},
        {"infinite damping", [](JointDef& d) { d.angularDamping = std::numeric_limits<double>::infinity(); }},
        {"NaN damping", [](JointDef& d) { d.angularDamping = std::numeric_limits<double>::quiet_NaN(); }},
        {"negative damping", [](JointDef& d) { d.angularDamping = -1.0; }},
        {"NaN friction", [](JointDef& d) { d.frictionTorque = std::numeric_limits<double>::quiet_NaN(); }},
        {"negative friction", [](JointDef& d) { d.frictionTorque = -1.0; }},
        {"a limit with lower above upper", [](JointDef& d) {
             d.enableLimit = true;
             d.lowerAngle = 0.5;
             d.upperAngle = -0.5;
         }},
        {"a limit wider than a turn", [](JointDef& d) {
             d.enableLimit = true;
             d.lowerAngle = -4.0;
             d.upperAngle = 4.0;
         }},
        {"an infinite limit, disabled", [](JointDef& d) { d.upperAngle = std::numeric_limits<double>::infinity(); }},
    };
    for (const auto& spoilt : bad) {
        CAPTURE(spoilt.what);
        JointDef def = good;
        spoilt.spoil(def);
        CHECK(isNull(world.createJoint(def)));
        // What the setter says of the same value.
        const JointId j = world.createJoint(good);
        REQUIRE_FALSE(isNull(j));
        const bool setterTakes = world.setJointStiffness(j, def.stiffness) && world.setJointDamping(j, def.angularDamping) &&
                                 world.setJointFriction(j, def.frictionTorque) &&
                                 world.setJointLimits(j, def.enableLimit, def.lowerAngle, def.upperAngle);
        CHECK_FALSE(setterTakes);
        world.destroyJoint(j);
    }
    CHECK(world.stats().joints == 0);
    JointDef limited = good;
    limited.enableLimit = true;
    limited.lowerAngle = -0.5;
    limited.upperAngle = 0.5;
    limited.stiffness = 2.0;  // held to 1, as setJointStiffness holds it
    const JointId j = world.createJoint(limited);
    REQUIRE_FALSE(isNull(j));
    CHECK(world.jointDef(j).enableLimit);
    CHECK(world.jointDef(j).stiffness == 1.0);
}

namespace {
std::uint64_t stateHash(const World& world) {
    // FNV-1a over the exact bits of every body's pose and velocity.
    std::uint64_t hash = 1469598103934665603ull;
    auto mix = [&](double x) {
        std::uint64_t bits;
        std::memcpy(&bits, &x, sizeof bits);
        for (int i = 0; i < 8; ++i) hash = (hash ^ ((bits >> (8 * i)) & 0xff)) * 1099511628211ull;
    };
    world.forEachBody([&](BodyId id) {
        BodyState s = world.bodyState(id);
        mix(s.position.x);
        mix(s.position.y);
        mix(s.angle);
        mix(s.linearVelocity.x);
        mix(s.linearVelocity.y);
        mix(s.angularVelocity);
    });
    return hash;
}
}  // namespace

TEST_CASE("identical inputs give bit-identical results", "[solver][determinism]") {
    auto run = [] {
        World world = makeWorld(4, JointSolver::Direct, true, {0.0, -10.0});
        scenes::buildWorld(world, scenes::makePile(20));
        for (int i = 0; i < 200; ++i) world.step(kDt);
        return stateHash(world);
    };
    CHECK(run() == run());
}

TEST_CASE("building and destroying ragdolls leaves the world empty", "[solver][api]") {
    World world = makeWorld();
    addGround(world);
    for (int round = 0; round < 200; ++round) {
        scenes::SceneSpec scene;
        scenes::addStickman(scene, 0.0, 0.1, {}, 0);
        scenes::BuiltScene built = scenes::buildWorld(world, scene);
        world.step(kDt);
        for (BodyId b : built.bodies) world.destroyBody(b);
    }
    CHECK(world.stats().bodies == 1);
    CHECK(world.stats().joints == 0);
    world.step(kDt);
    CHECK(world.contacts().empty());
}

TEST_CASE("a resting pile falls asleep and a hit wakes it", "[solver][sleep]") {
    World world = makeWorld(4, JointSolver::Direct, true, {0.0, -10.0});
    scenes::BuiltScene built = scenes::buildWorld(world, scenes::makePile(100));
    // The last stickmen of the pile settle between 10 and 14 s, depending on the last bits
    // of every number (measured over solver changes); 15 s leaves room.
    for (int i = 0; i < 900; ++i) world.step(kDt);
    WorldStats stats = world.stats();
    CAPTURE(stats.awakeBodies, stats.dynamicBodies);
    CHECK(stats.awakeBodies == 0);
    BodyId torso = built.bodies[3];  // the three statics come first
    REQUIRE(world.bodyType(torso) == BodyType::Dynamic);
    world.applyLinearImpulse(torso, {5.0, 5.0}, world.worldCenterOfMass(torso));
    CHECK(world.stats().awakeBodies >= 10);  // the whole stickman wakes with its torso
}

TEST_CASE("a body that has stopped sleeps after a quarter second and one still drifting after half a second", "[solver][sleep]") {
    // No gravity. Alone: a still capsule and one drifting at 1 cm/s (under kSleepSpeed, over
    // kStillSpeed). Together: a still capsule 1 cm beside one drifting along it, one island
    // through their contact (within the speculative reach, never touching).
    World world = makeWorld(4, JointSolver::Direct, true, {0.0, 0.0});
    const BodyId stopped = addCapsule(world, {-5.0, 0.0}, {-4.5, 0.0}, 0.05, 1.0);
    const BodyId drifting = addCapsule(world, {5.0, 0.0}, {5.5, 0.0}, 0.05, 1.0);
    const BodyId stoppedBeside = addCapsule(world, {0.0, 3.0}, {0.5, 3.0}, 0.05, 1.0);
    const BodyId driftingBeside = addCapsule(world, {0.0, 3.11}, {0.5, 3.11}, 0.05, 1.0);
    world.setVelocity(drifting, {0.01, 0.0}, 0.0);
    world.setVelocity(driftingBeside, {0.01, 0.0}, 0.0);
    const double startX = world.bodyState(drifting).position.x;
    const BodyId bodies[4] = {stopped, drifting, stoppedBeside, driftingBeside};
    int sleptAt[4] = {-1, -1, -1, -1};
    for (int i = 1; i <= 60; ++i) {
        world.step(kDt);
        for (int k = 0; k < 4; ++k)
            if (sleptAt[k] < 0 && !world.snapshot(bodies[k]).awake) sleptAt[k] = i;
    }
    CAPTURE(sleptAt[0], sleptAt[1], sleptAt[2], sleptAt[3]);
    // kTimeToSleep / 2 = 0.25 s = 15 steps, 0.5 s = 30; the timer, summed step by step, is a
    // rounding short of it at those steps, so each sleeps one step later.
    CHECK(sleptAt[0] == 16);
    CHECK(sleptAt[1] == 31);
    CHECK(sleptAt[2] == 31);  // held awake by its drifting neighbour, then asleep with it
    CHECK(sleptAt[3] == 31);
    CHECK(world.bodyState(drifting).position.x == Approx(startX + 0.01 * 31 * kDt).margin(1e-9));  // drifted until then
}

TEST_CASE("runaway velocities are clamped and reported", "[solver][robustness]") {
    World world = makeWorld();
    BodyId b = addCapsule(world, {0, 5}, {0.5, 5}, 0.05, 1.0);
    world.setVelocity(b, {1e6, 0.0}, 1e6);
    world.step(kDt);
    BodyState s = world.bodyState(b);
    CHECK(s.position.x < 0.25 + kMaxLinearSpeed * kDt + 1e-9);  // clamped before it moved
    CHECK(length(s.linearVelocity) <= kMaxLinearSpeed + 9.81 * kDt);  // clamped, then one step of gravity
    CHECK(std::abs(s.angularVelocity) <= kMaxAngularSpeed + 1e-9);
    CHECK(world.stats().clampedVelocities >= 2);
}

TEST_CASE("queries find what a look at every body finds, among thousands of terrain pieces", "[solver][query]") {
    // The queries look through an index of the bodies sorted along x (the terrain's rebuilt
    // by the step, the moving bodies' sorted again by every step), not at every body: with
    // every body in a list, 200 characters' ground probes and pushes took 21 ms a step. Two
    // worlds alike: after the same steps, one has its index, the other a static body made
    // and removed since (no index until its next step: it looks at every body). Every box
    // query and ray cast must find the same bodies, in the same order, at the same points —
    // ties included (a ray along two boxes' common edge) — and again after bodies are put
    // elsewhere between steps (the moving bodies' order no longer holds until the next).
    auto build = [](World& world) {
        addGround(world);
        for (int i = 0; i < 3000; ++i) {  // a tiled level: pieces every 0.5 m, some touching
            BodyDef def = defaultBodyDef();
            def.type = BodyType::Static;
            def.position = {-600.0 + 0.4 * i, 0.1 + 0.05 * (i % 7)};
            world.setPolygon(world.createBody(def), defaultShapeDef(), makeBox(0.2, 0.1 + 0.02 * (i % 5)));
        }
        for (int i = 0; i < 400; ++i) addCapsule(world, {-600.0 + 3.0 * i, 1.0}, {-599.6 + 3.0 * i, 1.2}, 0.05, 1.0);
        BodyId last;
        for (int i = 0; i < 2; ++i) {  // two pieces in one place: a ray meets both at once
            BodyDef def = defaultBodyDef();
            def.type = BodyType::Static;
            def.position = {700.0, 1.0};
            last = world.createBody(def);
            world.setPolygon(last, defaultShapeDef(), makeBox(0.5, 0.5));
        }
        return last;
    };
    World indexed = makeWorld(), scanned = makeWorld();
    const BodyId madeLast = build(indexed);
    build(scanned);
    for (int step = 0; step < 30; ++step) {
        indexed.step(kDt);
        scanned.step(kDt);
    }
    BodyDef def = defaultBodyDef();
    def.type = BodyType::Static;
    scanned.destroyBody(scanned.createBody(def));
    std::vector<BodyId> a, b;
    int found = 0, foundMoving = 0;
    for (int round = 0; round < 2; ++round) {
    if (round == 1)  // ten capsules put elsewhere, in both worlds
        for (World* world : {&indexed, &scanned})
            for (int k = 0; k < 10; ++k) {
                const BodyId capsule{3002 + 37 * k, 1};
                REQUIRE(world->bodyType(capsule) == BodyType::Dynamic);
                world->setTransform(capsule, {-500.0 + 97.0 * k, 0.8}, 0.3);
            }
    for (int q = 0; q < 400; ++q) {
        const double x = -620.0 + 3.1 * q, w = 0.05 + 0.4 * (q % 9);
        const AABB box{{x, -0.2 + 0.01 * (q % 13)}, {x + w, 0.5 + 0.3 * (q % 4)}};
        a.clear();
        b.clear();
        indexed.queryAABB(box, a);
        scanned.queryAABB(box, b);
        CHECK(a == b);
        found += int(a.size());
        for (BodyId id : a) foundMoving += indexed.bodyType(id) == BodyType::Dynamic;
        for (const double dx : {0.0, 0.2, 7.0}) {  // straight down (along a shared edge at 0.2), and slanting
            RayHit ha, hb;
            const bool hitA = indexed.rayCast({x, 4.0}, {x + dx, -0.5}, Filter{}, ha);
            const bool hitB = scanned.rayCast({x, 4.0}, {x + dx, -0.5}, Filter{}, hb);
            REQUIRE(hitA == hitB);
            if (!hitA) continue;
            CHECK(ha.body == hb.body);
            CHECK(ha.fraction == hb.fraction);
            CHECK(ha.point.x == hb.point.x);
            CHECK(ha.normal.y == hb.normal.y);
        }
    }
    }
    CHECK(found > 1000);
    CHECK(foundMoving > 50);
    // Of the two pieces a ray meets at once, the one made last, as a look at every body in
    // order of their slots kept.
    RayHit ha, hb;
    REQUIRE(indexed.rayCast({700.0, 4.0}, {700.0, -0.5}, Filter{}, ha));
    REQUIRE(scanned.rayCast({700.0, 4.0}, {700.0, -0.5}, Filter{}, hb));
    CHECK(ha.body == madeLast);
    CHECK(hb.body == madeLast);
    CHECK(ha.point.y == Approx(1.5));
}

TEST_CASE("ray casts hit the closest shape with its normal", "[solver][query]") {
    World world = makeWorld();
    addGround(world);                                                 // top at y = 0
    BodyId capsule = addCapsule(world, {-0.25, 1.0}, {0.25, 1.0}, 0.05, 1.0);  // top at 1.05
    BodyDef ballDef = defaultBodyDef();
    ballDef.position = {2.0, 0.5};
    BodyId ball = world.createBody(ballDef);
    world.setCircle(ball, defaultShapeDef(), Circle{{0.0, 0.0}, 0.2});

    RayHit hit;
    REQUIRE(world.rayCast({0.0, 3.0}, {0.0, -3.0}, Filter{}, hit));
    CHECK(hit.body == capsule);
    CHECK(hit.point.y == Approx(1.05).margin(1e-9));
    CHECK(hit.normal.y == Approx(1.0).margin(1e-9));
    CHECK(hit.fraction == Approx((3.0 - 1.05) / 6.0).margin(1e-9));

    REQUIRE(world.rayCast({2.0, 3.0}, {2.0, -3.0}, Filter{}, hit));  // the ball's top
    CHECK(hit.body == ball);
    CHECK(hit.point.y == Approx(0.7).margin(1e-9));

    REQUIRE(world.rayCast({5.0, 3.0}, {5.0, -3.0}, Filter{}, hit));  // only the ground
    CHECK(hit.point.y == Approx(0.0).margin(1e-9));
    CHECK_FALSE(world.rayCast({5.0, 3.0}, {5.0, 1.0}, Filter{}, hit));  // stops short

    // A filter that excludes a shape's category sees through it to the ground; one that
    // excludes every category sees nothing.
    BodyDef plankDef = defaultBodyDef();
    plankDef.position = {-3.0, 1.0};
    const BodyId plank = world.createBody(plankDef);
    ShapeDef plankShape = defaultShapeDef();
    plankShape.filter.categoryBits = 2;
    world.setCapsule(plank, plankShape, Capsule{{-0.25, 0.0}, {0.25, 0.0}, 0.05});
    REQUIRE(world.rayCast({-3.0, 3.0}, {-3.0, -3.0}, Filter{}, hit));
    CHECK(hit.body == plank);
    Filter notPlanks;
    notPlanks.maskBits = ~2u;
    REQUIRE(world.rayCast({-3.0, 3.0}, {-3.0, -3.0}, notPlanks, hit));
    CHECK(hit.body != plank);
    CHECK(hit.point.y == Approx(0.0).margin(1e-9));
    Filter nothing;
    nothing.maskBits = 0;
    CHECK_FALSE(world.rayCast({0.0, 3.0}, {0.0, -3.0}, nothing, hit));

    std::vector<BodyId> found;
    world.queryAABB(AABB{{1.7, 0.2}, {2.3, 0.8}}, found);
    REQUIRE(found.size() == 1);
    CHECK(found[0] == ball);
}

TEST_CASE("a kinematic body driven to a target pose pushes dynamic bodies", "[solver][kinematic]") {
    World world = makeWorld();
    addGround(world);
    BodyDef def = defaultBodyDef();
    def.type = BodyType::Kinematic;
    def.position = {-1.0, 0.3};
    BodyId pusher = world.createBody(def);
    world.setPolygon(pusher, defaultShapeDef(), makeBox(0.1, 0.3));
    BodyId box = addCapsule(world, {-0.4, 0.05}, {0.0, 0.05}, 0.05, 1.0);
    // Sweep the pusher 2 m to the right over 2 s.
    for (int i = 1; i <= 120; ++i) {
        world.setKinematicTarget(pusher, {-1.0 + 2.0 * i / 120.0, 0.3}, 0.0, kDt);
        world.step(kDt);
        BodyState s = world.bodyState(pusher);
        CHECK(s.position.x == Approx(-1.0 + 2.0 * i / 120.0).margin(1e-9));  // exactly on target
        CHECK(s.linearVelocity.x == Approx(1.0).margin(1e-9));               // velocity derived from it
    }
    CHECK(world.bodyState(box).position.x > 1.0);  // shoved ahead of it
    CHECK(world.bodyMass(pusher) == 0.0);
}

// Tests reach past the API, which refuses NaN, to corrupt a body the way a numerical
// blow-up would.
struct ragdoll::WorldTestAccess {
    static void poison(World& world, BodyId id) {
        world.sims_[size_t(id.index1 - 1)].linearVelocity.x = std::numeric_limits<double>::quiet_NaN();
        world.sims_[size_t(id.index1 - 1)].angle = std::numeric_limits<double>::infinity();
    }
};

TEST_CASE("a body that turns NaN is reset to its last good pose and reported", "[solver][robustness]") {
    World world = makeWorld();
    addGround(world);
    BodyId a = addCapsule(world, {-0.25, 0.05}, {0.25, 0.05}, 0.05, 1.0);
    BodyId b = addCapsule(world, {1.0, 0.05}, {1.5, 0.05}, 0.05, 1.0);
    for (int i = 0; i < 60; ++i) world.step(kDt);
    Vec2 good = world.bodyState(a).position;
    WorldTestAccess::poison(world, a);
    world.step(kDt);
    BodyState s = world.bodyState(a);
    CHECK(world.stats().recoveredBodies == 1);
    CHECK(isFinite(s.position));
    CHECK(std::isfinite(s.angle));
    CHECK(distance(s.position, good) < 0.01);
    CHECK(length(s.linearVelocity) == 0.0);
    for (int i = 0; i < 60; ++i) world.step(kDt);  // the world keeps stepping
    CHECK(isFinite(world.bodyState(a).position));
    CHECK(isFinite(world.bodyState(b).position));
    CHECK(world.stats().recoveredBodies == 1);
}

TEST_CASE("velocities in the API are the body origin's, whatever the shape's offset", "[solver][api]") {
    World world = makeWorld(4, JointSolver::Direct, false, {0.0, 0.0});
    BodyDef def = defaultBodyDef();
    def.position = {1.0, 2.0};
    def.linearVelocity = {0.5, -0.25};
    def.angularVelocity = 2.0;
    BodyId id = world.createBody(def);
    // A capsule from the origin out to (0.6, 0): the centre of mass sits 0.3 m off the origin.
    world.setCapsule(id, defaultShapeDef(), Capsule{{0.0, 0.0}, {0.6, 0.0}, 0.05});
    BodyState s = world.bodyState(id);
    CHECK(s.linearVelocity.x == Approx(0.5).margin(1e-12));
    CHECK(s.linearVelocity.y == Approx(-0.25).margin(1e-12));
    CHECK(s.angularVelocity == 2.0);
    world.setVelocity(id, {-1.0, 0.0}, -3.0);
    s = world.bodyState(id);
    CHECK(s.linearVelocity.x == Approx(-1.0).margin(1e-12));
    CHECK(s.linearVelocity.y == Approx(0.0).margin(1e-12));
    // One step later the origin has moved by what that velocity says, to first order (the
    // turn moves it too: by about 0.3·3²·dt²/2 toward the centre of mass, 0.4 mm).
    world.step(kDt);
    CHECK(world.bodyState(id).position.x == Approx(1.0 - 1.0 * kDt).margin(1e-3));
    CHECK(world.bodyState(id).position.y == Approx(2.0).margin(1e-3));
}

namespace {

/// A straight arm hanging from `parent` at `shoulder`: an upper arm and a forearm, 1.5 kg
/// capsules 0.28 m long, both joints damped at `damping`, the elbow limited to 0…elbowUpper.
struct HangingArm {
    BodyId upper, fore;
    JointId shoulder, elbow;
};
HangingArm addHangingArm(World& world, BodyId parent, Vec2 shoulder, double damping, double elbowUpper) {
    ShapeDef shape = defaultShapeDef();
    shape.mass = 1.5;
    BodyDef def = defaultBodyDef();
    HangingArm arm;
    def.position = shoulder + Vec2{0.0, -0.14};
    arm.upper = world.createBody(def);
    world.setCapsule(arm.upper, shape, Capsule{{0.0, -0.14}, {0.0, 0.14}, 0.045});
    def.position = shoulder + Vec2{0.0, -0.42};
    arm.fore = world.createBody(def);
    world.setCapsule(arm.fore, shape, Capsule{{0.0, -0.14}, {0.0, 0.14}, 0.04});
    JointDef shoulderDef = makeRevoluteJointDef(world, parent, arm.upper, shoulder);
    shoulderDef.angularDamping = damping;
    JointDef elbowDef = makeRevoluteJointDef(world, arm.upper, arm.fore, shoulder + Vec2{0.0, -0.28});
    elbowDef.angularDamping = damping;
    elbowDef.enableLimit = true;
    elbowDef.lowerAngle = 0.0;
    elbowDef.upperAngle = elbowUpper;
    arm.shoulder = world.createJoint(shoulderDef);
    arm.elbow = world.createJoint(elbowDef);
    return arm;
}

/// Sets the arm swinging as one body about its shoulder at `rate` (rad/s).
void swingArm(World& world, const HangingArm& arm, double rate) {
    world.setVelocity(arm.upper, {0.14 * rate, 0.0}, rate);
    world.setVelocity(arm.fore, {0.42 * rate, 0.0}, rate);
}

}  // namespace

// A straight arm (two 1.5 kg capsules, the elbow on its limit) hanging from an 8 kg body
// lying on a ledge, both joints damped at 1.5/s, swings at 0.6 rad/s. The body touches the
// world, so the damping is solved with its contacts and limits: pushed through the free
// tree instead, the push bent the elbow into its limit and turned the body against the
// arm, the limit and the contacts took most of it back, and the arm still swung at
// 0.22 rad/s after 6 s (a ragdoll lying propped up swung its arms for 10 s).
TEST_CASE("A damped arm hanging from a body lying on a ledge stops swinging", "[solver][joints][damping]") {
    World world = makeWorld();
    addGround(world);
    ShapeDef shape = defaultShapeDef();
    BodyDef fixed = defaultBodyDef();
    fixed.type = BodyType::Static;
    BodyId ledge = world.createBody(fixed);
    world.setPolygon(ledge, shape, makeBox(0.675, 0.35, {-0.825, 0.35}));
    BodyDef def = defaultBodyDef();
    def.position = {-0.4, 0.79};
    BodyId body = world.createBody(def);
    shape.mass = 8.0;
    world.setPolygon(body, shape, makeBox(0.4, 0.09));
    const HangingArm arm = addHangingArm(world, body, {-0.02, 0.79}, 1.5, 135.0 * kDegree);
    const BodyId upper = arm.upper;
    const JointId shoulderId = arm.shoulder, elbowId = arm.elbow;
    for (int i = 0; i < 60; ++i) world.step(kDt);
    swingArm(world, arm, 0.6);
    double early = 0.0, late = 0.0, bodySpeed = 0.0, stretch = 0.0, limit = 0.0;
    for (int i = 1; i <= 360; ++i) {
        world.step(kDt);
        const double w = std::abs(world.bodyState(upper).angularVelocity);
        if (i <= 60) early = std::max(early, w);
        if (i > 300) late = std::max(late, w);
        bodySpeed = std::max(bodySpeed, length(world.bodyState(body).linearVelocity));
        for (JointId j : {shoulderId, elbowId}) {
            stretch = std::max(stretch, world.jointError(j).separation);
            limit = std::max(limit, world.jointError(j).limitViolation);
        }
    }
    INFO("arm's turn rate: up to " << early << " rad/s in the first second, " << late << " rad/s in the sixth; body up to "
                                   << bodySpeed << " m/s; stretch " << stretch * 1000.0 << " mm, limit " << limit / kDegree
                                   << " deg");
    CHECK(early > 0.5);   // it did swing
    CHECK(late < 0.1);    // and has nearly stopped (0.06 rad/s)
    CHECK(bodySpeed < 0.005);  // the body lying on the ledge stays put
    CHECK(stretch < 0.001);
    CHECK(limit < 1.0 * kDegree);
}

// A box asleep on the ground is woken by another sliding into it. Its island was asleep
// when the step's pairs were found, so the ground under it was only searched again in the
// same step: before that, the woken box fell freely for the step it woke in (0.13 m/s down,
// 3.9 mm into the ground).
TEST_CASE("a box woken by a contact does not fall into the ground in the step it wakes", "[solver][sleep]") {
    World world = makeWorld(4, JointSolver::Direct, true);
    const BodyId ground = addGround(world);
    ShapeDef shape = defaultShapeDef();
    shape.mass = 5.0;
    BodyDef def = defaultBodyDef();
    def.position = {0.0, 0.25};
    BodyId resting = world.createBody(def);
    world.setPolygon(resting, shape, makeBox(0.25, 0.25));
    for (int i = 0; i < 120; ++i) world.step(kDt);
    REQUIRE(!world.snapshot(resting).awake);
    def.position = {-1.0, 0.25};
    def.linearVelocity = {3.0, 0.0};
    world.setPolygon(world.createBody(def), shape, makeBox(0.25, 0.25));
    int wokeAt = -1;
    for (int i = 0; i < 30 && wokeAt < 0; ++i) {
        world.step(kDt);
        if (world.snapshot(resting).awake) wokeAt = i;
    }
    REQUIRE(wokeAt >= 0);
    const BodyState s = world.bodyState(resting);
    const double depth = world.overlap(resting, ground);
    INFO("woken at step " << wokeAt << ": vertical speed " << s.linearVelocity.y << " m/s, " << depth * 1000.0 << " mm into the ground");
    CHECK(std::abs(s.linearVelocity.y) < 0.01);
    CHECK(depth <= kAllowedPenetration + 1e-4);
}

namespace {

/// A heap of 20 stickmen dropped on one another (the SCENES pile of 20, gravity −10) at
/// `iterations` a substep: how deep any two sank into each other over the first 300 steps
/// (landing) and after them (resting), and the joints' stretch (m) and limit error (rad).
struct HeapRun {
    double landing = 0.0, resting = 0.0, stretch = 0.0, limits = 0.0;
};
HeapRun runHeap(int iterations, int steps) {
    World world = makeWorld(4, JointSolver::Direct, false, {0.0, -10.0});
    world.setIterations(iterations);
    scenes::BuiltScene built = scenes::buildWorld(world, scenes::makePile(20));
    HeapRun run;
    for (int i = 0; i < steps; ++i) {
        world.step(kDt);
        const double deepest = scenes::deepestBetweenMoving(world);
        if (i < 300) run.landing = std::max(run.landing, deepest);
        else run.resting = std::max(run.resting, deepest);
        double separation = 0.0, violation = 0.0;
        scenes::measureJoints(world, built, separation, violation);
        run.stretch = std::max(run.stretch, separation);
        run.limits = std::max(run.limits, violation);
    }
    return run;
}

}  // namespace

// Ragdolls lying on one another rest on their surfaces: the contacts allow 2 mm of
// overlap, and what the joint solve pulls back in after each push must not pile up into
// sinking (the contacts between two ragdolls are solved body by body, before the trees: a
// light limb pushed out alone is pulled back by its joints, and its tree's contacts with
// the ground push it up again).
TEST_CASE("a heap of stickmen resting on one another does not sink into itself", "[solver][stickman]") {
    const HeapRun heap = runHeap(1, 420);
    CAPTURE(heap.landing, heap.resting);
    CHECK(heap.resting <= 0.005);  // 3.6 mm, steady from 2 s on
    CHECK(heap.landing <= 0.03);   // 21.1 mm for a step as one lands on another (Box2D 2.4.1, a pile of 100: 35 mm)
}

TEST_CASE("each iteration a substep lets a heap of stickmen sink less into itself", "[solver][stickman]") {
    // The pass body by body pushes a limb out of another stickman on the limb's own mass;
    // its tree's solve spreads the push over the whole figure and so takes the limb part of
    // the way back in. A second iteration pushes again from there and solves the trees again.
    auto deepest = [](int iterations) {
        const HeapRun heap = runHeap(iterations, 300);
        CAPTURE(iterations, heap.landing, heap.stretch, heap.limits);
        CHECK(heap.stretch <= 1e-5);          // the joints stay exact: 0.0013 mm
        CHECK(heap.limits <= 0.01 * kDegree);  // 0.0001°
        return heap.landing;
    };
    const double once = deepest(1), twice = deepest(2), thrice = deepest(3);
    CAPTURE(once, twice, thrice);
    CHECK(twice <= 0.016);   // 13.9 mm, from 21.1 mm at one iteration
    CHECK(thrice <= 0.012);  // 10.5 mm
    CHECK(twice <= 0.75 * once);
    CHECK(thrice < twice);
}

// The same straight arm hanging from a static pin, touching nothing: its tree damps each
// joint with one push through the tree (TreeSolver::solveFreeMotion). Swinging as one body
// on its elbow's limit, it should lose its swing at the shoulder's damping alone: each
// substep the push takes back the fraction h·d of the shoulder's turn, so the turn rate
// falls by −ln(1 − h·d)/h = 1.50/s and the swing (a pendulum) by half that, 0.75/s. With the
// limits left out of the push's response, the push bent the elbow into its limit, the next
// joint solve took two thirds of it back, and the swing died at 0.25/s (0.23/s with a
// 0–135° elbow): three times as long.
TEST_CASE("A damped arm hanging from a static pin loses its swing at the rate its damping asks", "[solver][joints][damping]") {
    constexpr double kDamping = 1.5, kSubstep = kDt / 4.0;
    const double expected = -std::log(1.0 - kSubstep * kDamping) / (2.0 * kSubstep);  // 0.752/s
    for (double elbowUpper : {0.0, 135.0}) {  // welded straight, and an elbow that bends one way
        World world = makeWorld();
        BodyDef fixed = defaultBodyDef();
        fixed.type = BodyType::Static;
        fixed.position = {0.0, 2.0};
        const BodyId pin = world.createBody(fixed);
        // The elbow's damping, on its limit, has nothing to damp.
        const HangingArm arm = addHangingArm(world, pin, {0.0, 2.0}, kDamping, elbowUpper * kDegree);
        const BodyId upper = arm.upper;
        const JointId shoulderId = arm.shoulder, elbowId = arm.elbow;
        swingArm(world, arm, 0.6);
        // The swing's peak turn rates (as it passes the bottom), from 0.5 s to 5 s.
        double before = 0.0, last = 0.0, firstPeak = 0.0, firstTime = 0.0, lastPeak = 0.0, lastTime = 0.0;
        double stretch = 0.0, limit = 0.0;
        for (int i = 1; i <= 300; ++i) {
            world.step(kDt);
            const double w = std::abs(world.bodyState(upper).angularVelocity);
            const double t = (i - 1) * kDt;  // the step before this one
            if (last > before && last >= w && t >= 0.5) {
                if (firstPeak == 0.0) {
                    firstPeak = last;
                    firstTime = t;
                }
                lastPeak = last;
                lastTime = t;
            }
            before = last;
            last = w;
            for (JointId j : {shoulderId, elbowId}) {
                stretch = std::max(stretch, world.jointError(j).separation);
                limit = std::max(limit, world.jointError(j).limitViolation);
            }
        }
        REQUIRE(lastTime - firstTime > 3.0);
        const double rate = std::log(firstPeak / lastPeak) / (lastTime - firstTime);
        INFO("elbow 0-" << elbowUpper << " deg: swing " << firstPeak << " rad/s at " << firstTime << " s, " << lastPeak
                        << " at " << lastTime << " s: dies at " << rate << "/s (a pendulum damped so: " << expected
                        << "/s); stretch " << stretch * 1000.0 << " mm, limit " << limit / kDegree << " deg");
        CHECK(std::abs(rate - expected) < 0.1);
        CHECK(stretch < 0.001);
        CHECK(limit < 1.0 * kDegree);
    }
}
