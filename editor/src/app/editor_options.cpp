#include "app/editor_options.h"

#include <charconv>
#include <set>

#include "paper/command_line.h"
#include "paper/file_checks.h"
#include "paper/spelling.h"

namespace paper::editor {

const char* editorUsage() {
    return "usage: paperdoll_editor [LEVEL | --level FILE] [--asset FILE] [--plugin FILE] [--script FILE]\n"
           "                        [--frames N] [--screenshot FILE] [--window WxH] [--headless] [--version]\n"
           "                        [--help]\n"
           "\n"
           "Edits the first spawn's asset (its joints, bodies and other objects) live in a plugin.\n"
           "An option's value is the next argument or follows '=' (--frames=120).\n"
           "  LEVEL              the level to open (default: content/levels/harness.level.xml);\n"
           "                     --level FILE is the same\n"
           "  --asset FILE       edit this file instead of the first spawn's own (Ctrl+S saves to it);\n"
           "                     --rig FILE is the same\n"
           "  --plugin FILE      load the plugin this descriptor (*.plugin) describes, instead of the first\n"
           "                     one found in $PAPERDOLL_PLUGIN_PATH or plugins/ beside the executable\n"
           "  --script FILE      replay a script (the player's format plus editor commands), then quit\n"
           "  --frames N         quit after N frames\n"
           "  --screenshot FILE  save the last frame as PNG at exit (works with --headless too)\n"
           "  --window WxH       window size in pixels (default 1280x720, 800x600 to 16384x16384)\n"
           "  --headless         no visible window and no display needed (SDL's offscreen driver):\n"
           "                     for scripts, screenshots and tests (with --frames or --script)\n"
           "  --version          print the version and exit\n"
           "  --help             this text\n"
           "\n"
           "Mouse: click a joint's pivot or a body to select it (the Inspector edits it; click again in\n"
           "the same place for the next one there), drag a gizmo handle to set a limit (Esc during the\n"
           "drag puts it back); middle drag or Space+left drag pans, the wheel zooms.\n"
           "Keys: P play/pause, . step, F frame the selection, Home reset view, Ctrl+Z undo, Ctrl+Y or\n"
           "Ctrl+Shift+Z redo, Ctrl+S save, Ctrl+Shift+S save as, Ctrl+O open another asset, Ctrl+Q or Esc\n"
           "quit (unsaved edits are asked about), F5 reload the plugin.\n"
           "\n"
           "Scripts take the player's commands (wait, wait_frames, key, action, mouse move world|screen,\n"
           "mouse down|up, mouse wheel, screenshot, quit) and the editor's:\n"
           "  mouse move target joint NAME lower|upper|pivot   mouse move target joint NAME angle DEGREES\n"
           "  mouse move target body NAME                      mouse move target widget NAME [FRACTION]\n"
           "  select joint|body|KIND NAME                      type TEXT\n"
           "  expect joint NAME lower|upper DEGREES [TOL]      expect property SETTING VALUE [TOL]\n"
           "  expect property joint|body|KIND NAME PROPERTY VALUE [TOL]\n"
           "  expect hovered|selected joint|body NAME | none   expect dialog unsaved|none|closed|on top\n"
           "  expect plots N   expect reloads N   expect loaded_at first   expect mode MODE   expect blend W [TOL]\n"
           "  expect dirty|clean   expect status TEXT   expect drawn TEXT   expect save_as TEXT\n"
           "  expect character|flag|label visible|hidden\n"
           "  expect panel Joints width PIXELS [TOL]   expect panel NAME gap PIXELS [TOL]   expect panel NAME inside|clear\n"
           "  expect quit\n"
           "(the README's editor section explains each, and lists the widget names).\n"
           "\n"
           "Exit status: 0 done, 1 a failed run or expect, 2 a bad command line or script.\n";
}

namespace {

bool parseInt(const std::string& text, std::int64_t& value) {
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return ec == std::errc() && end == text.data() + text.size();
}

}  // namespace

EditorCliResult parseEditorCommandLine(const std::vector<std::string>& args) {
    EditorOptions options;
    std::set<std::string> given;  ///< the value options seen, --rig counted as --asset
    paper::TypedArguments typed;  ///< every argument, for --version, which answers alone
    for (std::size_t i = 0; i < args.size(); ++i) {
        typed.add(paper::splitOption(args[i]).name, args[i]);
        paper::OptionArgument option(args, i);
        const std::string& arg = option.name();
        std::string text;
        // A value option given twice: the second would win without a word (--rig is --asset).
        static const std::set<std::string> kOnce = {"--level", "--asset", "--rig", "--plugin", "--script", "--screenshot",
                                                    "--frames", "--window"};
        if (kOnce.count(arg) && !given.insert(arg == "--rig" ? "--asset" : arg).second) {
            if (arg == "--level") return {std::nullopt, "more than one level given: '" + options.levelPath + "' and --level"};
            const bool otherName = (arg == "--rig" || arg == "--asset") && arg != options.assetOption;
            return {std::nullopt, otherName ? options.assetOption + " and " + arg + " are one option, the file to edit: give one"
                                            : arg + " is given twice"};
        }
        if (arg == "--help" || arg == "-h") {
            options.showHelp = true;
        } else if (arg == "--version") {
            options.showVersion = true;
        } else if (arg == "--headless") {
            options.headless = true;
        } else if (arg == "--level") {
            if (!option.value(options.levelPath)) return {std::nullopt, "--level needs a level file"};
        } else if (arg == "--asset" || arg == "--rig") {
            if (!option.value(options.assetPath)) return {std::nullopt, arg + " needs a file"};
            options.assetOption = arg;
        } else if (arg == "--plugin") {
            if (!option.value(options.pluginPath)) return {std::nullopt, "--plugin needs a descriptor file (*.plugin)"};
        } else if (arg == "--script") {
            if (!option.value(options.scriptPath)) return {std::nullopt, "--script needs a script file"};
        } else if (arg == "--screenshot") {
            if (!option.value(options.screenshotPath)) return {std::nullopt, "--screenshot needs a PNG file name"};
        } else if (arg == "--frames") {
            if (!option.value(text)) return {std::nullopt, "--frames needs a whole number from 1 to 1000000000"};
            if (!parseInt(text, options.frames) || options.frames < 1 || options.frames > 1'000'000'000)
                return {std::nullopt, "--frames needs a whole number from 1 to 1000000000, got '" + text + "'"};
        } else if (arg == "--window") {
            std::size_t x = std::string::npos;
            std::int64_t w = 0, h = 0;
            const std::string need = "--window needs WIDTHxHEIGHT in pixels, from " + std::to_string(kMinEditorWidth) +
                                     "x" + std::to_string(kMinEditorHeight) + " to " + std::to_string(kMaxEditorSide) +
                                     "x" + std::to_string(kMaxEditorSide) + " (e.g. 1280x720)";
            if (!option.value(text)) return {std::nullopt, need};
            if ((x = text.find('x')) == std::string::npos || !parseInt(text.substr(0, x), w) ||
                !parseInt(text.substr(x + 1), h) || w < kMinEditorWidth || h < kMinEditorHeight || w > kMaxEditorSide ||
                h > kMaxEditorSide)
                return {std::nullopt, need + ", got '" + text + "'"};
            options.windowWidth = int(w);
            options.windowHeight = int(h);
        } else if (!arg.empty() && arg[0] != '-') {
            // The level as the player takes it, without --level.
            if (!given.insert("--level").second)
                return {std::nullopt, "more than one level given: '" + options.levelPath + "' and '" + arg + "'"};
            options.levelPath = arg;
        } else {
            return {std::nullopt, "unknown option '" + arg + "'" +
                                      didYouMean(arg, {"--help", "--version", "--headless", "--level", "--asset", "--rig",
                                                       "--plugin", "--script", "--screenshot", "--frames", "--window"}) +
                                      " (paperdoll_editor --help lists them)"};
        }
        if (const std::string unused = option.unusedValue(); !unused.empty()) return {std::nullopt, unused};
    }
    // --help wins over every other argument read without error (a malformed one was refused
    // above, naming it); --version answers alone, so an argument beside it would be ignored
    // without a word (as the player's).
    if (options.showHelp) return {options, ""};
    if (const std::string stray = typed.firstBesides({"--version"}); options.showVersion && !stray.empty())
        return {std::nullopt, "--version takes no other argument, got '" + stray + "'"};
    if (options.showVersion) return {options, ""};
    // Headless there is no window to close: the run would never end (the player refuses it too).
    if (options.headless && options.frames < 0 && options.scriptPath.empty())
        return {std::nullopt, "--headless needs --frames N (how many frames to run) or --script FILE"};
    // Said now, not after the run: the screenshot is written when the editor quits.
    if (!options.screenshotPath.empty())
        if (const std::string problem = cannotWriteOutput(options.screenshotPath, ".png",
                                                          {{"the level", options.levelPath},
                                                           {"the file edited", options.assetPath},
                                                           {"the script", options.scriptPath}});
            !problem.empty())
            return {std::nullopt, "--screenshot '" + options.screenshotPath + "': " + problem};
    return {options, ""};
}

}  // namespace paper::editor
