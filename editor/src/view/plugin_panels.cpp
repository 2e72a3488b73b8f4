#include "view/plugin_panels.h"

#include "view/long_text.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <string>

#include "paper/plugin_host.h"
#include "view/widget_targets.h"
#include "paper/window.h"

namespace paper::editor {

namespace {

const ImVec4 kErrorColour{1.0f, 0.45f, 0.4f, 1.0f};
constexpr float kSliderWidth = 150.0f;  ///< pixels, the tuning sliders' frames

/// A descriptor's fields, as `paperdoll --list-plugins` prints them.
void drawDescriptor(const PluginDescriptor& d, bool running) {
    for (const std::string& text : {d.friendlyName, d.name, d.path.string(), d.description}) wantGlyphs(text);
    std::error_code ec;
    bool built = std::filesystem::exists(d.libraryPath(), ec);
    ImGui::Text("%s%s", d.friendlyName.empty() ? d.name.c_str() : d.friendlyName.c_str(), running ? "  (running)" : "");
    if (d.abiVersion == PAPER_PLUGIN_ABI_VERSION)
        ImGui::TextDisabled("%s %s   ABI %u", d.name.c_str(), d.version.c_str(), d.abiVersion);
    else  // the library's own ABI is what the engine checks at load; the descriptor may be stale
        ImGui::TextDisabled("%s %s   descriptor ABI %u, engine ABI %u", d.name.c_str(), d.version.c_str(),
                            d.abiVersion, PAPER_PLUGIN_ABI_VERSION);
    ImGui::TextDisabled("library %s%s", d.libraryPath().filename().string().c_str(), built ? "" : " (missing: build it)");
    // Where it was found: two descriptors of one plugin (a copy given with --plugin, and the
    // build's beside the executable) differ in nothing else shown here.
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + 330.0f);
    ImGui::TextDisabled("%s", std::filesystem::absolute(d.path, ec).lexically_normal().string().c_str());
    ImGui::PopTextWrapPos();
    if (!d.description.empty()) {
        ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + 330.0f);
        ImGui::TextDisabled("%s", d.description.c_str());
        ImGui::PopTextWrapPos();
    }
}

/// "Build & reload" and the build's output; true when a build just succeeded and nothing
/// else will reload (Auto-reload off).
bool drawBuild(PluginPanelState& state, WidgetTargets& targets) {
    if (state.buildCommand.empty()) return false;
    BackgroundCommand& build = state.build;
    build.poll();
    ImGui::SameLine();
    ImGui::BeginDisabled(build.running());
    if (ImGui::Button("Build & reload")) {
        build.start(state.buildCommand);
        state.buildHandled = false;
    }
    ImGui::EndDisabled();
    targets.remember("build");
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("%s", state.buildCommand.c_str());
    if (build.running()) {
        ImGui::TextDisabled("building...");
    } else if (build.finished() && build.exitStatus() == 0) {
        ImGui::TextDisabled("built%s", state.autoReload ? " (a changed library reloads by itself)" : "; reloaded");
    } else if (build.finished() || !build.output().empty()) {
        ImGui::TextColored(kErrorColour, "build failed (exit status %d)", build.exitStatus());
    }
    if (!build.output().empty()) {
        // The end of the output: where make and the compiler say what went wrong.
        ImGui::BeginChild("build output", {330.0f, 80.0f}, true, ImGuiWindowFlags_HorizontalScrollbar);
        wantGlyphs(build.output());  // a compiler quotes with ‘ ’ in a UTF-8 locale
        ImGui::TextUnformatted(build.output().c_str());
        if (build.running()) ImGui::SetScrollHereY(1.0f);
        ImGui::EndChild();
    }
    // A failed build's first compiler error (or its last line), whole, under the output: in
    // the box it is one long line among ninja's "FAILED:" and the compiler's command, cut at
    // the box's edge.
    const std::string why = build.finished() && build.exitStatus() != 0 ? whyBuildFailed(build.output()) : "";
    if (!why.empty()) {
        ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + 330.0f);
        ImGui::TextColored(kErrorColour, "%s", why.c_str());
        ImGui::PopTextWrapPos();
    }
    bool reloadNow = !state.buildHandled && build.finished() && build.exitStatus() == 0 && !state.autoReload;
    if (!state.buildHandled && build.finished() && build.exitStatus() != 0)
        state.buildFailed = "Build failed (exit status " + std::to_string(build.exitStatus()) + ")" +
                            (why.empty() ? "" : ": " + why) + "; the plugin running is unchanged.";
    if (build.finished()) state.buildHandled = true;
    return reloadNow;
}

}  // namespace

