// World: joints, their creation and destruction, live edits and the error they hold.
#include "solver/world.h"

#include <algorithm>
#include <cmath>

#include "solver/arrays.h"
#include "solver/constants.h"

namespace ragdoll {

JointDef makeRevoluteJointDef(World& world, BodyId a, BodyId b, Vec2 worldAnchor) {
    JointDef def;
    def.bodyA = a;
    def.bodyB = b;
    Transform xa = world.bodyTransform(a), xb = world.bodyTransform(b);
    def.localAnchorA = inverseTransformPoint(xa, worldAnchor);
    def.localAnchorB = inverseTransformPoint(xb, worldAnchor);
    def.referenceAngle = world.bodyState(b).angle - world.bodyState(a).angle;
    return def;
}

namespace {

/// A limit's range, as setJointLimits takes it: lower ≤ upper, at most a full turn wide.
bool validLimit(double lower, double upper) { return lower <= upper && upper - lower <= 2.0 * kPi; }

}  // namespace

JointId World::createJoint(const JointDef& def) {
    Body* a = get(def.bodyA);
    Body* b = get(def.bodyB);
    if (!a || !b || a == b) return {};
    if (!isFinite(def.localAnchorA) || !isFinite(def.localAnchorB) || !std::isfinite(def.referenceAngle)) return {};
    // What the setters refuse is refused here too, before a slot is taken: std::clamp let a
    // NaN stiffness through, a NaN or infinite damping was stored, and a limit whose lower
    // bound is above its upper one left the joint with no limit at all.
    if (!std::isfinite(def.stiffness) || !std::isfinite(def.angularDamping) || def.angularDamping < 0.0 ||
        !std::isfinite(def.frictionTorque) || def.frictionTorque < 0.0)
        return {};
    if (!std::isfinite(def.lowerAngle) || !std::isfinite(def.upperAngle)) return {};
    if (def.enableLimit && !validLimit(def.lowerAngle, def.upperAngle)) return {};
    int slot;
    if (!freeJoints_.empty()) {
        slot = takeLowestSlot(freeJoints_);
    } else {
        slot = int(joints_.size());
        joints_.emplace_back();
    }
    Joint& j = joints_[size_t(slot)];
    std::uint16_t generation = std::uint16_t(j.generation + 1);
    j = Joint{};
    j.generation = generation == 0 ? 1 : generation;
    j.alive = true;
    j.bodyA = def.bodyA.index1 - 1;
    j.bodyB = def.bodyB.index1 - 1;
    // Anchors are stored from the centre of mass, which is what the solver moves.
    j.localAnchorA = def.localAnchorA - a->localCenter;
    j.localAnchorB = def.localAnchorB - b->localCenter;
    j.referenceAngle = def.referenceAngle;
    j.stiffness = std::clamp(def.stiffness, 0.0, 1.0);
    j.angularDamping = def.angularDamping;
    j.frictionTorque = def.frictionTorque;
    j.collideConnected = def.collideConnected;
    j.nextA = a->firstJoint;
    a->firstJoint = slot;
    j.nextB = b->firstJoint;
    b->firstJoint = slot;
    ++jointCount_;
    setJointLimits(JointId{slot + 1, j.generation}, def.enableLimit, def.lowerAngle, def.upperAngle);
    wakeSlot(j.bodyA);
    wakeSlot(j.bodyB);
    treeSolver_.markDirty();
    return JointId{slot + 1, j.generation};
}

namespace {

void unlinkJoint(std::vector<Body>& bodies, std::vector<Joint>& joints, int body, int joint) {
    int* link = &bodies[size_t(body)].firstJoint;
    while (*link >= 0) {
        Joint& j = joints[size_t(*link)];
        if (*link == joint) {
            *link = j.bodyA == body ? j.nextA : j.nextB;
            return;
        }
        link = j.bodyA == body ? &j.nextA : &j.nextB;
    }
}

}  // namespace

bool World::destroyJoint(JointId id) {
    Joint* j = get(id);
    if (!j) return false;
    int slot = id.index1 - 1;
    unlinkJoint(bodies_, joints_, j->bodyA, slot);
    unlinkJoint(bodies_, joints_, j->bodyB, slot);
    wakeSlot(j->bodyA);
    wakeSlot(j->bodyB);
    j->alive = false;
    releaseSlot(freeJoints_, slot);
    --jointCount_;
    treeSolver_.markDirty();
    return true;
}

bool World::setJointLimits(JointId id, bool enable, double lower, double upper) {
    Joint* j = get(id);
    if (!j || !std::isfinite(lower) || !std::isfinite(upper)) return false;
    if (enable && !validLimit(lower, upper)) return false;
    j->enableLimit = enable;
    j->lowerAngle = lower;
    j->upperAngle = upper;
    // Centre and half-width, so a range that crosses ±π is tested by one wrapped offset.
    j->limitCenter = 0.5 * (lower + upper);
    j->limitHalfWidth = 0.5 * (upper - lower);
    wakeSlot(j->bodyA);
    wakeSlot(j->bodyB);
    return true;
}

bool World::setJointStiffness(JointId id, double stiffness) {
    Joint* j = get(id);
    if (!j || !std::isfinite(stiffness)) return false;
    j->stiffness = std::clamp(stiffness, 0.0, 1.0);
    wakeSlot(j->bodyA);
    return true;
}

bool World::setJointDamping(JointId id, double angularDamping) {
    Joint* j = get(id);
    if (!j || !std::isfinite(angularDamping) || angularDamping < 0.0) return false;
    j->angularDamping = angularDamping;
    wakeSlot(j->bodyA);
    return true;
}

bool World::setJointFriction(JointId id, double frictionTorque) {
    Joint* j = get(id);
    if (!j || !std::isfinite(frictionTorque) || frictionTorque < 0.0) return false;
    j->frictionTorque = frictionTorque;
    wakeSlot(j->bodyA);
    return true;
}

bool World::setJointCollideConnected(JointId id, bool collide) {
    Joint* j = get(id);
    if (!j) return false;
    j->collideConnected = collide;  // contacts are filtered afresh every step
    treeSolver_.markDirty();         // it knows which groups have such joints
    wakeSlot(j->bodyA);
    return true;
}

JointError World::jointError(JointId id) const {
    const Joint* j = get(id);
    if (!j) return {};
    const BodySim& a = sims_[size_t(j->bodyA)];
    const BodySim& b = sims_[size_t(j->bodyB)];
    JointError e;
    e.separation = jointSeparation(*j, a, b);
    e.limitViolation = std::abs(jointLimitError(*j, a, b));
    e.relativeAngle = wrapAngle(b.angle - a.angle - j->referenceAngle);
    return e;
}

JointDef World::jointDef(JointId id) const {
    const Joint* j = get(id);
    if (!j) return {};
    JointDef def;
    def.bodyA = bodyId(j->bodyA);
    def.bodyB = bodyId(j->bodyB);
    def.localAnchorA = j->localAnchorA + bodies_[size_t(j->bodyA)].localCenter;
    def.localAnchorB = j->localAnchorB + bodies_[size_t(j->bodyB)].localCenter;
    def.referenceAngle = j->referenceAngle;
    def.enableLimit = j->enableLimit;
    def.lowerAngle = j->lowerAngle;
    def.upperAngle = j->upperAngle;
    def.stiffness = j->stiffness;
    def.angularDamping = j->angularDamping;
    def.frictionTorque = j->frictionTorque;
    def.collideConnected = j->collideConnected;
    return def;
}

}  // namespace ragdoll
