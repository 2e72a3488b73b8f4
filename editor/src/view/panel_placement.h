// Panels placed against another panel whose size changes: the Inspector beside the Joints
// panel (which grows with the rig's joints and their names), Tuning under Simulate (which
// grows with the plugin's plots). Placed at a fixed height under the Joints panel, the
// Inspector hid the paper doll's Undo, Redo and Save; under it, a body's Inspector ran
// into the Plugin panel at the bottom.
#pragma once

#include <imgui.h>

namespace paper::editor {

/// Puts the next window at `at` (ImGui's pivot: {0, 0} top left, {1, 0} top right) whenever
/// `at` moved since the last call, which `placedAt` remembers: the panel follows the edge of
/// the one it stands against, and otherwise stays where the user dragged it.
inline void placeWhenMoved(ImVec2 at, ImVec2 pivot, ImVec2& placedAt) {
    if (at.x == placedAt.x && at.y == placedAt.y) return;
    ImGui::SetNextWindowPos(at, ImGuiCond_Always, pivot);
    placedAt = at;
}

/// The gap between a panel and the one it stands against, pixels.
constexpr float kPanelGap = 8.0f;

/// A window at least this tall (pixels) holds every panel unfolded beside the others.
constexpr float kRoomyPanelsHeight = 720.0f;

}  // namespace paper::editor
