#include "view/simulate_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>

#include <cstdio>
#include <vector>

#include "paper/plugin_host.h"
#include "view/panel_placement.h"
#include "view/widget_targets.h"
#include "paper/window.h"

namespace paper::editor {

namespace {

constexpr float kPlotHeight = 38.0f;  ///< pixels; as wide as the line of figures above it
constexpr float kSliderWidth = 180.0f;  ///< pixels
/// Objects listed with their commands; a level with more shows the first few.
constexpr std::size_t kMaxObjectsShown = 4;

/// The objects of kind with what the plugin shows on its HUD, and a widget per command:
/// a slider for one taking a number, a button for one taking none.
void drawCommands(PluginHost& plugin, int kind, SimulateState& state, WidgetTargets& targets, SimulateActions& actions) {
    const PluginDeclarations& d = plugin.declarations();
    const std::vector<ObjectEntry> objects = plugin.objects(kind);
    for (std::size_t n = 0; n < objects.size() && n < kMaxObjectsShown; ++n) {
        const ObjectEntry& object = objects[n];
        const std::vector<PropertyValue> properties = plugin.properties(kind, object.handle);
        std::string line = object.name + ":";
        for (const PropertyValue& p : properties)
            if (p.flags & PAPER_PROPERTY_HUD)
                if (const std::string text = propertyText(p); !text.empty()) line += "  " + text;
        wantGlyphs(line);
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        ImGui::TextUnformatted(line.c_str(), line.c_str() + line.size());
        ImGui::PopStyleColor();
        const std::string suffix = n == 0 ? "" : "#" + std::to_string(n + 1);
        bool sameLine = false;
        for (std::size_t c = 0; c < d.commands.size(); ++c) {
            const PluginDeclarations::Command& command = d.commands[c];
            if (command.kind != kind) continue;
            const std::string target = command.name + suffix;
            wantGlyphs(command.label);
            std::string error;
            if (command.argument == PAPER_ARGUMENT_FLOAT) {
                float& value = state.sliders[target];
                // Shows the plugin's value except while dragged.
                if (const PropertyValue* p = findProperty(properties, command.property); p && !ImGui::IsAnyItemActive())
                    value = float(p->value);
                ImGui::SetNextItemWidth(kSliderWidth);
                // A value typed past the range is clamped to it, as the Tuning panel's and the
                // Inspector's are (the plugin refused it with an error).
                if (ImGui::SliderFloat((command.label + "##" + target).c_str(), &value, float(command.minValue),
                                       float(command.maxValue), "%.2f", ImGuiSliderFlags_AlwaysClamp))
                    if (!plugin.runCommand(object.handle, int(c), value, error)) actions.error = command.label + ": " + error;
                targets.remember(target, kSliderWidth);
                sameLine = false;
                continue;
            }
            if (sameLine) ImGui::SameLine();
            if (ImGui::Button((command.label + "##" + target).c_str()))
                if (!plugin.runCommand(object.handle, int(c), 0.0, error)) actions.error = command.label + ": " + error;
            targets.remember(target);
            sameLine = true;
        }
    }
}

/// One plot: its name with the newest value and the largest in view, then the line. The
/// scale starts at 0 so a flat line near zero reads as "fine", not as noise blown up. The
/// numbers have a fixed width: the panel sizes itself to its contents and is pinned by its
/// right edge, so changing widths would shift every widget in it from frame to frame.
template <std::size_t N>
void drawPlot(const std::string& id, const std::string& name, const std::string& unit, const RingBuffer<N>& values) {
    char numbers[96];
    std::snprintf(numbers, sizeof numbers, "%-16s now %8.3f  max %8.3f ", name.c_str(), double(values.latest()),
                  double(values.max()));
    ImGui::TextUnformatted((numbers + unit).c_str());
    // Every plot as wide as a line with a two-letter unit: the limit error's "°" made its
    // plot narrower than the others.
    const float width = ImGui::CalcTextSize(numbers).x + ImGui::CalcTextSize("mm").x;
    ImGui::PlotLines(id.c_str(), values.data(), int(values.size()), int(values.oldest()), nullptr, 0.0f, plotTop(values.max()),
                     {width, kPlotHeight});
}

}  // namespace

SimulateActions drawSimulatePanel(PluginHost& plugin, SimulateState& state, WidgetTargets& targets) {
    SimulateActions actions;
    ImGuiIO& io = ImGui::GetIO();
    // Pinned to the top right, under the menu bar, whatever the window's size.
    ImGui::SetNextWindowPos({io.DisplaySize.x - 10.0f, 30.0f}, ImGuiCond_Always, {1.0f, 0.0f});
    if (ImGui::Begin(kSimulatePanel, nullptr, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoMove)) {
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
        // On the same line: a line of its own grew the panel at each Play, and the Tuning
        // panel under it jumped (at 800x600, into the status line).
        if (state.playing) {
            ImGui::SameLine();
            ImGui::TextDisabled("  the plugin has the keys");
        }
        const PluginDeclarations& d = plugin.declarations();
        for (int kind = 0; kind < int(d.kinds.size()); ++kind)
            if (std::any_of(d.commands.begin(), d.commands.end(), [&](const auto& c) { return c.kind == kind; }))
                drawCommands(plugin, kind, state, targets, actions);

        ImGui::Separator();
        const StatsPlots& plots = state.plots;
        ImGui::TextDisabled("last %.0f s of steps (%zu samples)", double(kPlotSamples) / 60.0,
                            plots.count ? plots.plots[0].values.size() : std::size_t(0));
        for (std::size_t i = 0; i < plots.count; ++i)
            drawPlot("##plot" + std::to_string(i), plots.plots[i].label, plots.plots[i].unit, plots.plots[i].values);
    }
    state.bottom = ImGui::GetWindowPos().y + ImGui::GetWindowSize().y;
    state.left = ImGui::GetWindowPos().x;
    ImGui::End();
    return actions;
}

}  // namespace paper::editor
