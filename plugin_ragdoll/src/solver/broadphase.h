// Broadphase: sort-and-sweep on x over fattened bounds, once per step.
// Moving bodies are kept in an order that persists between steps, so the insertion
// sort that restores it is near O(n) (bodies move little per step). Static terrain is
// kept apart, sorted only when it changes, and swept against the moving list, so each
// moving body only looks at the terrain pieces near it on x rather than at all of them.
// Rejected: a dynamic AABB tree (more code, and the ragdoll scenes are wide and flat,
// where a sweep on x already rejects almost everything).
#pragma once

#include <utility>
#include <vector>

#include "solver/body.h"

namespace ragdoll {

class BroadPhase {
public:
    /// Forgets the cached orders; call when bodies are created or destroyed.
    void markDirty() { dirty_ = true; }
    /// Pairs of body slots (lower slot first) whose bounds overlap, where at least one
    /// body is dynamic and awake. Bodies' aabb fields must be current.
    void findPairs(const std::vector<Body>& bodies, std::vector<std::pair<int, int>>& pairs);
    std::size_t memoryBytes() const {
        return (moving_.capacity() + statics_.capacity()) * sizeof(Entry);
    }

private:
    /// A body's bounds where the sweep reads them: the sweep walks these in order, where
    /// reading each from its Body record (~500 bytes apart) missed the cache at every step
    /// and made the broadphase a tenth of the SCENES pile's step.
    struct Entry {  // 40 bytes
        AABB box;
        int slot;
        bool simulated;  ///< dynamic, awake, not frozen: pairs with statics too
        bool moving;     ///< simulated, or an awake kinematic body: a pair needs one such side
    };
    void rebuild(const std::vector<Body>& bodies);

    std::vector<Entry> moving_;   ///< dynamic and kinematic bodies, sorted by (lower x, slot)
    std::vector<Entry> statics_;  ///< static bodies, sorted by (lower x, slot)
    bool dirty_ = true;
};

}  // namespace ragdoll
