#include "app/editor_script.h"

#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "paper/input.h"
#include "paper/camera.h"

namespace paper::editor {

namespace {

bool parseNumber(const std::string& text, double& value) {
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return ec == std::errc() && end == text.data() + text.size() && std::isfinite(value);
}

bool checkTarget(const std::vector<std::string>& words, std::string& error) {
    // mouse move target joint NAME lower|upper|pivot  /  … angle DEGREES  /  widget NAME [FRACTION]
    // / body NAME
    const std::vector<std::string> w(words.begin() + 2, words.end());  // from "target"
    double number = 0.0;
    if (w.size() >= 2 && w[1] == "body") {
        if (w.size() != 3) error = "mouse move target body needs one body (bone) name";
        return true;
    }
    if (w.size() >= 3 && w[1] == "widget") {
        if (w.size() > 4 || (w.size() == 4 && (!parseNumber(w[3], number) || number < 0.0 || number > 1.0)))
            error = "mouse move target widget NAME [FRACTION] takes a fraction of the width from 0 to 1";
        return true;
    }
    if (w.size() < 3 || w[1] != "joint") {
        error = "mouse move target needs 'joint NAME lower|upper|pivot', 'joint NAME angle DEGREES', "
                "'body NAME' or 'widget NAME [FRACTION]'";
        return true;
    }
    if (w.size() == 4 && (w[3] == "lower" || w[3] == "upper" || w[3] == "pivot")) return true;
    if (w.size() == 5 && w[3] == "angle") {
        if (!parseNumber(w[4], number) || std::fabs(number) > 180.0) error = "angle needs degrees from -180 to 180";
        return true;
    }
    error = "mouse move target joint NAME needs lower, upper, pivot or angle DEGREES";
    return true;
}

/// VALUE [TOLERANCE] at w[at], w[at + 1]: the end of every numeric `expect`.
void checkValue(const std::vector<std::string>& w, std::size_t at, std::string& error) {
    double number = 0.0;
    if (w.size() < at + 1 || w.size() > at + 2) {
        error = "expect " + w[1] + " needs a value and an optional tolerance";
    } else if (!parseNumber(w[at], number)) {
        error = "expect: '" + w[at] + "' is not a number";
    } else if (w.size() == at + 2 && (!parseNumber(w[at + 1], number) || number < 0.0)) {
        error = "expect: the tolerance '" + w[at + 1] + "' must be a number >= 0";
    }
}

bool checkExpect(const std::vector<std::string>& w, std::string& error) {
    const std::string what = w.size() > 1 ? w[1] : "";
    if (what == "joint") {  // expect joint NAME lower|upper DEGREES [TOLERANCE]
        if (w.size() < 5 || (w[3] != "lower" && w[3] != "upper"))
            error = "expect needs 'joint NAME lower|upper DEGREES [TOLERANCE]'";
        else
            checkValue(w, 4, error);
    } else if (what == "property" && (w.size() >= 6 || (w.size() >= 3 && (w[2] == "joint" || w[2] == "body")))) {
        // expect property KIND NAME PROPERTY VALUE [TOLERANCE]: KIND joint, body or the plugin's;
        // VALUE text for a string property (known only when it runs), else a number
        if (w.size() < 6 || w.size() > 7)
            error = "expect needs 'property KIND NAME PROPERTY VALUE [TOLERANCE]'";
        else if (w.size() == 7)
            checkValue(w, 5, error);
    } else if (what == "property") {  // expect property NAME VALUE [TOLERANCE]: a setting
        if (w.size() < 4)
            error = "expect needs 'property NAME VALUE [TOLERANCE]' (a setting) or 'property KIND NAME PROPERTY "
                    "VALUE [TOLERANCE]'";
        else
            checkValue(w, 3, error);
    } else if (what == "hovered" || what == "selected") {  // expect hovered|selected joint|body NAME / none
        bool none = w.size() == 3 && w[2] == "none";
        bool object = w.size() == 4 && (w[2] == "joint" || w[2] == "body");
        if (!none && !object) error = "expect " + what + " needs 'joint NAME', 'body NAME' or 'none'";
    } else if (what == "dialog") {  // expect dialog unsaved|none|closed / expect dialog on top
        const bool onTop = w.size() == 4 && w[2] == "on" && w[3] == "top";
        if (!onTop && (w.size() != 3 || (w[2] != "unsaved" && w[2] != "none" && w[2] != "closed")))
            error = "expect dialog needs 'unsaved' (the unsaved-changes question is open), 'none' (it is not), "
                    "'closed' (no dialog drawn) or 'on top' (a dialog is drawn in front of every panel)";
    } else if (what == "plots") {  // expect plots SAMPLES
        double number = 0.0;
        if (w.size() != 3 || !parseNumber(w[2], number) || number < 0.0 || number != std::floor(number))
            error = "expect plots needs the number of samples each plot holds (a whole number)";
    } else if (what == "reloads" || what == "blend") {  // expect reloads N / blend WEIGHT [TOLERANCE]
        checkValue(w, 2, error);
    } else if (what == "loaded_at") {  // expect loaded_at first
        if (w.size() != 3 || w[2] != "first")
            error = "expect loaded_at needs 'first' (the Plugin panel's load time is the first library's)";
    } else if (what == "mode") {
        if (w.size() != 3) error = "expect mode needs one mode (the first object's \"mode\" property)";
    } else if (what == "quit") {  // expect quit: the editor quit before this line ran
        if (w.size() != 2) error = "expect quit takes nothing after it";
    } else if (what == "dirty" || what == "clean") {
        if (w.size() != 2) error = "expect " + what + " takes nothing after it";
    } else if (what == "status") {  // expect status TEXT...
        if (w.size() < 3) error = "expect status needs the text the status line shows";
    } else if (what == "drawn") {  // expect drawn TEXT...
        if (w.size() < 3) error = "expect drawn needs the text whose glyphs the panels' font must have";
    } else if (what == "save_as") {  // expect save_as TEXT...
        if (w.size() < 3) error = "expect save_as needs the text the Save As dialog shows";
    } else if (what == "character" || what == "flag" || what == "label") {  // expect character|flag|label visible|hidden
        if (w.size() != 3 || (w[2] != "visible" && w[2] != "hidden"))
            error = "expect " + what + " needs 'visible' (" +
                    (what == "flag"    ? "the first spawn's pole and flag in view"
                     : what == "label" ? "the first spawn's label between the side panels"
                                       : "all the first spawn made in view") +
                    ") or 'hidden'";
    } else if (what == "panel") {  // expect panel NAME width|gap PIXELS [TOLERANCE] | expect panel NAME inside|clear
        if (w.size() == 4 && (w[3] == "inside" || w[3] == "clear")) return true;
        if (w.size() < 5 || (w[3] != "width" && w[3] != "gap"))
            error = "expect panel needs 'NAME width PIXELS [TOLERANCE]', 'NAME gap PIXELS [TOLERANCE]', 'NAME inside' or "
                    "'NAME clear'";
        else
            checkValue(w, 4, error);
    } else {
        error = "expect needs joint, property, reloads, loaded_at, blend, mode, dirty, clean, hovered, selected, "
                "dialog, plots, status, drawn, save_as, character, flag, label, panel or quit";
    }
    return true;
}

}  // namespace

bool parseEditorScriptCommand(const std::vector<std::string>& w, std::string& error) {
    if (isMouseTarget(w)) return checkTarget(w, error);
    if (!w.empty() && w[0] == "expect") return checkExpect(w, error);
    if (!w.empty() && w[0] == "select") {
        if (w.size() != 3) error = "select needs 'joint NAME', 'body NAME' or the plugin's 'KIND NAME'";
        return true;
    }
    if (!w.empty() && w[0] == "type") {
        if (w.size() < 2) error = "type needs the text to type (into the widget being edited)";
        return true;
    }
    // Neither the editor's nor the player's: the list names both (the player's alone left out
    // select, type and expect).
    if (!w.empty() && !isScriptCommand(w[0])) {
        error = "unknown command '" + w[0] + "' (commands: " + scriptCommandList() + "; the editor's: select, type, expect)";
        return true;
    }
    return false;
}

Script loadEditorScript(const std::string& path, std::vector<ScriptError>& errors) {
    return Script::load(path, errors, parseEditorScriptCommand);
}

bool EditorScriptRunner::run(std::int64_t frame, InputMap& input, const Camera& camera, const Handler& handler,
                             std::string& error) {
    // Releases of earlier presses first: a press lasts exactly one frame.
    while (!releases_.empty() && releases_.front().frame <= frame) {
        input.keyEvent(releases_.front().keycode, false);
        releases_.erase(releases_.begin());
    }
    const std::vector<ScriptCommand>& commands = script_.commands();
    for (; next_ < commands.size() && commands[next_].step <= frame; ++next_) {
        const ScriptCommand& c = commands[next_];
        if (applyInputCommand(c, input, camera)) {
            if (c.op == ScriptOp::KeyPress) releases_.push_back({frame + 1, c.keycode});
            continue;
        }
        if (!handler(c, error)) {
            failedLine_ = c.line;
            ++next_;
            return false;
        }
        if (c.op == ScriptOp::Quit) {  // the run ends here: nothing after it applies
            next_ = commands.size();
            releases_.clear();
            return true;
        }
    }
    return true;
}

}  // namespace paper::editor
