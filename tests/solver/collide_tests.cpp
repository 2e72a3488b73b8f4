// Contact manifolds against hand-worked geometry: for each of the six pairs, separated beyond
// and within the speculative margin, touching and overlapping; capsules lying on faces, ramps
// and steps; deep penetration; box stacking; swapping A and B; rotated frames; degenerate
// input that must not produce NaN.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

#include "solver/collide.h"

using namespace ragdoll;

namespace {

constexpr double kSpeculative = 0.02;  // metres, the margin used unless a test says otherwise
constexpr double kTol = 1e-9;

Transform at(double x, double y, double angle = 0.0) { return {{x, y}, makeRot(angle)}; }

double deg(double degrees) { return degrees * kPi / 180.0; }

/// What every manifold must satisfy: a finite unit normal, separation = (pB − pA)·n, below the
/// margin, and distinct ids.
void checkInvariants(const Manifold& m, double speculative = kSpeculative) {
    REQUIRE(m.pointCount >= 0);
    REQUIRE(m.pointCount <= 2);
    if (m.pointCount == 0) return;
    REQUIRE(isFinite(m.normal));
    CHECK(length(m.normal) == Approx(1.0).margin(1e-12));
    for (int i = 0; i < m.pointCount; ++i) {
        const ManifoldPoint& p = m.points[i];
        REQUIRE(isFinite(p.pointA));
        REQUIRE(isFinite(p.pointB));
        REQUIRE(std::isfinite(p.separation));
        CHECK(p.separation == Approx(dot(p.pointB - p.pointA, m.normal)).margin(1e-12));
        CHECK(p.separation < speculative);
    }
    if (m.pointCount == 2) CHECK(m.points[0].id != m.points[1].id);
}

void checkVec(Vec2 actual, Vec2 expected, double tol = kTol) {
    CHECK(actual.x == Approx(expected.x).margin(tol));
    CHECK(actual.y == Approx(expected.y).margin(tol));
}

/// The manifold's points ordered by x of pointA, so tests need not know the clip order.
Manifold sortedByX(Manifold m) {
    if (m.pointCount == 2 && m.points[1].pointA.x < m.points[0].pointA.x) std::swap(m.points[0], m.points[1]);
    return m;
}

/// A's and B's roles exchanged: the same contact seen from B.
void checkSwapped(const Manifold& ab, const Manifold& ba) {
    REQUIRE(ab.pointCount == ba.pointCount);
    if (ab.pointCount == 0) return;
    checkVec(ba.normal, -ab.normal, 1e-12);
    for (int i = 0; i < ab.pointCount; ++i) {
        // Match by position, the order may differ.
        const ManifoldPoint& p = ab.points[i];
        double best = 1e300;
        int match = 0;
        for (int j = 0; j < ba.pointCount; ++j) {
            double d = distance(p.pointA, ba.points[j].pointB) + distance(p.pointB, ba.points[j].pointA);
            if (d < best) best = d, match = j;
        }
        CHECK(best < 1e-9);
        CHECK(ba.points[match].separation == Approx(p.separation).margin(1e-12));
    }
}

/// The same scene moved and turned as a whole: separations unchanged, geometry carried along.
void checkRigidMotion(const Manifold& m, const Manifold& moved, const Transform& g) {
    REQUIRE(m.pointCount == moved.pointCount);
    if (m.pointCount == 0) return;
    checkVec(moved.normal, rotate(g.q, m.normal), 1e-9);
    Manifold a = m, b = moved;
    for (int i = 0; i < a.pointCount; ++i) {
        a.points[i].pointA = transformPoint(g, a.points[i].pointA);
        a.points[i].pointB = transformPoint(g, a.points[i].pointB);
    }
    if (a.pointCount == 2 && distance(a.points[0].pointA, b.points[0].pointA) > 1e-6) std::swap(b.points[0], b.points[1]);
    for (int i = 0; i < a.pointCount; ++i) {
        checkVec(b.points[i].pointA, a.points[i].pointA, 1e-9);
        checkVec(b.points[i].pointB, a.points[i].pointB, 1e-9);
        CHECK(b.points[i].separation == Approx(a.points[i].separation).margin(1e-9));
        CHECK(b.points[i].id == a.points[i].id);
    }
}

Transform compose(const Transform& g, const Transform& xf) {
    return {transformPoint(g, xf.p), Rot{g.q.c * xf.q.c - g.q.s * xf.q.s, g.q.s * xf.q.c + g.q.c * xf.q.s}};
}

const Transform kMotion{{-3.7, 12.5}, makeRot(2.1)};

}  // namespace

// ---------------------------------------------------------------------------------------------
// Circles

TEST_CASE("circles: separated, within the margin, touching, overlapping", "[collide][circle]") {
    Circle a{{0.0, 0.0}, 0.5};
    Circle b{{0.0, 0.0}, 0.25};

    CHECK(collideCircles(a, at(0, 0), b, at(0.8, 0.0), 0.02).pointCount == 0);  // gap 0.05

    Manifold near = collideCircles(a, at(0, 0), b, at(0.8, 0.0), 0.1);
    checkInvariants(near, 0.1);
    REQUIRE(near.pointCount == 1);
    CHECK(near.points[0].separation == Approx(0.05).margin(kTol));
    checkVec(near.normal, {1.0, 0.0});
    checkVec(near.points[0].pointA, {0.5, 0.0});
    checkVec(near.points[0].pointB, {0.55, 0.0});

    Manifold touching = collideCircles(a, at(0, 0), b, at(0.0, 0.75), kSpeculative);
    REQUIRE(touching.pointCount == 1);
    CHECK(touching.points[0].separation == Approx(0.0).margin(kTol));
    checkVec(touching.normal, {0.0, 1.0});

    // Overlapping by 0.1 along (0.6, 0.8), with local centres and turned bodies.
    Circle offA{{0.1, 0.0}, 0.5};
    Circle offB{{0.0, 0.2}, 0.25};
    Transform xfA = at(1.0, 1.0, kPi / 2.0);    // A's centre at (1, 1.1)
    Transform xfB = at(1.39 + 0.2, 1.62, kPi / 2.0);  // B's centre at (1.39, 1.62)
    Manifold deep = collideCircles(offA, xfA, offB, xfB, kSpeculative);
    checkInvariants(deep);
    REQUIRE(deep.pointCount == 1);
    CHECK(deep.points[0].separation == Approx(-0.1).margin(kTol));
    checkVec(deep.normal, {0.6, 0.8});
    checkVec(deep.points[0].pointA, {1.0 + 0.3, 1.1 + 0.4});

    checkSwapped(deep, collideCircles(offB, xfB, offA, xfA, kSpeculative));
    checkRigidMotion(deep, collideCircles(offA, compose(kMotion, xfA), offB, compose(kMotion, xfB), kSpeculative),
                     kMotion);
}

TEST_CASE("circles with coincident centres get a finite normal", "[collide][circle][degenerate]") {
    Manifold m = collideCircles(Circle{{}, 0.3}, at(2, 3, 1.0), Circle{{}, 0.2}, at(2, 3), kSpeculative);
    checkInvariants(m);
    REQUIRE(m.pointCount == 1);
    CHECK(m.points[0].separation == Approx(-0.5));
    checkVec(m.normal, {0.0, 1.0});
    Manifold zero = collideCircles(Circle{{}, 0.0}, at(0, 0), Circle{{}, 0.0}, at(0, 0), kSpeculative);
    checkInvariants(zero);
    CHECK(zero.pointCount == 1);
}

