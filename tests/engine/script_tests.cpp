// Input scripts (app/script.h): the parser, its errors with their lines, and the runner's
// timing against an InputMap and a camera, as the player drives them.
#include <catch2/catch.hpp>

#include <SDL_keycode.h>

#include <filesystem>
#include <cmath>
#include <fstream>

#include "paper/player_input.h"
#include "paper/plugin_host.h"
#include "paper/script.h"
#include "paper/camera.h"
#include "paper/level.h"
#include "run_process.h"

namespace fs = std::filesystem;
using namespace paper;

namespace {

Script parseOk(const std::string& text) {
    std::vector<ScriptError> errors;
    Script script = Script::parse(text, errors);
    for (const ScriptError& e : errors) UNSCOPED_INFO(Script::format("test.script", e));
    REQUIRE(errors.empty());
    return script;
}

std::vector<ScriptError> parseErrors(const std::string& text, const ScriptExtensionHook& hook = {}) {
    std::vector<ScriptError> errors;
    Script::parse(text, errors, hook);
    return errors;
}

/// Actions a plugin might declare, in PaperInput's bit order (kWalkLeft is bit 0).
enum GameAction { kWalkLeft, kWalkRight, kRun, kJump, kToggle };
PluginDeclarations declaredActions() {
    PluginDeclarations d;
    d.actions = {{"walk_left", "walk left", {"Left"}},
                 {"walk_right", "walk right", {"Right"}},
                 {"run", "run", {"Left Shift", "Right Shift"}},
                 {"jump", "jump", {"Space"}},
                 {"toggle", "fall", {"R"}}};
    return d;
}

/// The player's bindings with declaredActions() bound, as after a plugin loads.
PlayerBindings boundPlayer(InputMap& input) {
    PlayerBindings bindings(input);
    const std::vector<std::string> problems = bindings.bindGame(input, declaredActions());
    REQUIRE(problems.empty());
    return bindings;
}

/// The 1280×720 view a headless run has, framed on (0, 1) 6 m high.
Camera headlessCamera() {
    Camera camera;
    camera.viewportSize = {1280.0f, 720.0f};
    camera.frame({0.0f, 1.0f}, 6.0f);
    return camera;
}

}  // namespace

TEST_CASE("every script command parses, at the step its waits reach", "[script]") {
    Script s = parseOk(
        "# a comment line\n"
        "\n"
        "key down Left   # a trailing comment\n"
        "wait 0.5\n"
        "key up Left\n"
        "key press Left Shift\n"
        "wait_frames 3\n"
        "key press 1\n"
        "key down tab\n"
        "\tmouse move world 1.5 -0.25\r\n"
        "mouse move screen 640 360\n"
        "mouse down left\n"
        "mouse up middle\n"
        "mouse down right\n"
        "wait 0.001\n"  // rounds to 0 steps
        "wait 0.009\n"  // rounds to 1 step
        "screenshot shots/after walk.png\n"
        "quit\n");
    const std::vector<ScriptCommand>& c = s.commands();
    REQUIRE(c.size() == 12);

    CHECK(c[0].op == ScriptOp::KeyDown);
    CHECK(c[0].keycode == SDLK_LEFT);
    CHECK(c[0].line == 3);
    CHECK(c[0].step == 0);
    CHECK(c[1].op == ScriptOp::KeyUp);
    CHECK(c[1].step == 30);
    CHECK(c[2].op == ScriptOp::KeyPress);
    CHECK(c[2].keycode == SDLK_LSHIFT);
    CHECK(c[2].step == 30);
    CHECK(c[3].keycode == SDLK_1);
    CHECK(c[3].step == 33);
    CHECK(c[4].op == ScriptOp::KeyDown);
    CHECK(c[4].keycode == SDLK_TAB);  // SDL's names are case-insensitive
    CHECK(c[5].op == ScriptOp::MouseMoveWorld);
    CHECK(c[5].position == Vec2{1.5f, -0.25f});
    CHECK(c[5].line == 10);
    CHECK(c[6].op == ScriptOp::MouseMoveScreen);
    CHECK(c[6].position == Vec2{640.0f, 360.0f});
    CHECK(c[7].op == ScriptOp::MouseDown);
    CHECK(c[7].button == MouseButton::Left);
    CHECK(c[8].op == ScriptOp::MouseUp);
    CHECK(c[8].button == MouseButton::Middle);
    CHECK(c[9].op == ScriptOp::MouseDown);
    CHECK(c[9].button == MouseButton::Right);
    CHECK(c[10].op == ScriptOp::Screenshot);
    CHECK(c[10].file == "shots/after walk.png");
    CHECK(c[10].step == 34);
    CHECK(c[11].op == ScriptOp::Quit);
    CHECK(c[11].line == 18);
    REQUIRE(s.quitStep());
    CHECK(*s.quitStep() == 34);
    CHECK(s.endStep() == 34);
}

