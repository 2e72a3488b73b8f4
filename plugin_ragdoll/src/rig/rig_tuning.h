// What the editor's inspector can change on a rig's joints and bodies: reflection tables
// over RigJoint and RigBody (in the shape of the plugin ABI's PaperPropertyInfo), and the
// snapshot of those values that the state blob carries across a hot reload.
//
// A character edits its own copy of the rig through these (live), builds every later
// ragdoll from it, and saveRig writes that copy, so the file gets exactly what was tuned.
#pragma once

#include <string>
#include <vector>

#include "rig/rig.h"

namespace ragdoll {

/// One editable value of a joint or a body.
struct TuningProperty {
    const char* name;   ///< stable identifier, e.g. "mass"
    const char* label;  ///< for humans
    const char* unit;   ///< "°", "kg", "m", "1/s", "N·m" or ""
    enum Kind { Float, Bool } kind;
    double minValue, maxValue;
};

/// lower, upper (degrees, rest-relative), stiffness, damping, collide, friction.
const std::vector<TuningProperty>& jointProperties();
/// mass, radius, linear_damping, angular_damping, friction.
const std::vector<TuningProperty>& bodyProperties();

/// The value in the property's unit (angles in degrees).
double jointProperty(const RigJoint& joint, int index);
double bodyProperty(const RigBody& body, int index);
/// Sets a value (in the property's unit). False, changing nothing, for an unknown index, a
/// value outside the property's range, or limits that would cross (lower > upper). Setting
/// either limit makes the joint limited; setting the radius makes it explicit.
bool setJointProperty(RigJoint& joint, int index, double value);
bool setBodyProperty(RigBody& body, int index, double value);

/// A joint's limits in radians, rest-relative; a free joint's are the full turn [−π, π].
double lowerLimit(const RigJoint& joint);
double upperLimit(const RigJoint& joint);
/// Sets both limits (radians, rest-relative) at once; the joint becomes limited, or free for
/// the whole circle [−π, π]. False for values that are not finite, outside [−π, π] or
/// crossing.
bool setJointLimits(RigJoint& joint, double lower, double upper);

/// The tunable values of every joint and body, in rig order.
struct JointTuning {
    bool limited = false;
    double lower = 0.0, upper = 0.0;  ///< radians
    double stiffness = 1.0, damping = 0.0, friction = 0.0;
    bool collide = false;
};
struct BodyTuning {
    RadiusSource radiusSource = RadiusSource::Visual;
    double radius = 0.0, radiusFraction = 0.0;
    double mass = 0.0, linearDamping = 0.0, angularDamping = 0.0, friction = 0.0;
};
struct RigTuning {
    std::vector<JointTuning> joints;
    std::vector<BodyTuning> bodies;
};
RigTuning tuningOf(const RigDefinition& rig);
/// Puts the values back into a rig of the same shape. False (rig unchanged) with the reason
/// when the counts differ or a value is out of its range.
bool applyTuning(RigDefinition& rig, const RigTuning& tuning, std::string& error);

/// The edits of `edited` (the values that differ from `editedFrom`, the tuning it started
/// from) laid over `file`: what a hot reload restores, so a value the file changed since
/// (another program wrote it) stays as the file has it unless it was edited. A joint's
/// limits (limited, lower, upper) go together, as do a body's radius and its source, so
/// the result never mixes an edited limit with one it could cross. When the three differ
/// in shape, `edited` whole.
RigTuning editsOver(const RigTuning& edited, const RigTuning& editedFrom, const RigTuning& file);

}  // namespace ragdoll
