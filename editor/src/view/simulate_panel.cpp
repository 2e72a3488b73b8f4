#include "view/simulate_panel.h"

#include <SDL.h>
#include <imgui.h>

#include <cmath>
#include <string>

#include <cstdio>
#include <vector>

#include "paper/plugin_host.h"
#include "view/widget_targets.h"

namespace paper::editor {

namespace {

constexpr float kPlotHeight = 38.0f;  ///< pixels; as wide as the line of figures above it

/// The hit buttons: the game keys, pressed for one step — the same path as typing 1, 2, 3
/// while playing, so the plugin cannot tell them apart.
void drawHitButtons(bool playing, WidgetTargets& targets, std::int32_t& key) {
    struct Hit {
        const char* label;
        const char* target;
        std::int32_t key;
    };
    static constexpr Hit kHits[] = {
        {"Hit from left (1)", "hit_left", SDLK_1}, {"right (2)", "hit_right", SDLK_2}, {"above (3)", "hit_above", SDLK_3}};
    ImGui::BeginDisabled(!playing);
    for (const Hit& hit : kHits) {
        if (&hit != kHits) ImGui::SameLine();
        if (ImGui::Button(hit.label)) key = hit.key;
        targets.remember(hit.target);
    }
    ImGui::EndDisabled();
}

/// One plot: its name with the newest value and the largest in view, then the line. The
/// scale starts at 0 so a flat line near zero reads as "fine", not as noise blown up. The
/// numbers have a fixed width: the panel sizes itself to its contents and is pinned by its
/// right edge, so changing widths would shift every widget in it from frame to frame.
template <std::size_t N>
void drawPlot(const char* id, const char* name, const char* unit, const RingBuffer<N>& values) {
    char text[96];
    std::snprintf(text, sizeof text, "%-16s now %8.3f  max %8.3f %s", name, double(values.latest()),
                  double(values.max()), unit);
    ImGui::TextUnformatted(text);
    float top = values.max() > 0.0f ? values.max() * 1.1f : 1.0f;
    ImGui::PlotLines(id, values.data(), int(values.size()), int(values.oldest()), nullptr, 0.0f, top,
                     {ImGui::CalcTextSize(text).x, kPlotHeight});
}

}  // namespace

SimulateActions drawSimulatePanel(PluginHost& plugin, SimulateState& state, WidgetTargets& targets) {
    SimulateActions actions;
    ImGuiIO& io = ImGui::GetIO();
    // Pinned to the top right, under the menu bar, whatever the window's size.
    ImGui::SetNextWindowPos({io.DisplaySize.x - 10.0f, 30.0f}, ImGuiCond_Always, {1.0f, 0.0f});
    if (ImGui::Begin("Simulate", nullptr, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoMove)) {
        if (ImGui::Button(state.playing ? "Pause (P)" : "Play (P)", {90, 0})) state.playing = !state.playing;
        targets.remember("play");
        ImGui::SameLine();
        ImGui::BeginDisabled(state.playing);
        if (ImGui::Button("Step (.)")) state.stepOnce = true;
        targets.remember("step");
        ImGui::EndDisabled();
        ImGui::SameLine();
        if (ImGui::Button("Reset")) actions.reset = true;
        targets.remember("reset");
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("Rebuild the level at rest; the edits stay");
        ImGui::Text("%s   step %lld", state.playing ? "playing" : "paused", static_cast<long long>(state.steps));
        std::vector<CharacterStatus> characters = plugin.characters();
        // The blend weight only in the mode it describes: limp or animated it would read 0.00.
        for (const CharacterStatus& c : characters) {
            std::string line = c.name + ": " + c.mode;
            if (c.mode == "blend") line += ", weight " + std::to_string(int(std::lround(c.blendWeight * 100.0f))) + "%";
            ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
            ImGui::TextUnformatted(line.c_str(), line.c_str() + line.size());
            ImGui::PopStyleColor();
        }
        if (!characters.empty()) {
            // Shows the plugin's weight except while dragged (the plugin may clamp or move it).
            if (!ImGui::IsAnyItemActive()) state.blendWeight = characters.front().blendWeight;
            ImGui::SetNextItemWidth(180.0f);
            if (ImGui::SliderFloat("Blend weight", &state.blendWeight, 0.0f, 1.0f, "%.2f"))
                plugin.setBlendWeight(0, state.blendWeight);
            targets.remember("blend", 180.0f);
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("0 keyframed .. 1 physics (B/N while playing)");
        }
        drawHitButtons(state.playing, targets, actions.pressKey);
        if (state.playing) ImGui::TextDisabled("game keys reach the plugin (R ragdoll)");

        ImGui::Separator();
        const StatsPlots& plots = state.plots;
        ImGui::TextDisabled("last %.0f s of steps (%zu samples)", double(kPlotSamples) / 60.0, plots.stepMilliseconds.size());
        drawPlot("##step_ms", "Step time", "ms", plots.stepMilliseconds);
        drawPlot("##stretch_mm", "Max stretch", "mm", plots.stretchMillimetres);
        drawPlot("##limit_error", "Max limit error", "\xC2\xB0", plots.limitErrorDegrees);
    }
    ImGui::End();
    return actions;
}

}  // namespace paper::editor