TEST_CASE("a script ends when its last wait ends or its last input has been seen by a step", "[script]") {
    CHECK(parseOk("").endStep() == 0);
    CHECK(parseOk("# only a comment\n\n").endStep() == 0);
    CHECK(parseOk("wait 2\n").endStep() == 120);
    CHECK(parseOk("key down R\n").endStep() == 1);         // step 0 sees it
    CHECK(parseOk("key press R\n").endStep() == 2);        // step 1 sees the release
    CHECK(parseOk("wait 1\nscreenshot a.png\n").endStep() == 60);  // the world after 60 steps
    CHECK(parseOk("key press R\nwait 1\n").endStep() == 60);
    CHECK_FALSE(parseOk("wait 1\n").quitStep());
    // quit ends the script there; what follows still has to parse but never runs.
    Script quits = parseOk("wait 1\nquit\nwait 5\nkey press R\n");
    CHECK(*quits.quitStep() == 60);
    CHECK(quits.endStep() == 60);
}

TEST_CASE("script errors name their line and what is wrong", "[script]") {
    struct Case {
        const char* text;
        int line;
        const char* message;
    };
    const Case cases[] = {
        {"jump\n", 1, "unknown command 'jump' (commands: wait, wait_frames, key, action, mouse, screenshot, quit)"},
        {"select joint elbow_L\n", 1, "'select' is a command of the editor's scripts: run this script with paperdoll_editor --script"},
        {"wait 1\nexpect dirty\n", 2, "'expect' is a command of the editor's scripts: run this script with paperdoll_editor --script"},
        {"\n# c\nwait\n", 3, "wait takes one number of seconds (e.g. wait 0.5), got 0 arguments"},
        {"wait 1 2\n", 1, "wait takes one number of seconds (e.g. wait 0.5), got 2 arguments"},
        {"wait soon\n", 1, "wait: 'soon' is not a number of seconds"},
        {"wait 1s\n", 1, "wait: '1s' is not a number of seconds"},
        {"wait nan\n", 1, "wait: 'nan' is not a number of seconds"},
        {"wait inf\n", 1, "wait: 'inf' is not a number of seconds"},
        {"wait -1\n", 1, "wait: a negative wait (-1 s) cannot go back in time"},
        {"wait 1e12\n", 1, "wait: 1e12 s is more than a day (86400 s); use --frames for long runs"},
        {"wait_frames\n", 1, "wait_frames takes one whole number of steps (e.g. wait_frames 30), got 0 arguments"},
        {"wait_frames 1.5\n", 1, "wait_frames: '1.5' is not a whole number of steps"},
        {"wait_frames -3\n", 1, "wait_frames: a negative wait (-3) cannot go back in time"},
        {"wait_frames 99999999999\n", 1, "wait_frames: 99999999999 steps is more than a day (5184000 steps); use --frames for long runs"},
        {"key\n", 1, "key needs down, up or press and a key name (e.g. key press Space)"},
        {"key hold R\n", 1, "key needs down, up or press and a key name (e.g. key press Space)"},
        {"key press\n", 1, "key press needs a key name (SDL key names: Left, Right, Space, R, 1, Tab, Left Shift, ...)"},
        {"key down Lefty\n", 1, "unknown key name 'Lefty' (SDL key names: Left, Right, Space, R, 1, Tab, Left Shift, ...)"},
        {"key down Space Space\n", 1, "unknown key name 'Space Space' (SDL key names: Left, Right, Space, R, 1, Tab, Left Shift, ...)"},
        {"mouse\n", 1, "mouse needs move, down, up or wheel (e.g. mouse move world 1.5 0.8, mouse down left, mouse wheel 3)"},
        {"mouse click left\n", 1,
         "mouse needs move, down, up or wheel (e.g. mouse move world 1.5 0.8, mouse down left, mouse wheel 3)"},
        {"mouse wheel\n", 1, "mouse wheel takes one number of notches, got 0 arguments"},
        {"mouse wheel 1 2\n", 1, "mouse wheel takes one number of notches, got 2 arguments"},
        {"mouse wheel up\n", 1, "mouse wheel: 'up' is not a number"},
        {"mouse wheel -101\n", 1, "mouse wheel: -101 is out of range (at most 100 notches either way)"},
        {"mouse move 1 2\n", 1, "mouse move needs world (metres) or screen (pixels), then X Y"},
        {"mouse move world 1\n", 1, "mouse move world takes X and Y, got 1 number"},
        {"mouse move screen 1 2 3\n", 1, "mouse move screen takes X and Y, got 3 numbers"},
        {"mouse move world x 2\n", 1, "mouse move: 'x' is not a number"},
        {"mouse move world 1 2e7\n", 1, "mouse move: 2e7 is out of range (at most 1000000 in magnitude)"},
        {"mouse down\n", 1, "mouse down takes one button (left, middle or right), got 0 arguments"},
        {"mouse up left right\n", 1, "mouse up takes one button (left, middle or right), got 2 arguments"},
        {"mouse down thumb\n", 1, "mouse down: unknown button 'thumb' (left, middle or right)"},
        {"screenshot\n", 1, "screenshot needs a file name (e.g. screenshot shot.png)"},
        {"screenshot shots/walk.jpeg\n", 1, "screenshot 'shots/walk.jpeg': a screenshot is written as PNG: name it 'walk.png'"},
        {"screenshot levels/harness.level.xml\n", 1,
         "screenshot 'levels/harness.level.xml': it ends in .xml, as levels, rigs and clips do, which this would write "
         "over: name it 'harness.level.png'"},
        {"screenshot # a comment, not a file\n", 1, "screenshot needs a file name (e.g. screenshot shot.png)"},
        {"quit now\n", 1, "quit takes no arguments, got 1 argument"},
        {"Wait 1\n", 1, "unknown command 'Wait' (commands: wait, wait_frames, key, action, mouse, screenshot, quit)"},
    };
    for (const Case& c : cases) {
        CAPTURE(c.text);
        std::vector<ScriptError> errors = parseErrors(c.text);
        REQUIRE(errors.size() == 1);
        CHECK(errors[0].line == c.line);
        CHECK(errors[0].message == c.message);
    }
}

