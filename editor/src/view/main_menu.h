// The menu bar: File (Open…, Save, Save As…, Quit) and View (sprites, bones, body outlines,
// every joint's gizmo, Follow); the Open dialog, which lists the files of the plugin's asset
// types beside the one being edited and in the content folder, or takes a path; and the Save
// As dialog, which takes a path (a name alone: beside the file being edited) and asks before
// replacing another file. Items and the dialogs' widgets are widget targets ("menu:file",
// "menu:open", "open:stickman.rig.xml", "open:open", "menu:save_as", "save_as:path",
// "save_as:save", "save_as:replace", …).
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
    std::string label;                    ///< what they are called, as a title ("Rig")
    std::string noun;                     ///< the same in running text ("rig": view/label_text.h)
};

struct MainMenuState {
    bool openDialog = false;                     ///< the Open dialog is showing
    std::vector<std::filesystem::path> files;    ///< what it lists (found when it opens)
    std::string path;                            ///< the file chosen or typed
    char pathBuffer[1024] = {};                  ///< the dialog's text field
    std::string openError;                       ///< why the last choice was refused, shown in the dialog
    bool openFocusPath = false;                  ///< the path field takes the keys next frame

    bool saveAsDialog = false;         ///< the Save As dialog is showing
    char saveAsBuffer[1024] = {};      ///< its text field
    std::string saveAsReplace;         ///< a file that exists, waiting for Replace or Cancel
    std::string saveAsError;           ///< why the last choice was refused, shown in the dialog
    /// The path field takes the keys next frame: when the dialog opens, and again after a
    /// refusal or a Cancel of Replace (Return left the field), so the name can be fixed.
    bool saveAsFocusPath = false;
};

/// What the user chose in the menu or dialog this frame.
struct MainMenuActions {
    bool save = false;
    bool quit = false;
    std::string open;  ///< a file to open instead of the current one, or empty
    std::string saveAs;           ///< Save As: the path typed (as typed), or empty
    bool replaceConfirmed = false;  ///< Save As: Replace was pressed for saveAs, which exists
};

/// Draws the menu bar (and the Open dialog while it shows).
MainMenuActions drawMainMenu(MainMenuState& state, ViewOptions& view, bool dirty, const OpenChoices& choices,
                             WidgetTargets& targets);
/// Opens the Open dialog (Ctrl+O), listing the files as drawMainMenu does.
void openDialog(MainMenuState& state, const OpenChoices& choices);
/// Closes the Open dialog after a choice the editor takes (opened, or asked about unsaved
/// edits): gone from the next frame.
void closeOpenDialog(MainMenuState& state);
/// Keeps the Open dialog after a refused choice: the files listed again, the path kept and
/// the reason shown in it.
void refuseOpen(MainMenuState& state, const OpenChoices& choices, const std::string& typed, std::string why);
/// Opens the Save As dialog (Ctrl+Shift+S) with an empty path.
void openSaveAsDialog(MainMenuState& state);
/// The Save As dialog's answer to a choice: ask to replace the existing file at path (the
/// dialog stays), say why it was refused (it stays), or close it (saved).
void askToReplace(MainMenuState& state, const std::string& path);
void refuseSaveAs(MainMenuState& state, std::string why);
void closeSaveAsDialog(MainMenuState& state);
/// What the Save As dialog says while it shows, a line each (its message, or its question
/// over an existing file; then a refusal, whole); empty when it is closed.
std::string saveAsDialogText(const MainMenuState& state, const OpenChoices& choices);

}  // namespace paper::editor
