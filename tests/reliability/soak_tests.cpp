// The solver soak: ragdolls, with loose crates between them, abused for thousands of steps
// by a seeded random sequence of impulses, teleports (whole ragdolls and single limbs, into
// the ground and into each other), mass changes with 1:1000 ratios and injected NaNs, with
// every step checked.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "build_world.h"
#include "solver/constants.h"
#include "solver/world.h"

using namespace ragdoll;

// Tests reach past the API, which refuses NaN, to corrupt a body the way a numerical
// blow-up would.
struct ragdoll::WorldTestAccess {
    static void poison(World& world, BodyId id, int how) {
        BodySim& s = world.sims_[size_t(id.index1 - 1)];
        constexpr double nan = std::numeric_limits<double>::quiet_NaN();
        constexpr double inf = std::numeric_limits<double>::infinity();
        switch (how % 4) {
        case 0: s.center.x = nan; break;
        case 1: s.angle = inf; break;
        case 2: s.linearVelocity.y = -inf; break;
        default: s.angularVelocity = nan; break;
        }
    }
};

namespace {

constexpr double kDt = 1.0 / 60.0;
/// 100 s of abuse: about a second in the optimised builds and 2-15 s under ASan here.
constexpr int kSoakSteps = 6000;
constexpr double kGravity = 10.0;  // m/s², down
// The closed box the ragdolls live in: inner faces of the walls at x = ±kHalfWidth, the
// ground's top at y = 0, the ceiling's underside at y = kHeight (metres).
constexpr double kHalfWidth = 8.0;
constexpr double kHeight = 12.0;
constexpr double kThickness = 1.0;

void addBox(scenes::SceneSpec& scene, Vec2 lower, Vec2 upper) {
    scenes::BodySpec b;
    b.name = "wall";
    b.shape = scenes::ShapeKind::Box;
    b.p0 = b.p1 = 0.5 * (lower + upper);
    b.halfExtents = 0.5 * (upper - lower);
    b.mass = 0.0;
    b.isStatic = true;
    scene.bodies.push_back(b);
}

struct Ragdoll {
    std::vector<BodyId> bodies;
    std::vector<JointId> joints;
};

struct Soak {
    World world;
    std::vector<Ragdoll> ragdolls;
    std::vector<BodyId> all;
    std::vector<BodyId> props;  ///< loose crates the ragdolls land on and push (not in `all`)