TEST_CASE("every error in a script is reported as FILE:LINE: error:", "[script]") {
    std::vector<ScriptError> errors = parseErrors(
        "wait 0.5\n"
        "key press Nope\n"
        "# fine\n"
        "wait -2\n"
        "key press R\n"
        "fly away\n");
    REQUIRE(errors.size() == 3);
    CHECK(Script::format("demo.script", errors[0]) ==
          "demo.script:2: error: unknown key name 'Nope' (SDL key names: Left, Right, Space, R, 1, Tab, Left Shift, ...)");
    CHECK(Script::format("demo.script", errors[1]) == "demo.script:4: error: wait: a negative wait (-2 s) cannot go back in time");
    CHECK(Script::format("demo.script", errors[2]) ==
          "demo.script:6: error: unknown command 'fly' (commands: wait, wait_frames, key, action, mouse, screenshot, quit)");
    CHECK(Script::format("demo.script", ScriptError{0, "cannot read"}) == "demo.script: error: cannot read");

    // Waits that add up past 10^9 steps: one error at the line that crosses.
    std::string longScript;
    for (int i = 0; i < 200; ++i) longScript += "wait 86400\n";
    errors = parseErrors(longScript);
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].line == 193);  // 192 days = 995,328,000 steps; the 193rd crosses 10^9
    CHECK(errors[0].message == "the script is longer than 1000000000 steps here");
}

