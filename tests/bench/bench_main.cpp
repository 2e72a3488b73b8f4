// ragdoll_bench: runs a scene of tests/scenes/SCENES.md in our solver, and optionally in
// Box2D 2.4.1 as a peer, and prints a table or one JSON object (see usage() below).
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "paper/command_line.h"
#include "paper/content_paths.h"
#include "paper/file_checks.h"
#include "box2d_peer.h"
#include "measure.h"
#include "ours.h"
#include "scenes.h"
#include "sweep.h"

namespace {

const char* usage() {
    return R"(usage: ragdoll_bench [OPTIONS]

Runs a benchmark scene of SCENES.md in our solver (and with --peer in Box2D) at
1/60 s per step and prints what SCENES.md asks to report.

Options (a value as the next argument or after '=', e.g. --n=1000):
  --scene pile|chain|sweep
                       pile (default): N stickmen tumbling onto a 120 m ground between
                       walls. chain: 20 links of 0.5 m and a 50 kg end body hanging
                       from a static pin (stretch under a heavy mass ratio). sweep: the
                       level's character switched to ragdoll every 0.5 m from x = -2 to
                       12 m, standing, mid-walk, mid-run and hit (7, 2) N*s, each switch
                       run 10 s with sleeping on and again with it off (ours only).
  --level FILE         The sweep's level (default: content/levels/harness.level.xml).
  --switch X:KIND      Only one switch of KIND (standing, mid-walk, mid-run or hit) at
                       x = X m, both its runs: e.g. --switch 5.5:hit. The sweep's own are
                       every 0.5 m from x = -2; another X is run where it says.
  --trace FILE         Write every step of the sweep's runs to FILE as CSV: run (kind,
                       x, sleeping or awake), t_s after the switch, awake bodies,
                       deepest_mm into the terrain, the figure's centre of mass
                       (centre_x_m, centre_y_m), and each body's speed in mm/s as
                       stopped_within_3s measures it (a column per bone). Sweep only;
                       with --switch it shows why one switch rests late. FILE may not
                       be the level the sweep reads, nor end in .xml or .png (as its
                       rigs, clips and art do).
  --n N                Stickmen in the pile, 1 to 10000 (default 100). Pile only.
  --steps S            Steps to run, 1 to 100000 (default 600 for the pile, 300 for
                       the chain). Pile and chain (each of the sweep's runs is 10 s).
  --substeps K         Our substeps per step, 1 to 64 (default 4). Box2D 2.4.1 has no
                       substeps: it ignores K, and the peer's JSON has "substeps": null.
  --iterations I       Our position iterations per substep, 1 to 64 (default 1).
  --joints direct|iterative
                       How we solve joints: the direct tree solve (default) or
                       Gauss-Seidel. Pile and chain (the sweep's characters are
                       solved as the game solves them).
  --horizontal         Start the chain straight out to the right of the pin instead of
                       hanging down (it swings down: the hard case). Chain only.
  --no-sleep           Keep every body awake (default: the engines sleep resting
                       bodies). Pile and chain (the sweep runs every switch both ways).
  --threads T          Threads our solver's step is split across, 1 to 64 (default 1:
                       the calling thread alone). The joint trees, the narrow phase and
                       the per-body loops run as tasks on a pool of T threads; the
                       results (state_hash) are the same whatever T. The sweep uses them
                       too.
  --peer box2d         Also run the scene in Box2D 2.4.1 (8 velocity / 3 position
                       iterations, continuous collision off) and report it too.
  --json               Print one JSON object instead of the table.
  -h, --help           Print this help and exit.
  --version            Print the version and exit.

Reported, per engine:
  ms/step median, mean  wall time of each step, over steps 100..S-1 when S >= 200,
                        else over every step; ms total over every step (JSON).
  bodies, joints        as built, statics included (also the static body that holds
                        a joint to a world point: the chain has 21 + 1 bodies).
  contacts, awake       touching contact pairs and awake dynamic bodies after the
                        last step.
  stretch end/run       largest distance between a joint's two anchor points after
                        the last step / after any step (table mm, JSON metres).
  limit end/run         largest angle by which a joint is outside its limits after
                        the last step / after any step (degrees).
  depth                 deepest any moving body went into a static one (the ground, a
                        wall) after any step, measured on the shapes' surfaces (mm;
                        JSON metres). Box2D's is its touching contacts' separation.
  overlap               deepest two moving bodies (ragdolls' parts) overlapped in a
                        touching contact after any step, measured as depth is (mm;
                        JSON metres): how far a pile sinks into itself.
  exploded              a NaN, or a body beyond |x| = half width + 1 m, below -10 m
                        or above 250 m after any step (the run then stops there).

JSON keys: scene, n (null for the chain), horizontal, steps, substeps, iterations,
joint_solver, sleeping, threads, ms_per_step_median, ms_per_step_mean, ms_total, bodies,
joints, contacts, awake, max_stretch_m, max_stretch_end_m, max_limit_violation_deg,
max_limit_violation_end_deg, max_depth_m, max_overlap_m, exploded, state_hash (the
world's hash after the last step, hexadecimal; ours only), contact_lanes and
crossing_contacts (ours only: the last step's lanes of contacts between bodies that
threads sweep at once, and the contacts left to the calling thread), profile_ms (ours
only: the mean wall milliseconds a step spent in each stage, over the same steps as
ms_per_step_mean: collide, integrate, body_contacts, joint_trees, tree_contacts,
velocities, finish; README's solver section says what each holds), memory_bytes (and
memory_bytes_per_ragdoll for the pile) when the engine reports it; with --peer, "peer"
holds the same keys and "engine", with Box2D's own settings: substeps and joint_solver
null (it has neither), iterations {"velocity": 8, "position": 3}, threads 1.

The sweep reports (table and JSON): scene, level, substeps, iterations, threads, switches
(made; a place where the character does not stand on ground is skipped and counted in
skipped), rested_within_2s (every body asleep within 2 s of the switch, and for good),
stopped_within_3s (the same switch with sleeping off: every body's centre slower than
5 mm/s, counting 0.25 m times its turn rate, from 3 s after the switch to 10 s),
slowest_rest_s (of those that came to rest; null when none did), never_rested (still awake after 10 s with
sleeping on), max_depth_m (deepest any body went into terrain at any step of any run),
max_rest_depth_m (deepest once at rest), run_max_visual_depth_m (deepest any drawn part
reached into terrain or props, standing, walking and limp: the player's figure),
max_stretch_m, max_limit_violation_deg, ms_per_step_median, ms_per_step_mean (the
scene's whole step), state_hash (after the last run), runs_hash (every run's last hash
folded in order: the same only when every switch ends the same); in JSON also runs: each
switch's x, kind, rest_s (when it came to rest for good, sleeping on; null if never) and
moving_until_s (sleeping off: the last time a body was faster than 5 mm/s).

Exit status: 0 on success, 1 when --peer box2d is asked of a build without Box2D, the
sweep's level does not load, the character cannot stand where --switch puts it, or what
was asked (the results, the trace, this help, the version) cannot be written, 2 for a
bad command line.
)";
}

enum class Scene { Pile, Chain, Sweep };

struct BenchOptions {
    Scene scene = Scene::Pile;
    std::optional<int> stickmen;  ///< --n; unset: 100
    std::optional<int> steps;     ///< unset: 600 for the pile, 300 for the chain
    std::optional<int> substeps;  ///< unset: 4
    std::optional<int> iterations;  ///< unset: 1
    std::optional<int> threads;     ///< unset: 1
    std::string levelPath;          ///< --level, the sweep's; empty: the harness
    std::string switchKind;         ///< --switch X:KIND; empty: every switch
    double switchX = 0.0;
    std::string tracePath;          ///< --trace FILE, the sweep's
    bool iterativeJoints = false;   ///< --joints iterative: Gauss-Seidel instead of the direct solver
    bool jointsGiven = false;
    bool horizontal = false;
    bool sleeping = true;
    bool peerBox2D = false;
    bool json = false;
    bool showHelp = false;
    bool showVersion = false;

    int stickmenOrDefault() const { return stickmen.value_or(100); }
    int substepsOrDefault() const { return substeps.value_or(4); }
    int iterationsOrDefault() const { return iterations.value_or(1); }
    int threadsOrDefault() const { return threads.value_or(1); }
    int stepsOrDefault() const { return steps.value_or(scene == Scene::Pile ? 600 : 300); }
};

struct ParseResult {
    std::optional<BenchOptions> options;  ///< set when the command line was valid
    std::string error;                    ///< why not, for "ragdoll_bench: error: …"
};

bool parseInteger(const std::string& text, int min, int max, int& out) {
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, out);
    return ec == std::errc() && ptr == end && out >= min && out <= max;
}

