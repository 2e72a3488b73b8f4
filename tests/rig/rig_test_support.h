// Helpers shared by the rig test files.
#pragma once

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "rig/rig.h"
#include "solver/math.h"

namespace rigtest {

inline constexpr double kDegree = ragdoll::kPi / 180.0;

/// Every diagnostic on its own line, for failure messages.
inline std::string describe(const std::vector<ragdoll::Diagnostic>& diagnostics) {
    std::string out;
    for (const ragdoll::Diagnostic& d : diagnostics) out += d.format() + "\n";
    return out;
}

/// Each diagnostic as it is printed (FILE:LINE: warning: …), in order.
inline std::vector<std::string> formatted(const std::vector<ragdoll::Diagnostic>& diagnostics) {
    std::vector<std::string> out;
    for (const ragdoll::Diagnostic& d : diagnostics) out.push_back(d.format());
    return out;
}

/// A fixture under tests/rig/data.
inline std::string dataPath(const std::string& name) { return std::string(PAPERDOLL_RIG_TEST_DATA_DIR) + "/" + name; }
/// A shipped rig under content/rigs.
inline std::string contentRig(const std::string& name) { return std::string(PAPERDOLL_CONTENT_DIR) + "/rigs/" + name; }

inline std::string readFile(const std::filesystem::path& path) {
    std::ifstream file(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

}  // namespace rigtest