TEST_CASE("a caller's hook can claim commands the parser does not know", "[script]") {
    ScriptExtensionHook hook = [](const std::vector<std::string>& words, std::string& error) {
        if (words[0] != "assert") return false;
        if (words.size() != 3) error = "assert takes a name and a value";
        return true;
    };
    std::vector<ScriptError> errors;
    Script s = Script::parse("wait 1\nassert mode ragdoll\nassert mode\nexplode\n", errors, hook);
    REQUIRE(errors.size() == 2);
    CHECK(errors[0].line == 3);
    CHECK(errors[0].message == "assert takes a name and a value");
    CHECK(errors[1].line == 4);
    CHECK_THAT(errors[1].message, Catch::StartsWith("unknown command 'explode'"));

    errors.clear();
    s = Script::parse("wait 1\nassert mode ragdoll\n", errors, hook);
    REQUIRE(errors.empty());
    REQUIRE(s.commands().size() == 1);
    CHECK(s.commands()[0].op == ScriptOp::Extension);
    CHECK(s.commands()[0].words == std::vector<std::string>{"assert", "mode", "ragdoll"});
    CHECK(s.endStep() == 60);

    ScriptRunner runner(s);
    CHECK(runner.takeObservations(59).empty());
    std::vector<const ScriptCommand*> due = runner.takeObservations(60);
    REQUIRE(due.size() == 1);
    CHECK(due[0]->line == 2);
    CHECK(runner.takeObservations(61).empty());  // each once
}

TEST_CASE("a key press after wait 0.5 is exactly one pressed edge, at step 30", "[script]") {
    Script s = parseOk("wait 0.5\nkey press Space\n");
    InputMap input;
    PlayerBindings bindings = boundPlayer(input);
    Camera camera = headlessCamera();
    ScriptRunner runner(s);
    std::vector<std::int64_t> pressedAt, heldAt;
    for (std::int64_t step = 0; step < 40; ++step) {
        runner.applyInput(step, input, camera);
        runner.applyInput(step, input, camera);  // a boundary applies once, however often asked
        PaperInput in = makePaperInput(input, bindings, camera);
        if (in.pressed & (1u << kJump)) pressedAt.push_back(step);
        if (in.held & (1u << kJump)) heldAt.push_back(step);
        CHECK((in.pressed & ~(std::uint64_t(1) << kJump)) == 0);
        input.consumeEdges();
    }
    CHECK(pressedAt == std::vector<std::int64_t>{30});
    CHECK(heldAt == std::vector<std::int64_t>{30});
}

TEST_CASE("key down and up hold an action across the steps between them", "[script]") {
    Script s = parseOk("key down Right\nkey down Left Shift\nwait_frames 10\nkey up Right\nkey up Right Shift\n");
    InputMap input;
    PlayerBindings bindings = boundPlayer(input);
    Camera camera = headlessCamera();
    ScriptRunner runner(s);
    int pressedRight = 0, heldRight = 0, heldRun = 0;
    for (std::int64_t step = 0; step < 20; ++step) {
        runner.applyInput(step, input, camera);
        PaperInput in = makePaperInput(input, bindings, camera);
        bool right = in.held & (1u << kWalkRight);
        CHECK(right == (step < 10));
        heldRight += right;
        pressedRight += bool(in.pressed & (1u << kWalkRight));
        heldRun += bool(in.held & (1u << kRun));
        input.consumeEdges();
    }
    CHECK(heldRight == 10);
    CHECK(pressedRight == 1);
    CHECK(heldRun == 20);  // Right Shift going up never went down; Left Shift still holds RUN
}

TEST_CASE("skipped boundaries are applied in order: a press's release before a later down", "[script]") {
    Script s = parseOk("wait_frames 3\nkey press R\nwait_frames 1\nkey down R\n");
    InputMap input;
    PlayerBindings bindings = boundPlayer(input);
    Camera camera = headlessCamera();
    ScriptRunner runner(s);
    runner.applyInput(10, input, camera);  // boundaries 3 and 4 at once
    CHECK(input.held(bindings.game[kToggle]));
}

