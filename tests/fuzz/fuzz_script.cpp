// The script parser on arbitrary text, as the player and the editor read a --script file
// after its file checks, in both grammars (the player's, and the editor's with its own
// commands): refused with every error at a line of the file, or a script whose commands
// replay into an InputMap with finite positions, step by step.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "app/editor_script.h"
#include "fuzz_target.h"
#include "paper/camera.h"
#include "paper/input.h"
#include "paper/script.h"

using namespace paper;

namespace {

void check(const std::string& text, const ScriptExtensionHook& hook) {
    std::vector<ScriptError> errors;
    const Script script = Script::parse(text, errors, hook);
    const int lines = 1 + int(std::count(text.begin(), text.end(), '\n'));
    if (!errors.empty()) {
        for (const ScriptError& e : errors) FUZZ_CHECK(e.line >= 1 && e.line <= lines && !e.message.empty());
        return;
    }
    gFuzzInputTaken = true;
    FUZZ_CHECK(script.endStep() >= 0 && script.endStep() <= Script::kMaxSteps);
    for (const ScriptCommand& c : script.commands()) {
        FUZZ_CHECK(c.line >= 1 && c.line <= lines);
        FUZZ_CHECK(std::isfinite(c.position.x) && std::isfinite(c.position.y) && std::isfinite(c.wheel));
    }
    // The first steps of its replay (a script may wait for a day), as a run applies them.
    InputMap input;
    Camera camera;
    camera.viewportSize = {1280.0f, 720.0f};
    camera.frame({0.0f, 1.0f}, 6.0f);
    ScriptRunner runner(script);
    const std::int64_t steps = std::min<std::int64_t>(script.endStep() + 1, 600);
    for (std::int64_t step = 0; step < steps; ++step) {
        runner.applyInput(step, input, camera);
        for (const ScriptCommand* c : runner.takeObservations(step + 1)) FUZZ_CHECK(c->line >= 1);
        FUZZ_CHECK(std::isfinite(input.mouse().position.x) && std::isfinite(input.mouse().position.y));
        input.consumeEdges();
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    check(text, {});
    check(text, editor::parseEditorScriptCommand);
    return 0;
}
