#include "paper/content_paths.h"

#include <cstdlib>
#include <system_error>

namespace paper {

namespace fs = std::filesystem;

static bool looksLikeContent(const fs::path& dir) {
    std::error_code ec;
    return fs::is_directory(dir / "levels", ec);
}

std::optional<fs::path> findContentDir() {
    if (const char* env = std::getenv("PAPERDOLL_CONTENT"); env && *env) {
        if (looksLikeContent(env)) return fs::path(env);
        return std::nullopt;
    }
    std::error_code ec;
    if (fs::path here = fs::current_path(ec) / "content"; !ec && looksLikeContent(here)) return here;
    fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (ec) return std::nullopt;
    for (fs::path dir = exe.parent_path(); !dir.empty(); dir = dir.parent_path()) {
        if (looksLikeContent(dir / "content")) return dir / "content";
        if (dir == dir.root_path()) break;
    }
    return std::nullopt;
}

}  // namespace paper
