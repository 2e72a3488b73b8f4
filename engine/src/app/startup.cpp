#include "paper/startup.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string_view>

#include <tinyxml2.h>

#include "paper/content_paths.h"
#include "paper/file_checks.h"
#include "paper/library.h"

namespace paper {

std::optional<Level> loadStartLevel(const std::string& program, const std::string& levelPath,
                                    const std::string& levelHint, std::ostream& err) {
    std::string path = levelPath;
    if (path.empty()) {
        std::optional<std::filesystem::path> content = findContentDir();
        if (!content) {
            const char* env = std::getenv("PAPERDOLL_CONTENT");
            if (env && *env)
                err << program << ": error: PAPERDOLL_CONTENT is '" << env
                    << "', which is not a content folder (one with levels/ in it); or name " << levelHint << "\n";
            else
                err << program << ": error: cannot find the content folder (run from the repository, or set "
                                  "PAPERDOLL_CONTENT); or name "
                    << levelHint << "\n";
            return std::nullopt;
        }
        path = (*content / "levels" / "harness.level.xml").string();
    }
    LevelLoadResult loaded = loadLevelFile(path);
    for (const Diagnostic& d : loaded.diagnostics) err << d.format() << '\n';
    tinyxml2::XMLDocument document;
    if (!loaded.level && document.LoadFile(path.c_str()) == tinyxml2::XML_SUCCESS && document.RootElement() &&
        std::string_view(document.RootElement()->Name()) != "level") {
        // A file a spawn loads, given where the level goes: it is played or edited in one.
        err << program << ": hint: '" << path << "' is a <" << document.RootElement()->Name()
            << "> file, not a level; `" << program << " --asset " << path
            << "` puts it in the default level's first spawn\n";
    }
    return std::move(loaded.level);
}

bool putAsset(const std::string& program, Level& level, const std::string& assetPath, const std::string& purpose,
              std::ostream& err) {
    if (const std::string why = notAFile(assetPath); !why.empty()) {
        err << program << ": error: cannot open '" << assetPath << "': " << why << " (" << purpose << ")\n";
        return false;
    }
    level.spawns.front().asset = std::filesystem::absolute(assetPath).lexically_normal().string();
    return true;
}

std::unique_ptr<PluginHost> makePluginHost(const std::string& program, std::ostream& err) {
    using Clock = std::chrono::steady_clock;
    removeAbandonedCopies(std::filesystem::temp_directory_path());  // a killed run's library copies
    return std::make_unique<PluginHost>(
        std::filesystem::temp_directory_path() / (program + "-" + std::to_string(getpid())),
        [&err, program, start = Clock::now()](PaperLogLevel level, const std::string& message) {
            // A message that is a diagnostic, FILE:LINE: warning: …, is printed as the engine's
            // own are, alone on its line, for editors and scripts that read FILE:LINE (it read
            // "paperdoll: [0.295 s] FILE:LINE: warning:"); one that only quotes one is logged.
            auto startsWithDiagnostic = [&](const char* kindText) {
                const std::size_t at = message.find(kindText);
                return at != std::string::npos && message.find(' ') > at;
            };
            if (startsWithDiagnostic(": warning: ") || startsWithDiagnostic(": error: ")) {
                err << message << std::endl;
                return;
            }
            char when[32];
            std::snprintf(when, sizeof when, "[%8.3f s] ", std::chrono::duration<double>(Clock::now() - start).count());
            const char* kind = level == PAPER_LOG_ERROR ? "error: " : level == PAPER_LOG_WARNING ? "warning: " : "";
            err << program << ": " << when << kind << message << std::endl;
        });
}

}  // namespace paper
