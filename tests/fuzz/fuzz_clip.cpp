// The clip loader on arbitrary text, against the stickman: refused with a reason, or a clip
// that samples to finite poses anywhere in (and beyond) its length.
#include <cmath>
#include <memory>

#include "anim/clip.h"
#include "fuzz_target.h"
#include "rig/rig_loader.h"

using namespace ragdoll;

namespace {
const RigDefinition& stickman() {
    static const std::shared_ptr<const RigDefinition> rig =
        loadRigFile(std::string(PAPERDOLL_CONTENT_DIR) + "/rigs/stickman.rig.xml").rig;
    FUZZ_CHECK(rig != nullptr);
    return *rig;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const RigDefinition& rig = stickman();
    const ClipLoadResult loaded = loadClipFromText({reinterpret_cast<const char*>(data), size}, "fuzz.anim.xml", rig);
    if (!loaded.clip) {
        FUZZ_CHECK(hasErrors(loaded.diagnostics));
        return 0;
    }
    gFuzzInputTaken = true;
    LocalPose pose;
    for (double time : {-1.0, 0.0, 0.013, 0.5, 1.0, 2.7, 1e6}) {
        sampleClip(*loaded.clip, rig, time, pose);
        for (double angle : pose.angles) FUZZ_CHECK(std::isfinite(angle));
        FUZZ_CHECK(std::isfinite(rootTravel(*loaded.clip, time)));
    }
    return 0;
}