TEST_CASE("script mouse positions go through the camera, world and screen alike", "[script]") {
    Script s = parseOk(
        "mouse move world 2 1.5\n"
        "mouse down left\n"
        "wait_frames 1\n"
        "mouse move screen 640 360\n"
        "mouse up left\n"
        "mouse down right\n");
    InputMap input;
    PlayerBindings bindings = boundPlayer(input);
    Camera camera = headlessCamera();
    ScriptRunner runner(s);

    runner.applyInput(0, input, camera);
    Vec2 screen = camera.worldToScreen({2.0f, 1.5f});
    CHECK(input.mouse().position.x == Approx(screen.x));
    CHECK(input.mouse().position.y == Approx(screen.y));
    CHECK(screen.x == Approx(640.0f + 2.0f * 120.0f));  // 720 px for 6 m: 120 px/m
    CHECK(screen.y == Approx(360.0f - 0.5f * 120.0f));
    PaperInput in = makePaperInput(input, bindings, camera);
    CHECK(in.mouseWorld.x == Approx(2.0f));
    CHECK(in.mouseWorld.y == Approx(1.5f));
    CHECK(in.mouseDown == 1);

    runner.applyInput(1, input, camera);
    in = makePaperInput(input, bindings, camera);
    CHECK(in.mouseWorld.x == Approx(0.0f).margin(1e-6));  // the middle of the view is its centre
    CHECK(in.mouseWorld.y == Approx(1.0f));
    CHECK(in.mouseDown == 4);
}

TEST_CASE("a script's world point stays under the cursor while the view moves, until a screen move", "[script]") {
    // The player's view follows its figure: a `mouse move world` mapped to a pixel once, and a
    // press a second later, landed wherever the view had moved the point by then.
    Script s = parseOk("mouse move world 2 1.5\nwait_frames 2\nmouse down left\nwait_frames 1\nmouse move screen 640 360\n");
    InputMap input;
    PlayerBindings bindings = boundPlayer(input);
    Camera camera = headlessCamera();
    ScriptRunner runner(s);
    runner.applyInput(0, input, camera);
    camera.center = camera.center + Vec2{3.0f, -0.5f};  // followed: the view moved
    runner.applyInput(2, input, camera);
    PaperInput in = makePaperInput(input, bindings, camera);
    CHECK(in.mouseDown == 1);
    CHECK(in.mouseWorld.x == Approx(2.0f));
    CHECK(in.mouseWorld.y == Approx(1.5f));
    // A screen move lets go of the world point: the pixel stays as the view moves on.
    runner.applyInput(3, input, camera);
    camera.center = camera.center + Vec2{1.0f, 0.0f};
    runner.applyInput(3, input, camera);
    CHECK(input.mouse().position.x == Approx(640.0f));
    CHECK(input.mouse().position.y == Approx(360.0f));
}

TEST_CASE("a script's wheel zooms the player's view at the cursor, as the mouse wheel does", "[script]") {
    Script s = parseOk("mouse move world 2 1.5\nmouse wheel 5\nwait_frames 1\nmouse wheel -5\n");
    InputMap input;
    PlayerBindings bindings = boundPlayer(input);
    PlayerView view{headlessCamera()};
    Camera& camera = view.camera;
    const CameraView home{{0.0f, 1.0f}, 6.0f};
    ScriptRunner runner(s);

    runner.applyInput(0, input, camera);
    updateCamera(view, input, bindings, home);
    CHECK(camera.pixelsPerMetre == Approx(120.0f * std::pow(1.15f, 5.0f)));  // 241 px/m
    const Vec2 cursor = camera.worldToScreen({2.0f, 1.5f});  // the point under the cursor stays put
    CHECK(cursor.x == Approx(640.0f + 2.0f * 120.0f));
    CHECK(cursor.y == Approx(360.0f - 0.5f * 120.0f));
    input.endFrame();

    runner.applyInput(1, input, camera);
    updateCamera(view, input, bindings, home);
    CHECK(camera.pixelsPerMetre == Approx(120.0f));
}

