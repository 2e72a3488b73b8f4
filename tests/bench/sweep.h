// The sweep: the character tests' switches to ragdoll along a level (standing, mid-walk,
// mid-run and hit, every 0.5 m), each run twice — sleeping on (does it come to rest?) and
// off (does it stop, or creep under the sleep threshold?) — through the plugin's Scene, as
// the game runs it. Measures how contacts and the joint trees settle a ragdoll together.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace bench {

struct SweepOptions {
    std::string levelPath;     ///< a level file with one spawn (the harness by default)
    double fromX = -2.0, toX = 12.0;  ///< metres; switches every 0.5 m in between
    int substeps = 4;
    int iterations = 1;  ///< position iterations per substep (WorldDef::iterations)
    int threads = 1;  ///< the solver's (Scene::setThreads), from a job pool of the bench's
    /// Set: only the switch of this kind (standing, mid-walk, mid-run or hit) at onlyX.
    std::string onlyKind;
    double onlyX = 0.0;
    /// Set: every step of every run, written as CSV (run, t_s, awake bodies, deepest_mm, the
    /// figure's centre of mass, and each body's speed in mm/s as stopped_within_3s measures
    /// it, named by its bone).
    std::string tracePath;
};

/// The switch kinds, in the sweep's order.
inline constexpr const char* kSweepKinds[] = {"standing", "mid-walk", "mid-run", "hit"};

/// One switch of the sweep, as its two runs ended.
struct SweepSwitch {
    double x = 0.0;            ///< metres along the level
    const char* kind = "";     ///< standing, mid-walk, mid-run or hit
    double restSeconds = -1.0;    ///< sleeping on: when every body was asleep for good, −1 never
    double movingUntilSeconds = 0.0;  ///< sleeping off: the last time a body was faster than kStoppedSpeed
};

struct SweepResult {
    int switches = 0;            ///< switches made (a place where the character could not stand is skipped)
    int skipped = 0;             ///< places where it did not stand on ground
    int restedWithin2s = 0;      ///< every body asleep within 2 s of the switch, and for good
    int stoppedWithin3s = 0;     ///< sleeping off: every body slower than kStoppedSpeed from 3 s to 10 s
    int neverRested = 0;         ///< switches still awake at the end of the window (sleeping on)
    double slowestRestSeconds = 0.0;  ///< the latest a switch that rested came to rest
    double maxDepth = 0.0;       ///< metres, deepest any body went into terrain at any step
    double maxRestDepth = 0.0;   ///< metres, deepest once at rest (sleeping on)
    /// metres, the deepest any drawn part (visual) reached into terrain or props, in every
    /// mode (the player's run_max_visual_depth_m), over every run
    double maxVisualDepth = 0.0;
    double maxStretch = 0.0;     ///< metres, over every step of every run
    double maxLimitViolationDeg = 0.0;
    double msPerStepMedian = 0.0, msPerStepMean = 0.0;  ///< the whole scene's step, every run
    std::uint64_t stateHash = 0;  ///< the world's hash after the last step of the last run
    /// Every run's last-step hash (sleeping on, then off, switch by switch) folded in the
    /// sweep's order: equal across two builds only when every switch ends the same.
    std::uint64_t runsHash = 0;
    std::vector<SweepSwitch> runs;  ///< every switch made, in the sweep's order
};

/// Below this a body counts as stopped: its centre of mass, and its ends turning about it, m/s.
inline constexpr double kStoppedSpeed = 0.005;
/// Seconds each run lasts after the switch.
inline constexpr double kSweepWindowSeconds = 10.0;
/// Seconds the character has, put at y = 3 m over a place, to stand there on the ground before
/// the switch; a place where it is not standing by then is skipped.
inline constexpr double kSweepSettleSeconds = 1.5;

/// False with a reason when the level cannot be loaded or has no character.
bool runSweep(const SweepOptions& options, SweepResult& result, std::string& error);

}  // namespace bench
