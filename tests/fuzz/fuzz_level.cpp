// The level loader on arbitrary text: refused with a reason, or a level whose numbers are
// all finite (the plugin takes them as they are) and whose props all have a name. This is
// every level a user brings: the player and the editor read theirs at start through
// paper/startup.h (loadStartLevel → loadLevelFile → loadLevelFromText).
#include <cmath>
#include <string>

#include "fuzz_target.h"
#include "paper/level.h"

using namespace paper;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    // Read as a file of content/levels, so the shipped levels' spawns find their rigs.
    static const std::string path = std::string(PAPERDOLL_CONTENT_DIR) + "/levels/fuzz.level.xml";
    const LevelLoadResult loaded = loadLevelFromText({reinterpret_cast<const char*>(data), size}, path);
    if (!loaded.level) {
        FUZZ_CHECK(hasErrors(loaded.diagnostics));
        return 0;
    }
    gFuzzInputTaken = true;
    auto finite = [](Vec2 v) { return std::isfinite(v.x) && std::isfinite(v.y); };
    for (const TerrainPiece& t : loaded.level->terrain) {
        FUZZ_CHECK(t.points.size() >= 3);
        for (Vec2 p : t.points) FUZZ_CHECK(finite(p));
    }
    for (const Prop& p : loaded.level->props)
        FUZZ_CHECK(finite(p.position) && p.mass > 0.0 && std::isfinite(p.angle) && !p.name.empty());
    for (const SpawnPoint& s : loaded.level->spawns) FUZZ_CHECK(finite(s.position));
    return 0;
}