    explicit Soak(const WorldDef& def) : world(def) {}
};

/// Four SCENES stickmen in the closed box: one as SCENES has it, one with an 80 kg torso on
/// 0.08 kg limbs and head (1000:1), one with a 0.08 kg torso between 80 kg limbs (1:1000 the
/// other way), one with 0.08 kg forearms and shins on 80 kg upper limbs.
Soak makeSoak() {
    WorldDef def = defaultWorldDef();
    def.gravity = {0.0, -kGravity};
    Soak soak(def);
    scenes::SceneSpec scene;
    // Each box covers the corners, so a body pushed into a corner is inside both and pushed
    // out by both (walls standing on the ground leave a seam that squeezes it outwards).
    addBox(scene, {-kHalfWidth - kThickness, -kThickness}, {kHalfWidth + kThickness, 0.0});          // ground
    addBox(scene, {-kHalfWidth - kThickness, kHeight}, {kHalfWidth + kThickness, kHeight + kThickness});  // ceiling
    addBox(scene, {-kHalfWidth - kThickness, -kThickness}, {-kHalfWidth, kHeight + kThickness});     // walls
    addBox(scene, {kHalfWidth, -kThickness}, {kHalfWidth + kThickness, kHeight + kThickness});
    const int statics = int(scene.bodies.size());
    const double xs[4] = {-6.0, -2.0, 2.0, 6.0};
    for (int r = 0; r < 4; ++r) {
        const size_t first = scene.bodies.size();
        scenes::addStickman(scene, xs[r], 0.1, {}, r);
        for (size_t i = first; i < scene.bodies.size(); ++i) {
            scenes::BodySpec& b = scene.bodies[i];
            const bool torso = b.name == "torso";
            const bool distal = b.name.rfind("forearm", 0) == 0 || b.name.rfind("shin", 0) == 0;
            if (r == 1) b.mass = torso ? 80.0 : 0.08;
            if (r == 2) b.mass = torso ? 0.08 : 80.0;
            if (r == 3) b.mass = torso ? 80.0 : distal ? 0.08 : 80.0;
        }
    }
    // Loose crates between them, 1:1000 too, one stacked on another: a ragdoll touching one
    // solves the crate's contacts with the box in its own contact system.
    const size_t firstProp = scene.bodies.size();
    const struct { Vec2 at, half; double mass; } crates[] = {
        {{0.0, 0.3}, {0.4, 0.3}, 20.0}, {{0.1, 0.8}, {0.2, 0.2}, 1.0}, {{-4.0, 0.2}, {0.2, 0.2}, 0.08}, {{4.0, 0.3}, {0.3, 0.3}, 80.0}};
    for (const auto& crate : crates) {
        scenes::BodySpec b;
        b.name = "crate";
        b.shape = scenes::ShapeKind::Box;
        b.p0 = b.p1 = crate.at;
        b.halfExtents = crate.half;
        b.mass = crate.mass;
        scene.bodies.push_back(b);
    }
    scenes::BuiltScene built = scenes::buildWorld(soak.world, scene);
    const size_t bonesPerRagdoll = (firstProp - size_t(statics)) / 4;
    soak.props.assign(built.bodies.begin() + std::ptrdiff_t(firstProp), built.bodies.end());
    const size_t jointsPerRagdoll = built.joints.size() / 4;
    for (size_t r = 0; r < 4; ++r) {
        Ragdoll ragdoll;
        for (size_t i = 0; i < bonesPerRagdoll; ++i) ragdoll.bodies.push_back(built.bodies[size_t(statics) + r * bonesPerRagdoll + i]);
        for (size_t i = 0; i < jointsPerRagdoll; ++i) ragdoll.joints.push_back(built.joints[r * jointsPerRagdoll + i]);
        soak.all.insert(soak.all.end(), ragdoll.bodies.begin(), ragdoll.bodies.end());
        soak.ragdolls.push_back(ragdoll);
    }
    return soak;
}

/// Centre-of-mass velocity (the API gives the origin's).
Vec2 centreVelocity(const World& world, BodyId id) {
    BodyState s = world.bodyState(id);
    return s.linearVelocity + cross(s.angularVelocity, world.worldCenterOfMass(id) - s.position);
}

double kineticEnergy(const World& world, BodyId id) {
    const Vec2 v = centreVelocity(world, id);
    const double w = world.bodyState(id).angularVelocity;
    return 0.5 * world.bodyMass(id) * lengthSquared(v) + 0.5 * world.bodyInertia(id) * w * w;
}

/// Kinetic plus gravitational energy (zero at the ground), joules.
double energy(const World& world, const std::vector<BodyId>& bodies) {
    double e = 0.0;
    for (BodyId id : bodies) e += kineticEnergy(world, id) + world.bodyMass(id) * kGravity * world.worldCenterOfMass(id).y;
    return e;
}

/// The most kinetic energy the speed clamp lets a body take into a step (joules).
double clampedEnergy(const World& world, BodyId id) {
    return 0.5 * world.bodyMass(id) * kMaxLinearSpeed * kMaxLinearSpeed +
           0.5 * world.bodyInertia(id) * kMaxAngularSpeed * kMaxAngularSpeed;
}

bool finiteBody(const World& world, BodyId id) {
    BodyState s = world.bodyState(id);
    return isFinite(s.position) && std::isfinite(s.angle) && isFinite(s.linearVelocity) && std::isfinite(s.angularVelocity) &&
           isFinite(world.worldCenterOfMass(id));
}

/// How far the body's centre of mass is outside the box's inner faces (metres, 0 inside).
double outsideBy(const World& world, BodyId id) {
    const Vec2 c = world.worldCenterOfMass(id);
    return std::max({std::abs(c.x) - kHalfWidth, -c.y, c.y - kHeight, 0.0});
}

/// The mass changes keep every body within [kLightest, kHeaviest]: 1:1000.
constexpr double kLightest = 0.08, kHeaviest = 80.0;

/// Gives the body a new mass through the API (its shape again, with ShapeDef::mass).
void setMass(World& world, BodyId id, double mass) {
    const Shape* shape = world.bodyShape(id);
    REQUIRE(shape != nullptr);
    ShapeDef def = defaultShapeDef();
    def.mass = mass;
    def.friction = shape->friction;
    def.restitution = shape->restitution;
    def.filter = shape->filter;
    const Polygon& g = shape->geometry;
    if (shape->type == ShapeType::Circle) REQUIRE(world.setCircle(id, def, Circle{g.vertices[0], g.radius}));
    else REQUIRE(world.setCapsule(id, def, Capsule{g.vertices[0], g.vertices[1], g.radius}));
}

}  // namespace

