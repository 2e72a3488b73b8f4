// Input scripts: a text file of timed key and mouse commands, replayed at fixed-step
// boundaries so a run is reproducible (`paperdoll --script FILE`, and the editor's tests).
//
// One command per line, `#` starts a comment, blank lines are fine:
//   wait SECONDS                     simulated time, rounded to whole 60 Hz steps
//   wait_frames N                    N steps
//   key down|up|press NAME           an SDL key name (Left, Space, R, 1, Left Shift, …);
//                                    press = down now and up one step later
//   mouse move world X Y             metres, mapped to pixels by the camera when applied
//   mouse move screen X Y            pixels from the top-left of the viewport
//   mouse down|up left|middle|right
//   screenshot FILE                  a PNG of the window (windowed runs only)
//   quit                             ends the run here
//
// Only wait and wait_frames move the script's clock; everything else happens at the step
// boundary the clock has reached. Input goes into an InputMap exactly as SDL's events do,
// so the plugin cannot tell a script from a player.
//
// Callers extend the language without touching the parser: a hook sees every line first
// and may claim it (even one starting with a built-in word, as the editor's `mouse move
// target …` does); claimed commands come back from the runner at their step, like
// screenshots (the editor's named targets and asserts).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "paper/math.h"
#include "paper/input.h"

namespace paper {

struct Camera;
struct PluginDeclarations;

enum class ScriptOp {
    KeyDown,
    KeyUp,
    KeyPress,         ///< down at its step, up one step later
    MouseMoveWorld,   ///< position in metres
    MouseMoveScreen,  ///< position in pixels
    MouseDown,
    MouseUp,
    MouseWheel,       ///< wheel notches: positive away from the user (zooms in at the cursor)
    Screenshot,       ///< file
    Quit,
    Extension,        ///< claimed by the caller's hook; words as written
};

struct ScriptCommand {
    ScriptOp op = ScriptOp::Quit;
    int line = 0;                     ///< 1-based line in the file
    std::int64_t step = 0;            ///< the step boundary it applies at: before step `step` runs
    std::int32_t keycode = 0;         ///< SDL_Keycode, for Key*
    std::string action;               ///< `action …`: the plugin's action, pressed by its first key
    MouseButton button = MouseButton::Left;
    Vec2 position;                    ///< MouseMove*: metres (world) or pixels (screen)
    float wheel = 0.0f;               ///< MouseWheel: notches
    std::string file;                 ///< Screenshot
    std::vector<std::string> words;   ///< the command's words as written (all commands)
};

struct ScriptError {
    int line = 0;
    std::string message;
};

/// Errors found by separate checks (the parser, then the caller's), put in file order.
void sortByLine(std::vector<ScriptError>& errors);

/// The commands every script takes ("wait, wait_frames, key, …"), as the errors list them,
/// and whether `name` is one of them: for a caller naming its own beside them.
const char* scriptCommandList();
bool isScriptCommand(std::string_view name);

/// The hook for the caller's own commands, asked before the parser's: return true to claim
/// the line (the words are split on whitespace), optionally setting error to refuse its
/// arguments; return false to leave the line to the parser.
using ScriptExtensionHook = std::function<bool(const std::vector<std::string>& words, std::string& error)>;

class Script {
public:
    /// Longest wait one command may ask for, seconds (a day; anything longer is a typo).
    static constexpr double kMaxWaitSeconds = 86400.0;
    /// Longest script, in steps (the same bound as --frames).
    static constexpr std::int64_t kMaxSteps = 1'000'000'000;
    /// Largest coordinate a mouse command accepts, metres or pixels.
    static constexpr double kMaxCoordinate = 1.0e6;
    static constexpr double kMaxWheelNotches = 100.0;

    /// Parses a script's text. Every error is collected (not just the first), with its
    /// line; the script is usable only when errors is empty.
    static Script parse(const std::string& text, std::vector<ScriptError>& errors,
                        const ScriptExtensionHook& hook = {});
    /// Reads and parses a file. A missing, unreadable or directory path, anything but a
    /// regular file, and a file without a single command (empty, or only comments) are one
    /// error at line 0; a binary file (a NUL or another control byte but tab, line feed and
    /// carriage return) is one error at that byte's line.
    static Script load(const std::string& path, std::vector<ScriptError>& errors,
                       const ScriptExtensionHook& hook = {});
    /// "FILE:LINE: error: message", or "FILE: error: message" for line 0.
    static std::string format(const std::string& fileName, const ScriptError& error);

    const std::vector<ScriptCommand>& commands() const { return commands_; }
    /// Gives each `action …` command the first key in input of the action the plugin declares
    /// by that name (input bound from declarations); an action it does not declare, or one
    /// without a key, is an error at its line, which lists the actions there are. With no
    /// plugin (declarations null, --no-plugin) every `action` is an error saying so.
    std::vector<ScriptError> bindActions(const InputMap& input, const PluginDeclarations* declarations);
    /// An error at each `screenshot` whose file would go into a folder that is not there (its
    /// path is the working directory's), found before the run rather than at its end.
    std::vector<ScriptError> checkScreenshotFolders() const;
    /// The step boundary by which every command has been applied and every input seen by
    /// at least one step: the end of the last wait, the step after the last input command
    /// (after the release of a press), whichever is later. A run of only this many steps
    /// sees the whole script.
    std::int64_t endStep() const { return endStep_; }
    /// The step boundary of the first `quit`, if any.
    std::optional<std::int64_t> quitStep() const { return quitStep_; }

private:
    std::vector<ScriptCommand> commands_;
    std::int64_t endStep_ = 0;
    std::optional<std::int64_t> quitStep_;
};

/// Puts an input command (key down/up, the down of a press, mouse move or button) into input,
/// world positions through camera, as SDL's events would; false for any other command.
/// The release of a press is the caller's to schedule, one step later.
bool applyInputCommand(const ScriptCommand& command, InputMap& input, const Camera& camera);

/// Replays a script into an InputMap, one step boundary at a time. Holds a reference to
/// the script, which must outlive it.
class ScriptRunner {
public:
    explicit ScriptRunner(const Script& script) : script_(script) {}

    /// Applies the input commands due at or before the boundary before step `step` (the
    /// index of the step about to run, from 0): keys, mouse moves (world positions mapped
    /// through camera) and buttons, in file order, releases of earlier presses first.
    /// Call it before each step; a boundary already applied is not applied twice. After a
    /// `mouse move world` the cursor stays on that world point, mapped again through the
    /// camera at every call until the next mouse move: the player's view follows its figure,
    /// and a press a second later would otherwise land where the view had moved the point.
    void applyInput(std::int64_t step, InputMap& input, const Camera& camera);

    /// The screenshot, quit and extension commands due by the boundary `step` (that many
    /// steps have run), each returned once, in file order. Call it when the world after
    /// `step` steps is what the caller shows.
    std::vector<const ScriptCommand*> takeObservations(std::int64_t step);

private:
    const Script& script_;
    size_t nextInput_ = 0;        ///< the first command applyInput has not passed
    size_t nextObservation_ = 0;  ///< the first command takeObservations has not passed
    struct Release {
        std::int64_t step;
        std::int32_t keycode;
    };
    std::vector<Release> releases_;  ///< key-ups of presses, in the order they fall due
    std::optional<Vec2> worldMouse_;  ///< the last `mouse move world`'s point, until a `mouse move screen`
};

}  // namespace paper
