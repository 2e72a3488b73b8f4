// Box2D 2.4.1 as the benchmark peer. Shapes: 2.4.1 has no capsule, so a capsule collides
// as an 8-gon with flat sides on the capsule's sides and four vertices around each end.
// A box of length + 2r by 2r was rejected: its square corners stop a limb from rolling
// and catch on neighbours. Every polygon in 2.4.1 carries a skin of b2_polygonRadius
// (1 cm) outside its vertices, which is large beside a 4 cm forearm, so polygons are
// built that much smaller and the skinned shape has the scene's size. Mass and inertia are
// the true capsule's (set after the fixture), so both engines move the same rigid bodies.
#include "box2d_peer.h"

#ifndef PAPERDOLL_BENCH_NO_BOX2D

#include <box2d/box2d.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "measure.h"

namespace bench {

namespace {

using scenes::BodySpec;
using scenes::ShapeKind;

constexpr float kTimeStep = 1.0f / 60.0f;  // s, SCENES.md

b2Vec2 toB2(ragdoll::Vec2 v) { return {float(v.x), float(v.y)}; }

/// Rotational inertia of a capsule about its centre, kg·m², for its total mass (the
/// formula of Box2D v3's b2ComputeCapsuleMass: a box plus two half discs moved to the
/// ends by the parallel-axis theorem).
double capsuleInertia(double mass, double length, double radius) {
    const double rr = radius * radius, ll = length * length;
    const double circleArea = ragdoll::kPi * rr, boxArea = 2.0 * radius * length;
    const double density = mass / (circleArea + boxArea);
    const double halfLength = 0.5 * length;
    const double semicircleCentroid = 4.0 * radius / (3.0 * ragdoll::kPi);
    const double circleInertia =
        density * circleArea * (0.5 * rr + halfLength * halfLength + 2.0 * halfLength * semicircleCentroid);
    const double boxInertia = density * boxArea * (4.0 * rr + ll) / 12.0;
    return circleInertia + boxInertia;
}

/// The capsule's 8-gon in the body frame (origin at the segment's middle, angle 0): edges
/// tangent to the skin-reduced circle at normals 0°, ±45°, ±90° about each end, so the
/// sides are exact and the corners stand out by at most 1/cos 22.5° - 1 = 8 % of r.
b2PolygonShape capsulePolygon(const BodySpec& body) {
    const ragdoll::Vec2 axis = body.p1 - body.p0;
    const double halfLength = 0.5 * ragdoll::length(axis);
    const ragdoll::Vec2 u = halfLength > 0.0 ? ragdoll::normalize(axis) : ragdoll::Vec2{0.0, 1.0};
    const ragdoll::Vec2 n = ragdoll::perp(u);
    const double core = std::max(body.radius - double(b2_polygonRadius), 0.5 * body.radius);
    const double cornerDistance = core / std::cos(ragdoll::kPi / 8.0);
    b2Vec2 points[8];
    int count = 0;
    for (int end = 0; end < 2; ++end) {
        const ragdoll::Vec2 centre = (end == 0 ? halfLength : -halfLength) * u;
        for (int k = 0; k < 4; ++k) {
            // -67.5°, -22.5°, 22.5°, 67.5° about the end's outward direction.
            const double theta = (end == 0 ? 0.0 : ragdoll::kPi) + (double(k) - 1.5) * ragdoll::kPi / 4.0;
            points[count++] = toB2(centre + cornerDistance * (std::cos(theta) * u + std::sin(theta) * n));
        }
    }
    b2PolygonShape shape;
    shape.Set(points, count);
    return shape;
}

/// Creates the body, its fixture and its mass for one scene body.
b2Body* createBody(b2World& world, const BodySpec& spec) {
    b2BodyDef def;
    def.type = spec.isStatic ? b2_staticBody : b2_dynamicBody;
    def.linearVelocity = toB2(spec.velocity);
    def.linearDamping = float(spec.linearDamping);
    def.angularDamping = float(spec.angularDamping);

    b2FixtureDef fixture;
    fixture.friction = float(spec.friction);
    fixture.restitution = float(spec.restitution);
    // A negative group never collides with itself; -(group + 1) keeps group 0 negative.
    if (spec.group >= 0) fixture.filter.groupIndex = int16(-(spec.group + 1));

    b2CircleShape circle;
    b2PolygonShape polygon;
    b2MassData mass;
    mass.mass = float(spec.mass);
    mass.center.SetZero();
    switch (spec.shape) {
        case ShapeKind::Capsule: {
            def.position = toB2(ragdoll::lerp(spec.p0, spec.p1, 0.5));
            polygon = capsulePolygon(spec);
            fixture.shape = &polygon;
            const double length = ragdoll::distance(spec.p0, spec.p1);
            mass.I = float(capsuleInertia(spec.mass, length, spec.radius));
            break;
        }
        case ShapeKind::Circle:
            def.position = toB2(spec.p0);
            circle.m_radius = float(spec.radius);
            fixture.shape = &circle;
            mass.I = float(0.5 * spec.mass * spec.radius * spec.radius);
            break;
        case ShapeKind::Box: {
            def.position = toB2(spec.p0);
            def.angle = float(spec.angle);
            const float skin = b2_polygonRadius;
            polygon.SetAsBox(std::max(float(spec.halfExtents.x) - skin, 0.5f * float(spec.halfExtents.x)),
                             std::max(float(spec.halfExtents.y) - skin, 0.5f * float(spec.halfExtents.y)));
            fixture.shape = &polygon;
            const ragdoll::Vec2 h = spec.halfExtents;
            mass.I = float(spec.mass * (h.x * h.x + h.y * h.y) / 3.0);
            break;
        }
    }
    b2Body* body = world.CreateBody(&def);
    body->CreateFixture(&fixture);
    if (!spec.isStatic) body->SetMassData(&mass);
    return body;
}

struct LimitedJoint {
    b2RevoluteJoint* joint;
    double lower, upper;  // radians
};

struct RunState {
    std::vector<b2Body*> dynamicBodies;
    std::vector<b2RevoluteJoint*> joints;
    std::vector<LimitedJoint> limited;
};

/// Largest distance between the two anchors of any joint, metres.
double maxStretch(const RunState& state) {
    double worst = 0.0;
    for (const b2RevoluteJoint* joint : state.joints) {
        worst = std::max(worst, double((joint->GetAnchorB() - joint->GetAnchorA()).Length()));
    }
    return worst;
}

/// Largest angle by which any limited joint lies outside its limits, radians.
double maxLimitViolation(const RunState& state) {
    double worst = 0.0;
    for (const LimitedJoint& j : state.limited) {
        worst = std::max(worst, limitViolation(double(j.joint->GetJointAngle()), j.lower, j.upper));
    }
    return worst;
}

/// Deepest overlap of a touching contact, metres (≥ 0): between a moving and a static body
/// (`withStatic`), or between two moving bodies. Box2D's separations, surface to surface (its
/// polygons' skin counted as their radius).
double deepestTouching(b2World& world, bool withStatic) {
    double deepest = 0.0;
    for (b2Contact* c = world.GetContactList(); c; c = c->GetNext()) {
        if (!c->IsTouching()) continue;
        const bool touchesStatic = c->GetFixtureA()->GetBody()->GetType() == b2_staticBody ||
                                   c->GetFixtureB()->GetBody()->GetType() == b2_staticBody;
        if (touchesStatic != withStatic) continue;
        b2WorldManifold m;
        c->GetWorldManifold(&m);
        for (int i = 0; i < c->GetManifold()->pointCount; ++i) deepest = std::max(deepest, -double(m.separations[i]));
    }
    return deepest;
}

bool anyEscaped(const scenes::SceneSpec& scene, const RunState& state) {
    for (const b2Body* body : state.dynamicBodies) {
        const b2Vec2 p = body->GetPosition();
        if (hasEscaped(scene, double(p.x), double(p.y)) || !std::isfinite(body->GetAngle())) return true;
    }
    return false;
}

}  // namespace

bool box2dAvailable() { return true; }

// The version CMake found (box2d_VERSION). Not b2_version: the 2.4.1 release still says 2.4.0.
#ifndef PAPERDOLL_BENCH_BOX2D_VERSION
#define PAPERDOLL_BENCH_BOX2D_VERSION "2.4.1"
#endif

std::string box2dEngineName() { return "box2d " PAPERDOLL_BENCH_BOX2D_VERSION; }

scenes::BenchResult runBox2D(const scenes::SceneSpec& scene, int steps, int /*substeps*/, bool sleeping) {
    // On the heap: a b2World holds its 100 KB stack allocator inline.
    auto world = std::make_unique<b2World>(toB2(scene.gravity));
    world->SetAllowSleeping(sleeping);
    world->SetContinuousPhysics(false);

    RunState state;
    std::vector<b2Body*> bodies;
    bodies.reserve(scene.bodies.size());
    for (const BodySpec& spec : scene.bodies) {
        bodies.push_back(createBody(*world, spec));
        if (!spec.isStatic) state.dynamicBodies.push_back(bodies.back());
    }
    for (const scenes::JointSpec& spec : scene.joints) {
        b2Body* bodyA = nullptr;
        if (spec.bodyA >= 0) {
            bodyA = bodies[size_t(spec.bodyA)];
        } else {
            // 2.4.1 joins bodies only: a fixture-less static body holds the world point.
            b2BodyDef anchorDef;
            anchorDef.position = toB2(spec.anchor);
            bodyA = world->CreateBody(&anchorDef);
        }
        b2RevoluteJointDef def;
        def.Initialize(bodyA, bodies[size_t(spec.bodyB)], toB2(spec.anchor));
        def.enableLimit = spec.enableLimit;
        def.lowerAngle = float(spec.lower);
        def.upperAngle = float(spec.upper);
        auto* joint = static_cast<b2RevoluteJoint*>(world->CreateJoint(&def));
        state.joints.push_back(joint);
        if (spec.enableLimit) state.limited.push_back({joint, spec.lower, spec.upper});
    }

    scenes::BenchResult result;
    result.engine = box2dEngineName();
    std::vector<double> stepMs;
    stepMs.reserve(size_t(steps));
    for (int step = 0; step < steps; ++step) {
        const auto start = std::chrono::steady_clock::now();
        world->Step(kTimeStep, kBox2DVelocityIterations, kBox2DPositionIterations);
        const auto end = std::chrono::steady_clock::now();
        stepMs.push_back(std::chrono::duration<double, std::milli>(end - start).count());

        result.maxStretchEnd = maxStretch(state);
        result.maxStretchRun = std::max(result.maxStretchRun, result.maxStretchEnd);
        result.maxLimitViolationEndDeg = radiansToDegrees(maxLimitViolation(state));
        result.maxLimitViolationRunDeg = std::max(result.maxLimitViolationRunDeg, result.maxLimitViolationEndDeg);
        result.maxDepth = std::max(result.maxDepth, deepestTouching(*world, true));
        result.maxOverlap = std::max(result.maxOverlap, deepestTouching(*world, false));
        // Stop at the first explosion (a NaN is caught there too): NaNs reach Box2D's
        // asserts, and the figures after it say nothing.
        if (anyEscaped(scene, state)) {
            result.exploded = true;
            break;
        }
    }
    summarizeStepTimes(stepMs, steps, result);

    result.bodies = world->GetBodyCount();
    result.joints = world->GetJointCount();
    for (const b2Contact* c = world->GetContactList(); c; c = c->GetNext())
        if (c->IsTouching()) ++result.contacts;
    for (const b2Body* body : state.dynamicBodies)
        if (body->IsAwake()) ++result.awake;
    return result;
}

}  // namespace bench

#else  // PAPERDOLL_BENCH_NO_BOX2D: CMake did not find Box2D.

namespace bench {

bool box2dAvailable() { return false; }

std::string box2dEngineName() { return "box2d (not in this build)"; }

scenes::BenchResult runBox2D(const scenes::SceneSpec&, int, int, bool) {
    scenes::BenchResult result;
    result.engine = box2dEngineName();
    return result;
}

}  // namespace bench

#endif
