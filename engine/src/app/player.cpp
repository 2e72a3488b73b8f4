#include "app/player.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <iostream>
#include <optional>
#include <thread>

#include <unistd.h>

#include "app/stats_json.h"
#include "paper/content_paths.h"
#include "paper/fixed_step.h"
#include "paper/player_input.h"
#include "paper/script.h"
#include "paper/startup.h"
#include "paper/plugin_host.h"
#include "paper/input.h"
#include "paper/window.h"
#include "paper/gl_renderer.h"
#include "paper/level_view.h"

namespace paper {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

/// Headless runs have no window but the same camera maths: a nominal viewport, so
/// `mouse move screen` in a script means the same in both.
constexpr Vec2 kHeadlessViewport{1280.0f, 720.0f};

/// The simulation as the engine runs it: the plugin steps the physics; without one the
/// level stands still (the step is still timed, so the loop and pacing are exercised).
/// Input reaches the plugin one way, windowed or headless: SDL events and the script both
/// go into `input`, and each step hands the plugin what `input` says then.
struct Simulation {
    const Level* level = nullptr;
    PluginHost* plugin = nullptr;  ///< null when running without a plugin
    RunStats stats;
    InputMap input;
    PlayerBindings bindings{input};
    PlayerView view;  ///< the camera, following the plugin's first owner
    ScriptRunner* script = nullptr;  ///< null without --script
    std::int64_t stepLimit = -1;     ///< steps to run; -1: until the window closes

    bool finished() const { return stepLimit >= 0 && stats.steps >= stepLimit; }

    /// The script's input due before the next step; applying a boundary twice is harmless.
    void applyScript() {
        if (script) script->applyInput(stats.steps, input, view.camera);
    }

    int boundGeneration = -1;  ///< the plugin library whose actions `bindings` holds

    /// Binds the keys of the plugin's actions when a load or reload changed the library.
    void syncBindings() {
        if (!plugin || plugin->generation() == boundGeneration) return;
        boundGeneration = plugin->generation();
        for (const std::string& problem : bindings.bindGame(input, plugin->declarations()))
            std::cerr << "paperdoll: warning: " << problem << '\n';
    }

