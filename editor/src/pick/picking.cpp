#include "pick/picking.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace paper::editor {

namespace {

Vec2d minus(Vec2d p, Vec2d q) { return {p.x - q.x, p.y - q.y}; }
double dot(Vec2d p, Vec2d q) { return p.x * q.x + p.y * q.y; }
double length(Vec2d p) { return std::hypot(p.x, p.y); }

/// Candidate points along a body's centre line for pointPickingBody; a circle has one.
constexpr int kCentreLineSamples = 24;

}  // namespace

double distanceToSegment(Vec2d point, Vec2d a, Vec2d b) {
    Vec2d ab = minus(b, a);
    double lengthSquared = dot(ab, ab);
    double t = lengthSquared > 0.0 ? std::clamp(dot(minus(point, a), ab) / lengthSquared, 0.0, 1.0) : 0.0;
    return length(minus(point, {a.x + t * ab.x, a.y + t * ab.y}));
}

double distanceOutside(const BodyShape& shape, Vec2d point) {
    switch (shape.outline) {
    case BodyOutline::Circle: return length(minus(point, shape.a)) - shape.radius;
    case BodyOutline::Capsule: return distanceToSegment(point, shape.a, shape.b) - shape.radius;
    case BodyOutline::Box: {
        // The box in its own frame: u along a–b from the middle, v across; then the usual
        // rectangle distance (outside: to the nearest edge or corner; inside: negative depth).
        Vec2d ab = minus(shape.b, shape.a);
        double len = length(ab);
        Vec2d u = len > 0.0 ? Vec2d{ab.x / len, ab.y / len} : Vec2d{1.0, 0.0};
        Vec2d fromMiddle = minus(point, {0.5 * (shape.a.x + shape.b.x), 0.5 * (shape.a.y + shape.b.y)});
        double du = std::fabs(dot(fromMiddle, u)) - 0.5 * len;
        double dv = std::fabs(dot(fromMiddle, {-u.y, u.x})) - shape.radius;
        double outside = std::hypot(std::max(du, 0.0), std::max(dv, 0.0));
        return outside > 0.0 ? outside : std::max(du, dv);
    }
    }
    return std::numeric_limits<double>::infinity();
}

int pickPivot(const std::vector<Vec2d>& pivots, Vec2d point, double radiusMetres) {
    int best = -1;
    double bestDistance = radiusMetres;
    for (std::size_t i = 0; i < pivots.size(); ++i) {
        double d = length(minus(point, pivots[i]));
        if (d <= bestDistance) {
            bestDistance = d;
            best = int(i);
        }
    }
    return best;
}

int pickBody(const std::vector<BodyShape>& bodies, Vec2d point, double slackMetres) {
    // Depth as a fraction of each body's thickness (-1 on its centre line), not in metres: an
    // arm hanging in front of the torso, clicked on its centre line, is deeper in the arm
    // (-1) than in the torso (a few centimetres of its much larger radius).
    int best = -1;
    double bestDepth = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        double d = distanceOutside(bodies[i], point);
        if (d > slackMetres) continue;
        double depth = d / std::max(bodies[i].radius, 1e-9);
        if (depth < bestDepth) {
            bestDepth = depth;
            best = int(i);
        }
    }
    return best;
}

PickResult pickAt(const std::vector<Vec2d>& pivots, const std::vector<BodyShape>& bodies, Vec2d point,
                  double pivotRadiusMetres, double slackMetres) {
    PickResult result;
    result.pivot = pickPivot(pivots, point, pivotRadiusMetres);
    if (result.pivot < 0) result.body = pickBody(bodies, point, slackMetres);
    return result;
}

std::vector<PickResult> picksAt(const std::vector<Vec2d>& pivots, const std::vector<BodyShape>& bodies, Vec2d point,
                                double pivotRadiusMetres, double slackMetres) {
    // Ties are broken as pickPivot and pickBody break them (the last pivot, the first body),
    // so the first answer is pickAt's.
    struct Near {
        double measure;
        int index;
    };
    std::vector<Near> near;
    for (std::size_t i = 0; i < pivots.size(); ++i) {
        double d = length(minus(point, pivots[i]));
        if (d <= pivotRadiusMetres) near.push_back({d, int(i)});
    }
    std::sort(near.begin(), near.end(), [](Near p, Near q) { return p.measure != q.measure ? p.measure < q.measure : p.index > q.index; });
    std::vector<PickResult> picks;
    for (Near n : near) picks.push_back({n.index, -1});
    near.clear();
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        double d = distanceOutside(bodies[i], point);
        if (d <= slackMetres) near.push_back({d / std::max(bodies[i].radius, 1e-9), int(i)});
    }
    std::stable_sort(near.begin(), near.end(), [](Near p, Near q) { return p.measure < q.measure; });
    for (Near n : near) picks.push_back({-1, n.index});
    return picks;
}

bool pointPickingBody(const std::vector<Vec2d>& pivots, const std::vector<BodyShape>& bodies, int index,
                      double pivotRadiusMetres, double slackMetres, const std::function<bool(Vec2d)>& taken,
                      Vec2d& point) {
    if (index < 0 || std::size_t(index) >= bodies.size()) return false;
    const BodyShape& body = bodies[std::size_t(index)];
    int samples = body.outline == BodyOutline::Circle ? 0 : kCentreLineSamples;
    double bestClearance = -1.0;
    for (int i = 0; i <= samples; ++i) {
        double t = samples > 0 ? double(i) / samples : 0.0;
        Vec2d candidate{body.a.x + t * (body.b.x - body.a.x), body.a.y + t * (body.b.y - body.a.y)};
        PickResult hit = pickAt(pivots, bodies, candidate, pivotRadiusMetres, slackMetres);
        if (hit.body != index || (taken && taken(candidate))) continue;
        double clearance = std::numeric_limits<double>::infinity();
        for (Vec2d pivot : pivots) clearance = std::min(clearance, length(minus(candidate, pivot)));
        if (clearance > bestClearance) {
            bestClearance = clearance;
            point = candidate;
        }
    }
    return bestClearance >= 0.0;
}

}  // namespace paper::editor