// ---------------------------------------------------------------------------------------------
// Capsule and circle

TEST_CASE("capsule and circle: side, end, margin and overlap", "[collide][capsule][circle]") {
    Capsule cap{{-0.25, 0.0}, {0.25, 0.0}, 0.05};
    Circle ball{{0.0, 0.0}, 0.1};

    CHECK(collideCapsuleAndCircle(cap, at(0, 0), ball, at(0.1, 0.2), kSpeculative).pointCount == 0);  // gap 0.05

    Manifold side = collideCapsuleAndCircle(cap, at(0, 0), ball, at(0.1, 0.16), kSpeculative);
    checkInvariants(side);
    REQUIRE(side.pointCount == 1);
    CHECK(side.points[0].separation == Approx(0.01).margin(kTol));
    checkVec(side.normal, {0.0, 1.0});
    checkVec(side.points[0].pointA, {0.1, 0.05});
    checkVec(side.points[0].pointB, {0.1, 0.06});

    // Beyond the end: the normal points from the end centre to the ball along (0.6, 0.8).
    Manifold end = collideCapsuleAndCircle(cap, at(0, 0), ball, at(0.25 + 0.084, 0.112), kSpeculative);
    checkInvariants(end);
    REQUIRE(end.pointCount == 1);
    CHECK(end.points[0].separation == Approx(0.14 - 0.15).margin(kTol));
    checkVec(end.normal, {0.6, 0.8});

    // Turned capsule (standing up), ball touching its side at x = -0.15.
    Manifold turned = collideCapsuleAndCircle(cap, at(1.0, 1.0, kPi / 2.0), ball, at(0.85, 1.1), kSpeculative);
    checkInvariants(turned);
    REQUIRE(turned.pointCount == 1);
    CHECK(turned.points[0].separation == Approx(0.0).margin(kTol));
    checkVec(turned.normal, {-1.0, 0.0});
    checkVec(turned.points[0].pointA, {0.95, 1.1});

    checkRigidMotion(end,
                     collideCapsuleAndCircle(cap, compose(kMotion, at(0, 0)), ball,
                                             compose(kMotion, at(0.25 + 0.084, 0.112)), kSpeculative),
                     kMotion);
}

TEST_CASE("capsule and circle: degenerate capsule and centre on the segment", "[collide][capsule][degenerate]") {
    Capsule point{{0.1, 0.1}, {0.1, 0.1}, 0.2};
    Manifold m = collideCapsuleAndCircle(point, at(0, 0), Circle{{}, 0.1}, at(0.1, 0.35), kSpeculative);
    checkInvariants(m);
    REQUIRE(m.pointCount == 1);
    CHECK(m.points[0].separation == Approx(-0.05).margin(kTol));
    checkVec(m.normal, {0.0, 1.0});

    Capsule cap{{-0.25, 0.0}, {0.25, 0.0}, 0.05};
    Manifold onAxis = collideCapsuleAndCircle(cap, at(0, 0, 0.3), Circle{{}, 0.1}, at(0, 0), kSpeculative);
    checkInvariants(onAxis);
    REQUIRE(onAxis.pointCount == 1);
    CHECK(onAxis.points[0].separation == Approx(-0.15).margin(kTol));
    CHECK(std::abs(dot(onAxis.normal, Vec2{std::cos(0.3), std::sin(0.3)})) < 1e-12);  // out through the side
}

// ---------------------------------------------------------------------------------------------
// Polygon and circle

TEST_CASE("polygon and circle: face, corner, margin, deep inside, rounded polygon", "[collide][polygon][circle]") {
    Polygon box = makeBox(1.0, 0.5);
    Circle ball{{0.0, 0.0}, 0.1};

    CHECK(collidePolygonAndCircle(box, at(0, 0), ball, at(0.3, 0.63), kSpeculative).pointCount == 0);

    Manifold face = collidePolygonAndCircle(box, at(0, 0), ball, at(0.3, 0.61), kSpeculative);
    checkInvariants(face);
    REQUIRE(face.pointCount == 1);
    CHECK(face.points[0].separation == Approx(0.01).margin(kTol));
    checkVec(face.normal, {0.0, 1.0});
    checkVec(face.points[0].pointA, {0.3, 0.5});

    Manifold touching = collidePolygonAndCircle(box, at(0, 0), ball, at(-1.1, 0.0), kSpeculative);
    REQUIRE(touching.pointCount == 1);
    CHECK(touching.points[0].separation == Approx(0.0).margin(kTol));
    checkVec(touching.normal, {-1.0, 0.0});

    // Off the corner (1, 0.5) along (0.6, 0.8): at distance 0.12 the separation 0.02 is not
    // below the 0.02 margin; at 0.11 it is 0.01.
    CHECK(collidePolygonAndCircle(box, at(0, 0), ball, at(1.072, 0.596), 0.02).pointCount == 0);
    Manifold corner = collidePolygonAndCircle(box, at(0, 0), ball, at(1.066, 0.588), kSpeculative);
    checkInvariants(corner);
    REQUIRE(corner.pointCount == 1);
    CHECK(corner.points[0].separation == Approx(0.11 - 0.1).margin(kTol));
    checkVec(corner.normal, {0.6, 0.8});
    checkVec(corner.points[0].pointA, {1.0, 0.5});

    // Centre inside, 0.2 below the top and 0.4 from the right: out through the top.
    Manifold deep = collidePolygonAndCircle(box, at(0, 0), ball, at(0.6, 0.3), kSpeculative);
    checkInvariants(deep);
    REQUIRE(deep.pointCount == 1);
    checkVec(deep.normal, {0.0, 1.0});
    CHECK(deep.points[0].separation == Approx(-0.3).margin(kTol));
    checkVec(deep.points[0].pointA, {0.6, 0.5});

    // Rounded box turned 30°: the ball above its top face, 0.03 off the rounded surface.
    Polygon rounded = makeBox(1.0, 0.5);
    rounded.radius = 0.05;
    Transform xf = at(2.0, -1.0, deg(30.0));
    Vec2 n = rotate(xf.q, {0.0, 1.0});
    Manifold r = collidePolygonAndCircle(rounded, xf, ball, {xf.p + (0.5 + 0.05 + 0.1 + 0.01) * n, {}}, kSpeculative);
    checkInvariants(r);
    REQUIRE(r.pointCount == 1);
    CHECK(r.points[0].separation == Approx(0.01).margin(kTol));
    checkVec(r.normal, n);
    checkVec(r.points[0].pointA, xf.p + 0.55 * n);

    checkRigidMotion(corner,
                     collidePolygonAndCircle(box, compose(kMotion, at(0, 0)), ball, compose(kMotion, at(1.066, 0.588)),
                                             kSpeculative),
                     kMotion);
}

TEST_CASE("polygon and circle: centre on a vertex or at the middle stays finite", "[collide][polygon][degenerate]") {
    Polygon box = makeBox(0.5, 0.5);
    for (Vec2 c : {Vec2{0.5, 0.5}, Vec2{0.0, 0.0}, Vec2{0.5, 0.0}}) {
        Manifold m = collidePolygonAndCircle(box, at(0, 0), Circle{{}, 0.1}, {c, {}}, kSpeculative);
        checkInvariants(m);
        CHECK(m.pointCount == 1);
    }
}

