// Whether two paths name one file: what a command that reads some files and writes others
// checks before it writes over what it reads.
#pragma once

#include <filesystem>
#include <string>
#include <system_error>

namespace paper {

/// True when a and b are one file (through links, "..", or another spelling), or, while b
/// does not exist yet, when both spell the same place.
inline bool sameFile(const std::string& a, const std::string& b) {
    namespace fs = std::filesystem;
    std::error_code status;
    if (fs::exists(a, status) && fs::exists(b, status) && fs::equivalent(a, b, status)) return true;
    const fs::path ca = fs::weakly_canonical(a, status), cb = fs::weakly_canonical(b, status);
    return !status && ca == cb;
}

}  // namespace paper
