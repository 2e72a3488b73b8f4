// The plugin's objects as the editor's tools see them, read through the ABI's reflection by
// the conventions plugin_api.h states: an object whose properties include "pivot", "lower",
// "upper", "angle", "parent_angle", "rest_offset" and "mirrored" has angle limits the gizmo
// edits (a "joint" in the editor's words); one with "a", "b", "radius" and "shape" has an
// outline to draw and pick (a "body"), and a writable "selected" flag when the plugin marks
// a selected body's art. The kinds are the plugin's: nothing here names one.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gizmo/gizmo_math.h"
#include "paper/math.h"

namespace paper {
class PluginHost;
}

namespace paper::editor {

/// An object with limits, as the gizmo and the picking read it for one frame.
struct JointInfo {
    std::uint64_t handle = 0;
    int kind = -1;              ///< the plugin's kind (index into its declarations)
    int character = -1;         ///< the object it belongs to (PaperObjectInfo::owner), or -1
    Vec2 pivot;                 ///< world metres
    double parentAngle = 0.0;   ///< radians, world
    double restOffset = 0.0;    ///< radians
    bool mirrored = false;
    double lowerLimit = 0.0, upperLimit = 0.0;  ///< radians from the rest pose
    double currentAngle = 0.0;  ///< radians from the rest pose
};

enum class OutlineShape { Capsule, Circle, Box };

/// An object with an outline, as the picking and the outlines read it for one frame.
struct BodyInfo {
    std::uint64_t handle = 0;
    int kind = -1;
    int character = -1;
    OutlineShape shape = OutlineShape::Capsule;
    Vec2 a, b;            ///< world metres: the centre line (a circle's centre twice)
    double radius = 0.0;  ///< metres; a box's half thickness
    int selectedProperty = -1;  ///< index of its writable "selected" flag, or -1 (the plugin marks none)
    bool selected = false;      ///< that flag as read
};

struct JointView {
    std::string name;
    JointInfo info;
};

struct BodyView {
    std::string name;
    BodyInfo info;
};

/// The objects the editor edits: those of the first object that owns others (the first
/// spawn's character, made from the asset being edited; PaperObjectInfo::owner 0) and those
/// owned by none. A later character's are the level's scenery here: its asset is another
/// file (or another copy of this one), which Save does not write.
inline bool editable(int owner) { return owner <= 0; }

/// Every editable object (editable()) of every kind that has limits, in kind then plugin order.
std::vector<JointView> readJoints(PluginHost& plugin);
/// Every editable object of every kind that has an outline.
std::vector<BodyView> readBodies(PluginHost& plugin);

/// Tells the plugin which body is selected, through each body's "selected" flag (the
/// plugin's art marks that body's parts): set on `selected` (a body's name and owner, or
/// none), cleared on the others. Only flags that differ are written.
void markSelectedBody(PluginHost& plugin, const std::vector<BodyView>& bodies, int character, const std::string& name);

/// Sets an object's limits (radians, as the gizmo has them) through its "lower" and "upper"
/// properties in degrees, in the order that keeps lower ≤ upper on the way. Degrees are
/// rounded to 1e-9 so a snapped 100° arrives as exactly 100. False when the plugin refuses.
bool setJointLimits(PluginHost& plugin, const JointInfo& joint, JointLimits limits);

}  // namespace paper::editor
