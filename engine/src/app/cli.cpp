#include "app/cli.h"

#include "paper/command_line.h"
#include "paper/file_checks.h"
#include "paper/spelling.h"

#include <charconv>
#include <cstring>
#include <set>

namespace paper {

const char* playerUsage() {
    return R"(usage: paperdoll [LEVEL] [OPTIONS]

Plays a level (default: content/levels/harness.level.xml) in a window.

Options (a value as the next argument or after '=', e.g. --frames=120):
  --asset FILE         Play FILE (a file the plugin loads for a spawn) in the level's
                       first spawn, the one the keys drive, instead of the one the
                       level names.
  --headless           Run without a window, SDL or OpenGL (tests, CI, benchmarks).
                       Needs --frames or --script.
  --frames N           Run N fixed simulation steps (60 per simulated second), then
                       exit. In a window each rendered frame runs exactly one step, so
                       the result is the same on fast and slow machines.
  --script FILE        Replay the key and mouse commands in FILE at fixed steps (see
                       the README, "Scripts"). The run ends with the script; with
                       --frames it runs exactly N steps (cut short or idle at the end);
                       a `quit` in the script ends it at once.
  --realtime           Pace the steps at 60 Hz of wall-clock time (headless, or in
                       a window with --frames or --script).
  --stats-json FILE    At exit, write a JSON summary: frames, level, view, plugin,
                       physics, timing.
  --screenshot FILE    At exit, save what the window shows as a PNG (not headless).
  --plugin FILE        Load the plugin this descriptor (*.plugin) describes, instead of
                       the first one found in $PAPERDOLL_PLUGIN_PATH or plugins/ beside
                       the executable.
  --no-plugin          Run the level without any plugin (nothing moves).
  --no-auto-reload     Do not reload the plugin when its library file is rebuilt (F5
                       still reloads by hand).
  --list-plugins       List the plugins found (descriptor fields) and exit; exit 1 if
                       one of them cannot run.
  --window WxH         Window size in pixels (default 1280x720).
  --no-vsync           Render as fast as possible instead of at the display's rate.
  --version            Print the version and exit.
  -h, --help           Print this help and exit.

Controls (window): the keys of the plugin's actions (--list-plugins and the HUD list
them; a script presses one with `action press NAME` or by its key); the left mouse
button is the plugin's. The view follows the figure the keys drive (the plugin's first
spawn); right or middle drag pans and stops following, the wheel zooms at the cursor, Home
resets the view and follows again, F5 reloads the plugin, F3 shows the debug view (each
spawn's flag and name), F1 hides and shows the HUD, Esc quits.

Exit status: 0 on success, 1 when the level, writing an output or (in a run with --frames
or --script) the plugin fails, 2 for a bad command line or script (an output into a folder
that is not there among them, said before the run).
)";
}

namespace {

bool parseInteger(const std::string& text, std::int64_t min, std::int64_t max, std::int64_t& out) {
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, out);
    return ec == std::errc() && ptr == end && out >= min && out <= max;
}

}  // namespace

