// The Simulate panel: play, pause, single step and reset; each character's mode and blend
// weight, the blend slider and the hit buttons; and the live plots of the plugin's step
// figures over the last few seconds (step time, joint stretch, limit error).
#pragma once

#include <cstdint>

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
    float blendWeight = 0.0f;   ///< the slider's value while it is dragged
    StatsPlots plots;           ///< one sample per step
};

/// What the panel asks the editor to do (things that touch its history or input).
struct SimulateActions {
    bool reset = false;        ///< Reset: rebuild the level, keeping the edits
    std::int32_t pressKey = 0; ///< a hit button's game key (SDL keycode) to press for one step, or 0
};

/// Draws the panel. Play/Pause, Step and the blend slider act at once (through state and the
/// plugin); the rest comes back in the actions. Widgets: "play", "step", "reset", "blend",
/// "hit_left", "hit_right", "hit_above".
SimulateActions drawSimulatePanel(PluginHost& plugin, SimulateState& state, WidgetTargets& targets);

}  // namespace paper::editor
