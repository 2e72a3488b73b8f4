#include "paper/script.h"

#include "paper/file_checks.h"

#include <SDL_keyboard.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <system_error>

#include "paper/fixed_step.h"
#include "paper/camera.h"
#include "paper/plugin_host.h"

namespace paper {

namespace {

const char* const kCommandList = "wait, wait_frames, key, action, mouse, screenshot, quit";
const char* const kKeyNameHint = "SDL key names: Left, Right, Space, R, 1, Tab, Left Shift, ...";

/// A line without its comment, split into words; rest[i] is the raw text from word i on
/// (so a file name keeps its inner spaces).
struct Words {
    std::vector<std::string> words;
    std::vector<std::string> rest;
};

Words splitLine(std::string_view line) {
    // A comment starts at a '#' that begins a word; so 'key press #' stays possible in
    // principle, and '#' glued to a word is part of it.
    for (size_t i = 0; i < line.size(); ++i) {
        if (line[i] == '#' && (i == 0 || std::isspace(static_cast<unsigned char>(line[i - 1])))) {
            line = line.substr(0, i);
            break;
        }
    }
    auto space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
    size_t end = line.size();
    while (end > 0 && space(line[end - 1])) --end;
    line = line.substr(0, end);

    Words out;
    size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && space(line[i])) ++i;
        if (i == line.size()) break;
        size_t start = i;
        while (i < line.size() && !space(line[i])) ++i;
        out.words.emplace_back(line.substr(start, i - start));
        out.rest.emplace_back(line.substr(start));
    }
    return out;
}

/// A finite decimal number, the whole word ("1.5m", "nan", "inf" are not).
bool parseNumber(const std::string& word, double& out) {
    const char* end = word.data() + word.size();
    auto [ptr, ec] = std::from_chars(word.data(), end, out);
    return ec == std::errc() && ptr == end && std::isfinite(out);
}

bool parseWhole(const std::string& word, std::int64_t& out) {
    const char* end = word.data() + word.size();
    auto [ptr, ec] = std::from_chars(word.data(), end, out);
    return ec == std::errc() && ptr == end;
}

std::string plural(size_t n, const char* word) { return std::to_string(n) + " " + word + (n == 1 ? "" : "s"); }

std::optional<MouseButton> buttonNamed(const std::string& name) {
    if (name == "left") return MouseButton::Left;
    if (name == "middle") return MouseButton::Middle;
    if (name == "right") return MouseButton::Right;
    return std::nullopt;
}

