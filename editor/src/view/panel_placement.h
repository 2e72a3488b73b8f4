// Panels placed against another panel whose size changes: the Inspector beside the Joints
// panel (which grows with the rig's joints and their names), Tuning under Simulate (which
// grows with the plugin's plots). Placed at a fixed height under the Joints panel, the
// Inspector hid the paper doll's Undo, Redo and Save; under it, a body's Inspector ran
// into the Plugin panel at the bottom. And panels kept above what stands under them (the
// status line, the Plugin panel), however tall that grows.
#pragma once

#include <imgui.h>
#include <imgui_internal.h>  // FindWindowByName: where a panel is, by its title

#include <algorithm>
#include <array>
#include <cfloat>

namespace paper::editor {

/// The side panels' titles: what ImGui finds them by, and what scripts name them.
inline constexpr const char* kJointsPanel = "Joints";
inline constexpr const char* kInspectorPanel = "Inspector";
inline constexpr const char* kPluginPanel = "Plugin";
inline constexpr const char* kSimulatePanel = "Simulate";
inline constexpr const char* kTuningPanel = "Tuning";
/// The panels standing at the window's sides: the world is seen between them.
inline constexpr std::array<const char*, 5> kSidePanels{kJointsPanel, kInspectorPanel, kPluginPanel, kSimulatePanel,
                                                        kTuningPanel};

/// Puts the next window at `at` (ImGui's pivot: {0, 0} top left, {1, 0} top right) whenever
/// `at` moved since the last call, which `placedAt` remembers: the panel follows the edge of
/// the one it stands against, and otherwise stays where the user dragged it. True when it
/// put it there.
inline bool placeWhenMoved(ImVec2 at, ImVec2 pivot, ImVec2& placedAt) {
    if (at.x == placedAt.x && at.y == placedAt.y) return false;
    ImGui::SetNextWindowPos(at, ImGuiCond_Always, pivot);
    placedAt = at;
    return true;
}

/// The panel of that title as ImGui drew it in the last frame, or null (not drawn then).
/// Asked inside a frame, that is what ImGui calls WasActive; between two frames (a script's
/// expectations), Active.
inline const ImGuiWindow* panelDrawnLastFrame(const char* title) {
    const ImGuiWindow* panel = ImGui::FindWindowByName(title);
    if (!panel) return nullptr;
    return (ImGui::GetCurrentContext()->WithinFrameScope ? panel->WasActive : panel->Active) ? panel : nullptr;
}

/// The gap between a panel and the one it stands against, pixels.
constexpr float kPanelGap = 8.0f;

/// Keeps the next window, its top at `top`, kPanelGap above `lowest` (the top of what stands
/// under it: the status line, another panel): what does not fit scrolls. A panel sized to
/// its contents ran under the status line when a message wrapped to three lines, and the
/// Inspector over the Plugin panel lifted above it (800x600). It keeps a title bar and a
/// line at least.
inline void keepAbove(float lowest, float top) {
    const float least = 2.0f * ImGui::GetFrameHeightWithSpacing();
    ImGui::SetNextWindowSizeConstraints({0.0f, 0.0f}, {FLT_MAX, std::max(lowest - kPanelGap - top, least)});
}

/// A window at least this tall (pixels) holds every panel unfolded beside the others.
constexpr float kRoomyPanelsHeight = 720.0f;

}  // namespace paper::editor
