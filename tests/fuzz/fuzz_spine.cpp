// The Spine importer on arbitrary input: the JSON reader (spine_json.cpp,
// spine_json_animations.cpp) on the bytes before the first NUL, the atlas reader
// (spine_atlas.cpp) on the bytes after it. Each is refused with a reason or read whole; a
// skeleton read whole poses to finite world transforms in its setup pose and in every
// animation at its start, middle and end; and a skeleton and atlas both read whole go
// through the whole in-memory import (spine_rig_build.cpp: parts, meshes, the physics
// skeleton, baking, the rig's text checked by loading it back), which either refuses with
// an error or gives a rig that loads and clips that load against it. Before the build, the
// import's check of the atlas against its page images (spine_import.cpp, checkAtlasPages)
// runs on the sizes the atlas declares (a fixed size where it declares none): it passes
// only an atlas whose regions all lie on their pages, and only such an atlas is built, as
// in the import. Page images are read as if the atlas were in content/spine (so the doll's
// seed finds content/art/paper_doll.png); others are missing, which the load-back check reports.
#include <array>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <string_view>

#include "anim/clip.h"
#include "fuzz_target.h"
#include "rig/rig_loader.h"
#include "spine/spine_atlas.h"
#include "spine/spine_import.h"
#include "spine/spine_json.h"
#include "spine/spine_pose.h"
#include "spine/spine_rig_build.h"

using namespace ragdoll;

namespace {
/// More bones than this are read but not posed: posing is quadratic in the worst case.
constexpr size_t kMaxPosedBones = 2000;
/// The whole import only for skeletons this small, with animations this short: baking
/// samples at up to 240 Hz, and a fuzzer should spend its time on many inputs.
constexpr size_t kMaxImportedBones = 64;
constexpr double kMaxImportedSeconds = 5.0;
/// The size of a page whose atlas entry declares none (the PNGs are not read here).
constexpr int kPageSide = 4096;

void checkFinite(const std::vector<SpineWorld>& world) {
    for (const SpineWorld& w : world)
        FUZZ_CHECK(std::isfinite(w.a) && std::isfinite(w.b) && std::isfinite(w.c) && std::isfinite(w.d) &&
                   std::isfinite(w.x) && std::isfinite(w.y));
}

void import(const SpineSkeleton& skeleton, const SpineAtlas& atlas) {
    if (skeleton.bones.size() > kMaxImportedBones) return;
    for (const SpineAnimation& animation : skeleton.animations)
        if (animation.duration > kMaxImportedSeconds) return;
    SpineBuildInput input;
    input.skeleton = &skeleton;
    input.atlas = &atlas;
    for (const AtlasPage& page : atlas.pages)
        input.pageSizes.push_back(page.width > 0 ? std::array<int, 2>{page.width, page.height} : std::array<int, 2>{kPageSide, kPageSide});
    const std::vector<Diagnostic> pageCheck = checkAtlasPages(atlas, input.pageSizes, "fuzz.atlas");
    if (hasErrors(pageCheck)) return;
    for (const AtlasRegion& r : atlas.regions) {
        const PixelRect rect = r.pageRect();
        const auto [width, height] = input.pageSizes[size_t(r.page)];
        FUZZ_CHECK(rect.x + rect.width <= width && rect.y + rect.height <= height);
    }
    input.jsonPath = "fuzz.json";
    input.atlasPath = "fuzz.atlas";
    input.atlasDir = std::string(PAPERDOLL_CONTENT_DIR) + "/spine";
    input.outPath = "fuzz.rig.xml";
    const SpineBuild build = buildSpineRig(input);
    FUZZ_CHECK(build.ok != hasErrors(build.diagnostics));
    if (!build.ok) return;
    // Where the import checks the rig: beside the first page's image (the pages are copied there).
    const std::filesystem::path beside = std::filesystem::path(input.atlasDir) / std::filesystem::path(atlas.pages[0].file).parent_path();
    const RigLoadResult rig = loadRigFromText(build.rigText, (beside / "fuzz.rig.xml").string());
    FUZZ_CHECK(rig.rig != nullptr);
    for (const BakedClip& clip : build.clips) FUZZ_CHECK(loadClipFromText(clip.text, clip.file, *rig.rig).clip.has_value());
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    const size_t split = input.find('\0');
    const std::string_view json = input.substr(0, split);
    const std::string_view atlasText = split == std::string_view::npos ? std::string_view() : input.substr(split + 1);

    const AtlasLoadResult a = parseAtlas(atlasText, "fuzz.atlas");
    FUZZ_CHECK(a.ok != hasErrors(a.diagnostics));
    for (const AtlasRegion& r : a.atlas.regions) {
        FUZZ_CHECK(r.page >= 0 && size_t(r.page) < a.atlas.pages.size());
        if (a.ok) FUZZ_CHECK(r.width > 0 && r.height > 0 && r.originalWidth >= r.width);
    }

    const SpineLoadResult s = parseSpineJson(json, "fuzz.json");
    FUZZ_CHECK(s.ok != hasErrors(s.diagnostics));
    if (!s.ok) return 0;
    gFuzzInputTaken = true;
    const SpineSkeleton& skeleton = s.skeleton;
    for (size_t i = 0; i < skeleton.bones.size(); ++i) FUZZ_CHECK(skeleton.bones[i].parent < int(i));
    if (skeleton.bones.size() > kMaxPosedBones) return 0;
    checkFinite(poseSpineSkeleton(skeleton, nullptr, 0.0));
    for (const SpineAnimation& animation : skeleton.animations)
        for (double t : {0.0, 0.5 * animation.duration, animation.duration})
            checkFinite(poseSpineSkeleton(skeleton, &animation, t));
    if (a.ok) import(skeleton, a.atlas);
    return 0;
}
