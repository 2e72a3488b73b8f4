#include "rig/rig_tuning.h"

#include <cmath>

namespace ragdoll {

namespace {

constexpr double kDegrees = 180.0 / kPi;

// New properties go last: the plugin ABI and the editor number them.
enum JointIndex { JointLower, JointUpper, JointStiffness, JointDamping, JointCollide, JointFriction };
enum BodyIndex { BodyMass, BodyRadius, BodyLinearDamping, BodyAngularDamping, BodyFriction };

// Ranges are the loader's (a saved rig must load back), capped where a larger value is a
// slip of the mouse rather than a tuning: 100/s of damping already stops any motion.
const std::vector<TuningProperty> kJointProperties = {
    {"lower", "Lower limit", "°", TuningProperty::Float, -180.0, 180.0},
    {"upper", "Upper limit", "°", TuningProperty::Float, -180.0, 180.0},
    {"stiffness", "Stiffness", "", TuningProperty::Float, 0.001, 1.0},
    {"damping", "Damping", "1/s", TuningProperty::Float, 0.0, 100.0},
    {"collide", "Bodies collide", "", TuningProperty::Bool, 0.0, 1.0},
    {"friction", "Friction", "N·m", TuningProperty::Float, 0.0, 20.0},  // 20 N·m holds a level arm
};

const std::vector<TuningProperty> kBodyProperties = {
    {"mass", "Mass", "kg", TuningProperty::Float, 0.01, 1000.0},
    {"radius", "Radius", "m", TuningProperty::Float, 0.005, 1.0},
    {"linear_damping", "Linear damping", "1/s", TuningProperty::Float, 0.0, 100.0},
    {"angular_damping", "Angular damping", "1/s", TuningProperty::Float, 0.0, 100.0},
    {"friction", "Friction", "", TuningProperty::Float, 0.0, 2.0},
};

bool inRange(const TuningProperty& p, double value) {
    return std::isfinite(value) && value >= p.minValue && value <= p.maxValue;
}

}  // namespace

double lowerLimit(const RigJoint& joint) { return joint.limited ? joint.lower : -kPi; }
double upperLimit(const RigJoint& joint) { return joint.limited ? joint.upper : kPi; }

const std::vector<TuningProperty>& jointProperties() { return kJointProperties; }
const std::vector<TuningProperty>& bodyProperties() { return kBodyProperties; }

double jointProperty(const RigJoint& joint, int index) {
    switch (index) {
    case JointLower: return lowerLimit(joint) * kDegrees;
    case JointUpper: return upperLimit(joint) * kDegrees;
    case JointStiffness: return joint.stiffness;
    case JointDamping: return joint.damping;
    case JointFriction: return joint.friction;
    case JointCollide: return joint.collide ? 1.0 : 0.0;
    }
    return 0.0;
}

double bodyProperty(const RigBody& body, int index) {
    switch (index) {
    case BodyMass: return body.mass;
    case BodyRadius: return body.radius;
    case BodyLinearDamping: return body.linearDamping;
    case BodyAngularDamping: return body.angularDamping;
    case BodyFriction: return body.friction;
    }
    return 0.0;
}

bool setJointLimits(RigJoint& joint, double lower, double upper) {
    if (!std::isfinite(lower) || !std::isfinite(upper) || lower > upper || lower < -kPi || upper > kPi) return false;
    // The whole circle is no limit (the solver wraps the angle into it): the joint is free, as
    // it is in a file without limits. A free joint's limit dragged and dragged back, or
    // undone, had become limited to ±180°, and saved so.
    joint.limited = lower > -kPi || upper < kPi;
    joint.lower = lower;
    joint.upper = upper;
    return true;
}

bool setJointProperty(RigJoint& joint, int index, double value) {
    if (index < 0 || index >= int(kJointProperties.size()) || !inRange(kJointProperties[size_t(index)], value))
        return false;
    switch (index) {
    // Degrees in, radians kept: value / kDegrees would not give back the radians the gizmo
    // sets for the same degrees, and both must save as the same text.
    case JointLower: return setJointLimits(joint, value * (kPi / 180.0), upperLimit(joint));
    case JointUpper: return setJointLimits(joint, lowerLimit(joint), value * (kPi / 180.0));
    case JointStiffness: joint.stiffness = value; return true;
    case JointDamping: joint.damping = value; return true;
    case JointFriction: joint.friction = value; return true;
    case JointCollide: joint.collide = value != 0.0; return true;
    }
    return false;
}

bool setBodyProperty(RigBody& body, int index, double value) {
    if (index < 0 || index >= int(kBodyProperties.size()) || !inRange(kBodyProperties[size_t(index)], value))
        return false;
    switch (index) {
    case BodyMass: body.mass = value; return true;
    case BodyRadius:
        body.radiusSource = RadiusSource::Explicit;
        body.radius = value;
        return true;
    case BodyLinearDamping: body.linearDamping = value; return true;
    case BodyAngularDamping: body.angularDamping = value; return true;
    case BodyFriction: body.friction = value; return true;
    }
    return false;
}

RigTuning tuningOf(const RigDefinition& rig) {
    RigTuning t;
    for (const RigJoint& j : rig.joints) t.joints.push_back({j.limited, j.lower, j.upper, j.stiffness, j.damping, j.friction, j.collide});
    for (const RigBody& b : rig.bodies)
        t.bodies.push_back({b.radiusSource, b.radius, b.radiusFraction, b.mass, b.linearDamping, b.angularDamping, b.friction});
    return t;
}

bool applyTuning(RigDefinition& rig, const RigTuning& tuning, std::string& error) {
    if (tuning.joints.size() != rig.joints.size() || tuning.bodies.size() != rig.bodies.size()) {
        error = "the tuning is for a rig with " + std::to_string(tuning.joints.size()) + " joints and " +
                std::to_string(tuning.bodies.size()) + " bodies; this one has " + std::to_string(rig.joints.size()) +
                " and " + std::to_string(rig.bodies.size());
        return false;
    }
    // The loader's ranges (not the inspector's, which only bound what a drag can reach):
    // checked before anything is written, so a bad value leaves the rig as it was.
    auto nonNegative = [](double v) { return std::isfinite(v) && v >= 0.0; };
    for (size_t i = 0; i < tuning.joints.size(); ++i) {
        const JointTuning& t = tuning.joints[i];
        RigJoint probe;
        if ((t.limited && !setJointLimits(probe, t.lower, t.upper)) || !(t.stiffness > 0.0 && t.stiffness <= 1.0) ||
            !nonNegative(t.damping) || !nonNegative(t.friction)) {
            error = "joint '" + rig.joints[i].name + "': a tuned value is out of range";
            return false;
        }
    }
    for (size_t i = 0; i < tuning.bodies.size(); ++i) {
        const BodyTuning& t = tuning.bodies[i];
        if (int(t.radiusSource) < 0 || int(t.radiusSource) > int(RadiusSource::Visual) ||
            !(t.radius >= kMinBodyRadius && t.radius <= kMaxBodyRadius) || !nonNegative(t.radiusFraction) ||
            !(t.mass >= kMinBodyMass && t.mass <= kMaxBodyMass) ||
            !nonNegative(t.linearDamping) || !nonNegative(t.angularDamping) || !nonNegative(t.friction)) {
            error = "the body of bone '" + rig.bones[size_t(rig.bodies[i].bone)].name + "': a tuned value is out of range";
            return false;
        }
    }
    for (size_t i = 0; i < tuning.joints.size(); ++i) {
        const JointTuning& t = tuning.joints[i];
        RigJoint& j = rig.joints[i];
        j.limited = t.limited;
        j.lower = t.lower;
        j.upper = t.upper;
        j.stiffness = t.stiffness;
        j.damping = t.damping;
        j.friction = t.friction;
        j.collide = t.collide;
    }
    for (size_t i = 0; i < tuning.bodies.size(); ++i) {
        const BodyTuning& t = tuning.bodies[i];
        RigBody& b = rig.bodies[i];
        b.radiusSource = t.radiusSource;
        b.radius = t.radius;
        b.radiusFraction = t.radiusFraction;
        b.mass = t.mass;
        b.linearDamping = t.linearDamping;
        b.angularDamping = t.angularDamping;
        b.friction = t.friction;
    }
    return true;
}

RigTuning editsOver(const RigTuning& edited, const RigTuning& editedFrom, const RigTuning& file) {
    if (edited.joints.size() != editedFrom.joints.size() || edited.joints.size() != file.joints.size() ||
        edited.bodies.size() != editedFrom.bodies.size() || edited.bodies.size() != file.bodies.size())
        return edited;
    RigTuning out = file;
    for (size_t i = 0; i < edited.joints.size(); ++i) {
        const JointTuning& e = edited.joints[i];
        const JointTuning& from = editedFrom.joints[i];
        JointTuning& o = out.joints[i];
        if (e.limited != from.limited || e.lower != from.lower || e.upper != from.upper) {
            o.limited = e.limited;
            o.lower = e.lower;
            o.upper = e.upper;
        }
        if (e.stiffness != from.stiffness) o.stiffness = e.stiffness;
        if (e.damping != from.damping) o.damping = e.damping;
        if (e.friction != from.friction) o.friction = e.friction;
        if (e.collide != from.collide) o.collide = e.collide;
    }
    for (size_t i = 0; i < edited.bodies.size(); ++i) {
        const BodyTuning& e = edited.bodies[i];
        const BodyTuning& from = editedFrom.bodies[i];
        BodyTuning& o = out.bodies[i];
        if (e.radiusSource != from.radiusSource || e.radius != from.radius || e.radiusFraction != from.radiusFraction) {
            o.radiusSource = e.radiusSource;
            o.radius = e.radius;
            o.radiusFraction = e.radiusFraction;
        }
        if (e.mass != from.mass) o.mass = e.mass;
        if (e.linearDamping != from.linearDamping) o.linearDamping = e.linearDamping;
        if (e.angularDamping != from.angularDamping) o.angularDamping = e.angularDamping;
        if (e.friction != from.friction) o.friction = e.friction;
    }
    return out;
}

}  // namespace ragdoll
