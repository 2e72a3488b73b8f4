#include "character/character.h"

#include <algorithm>
#include <cmath>

#include "anim/ik.h"
#include "character/character_tuning.h"

namespace ragdoll {

namespace {

double smoothstep(double t) {
    t = std::clamp(t, 0.0, 1.0);
    return t * t * (3.0 - 2.0 * t);
}

BonePose lerpPose(const BonePose& a, const BonePose& b, double t) {
    return {a.origin + t * (b.origin - a.origin), a.angle + t * wrapAngle(b.angle - a.angle)};
}

bool isPhysical(CharacterMode mode) { return mode == CharacterMode::Blend || mode == CharacterMode::Ragdoll; }

/// A body's mass properties as built (mass from the rig, inertia of its shape scaled to it).
MassData rigBodyMass(const RigDefinition& rig, int body) {
    MassData unit;
    switch (rig.bodies[size_t(body)].shape) {
    case BodyShape::Capsule: unit = computeMass(bodyCapsule(rig, body), 1.0); break;
    case BodyShape::Circle: unit = computeMass(bodyCircle(rig, body), 1.0); break;
    case BodyShape::Box: unit = computeMass(bodyBox(rig, body), 1.0); break;
    }
    const double mass = rig.bodies[size_t(body)].mass;
    return {mass, unit.center, unit.rotationalInertia * mass / unit.mass};
}

}  // namespace

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
    const size_t bones = rig.bones.size();
    rigPoses_.resize(bones);
    animPoses_.resize(bones);
    previousAnim_.resize(bones);
    poses_.resize(bones);
    animLinear_.assign(bones, Vec2{});
    animAngular_.assign(bones, 0.0);
    blendWeights_.assign(bones, 0.0);
    replicated_.root = root_;
    replicated_.facingRight = facingRight_;
    player_.play(&clipOf(ClipRole::Idle), 0.0);
    computeAnimatedPose(0.0, true);
    poses_ = animPoses_;
    if (role_ != NetRole::Proxy) createAnimatedBodies();
}

Character::~Character() {
    destroyBodies();
    destroyAnimatedBodies();
}

// ---- the step ----------------------------------------------------------------------

