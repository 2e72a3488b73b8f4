// The editor's script commands: parsing through the engine's hook, and file-order replay.
#include <catch2/catch.hpp>

#include <SDL.h>

#include <filesystem>
#include <fstream>

#include "app/editor_script.h"
#include "paper/input.h"
#include "paper/camera.h"
#include "run_process.h"

using namespace paper;
using namespace paper::editor;

namespace {
Script load(const std::string& text, std::vector<ScriptError>& errors) {
    std::string dir = test::makeTempDir();
    std::string path = dir + "/s.script";
    std::ofstream(path) << text;
    Script s = loadEditorScript(path, errors);
    std::filesystem::remove_all(dir);
    return s;
}
}  // namespace

TEST_CASE("editor commands parse, engine commands still do", "[editor][script]") {
    std::vector<ScriptError> errors;
    Script s = load("mouse move target joint elbow_L upper\n"
                    "  mouse move target joint elbow_L angle -30.5\n"
                    "mouse move world 1 2\n"
                    "select joint knee_L\n"
                    "expect joint elbow_L upper 100\n"
                    "expect joint elbow_L lower 0 0.5\n",
                    errors);
    REQUIRE(errors.empty());
    REQUIRE(s.commands().size() == 6);
    CHECK(s.commands()[0].op == ScriptOp::Extension);
    CHECK(isMouseTarget(s.commands()[0].words));
    CHECK(s.commands()[1].words[6] == "-30.5");
    CHECK(s.commands()[2].op == ScriptOp::MouseMoveWorld);
    CHECK(s.commands()[3].op == ScriptOp::Extension);
    CHECK(s.commands()[5].words.size() == 6);
}

TEST_CASE("bad editor commands are errors on their lines", "[editor][script]") {
    std::vector<ScriptError> errors;
    load("mouse move target joint elbow_L sideways\n"
         "expect joint elbow_L upper lots\n"
         "select knee_L\n"
         "mouse move target joint elbow_L angle 270\n"
         "expect joint elbow_L upper 1 -2\n",
         errors);
    REQUIRE(errors.size() == 5);
    for (int i = 0; i < 5; ++i) CHECK(errors[size_t(i)].line == i + 1);
}

TEST_CASE("an unknown command in an editor script lists the editor's commands too", "[editor][script]") {
    std::vector<ScriptError> errors;
    load("wait_frames 1\nhover joint neck\n", errors);
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].line == 2);
    CHECK(errors[0].message == "unknown command 'hover' (commands: wait, wait_frames, key, action, mouse, screenshot, quit; "
                               "the editor's: select, type, expect)");
}

TEST_CASE("the state expects and widget targets parse", "[editor][script]") {
    std::vector<ScriptError> errors;
    Script s = load("expect reloads 1\n"
                    "expect mode ragdoll\n"
                    "expect dirty\n"
                    "expect clean\n"
                    "expect property solver.substeps 8\n"
                    "expect blend 0.5 0.01\n"
                    "mouse move target widget reset\n"
                    "mouse move target widget blend 0.25\n",
                    errors);
    REQUIRE(errors.empty());
    CHECK(s.commands().size() == 8);

    load("expect reloads many\n"
         "expect mode\n"
         "expect dirty now\n"
         "expect property solver.substeps\n"
         "expect weather sunny\n"
         "mouse move target widget blend 2\n",
         errors);
    REQUIRE(errors.size() == 6);
    for (int i = 0; i < 6; ++i) CHECK(errors[size_t(i)].line == i + 1);
}

TEST_CASE("the body, inspector, dialog and plot commands parse", "[editor][script]") {
    std::vector<ScriptError> errors;
    Script s = load("mouse move target body forearm_L\n"
                    "select body forearm_L\n"
                    "type 2.5\n"
                    "expect property body forearm_L mass 2.5\n"
                    "expect property joint elbow_L stiffness 1 0.01\n"
                    "expect hovered body forearm_L\n"
                    "expect selected joint elbow_L\n"
                    "expect selected none\n"
                    "expect dialog unsaved\n"
                    "expect dialog none\n"
                    "expect plots 90\n"
                    "mouse move target widget dialog:cancel\n",
                    errors);
    REQUIRE(errors.empty());
    REQUIRE(s.commands().size() == 12);
    CHECK(isMouseTarget(s.commands()[0].words));
    CHECK(s.commands()[4].words.size() == 7);

    load("mouse move target body\n"
         "select body\n"
         "type\n"
         "expect property body forearm_L mass\n"
         "expect hovered body\n"
         "expect dialog open\n"
         "expect plots many\n"
         "expect plots 2.5\n",
         errors);
    REQUIRE(errors.size() == 8);
    for (int i = 0; i < 8; ++i) CHECK(errors[size_t(i)].line == i + 1);
}

TEST_CASE("a missing script is one error at line 0", "[editor][script]") {
    std::vector<ScriptError> errors;
    loadEditorScript("/nonexistent/editor.script", errors);
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].line == 0);
}

TEST_CASE("the runner applies commands in file order at their frames", "[editor][script]") {
    std::vector<ScriptError> errors;
    Script s = load("mouse move target joint a upper\nmouse down left\nkey press Z\nwait_frames 2\nexpect joint a upper 1\nquit\nkey press Y\n",
                    errors);
    REQUIRE(errors.empty());
    EditorScriptRunner runner(s);
    InputMap input;
    ActionId z = input.bind("z", SDLK_z);
    Camera camera;
    std::vector<std::string> seen;
    std::string error;
    auto handler = [&](const ScriptCommand& c, std::string&) {
        // The target moves the mouse before the press written after it.
        if (c.op == ScriptOp::Extension && isMouseTarget(c.words)) input.mouseMove({10, 20});
        seen.push_back(c.op == ScriptOp::Quit ? "quit" : c.words[0]);
        return true;
    };
    REQUIRE(runner.run(0, input, camera, handler, error));
    CHECK(input.mouse().down[0]);
    CHECK(input.mouse().position.x == 10.0f);
    CHECK(input.held(z));
    REQUIRE(runner.run(1, input, camera, handler, error));
    CHECK_FALSE(input.held(z));  // a press lasts one frame
    CHECK(seen.size() == 1);
    REQUIRE(runner.run(2, input, camera, handler, error));
    CHECK(seen == std::vector<std::string>{"mouse", "expect", "quit"});
    CHECK(runner.done());  // nothing after quit runs
}

TEST_CASE("a handler's failure stops the runner at that line", "[editor][script]") {
    std::vector<ScriptError> errors;
    Script s = load("wait_frames 1\n\nexpect joint a upper 1\n", errors);
    REQUIRE(errors.empty());
    EditorScriptRunner runner(s);
    InputMap input;
    Camera camera;
    std::string error;
    auto handler = [](const ScriptCommand&, std::string& e) {
        e = "nope";
        return false;
    };
    CHECK(runner.run(0, input, camera, handler, error));
    CHECK_FALSE(runner.run(1, input, camera, handler, error));
    CHECK(runner.failedLine() == 3);
    CHECK(error == "nope");
}