TEST_CASE("ragdolls survive random impulses, teleports, 1:1000 masses and NaNs for thousands of steps", "[reliability][soak]") {
    Soak soak = makeSoak();
    World& world = soak.world;
    std::mt19937_64 rng(20261130);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    auto uniform = [&](double lo, double hi) { return lo + (hi - lo) * unit(rng); };
    auto pick = [&](size_t n) { return size_t(unit(rng) * double(n)) % n; };
    auto ragdollOf = [&](size_t body) { return body / soak.ragdolls[0].bodies.size(); };

    int impulses = 0, ragdollTeleports = 0, limbTeleports = 0, massChanges = 0, corruptions = 0, settledSteps = 0;
    double maxEnergy = 0.0, maxEnergyShare = 0.0, maxStretchSettled = 0.0, maxStretch = 0.0, maxOutside = 0.0;
    int longestOutside = 0;
    std::vector<int> stepsOutside(soak.all.size(), 0);
    std::vector<int> calmFor(soak.ragdolls.size(), 0);  // steps since anything was done to the ragdoll
    const int steps = kSoakSteps;
    for (int step = 0; step < steps; ++step) {
        if (unit(rng) < 0.08) {  // an impulse of 0.1 to 2000 N·s, up to 10 cm off the centre
            const size_t i = pick(soak.all.size());
            const BodyId id = soak.all[i];
            const double magnitude = 0.1 * std::pow(2e4, unit(rng));
            const Vec2 at = world.worldCenterOfMass(id) + Vec2{uniform(-0.1, 0.1), uniform(-0.1, 0.1)};
            const Rot direction = makeRot(uniform(-kPi, kPi));
            world.applyLinearImpulse(id, magnitude * Vec2{direction.c, direction.s}, at);
            calmFor[ragdollOf(i)] = 0;
            ++impulses;
        }
        if (unit(rng) < 0.01) {  // a whole ragdoll elsewhere: into the ground, a wall, another
            const size_t r = pick(soak.ragdolls.size());
            const Ragdoll& ragdoll = soak.ragdolls[r];
            Vec2 target{uniform(-kHalfWidth + 0.5, kHalfWidth - 0.5), uniform(0.0, kHeight - 2.0)};
            if (unit(rng) < 0.4) {
                const Ragdoll& other = soak.ragdolls[pick(soak.ragdolls.size())];
                target = world.bodyState(other.bodies[0]).position + Vec2{uniform(-0.2, 0.2), uniform(-0.2, 0.2)};
            }
            const double turn = uniform(-kPi, kPi);
            const Transform from = world.bodyTransform(ragdoll.bodies[0]);
            // Rigidly: every body turned about the torso and moved with it, then all shifted
            // together until every centre is inside the box (as deep into the ground or a
            // wall as that allows), so the joints stay closed.
            std::vector<Vec2> placed;
            AABB span{{1e9, 1e9}, {-1e9, -1e9}};
            for (BodyId id : ragdoll.bodies) {
                const Vec2 p = target + rotate(makeRot(turn), world.bodyState(id).position - from.p);
                placed.push_back(p);
                span.lower = {std::min(span.lower.x, p.x), std::min(span.lower.y, p.y)};
                span.upper = {std::max(span.upper.x, p.x), std::max(span.upper.y, p.y)};
            }
            const Vec2 shift{std::max(0.0, -kHalfWidth + 0.05 - span.lower.x) - std::max(0.0, span.upper.x - (kHalfWidth - 0.05)),
                             std::max(0.0, -span.lower.y) - std::max(0.0, span.upper.y - (kHeight - 0.05))};
            for (size_t i = 0; i < ragdoll.bodies.size(); ++i)
                world.setTransform(ragdoll.bodies[i], placed[i] + shift, world.bodyState(ragdoll.bodies[i]).angle + turn);
            calmFor[r] = 0;
            ++ragdollTeleports;
        }
        if (unit(rng) < 0.01) {  // one limb pulled off its joints by up to 25 cm, maybe into the ground
            const size_t i = pick(soak.all.size());
            const BodyState s = world.bodyState(soak.all[i]);
            Vec2 p = s.position + Vec2{uniform(-0.25, 0.25), uniform(-0.25, 0.1)};
            p.x = std::clamp(p.x, -kHalfWidth + 0.05, kHalfWidth - 0.05);
            p.y = std::clamp(p.y, 0.0, kHeight - 0.05);
            world.setTransform(soak.all[i], p, s.angle + uniform(-1.0, 1.0));
            calmFor[ragdollOf(i)] = 0;
            ++limbTeleports;
        }
        if (unit(rng) < 0.01) {  // a new mass, 0.08 to 80 kg
            const size_t i = pick(soak.all.size());
            setMass(world, soak.all[i], kLightest * std::pow(kHeaviest / kLightest, unit(rng)));
            calmFor[ragdollOf(i)] = 0;
            ++massChanges;
        }
        if (unit(rng) < 0.002) {  // a NaN or an infinity where a blow-up would leave one
            const size_t i = pick(soak.all.size());
            WorldTestAccess::poison(world, soak.all[i], corruptions);
            calmFor[ragdollOf(i)] = 0;
            ++corruptions;
        }

        world.step(kDt);

        const WorldStats stats = world.stats();
        bool finite = true;
        double outside = 0.0, bound = 0.0, fastest = 0.0, fastestTurn = 0.0;
        int outsideFor = 0;
        // Each body finite, how far outside the box, and the most energy the speed clamp
        // lets it hold at the box's top.
        auto check = [&](BodyId id) {
            finite = finite && finiteBody(world, id);
            fastest = std::max(fastest, length(centreVelocity(world, id)));
            fastestTurn = std::max(fastestTurn, std::abs(world.bodyState(id).angularVelocity));
            const double out = outsideBy(world, id);
            outside = std::max(outside, out);
            bound += clampedEnergy(world, id) + world.bodyMass(id) * kGravity * kHeight;
            return out;
        };
        for (size_t i = 0; i < soak.all.size(); ++i) {
            stepsOutside[i] = check(soak.all[i]) > 0.0 ? stepsOutside[i] + 1 : 0;
            outsideFor = std::max(outsideFor, stepsOutside[i]);
        }
        for (BodyId id : soak.props) check(id);
        const double e = energy(world, soak.all) + energy(world, soak.props);
        maxEnergy = std::max(maxEnergy, e);
        maxEnergyShare = std::max(maxEnergyShare, e / bound);
        maxOutside = std::max(maxOutside, outside);
        longestOutside = std::max(longestOutside, outsideFor);
        for (size_t r = 0; r < soak.ragdolls.size(); ++r) {
            double stretch = 0.0, fastest = 0.0;
            for (JointId j : soak.ragdolls[r].joints) stretch = std::max(stretch, world.jointError(j).separation);
            for (BodyId id : soak.ragdolls[r].bodies) fastest = std::max(fastest, length(centreVelocity(world, id)));
            maxStretch = std::max(maxStretch, stretch);
            // Settled: a second without anything done to it, and no limb faster than 1 m/s.
            if (++calmFor[r] > 60 && fastest < 1.0) {
                maxStretchSettled = std::max(maxStretchSettled, stretch);
                ++settledSteps;
            }
        }
        CAPTURE(step, stats.recoveredBodies, corruptions, outside, outsideFor, e, bound, fastest, fastestTurn);
        REQUIRE(finite);
        REQUIRE(stats.recoveredBodies == corruptions);  // each reported once
        REQUIRE(stats.frozenBodies == 0);
        // No centre past the middle of a wall (1 m thick: from there it would be pushed out
        // of the world). Centres do get past the inner faces, a step at a time (a limb pulled
        // off its joints into the ground, heavy bones landing on a limb; 3.1 to 17.6 cm over
        // the solver's versions, as the random run goes); the deepest and the longest stay
        // are captured.
        REQUIRE(outside < 0.5 * kThickness);
        // The speed clamp's ceiling: each body at most kMaxLinearSpeed and kMaxAngularSpeed
        // (clamped after every substep's velocity update; the velocity pass after it only
        // exchanges momentum inelastically) and at most kHeight above the ground.
        REQUIRE(e <= bound);
        // And body by body: the clamp holds each centre's speed and each turn rate.
        REQUIRE(fastest <= kMaxLinearSpeed * (1.0 + 1e-12));
        REQUIRE(fastestTurn <= kMaxAngularSpeed * (1.0 + 1e-12));
    }
    CAPTURE(impulses, ragdollTeleports, limbTeleports, massChanges, corruptions, settledSteps);
    CAPTURE(maxEnergy, maxEnergyShare, maxStretch, maxStretchSettled, maxOutside, longestOutside);
    CHECK(impulses > steps / 20);  // the abuse happened
    CHECK(ragdollTeleports > steps / 200);
    CHECK(limbTeleports > steps / 200);
    CHECK(massChanges > steps / 200);
    CHECK(corruptions >= 1);
    CHECK(settledSteps > steps / 4);  // the ragdolls were settled often enough to measure
    CHECK(maxStretchSettled < 1e-4);  // metres; measured 0.0013 mm
}

