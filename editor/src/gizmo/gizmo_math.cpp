// The joint-limit gizmo's maths; see gizmo_math.h for the two senses of angle.

#include "gizmo/gizmo_math.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>

namespace paper::editor {

namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kTwoPi = 2.0 * std::numbers::pi;

double length(Vec2d v) { return std::hypot(v.x, v.y); }
Vec2d operator-(Vec2d a, Vec2d b) { return {a.x - b.x, a.y - b.y}; }

double handleAngle(GizmoPart handle, JointLimits limits) {
    return handle == GizmoPart::LowerHandle ? limits.lower : limits.upper;
}

bool isHandle(GizmoPart part) { return part == GizmoPart::LowerHandle || part == GizmoPart::UpperHandle; }

}  // namespace

double wrapAngle(double radians) {
    if (radians > -kPi && radians <= kPi) return radians;
    const double r = std::remainder(radians, kTwoPi);  // [−π, π]
    return r <= -kPi ? r + kTwoPi : r;
}

JointLimits sanitizeLimits(JointLimits limits) {
    double lower = std::clamp(limits.lower, -kPi, kPi);
    double upper = std::clamp(limits.upper, -kPi, kPi);
    if (lower > upper) std::swap(lower, upper);
    return {lower, upper};
}

// ---- the frame ---------------------------------------------------------------------------

// Mirroring is a reflection of the whole character, so the rest offset turns with the joint
// angle: both flip sign together (Character::jointAngle negates the world difference before
// subtracting the rest difference, which is the same relation read backwards).
double worldAngleOfJointAngle(const GizmoFrame& frame, double jointAngle) {
    const double fromParent = frame.restOffset + jointAngle;
    return frame.mirrored ? frame.parentAngle - fromParent : frame.parentAngle + fromParent;
}

double jointAngleOfWorldAngle(const GizmoFrame& frame, double worldAngle) {
    const double fromParent = frame.mirrored ? frame.parentAngle - worldAngle : worldAngle - frame.parentAngle;
    return wrapAngle(fromParent - frame.restOffset);
}

Vec2d directionOfJointAngle(const GizmoFrame& frame, double jointAngle) {
    const double world = worldAngleOfJointAngle(frame, jointAngle);
    return {std::cos(world), std::sin(world)};
}

Vec2d pointOnArc(const GizmoFrame& frame, double jointAngle, double radiusMetres) {
    const Vec2d d = directionOfJointAngle(frame, jointAngle);
    return {frame.pivot.x + radiusMetres * d.x, frame.pivot.y + radiusMetres * d.y};
}

double angleFromMouse(const GizmoFrame& frame, Vec2d mouseWorld) {
    const Vec2d d = mouseWorld - frame.pivot;
    return jointAngleOfWorldAngle(frame, std::atan2(d.y, d.x));
}

// ---- snapping ----------------------------------------------------------------------------

double snapStepDegrees(SnapMode mode) {
    switch (mode) {
        case SnapMode::Default: return 5.0;
        case SnapMode::Fine: return 1.0;
        case SnapMode::Free: return 0.0;
    }
    return 0.0;
}

// Snapping rounds in degrees, where the steps are whole numbers, and converts once at the end:
// 95° is toRadians(95), not 19 × toRadians(5) with its rounding errors multiplied. 180 is a
// multiple of every step, so a snapped angle within [−180°, 180°] stays there.
double snapAngle(double angle, SnapMode mode) {
    const double clamped = std::clamp(angle, -kPi, kPi);
    const double step = snapStepDegrees(mode);
    if (step <= 0.0) return clamped;
    const double degrees = std::clamp(std::round(toDegrees(clamped) / step) * step, -180.0, 180.0);
    return toRadians(degrees);
}

// ---- hit testing -------------------------------------------------------------------------