ParseResult parseCommandLine(const std::vector<std::string>& args) {
    BenchOptions o;
    auto fail = [](std::string message) { return ParseResult{std::nullopt, std::move(message)}; };
    bool sceneGiven = false, peerGiven = false;

    for (size_t i = 0; i < args.size(); ++i) {
        paper::OptionArgument option(args, i);
        const std::string& arg = option.name();
        // A whole number from the next argument into `slot`, which must not be set yet.
        auto integer = [&](const char* what, int min, int max, std::optional<int>& slot) -> std::optional<std::string> {
            std::string v;
            if (!option.value(v)) return arg + " needs " + what;
            if (slot) return arg + " is given twice";
            int parsed = 0;
            if (!parseInteger(v, min, max, parsed))
                return arg + " must be a whole number from " + std::to_string(min) + " to " + std::to_string(max) +
                       ", got '" + v + "'";
            slot = parsed;
            return std::nullopt;
        };
        std::string v;
        if (arg == "-h" || arg == "--help") {
            o.showHelp = true;
        } else if (arg == "--version") {
            o.showVersion = true;
        } else if (arg == "--scene") {
            if (!option.value(v)) return fail("--scene needs pile, chain or sweep");
            if (sceneGiven) return fail("--scene is given twice");
            sceneGiven = true;
            if (v == "pile") o.scene = Scene::Pile;
            else if (v == "chain") o.scene = Scene::Chain;
            else if (v == "sweep") o.scene = Scene::Sweep;
            else return fail("unknown scene '" + v + "' (the scenes are pile, chain and sweep)");
        } else if (arg == "--level") {
            if (!option.value(v)) return fail("--level needs a level file");
            if (!o.levelPath.empty()) return fail("--level is given twice");
            o.levelPath = v;
        } else if (arg == "--switch") {
            if (!option.value(v)) return fail("--switch needs X:KIND, e.g. 5.5:hit");
            if (!o.switchKind.empty()) return fail("--switch is given twice");
            const size_t colon = v.find(':');
            const std::string kind = colon == std::string::npos ? "" : v.substr(colon + 1);
            bool known = false;
            for (const char* k : bench::kSweepKinds) known = known || kind == k;
            const char* end = v.data() + (colon == std::string::npos ? v.size() : colon);
            auto [ptr, ec] = std::from_chars(v.data(), end, o.switchX);
            if (colon == std::string::npos || ec != std::errc() || ptr != end || !std::isfinite(o.switchX) || !known)
                return fail("--switch must be X:KIND with X in metres and KIND standing, mid-walk, mid-run or hit, got '" + v + "'");
            o.switchKind = kind;
        } else if (arg == "--trace") {
            if (!option.value(v)) return fail("--trace needs a file to write");
            if (!o.tracePath.empty()) return fail("--trace is given twice");
            o.tracePath = v;
        } else if (arg == "--threads") {
            if (auto e = integer("a number of threads", 1, 64, o.threads)) return fail(*e);
        } else if (arg == "--n") {
            if (auto e = integer("a number of stickmen", 1, 10000, o.stickmen)) return fail(*e);
        } else if (arg == "--steps") {
            if (auto e = integer("a number of steps", 1, 100000, o.steps)) return fail(*e);
        } else if (arg == "--substeps") {
            if (auto e = integer("a number of substeps", 1, 64, o.substeps)) return fail(*e);
        } else if (arg == "--iterations") {
            if (auto e = integer("a number of iterations", 1, 64, o.iterations)) return fail(*e);
        } else if (arg == "--joints") {
            if (!option.value(v)) return fail("--joints needs direct or iterative");
            if (o.jointsGiven) return fail("--joints is given twice");
            o.jointsGiven = true;
            if (v == "direct") o.iterativeJoints = false;
            else if (v == "iterative") o.iterativeJoints = true;
            else return fail("unknown joint solver '" + v + "' (direct or iterative)");
        } else if (arg == "--horizontal") {
            o.horizontal = true;
        } else if (arg == "--no-sleep") {
            o.sleeping = false;
        } else if (arg == "--json") {
            o.json = true;
        } else if (arg == "--peer") {
            if (!option.value(v)) return fail("--peer needs an engine name (box2d)");
            if (peerGiven) return fail("--peer is given twice");
            peerGiven = true;
            if (v != "box2d") return fail("unknown peer engine '" + v + "' (the only peer is box2d)");
            o.peerBox2D = true;
        } else if (arg.starts_with("-")) {
            return fail("unknown option '" + arg + "' (see ragdoll_bench --help)");
        } else {
            return fail("unexpected argument '" + arg + "' (ragdoll_bench takes options only; see --help)");
        }
        if (const std::string unused = option.unusedValue(); !unused.empty()) return fail(unused);
    }
    if (o.showHelp || o.showVersion) return {o, {}};
    if (o.scene == Scene::Chain && o.stickmen)
        return fail("--n applies to --scene pile only (the chain always has 20 links)");
    if (o.scene != Scene::Chain && o.horizontal) return fail("--horizontal applies to --scene chain only");
    if (o.scene == Scene::Sweep && o.stickmen) return fail("--n applies to --scene pile only");
    if (o.scene == Scene::Sweep && o.peerBox2D) return fail("--peer applies to the pile and the chain (the sweep runs the game's scene)");
    if (o.scene != Scene::Sweep && !o.levelPath.empty()) return fail("--level applies to --scene sweep only");
    if (o.scene != Scene::Sweep && !o.switchKind.empty()) return fail("--switch applies to --scene sweep only");
    if (o.scene != Scene::Sweep && !o.tracePath.empty()) return fail("--trace applies to --scene sweep only");
    if (o.scene == Scene::Sweep && o.steps) return fail("--steps applies to the pile and the chain (each of the sweep's runs is 10 s)");
    if (o.scene == Scene::Sweep && o.jointsGiven)
        return fail("--joints applies to the pile and the chain (the sweep's characters are solved as the game solves them)");
    if (o.scene == Scene::Sweep && !o.sleeping)
        return fail("--no-sleep applies to the pile and the chain (the sweep runs every switch with sleeping on and off)");
    return {o, {}};
}