    void step() {
        applyScript();
        // F5 (the key, or a script's press due at this step) reloads before the step: checked
        // once a frame, a script's press due at a window's second step in a frame was gone
        // by the next frame (the step had consumed it), and the reload never happened.
        if (plugin && input.pressed(bindings.reloadPlugin)) plugin->reload();
        syncBindings();
        PaperInput stepInput = makePaperInput(input, bindings, view.camera);
        Clock::time_point start = Clock::now();
        if (plugin) plugin->tick(1.0 / kSimulationHz, stepInput);
        ++stats.steps;
        double seconds = secondsSince(start);
        stats.stepSecondsTotal += seconds;
        stats.stepSecondsMax = std::max(stats.stepSecondsMax, seconds);
        // After every step, headless too: where a script's `mouse move screen` lands depends on it.
        if (plugin) follow(view, *plugin, input);
        input.consumeEdges();  // a press is seen by exactly one step
    }
};

/// How many steps a run takes: a script's `quit` ends it at once; otherwise --frames
/// when given (cutting a longer script short, or idling after a shorter one); otherwise
/// the script's end; otherwise until the window closes.
std::int64_t stepLimitOf(const PlayerOptions& options, const Script* script) {
    if (script && script->quitStep())
        return options.frames > 0 ? std::min(options.frames, *script->quitStep()) : *script->quitStep();
    if (options.frames > 0) return options.frames;
    if (script) return script->endStep();
    return -1;
}

/// One step is one frame here, in the order a windowed frame has: the script's input,
/// the camera, the step, the end of the frame.
void runHeadless(const PlayerOptions& options, Simulation& sim) {
    FixedStepClock clock;
    sim.view.camera.viewportSize = kHeadlessViewport;
    const CameraView home = startView(*sim.level, kHeadlessViewport);
    sim.view.camera.frame(home.center, home.viewHeight);
    Clock::time_point start = Clock::now();
    for (std::int64_t i = 0; !sim.finished(); ++i) {
        // A rebuilt plugin is picked up between steps (a script's F5 reloads in the step), as in
        // a window.
        sim.applyScript();
        if (sim.plugin && !sim.input.pressed(sim.bindings.reloadPlugin)) sim.plugin->reloadIfChanged();
        updateCamera(sim.view, sim.input, sim.bindings, home);
        sim.step();
        sim.input.endFrame();
        if (options.realtime)
            std::this_thread::sleep_until(start + std::chrono::duration_cast<Clock::duration>(
                                                      std::chrono::duration<double>(double(i + 1) * clock.stepSeconds)));
    }
}

/// Text lines wrap here, pixels from the HUD's left: it must leave most of a 640-pixel
/// window free (the screenshot test looks at the top-right third).
constexpr float kHudWrapPixels = 400.0f;
/// The HUD's background opacity, and its whole opacity (text too) while the figure the keys
/// drive is under it: it fades so the figure shows through. The view does not move out from
/// under it: a headless run has no HUD and must follow as a window does (follow says why).
constexpr float kHudBackgroundAlpha = 0.75f;
constexpr float kHudFadedAlpha = 0.3f;
const ImVec4 kHudErrorColour{1.0f, 0.45f, 0.4f, 1.0f};

/// One HUD line of any length, wrapped at kHudWrapPixels. ImGui's formatted Text() goes
/// through a 3 KB buffer and would cut a long message; TextUnformatted takes it whole. Its
/// glyphs are wanted from the window's fonts (a level or object named in any script).
void hudText(const std::string& text, std::optional<ImVec4> colour = std::nullopt) {
    wantGlyphs(text);
    if (colour) ImGui::PushStyleColor(ImGuiCol_Text, *colour);
    ImGui::PushTextWrapPos(kHudWrapPixels);
    ImGui::TextUnformatted(text.c_str(), text.c_str() + text.size());
    ImGui::PopTextWrapPos();
    if (colour) ImGui::PopStyleColor();
}

std::string formatted(const char* format, double a, double b = 0.0, double c = 0.0, double d = 0.0) {
    char text[160];
    std::snprintf(text, sizeof text, format, a, b, c, d);  // numbers only: always fits
    return text;
}

/// The figures the plugin flags for the HUD, as many to a line as fit: "step time 0.41 ms".
void drawPluginStats(PluginHost& plugin) {
    const PluginDeclarations& d = plugin.declarations();
    const std::vector<double> values = plugin.stats();
    std::string line;
    for (size_t i = 0; i < d.stats.size() && i < values.size(); ++i) {
        const PluginDeclarations::Stat& stat = d.stats[i];
        if (!(stat.flags & PAPER_STAT_HUD)) continue;
        char number[48];
        std::snprintf(number, sizeof number, stat.flags & PAPER_STAT_INTEGER ? "%.0f" : "%.3f", values[i] * stat.displayScale);
        std::string item = stat.label + " " + number + (stat.unit.empty() ? "" : (stat.unit == "\xC2\xB0" ? "" : " ") + stat.unit);
        if (!line.empty() && ImGui::CalcTextSize((line + "   " + item).c_str()).x > kHudWrapPixels) {
            hudText(line);
            line.clear();
        }
        line += (line.empty() ? "" : "   ") + item;
    }
    if (!line.empty()) hudText(line);
}

/// "walker: fallen   leader   Speed 4.05 m/s": each object with properties flagged for
/// the HUD, its name and their values (propertyText).
void drawPluginObjects(PluginHost& plugin) {
    const PluginDeclarations& d = plugin.declarations();
    for (size_t kind = 0; kind < d.kinds.size(); ++kind) {
        if (d.kinds[kind].flags & PAPER_KIND_SETTINGS) continue;
        for (const ObjectEntry& object : plugin.objects(int(kind))) {
            std::string line;
            for (const PropertyValue& p : plugin.properties(int(kind), object.handle)) {
                if (!(p.flags & PAPER_PROPERTY_HUD)) continue;
                if (const std::string text = propertyText(p); !text.empty()) line += (line.empty() ? "" : "   ") + text;
            }
            if (!line.empty()) hudText(object.name + ": " + line);
        }
    }
}

/// Draws the HUD, faded or not; returns where it was drawn, viewport pixels (y down).
Rect drawHud(const Level& level, const RunStats& stats, const Camera& camera, double fps, const char* glRenderer,
             PluginHost* plugin, bool debugView, bool faded) {
    ImGui::SetNextWindowPos({10, 10});
    // The background's alpha as set replaces the style's (ImGui 1.86): faded, both are.
    const float alpha = faded ? kHudFadedAlpha : 1.0f;
    ImGui::SetNextWindowBgAlpha(kHudBackgroundAlpha * alpha);
    ImGui::PushStyleVar(ImGuiStyleVar_Alpha, alpha);
    Rect drawn{};
    ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                             ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                             ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoMove;
    const ImVec4 disabled = ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled);
    if (ImGui::Begin("hud", nullptr, flags)) {
        hudText("Paperdoll  -  " + level.name);
        ImGui::Separator();
        hudText("step " + std::to_string(stats.steps) + formatted("   %.1f s simulated", double(stats.steps) / kSimulationHz));
        hudText(formatted("%.0f fps   zoom %.0f px/m", fps, camera.pixelsPerMetre));
        hudText("terrain " + std::to_string(level.terrain.size()) + "   props " + std::to_string(level.props.size()) +
                "   spawns " + std::to_string(level.spawns.size()));
        if (!plugin) {
            hudText("plugin: none (--no-plugin, or none found)", disabled);
        } else {
            const PluginStatus& ps = plugin->status();
            if (plugin->loaded())
                hudText("plugin: " + ps.name + " " + ps.version + "   reloads " + std::to_string(ps.reloads) +
                        "   watch: " + ps.watchMethod);
            else
                hudText("plugin: not running", kHudErrorColour);
            if (plugin->loaded()) {
                drawPluginStats(*plugin);
                drawPluginObjects(*plugin);
            }
            if (!ps.lastError.empty()) hudText(ps.lastError, kHudErrorColour);
        }
        hudText(glRenderer ? glRenderer : "", disabled);
        ImGui::Separator();
        if (plugin && plugin->loaded()) hudText(gameKeyHelp(plugin->declarations()), disabled);
        hudText(std::string("right/middle drag pan (stops following), wheel zoom, Home view and follow, F5 reload "
                                "plugin, F3 debug view") +
                    (debugView ? " (on)" : "") + ", F1 hide this, Esc quit",
                disabled);
        const ImVec2 at = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
        const ImVec2 scale = ImGui::GetIO().DisplayFramebufferScale;
        drawn = {{at.x * scale.x, at.y * scale.y}, {(at.x + size.x) * scale.x, (at.y + size.y) * scale.y}};
    }
    ImGui::End();
    ImGui::PopStyleVar();
    return drawn;
}

