// The rig loader's part for cut-out art: <image> and <sprite> (FORMAT.md, "Cut-out art"),
// and what it shares with the rest of the loader (rig_loader.cpp). Internal to the loader.
//
// Images are decoded at load (paper::loadPng, libpng) so that a missing, truncated or
// oversized PNG is an error with the rig file's line rather than a blank part at run time,
// and so that rects can be checked against the image's size. The pixels are dropped: the
// renderer decodes again for its textures, and a headless run needs only the sizes.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "paper/xml_reader.h"
#include "rig/rig.h"

namespace ragdoll::rigload {

/// Largest length accepted, 1e4 metres: anything bigger is a units mistake (a px rig read
/// as m). Lengths are divided by the scale exactly as rigxml::toInternal() does, so a value
/// the saver writes reads back bit-identical. Unknown attributes are kept by the saver.
inline constexpr paper::AttributeRules kRigRules{1.0e4, "is too large (more than 1e4 m; are the units right?)",
                                                 " (kept on save)"};

/// The largest |z| of a part (sprite or mesh): like other plain numbers, anything bigger
/// is a typo.
inline constexpr int kMaxPartZ = 1000000;

/// Degrees in the file, radians returned (fallback when absent or invalid). Bounded by
/// their range only, unlike other numbers.
double readAngle(paper::AttributeReader& in, const char* name, paper::Range range, double fallback);

/// A warning for each child element of an element that has none in the format.
void warnChildElements(paper::Reporter& report, const tinyxml2::XMLElement& element);

/// Reads <image> and <sprite> elements as the loader meets them, then resolves the sprites'
/// references once every bone is known. Like the rest of the loader it reports every
/// problem and goes on, recording broken elements with fallbacks so that what refers to
/// them does not pile up follow-on errors.
class ArtParser {
public:
    ArtParser(paper::Reporter& report, RigDefinition& rig) : report_(report), rig_(rig) {}

    /// Reads the image's attributes and decodes its file (relative to the rig's path).
    void readImage(const tinyxml2::XMLElement& element, int ordinal);
    void readSprite(const tinyxml2::XMLElement& element, int ordinal);
    /// Names to indices, the defaults that depend on the bone or the image, and the checks
    /// that need both. boneIndex maps sanitised bone names to bones.
    void resolve(const std::map<std::string, int>& boneIndex);

private:
    struct SpriteRecord {
        std::string boneName, imageName;  ///< as written; empty when missing (already reported)
        bool hasRect = false, rectValid = false;
        std::string rectText;  ///< as written, for messages
        bool hasX = false;
    };

    paper::AttributeReader reader(const tinyxml2::XMLElement& element) {
        return paper::AttributeReader(element, report_, rig_.scale, kRigRules);
    }

    paper::Reporter& report_;
    RigDefinition& rig_;
    std::vector<SpriteRecord> spriteRecords_;  ///< parallel to rig_.sprites
    /// Each image's alpha, a byte a pixel row by row (parallel to rig_.images; empty when
    /// unreadable), kept until resolve() has found where each sprite's art is.
    std::vector<std::vector<std::uint8_t>> alpha_;
};

}  // namespace ragdoll::rigload