GizmoPart hitTest(const GizmoFrame& frame, JointLimits limits, double radiusPixels, double handleRadiusPixels,
                  double pixelsPerMetre, Vec2d mouseWorld) {
    if (!(pixelsPerMetre > 0.0) || !std::isfinite(pixelsPerMetre)) return GizmoPart::None;
    limits = sanitizeLimits(limits);
    const double radiusMetres = radiusPixels / pixelsPerMetre;
    const double toLowerPixels = length(mouseWorld - pointOnArc(frame, limits.lower, radiusMetres)) * pixelsPerMetre;
    const double toUpperPixels = length(mouseWorld - pointOnArc(frame, limits.upper, radiusMetres)) * pixelsPerMetre;
    const bool overLower = toLowerPixels <= handleRadiusPixels;
    const bool overUpper = toUpperPixels <= handleRadiusPixels;
    const double mouseAngle = angleFromMouse(frame, mouseWorld);

    if (overLower && overUpper) {
        // Comparing the distances would do for separate handles but ties for coinciding ones,
        // exactly when the choice matters most. The side of the line through the pivot and
        // the range's middle is the perpendicular bisector of the two handle centres — the
        // nearer handle — and still decides when they coincide.
        if (limits.upper - limits.lower <= 1e-12) {
            if (limits.upper >= kPi) return GizmoPart::LowerHandle;
            if (limits.lower <= -kPi) return GizmoPart::UpperHandle;
        }
        const double middle = 0.5 * (limits.lower + limits.upper);
        return wrapAngle(mouseAngle - middle) >= 0.0 ? GizmoPart::UpperHandle : GizmoPart::LowerHandle;
    }
    if (overLower) return GizmoPart::LowerHandle;
    if (overUpper) return GizmoPart::UpperHandle;

    const double fromPivotPixels = length(mouseWorld - frame.pivot) * pixelsPerMetre;
    if (std::abs(fromPivotPixels - radiusPixels) <= kArcHitPixels && !outside(mouseAngle, limits))
        return GizmoPart::Arc;
    return GizmoPart::None;
}

// ---- dragging ----------------------------------------------------------------------------

// Clamp, then snap, then stop at the other handle. Snapping before the clamp would let a
// 182° target snap to 180° anyway, but snapping after the stop could push a handle across an
// off-grid neighbour (12.6° → 15° past an upper limit of 12.3°), so the stop comes last.
JointLimits applyHandleDrag(GizmoPart handle, JointLimits limits, double handleAngle, SnapMode snap) {
    limits = sanitizeLimits(limits);
    if (!isHandle(handle) || std::isnan(handleAngle)) return limits;
    const double angle = snapAngle(handleAngle, snap);
    if (handle == GizmoPart::LowerHandle)
        limits.lower = std::min(angle, limits.upper);
    else
        limits.upper = std::max(angle, limits.lower);
    return limits;
}

// The mouse starts on the handle's branch of the angle: a handle at 180° grabbed with the
// mouse at −179° (1° past the seam) starts from 181°, not from −179°, or the first update
// would throw it to the lower end.
LimitDrag beginLimitDrag(GizmoPart handle, JointLimits limits, double mouseAngle) {
    LimitDrag drag;
    if (!isHandle(handle)) return drag;
    limits = sanitizeLimits(limits);
    const double grabbed = handleAngle(handle, limits);
    drag.handle = handle;
    drag.grabOffset = wrapAngle(grabbed - mouseAngle);
    drag.lastMouseAngle = wrapAngle(mouseAngle);
    drag.unwrappedMouseAngle = grabbed - drag.grabOffset;
    drag.pressAngle = grabbed;
    drag.fullCircle = limits.upper - limits.lower >= kTwoPi - 1e-12;
    drag.byDirection = limits.upper - limits.lower <= 1e-12 || drag.fullCircle;
    return drag;
}

