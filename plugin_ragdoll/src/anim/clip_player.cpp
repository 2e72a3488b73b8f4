// Clip playback with cross-fades, root motion and events.
//
// While a fade lasts both clips advance (the one fading out keeps moving rather than
// freezing, so a walk fading into a run does not stop its legs mid-stride) and the pose is
// blend(previous, current, w), w = smoothstep(fade fraction): the fade starts and ends
// with zero rate of change, so the blend itself adds no velocity jump. Root motion is
// blended with the same weight, taken at the middle of the step.
//
// Time is kept wrapped into [0, duration) for loops, so it stays precise however long a
// clip plays; root motion over a step is rootTravel(t0 + dt) − rootTravel(t0), which
// counts a wrap within the step as one cycle's travel.
//
// Events: the current clip's events at instants in [t0, t1) of the step (unwrapped, so an
// event just after the seam fires once, in the step that crosses it); a non-looping clip's
// last step ends at its duration and includes it. The clip fading out reports none: its
// weight is falling, and its footsteps would double those of the clip taking over.

#include "anim/clip_player.h"

#include <algorithm>
#include <cmath>

namespace ragdoll {
namespace {

double smoothstep(double x) {
    x = std::clamp(x, 0.0, 1.0);
    return x * x * (3.0 - 2.0 * x);
}

/// Moves one track on by dt (clip time), returning its root motion; appends the events
/// crossed when events is given.
double advanceTrack(ClipPlayer::Track& track, double dt, std::vector<std::string>* events) {
    const Clip* clip = track.clip;
    if (!clip || !(clip->duration > 0.0)) return 0.0;
    const double duration = clip->duration;
    const double t0 = track.time;
    if (clip->loop) {
        const double t1 = t0 + dt;
        if (events) {
            // Each instant e + k·duration (k ≥ 0) in [t0, t1); a step longer than a cycle
            // reports an event once per cycle it covers.
            for (const ClipEvent& event : clip->events) {
                double k = std::ceil((t0 - event.time) / duration);
                for (double at = event.time + std::max(k, 0.0) * duration; at < t1; at += duration)
                    if (at >= t0) events->push_back(event.name);
            }
        }
        const double motion = rootTravel(*clip, t1) - rootTravel(*clip, t0);
        const double whole = std::floor(t1 / duration);
        track.time = std::clamp(t1 - whole * duration, 0.0, duration);
        if (track.time >= duration) track.time = 0.0;  // a rounding edge of the wrap
        return motion;
    }
    if (t0 >= duration) return 0.0;  // finished: holds, reports nothing more
    const double t1 = std::min(t0 + dt, duration);
    if (events) {
        for (const ClipEvent& event : clip->events)
            if (event.time >= t0 && (event.time < t1 || (t1 >= duration && event.time <= duration)))
                events->push_back(event.name);
    }
    track.time = t1;
    return rootTravel(*clip, t1) - rootTravel(*clip, t0);
}

/// The pose of one track; the rest pose when it has no clip.
void sampleTrack(const ClipPlayer::Track& track, const RigDefinition& rig, LocalPose& out) {
    if (track.clip) {
        sampleClip(*track.clip, rig, track.time, out);
    } else {
        out.angles.resize(rig.bones.size());
        for (size_t i = 0; i < rig.bones.size(); ++i) out.angles[i] = rig.bones[i].localAngle;
        out.rootOffset = {};
    }
}

}  // namespace

void ClipPlayer::play(const Clip* clip, double fadeSeconds) {
    if (clip == current_.clip) return;
    const bool fading = fadeTime_ < fadeDuration_;
    if (fadeSeconds > 0.0 && (current_.clip || (fading && previous_.clip))) {
        // Fade from whatever dominates the pose now. Rejected: a third track for a fade
        // interrupted by another — a jump of at most half the blend is acceptable for a
        // rare case and keeps the state blob two tracks long.
        const double weight = fading ? smoothstep(fadeTime_ / fadeDuration_) : 1.0;
        previous_ = weight >= 0.5 ? current_ : previous_;
        fadeTime_ = 0.0;
        fadeDuration_ = fadeSeconds;
    } else {
        previous_ = {};
        fadeTime_ = fadeDuration_ = 0.0;
    }
    current_ = {clip, 0.0};
}

double ClipPlayer::advance(double dt, std::vector<std::string>* events) {
    // Playback never runs backwards: events and root motion assume time moves on.
    const double clipDt = std::max(dt * speed_, 0.0);
    const double realDt = std::max(dt, 0.0);
    const double currentMotion = advanceTrack(current_, clipDt, events);
    if (!(fadeTime_ < fadeDuration_)) return currentMotion;

    const double previousMotion = advanceTrack(previous_, clipDt, nullptr);
    const double weight = smoothstep((fadeTime_ + 0.5 * realDt) / fadeDuration_);
    fadeTime_ = std::min(fadeTime_ + realDt, fadeDuration_);
    if (!(fadeTime_ < fadeDuration_)) previous_ = {};
    return previousMotion + weight * (currentMotion - previousMotion);
}

void ClipPlayer::sample(const RigDefinition& rig, LocalPose& out) const {
    sampleTrack(current_, rig, out);
    if (!(fadeTime_ < fadeDuration_)) return;
    sampleTrack(previous_, rig, scratch_);
    blendLocalPoses(scratch_, out, smoothstep(fadeTime_ / fadeDuration_), out);
}

bool ClipPlayer::finished() const {
    return current_.clip && !current_.clip->loop && current_.time >= current_.clip->duration;
}

void ClipPlayer::restore(Track current, Track previous, double fadeTime, double fadeDuration, double speed) {
    current_ = current;
    previous_ = previous;
    fadeDuration_ = std::max(fadeDuration, 0.0);
    fadeTime_ = std::clamp(fadeTime, 0.0, fadeDuration_);
    speed_ = speed;
    if (!(fadeTime_ < fadeDuration_)) previous_ = {};
}

}  // namespace ragdoll
