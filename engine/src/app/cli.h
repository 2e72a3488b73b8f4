// Command-line options of the `paperdoll` player.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace paper {

struct PlayerOptions {
    std::string levelPath;       ///< empty: the harness level from the content folder
    std::string assetPath;       ///< played by the level's first spawn instead of its own; empty: its own
    bool headless = false;       ///< no window, no SDL, no GL
    std::int64_t frames = -1;    ///< fixed steps to run before exiting; -1 = until closed
    bool realtime = false;       ///< pace a headless run at the simulation rate
    std::string statsJsonPath;   ///< write a JSON summary here at exit
    std::string screenshotPath;  ///< save the window as PNG at exit
    std::string scriptPath;      ///< replay this input script (app/script.h); empty: none
    int windowWidth = 1280;
    int windowHeight = 720;
    bool vsync = true;
    std::string pluginPath;      ///< a *.plugin descriptor; empty: search the plugin path
    bool noPlugin = false;       ///< run the level without any plugin
    bool listPlugins = false;    ///< print the plugins found and exit
    bool autoReload = true;      ///< reload the plugin when its library is rebuilt
    bool showHelp = false;
    bool showVersion = false;
};

struct CliResult {
    std::optional<PlayerOptions> options;  ///< set when the command line was valid
    std::string error;                     ///< why it was not, for "paperdoll: error: …"
};

CliResult parsePlayerCommandLine(const std::vector<std::string>& args);

/// The --help text.
const char* playerUsage();

}  // namespace paper
