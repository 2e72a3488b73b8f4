#include "app/player.h"

#include <SDL_keycode.h>
#include <imgui.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>
#include <thread>

#include <unistd.h>

#include "app/content_paths.h"
#include "app/fixed_step.h"
#include "plugin/plugin_host.h"
#include "platform/input.h"
#include "platform/window.h"
#include "render/gl_renderer.h"
#include "world/level_view.h"

namespace paper {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

/// What one run did, for the HUD and --stats-json.
struct RunStats {
    std::int64_t steps = 0;
    std::int64_t framesRendered = 0;
    double wallSeconds = 0.0;
    double stepSecondsTotal = 0.0;
    double stepSecondsMax = 0.0;
};

/// The simulation as the engine runs it: the plugin steps the physics; without one the
/// level stands still (the step is still timed, so the loop and pacing are exercised).
struct Simulation {
    const Level* level = nullptr;
    PluginHost* plugin = nullptr;  ///< null when running without a plugin
    RunStats stats;
    PaperInput input = {};

    void step() {
        Clock::time_point start = Clock::now();
        if (plugin) plugin->tick(1.0 / kSimulationHz, input);
        ++stats.steps;
        double seconds = secondsSince(start);
        stats.stepSecondsTotal += seconds;
        stats.stepSecondsMax = std::max(stats.stepSecondsMax, seconds);
    }
};

nlohmann::json pluginJson(PluginHost* plugin) {
    if (!plugin) return {{"loaded", false}, {"name", nullptr}, {"version", nullptr}, {"reloads", 0}};
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

nlohmann::json physicsJson(PluginHost* plugin) {
    if (!plugin || !plugin->loaded()) return nlohmann::json::object();
    PaperPhysicsStats p = plugin->stats();
    return {{"bodies", p.bodies},
            {"joints", p.joints},
            {"contacts", p.contacts},
            {"awake_bodies", p.awakeBodies},
            {"max_stretch_m", p.maxStretchMetres},
            {"max_limit_violation_deg", p.maxLimitViolationDegrees},
            {"step_ms", p.stepMilliseconds}};
}

bool writeStatsJson(const std::string& path, const PlayerOptions& options, const Level& level, const RunStats& stats,
                    PluginHost* plugin, std::ostream& err) {
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
    j["plugin"] = pluginJson(plugin);
    j["physics"] = physicsJson(plugin);
    j["timing"] = {{"wall_seconds", stats.wallSeconds},
                   {"frames_rendered", stats.framesRendered},
                   {"step_ms_mean", stats.steps > 0 ? 1000.0 * stats.stepSecondsTotal / double(stats.steps) : 0.0},
                   {"step_ms_max", 1000.0 * stats.stepSecondsMax},
                   {"realtime", options.realtime}};

    // Write beside the target and rename, so a reader never sees half a file.
    std::string temp = path + ".tmp";
    {
        std::ofstream file(temp, std::ios::trunc);
        file << j.dump(2) << '\n';
        if (!file.good()) {
            err << "paperdoll: error: cannot write stats to '" << path << "'\n";
            std::remove(temp.c_str());
            return false;
        }
    }
    if (std::rename(temp.c_str(), path.c_str()) != 0) {
        err << "paperdoll: error: cannot write stats to '" << path << "'\n";
        std::remove(temp.c_str());
        return false;
    }
    return true;
}

void runHeadless(const PlayerOptions& options, Simulation& sim) {
    FixedStepClock clock;
    Clock::time_point start = Clock::now();
    for (std::int64_t i = 0; i < options.frames; ++i) {
        // A rebuilt plugin is picked up between steps, as in a window.
        if (sim.plugin) sim.plugin->reloadIfChanged();
        sim.step();
        if (options.realtime)
            std::this_thread::sleep_until(start + std::chrono::duration_cast<Clock::duration>(
                                                      std::chrono::duration<double>(double(i + 1) * clock.stepSeconds)));
    }
}

struct PlayerActions {
    ActionId quit, resetView, reloadPlugin;
    explicit PlayerActions(InputMap& input)
        : quit(input.bind("quit", SDLK_ESCAPE)),
          resetView(input.bind("reset_view", SDLK_HOME)),
          reloadPlugin(input.bind("reload_plugin", SDLK_F5)) {}
};

void drawHud(const Level& level, const RunStats& stats, const Camera& camera, double fps, const char* glRenderer,
             PluginHost* plugin) {
    ImGui::SetNextWindowPos({10, 10});
    ImGui::SetNextWindowBgAlpha(0.75f);
    ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                             ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                             ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoMove;
    if (ImGui::Begin("hud", nullptr, flags)) {
        ImGui::Text("Paperdoll  -  %s", level.name.c_str());
        ImGui::Separator();
        ImGui::Text("step %lld   %.1f s simulated", static_cast<long long>(stats.steps), double(stats.steps) / kSimulationHz);
        ImGui::Text("%.0f fps   zoom %.0f px/m", fps, camera.pixelsPerMetre);
        ImGui::Text("terrain %zu   props %zu   spawns %zu", level.terrain.size(), level.props.size(), level.spawns.size());
        if (!plugin) {
            ImGui::TextDisabled("plugin: none (--no-plugin, or none found)");
        } else {
            const PluginStatus& ps = plugin->status();
            if (plugin->loaded())
                ImGui::Text("plugin: %s %s   reloads %d   watch: %s", ps.name.c_str(), ps.version.c_str(), ps.reloads,
                            ps.watchMethod);
            else
                ImGui::TextColored({1.0f, 0.45f, 0.4f, 1.0f}, "plugin: not running");
            if (plugin->loaded()) {
                PaperPhysicsStats p = plugin->stats();
                ImGui::Text("bodies %d   awake %d   contacts %d   step %.2f ms", p.bodies, p.awakeBodies, p.contacts,
                            p.stepMilliseconds);
            }
            if (!ps.lastError.empty()) {
                ImGui::PushTextWrapPos(520.0f);
                ImGui::TextColored({1.0f, 0.45f, 0.4f, 1.0f}, "%s", ps.lastError.c_str());
                ImGui::PopTextWrapPos();
            }
        }
        ImGui::TextDisabled("%s", glRenderer);
        ImGui::Separator();
        ImGui::TextDisabled("right/middle drag pan   wheel zoom");
        ImGui::TextDisabled("Home view   F5 reload plugin   Esc quit");
    }
    ImGui::End();

    // Spawn labels float above their markers, in screen space.
    ImDrawList* labels = ImGui::GetBackgroundDrawList();
    for (const SpawnPoint& spawn : level.spawns) {
        Vec2 at = camera.worldToScreen(spawn.position + Vec2{0.0f, kSpawnMarkerHeight});
        std::string text = spawn.name + "  (" + std::filesystem::path(spawn.rigPath).filename().string() + ")";
        labels->AddText({at.x + 6.0f, at.y - 22.0f}, IM_COL32(60, 66, 80, 255), text.c_str());
    }
}

int runWindowed(const PlayerOptions& options, Simulation& sim, std::ostream& err) {
    const Level& level = *sim.level;
    Window window;
    std::string error;
    WindowDef def;
    def.title = "Paperdoll - " + level.name;
    def.width = options.windowWidth;
    def.height = options.windowHeight;
    def.vsync = options.vsync;
    if (!window.open(def, error)) {
        err << "paperdoll: error: " << error << '\n';
        return 1;
    }
    GlRenderer renderer;
    if (!renderer.init(error)) {
        err << "paperdoll: error: " << error << '\n';
        return 1;
    }

    InputMap input;
    PlayerActions actions(input);
    Camera camera;
    camera.viewportSize = window.framebufferSize();
    camera.frame(level.camera.center, level.camera.viewHeight);
    DrawList draw;
    FixedStepClock clock;
    // With --frames the run is a recording: exactly one step per frame, unless paced.
    bool lockstep = options.frames > 0 && !options.realtime;

    Clock::time_point last = Clock::now();
    double fps = 0.0;
    for (;;) {
        if (!window.pollEvents(input)) break;
        Clock::time_point now = Clock::now();
        double frameSeconds = std::chrono::duration<double>(now - last).count();
        last = now;
        if (frameSeconds > 0.0) fps = fps == 0.0 ? 1.0 / frameSeconds : 0.95 * fps + 0.05 / frameSeconds;

        const MouseState& mouse = input.mouse();
        if (mouse.down[int(MouseButton::Right)] || mouse.down[int(MouseButton::Middle)]) camera.panPixels(mouse.dragDelta);
        if (mouse.wheel != 0.0f) camera.zoomAt(mouse.position, std::pow(1.15f, mouse.wheel));
        Vec2 size = window.framebufferSize();
        camera.viewportSize = size;

        if (input.pressed(actions.resetView)) camera.frame(level.camera.center, level.camera.viewHeight);
        if (sim.plugin) {
            if (input.pressed(actions.reloadPlugin)) {
                input.consumeEdges();
                sim.plugin->reload();
            } else {
                sim.plugin->reloadIfChanged();
            }
        }

        int steps = lockstep ? 1 : clock.advance(frameSeconds);
        for (int i = 0; i < steps && sim.stats.steps != options.frames; ++i) {
            sim.step();
            input.consumeEdges();
        }
        if (input.held(actions.quit)) break;

        draw.clear();
        draw.setPixelsPerMetre(camera.pixelsPerMetre);
        drawGrid(camera, draw);
        drawLevel(level, draw, /*drawProps=*/!(sim.plugin && sim.plugin->loaded()));
        if (sim.plugin) sim.plugin->draw(draw);
        renderer.beginFrame(int(size.x), int(size.y), kPaperColor);
        renderer.draw(draw, camera);
        window.beginImGuiFrame();
        drawHud(level, sim.stats, camera, fps, window.glRenderer(), sim.plugin);
        window.renderImGui();
        ++sim.stats.framesRendered;

        bool done = options.frames > 0 && sim.stats.steps >= options.frames;
        if (done) break;
        window.swap();
        input.endFrame();
    }
    // The last frame is still in the back buffer: that is what the user saw last.
    if (!options.screenshotPath.empty()) {
        Vec2 size = window.framebufferSize();
        if (!saveFramebufferPng(options.screenshotPath, int(size.x), int(size.y), error)) {
            err << "paperdoll: error: screenshot: " << error << '\n';
            return 1;
        }
    }
    return 0;
}

}  // namespace

/// --list-plugins: every descriptor found, with its fields.
static int listPlugins(const PlayerOptions& options, std::ostream& out, std::ostream& err) {
    std::vector<Diagnostic> diagnostics;
    std::vector<PluginDescriptor> found = findPlugins(pluginSearchPath(), diagnostics);
    if (!options.pluginPath.empty()) {
        DescriptorResult r = loadPluginDescriptor(options.pluginPath);
        diagnostics.insert(diagnostics.end(), r.diagnostics.begin(), r.diagnostics.end());
        if (r.descriptor) found.insert(found.begin(), *r.descriptor);
    }
    for (const Diagnostic& d : diagnostics) err << d.format() << '\n';
    out << found.size() << (found.size() == 1 ? " plugin" : " plugins") << " found in:";
    for (const std::filesystem::path& folder : pluginSearchPath()) out << ' ' << folder.string();
    out << '\n';
    for (const PluginDescriptor& d : found) {
        std::error_code ec;
        bool built = std::filesystem::exists(d.libraryPath(), ec);
        out << "\n" << d.name << "  (" << d.friendlyName << ")\n"
            << "  version       " << d.version << "\n"
            << "  abi version   " << d.abiVersion << (d.abiVersion == PAPER_PLUGIN_ABI_VERSION ? "" : "  (the engine speaks " + std::to_string(PAPER_PLUGIN_ABI_VERSION) + ")") << "\n"
            << "  library       " << d.libraryPath().string() << (built ? "" : "  (missing: build the plugin)") << "\n"
            << "  loading phase " << loadingPhaseName(d.loadingPhase) << "\n"
            << "  descriptor    " << d.path.string() << "\n";
        if (!d.description.empty()) out << "  " << d.description << "\n";
    }
    return hasErrors(diagnostics) ? 1 : 0;
}

/// The plugin to run: --plugin's descriptor, else the first one found.
static std::optional<PluginDescriptor> choosePlugin(const PlayerOptions& options, std::ostream& err) {
    if (!options.pluginPath.empty()) {
        DescriptorResult r = loadPluginDescriptor(options.pluginPath);
        for (const Diagnostic& d : r.diagnostics) err << d.format() << '\n';
        return r.descriptor;
    }
    std::vector<Diagnostic> diagnostics;
    std::vector<PluginDescriptor> found = findPlugins(pluginSearchPath(), diagnostics);
    for (const Diagnostic& d : diagnostics) err << d.format() << '\n';
    if (found.empty()) {
        err << "paperdoll: warning: no plugin found (looked in $PAPERDOLL_PLUGIN_PATH and plugins/ beside the "
               "executable); the level will not move\n";
        return std::nullopt;
    }
    return found.front();
}

int runPlayer(const PlayerOptions& options, std::ostream& out, std::ostream& err) {
    if (options.showHelp) {
        out << playerUsage();
        return 0;
    }
    if (options.showVersion) {
        out << "paperdoll " << PAPERDOLL_VERSION << '\n';
        return 0;
    }

    if (options.listPlugins) return listPlugins(options, out, err);

    std::string levelPath = options.levelPath;
    if (levelPath.empty()) {
        std::optional<std::filesystem::path> content = findContentDir();
        if (!content) {
            err << "paperdoll: error: cannot find the content folder (run from the repository, or set "
                   "PAPERDOLL_CONTENT); or name a level file\n";
            return 1;
        }
        levelPath = (*content / "levels" / "harness.level.xml").string();
    }
    LevelLoadResult loaded = loadLevelFile(levelPath);
    for (const Diagnostic& d : loaded.diagnostics) err << d.format() << '\n';
    if (!loaded.level) return 1;

    Simulation sim;
    sim.level = &*loaded.level;
    std::unique_ptr<PluginHost> plugin;
    if (!options.noPlugin) {
        std::optional<PluginDescriptor> descriptor = choosePlugin(options, err);
        if (!descriptor && !options.pluginPath.empty()) return 1;  // asked for, but broken
        if (descriptor) {
            plugin = std::make_unique<PluginHost>(
                std::filesystem::temp_directory_path() / ("paperdoll-" + std::to_string(getpid())),
                [&err, start = Clock::now()](PaperLogLevel level, const std::string& message) {
                    char when[32];
                    std::snprintf(when, sizeof when, "[%8.3f s] ", secondsSince(start));
                    err << "paperdoll: " << when
                        << (level == PAPER_LOG_ERROR ? "error: " : level == PAPER_LOG_WARNING ? "warning: " : "") << message
                        << std::endl;  // flushed: users watch this while rebuilding
                });
            // A library that fails to load leaves the host waiting: a fixed rebuild reloads.
            plugin->load(*descriptor);
            plugin->setLevel(*loaded.level);
            plugin->watch(options.autoReload);
            sim.plugin = plugin.get();
        }
    }
    Clock::time_point start = Clock::now();
    int status = 0;
    if (options.headless)
        runHeadless(options, sim);
    else
        status = runWindowed(options, sim, err);
    sim.stats.wallSeconds = secondsSince(start);
    if (status != 0) return status;

    if (!options.statsJsonPath.empty() &&
        !writeStatsJson(options.statsJsonPath, options, *loaded.level, sim.stats, sim.plugin, err))
        return 1;
    if (options.headless)
        out << "paperdoll: " << sim.stats.steps << " steps of '" << loaded.level->name << "' in " << sim.stats.wallSeconds
            << " s\n";
    return 0;
}

/// `paperdoll <command> …` when a plugin runs that command (e.g. `rig`); nullopt if none does.
static std::optional<int> runCommandletIfAny(const std::vector<std::string>& args) {
    if (args.empty() || args[0].empty() || args[0][0] == '-') return std::nullopt;
    std::error_code ec;
    if (std::filesystem::exists(args[0], ec)) return std::nullopt;  // a level file
    std::vector<Diagnostic> diagnostics;
    std::filesystem::path copies = std::filesystem::temp_directory_path() / ("paperdoll-cmd-" + std::to_string(getpid()));
    for (const PluginDescriptor& d : findPlugins(pluginSearchPath(), diagnostics)) {
        if (!pluginRunsCommand(d, args[0], copies)) continue;
        std::string error;
        std::optional<int> status = runCommandlet(d, copies, args, error);
        if (!status) {
            std::cerr << "paperdoll: error: " << error << '\n';
            return 1;
        }
        return status;
    }
    return std::nullopt;
}

int playerMain(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (std::optional<int> status = runCommandletIfAny(args)) return *status;
    CliResult cli = parsePlayerCommandLine(args);
    if (!cli.options) {
        std::cerr << "paperdoll: error: " << cli.error << '\n';
        return 2;
    }
    return runPlayer(*cli.options, std::cout, std::cerr);
}

}  // namespace paper
