// Shape geometry: building convex polygons from loose points, mass properties at uniform
// density and world bounding boxes of circles, capsules and (rounded) convex polygons.
//
// References: the hull is Andrew's monotone chain (A. M. Andrew 1979, "Another efficient
// algorithm for convex hulls in two dimensions"); polygon mass properties integrate a
// triangle fan (D. Eberly, "Polygonal Mass Properties"); the rounded polygon's area is
// Steiner's formula for a convex set grown by a disc (area + perimeter·r + π·r²). Box2D v3
// (`src/hull.c`, `src/geometry.c`) takes the same route; this is our own code.
#include "solver/geometry.h"

#include <algorithm>
#include <cmath>

namespace ragdoll {
namespace {

/// Two polygon points closer than this (metres) are duplicates. It guards the edge normals,
/// which are normalised edge vectors, against losing their digits: level coordinates reach
/// 1e6 m, where a double's step is ~1e-10 m, so a 1e-6 m edge keeps four correct digits.
constexpr double kMinEdgeLength = 1.0e-6;

/// A hull vertex whose turn has |sin| at or below this is collinear with its neighbours and
/// is rejected rather than silently dropped, so the caller learns that its outline is not
/// what it thought. Ten times looser than the level loader's 1e-5 (engine/src/world/level.cpp),
/// so every polygon the loader accepts is accepted here too despite float rounding.
constexpr double kCollinearSine = 1.0e-6;

/// Mass, first and second (polar) moments of area of a piece, about a fixed origin. Summing
/// pieces and shifting once at the end keeps the formulas simple and exact.
struct AreaMoments {
    double area = 0.0;
    Vec2 firstMoment;           ///< ∫ r dA, m³
    double secondMoment = 0.0;  ///< ∫ |r|² dA, m⁴
};

/// Adds a piece of `area` whose centroid is `centroid` (relative to the origin) and whose polar
/// second moment about its own centroid is `centralSecondMoment` (parallel-axis theorem).
void addPiece(AreaMoments& m, double area, Vec2 centroid, double centralSecondMoment) {
    m.area += area;
    m.firstMoment += area * centroid;
    m.secondMoment += centralSecondMoment + area * lengthSquared(centroid);
}

MassData massFromMoments(const AreaMoments& m, Vec2 origin, double density) {
    MassData out;
    if (m.area <= 0.0) {
        out.center = origin;
        return out;
    }
    Vec2 centroid = (1.0 / m.area) * m.firstMoment;
    out.mass = density * m.area;
    out.center = origin + centroid;
    // Shift the second moment from the origin to the centroid.
    out.rotationalInertia = density * (m.secondMoment - m.area * lengthSquared(centroid));
    return out;
}

/// Area-weighted centroid of the core polygon (without its radius).
Vec2 polygonCentroid(const Vec2* vertices, int count) {
    // Relative to the first vertex: coordinates can be large (terrain in world units) and the
    // fan's cross products would otherwise cancel.
    Vec2 origin = vertices[0];
    double twiceArea = 0.0;
    Vec2 sum;
    for (int i = 1; i + 1 < count; ++i) {
        Vec2 e1 = vertices[i] - origin;
        Vec2 e2 = vertices[i + 1] - origin;
        double d = cross(e1, e2);
        twiceArea += d;
        sum += d * (e1 + e2);
    }
    return origin + (1.0 / (3.0 * twiceArea)) * sum;
}

}  // namespace

bool makePolygon(const Vec2* points, int count, double radius, Polygon& out) {
    if (points == nullptr || count < 3 || count > kMaxPolygonVertices) return false;
    if (!std::isfinite(radius) || radius < 0.0) return false;
    for (int i = 0; i < count; ++i)
        if (!isFinite(points[i])) return false;
    // All pairs, not only neighbours after sorting: two near-duplicates can sort apart.
    for (int i = 0; i < count; ++i)
        for (int j = i + 1; j < count; ++j)
            if (lengthSquared(points[i] - points[j]) < kMinEdgeLength * kMinEdgeLength) return false;

    // Andrew's monotone chain on at most 8 points: insertion sort by x then y, then a lower and
    // an upper chain. Exactly collinear and interior points are popped, so a hull with fewer
    // vertices than points means the input was not in strictly convex position.
    Vec2 sorted[kMaxPolygonVertices];
    for (int i = 0; i < count; ++i) {
        Vec2 p = points[i];
        int j = i;
        for (; j > 0 && (sorted[j - 1].x > p.x || (sorted[j - 1].x == p.x && sorted[j - 1].y > p.y)); --j)
            sorted[j] = sorted[j - 1];
        sorted[j] = p;
    }
    Vec2 hull[2 * kMaxPolygonVertices];
    int n = 0;
    for (int i = 0; i < count; ++i) {
        while (n >= 2 && cross(hull[n - 1] - hull[n - 2], sorted[i] - hull[n - 2]) <= 0.0) --n;
        hull[n++] = sorted[i];
    }
    for (int i = count - 2, lower = n + 1; i >= 0; --i) {
        while (n >= lower && cross(hull[n - 1] - hull[n - 2], sorted[i] - hull[n - 2]) <= 0.0) --n;
        hull[n++] = sorted[i];
    }
    --n;  // the first point closes the chain
    if (n != count) return false;

    // Near-collinear vertices survive the exact test above; reject them by the sine of the turn.
    for (int i = 0; i < n; ++i) {
        Vec2 e1 = hull[i] - hull[(i + n - 1) % n];
        Vec2 e2 = hull[(i + 1) % n] - hull[i];
        if (cross(e1, e2) <= kCollinearSine * length(e1) * length(e2)) return false;
    }

    // Start at the caller's first point, so a polygon given counter-clockwise comes back unchanged.
    int start = 0;
    while (!(hull[start] == points[0])) ++start;

    Polygon result;
    result.count = n;
    result.radius = radius;
    for (int i = 0; i < n; ++i) result.vertices[i] = hull[(start + i) % n];
    for (int i = 0; i < n; ++i) {
        Vec2 edge = result.vertices[(i + 1) % n] - result.vertices[i];
        result.normals[i] = normalize(Vec2{edge.y, -edge.x});
    }
    result.centroid = polygonCentroid(result.vertices, n);
    out = result;
    return true;
}

Polygon capsuleShape(const Capsule& capsule) {
    Polygon g;
    g.count = 2;
    g.vertices[0] = capsule.center1;
    g.vertices[1] = capsule.center2;
    const Vec2 d = capsule.center2 - capsule.center1;
    g.normals[0] = normalize(Vec2{d.y, -d.x});
    g.normals[1] = -g.normals[0];
    g.centroid = lerp(capsule.center1, capsule.center2, 0.5);
    g.radius = capsule.radius;
    return g;
}

Polygon makeBox(double hx, double hy, Vec2 center, double angle) {
    Rot q = makeRot(angle);
    const Vec2 corners[4] = {{-hx, -hy}, {hx, -hy}, {hx, hy}, {-hx, hy}};
    const Vec2 normals[4] = {{0.0, -1.0}, {1.0, 0.0}, {0.0, 1.0}, {-1.0, 0.0}};
    Polygon box;
    box.count = 4;
    for (int i = 0; i < 4; ++i) {
        box.vertices[i] = center + rotate(q, corners[i]);
        box.normals[i] = rotate(q, normals[i]);
    }
    box.centroid = center;
    return box;
}

double area(const Circle& s) { return kPi * s.radius * s.radius; }

double area(const Capsule& s) {
    return 2.0 * s.radius * distance(s.center1, s.center2) + kPi * s.radius * s.radius;
}

double area(const Polygon& s) {
    if (s.count < 3) return 0.0;
    double twiceArea = 0.0;
    double perimeter = 0.0;
    for (int i = 0; i < s.count; ++i) {
        Vec2 a = s.vertices[i] - s.vertices[0];
        Vec2 b = s.vertices[(i + 1) % s.count] - s.vertices[0];
        twiceArea += cross(a, b);
        perimeter += distance(s.vertices[i], s.vertices[(i + 1) % s.count]);
    }
    return 0.5 * twiceArea + perimeter * s.radius + kPi * s.radius * s.radius;
}

MassData computeMass(const Circle& s, double density) {
    MassData out;
    out.mass = density * area(s);
    out.center = s.center;
    out.rotationalInertia = 0.5 * out.mass * s.radius * s.radius;
    return out;
}

MassData computeMass(const Capsule& s, double density) {
    // A rectangle length × 2r plus two half discs that together weigh one disc. A half disc's
    // centroid sits 4r/(3π) beyond its flat side; its inertia about the segment end (the middle
    // of the flat side) is ½·m_half·r², shifted to its centroid and then to the capsule centre.
    double r = s.radius;
    double len = distance(s.center1, s.center2);
    double boxMass = density * 2.0 * r * len;
    double discMass = density * kPi * r * r;
    double halfLength = 0.5 * len;
    double centroidOffset = 4.0 * r / (3.0 * kPi);
    // Per half: ½r² − d² + (L/2 + d)² = ½r² + (L/2)² + L·d, times both halves' mass.
    double discInertia = discMass * (0.5 * r * r + halfLength * halfLength + 2.0 * halfLength * centroidOffset);
    double boxInertia = boxMass * (len * len + 4.0 * r * r) / 12.0;

    MassData out;
    out.mass = boxMass + discMass;
    out.center = 0.5 * (s.center1 + s.center2);
    out.rotationalInertia = boxInertia + discInertia;
    return out;
}

MassData computeMass(const Polygon& s, double density) {
    if (s.count < 3) return {};
    // Exact for the rounded polygon: the core polygon, a rectangle r wide on every edge and a
    // circular sector at every vertex whose angle is the turn between the neighbouring edge
    // normals (the sectors add up to a full disc). The rejected alternative, Box2D's
    // approximation that moves each vertex out by r·√2 along the bisector, overestimates the
    // area by up to (4 − π)·r² and is no simpler here.
    Vec2 origin = s.centroid;
    AreaMoments m;
    for (int i = 0; i < s.count; ++i) {
        Vec2 e1 = s.vertices[i] - origin;
        Vec2 e2 = s.vertices[(i + 1) % s.count] - origin;
        double d = cross(e1, e2);
        // Triangle (origin, e1, e2): ∫|r|² dA = (D/12)·(|e1|² + e1·e2 + |e2|²).
        m.area += 0.5 * d;
        m.firstMoment += (d / 6.0) * (e1 + e2);
        m.secondMoment += (d / 12.0) * (dot(e1, e1) + dot(e1, e2) + dot(e2, e2));
    }
    double r = s.radius;
    if (r > 0.0) {
        for (int i = 0; i < s.count; ++i) {
            Vec2 v1 = s.vertices[i] - origin;
            Vec2 v2 = s.vertices[(i + 1) % s.count] - origin;
            Vec2 n = s.normals[i];
            double len = distance(v1, v2);
            double rectArea = len * r;
            addPiece(m, rectArea, 0.5 * (v1 + v2) + (0.5 * r) * n, rectArea * (len * len + r * r) / 12.0);

            Vec2 before = s.normals[(i + s.count - 1) % s.count];
            double angle = angleOf({dot(before, n), cross(before, n)});
            double sectorArea = 0.5 * angle * r * r;
            // Sector centroid: 2r·sin(φ/2)/(3·φ/2) from its apex along the bisector.
            double offset = 4.0 * r * makeRot(0.5 * angle).s / (3.0 * angle);
            Vec2 bisector = normalize(before + n);
            double apexSecondMoment = 0.5 * sectorArea * r * r;
            addPiece(m, sectorArea, v1 + offset * bisector, apexSecondMoment - sectorArea * offset * offset);
        }
    }
    return massFromMoments(m, origin, density);
}

AABB computeAABB(const Circle& s, const Transform& xf) {
    Vec2 c = transformPoint(xf, s.center);
    Vec2 r{s.radius, s.radius};
    return {c - r, c + r};
}

AABB computeAABB(const Capsule& s, const Transform& xf) {
    Vec2 a = transformPoint(xf, s.center1);
    Vec2 b = transformPoint(xf, s.center2);
    Vec2 r{s.radius, s.radius};
    return {Vec2{std::min(a.x, b.x), std::min(a.y, b.y)} - r, Vec2{std::max(a.x, b.x), std::max(a.y, b.y)} + r};
}

AABB computeAABB(const Polygon& s, const Transform& xf) {
    if (s.count < 1) return {xf.p, xf.p};
    Vec2 lower = transformPoint(xf, s.vertices[0]);
    Vec2 upper = lower;
    for (int i = 1; i < s.count; ++i) {
        Vec2 v = transformPoint(xf, s.vertices[i]);
        lower = {std::min(lower.x, v.x), std::min(lower.y, v.y)};
        upper = {std::max(upper.x, v.x), std::max(upper.y, v.y)};
    }
    Vec2 r{s.radius, s.radius};
    return {lower - r, upper + r};
}

}  // namespace ragdoll