/// Whether the figure the keys drive (followedBox) meets `panel` (viewport pixels, y down) on screen.
bool figureUnder(PluginHost* plugin, const Camera& camera, Rect panel) {
    const std::optional<Rect> box = plugin && plugin->loaded() ? followedBox(*plugin) : std::nullopt;
    if (!box) return false;
    const Vec2 low = camera.worldToScreen(box->min), high = camera.worldToScreen(box->max);
    return high.x >= panel.min.x && low.x <= panel.max.x && low.y >= panel.min.y && high.y <= panel.max.y;
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

    InputMap& input = sim.input;
    Camera& camera = sim.view.camera;
    camera.viewportSize = window.framebufferSize();
    const CameraView home = startView(level, camera.viewportSize);
    camera.frame(home.center, home.viewHeight);
    DrawList backdrop, draw;
    bool debugView = false;
    // F1: the view alone, for a clean picture. In a window under kHudRoomHeight the HUD
    // (about 300 px tall) would cover most of the view: it starts hidden.
    constexpr float kHudRoomHeight = 480.0f;
    bool hudShown = camera.viewportSize.y >= kHudRoomHeight;
    FixedStepClock clock;
    // With --frames or a script the run is a recording: exactly one step per frame, unless
    // paced; the script's timing is in steps either way.
    bool lockstep = sim.stepLimit >= 0 && !options.realtime;

    Clock::time_point last = Clock::now();
    double fps = 0.0;
    // ImGui measures a window that fits its contents on its first frame and shows it from
    // the second: the HUD laid out once before the first frame (drawn into the back buffer
    // the first frame clears), so that frame — a `--frames 1` screenshot — shows it too.
    auto prepareFonts = [&] {
        if (const std::string said = window.prepareFonts(); !said.empty()) err << "paperdoll: warning: " << said << '\n';
    };
    // The spawns' labels are drawn from the first frame the debug view shows them.
    for (const ScreenText& label : spawnLabels(level, camera)) wantGlyphs(label.text);
    prepareFonts();
    window.beginImGuiFrame();
    Rect hud = drawHud(level, sim.stats, camera, fps, window.glRenderer(), sim.plugin, debugView, false);
    window.renderImGui();
    for (;;) {
        if (!window.pollEvents(input)) break;
        Clock::time_point now = Clock::now();
        double frameSeconds = std::chrono::duration<double>(now - last).count();
        last = now;
        if (frameSeconds > 0.0) fps = fps == 0.0 ? 1.0 / frameSeconds : 0.95 * fps + 0.05 / frameSeconds;

        Vec2 size = window.framebufferSize();
        camera.viewportSize = size;
        sim.applyScript();
        updateCamera(sim.view, input, sim.bindings, home);
        // Taken here: a frame with no step (a display faster than 60 Hz) saw the press again
        // the next frame, and the view toggled twice.
        if (input.takePress(sim.bindings.debugView)) debugView = !debugView;
        if (input.takePress(sim.bindings.toggleHud)) hudShown = !hudShown;
        if (sim.plugin && !input.pressed(sim.bindings.reloadPlugin)) sim.plugin->reloadIfChanged();  // F5: in the step

        int steps = lockstep ? 1 : clock.advance(frameSeconds);
        for (int i = 0; i < steps && !sim.finished(); ++i) sim.step();
        if (input.held(sim.bindings.quit)) break;

        // Back to front: the level (and in the debug view the spawn markers and their
        // labels), then what the plugin draws (characters, props), then the HUD. The world's
        // part is timed to the end of its rendering (render_ms in --stats-json).
        prepareFonts();  // new glyphs (a font read, the atlas built) are no part of render_ms
        const Clock::time_point renderStart = Clock::now();
        backdrop.clear();
        backdrop.setPixelsPerMetre(camera.pixelsPerMetre);
        drawGrid(camera, backdrop);
        drawLevel(level, backdrop, /*drawProps=*/!(sim.plugin && sim.plugin->loaded()));
        if (debugView) drawSpawnMarkers(level, backdrop);
        draw.clear();
        draw.setPixelsPerMetre(camera.pixelsPerMetre);
        if (sim.plugin) sim.plugin->draw(draw);
        renderer.beginFrame(int(size.x), int(size.y), kPaperColor);
        renderer.draw(backdrop, camera);
        window.beginImGuiFrame();
        if (debugView) Window::drawTextNow(spawnLabels(level, camera));
        renderer.draw(draw, camera, sim.plugin ? &sim.plugin->images() : nullptr);
        renderer.finish();
        sim.stats.renderSecondsTotal += secondsSince(renderStart);
        if (hudShown)
            hud = drawHud(level, sim.stats, camera, fps, window.glRenderer(), sim.plugin, debugView,
                          figureUnder(sim.plugin, camera, hud));
        window.renderImGui();
        ++sim.stats.framesRendered;

        // The script's screenshots of the world after this many steps: this frame.
        if (sim.script) {
            for (const ScriptCommand* c : sim.script->takeObservations(sim.stats.steps)) {
                if (c->op != ScriptOp::Screenshot) continue;
                if (!saveFramebufferPng(c->file, int(size.x), int(size.y), error, sim.plugin ? &sim.plugin->images() : nullptr)) {
                    err << "paperdoll: error: " << options.scriptPath << ':' << c->line << ": screenshot: " << error
                        << '\n';
                    return 1;
                }
            }
        }

        if (sim.finished()) break;
        window.swap();
        input.endFrame();
    }
    // The last frame is still in the back buffer: that is what the user saw last.
    if (!options.screenshotPath.empty()) {
        Vec2 size = window.framebufferSize();
        if (!saveFramebufferPng(options.screenshotPath, int(size.x), int(size.y), error,
                                sim.plugin ? &sim.plugin->images() : nullptr)) {
            err << "paperdoll: error: screenshot: " << error << '\n';
            return 1;
        }
    }
    return 0;
}

}  // namespace

