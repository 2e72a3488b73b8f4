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
    std::size_t memoryBytes() const { return (moving_.capacity() + statics_.capacity()) * sizeof(int); }

private:
    void rebuild(const std::vector<Body>& bodies);

    std::vector<int> moving_;   ///< dynamic and kinematic slots, sorted by aabb.lower.x
    std::vector<int> statics_;  ///< static slots, sorted by aabb.lower.x
    bool dirty_ = true;
};

}  // namespace ragdoll