/// Parses one command's words into `command`; returns the error message or empty.
/// waitSteps is set for wait and wait_frames (the only commands that move the clock).
std::string parseCommand(const Words& line, ScriptCommand& command, std::int64_t& waitSteps,
                         const ScriptExtensionHook& hook) {
    const std::vector<std::string>& w = line.words;
    const std::string& name = w[0];
    size_t args = w.size() - 1;
    command.words = w;
    // The caller's commands first: they may extend a built-in word ("mouse move target …").
    if (std::string error; hook && hook(w, error)) {
        command.op = ScriptOp::Extension;
        return error;
    }

    if (name == "wait") {
        if (args != 1)
            return "wait takes one number of seconds (e.g. wait 0.5), got " + plural(args, "argument");
        double seconds = 0.0;
        if (!parseNumber(w[1], seconds)) return "wait: '" + w[1] + "' is not a number of seconds";
        if (seconds < 0.0) return "wait: a negative wait (" + w[1] + " s) cannot go back in time";
        if (seconds > Script::kMaxWaitSeconds)
            return "wait: " + w[1] + " s is more than a day (86400 s); use --frames for long runs";
        waitSteps = std::llround(seconds * kSimulationHz);
        return {};
    }
    if (name == "wait_frames") {
        if (args != 1) return "wait_frames takes one whole number of steps (e.g. wait_frames 30), got " +
                              plural(args, "argument");
        std::int64_t steps = 0;
        if (!parseWhole(w[1], steps)) return "wait_frames: '" + w[1] + "' is not a whole number of steps";
        if (steps < 0) return "wait_frames: a negative wait (" + w[1] + ") cannot go back in time";
        if (steps > std::int64_t(Script::kMaxWaitSeconds * kSimulationHz))
            return "wait_frames: " + w[1] + " steps is more than a day (5184000 steps); use --frames for long runs";
        waitSteps = steps;
        return {};
    }
    if (name == "key") {
        if (args == 0 || (w[1] != "down" && w[1] != "up" && w[1] != "press"))
            return "key needs down, up or press and a key name (e.g. key press Space)";
        if (args == 1) return "key " + w[1] + " needs a key name (" + kKeyNameHint + ")";
        command.op = w[1] == "down" ? ScriptOp::KeyDown : w[1] == "up" ? ScriptOp::KeyUp : ScriptOp::KeyPress;
        // Names may have spaces ("Left Shift"); SDL knows them with single spaces.
        std::string key = w[2];
        for (size_t i = 3; i < w.size(); ++i) key += " " + w[i];
        command.keycode = std::int32_t(SDL_GetKeyFromName(key.c_str()));
        if (command.keycode == 0) return "unknown key name '" + key + "' (" + kKeyNameHint + ")";
        return {};
    }
    if (name == "action") {
        if (args != 2 || (w[1] != "down" && w[1] != "up" && w[1] != "press"))
            return "action needs down, up or press and the name of an action the plugin declares (e.g. action press jump)";
        command.op = w[1] == "down" ? ScriptOp::KeyDown : w[1] == "up" ? ScriptOp::KeyUp : ScriptOp::KeyPress;
        command.action = w[2];  // its key is known once the plugin is (Script::bindActions)
        return {};
    }
    if (name == "mouse") {
        if (args == 0 || (w[1] != "move" && w[1] != "down" && w[1] != "up" && w[1] != "wheel"))
            return "mouse needs move, down, up or wheel (e.g. mouse move world 1.5 0.8, mouse down left, mouse wheel 3)";
        if (w[1] == "wheel") {
            double notches = 0.0;
            if (args != 2) return "mouse wheel takes one number of notches, got " + plural(args - 1, "argument");
            if (!parseNumber(w[2], notches)) return "mouse wheel: '" + w[2] + "' is not a number";
            if (std::abs(notches) > Script::kMaxWheelNotches)
                return "mouse wheel: " + w[2] + " is out of range (at most 100 notches either way)";
            command.op = ScriptOp::MouseWheel;
            command.wheel = float(notches);
            return {};
        }
        if (w[1] == "move") {
            if (args < 2 || (w[2] != "world" && w[2] != "screen"))
                return "mouse move needs world (metres) or screen (pixels), then X Y";
            if (args != 4)
                return "mouse move " + w[2] + " takes X and Y, got " + plural(args - 2, "number");
            double x = 0.0, y = 0.0;
            for (int i = 3; i <= 4; ++i) {
                double& v = i == 3 ? x : y;
                if (!parseNumber(w[size_t(i)], v)) return "mouse move: '" + w[size_t(i)] + "' is not a number";
                if (std::abs(v) > Script::kMaxCoordinate)
                    return "mouse move: " + w[size_t(i)] + " is out of range (at most 1000000 in magnitude)";
            }
            command.op = w[2] == "world" ? ScriptOp::MouseMoveWorld : ScriptOp::MouseMoveScreen;
            command.position = {float(x), float(y)};
            return {};
        }
        if (args != 2) return "mouse " + w[1] + " takes one button (left, middle or right), got " +
                              plural(args - 1, "argument");
        std::optional<MouseButton> button = buttonNamed(w[2]);
        if (!button) return "mouse " + w[1] + ": unknown button '" + w[2] + "' (left, middle or right)";
        command.op = w[1] == "down" ? ScriptOp::MouseDown : ScriptOp::MouseUp;
        command.button = *button;
        return {};
    }
    if (name == "screenshot") {
        if (args == 0) return "screenshot needs a file name (e.g. screenshot shot.png)";
        command.op = ScriptOp::Screenshot;
        command.file = line.rest[1];
        if (const std::string problem = badOutputName(command.file, ".png"); !problem.empty())
            return "screenshot '" + command.file + "': " + problem;
        return {};
    }
    if (name == "quit") {
        if (args != 0) return "quit takes no arguments, got " + plural(args, "argument");
        command.op = ScriptOp::Quit;
        return {};
    }
    // The editor's own commands, in a script given to the player: say where they run.
    if (!hook && (name == "select" || name == "type" || name == "expect"))
        return "'" + name + "' is a command of the editor's scripts: run this script with paperdoll_editor --script";
    return "unknown command '" + name + "' (commands: " + kCommandList + ")";
}

}  // namespace

const char* scriptCommandList() { return kCommandList; }

bool isScriptCommand(std::string_view name) {
    for (std::string_view list = kCommandList; !list.empty();) {
        const size_t comma = list.find(", ");
        if (list.substr(0, comma) == name) return true;
        list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 2);
    }
    return false;
}

