// What the editor's modal dialogs (Open, Save As, the unsaved-changes question) share: their
// last frame stays in front of the panels.
#pragma once

#include <imgui.h>
#include <imgui_internal.h>  // BringWindowToDisplayFront, ClosePopupToLevel

namespace paper::editor {

/// Ends a modal dialog's frame (after a BeginPopupModal that returned true), closing it when
/// `close`. ImGui hands the focus back at once to the panel that had it when the dialog opened,
/// which comes to the front while the dialog is still drawn this frame: at 800x600 the Tuning
/// panel stood over the Open dialog's error lines, undimmed, in the frame Esc closed it. The
/// dialog stays in front for that last frame.
inline void endDialog(bool close) {
    if (close) {
        ImGui::CloseCurrentPopup();
        ImGui::BringWindowToDisplayFront(ImGui::GetCurrentWindow());
    }
    ImGui::EndPopup();
}

/// Closes the modal `title` (opened from the current ID stack) before it is drawn again, when
/// the editor closed it since the last frame (a choice it accepted): drawn once more to close
/// itself, the Open dialog stood for a frame over the rig its choice had opened.
inline void closeDialogNow(const char* title) {
    const ImGuiID id = ImGui::GetID(title);
    const ImVector<ImGuiPopupData>& open = ImGui::GetCurrentContext()->OpenPopupStack;
    for (int level = 0; level < open.Size; ++level)
        if (open[level].PopupId == id) return ImGui::ClosePopupToLevel(level, true);
}

}  // namespace paper::editor
