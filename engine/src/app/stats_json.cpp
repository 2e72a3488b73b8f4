#include "app/stats_json.h"

#include "paper/file_checks.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <ostream>

#include "paper/fixed_step.h"
#include "paper/level.h"
#include "paper/player_input.h"
#include "paper/plugin_host.h"

namespace paper {

namespace {

nlohmann::json pluginJson(PluginHost* plugin) {
    // --no-plugin: every key as with a plugin, so a reader needs no second shape.
    if (!plugin)
        return {{"loaded", false}, {"name", nullptr},     {"version", nullptr},       {"file", nullptr},
                {"reloads", 0},     {"rollbacks", 0},     {"last_reload_ms", 0.0},    {"last_state_bytes", 0},
                {"watch", "off"},   {"last_error", nullptr}};
    const PluginStatus& s = plugin->status();
    return {{"loaded", plugin->loaded()},
            {"name", s.name.empty() ? nlohmann::json(nullptr) : nlohmann::json(s.name)},
            {"version", s.version.empty() ? nlohmann::json(nullptr) : nlohmann::json(s.version)},
            {"file", s.file},
            {"reloads", s.reloads},
            {"rollbacks", s.rollbacks},
            {"last_reload_ms", s.lastReloadMilliseconds},
            {"last_state_bytes", s.lastStateBytes},
            {"watch", s.watchMethod},
            {"last_error", s.lastError.empty() ? nlohmann::json(nullptr) : nlohmann::json(s.lastError)}};
}

}  // namespace

nlohmann::json propertyJson(const PropertyValue& p) {
    switch (p.type) {
    case PAPER_PROPERTY_INT: return std::int64_t(p.value);
    case PAPER_PROPERTY_BOOL: return p.value != 0.0;
    case PAPER_PROPERTY_STRING: return p.text;
    case PAPER_PROPERTY_VEC2: return {p.vector.x, p.vector.y};
    default: return p.value;
    }
}

namespace {

/// The plugin's part of --stats-json: each figure it declares by its name, and a list for
/// each kind of object it declares a stats key for (each object's name and properties).
nlohmann::json physicsJson(PluginHost* plugin) {
    if (!plugin || !plugin->loaded()) return nlohmann::json::object();
    const PluginDeclarations& d = plugin->declarations();
    nlohmann::json out = nlohmann::json::object();
    const std::vector<double> values = plugin->stats();
    if (!plugin->loaded()) return out;  // it crashed handing them over (the status says so)
    for (size_t i = 0; i < d.stats.size() && i < values.size(); ++i) {
        if (d.stats[i].flags & PAPER_STAT_INTEGER) out[d.stats[i].name] = std::int64_t(values[i]);
        else out[d.stats[i].name] = values[i];
    }
    for (size_t kind = 0; kind < d.kinds.size(); ++kind) {
        if (d.kinds[kind].statsKey.empty()) continue;
        nlohmann::json list = nlohmann::json::array();
        for (const ObjectEntry& object : plugin->objects(int(kind))) {
            nlohmann::json entry = {{"name", object.name}};
            for (const PropertyValue& p : plugin->properties(int(kind), object.handle))
                if (!(p.flags & PAPER_PROPERTY_NOT_IN_STATS)) entry[p.name] = propertyJson(p);
            list.push_back(std::move(entry));
        }
        out[d.kinds[kind].statsKey] = std::move(list);
    }
    return out;
}

}  // namespace

bool writeStatsJson(const std::string& path, const PlayerOptions& options, const Level& level, const RunStats& stats,
                    const PlayerView& view, PluginHost* plugin, std::ostream& err) {
    nlohmann::json j;
    j["frames"] = stats.steps;
    j["mode"] = options.headless ? "headless" : "window";
    j["simulation_hz"] = kSimulationHz;
    j["simulated_seconds"] = double(stats.steps) / kSimulationHz;
    j["level"] = {{"name", level.name},
                  {"path", level.path},
                  {"terrain", level.terrain.size()},
                  {"props", level.props.size()},
                  {"spawns", level.spawns.size()}};
    const Camera& camera = view.camera;
    j["view"] = {{"center", {camera.center.x, camera.center.y}},
                 {"width_m", camera.viewportSize.x / camera.pixelsPerMetre},
                 {"height_m", camera.viewportSize.y / camera.pixelsPerMetre},
                 {"following", view.following}};
    // The figures first: a plugin that crashes handing them over is rolled back or stopped,
    // and its status then says so (it said loaded, no error, beside empty figures).
    j["physics"] = physicsJson(plugin);
    j["plugin"] = pluginJson(plugin);
    j["timing"] = {{"wall_seconds", stats.wallSeconds},
                   {"frames_rendered", stats.framesRendered},
                   {"step_ms_mean", stats.steps > 0 ? 1000.0 * stats.stepSecondsTotal / double(stats.steps) : 0.0},
                   {"step_ms_max", 1000.0 * stats.stepSecondsMax},
                   {"render_ms_mean",
                    stats.framesRendered > 0 ? 1000.0 * stats.renderSecondsTotal / double(stats.framesRendered) : 0.0},
                   {"realtime", options.realtime}};

    // Bytes that are not UTF-8 (a level's name, a path) are written as U+FFFD: nlohmann's dump
    // throws on them, and the player aborted with no stats written.
    const std::string text = j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + '\n';
    auto failed = [&](int code) {
        err << "paperdoll: error: cannot write stats to '" << path << "': " << std::strerror(code ? code : EIO) << '\n';
        return false;
    };
    auto write = [&](const std::string& to) {
        errno = 0;
        std::ofstream file(to, std::ios::trunc);
        file << text;
        file.flush();
        return file.good();
    };
    // Into a pipe, a device or a descriptor (/dev/stdout, /proc/self/fd/1) as it is: a file
    // renamed over it would replace it.
    std::error_code ec;
    const std::filesystem::file_status status = std::filesystem::status(path, ec);
    if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
        return write(path) ? true : failed(errno);
    // Else beside the file (a symbolic link's target: the link stays) and renamed over it, so
    // a reader never sees half a file.
    std::string why;
    std::filesystem::path target = linkedFile(path, why);
    if (target.empty()) target = path;  // a link that leads nowhere: the write's own error says so
    const std::string temp = target.string() + ".tmp";
    if (!write(temp)) {
        const int code = errno;
        std::remove(temp.c_str());
        return failed(code);
    }
    if (std::rename(temp.c_str(), target.c_str()) != 0) {
        const int code = errno;
        std::remove(temp.c_str());
        return failed(code);
    }
    return true;
}

}  // namespace paper