// ---------------------------------------------------------------------------------------------
// Capsules

TEST_CASE("capsules lying parallel get two points with the gap as separation", "[collide][capsule]") {
    Capsule cap{{-0.25, 0.0}, {0.25, 0.0}, 0.05};

    // B 0.1 to the right, its core 0.098 above: overlapping by 0.002 along [-0.15, 0.25].
    Manifold m = sortedByX(collideCapsules(cap, at(0, 0), cap, at(0.1, 0.098), kSpeculative));
    checkInvariants(m);
    REQUIRE(m.pointCount == 2);
    checkVec(m.normal, {0.0, 1.0});
    CHECK(m.points[0].separation == Approx(-0.002).margin(kTol));
    CHECK(m.points[1].separation == Approx(-0.002).margin(kTol));
    checkVec(m.points[0].pointA, {-0.15, 0.05});
    checkVec(m.points[1].pointA, {0.25, 0.05});
    checkVec(m.points[0].pointB, {-0.15, 0.048});

    // Within the margin, and beyond it.
    Manifold near = collideCapsules(cap, at(0, 0), cap, at(0.1, 0.11), kSpeculative);
    checkInvariants(near);
    REQUIRE(near.pointCount == 2);
    CHECK(near.points[0].separation == Approx(0.01).margin(kTol));
    CHECK(collideCapsules(cap, at(0, 0), cap, at(0.1, 0.121), kSpeculative).pointCount == 0);

    // Touching, both turned 40°.
    Transform xfA = at(1.0, 2.0, deg(40.0));
    Vec2 side = rotate(xfA.q, {0.0, 1.0});
    Manifold t = collideCapsules(cap, xfA, cap, {xfA.p + 0.1 * side, xfA.q}, kSpeculative);
    checkInvariants(t);
    REQUIRE(t.pointCount == 2);
    checkVec(t.normal, side);
    CHECK(t.points[0].separation == Approx(0.0).margin(kTol));
    CHECK(t.points[1].separation == Approx(0.0).margin(kTol));

    checkSwapped(m, collideCapsules(cap, at(0.1, 0.098), cap, at(0, 0), kSpeculative));
    checkRigidMotion(m, collideCapsules(cap, compose(kMotion, at(0, 0)), cap, compose(kMotion, at(0.1, 0.098)),
                                        kSpeculative),
                     kMotion);
}

TEST_CASE("capsules crossing, standing on each other and end to end", "[collide][capsule]") {
    Capsule cap{{-0.25, 0.0}, {0.25, 0.0}, 0.05};
    Capsule upright{{0.0, -0.2}, {0.0, 0.2}, 0.05};

    // X: B's core crosses A's from y = -0.1 to 0.3; the least push is B up by 0.1 + radii.
    Manifold x = collideCapsules(cap, at(0, 0), upright, at(0.1, 0.1), kSpeculative);
    checkInvariants(x);
    REQUIRE(x.pointCount == 1);
    checkVec(x.normal, {0.0, 1.0});
    CHECK(x.points[0].separation == Approx(-0.2).margin(kTol));
    checkVec(x.points[0].pointB, {0.1, -0.15});
    checkSwapped(x, collideCapsules(upright, at(0.1, 0.1), cap, at(0, 0), kSpeculative));

    // T: B stands on A, its lower end 0.002 into A's surface.
    Manifold stand = collideCapsules(cap, at(0, 0), upright, at(0.1, 0.298), kSpeculative);
    checkInvariants(stand);
    REQUIRE(stand.pointCount == 1);
    checkVec(stand.normal, {0.0, 1.0});
    CHECK(stand.points[0].separation == Approx(-0.002).margin(kTol));
    checkVec(stand.points[0].pointA, {0.1, 0.05});
    checkSwapped(stand, collideCapsules(upright, at(0.1, 0.298), cap, at(0, 0), kSpeculative));

    // Tilted 10° on A: one point at the low end.
    Capsule leaning{{0.0, 0.0}, {0.5, 0.0}, 0.05};
    Manifold tilt = collideCapsules(cap, at(0, 0), leaning, at(-0.2, 0.1, deg(10.0)), kSpeculative);
    checkInvariants(tilt);
    REQUIRE(tilt.pointCount == 1);
    CHECK(tilt.points[0].separation == Approx(0.0).margin(kTol));
    checkVec(tilt.normal, {0.0, 1.0});
    checkSwapped(tilt, collideCapsules(leaning, at(-0.2, 0.1, deg(10.0)), cap, at(0, 0), kSpeculative));

    // End to end on one line: SAT on the normals sees no gap, the ends are 0.08 apart.
    Manifold ends = collideCapsules(cap, at(0, 0), cap, at(0.58, 0.0), kSpeculative);
    checkInvariants(ends);
    REQUIRE(ends.pointCount == 1);
    checkVec(ends.normal, {1.0, 0.0});
    CHECK(ends.points[0].separation == Approx(-0.02).margin(kTol));
    checkVec(ends.points[0].pointA, {0.30, 0.0});
    CHECK(collideCapsules(cap, at(0, 0), cap, at(0.65, 0.0), kSpeculative).pointCount == 0);
    CHECK(collideCapsules(cap, at(0, 0), cap, at(20.0, 0.0), kSpeculative).pointCount == 0);

    // End caps meeting on a diagonal: (0.25, 0) to (0.31, 0.08), 0.1 apart.
    Manifold diagonal = collideCapsules(cap, at(0, 0), cap, at(0.56, 0.08), kSpeculative);
    checkInvariants(diagonal);
    REQUIRE(diagonal.pointCount == 1);
    checkVec(diagonal.normal, {0.6, 0.8});
    CHECK(diagonal.points[0].separation == Approx(0.0).margin(kTol));
    checkSwapped(diagonal, collideCapsules(cap, at(0.56, 0.08), cap, at(0, 0), kSpeculative));

    checkRigidMotion(tilt, collideCapsules(cap, compose(kMotion, at(0, 0)), leaning,
                                           compose(kMotion, at(-0.2, 0.1, deg(10.0))), kSpeculative),
                     kMotion);
}

TEST_CASE("capsules: zero length and coincident stay finite", "[collide][capsule][degenerate]") {
    Capsule dot0{{0.0, 0.0}, {0.0, 0.0}, 0.1};
    Capsule cap{{-0.25, 0.0}, {0.25, 0.0}, 0.05};

    Manifold ab = collideCapsules(cap, at(0, 0), dot0, at(0.1, 0.14), kSpeculative);
    checkInvariants(ab);
    REQUIRE(ab.pointCount == 1);
    CHECK(ab.points[0].separation == Approx(-0.01).margin(kTol));
    checkVec(ab.normal, {0.0, 1.0});
    checkSwapped(ab, collideCapsules(dot0, at(0.1, 0.14), cap, at(0, 0), kSpeculative));

    Manifold both = collideCapsules(dot0, at(0, 0), dot0, at(0, 0), kSpeculative);
    checkInvariants(both);
    CHECK(both.pointCount == 1);
    CHECK(both.points[0].separation == Approx(-0.2));

    Manifold same = collideCapsules(cap, at(1, 1, 0.4), cap, at(1, 1, 0.4), kSpeculative);
    checkInvariants(same);
    CHECK(same.pointCount == 2);
    CHECK(same.points[0].separation == Approx(-0.1).margin(kTol));
}

