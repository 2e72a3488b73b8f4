#include "view/main_menu.h"

#include "view/long_text.h"

#include <imgui.h>

#include <algorithm>
#include <cstring>
#include <string_view>
#include <system_error>
#include <utility>

#include "paper/plugin_host.h"
#include "view/label_text.h"
#include "view/modal_dialog.h"
#include "view/widget_targets.h"
#include "paper/window.h"

namespace paper::editor {

namespace fs = std::filesystem;

namespace {

constexpr const char* kOpenTitle = "Open###open_dialog";
constexpr const char* kSaveAsTitle = "Save As###save_as_dialog";
constexpr float kDialogButtonWidth = 90.0f;  ///< pixels
constexpr float kDialogWrapWidth = 480.0f;   ///< pixels: where the Save As dialog's message wraps
constexpr int kDialogErrorLines = 8;         ///< lines of a refusal the Save As dialog shows

/// Whether name matches one of the patterns.
bool matchesAny(const std::vector<std::string>& patterns, const std::string& name) {
    return std::any_of(patterns.begin(), patterns.end(), [&](const std::string& p) { return matchesPattern(p, name); });
}

/// The files in folder (and its subfolders, to depth levels) whose names match, sorted;
/// nothing when it cannot be read.
void addFilesIn(const fs::path& folder, const std::vector<std::string>& patterns, int depth, std::vector<fs::path>& files) {
    std::error_code ec;
    if (folder.empty() || !fs::is_directory(folder, ec)) return;
    std::vector<fs::path> found;
    for (fs::recursive_directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
        if (it.depth() >= depth) it.disable_recursion_pending();
        if (it->is_regular_file(ec) && matchesAny(patterns, it->path().filename().string()))
            found.push_back(fs::weakly_canonical(it->path(), ec));
    }
    std::sort(found.begin(), found.end());
    for (const fs::path& file : found)
        if (std::find(files.begin(), files.end(), file) == files.end()) files.push_back(file);
}

/// Inside an open menu: Esc closes it (ImGui does so only with keyboard navigation on).
void closeOnEscape() {
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) ImGui::CloseCurrentPopup();
}

void setPath(MainMenuState& state, const std::string& path) {
    state.path = path;
    std::strncpy(state.pathBuffer, path.c_str(), sizeof state.pathBuffer - 1);
    state.pathBuffer[sizeof state.pathBuffer - 1] = '\0';
}

/// A refusal's first lines in red under a dialog's path, all of them on hover.
void drawDialogError(const std::string& error) {
    if (error.empty()) return;
    // A plugin's reasons can run to a line for each clip: the first lines here (the dialog
    // fits a small window), all of them on hover and in the log.
    const std::string shown = firstLines(error, kDialogWrapWidth, kDialogErrorLines);
    wantGlyphs(shown);
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4{1.0f, 0.45f, 0.4f, 1.0f});
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + kDialogWrapWidth);
    ImGui::TextUnformatted(shown.c_str(), shown.c_str() + shown.size());
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
    if (ImGui::IsItemHovered() && shown != error) wholeTooltip(error);
}

/// The dialog: a file list and a path; returns the file to open once Open is pressed (or
/// Return typed). It stays open: the Editor closes it (closeOpenDialog) or says why not
/// (refuseOpen), as Save As does; closed and opened again, it was missing for a frame.
std::string drawOpenDialog(MainMenuState& state, const OpenChoices& choices, WidgetTargets& targets) {
    std::string chosen;
    if (!state.openDialog) closeDialogNow(kOpenTitle);
    bool justOpened = state.openDialog && !ImGui::IsPopupOpen(kOpenTitle);
    if (justOpened) ImGui::OpenPopup(kOpenTitle);
    ImGuiIO& io = ImGui::GetIO();
    ImGui::SetNextWindowPos({0.5f * io.DisplaySize.x, 0.4f * io.DisplaySize.y}, ImGuiCond_Always, {0.5f, 0.5f});
    if (!ImGui::BeginPopupModal(kOpenTitle, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return chosen;
    ImGui::TextDisabled("%s files beside this one and in content/:", atSentenceStart(choices.noun).c_str());
    std::vector<std::string> listed;  // file names already targets: the first (beside this file) keeps the name
    for (const fs::path& file : state.files) {
        std::string name = file.filename().string();
        std::string folder = file.parent_path().parent_path().filename().string() + "/" +
                             file.parent_path().filename().string();
        std::string label = name + (file == choices.current ? "  (open now)" : "") + "##" + file.string();
        wantGlyphs(file.string());
        if (ImGui::Selectable(label.c_str(), state.path == file.string(), ImGuiSelectableFlags_DontClosePopups))
            setPath(state, file.string());
        if (std::find(listed.begin(), listed.end(), name) == listed.end()) {
            targets.remember("open:" + name);
            listed.push_back(name);
        }
        if (ImGui::IsItemHovered()) wholeTooltip(file.string());
        ImGui::SameLine(300.0f);
        ImGui::TextDisabled("%s", folder.c_str());
    }
    ImGui::SetNextItemWidth(420.0f);
    // Typing goes to the path as soon as the dialog shows, as in Save As.
    if (std::exchange(state.openFocusPath, false)) ImGui::SetKeyboardFocusHere();
    // Return in the path opens it, as the Open button does (it did nothing).
    const bool entered = ImGui::InputText("Path", state.pathBuffer, sizeof state.pathBuffer, ImGuiInputTextFlags_EnterReturnsTrue);
    state.path = state.pathBuffer;
    if (entered && !state.path.empty()) chosen = state.path;
    targets.remember("open:path");
    drawDialogError(state.openError);
    ImGui::BeginDisabled(state.path.empty());
    if (ImGui::Button("Open", {90, 0})) chosen = state.path;
    targets.remember("open:open");
    ImGui::EndDisabled();
    ImGui::SameLine();
    if (ImGui::Button("Cancel", {90, 0}) || (!justOpened && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))))
        state.openDialog = false;
    targets.remember("open:cancel");
    endDialog(!state.openDialog);
    return chosen;
}