namespace {

bool isInput(ScriptOp op) {
    return op != ScriptOp::Screenshot && op != ScriptOp::Quit && op != ScriptOp::Extension;
}

}  // namespace

Script Script::parse(const std::string& text, std::vector<ScriptError>& errors, const ScriptExtensionHook& hook) {
    Script script;
    std::int64_t clock = 0;  // the step boundary the script has reached
    std::istringstream stream(text);
    std::string raw;
    int lineNumber = 0;
    bool tooLong = false;
    while (std::getline(stream, raw)) {
        ++lineNumber;
        Words line = splitLine(raw);
        if (line.words.empty()) continue;
        ScriptCommand command;
        command.line = lineNumber;
        std::int64_t waitSteps = -1;
        std::string error = parseCommand(line, command, waitSteps, hook);
        if (!error.empty()) {
            errors.push_back({lineNumber, std::move(error)});
            continue;
        }
        if (waitSteps >= 0) {
            if (clock + waitSteps > kMaxSteps) {
                if (!tooLong) errors.push_back({lineNumber, "the script is longer than 1000000000 steps here"});
                tooLong = true;
                continue;
            }
            clock += waitSteps;
            continue;
        }
        command.step = clock;
        if (!script.quitStep_) {
            // Input must be seen by a step: the one after it applies (after a press's release).
            std::int64_t seen = command.op == ScriptOp::KeyPress ? clock + 2 : isInput(command.op) ? clock + 1 : clock;
            script.endStep_ = std::max({script.endStep_, clock, seen});
            if (command.op == ScriptOp::Quit) script.quitStep_ = clock;
        }
        script.commands_.push_back(std::move(command));
    }
    if (script.quitStep_)
        script.endStep_ = *script.quitStep_;
    else
        script.endStep_ = std::max(script.endStep_, clock);
    return script;
}

Script Script::load(const std::string& path, std::vector<ScriptError>& errors, const ScriptExtensionHook& hook) {
    std::error_code ec;
    std::filesystem::file_type type = std::filesystem::status(path, ec).type();
    if (type == std::filesystem::file_type::directory) {
        errors.push_back({0, "'" + path + "' is a directory, not a script file"});
        return {};
    }
    // Only regular files: opening a pipe waits for a writer, and a device may never end.
    if (!ec && type != std::filesystem::file_type::regular && type != std::filesystem::file_type::not_found) {
        errors.push_back({0, "'" + path + "' is not a regular file (a device or a pipe?), not a script file"});
        return {};
    }
    std::ifstream file(path, std::ios::binary);
    if (!file) {
        errors.push_back({0, "cannot read the script '" + path + "': " + std::generic_category().message(errno)});
        return {};
    }
    std::ostringstream stream;
    stream << file.rdbuf();
    if (file.bad()) {
        errors.push_back({0, "cannot read the script '" + path + "'"});
        return {};
    }
    const std::string text = stream.str();
    // A binary file would otherwise be an "unknown command" for every line of noise, echoed
    // raw to the terminal: any control byte but tab, line feed and carriage return says so.
    const auto control = std::find_if(text.begin(), text.end(), [](char c) {
        const auto byte = static_cast<unsigned char>(c);
        return (byte < 0x20 && c != '\t' && c != '\n' && c != '\r') || byte == 0x7f;
    });
    if (control != text.end()) {
        int line = 1 + int(std::count(text.begin(), control, '\n'));
        errors.push_back({line, "'" + path + "' is binary (a " + (*control == '\0' ? std::string("NUL") : "control") +
                                    " byte here), not a script file"});
        return {};
    }
    // A file with nothing to do is a wrong or truncated file far more often than a wish to
    // run zero steps; refusing it is what tells the user.
    bool anyCommand = false;
    std::istringstream lines(text);
    for (std::string raw; !anyCommand && std::getline(lines, raw);) anyCommand = !splitLine(raw).words.empty();
    if (!anyCommand) {
        errors.push_back({0, "the script '" + path + "' is empty: no commands, only blank lines or comments"});
        return {};
    }
    return parse(text, errors, hook);
}

std::string Script::format(const std::string& fileName, const ScriptError& error) {
    if (error.line <= 0) return fileName + ": error: " + error.message;
    return fileName + ":" + std::to_string(error.line) + ": error: " + error.message;
}

