// The menu bar: File (Open rig…, Save, Quit) and View (body outlines, every joint's gizmo,
// Follow),
// and the Open rig dialog, which lists the rigs beside the one being edited and in the
// content folder, or takes a path. Items and the dialog's widgets are widget targets
// ("menu:file", "menu:open_rig", "open:stickman.rig.xml", "open:open", …).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace paper::editor {

class WidgetTargets;

/// What the View menu toggles.
struct ViewOptions {
    bool bodyOutlines = true;  ///< every body's outline over the bones
    bool allGizmos = false;    ///< every joint's gizmo, not only the selected one's
    bool follow = true;        ///< while playing, the camera keeps the first character in view
};

struct MainMenuState {
    bool openDialog = false;                     ///< the Open rig dialog is showing
    std::vector<std::filesystem::path> rigs;     ///< what it lists (found when it opens)
    std::string path;                            ///< the rig chosen or typed
    char pathBuffer[1024] = {};                  ///< the dialog's text field
};

/// What the user chose in the menu or dialog this frame.
struct MainMenuActions {
    bool save = false;
    bool quit = false;
    std::string openRig;  ///< a rig file to open instead of the current one, or empty
};

/// Draws the menu bar (and the Open rig dialog while it shows). currentRig: the file being
/// edited (its folder is listed first); contentRigs: the content folder's rigs/, or empty.
MainMenuActions drawMainMenu(MainMenuState& state, ViewOptions& view, bool dirty,
                             const std::filesystem::path& currentRig, const std::filesystem::path& contentRigs,
                             WidgetTargets& targets);
/// Opens the Open rig dialog (Ctrl+O), listing the rigs as drawMainMenu does.
void openRigDialog(MainMenuState& state, const std::filesystem::path& currentRig,
                   const std::filesystem::path& contentRigs);

}  // namespace paper::editor