/// Whether path is the file being edited.
bool isEdited(const std::string& path, const OpenChoices& choices) {
    std::error_code ec;
    return std::filesystem::equivalent(path, choices.current, ec);
}

/// The Save As dialog's question over an existing file (path), a line each: the one being
/// edited is a plain save, said as one.
std::vector<std::string> replaceQuestion(const std::string& path, const OpenChoices& choices) {
    if (isEdited(path, choices)) return {"'" + path + "' is the " + choices.noun + " being edited.", "Save your edits into it?"};
    return {"'" + path + "' exists.", "Replace it with this " + choices.noun + "?"};
}

/// The Save As dialog's message above its path, a line each.
std::vector<std::string> saveAsMessage(const OpenChoices& choices) {
    return {"Saves the " + choices.noun + " with its edits under another name, then edits that file;",
            "'" + choices.current.filename().string() + "' stays as it is. A name alone saves beside it."};
}

/// The Save As dialog: a path, then Save; over an existing file, Replace or Cancel. Puts
/// what was pressed in actions (saveAs and replaceConfirmed); the Editor answers with
/// askToReplace, refuseSaveAs or closeSaveAsDialog.
void drawSaveAsDialog(MainMenuState& state, const OpenChoices& choices, WidgetTargets& targets,
                      MainMenuActions& actions) {
    if (!state.saveAsDialog) closeDialogNow(kSaveAsTitle);
    const bool justOpened = state.saveAsDialog && !ImGui::IsPopupOpen(kSaveAsTitle);
    if (justOpened) ImGui::OpenPopup(kSaveAsTitle);
    ImGuiIO& io = ImGui::GetIO();
    ImGui::SetNextWindowPos({0.5f * io.DisplaySize.x, 0.4f * io.DisplaySize.y}, ImGuiCond_Always, {0.5f, 0.5f});
    if (!ImGui::BeginPopupModal(kSaveAsTitle, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
    const bool escape = !justOpened && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape));
    if (!state.saveAsReplace.empty()) {
        // The second step: the typed file exists. Cancel goes back to the path.
        for (const std::string& line : replaceQuestion(state.saveAsReplace, choices)) {
            wantGlyphs(line);
            ImGui::TextUnformatted(line.c_str());
        }
        if (ImGui::Button(isEdited(state.saveAsReplace, choices) ? "Save###replace" : "Replace###replace",
                          {kDialogButtonWidth, 0})) {
            actions.saveAs = state.saveAsReplace;
            actions.replaceConfirmed = true;
        }
        targets.remember("save_as:replace");
        ImGui::SameLine();
        if (ImGui::Button("Cancel", {kDialogButtonWidth, 0}) || escape) {
            state.saveAsReplace.clear();
            state.saveAsFocusPath = true;
        }
        targets.remember("save_as:cancel");
    } else {
        for (const std::string& line : saveAsMessage(choices)) {
            wantGlyphs(line);
            ImGui::TextDisabled("%s", line.c_str());
        }
        ImGui::SetNextItemWidth(420.0f);
        if (std::exchange(state.saveAsFocusPath, false)) ImGui::SetKeyboardFocusHere();
        const bool entered = ImGui::InputText("Path", state.saveAsBuffer, sizeof state.saveAsBuffer,
                                              ImGuiInputTextFlags_EnterReturnsTrue);
        targets.remember("save_as:path");
        const std::string path = state.saveAsBuffer;
        drawDialogError(state.saveAsError);
        ImGui::BeginDisabled(path.empty());
        if ((ImGui::Button("Save", {kDialogButtonWidth, 0}) || entered) && !path.empty()) actions.saveAs = path;
        targets.remember("save_as:save");
        ImGui::EndDisabled();
        ImGui::SameLine();
        if (ImGui::Button("Cancel", {kDialogButtonWidth, 0}) || escape) state.saveAsDialog = false;
        targets.remember("save_as:cancel");
    }
    endDialog(!state.saveAsDialog);
}

}  // namespace

