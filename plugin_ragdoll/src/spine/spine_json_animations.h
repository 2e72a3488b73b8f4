// The `animations` part of a Spine JSON export (spine_json.cpp reads the rest): bone
// timelines (rotate, translate, scale, shear and their one-axis forms) and IK timelines,
// each key with its curve. Internal to the reader.
//
// Curves come in three spellings, all turned into one meaning here (absolute Bézier
// control points, time and value, per value of the key):
//   4.x:  "curve": [cx1, cy1, cx2, cy2, …]  absolute, four numbers per value;
//   3.8:  "curve": c1, "c2": …, "c3": …, "c4": …  normalised to the key's span (0..1);
//   3.x:  "curve": [c1, c2, c3, c4]           normalised;
//   all:  "curve": "stepped".
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "spine/spine_json.h"

namespace ragdoll {

/// Reads root["animations"] into result.skeleton.animations (bones and IK constraints must
/// already be read); reports into result.diagnostics.
void readSpineAnimations(const nlohmann::json& root, std::string_view text, const std::string& fileName,
                         SpineLoadResult& result);

}  // namespace ragdoll