void printTable(const BenchOptions& o, const std::vector<scenes::BenchResult>& rows) {
    const int steps = o.stepsOrDefault();
    if (o.scene == Scene::Pile)
        std::printf("scene pile, %d %s", o.stickmenOrDefault(), o.stickmenOrDefault() == 1 ? "stickman" : "stickmen");
    else
        std::printf("scene chain, %s start", o.horizontal ? "horizontal" : "hanging");
    std::printf(", %d steps of 1/60 s, %d substeps, sleeping %s; ms/step over steps %d..%d\n\n", steps,
                o.substepsOrDefault(), o.sleeping ? "on" : "off", bench::firstTimedStep(steps), steps - 1);
    std::printf("%-22s %7s %7s %8s %7s %10s %10s %21s %21s %9s %11s %9s\n", "engine", "bodies", "joints", "contacts",
                "awake", "ms median", "ms mean", "stretch end/run mm", "limit end/run deg", "depth mm",
                "overlap mm", "exploded");
    for (const scenes::BenchResult& r : rows) {
        char stretch[64], limit[64];
        std::snprintf(stretch, sizeof stretch, "%.3f / %.3f", r.maxStretchEnd * 1000.0, r.maxStretchRun * 1000.0);
        std::snprintf(limit, sizeof limit, "%.2f / %.2f", r.maxLimitViolationEndDeg, r.maxLimitViolationRunDeg);
        std::printf("%-22s %7d %7d %8d %7d %10.3f %10.3f %21s %21s %9.2f %11.1f %9s\n",
                    r.engine.empty() ? "paperdoll" : r.engine.c_str(), r.bodies, r.joints, r.contacts, r.awake,
                    r.msPerStepMedian, r.msPerStepMean, stretch, limit, r.maxDepth * 1000.0, r.maxOverlap * 1000.0,
                    r.exploded ? "YES" : "no");
    }
    for (const scenes::BenchResult& r : rows) {
        if (r.profileMs.empty()) continue;
        std::printf("\n%s step by stage, ms (mean):", r.engine.c_str());
        for (const auto& [stage, ms] : r.profileMs) std::printf(" %s %.3f", stage.c_str(), ms);
        std::printf("\n");
    }
    for (const scenes::BenchResult& r : rows) {
        if (r.memoryBytes == 0) continue;
        std::printf("\n%s memory: %.1f KiB", r.engine.c_str(), double(r.memoryBytes) / 1024.0);
        if (o.scene == Scene::Pile) std::printf(", %.0f bytes per stickman", double(r.memoryBytes) / o.stickmenOrDefault());
        std::printf(" (the world's arrays, including the contact buffers)\n");
    }
    if (o.peerBox2D)
        std::puts("\nbox2d: no substeps (one step of 1/60 s, 8 velocity / 3 position iterations, continuous "
                  "collision off); capsules collide as 8-gons.");
}