void openSaveAsDialog(MainMenuState& state) {
    state.saveAsDialog = true;
    state.saveAsBuffer[0] = '\0';
    state.saveAsReplace.clear();
    state.saveAsError.clear();
    state.saveAsFocusPath = true;
}

void askToReplace(MainMenuState& state, const std::string& path) {
    state.saveAsReplace = path;
    state.saveAsError.clear();
}

void refuseSaveAs(MainMenuState& state, std::string why) {
    state.saveAsReplace.clear();
    state.saveAsError = std::move(why);
    state.saveAsFocusPath = true;
}

void closeSaveAsDialog(MainMenuState& state) {
    state.saveAsDialog = false;
    state.saveAsReplace.clear();
    state.saveAsError.clear();
}

std::string saveAsDialogText(const MainMenuState& state, const OpenChoices& choices) {
    if (!state.saveAsDialog) return {};
    std::string text;
    const std::vector<std::string> lines =
        state.saveAsReplace.empty() ? saveAsMessage(choices) : replaceQuestion(state.saveAsReplace, choices);
    for (const std::string& line : lines) text += line + "\n";
    // The refusal shows with the message (the question clears it).
    if (state.saveAsReplace.empty() && !state.saveAsError.empty()) text += state.saveAsError + "\n";
    return text;
}

void openDialog(MainMenuState& state, const OpenChoices& choices) {
    state.openDialog = true;
    state.files.clear();
    addFilesIn(choices.current.parent_path(), choices.patterns, 0, state.files);
    addFilesIn(choices.contentFolder, choices.patterns, 2, state.files);
    setPath(state, "");
    state.openError.clear();
    state.openFocusPath = true;
}

void closeOpenDialog(MainMenuState& state) { state.openDialog = false; }

void refuseOpen(MainMenuState& state, const OpenChoices& choices, const std::string& typed, std::string why) {
    openDialog(state, choices);
    setPath(state, typed);
    state.openError = std::move(why);
}

MainMenuActions drawMainMenu(MainMenuState& state, ViewOptions& view, bool dirty, const OpenChoices& choices,
                             WidgetTargets& targets) {
    MainMenuActions actions;
    bool openClicked = false, saveAsClicked = false;
    if (ImGui::BeginMainMenuBar()) {
        bool fileOpen = ImGui::BeginMenu("File");
        targets.remember("menu:file");
        if (fileOpen) {
            if (ImGui::MenuItem(("Open " + choices.label + "...").c_str(), "Ctrl+O")) openClicked = true;
            targets.remember("menu:open");
            if (ImGui::MenuItem(dirty ? "Save *" : "Save", "Ctrl+S")) actions.save = true;
            targets.remember("menu:save");
            if (ImGui::MenuItem("Save As...", "Ctrl+Shift+S")) saveAsClicked = true;
            targets.remember("menu:save_as");
            ImGui::Separator();
            if (ImGui::MenuItem("Quit", "Ctrl+Q")) actions.quit = true;
            targets.remember("menu:quit");
            closeOnEscape();
            ImGui::EndMenu();
        }
        bool viewOpen = ImGui::BeginMenu("View");
        targets.remember("menu:view");
        if (viewOpen) {
            ImGui::MenuItem("Sprites", nullptr, &view.art);
            targets.remember("menu:sprites");
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("The plugin's art: what a player sees");
            ImGui::MenuItem("Bones", nullptr, &view.bones);
            targets.remember("menu:bones");
            ImGui::MenuItem("Body outlines", nullptr, &view.bodyOutlines);
            targets.remember("menu:outlines");
            ImGui::MenuItem("Every joint's gizmo", nullptr, &view.allGizmos);
            targets.remember("menu:all_gizmos");
            ImGui::MenuItem("Follow", nullptr, &view.follow);
            targets.remember("menu:follow");
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("While playing, keep what the first spawn made in view");
            closeOnEscape();
            ImGui::EndMenu();
        }
        ImGui::EndMainMenuBar();
    }
    // Opened outside the menu's ID scope, or the popup would never be found again.
    if (openClicked) openDialog(state, choices);
    if (saveAsClicked) openSaveAsDialog(state);
    actions.open = drawOpenDialog(state, choices, targets);
    drawSaveAsDialog(state, choices, targets, actions);  // also when just closed: ImGui closes its popup
    return actions;
}

}  // namespace paper::editor