void Character::preStep(double dt, const CharacterControls& controls) {
    if (!(dt > 0.0)) return;
    if (role_ == NetRole::Proxy) {
        stepProxy(dt);
        return;
    }
    switch (mode_) {
    case CharacterMode::Animated:
        stepLocomotion(dt, controls);
        poses_ = animPoses_;
        // IK plants the feet only: a trailing shin can still cut a stair's edge.
        keepPoseOutOfTerrain();
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
    measurePush(dt);
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

void Character::stepLocomotion(double dt, const CharacterControls& controls) {
    const double gravity = world_->def().gravity.y;
    if (controls.move != 0 && grounded_) facingRight_ = controls.move > 0;
    const ClipRole role = !grounded_         ? ClipRole::Jump
                          : controls.move == 0 ? ClipRole::Idle
                          : controls.run      ? ClipRole::Run
                                              : ClipRole::Walk;
    player_.play(&clipOf(role), tuning::kClipFadeSeconds);
    const double travel = player_.advance(dt);
    const double side = facingRight_ ? 1.0 : -1.0;

    if (grounded_) {
        // Pushing props shares the walk's momentum with them: a 2 kg crate barely slows a
        // walker, a 10 kg stack takes a third of its speed (a perfectly inelastic push).
        const double mass = rig_.totalMass();
        const double share = mass / (mass + pushedMass_);
        rootVelocity_ = {controls.move != 0 ? share * side * travel / dt : 0.0, 0.0};
        if (controls.jump) {
            rootVelocity_.y = tuning::kJumpSpeed;
            grounded_ = false;
        }
    } else {
        rootVelocity_.y += gravity * dt;
    }
    // Walls stop the walk: probe ahead at knee height.
    if (rootVelocity_.x != 0.0) {
        const double dir = rootVelocity_.x > 0.0 ? 1.0 : -1.0;
        const Vec2 from = root_ + Vec2{0.0, tuning::kWallProbeHeight};
        RayHit hit;
        Filter filter;
        filter.group = group_;
        const Vec2 to = from + Vec2{dir * (tuning::kWallClearance + std::abs(rootVelocity_.x) * dt), 0.0};
        if (world_->rayCast(from, to, filter, hit) && world_->bodyType(hit.body) == BodyType::Static &&
            std::abs(hit.normal.x) > 0.7)
            rootVelocity_.x = 0.0;
    }
    root_ += dt * rootVelocity_;

    double ground = root_.y;
    const bool haveGround = groundAt(root_.x, root_.y, ground);
    if (grounded_) {
        if (!haveGround || ground < root_.y - tuning::kLedgeDrop) {
            grounded_ = false;  // walked off a ledge: fall
        } else {
            // Up or down a step at a walker's speed (IK keeps the feet on the steps meanwhile).
            root_.y = ground > root_.y ? std::min(ground, root_.y + tuning::kClimbSpeed * dt)
                                       : std::max(ground, root_.y - tuning::kStepDownSpeed * dt);
        }
    } else if (haveGround && root_.y <= ground && rootVelocity_.y <= 0.0) {
        root_.y = ground;
        rootVelocity_ = {};
        grounded_ = true;
    }
    computeAnimatedPose(dt, grounded_);
}

void Character::computeAnimatedPose(double dt, bool plantFeet, bool plantHands) {
    const CharacterAssets& a = *assets_;
    const RigDefinition& rig = a.rig;
    player_.sample(rig, local_);
    computeBonePoses(rig, local_, rigPoses_);
    // Each foot (and, getting up, each hand) no lower than the ground under it (ramps,
    // stairs): two-bone IK in rig space. The rig faces +x: a knee bends forward, so it lies
    // left of hip→foot (+1); an elbow bends back, right of shoulder→hand (−1).
    auto plant = [&](const CharacterAssets::Chain& limb, double bend) {
        if (limb.upper < 0 || limb.lower < 0) return;
        const RigBone& lower = rig.bones[size_t(limb.lower)];
        const double clearance = rig.bodies[size_t(a.bodyOfBone[size_t(limb.lower)])].radius;
        const BonePose& upperPose = rigPoses_[size_t(limb.upper)];
        const BonePose& lowerPose = rigPoses_[size_t(limb.lower)];
        const Vec2 end = lowerPose.origin + lower.length * Vec2{std::cos(lowerPose.angle), std::sin(lowerPose.angle)};
        const Vec2 endWorld = toWorld(end);
        double ground = 0.0;
        if (!groundAt(endWorld.x, std::max(root_.y, endWorld.y), ground)) return;
        const double lowest = toRig({endWorld.x, ground + clearance}).y;
        if (end.y >= lowest) return;
        const TwoBoneIkResult ik = solveTwoBoneIk(upperPose.origin, rig.bones[size_t(limb.upper)].length, lower.length,
                                                  {end.x, lowest}, bend);
        const int parent = rig.bones[size_t(limb.upper)].parent;
        const double parentAngle = parent >= 0 ? rigPoses_[size_t(parent)].angle : 0.0;
        local_.angles[size_t(limb.upper)] = wrapAngle(ik.upperAngle - parentAngle);
        local_.angles[size_t(limb.lower)] = wrapAngle(ik.lowerAngle - ik.upperAngle);
    };
    if (plantFeet)
        for (const CharacterAssets::Chain& leg : a.legs) plant(leg, 1.0);
    if (plantHands)
        for (const CharacterAssets::Chain& arm : a.arms) plant(arm, -1.0);
    // Arms reaching for their targets: the elbow bends forward (the rig faces +x, the hand
    // comes forward), so the elbow lies right of shoulder→hand (−1).
    bool reached = false;
    for (int side = 0; side < 2; ++side) {
        const CharacterAssets::Chain& arm = a.arms[side];
        if (!reaching_[side] || arm.upper < 0 || arm.lower < 0) continue;
        if (!reached) computeBonePoses(rig, local_, rigPoses_);  // the legs' IK moved nothing above the hip
        reached = true;
        const TwoBoneIkResult ik = solveTwoBoneIk(rigPoses_[size_t(arm.upper)].origin, rig.bones[size_t(arm.upper)].length,
                                                  rig.bones[size_t(arm.lower)].length, toRig(reachTarget_[side]), -1.0);
        const int parent = rig.bones[size_t(arm.upper)].parent;
        const double parentAngle = parent >= 0 ? rigPoses_[size_t(parent)].angle : 0.0;
        local_.angles[size_t(arm.upper)] = wrapAngle(ik.upperAngle - parentAngle);
        local_.angles[size_t(arm.lower)] = wrapAngle(ik.lowerAngle - ik.upperAngle);
    }
    // The skeleton keeps to its joints' limits (a clip authored to the rest of the rig, or IK
    // reaching down a step, may ask a little more), so a switch to physics starts inside them
    // and nothing snaps.
    for (size_t j = 0; j < rig.joints.size(); ++j) {
        const RigJoint& joint = rig.joints[j];
        if (!joint.limited) continue;
        const double rest = rig.bones[size_t(joint.child)].localAngle;
        double& angle = local_.angles[size_t(joint.child)];
        angle = rest + std::clamp(wrapAngle(angle - rest), joint.lower, joint.upper);
    }
    computeBonePoses(rig, local_, rigPoses_);
    previousAnim_ = animPoses_;
    for (size_t b = 0; b < rigPoses_.size(); ++b)
        animPoses_[b] = {toWorld(rigPoses_[b].origin), toWorldAngle(rigPoses_[b].angle)};
    if (haveAnimHistory_ && dt > 0.0) {
        for (size_t b = 0; b < animPoses_.size(); ++b) {
            animLinear_[b] = (1.0 / dt) * (animPoses_[b].origin - previousAnim_[b].origin);
            animAngular_[b] = wrapAngle(animPoses_[b].angle - previousAnim_[b].angle) / dt;
        }
    }
    haveAnimHistory_ = true;
}

void Character::stepProxy(double dt) {
    // Rebuilt from replicated state alone: limp on the host → the daze clip here.
    const Vec2 moved = replicated_.root - root_;
    replicatedVelocity_ = (1.0 / dt) * moved;
    root_ = replicated_.root;
    facingRight_ = replicated_.facingRight;
    mode_ = replicated_.mode;
    appearance_.tint = replicated_.tint;
    ClipRole role = ClipRole::Idle;
    if (mode_ != CharacterMode::Animated) role = ClipRole::Daze;
    else if (std::abs(replicatedVelocity_.x) > 2.2) role = ClipRole::Run;
    else if (std::abs(replicatedVelocity_.x) > 0.1) role = ClipRole::Walk;
    player_.play(&clipOf(role), tuning::kClipFadeSeconds);
    player_.advance(dt);
    computeAnimatedPose(dt, mode_ == CharacterMode::Animated);
    poses_ = animPoses_;
}

void Character::stepGettingUp(double dt) {
    player_.advance(dt);
    getUpTime_ += dt;
    // Feet and hands on the ground under them, whatever ground the clip was authored for.
    computeAnimatedPose(dt, true, true);
    const double t = smoothstep(getUpTime_ / tuning::kGetUpBlendSeconds);
    previousShown_ = poses_;
    for (size_t b = 0; b < poses_.size(); ++b) {
        poses_[b] = lerpPose(getUpFrom_[b], animPoses_[b], t);
        poses_[b].origin += getUpShift_;
    }
    keepPoseOutOfTerrain();
    // What a knock-down now would hand the ragdoll: the shown pose's own motion.
    for (size_t b = 0; b < poses_.size(); ++b) {
        animLinear_[b] = (1.0 / dt) * (poses_[b].origin - previousShown_[b].origin);
        animAngular_[b] = wrapAngle(poses_[b].angle - previousShown_[b].angle) / dt;
    }
    if (player_.finished() && getUpTime_ >= tuning::kGetUpBlendSeconds) {
        mode_ = CharacterMode::Animated;  // IK plants the feet again from the next step
        root_.x += getUpShift_.x;         // where the props it got up among let it stand
        getUpShift_ = {};
        player_.play(&clipOf(ClipRole::Idle), tuning::kClipFadeSeconds);
    }
}

void Character::chooseGetUpStart() {
    // Face down when the chest points at the ground (the get-up from the front), else face up
    // (from the back). The chest is the root bone's +x turned a quarter clockwise (the rig
    // faces +x); a mirrored ragdoll's is turned the other way.
    const BonePose& torso = getUpFrom_[size_t(assets_->rootBone)];
    const Vec2 along{std::cos(torso.angle), std::sin(torso.angle)};
    const Vec2 chest = ragdollMirrored_ ? perp(along) : -1.0 * perp(along);
    const Clip& clip = clipOf(chest.y < 0.0 ? ClipRole::GetUpFront : ClipRole::GetUpBack);
    facingRight_ = !ragdollMirrored_;
    // Then the frame whose pose is nearest the one the body lies in (each bone's world angle,
    // weighted by its length), so a figure on all fours starts from the clip's kneeling frame
    // rather than lying flat first.
    const RigDefinition& rig = rig_;
    double best = 1e300, bestTime = 0.0;
    LocalPose local;
    std::vector<BonePose> pose;
    for (double time = 0.0; time <= clip.duration + 1e-9; time += tuning::kGetUpMatchStep) {
        sampleClip(clip, rig, time, local);
        computeBonePoses(rig, local, pose);
        double cost = tuning::kGetUpMatchLatePenalty * time;  // of two near frames the earlier wins
        for (size_t b = 0; b < pose.size(); ++b) {
            const double d = wrapAngle(toWorldAngle(pose[b].angle) - getUpFrom_[b].angle);
            cost += rig.bones[b].length * d * d;
        }
        if (cost < best) {
            best = cost;
            bestTime = time;
        }
    }
    player_.restore({&clip, bestTime}, {nullptr, 0.0}, 0.0, 0.0, 1.0);
}

void Character::keepPoseOutOfTerrain() {
    // Rigid, along the way out of the deepest overlap, a few times (a corner can need two).
    for (int pass = 0; pass < 4; ++pass) {
        drawnShapes(rig_, poses_, appearance_.scale, drawn_);
        const DrawnDepth deepest = deepestOverlap(*world_, drawn_, Obstacles::Terrain, scratch_);
        if (deepest.depth <= tuning::kPoseTerrainTolerance) return;
        const Vec2 shift = (deepest.depth - 0.5 * tuning::kPoseTerrainTolerance) * deepest.normal;
        for (BonePose& p : poses_) p.origin += shift;
    }
}

void Character::keepPoseOutOfProps() {
    // After the step the props have been pushed by the following bodies; what the drawn
    // figure still reaches into did not give way (pinned against a wall, the ground or a
    // stack). The figure is moved out of it: held back sideways, and so is the walk (a walker
    // cannot pass through what it cannot push); lifted when the prop is under a limb (a foot
    // on a crate). Never pushed down: a crate on the head is pushed off by the bodies instead.
    for (int pass = 0; pass < 2; ++pass) {
        drawnShapes(rig_, poses_, appearance_.scale, drawn_);
        const DrawnDepth deepest = deepestOverlap(*world_, drawn_, Obstacles::Props, scratch_);
        if (deepest.depth <= tuning::kPoseTerrainTolerance) return;
        const double out = deepest.depth - 0.5 * tuning::kPoseTerrainTolerance;
        Vec2 shift = out * deepest.normal;
        if (shift.y < 0.0) {
            if (std::abs(deepest.normal.x) < tuning::kPropHoldBackMinNormal) return;
            shift = {out / deepest.normal.x, 0.0};
        }
        shift.x = std::clamp(shift.x, -tuning::kPropHoldBackMax, tuning::kPropHoldBackMax);
        shift.y = std::min(shift.y, tuning::kPropHoldBackMax);
        for (BonePose& p : poses_) p.origin += shift;
        if (mode_ == CharacterMode::Animated) {
            root_.x += shift.x;
            for (BonePose& p : animPoses_) p.origin.x += shift.x;  // the tracked velocities see no jump
        } else {
            getUpShift_ += shift;  // the get-up's poses are blended afresh each step
            const double moved = length(getUpShift_);
            if (moved > tuning::kMaxGetUpShift) getUpShift_ = (tuning::kMaxGetUpShift / moved) * getUpShift_;
        }
    }
}

// ---- physics --------------------------------------------------------------------------

bool Character::buildBodies() {
    if (!ragdoll_.empty()) return true;
    // Before any body exists: a body born inside a following one would be shot out.
    destroyAnimatedBodies();
    const RigDefinition& rig = rig_;
    RagdollDef def = defaultRagdollDef();
    def.position = root_;
    def.mirrored = !facingRight_;
    def.collisionGroup = group_;
    std::string error;
    ragdoll_ = buildRagdoll(*world_, rig, def, &error);
    if (ragdoll_.empty()) return false;
    ragdollMirrored_ = def.mirrored;
    // Built at the rest pose (so joint limits measure from it), then moved to the pose
    // shown, with the velocities tracked while animated.
    for (size_t i = 0; i < rig.bodies.size(); ++i) {
        const int bone = rig.bodies[i].bone;
        const BodyId body = ragdoll_.bodies[i];
        world_->setTransform(body, poses_[size_t(bone)].origin, poses_[size_t(bone)].angle);
        world_->setVelocity(body, animLinear_[size_t(bone)], animAngular_[size_t(bone)]);
    }
    liftOutOfTerrain();
    return true;
}

void Character::liftOutOfTerrain() {
    // An animated pose may reach into the terrain (a trailing shin through a stair's edge;
    // IK plants only the feet). The contacts would push that out within one substep, and in
    // XPBD a position push becomes velocity: the ragdoll would leap off the stairs. So the
    // whole ragdoll is lifted out first, rigidly, keeping its pose and velocities.
    const RigDefinition& rig = rig_;
    std::vector<BodyId> near;  // at the switch, not in the step
    for (int pass = 0; pass < 4; ++pass) {
        double deepest = 0.0;
        Vec2 direction;
        for (size_t i = 0; i < ragdoll_.bodies.size(); ++i) {
            const BodyId body = ragdoll_.bodies[i];
            const RigBody& rb = rig.bodies[i];
            const BonePose pose = {world_->bodyTransform(body).p, world_->bodyState(body).angle};
            const Vec2 tip = pose.origin + rig.bones[size_t(rb.bone)].length * Vec2{std::cos(pose.angle), std::sin(pose.angle)};
            const double r = rb.radius;
            near.clear();
            world_->queryAABB({{std::min(pose.origin.x, tip.x) - r, std::min(pose.origin.y, tip.y) - r},
                               {std::max(pose.origin.x, tip.x) + r, std::max(pose.origin.y, tip.y) + r}},
                              near);
            for (BodyId other : near) {
                if (world_->bodyType(other) != BodyType::Static) continue;
                Vec2 normal;
                const double depth = world_->overlap(other, body, &normal);
                if (depth > deepest) {
                    deepest = depth;
                    direction = normal;
                }
            }
        }
        if (deepest < 0.001) return;
        const Vec2 shift = (deepest + 0.001) * direction;
        for (BodyId body : ragdoll_.bodies) {
            const BodyState s = world_->bodyState(body);
            world_->setTransform(body, s.position + shift, s.angle);
            world_->setVelocity(body, s.linearVelocity, s.angularVelocity);
        }
    }
}

void Character::destroyBodies() {
    if (world_) destroyRagdoll(*world_, ragdoll_);
}

void Character::readBodies() {
    const RigDefinition& rig = rig_;
    for (size_t i = 0; i < rig.bodies.size(); ++i) {
        const BodyState state = world_->bodyState(ragdoll_.bodies[i]);
        poses_[size_t(rig.bodies[i].bone)] = {state.position, state.angle};
    }
}

void Character::driveBodies(double dt) {
    // Stable PD (implicit in the gains, Tan et al. 2011) toward the animated pose: per unit
    // mass, so the gains mean the same for every body; gravity compensated by the same
    // factor, so weight 0 means "follow exactly" and weight 1 "pure physics".
    const RigDefinition& rig = rig_;
    const RigDrive& drive = rig.drive;
    const Vec2 gravity = world_->def().gravity;
    for (size_t i = 0; i < rig.bodies.size(); ++i) {
        const int bone = rig.bodies[i].bone;
        const BodyId body = ragdoll_.bodies[i];
        const double gain = 1.0 - blendWeights_[size_t(bone)];
        const BonePose& target = animPoses_[size_t(bone)];
        const Vec2 targetLinear = animLinear_[size_t(bone)];
        const double targetAngular = animAngular_[size_t(bone)];
        if (gain >= 1.0) {
            // Weight 0: move onto the target within this step (so contacts see the motion);
            // postStep then puts it there exactly.
            const BodyState s = world_->bodyState(body);
            world_->setVelocity(body, (1.0 / dt) * (target.origin - s.position), wrapAngle(target.angle - s.angle) / dt);
            continue;
        }
        if (gain <= 0.0) continue;
        const BodyState s = world_->bodyState(body);
        const double kp = gain * drive.linearStiffness, kd = gain * drive.linearDamping;
        const Vec2 linear = targetLinear + (1.0 / (1.0 + dt * kd + dt * dt * kp)) *
                                               ((s.linearVelocity - targetLinear) + dt * kp * (target.origin - s.position)) -
                            (gain * dt) * gravity;
        const double ka = gain * drive.angularStiffness, kda = gain * drive.angularDamping;
        const double angular = targetAngular + ((s.angularVelocity - targetAngular) +
                                                dt * ka * wrapAngle(target.angle - s.angle)) /
                                                   (1.0 + dt * kda + dt * dt * ka);
        world_->setVelocity(body, linear, angular);
    }
}

void Character::snapFollowingBodies() {
    // At weight 0 a body is exactly on the animated pose, moving with its tracked velocity.
    const RigDefinition& rig = rig_;
    for (size_t i = 0; i < rig.bodies.size(); ++i) {
        const int bone = rig.bodies[i].bone;
        if (blendWeights_[size_t(bone)] > 0.0) continue;
        const BodyId body = ragdoll_.bodies[i];
        world_->setTransform(body, animPoses_[size_t(bone)].origin, animPoses_[size_t(bone)].angle);
        world_->setVelocity(body, animLinear_[size_t(bone)], animAngular_[size_t(bone)]);
    }
}

void Character::createAnimatedBodies() {
    if (!animated_.empty() || role_ == NetRole::Proxy) return;
    for (size_t i = 0; i < rig_.bodies.size(); ++i) {
        const BonePose& pose = poses_[size_t(rig_.bodies[i].bone)];
        BodyDef def = defaultBodyDef();
        def.position = pose.origin;
        def.angle = pose.angle;
        def.gravityScale = 0.0;
        const BodyId id = world_->createBody(def);
        if (isNull(id)) break;
        animated_.push_back(id);
        Filter filter;
        filter.group = group_;
        filter.maskBits = ~kTerrainCategory;
        shapeRagdollBody(*world_, rig_, int(i), id, filter, tuning::kAnimatedMassScale);
    }
}

void Character::destroyAnimatedBodies() {
    if (world_)
        for (BodyId body : animated_) world_->destroyBody(body);
    animated_.clear();
    pushedMass_ = 0.0;
}

void Character::moveAnimatedBodies(double dt) {
    // Each body heads for its bone's pose by the end of the step; a prop in the way pushes
    // back on it (it is heavy, not infinitely so: a limb pressing a crate into the ground
    // gives way instead of crushing it). The next step sets off from wherever it ended.
    for (size_t i = 0; i < animated_.size(); ++i) {
        const BonePose& target = poses_[size_t(rig_.bodies[i].bone)];
        const BodyState s = world_->bodyState(animated_[i]);
        world_->setVelocity(animated_[i], (1.0 / dt) * (target.origin - s.position), wrapAngle(target.angle - s.angle) / dt);
    }
}

void Character::measurePush(double dt) {
    pushedMass_ = 0.0;
    if (animated_.empty()) return;
    pushed_.clear();
    for (size_t i = 0; i < animated_.size(); ++i) {
        const RigBody& body = rig_.bodies[i];
        const BonePose& pose = poses_[size_t(body.bone)];
        const double boneLength = rig_.bones[size_t(body.bone)].length;
        const Vec2 tip = pose.origin + boneLength * Vec2{std::cos(pose.angle), std::sin(pose.angle)};
        const DrawnShape shape = body.shape == BodyShape::Circle
                                     ? DrawnShape{0.5 * (pose.origin + tip), 0.5 * (pose.origin + tip), body.radius}
                                     : DrawnShape{pose.origin, tip, body.radius};
        scratch_.clear();
        const double r = body.radius + tuning::kPushSearchDistance;
        world_->queryAABB({{std::min(shape.a.x, shape.b.x) - r, std::min(shape.a.y, shape.b.y) - r},
                           {std::max(shape.a.x, shape.b.x) + r, std::max(shape.a.y, shape.b.y) + r}},
                          scratch_);
        for (BodyId other : scratch_) {
            const Shape* s = world_->bodyShape(other);
            if (world_->bodyType(other) != BodyType::Dynamic || !s || s->filter.group != 0) continue;
            if (std::find(pushed_.begin(), pushed_.end(), other) != pushed_.end()) continue;
            // Touching now, or touched during the step and already on its way.
            const BodyState prop = world_->bodyState(other);
            const double separation = drawnSeparation(*world_, other, shape);
            if (separation > tuning::kPushContactDistance + dt * length(prop.linearVelocity - rootVelocity_)) continue;
            pushed_.push_back(other);
            if (separation <= tuning::kPushContactDistance) pushedMass_ += world_->bodyMass(other);
            // A position-based contact with a heavy driven limb hands the prop the limb's whole
            // speed (a swinging foot moves at 3-5 m/s): shoved, not kicked, it keeps at most
            // the walker's pace, or getting up a limb's push (a crate on the figure is lifted
            // off), and a little more.
            // Nor is it scooped up by a foot swinging under its edge (it would come down on the
            // foot and be crushed between the limb and the ground).
            const double limb = mode_ != CharacterMode::GettingUp ? 0.0
                                : std::min(length(world_->bodyState(animated_[i]).linearVelocity), tuning::kLimbPushSpeed);
            const double cap = std::max(length(rootVelocity_), limb) + tuning::kPushedSpeedSlack;
            Vec2 v = prop.linearVelocity;
            v.y = std::min(v.y, tuning::kPushedMaxRise);
            const double speed = length(v);
            if (speed > cap) v = (cap / speed) * v;
            world_->setVelocity(other, v, std::clamp(prop.angularVelocity, -tuning::kPushedMaxSpin, tuning::kPushedMaxSpin));
        }
    }
}

bool Character::groundAt(double x, double nearY, double& groundY) const {
    Filter filter;
    filter.group = group_;
    RayHit hit;
    // Only terrain and props: the ground is what does not belong to a character.
    const Vec2 from{x, nearY + tuning::kGroundProbeUp}, to{x, nearY - tuning::kGroundProbeDown};
    if (!world_->rayCast(from, to, filter, hit) || hit.normal.y < 0.3) return false;
    groundY = hit.point.y;
    return true;
}

// ---- switches -----------------------------------------------------------------------

bool Character::enterRagdoll(Vec2 impulse) {
    if (role_ == NetRole::Proxy || mode_ == CharacterMode::Ragdoll) return false;
    if (!buildBodies()) return false;
    if (mode_ == CharacterMode::Animated || mode_ == CharacterMode::GettingUp) {
        savedAppearance_ = appearance_;
        appearance_.tint = tuning::kDazedTint;
    }
    mode_ = CharacterMode::Ragdoll;
    if (impulse.x != 0.0 || impulse.y != 0.0)
        for (BodyId body : ragdoll_.bodies) world_->applyLinearImpulse(body, impulse, world_->worldCenterOfMass(body));
    return true;
}

bool Character::enterBlend(double weight) {
    if (role_ == NetRole::Proxy) return false;
    setBlendWeight(weight);
    if (mode_ == CharacterMode::Blend) return true;
    if (mode_ != CharacterMode::Animated) return false;
    if (!buildBodies()) return false;
    savedAppearance_ = appearance_;
    mode_ = CharacterMode::Blend;
    return true;
}

bool Character::leaveBlend() {
    if (mode_ != CharacterMode::Blend) return false;
    destroyBodies();
    mode_ = CharacterMode::Animated;
    appearance_ = savedAppearance_;
    poses_ = animPoses_;
    createAnimatedBodies();
    return true;
}

bool Character::getUp() {
    if (role_ == NetRole::Proxy || !isPhysical(mode_)) return false;
    const RigDefinition& rig = rig_;
    const BonePose torso = poses_[size_t(assets_->rootBone)];
    getUpFrom_ = poses_;
    destroyBodies();
    // Stand where the body lies: the root under the root body, x only; feet on the ground.
    facingRight_ = !ragdollMirrored_;
    double ground = torso.origin.y;
    if (!groundAt(torso.origin.x, torso.origin.y, ground)) ground = torso.origin.y - rig.bones[size_t(assets_->rootBone)].origin.y;
    root_ = {torso.origin.x, ground};
    rootVelocity_ = {};
    grounded_ = true;
    appearance_ = savedAppearance_;
    chooseGetUpStart();
    getUpTime_ = 0.0;
    getUpShift_ = {};
    mode_ = CharacterMode::GettingUp;
    haveAnimHistory_ = false;  // the root jumped: no velocity from the previous pose
    computeAnimatedPose(0.0, true, true);
    createAnimatedBodies();  // at the pose the body lies in (poses_ is still that)
    return true;
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
        shapeRagdollBody(*world_, rig_, body, id, group_);
        world_->setDamping(id, b.linearDamping, b.angularDamping);
        world_->wake(id);
    }
    return true;
}

void Character::applyJointLive(int joint) {
    if (ragdoll_.empty()) return;
    const RigJoint& j = rig_.joints[size_t(joint)];
    const JointId id = ragdoll_.joints[size_t(joint)];
    world_->setJointLimits(id, j.limited, ragdollMirrored_ ? -j.upper : j.lower, ragdollMirrored_ ? -j.lower : j.upper);
    world_->setJointStiffness(id, j.stiffness);
    world_->setJointDamping(id, j.damping);
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
    root_ = position;
    facingRight_ = facingRight;
    rootVelocity_ = {};
    grounded_ = true;
    haveAnimHistory_ = false;
    computeAnimatedPose(0.0, true);
    poses_ = animPoses_;
    destroyAnimatedBodies();
    createAnimatedBodies();
}

Vec2 Character::toWorld(Vec2 p) const { return root_ + Vec2{facingRight_ ? p.x : -p.x, p.y}; }
double Character::toWorldAngle(double a) const { return facingRight_ ? a : wrapAngle(kPi - a); }
Vec2 Character::toRig(Vec2 p) const {
    const Vec2 d = p - root_;
    return {facingRight_ ? d.x : -d.x, d.y};
}

// ---- state -----------------------------------------------------------------------------

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
    out.appearance = appearance_;
    out.savedAppearance = savedAppearance_;
    out.replicated = replicated_;
    out.replicatedVelocity = replicatedVelocity_;
    out.bodies.clear();
    for (BodyId body : ragdoll_.bodies) out.bodies.push_back(world_->snapshot(body));
    out.animatedBodies.clear();
    for (BodyId body : animated_) out.animatedBodies.push_back(world_->snapshot(body));
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
        (!in.bodies.empty() && in.bodies.size() != rig.bodies.size())) {
        error = "character '" + name_ + "': the state was saved for a different rig";
        return false;
    }
    if (!finitePoses(in.previousAnim) || !finitePoses(in.poses) || !finitePoses(in.getUpFrom) || !isFinite(in.root) ||
        !isFinite(in.getUpShift) || length(in.getUpShift) > tuning::kMaxGetUpShift * (1.0 + 1e-9) ||
        !isFinite(in.rootVelocity) || in.currentClip < -1 || in.currentClip >= int(ClipRole::Count) ||
        in.previousClip < -1 || in.previousClip >= int(ClipRole::Count) || in.currentClip < 0 || !plausibleTimes(in)) {
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
    if (physical) {
        facingRight_ = !in.ragdollMirrored;  // built like the saved one, then restored exactly
        const Vec2 keepRoot = root_;
        buildBodies();
        facingRight_ = in.facingRight;
        root_ = keepRoot;
        for (size_t i = 0; i < ragdoll_.bodies.size(); ++i) world_->restore(ragdoll_.bodies[i], in.bodies[i]);
    }
    if (following) {
        // An older blob had one proxy box instead: the bodies start on the bones.
        createAnimatedBodies();
        for (size_t i = 0; i < in.animatedBodies.size() && i < animated_.size(); ++i)
            world_->restore(animated_[i], in.animatedBodies[i]);
    }
    return true;
}

