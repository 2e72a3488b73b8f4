// The Inspector: the selected object's properties, built from the plugin's reflection
// (PluginHost::properties) — label and unit, a slider within the plugin's range for numbers,
// a checkbox for flags, the value as text for what is read only — and set live while the
// user drags.
//
// A joint's lower and upper limits are the same data the gizmo's handles edit, and they
// come back as the same kind of edit (a limit edit, undone through setJointLimits), so the
// history holds one kind of change to a limit whichever widget made it. Everything else
// comes back as an object property edit.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/edit_history.h"
#include "model/object_ref.h"
#include "view/body_outlines.h"
#include "view/joint_gizmo.h"
#include "view/panel_placement.h"

namespace paper {
class PluginHost;
struct PropertyValue;
}

namespace paper::editor {

class WidgetTargets;

/// A widget being dragged (or typed into): what it held when the edit began.
struct InspectorState {
    ObjectRef activeObject;    ///< the object whose widget is active
    std::string active;        ///< its property, or empty
    double activeBefore = 0.0; ///< the property's value at the press
    JointLimits limitsBefore;  ///< the joint's limits at the press (lower/upper edits)
    ImVec2 placedAt{-1.0f, -1.0f};  ///< where the panel was last put (placeWhenMoved)
    float width = 0.0f;             ///< the panel's width last frame, pixels
    ImVec2 at{0.0f, 0.0f};          ///< its top left corner last frame, pixels (a drag moves it)
};

/// The edges the Inspector is placed by, pixels, as drawn this frame: it stands beside the
/// Joints panel when the world keeps a quarter of the window between it and the Simulate
/// panel, and under it otherwise (a narrow window: at 800x600 a body's Inspector beside the
/// Joints panel covered Play, at 880x600 the figure's head). Its lower edge keeps above the
/// Plugin panel where that stands under it, and above the status line.
struct InspectorPlace {
    float jointsLeft = 0.0f, jointsRight = 0.0f, jointsBottom = 0.0f;
    float simulateLeft = 0.0f;
    float pluginLeft = 0.0f, pluginRight = 0.0f, pluginTop = 0.0f;
    float statusTop = 0.0f;
};

/// Draws the Inspector for selection (joints as read this frame), placed by `place`. Returns
/// a finished edit for the history: a whole drag, or a whole typed entry, is one; a checkbox
/// click is one. Widgets are remembered as "inspector:PROPERTY" (e.g. "inspector:mass").
std::optional<Edit> drawInspectorPanel(PluginHost& plugin, const ObjectRef& selection,
                                       const std::vector<JointView>& joints, const InspectorPlace& place,
                                       InspectorState& state,
                                       WidgetTargets& targets);

/// The handle the plugin knows object by now, or nullopt when it has no such object.
std::optional<std::uint64_t> handleOf(PluginHost& plugin, const ObjectRef& object);
/// The object's property called name, or nullopt when the object or property is gone.
std::optional<PropertyValue> objectProperty(PluginHost& plugin, const ObjectRef& object, const std::string& name);
/// Sets the object's property called name (undo, redo, reset); false when the object or
/// property is gone or the plugin refuses the value.
bool setObjectPropertyByName(PluginHost& plugin, const ObjectRef& object, const std::string& name, double value);

}  // namespace paper::editor
