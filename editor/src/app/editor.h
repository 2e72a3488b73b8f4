// One editing session of `paperdoll_editor`: the window, the plugin's level, the selection,
// the edit history and the panels. run() is the frame loop; its order is the frame's order:
// events, script, ImGui frame, keys, viewport (hover, picking, the gizmo), simulation,
// drawing, screenshots. The panels live in view/ and hand back what the user asked for;
// the Editor applies it, so every edit reaches the history the same way.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "model/edit_history.h"
#include "app/editor_options.h"
#include "app/editor_script.h"
#include "paper/framing.h"
#include "model/object_ref.h"
#include "paper/player_input.h"
#include "paper/input.h"
#include "paper/window.h"
#include "paper/descriptor.h"
#include "paper/camera.h"
#include "view/body_outlines.h"
#include "view/inspector_panel.h"
#include "view/joint_gizmo.h"
#include "view/main_menu.h"
#include "view/plugin_panels.h"
#include "view/simulate_panel.h"
#include "view/widget_targets.h"
#include "paper/level.h"

namespace paper {
class PluginHost;
}

namespace paper::editor {

/// Pixels the status line adds round its text (the viewport's insets leave room for it).
inline constexpr float kStatusPaddingPixels = 4.0f;
/// How near the last selecting click, screen pixels, a click counts as in the same place
/// (and selects the next object there).
inline constexpr float kRepeatClickPixels = 4.0f;

/// The editor's own keys, on top of the player's (PlayerBindings: Esc quits, Home resets
/// the view, F5 reloads the plugin; the game keys reach the plugin while it plays).
struct EditorBindings {
    ActionId ctrl, shift, space, undo, redo, save, open, quit, playPause, step, frameSelected;
    /// Keys a scripted run hands to Dear ImGui too (ending a typed entry, closing a dialog).
    ActionId enter, backspace;

    explicit EditorBindings(InputMap& input);
};

/// The keys a scripted run hands ImGui itself (Enter, Backspace, Escape): as shown last
/// frame, and the presses still to show, oldest first (Editor::showScriptedKeys).
inline constexpr int kScriptedImGuiKeys = 3;
struct ScriptedKeys {
    std::array<bool, kScriptedImGuiKeys> down{};
    std::vector<int> queued;
};

class Editor {
public:
    /// level: the level as loaded (--asset already applied to its first spawn); the editor keeps
    /// its own copy, since opening another asset changes it. script may be null.
    Editor(const EditorOptions& options, Level level, PluginHost& plugin, std::vector<PluginDescriptor> found,
           const Script* script, std::ostream& err);

    /// Runs until quit; returns the exit status (0, or 1 for a failed run or expect).
    int run();

private:
    /// What waits for the answer to the unsaved-changes question.
    enum class PendingAction { None, Quit, Open };

    // ---- the frame ---------------------------------------------------------------------
    /// Hands the window the texts users named that this frame shows (paper::wantGlyphs).
    void wantGlyphsShown();
    void beginImGuiFrame();
    void showScriptedKeys();
    void handleKeys();
    void handleViewport();
    /// What a click at mousePixels selects of the objects under it: the first, or in the
    /// place of the last selecting click the one after the selection.
    ObjectRef clickTarget(const std::vector<ObjectRef>& under, Vec2 mousePixels) const;
    void simulate();
    void drawPanels();
    void drawJointsPanel();
    void drawStatusBar();
    void updateTitle();

