#include "sweep.h"

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "measure.h"
#include "pool_tasks.h"
#include "scene/scene.h"
#include "ours.h"
#include "paper/level.h"
#include "scene_level.h"

namespace bench {

using namespace ragdoll;

namespace {

constexpr double kDt = 1.0 / 60.0;

enum class Kind { Standing, MidWalk, MidRun, Hit };

const char* kindName(Kind kind) { return kSweepKinds[int(kind)]; }

SceneInput held(std::uint64_t bits) {
    SceneInput in;
    in.held = bits;
    return in;
}

struct Run {
    bool stood = false;
    double restAt = -1.0;       ///< s after the switch when every body was asleep for good
    double movingUntil = 0.0;   ///< s after the switch when a body was last faster than kStoppedSpeed
    double maxDepth = 0.0, maxRestDepth = 0.0, maxStretch = 0.0, maxLimit = 0.0;
    double visualDepth = 0.0;  ///< the scene's run_max_visual_depth_m, standing, walking and limp
    std::uint64_t hash = 0;
};

/// One switch, with the world's substeps and iterations from `options`.
Run runSwitch(const SceneLevel& level, double x, Kind kind, bool sleeping, const SweepOptions& options,
              const TaskSystem& tasks, std::vector<double>& stepMs, std::FILE* trace) {
    Run r;
    Scene scene;
    scene.setTaskSystem(tasks);
    scene.setThreads(tasks.workerCount);
    std::string error;
    if (!scene.loadLevel(level, error) || scene.characterCount() == 0) return r;
    World& world = scene.world();
    world.setSubsteps(options.substeps);
    world.setIterations(options.iterations);
    world.enableSleep(sleeping);
    Character& c = scene.character(0);
    c.teleport({x, 3.0}, true);
    for (int i = 0; i < int(std::lround(kSweepSettleSeconds / kDt)); ++i) scene.step(kDt);
    if (!c.grounded()) return r;
    r.stood = true;
    const std::uint64_t right = bit(Action::Right), run = bit(Action::Run);
    if (kind == Kind::MidWalk)
        for (int i = 0; i < 30; ++i) scene.step(kDt, held(right));
    if (kind == Kind::MidRun)
        for (int i = 0; i < 30; ++i) scene.step(kDt, held(right | run));
    if (!c.enterRagdoll(kind == Kind::Hit ? Vec2{7.0, 2.0} : Vec2{})) {
        r.stood = false;
        return r;
    }
    const int steps = int(std::lround(kSweepWindowSeconds / kDt));
    std::vector<double> speeds(c.ragdoll().bodies.size());
    for (int i = 1; i <= steps; ++i) {
        const auto start = std::chrono::steady_clock::now();
        scene.step(kDt);
        stepMs.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
        const double t = i * kDt;
        for (JointId j : c.ragdoll().joints) {
            const JointError e = world.jointError(j);
            r.maxStretch = std::max(r.maxStretch, e.separation);
            r.maxLimit = std::max(r.maxLimit, radiansToDegrees(e.limitViolation));
        }
        const double depth = deepestInStatics(world, c.ragdoll().bodies);
        r.maxDepth = std::max(r.maxDepth, depth);
        bool asleep = true, slow = true;
        int awake = 0;
        for (size_t k = 0; k < c.ragdoll().bodies.size(); ++k) {
            const BodySnapshot s = world.snapshot(c.ragdoll().bodies[k]);
            asleep = asleep && !s.awake;
            awake += s.awake ? 1 : 0;
            // A body's ends turn about its centre: 0.25 m is about half a stickman's longest limb.
            speeds[k] = length(s.linearVelocity) + 0.25 * std::abs(s.angularVelocity);
            slow = slow && speeds[k] < kStoppedSpeed;
        }
        if (trace) {
            const Vec2 centre = bodiesMomentum(world, c.ragdoll().bodies).centerOfMass;
            std::fprintf(trace, "%s %.1f %s,%.4f,%d,%.3f,%.4f,%.4f", kindName(kind), x, sleeping ? "sleeping" : "awake", t,
                         awake, depth * 1000.0, centre.x, centre.y);
            for (double speed : speeds) std::fprintf(trace, ",%.2f", speed * 1000.0);
            std::fprintf(trace, "\n");
        }
        if (!asleep) r.restAt = -1.0;
        else if (r.restAt < 0.0) r.restAt = t;
        if (r.restAt >= 0.0) r.maxRestDepth = std::max(r.maxRestDepth, depth);
        else r.maxRestDepth = 0.0;  // only the depth of the rest that lasted counts
        if (!slow) r.movingUntil = t;
    }
    r.hash = world.stateHash();
    r.visualDepth = scene.runFigures().visualDepth;
    return r;
}

}  // namespace

bool runSweep(const SweepOptions& options, SweepResult& result, std::string& error) {
    paper::LevelLoadResult loaded = paper::loadLevelFile(options.levelPath);
    if (!loaded.level) {
        error = options.levelPath + ": the level does not load";
        for (const paper::Diagnostic& d : loaded.diagnostics) error += "\n" + d.format();
        return false;
    }
    // The level's warnings, as the player prints them: a sweep of a level that does not
    // say what it ignored measures a level the user did not write.
    for (const paper::Diagnostic& d : loaded.diagnostics) std::fprintf(stderr, "%s\n", d.format().c_str());
    SceneLevel level = test::toSceneLevel(*loaded.level);
    level.path = loaded.level->path;  // placement warnings name the file and line
    paper::JobPool pool(options.threads);
    const TaskSystem tasks = scenes::poolTasks(pool);
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> trace(nullptr, &std::fclose);
    {
        Scene probe;
        std::vector<std::string> warnings;
        if (!probe.loadLevel(level, error, &warnings)) return false;
        for (const std::string& warning : warnings) std::fprintf(stderr, "%s\n", warning.c_str());
        if (probe.characterCount() == 0) {
            error = options.levelPath + ": the level has no spawn (the sweep needs a character)";
            return false;
        }
        if (!options.tracePath.empty()) {
            trace.reset(std::fopen(options.tracePath.c_str(), "w"));
            if (!trace) {
                error = options.tracePath + ": cannot be written: " + std::strerror(errno);
                return false;
            }
            std::fprintf(trace.get(), "run,t_s,awake,deepest_mm,centre_x_m,centre_y_m");
            const RigDefinition& rig = probe.character(0).assets().rig;
            for (const RigBody& body : rig.bodies) std::fprintf(trace.get(), ",%s_mm_s", rig.bones[size_t(body.bone)].name.c_str());
            std::fprintf(trace.get(), "\n");
        }
    }

    result = {};
    result.runsHash = 0xcbf29ce484222325ull;  // FNV-1a's offset basis
    std::vector<double> stepMs;
    const bool one = !options.onlyKind.empty();
    const int places = one ? 1 : int(std::floor((options.toX - options.fromX) / 0.5 + 1e-9)) + 1;
    for (int p = 0; p < places; ++p) {
        const double x = one ? options.onlyX : options.fromX + 0.5 * p;
        for (Kind kind : {Kind::Standing, Kind::MidWalk, Kind::MidRun, Kind::Hit}) {
            if (one && options.onlyKind != kindName(kind)) continue;
            const Run resting = runSwitch(level, x, kind, true, options, tasks, stepMs, trace.get());
            if (!resting.stood) {
                ++result.skipped;
                continue;
            }
            const Run awake = runSwitch(level, x, kind, false, options, tasks, stepMs, trace.get());
            ++result.switches;
            if (resting.restAt >= 0.0 && resting.restAt <= 2.0) ++result.restedWithin2s;
            if (awake.stood && awake.movingUntil < 3.0) ++result.stoppedWithin3s;  // slower from 3 s on
            if (resting.restAt < 0.0) ++result.neverRested;
            else result.slowestRestSeconds = std::max(result.slowestRestSeconds, resting.restAt);
            result.maxDepth = std::max({result.maxDepth, resting.maxDepth, awake.maxDepth});
            result.maxVisualDepth = std::max({result.maxVisualDepth, resting.visualDepth, awake.visualDepth});
            result.maxRestDepth = std::max(result.maxRestDepth, resting.maxRestDepth);
            result.maxStretch = std::max({result.maxStretch, resting.maxStretch, awake.maxStretch});
            result.maxLimitViolationDeg = std::max({result.maxLimitViolationDeg, resting.maxLimit, awake.maxLimit});
            result.stateHash = awake.hash;
            for (const std::uint64_t hash : {resting.hash, awake.hash})
                result.runsHash = (result.runsHash ^ hash) * 0x100000001b3ull;  // FNV-1a's step, a word at a time
            result.runs.push_back({x, kindName(kind), resting.restAt, awake.movingUntil});
        }
    }
    if (trace && (std::fflush(trace.get()) != 0 || std::ferror(trace.get()))) {
        error = options.tracePath + ": cannot be written (the disk may be full)";
        return false;
    }
    if (!stepMs.empty()) {
        double sum = 0.0;
        for (double ms : stepMs) sum += ms;
        result.msPerStepMean = sum / double(stepMs.size());
        std::nth_element(stepMs.begin(), stepMs.begin() + std::ptrdiff_t(stepMs.size() / 2), stepMs.end());
        result.msPerStepMedian = stepMs[stepMs.size() / 2];
    }
    return true;
}

}  // namespace bench
