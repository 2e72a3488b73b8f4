// The character's state machine: construction, the step's two halves, the switches between
// animation and physics, the net role, and the queries and edits the editor makes.
#include "character/character.h"

#include <algorithm>
#include <cmath>

#include "character/character_tuning.h"
#include "character/drawn_shapes.h"

namespace ragdoll {

const char* modeName(CharacterMode mode) {
    switch (mode) {
    case CharacterMode::Animated: return "animated";
    case CharacterMode::Blend: return "blend";
    case CharacterMode::Ragdoll: return "ragdoll";
    case CharacterMode::GettingUp: return "getting_up";
    }
    return "?";
}

const char* netRoleName(NetRole role) {
    switch (role) {
    case NetRole::Standalone: return "standalone";
    case NetRole::Host: return "host";
    case NetRole::Proxy: return "proxy";
    }
    return "?";
}

Character::Character(World& world, std::shared_ptr<const CharacterAssets> assets, const CharacterDef& def)
    : world_(&world), assets_(std::move(assets)), name_(def.name), group_(def.collisionGroup < 0 ? def.collisionGroup : -1),
      role_(def.role), rig_(assets_->rig), root_(def.position), facingRight_(def.facingRight) {
    const RigDefinition& rig = rig_;
    fileTuning_ = tuningOf(rig);
    const size_t bones = rig.bones.size();
    rigPoses_.resize(bones);
    animPoses_.resize(bones);
    previousAnim_.resize(bones);
    poses_.resize(bones);
    animLinear_.assign(bones, Vec2{});
    animAngular_.assign(bones, 0.0);
    blendWeights_.assign(bones, 0.0);
    root_ = outOfTerrain(root_);
    replicated_.root = root_;
    replicated_.facingRight = facingRight_;
    player_.play(&clipOf(ClipRole::Idle), 0.0);
    computeAnimatedPose(0.0, true);
    poses_ = animPoses_;
    standClearOfTerrain();
    replicated_.root = root_;
    if (role_ != NetRole::Proxy) createAnimatedBodies();
}

Character::~Character() {
    destroyBodies();
    destroyAnimatedBodies();
}

// ---- the step ----------------------------------------------------------------------

void Character::preStep(double dt, const CharacterControls& controls) {
    if (!(dt > 0.0)) return;
    walkPace_ = 0.0;  // walking sets it (stepLocomotion); a get-up ending this step does not
    if (role_ == NetRole::Proxy) {
        stepProxy(dt);
        return;
    }
    switch (mode_) {
    case CharacterMode::Animated:
        stepLocomotion(dt, controls);
        poses_ = animPoses_;
        // IK plants the feet only: a trailing shin can still cut a stair's edge (or a heavy
        // slab's, stepped onto as a stair is).
        keepPoseOutOfTerrain(true);
        moveAnimatedBodies(dt);
        break;
    case CharacterMode::Blend:
        stepLocomotion(dt, controls);
        driveBodies(dt);
        break;
    case CharacterMode::Ragdoll: break;
    case CharacterMode::GettingUp:
        stepGettingUp(dt);
        moveAnimatedBodies(dt);
        break;
    }
}

void Character::postStep(double dt) {
    if (role_ == NetRole::Proxy) return;  // shows the replicated mode; owns no bodies
    pushProps(dt);
    if (!animated_.empty()) keepPoseOutOfProps();
    if (mode_ == CharacterMode::Blend) snapFollowingBodies();
    if (isPhysical(mode_)) readBodies();
    // What a proxy needs: where the character is. While limp, that is the ground under
    // its root body, so a peer's daze clip stands where the host's ragdoll lies.
    replicated_.mode = mode_;
    replicated_.facingRight = facingRight_;
    replicated_.tint = appearance_.tint;
    if (isPhysical(mode_)) {
        const Vec2 hip = poses_[size_t(assets_->rootBone)].origin;
        double ground = hip.y;
        replicated_.root = {hip.x, groundAt(hip.x, hip.y, ground) ? ground : hip.y};
    } else {
        replicated_.root = root_;
    }
}

// ---- switches -----------------------------------------------------------------------

bool Character::enterRagdoll(Vec2 impulse) {
    if (role_ == NetRole::Proxy || mode_ == CharacterMode::Ragdoll) return false;
    if (!buildBodies()) return false;
    // Blending saved the appearance already; limp is washed however it was entered.
    if (mode_ == CharacterMode::Animated || mode_ == CharacterMode::GettingUp) savedAppearance_ = appearance_;
    appearance_.tint = tuning::kDazedTint;
    mode_ = CharacterMode::Ragdoll;
    setBlendWeight(1.0);  // limp: what a blend at 1 is, and what the weight reads
    if (impulse.x != 0.0 || impulse.y != 0.0)
        for (BodyId body : ragdoll_.bodies) world_->applyLinearImpulse(body, impulse, world_->worldCenterOfMass(body));
    return true;
}

bool Character::enterBlend(double weight) {
    if (role_ == NetRole::Proxy || (mode_ != CharacterMode::Blend && mode_ != CharacterMode::Animated)) return false;
    if (mode_ == CharacterMode::Blend) {
        setBlendWeight(weight);
        return true;
    }
    if (!buildBodies()) return false;
    setBlendWeight(weight);
    savedAppearance_ = appearance_;
    mode_ = CharacterMode::Blend;
    return true;
}

bool Character::leaveBlend() {
    if (mode_ != CharacterMode::Blend) return false;
    destroyBodies();
    mode_ = CharacterMode::Animated;
    setBlendWeight(0.0);  // following the animation exactly, as a blend at 0 would
    appearance_ = savedAppearance_;
    poses_ = animPoses_;
    createAnimatedBodies();
    return true;
}

bool Character::getUp() {
    if (role_ == NetRole::Proxy || !isPhysical(mode_)) return false;
    const RigDefinition& rig = rig_;
    const BonePose torso = poses_[size_t(assets_->rootBone)];
    // In the air (the torso higher over the ground than kGetUpMostTorsoHeight times where it
    // stands) there is nothing to get up on: refused, the ragdoll falls on. It had stood up
    // in mid-air and hovered there. A figure just knocked off its feet may still get up.
    double ground = torso.origin.y;
    if (!groundAt(torso.origin.x, torso.origin.y, ground) ||
        torso.origin.y - ground > tuning::kGetUpMostTorsoHeight * rig.bones[size_t(assets_->rootBone)].origin.y)
        return false;
    // Stand where the body lies, the root under the root body (x only), feet on the ground;
    // where there is no room to stand there (lying under a table), at the nearest place
    // there is. A head had risen through the table's top, 30 cm into it; with no room
    // anywhere near, the get-up is refused.
    Vec2 feet;
    if (!roomToStand(torso.origin.x, ground, !ragdollMirrored_, liesFaceDown(poses_), feet)) return false;
    getUpFrom_ = poses_;
    destroyBodies();
    facingRight_ = !ragdollMirrored_;
    root_ = feet;
    rootVelocity_ = {};
    grounded_ = true;
    appearance_ = savedAppearance_;
    chooseGetUpStart();
    getUpTime_ = 0.0;
    getUpShift_ = 0.0;
    mode_ = CharacterMode::GettingUp;
    setBlendWeight(0.0);
    haveAnimHistory_ = false;  // the root jumped: no velocity from the previous pose
    computeAnimatedPose(0.0, true, true);
    createAnimatedBodies();  // at the pose the body lies in (poses_ is still that)
    return true;
}

bool Character::roomToStand(double x, double ground, bool facingRight, bool fromFront, Vec2& feet) {
    // The room a get-up rises into: as wide as its clip reaches either side of the root
    // above knee height, from knee height to under the figure's top (the walk's headroom
    // probe, kWallProbeHeight to kHeadProbeBelowTop under the top, widened). Below knee
    // height a step or a kerb is the get-up's IK's to meet. Made of horizontal capsules in
    // bands, each kGetUpRoomBand tall at most, so it is a box but for its rounded sides.
    const double bottom = tuning::kWallProbeHeight, top = assets_->standingHeight - tuning::kHeadProbeBelowTop;
    if (!(top > bottom)) return feet = {x, ground}, true;
    const int bands = int(std::ceil((top - bottom) / tuning::kGetUpRoomBand));
    const double radius = 0.5 * (top - bottom) / bands;
    // The room ahead of the way it will face, and behind.
    const std::array<double, 2>& reach = assets_->getUpReach[fromFront ? 0 : 1];
    const double ahead = std::max(reach[0] - radius, 0.0), behind = std::max(reach[1] - radius, 0.0);
    const double right = facingRight ? ahead : behind, left = facingRight ? behind : ahead;
    auto roomAt = [&](double at, double floor) {
        drawn_.clear();
        for (int band = 0; band < bands; ++band) {
            const double y = floor + bottom + (2 * band + 1) * radius;
            drawn_.push_back({{at - left, y}, {at + right, y}, radius});
        }
        return deepestOverlap(*world_, drawn_, Obstacles::Terrain, scratch_).depth <= tuning::kPoseTerrainTolerance;
    };
    if (roomAt(x, ground)) return feet = {x, ground}, true;
    // Then a step further each way in turn, the nearest place first, along ground it could
    // crawl: a side ends at a wall (terrain across the way at knee height), a drop or a rise
    // of more than a step; beyond a table's far leg was nearer than its open side.
    const Filter filter = probeFilter();
    double floors[2] = {ground, ground};
    bool open[2] = {true, true};
    const int tries = int(tuning::kGetUpRoomSearch / tuning::kGetUpRoomStep);
    for (int k = 1; k <= tries && (open[0] || open[1]); ++k)
        for (int side = 0; side < 2; ++side) {
            if (!open[side]) continue;
            const double dir = side == 0 ? 1.0 : -1.0, from = x + (k - 1) * tuning::kGetUpRoomStep * dir;
            const double at = x + k * tuning::kGetUpRoomStep * dir;
            double floor = floors[side];
            RayHit hit;
            const Vec2 knee{0.0, tuning::kLedgeDrop};
            if (!groundAt(at, floors[side], floor) || std::abs(floor - floors[side]) > tuning::kLedgeDrop ||
                (world_->rayCast(Vec2{from, floors[side]} + knee, Vec2{at, floor} + knee, filter, hit) && immovable(hit.body))) {
                open[side] = false;
                continue;
            }
            floors[side] = floor;
            if (roomAt(at, floor)) return feet = {at, floor}, true;
        }
    return false;
}

bool Character::toggleRagdoll() {
    switch (mode_) {
    case CharacterMode::Animated:
    case CharacterMode::Blend: return enterRagdoll();
    case CharacterMode::Ragdoll: return getUp();
    case CharacterMode::GettingUp: return enterRagdoll();
    }
    return false;
}

bool Character::hit(Vec2 impulse) {
    if (role_ == NetRole::Proxy) return false;
    if (mode_ == CharacterMode::Animated || mode_ == CharacterMode::GettingUp) return enterRagdoll(impulse);
    if (!isPhysical(mode_)) return false;
    for (BodyId body : ragdoll_.bodies) world_->applyLinearImpulse(body, impulse, world_->worldCenterOfMass(body));
    return true;
}

void Character::setBlendWeight(double weight, int bone) {
    weight = std::clamp(std::isfinite(weight) ? weight : 0.0, 0.0, 1.0);
    const RigDefinition& rig = rig_;
    if (bone < 0 || bone >= int(rig.bones.size())) {
        std::fill(blendWeights_.begin(), blendWeights_.end(), weight);
        return;
    }
    // The bone and everything below it: parents come first in parentFirst, so one pass
    // marks each bone whose parent is marked.
    std::vector<char> below(rig.bones.size(), 0);
    below[size_t(bone)] = 1;
    for (int b : assets_->parentFirst) {
        const int parent = rig.bones[size_t(b)].parent;
        if (parent >= 0 && below[size_t(parent)]) below[size_t(b)] = 1;
    }
    for (size_t b = 0; b < below.size(); ++b)
        if (below[b]) blendWeights_[b] = weight;
}

double Character::blendWeight(int bone) const {
    if (bone < 0 || bone >= int(blendWeights_.size())) bone = assets_->rootBone;
    return blendWeights_[size_t(bone)];
}

// ---- net role --------------------------------------------------------------------------

void Character::setRole(NetRole role) {
    if (role == role_) return;
    if (role == NetRole::Proxy) {
        destroyBodies();
        destroyAnimatedBodies();
        replicated_ = replicate();
    } else if (role_ == NetRole::Proxy) {
        // Simulate from what was shown: stand where the proxy stood.
        mode_ = CharacterMode::Animated;
        grounded_ = true;
        rootVelocity_ = {};
        role_ = role;
        createAnimatedBodies();
    }
    role_ = role;
}

ReplicatedCharacterState Character::replicate() const { return replicated_; }

void Character::applyReplicated(const ReplicatedCharacterState& state) {
    if (role_ == NetRole::Proxy) replicated_ = state;
}

// ---- queries and edits ---------------------------------------------------------------

void Character::setReachTarget(int side, Vec2 target) {
    if (side < 0 || side > 1 || !isFinite(target)) return;
    reaching_[side] = true;
    reachTarget_[side] = target;
}

void Character::clearReach(int side) {
    if (side >= 0 && side <= 1) reaching_[side] = false;
}

int Character::bodyCount() const { return int(ragdoll_.bodies.size() + animated_.size()); }

bool Character::setJointLimits(int joint, double lower, double upper) {
    if (joint < 0 || joint >= int(rig_.joints.size()) || !ragdoll::setJointLimits(rig_.joints[size_t(joint)], lower, upper))
        return false;
    applyJointLive(joint);
    return true;
}

bool Character::setJointProperty(int joint, int index, double value) {
    if (joint < 0 || joint >= int(rig_.joints.size()) || !ragdoll::setJointProperty(rig_.joints[size_t(joint)], index, value))
        return false;
    applyJointLive(joint);
    return true;
}

bool Character::setBodyProperty(int body, int index, double value) {
    if (body < 0 || body >= int(rig_.bodies.size()) || !ragdoll::setBodyProperty(rig_.bodies[size_t(body)], index, value))
        return false;
    if (!ragdoll_.empty()) {
        const RigBody& b = rig_.bodies[size_t(body)];
        const BodyId id = ragdoll_.bodies[size_t(body)];
        shapeRagdollBody(*world_, rig_, body, id, group_, kCharacterCategory);
        world_->setDamping(id, b.linearDamping, b.angularDamping);
        world_->wake(id);
    }
    // The following bodies too (they push the props while animated): else they kept the old
    // shape until the next switch, and a reload (which makes them from the edited rig) went
    // on differently from the scene it was saved from.
    if (size_t(body) < animated_.size()) shapeAnimatedBody(body);
    return true;
}

void Character::applyJointLive(int joint) {
    if (ragdoll_.empty()) return;
    const RigJoint& j = rig_.joints[size_t(joint)];
    const JointId id = ragdoll_.joints[size_t(joint)];
    world_->setJointLimits(id, j.limited, ragdollMirrored_ ? -j.upper : j.lower, ragdollMirrored_ ? -j.lower : j.upper);
    world_->setJointStiffness(id, j.stiffness);
    world_->setJointDamping(id, j.damping);
    world_->setJointFriction(id, j.friction);
    world_->setJointCollideConnected(id, j.collide);
}

bool Character::drawnMirrored() const { return isPhysical(mode_) && role_ != NetRole::Proxy ? ragdollMirrored_ : !facingRight_; }

double Character::jointAngle(int joint) const {
    const RigJoint& j = rig_.joints[size_t(joint)];
    const RigBone& parent = rig_.bones[size_t(j.parent)];
    const RigBone& child = rig_.bones[size_t(j.child)];
    const bool mirrored = drawnMirrored();
    const double world = poses_[size_t(j.child)].angle - poses_[size_t(j.parent)].angle;
    return wrapAngle((mirrored ? -world : world) - (child.angle - parent.angle));
}

void Character::teleport(Vec2 position, bool facingRight) {
    destroyBodies();
    mode_ = CharacterMode::Animated;
    root_ = outOfTerrain(position);
    facingRight_ = facingRight;
    rootVelocity_ = {};
    grounded_ = true;
    haveAnimHistory_ = false;
    computeAnimatedPose(0.0, true);
    poses_ = animPoses_;
    destroyAnimatedBodies();
    createAnimatedBodies();
}

Vec2 Character::toWorld(Vec2 p) const {
    const double x = p.x - assets_->rootRestX;
    return root_ + Vec2{facingRight_ ? x : -x, p.y};
}
double Character::toWorldAngle(double a) const { return facingRight_ ? a : wrapAngle(kPi - a); }
Vec2 Character::toRig(Vec2 p) const {
    const Vec2 d = p - root_;
    return {assets_->rootRestX + (facingRight_ ? d.x : -d.x), d.y};
}

}  // namespace ragdoll
