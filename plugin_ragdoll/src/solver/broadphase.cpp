#include "solver/broadphase.h"

#include <algorithm>

#include "solver/arrays.h"

namespace ragdoll {

namespace {

/// Lower x, then slot: a total order, so the sorted list (and with it the order of pairs and
/// contacts) depends on where bodies are, not on how they got there — a world restored from
/// a state blob goes on exactly as the original.
template <class E>
bool before(const E& a, const E& b) {
    return a.box.lower.x < b.box.lower.x || (a.box.lower.x == b.box.lower.x && a.slot < b.slot);
}

/// An awake dynamic body: it pairs with everything it reaches, statics included.
bool isSimulated(const Body& b) { return b.isDynamic() && b.awake && !b.frozen; }
/// That, or an awake kinematic body: a pair needs one side that moves (a kinematic body
/// reaching a sleeping one must find it, so the contact wakes it; against statics it has
/// nothing to solve).
bool isMoving(const Body& b) { return b.type != BodyType::Static && b.awake && !b.frozen; }

/// Insertion sort by before(): the order from the last step is almost right.
template <class E>
void resort(std::vector<E>& entries) {
    for (size_t i = 1; i < entries.size(); ++i) {
        const E entry = entries[i];
        size_t j = i;
        while (j > 0 && before(entry, entries[j - 1])) {
            entries[j] = entries[j - 1];
            --j;
        }
        entries[j] = entry;
    }
}

}  // namespace

void BroadPhase::rebuild(const std::vector<Body>& bodies) {
    moving_.clear();
    statics_.clear();
    for (int i = 0; i < int(bodies.size()); ++i) {
        const Body& b = bodies[size_t(i)];
        if (!b.alive || !b.hasShape) continue;
        (b.type == BodyType::Static ? statics_ : moving_)
            .push_back(Entry{b.aabb, i, b.apartInGroup, b.shape.filter.group, b.terrainReach, isSimulated(b), isMoving(b)});
    }
    std::sort(statics_.begin(), statics_.end(), before<Entry>);
    std::sort(moving_.begin(), moving_.end(), before<Entry>);
    dirty_ = false;
}

void BroadPhase::findPairs(const std::vector<Body>& bodies, std::vector<std::pair<int, int>>& pairs, double terrainReach,
                           const TaskSystem& tasks) {
    if (dirty_) {
        rebuild(bodies);
        // Room for the pairs a pile makes (3–5 a body) when bodies come or go, so the pairs
        // of a world that settles or spreads do not outgrow the array step after step.
        pairs.reserve(kPairsPerBodyReserved * moving_.size());
    }
    // Fresh bounds in last step's order, then an insertion sort: that order is almost right.
    runTask(tasks, int(moving_.size()), kEntriesPerChunk, [&](int begin, int end, int) {
        for (int i = begin; i < end; ++i) {
            Entry& e = moving_[size_t(i)];
            const Body& b = bodies[size_t(e.slot)];
            e.box = b.aabb;
            e.apartInGroup = b.apartInGroup;
            e.filterGroup = b.shape.filter.group;
            e.terrainReach = b.terrainReach;
            e.simulated = isSimulated(b);
            e.moving = isMoving(b);
        }
    });
    for (Entry& e : statics_) e.box = bodies[size_t(e.slot)].aabb;
    resort(moving_);
    resort(statics_);  // statics only move when a user teleports one

    double widestStatic = 0.0;
    for (const Entry& s : statics_) widestStatic = std::max(widestStatic, s.box.upper.x - s.box.lower.x);

    // The sweep, chunk by chunk of the sorted moving list as a task: each chunk lists the
    // pairs its bodies start, moving against moving and moving against static, and the
    // lists are joined in chunk order: every moving pair first, then every static one, as
    // one sweep would list them. Chunks have a fixed size, so the order does not depend on
    // the worker count.
    const int count = int(moving_.size());
    const int chunks = (count + kEntriesPerChunk - 1) / kEntriesPerChunk;
    if (int(chunks_.size()) < chunks) chunks_.resize(size_t(chunks));
    runTask(tasks, chunks, 1, [&](int chunkBegin, int chunkEnd, int) {
        for (int chunk = chunkBegin; chunk < chunkEnd; ++chunk) {
            Chunk& out = chunks_[size_t(chunk)];
            out.pairs.clear();
            auto emit = [&](int a, int b) { out.pairs.emplace_back(std::min(a, b), std::max(a, b)); };
            const int begin = chunk * kEntriesPerChunk, end = std::min(count, begin + kEntriesPerChunk);
            for (int i = begin; i < end; ++i) {
                const Entry& a = moving_[size_t(i)];
                for (int j = i + 1; j < count; ++j) {
                    const Entry& b = moving_[size_t(j)];
                    if (b.box.lower.x > a.box.upper.x) break;
                    // Parts of one ragdoll kept apart were two pairs in five of the N=1000
                    // pile's, each refused later by reading both bodies' records.
                    if (a.apartInGroup >= 0 && a.apartInGroup == b.apartInGroup && a.filterGroup == b.filterGroup) continue;
                    if (a.box.lower.y <= b.box.upper.y && b.box.lower.y <= a.box.upper.y && (a.moving || b.moving))
                        emit(a.slot, b.slot);
                }
            }
            out.movingCount = int(out.pairs.size());
            // Moving against static: a window over the sorted statics. A static that starts
            // left of a moving body may still overlap it, so the window begins at the first
            // static starting within widestStatic to its left.
            size_t first = 0;
            if (begin < end) {
                const double from = moving_[size_t(begin)].box.lower.x - terrainReach - widestStatic;
                first = size_t(std::partition_point(statics_.begin(), statics_.end(),
                                                    [&](const Entry& s) { return s.box.lower.x < from; }) -
                               statics_.begin());
            }
            for (int i = begin; i < end; ++i) {
                const Entry& a = moving_[size_t(i)];
                if (!a.simulated) continue;
                // The window starts as far left as any body's reach, so it only moves right.
                while (first < statics_.size() && statics_[first].box.lower.x < a.box.lower.x - terrainReach - widestStatic)
                    ++first;
                const Vec2 grow{a.terrainReach, a.terrainReach};
                const AABB reach{a.box.lower - grow, a.box.upper + grow};
                for (size_t j = first; j < statics_.size(); ++j) {
                    const Entry& s = statics_[j];
                    if (s.box.lower.x > reach.upper.x) break;
                    if (overlaps(reach, s.box)) emit(a.slot, s.slot);
                }
            }
        }
    });
    // Where each chunk's lists go, then copied there as a task.
    chunkStart_.resize(size_t(2 * chunks) + 1);
    chunkStart_[0] = 0;
    for (int k = 0; k < 2 * chunks; ++k) {
        const Chunk& c = chunks_[size_t(k % chunks)];
        chunkStart_[size_t(k) + 1] = chunkStart_[size_t(k)] + (k < chunks ? c.movingCount : int(c.pairs.size()) - c.movingCount);
    }
    resizeWithHeadroom(pairs, size_t(chunkStart_[size_t(2 * chunks)]));
    runTask(tasks, 2 * chunks, 1, [&](int begin, int end, int) {
        for (int k = begin; k < end; ++k) {
            const Chunk& c = chunks_[size_t(k % chunks)];
            const auto from = c.pairs.begin() + (k < chunks ? 0 : c.movingCount);
            const auto to = k < chunks ? c.pairs.begin() + c.movingCount : c.pairs.end();
            std::copy(from, to, pairs.begin() + chunkStart_[size_t(k)]);
        }
    });
}

}  // namespace ragdoll