// Each move adds the short way round from the previous angle: mouse moves between two frames
// are far below 180°, so this follows the cursor. Rejected: unwrapping the mouse against the
// handle's current angle instead of the previous mouse angle — with the handle stopped at
// 180° and the mouse carried on round to +1°, the short way round from 180° is −179°, and
// the handle would jump to the bottom of the range.
JointLimits updateLimitDrag(LimitDrag& drag, JointLimits limits, double mouseAngle, SnapMode snap) {
    if (!isHandle(drag.handle) || std::isnan(mouseAngle)) return sanitizeLimits(limits);
    const double wrapped = wrapAngle(mouseAngle);
    drag.unwrappedMouseAngle += wrapAngle(wrapped - drag.lastMouseAngle);
    drag.lastMouseAngle = wrapped;
    double target = drag.unwrappedMouseAngle + drag.grabOffset;
    if (drag.byDirection && target != drag.pressAngle) {
        const bool up = target > drag.pressAngle;
        if (!drag.fullCircle) {
            drag.handle = up ? GizmoPart::UpperHandle : GizmoPart::LowerHandle;
        } else if (up && drag.handle == GizmoPart::UpperHandle) {
            // Past +π going up is the lower handle leaving −π: a turn back on the mouse's branch.
            drag.handle = GizmoPart::LowerHandle;
            drag.grabOffset -= kTwoPi;
        } else if (!up && drag.handle == GizmoPart::LowerHandle) {
            drag.handle = GizmoPart::UpperHandle;
            drag.grabOffset += kTwoPi;
        }
        drag.byDirection = false;
        target = drag.unwrappedMouseAngle + drag.grabOffset;
    }
    return applyHandleDrag(drag.handle, limits, target, snap);
}

// ---- drawing -----------------------------------------------------------------------------

ArcSweep arcSweep(const GizmoFrame& frame, JointLimits limits) {
    limits = sanitizeLimits(limits);
    const double width = limits.upper - limits.lower;
    return {worldAngleOfJointAngle(frame, limits.lower), frame.mirrored ? -width : width};
}

std::vector<Vec2d> arcPoints(const GizmoFrame& frame, JointLimits limits, double radiusMetres, int segments) {
    segments = std::max(segments, 1);
    const ArcSweep arc = arcSweep(frame, limits);
    std::vector<Vec2d> points;
    points.reserve(size_t(segments) + 1);
    for (int i = 0; i <= segments; ++i) {
        const double angle = arc.startWorldAngle + arc.sweepRadians * double(i) / double(segments);
        points.push_back({frame.pivot.x + radiusMetres * std::cos(angle),
                          frame.pivot.y + radiusMetres * std::sin(angle)});
    }
    return points;
}

// current comes wrapped, so an angle at the seam may come as −π for a range that ends at +π:
// it is tested at its turns either side too.
bool outside(double current, JointLimits limits, double toleranceRadians) {
    limits = sanitizeLimits(limits);
    const double low = limits.lower - toleranceRadians;
    const double high = limits.upper + toleranceRadians;
    for (double turn : {0.0, kTwoPi, -kTwoPi}) {
        const double a = current + turn;
        if (a >= low && a <= high) return false;
    }
    return true;
}

// ---- text --------------------------------------------------------------------------------

const char* partName(GizmoPart part) {
    switch (part) {
        case GizmoPart::None: return "none";
        case GizmoPart::LowerHandle: return "lower";
        case GizmoPart::UpperHandle: return "upper";
        case GizmoPart::Arc: return "arc";
    }
    return "none";
}

// Rounded here (halves away from zero) rather than by printf, which rounds the binary value
// and would print −0.04° as "-0.0°".
std::string degreesText(double radians) {
    double tenths = std::round(toDegrees(radians) * 10.0) / 10.0;
    if (tenths == 0.0) tenths = 0.0;  // −0.0 → 0.0
    char text[48];
    std::snprintf(text, sizeof text, "%.1f\u00b0", tenths);
    return text;
}

std::string angleLabel(std::string_view name, double radians) {
    std::string label(name);
    label += ' ';
    label += degreesText(radians);
    return label;
}

std::string tooltipText(GizmoPart part, JointLimits limits) {
    limits = sanitizeLimits(limits);
    switch (part) {
        case GizmoPart::LowerHandle: return angleLabel(partName(part), limits.lower);
        case GizmoPart::UpperHandle: return angleLabel(partName(part), limits.upper);
        case GizmoPart::Arc: return "range " + degreesText(limits.lower) + " to " + degreesText(limits.upper);
        case GizmoPart::None: return "";
    }
    return "";
}

}  // namespace paper::editor