std::vector<ScriptError> Script::bindActions(const InputMap& input, const PluginDeclarations* declarations) {
    std::vector<ScriptError> errors;
    std::string names;
    if (declarations)
        for (const PluginDeclarations::Action& a : declarations->actions) names += (names.empty() ? "" : ", ") + a.name;
    for (ScriptCommand& c : commands_) {
        if (c.action.empty()) continue;
        if (!declarations) {
            errors.push_back({c.line, "no action '" + c.action + "': no plugin is loaded to declare one (--no-plugin)"});
            continue;
        }
        const ActionId id = declarations->actionNamed(c.action) >= 0 ? input.find(c.action) : kNoAction;
        if (id == kNoAction)
            errors.push_back({c.line, "no action '" + c.action + "': the plugin declares none by that name (" +
                                          (names.empty() ? "it declares no actions" : "its actions: " + names) + ")"});
        else if (input.keys(id).empty()) errors.push_back({c.line, "the action '" + c.action + "' has no key"});
        else c.keycode = input.keys(id).front();
    }
    return errors;
}

void sortByLine(std::vector<ScriptError>& errors) {
    std::stable_sort(errors.begin(), errors.end(), [](const ScriptError& a, const ScriptError& b) { return a.line < b.line; });
}

std::vector<ScriptError> Script::checkScreenshotFolders() const {
    std::vector<ScriptError> errors;
    for (const ScriptCommand& c : commands_) {
        if (c.op != ScriptOp::Screenshot) continue;
        if (const std::string problem = cannotWrite(c.file); !problem.empty())
            errors.push_back({c.line, "screenshot: cannot write '" + c.file + "': " + problem +
                                          " (a screenshot's path is the working directory's)"});
    }
    return errors;
}

bool applyInputCommand(const ScriptCommand& c, InputMap& input, const Camera& camera) {
    switch (c.op) {
    case ScriptOp::KeyDown:
    case ScriptOp::KeyPress: input.keyEvent(c.keycode, true); return true;
    case ScriptOp::KeyUp: input.keyEvent(c.keycode, false); return true;
    case ScriptOp::MouseMoveWorld: input.mouseMove(camera.worldToScreen(c.position)); return true;
    case ScriptOp::MouseMoveScreen: input.mouseMove(c.position); return true;
    case ScriptOp::MouseDown: input.mouseButton(c.button, true); return true;
    case ScriptOp::MouseUp: input.mouseButton(c.button, false); return true;
    case ScriptOp::MouseWheel: input.mouseWheel(c.wheel); return true;
    case ScriptOp::Screenshot:
    case ScriptOp::Quit:
    case ScriptOp::Extension: return false;
    }
    return false;
}

void ScriptRunner::applyInput(std::int64_t step, InputMap& input, const Camera& camera) {
    const std::vector<ScriptCommand>& commands = script_.commands();
    if (worldMouse_) input.mouseMove(camera.worldToScreen(*worldMouse_));
    // One boundary at a time, so a release due at a boundary precedes that boundary's
    // commands even when the caller skips boundaries.
    for (;;) {
        std::int64_t boundary = std::numeric_limits<std::int64_t>::max();
        if (!releases_.empty()) boundary = releases_.front().step;
        if (nextInput_ < commands.size()) boundary = std::min(boundary, commands[nextInput_].step);
        if (boundary > step) return;
        while (!releases_.empty() && releases_.front().step == boundary) {
            input.keyEvent(releases_.front().keycode, false);
            releases_.erase(releases_.begin());
        }
        for (; nextInput_ < commands.size() && commands[nextInput_].step == boundary; ++nextInput_) {
            const ScriptCommand& c = commands[nextInput_];
            // Observations are left to takeObservations.
            if (applyInputCommand(c, input, camera) && c.op == ScriptOp::KeyPress) releases_.push_back({c.step + 1, c.keycode});
            if (c.op == ScriptOp::MouseMoveWorld) worldMouse_ = c.position;
            if (c.op == ScriptOp::MouseMoveScreen) worldMouse_.reset();
        }
    }
}

std::vector<const ScriptCommand*> ScriptRunner::takeObservations(std::int64_t step) {
    std::vector<const ScriptCommand*> due;
    const std::vector<ScriptCommand>& commands = script_.commands();
    for (; nextObservation_ < commands.size() && commands[nextObservation_].step <= step; ++nextObservation_)
        if (!isInput(commands[nextObservation_].op)) due.push_back(&commands[nextObservation_]);
    return due;
}

}  // namespace paper
