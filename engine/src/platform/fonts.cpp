#include "platform/fonts.h"

#include <fontconfig/fontconfig.h>
#include <imgui.h>
#include <imgui_internal.h>  // SetCurrentFont: no pointer left into the cleared atlas
#include <stb_truetype.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>

#include "paper/utf8.h"

namespace paper {

namespace {

static_assert(sizeof(ImWchar) == sizeof(std::uint16_t), "Debian's ImGui keeps characters in 16 bits");

/// ImGui's own font's size, pixels: the merged glyphs are drawn at it.
constexpr float kFontPixels = 13.0f;
/// Code points a "no font draws" sentence names before it counts the rest.
constexpr size_t kMissingNamed = 8;

/// Code points ImGui's built-in font draws (ASCII and Latin-1).
bool builtIn(std::uint32_t c) { return c <= 0xFF; }
/// Code points an ImWchar holds (the basic plane, surrogates aside); ImGui draws the others as
/// its fallback '?' whatever the font.
bool holdable(std::uint32_t c) { return c <= 0xFFFF && (c < 0xD800 || c > 0xDFFF); }

std::string missingSentence(std::vector<std::uint32_t> missing) {
    std::sort(missing.begin(), missing.end());
    std::string named;
    for (size_t i = 0; i < missing.size() && i < kMissingNamed; ++i) {
        char code[16];
        std::snprintf(code, sizeof code, "U+%04X", unsigned(missing[i]));
        named += (i == 0 ? "" : ", ") + ("'" + utf8Of(missing[i]) + "' (" + code + ")");
    }
    if (missing.size() > kMissingNamed) named += " and " + std::to_string(missing.size() - kMissingNamed) + " more";
    const bool one = missing.size() == 1;
    return "no font on this machine draws " + named + ": shown as '?'; a font that has " + (one ? "it" : "them") +
           " (for Chinese, Japanese and Korean, Debian's fonts-noto-cjk) is used from the next start";
}

/// ImGui's glyph ranges for sorted code points: runs of consecutive ones, then 0.
std::vector<std::uint16_t> rangesOf(const std::vector<std::uint32_t>& sorted) {
    std::vector<std::uint16_t> ranges;
    for (size_t i = 0; i < sorted.size();) {
        size_t end = i;
        while (end + 1 < sorted.size() && sorted[end + 1] == sorted[end] + 1) ++end;
        ranges.push_back(std::uint16_t(sorted[i]));
        ranges.push_back(std::uint16_t(sorted[end]));
        i = end + 1;
    }
    ranges.push_back(0);
    return ranges;
}

std::vector<char> readWhole(const std::string& file) {
    std::ifstream in(file, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// Whether stb_truetype, which builds ImGui's atlas, opens the face: fontconfig also lists
/// what it does not read (WOFF, colour bitmap fonts), and ImGui asserts on such a file.
bool stbOpens(const FontFace& face) {
    std::vector<char> bytes = readWhole(face.file);
    if (bytes.empty()) return false;
    const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
    const int offset = stbtt_GetFontOffsetForIndex(data, face.index);
    stbtt_fontinfo info;
    return offset >= 0 && size_t(offset) < bytes.size() && stbtt_InitFont(&info, data, offset) != 0;
}

}  // namespace

FontSearch findFontsFor(const std::vector<std::uint32_t>& codePoints, FcConfig* given) {
    FontSearch search;
    std::vector<std::uint32_t> left = codePoints;
    FcConfig* config = left.empty() ? nullptr : given ? given : FcInitLoadConfigAndFonts();
    if (!config) {
        search.missing = left;
        return search;
    }
    FcPattern* pattern = FcNameParse(reinterpret_cast<const FcChar8*>("sans-serif"));
    FcCharSet* wanted = FcCharSetCreate();
    for (std::uint32_t c : left) FcCharSetAddChar(wanted, c);
    FcPatternAddCharSet(pattern, FC_CHARSET, wanted);
    FcConfigSubstitute(config, pattern, FcMatchPattern);
    FcDefaultSubstitute(pattern);
    FcResult result = FcResultNoMatch;
    // Untrimmed: trimming drops a font that adds no coverage to those before it, bitmap
    // fonts included, which ImGui cannot read and are skipped here.
    FcFontSet* fonts = FcFontSort(config, pattern, FcFalse, nullptr, &result);
    for (int f = 0; fonts && f < fonts->nfont && !left.empty(); ++f) {
        FcPattern* font = fonts->fonts[f];
        FcChar8* file = nullptr;
        FcCharSet* has = nullptr;
        FcBool outline = FcFalse, colour = FcFalse;
        int index = 0;
        if (FcPatternGetString(font, FC_FILE, 0, &file) != FcResultMatch ||
            FcPatternGetCharSet(font, FC_CHARSET, 0, &has) != FcResultMatch ||
            FcPatternGetBool(font, FC_OUTLINE, 0, &outline) != FcResultMatch || !outline ||
            (FcPatternGetBool(font, FC_COLOR, 0, &colour) == FcResultMatch && colour))
            continue;
        FcPatternGetInteger(font, FC_INDEX, 0, &index);
        FontFace face{reinterpret_cast<const char*>(file), index & 0xFFFF, {}};  // above: a variable font's instance
        auto drawn = std::stable_partition(left.begin(), left.end(),
                                           [&](std::uint32_t c) { return !FcCharSetHasChar(has, c); });
        if (drawn == left.end() || !stbOpens(face)) continue;
        face.codePoints.assign(drawn, left.end());
        left.erase(drawn, left.end());
        search.faces.push_back(std::move(face));
    }
    search.missing = left;
    if (fonts) FcFontSetDestroy(fonts);
    FcCharSetDestroy(wanted);
    FcPatternDestroy(pattern);
    if (config != given) FcConfigDestroy(config);
    return search;
}

ExtraGlyphs::~ExtraGlyphs() {
    if (config_) FcConfigDestroy(config_);
}

void ExtraGlyphs::want(std::string_view text) {
    for (size_t i = 0; i < text.size();) {
        if (static_cast<unsigned char>(text[i]) < 0x80) {
            ++i;
            continue;
        }
        bool wellFormed = false;
        const std::uint32_t c = nextCodePoint(text, i, wellFormed);
        if (!wellFormed || builtIn(c)) continue;
        auto at = std::lower_bound(seen_.begin(), seen_.end(), c);
        if (at != seen_.end() && *at == c) continue;
        seen_.insert(at, c);
        pending_.push_back(c);
    }
}

bool ExtraGlyphs::rebuild(std::string& said) {
    said.clear();
    if (pending_.empty()) return false;
    std::vector<std::uint32_t> lookFor, missing;
    for (std::uint32_t c : pending_) (holdable(c) ? lookFor : missing).push_back(c);
    pending_.clear();

    if (!lookFor.empty() && !config_) config_ = FcInitLoadConfigAndFonts();
    const FontSearch found = findFontsFor(lookFor, config_);
    missing.insert(missing.end(), found.missing.begin(), found.missing.end());
    if (!missing.empty()) said = missingSentence(missing);
    if (found.faces.empty()) return false;  // nothing new to draw: the atlas stays
    const std::vector<FontFace> before = faces_;
    for (const FontFace& face : found.faces) {
        auto same = std::find_if(faces_.begin(), faces_.end(),
                                 [&](const FontFace& f) { return f.file == face.file && f.index == face.index; });
        if (same == faces_.end()) same = faces_.insert(faces_.end(), {face.file, face.index, {}});
        same->codePoints.insert(same->codePoints.end(), face.codePoints.begin(), face.codePoints.end());
        std::sort(same->codePoints.begin(), same->codePoints.end());
    }

    ImFontAtlas& atlas = *ImGui::GetIO().Fonts;
    auto build = [&] {
        atlas.Clear();
        atlas.AddFontDefault();
        ranges_.clear();
        for (const FontFace& face : faces_) {
            // Handed over (the atlas frees it at its next Clear): ImGui copies data it does not own.
            std::vector<char> bytes = readWhole(face.file);
            if (bytes.empty()) continue;
            void* data = IM_ALLOC(bytes.size());
            std::copy(bytes.begin(), bytes.end(), static_cast<char*>(data));
            ranges_.push_back(rangesOf(face.codePoints));
            ImFontConfig config;
            config.MergeMode = true;
            config.FontNo = face.index;
            config.PixelSnapH = true;
            config.OversampleH = 1;  // ImGui's advice with PixelSnapH: a third of the atlas
            atlas.AddFontFromMemoryTTF(data, int(bytes.size()), kFontPixels, &config,
                                       reinterpret_cast<const ImWchar*>(ranges_.back().data()));
        }
        return atlas.Build();
    };
    if (!build()) {
        // A file changed on disk since it was opened: the glyphs drawn before this rebuild
        // only, or none but ImGui's own.
        faces_ = before;
        if (!build()) {
            faces_.clear();
            build();
        }
    }
    // The font ImGui draws with until the next NewFrame sets it again: not the cleared one.
    ImGui::SetCurrentFont(atlas.Fonts[0]);
    return true;
}

}  // namespace paper
