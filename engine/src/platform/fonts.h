// Glyphs Dear ImGui's own font lacks. Its built-in font (ProggyClean, 13 px) draws ASCII and
// Latin-1 only, so an object a user named 'предплечье_L' showed in the editor's lists as
// '??????????_L'. The texts a window shows are handed to ExtraGlyphs; a code point beyond
// Latin-1 is looked up in the machine's fonts (fontconfig, the fonts every desktop has) and
// merged into ImGui's font at its size, so names in any script the machine has a font for
// are drawn, and those it has none for are said once.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

struct _FcConfig;  // fontconfig's FcConfig

namespace paper {

/// A font file and the code points taken from it.
struct FontFace {
    std::string file;
    int index = 0;  ///< the face within a collection (.ttc)
    std::vector<std::uint32_t> codePoints;
};

struct FontSearch {
    std::vector<FontFace> faces;
    std::vector<std::uint32_t> missing;  ///< no font on the machine that ImGui can read draws these
};

/// The machine's outline fonts that draw `codePoints`: each from the first font, in
/// fontconfig's order for sans-serif, that has it and that stb_truetype (ImGui's reader)
/// opens. With no config, the machine's is loaded for this search alone.
FontSearch findFontsFor(const std::vector<std::uint32_t>& codePoints, _FcConfig* config = nullptr);

/// The code points a window's texts need beyond ImGui's own font, and ImGui's font atlas
/// rebuilt with them. rebuild() needs an ImGui context.
class ExtraGlyphs {
public:
    ExtraGlyphs() = default;
    ExtraGlyphs(const ExtraGlyphs&) = delete;
    ExtraGlyphs& operator=(const ExtraGlyphs&) = delete;
    ~ExtraGlyphs();

    /// Notes the code points of UTF-8 text; cheap for text already seen (no allocation
    /// unless a code point is new), so a caller may hand over what it shows every frame.
    void want(std::string_view text);
    /// Between frames, before ImGui::NewFrame: when want() met code points some font draws,
    /// rebuilds ImGui's font atlas with every one found so far and returns true (the
    /// renderer's font texture must be made again). `said` gets a sentence naming the code
    /// points no font draws, once each, or stays empty.
    bool rebuild(std::string& said);

private:
    std::vector<std::uint32_t> seen_;     ///< sorted: every code point want() has met beyond Latin-1
    std::vector<std::uint32_t> pending_;  ///< met since the last rebuild
    std::vector<FontFace> faces_;         ///< merged into the atlas, in order
    std::vector<std::vector<std::uint16_t>> ranges_;  ///< each face's glyph ranges, alive as long as the atlas
    _FcConfig* config_ = nullptr;         ///< the machine's fonts, loaded at the first search
};

}  // namespace paper
