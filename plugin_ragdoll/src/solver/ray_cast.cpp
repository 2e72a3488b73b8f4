// The world's queries: ray casts against its shapes (closest hit), for feet IK and picking,
// and boxes, both through the index of the terrain the step keeps (World::QueryIndex).
#include <algorithm>
#include <cmath>

#include "solver/world.h"

namespace ragdoll {

namespace {

/// First entry of the ray p + t·d (t in [0, maxT]) into a circle; false if none.
bool rayCircle(Vec2 p, Vec2 d, Vec2 center, double radius, double maxT, double& t, Vec2& normal) {
    Vec2 s = p - center;
    double a = dot(d, d), b = dot(s, d), c = dot(s, s) - radius * radius;
    if (c <= 0.0 || a <= 0.0) return false;  // starting inside: no entry
    double disc = b * b - a * c;
    if (disc < 0.0) return false;
    double hit = (-b - std::sqrt(disc)) / a;
    if (hit < 0.0 || hit > maxT) return false;
    t = hit;
    normal = normalize(s + hit * d);
    return true;
}

/// Entry into a convex polygon by clipping the ray against each edge's half-plane.
bool rayPolygon(Vec2 p, Vec2 d, const Polygon& g, double maxT, double& t, Vec2& normal) {
    double lower = 0.0, upper = maxT;
    int entryEdge = -1;
    for (int i = 0; i < g.count; ++i) {
        double numerator = dot(g.normals[i], g.vertices[i] - p);
        double denominator = dot(g.normals[i], d);
        if (denominator == 0.0) {
            if (numerator < 0.0) return false;  // parallel and outside
            continue;
        }
        double tEdge = numerator / denominator;
        if (denominator < 0.0 && tEdge > lower) {
            lower = tEdge;
            entryEdge = i;
        } else if (denominator > 0.0 && tEdge < upper) {
            upper = tEdge;
        }
        if (upper < lower) return false;
    }
    if (entryEdge < 0) return false;
    t = lower;
    normal = g.normals[entryEdge];
    return true;
}

bool rayCapsule(Vec2 p, Vec2 d, const Polygon& g, double maxT, double& t, Vec2& normal) {
    Vec2 c1 = g.vertices[0], c2 = g.vertices[1];
    double r = g.radius;
    bool found = false;
    double best = maxT;
    Vec2 bestNormal;
    double tt;
    Vec2 nn;
    if (rayCircle(p, d, c1, r, best, tt, nn)) { best = tt; bestNormal = nn; found = true; }
    if (rayCircle(p, d, c2, r, best, tt, nn)) { best = tt; bestNormal = nn; found = true; }
    // The two flat sides.
    Vec2 axis = c2 - c1;
    double len = length(axis);
    if (len > 0.0) {
        Vec2 u = (1.0 / len) * axis;
        for (double side : {1.0, -1.0}) {
            Vec2 n = side * perp(u);
            Vec2 q = c1 + r * n;
            double denominator = dot(n, d);
            if (denominator >= 0.0) continue;
            double hit = dot(n, q - p) / denominator;
            if (hit < 0.0 || hit > best) continue;
            double along = dot(p + hit * d - c1, u);
            if (along < 0.0 || along > len) continue;
            best = hit;
            bestNormal = n;
            found = true;
        }
    }
    if (found) {
        t = best;
        normal = bestNormal;
    }
    return found;
}

}  // namespace

void World::rebuildQueryIndex() {
    QueryIndex& index = queryIndex_;
    index.statics.clear();
    index.others.clear();
    index.otherLowerX.clear();
    index.widestStatic = 0.0;
    for (int i = 0; i < int(bodies_.size()); ++i) {
        const Body& b = bodies_[size_t(i)];
        if (!b.alive || !b.hasShape) continue;
        if (b.type != BodyType::Static) {
            index.others.push_back(i);
            index.otherLowerX.push_back(0.0);
            continue;
        }
        index.statics.push_back(i);
        index.widestStatic = std::max(index.widestStatic, b.aabb.upper.x - b.aabb.lower.x);
    }
    auto byLowerX = [&](int a, int b) {
        const double xa = bodies_[size_t(a)].aabb.lower.x, xb = bodies_[size_t(b)].aabb.lower.x;
        return xa < xb || (xa == xb && a < b);
    };
    std::sort(index.statics.begin(), index.statics.end(), byLowerX);
    index.staticLowerX.clear();
    for (int slot : index.statics) index.staticLowerX.push_back(bodies_[size_t(slot)].aabb.lower.x);
    index.valid = true;
    // Sorted here, not left to sortQueryIndexOthers: its insertion sort expects the last
    // step's order, and from slot order it is quadratic (over the first three steps of a
    // pile of 4000 stickmen the step's finish took 88 ms a step; 11 ms sorted here). Lower x
    // then slot is a total order, so this is the very order the insertion sort gave, and the
    // bits after it are the same.
    std::sort(index.others.begin(), index.others.end(), byLowerX);
    sortQueryIndexOthers();
}

void World::sortQueryIndexOthers() {
    // Insertion sort from the last step's order: bodies move a little a step, so it is
    // nearly sorted already and this is about a pass (the broadphase sorts the same way).
    QueryIndex& index = queryIndex_;
    index.widestOther = 0.0;
    for (size_t k = 0; k < index.others.size(); ++k) {
        const AABB& box = bodies_[size_t(index.others[k])].aabb;
        index.otherLowerX[k] = box.lower.x;
        index.widestOther = std::max(index.widestOther, box.upper.x - box.lower.x);
    }
    for (size_t k = 1; k < index.others.size(); ++k) {
        const int slot = index.others[k];
        const double x = index.otherLowerX[k];
        size_t j = k;
        for (; j > 0 && (index.otherLowerX[j - 1] > x || (index.otherLowerX[j - 1] == x && index.others[j - 1] > slot)); --j) {
            index.others[j] = index.others[j - 1];
            index.otherLowerX[j] = index.otherLowerX[j - 1];
        }
        index.others[j] = slot;
        index.otherLowerX[j] = x;
    }
    index.othersSorted = true;
}

template <class Fn>
void World::forEachCandidate(const AABB& box, Fn&& fn) const {
    const QueryIndex& index = queryIndex_;
    if (!index.valid) {
        for (int i = 0; i < int(bodies_.size()); ++i)
            if (bodies_[size_t(i)].alive && bodies_[size_t(i)].hasShape) fn(i);
        return;
    }
    // A static body overlapping the box starts at most the widest one's width left of it.
    const auto first = std::lower_bound(index.staticLowerX.begin(), index.staticLowerX.end(), box.lower.x - index.widestStatic);
    const auto last = std::upper_bound(first, index.staticLowerX.end(), box.upper.x);
    for (auto it = first; it != last; ++it) fn(index.statics[size_t(it - index.staticLowerX.begin())]);
    if (!index.othersSorted) {
        for (int slot : index.others) fn(slot);
        return;
    }
    const auto firstOther = std::lower_bound(index.otherLowerX.begin(), index.otherLowerX.end(), box.lower.x - index.widestOther);
    const auto lastOther = std::upper_bound(firstOther, index.otherLowerX.end(), box.upper.x);
    for (auto it = firstOther; it != lastOther; ++it) fn(index.others[size_t(it - index.otherLowerX.begin())]);
}

void World::queryAABB(const AABB& box, std::vector<BodyId>& out) const {
    const size_t before = out.size();
    forEachCandidate(box, [&](int i) {
        if (overlaps(bodies_[size_t(i)].aabb, box)) out.push_back(bodyId(i));
    });
    // In slot order, whatever the index gave first: callers that keep the first of equals see
    // the same body as before the index.
    std::sort(out.begin() + long(before), out.end(), [](BodyId a, BodyId b) { return a.index1 < b.index1; });
}

bool World::rayCast(Vec2 p1, Vec2 p2, Filter filter, RayHit& hit) const {
    Vec2 d = p2 - p1;
    if (!isFinite(p1) || !isFinite(p2)) return false;
    AABB rayBox{{std::min(p1.x, p2.x), std::min(p1.y, p2.y)}, {std::max(p1.x, p2.x), std::max(p1.y, p2.y)}};
    double best = 1.0;
    int bestSlot = -1;
    forEachCandidate(rayBox, [&](int i) {
        const Body& b = bodies_[size_t(i)];
        if (!overlaps(b.aabb, rayBox)) return;
        const Filter& f = b.shape.filter;
        if ((f.categoryBits & filter.maskBits) == 0 || (filter.categoryBits & f.maskBits) == 0) return;
        if (filter.group != 0 && filter.group == f.group && filter.group < 0) return;
        // Cast in the body's frame.
        Transform xf = bodyFrame(b, sims_[size_t(i)]);
        Vec2 lp = inverseTransformPoint(xf, p1), ld = inverseRotate(xf.q, d);
        double t = 0.0;
        Vec2 normal;
        bool ok = false;
        switch (b.shape.type) {
        case ShapeType::Circle: ok = rayCircle(lp, ld, b.shape.geometry.vertices[0], b.shape.geometry.radius, best, t, normal); break;
        case ShapeType::Capsule: ok = rayCapsule(lp, ld, b.shape.geometry, best, t, normal); break;
        case ShapeType::Polygon: ok = rayPolygon(lp, ld, b.shape.geometry, best, t, normal); break;
        }
        // The closest; of equally close ones the highest slot, as a scan in slot order kept.
        if (!ok || t > best || (t == best && i < bestSlot)) return;
        best = t;
        bestSlot = i;
        hit.body = bodyId(i);
        hit.fraction = t;
        hit.point = p1 + t * d;
        hit.normal = rotate(xf.q, normal);
    });
    return bestSlot >= 0;
}

}  // namespace ragdoll
