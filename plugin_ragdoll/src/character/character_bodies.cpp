// The character's bodies: the ragdoll built at the shown pose and driven toward the animation
// in BLEND, the bodies that follow the animated bones and what they push, and the momentum
// of a skeleton or a set of bodies.
#include "character/character.h"

#include <algorithm>
#include <cmath>

#include "character/character_tuning.h"

namespace ragdoll {

namespace {

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

bool Character::buildBodies() {
    if (!ragdoll_.empty()) return true;
    // Before any body exists: a body born inside a following one would be shot out.
    destroyAnimatedBodies();
    const RigDefinition& rig = rig_;
    RagdollDef def = defaultRagdollDef();
    def.position = root_;
    def.mirrored = !facingRight_;
    def.collisionGroup = group_;
    def.categoryBits = kCharacterCategory;
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
            const Capsule placed = placedBodyCapsule(rig, int(i), world_->bodyTransform(body).p, world_->bodyState(body).angle);
            const Vec2 a = placed.center1, b = placed.center2;
            const double r = rb.radius;
            near.clear();
            world_->queryAABB({{std::min(a.x, b.x) - r, std::min(a.y, b.y) - r}, {std::max(a.x, b.x) + r, std::max(a.y, b.y) + r}},
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
        shapeAnimatedBody(int(i));
    }
}

void Character::shapeAnimatedBody(int body) {
    Filter filter;
    filter.group = group_;
    filter.categoryBits = kCharacterCategory;
    filter.maskBits = ~kTerrainCategory;
    shapeRagdollBody(*world_, rig_, body, animated_[size_t(body)], filter, tuning::kAnimatedMassScale);
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

void Character::pushProps(double dt) {
    const bool wasPushing = pushedMass_ > 0.0;
    pushedMass_ = 0.0;
    if (animated_.empty()) return;
    pushed_.clear();
    walkedInto_.clear();
    for (size_t i = 0; i < animated_.size(); ++i) {
        // The body on its bone as shown (a box is taken as the capsule round it).
        const RigBody& body = rig_.bodies[i];
        const BonePose& pose = poses_[size_t(body.bone)];
        const Transform frame{pose.origin, makeRot(pose.angle)};
        DrawnShape shape;
        if (body.shape == BodyShape::Circle) {
            const Circle circle = bodyCircle(rig_, int(i));
            shape.a = shape.b = transformPoint(frame, circle.center);
            shape.radius = circle.radius;
        } else {
            const Capsule capsule = bodyCapsule(rig_, int(i));
            shape = {transformPoint(frame, capsule.center1), transformPoint(frame, capsule.center2), capsule.radius};
        }
        scratch_.clear();
        const double r = body.radius + tuning::kPushSearchDistance;
        world_->queryAABB({{std::min(shape.a.x, shape.b.x) - r, std::min(shape.a.y, shape.b.y) - r},
                           {std::max(shape.a.x, shape.b.x) + r, std::max(shape.a.y, shape.b.y) + r}},
                          scratch_);
        for (BodyId other : scratch_) {
            const Shape* s = world_->bodyShape(other);
            if (world_->bodyType(other) != BodyType::Dynamic || !s || s->filter.group != 0) continue;
            if (std::find(pushed_.begin(), pushed_.end(), other) != pushed_.end()) continue;
            const BodyState prop = world_->bodyState(other);
            const double separation = drawnSeparation(*world_, other, shape);
            // Walked into, a prop ahead goes at the pace walker and prop share (below), from
            // the limbs' first touch for as long as the walk goes on into it: between strides
            // the limbs swing clear of it by up to kPushKeepDistance. Not one under the feet
            // (its middle below them: a board stood on), nor one coming at the walker (it
            // meets the limbs as any prop does). One too heavy to push is stepped onto or
            // stood at, as terrain is: it does not slow the walk.
            const Vec2 at = world_->bodyTransform(other).p;
            if (mode_ == CharacterMode::Animated && walkPace_ * (at.x - root_.x) > 0.0 && at.y > root_.y &&
                (walkPace_ > 0.0 ? prop.linearVelocity.x : -prop.linearVelocity.x) > -tuning::kPushedComingSpeed &&
                separation <= (wasPushing ? tuning::kPushKeepDistance : tuning::kPushContactDistance) && !immovable(other)) {
                pushed_.push_back(other);
                walkedInto_.push_back(other);
                pushedMass_ += world_->bodyMass(other);
                continue;
            }
            // Touching now, or touched during the step and already on its way.
            if (separation > tuning::kPushContactDistance + dt * length(prop.linearVelocity - rootVelocity_)) continue;
            pushed_.push_back(other);
            if (immovable(other)) continue;
            if (separation <= tuning::kPushContactDistance) pushedMass_ += world_->bodyMass(other);
            // A position-based contact with a heavy driven limb hands the prop the limb's whole
            // speed (a swinging foot moves at 3-5 m/s): shoved, not kicked, it keeps at most
            // the walker's pace (getting up, a limb's push: a crate on the figure is lifted off)
            // and a little more, and is not scooped up by a foot swinging under its edge (it
            // would come down on the foot and be crushed between the limb and the ground).
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
    // A walker pushing props moves with them at one pace, a perfectly inelastic push of the
    // walk (the next step's walk takes the same share). Kicked by the limbs' touches alone,
    // a heavy crate shot ahead and stopped between strides, and the walker, at full pace
    // again, ran into it and was held back: 9 cm a stride at 100 kg. What the prop's
    // friction took back during the step (it set off at the walker's pace and ended it
    // slower) is given to it again on top, so it keeps the pace on average: set to the pace
    // alone, a 150 kg crate went at two thirds of it and the walker was held back as it
    // caught up. At most what friction can take in a step (μ ≤ 1): a prop held by a wall
    // is not driven into it ever harder.
    const double mass = rig_.totalMass();
    const double pace = std::abs(walkPace_) * mass / (mass + pushedMass_);
    const double side = walkPace_ > 0.0 ? 1.0 : -1.0;
    const double mostLost = length(world_->def().gravity) * dt;
    for (BodyId other : walkedInto_) {
        const BodyState prop = world_->bodyState(other);
        const double lost = wasPushing ? std::clamp(side * (rootVelocity_.x - prop.linearVelocity.x), 0.0, mostLost) : 0.0;
        // Kicked on by a limb, a light prop may slide ahead, up to the cap the touches keep.
        const double slowest = pace + lost;
        const double along = std::clamp(side * prop.linearVelocity.x, slowest, std::max(slowest, pace + tuning::kPushedSpeedSlack));
        world_->setVelocity(other, {side * along, std::min(prop.linearVelocity.y, tuning::kPushedMaxRise)},
                            std::clamp(prop.angularVelocity, -tuning::kPushedMaxSpin, tuning::kPushedMaxSpin));
    }
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
