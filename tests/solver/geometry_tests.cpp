// Shape geometry against hand formulas: mass and inertia of circles, boxes, capsules and
// rounded polygons, hull ordering and rejection, bounding boxes of rotated shapes.
#include <catch2/catch.hpp>

#include <cmath>

#include "solver/geometry.h"

using namespace ragdoll;

namespace {

/// Mass properties by brute force: the midpoints of an n × n grid over `box` that fall inside
/// the shape. An independent check of the closed forms, good to ~1e-3 at n = 1000.
template <class Inside>
MassData integrateOnGrid(Inside inside, AABB box, int n, double density) {
    double dx = (box.upper.x - box.lower.x) / n;
    double dy = (box.upper.y - box.lower.y) / n;
    double cell = dx * dy;
    double area = 0.0, sx = 0.0, sy = 0.0, sxx = 0.0;
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) {
            Vec2 p{box.lower.x + (i + 0.5) * dx, box.lower.y + (j + 0.5) * dy};
            if (!inside(p)) continue;
            area += cell;
            sx += cell * p.x;
            sy += cell * p.y;
            sxx += cell * lengthSquared(p);
        }
    }
    MassData out;
    out.mass = density * area;
    out.center = {sx / area, sy / area};
    out.rotationalInertia = density * (sxx - area * lengthSquared(out.center));
    return out;
}

/// Distance from p to a convex counter-clockwise polygon's core (0 inside).
double distanceToPolygon(const Polygon& s, Vec2 p) {
    bool inside = true;
    double best = 1e300;
    for (int i = 0; i < s.count; ++i) {
        Vec2 a = s.vertices[i], b = s.vertices[(i + 1) % s.count];
        if (dot(s.normals[i], p - a) > 0.0) inside = false;
        double t = std::clamp(dot(p - a, b - a) / lengthSquared(b - a), 0.0, 1.0);
        best = std::min(best, distance(p, a + t * (b - a)));
    }
    return inside ? 0.0 : best;
}

void checkPolygonInvariants(const Polygon& p) {
    for (int i = 0; i < p.count; ++i) {
        Vec2 edge = p.vertices[(i + 1) % p.count] - p.vertices[i];
        CHECK(length(p.normals[i]) == Approx(1.0).margin(1e-14));
        CHECK(dot(p.normals[i], edge) == Approx(0.0).margin(1e-12));
        CHECK(cross(edge, p.normals[i]) < 0.0);  // outward: on the right of a CCW edge
        CHECK(dot(p.normals[i], p.vertices[i] - p.centroid) > 0.0);
    }
}

}  // namespace

TEST_CASE("a box's mass and inertia match m·(w² + h²)/12", "[geometry]") {
    Polygon box = makeBox(0.5, 0.25);
    REQUIRE(box.count == 4);
    checkPolygonInvariants(box);
    MassData md = computeMass(box, 2.0);
    CHECK(area(box) == Approx(0.5));
    CHECK(md.mass == Approx(1.0));  // 1.0 × 0.5 m² × 2 kg/m²
    CHECK(md.center.x == Approx(0.0).margin(1e-14));
    CHECK(md.center.y == Approx(0.0).margin(1e-14));
    CHECK(md.rotationalInertia == Approx(1.0 * (1.0 * 1.0 + 0.5 * 0.5) / 12.0));

    // Placed and turned: the same mass and inertia about its own centre.
    Polygon placed = makeBox(0.5, 0.25, {1.0, 2.0}, 0.3);
    checkPolygonInvariants(placed);
    MassData mp = computeMass(placed, 2.0);
    CHECK(mp.mass == Approx(1.0));
    CHECK(mp.center.x == Approx(1.0));
    CHECK(mp.center.y == Approx(2.0));
    CHECK(mp.rotationalInertia == Approx(md.rotationalInertia).epsilon(1e-12));
    CHECK(placed.vertices[2].x == Approx(1.0 + 0.5 * std::cos(0.3) - 0.25 * std::sin(0.3)));
    CHECK(placed.vertices[2].y == Approx(2.0 + 0.5 * std::sin(0.3) + 0.25 * std::cos(0.3)));
}

