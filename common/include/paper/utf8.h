// Reading UTF-8 text a code point at a time, for what shows names users chose ('tête',
// 'предплечье', '腿.L'): a terminal's columns (paper/text_width.h) and the editor's font.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace paper {

/// The code point at text[at], moving `at` past it. A byte that starts no well-formed
/// sequence (a stray continuation byte, a sequence cut short) is read as itself, one byte
/// long, and `wellFormed` is false; nothing more is checked (overlong forms, surrogates).
inline std::uint32_t nextCodePoint(std::string_view text, std::size_t& at, bool& wellFormed) {
    const auto lead = static_cast<unsigned char>(text[at]);
    const std::size_t length = lead < 0x80 ? 1 : (lead >> 5) == 0x6 ? 2 : (lead >> 4) == 0xE ? 3 : (lead >> 3) == 0x1E ? 4 : 0;
    std::uint32_t code = length == 1 ? lead : length == 2 ? lead & 0x1Fu : length == 3 ? lead & 0x0Fu : lead & 0x07u;
    wellFormed = length > 0 && at + length <= text.size();
    for (std::size_t k = 1; wellFormed && k < length; ++k) {
        const auto next = static_cast<unsigned char>(text[at + k]);
        wellFormed = (next & 0xC0) == 0x80;
        code = (code << 6) | (next & 0x3Fu);
    }
    if (!wellFormed) {
        at += 1;
        return lead;
    }
    at += length;
    return code;
}

/// Code point c written as UTF-8 (c below U+110000).
inline std::string utf8Of(std::uint32_t c) {
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

}  // namespace paper
