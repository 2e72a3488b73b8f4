// The plugin's state blob loader (what a hot reload hands the new library through
// module/module.cpp's loadState) on arbitrary bytes: refused with a reason and the scene
// left as it was, or taken and stepped on with finite bodies.
#include <cmath>
#include <memory>
#include <string>

#include "fuzz_target.h"
#include "scene/scene.h"

using namespace ragdoll;

namespace {

/// Ground and one stickman (its clips with it), like the harness's first spawn.
std::unique_ptr<Scene> makeScene() {
    SceneLevel level;
    level.terrain.push_back({{{-20.0, -1.0}, {20.0, -1.0}, {20.0, 0.0}, {-20.0, 0.0}}});
    level.props.push_back({"crate", {2.0, 0.25}, 0.0, {0.25, 0.25}, 5.0, 0.6, 0.0, 0xff808080u});
    level.spawns.push_back({"player", std::string(PAPERDOLL_CONTENT_DIR) + "/rigs/stickman.rig.xml", {0.0, 0.0}, true});
    auto scene = std::make_unique<Scene>();
    std::string error;
    FUZZ_CHECK(scene->loadLevel(level, error));
    return scene;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static std::unique_ptr<Scene> scene = makeScene();
    static const std::vector<std::uint8_t> pristine = scene->saveState();
    std::string error;
    if (!scene->loadState(data, size, error)) {
        FUZZ_CHECK(!error.empty());
        FUZZ_CHECK(scene->saveState() == pristine);  // refused: nothing changed
        return 0;
    }
    gFuzzInputTaken = true;
    for (int i = 0; i < 3; ++i) scene->step(1.0 / 60.0);
    scene->world().forEachBody([&](BodyId body) { FUZZ_CHECK(isFinite(scene->world().bodyState(body).position)); });
    scene = makeScene();  // the next input starts from the same scene
    return 0;
}