namespace {

/// The ids of a manifold's points, in the order of x of pointA (sortedByX).
std::vector<std::uint32_t> idsByX(const Manifold& m) {
    Manifold s = sortedByX(m);
    std::vector<std::uint32_t> ids;
    for (int i = 0; i < s.pointCount; ++i) ids.push_back(s.points[i].id);
    return ids;
}

}  // namespace

TEST_CASE("capsules nearly parallel and overlapping: two points clipped to the overlap", "[collide][capsule]") {
    Capsule cap{{-0.25, 0.0}, {0.25, 0.0}, 0.05};
    Capsule leaning{{0.0, 0.0}, {0.5, 0.0}, 0.05};

    // B from x = -0.2, its far end risen 10 mm over its 0.5 m: A's face is the reference (its
    // separation 0.1 against B's 0.099), B clipped to A's end at x = 0.25, where its core is
    // 0.1 + 0.45·tan θ above A's.
    double angle = std::asin(0.02);
    Manifold m = sortedByX(collideCapsules(cap, at(0, 0), leaning, at(-0.2, 0.1, angle), kSpeculative));
    checkInvariants(m);
    REQUIRE(m.pointCount == 2);
    checkVec(m.normal, {0.0, 1.0});
    CHECK(m.points[0].separation == Approx(0.0).margin(kTol));
    CHECK(m.points[1].separation == Approx(0.45 * std::tan(angle)).margin(kTol));
    checkVec(m.points[0].pointA, {-0.2, 0.05});
    checkVec(m.points[0].pointB, {-0.2, 0.05});
    checkVec(m.points[1].pointA, {0.25, 0.05});
    checkVec(m.points[1].pointB, {0.25, 0.05 + 0.45 * std::tan(angle)});
    checkSwapped(m, collideCapsules(leaning, at(-0.2, 0.1, angle), cap, at(0, 0), kSpeculative));

    // 2 mm into each other, the same tilt: the same points 2 mm deeper.
    Manifold deep = sortedByX(collideCapsules(cap, at(0, 0), leaning, at(-0.2, 0.098, angle), kSpeculative));
    checkInvariants(deep);
    REQUIRE(deep.pointCount == 2);
    CHECK(deep.points[0].separation == Approx(-0.002).margin(kTol));
    CHECK(deep.points[1].separation == Approx(-0.002 + 0.45 * std::tan(angle)).margin(kTol));

    // Risen 50 mm: the far end is 45 mm off A, beyond the margin, so one point at the low end.
    Manifold steep = collideCapsules(cap, at(0, 0), leaning, at(-0.2, 0.1, std::asin(0.1)), kSpeculative);
    checkInvariants(steep);
    REQUIRE(steep.pointCount == 1);
    CHECK(steep.points[0].separation == Approx(0.0).margin(kTol));
    checkVec(steep.points[0].pointA, {-0.2, 0.05});

    // Overlapping along a quarter of their length only: clipped to B's start and A's end.
    Manifold shifted = sortedByX(collideCapsules(cap, at(0, 0), cap, at(0.375, 0.099), kSpeculative));
    checkInvariants(shifted);
    REQUIRE(shifted.pointCount == 2);
    checkVec(shifted.points[0].pointA, {0.125, 0.05});
    checkVec(shifted.points[1].pointA, {0.25, 0.05});
    CHECK(shifted.points[0].separation == Approx(-0.001).margin(kTol));
    CHECK(shifted.points[1].separation == Approx(-0.001).margin(kTol));
}

TEST_CASE("capsules at an angle meet at one point, at their segments' closest points", "[collide][capsule]") {
    Capsule cap{{-0.25, 0.0}, {0.25, 0.0}, 0.05};
    Capsule stick{{0.0, 0.0}, {0.4, 0.0}, 0.04};

    // B leaning at 60°, its start 0.085 above A's core: its end cap on A's side, 5 mm deep.
    Manifold onSide = collideCapsules(cap, at(0, 0), stick, at(0.1, 0.085, deg(60.0)), kSpeculative);
    checkInvariants(onSide);
    REQUIRE(onSide.pointCount == 1);
    checkVec(onSide.normal, {0.0, 1.0});
    CHECK(onSide.points[0].separation == Approx(-0.005).margin(kTol));
    checkVec(onSide.points[0].pointA, {0.1, 0.05});
    checkVec(onSide.points[0].pointB, {0.1, 0.045});
    checkSwapped(onSide, collideCapsules(stick, at(0.1, 0.085, deg(60.0)), cap, at(0, 0), kSpeculative));

    // B steep past A's end: A's end cap meets B's side. B's core runs through (0.3, 0) at
    // 80°; A's end (0.25, 0) lies 0.05·sin 80° from that line.
    Transform xfB = at(0.3 - 0.2 * std::cos(deg(80.0)), -0.2 * std::sin(deg(80.0)), deg(80.0));
    Manifold past = collideCapsules(cap, at(0, 0), stick, xfB, kSpeculative);
    checkInvariants(past);
    REQUIRE(past.pointCount == 1);
    Vec2 n{std::sin(deg(80.0)), -std::cos(deg(80.0))};  // B's normal, away from A
    checkVec(past.normal, n);
    double gap = 0.05 * std::sin(deg(80.0));
    CHECK(past.points[0].separation == Approx(gap - 0.09).margin(kTol));
    checkVec(past.points[0].pointA, Vec2{0.25, 0.0} + 0.05 * n);
    checkVec(past.points[0].pointB, Vec2{0.25, 0.0} + (gap - 0.04) * n);
    checkSwapped(past, collideCapsules(stick, xfB, cap, at(0, 0), kSpeculative));
    checkRigidMotion(past, collideCapsules(cap, compose(kMotion, at(0, 0)), stick, compose(kMotion, xfB), kSpeculative),
                     kMotion);
}

TEST_CASE("capsules end to end and at the edge of the speculative margin", "[collide][capsule]") {
    Capsule cap{{-0.25, 0.0}, {0.25, 0.0}, 0.05};

    // End caps on a diagonal, 0.1 + 0.0199 between the ends' centres: in reach, one point
    // along the gap; 0.0201: out of it.
    Vec2 dir{0.6, 0.8};
    Manifold in = collideCapsules(cap, at(0, 0), cap, at(0.5 + 0.1199 * dir.x, 0.1199 * dir.y), kSpeculative);
    checkInvariants(in);
    REQUIRE(in.pointCount == 1);
    checkVec(in.normal, dir);
    CHECK(in.points[0].separation == Approx(0.0199).margin(kTol));
    checkVec(in.points[0].pointA, Vec2{0.25, 0.0} + 0.05 * dir);
    checkVec(in.points[0].pointB, Vec2{0.25, 0.0} + 0.0699 * dir);
    CHECK(collideCapsules(cap, at(0, 0), cap, at(0.5 + 0.1201 * dir.x, 0.1201 * dir.y), kSpeculative).pointCount == 0);

    // Side by side, the same: two points at 0.0199, none at 0.0201.
    Manifold side = collideCapsules(cap, at(0, 0), cap, at(0.2, 0.1199), kSpeculative);
    checkInvariants(side);
    REQUIRE(side.pointCount == 2);
    CHECK(side.points[0].separation == Approx(0.0199).margin(kTol));
    CHECK(side.points[1].separation == Approx(0.0199).margin(kTol));
    CHECK(collideCapsules(cap, at(0, 0), cap, at(0.2, 0.1201), kSpeculative).pointCount == 0);

    // A larger margin (a fast pair) reaches further.
    CHECK(collideCapsules(cap, at(0, 0), cap, at(0.2, 0.1201), 0.05).pointCount == 2);

    // Collinear, overlapping by 2 cm at the caps: one point on the axis.
    Manifold ends = collideCapsules(cap, at(0, 0), cap, at(0.58, 0.0), kSpeculative);
    checkInvariants(ends);
    REQUIRE(ends.pointCount == 1);
    checkVec(ends.normal, {1.0, 0.0});
    CHECK(ends.points[0].separation == Approx(-0.02).margin(kTol));
}