TEST_CASE("the start view shows the first spawn in any window shape, moving the level's camera sideways the least",
          "[player][camera]") {
    // The harness's camera (x 7.4 m, 8.5 m tall) in an 800x600 window shows x from 1.7 m: its
    // spawn, at 1 m, was out of the picture.
    const LevelLoadResult loaded = loadLevelFile(std::string(PAPERDOLL_CONTENT_DIR) + "/levels/harness.level.xml");
    REQUIRE(loaded.level);
    const Level& level = *loaded.level;
    REQUIRE(level.spawns.front().position.x == Approx(1.0f));
    const CameraView wide = startView(level, {1280.0f, 720.0f});
    CHECK(wide.center.x == level.camera.center.x);  // already in view: as the level says
    CHECK(wide.center.y == level.camera.center.y);
    CHECK(wide.viewHeight == level.camera.viewHeight);
    const CameraView narrow = startView(level, {800.0f, 600.0f});
    const float halfWidth = 0.5f * 8.5f * 800.0f / 600.0f;
    CHECK(narrow.center.x - halfWidth == Approx(1.0f - kSpawnViewMargin));  // the spawn a metre from the left edge
    CHECK(narrow.center.y == level.camera.center.y);
    CHECK(narrow.viewHeight == level.camera.viewHeight);
    Level none = level;  // no spawn: the level's view
    none.spawns.clear();
    CHECK(startView(none, {800.0f, 600.0f}).center.x == level.camera.center.x);
}

TEST_CASE("screenshots and quit come back once, at the boundary after their steps", "[script]") {
    Script s = parseOk("screenshot first.png\nwait 1\nscreenshot second.png\nkey press R\nquit\n");
    ScriptRunner runner(s);
    std::vector<const ScriptCommand*> due = runner.takeObservations(0);
    REQUIRE(due.size() == 1);
    CHECK(due[0]->file == "first.png");
    CHECK(runner.takeObservations(59).empty());
    due = runner.takeObservations(60);
    REQUIRE(due.size() == 2);  // the key press between them is input, not an observation
    CHECK(due[0]->file == "second.png");
    CHECK(due[1]->op == ScriptOp::Quit);
    CHECK(runner.takeObservations(1000).empty());
}

TEST_CASE("script files: missing, a directory, a device, binary and empty", "[script]") {
    std::string dir = test::makeTempDir();
    std::vector<ScriptError> errors;
    Script::load(dir + "/missing.script", errors);
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].line == 0);
    CHECK(errors[0].message == "cannot read the script '" + dir + "/missing.script': No such file or directory");

    errors.clear();
    Script::load(dir, errors);
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].message == "'" + dir + "' is a directory, not a script file");

    // Reading /dev/zero would never end; a pipe would wait for a writer.
    errors.clear();
    Script::load("/dev/zero", errors);
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].line == 0);
    CHECK(errors[0].message == "'/dev/zero' is not a regular file (a device or a pipe?), not a script file");

    // One error for a binary file, at its first NUL or control byte, not one per line of
    // noise echoed raw to the terminal.
    errors.clear();
    std::ofstream(dir + "/binary.script", std::ios::binary) << "wait 1\n" << '\0' << "\x01\xff\n\xfe\n";
    Script::load(dir + "/binary.script", errors);
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].line == 2);
    CHECK(errors[0].message == "'" + dir + "/binary.script' is binary (a NUL byte here), not a script file");
    errors.clear();
    std::ofstream(dir + "/control.script", std::ios::binary) << "wait 1\r\n\twait 2\nab\x01\xfe cd\n";
    Script::load(dir + "/control.script", errors);
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].line == 3);
    CHECK(errors[0].message == "'" + dir + "/control.script' is binary (a control byte here), not a script file");

    // Nothing to do: an empty file, or only comments, is refused (a wrong or truncated file).
    for (const char* text : {"", "\n  \n", "# nothing\n   # at all\n"}) {
        CAPTURE(text);
        errors.clear();
        std::ofstream(dir + "/empty.script", std::ios::trunc) << text;
        Script::load(dir + "/empty.script", errors);
        REQUIRE(errors.size() == 1);
        CHECK(errors[0].line == 0);
        CHECK(errors[0].message ==
              "the script '" + dir + "/empty.script' is empty: no commands, only blank lines or comments");
    }
    fs::remove_all(dir);
}

