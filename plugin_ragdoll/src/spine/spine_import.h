// `paperdoll rig import SKELETON.json OUT.rig.xml [--atlas FILE] [--skin NAME]
// [--scale UNITS_PER_METRE] [--force] [--loop NAME...]`: a Spine skeleton (JSON + libGDX
// atlas + page PNGs) becomes a rig with sprites on the atlas pages, one clip file per
// animation and a generated physics skeleton whose guesses are printed as a table.
//
// Order of work: read and check everything, build the rig and the clips in memory, check
// that they load, and only then write: the page PNGs (copied beside OUT), the clips, the
// rig last. Any error stops before the first write. Writing itself is all or nothing:
// every file goes to a temporary file beside it first, then each existing file is moved
// aside and the new one renamed into place; a failure at any point (a full disk, a
// read-only folder) puts every old file back, so a failed import leaves the folder as it was.
#pragma once

#include <array>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "spine/spine_atlas.h"

namespace ragdoll {

/// How tall the setup pose is taken to be without --scale, metres.
inline constexpr double kImportHeightMetres = 1.8;
/// The scale taken from that height is written to this many significant figures (37.7953,
/// not 37.795275590551178): half a unit in the last of them is at most 5e-7 of the scale,
/// so the figure is 1.8 m to within a micrometre.
inline constexpr int kInferredScaleDigits = 6;
/// A bone shorter than this fraction of its part's larger side takes its length from the
/// part (Spine bones of length 0 are common: a head bone that only places the head).
inline constexpr double kMinBoneLengthFraction = 0.25;

struct SpineImportOptions {
    std::string skeletonPath;  ///< the .json
    std::string outPath;       ///< the .rig.xml to write
    std::string atlasPath;     ///< empty: the skeleton's name with .atlas
    std::string skin;          ///< empty: the default skin
    std::optional<double> scale;  ///< Spine units per metre; empty: from the setup pose's height
    bool force = false;        ///< overwrite OUT (and files beside it)
    std::optional<std::vector<std::string>> loops;  ///< animations to loop; empty: idle, walk, run
};

/// The atlas against the sizes of its page images as read (per page: width and height in
/// pixels; 0 × 0 for a page that could not be read, whose error is the reader's): a size
/// differing from the atlas's (its regions are scaled to the PNG: pngRect) and a
/// premultiplied page are warnings; two pages of one file name (they are copied beside OUT
/// by name) and a region reaching outside its page image are errors.
std::vector<Diagnostic> checkAtlasPages(const SpineAtlas& atlas, const std::vector<std::array<int, 2>>& pageSizes,
                                        const std::string& atlasPath);

/// Runs the import: the summary and the table of guesses on out, diagnostics on err (by
/// file, then by line). Returns 0 when written, 1 for a bad or unreadable input (nothing
/// written), 2 for a bad argument (nothing read past it): OUT existing without --force or in
/// a folder that is not there, a --skin or --loop name the skeleton lacks.
int runSpineImport(const SpineImportOptions& options, std::ostream& out, std::ostream& err);

}  // namespace ragdoll