std::string hex(std::uint64_t value) {
    char text[24];
    std::snprintf(text, sizeof text, "0x%016llx", static_cast<unsigned long long>(value));
    return text;
}

int runSweepScene(const BenchOptions& o) {
    bench::SweepOptions options;
    options.levelPath = o.levelPath;
    if (options.levelPath.empty()) {
        const std::optional<std::filesystem::path> content = paper::findContentDir();
        if (!content) {
            std::fprintf(stderr, "ragdoll_bench: error: no content/ folder found for the harness level; give --level FILE\n");
            return 1;
        }
        options.levelPath = (*content / "levels" / "harness.level.xml").string();
    }
    // Refused before the run, as the player refuses its --stats-json: the trace opens after
    // the level is read, and wrote its CSV over the level file.
    if (!o.tracePath.empty() && paper::sameFile(o.tracePath, options.levelPath)) {
        std::fprintf(stderr, "ragdoll_bench: error: --trace '%s': it is the level this run reads\n", o.tracePath.c_str());
        return 2;
    }
    // Nor over a rig, a clip or their art, which it reads too (named as they are).
    if (const std::string problem = paper::namedLikeContent(o.tracePath, ".csv"); !problem.empty()) {
        std::fprintf(stderr, "ragdoll_bench: error: --trace '%s': %s\n", o.tracePath.c_str(), problem.c_str());
        return 2;
    }
    options.substeps = o.substepsOrDefault();
    options.iterations = o.iterationsOrDefault();
    options.threads = o.threadsOrDefault();
    options.onlyKind = o.switchKind;
    options.onlyX = o.switchX;
    options.tracePath = o.tracePath;
    bench::SweepResult r;
    std::string error;
    if (!bench::runSweep(options, r, error)) {
        std::fprintf(stderr, "ragdoll_bench: error: %s\n", error.c_str());
        return 1;
    }
    if (!o.switchKind.empty() && r.switches == 0) {
        // Nothing measured is no result: the character could not stand there. Where that is
        // depends on the level, not on the sweep's range (it runs a switch anywhere it stands).
        std::fprintf(stderr,
                     "ragdoll_bench: error: --switch %g:%s: the character cannot stand at x = %g m of %s: put there "
                     "at y = 3 m, it was not standing on the ground %.1f s later\n",
                     o.switchX, o.switchKind.c_str(), o.switchX, options.levelPath.c_str(), bench::kSweepSettleSeconds);
        return 1;
    }
    if (o.json) {
        nlohmann::json j;
        j["scene"] = "sweep";
        j["level"] = options.levelPath;
        j["substeps"] = options.substeps;
        j["iterations"] = options.iterations;
        j["threads"] = o.threadsOrDefault();
        j["switches"] = r.switches;
        j["skipped"] = r.skipped;
        j["rested_within_2s"] = r.restedWithin2s;
        j["stopped_within_3s"] = r.stoppedWithin3s;
        j["slowest_rest_s"] = r.switches > r.neverRested ? nlohmann::json(r.slowestRestSeconds) : nlohmann::json();
        j["never_rested"] = r.neverRested;
        j["max_depth_m"] = r.maxDepth;
        j["max_rest_depth_m"] = r.maxRestDepth;
        j["run_max_visual_depth_m"] = r.maxVisualDepth;
        j["max_stretch_m"] = r.maxStretch;
        j["max_limit_violation_deg"] = r.maxLimitViolationDeg;
        j["ms_per_step_median"] = r.msPerStepMedian;
        j["ms_per_step_mean"] = r.msPerStepMean;
        j["state_hash"] = hex(r.stateHash);
        j["runs_hash"] = hex(r.runsHash);
        nlohmann::json runs = nlohmann::json::array();
        for (const bench::SweepSwitch& s : r.runs)
            runs.push_back({{"x", s.x},
                            {"kind", s.kind},
                            {"rest_s", s.restSeconds < 0.0 ? nlohmann::json() : nlohmann::json(s.restSeconds)},
                            {"moving_until_s", s.movingUntilSeconds}});
        j["runs"] = runs;
        std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
    } else {
        std::printf("scene sweep, %s, ", options.levelPath.c_str());
        if (options.onlyKind.empty()) std::printf("x from %.1f to %.1f m every 0.5 m", options.fromX, options.toX);
        else std::printf("the switch %s at x = %.2f m", options.onlyKind.c_str(), options.onlyX);
        std::printf(", %d substeps, iterations %d, threads %d\n\n", options.substeps, options.iterations, options.threads);
        std::printf("switches                 %d (skipped %d)\n", r.switches, r.skipped);
        std::printf("rested within 2 s        %d\n", r.restedWithin2s);
        std::printf("stopped within 3 s       %d (sleeping off)\n", r.stoppedWithin3s);
        if (r.switches > r.neverRested)
            std::printf("slowest rest             %.2f s (%d never rested within 10 s)\n", r.slowestRestSeconds, r.neverRested);
        else
            std::printf("slowest rest             none rested (%d never rested within 10 s)\n", r.neverRested);
        std::printf("max depth                %.1f mm, at rest %.1f mm\n", r.maxDepth * 1000.0, r.maxRestDepth * 1000.0);
        std::printf("max visual depth         %.1f mm (drawn parts, every mode)\n", r.maxVisualDepth * 1000.0);
        std::printf("max stretch              %.4f mm\n", r.maxStretch * 1000.0);
        std::printf("max limit violation      %.3f deg\n", r.maxLimitViolationDeg);
        std::printf("ms/step median, mean     %.3f, %.3f\n", r.msPerStepMedian, r.msPerStepMean);
        std::printf("state hash               %s\n", hex(r.stateHash).c_str());
        std::printf("runs hash                %s (every switch)\n", hex(r.runsHash).c_str());
    }
    return 0;
}

