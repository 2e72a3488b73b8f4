#include "rig_tools/rig_drop.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "rig/rig_builder.h"
#include "solver/world.h"

namespace ragdoll {

namespace {

constexpr double kGroundHalfThickness = 0.5;

/// How far from where it was dropped a body may be at time t (s) before it counts as
/// exploded: the bounds, plus what the push alone carries it by then (a rig pushed at
/// 30 m/s slides past 50 m along the ground, which is no explosion).
double dropReach(const DropOptions& options, double t) { return kDropBounds + std::abs(options.push) * t; }

struct Extent {
    double minX = INFINITY, maxX = -INFINITY, minY = INFINITY;
    void add(Vec2 p, double radius) {
        minX = std::min(minX, p.x - radius);
        maxX = std::max(maxX, p.x + radius);
        minY = std::min(minY, p.y - radius);
    }
};

/// The rig's bodies' bounds in rig space, rest pose.
Extent restExtent(const RigDefinition& rig) {
    Extent e;
    for (int b = 0; b < int(rig.bodies.size()); ++b) {
        const RigBody& body = rig.bodies[size_t(b)];
        const RigBone& bone = rig.bones[size_t(body.bone)];
        const Capsule placed = placedBodyCapsule(rig, b, bone.origin, bone.angle);
        if (body.shape != BodyShape::Box) {
            e.add(placed.center1, placed.radius);
            e.add(placed.center2, placed.radius);
            continue;
        }
        const Vec2 across = body.radius * Vec2{-std::sin(bone.angle), std::cos(bone.angle)};
        for (Vec2 end : {placed.center1, placed.center2}) {
            e.add(end + across, 0.0);
            e.add(end - across, 0.0);
        }
    }
    return e;
}

/// Farthest point of a body's shape from its centre of mass (metres), for the speed of
/// its fastest point: |v| + |ω|·extent, the solver's own sleep measure.
double shapeExtent(const RigDefinition& rig, const RigBody& body) {
    const double halfLength = 0.5 * rig.bones[size_t(body.bone)].length;
    switch (body.shape) {
        case BodyShape::Capsule: return halfLength + body.radius;
        case BodyShape::Circle: return body.radius;
        case BodyShape::Box: return std::hypot(halfLength, body.radius);
    }
    return halfLength + body.radius;
}

}  // namespace

DropReport dropRig(const RigDefinition& rig, const DropOptions& options) {
    DropReport report;
    report.rig = rig.name;
    report.frames = options.frames;
    report.dt = options.dt;
    report.push = options.push;
    report.bodies = int(rig.bodies.size());
    report.joints = int(rig.joints.size());
    report.mass = rig.totalMass();

    WorldDef worldDef = defaultWorldDef();
    worldDef.gravity = {0.0, rig.solver.gravity};
    worldDef.substeps = rig.solver.substeps;
    worldDef.iterations = rig.solver.iterations;
    worldDef.enableSleep = true;  // at rest as the game sees it (rig_drop.h)
    World world(worldDef);

    BodyDef groundDef = defaultBodyDef();
    groundDef.type = BodyType::Static;
    groundDef.position = {0.0, -kGroundHalfThickness};
    BodyId ground = world.createBody(groundDef);
    // Wider than the farthest reach, so nothing slides off it before counting as exploded.
    const double groundHalfWidth = 2.0 * dropReach(options, options.frames * options.dt);
    world.setPolygon(ground, defaultShapeDef(), makeBox(groundHalfWidth, kGroundHalfThickness));

    RagdollDef def = defaultRagdollDef();
    def.linearVelocity = {options.push, 0.0};
    if (!rig.bodies.empty()) {
        Extent extent = restExtent(rig);
        def.position = {-0.5 * (extent.minX + extent.maxX), options.dropHeight - extent.minY};
    }
    std::string why;
    Ragdoll ragdoll = buildRagdoll(world, rig, def, &why);
    if (ragdoll.empty()) {
        report.exploded = true;
        report.explosion = "not built: " + why;
        return report;
    }

    std::vector<Vec2> start(ragdoll.bodies.size());
    std::vector<double> extents(ragdoll.bodies.size());
    for (size_t i = 0; i < ragdoll.bodies.size(); ++i) {
        start[i] = world.worldCenterOfMass(ragdoll.bodies[i]);
        extents[i] = shapeExtent(rig, rig.bodies[i]);
    }

    for (int frame = 1; frame <= options.frames && !report.exploded; ++frame) {
        world.step(options.dt);
        for (JointId joint : ragdoll.joints) {
            JointError error = world.jointError(joint);
            report.maxStretch = std::max(report.maxStretch, error.separation);
            report.maxLimitViolationDegrees = std::max(report.maxLimitViolationDegrees, error.limitViolation * (180.0 / kPi));
        }
        double fastest = 0.0;
        size_t fastestIndex = 0;
        for (size_t i = 0; i < ragdoll.bodies.size(); ++i) {
            BodyState state = world.bodyState(ragdoll.bodies[i]);
            Vec2 center = world.worldCenterOfMass(ragdoll.bodies[i]);
            const std::string& bone = rig.bones[size_t(rig.bodies[i].bone)].name;
            if (!isFinite(center) || !std::isfinite(state.angle) || !isFinite(state.linearVelocity) ||
                !std::isfinite(state.angularVelocity)) {
                report.exploded = true;
                report.explosion = "body '" + bone + "' became NaN/inf at frame " + std::to_string(frame);
            } else if (distance(center, start[i]) > dropReach(options, frame * options.dt) || center.y < -kDropBelowGround) {
                report.exploded = true;
                report.explosion = "body '" + bone + "' left the bounds at frame " + std::to_string(frame);
            }
            double speed = state.awake ? length(state.linearVelocity) + std::abs(state.angularVelocity) * extents[i] : 0.0;
            if (speed > fastest) {
                fastest = speed;
                fastestIndex = i;
            }
        }
        report.fastestBody = rig.bones[size_t(rig.bodies[fastestIndex].bone)].name;
        report.fastestSpeed = fastest;
        WorldStats stats = world.stats();
        if (!report.exploded && (stats.recoveredBodies > 0 || stats.frozenBodies > 0)) {
            report.exploded = true;
            report.explosion = "the solver reset or froze a body at frame " + std::to_string(frame);
        }
        if (fastest >= options.restSpeed) report.restFrame = -1;
        else if (report.restFrame < 0) report.restFrame = frame;
    }
    if (report.exploded) report.restFrame = -1;
    destroyRagdoll(world, ragdoll);
    return report;
}

}  // namespace ragdoll
