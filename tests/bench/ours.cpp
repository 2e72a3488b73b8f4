#include "ours.h"

#include <chrono>
#include <cstdio>

#include "build_world.h"
#include "measure.h"
#include "pool_tasks.h"

namespace bench {

using namespace ragdoll;

namespace {

/// The profile's stages as the bench reports them (JSON keys), in the step's order.
struct ProfileStage {
    const char* name;
    double StepProfile::*member;
};
constexpr ProfileStage kProfileStages[] = {
    {"collide", &StepProfile::collide},           {"integrate", &StepProfile::integrate},
    {"body_contacts", &StepProfile::bodyContacts}, {"joint_trees", &StepProfile::jointTrees},
    {"tree_contacts", &StepProfile::treeContacts}, {"velocities", &StepProfile::velocities},
    {"finish", &StepProfile::finish},
};

}  // namespace

double deepestInStatics(const World& world, const std::vector<BodyId>& bodies) {
    double deepest = 0.0;
    world.forEachBody([&](BodyId terrain) {
        if (world.bodyType(terrain) != BodyType::Static) return;
        for (BodyId body : bodies) deepest = std::max(deepest, world.overlap(body, terrain));
    });
    return deepest;
}

scenes::BenchResult runOurs(const scenes::SceneSpec& scene, int steps, int substeps, bool sleeping, int iterations,
                            bool iterativeJoints, int threads) {
    paper::JobPool pool(threads);
    WorldDef def = defaultWorldDef();
    def.tasks = scenes::poolTasks(pool);
    def.gravity = scene.gravity;
    def.substeps = substeps;
    def.iterations = iterations;
    def.enableSleep = sleeping;
    def.jointSolver = iterativeJoints ? JointSolver::Iterative : JointSolver::Direct;
    World world(def);
    scenes::BuiltScene built = scenes::buildWorld(world, scene);

    scenes::BenchResult result;
    result.engine = iterativeJoints ? "paperdoll (gauss-seidel)" : "paperdoll";
    std::vector<BodyId> moving;
    for (BodyId b : built.bodies)
        if (world.bodyType(b) != BodyType::Static) moving.push_back(b);
    std::vector<double> stepMs;
    stepMs.reserve(size_t(steps));
    StepProfile profile;  // summed over the timed steps
    int profiled = 0;
    const double dt = 1.0 / 60.0;
    for (int i = 0; i < steps; ++i) {
        auto start = std::chrono::steady_clock::now();
        world.step(dt);
        stepMs.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
        if (i >= firstTimedStep(steps)) {
            const StepProfile& p = world.stats().profile;
            for (auto stage : kProfileStages) profile.*stage.member += p.*stage.member;
            ++profiled;
        }

        double separation = 0.0, violation = 0.0;
        scenes::measureJoints(world, built, separation, violation);
        result.maxStretchRun = std::max(result.maxStretchRun, separation);
        result.maxLimitViolationRunDeg = std::max(result.maxLimitViolationRunDeg, radiansToDegrees(violation));
        result.maxStretchEnd = separation;
        result.maxLimitViolationEndDeg = radiansToDegrees(violation);
        result.maxDepth = std::max(result.maxDepth, deepestInStatics(world, moving));
        result.maxOverlap = std::max(result.maxOverlap, scenes::deepestBetweenMoving(world));
        for (BodyId b : built.bodies) {
            Vec2 p = world.bodyState(b).position;
            if (hasEscaped(scene, p.x, p.y)) result.exploded = true;
        }
        if (result.exploded) break;
    }
    summarizeStepTimes(stepMs, steps, result);
    for (auto stage : kProfileStages)
        result.profileMs.emplace_back(stage.name, profiled > 0 ? profile.*stage.member / profiled : 0.0);
    WorldStats stats = world.stats();
    result.bodies = stats.bodies;
    result.joints = stats.joints;
    result.contacts = stats.contacts;
    result.awake = stats.awakeBodies;
    result.memoryBytes = stats.memoryBytes;
    result.contactLanes = stats.contactLanes;
    result.crossingContacts = stats.crossingContacts;
    char hash[24];
    std::snprintf(hash, sizeof hash, "0x%016llx", static_cast<unsigned long long>(world.stateHash()));
    result.stateHash = hash;
    return result;
}

}  // namespace bench
