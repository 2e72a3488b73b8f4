// Plays clips on one rig with cross-fades: the current clip and, while a fade lasts, the
// one it fades from. Produces the blended local pose and the root motion of each advance.
#pragma once

#include <string>
#include <vector>

#include "anim/clip.h"

namespace ragdoll {

class ClipPlayer {
public:
    /// Starts clip (not owned; must outlive its use) from time 0, fading from whatever
    /// played over fadeSeconds (0 = cut). Playing the clip already playing does nothing.
    void play(const Clip* clip, double fadeSeconds);
    /// playback rate (1 = as authored).
    void setSpeed(double speed) { speed_ = speed; }
    /// Moves time on. Returns the root motion (forward metres, rig space) of the step,
    /// blended like the pose; names of events crossed are appended to events when given.
    double advance(double dt, std::vector<std::string>* events = nullptr);
    /// The blended pose now.
    void sample(const RigDefinition& rig, LocalPose& out) const;

    const Clip* clip() const { return current_.clip; }
    double time() const { return current_.time; }
    /// True once a non-looping clip has reached its end.
    bool finished() const;

    // For the state blob: everything that defines playback.
    struct Track {
        const Clip* clip = nullptr;
        double time = 0.0;
    };
    Track current() const { return current_; }
    Track previous() const { return previous_; }
    double fadeTime() const { return fadeTime_; }
    double fadeDuration() const { return fadeDuration_; }
    double speed() const { return speed_; }
    void restore(Track current, Track previous, double fadeTime, double fadeDuration, double speed);

private:
    Track current_, previous_;
    double fadeTime_ = 0.0, fadeDuration_ = 0.0;  ///< fading while fadeTime_ < fadeDuration_
    double speed_ = 1.0;
    mutable LocalPose scratch_;
};

}  // namespace ragdoll
