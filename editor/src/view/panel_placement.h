// Panels that stand under another panel whose height changes: the Inspector under the Joints
// panel (which grows with the rig's joints), Tuning under Simulate (which grows with the
// plugin's plots). Placed at a fixed height, a doll of 11 joints hid the Joints panel's Undo,
// Redo and Save under the Inspector.
#pragma once

#include <imgui.h>

namespace paper::editor {

/// Puts the next window at `at` (ImGui's pivot: {0, 0} top left, {1, 0} top right) whenever
/// `at` moved since the last call, which `placedAt` remembers: the panel follows the edge of
/// the one above it, and otherwise stays where the user dragged it.
inline void placeWhenMoved(ImVec2 at, ImVec2 pivot, ImVec2& placedAt) {
    if (at.x == placedAt.x && at.y == placedAt.y) return;
    ImGui::SetNextWindowPos(at, ImGuiCond_Always, pivot);
    placedAt = at;
}

/// The gap between a panel and the one it stands under, pixels.
constexpr float kPanelGap = 8.0f;

}  // namespace paper::editor
