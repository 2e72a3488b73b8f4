#include "solver/broadphase.h"

#include <algorithm>

namespace ragdoll {

namespace {

/// Lower x, then slot: a total order, so the sorted list (and with it the order of pairs and
/// contacts) depends on where bodies are, not on how they got there — a world restored from
/// a state blob goes on exactly as the original.
bool before(const std::vector<Body>& bodies, int a, int b) {
    const double xa = bodies[size_t(a)].aabb.lower.x, xb = bodies[size_t(b)].aabb.lower.x;
    return xa < xb || (xa == xb && a < b);
}

}  // namespace

void BroadPhase::rebuild(const std::vector<Body>& bodies) {
    moving_.clear();
    statics_.clear();
    for (int i = 0; i < int(bodies.size()); ++i) {
        const Body& b = bodies[size_t(i)];
        if (!b.alive || !b.hasShape) continue;
        (b.type == BodyType::Static ? statics_ : moving_).push_back(i);
    }
    auto byLowerX = [&](int a, int b) { return before(bodies, a, b); };
    std::sort(statics_.begin(), statics_.end(), byLowerX);
    std::sort(moving_.begin(), moving_.end(), byLowerX);
    dirty_ = false;
}

void BroadPhase::findPairs(const std::vector<Body>& bodies, std::vector<std::pair<int, int>>& pairs) {
    pairs.clear();
    if (dirty_) rebuild(bodies);

    // Insertion sort: the order from the last step is almost right.
    for (size_t i = 1; i < moving_.size(); ++i) {
        int slot = moving_[i];
        size_t j = i;
        while (j > 0 && before(bodies, slot, moving_[j - 1])) {
            moving_[j] = moving_[j - 1];
            --j;
        }
        moving_[j] = slot;
    }

    // A pair needs one side that moves: an awake dynamic body, or an awake kinematic one (a
    // kinematic body reaching a sleeping one must find it, so the contact wakes it).
    auto wantsPair = [&](const Body& a, const Body& b) {
        bool aActive = a.type != BodyType::Static && a.awake && !a.frozen;
        bool bActive = b.type != BodyType::Static && b.awake && !b.frozen;
        return aActive || bActive;
    };
    auto emit = [&](int a, int b) { pairs.emplace_back(std::min(a, b), std::max(a, b)); };

    // Moving against moving.
    for (size_t i = 0; i < moving_.size(); ++i) {
        const Body& a = bodies[size_t(moving_[i])];
        for (size_t j = i + 1; j < moving_.size(); ++j) {
            const Body& b = bodies[size_t(moving_[j])];
            if (b.aabb.lower.x > a.aabb.upper.x) break;
            if (a.aabb.lower.y <= b.aabb.upper.y && b.aabb.lower.y <= a.aabb.upper.y && wantsPair(a, b))
                emit(moving_[i], moving_[j]);
        }
    }

    // Moving against static: advance a window over the sorted statics. A static that
    // starts left of a moving body may still overlap it, so each moving body also scans
    // back over statics whose upper x reaches it; staticReach bounds that scan.
    double widestStatic = 0.0;
    for (int s : statics_) {
        const AABB& box = bodies[size_t(s)].aabb;
        widestStatic = std::max(widestStatic, box.upper.x - box.lower.x);
    }
    size_t first = 0;
    for (int m : moving_) {
        const Body& a = bodies[size_t(m)];
        if (!(a.isDynamic() && a.awake && !a.frozen)) continue;
        while (first < statics_.size() && bodies[size_t(statics_[first])].aabb.lower.x < a.aabb.lower.x - widestStatic)
            ++first;
        for (size_t j = first; j < statics_.size(); ++j) {
            const Body& s = bodies[size_t(statics_[j])];
            if (s.aabb.lower.x > a.aabb.upper.x) break;
            if (overlaps(a.aabb, s.aabb)) emit(m, statics_[j]);
        }
    }
}

}  // namespace ragdoll