    // ---- actions -----------------------------------------------------------------------
    void select(const ObjectRef& object);
    /// The starting frame: the first character whole, feet and ground above the status line.
    void resetView();
    /// The first spawn's bounds (the bodies of its objects), metres; around the spawn before it has any.
    Rect firstCharacterBox() const;
    /// firstCharacterBox with the first spawn's pole and flag.
    Rect characterAndFlagBox() const;
    /// The strip the Simulate panel covers at the window's right, and its gap, camera pixels;
    /// 0 before it is laid out.
    float underSimulatePanel() const;
    /// The spawns' labels, each moved to the left of its pole where it would run under the
    /// Simulate panel.
    std::vector<ScreenText> spawnLabelsClearOfPanels() const;
    /// From the Joints panel's right edge to the Simulate panel's left (with its gap), camera
    /// pixels: the world the side panels leave in view at their height (as laid out last frame).
    struct Span {
        float left = 0.0f, right = 0.0f;
    };
    Span betweenSidePanels() const;
    /// How wide a label is drawn, camera pixels.
    static float labelWidth(const ScreenText& label);
    /// The strips of the view the menu bar and the status line cover, and the side panels
    /// standing beside box (metres): those whose rows on screen meet its rows.
    ViewInsets insets(Rect box) const;
    void frameSelected();
    void undo();
    void redo();
    bool save();
    /// File > Save As: writes the asset with its edits to the file typed (a name alone:
    /// beside the current one), through the plugin's save as Save does, then edits that file.
    /// A folder, a name of another kind, a missing folder, a symbolic link to nothing or in a
    /// loop, or a write the plugin refuses is said in the dialog, which stays; an existing
    /// file is replaced only once confirmed (through a symbolic link: the file it names).
    void saveAs(const std::string& typed, bool replaceConfirmed);
    /// The file Save As writes for what was typed, or empty with why not.
    std::filesystem::path saveAsTarget(const std::string& typed, std::string& why) const;
    /// Save As's write: the asset with its edits to target, only if the plugin can open it
    /// there, into file (target itself, or the file a symbolic link at target names); empty,
    /// or why not (nothing is left at target then, an existing file untouched).
    std::string writeCheckedCopy(const std::filesystem::path& target, const std::filesystem::path& file);
    /// The first spawn's asset becomes the file at path, read by the plugin (back at rest),
    /// and the file edited. False with why when the plugin cannot read it: the current asset
    /// is read again then, with the edits in the history applied.
    bool switchAsset(const std::string& path, std::string& why);
    void reloadPlugin();
    /// Ends a handle drag in progress, if any, with the joint's limits put back where the
    /// drag began: an interrupted drag is no edit (none in the history, no `*`). True when
    /// there was one.
    bool cancelDrag();
    /// Rebuilds the level in the plugin (back at rest) and applies the edits in the history
    /// again: the plugin reads the asset from its file, without the unsaved edits.
    void resetWorld();
    /// What the asset's file holds now for an edit's joint or property (EditHistory::rebaseOnFile).
    bool fileValueOf(Edit& value);
    /// After a plugin reload: when another program had changed the asset (changedOnDisk, as
    /// it was before the reload) and the history holds edits, reads it again as Reset does,
    /// so Undo leads to the file's values; true when it did (and said so).
    bool readChangedAssetAgain(bool changedOnDisk);
    /// Quit or open another asset now, or ask first when there are unsaved edits.
    void request(PendingAction action, std::string asset = "");
    void carryOut(PendingAction action);
    /// Replaces the first spawn's asset with the file at path (a fresh history); on failure
    /// the current one stays, with a message.
    void openAsset(const std::string& path);
    /// The Open dialog's choice (a path typed, or a file listed): checked before the unsaved
    /// edits are asked about, then opened; refused, the dialog stays with the path and why.
    void chooseToOpen(const std::string& typed);
    /// The current asset's type's file pattern ("*.rig.xml"), or empty.
    std::string assetPattern() const;
    /// The file a path chosen or typed in the Open dialog names: a relative one beside the
    /// current file, as Save As takes it, when one is there; else from the working directory.
    /// A name without an ending gets the current asset's, as in Save As.
    std::string openPathOf(const std::string& typed) const;
    /// Why the file at path cannot be opened in place of the current one, or empty.
    std::string cannotOpen(const std::string& path);
    /// Applies one edit's `after` (redo) or `before` (undo); false with a message when it
    /// cannot (the joint, body or property is gone).
    bool applyEdit(const Edit& edit, bool after, std::string& error);
    /// Applies each edit's `after`, in order; the last failure, or empty.
    std::string applyEdits(const std::vector<Edit>& edits);
    /// Brings a world just built from the asset's file (the plugin given the level afresh) to
    /// what the user sees: EditHistory::overFile; the last failure, or empty.
    std::string applyEditsOverFile();
    void recordEdit(const Edit& edit);
    /// Sets a joint's limits (undo, redo); false when the plugin has no such joint now.
    bool setLimits(const ObjectRef& joint, JointLimits limits);
    /// Binds the plugin's action keys and chooses its plots when the library changed.
    void syncWithPlugin();
    /// What the Open dialog lists: the plugin's asset types.
    OpenChoices openChoices() const;
    /// The file watcher's reload, when the library changed, said in the status line.
    void reloadIfChanged();
    /// The asset file's modification time and size as the plugin last read or wrote it
    /// (nullopt: not there); noticeAssetChange compares the file with it every frame.
    struct AssetStamp {
        std::filesystem::file_time_type written;
        std::uintmax_t size = 0;
        bool operator==(const AssetStamp&) const = default;
    };
    static std::optional<AssetStamp> stampOf(const std::string& path);
    /// The plugin has just read or written the asset: its stamp now is the one to compare with.
    void assetRead();
    /// Whether another program changed the asset file since the plugin last read or wrote it.
    bool assetChangedSinceRead() const;
    /// Says in the status line, once per change, that another program changed the asset on
    /// disk: a save would be refused until Reset or F5 reads it again.
    void noticeAssetChange();
    void report(std::string message, bool error) {
        message_ = std::move(message);
        messageIsError_ = error;
    }

