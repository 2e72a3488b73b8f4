#include "platform/fonts.h"

#include <fontconfig/fontconfig.h>
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>

#include "paper/utf8.h"

namespace paper {

namespace {

/// ImGui's own font's size, pixels: the merged glyphs are drawn at it.
constexpr float kFontPixels = 13.0f;
/// Code points a "no font draws" sentence names before it counts the rest.
constexpr size_t kMissingNamed = 8;

/// Code points ImGui's built-in font draws (ASCII and Latin-1).
bool builtIn(std::uint32_t c) { return c <= 0xFF; }
/// Code points an ImWchar holds (16 bits in Debian's build: the basic plane, surrogates
/// aside); ImGui draws the others as its fallback '?' whatever the font.
bool holdable(std::uint32_t c) { return c <= 0xFFFF && (c < 0xD800 || c > 0xDFFF); }

std::string utf8Of(std::uint32_t c) {
    std::string out;
    if (c < 0x80) {
        out += char(c);
    } else if (c < 0x800) {
        out += char(0xC0 | (c >> 6));
        out += char(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        out += char(0xE0 | (c >> 12));
        out += char(0x80 | ((c >> 6) & 0x3F));
        out += char(0x80 | (c & 0x3F));
    } else {
        out += char(0xF0 | (c >> 18));
        out += char(0x80 | ((c >> 12) & 0x3F));
        out += char(0x80 | ((c >> 6) & 0x3F));
        out += char(0x80 | (c & 0x3F));
    }
    return out;
}

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

bool readWhole(const std::string& file, std::vector<char>& bytes) {
    std::ifstream in(file, std::ios::binary);
    if (!in) return false;
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    return !bytes.empty();
}

}  // namespace

FontSearch findFontsFor(const std::vector<std::uint32_t>& codePoints) {
    FontSearch search;
    std::vector<std::uint32_t> left = codePoints;
    FcConfig* config = left.empty() ? nullptr : FcInitLoadConfigAndFonts();
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
        FcChar8* format = nullptr;
        FcCharSet* has = nullptr;
        FcBool scalable = FcFalse;
        int index = 0;
        if (FcPatternGetString(font, FC_FILE, 0, &file) != FcResultMatch ||
            FcPatternGetString(font, FC_FONTFORMAT, 0, &format) != FcResultMatch ||
            FcPatternGetCharSet(font, FC_CHARSET, 0, &has) != FcResultMatch ||
            FcPatternGetBool(font, FC_SCALABLE, 0, &scalable) != FcResultMatch || !scalable)
            continue;
        const std::string_view kind(reinterpret_cast<const char*>(format));
        if (kind != "TrueType" && kind != "CFF") continue;  // what stb_truetype, ImGui's reader, reads
        FcPatternGetInteger(font, FC_INDEX, 0, &index);
        FontFace face{reinterpret_cast<const char*>(file), index & 0xFFFF, {}};  // above: a variable font's instance
        auto drawn = std::stable_partition(left.begin(), left.end(),
                                           [&](std::uint32_t c) { return !FcCharSetHasChar(has, c); });
        face.codePoints.assign(drawn, left.end());
        left.erase(drawn, left.end());
        if (!face.codePoints.empty()) search.faces.push_back(std::move(face));
    }
    search.missing = left;
    if (fonts) FcFontSetDestroy(fonts);
    FcCharSetDestroy(wanted);
    FcPatternDestroy(pattern);
    FcConfigDestroy(config);
    return search;
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

    FontSearch found = findFontsFor(lookFor);
    missing.insert(missing.end(), found.missing.begin(), found.missing.end());
    for (FontFace& face : found.faces) {
        auto same = std::find_if(faces_.begin(), faces_.end(),
                                 [&](const FontFace& f) { return f.file == face.file && f.index == face.index; });
        if (same != faces_.end()) {
            same->codePoints.insert(same->codePoints.end(), face.codePoints.begin(), face.codePoints.end());
            std::sort(same->codePoints.begin(), same->codePoints.end());
            continue;
        }
        std::vector<char> bytes;
        if (!readWhole(face.file, bytes)) {
            missing.insert(missing.end(), face.codePoints.begin(), face.codePoints.end());
            continue;
        }
        std::sort(face.codePoints.begin(), face.codePoints.end());
        faces_.push_back(std::move(face));
        fontData_.push_back(std::move(bytes));
    }

    ImFontAtlas& atlas = *ImGui::GetIO().Fonts;
    atlas.Clear();
    atlas.AddFontDefault();
    ranges_.clear();
    for (size_t i = 0; i < faces_.size(); ++i) {
        ranges_.push_back(rangesOf(faces_[i].codePoints));
        ImFontConfig config;
        config.MergeMode = true;
        config.FontDataOwnedByAtlas = false;  // fontData_ keeps the bytes
        config.FontNo = faces_[i].index;
        config.PixelSnapH = true;
        atlas.AddFontFromMemoryTTF(fontData_[i].data(), int(fontData_[i].size()), kFontPixels, &config,
                                   reinterpret_cast<const ImWchar*>(ranges_.back().data()));
    }
    if (!atlas.Build()) {
        // A file fontconfig read that stb_truetype cannot: ImGui's own font alone, as before.
        for (const FontFace& face : faces_) missing.insert(missing.end(), face.codePoints.begin(), face.codePoints.end());
        faces_.clear();
        fontData_.clear();
        ranges_.clear();
        atlas.Clear();
        atlas.AddFontDefault();
        atlas.Build();
    }
    if (!missing.empty()) said = missingSentence(std::move(missing));
    return true;
}

}  // namespace paper