std::string clockText() {
    std::time_t now = std::time(nullptr);
    std::tm local{};
    localtime_r(&now, &local);
    char text[16];
    std::strftime(text, sizeof text, "%H:%M:%S", &local);
    return text;
}

void followLoadedLibrary(const PluginHost& plugin, PluginPanelState& state) {
    if (plugin.generation() == state.seenGeneration) return;
    const int started = plugin.generation() - state.seenGeneration;  // libraries started since
    state.seenGeneration = plugin.generation();
    // The reload counter missed both ways a library starts without a reload of its own: the
    // rollback (the crashed library's time was shown over the one running again) and F5
    // starting a stopped plugin afresh.
    if (plugin.status().rollbacks != state.seenRollbacks) {
        state.seenRollbacks = plugin.status().rollbacks;
        // A reload rolled back within the frame (its library crashed on its first tick) left
        // the time shown the running library's already.
        if (started == 1) state.loadedAt = state.previousLoadedAt;
    } else {
        state.previousLoadedAt = state.loadedAt;
        state.loadedAt = clockText();
    }
}

bool drawPluginPanel(PluginHost& plugin, PluginPanelState& state, float bottom, WidgetTargets& targets) {
    const PluginStatus& s = plugin.status();
    followLoadedLibrary(plugin, state);
    bool reload = false;
    // Bottom left, over the status line, leaving the Inspector above it room to grow.
    const ImGuiIO& io = ImGui::GetIO();
    ImGui::SetNextWindowPos({10, io.DisplaySize.y - 40.0f}, ImGuiCond_FirstUseEver, {0.0f, 1.0f});
    // It grows downward; what it grew by (a reload's error over its buttons, a build's output
    // under them) would go under the status line and off the window, buttons and all.
    if (bottom <= 0.0f) bottom = io.DisplaySize.y - 40.0f;  // the first frame: no status line yet
    if (state.lift) ImGui::SetNextWindowPos({state.liftLeft, bottom - kPanelGap}, ImGuiCond_Always, {0.0f, 1.0f});
    state.lift = false;
    // In a short window it starts folded to its title bar (the Inspector then keeps above it,
    // and F5 still reloads): it reports, where the other panels are worked in.
    ImGui::SetNextWindowCollapsed(io.DisplaySize.y < kRoomyPanelsHeight, ImGuiCond_FirstUseEver);
    const bool unfolded = ImGui::Begin(kPluginPanel, nullptr, ImGuiWindowFlags_AlwaysAutoResize);
    rememberFoldArrow(kPluginPanel, targets);
    if (unfolded) {
        for (const std::string& text : {s.name, s.file, s.lastError}) wantGlyphs(text);
        if (plugin.loaded()) {
            ImGui::Text("%s %s", s.name.c_str(), s.version.c_str());
            ImGui::TextDisabled("file %s", std::filesystem::path(s.file).filename().string().c_str());
            if (ImGui::IsItemHovered()) wholeTooltip(s.file);
            // A running library passed the ABI check at load: it speaks the engine's version.
            ImGui::TextDisabled("ABI %u   loaded at %s", PAPER_PLUGIN_ABI_VERSION, state.loadedAt.c_str());
            ImGui::TextDisabled("reloads %d   last %.1f ms, %zu bytes of state", s.reloads, s.lastReloadMilliseconds,
                                s.lastStateBytes);
            if (s.rollbacks > 0)
                ImGui::TextColored(kErrorColour, "rolled back after a crash %d time%s", s.rollbacks, s.rollbacks == 1 ? "" : "s");
        } else {
            ImGui::TextColored(kErrorColour, "not running");
        }
        if (!s.lastError.empty()) {
            ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + 330.0f);
            // The first line (a refused level lists every problem of its rig): hover for all.
            std::size_t lineEnd = std::min(s.lastError.find('\n'), s.lastError.size());
            ImGui::PushStyleColor(ImGuiCol_Text, kErrorColour);
            ImGui::TextUnformatted(s.lastError.c_str(), s.lastError.c_str() + lineEnd);
            ImGui::PopStyleColor();
            if (lineEnd < s.lastError.size() && ImGui::IsItemHovered()) wholeTooltip(s.lastError);
            ImGui::PopTextWrapPos();
        }
        if (ImGui::Button("Reload (F5)")) reload = true;
        targets.remember("reload");
        ImGui::SameLine();
        if (ImGui::Checkbox("Auto-reload", &state.autoReload)) plugin.watch(state.autoReload);
        targets.remember("auto_reload");
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("Reload when the library file is rebuilt (watch: %s)", s.watchMethod);
        reload = drawBuild(state, targets) || reload;
        ImGui::Separator();
        std::string found = "Plugins found (" + std::to_string(state.found.size()) + ")###found";
        const bool open = ImGui::TreeNodeEx(found.c_str());  // closed at first: the left column is full
        targets.remember("plugins_found");
        if (open) {
            for (const PluginDescriptor& d : state.found) drawDescriptor(d, d.path == plugin.descriptor().path);
            ImGui::TreePop();
        }
    }
    const ImVec2 at = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
    const float lowerEdge = at.y + size.y, onStatusLine = bottom - kPanelGap;
    // Lifted over an error, the panel kept its top when the error cleared (or the status
    // line's message shrank back to one line): a gap opened over the status line. Unless
    // the user folded it or dragged it away (its top moved), it goes back down.
    const bool settle = state.onStatusLine && at.y == state.top && lowerEdge < onStatusLine - 0.5f &&
                        !ImGui::IsWindowCollapsed();
    state.lift = (lowerEdge > bottom + 0.5f || settle) && at.y > 30.0f;
    state.onStatusLine = std::fabs(lowerEdge - onStatusLine) <= 0.5f || settle;
    state.top = at.y;
    state.liftLeft = at.x;
    state.right = at.x + size.x;
    ImGui::End();
    return reload;
}

