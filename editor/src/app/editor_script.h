// The editor's scripts: the player's format (engine/src/app/script.h) plus editor commands
// through its extension hook:
//   mouse move target joint NAME lower|upper|pivot   the mouse onto that handle (or the pivot)
//   mouse move target joint NAME angle DEGREES       the mouse onto the arc at that joint angle
//   mouse move target body NAME                      the mouse onto a point of the body (bone)
//                                                    NAME that a click selects, away from joints
//   mouse move target widget NAME [FRACTION]         the mouse onto a panel widget (its centre,
//                                                    or FRACTION of the way across a slider)
//   select joint|body NAME                           as a click in the joint list or on the body
//   type TEXT                                        characters into the text field being edited
//                                                    (Ctrl+click on a slider opens one); then
//                                                    `key press Return` ends the entry
//   expect joint NAME lower|upper DEGREES [TOLERANCE]   fails the run (exit 1) if not within
//                                                       TOLERANCE degrees (default 0.05)
//   expect property NAME VALUE [TOLERANCE]           a plugin property (tuning panel)
//   expect property joint|body NAME PROPERTY VALUE [TOLERANCE]
//                                                    a joint's or body's property (inspector)
//   expect hovered joint|body NAME  /  none          what the mouse is over in the viewport
//   expect selected joint|body NAME  /  none         what is selected (the inspector shows it)
//   expect dialog unsaved | none                     the unsaved-changes question is (not) open
//   expect plots N                                   each live plot holds N samples, the newest
//                                                    equal to the plugin's figures now
//   expect reloads N                                 the plugin's successful hot reloads
//   expect blend WEIGHT [TOLERANCE]                  the first character's blend weight
//   expect mode MODE                                 the first character's mode
//   expect dirty | clean                             the rig has (no) unsaved edits
//
// Unlike the player, the editor runs every command in file order at its frame, so a named
// target moves the mouse before the `mouse down` written after it. One frame is one script
// step (`wait 1` = 60 frames). Like `screenshot`, `expect` sees the editor as the frames
// before it left it: write `wait_frames 1` after an input to check what it did.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "paper/script.h"

namespace paper {
class InputMap;
struct Camera;
}  // namespace paper

namespace paper::editor {

/// `mouse move target joint NAME …`: the editor's extension of the `mouse` command.
inline bool isMouseTarget(const std::vector<std::string>& words) {
    return words.size() >= 3 && words[0] == "mouse" && words[1] == "move" && words[2] == "target";
}

/// Reads and parses an editor script: the engine's Script::load with the editor's commands.
/// A missing or unreadable file is one error at line 0.
Script loadEditorScript(const std::string& path, std::vector<ScriptError>& errors);

/// The hook that claims and checks the editor's commands (ScriptExtensionHook).
bool parseEditorScriptCommand(const std::vector<std::string>& words, std::string& error);

/// Runs a script's commands, in file order, at the frames they fall due.
class EditorScriptRunner {
public:
    /// What the runner cannot do by itself: named targets, asserts, selection, screenshots
    /// and quit. Returns false with a message to stop the run (exit status 1).
    using Handler = std::function<bool(const ScriptCommand& command, std::string& error)>;

    /// script must outlive the runner.
    explicit EditorScriptRunner(const Script& script) : script_(script) {}

    /// Applies every command due at or before frame (from 0): key and mouse input into
    /// input (world positions through camera), everything else through handler. False with
    /// error ("message", no file or line) when the handler stopped the run; failedLine() says where.
    bool run(std::int64_t frame, InputMap& input, const Camera& camera, const Handler& handler, std::string& error);
    int failedLine() const { return failedLine_; }
    /// Whether every command has run and every key pressed has been released.
    bool done() const { return next_ >= script_.commands().size() && releases_.empty(); }
    /// The first command not yet run, null when every one has.
    const ScriptCommand* next() const { return next_ < script_.commands().size() ? &script_.commands()[next_] : nullptr; }

private:
    const Script& script_;
    std::size_t next_ = 0;
    int failedLine_ = 0;
    struct Release {
        std::int64_t frame;
        std::int32_t keycode;
    };
    std::vector<Release> releases_;
};

}  // namespace paper::editor
