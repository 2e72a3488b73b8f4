// Glyphs beyond ImGui's own font (platform/fonts.h): found in the machine's fonts and merged
// into ImGui's atlas. Needs fontconfig and DejaVu Sans (third_party/deps.sh installs both).
#include <catch2/catch.hpp>
#include <imgui.h>

#include <algorithm>
#include <string>

#include "platform/fonts.h"

using paper::ExtraGlyphs;
using paper::FontSearch;

namespace {

/// An ImGui context of its own (no window: the atlas is built on the CPU).
struct ImGuiContextScope {
    ImGuiContextScope() { ImGui::CreateContext(); }
    ~ImGuiContextScope() { ImGui::DestroyContext(); }
};

bool drawn(char32_t c) { return ImGui::GetIO().Fonts->Fonts[0]->FindGlyphNoFallback(ImWchar(c)) != nullptr; }

}  // namespace

TEST_CASE("the machine's fonts are asked for the code points ImGui lacks, each from the first font that has it", "[fonts]") {
    // Cyrillic п and ж, Greek Ω, and U+0378, which Unicode leaves unassigned: no font has it.
    const FontSearch found = paper::findFontsFor({U'п', U'ж', U'Ω', 0x0378});
    REQUIRE_FALSE(found.faces.empty());
    std::vector<std::uint32_t> covered;
    for (const paper::FontFace& face : found.faces) {
        INFO(face.file);
        CHECK_FALSE(face.codePoints.empty());
        CHECK((face.file.ends_with(".ttf") || face.file.ends_with(".otf") || face.file.ends_with(".ttc")));
        covered.insert(covered.end(), face.codePoints.begin(), face.codePoints.end());
    }
    std::sort(covered.begin(), covered.end());
    CHECK(covered == std::vector<std::uint32_t>{U'Ω', U'ж', U'п'});
    CHECK(found.missing == std::vector<std::uint32_t>{0x0378});
    CHECK(paper::findFontsFor({}).faces.empty());
}

TEST_CASE("text handed over is drawn from the next rebuild, a code point no font has is said once", "[fonts]") {
    ImGuiContextScope context;
    ImGui::GetIO().Fonts->AddFontDefault();
    ImGui::GetIO().Fonts->Build();
    ExtraGlyphs glyphs;
    std::string said;

    // ASCII and Latin-1 are ImGui's own: nothing to rebuild.
    glyphs.want("upper_arm_L tête Schüler");
    CHECK_FALSE(glyphs.rebuild(said));
    CHECK(said.empty());
    CHECK(drawn(U'ê'));
    CHECK_FALSE(drawn(U'п'));

    glyphs.want("предплечье_L");
    CHECK(glyphs.rebuild(said));
    CHECK(said.empty());
    for (char32_t c : std::u32string(U"предплечье_Lê")) CHECK(drawn(c));

    // Seen already: no rebuild. Broken UTF-8 (a cut sequence, a stray continuation byte) is skipped.
    glyphs.want("предплечье \xD0 \x80");
    CHECK_FALSE(glyphs.rebuild(said));

    glyphs.want("γόνατο \xCD\xB8");  // U+0378
    CHECK(glyphs.rebuild(said));
    CHECK(said == "no font on this machine draws '\xCD\xB8' (U+0378): shown as '?'; a font that has it (for Chinese, "
                  "Japanese and Korean, Debian's fonts-noto-cjk) is used from the next start");
    CHECK(drawn(U'γ'));
    CHECK(drawn(U'п'));  // the earlier glyphs kept through the rebuild
    CHECK_FALSE(drawn(0x0378));
    glyphs.want("\xCD\xB8");
    CHECK_FALSE(glyphs.rebuild(said));  // said once
    CHECK(said.empty());

    // Beyond the basic plane ImGui (16-bit characters here) draws nothing: said without a search.
    glyphs.want("\xF0\x9F\x98\x80");  // U+1F600
    CHECK_FALSE(glyphs.rebuild(said));  // nothing new to draw: the atlas stays
    CHECK(said.find("(U+1F600)") != std::string::npos);
    CHECK(drawn(U'п'));
}