nlohmann::json toJson(const BenchOptions& o, const scenes::BenchResult& r) {
    nlohmann::json j;
    j["scene"] = o.scene == Scene::Pile ? "pile" : "chain";
    j["n"] = o.scene == Scene::Pile ? nlohmann::json(o.stickmenOrDefault()) : nlohmann::json(nullptr);
    j["horizontal"] = o.horizontal;
    j["steps"] = o.stepsOrDefault();
    j["substeps"] = o.substepsOrDefault();
    j["iterations"] = o.iterationsOrDefault();
    j["joint_solver"] = o.iterativeJoints ? "iterative" : "direct";
    j["sleeping"] = o.sleeping;
    j["threads"] = o.threadsOrDefault();
    j["ms_per_step_median"] = r.msPerStepMedian;
    j["ms_per_step_mean"] = r.msPerStepMean;
    j["ms_total"] = r.msTotal;
    j["bodies"] = r.bodies;
    j["joints"] = r.joints;
    j["contacts"] = r.contacts;
    j["awake"] = r.awake;
    j["max_stretch_m"] = r.maxStretchRun;
    j["max_stretch_end_m"] = r.maxStretchEnd;
    j["max_limit_violation_deg"] = r.maxLimitViolationRunDeg;
    j["max_limit_violation_end_deg"] = r.maxLimitViolationEndDeg;
    j["max_depth_m"] = r.maxDepth;
    j["max_overlap_m"] = r.maxOverlap;
    j["exploded"] = r.exploded;
    j["state_hash"] = r.stateHash.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.stateHash);
    if (!r.profileMs.empty()) {
        nlohmann::json profile = nlohmann::json::object();
        for (const auto& [stage, ms] : r.profileMs) profile[stage] = ms;
        j["profile_ms"] = profile;
    }
    if (r.contactLanes >= 0) {
        j["contact_lanes"] = r.contactLanes;
        j["crossing_contacts"] = r.crossingContacts;
    }
    if (r.memoryBytes > 0) {
        j["memory_bytes"] = r.memoryBytes;
        if (o.scene == Scene::Pile) j["memory_bytes_per_ragdoll"] = double(r.memoryBytes) / o.stickmenOrDefault();
    }
    return j;
}

