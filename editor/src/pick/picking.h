// What is under the mouse in the viewport: a joint's pivot or a body's shape. Plain maths
// over world points (no ImGui, no plugin), tested headless; the editor maps the indices it
// returns back to the joints and bodies the plugin reported this frame.
//
// Pivots win over bodies: a pivot sits where two bodies overlap, and selecting the joint is
// what a click there means. Among bodies, the one the mouse is deepest inside, measured in
// its own thickness, wins: the forearm over the upper arm it overlaps at the elbow, and a
// thin arm drawn over the thick torso when the click is on the arm.
#pragma once

#include <functional>
#include <vector>

#include "gizmo/gizmo_math.h"

namespace paper::editor {

enum class BodyOutline {
    Capsule,  ///< the segment a–b grown by radius, round ends
    Circle,   ///< a disc of radius around a (b == a)
    Box,      ///< the rectangle along a–b, radius either side, square ends at a and b
};

/// A body's world shape, as BodyInfo (model/reflected_objects.h) gives it.
struct BodyShape {
    BodyOutline outline = BodyOutline::Capsule;
    Vec2d a, b;           ///< metres: the centre line (a circle's centre twice)
    double radius = 0.0;  ///< metres; a box's half thickness
};

/// The distance, metres, from point to the segment a–b.
double distanceToSegment(Vec2d point, Vec2d a, Vec2d b);
/// How far point (metres) lies outside the shape's outline, metres; negative inside.
double distanceOutside(const BodyShape& shape, Vec2d point);

/// The pivot nearest to point within radiusMetres, or -1.
int pickPivot(const std::vector<Vec2d>& pivots, Vec2d point, double radiusMetres);
/// The body point lies deepest inside, as a fraction of the body's radius, counting
/// slackMetres around each outline as inside (a click a few pixels off a thin limb still
/// hits it); -1 for none.
int pickBody(const std::vector<BodyShape>& bodies, Vec2d point, double slackMetres);

/// What pickAt found: an index into the pivots or the bodies.
struct PickResult {
    int pivot = -1;  ///< a joint's pivot (wins over bodies), or -1
    int body = -1;   ///< a body, or -1 (always -1 when pivot is set)
};

/// A pivot within pivotRadiusMetres, else a body (pickBody with slackMetres).
PickResult pickAt(const std::vector<Vec2d>& pivots, const std::vector<BodyShape>& bodies, Vec2d point,
                  double pivotRadiusMetres, double slackMetres);
/// Everything under point, in the order clicks repeated there select it: the pivots within
/// pivotRadiusMetres nearest first, then the bodies within slackMetres deepest first (so the
/// first is pickAt's answer). Coincident pivots (both hips) and bodies lying under others are
/// reached this way.
std::vector<PickResult> picksAt(const std::vector<Vec2d>& pivots, const std::vector<BodyShape>& bodies, Vec2d point,
                                double pivotRadiusMetres, double slackMetres);

/// A point that picks body `index` (pickAt returns it, not a pivot nor another body), on its
/// centre line as far from every pivot as possible: where a hand clicks to select it. Points
/// `taken` says are another's (a gizmo's arc over the body) are passed over. False when no
/// point of the body picks it (covered by other bodies' pivots everywhere).
bool pointPickingBody(const std::vector<Vec2d>& pivots, const std::vector<BodyShape>& bodies, int index,
                      double pivotRadiusMetres, double slackMetres, const std::function<bool(Vec2d)>& taken,
                      Vec2d& point);

}  // namespace paper::editor
