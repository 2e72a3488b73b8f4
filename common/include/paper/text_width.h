// How wide UTF-8 text shows in a terminal, for tables whose columns hold names users chose
// ('tête', '腿.L'): padded by bytes, such a name pushes the rest of its row out of line.
//
// The rule, small and explicit (not all of Unicode's East Asian Width): every code point
// is one column, except combining diacritical marks (U+0300–U+036F, drawn on the letter
// before them: none) and the East Asian wide and fullwidth blocks (two): Hangul Jamo
// (U+1100–U+115F), CJK radicals to CJK compatibility (U+2E80–U+303E, U+3041–U+33FF), CJK
// ideographs (U+3400–U+4DBF, U+4E00–U+9FFF, U+F900–U+FAFF, U+20000–U+3FFFD), Yi
// (U+A000–U+A4CF), Hangul syllables (U+AC00–U+D7A3), CJK compatibility forms
// (U+FE30–U+FE4F), fullwidth forms (U+FF00–U+FF60, U+FFE0–U+FFE6) and the emoji blocks
// (U+1F300–U+1F64F, U+1F900–U+1F9FF). A byte that starts no well-formed sequence is one column.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "paper/utf8.h"

namespace paper {

/// Columns one code point takes (the rule above).
inline size_t codePointWidth(std::uint32_t c) {
    if (c >= 0x0300 && c <= 0x036F) return 0;
    const bool wide = (c >= 0x1100 && c <= 0x115F) || (c >= 0x2E80 && c <= 0x303E) || (c >= 0x3041 && c <= 0x33FF) ||
                      (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0xA000 && c <= 0xA4CF) ||
                      (c >= 0xAC00 && c <= 0xD7A3) || (c >= 0xF900 && c <= 0xFAFF) || (c >= 0xFE30 && c <= 0xFE4F) ||
                      (c >= 0xFF00 && c <= 0xFF60) || (c >= 0xFFE0 && c <= 0xFFE6) || (c >= 0x1F300 && c <= 0x1F64F) ||
                      (c >= 0x1F900 && c <= 0x1F9FF) || (c >= 0x20000 && c <= 0x3FFFD);
    return wide ? 2 : 1;
}

/// Columns UTF-8 text takes in a terminal (the rule above).
inline size_t displayWidth(std::string_view text) {
    size_t width = 0;
    for (size_t i = 0; i < text.size();) {
        bool wellFormed = false;
        const std::uint32_t code = nextCodePoint(text, i, wellFormed);
        width += wellFormed ? codePointWidth(code) : 1;
    }
    return width;
}

/// text, then spaces up to `width` columns of display (printf's %-Ns by columns, not bytes;
/// text already as wide or wider is kept whole).
inline std::string padded(std::string_view text, size_t width) {
    const size_t shown = displayWidth(text);
    std::string out(text);
    if (shown < width) out.append(width - shown, ' ');
    return out;
}

}  // namespace paper
