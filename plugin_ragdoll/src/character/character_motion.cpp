// Where the character is and how it stands: locomotion (root motion, ground, walls), the
// animated pose with its IK, the proxy's pose from replicated state, and the get-up's pose
// kept out of the terrain and the props.
#include "character/character.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "anim/ik.h"
#include "character/character_tuning.h"

namespace ragdoll {

namespace {

/// A bone's local angle kept within the limits of the joint it hangs from (measured from the
/// rest pose).
double withinLimits(const RigDefinition& rig, const RigJoint& joint, double angle) {
    const double rest = rig.bones[size_t(joint.child)].localAngle;
    return rest + std::clamp(wrapAngle(angle - rest), joint.lower, joint.upper);
}

double smoothstep(double t) {
    t = std::clamp(t, 0.0, 1.0);
    return t * t * (3.0 - 2.0 * t);
}

BonePose lerpPose(const BonePose& a, const BonePose& b, double t) {
    return {a.origin + t * (b.origin - a.origin), a.angle + t * wrapAngle(b.angle - a.angle)};
}

/// Height y moved toward the ground at a walker's speed: up or down a step (IK keeps the
/// feet on the steps meanwhile), or down from a crate pushed away from under it; up a slope
/// at climbSpeed, and never more than kMaxGroundLag under it.
double towardGround(double y, double ground, double dt, double climbSpeed) {
    if (ground <= y) return std::max(ground, y - tuning::kStepDownSpeed * dt);
    return std::max(std::min(ground, y + climbSpeed * dt), ground - tuning::kMaxGroundLag);
}

}  // namespace

double Character::immovablePropMass() const { return tuning::kImmovablePropMassRatio * rig_.totalMass(); }

bool Character::immovable(BodyId body) const {
    const BodyType type = world_->bodyType(body);
    if (type == BodyType::Static) return true;
    const Shape* shape = world_->bodyShape(body);  // a prop: no character owns it
    return type == BodyType::Dynamic && shape && shape->filter.group == 0 && world_->bodyMass(body) >= immovablePropMass();
}

Filter Character::probeFilter() const {
    // Only terrain and props: what does not belong to a character.
    Filter filter;
    filter.group = group_;
    filter.maskBits = ~kCharacterCategory;
    return filter;
}

bool Character::blockedAhead(double dir, double reach) const {
    RayHit hit;
    const Filter filter = probeFilter();
    const Vec2 knee = root_ + Vec2{0.0, tuning::kWallProbeHeight};
    const Vec2 ahead = knee + Vec2{dir * reach, 0.0};
    if (world_->rayCast(knee, ahead, filter, hit) && immovable(hit.body) && std::abs(hit.normal.x) > 0.7) return true;
    const double headroom = assets_->standingHeight - tuning::kHeadProbeBelowTop - tuning::kWallProbeHeight;
    if (headroom > 0.0 && world_->rayCast(ahead, ahead + Vec2{0.0, headroom}, filter, hit) && immovable(hit.body) &&
        hit.normal.y < -tuning::kCeilingMinNormal)
        return true;
    // Terrain rising steeper than a walkable slope: climbed as stairs at kClimbSpeed, a 55°
    // ramp left the walker standing half way up it, one leg in the air, once the knee probe
    // met it. Its face steep where the probe meets it and still rising that steeply a
    // kSlopeProbe on: a bevelled kerb's face is steep but its top comes at once, and a stair's
    // tread is flat. (A tilted crate is pushed, not stood before.)
    const double x = root_.x + dir * reach;
    double ground = 0.0, further = 0.0;
    return groundAt(x, root_.y, ground, &hit) && ground > root_.y && immovable(hit.body) &&
           -dir * hit.normal.x > tuning::kMaxSlope * hit.normal.y &&
           groundAt(x + dir * tuning::kSlopeProbe, ground, further) && further - ground > tuning::kMaxSlope * tuning::kSlopeProbe;
}

void Character::stepLocomotion(double dt, const CharacterControls& controls) {
    const double gravity = world_->def().gravity.y;
    if (controls.move != 0 && grounded_) facingRight_ = controls.move > 0;
    // Against a wall, or where the headroom ends, the figure stands: walking in place there
    // swung its legs through the step or the wall in front (a shoe 18 cm into it).
    const bool blocked = grounded_ && controls.move != 0 &&
                         blockedAhead(facingRight_ ? 1.0 : -1.0, tuning::kWallClearance + tuning::kBlockedMargin);
    const ClipRole role = !grounded_                      ? ClipRole::Jump
                          : controls.move == 0 || blocked ? ClipRole::Idle
                          : controls.run                  ? ClipRole::Run
                                                          : ClipRole::Walk;
    player_.play(&clipOf(role), tuning::kClipFadeSeconds);
    // Pushing props shares the walk's momentum with them (a perfectly inelastic push, see
    // pushProps): a 2 kg crate barely slows a walker, a 200 kg one nearly stops it. The walk's
    // clip plays at that share of its pace, so its strides keep their footing: at full pace
    // the stride reached a heavy crate's face ahead of the slowed walk.
    const double mass = rig_.totalMass();
    const double share = mass / (mass + pushedMass_);
    const bool walking = role == ClipRole::Walk || role == ClipRole::Run;
    player_.setSpeed(walking ? share : 1.0);
    const double travel = player_.advance(dt);
    const double side = facingRight_ ? 1.0 : -1.0;

    if (grounded_) {
        rootVelocity_ = {walking ? side * travel / dt : 0.0, 0.0};
        walkPace_ = rootVelocity_.x / share;
        if (controls.jump) {
            rootVelocity_.y = tuning::kJumpSpeed;
            grounded_ = false;
        }
    } else {
        walkPace_ = 0.0;
        rootVelocity_.y += gravity * dt;
        // Rising into terrain over it (a ceiling, a shelf): the head stops under it and the
        // figure falls back. The jump carried it 35 cm into a slab, and limp there it hung.
        if (rootVelocity_.y > 0.0) {
            RayHit hit;
            const double height = assets_->standingHeight;
            const Vec2 from = root_ + Vec2{0.0, tuning::kWallProbeHeight};
            const Vec2 to = root_ + Vec2{0.0, height + rootVelocity_.y * dt};
            if (world_->rayCast(from, to, probeFilter(), hit) && immovable(hit.body) && hit.normal.y < -tuning::kCeilingMinNormal)
                rootVelocity_.y = std::max(0.0, hit.point.y - height - root_.y) / dt;
        }
    }
    // Walls stop the walk where this step would bring the figure to them (blockedAhead).
    if (rootVelocity_.x != 0.0 &&
        blockedAhead(rootVelocity_.x > 0.0 ? 1.0 : -1.0, tuning::kWallClearance + std::abs(rootVelocity_.x) * dt))
        rootVelocity_.x = walkPace_ = 0.0;
    root_ += dt * rootVelocity_;

    double ground = root_.y;
    const bool haveGround = groundAt(root_.x, root_.y, ground);
    if (grounded_) {
        if (!haveGround || ground < root_.y - tuning::kLedgeDrop) {
            grounded_ = false;  // walked off a ledge: fall
        } else {
            double climbSpeed = tuning::kClimbSpeed;
            double behind = 0.0;
            const double back = rootVelocity_.x > 0.0 ? -tuning::kSlopeProbe : tuning::kSlopeProbe;
            if (rootVelocity_.x != 0.0 && groundAt(root_.x + back, root_.y, behind)) {
                const double slope = (ground - behind) / tuning::kSlopeProbe;
                if (slope > 0.0 && slope <= tuning::kMaxSlope) climbSpeed += slope * std::abs(rootVelocity_.x);
            }
            root_.y = towardGround(root_.y, ground, dt, climbSpeed);
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
    // A bone's tip and the lowest that tip may be (rig space): the tip, and its body's far
    // end, each its body's radius above the ground under it. The body may lie off its bone
    // (a Spine import centres it on its art), its end below the tip (on its bone they are
    // the same bits). False where there is no ground under the tip.
    auto tipAndLowest = [&](int bone, Vec2& tip, double& lowest) {
        const BonePose& pose = rigPoses_[size_t(bone)];
        tip = pose.origin + rig.bones[size_t(bone)].length * Vec2{std::cos(pose.angle), std::sin(pose.angle)};
        const Capsule body = placedBodyCapsule(rig, a.bodyOfBone[size_t(bone)], pose.origin, pose.angle);
        auto lowestAt = [&](Vec2 point, double& y) {
            const Vec2 world = toWorld(point);
            double ground = 0.0;
            if (!groundAt(world.x, std::max(root_.y, world.y), ground)) return false;
            y = toRig({world.x, ground + body.radius}).y - (point.y - tip.y);
            return true;
        };
        if (!lowestAt(tip, lowest)) return false;
        double forEnd = lowest;
        if (body.center2.x != tip.x || body.center2.y != tip.y) lowestAt(body.center2, forEnd);
        lowest = std::max(lowest, forEnd);
        return true;
    };
    // `raise`: the end at least that much higher than it is (a foot whose toe the ankle
    // could not lift enough).
    auto plant = [&](const CharacterAssets::Chain& limb, double bend, double raise = 0.0) {
        if (limb.upper < 0 || limb.lower < 0) return;
        Vec2 end;
        double lowest = 0.0;
        if (!tipAndLowest(limb.lower, end, lowest)) return;
        lowest = std::max(lowest, end.y + raise);
        if (end.y >= lowest) return;
        const TwoBoneIkResult ik = solveTwoBoneIk(rigPoses_[size_t(limb.upper)].origin, rig.bones[size_t(limb.upper)].length,
                                                  rig.bones[size_t(limb.lower)].length, {end.x, lowest}, bend);
        const int parent = rig.bones[size_t(limb.upper)].parent;
        const double parentAngle = parent >= 0 ? rigPoses_[size_t(parent)].angle : 0.0;
        local_.angles[size_t(limb.upper)] = wrapAngle(ik.upperAngle - parentAngle);
        local_.angles[size_t(limb.lower)] = wrapAngle(ik.lowerAngle - ik.upperAngle);
    };
    // Each foot then turns at its ankle to keep its toe out of the ground: held at right
    // angles to a shin pushing off behind the body, a foot dips its toe into the ground (and
    // a switch to ragdoll would lift the whole body out of it). Within the ankle's limits;
    // how far the foot's body still reaches into the terrain after the turn (a toe over the
    // next stair's tread, a step's edge under the arch) is returned, for the leg to lift.
    auto liftToe = [&](const CharacterAssets::Chain& leg) {
        if (leg.end < 0 || a.bodyOfBone[size_t(leg.end)] < 0) return 0.0;
        Vec2 toe;
        double lowest = 0.0;
        if (!tipAndLowest(leg.end, toe, lowest)) return 0.0;
        const BonePose& pose = rigPoses_[size_t(leg.end)];
        const double length = rig.bones[size_t(leg.end)].length;
        double turn = 0.0;
        if (toe.y < lowest) {
            // Of the two angles that put the toe at that height, the one nearer the foot's
            // (the toe straight up when none does).
            const double rise = (lowest - pose.origin.y) / length;
            turn = wrapAngle(kPi / 2.0 - pose.angle);
            if (rise <= 1.0) {
                const double toUp = wrapAngle(std::asin(rise) - pose.angle), toOther = wrapAngle(kPi - std::asin(rise) - pose.angle);
                turn = std::abs(toUp) <= std::abs(toOther) ? toUp : toOther;
            }
            if (leg.endJoint >= 0 && rig.joints[size_t(leg.endJoint)].limited) {
                const double angle = local_.angles[size_t(leg.end)];
                turn = withinLimits(rig, rig.joints[size_t(leg.endJoint)], angle + turn) - angle;
            }
            local_.angles[size_t(leg.end)] += turn;
        }
        const Capsule foot = placedBodyCapsule(rig, a.bodyOfBone[size_t(leg.end)], pose.origin, pose.angle + turn);
        drawn_.assign(1, DrawnShape{toWorld(foot.center1), toWorld(foot.center2), foot.radius});
        // Standing still, a toe against a riser (a face whose normal is mostly sideways) stays
        // there: lifted for it, pass after pass, a foot standing by the next step hung 19 cm
        // over its own. Walking, the lift carries the foot up onto the step.
        const DrawnDepth deepest = deepestOverlap(*world_, drawn_, Obstacles::TerrainAndProps, scratch_, immovablePropMass());
        if (deepest.normal.y < tuning::kLiftToeMinNormal && rootVelocity_.x == 0.0) return 0.0;
        return deepest.depth / std::max(deepest.normal.y, 0.5);
    };
    if (plantFeet) {
        for (const CharacterAssets::Chain& leg : a.legs) plant(leg, 1.0);
        computeBonePoses(rig, local_, rigPoses_);
        for (const CharacterAssets::Chain& leg : a.legs)
            for (int pass = 0; pass < 3; ++pass) {
                const double left = liftToe(leg);
                if (left <= 0.0) break;
                plant(leg, 1.0, left);
                computeBonePoses(rig, local_, rigPoses_);
            }
    }
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
        double& angle = local_.angles[size_t(joint.child)];
        angle = withinLimits(rig, joint, angle);
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
    // The root follows the ground under it (what it stood up on may be pushed away).
    double ground = root_.y;
    if (groundAt(root_.x, root_.y, ground)) root_.y = towardGround(root_.y, ground, dt, tuning::kClimbSpeed);
    // Feet and hands on the ground under them, whatever ground the clip was authored for.
    computeAnimatedPose(dt, true, true);
    const double t = smoothstep(getUpTime_ / tuning::kGetUpBlendSeconds);
    previousShown_ = poses_;
    for (size_t b = 0; b < poses_.size(); ++b) {
        poses_[b] = lerpPose(getUpFrom_[b], animPoses_[b], t);
        poses_[b].origin.x += getUpShift_;
    }
    keepPoseOutOfTerrain();
    // What a knock-down now would hand the ragdoll: the shown pose's own motion.
    for (size_t b = 0; b < poses_.size(); ++b) {
        animLinear_[b] = (1.0 / dt) * (poses_[b].origin - previousShown_[b].origin);
        animAngular_[b] = wrapAngle(poses_[b].angle - previousShown_[b].angle) / dt;
    }
    if (player_.finished() && getUpTime_ >= tuning::kGetUpBlendSeconds) {
        mode_ = CharacterMode::Animated;  // IK plants the feet again from the next step
        root_.x += getUpShift_;           // where the props it got up among let it stand
        getUpShift_ = 0.0;
        player_.play(&clipOf(ClipRole::Idle), tuning::kClipFadeSeconds);
    }
}

bool Character::liesFaceDown(const std::vector<BonePose>& poses) const {
    // The chest is the root bone's +x turned a quarter clockwise (the rig faces +x); a
    // mirrored ragdoll's is turned the other way.
    const BonePose& torso = poses[size_t(assets_->rootBone)];
    const Vec2 along{std::cos(torso.angle), std::sin(torso.angle)};
    const Vec2 chest = ragdollMirrored_ ? perp(along) : -1.0 * perp(along);
    return chest.y < 0.0;
}

void Character::chooseGetUpStart() {
    // Face down (the chest at the ground): the get-up from the front, else from the back.
    const Clip& clip = clipOf(liesFaceDown(getUpFrom_) ? ClipRole::GetUpFront : ClipRole::GetUpBack);
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

void Character::keepPoseOutOfTerrain(bool heavyProps) {
    // Rigid, along the way out of the deepest overlap, a few times (a corner can need two).
    for (int pass = 0; pass < 4; ++pass) {
        drawnShapes(rig_, poses_, appearance_.scale, drawnMirrored(), drawn_);
        const DrawnDepth deepest =
            heavyProps ? deepestOverlap(*world_, drawn_, Obstacles::TerrainAndProps, scratch_, immovablePropMass())
                : deepestOverlap(*world_, drawn_, Obstacles::Terrain, scratch_);
        if (deepest.depth <= tuning::kPoseTerrainTolerance) return;
        const Vec2 shift = (deepest.depth - 0.5 * tuning::kPoseTerrainTolerance) * deepest.normal;
        for (BonePose& p : poses_) p.origin += shift;
    }
}

void Character::standClearOfTerrain() {
    const Vec2 before = poses_[size_t(assets_->rootBone)].origin;
    keepPoseOutOfTerrain();
    const double shift = poses_[size_t(assets_->rootBone)].origin.x - before.x;
    // Moved clear, the root goes with it; still inside (a corner the way out did not find),
    // it stays where the level put it, and the level's warning says how deep it stands. The
    // animated pose is the one at the root either way (keepPoseOutOfTerrain moved poses_ only).
    if (shift != 0.0) {
        drawnShapes(rig_, poses_, appearance_.scale, drawnMirrored(), drawn_);
        if (deepestOverlap(*world_, drawn_, Obstacles::Terrain, scratch_).depth <= tuning::kPoseTerrainTolerance) {
            root_.x += shift;
            computeAnimatedPose(0.0, true);
        }
    }
    poses_ = animPoses_;
}

void Character::keepPoseOutOfProps() {
    // After the step the props have been pushed by the following bodies; what the drawn
    // figure still reaches into did not give way (pinned against a wall, the ground or a
    // stack). The figure is moved out of it: held back sideways, and so is the walk (a walker
    // cannot pass through what it cannot push); lifted when the prop is under a limb (a foot
    // on a crate). Never pushed down: a crate on the head is pushed off by the bodies instead.
    for (int pass = 0; pass < 2; ++pass) {
        drawnShapes(rig_, poses_, appearance_.scale, drawnMirrored(), drawn_);
        // Walking, a prop too heavy to push is met as terrain is (its edge stepped over, a wall
        // at knee height stood at): a shin over a heavy slab's edge held the walk back each
        // stride, and the walk surged at it again.
        const double heavy = mode_ == CharacterMode::Animated ? immovablePropMass() : std::numeric_limits<double>::infinity();
        const DrawnDepth deepest = deepestOverlap(*world_, drawn_, Obstacles::Props, scratch_, 0.0, heavy);
        if (deepest.depth <= tuning::kPoseTerrainTolerance) return;
        const double out = deepest.depth - 0.5 * tuning::kPoseTerrainTolerance;
        Vec2 shift = out * deepest.normal;
        if (shift.y < 0.0) {
            if (std::abs(deepest.normal.x) < tuning::kPropHoldBackMinNormal) return;
            shift = {out / deepest.normal.x, 0.0};
        }
        shift.x = std::clamp(shift.x, -tuning::kPropHoldBackMax, tuning::kPropHoldBackMax);
        shift.y = std::min(shift.y, tuning::kPropHoldBackMax);
        // Never out of a prop into the terrain: a runner with a foot on a crate pinned against
        // a wall was moved out of the crate forward, into the wall and, step by step, through
        // it. Held back the other way instead (what cannot be pushed is not passed).
        const double terrainBefore = std::max(deepestOverlap(*world_, drawn_, Obstacles::Terrain, scratch_).depth,
                                              tuning::kPoseTerrainTolerance);
        auto intoTerrain = [&](Vec2 by) {
            shifted_ = drawn_;
            for (DrawnShape& shape : shifted_) {
                shape.a += by;
                shape.b += by;
            }
            return deepestOverlap(*world_, shifted_, Obstacles::Terrain, scratch_).depth > terrainBefore;
        };
        if (intoTerrain(shift)) {
            if (shift.x == 0.0) return;
            shift = {shift.x > 0.0 ? -tuning::kPropHoldBackMax : tuning::kPropHoldBackMax, 0.0};
            if (intoTerrain(shift)) return;
        }
        for (BonePose& p : poses_) p.origin += shift;
        if (mode_ == CharacterMode::Animated) {
            root_.x += shift.x;
            for (BonePose& p : animPoses_) p.origin.x += shift.x;  // the tracked velocities see no jump
        } else {
            // The get-up's poses are blended afresh each step: the sideways part is carried
            // on, as the walk's is. A lift is not: it holds only while the prop is under the
            // limb (carried, a crate pushed away from under a foot left the figure in the air).
            getUpShift_ = std::clamp(getUpShift_ + shift.x, -tuning::kMaxGetUpShift, tuning::kMaxGetUpShift);
        }
    }
}

Vec2 Character::outOfTerrain(Vec2 feet) {
    // The ground probe starts kGroundProbeUp over the feet, and a ray starting inside a solid
    // does not see it: feet put deeper in the ground than that found no ground under them,
    // and the figure fell through the terrain and out of the world. A small circle at the
    // feet is inside while the terrain overlaps it by more than its radius.
    // A point kStep over the feet too: feet on the ground under a block standing on it (a
    // step, a ramp's foot) touch the block's underside and are not inside it, but the figure
    // would stand in it.
    constexpr double kRadius = 0.001, kStep = 0.01, kMostLift = 5.0;
    std::vector<DrawnShape> point{{feet, feet, kRadius}, {feet, feet, kRadius}};
    auto inside = [&](Vec2 at) {
        point[0].a = point[0].b = at;
        point[1].a = point[1].b = at + Vec2{0.0, kStep};
        return deepestOverlap(*world_, point, Obstacles::Terrain, scratch_).depth > kRadius;
    };
    if (!inside(feet)) return feet;  // never was
    double lift = kStep;
    while (lift <= kMostLift && inside(feet + Vec2{0.0, lift})) lift += kStep;
    // Out beside it when that is nearer than over it: feet 15 cm into a 3 m wall stand
    // beside the wall, not on its top. On the ground there, within a step of the feet.
    for (double aside = kStep; aside < std::min(lift, kMostLift); aside += kStep)
        for (double side : {-1.0, 1.0}) {
            const Vec2 at = feet + Vec2{side * aside, 0.0};
            double ground = 0.0;
            if (!inside(at) && groundAt(at.x, at.y, ground) && std::abs(ground - at.y) <= tuning::kLedgeDrop)
                return {at.x, ground};
        }
    if (lift > kMostLift) return feet;  // a solid taller than that: left to the level's warning
    // Out, within a step above the surface: onto the surface itself.
    const Vec2 over = feet + Vec2{0.0, lift};
    double ground = 0.0;
    if (groundAt(feet.x, over.y, ground) && ground > over.y - 2.0 * kStep) return {feet.x, ground};
    return over;
}

bool Character::groundAt(double x, double nearY, double& groundY, RayHit* found) const {
    RayHit hit;
    const Vec2 from{x, nearY + tuning::kGroundProbeUp}, to{x, nearY - tuning::kGroundProbeDown};
    if (!world_->rayCast(from, to, probeFilter(), hit) || hit.normal.y < 0.3) return false;
    groundY = hit.point.y;
    if (found) *found = hit;
    return true;
}

}  // namespace ragdoll
