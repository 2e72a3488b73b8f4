#include "view/main_menu.h"

#include "view/long_text.h"

#include <imgui.h>

#include <algorithm>
#include <cstring>
#include <system_error>

#include "view/widget_targets.h"

namespace paper::editor {

namespace fs = std::filesystem;

namespace {

constexpr const char* kOpenTitle = "Open rig";

/// The *.rig.xml files in folder, sorted by name; nothing when it cannot be read.
void addRigsIn(const fs::path& folder, std::vector<fs::path>& rigs) {
    std::error_code ec;
    if (folder.empty() || !fs::is_directory(folder, ec)) return;
    std::vector<fs::path> found;
    for (const fs::directory_entry& entry : fs::directory_iterator(folder, ec)) {
        std::string name = entry.path().filename().string();
        if (name.size() > 8 && name.ends_with(".rig.xml")) found.push_back(fs::weakly_canonical(entry.path(), ec));
    }
    std::sort(found.begin(), found.end());
    for (const fs::path& rig : found)
        if (std::find(rigs.begin(), rigs.end(), rig) == rigs.end()) rigs.push_back(rig);
}

void setPath(MainMenuState& state, const std::string& path) {
    state.path = path;
    std::strncpy(state.pathBuffer, path.c_str(), sizeof state.pathBuffer - 1);
    state.pathBuffer[sizeof state.pathBuffer - 1] = '\0';
}

/// The dialog: a rig list and a path; returns the rig to open once Open is pressed.
std::string drawOpenDialog(MainMenuState& state, const fs::path& currentRig, WidgetTargets& targets) {
    std::string chosen;
    bool justOpened = state.openDialog && !ImGui::IsPopupOpen(kOpenTitle);
    if (justOpened) ImGui::OpenPopup(kOpenTitle);
    ImGuiIO& io = ImGui::GetIO();
    ImGui::SetNextWindowPos({0.5f * io.DisplaySize.x, 0.4f * io.DisplaySize.y}, ImGuiCond_Always, {0.5f, 0.5f});
    if (!ImGui::BeginPopupModal(kOpenTitle, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return chosen;
    ImGui::TextDisabled("Rigs beside this one and in content/rigs:");
    std::vector<std::string> listed;  // file names already targets: the first (beside this rig) keeps the name
    for (const fs::path& rig : state.rigs) {
        std::string name = rig.filename().string();
        std::string folder = rig.parent_path().parent_path().filename().string() + "/" +
                             rig.parent_path().filename().string();
        std::string label = name + (rig == currentRig ? "  (open now)" : "") + "##" + rig.string();
        if (ImGui::Selectable(label.c_str(), state.path == rig.string(), ImGuiSelectableFlags_DontClosePopups))
            setPath(state, rig.string());
        if (std::find(listed.begin(), listed.end(), name) == listed.end()) {
            targets.remember("open:" + name);
            listed.push_back(name);
        }
        if (ImGui::IsItemHovered()) wholeTooltip(rig.string());
        ImGui::SameLine(300.0f);
        ImGui::TextDisabled("%s", folder.c_str());
    }
    ImGui::SetNextItemWidth(420.0f);
    if (ImGui::InputText("Path", state.pathBuffer, sizeof state.pathBuffer)) state.path = state.pathBuffer;
    targets.remember("open:path");
    ImGui::BeginDisabled(state.path.empty());
    if (ImGui::Button("Open", {90, 0})) chosen = state.path;
    targets.remember("open:open");
    ImGui::EndDisabled();
    ImGui::SameLine();
    if (ImGui::Button("Cancel", {90, 0}) || (!justOpened && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))))
        state.openDialog = false;
    targets.remember("open:cancel");
    if (!chosen.empty()) state.openDialog = false;
    if (!state.openDialog) ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
    return chosen;
}

}  // namespace

void openRigDialog(MainMenuState& state, const fs::path& currentRig, const fs::path& contentRigs) {
    state.openDialog = true;
    state.rigs.clear();
    addRigsIn(currentRig.parent_path(), state.rigs);
    addRigsIn(contentRigs, state.rigs);
    setPath(state, "");
}

MainMenuActions drawMainMenu(MainMenuState& state, ViewOptions& view, bool dirty, const fs::path& currentRig,
                             const fs::path& contentRigs, WidgetTargets& targets) {
    MainMenuActions actions;
    bool openClicked = false;
    if (ImGui::BeginMainMenuBar()) {
        bool fileOpen = ImGui::BeginMenu("File");
        targets.remember("menu:file");
        if (fileOpen) {
            if (ImGui::MenuItem("Open rig...", "Ctrl+O")) openClicked = true;
            targets.remember("menu:open_rig");
            if (ImGui::MenuItem(dirty ? "Save *" : "Save", "Ctrl+S")) actions.save = true;
            targets.remember("menu:save");
            ImGui::Separator();
            if (ImGui::MenuItem("Quit", "Ctrl+Q")) actions.quit = true;
            targets.remember("menu:quit");
            ImGui::EndMenu();
        }
        bool viewOpen = ImGui::BeginMenu("View");
        targets.remember("menu:view");
        if (viewOpen) {
            ImGui::MenuItem("Body outlines", nullptr, &view.bodyOutlines);
            targets.remember("menu:outlines");
            ImGui::MenuItem("Every joint's gizmo", nullptr, &view.allGizmos);
            targets.remember("menu:all_gizmos");
            ImGui::MenuItem("Follow character", nullptr, &view.follow);
            targets.remember("menu:follow");
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("While playing, keep the first character in view");
            ImGui::EndMenu();
        }
        ImGui::EndMainMenuBar();
    }
    // Opened outside the menu's ID scope, or the popup would never be found again.
    if (openClicked) openRigDialog(state, currentRig, contentRigs);
    actions.openRig = drawOpenDialog(state, currentRig, targets);
    return actions;
}

}  // namespace paper::editor
