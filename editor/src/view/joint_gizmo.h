// The joint-limit gizmo on screen: an arc around the pivot from the lower to the upper
// limit, a needle at the current angle and two handles, drawn with ImGui's background draw
// list (over the world, under the panels) at a constant size in pixels; and the handle
// drag that edits the limits live through the plugin.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gizmo/gizmo_math.h"
#include "model/edit_history.h"
#include "model/object_ref.h"
#include "model/reflected_objects.h"

struct ImDrawList;

namespace paper {
struct Camera;
class PluginHost;
}  // namespace paper

namespace paper::editor {

/// The arc's radius on screen, pixels, at every zoom.
inline constexpr double kGizmoRadiusPixels = 60.0;
/// A handle's radius on screen, pixels (drawn and hit).
inline constexpr double kHandleRadiusPixels = 7.0;
/// How near a click must be to a pivot to select its joint, pixels (view/body_outlines picks).
inline constexpr double kPivotPickPixels = 10.0;

/// The joint called name, or null.
const JointView* findJoint(const std::vector<JointView>& joints, const std::string& name);
/// Not on a temporary: the pointer would outlive the vector.
const JointView* findJoint(std::vector<JointView>&& joints, const std::string& name) = delete;

GizmoFrame gizmoFrameOf(const JointInfo& info);
JointLimits limitsOf(const JointInfo& info);
/// The world point of a gizmo part at zoom pixelsPerMetre: a handle's centre (LowerHandle,
/// UpperHandle), or the pivot (None).
Vec2d gizmoPartWorld(const JointInfo& info, GizmoPart part, double pixelsPerMetre);

/// The mouse for one frame of the viewport, already filtered: not over a panel, not panning.
struct GizmoMouse {
    Vec2d world;            ///< metres
    bool pressed = false;   ///< left button went down this frame
    bool down = false;      ///< left button held
    bool released = false;  ///< left button went up this frame
    SnapMode snap = SnapMode::Default;
};

/// Selection, hover and the handle drag, across frames.
class JointGizmoTool {
public:
    /// Handles one frame of the mouse: hover, a press on a handle of a shown gizmo (the
    /// selected joint's, or every joint's with showAll) selects that joint and starts a drag;
    /// a drag sets the limits live, and its release hands the drag's one edit to `finished`
    /// (the editor records it, and says so). Returns true when it used the press (a handle,
    /// or the selected gizmo's arc): otherwise the press is the editor's to pick a pivot or a
    /// body with, and the plugin's to grab with.
    bool update(const std::vector<JointView>& joints, const GizmoMouse& mouse, double pixelsPerMetre, bool showAll,
                PluginHost& plugin, std::optional<Edit>& finished);
    /// Draws the gizmos (the selected one last, on top) and the hovered part's tooltip.
    void draw(ImDrawList* list, const std::vector<JointView>& joints, const Camera& camera, bool showAll) const;

    /// Whether a press at mouseWorld would be the gizmos' (a handle, or an arc).
    bool has(const std::vector<JointView>& joints, Vec2d mouseWorld, double pixelsPerMetre, bool showAll) const {
        return hitAt(joints, mouseWorld, pixelsPerMetre, showAll).part != GizmoPart::None;
    }
    /// The joint whose gizmo the mouse was over at the last update, empty for none.
    const std::string& hoveredJoint() const { return hovered_.joint; }
    const std::string& selected() const { return selected_; }
    void select(const std::string& joint) { selected_ = joint; }
    bool dragging() const { return drag_.handle != GizmoPart::None; }
    /// The joint being dragged and its limits when the drag began (while dragging()).
    const ObjectRef& dragJoint() const { return dragRef_; }
    JointLimits dragStart() const { return dragStart_; }
    /// Ends a drag without recording it. The limits stay where the drag left them: the
    /// caller puts dragStart() back (the editor does, so a drag cut short by a reload, a
    /// dialog or Esc leaves no change outside the history).
    void cancelDrag() { drag_ = {}; }

private:
    struct Hit {
        std::string joint;
        GizmoPart part = GizmoPart::None;
    };
    Hit hitAt(const std::vector<JointView>& joints, Vec2d mouseWorld, double pixelsPerMetre, bool showAll) const;
    /// The selected gizmo in full (wedge, arc, needle, handles); another of "Show all" as a
    /// thin arc with small handles, so many of them stay readable together.
    void drawOne(ImDrawList* list, const JointView& joint, const Camera& camera, bool selected) const;
    /// Where the joint's name goes: the side away from its range (labels are spread apart).
    double labelDirection(const JointView& joint) const;

    std::string selected_;
    Hit hovered_;
    std::string dragJoint_;
    ObjectRef dragRef_;
    JointLimits dragStart_;
    LimitDrag drag_;
};

}  // namespace paper::editor
