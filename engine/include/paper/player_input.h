// The player's key bindings and what one fixed step hands the plugin. Shared by windowed
// and headless runs (and the editor), so a script behaves the same in both.
#pragma once

#include "paper/plugin_api.h"
#include "paper/input.h"

namespace paper {

struct Camera;
struct CameraView;

/// The one-line key help for HUDs. "Left/Right", not arrows: ImGui's built-in font has no
/// arrow glyphs.
inline constexpr const char* kGameKeyHelp =
    "Left/Right walk, Shift run, Space jump, R ragdoll, 1/2/3 hit, B/N blend, G get up, Tab net role, drag: grab";

/// Every action the player binds, registered in an InputMap.
struct PlayerBindings {
    /// game[a] is the InputMap action of PaperAction a.
    ActionId game[PAPER_ACTION_COUNT];
    ActionId quit, resetView, reloadPlugin, debugView;

    /// Binds the keys: arrows walk, either Shift runs, Space jumps, R toggles the ragdoll,
    /// 1/2/3 hit from the left/right/above, B/N lower/raise the blend weight, G gets up,
    /// Tab cycles the net role; Esc quits, Home resets the view, F5 reloads the plugin, F3
    /// shows or hides the debug view (the level's spawn markers).
    explicit PlayerBindings(InputMap& input);
};

/// The plugin's input for one step: the game actions pressed since the last step and held
/// now, the mouse in world metres (through the camera) and its buttons.
PaperInput makePaperInput(const InputMap& input, const PlayerBindings& bindings, const Camera& camera);

/// The camera's response to one frame's input: right or middle drag pans (left is the
/// plugin's grab), the wheel zooms at the cursor, Home goes back to the level's view.
void updateCamera(Camera& camera, const InputMap& input, const PlayerBindings& bindings, const CameraView& home);

}  // namespace paper
