// The Spine importer's readers on arbitrary input: the JSON reader (spine_json.cpp,
// spine_json_animations.cpp) on the bytes before the first NUL, the atlas reader
// (spine_atlas.cpp) on the bytes after it. Each is refused with a reason or read whole;
// a skeleton read whole poses to finite world transforms in its setup pose and in every
// animation at its start, middle and end (timelines, curves, IK and transform constraints).
#include <cmath>
#include <cstring>
#include <string_view>

#include "fuzz_target.h"
#include "spine/spine_atlas.h"
#include "spine/spine_json.h"
#include "spine/spine_pose.h"

using namespace ragdoll;

namespace {
/// More bones than this are read but not posed: posing is quadratic in the worst case.
constexpr size_t kMaxPosedBones = 2000;

void checkFinite(const std::vector<SpineWorld>& world) {
    for (const SpineWorld& w : world)
        FUZZ_CHECK(std::isfinite(w.a) && std::isfinite(w.b) && std::isfinite(w.c) && std::isfinite(w.d) &&
                   std::isfinite(w.x) && std::isfinite(w.y));
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    const size_t split = input.find('\0');
    const std::string_view json = input.substr(0, split);
    const std::string_view atlas = split == std::string_view::npos ? std::string_view() : input.substr(split + 1);

    const AtlasLoadResult a = parseAtlas(atlas, "fuzz.atlas");
    FUZZ_CHECK(a.ok != hasErrors(a.diagnostics));
    for (const AtlasRegion& r : a.atlas.regions) {
        FUZZ_CHECK(r.page >= 0 && size_t(r.page) < a.atlas.pages.size());
        if (a.ok) FUZZ_CHECK(r.width > 0 && r.height > 0 && r.originalWidth >= r.width);
    }

    const SpineLoadResult s = parseSpineJson(json, "fuzz.json");
    FUZZ_CHECK(s.ok != hasErrors(s.diagnostics));
    if (!s.ok) return 0;
    const SpineSkeleton& skeleton = s.skeleton;
    for (size_t i = 0; i < skeleton.bones.size(); ++i) FUZZ_CHECK(skeleton.bones[i].parent < int(i));
    if (skeleton.bones.size() > kMaxPosedBones) return 0;
    checkFinite(poseSpineSkeleton(skeleton, nullptr, 0.0));
    for (const SpineAnimation& animation : skeleton.animations)
        for (double t : {0.0, 0.5 * animation.duration, animation.duration})
            checkFinite(poseSpineSkeleton(skeleton, &animation, t));
    return 0;
}
