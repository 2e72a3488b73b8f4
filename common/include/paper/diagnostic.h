// Diagnostics about a user's file, in the compiler's format: what every reader of a file
// (levels, rigs, clips, descriptors) reports, apart from how it reads the file.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace paper {

/// text with every control byte (below 0x20, and 0x7f) written as \xNN: text from a
/// user's file (a name, a key, a line of a binary file) shown in a message stays on its
/// line, and a NUL in it cannot cut the message (or all that follows it) where the text
/// crosses a C string, such as the plugin ABI's print.
inline std::string escapeControlBytes(std::string_view text) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        const unsigned char byte = static_cast<unsigned char>(c);
        if (byte < 0x20 || byte == 0x7f) {
            out += "\\x";
            out += kHex[byte >> 4];
            out += kHex[byte & 0xf];
        } else {
            out += c;
        }
    }
    return out;
}

/// A warning lets the file load; an error stops it.
enum class Severity { Warning, Error };

/// An error or warning about a user file, in the compiler's format so editors and
/// terminals can jump to it: "FILE:LINE: error: message".
struct Diagnostic {
    Severity severity = Severity::Error;  ///< an error stops the file from loading
    std::string file;                     ///< the path as the user gave it
    int line = 0;         ///< 1-based; 0 when the problem is about the file as a whole
    std::string message;  ///< "<element>: what is wrong" when about an element
    int column = 0;       ///< 1-based, in bytes; 0 when not known (only JSON readers give one)

    /// "FILE:LINE: error: message" ("FILE:LINE:COLUMN: ..." with a column, "FILE: ..." when
    /// line is 0), one line: control bytes in the file name or message escaped.
    std::string format() const {
        std::string out = escapeControlBytes(file);
        // Appended piece by piece: g++ 12 at -O3 warns falsely (-Wrestrict) about
        // ":" + std::to_string(line).
        if (line > 0) {
            out += ':';
            out += std::to_string(line);
            if (column > 0) {
                out += ':';
                out += std::to_string(column);
            }
        }
        out += severity == Severity::Error ? ": error: " : ": warning: ";
        out += escapeControlBytes(message);
        return out;
    }
};

/// True when any of the diagnostics is an error.
inline bool hasErrors(const std::vector<Diagnostic>& diagnostics) {
    for (const Diagnostic& d : diagnostics)
        if (d.severity == Severity::Error) return true;
    return false;
}

}  // namespace paper
