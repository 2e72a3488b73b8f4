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
#include "solver/tasks.h"

namespace ragdoll {

class BroadPhase {
public:
    /// Forgets the cached orders; call when bodies are created or destroyed.
    void markDirty() { dirty_ = true; }
    /// Pairs of body slots (lower slot first) whose bounds overlap, where at least one
    /// body is dynamic and awake, and the two are not kept apart within their group
    /// (Body::apartInGroup). Bodies' aabb and apartInGroup fields must be current.
    /// The sweep runs as tasks (tasks.h); the pairs come in the same order whatever the
    /// worker count.
    /// `terrainReach` bounds every moving body's Body::terrainReach.
    void findPairs(const std::vector<Body>& bodies, std::vector<std::pair<int, int>>& pairs, double terrainReach,
                   const TaskSystem& tasks);
    std::size_t memoryBytes() const {
        std::size_t bytes = (moving_.capacity() + statics_.capacity()) * sizeof(Entry) + chunkStart_.capacity() * sizeof(int);
        for (const Chunk& c : chunks_) bytes += c.pairs.capacity() * sizeof(std::pair<int, int>);
        return bytes;
    }

private:
    /// A body's bounds where the sweep reads them: the sweep walks these in order, where
    /// reading each from its Body record (~500 bytes apart) missed the cache at every step
    /// and made the broadphase a tenth of the SCENES pile's step.
    struct Entry {  // 56 bytes
        AABB box;
        int slot;
        int apartInGroup;  ///< Body::apartInGroup
        int filterGroup;   ///< the shape filter's group
        double terrainReach;  ///< Body::terrainReach: statics are paired from this far off
        bool simulated;  ///< dynamic, awake, not frozen: pairs with statics too
        bool moving;     ///< simulated, or an awake kinematic body: a pair needs one such side
    };
    void rebuild(const std::vector<Body>& bodies);

    /// Moving bodies per chunk of the sweep (a task's item).
    static constexpr int kEntriesPerChunk = 512;
    static constexpr std::size_t kPairsPerBodyReserved = 8;
    /// The pairs one chunk of the sorted moving list starts, moving against moving first,
    /// then against static; kept between steps (one list: the split between the two shifts
    /// as bodies settle, and two lists would each grow again).
    struct Chunk {
        std::vector<std::pair<int, int>> pairs;
        int movingCount = 0;
    };
    std::vector<Chunk> chunks_;
    std::vector<int> chunkStart_;  ///< where each chunk's moving, then static, pairs go

    std::vector<Entry> moving_;   ///< dynamic and kinematic bodies, sorted by (lower x, slot)
    std::vector<Entry> statics_;  ///< static bodies, sorted by (lower x, slot)
    bool dirty_ = true;
};

}  // namespace ragdoll
