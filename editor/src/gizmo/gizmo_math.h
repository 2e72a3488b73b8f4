// The joint-limit gizmo's maths of the editor: for a selected joint the editor draws an arc
// around the pivot from the lower to the upper limit, in the parent body's current frame, a
// needle at the current angle and two handles the user drags to change the limits.
//
// Angles come in two senses:
// - joint angles, "rig sense": radians relative to the rest pose, as the editor reads them
//   (model/reflected_objects.h: lowerLimit, upperLimit, currentAngle) and setJointLimits sets them;
// - world angles: radians counter-clockwise from world +x, as the screen shows them.
// The world direction of joint angle a is parentAngle + restOffset + a, or
// parentAngle − restOffset − a for a character drawn mirrored (facing left).
//
// Plain double maths: no ImGui, SDL or GL, so all of it is tested headless.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace paper::editor {

/// A point or a direction in world space: metres, y up. Double rather than paper::Vec2
/// (float): mouse points along one ray at several radii then give the same angle to 1e-9
/// rad, and the plugin's float vectors convert to it exactly.
struct Vec2d {
    double x = 0.0; ///< metres
    double y = 0.0; ///< metres
};

/// A joint's limits, radians, rig sense, with −π ≤ lower ≤ upper ≤ π. The range runs
/// counter-clockwise (in rig sense) from lower to upper and never through ±π unless it
/// reaches ±π itself: [−170°, 170°] is 340° wide, [−10°, 10°] is 20°.
struct JointLimits {
    double lower = 0.0; ///< radians, rig sense
    double upper = 0.0; ///< radians, rig sense
};

/// Where a joint's gizmo sits and which way its angles turn.
struct GizmoFrame {
    Vec2d pivot;              ///< the joint's pivot, world metres (JointInfo::pivot)
    double parentAngle = 0.0; ///< the parent body's current world angle, radians (JointInfo::parentAngle)
    /// The child's rest angle relative to its parent, radians: joint angle 0 points at
    /// parentAngle + restOffset (parentAngle − restOffset when mirrored).
    double restOffset = 0.0;
    bool mirrored = false;    ///< the character faces left and is drawn mirrored: joint angles turn clockwise on screen
};

/// Degrees to radians.
constexpr double toRadians(double degrees) { return degrees / 180.0 * 3.14159265358979323846; }
/// Radians to degrees.
constexpr double toDegrees(double radians) { return radians / 3.14159265358979323846 * 180.0; }
/// radians wrapped to (−π, π].
double wrapAngle(double radians);
/// limits clamped to [−π, π] and put in order (swapped when lower > upper), so the gizmo
/// draws and drags something sensible whatever the plugin reports.
JointLimits sanitizeLimits(JointLimits limits);

// ---- the frame: joint angles <-> world ----------------------------------------------------

/// The world angle, radians, of joint angle jointAngle (radians, rig sense); not wrapped.
double worldAngleOfJointAngle(const GizmoFrame& frame, double jointAngle);
/// The joint angle, radians, rig sense, wrapped to (−π, π], whose world angle is worldAngle (radians).
double jointAngleOfWorldAngle(const GizmoFrame& frame, double worldAngle);
/// The unit world direction of joint angle jointAngle (radians, rig sense).
Vec2d directionOfJointAngle(const GizmoFrame& frame, double jointAngle);
/// The world point, metres, at joint angle jointAngle (radians, rig sense) on the circle of
/// radiusMetres around the pivot: a handle's centre, the needle's tip.
Vec2d pointOnArc(const GizmoFrame& frame, double jointAngle, double radiusMetres);
/// The joint angle, radians, rig sense, wrapped to (−π, π], that the mouse (world metres)
/// points at around the pivot, at any distance. At the pivot itself: world +x's angle.
double angleFromMouse(const GizmoFrame& frame, Vec2d mouseWorld);

// ---- snapping ------------------------------------------------------------------------------

/// How a dragged angle snaps: held modifier keys choose it.
enum class SnapMode {
    Default, ///< multiples of 5°
    Fine,    ///< multiples of 1° (Ctrl held)
    Free,    ///< no snapping (Shift held)
};

/// The step of a snap mode, degrees; 0 for Free.
double snapStepDegrees(SnapMode mode);
/// angle (radians) rounded to the nearest multiple of the mode's step in degrees (halves away
/// from zero), and clamped to [−π, π]; Free only clamps. Radians.
double snapAngle(double angle, SnapMode mode);

// ---- hit testing ---------------------------------------------------------------------------

/// The parts of a gizmo the mouse can be over. The needle is drawn, never hit: the current
/// angle is the simulation's, not something the gizmo edits.
enum class GizmoPart {
    None,        ///< nothing
    LowerHandle, ///< the handle at the lower limit
    UpperHandle, ///< the handle at the upper limit
    Arc,         ///< the arc between the handles (hover: the range's tooltip)
};

/// How far from the arc's line, screen pixels, the mouse still counts as over the arc.
inline constexpr double kArcHitPixels = 4.0;

