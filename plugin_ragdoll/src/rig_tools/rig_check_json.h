// `paperdoll rig check --json`: a rig's rest pose as data for tests and tools — every
// bone's world start and end, every body and joint, every sprite's world quad and every
// mesh's world vertices, in rig space (metres, y up), angles in degrees.
#pragma once

#include <string>
#include <vector>

#include "rig/rig.h"

namespace ragdoll {

/// The JSON object for a rig that loaded, with its warnings ("FILE:LINE: warning: …"; one
/// line, no trailing newline).
std::string rigCheckJson(const std::string& file, const RigDefinition& rig, const std::vector<std::string>& warnings);
/// The JSON object for a rig that failed the check: its errors ("FILE:LINE: error: …").
std::string rigCheckErrorJson(const std::string& file, const std::vector<std::string>& errors);

}  // namespace ragdoll
