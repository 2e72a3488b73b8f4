// Reading UTF-8 text a code point at a time, for what shows names users chose ('tête',
// 'предплечье', '腿.L'): a terminal's columns (paper/text_width.h) and the editor's font.
#pragma once

#include <cstddef>
#include <cstdint>
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

}  // namespace paper
