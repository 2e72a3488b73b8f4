#include "paper/player_input.h"

#include <SDL_keyboard.h>

#include <algorithm>


#include "paper/camera.h"
#include "paper/framing.h"
#include "paper/level.h"
#include "paper/plugin_host.h"

namespace paper {

PlayerBindings::PlayerBindings(InputMap& input)
    : quit(input.bind("quit", SDLK_ESCAPE)),
      resetView(input.bind("reset_view", SDLK_HOME)),
      reloadPlugin(input.bind("reload_plugin", SDLK_F5)),
      debugView(input.bind("debug_view", SDLK_F3)),
      toggleHud(input.bind("toggle_hud", SDLK_F1)) {}

std::vector<std::string> PlayerBindings::bindGame(InputMap& input, const PluginDeclarations& declarations) {
    std::vector<std::string> problems;
    // An earlier library's actions that this one no longer declares keep no keys.
    for (ActionId id : game)
        if (id != kNoAction) input.bindExactly(input.name(id), {});
    game.clear();
    for (const PluginDeclarations::Action& action : declarations.actions) {
        if (action.name == input.name(quit) || action.name == input.name(resetView) ||
            action.name == input.name(reloadPlugin) || action.name == input.name(debugView) ||
            action.name == input.name(toggleHud)) {
            problems.push_back("the plugin's action '" + action.name + "' has the name of one of the engine's; it gets no keys");
            game.push_back(kNoAction);
            continue;
        }
        std::vector<std::int32_t> keys;
        for (const std::string& name : action.keys) {
            SDL_Keycode key = SDL_GetKeyFromName(name.c_str());
            if (key == SDLK_UNKNOWN) problems.push_back("the plugin's action '" + action.name + "' names key '" + name + "', which SDL does not know");
            else keys.push_back(key);
        }
        game.push_back(input.bindExactly(action.name, keys));
    }
    return problems;
}

std::string gameKeyHelp(const PluginDeclarations& declarations) {
    std::string help;
    for (const PluginDeclarations::Action& action : declarations.actions) {
        if (!help.empty()) help += ", ";
        // Every key (run: "Left Shift/Right Shift"), where the first alone hid the others.
        std::string keys;
        for (const std::string& key : action.keys) keys += (keys.empty() ? "" : "/") + key;
        help += (keys.empty() ? std::string("(no key)") : keys) + " " + action.label;
    }
    return help;
}

PaperInput makePaperInput(const InputMap& input, const PlayerBindings& bindings, const Camera& camera) {
    PaperInput out = {};
    for (size_t a = 0; a < bindings.game.size() && a < 64; ++a) {
        if (input.pressed(bindings.game[a])) out.pressed |= std::uint64_t(1) << a;
        if (input.held(bindings.game[a])) out.held |= std::uint64_t(1) << a;
    }
    const MouseState& mouse = input.mouse();
    Vec2 world = camera.screenToWorld(mouse.position);
    out.mouseWorld = {world.x, world.y};
    for (int b = 0; b < 3; ++b)
        if (mouse.down[b]) out.mouseDown |= 1 << b;
    return out;
}

CameraView startView(const Level& level, Vec2 viewportSize) {
    CameraView view = level.camera;
    if (level.spawns.empty() || !(viewportSize.y > 0.0f)) return view;
    const float halfWidth = 0.5f * view.viewHeight * viewportSize.x / viewportSize.y;
    // A view that shows the spawn's point is the level's to choose (a close-up may put it at
    // the edge); one that loses it is moved to show it, kSpawnViewMargin clear.
    const float x = level.spawns.front().position.x;
    const float margin = std::min(kSpawnViewMargin, halfWidth);
    if (x < view.center.x - halfWidth) view.center.x = x - margin + halfWidth;
    else if (x > view.center.x + halfWidth) view.center.x = x + margin - halfWidth;
    return view;
}

void updateCamera(PlayerView& view, const InputMap& input, const PlayerBindings& bindings, const CameraView& home) {
    const MouseState& mouse = input.mouse();
    if (mouse.down[int(MouseButton::Right)] || mouse.down[int(MouseButton::Middle)]) {
        view.camera.panPixels(mouse.dragDelta);
        // Only a drag that moved the view: a click alone leaves Follow as it was.
        if (mouse.dragDelta.x != 0.0f || mouse.dragDelta.y != 0.0f) view.following = false;
    }
    if (mouse.wheel != 0.0f) view.camera.zoomByWheel(mouse.position, mouse.wheel);
    if (input.pressed(bindings.resetView)) {
        view.camera.frame(home.center, home.viewHeight);
        view.following = true;
    }
}

std::optional<Rect> followedBox(PluginHost& plugin) {
    std::optional<Rect> box;
    const PluginDeclarations& declarations = plugin.declarations();
    for (int kind = 0; kind < int(declarations.kinds.size()); ++kind) {
        if (declarations.kinds[size_t(kind)].ownerKind < 0) continue;  // owned by no one
        for (const ObjectEntry& object : plugin.objects(kind)) {
            if (object.owner != 0) continue;
            const std::vector<PropertyValue> properties = plugin.properties(kind, object.handle);
            if (!hasOutline(properties)) continue;
            const Rect around = capsuleBounds(findProperty(properties, "a")->vector, findProperty(properties, "b")->vector,
                                              float(findProperty(properties, "radius")->value));
            box = box ? united(*box, around) : around;
        }
    }
    return box;
}

void follow(PlayerView& view, PluginHost& plugin, const InputMap& input) {
    if (!view.following || input.mouse().down[int(MouseButton::Left)] || !plugin.loaded()) return;
    const int generation = plugin.generation();
    const std::optional<Rect> box = followedBox(plugin);
    // A plugin that crashed while it was asked (rolled back or stopped) answered for part of
    // its figure only.
    if (box && plugin.loaded() && plugin.generation() == generation) keepInView(view.camera, *box, ViewInsets{});
}

}  // namespace paper