CliResult parsePlayerCommandLine(const std::vector<std::string>& args) {
    PlayerOptions o;
    auto fail = [](std::string message) { return CliResult{std::nullopt, std::move(message)}; };

    std::set<std::string> given;  ///< the value options seen
    TypedArguments typed;         ///< every argument, for the options that answer alone
    for (size_t i = 0; i < args.size(); ++i) {
        typed.add(splitOption(args[i]).name, args[i]);
        OptionArgument option(args, i);
        const std::string& arg = option.name();
        // A value option given twice: the second would win without a word.
        static const std::set<std::string> kOnce = {"--asset", "--plugin", "--frames", "--stats-json", "--script",
                                                    "--screenshot", "--window"};
        if (kOnce.count(arg) && !given.insert(arg).second) return fail(arg + " is given twice");
        std::string v;
        if (arg == "-h" || arg == "--help") {
            o.showHelp = true;
        } else if (arg == "--version") {
            o.showVersion = true;
        } else if (arg == "--headless") {
            o.headless = true;
        } else if (arg == "--realtime") {
            o.realtime = true;
        } else if (arg == "--no-vsync") {
            o.vsync = false;
        } else if (arg == "--no-plugin") {
            o.noPlugin = true;
        } else if (arg == "--no-auto-reload") {
            o.autoReload = false;
        } else if (arg == "--list-plugins") {
            o.listPlugins = true;
        } else if (arg == "--asset") {
            if (!option.value(o.assetPath)) return fail("--asset needs a file");
        } else if (arg == "--plugin") {
            if (!option.value(o.pluginPath)) return fail("--plugin needs a descriptor file (*.plugin)");
        } else if (arg == "--frames") {
            if (!option.value(v)) return fail("--frames needs a number of steps");
            // 10^9 steps at 60 Hz is over six months of simulated time.
            if (!parseInteger(v, 1, 1'000'000'000, o.frames))
                return fail("--frames must be a whole number from 1 to 1000000000, got '" + v + "'");
        } else if (arg == "--stats-json") {
            if (!option.value(o.statsJsonPath)) return fail("--stats-json needs a file name");
        } else if (arg == "--script") {
            if (!option.value(o.scriptPath)) return fail("--script needs a file name");
        } else if (arg == "--screenshot") {
            if (!option.value(o.screenshotPath)) return fail("--screenshot needs a file name");
        } else if (arg == "--window") {
            if (!option.value(v)) return fail("--window needs a size like 1280x720");
            size_t x = v.find('x');
            std::int64_t w = 0, h = 0;
            if (x == std::string::npos || !parseInteger(v.substr(0, x), 64, 16384, w) ||
                !parseInteger(v.substr(x + 1), 64, 16384, h))
                return fail("--window needs WIDTHxHEIGHT in pixels, from 64x64 to 16384x16384 (e.g. 1280x720), got '" + v + "'");
            o.windowWidth = int(w);
            o.windowHeight = int(h);
        } else if (arg.size() > 1 && arg[0] == '-') {
            return fail("unknown option '" + arg + "'" +
                        didYouMean(arg, {"--help", "--version", "--asset", "--headless", "--frames", "--script", "--realtime",
                                         "--stats-json", "--screenshot", "--plugin", "--no-plugin", "--no-auto-reload",
                                         "--list-plugins", "--window", "--no-vsync"}) +
                        " (see paperdoll --help)");
        } else if (arg.empty()) {
            return fail("the level's path is empty ('')");  // else the default level played, unsaid
        } else if (o.levelPath.empty()) {
            o.levelPath = arg;
        } else {
            return fail("more than one level given: '" + o.levelPath + "' and '" + arg + "'");
        }
        if (const std::string unused = option.unusedValue(); !unused.empty()) return fail(unused);
    }
    // --help wins over every other argument read without error (--plugin adds that plugin's
    // commands to it; a malformed one was refused above, naming it); --version and
    // --list-plugins answer alone, so an argument beside them would be ignored without a word.
    if (o.showHelp) return {o, {}};
    if (const std::string stray = typed.firstBesides({"--version"}); o.showVersion && !stray.empty())
        return fail("--version takes no other argument, got '" + stray + "'");
    if (const std::string stray = typed.firstBesides({"--list-plugins", "--plugin"}); o.listPlugins && !stray.empty())
        return fail("--list-plugins takes no other argument but --plugin FILE, got '" + stray + "'");
    if (o.showVersion || o.listPlugins) return {o, {}};
    if (o.noPlugin && !o.pluginPath.empty()) return fail("--plugin and --no-plugin contradict each other");
    if (o.headless && o.frames < 0 && o.scriptPath.empty())
        return fail("--headless needs --frames N (how many steps to run) or --script FILE");
    if (o.headless && !o.screenshotPath.empty())
        return fail("--screenshot needs a window; drop --headless (with no display, set SDL_VIDEODRIVER=offscreen)");
    // Said now, not after the run: both files are written at its end.
    for (const auto& [option, path, ending] :
         {std::tuple{"--screenshot", &o.screenshotPath, ".png"}, std::tuple{"--stats-json", &o.statsJsonPath, ".json"}})
        if (!path->empty())
            if (const std::string problem = cannotWriteOutput(*path, ending, {{"the level", o.levelPath},
                                                                              {"the asset", o.assetPath},
                                                                              {"the script", o.scriptPath}});
                !problem.empty())
                return fail(std::string(option) + " '" + *path + "': " + problem);
    return {o, {}};
}

}  // namespace paper