std::vector<PropertyValue> settings(PluginHost& plugin, int& kind, std::uint64_t& handle) {
    kind = plugin.declarations().settingsKind();
    if (kind < 0) return {};
    const std::vector<ObjectEntry> objects = plugin.objects(kind);
    if (objects.empty()) return {};
    handle = objects.front().handle;
    return plugin.properties(kind, handle);
}

bool setPropertyByName(PluginHost& plugin, const std::string& name, double value) {
    int kind = -1;
    std::uint64_t handle = 0;
    return !settings(plugin, kind, handle).empty() && plugin.setProperty(kind, handle, name, value);
}

void rememberFoldArrow(const std::string& title, WidgetTargets& targets) {
    const ImGuiStyle& style = ImGui::GetStyle();
    targets.remember("fold:" + title, 2.0f * style.FramePadding.x + ImGui::GetFontSize());
}

std::optional<Edit> drawTuningPanel(PluginHost& plugin, float top, float bottom, TuningState& state,
                                    WidgetTargets& targets) {
    std::optional<Edit> finished;
    ImGuiIO& io = ImGui::GetIO();
    const ImVec2 underSimulate{io.DisplaySize.x - 10.0f, top + kPanelGap};
    const bool placed = placeWhenMoved(underSimulate, {1.0f, 0.0f}, state.placedAt);
    if (bottom <= 0.0f) bottom = io.DisplaySize.y;  // the first frame: no status line yet
    keepAbove(bottom, placed ? underSimulate.y : state.top);
    // In a short window it starts folded to its title bar, as the Plugin panel does: open
    // under the Simulate panel it covered the ground on the right, where a figure knocked over
    // lies (at 800x600 the side panels then left the world less than a third of the window,
    // and Follow kept the figure under the Inspector).
    ImGui::SetNextWindowCollapsed(io.DisplaySize.y < kRoomyPanelsHeight, ImGuiCond_FirstUseEver);
    const bool unfolded = ImGui::Begin(kTuningPanel, nullptr, ImGuiWindowFlags_AlwaysAutoResize);
    rememberFoldArrow(kTuningPanel, targets);
    if (unfolded) {
        int kind = -1;
        std::uint64_t handle = 0;
        const std::vector<PropertyValue> properties = settings(plugin, kind, handle);
        if (properties.empty()) ImGui::TextDisabled("the plugin reflects no settings");
        for (std::size_t i = 0; i < properties.size(); ++i) {
            const PropertyValue& p = properties[i];
            if (p.flags & (PAPER_PROPERTY_HIDDEN | PAPER_PROPERTY_READ_ONLY)) continue;
            const std::string& name = p.name;
            std::string label = (p.label.empty() ? name : p.label) + (p.unit.empty() ? "" : " (" + p.unit + ")") + "##" + name;
            wantGlyphs(label);
            double before = p.value;
            double value = p.value;
            bool changed = false;
            ImGui::SetNextItemWidth(kSliderWidth);
            // A Ctrl+clicked value typed outside the plugin's range is clamped to it, as the
            // Inspector's are: the plugin refuses such a value, and the entry was silently lost.
            const ImGuiSliderFlags clamp = ImGuiSliderFlags_AlwaysClamp;
            switch (p.type) {
            case PAPER_PROPERTY_INT: {
                int v = int(std::lround(p.value));
                changed = ImGui::SliderInt(label.c_str(), &v, int(p.minValue), int(p.maxValue), "%d", clamp);
                value = v;
                break;
            }
            case PAPER_PROPERTY_BOOL: {
                bool v = p.value != 0.0;
                changed = ImGui::Checkbox(label.c_str(), &v);
                value = v ? 1.0 : 0.0;
                break;
            }
            default: {
                // In double, as the plugin has it: a float's rounding could put a clamped value
                // just past the range, where the plugin refuses it.
                double v = p.value;
                changed = ImGui::SliderScalar(label.c_str(), ImGuiDataType_Double, &v, &p.minValue, &p.maxValue, "%.2f", clamp);
                value = v;
                break;
            }
            }
            targets.remember("property:" + name, p.type == PAPER_PROPERTY_BOOL ? 0.0f : kSliderWidth);
            if (ImGui::IsItemActivated()) {
                state.active = name;
                state.activeBefore = before;
            }
            if (changed) plugin.setProperty(kind, handle, int(i), value);
            if (p.type == PAPER_PROPERTY_BOOL && changed) {
                finished = propertyEdit(name, before, value);  // a click is the whole edit
                state.active.clear();
            } else if (ImGui::IsItemDeactivated() && state.active == name) {
                std::vector<PropertyValue> now = plugin.properties(kind, handle);
                double after = i < now.size() ? now[i].value : value;
                finished = propertyEdit(name, state.activeBefore, after);
                state.active.clear();
            }
        }
    }
    // Put, it stands where it was put; otherwise it moves only when dragged (growing keeps
    // its left edge). Pinned by its right edge, it is put again when its width changes
    // unless dragged elsewhere: kept above the status line, it grows a scrollbar, and it grew
    // past the window's edge.
    const ImVec2 at = ImGui::GetWindowPos();
    state.dragged = !placed && (state.dragged || at.x != state.left || at.y != state.top);
    if (ImGui::GetWindowWidth() != state.width && !state.dragged) state.placedAt = {-1.0f, -1.0f};
    state.left = at.x;
    state.top = at.y;
    state.width = ImGui::GetWindowWidth();
    ImGui::End();
    return finished;
}

}  // namespace paper::editor