TEST_CASE("capsule contacts keep their ids while the pair moves a little", "[collide][capsule]") {
    // Warm starting matches a contact's points by id when its manifold is found again, so the
    // same touching features must keep their ids, and a manifold's two points differ.
    Capsule cap{{-0.25, 0.0}, {0.25, 0.0}, 0.05};
    Capsule upright{{0.0, -0.2}, {0.0, 0.2}, 0.05};
    struct Case {
        const char* name;
        Capsule b;
        Transform xfB;
        int points;
    };
    const Case cases[] = {
        {"lying on A", cap, at(0.1, 0.098), 2},
        {"lying on A, apart", cap, at(0.1, 0.11), 2},
        {"standing on A", upright, at(0.1, 0.298), 1},
        {"crossing A", upright, at(0.1, 0.1), 1},
        {"end caps meeting", cap, at(0.56, 0.08), 1},
        {"B's side under A's end", upright, at(0.3, -0.1, deg(-5.0)), 1},
    };
    for (const Case& c : cases) {
        INFO(c.name);
        Manifold before = collideCapsules(cap, at(0, 0), c.b, c.xfB, kSpeculative);
        checkInvariants(before);
        REQUIRE(before.pointCount == c.points);
        for (double step : {-1.0, 1.0}) {
            // 1 mm and a third of a degree, either way; A turned a little too.
            Transform moved{c.xfB.p + Vec2{0.001 * step, 0.0005 * step}, makeRot(std::atan2(c.xfB.q.s, c.xfB.q.c) + deg(0.3) * step)};
            Manifold after = collideCapsules(cap, at(0, 0, deg(0.2) * step), c.b, moved, kSpeculative);
            checkInvariants(after);
            REQUIRE(after.pointCount == c.points);
            CHECK(idsByX(after) == idsByX(before));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Polygon and capsule

TEST_CASE("a capsule lying on a box face gets both ends, a tilted one only the low end", "[collide][capsule][polygon]") {
    Polygon box = makeBox(1.0, 0.5);  // top face at y = 0.5
    Capsule cap{{-0.25, 0.0}, {0.25, 0.0}, 0.05};

    Manifold rest = sortedByX(collidePolygonAndCapsule(box, at(0, 0), cap, at(0.0, 0.548), kSpeculative));
    checkInvariants(rest);
    REQUIRE(rest.pointCount == 2);
    checkVec(rest.normal, {0.0, 1.0}, 1e-12);
    CHECK(rest.points[0].separation == Approx(-0.002).margin(kTol));
    CHECK(rest.points[1].separation == Approx(-0.002).margin(kTol));
    checkVec(rest.points[0].pointA, {-0.25, 0.5});
    checkVec(rest.points[0].pointB, {-0.25, 0.498});
    checkVec(rest.points[1].pointA, {0.25, 0.5});

    // Within the margin, touching, beyond the margin.
    Manifold hover = collidePolygonAndCapsule(box, at(0, 0), cap, at(0.3, 0.56), kSpeculative);
    checkInvariants(hover);
    REQUIRE(hover.pointCount == 2);
    CHECK(hover.points[0].separation == Approx(0.01).margin(kTol));
    CHECK(hover.points[1].separation == Approx(0.01).margin(kTol));
    Manifold touching = collidePolygonAndCapsule(box, at(0, 0), cap, at(0.3, 0.55), kSpeculative);
    REQUIRE(touching.pointCount == 2);
    CHECK(touching.points[0].separation == Approx(0.0).margin(kTol));
    CHECK(collidePolygonAndCapsule(box, at(0, 0), cap, at(0.3, 0.571), kSpeculative).pointCount == 0);

    // Tilted 10° with the low end 0.002 in: the high end is 0.5·sin 10° ≈ 0.087 up, out of the margin.
    double lift = 0.25 * std::sin(deg(10.0));
    Manifold tilt = collidePolygonAndCapsule(box, at(0, 0), cap, at(0.0, 0.548 + lift, deg(10.0)), kSpeculative);
    checkInvariants(tilt);
    REQUIRE(tilt.pointCount == 1);
    checkVec(tilt.normal, {0.0, 1.0}, 1e-12);
    CHECK(tilt.points[0].separation == Approx(-0.002).margin(kTol));
    checkVec(tilt.points[0].pointA, {-0.25 * std::cos(deg(10.0)), 0.5});

    // 1° is within the angle the margin allows (asin(0.02 / 0.5) ≈ 2.3°): both ends, the high one
    // at its true height.
    double lift1 = 0.25 * std::sin(deg(1.0));
    Manifold slight = sortedByX(collidePolygonAndCapsule(box, at(0, 0), cap, at(0.0, 0.548 + lift1, deg(1.0)),
                                                         kSpeculative));
    checkInvariants(slight);
    REQUIRE(slight.pointCount == 2);
    CHECK(slight.points[0].separation == Approx(-0.002).margin(kTol));
    CHECK(slight.points[1].separation == Approx(-0.002 + 2.0 * lift1).margin(kTol));

    checkRigidMotion(rest, collidePolygonAndCapsule(box, compose(kMotion, at(0, 0)), cap,
                                                    compose(kMotion, at(0.0, 0.548)), kSpeculative),
                     kMotion);
    checkRigidMotion(tilt, collidePolygonAndCapsule(box, compose(kMotion, at(0, 0)), cap,
                                                    compose(kMotion, at(0.0, 0.548 + lift, deg(10.0))), kSpeculative),
                     kMotion);
}

TEST_CASE("a capsule on a 20° ramp gets two points along the ramp's normal", "[collide][capsule][polygon]") {
    const double slope = deg(20.0);
    Vec2 n{-std::sin(slope), std::cos(slope)};
    Vec2 along{std::cos(slope), std::sin(slope)};
    Capsule cap{{-0.25, 0.0}, {0.25, 0.0}, 0.05};

    // A triangle ramp in the world frame; the capsule rests mid-slope, 0.002 into it.
    const Vec2 pts[3] = {{0.0, 0.0}, {3.0, 0.0}, {3.0, 3.0 * std::tan(slope)}};
    Polygon ramp;
    REQUIRE(makePolygon(pts, 3, 0.0, ramp));
    Vec2 mid{1.5, 1.5 * std::tan(slope)};
    Manifold m = collidePolygonAndCapsule(ramp, at(0, 0), cap, {mid + 0.048 * n, makeRot(slope)}, kSpeculative);
    checkInvariants(m);
    REQUIRE(m.pointCount == 2);
    checkVec(m.normal, n, 1e-12);
    CHECK(m.points[0].separation == Approx(-0.002).margin(kTol));
    CHECK(m.points[1].separation == Approx(-0.002).margin(kTol));
    double s0 = dot(m.points[0].pointA - mid, along), s1 = dot(m.points[1].pointA - mid, along);
    CHECK(std::min(s0, s1) == Approx(-0.25).margin(kTol));
    CHECK(std::max(s0, s1) == Approx(0.25).margin(kTol));

    // The same ramp as a turned box on a moved body.
    Polygon slab = makeBox(2.0, 0.3);
    Transform xf = at(5.0, 1.0, slope);
    Manifold b = collidePolygonAndCapsule(slab, xf, cap, {xf.p + (0.3 + 0.048) * n + 0.7 * along, xf.q}, kSpeculative);
    checkInvariants(b);
    REQUIRE(b.pointCount == 2);
    checkVec(b.normal, n, 1e-12);
    CHECK(b.points[0].separation == Approx(-0.002).margin(kTol));
    CHECK(b.points[1].separation == Approx(-0.002).margin(kTol));
}

TEST_CASE("a capsule across a narrow step rests on the step's corners", "[collide][capsule][polygon]") {
    Polygon step = makeBox(0.1, 0.5);  // 0.2 wide, top at y = 0.5
    Capsule cap{{-0.25, 0.0}, {0.25, 0.0}, 0.05};
    Manifold m = sortedByX(collidePolygonAndCapsule(step, at(0, 0), cap, at(0.0, 0.549), kSpeculative));
    checkInvariants(m);
    REQUIRE(m.pointCount == 2);
    checkVec(m.normal, {0.0, 1.0}, 1e-12);
    checkVec(m.points[0].pointA, {-0.1, 0.5});
    checkVec(m.points[1].pointA, {0.1, 0.5});
    CHECK(m.points[0].separation == Approx(-0.001).margin(kTol));
}

TEST_CASE("a capsule past a box's corner meets it corner to corner", "[collide][capsule][polygon]") {
    Polygon box = makeBox(0.5, 0.5);
    Capsule cap{{0.0, 0.0}, {0.5, 0.0}, 0.05};
    // Its left end centre at (0.53, 0.54): 0.05 from the corner (0.5, 0.5) along (0.6, 0.8).
    Manifold m = collidePolygonAndCapsule(box, at(0, 0), cap, at(0.53, 0.54), kSpeculative);
    checkInvariants(m);
    REQUIRE(m.pointCount == 1);
    checkVec(m.normal, {0.6, 0.8});
    CHECK(m.points[0].separation == Approx(0.0).margin(kTol));
    checkVec(m.points[0].pointA, {0.5, 0.5});
    checkVec(m.points[0].pointB, {0.5, 0.5});
    // A rounded box reaches 0.02 further.
    Polygon rounded = box;
    rounded.radius = 0.02;
    Manifold r = collidePolygonAndCapsule(rounded, at(0, 0), cap, at(0.53, 0.54), kSpeculative);
    REQUIRE(r.pointCount == 1);
    CHECK(r.points[0].separation == Approx(-0.02).margin(kTol));
    checkVec(r.points[0].pointA, {0.512, 0.516});
}

TEST_CASE("a capsule deep inside a box leaves through the shallowest face", "[collide][capsule][polygon]") {
    Polygon box = makeBox(1.0, 0.6);
    Capsule upright{{0.0, -0.2}, {0.0, 0.2}, 0.05};
    // Core 0.25 from the right face, 0.4 from top and bottom, 1.75 from the left.
    Manifold m = collidePolygonAndCapsule(box, at(0, 0), upright, at(0.75, 0.0), kSpeculative);
    checkInvariants(m);
    REQUIRE(m.pointCount == 2);
    checkVec(m.normal, {1.0, 0.0}, 1e-12);
    CHECK(m.points[0].separation == Approx(-0.3).margin(kTol));
    CHECK(m.points[1].separation == Approx(-0.3).margin(kTol));
    CHECK(m.points[0].pointA.x == Approx(1.0).margin(kTol));

    // Lying near the top: 0.15 deep.
    Capsule flat{{-0.25, 0.0}, {0.25, 0.0}, 0.05};
    Manifold top = collidePolygonAndCapsule(box, at(0, 0), flat, at(-0.2, 0.45), kSpeculative);
    checkInvariants(top);
    REQUIRE(top.pointCount == 2);
    checkVec(top.normal, {0.0, 1.0}, 1e-12);
    CHECK(top.points[0].separation == Approx(-0.2).margin(kTol));

    // Turned box and capsule, the same answer turned.
    checkRigidMotion(m, collidePolygonAndCapsule(box, compose(kMotion, at(0, 0)), upright,
                                                 compose(kMotion, at(0.75, 0.0)), kSpeculative),
                     kMotion);
}

TEST_CASE("polygon and capsule: zero-length capsule is a circle", "[collide][capsule][polygon][degenerate]") {
    Polygon box = makeBox(1.0, 0.5);
    Capsule dot0{{0.0, 0.0}, {0.0, 0.0}, 0.1};
    Manifold m = collidePolygonAndCapsule(box, at(0, 0), dot0, at(0.3, 0.59), kSpeculative);
    checkInvariants(m);
    REQUIRE(m.pointCount == 1);
    CHECK(m.points[0].separation == Approx(-0.01).margin(kTol));
    Manifold inside = collidePolygonAndCapsule(box, at(0, 0), dot0, at(0, 0), kSpeculative);
    checkInvariants(inside);
    CHECK(inside.pointCount == 1);
    Capsule tiny{{0.0, 0.0}, {1e-10, 0.0}, 0.1};
    Manifold t = collidePolygonAndCapsule(box, at(0, 0), tiny, at(0, 0), kSpeculative);
    checkInvariants(t);
    CHECK(t.pointCount == 1);
    // A capsule exactly along a box edge line, centred on the box: finite.
    Capsule spine{{-1.0, 0.0}, {1.0, 0.0}, 0.05};
    Manifold s = collidePolygonAndCapsule(box, at(0, 0), spine, at(0, 0.5), kSpeculative);
    checkInvariants(s);
    CHECK(s.pointCount == 2);
}

// ---------------------------------------------------------------------------------------------
// Polygons

TEST_CASE("crates of one width stacked square meet at both corners of their faces when apart too", "[collide][polygon]") {
    // Parallel faces whose ends line up are closest at a pair of ends straight across: a face
    // over a face, two points. Taken for corner against corner, it was one point at one end,
    // and the upper crate was pushed up at one corner and tilted. Capsules side by side, their
    // ends level, the same.
    Polygon crate = makeBox(0.25, 0.25);
    for (double gap : {0.001, 0.01}) {
        Manifold m = sortedByX(collidePolygons(crate, at(0, 0.25), crate, at(0, 0.75 + gap), kSpeculative));
        checkInvariants(m);
        REQUIRE(m.pointCount == 2);
        checkVec(m.normal, {0.0, 1.0}, 1e-12);
        checkVec(m.points[0].pointA, {-0.25, 0.5});
        checkVec(m.points[1].pointA, {0.25, 0.5});
        CHECK(m.points[0].separation == Approx(gap).margin(kTol));
        CHECK(m.points[1].separation == Approx(gap).margin(kTol));
    }
    Capsule shin{{0.0, -0.23}, {0.0, 0.23}, 0.05};
    Manifold side = collideCapsules(shin, at(0, 0.3), shin, at(0.105, 0.3), kSpeculative);
    checkInvariants(side);
    CHECK(side.pointCount == 2);
    // Corner against corner is still one point, along the gap.
    Manifold corner = collidePolygons(crate, at(0, 0.25), crate, at(0.505, 0.755), kSpeculative);
    checkInvariants(corner);
    REQUIRE(corner.pointCount == 1);
    checkVec(corner.normal, {std::sqrt(0.5), std::sqrt(0.5)}, 1e-9);
}

TEST_CASE("a box stacked on a box gets two points at its bottom corners", "[collide][polygon]") {
    Polygon ground = makeBox(2.0, 0.5);
    Polygon crate = makeBox(0.5, 0.5);

    Manifold m = sortedByX(collidePolygons(ground, at(0, 0), crate, at(0.3, 0.997), kSpeculative));
    checkInvariants(m);
    REQUIRE(m.pointCount == 2);
    checkVec(m.normal, {0.0, 1.0}, 1e-12);
    CHECK(m.points[0].separation == Approx(-0.003).margin(kTol));
    CHECK(m.points[1].separation == Approx(-0.003).margin(kTol));
    checkVec(m.points[0].pointA, {-0.2, 0.5});
    checkVec(m.points[0].pointB, {-0.2, 0.497});
    checkVec(m.points[1].pointA, {0.8, 0.5});

    // Sliding a little keeps the feature ids.
    Manifold slid = sortedByX(collidePolygons(ground, at(0, 0), crate, at(0.31, 0.997), kSpeculative));
    REQUIRE(slid.pointCount == 2);
    CHECK(slid.points[0].id == m.points[0].id);
    CHECK(slid.points[1].id == m.points[1].id);

    // Within the margin, touching, beyond.
    Manifold hover = collidePolygons(ground, at(0, 0), crate, at(0.3, 1.015), kSpeculative);
    checkInvariants(hover);
    REQUIRE(hover.pointCount == 2);
    CHECK(hover.points[0].separation == Approx(0.015).margin(kTol));
    Manifold touching = collidePolygons(ground, at(0, 0), crate, at(0.3, 1.0), kSpeculative);
    REQUIRE(touching.pointCount == 2);
    CHECK(touching.points[1].separation == Approx(0.0).margin(kTol));
    CHECK(collidePolygons(ground, at(0, 0), crate, at(0.3, 1.021), kSpeculative).pointCount == 0);

    // Swapped: the crate is A, the normal points down into the ground.
    checkSwapped(m, collidePolygons(crate, at(0.3, 0.997), ground, at(0, 0), kSpeculative));

    // A stack of two equal crates, the upper one turned 0.5°: its low corner is 0.002 in.
    double tilt = deg(0.5);
    double lift = 0.5 * std::sin(tilt) + 0.5 * std::cos(tilt) - 0.5;
    Manifold stack = sortedByX(collidePolygons(crate, at(0, 1.0), crate, at(0.0, 1.998 + lift, tilt), kSpeculative));
    checkInvariants(stack);
    REQUIRE(stack.pointCount == 2);
    checkVec(stack.normal, {0.0, 1.0}, 1e-12);
    CHECK(stack.points[0].separation == Approx(-0.002).margin(kTol));
    // The high corner pokes 0.0043 past the lower crate's side: clipped there, at x = 0.5.
    double lowCornerX = -0.5 * std::cos(tilt) + 0.5 * std::sin(tilt);
    checkVec(stack.points[1].pointA, {0.5, 1.5});
    CHECK(stack.points[1].separation == Approx(-0.002 + (0.5 - lowCornerX) * std::tan(tilt)).margin(kTol));

    checkRigidMotion(m, collidePolygons(ground, compose(kMotion, at(0, 0)), crate, compose(kMotion, at(0.3, 0.997)),
                                        kSpeculative),
                     kMotion);
}

TEST_CASE("boxes meeting at a corner: one point", "[collide][polygon]") {
    Polygon ground = makeBox(2.0, 0.5);
    Polygon crate = makeBox(0.5, 0.5);

    // Crate on its corner, 0.01 in.
    double h = 0.5 + 0.5 * std::sqrt(2.0) - 0.01;
    Manifold m = collidePolygons(ground, at(0, 0), crate, at(0.2, h, kPi / 4.0), kSpeculative);
    checkInvariants(m);
    REQUIRE(m.pointCount == 1);
    checkVec(m.normal, {0.0, 1.0}, 1e-12);
    CHECK(m.points[0].separation == Approx(-0.01).margin(kTol));
    checkVec(m.points[0].pointB, {0.2, 0.49});
    checkSwapped(m, collidePolygons(crate, at(0.2, h, kPi / 4.0), ground, at(0, 0), kSpeculative));

    // Corner to corner across a diagonal gap of 0.05 along (0.6, 0.8).
    Manifold v = collidePolygons(crate, at(0, 0), crate, at(1.03, 1.04), 0.1);
    checkInvariants(v, 0.1);
    REQUIRE(v.pointCount == 1);
    checkVec(v.normal, {0.6, 0.8});
    CHECK(v.points[0].separation == Approx(0.05).margin(kTol));
    checkVec(v.points[0].pointA, {0.5, 0.5});
    checkVec(v.points[0].pointB, {0.53, 0.54});
    CHECK(collidePolygons(crate, at(0, 0), crate, at(1.03, 1.04), 0.04).pointCount == 0);
    checkSwapped(v, collidePolygons(crate, at(1.03, 1.04), crate, at(0, 0), 0.1));

    // Rounded corners: radii 0.02 each eat 0.04 of the gap.
    Polygon rounded = crate;
    rounded.radius = 0.02;
    Manifold r = collidePolygons(rounded, at(0, 0), rounded, at(1.03, 1.04), 0.1);
    REQUIRE(r.pointCount == 1);
    CHECK(r.points[0].separation == Approx(0.01).margin(kTol));
    checkVec(r.points[0].pointA, {0.512, 0.516});
}

TEST_CASE("rounded boxes and a turned triangle", "[collide][polygon]") {
    Polygon ground = makeBox(2.0, 0.5);
    Polygon crate = makeBox(0.4, 0.3);
    crate.radius = 0.05;
    Manifold m = collidePolygons(ground, at(0, 0), crate, at(0.0, 0.5 + 0.3 + 0.05 - 0.004), kSpeculative);
    checkInvariants(m);
    REQUIRE(m.pointCount == 2);
    CHECK(m.points[0].separation == Approx(-0.004).margin(kTol));
    CHECK(m.points[1].separation == Approx(-0.004).margin(kTol));

    // A triangle point-down, turned, pressed 0.01 into a ramp body.
    const Vec2 pts[3] = {{0.0, 0.0}, {0.2, 0.4}, {-0.2, 0.4}};
    Polygon wedge;
    REQUIRE(makePolygon(pts, 3, 0.0, wedge));
    Transform ramp = at(1.0, 1.0, deg(20.0));
    Vec2 n = rotate(ramp.q, {0.0, 1.0});
    Manifold w = collidePolygons(ground, ramp, wedge, {ramp.p + (0.5 - 0.01) * n, ramp.q}, kSpeculative);
    checkInvariants(w);
    REQUIRE(w.pointCount == 1);
    checkVec(w.normal, n, 1e-12);
    CHECK(w.points[0].separation == Approx(-0.01).margin(kTol));
    checkSwapped(w, collidePolygons(wedge, {ramp.p + (0.5 - 0.01) * n, ramp.q}, ground, ramp, kSpeculative));
}

TEST_CASE("polygons: identical and coincident stay finite", "[collide][polygon][degenerate]") {
    Polygon crate = makeBox(0.5, 0.5);
    Manifold m = collidePolygons(crate, at(1, 2, 0.3), crate, at(1, 2, 0.3), kSpeculative);
    checkInvariants(m);
    CHECK(m.pointCount == 2);
    CHECK(m.points[0].separation == Approx(-1.0).margin(kTol));
    Polygon empty;
    CHECK(collidePolygons(empty, at(0, 0), crate, at(0, 0), kSpeculative).pointCount == 0);
    CHECK(collidePolygonAndCircle(empty, at(0, 0), Circle{{}, 1.0}, at(0, 0), kSpeculative).pointCount == 0);
}

// ---------------------------------------------------------------------------------------------
// Random pairs against brute force

namespace {

/// A small deterministic generator, so the same pairs are drawn on every platform.
struct Random {
    std::uint64_t state = 0x9E3779B97F4A7C15ull;
    double uniform(double lo, double hi) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return lo + (hi - lo) * double(state >> 11) * 0x1.0p-53;
    }
};

/// A shape's core in the world: 2 vertices for a capsule.
struct WorldCore {
    Vec2 v[kMaxPolygonVertices];
    int count = 0;
    double radius = 0.0;
};

WorldCore toWorld(const Polygon& p, const Transform& xf) {
    WorldCore w;
    w.count = p.count;
    w.radius = p.radius;
    for (int i = 0; i < p.count; ++i) w.v[i] = transformPoint(xf, p.vertices[i]);
    return w;
}

WorldCore toWorld(const Capsule& c, const Transform& xf) {
    WorldCore w;
    w.count = 2;
    w.radius = c.radius;
    w.v[0] = transformPoint(xf, c.center1);
    w.v[1] = transformPoint(xf, c.center2);
    return w;
}

double pointSegmentDistance(Vec2 p, Vec2 a, Vec2 b) {
    Vec2 e = b - a;
    double t = lengthSquared(e) > 0.0 ? std::clamp(dot(p - a, e) / lengthSquared(e), 0.0, 1.0) : 0.0;
    return distance(p, a + t * e);
}

bool segmentsCross(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
    double d1 = cross(b - a, c - a), d2 = cross(b - a, d - a), d3 = cross(d - c, a - c), d4 = cross(d - c, b - c);
    return ((d1 > 0.0 && d2 < 0.0) || (d1 < 0.0 && d2 > 0.0)) && ((d3 > 0.0 && d4 < 0.0) || (d3 < 0.0 && d4 > 0.0));
}

bool insideCore(const WorldCore& w, Vec2 p) {
    if (w.count < 3) return false;
    for (int i = 0; i < w.count; ++i)
        if (cross(w.v[(i + 1) % w.count] - w.v[i], p - w.v[i]) < 0.0) return false;
    return true;
}

/// Distance between two cores by checking every pair of edges; 0 when they overlap.
double coreDistance(const WorldCore& a, const WorldCore& b) {
    for (int i = 0; i < a.count; ++i)
        if (insideCore(b, a.v[i])) return 0.0;
    for (int i = 0; i < b.count; ++i)
        if (insideCore(a, b.v[i])) return 0.0;
    double best = 1e300;
    int edgesA = a.count == 2 ? 1 : a.count, edgesB = b.count == 2 ? 1 : b.count;
    for (int i = 0; i < edgesA; ++i) {
        for (int j = 0; j < edgesB; ++j) {
            Vec2 p = a.v[i], q = a.v[(i + 1) % a.count], r = b.v[j], s = b.v[(j + 1) % b.count];
            if (segmentsCross(p, q, r, s)) return 0.0;
            best = std::min({best, pointSegmentDistance(p, r, s), pointSegmentDistance(q, r, s),
                             pointSegmentDistance(r, p, q), pointSegmentDistance(s, p, q)});
        }
    }
    return best;
}

Polygon randomPolygon(Random& rng) {
    for (;;) {
        Vec2 pts[kMaxPolygonVertices];
        int n = 3 + int(rng.uniform(0.0, 6.0));
        double size = rng.uniform(0.1, 1.0);
        for (int i = 0; i < n; ++i) {
            double angle = rng.uniform(0.0, 2.0 * kPi), r = size * rng.uniform(0.5, 1.0);
            pts[i] = {r * std::cos(angle), r * std::sin(angle)};
        }
        Polygon p;
        if (makePolygon(pts, n, rng.uniform(0.0, 1.0) < 0.5 ? 0.0 : rng.uniform(0.0, 0.1), p)) return p;
    }
}

Capsule randomCapsule(Random& rng) {
    double len = rng.uniform(0.0, 1.0) < 0.05 ? 0.0 : rng.uniform(0.01, 0.8);
    double angle = rng.uniform(0.0, 2.0 * kPi);
    Vec2 half{0.5 * len * std::cos(angle), 0.5 * len * std::sin(angle)};
    return {-half, half, rng.uniform(0.01, 0.1)};
}

/// The manifold agrees with the brute-force distance: no missed contact, no contact beyond the
/// margin, the deepest point's separation equal to the true one (up to the reference-face bias),
/// and pushing B out along the normal by the deepest penetration just clears the cores.
void checkAgainstBruteForce(const Manifold& m, const WorldCore& a, WorldCore b, double speculative) {
    checkInvariants(m, speculative);
    double d = coreDistance(a, b);
    double trueSeparation = d - a.radius - b.radius;
    if (d > 1e-6 && trueSeparation >= speculative) {
        CHECK(m.pointCount == 0);
        return;
    }
    REQUIRE(m.pointCount >= 1);
    double deepest = std::min(m.points[0].separation, m.points[m.pointCount - 1].separation);
    if (d > 1e-6) {
        CHECK(deepest >= trueSeparation - 1e-9);
        CHECK(deepest <= trueSeparation + 5e-4);
    } else {
        Vec2 push = (-(deepest + a.radius + b.radius) + 1e-7) * m.normal;
        for (int i = 0; i < b.count; ++i) b.v[i] += push;
        double after = coreDistance(a, b);
        CHECK(after > 0.0);
        CHECK(after < 1e-6);
    }
}

}  // namespace

TEST_CASE("random pairs agree with brute-force distances", "[collide][random]") {
    Random rng;
    const double speculative = 0.02;
    auto randomTransform = [&] {
        // One draw per statement: the order in which arguments are evaluated differs by compiler.
        double x = rng.uniform(-1.0, 1.0);
        double y = rng.uniform(-1.0, 1.0);
        return at(x, y, rng.uniform(0.0, 7.0));
    };
    for (int i = 0; i < 20000; ++i) {
        Transform xfA = randomTransform(), xfB = randomTransform();
        Polygon p = randomPolygon(rng), q = randomPolygon(rng);
        Capsule c = randomCapsule(rng), e = randomCapsule(rng);
        checkAgainstBruteForce(collidePolygons(p, xfA, q, xfB, speculative), toWorld(p, xfA), toWorld(q, xfB),
                               speculative);
        checkAgainstBruteForce(collidePolygonAndCapsule(p, xfA, c, xfB, speculative), toWorld(p, xfA),
                               toWorld(c, xfB), speculative);
        checkAgainstBruteForce(collideCapsules(c, xfA, e, xfB, speculative), toWorld(c, xfA), toWorld(e, xfB),
                               speculative);
    }
}