TEST_CASE("a circle's mass and inertia match m = ρπr², I = m·r²/2", "[geometry]") {
    Circle c{{0.4, -0.2}, 0.3};
    MassData md = computeMass(c, 3.0);
    double mass = 3.0 * kPi * 0.09;
    CHECK(area(c) == Approx(kPi * 0.09));
    CHECK(md.mass == Approx(mass));
    CHECK(md.center.x == Approx(0.4));
    CHECK(md.center.y == Approx(-0.2));
    CHECK(md.rotationalInertia == Approx(0.5 * mass * 0.09));
}

TEST_CASE("a capsule is a rectangle and two half discs moved by the parallel-axis theorem", "[geometry]") {
    const double r = 0.05, len = 0.5, density = 1000.0;
    Capsule cap{{-0.25, 0.0}, {0.25, 0.0}, r};
    MassData md = computeMass(cap, density);

    // By hand: rectangle len × 2r; each half disc (mass ρπr²/2) has its centroid 4r/(3π)
    // beyond the segment end, inertia ½·m·r² about the end minus m·d² about its centroid.
    double rectMass = density * len * 2.0 * r;
    double halfMass = density * kPi * r * r / 2.0;
    double d = 4.0 * r / (3.0 * kPi);
    double rectI = rectMass * (len * len + 4.0 * r * r) / 12.0;
    double halfI = 0.5 * halfMass * r * r - halfMass * d * d + halfMass * (len / 2.0 + d) * (len / 2.0 + d);
    CHECK(area(cap) == Approx(len * 2.0 * r + kPi * r * r));
    CHECK(md.mass == Approx(rectMass + 2.0 * halfMass));
    CHECK(md.mass == Approx(1000.0 * (0.05 + 0.0025 * kPi)));  // 57.854 kg
    CHECK(md.rotationalInertia == Approx(rectI + 2.0 * halfI));
    CHECK(md.rotationalInertia == Approx(1.667358).epsilon(1e-6));  // kg·m², worked out above

    // The same body, tilted and moved: centre at the midpoint, same inertia.
    Capsule tilted{{1.0, 1.0}, {1.0 + len * std::cos(0.7), 1.0 + len * std::sin(0.7)}, r};
    MassData mt = computeMass(tilted, density);
    CHECK(mt.mass == Approx(md.mass));
    CHECK(mt.center.x == Approx(1.0 + 0.5 * len * std::cos(0.7)));
    CHECK(mt.center.y == Approx(1.0 + 0.5 * len * std::sin(0.7)));
    CHECK(mt.rotationalInertia == Approx(md.rotationalInertia));

    // Independent check on a grid.
    auto inside = [&](Vec2 p) {
        double t = std::clamp((p.x + 0.25) / len, 0.0, 1.0);
        return distance(p, Vec2{-0.25 + t * len, 0.0}) <= r;
    };
    MassData grid = integrateOnGrid(inside, {{-0.3, -0.05}, {0.3, 0.05}}, 1200, density);
    CHECK(grid.mass == Approx(md.mass).epsilon(2e-3));
    CHECK(grid.rotationalInertia == Approx(md.rotationalInertia).epsilon(2e-3));

    // Zero length is a circle.
    Capsule dot0{{0.2, 0.1}, {0.2, 0.1}, 0.3};
    MassData mc = computeMass(dot0, 2.0);
    MassData circle = computeMass(Circle{{0.2, 0.1}, 0.3}, 2.0);
    CHECK(mc.mass == Approx(circle.mass));
    CHECK(mc.rotationalInertia == Approx(circle.rotationalInertia));
}

