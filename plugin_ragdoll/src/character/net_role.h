// Networking roles: ragdoll physics is local presentation the host
// authors. A host or standalone character simulates; a proxy never creates a body — it
// rebuilds what it shows (the daze clip, the tint, where the character is) from the small
// replicated state the host sends.
#pragma once

#include <cstdint>

#include "solver/math.h"

namespace ragdoll {

enum class CharacterMode : std::uint8_t { Animated, Blend, Ragdoll, GettingUp };
const char* modeName(CharacterMode mode);  ///< "animated", "blend", "ragdoll", "getting_up"
/// Whether the character's bodies are simulated (BLEND, RAGDOLL).
inline bool isPhysical(CharacterMode mode) { return mode == CharacterMode::Blend || mode == CharacterMode::Ragdoll; }

enum class NetRole : std::uint8_t { Standalone, Host, Proxy };
const char* netRoleName(NetRole role);  ///< "standalone", "host", "proxy"

/// What a host sends about a character each tick (and all a proxy needs).
struct ReplicatedCharacterState {
    Vec2 root;                ///< feet on the ground, world metres (under the body while ragdolled)
    bool facingRight = true;
    CharacterMode mode = CharacterMode::Animated;
    std::uint32_t tint = 0xffffffffu;  ///< ABGR colour multiplier
};

}  // namespace ragdoll
