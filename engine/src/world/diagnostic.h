// Errors and warnings about user files, in the compiler's format so editors and
// terminals can jump to them: "FILE:LINE: error: message".
#pragma once

#include <string>
#include <vector>

namespace paper {

enum class Severity { Warning, Error };

struct Diagnostic {
    Severity severity = Severity::Error;
    std::string file;
    int line = 0;  ///< 1-based; 0 when the problem is about the file as a whole
    std::string message;

    /// "FILE:LINE: error: message" (or "FILE: error: message" when line is 0).
    std::string format() const {
        std::string out = file;
        if (line > 0) out += ":" + std::to_string(line);
        out += severity == Severity::Error ? ": error: " : ": warning: ";
        out += message;
        return out;
    }
};

inline bool hasErrors(const std::vector<Diagnostic>& diagnostics) {
    for (const Diagnostic& d : diagnostics)
        if (d.severity == Severity::Error) return true;
    return false;
}

}  // namespace paper
