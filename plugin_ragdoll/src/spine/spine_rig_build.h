// The in-memory half of `rig import`: from a Spine skeleton and its atlas (already read) to
// the rig's text, the clips' texts and the table of guesses, with every problem as a
// diagnostic. Nothing here touches the disk but the load-back check of the rig's text,
// which decodes the page images where the atlas names them. spine_import.cpp reads the
// files, calls this, and writes what it made; the fuzz target calls it directly.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "spine/spine_bake.h"
#include "spine/spine_import.h"
#include "spine/spine_import_model.h"

namespace ragdoll {

struct SpineBuildInput {
    const SpineSkeleton* skeleton = nullptr;
    const SpineAtlas* atlas = nullptr;
    std::vector<std::array<int, 2>> pageSizes;  ///< per atlas page: its PNG's width and height, pixels
    std::string jsonPath, atlasPath;  ///< for messages and the rig's comment
    std::string atlasDir;             ///< where the atlas's page files are relative to
    std::string outPath;              ///< its name names the rig and prefixes the clip files
    SpineImportOptions options;       ///< skin, scale, loops
};

struct SpineBuild {
    bool ok = false;
    std::vector<Diagnostic> diagnostics;
    RigDefinition rig;
    std::string rigText;           ///< the rig file, clip entries and comment included
    std::vector<BakedClip> clips;  ///< each with its file name and text
    std::vector<std::string> table;  ///< the guesses, one line each (a header first)
    std::vector<int> imageOfPage;  ///< per page: its rig image, or -1 when no part uses it
    std::vector<std::string> helpers;  ///< Spine bones without a body
    double scale = 0.0;            ///< Spine units per metre
    double height = 0.0;           ///< of the setup pose, Spine units
};

SpineBuild buildSpineRig(const SpineBuildInput& input);

}  // namespace ragdoll