TEST_CASE("the API refuses NaN and infinity", "[reliability][nan]") {
    Soak soak = makeSoak();
    World& world = soak.world;
    const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
    const BodyId id = soak.all[0];
    const std::uint64_t before = world.stateHash();
    world.setTransform(id, {nan, 1.0}, 0.0);
    world.setTransform(id, {0.0, 1.0}, inf);
    world.setVelocity(id, {inf, 0.0}, 0.0);
    world.setVelocity(id, {0.0, 0.0}, nan);
    world.applyLinearImpulse(id, {nan, 0.0}, world.worldCenterOfMass(id));
    world.applyLinearImpulse(id, {1.0, 0.0}, {inf, 0.0});
    CHECK(world.stateHash() == before);  // nothing changed
    BodySnapshot bad = world.snapshot(id);
    bad.linearVelocity.y = nan;
    CHECK_FALSE(world.restore(id, bad));
    BodyDef def = defaultBodyDef();
    def.position = {0.0, nan};
    CHECK(isNull(world.createBody(def)));
    CHECK(world.stateHash() == before);
}

TEST_CASE("a corrupted body is reported, put back where it was last good, and no other body notices", "[reliability][nan]") {
    // Each corruption in a world and, in a twin, the same body set at rest by the API: after
    // the step every other body is the same to the bit, so the NaN reached none of them.
    struct Corruption {
        const char* what;
        int poison;  ///< WorldTestAccess::poison's kind, or −1 for an impulse that overflows
    };
    const Corruption corruptions[] = {{"NaN centre", 0}, {"infinite angle", 1}, {"infinite velocity", 2},
                                      {"NaN spin", 3}, {"an impulse of 1e308 N·s on 0.08 kg", -1}};
    for (const Corruption& corruption : corruptions) {
        CAPTURE(corruption.what);
        Soak soak = makeSoak(), twin = makeSoak();
        for (int i = 0; i < 90; ++i) {
            soak.world.step(kDt);
            twin.world.step(kDt);
        }
        REQUIRE(soak.world.stateHash() == twin.world.stateHash());
        // A 0.08 kg forearm of the ragdoll with the 80 kg torso, in mid-tumble.
        const size_t victimIndex = 14;
        const BodyId victim = soak.all[victimIndex];
        REQUIRE(soak.world.bodyMass(victim) == 0.08);
        soak.world.wake(victim);
        twin.world.wake(victim);
        const BodySnapshot good = soak.world.snapshot(victim);
        if (corruption.poison >= 0) {
            WorldTestAccess::poison(soak.world, victim, corruption.poison);
        } else {
            soak.world.applyLinearImpulse(victim, {1e308, 0.0}, soak.world.worldCenterOfMass(victim));
            REQUIRE(std::isinf(soak.world.bodyState(victim).linearVelocity.x));  // 1.25e309 m/s
        }
        BodySnapshot still = twin.world.snapshot(victim);
        still.linearVelocity = {};
        still.angularVelocity = 0.0;
        REQUIRE(twin.world.restore(victim, still));

        soak.world.step(kDt);
        twin.world.step(kDt);

        CHECK(soak.world.stats().recoveredBodies == 1);
        CHECK(twin.world.stats().recoveredBodies == 0);
        const BodySnapshot after = soak.world.snapshot(victim);
        CHECK(after.center == good.center);  // where it was last good, at rest
        CHECK(after.angle == good.angle);
        CHECK(after.linearVelocity == Vec2{});
        CHECK(after.angularVelocity == 0.0);
        int different = 0;
        for (size_t i = 0; i < soak.all.size(); ++i) {
            if (i == victimIndex) continue;
            const BodySnapshot a = soak.world.snapshot(soak.all[i]), b = twin.world.snapshot(soak.all[i]);
            different += a.center == b.center && a.angle == b.angle && a.linearVelocity == b.linearVelocity &&
                                 a.angularVelocity == b.angularVelocity && a.awake == b.awake
                             ? 0
                             : 1;
        }
        CHECK(different == 0);
        // The world keeps stepping, the victim with it, and nothing else is reported.
        for (int i = 0; i < 120; ++i) soak.world.step(kDt);
        for (BodyId id : soak.all) CHECK(finiteBody(soak.world, id));
        CHECK(soak.world.stats().recoveredBodies == 1);
        CHECK(soak.world.jointError(soak.ragdolls[1].joints[3]).separation < 1e-4);  // the victim's elbow
    }
}

