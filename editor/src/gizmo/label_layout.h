// Where the joint names of "Show all" go: beside their pivots, never on top of each other.
// Pure maths in pixels, tested headless (tests/editor/gizmo_math_tests.cpp).
#pragma once

#include <vector>

#include "gizmo/gizmo_math.h"

namespace paper::editor {

/// A label to place: its pivot and size in pixels (y down, as on screen), and the direction
/// it would rather go (radians, counter-clockwise from +x as the world's angles are).
struct LabelRequest {
    Vec2d anchor;
    Vec2d size;
    double preferredAngle = 0.0;
};

/// A placed label's top-left corner and size, pixels.
struct LabelBox {
    Vec2d corner;
    Vec2d size;
    bool overlaps(const LabelBox& other, double gapPixels) const;
};

/// Places the labels in order (the first, e.g. the selected joint's, gets its preferred spot):
/// each goes to the nearest spot around its anchor, trying its preferred direction first,
/// that overlaps no label placed before it and covers no anchor. Rings grow outwards until
/// one fits; with no free spot in reach the last tried is used.
std::vector<LabelBox> spreadLabels(const std::vector<LabelRequest>& requests);

}  // namespace paper::editor
