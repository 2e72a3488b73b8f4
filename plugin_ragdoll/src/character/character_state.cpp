// Character::save and Character::load: everything the state blob carries across a hot reload,
// checked before anything changes.
#include "character/character.h"

#include <algorithm>
#include <cmath>

#include "character/character_tuning.h"

namespace ragdoll {

namespace {
int roleIndex(const CharacterAssets& assets, const Clip* clip) {
    for (int r = 0; r < int(ClipRole::Count); ++r)
        if (clip == &assets.clips[r]) return r;
    return -1;
}
}  // namespace

void Character::save(SavedState& out) const {
    out.mode = mode_;
    out.role = role_;
    out.root = root_;
    out.rootVelocity = rootVelocity_;
    out.facingRight = facingRight_;
    out.grounded = grounded_;
    out.haveAnimHistory = haveAnimHistory_;
    out.ragdollMirrored = ragdollMirrored_;
    out.currentClip = roleIndex(*assets_, player_.current().clip);
    out.previousClip = roleIndex(*assets_, player_.previous().clip);
    out.currentTime = player_.current().time;
    out.previousTime = player_.previous().time;
    out.fadeTime = player_.fadeTime();
    out.fadeDuration = player_.fadeDuration();
    out.speed = player_.speed();
    out.previousAnim = animPoses_;  // becomes previousAnim_ at the next computeAnimatedPose
    out.poses = poses_;
    out.getUpFrom = getUpFrom_;
    out.getUpTime = getUpTime_;
    out.getUpShift = getUpShift_;
    out.blendWeights = blendWeights_;
    out.tuning = tuningOf(rig_);
    out.fileTuning = fileTuning_;
    out.appearance = appearance_;
    out.savedAppearance = savedAppearance_;
    out.replicated = replicated_;
    out.replicatedVelocity = replicatedVelocity_;
    out.bodies.clear();
    for (BodyId body : ragdoll_.bodies) out.bodies.push_back(world_->snapshot(body));
    out.animatedBodies.clear();
    for (BodyId body : animated_) out.animatedBodies.push_back(world_->snapshot(body));
    out.limitWarmStarts.clear();
    for (JointId joint : ragdoll_.joints) out.limitWarmStarts.push_back(world_->jointLimitWarmStart(joint));
    out.boneLinear = animLinear_;
    out.boneAngular = animAngular_;
    out.pushedMass = pushedMass_;
    for (int side = 0; side < 2; ++side) {
        out.reaching[side] = reaching_[side];
        out.reachTarget[side] = reachTarget_[side];
    }
}

namespace {
/// Clip times and rates a character can reach: a clip's time within a day (clips hold or
/// wrap; only a hold runs on), fades no longer than that, a playback rate of at most
/// kMaxClipSpeed, blend weights in [0, 1]. A time of 1e308 would make a step's travel
/// infinite, and an infinite one a NaN inside the clip's sampling.
bool plausibleTimes(const Character::SavedState& in) {
    constexpr double kDay = 86400.0;
    auto time = [](double t) { return std::isfinite(t) && std::abs(t) <= kDay; };
    bool ok = time(in.currentTime) && time(in.previousTime) && time(in.fadeTime) && time(in.fadeDuration) &&
              in.fadeTime >= 0.0 && in.fadeDuration >= 0.0 && time(in.getUpTime) && std::isfinite(in.speed) &&
              in.speed >= 0.0 && in.speed <= tuning::kMaxClipSpeed;
    for (double w : in.blendWeights) ok = ok && w >= 0.0 && w <= 1.0;
    return ok;
}
}  // namespace

bool Character::load(const SavedState& in, std::string& error) {
    const RigDefinition& rig = rig_;
    const size_t bones = rig.bones.size();
    auto finitePoses = [](const std::vector<BonePose>& poses) {
        for (const BonePose& p : poses)
            if (!isFinite(p.origin) || !std::isfinite(p.angle)) return false;
        return true;
    };
    if (in.previousAnim.size() != bones || in.poses.size() != bones || in.blendWeights.size() != bones || (!in.getUpFrom.empty() && in.getUpFrom.size() != bones) ||
        (!in.bodies.empty() && in.bodies.size() != rig.bodies.size()) ||
        (!in.limitWarmStarts.empty() && (in.bodies.empty() || in.limitWarmStarts.size() != rig.joints.size())) ||
        (!in.boneLinear.empty() && in.boneLinear.size() != bones) || (!in.boneAngular.empty() && in.boneAngular.size() != bones)) {
        error = "character '" + name_ + "': the state was saved for a different rig";
        return false;
    }
    if (!finitePoses(in.previousAnim) || !finitePoses(in.poses) || !finitePoses(in.getUpFrom) || !isFinite(in.root) ||
        !std::isfinite(in.getUpShift) || std::abs(in.getUpShift) > tuning::kMaxGetUpShift ||
        !isFinite(in.rootVelocity) || in.currentClip < -1 || in.currentClip >= int(ClipRole::Count) ||
        in.previousClip < -1 || in.previousClip >= int(ClipRole::Count) || in.currentClip < 0 || !plausibleTimes(in) ||
        !std::all_of(in.limitWarmStarts.begin(), in.limitWarmStarts.end(), [](double l) { return l >= 0.0 && l < tuning::kMaxLimitWarmStart; }) ||
        !(in.pushedMass >= 0.0 && in.pushedMass < tuning::kMaxPushedMass) || !isFinite(in.reachTarget[0]) || !isFinite(in.reachTarget[1]) ||
        !std::all_of(in.boneLinear.begin(), in.boneLinear.end(), [](Vec2 v) { return isFinite(v) && length(v) <= tuning::kMaxBoneSpeed; }) ||
        !std::all_of(in.boneAngular.begin(), in.boneAngular.end(), [](double w) { return std::abs(w) <= tuning::kMaxBoneTurnRate; })) {
        error = "character '" + name_ + "': the state holds a non-finite or out-of-range value";
        return false;
    }
    RigTuning tuning = in.tuning;
    if (tuning.bodies.empty() && tuning.joints.size() == rig_.joints.size()) {
        // An older blob held the joint limits only; the rest stays as this rig has it.
        RigTuning full = tuningOf(rig_);
        for (size_t j = 0; j < tuning.joints.size(); ++j) {
            full.joints[j].limited = tuning.joints[j].limited;
            full.joints[j].lower = tuning.joints[j].lower;
            full.joints[j].upper = tuning.joints[j].upper;
        }
        tuning = std::move(full);
    }
    // Only the edits: where the blob's rig still had its file's values, this character's
    // file's (a hot reload reads the file again, and another program may have changed it).
    if (!in.fileTuning.joints.empty() || !in.fileTuning.bodies.empty())
        tuning = editsOver(tuning, in.fileTuning, fileTuning_);
    RigDefinition tuned = rig_;
    if (!applyTuning(tuned, tuning, error)) {
        error = "character '" + name_ + "': " + error;
        return false;
    }
    const bool physical = isPhysical(in.mode) && in.role != NetRole::Proxy;  // a proxy only shows the mode
    const bool following = !physical && in.role != NetRole::Proxy;  // animated or getting up
    if (physical != !in.bodies.empty() || (!following && !in.animatedBodies.empty()) ||
        (!in.animatedBodies.empty() && in.animatedBodies.size() != rig.bodies.size())) {
        error = "character '" + name_ + "': the state's mode and bodies disagree";
        return false;
    }

    destroyBodies();
    destroyAnimatedBodies();
    mode_ = in.mode;
    role_ = in.role;
    root_ = in.root;
    rootVelocity_ = in.rootVelocity;
    facingRight_ = in.facingRight;
    grounded_ = in.grounded;
    haveAnimHistory_ = in.haveAnimHistory;
    const Clip* previous = in.previousClip >= 0 ? &assets_->clips[in.previousClip] : nullptr;
    player_.restore({&assets_->clips[in.currentClip], in.currentTime}, {previous, in.previousTime}, in.fadeTime,
                    in.fadeDuration, in.speed);
    animPoses_ = in.previousAnim;
    poses_ = in.poses;
    getUpFrom_ = in.getUpFrom;
    getUpTime_ = in.getUpTime;
    getUpShift_ = in.getUpShift;
    blendWeights_ = in.blendWeights;
    rig_ = std::move(tuned);
    appearance_ = in.appearance;
    savedAppearance_ = in.savedAppearance;
    replicated_ = in.replicated;
    replicatedVelocity_ = in.replicatedVelocity;
    for (int side = 0; side < 2; ++side) {
        reaching_[side] = in.reaching[side];
        reachTarget_[side] = in.reachTarget[side];
    }
    ragdollMirrored_ = in.ragdollMirrored;  // how the last ragdoll was built, kept after it too
    animLinear_ = in.boneLinear.empty() ? std::vector<Vec2>(bones) : in.boneLinear;
    animAngular_ = in.boneAngular.empty() ? std::vector<double>(bones, 0.0) : in.boneAngular;
    if (physical) {
        facingRight_ = !in.ragdollMirrored;  // built like the saved one, then restored exactly
        const Vec2 keepRoot = root_;
        buildBodies();
        facingRight_ = in.facingRight;
        root_ = keepRoot;
        for (size_t i = 0; i < ragdoll_.bodies.size(); ++i) world_->restore(ragdoll_.bodies[i], in.bodies[i]);
        for (size_t j = 0; j < in.limitWarmStarts.size() && j < ragdoll_.joints.size(); ++j)
            world_->setJointLimitWarmStart(ragdoll_.joints[j], in.limitWarmStarts[j]);
    }
    if (following) {
        // An older blob had one proxy box instead: the bodies start on the bones.
        createAnimatedBodies();
        for (size_t i = 0; i < in.animatedBodies.size() && i < animated_.size(); ++i)
            world_->restore(animated_[i], in.animatedBodies[i]);
        pushedMass_ = in.pushedMass;  // createAnimatedBodies cleared it
    }
    return true;
}

void Character::rigSaved(std::string text) {
    rig_.sourceText = std::move(text);
    fileTuning_ = tuningOf(rig_);
}

}  // namespace ragdoll