TEST_CASE("the plugin's declared actions get their keys, a reload replaces them, and problems are named",
          "[script][input]") {
    InputMap input;
    PlayerBindings bindings = boundPlayer(input);
    REQUIRE(bindings.game.size() == 5);
    CHECK(gameKeyHelp(declaredActions()) ==
          "Left walk left, Right walk right, Left Shift/Right Shift run, Space jump, R fall");
    input.keyEvent(SDLK_SPACE, true);
    CHECK(input.held(bindings.game[kJump]));
    input.keyEvent(SDLK_SPACE, false);

    // A reloaded library moves jump to J and drops the toggle: Space no longer jumps, R does nothing.
    PluginDeclarations next = declaredActions();
    next.actions[kJump].keys = {"J"};
    next.actions.pop_back();
    REQUIRE(bindings.bindGame(input, next).empty());
    REQUIRE(bindings.game.size() == 4);
    input.keyEvent(SDLK_SPACE, true);
    CHECK_FALSE(input.held(bindings.game[kJump]));
    input.keyEvent(SDLK_j, true);
    CHECK(input.held(bindings.game[kJump]));
    input.keyEvent(SDLK_r, true);
    CHECK(input.held(input.find("toggle")) == false);

    // A key SDL does not know, and an action named like the engine's own: both said, neither bound.
    PluginDeclarations bad;
    bad.actions = {{"jump", "jump", {"Spacebar"}}, {"quit", "give up", {"Q"}}};
    const std::vector<std::string> problems = bindings.bindGame(input, bad);
    REQUIRE(problems.size() == 2);
    CHECK_THAT(problems[0], Catch::Contains("'jump' names key 'Spacebar', which SDL does not know"));
    CHECK_THAT(problems[1], Catch::Contains("'quit' has the name of one of the engine's"));
    CHECK(bindings.game[1] == kNoAction);
    input.keyEvent(SDLK_q, true);
    CHECK_FALSE(input.held(bindings.quit));  // Q is not the engine's quit (Esc is)
}

TEST_CASE("`action press NAME` presses the declared action's first key, an undeclared one is an error at its line",
          "[script][input]") {
    Script s = parseOk("wait_frames 2\naction press jump\naction down run\nwait_frames 1\naction up run\n");
    InputMap input;
    PlayerBindings bindings = boundPlayer(input);
    const PluginDeclarations declared = declaredActions();
    REQUIRE(s.bindActions(input, &declared).empty());
    Camera camera = headlessCamera();
    ScriptRunner runner(s);
    std::vector<std::int64_t> jumpAt, runHeld;
    for (std::int64_t step = 0; step < 6; ++step) {
        runner.applyInput(step, input, camera);
        PaperInput in = makePaperInput(input, bindings, camera);
        if (in.pressed & (1u << kJump)) jumpAt.push_back(step);
        if (in.held & (1u << kRun)) runHeld.push_back(step);
        input.consumeEdges();
    }
    CHECK(jumpAt == std::vector<std::int64_t>{2});
    CHECK(runHeld == std::vector<std::int64_t>{2});

    Script unknown = parseOk("action press jmup\nwait 0.1\naction down walk_right\n");
    std::vector<ScriptError> errors = unknown.bindActions(input, &declared);
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].line == 1);
    CHECK_THAT(errors[0].message, Catch::StartsWith("no action 'jmup': the plugin declares none by that name (its actions: ") &&
                                      Catch::Contains("jump"));
    // The engine's own bindings are not the plugin's actions.
    REQUIRE(parseOk("action press quit\n").bindActions(input, &declared).size() == 1);
    // No plugin at all (--no-plugin): said so, not that "the plugin" lacks it.
    errors = parseOk("wait 1\naction press jump\n").bindActions(input, nullptr);
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].line == 2);
    CHECK(errors[0].message == "no action 'jump': no plugin is loaded to declare one (--no-plugin)");
    CHECK(parseErrors("action press\n").size() == 1);
    CHECK(parseErrors("action hold jump\n").size() == 1);
}