int runSceneWithPeer(const BenchOptions& o);

/// Standard output is what a script reads (the results, the help, the version): output that
/// could not be written (a full disk) fails a run that otherwise succeeded. Why is errno's,
/// which the caller clears before the writes it answers for.
int checkStandardOutput(const char* what) {
    const bool flushed = std::cout.flush() && std::fflush(stdout) == 0;
    if (flushed && !std::ferror(stdout)) return 0;
    std::fprintf(stderr, "ragdoll_bench: error: cannot write %s to standard output: %s\n", what,
                 errno ? std::strerror(errno) : "a full disk?");
    return 1;
}

}  // namespace

int main(int argc, char** argv) {
    ParseResult parsed = parseCommandLine(std::vector<std::string>(argv + 1, argv + argc));
    if (!parsed.options) {
        std::fprintf(stderr, "ragdoll_bench: error: %s\n", parsed.error.c_str());
        return 2;
    }
    const BenchOptions& o = *parsed.options;
    errno = 0;
    if (o.showHelp) {
        // The help is longer than stdout's buffer: a full disk fails the write, not the flush.
        std::fputs(usage(), stdout);
        return checkStandardOutput("the help");
    }
    if (o.showVersion) {
        std::puts("ragdoll_bench " PAPERDOLL_VERSION);
        return checkStandardOutput("the version");
    }
    if (o.peerBox2D && !bench::box2dAvailable()) {
        std::fprintf(stderr,
                     "ragdoll_bench: error: this ragdoll_bench was built without Box2D (CMake did not find "
                     "libbox2d-dev); install it, reconfigure and rebuild, or drop --peer box2d\n");
        return 1;
    }

    if (o.scene == Scene::Sweep) {
        if (int status = runSweepScene(o)) return status;
    } else if (int status = runSceneWithPeer(o)) {
        return status;
    }
    // The results are the point: when they could not be written (a full disk), say so.
    errno = 0;
    return checkStandardOutput("the results");
}