TEST_CASE("a right triangle's centroid and inertia match the textbook", "[geometry]") {
    const Vec2 pts[3] = {{0.0, 0.0}, {3.0, 0.0}, {0.0, 2.0}};
    Polygon tri;
    REQUIRE(makePolygon(pts, 3, 0.0, tri));
    checkPolygonInvariants(tri);
    MassData md = computeMass(tri, 1.0);
    CHECK(area(tri) == Approx(3.0));
    CHECK(md.mass == Approx(3.0));
    CHECK(md.center.x == Approx(1.0));
    CHECK(md.center.y == Approx(2.0 / 3.0));
    CHECK(tri.centroid.x == Approx(1.0));
    CHECK(tri.centroid.y == Approx(2.0 / 3.0));
    // Right triangle with legs a, b about its centroid: m·(a² + b²)/18.
    CHECK(md.rotationalInertia == Approx(3.0 * (9.0 + 4.0) / 18.0));
}

TEST_CASE("a rounded polygon's mass is exact: core, edge strips and corner sectors", "[geometry]") {
    const double a = 1.0, b = 0.6, r = 0.1, density = 5.0;
    Polygon box = makeBox(a / 2.0, b / 2.0);
    box.radius = r;
    MassData md = computeMass(box, density);

    // By hand: core, two side strips r × b, two strips a × r, four quarter discs whose centroid
    // is 4r/(3π) from the corner along both axes.
    double coreM = density * a * b, sideM = density * r * b, capM = density * a * r;
    double quarterM = density * kPi * r * r / 4.0;
    double q = 4.0 * r / (3.0 * kPi);
    double cx = a / 2.0 + q, cy = b / 2.0 + q;
    double inertia = coreM * (a * a + b * b) / 12.0 +
                     2.0 * (sideM * (r * r + b * b) / 12.0 + sideM * (a / 2.0 + r / 2.0) * (a / 2.0 + r / 2.0)) +
                     2.0 * (capM * (a * a + r * r) / 12.0 + capM * (b / 2.0 + r / 2.0) * (b / 2.0 + r / 2.0)) +
                     4.0 * (0.5 * quarterM * r * r - quarterM * 2.0 * q * q + quarterM * (cx * cx + cy * cy));
    double expectedArea = a * b + 2.0 * (a + b) * r + kPi * r * r;
    CHECK(area(box) == Approx(expectedArea));
    CHECK(md.mass == Approx(density * expectedArea));
    CHECK(md.center.x == Approx(0.0).margin(1e-12));
    CHECK(md.center.y == Approx(0.0).margin(1e-12));
    CHECK(md.rotationalInertia == Approx(inertia));

    // A rounded, lopsided triangle (sectors of three different angles, centre of mass moved by
    // the strips) against the grid.
    const Vec2 pts[3] = {{0.0, 0.0}, {1.2, 0.1}, {0.2, 0.9}};
    Polygon tri;
    REQUIRE(makePolygon(pts, 3, 0.15, tri));
    MassData exact = computeMass(tri, density);
    auto inside = [&](Vec2 p) { return distanceToPolygon(tri, p) <= 0.15; };
    MassData grid = integrateOnGrid(inside, {{-0.2, -0.2}, {1.4, 1.1}}, 1500, density);
    CHECK(exact.mass == Approx(density * area(tri)));
    CHECK(grid.mass == Approx(exact.mass).epsilon(1e-3));
    CHECK(grid.center.x == Approx(exact.center.x).margin(1e-3));
    CHECK(grid.center.y == Approx(exact.center.y).margin(1e-3));
    CHECK(grid.rotationalInertia == Approx(exact.rotationalInertia).epsilon(2e-3));
}

