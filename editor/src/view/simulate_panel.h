// The Simulate panel: play, pause, single step and reset; the plugin's objects that run
// commands, each with its HUD line, a slider per command taking a number and a button per
// command taking none; and the live plots of the figures the plugin flags for plotting.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "model/plot_history.h"

namespace paper {
class PluginHost;
}

namespace paper::editor {

class WidgetTargets;

/// The simulation as the editor runs it, across frames.
struct SimulateState {
    bool playing = false;
    bool stepOnce = false;      ///< one step at the next frame (Step, or `.`), while paused
    std::int64_t steps = 0;     ///< steps since the level was (re)built
    /// A slider's value while it is dragged, by widget name (the plugin may clamp or move it).
    std::map<std::string, float> sliders;
    StatsPlots plots;           ///< one sample per step
    float bottom = 0.0f;        ///< the panel's lower edge last frame, pixels from the top
    float left = 0.0f;          ///< its left edge last frame, pixels
};

/// What the panel asks the editor to do (things that touch its history or input).
struct SimulateActions {
    bool reset = false;  ///< Reset: rebuild the level, keeping the edits
    std::string error;   ///< a command the plugin refused, with its reason
};

/// Draws the panel. Play/Pause, Step and the commands act at once (through state and the
/// plugin); the rest comes back in the actions. Widgets: "play", "step", "reset", and each
/// command's name ("blend_weight", "hit_left"…) for the first object running it, NAME#2 for
/// the second and so on.
SimulateActions drawSimulatePanel(PluginHost& plugin, SimulateState& state, WidgetTargets& targets);

}  // namespace paper::editor