namespace {

int runSceneWithPeer(const BenchOptions& o) {
    const scenes::SceneSpec scene =
        o.scene == Scene::Pile ? scenes::makePile(o.stickmenOrDefault()) : scenes::makeChain(o.horizontal);
    const int steps = o.stepsOrDefault();

    std::vector<scenes::BenchResult> rows;
    rows.push_back(bench::runOurs(scene, steps, o.substepsOrDefault(), o.sleeping, o.iterationsOrDefault(),
                                  o.iterativeJoints, o.threadsOrDefault()));
    if (o.peerBox2D) rows.push_back(bench::runBox2D(scene, steps, o.substepsOrDefault(), o.sleeping));

    if (o.json) {
        nlohmann::json out = toJson(o, rows[0]);
        if (o.peerBox2D) {
            nlohmann::json peer = toJson(o, rows[1]);
            peer["engine"] = rows[1].engine;
            // Our settings are not the peer's: it runs 8 velocity and 3 position iterations a
            // step, no substeps and no tree solve (it reported ours).
            peer["substeps"] = nullptr;
            peer["iterations"] = {{"velocity", bench::kBox2DVelocityIterations}, {"position", bench::kBox2DPositionIterations}};
            peer["joint_solver"] = nullptr;
            peer["threads"] = 1;
            out["peer"] = std::move(peer);
        }
        std::cout << out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
    } else {
        printTable(o, rows);
    }
    return 0;
}

}  // namespace