/// The part under the mouse (world metres). The arc's radius and the handles' radius are in
/// screen pixels, so the gizmo looks and hits the same at every zoom; pixelsPerMetre is the
/// view's zoom (<= 0 hits nothing). A handle is hit when the mouse is within
/// handleRadiusPixels of its centre; handles come before the arc. When the mouse is within
/// both handles, the one on the mouse's side of the range's middle wins: the nearer one, and
/// for coinciding handles (lower == upper) the one that can move towards the mouse — the
/// upper one when the mouse is above them in rig sense (or level with them), the lower one
/// below. Coinciding handles pinned at +π give the lower one (the upper cannot go further),
/// at −π the upper one.
GizmoPart hitTest(const GizmoFrame& frame, JointLimits limits, double radiusPixels, double handleRadiusPixels,
                  double pixelsPerMetre, Vec2d mouseWorld);

// ---- dragging a handle ---------------------------------------------------------------------

/// The drag rule: handle (LowerHandle or UpperHandle; anything else changes nothing) moved to
/// handleAngle (radians, rig sense, may lie outside [−π, π]). The angle is clamped to
/// [−π, π] — never wrapped — then snapped, then stopped at the other handle: handles never
/// cross, and lower ≤ upper always holds. Returns the new limits; the other one is unchanged.
JointLimits applyHandleDrag(GizmoPart handle, JointLimits limits, double handleAngle, SnapMode snap);

/// A handle drag in progress: begun on the press over a handle, updated on every mouse move.
/// It follows the mouse continuously across the ±π seam: the mouse's angle is unwrapped
/// relative to the previous one, so a handle dragged past ±π stops there instead of jumping
/// to the other end. Turns are remembered: a mouse that went on round past the seam brings
/// the handle back only once it comes back across the seam.
struct LimitDrag {
    GizmoPart handle = GizmoPart::None; ///< the handle dragged: LowerHandle or UpperHandle (None: no drag)
    /// The handle's angle minus the mouse's at the press, radians: the handle keeps this
    /// distance from the cursor instead of jumping under it.
    double grabOffset = 0.0;
    double lastMouseAngle = 0.0;        ///< the mouse's joint angle at the last update, radians, (−π, π]
    /// The mouse's joint angle followed continuously since the press, radians: past the seam
    /// it leaves [−π, π] (181°, not −179°).
    double unwrappedMouseAngle = 0.0;
    /// Pressed where the handles lie on one another (a range of zero width): the first move
    /// decides which is dragged, the upper one up, the lower one down, whichever the press
    /// found (the lower one, pinned under the upper, kept every drag upward from doing anything).
    bool byDirection = false;
    /// ... or where they meet at the seam, the range the whole circle (a free joint): the
    /// upper one at +π can only go down, the lower one at −π only up.
    bool fullCircle = false;
    double pressAngle = 0.0;  ///< the handles' angle at such a press, radians
};

/// Starts dragging handle (LowerHandle or UpperHandle) of limits, with the mouse at
/// mouseAngle (radians, rig sense, from angleFromMouse).
LimitDrag beginLimitDrag(GizmoPart handle, JointLimits limits, double mouseAngle);
/// The mouse moved to mouseAngle (radians, rig sense, from angleFromMouse): advances the drag
/// and returns the new limits (limits: the current ones) under the drag rule.
JointLimits updateLimitDrag(LimitDrag& drag, JointLimits limits, double mouseAngle, SnapMode snap);

// ---- drawing -------------------------------------------------------------------------------

/// The arc of a range in world angles.
struct ArcSweep {
    double startWorldAngle = 0.0; ///< the lower limit's world angle, radians
    /// Signed, radians: upper − lower, counter-clockwise (> 0) unless mirrored; |sweep| ≤ 2π.
    double sweepRadians = 0.0;
};

/// Where the arc of limits starts and how far it turns.
ArcSweep arcSweep(const GizmoFrame& frame, JointLimits limits);
/// segments + 1 points (segments clamped to at least 1), world metres, along the arc of
/// limits at radiusMetres from the pivot, from the lower limit to the upper one.
std::vector<Vec2d> arcPoints(const GizmoFrame& frame, JointLimits limits, double radiusMetres, int segments);
/// Whether current (radians, rig sense, [−π, π]) lies outside limits by more than
/// toleranceRadians: the arc turns red. −π and π are the same angle.
bool outside(double current, JointLimits limits, double toleranceRadians = 0.0);

// ---- text ----------------------------------------------------------------------------------

/// "lower", "upper", "arc" or "none".
const char* partName(GizmoPart part);
/// Radians in degrees with one decimal and a degree sign, never "-0.0°": "100.0°".
std::string degreesText(double radians);
/// name, a space, then radians in degrees with one decimal and a degree sign: "upper 100.0°".
/// −0.0° prints as 0.0°.
std::string angleLabel(std::string_view name, double radians);
/// The tooltip of a part: "lower -30.0°", "upper 100.0°", "range -30.0° to 100.0°"; "" for None.
std::string tooltipText(GizmoPart part, JointLimits limits);

}  // namespace paper::editor
