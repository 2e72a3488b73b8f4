// The editor's command line: `paperdoll_editor [--level FILE] [--rig FILE] [--plugin FILE] [--script FILE]
// [--frames N] [--screenshot FILE] [--window WxH] [--headless] [--help]`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace paper::editor {

/// The smallest window the editor opens or shrinks to, pixels: below it its five panels lie
/// over one another and over the character.
inline constexpr int kMinEditorWidth = 800, kMinEditorHeight = 600;
/// The largest side a window may have (as the player's --window).
inline constexpr int kMaxEditorSide = 16384;

struct EditorOptions {
    std::string levelPath;       ///< empty: content/levels/harness.level.xml
    std::string assetPath;       ///< empty: the level's own asset for its first spawn
    std::string assetOption = "--asset";  ///< as typed: --asset or --rig, for messages
    std::string pluginPath;      ///< empty: the first plugin found on the search path
    std::string scriptPath;      ///< empty: no script
    std::string screenshotPath;  ///< empty: none; saved at exit
    std::int64_t frames = -1;    ///< quit after this many frames; -1: when the script ends or the window closes
    int windowWidth = 1280;      ///< pixels
    int windowHeight = 720;      ///< pixels
    bool headless = false;       ///< no visible window: SDL's offscreen driver (scripts, screenshots, tests)
    bool showHelp = false;
    bool showVersion = false;
};

struct EditorCliResult {
    std::optional<EditorOptions> options;  ///< set when the command line was valid
    std::string error;                     ///< what was wrong, and what to do
};

/// Parses the arguments after the program name.
EditorCliResult parseEditorCommandLine(const std::vector<std::string>& args);
/// The --help text.
const char* editorUsage();

}  // namespace paper::editor