TEST_CASE("a finite velocity too large to square is clamped along its direction", "[reliability][nan]") {
    WorldDef def = defaultWorldDef();
    def.gravity = {};
    World world(def);
    BodyDef bodyDef = defaultBodyDef();
    const BodyId ball = world.createBody(bodyDef);
    ShapeDef shape = defaultShapeDef();
    shape.mass = 1.0;
    REQUIRE(world.setCircle(ball, shape, Circle{{0.0, 0.0}, 0.1}));
    world.applyLinearImpulse(ball, {1e200, 1e200}, {0.0, 0.0});  // finite, but |v|² overflows
    world.step(kDt);
    const BodyState s = world.bodyState(ball);
    CHECK(world.stats().recoveredBodies == 0);
    CHECK(world.stats().clampedVelocities == 1);
    // At the clamp's speed, along the impulse (scaling by kMaxLinearSpeed / ∞ stopped it).
    CHECK(s.linearVelocity.x == Approx(kMaxLinearSpeed * std::sqrt(0.5)).epsilon(1e-12));
    CHECK(s.linearVelocity.y == Approx(kMaxLinearSpeed * std::sqrt(0.5)).epsilon(1e-12));
    CHECK(s.position.x == Approx(kMaxLinearSpeed * std::sqrt(0.5) * kDt).epsilon(1e-12));
}
