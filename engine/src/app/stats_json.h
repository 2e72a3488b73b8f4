// What a run writes with --stats-json: the run, the level, the plugin's status, and the
// plugin's own part (its declared figures and the lists of its kinds with a stats key).
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <iosfwd>
#include <string>

#include "app/cli.h"

namespace paper {

class PluginHost;
struct Level;
struct PlayerView;
struct PropertyValue;

/// What one run did, for the HUD and --stats-json.
struct RunStats {
    std::int64_t steps = 0;
    std::int64_t framesRendered = 0;
    double wallSeconds = 0.0;
    double stepSecondsTotal = 0.0;
    double stepSecondsMax = 0.0;
    double renderSecondsTotal = 0.0;  ///< drawing and rendering the world, every frame (not the HUD)
};

/// A property's value as JSON: a number, a bool, a string or [x, y].
nlohmann::json propertyJson(const PropertyValue& p);

/// Writes the summary to path (beside it first, then renamed, so a reader never sees half a
/// file); false with the reason on err.
bool writeStatsJson(const std::string& path, const PlayerOptions& options, const Level& level, const RunStats& stats,
                    const PlayerView& view, PluginHost* plugin, std::ostream& err);

}  // namespace paper
