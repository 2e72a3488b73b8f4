// Input mapping: named actions bound to keys, with held / pressed / released state, and
// the mouse. Windowed runs feed it from SDL; scripts and tests feed it directly, so
// everything downstream sees one input path.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "paper/math.h"

namespace paper {

using ActionId = int;
inline constexpr ActionId kNoAction = -1;

enum class MouseButton { Left = 0, Middle = 1, Right = 2 };

struct MouseState {
    Vec2 position;       ///< pixels from the top-left of the window
    Vec2 dragDelta;      ///< pixels moved since the last endFrame
    float wheel = 0.0f;  ///< notches scrolled since the last endFrame; > 0 away from the user
    bool down[3] = {};
};

class InputMap {
public:
    /// Registers an action (or finds it) and binds a key to it. A key may drive
    /// several actions and an action may have several keys. keycode is SDL_Keycode.
    ActionId bind(std::string_view action, std::int32_t keycode);
    /// Registers an action (or finds it) with exactly these keys, dropping any others it had
    /// (the bindings a reloaded plugin declares); it stays held if one of them is down.
    ActionId bindExactly(std::string_view action, const std::vector<std::int32_t>& keycodes);
    /// The id of a registered action, or kNoAction.
    ActionId find(std::string_view action) const;
    const std::string& name(ActionId id) const { return actions_[size_t(id)].name; }
    const std::vector<std::int32_t>& keys(ActionId id) const { return actions_[size_t(id)].keys; }
    int actionCount() const { return int(actions_.size()); }

    void keyEvent(std::int32_t keycode, bool down);
    void mouseMove(Vec2 position);
    void mouseButton(MouseButton button, bool down);
    void mouseWheel(float notches);

    bool held(ActionId id) const { return valid(id) && actions_[size_t(id)].held; }
    /// True from a key press until consumeEdges(): a press between two fixed steps is
    /// seen by exactly one step, however many frames or steps pass in between.
    bool pressed(ActionId id) const { return valid(id) && actions_[size_t(id)].pressed; }
    bool released(ActionId id) const { return valid(id) && actions_[size_t(id)].released; }
    /// pressed(id), and the press forgotten: for a key the frame itself acts on (a view
    /// toggle), which a frame with no step would otherwise see again the next frame.
    bool takePress(ActionId id) {
        const bool was = pressed(id);
        if (was) actions_[size_t(id)].pressed = false;
        return was;
    }

    /// Forgets pressed/released edges; the app calls it after a step has seen them.
    void consumeEdges();
    /// Forgets the per-frame mouse deltas; the app calls it once per rendered frame.
    void endFrame();

    const MouseState& mouse() const { return mouse_; }

private:
    struct Action {
        std::string name;
        std::vector<std::int32_t> keys;
        int keysDown = 0;
        bool held = false, pressed = false, released = false;
    };
    bool valid(ActionId id) const { return id >= 0 && size_t(id) < actions_.size(); }

    std::vector<Action> actions_;
    std::vector<std::int32_t> keysDown_;
    MouseState mouse_;
};

}  // namespace paper
