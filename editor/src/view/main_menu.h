// The menu bar: File (Open…, Save, Quit) and View (sprites, bones, body outlines, every
// joint's gizmo, Follow), and the Open dialog, which lists the files of the plugin's asset types beside the
// one being edited and in the content folder, or takes a path. Items and the dialog's widgets
// are widget targets ("menu:file", "menu:open", "open:stickman.rig.xml", "open:open", …).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace paper::editor {

class WidgetTargets;

/// What the View menu toggles.
struct ViewOptions {
    bool art = true;           ///< the plugin's art (sprites, shapes): what a player sees
    bool bones = false;        ///< the plugin's bones over its art
    bool bodyOutlines = true;  ///< every body's outline over the bones
    bool allGizmos = false;    ///< every joint's gizmo, not only the selected one's
    bool follow = true;        ///< while playing, the camera keeps the first spawn's objects in view
};

/// What the Open dialog offers: files of the plugin's asset types.
struct OpenChoices {
    std::filesystem::path current;        ///< the file being edited (its folder is listed first)
    std::filesystem::path contentFolder;  ///< content/, or empty
    std::vector<std::string> patterns;    ///< the asset types' file patterns ("*.rig.xml")
    std::string label;                    ///< what they are called ("Rig")
};

struct MainMenuState {
    bool openDialog = false;                     ///< the Open dialog is showing
    std::vector<std::filesystem::path> files;    ///< what it lists (found when it opens)
    std::string path;                            ///< the file chosen or typed
    char pathBuffer[1024] = {};                  ///< the dialog's text field
};

/// What the user chose in the menu or dialog this frame.
struct MainMenuActions {
    bool save = false;
    bool quit = false;
    std::string open;  ///< a file to open instead of the current one, or empty
};

/// Draws the menu bar (and the Open dialog while it shows).
MainMenuActions drawMainMenu(MainMenuState& state, ViewOptions& view, bool dirty, const OpenChoices& choices,
                             WidgetTargets& targets);
/// Opens the Open dialog (Ctrl+O), listing the files as drawMainMenu does.
void openDialog(MainMenuState& state, const OpenChoices& choices);

}  // namespace paper::editor
