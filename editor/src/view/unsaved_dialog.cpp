#include "view/unsaved_dialog.h"

#include <imgui.h>

#include "view/modal_dialog.h"
#include "view/widget_targets.h"
#include "paper/window.h"

namespace paper::editor {

namespace {
constexpr const char* kTitle = "Unsaved changes";
constexpr float kButtonWidth = 90.0f;  ///< pixels
/// Dear ImGui 1.86 asserts (and aborts) in Begin when a modal closed two frames earlier
/// opens again (its issue 4920, fixed in later versions): Esc to cancel and Esc again to
/// quit, 33 ms apart (a key's auto-repeat), lost the unsaved edits. Asked again that soon,
/// the question waits until this many frames have passed since it closed.
constexpr int kFramesBeforeReopening = 3;
int closedAtFrame = -kFramesBeforeReopening;
}  // namespace

UnsavedChoice drawUnsavedDialog(bool& open, const std::string& rigName, const std::string& action,
                                WidgetTargets& targets) {
    if (!open || ImGui::GetFrameCount() - closedAtFrame < kFramesBeforeReopening) return UnsavedChoice::Pending;
    // The key that asked (Esc quits) must not also answer: Esc cancels from the next frame on.
    bool justOpened = !ImGui::IsPopupOpen(kTitle);
    if (justOpened) ImGui::OpenPopup(kTitle);
    UnsavedChoice choice = UnsavedChoice::Pending;
    ImGuiIO& io = ImGui::GetIO();
    ImGui::SetNextWindowPos({0.5f * io.DisplaySize.x, 0.4f * io.DisplaySize.y}, ImGuiCond_Always, {0.5f, 0.5f});
    if (ImGui::BeginPopupModal(kTitle, nullptr, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings)) {
        wantGlyphs(rigName);
        ImGui::Text("%s has unsaved edits.", rigName.c_str());
        ImGui::Text("Save them before you %s?", action.c_str());
        ImGui::Spacing();
        if (ImGui::Button("Save", {kButtonWidth, 0})) choice = UnsavedChoice::Save;
        targets.remember("dialog:save");
        ImGui::SameLine();
        if (ImGui::Button("Discard", {kButtonWidth, 0})) choice = UnsavedChoice::Discard;
        targets.remember("dialog:discard");
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("Lose the edits and %s", action.c_str());
        ImGui::SameLine();
        if (ImGui::Button("Cancel", {kButtonWidth, 0}) ||
            (!justOpened && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))))
            choice = UnsavedChoice::Cancel;
        targets.remember("dialog:cancel");
        if (choice != UnsavedChoice::Pending) {
            open = false;
            closedAtFrame = ImGui::GetFrameCount();
        }
        endDialog(choice != UnsavedChoice::Pending);
    }
    return choice;
}

}  // namespace paper::editor
