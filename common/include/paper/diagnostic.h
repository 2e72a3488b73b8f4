// Diagnostics about a user's file, in the compiler's format: what every reader of a file
// (levels, rigs, clips, descriptors) reports, apart from how it reads the file.
#pragma once

#include <string>
#include <vector>

namespace paper {

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
    /// line is 0).
    std::string format() const {
        std::string out = file;
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
        out += message;
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
