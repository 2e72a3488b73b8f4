// The drop test of a rig (`paperdoll rig drop`): the rig standing in its rest pose with
// its lowest point 1 m above flat static ground, in a fresh world with the rig's own
// solver settings, stepped headless, measuring what a player would notice going wrong.
//
// The rig is given a sideways push (1 m/s towards +x, as the solver's own stickman drop
// test does). Dropped perfectly upright and still, a rig lands on its straight legs and
// balances like an inverted pendulum until rounding tips it over, seconds later and at a
// moment that depends on the last bit of every number: whether it was "at rest" after 5 s
// measured luck, not the rig. The push makes it fall over and settle every time.
//
// "At rest" is what the player sees: the world sleeps, and a rig is at rest from the frame
// after which every body stayed asleep or slower than restSpeed. A jittering rig never
// sleeps (sleep needs every body of the island below 5 cm/s for 0.5 s). Measured without
// sleep, a rig with human hip ranges lying on its back with its knees up folds them down
// at 1–3 cm/s for seconds — a balance like the upright one above, decided by rounding.
#pragma once

#include <string>

#include "rig/rig.h"

namespace ragdoll {

struct DropOptions {
    int frames = 300;            ///< steps of dt
    double dt = 1.0 / 60.0;      ///< seconds
    double dropHeight = 1.0;     ///< gap between the rig's lowest point and the ground, metres
    double restSpeed = 0.01;     ///< m/s: at rest when every body's fastest point is slower
    double push = 1.0;           ///< initial sideways velocity of the whole rig, m/s (+x)
};

/// What a healthy rig stays within (what `rig drop` accepts: the solver's own targets).
inline constexpr double kDropMaxStretch = 0.001;           ///< metres
inline constexpr double kDropMaxLimitViolationDegrees = 1.0;
inline constexpr double kDropMaxRestSeconds = 5.0;
/// A body farther than this from where it was dropped (plus what the push alone carries it
/// by then), or this far below the ground, has exploded (metres).
inline constexpr double kDropBounds = 50.0;
inline constexpr double kDropBelowGround = 1.0;

struct DropReport {
    std::string rig;            ///< the rig's name
    int frames = 0;
    double dt = 0.0;
    double push = 0.0;          ///< m/s
    int bodies = 0, joints = 0;
    double mass = 0.0;          ///< kg
    double maxStretch = 0.0;    ///< largest joint anchor separation over the run, metres
    double maxLimitViolationDegrees = 0.0;  ///< largest angle outside a limit over the run
    /// Frames after which every body stayed slower than restSpeed to the end; -1 if it
    /// was still moving at the last frame.
    int restFrame = -1;
    bool exploded = false;
    std::string explosion;      ///< what exploded, when it did
    std::string fastestBody;    ///< the fastest body at the last frame (bone name)
    double fastestSpeed = 0.0;  ///< its fastest point's speed then, m/s
    double seconds() const { return restFrame < 0 ? -1.0 : restFrame * dt; }

    bool stretchOk() const { return maxStretch <= kDropMaxStretch; }
    bool limitsOk() const { return maxLimitViolationDegrees <= kDropMaxLimitViolationDegrees; }
    bool restOk() const { return restFrame >= 0 && seconds() <= kDropMaxRestSeconds + 1e-9; }
    bool passed() const { return stretchOk() && limitsOk() && restOk() && !exploded; }
};

/// Runs the drop. A rig that cannot be built (no bodies) reports exploded with the reason.
DropReport dropRig(const RigDefinition& rig, const DropOptions& options = {});

}  // namespace ragdoll