TEST_CASE("makePolygon orders any winding counter-clockwise", "[geometry][hull]") {
    const Vec2 ccw[4] = {{0.0, 0.0}, {2.0, 0.0}, {2.0, 1.0}, {0.0, 1.0}};
    Polygon p;
    REQUIRE(makePolygon(ccw, 4, 0.0, p));
    REQUIRE(p.count == 4);
    for (int i = 0; i < 4; ++i) CHECK(p.vertices[i] == ccw[i]);  // already CCW: unchanged
    CHECK(p.normals[0].x == Approx(0.0).margin(1e-15));
    CHECK(p.normals[0].y == Approx(-1.0));
    CHECK(p.normals[1].x == Approx(1.0));
    CHECK(p.centroid.x == Approx(1.0));
    CHECK(p.centroid.y == Approx(0.5));
    checkPolygonInvariants(p);

    // Clockwise: same first point, then counter-clockwise.
    const Vec2 cw[4] = {{0.0, 0.0}, {0.0, 1.0}, {2.0, 1.0}, {2.0, 0.0}};
    Polygon q;
    REQUIRE(makePolygon(cw, 4, 0.25, q));
    CHECK(q.radius == 0.25);
    for (int i = 0; i < 4; ++i) CHECK(q.vertices[i] == ccw[i]);
    checkPolygonInvariants(q);

    // Scrambled order of a convex pentagon.
    const Vec2 scrambled[5] = {{1.0, 2.0}, {0.0, 0.0}, {2.0, 1.0}, {-1.0, 1.0}, {1.5, -0.5}};
    Polygon s;
    REQUIRE(makePolygon(scrambled, 5, 0.0, s));
    REQUIRE(s.count == 5);
    CHECK(s.vertices[0] == scrambled[0]);
    const Vec2 expected[5] = {{1.0, 2.0}, {-1.0, 1.0}, {0.0, 0.0}, {1.5, -0.5}, {2.0, 1.0}};
    for (int i = 0; i < 5; ++i) CHECK(s.vertices[i] == expected[i]);
    checkPolygonInvariants(s);

    // Eight points, the most allowed: a regular octagon given clockwise.
    Vec2 octagon[8];
    for (int i = 0; i < 8; ++i) octagon[i] = {std::cos(-i * kPi / 4.0), std::sin(-i * kPi / 4.0)};
    Polygon o;
    REQUIRE(makePolygon(octagon, 8, 0.0, o));
    CHECK(o.count == 8);
    CHECK(area(o) == Approx(2.0 * std::sqrt(2.0)));
    checkPolygonInvariants(o);
}

TEST_CASE("makePolygon rejects concave, collinear, duplicate and out-of-range input", "[geometry][hull]") {
    Polygon out = makeBox(7.0, 7.0);
    auto untouched = [&] { return out.count == 4 && out.vertices[2].x == 7.0 && out.vertices[2].y == 7.0; };

    const Vec2 notch[5] = {{0.0, 0.0}, {2.0, 0.0}, {2.0, 2.0}, {1.0, 0.5}, {0.0, 2.0}};
    CHECK_FALSE(makePolygon(notch, 5, 0.0, out));
    const Vec2 midEdge[4] = {{0.0, 0.0}, {1.0, 0.0}, {2.0, 0.0}, {1.0, 1.0}};
    CHECK_FALSE(makePolygon(midEdge, 4, 0.0, out));
    const Vec2 line[3] = {{0.0, 0.0}, {1.0, 1.0}, {2.0, 2.0}};
    CHECK_FALSE(makePolygon(line, 3, 0.0, out));
    const Vec2 nearlyLine[3] = {{0.0, 0.0}, {1.0, 1e-8}, {2.0, 0.0}};  // sin of the turn ≈ 2e-8
    CHECK_FALSE(makePolygon(nearlyLine, 3, 0.0, out));
    const Vec2 duplicate[4] = {{0.0, 0.0}, {1.0, 0.0}, {1.0, 0.0}, {0.0, 1.0}};
    CHECK_FALSE(makePolygon(duplicate, 4, 0.0, out));
    const Vec2 nearDuplicate[4] = {{0.0, 0.0}, {1.0, 0.0}, {1.0, 1e-7}, {0.0, 1.0}};
    CHECK_FALSE(makePolygon(nearDuplicate, 4, 0.0, out));
    const Vec2 two[2] = {{0.0, 0.0}, {1.0, 0.0}};
    CHECK_FALSE(makePolygon(two, 2, 0.0, out));
    Vec2 nine[9];
    for (int i = 0; i < 9; ++i) nine[i] = {std::cos(i * 2.0 * kPi / 9.0), std::sin(i * 2.0 * kPi / 9.0)};
    CHECK_FALSE(makePolygon(nine, 9, 0.0, out));
    const Vec2 triangle[3] = {{0.0, 0.0}, {1.0, 0.0}, {0.0, 1.0}};
    CHECK_FALSE(makePolygon(triangle, 3, -0.1, out));
    CHECK_FALSE(makePolygon(triangle, 3, std::nan(""), out));
    const Vec2 infinite[3] = {{0.0, 0.0}, {INFINITY, 0.0}, {0.0, 1.0}};
    CHECK_FALSE(makePolygon(infinite, 3, 0.0, out));
    CHECK_FALSE(makePolygon(nullptr, 3, 0.0, out));
    CHECK(untouched());

    // A slight but real bend (the level loader's threshold is sin = 1e-5) is accepted.
    const Vec2 slight[3] = {{0.0, 0.0}, {1.0, 2e-5}, {2.0, 0.0}};
    CHECK(makePolygon(slight, 3, 0.0, out));
}