/// --list-plugins: every descriptor found, with its fields. A plugin that cannot be run (its
/// library missing or refused) is also an error, so a script checking an installation fails.
static int listPlugins(const PlayerOptions& options, std::ostream& out, std::ostream& err) {
    std::vector<Diagnostic> diagnostics;
    bool cannotRun = false;
    std::vector<PluginDescriptor> found = findPluginsNamedFirst(options.pluginPath, diagnostics);
    for (const Diagnostic& d : diagnostics) err << d.format() << '\n';
    out << found.size() << (found.size() == 1 ? " plugin" : " plugins") << " found in:";
    if (!options.pluginPath.empty()) out << ' ' << options.pluginPath << " (--plugin),";  // listed first
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
        if (!built) {
            err << d.path.string() << ": error: plugin '" << d.name << "': its library " << d.libraryPath().string()
                << " is missing (build the plugin)\n";
            cannotRun = true;
            continue;
        }
        std::string error;
        const std::filesystem::path copies =
            std::filesystem::temp_directory_path() / ("paperdoll-list-" + std::to_string(getpid()));
        if (std::optional<PluginDeclarations> declared = readPluginDeclarations(d, copies, error)) {
            out << "  keys          " << (declared->actions.empty() ? "(none)" : gameKeyHelp(*declared)) << "\n";
            std::string actions, kinds, assets;
            for (const PluginDeclarations::Action& a : declared->actions) actions += (actions.empty() ? "" : ", ") + a.name;
            out << "  actions       " << (actions.empty() ? "(none)" : actions) << "  (a script's `action press NAME`)\n";
            for (const PluginDeclarations::Kind& k : declared->kinds) kinds += (kinds.empty() ? "" : ", ") + k.name;
            for (const PluginDeclarations::AssetType& a : declared->assetTypes)
                assets += (assets.empty() ? "" : ", ") + a.label + " (" + a.pattern + ")";
            out << "  objects       " << (kinds.empty() ? "(none)" : kinds) << "\n"
                << "  assets        " << (assets.empty() ? "(none)" : assets) << "\n";
        } else {
            out << "  cannot load   " << error << "\n";
            err << d.path.string() << ": error: plugin '" << d.name << "' cannot load: " << error << '\n';
            cannotRun = true;
        }
    }
    return hasErrors(diagnostics) || cannotRun ? 1 : 0;
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
        // The commands are the plugins' (found as a command line would run them), so the
        // help names what this installation can run; a plugin that cannot load adds none.
        std::vector<Diagnostic> ignored;
        const std::filesystem::path copies =
            std::filesystem::temp_directory_path() / ("paperdoll-help-" + std::to_string(getpid()));
        for (const PluginDescriptor& d : findPluginsNamedFirst(options.pluginPath, ignored))
            for (const std::string& command : pluginCommands(d, copies))
                out << "\nPlugin '" << d.name << "' adds `paperdoll " << command << " ...`: `paperdoll " << command
                    << " --help` gives its usage.\n";
        return 0;
    }
    if (options.showVersion) {
        out << "paperdoll " << PAPERDOLL_VERSION << '\n';
        return 0;
    }

    if (options.listPlugins) return listPlugins(options, out, err);

    // The script first: a bad one stops the run before anything loads or moves.
    std::optional<Script> script;
    if (!options.scriptPath.empty()) {
        std::vector<ScriptError> errors;
        script = Script::load(options.scriptPath, errors);
        if (options.headless) {
            for (const ScriptCommand& c : script->commands())
                if (c.op == ScriptOp::Screenshot)
                    errors.push_back({c.line, "screenshot needs a window; this run is --headless"});
        } else {
            for (ScriptError& e : script->checkScreenshotFolders()) errors.push_back(std::move(e));
        }
        sortByLine(errors);
        for (const ScriptError& e : errors) err << Script::format(options.scriptPath, e) << '\n';
        if (!errors.empty()) return 2;
    }

    std::optional<Level> level = loadStartLevel("paperdoll", options.levelPath, "a level file", err);
    if (!level) return 1;
    if (!options.assetPath.empty()) {
        if (level->spawns.empty()) {
            err << "paperdoll: error: " << level->path << ": the level has no spawn to play --asset's file in\n";
            return 1;
        }
        if (!putAsset("paperdoll", *level, options.assetPath, "--asset names the file the first spawn plays", err)) return 1;
    }

    Simulation sim;
    sim.level = &*level;
    std::optional<ScriptRunner> runner;
    if (script) sim.script = &runner.emplace(*script);
    sim.stepLimit = stepLimitOf(options, script ? &*script : nullptr);
    std::unique_ptr<PluginHost> plugin;
    if (!options.noPlugin) {
        std::optional<PluginDescriptor> descriptor = choosePlugin(options, err);
        if (!descriptor && !options.pluginPath.empty()) return 1;  // asked for, but broken
        if (descriptor) {
            plugin = makePluginHost("paperdoll", err);
            // In a window a library that fails to load, or refuses the level, leaves the host
            // waiting: a fixed rebuild reloads. A run that ends by itself (--frames, a script)
            // cannot wait, and would only measure a level where nothing moves.
            bool running = plugin->load(*descriptor);
            running = plugin->setLevel(*level) && running;
            if (!running && sim.stepLimit >= 0) {
                // The host has logged why, with every error of the level's assets: said once.
                err << "paperdoll: error: the plugin '" << descriptor->name << "' (" << descriptor->path.string()
                    << ") cannot run the level " << level->path << " (the error above says why)\n";
                return 1;
            }
            plugin->watch(options.autoReload);
            sim.plugin = plugin.get();
            sim.syncBindings();
        }
    }
    if (script) {
        // `action press jump` needs the plugin's actions, known only now.
        std::vector<ScriptError> errors =
            script->bindActions(sim.input, sim.plugin ? &sim.plugin->declarations() : nullptr);
        for (const ScriptError& e : errors) err << Script::format(options.scriptPath, e) << '\n';
        if (!errors.empty()) return 2;
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
        !writeStatsJson(options.statsJsonPath, options, *level, sim.stats, sim.view, sim.plugin, err))
        return 1;
    if (options.headless)
        out << "paperdoll: " << sim.stats.steps << (sim.stats.steps == 1 ? " step" : " steps") << " of '"
            << level->name << "' in " << formatted("%.3f", sim.stats.wallSeconds) << " s\n";
    // A run that ends by itself (--frames, a script) is a check: a plugin that crashed in it,
    // rolled back to the library before or stopped, fails it (its figures written first).
    if (plugin && sim.stepLimit >= 0)
        if (const std::string crash = plugin->crashedDuringRun(); !crash.empty()) {
            err << "paperdoll: error: " << crash << '\n';
            return 1;
        }
    return 0;
}

