// What the player does in one fixed step, in the plugin's own words: the actions it declares
// to the engine and the mouse. The plugin's glue (module/) translates the engine's input to
// this, so nothing past it depends on the C ABI.
#pragma once

#include <cstdint>

#include "solver/math.h"

namespace ragdoll {

/// The actions of the playable harness (README "The playable harness" has their keys).
enum class Action : std::uint8_t {
    Left,           ///< walk left
    Right,          ///< walk right
    Run,            ///< held with a walk: run
    Jump,
    ToggleRagdoll,  ///< go limp; again: get up
    HitLeft,        ///< a hit from the left
    HitRight,       ///< from the right
    HitAbove,       ///< from above
    BlendDown,      ///< lower the blend weight (the press reaching 0 leaves the blend)
    BlendUp,        ///< raise it (above 0: an active ragdoll)
    GetUp,
    NetRole,        ///< cycle the net role preview
    Count
};

constexpr std::uint64_t bit(Action action) { return std::uint64_t(1) << int(action); }

struct SceneInput {
    std::uint64_t pressed = 0;  ///< bit(action): went down since the last step (seen by one step)
    std::uint64_t held = 0;     ///< bit(action): down now
    Vec2 mouseWorld;            ///< metres
    bool mouseLeftDown = false;

    bool wasPressed(Action action) const { return (pressed & bit(action)) != 0; }
    bool isHeld(Action action) const { return (held & bit(action)) != 0; }
};

}  // namespace ragdoll
