#include "gizmo/label_layout.h"

#include <cmath>

namespace paper::editor {

namespace {

/// Pixels between a label and anything else it must not touch.
constexpr double kGapPixels = 2.0;
/// A pivot's dot, kept clear of every label: half its side, pixels.
constexpr double kAnchorHalfPixels = 5.0;
/// Distance from the anchor to the nearest label edge on the first ring, and between rings.
constexpr double kFirstReachPixels = 12.0;
constexpr double kRingStepPixels = 10.0;
constexpr int kRings = 12;
constexpr int kDirections = 16;

LabelBox boxAround(Vec2d centre, Vec2d size) { return {{centre.x - 0.5 * size.x, centre.y - 0.5 * size.y}, size}; }

}  // namespace

bool LabelBox::overlaps(const LabelBox& other, double gapPixels) const {
    return corner.x < other.corner.x + other.size.x + gapPixels && other.corner.x < corner.x + size.x + gapPixels &&
           corner.y < other.corner.y + other.size.y + gapPixels && other.corner.y < corner.y + size.y + gapPixels;
}

std::vector<LabelBox> spreadLabels(const std::vector<LabelRequest>& requests) {
    std::vector<LabelBox> anchors, placed;
    for (const LabelRequest& r : requests)
        anchors.push_back({{r.anchor.x - kAnchorHalfPixels, r.anchor.y - kAnchorHalfPixels},
                           {2.0 * kAnchorHalfPixels, 2.0 * kAnchorHalfPixels}});
    auto isFree = [&](const LabelBox& box) {
        for (const LabelBox& other : placed)
            if (box.overlaps(other, kGapPixels)) return false;
        for (const LabelBox& anchor : anchors)
            if (box.overlaps(anchor, kGapPixels)) return false;
        return true;
    };
    for (const LabelRequest& r : requests) {
        LabelBox chosen{};
        bool found = false;
        for (int ring = 0; ring < kRings && !found; ++ring) {
            for (int k = 0; k < kDirections && !found; ++k) {
                // The preferred direction, then alternately either side of it.
                int step = (k + 1) / 2 * (k % 2 == 1 ? 1 : -1);
                double angle = r.preferredAngle + step * (2.0 * 3.14159265358979323846 / kDirections);
                Vec2d dir{std::cos(angle), -std::sin(angle)};  // screen y runs down
                // Far enough along dir that the box's nearest edge is `reach` from the anchor.
                double halfExtent = std::abs(dir.x) * 0.5 * r.size.x + std::abs(dir.y) * 0.5 * r.size.y;
                double reach = kFirstReachPixels + ring * kRingStepPixels + halfExtent;
                chosen = boxAround({r.anchor.x + reach * dir.x, r.anchor.y + reach * dir.y}, r.size);
                found = isFree(chosen);
            }
        }
        placed.push_back(chosen);
    }
    return placed;
}

}  // namespace paper::editor