/// `paperdoll <command> …` when a plugin runs that command (its commandlets); nullopt if none does.
static std::optional<int> runCommandletIfAny(const std::vector<std::string>& args) {
    if (args.empty() || args[0].empty() || args[0][0] == '-') return std::nullopt;
    std::error_code ec;
    // A level file by that name is played; a folder by that name (a project's folder named
    // like the command) is not a level, and took the command's place.
    if (std::filesystem::is_regular_file(args[0], ec)) return std::nullopt;
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

/// Standard output is what scripts read (`--list-plugins`, a commandlet's results):
/// output that could not be written (a full disk) fails a run that otherwise succeeded.
static int checkStandardOutput(int status) {
    errno = 0;
    bool flushed = std::cout.flush() && std::fflush(stdout) == 0;
    if (status == 0 && (!flushed || std::ferror(stdout))) {
        // Why is known only when this flush failed (a commandlet flushes its own output).
        std::cerr << "paperdoll: error: cannot write to standard output"
                  << (!flushed && errno ? std::string(": ") + std::strerror(errno) : std::string(" (a full disk?)"))
                  << '\n';
        return 1;
    }
    return status;
}

int playerMain(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (std::optional<int> status = runCommandletIfAny(args)) return checkStandardOutput(*status);
    CliResult cli = parsePlayerCommandLine(args);
    if (!cli.options) {
        std::cerr << "paperdoll: error: " << cli.error << '\n';
        return 2;
    }
    return checkStandardOutput(runPlayer(*cli.options, std::cout, std::cerr));
}

}  // namespace paper
