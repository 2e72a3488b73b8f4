// Reading and validating *.rig.xml files (rig/FORMAT.md, format 1).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "rig/rig.h"

namespace ragdoll {

/// What a warning says after a PNG's name when the PNG has no transparency (an RGB or grey
/// file without tRNS): its clear surround comes out black, so each part cut from it shows as
/// a filled rectangle. The rig loader says it at an <image>, `rig import` at an atlas page.
inline constexpr const char* kNoAlphaWarning =
    "has no alpha channel: every part is drawn as an opaque rectangle (save it with transparency)";

struct RigLoadResult {
    /// The rig, or null when any error was found: a rig that fails to load builds nothing.
    std::shared_ptr<const RigDefinition> rig;
    /// When the rig has errors, none of them in its header or bones: the rig as read, for
    /// what needs only its skeleton (checking the clips it names, which name its bones), so
    /// a missing image does not hide the clips' errors. Never built or played.
    std::shared_ptr<const RigDefinition> skeleton;
    /// When the rig has errors in its bones (neither rig nor skeleton): the clips it names,
    /// whose files can still be checked to be there.
    std::vector<RigClip> clips;
    /// Every error and warning, in file order of the checks (each element, then references).
    std::vector<Diagnostic> diagnostics;
};

/// Reads a rig file. Missing, unreadable, directory and empty files are errors too.
RigLoadResult loadRigFile(const std::string& path);
/// Reads rig XML from memory; fileName is used in messages and kept as the rig's path.
RigLoadResult loadRigFromText(std::string_view text, const std::string& fileName);

}  // namespace ragdoll