TEST_CASE("bounding boxes of rotated shapes include the radius", "[geometry][aabb]") {
    Transform xf{{1.0, -2.0}, makeRot(kPi / 4.0)};

    Polygon box = makeBox(0.5, 0.25);
    AABB b = computeAABB(box, xf);
    double half = (0.5 + 0.25) / std::sqrt(2.0);
    CHECK(b.lower.x == Approx(1.0 - half));
    CHECK(b.upper.x == Approx(1.0 + half));
    CHECK(b.lower.y == Approx(-2.0 - half));
    CHECK(b.upper.y == Approx(-2.0 + half));

    box.radius = 0.1;
    AABB rounded = computeAABB(box, xf);
    CHECK(rounded.lower.x == Approx(1.0 - half - 0.1));
    CHECK(rounded.upper.y == Approx(-2.0 + half + 0.1));

    // A capsule along local x turned a quarter: it stands up.
    Capsule cap{{-0.25, 0.0}, {0.25, 0.0}, 0.05};
    AABB c = computeAABB(cap, Transform{{3.0, 1.0}, makeRot(kPi / 2.0)});
    CHECK(c.lower.x == Approx(2.95));
    CHECK(c.upper.x == Approx(3.05));
    CHECK(c.lower.y == Approx(0.70));
    CHECK(c.upper.y == Approx(1.30));

    // An off-centre circle moves with the rotation.
    Circle circle{{1.0, 0.0}, 0.2};
    AABB d = computeAABB(circle, Transform{{0.0, 0.0}, makeRot(kPi / 2.0)});
    CHECK(d.lower.x == Approx(-0.2));
    CHECK(d.upper.x == Approx(0.2));
    CHECK(d.lower.y == Approx(0.8));
    CHECK(d.upper.y == Approx(1.2));

    CHECK(overlaps(b, rounded));
    CHECK_FALSE(overlaps(b, c));
}

TEST_CASE("a capsule shape keeps its segment's unit normal on the right of center1 to center2", "[geometry]") {
    // The narrow phase reads the kept normal (collideCapsuleShapes) instead of making it
    // for every pair, so it must be the one the capsule's hull would have.
    const Capsule capsule{{0.1, -0.2}, {0.7, 0.6}, 0.05};
    const Polygon g = capsuleShape(capsule);
    REQUIRE(g.count == 2);
    CHECK(g.vertices[0] == capsule.center1);
    CHECK(g.vertices[1] == capsule.center2);
    CHECK(g.radius == capsule.radius);
    const Vec2 edge = capsule.center2 - capsule.center1;
    CHECK(length(g.normals[0]) == Approx(1.0).margin(1e-15));
    CHECK(dot(g.normals[0], edge) == Approx(0.0).margin(1e-15));
    CHECK(cross(edge, g.normals[0]) < 0.0);  // on the right, as a counter-clockwise polygon's
    CHECK(g.normals[0].x == Approx(0.8));    // (0.6, 0.8) turned right
    CHECK(g.normals[0].y == Approx(-0.6));
    CHECK(g.normals[1] == -g.normals[0]);
    CHECK(g.centroid.x == Approx(0.4));
    CHECK(g.centroid.y == Approx(0.2));
}
