// The rig loader on arbitrary text. A rig it accepts must also save (rigToText, the
// editor's path) to text that loads back, and build into a world that steps. Each input is
// read as the file art/fuzz.rig.xml, so the images a sprite rig names resolve in art/ and
// the cut-out art's reader (rig/rig_art_loader.cpp: <image>, <sprite>) runs on them. The
// plugin's glue (module/module.cpp) opens a level's rigs and their images through these
// same readers (and the engine's image store, fuzz_png).
#include <cmath>
#include <string>
#include <string_view>

#include "fuzz_target.h"
#include "rig/rig_builder.h"
#include "rig/rig_loader.h"
#include "rig/rig_saver.h"

using namespace ragdoll;

namespace {
const std::string kRigPath = std::string(PAPERDOLL_FUZZ_ART_DIR) + "/fuzz.rig.xml";
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const RigLoadResult loaded = loadRigFromText({reinterpret_cast<const char*>(data), size}, kRigPath);
    if (!loaded.rig) {
        FUZZ_CHECK(hasErrors(loaded.diagnostics));  // refused: and said why
        return 0;
    }
    gFuzzInputTaken = true;
    const RigTextResult text = rigToText(*loaded.rig);
    FUZZ_CHECK(text.ok);
    FUZZ_CHECK(loadRigFromText(text.text, kRigPath).rig != nullptr);

    World world;
    RagdollDef def = defaultRagdollDef();
    def.position = {0.0, 2.0};
    Ragdoll ragdoll = buildRagdoll(world, *loaded.rig, def);
    for (int i = 0; i < 4 && !ragdoll.empty(); ++i) world.step(1.0 / 60.0);
    for (BodyId body : ragdoll.bodies) FUZZ_CHECK(isFinite(world.bodyState(body).position));
    return 0;
}