    // ---- script commands (editor_script_commands.cpp) ----------------------------------
    bool runScriptCommand(const ScriptCommand& command, std::string& error);
    bool moveToTarget(const ScriptCommand& command, std::string& error);
    bool selectByName(const ScriptCommand& command, std::string& error);
    bool expectLimit(const ScriptCommand& command, std::string& error);
    bool expectObjectProperty(const ScriptCommand& command, std::string& error);
    bool expectObject(const ScriptCommand& command, std::string& error);
    bool expectPlots(const ScriptCommand& command, std::string& error);
    bool expectState(const ScriptCommand& command, std::string& error);
    bool expectView(const ScriptCommand& command, std::string& error);
    /// `expect dialog on top`: a dialog was drawn in the last frame, in front of every panel.
    bool expectDialogOnTop(std::string& error) const;
    /// The title of a dialog ImGui drew in the last frame, or "" (asked between two frames).
    std::string dialogDrawnLastFrame() const;
    /// The object a script names: "joint NAME", "body NAME", or any of the plugin's kinds and
    /// an object's name; nullopt with the reason.
    std::optional<ObjectRef> objectNamed(const std::string& kind, const std::string& name, std::string& error) const;
    std::string jointNames() const;
    std::string bodyNames() const;

    const EditorOptions& options_;
    Level level_;
    PluginHost& plugin_;
    std::string assetPath_;                ///< the file being edited: the first spawn's asset
    std::optional<AssetStamp> assetReadStamp_;  ///< assetPath_ as the plugin last read or wrote it
    std::optional<AssetStamp> assetStamp_;      ///< assetPath_ as last said (noticeAssetChange)
    std::filesystem::path contentFolder_;  ///< content/, for the Open dialog (may be empty)
    int pluginGeneration_ = -1;            ///< the plugin library the bindings and plots are for
    int seenRollbacks_ = 0;                ///< the plugin's rollbacks the edits were applied again after
    bool wasRunning_ = false;              ///< whether the plugin ran at the last generation seen
    /// The edits applied when the plugin last took a generation (a reload's state holds
    /// them): a rollback to that state undoes these before applying today's.
    std::vector<Edit> editsAtReload_;
    std::ostream& err_;
    const Script* script_ = nullptr;
    std::optional<EditorScriptRunner> runner_;

    Window window_;
    InputMap input_;
    PlayerBindings player_{input_};
    EditorBindings keys_{input_};
    ScriptedKeys scriptedKeys_;
    Camera camera_;
    JointGizmoTool gizmo_;
    EditHistory history_;
    std::vector<JointView> joints_;
    std::vector<BodyView> bodies_;
    ObjectRef selection_;
    ObjectRef hovered_;  ///< what a click would select (clickTarget)
    Vec2 lastPickPixels_{-1e9f, -1e9f};  ///< where the last click that selected was, screen pixels

    std::int64_t frame_ = 0;
    bool quit_ = false;
    bool leftWasDown_ = false;
    bool leftPressInWorld_ = false;  ///< the left press began over the world, not a panel
    /// The snap of the handle drag's last frame with the button down: the release keeps it, so
    /// a Ctrl or Shift let go in the same frame as the button does not move the limit shown.
    SnapMode dragSnap_ = SnapMode::Default;
    bool editorOwnsPress_ = false;   ///< the editor took the current left press: the plugin must not grab
    std::string message_ = "Click a joint's pivot or a body to inspect it; drag a gizmo's handles.";
    bool messageIsError_ = false;
    std::string title_;
    std::string statusText_;  ///< the status line as drawn last frame (state and message)
    float jointsPanelWidth_ = 0.0f;  ///< pixels, as drawn last frame
    InspectorPlace inspectorPlace_;  ///< the Joints and Simulate panels' edges this frame
    float statusTop_ = 0.0f;         ///< the status line's top edge last frame, pixels
    std::vector<const ScriptCommand*> screenshots_;
    std::string typedText_;  ///< a script's `type`, handed to ImGui at the next frame

    SimulateState simulation_;
    ViewOptions view_;
    MainMenuState menu_;
    PluginPanelState pluginPanel_;
    std::string firstLoadedAt_;  ///< the Plugin panel's load time at start: the first library's
    TuningState tuning_;
    InspectorState inspector_;
    WidgetTargets targets_;
    bool askUnsaved_ = false;  ///< the unsaved-changes question is open
    PendingAction pending_ = PendingAction::None;
    std::string pendingAsset_;  ///< PendingAction::Open's file
};

}  // namespace paper::editor