// ---- momentum ---------------------------------------------------------------------------

Momentum skeletonMomentum(const RigDefinition& rig, const std::vector<BonePose>& poses, const std::vector<Vec2>& linear,
                          const std::vector<double>& angular) {
    Momentum m;
    std::vector<Vec2> centers(rig.bodies.size()), velocities(rig.bodies.size());
    for (size_t i = 0; i < rig.bodies.size(); ++i) {
        const int bone = rig.bodies[i].bone;
        const MassData md = rigBodyMass(rig, int(i));
        const BonePose& pose = poses[size_t(bone)];
        const Vec2 r = rotate(makeRot(pose.angle), md.center);
        centers[i] = pose.origin + r;
        velocities[i] = linear[size_t(bone)] + cross(angular[size_t(bone)], r);
        m.mass += md.mass;
        m.linear += md.mass * velocities[i];
        m.centerOfMass += md.mass * centers[i];
    }
    m.centerOfMass = (1.0 / m.mass) * m.centerOfMass;
    for (size_t i = 0; i < rig.bodies.size(); ++i) {
        const MassData md = rigBodyMass(rig, int(i));
        m.angular += md.rotationalInertia * angular[size_t(rig.bodies[i].bone)] +
                     md.mass * cross(centers[i] - m.centerOfMass, velocities[i]);
    }
    return m;
}

Momentum bodiesMomentum(const World& world, const std::vector<BodyId>& bodies) {
    Momentum m;
    for (BodyId body : bodies) {
        const double mass = world.bodyMass(body);
        const BodySnapshot s = world.snapshot(body);
        m.mass += mass;
        m.linear += mass * s.linearVelocity;
        m.centerOfMass += mass * s.center;
    }
    m.centerOfMass = (1.0 / m.mass) * m.centerOfMass;
    for (BodyId body : bodies) {
        const BodySnapshot s = world.snapshot(body);
        m.angular += world.bodyInertia(body) * s.angularVelocity +
                     world.bodyMass(body) * cross(s.center - m.centerOfMass, s.linearVelocity);
    }
    return m;
}

}  // namespace ragdoll
