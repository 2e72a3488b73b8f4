// Reading a Spine JSON export (3.8, 4.0–4.2) into a SpineSkeleton (spine_skeleton.h), with
// nlohmann::json. A syntax error is reported at its line and column; every other problem
// names the entry (and its line when the entry can be found in the text) and the whole
// read fails on any error: a bone with an unknown parent or in a parent cycle, a slot on
// an unknown bone, a slot's setup attachment in no skin, a constraint or timeline naming
// nothing, a mesh whose indices or weights do not fit. Every section is read past the
// errors before it, so one read reports them all. What is read but not used by the importer is the importer's to warn
// about; what this reader cannot represent (unknown timeline kinds) it warns about itself.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "rig/rig.h"
#include "spine/spine_skeleton.h"

namespace ragdoll {

struct SpineLoadResult {
    bool ok = false;
    SpineSkeleton skeleton;
    std::vector<Diagnostic> diagnostics;
};

SpineLoadResult parseSpineJson(std::string_view text, const std::string& fileName);
SpineLoadResult loadSpineJsonFile(const std::string& path);

/// Line and column (1-based) of a byte offset into text.
void lineAndColumn(std::string_view text, size_t offset, int& line, int& column);

}  // namespace ragdoll
