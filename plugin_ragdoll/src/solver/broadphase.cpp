#include "solver/broadphase.h"

#include <algorithm>

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
        (b.type == BodyType::Static ? statics_ : moving_).push_back(Entry{b.aabb, i, isSimulated(b), isMoving(b)});
    }
    std::sort(statics_.begin(), statics_.end(), before<Entry>);
    std::sort(moving_.begin(), moving_.end(), before<Entry>);
    dirty_ = false;
}

void BroadPhase::findPairs(const std::vector<Body>& bodies, std::vector<std::pair<int, int>>& pairs) {
    pairs.clear();
    if (dirty_) rebuild(bodies);
    // Fresh bounds in last step's order, then an insertion sort: that order is almost right.
    for (Entry& e : moving_) {
        const Body& b = bodies[size_t(e.slot)];
        e.box = b.aabb;
        e.simulated = isSimulated(b);
        e.moving = isMoving(b);
    }
    for (Entry& e : statics_) e.box = bodies[size_t(e.slot)].aabb;
    resort(moving_);
    resort(statics_);  // statics only move when a user teleports one

    auto emit = [&](int a, int b) { pairs.emplace_back(std::min(a, b), std::max(a, b)); };

    // Moving against moving.
    const size_t count = moving_.size();
    for (size_t i = 0; i < count; ++i) {
        const Entry& a = moving_[i];
        for (size_t j = i + 1; j < count; ++j) {
            const Entry& b = moving_[j];
            if (b.box.lower.x > a.box.upper.x) break;
            if (a.box.lower.y <= b.box.upper.y && b.box.lower.y <= a.box.upper.y && (a.moving || b.moving))
                emit(a.slot, b.slot);
        }
    }

    // Moving against static: advance a window over the sorted statics. A static that
    // starts left of a moving body may still overlap it, so each moving body also scans
    // back over statics whose upper x reaches it; staticReach bounds that scan.
    double widestStatic = 0.0;
    for (const Entry& s : statics_) widestStatic = std::max(widestStatic, s.box.upper.x - s.box.lower.x);
    size_t first = 0;
    for (const Entry& a : moving_) {
        if (!a.simulated) continue;
        while (first < statics_.size() && statics_[first].box.lower.x < a.box.lower.x - widestStatic) ++first;
        for (size_t j = first; j < statics_.size(); ++j) {
            const Entry& s = statics_[j];
            if (s.box.lower.x > a.box.upper.x) break;
            if (overlaps(a.box, s.box)) emit(a.slot, s.slot);
        }
    }
}

}  // namespace ragdoll
