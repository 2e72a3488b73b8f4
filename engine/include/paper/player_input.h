// The player's key bindings and what one fixed step hands the plugin. Shared by windowed
// and headless runs (and the editor), so a script behaves the same in both.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "paper/plugin_api.h"
#include "paper/camera.h"
#include "paper/input.h"

namespace paper {

struct CameraView;
struct Level;
struct PluginDeclarations;
class PluginHost;

/// Every action the player binds, registered in an InputMap: the engine's own, and those
/// the plugin declares.
struct PlayerBindings {
    /// game[i] is the InputMap action of the plugin's action i (PaperInput's bit i).
    std::vector<ActionId> game;
    ActionId quit, resetView, reloadPlugin, debugView, toggleHud;

    /// Binds the engine's keys: Esc quits, Home resets the view, F5 reloads the plugin, F3
    /// shows or hides the debug view (the level's spawn markers).
    explicit PlayerBindings(InputMap& input);

    /// Binds the keys the plugin declares, replacing what an earlier library declared (call
    /// after a load and after every reload). Returns what could not be bound: a key name SDL
    /// does not know, an action named like one of the engine's.
    std::vector<std::string> bindGame(InputMap& input, const PluginDeclarations& declarations);
};

/// The one-line help for the plugin's actions: "Left walk left, Right walk right, …" in the
/// order declared.
std::string gameKeyHelp(const PluginDeclarations& declarations);

/// The plugin's input for one step: the game actions pressed since the last step and held
/// now, the mouse in world metres (through the camera) and its buttons.
PaperInput makePaperInput(const InputMap& input, const PlayerBindings& bindings, const Camera& camera);

/// The player's view: a camera that follows the figure the player's input drives until a pan
/// takes the view elsewhere.
struct PlayerView {
    Camera camera;
    bool following = true;
};

/// The view's response to one frame's input: right or middle drag pans (left is the
/// plugin's) and stops following, the wheel zooms at the cursor, Home goes back to the start
/// view and follows again.
void updateCamera(PlayerView& view, const InputMap& input, const PlayerBindings& bindings, const CameraView& home);

/// The box, metres, round the outlines (hasOutline) of the objects the first owner owns
/// (PaperObjectInfo::owner 0: what the plugin made of the first spawn, which its input
/// drives); none when the plugin reports no such outline.
std::optional<Rect> followedBox(PluginHost& plugin);

/// Follow: moves the view the least that keeps the followed box kFollowMarginFraction clear
/// of the window's edges (keepInView), while following and while the left button is up.
/// Held, it is the plugin's (a grab pulls toward the cursor's world point): a view moving
/// under it would pull further, and the grabbed figure would run away with the view. The
/// HUD is not kept clear: it fades while the figure is under it, F1 hides it, and a headless
/// run (which has none) must follow as a window does, so that a script's screen points mean
/// the same.
void follow(PlayerView& view, PluginHost& plugin, const InputMap& input);

/// Metres kept in view on each side of the first spawn's point by startView.
inline constexpr float kSpawnViewMargin = 1.0f;

/// The view a run starts in (and Home returns to) in a viewport of this size, pixels: the
/// level's camera; if that leaves out the first spawn's point, moved sideways the least that
/// shows it kSpawnViewMargin clear of the edge. A camera placed for a wide window left the
/// player's figure out of a 4:3 one (the harness at 800x600 showed no one).
CameraView startView(const Level& level, Vec2 viewportSize);

}  // namespace paper
