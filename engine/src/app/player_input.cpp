#include "paper/player_input.h"

#include <SDL_keycode.h>

#include <cmath>

#include "paper/camera.h"
#include "paper/level.h"

namespace paper {

namespace {

/// The InputMap name and keys of each PaperAction, in enum order. Names are what HUDs and
/// scripts' error messages could show; the keys are SDL keycodes.
struct GameBinding {
    PaperAction action;
    const char* name;
    SDL_Keycode keys[2];
};

constexpr GameBinding kGameBindings[] = {
    {PAPER_ACTION_LEFT, "walk_left", {SDLK_LEFT, 0}},
    {PAPER_ACTION_RIGHT, "walk_right", {SDLK_RIGHT, 0}},
    {PAPER_ACTION_RUN, "run", {SDLK_LSHIFT, SDLK_RSHIFT}},
    {PAPER_ACTION_JUMP, "jump", {SDLK_SPACE, 0}},
    {PAPER_ACTION_TOGGLE_RAGDOLL, "toggle_ragdoll", {SDLK_r, 0}},
    {PAPER_ACTION_HIT_LEFT, "hit_left", {SDLK_1, 0}},
    {PAPER_ACTION_HIT_RIGHT, "hit_right", {SDLK_2, 0}},
    {PAPER_ACTION_HIT_ABOVE, "hit_above", {SDLK_3, 0}},
    {PAPER_ACTION_BLEND_DOWN, "blend_down", {SDLK_b, 0}},
    {PAPER_ACTION_BLEND_UP, "blend_up", {SDLK_n, 0}},
    {PAPER_ACTION_GET_UP, "get_up", {SDLK_g, 0}},
    {PAPER_ACTION_NET_ROLE, "net_role", {SDLK_TAB, 0}},
};
static_assert(sizeof kGameBindings / sizeof kGameBindings[0] == PAPER_ACTION_COUNT, "bind every PaperAction");
static_assert(PAPER_ACTION_COUNT <= 64, "PaperInput's masks have 64 bits");

}  // namespace

PlayerBindings::PlayerBindings(InputMap& input)
    : quit(input.bind("quit", SDLK_ESCAPE)),
      resetView(input.bind("reset_view", SDLK_HOME)),
      reloadPlugin(input.bind("reload_plugin", SDLK_F5)),
      debugView(input.bind("debug_view", SDLK_F3)) {
    for (const GameBinding& b : kGameBindings) {
        for (SDL_Keycode key : b.keys)
            if (key != 0) game[b.action] = input.bind(b.name, key);
    }
}

PaperInput makePaperInput(const InputMap& input, const PlayerBindings& bindings, const Camera& camera) {
    PaperInput out = {};
    for (int a = 0; a < PAPER_ACTION_COUNT; ++a) {
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

void updateCamera(Camera& camera, const InputMap& input, const PlayerBindings& bindings, const CameraView& home) {
    const MouseState& mouse = input.mouse();
    if (mouse.down[int(MouseButton::Right)] || mouse.down[int(MouseButton::Middle)]) camera.panPixels(mouse.dragDelta);
    if (mouse.wheel != 0.0f) camera.zoomAt(mouse.position, std::pow(1.15f, mouse.wheel));
    if (input.pressed(bindings.resetView)) camera.frame(home.center, home.viewHeight);
}

}  // namespace paper
