// Helpers shared by the Spine test files.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include "spine/spine_import.h"

namespace spinetest {

inline constexpr double kPi = 3.14159265358979323846;
inline constexpr double kDegree = kPi / 180.0;

/// A fixture under tests/spine/data.
inline std::string dataPath(const std::string& name) { return std::string(PAPERDOLL_SPINE_TEST_DATA_DIR) + "/" + name; }
inline std::string contentPath(const std::string& name) { return std::string(PAPERDOLL_CONTENT_DIR) + "/" + name; }

/// The folders freshFolder made, removed when the test program ends (named per process,
/// they would otherwise pile up in the temporary folder run after run).
struct FolderCleanup {
    std::vector<std::filesystem::path> folders;
    ~FolderCleanup() {
        for (const std::filesystem::path& folder : folders) {
            std::error_code ignored;
            std::filesystem::remove_all(folder, ignored);
        }
    }
};
inline FolderCleanup& folderCleanup() {
    static FolderCleanup cleanup;
    return cleanup;
}

/// A fresh, empty folder for one test's output, named for the process too: the same test run
/// at once by two builds (or two test processes) must not share it.
inline std::filesystem::path freshFolder(const std::string& name) {
    std::filesystem::path folder =
        std::filesystem::temp_directory_path() / ("paperdoll_spine_" + name + "_" + std::to_string(::getpid()));
    std::filesystem::remove_all(folder);
    std::filesystem::create_directories(folder);
    folderCleanup().folders.push_back(folder);
    return folder;
}

inline size_t filesIn(const std::filesystem::path& folder) {
    size_t count = 0;
    for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(folder)) ++count;
    return count;
}

/// The Bezier of mini.json's swing timeline (0 to 90 degrees over 1 s, control points
/// (0.25, 0) and (0.75, 90)) by its own formula: solve x(s) = t by Newton, take y(s).
inline double swingByFormula(double t) {
    auto x = [](double s) { return 3 * (1 - s) * (1 - s) * s * 0.25 + 3 * (1 - s) * s * s * 0.75 + s * s * s; };
    auto dx = [](double s) { return 3 * (1 - s) * (1 - s) * 0.25 + 6 * (1 - s) * s * (0.75 - 0.25) + 3 * s * s * (1 - 0.75); };
    double s = t;
    for (int i = 0; i < 50; ++i) s -= (x(s) - t) / dx(s);
    return 3 * (1 - s) * s * s * 90.0 + s * s * s * 90.0;
}

struct ImportRun {
    int exitCode = -1;
    std::string out, err;
};

inline ImportRun runImport(const ragdoll::SpineImportOptions& options) {
    std::ostringstream out, err;
    ImportRun run;
    run.exitCode = ragdoll::runSpineImport(options, out, err);
    run.out = out.str();
    run.err = err.str();
    return run;
}

}  // namespace spinetest
