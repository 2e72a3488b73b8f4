#include "paper/input.h"

#include <algorithm>

namespace paper {

ActionId InputMap::bind(std::string_view action, std::int32_t keycode) {
    ActionId id = find(action);
    if (id == kNoAction) {
        actions_.push_back(Action{std::string(action), {}, 0, false, false, false});
        id = ActionId(actions_.size() - 1);
    }
    std::vector<std::int32_t>& keys = actions_[size_t(id)].keys;
    if (std::find(keys.begin(), keys.end(), keycode) == keys.end()) keys.push_back(keycode);
    return id;
}

ActionId InputMap::bindExactly(std::string_view action, const std::vector<std::int32_t>& keycodes) {
    ActionId id = find(action);
    if (id == kNoAction) {
        actions_.push_back(Action{std::string(action), {}, 0, false, false, false});
        id = ActionId(actions_.size() - 1);
    }
    Action& a = actions_[size_t(id)];
    a.keys.clear();
    for (std::int32_t key : keycodes)
        if (std::find(a.keys.begin(), a.keys.end(), key) == a.keys.end()) a.keys.push_back(key);
    a.keysDown = int(std::count_if(a.keys.begin(), a.keys.end(), [&](std::int32_t key) {
        return std::find(keysDown_.begin(), keysDown_.end(), key) != keysDown_.end();
    }));
    a.held = a.keysDown > 0;
    return id;
}

ActionId InputMap::find(std::string_view action) const {
    for (size_t i = 0; i < actions_.size(); ++i)
        if (actions_[i].name == action) return ActionId(i);
    return kNoAction;
}

void InputMap::keyEvent(std::int32_t keycode, bool down) {
    // Key repeat and duplicate events must not count twice.
    auto it = std::find(keysDown_.begin(), keysDown_.end(), keycode);
    bool wasDown = it != keysDown_.end();
    if (down == wasDown) return;
    if (down)
        keysDown_.push_back(keycode);
    else
        keysDown_.erase(it);

    for (Action& action : actions_) {
        if (std::find(action.keys.begin(), action.keys.end(), keycode) == action.keys.end()) continue;
        action.keysDown += down ? 1 : -1;
        bool held = action.keysDown > 0;
        if (held && !action.held) action.pressed = true;
        if (!held && action.held) action.released = true;
        action.held = held;
    }
}

void InputMap::mouseMove(Vec2 position) {
    mouse_.dragDelta += position - mouse_.position;
    mouse_.position = position;
}

void InputMap::mouseButton(MouseButton button, bool down) { mouse_.down[int(button)] = down; }

void InputMap::mouseWheel(float notches) { mouse_.wheel += notches; }

void InputMap::consumeEdges() {
    for (Action& action : actions_) action.pressed = action.released = false;
}

void InputMap::endFrame() {
    mouse_.dragDelta = {};
    mouse_.wheel = 0.0f;
}

}  // namespace paper
