// The plugin's state blob loader (what a hot reload hands the new library through
// module/module.cpp's loadState) on arbitrary bytes: refused with a reason and the scene
// left as it was, or taken and stepped on with finite bodies.
#include <cmath>
#include <memory>
#include <string>

#include "fuzz_target.h"
#include "scene/scene.h"
#include "state_blob_level.h"

using namespace ragdoll;

namespace {

std::unique_ptr<Scene> makeScene() {
    auto scene = std::make_unique<Scene>();
    std::string error;
    FUZZ_CHECK(scene->loadLevel(stateBlobLevel(PAPERDOLL_CONTENT_DIR), error));
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
