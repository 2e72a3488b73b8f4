// Narrow phase: contact manifolds between circles, capsules and rounded convex polygons.
//
// One routine, collideHulls, handles every pair of rounded convex polygons, and a capsule
// meeting a polygon enters it as a two-vertex polygon (its segment walked there and back, with
// the two opposite normals) grown by its radius. Two capsules have their own (below).
// The circle pairs are a closest point and a normal and are written out directly.
//
// collideHulls follows the reference-face technique of E. Catto, "Contact Manifolds"
// (GDC 2007), with the closest points of two segments from C. Ericson, "Real-Time Collision
// Detection" §5.1.9:
//   1. SAT on both cores' edge normals (radii left out). The best separation along any axis is
//      a lower bound on the distance, so above speculativeDistance + radii there is no contact.
//   2. The face of the larger separation is the reference face; A keeps it unless B's is better
//      by kReferenceFaceBias. The incident edge is the other shape's edge most anti-parallel to it.
//   3. Cores apart (separation > kTouchingDistance): the closest points of the reference and
//      incident edges are the closest points of the cores (the best SAT face holds the closest
//      point of a convex Minkowski difference, and the incident edge holds the support vertex).
//      If both are vertices the shapes meet corner to corner: one point, normal along the gap.
//   4. Otherwise the incident edge is clipped to the reference face's side planes and each end
//      is measured along the reference normal: up to two points, each kept only if its
//      separation is below speculativeDistance.
// A capsule parallel to a face therefore gets both ends as points, and a tilted one only the
// low end. There is no separate angular tolerance: the far end is kept while it is within
// speculativeDistance of the face, which for a capsule of length L is a tilt below
// asin(speculativeDistance / L) — about 2.3° for 0.5 m and 2 cm. An explicit angle test was
// rejected because it would drop or invent points whose separation the clip already measures
// exactly, and would add a second threshold at which the manifold jumps between 1 and 2 points.
//
// SAT on edge normals alone is complete only when one shape has area. Two segments lying end to
// end on one line show no separation on either normal, so when both are segments the cores'
// true distance from step 3 decides whether they touch.
//
// Two capsules, the pair a pile of ragdolls meets most, have their own routine,
// collideSegments (after E. Catto's capsule manifold in Box2D v3): the closest points of the
// two segments first, which refuse a pair out of reach and give a corner-to-corner point
// directly; only a pair whose closest points lie on a face goes on to the reference face and
// the clip. It keeps collideHulls' rules (the reference face and its bias, the clip, which
// clipped end is kept), so two capsules get the manifold they got as two-vertex hulls:
// two points only when the segments overlap and lie nearly parallel, the far end within
// speculativeDistance of the other segment, else one. What it saves is arithmetic: a capsule
// keeps its unit normal, so its direction and length come without a root, the closest points
// take one division instead of up to three, there are no edge loops, and of the hulls' two
// roots a pair (the gap's, for every pair, and the incident edge's length) only a corner's
// gap is left.
//
// Everything is computed in A's local frame (B is brought over with one relative transform)
// and written to the world at the end; no allocation, no virtual calls.
#include "solver/collide.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "solver/constants.h"

namespace ragdoll {
namespace {

/// Cores closer than this (metres) touch: the normal comes from a face rather than from the
/// direction between closest points, which loses its accuracy as the gap shrinks to zero and
/// would make the normal of resting box corners flicker.
constexpr double kTouchingDistance = 1.0e-6;

/// A's face stays the reference unless B's separates by this much more (metres). Resting faces
/// have equal separations up to noise and small rotations (≈ width·angle/2, a fraction of a
/// millimetre for a jittering stack); letting the reference flip between them would flip the
/// normal and the feature ids frame to frame. The cost: the axis used may be worse by up to
/// this much, so a contact is reported up to 0.5 mm late or pushed out up to 0.5 mm further
/// (a fuzz of 300,000 random pairs found at most 0.46 mm). 0.1 × a 5 mm slop, as Box2D uses;
/// about 1% of a 5 cm limb radius, and far above rounding noise (~1e-15 m).
constexpr double kReferenceFaceBias = 5.0e-4;

/// Two points closer than this (metres) are one: the direction between them is not trusted
/// (world coordinates of 100 m round at ~1e-14 m).
constexpr double kMinNormalDistance = 1.0e-12;

/// Segments whose sin² of the angle between them is below this are parallel for the closest-
/// point solve (a 1e-6 rad angle), where the general formula divides by ~0.
constexpr double kParallelSineSquared = 1.0e-12;

/// Normal for coincident centres, where no direction is better than another: world up, the
/// way out that gravity will not undo.
constexpr Vec2 kFallbackWorldNormal{0.0, 1.0};

// Feature keys. Bits 0–7: incident feature (2·edge + end for a clipped point, a vertex for a
// corner contact); bits 8–15: reference feature (edge or vertex); bit 16: the reference face
// is B's; bit 17: a corner-to-corner (vertex) contact. A clipped point keeps its id whether or
// not it is clipped, so it stays stable while a box slides along a face. Two capsules
// (collideSegments) key a clipped point by the incident capsule's end it lies toward, and a
// corner by A's end and B's end.
constexpr std::uint32_t kFlipBit = 1u << 16;
constexpr std::uint32_t kVertexBit = 1u << 17;

constexpr std::uint32_t makeId(int referenceFeature, int incidentFeature, bool flip, bool vertex) {
    return std::uint32_t(incidentFeature) | (std::uint32_t(referenceFeature) << 8) | (flip ? kFlipBit : 0u) |
           (vertex ? kVertexBit : 0u);
}

/// A rounded convex polygon seen from A's frame; a capsule is the count == 2 case.
struct HullView {
    const Vec2* vertices;
    const Vec2* normals;
    int count;
    double radius;
};

/// Storage for a shape brought into A's frame. Sized by the shape kind: Vec2 zero-initialises,
/// and clearing room for 8 vertices to hold a capsule's 2 was a quarter of the capsule's cost.
template <int Capacity>
struct HullStorage {
    Vec2 vertices[Capacity];
    Vec2 normals[Capacity];
    int count = 0;
    double radius = 0.0;

    HullView view() const { return {vertices, normals, count, radius}; }
};

/// B's frame expressed in A's: pA = rotate(q, pB) + p.
Transform relativeTransform(const Transform& a, const Transform& b) {
    Rot q{a.q.c * b.q.c + a.q.s * b.q.s, a.q.c * b.q.s - a.q.s * b.q.c};
    return {inverseRotate(a.q, b.p - a.p), q};
}

HullView polygonView(const Polygon& p) { return {p.vertices, p.normals, p.count, p.radius}; }

HullStorage<kMaxPolygonVertices> placePolygon(const Polygon& p, const Transform& xf) {
    HullStorage<kMaxPolygonVertices> h;
    h.count = p.count;
    h.radius = p.radius;
    for (int i = 0; i < p.count; ++i) {
        h.vertices[i] = transformPoint(xf, p.vertices[i]);
        h.normals[i] = rotate(xf.q, p.normals[i]);
    }
    return h;
}

/// A capsule shape (capsuleShape) placed: edge 0 runs center1 → center2 with the outward
/// normal on its right (as on a counter-clockwise polygon), edge 1 runs back with the
/// opposite normal.
HullStorage<2> placeCapsule(const Polygon& c, const Transform& xf) {
    HullStorage<2> h;
    h.count = 2;
    h.radius = c.radius;
    h.vertices[0] = transformPoint(xf, c.vertices[0]);
    h.vertices[1] = transformPoint(xf, c.vertices[1]);
    h.normals[0] = rotate(xf.q, c.normals[0]);
    h.normals[1] = -h.normals[0];
    return h;
}

bool isShort(const Capsule& c) { return lengthSquared(c.center2 - c.center1) < kMinCapsuleLength * kMinCapsuleLength; }

Circle capsuleAsCircle(const Capsule& c) { return {0.5 * (c.center1 + c.center2), c.radius}; }

/// The manifold with A and B exchanged: same points and separations, opposite normal.
Manifold swapped(const Manifold& m) {
    Manifold out = m;
    out.normal = -m.normal;
    for (int i = 0; i < m.pointCount; ++i) {
        out.points[i].pointA = m.points[i].pointB;
        out.points[i].pointB = m.points[i].pointA;
    }
    return out;
}

/// Appends a point found in A's frame, moved to the world.
void addPoint(Manifold& m, const Transform& xfA, Vec2 localA, Vec2 localB, double separation, std::uint32_t id) {
    ManifoldPoint& p = m.points[m.pointCount++];
    p.pointA = transformPoint(xfA, localA);
    p.pointB = transformPoint(xfA, localB);
    p.separation = separation;
    p.id = id;
}

/// The contact between a core point on A (or B's centre) and a circle centre, both in A's
/// frame, with `normal` from the A point to the centre and `coreDistance` along it.
Manifold pointContact(const Transform& xfA, Vec2 onA, double radiusA, Vec2 centerB, double radiusB, Vec2 normal,
                      double coreDistance, double speculativeDistance, std::uint32_t id) {
    Manifold m{};
    double separation = coreDistance - radiusA - radiusB;
    if (separation >= speculativeDistance) return m;
    m.normal = rotate(xfA.q, normal);
    addPoint(m, xfA, onA + radiusA * normal, centerB - radiusB * normal, separation, id);
    return m;
}

struct SegmentClosest {
    Vec2 point1;
    Vec2 point2;
    double fraction1;  ///< along p1 → q1, exactly 0 or 1 at an end
    double fraction2;  ///< along p2 → q2
    double distanceSquared;
};

/// Closest points of segments p1q1 and p2q2 (Ericson §5.1.9): minimise over s, then clamp t and
/// re-solve s, so a clamped fraction is exactly 0 or 1 and the caller can tell a vertex from
/// the inside of an edge.
SegmentClosest closestPoints(Vec2 p1, Vec2 q1, Vec2 p2, Vec2 q2) {
    Vec2 d1 = q1 - p1;
    Vec2 d2 = q2 - p2;
    Vec2 r = p1 - p2;
    double a = dot(d1, d1);
    double e = dot(d2, d2);
    double f = dot(d2, r);
    double s = 0.0;
    double t = 0.0;
    // Edges shorter than kMinCapsuleLength do not reach here; the guards only keep 0/0 out.
    if (a > 0.0 && e > 0.0) {
        double b = dot(d1, d2);
        double c = dot(d1, r);
        double denominator = a * e - b * b;
        // Parallel: any s works; 0 is as good as any and the clamps below fix t and s.
        if (denominator > kParallelSineSquared * a * e) s = std::clamp((b * f - c * e) / denominator, 0.0, 1.0);
        t = (b * s + f) / e;
        if (t < 0.0) {
            t = 0.0;
            s = std::clamp(-c / a, 0.0, 1.0);
        } else if (t > 1.0) {
            t = 1.0;
            s = std::clamp((b - c) / a, 0.0, 1.0);
        }
    } else if (e > 0.0) {
        t = std::clamp(f / e, 0.0, 1.0);
    } else if (a > 0.0) {
        s = std::clamp(-dot(d1, r) / a, 0.0, 1.0);
    }
    SegmentClosest out;
    out.point1 = p1 + s * d1;
    out.point2 = p2 + t * d2;
    out.fraction1 = s;
    out.fraction2 = t;
    out.distanceSquared = lengthSquared(out.point2 - out.point1);
    return out;
}

/// Largest over `reference`'s edges of the smallest signed distance of `other`'s vertices to
/// that edge's line: > 0 means that edge's line separates the cores.
double maxSeparation(const HullView& reference, const HullView& other, int& bestEdge) {
    double best = -std::numeric_limits<double>::infinity();
    bestEdge = 0;
    for (int i = 0; i < reference.count; ++i) {
        Vec2 n = reference.normals[i];
        Vec2 v = reference.vertices[i];
        double smallest = std::numeric_limits<double>::infinity();
        for (int j = 0; j < other.count; ++j) smallest = std::min(smallest, dot(n, other.vertices[j] - v));
        if (smallest > best) {
            best = smallest;
            bestEdge = i;
        }
    }
    return best;
}

/// The edge of `hull` whose normal is most anti-parallel to `normal`.
int incidentEdge(Vec2 normal, const HullView& hull) {
    int edge = 0;
    double smallest = std::numeric_limits<double>::infinity();
    for (int i = 0; i < hull.count; ++i) {
        double d = dot(normal, hull.normals[i]);
        if (d < smallest) {
            smallest = d;
            edge = i;
        }
    }
    return edge;
}

/// Contact between two rounded convex polygons in A's frame (B already placed there).
/// An incident edge clipped to a reference face's slab: one or two points, each one's distance
/// along the face's normal, and the incident end it lies toward (0: w1, 1: w2).
struct ClippedEdge {
    Vec2 points[2];
    double coreDistances[2];
    int endOf[2] = {0, 1};
    int count = 2;
};

/// Clips the incident edge w1 → w2 (incidentLength long) to the slab 0 ≤ dot(x − v1, t) ≤
/// referenceLength of the reference face from v1 along t = perp(normal).
ClippedEdge clipToSlab(Vec2 v1, Vec2 normal, double referenceLength, Vec2 w1, Vec2 w2, double incidentLength) {
    const Vec2 tangent = perp(normal);
    double along1 = dot(w1 - v1, tangent);
    double along2 = dot(w2 - v1, tangent);
    double lower = 0.0;
    double upper = 1.0;
    double run = along2 - along1;
    if (run != 0.0) {
        double atStart = (0.0 - along1) / run;
        double atEnd = (referenceLength - along1) / run;
        lower = std::max(0.0, std::min(atStart, atEnd));
        upper = std::min(1.0, std::max(atStart, atEnd));
        // The incident edge misses the slab. The best SAT face's slab always holds the support
        // vertex, so only a face kept by the bias can get here (never seen in 900,000 random
        // pairs): keep the end nearest the slab rather than lose the contact.
        if (lower > upper) lower = upper = std::min(atStart, atEnd) > 1.0 ? 1.0 : 0.0;
    }
    ClippedEdge clip;
    clip.points[0] = lerp(w1, w2, lower);
    clip.points[1] = lerp(w1, w2, upper);
    clip.coreDistances[0] = dot(clip.points[0] - v1, normal);
    clip.coreDistances[1] = dot(clip.points[1] - v1, normal);
    if ((upper - lower) * incidentLength <= kTouchingDistance) {
        // One point, not two on top of each other: keep the deeper.
        clip.count = 1;
        if (clip.coreDistances[1] < clip.coreDistances[0]) {
            clip.points[0] = clip.points[1];
            clip.coreDistances[0] = clip.coreDistances[1];
            clip.endOf[0] = 1;
        }
    }
    return clip;
}

Manifold collideHulls(const HullView& a, const HullView& b, const Transform& xfA, double speculativeDistance) {
    Manifold m{};
    double totalRadius = a.radius + b.radius;
    double reach = speculativeDistance + totalRadius;

    int edgeA = 0;
    double separationA = maxSeparation(a, b, edgeA);
    if (separationA > reach) return m;
    int edgeB = 0;
    double separationB = maxSeparation(b, a, edgeB);
    if (separationB > reach) return m;

    bool flip = separationB > separationA + kReferenceFaceBias;
    const HullView& ref = flip ? b : a;
    const HullView& inc = flip ? a : b;
    int refEdge = flip ? edgeB : edgeA;
    double separation = flip ? separationB : separationA;
    Vec2 normal = ref.normals[refEdge];  // from the reference toward the incident shape
    int incEdge = incidentEdge(normal, inc);

    int refNext = refEdge + 1 < ref.count ? refEdge + 1 : 0;
    int incNext = incEdge + 1 < inc.count ? incEdge + 1 : 0;
    Vec2 v1 = ref.vertices[refEdge];
    Vec2 v2 = ref.vertices[refNext];
    Vec2 w1 = inc.vertices[incEdge];
    Vec2 w2 = inc.vertices[incNext];

    // Writes a point given on the reference and incident cores into the manifold, A first.
    auto emit = [&](Vec2 refCore, Vec2 incCore, Vec2 n, double coreDistance, std::uint32_t id) {
        Vec2 onRef = refCore + ref.radius * n;
        Vec2 onInc = incCore - inc.radius * n;
        if (flip) addPoint(m, xfA, onInc, onRef, coreDistance - totalRadius, id);
        else addPoint(m, xfA, onRef, onInc, coreDistance - totalRadius, id);
    };

    bool bothSegments = a.count == 2 && b.count == 2;
    if (separation > kTouchingDistance || bothSegments) {
        SegmentClosest closest = closestPoints(v1, v2, w1, w2);
        bool refAtVertex = closest.fraction1 == 0.0 || closest.fraction1 == 1.0;
        bool incAtVertex = closest.fraction2 == 0.0 || closest.fraction2 == 1.0;
        // Two parallel edges whose ends line up (crates of one width stacked square) are
        // closest at a pair of ends too, straight across the face: that is a face meeting a
        // face, clipped below to both ends. Taken as corner to corner, it was one point at one
        // end, and the upper crate was pushed up at one corner only and tilted.
        bool across = std::abs(dot(closest.point2 - closest.point1, perp(normal))) <= kTouchingDistance;
        if (closest.distanceSquared > kTouchingDistance * kTouchingDistance && refAtVertex && incAtVertex && !across) {
            double gap = std::sqrt(closest.distanceSquared);
            if (gap - totalRadius >= speculativeDistance) return m;
            Vec2 n = (1.0 / gap) * (closest.point2 - closest.point1);
            m.normal = rotate(xfA.q, flip ? -n : n);
            int refVertex = closest.fraction1 == 0.0 ? refEdge : refNext;
            int incVertex = closest.fraction2 == 0.0 ? incEdge : incNext;
            emit(closest.point1, closest.point2, n, gap, makeId(refVertex, incVertex, flip, true));
            return m;
        }
        // Collinear segments end to end are as far apart as their closest points say.
        if (bothSegments && std::sqrt(closest.distanceSquared) > reach) return m;
    }

    // The reference tangent is perp(normal) because normals are on the right.
    const ClippedEdge clip = clipToSlab(v1, normal, dot(v2 - v1, perp(normal)), w1, w2, length(w2 - w1));
    m.normal = rotate(xfA.q, flip ? -normal : normal);
    for (int k = 0; k < clip.count; ++k) {
        if (clip.coreDistances[k] - totalRadius >= speculativeDistance) continue;
        emit(clip.points[k] - clip.coreDistances[k] * normal, clip.points[k], normal, clip.coreDistances[k],
             makeId(refEdge, 2 * incEdge + k, flip, false));
    }
    return m;
}

/// A capsule's core as collideSegments reads it, in A's frame: its ends, the unit direction
/// from start to end with the kept normal on its right (capsuleShape), its length.
struct Segment {
    Vec2 start;
    Vec2 end;
    Vec2 direction;
    Vec2 normal;
    double length;
    double radius;
};

/// A capsule shape (capsuleShape) in its own frame. Its direction is its normal turned left,
/// and its length is measured along that direction: no root.
Segment segmentOf(const Polygon& c) {
    Segment s;
    s.start = c.vertices[0];
    s.end = c.vertices[1];
    s.normal = c.normals[0];
    s.direction = perp(s.normal);
    s.length = dot(s.end - s.start, s.direction);
    s.radius = c.radius;
    return s;
}

/// The same placed by xf.
Segment placeSegment(const Polygon& c, const Transform& xf) {
    Segment s = segmentOf(c);
    s.start = transformPoint(xf, s.start);
    s.end = transformPoint(xf, s.end);
    s.normal = rotate(xf.q, s.normal);
    s.direction = perp(s.normal);
    return s;
}

struct SegmentPoints {
    Vec2 pointA;
    Vec2 pointB;
    double alongA;  ///< metres from A's start, exactly 0 or A's length at an end
    double alongB;
    double distanceSquared;
};

/// x within [lower, upper] by min and max, which compile to minsd/maxsd where std::clamp
/// compiled to compares and branches, mispredicted on a pile's pairs.
double clampBetween(double x, double lower, double upper) { return std::min(std::max(x, lower), upper); }

/// Closest points of two segments (Ericson §5.1.9, as closestPoints) with the segments'
/// unit directions, so the fractions are distances along them and only the unconstrained
/// solve divides (by sin² of the angle between them). A's distance is solved again from B's
/// clamped one every time, not only when B's was clamped: unclamped, that gives back the
/// same value, and the path has no branch to mispredict.
SegmentPoints closestSegmentPoints(const Segment& a, const Segment& b) {
    Vec2 r = a.start - b.start;
    double cosine = dot(a.direction, b.direction);
    double sine = cross(a.direction, b.direction);
    double c = dot(a.direction, r);
    double f = dot(b.direction, r);
    double s = 0.0;  // parallel: any distance along A will do, the clamps below fix both
    if (sine * sine > kParallelSineSquared) s = clampBetween((cosine * f - c) / (sine * sine), 0.0, a.length);
    double t = clampBetween(cosine * s + f, 0.0, b.length);
    s = clampBetween(cosine * t - c, 0.0, a.length);
    SegmentPoints out;
    out.pointA = a.start + s * a.direction;
    out.pointB = b.start + t * b.direction;
    out.alongA = s;
    out.alongB = t;
    out.distanceSquared = lengthSquared(out.pointB - out.pointA);
    return out;
}

/// The separating axis of `reference`'s two faces (its normal, and the opposite one) for
/// `other`'s ends: the larger of the two faces' smallest signed distances, and which face
/// (0: along the kept normal; 1: against it, the hull's edge 1). Ties go to face 0 as in
/// maxSeparation.
double segmentSeparation(const Segment& reference, const Segment& other, int& face) {
    double start = dot(other.start - reference.start, reference.normal);
    double end = dot(other.end - reference.start, reference.normal);
    double alongNormal = std::min(start, end);
    double againstNormal = -std::max(start, end);
    face = againstNormal > alongNormal ? 1 : 0;
    return std::max(alongNormal, againstNormal);
}

/// Contact between two capsules, both in A's frame (B placed there), after E. Catto's
/// capsule manifold in Box2D v3: the segments' closest points decide whether the pair is in
/// reach and whether it meets end to end; a face meeting the other segment is clipped as
/// collideHulls clips it, with the same reference face, kept ends and feature ids.
Manifold collideSegments(const Segment& a, const Segment& b, const Transform& xfA, double speculativeDistance) {
    // Not m{}: zeroing the whole record (rep stos) was a tenth of a pair's time, and only
    // pointCount points are read.
    Manifold m;
    double totalRadius = a.radius + b.radius;
    double reach = speculativeDistance + totalRadius;
    SegmentPoints closest = closestSegmentPoints(a, b);
    if (closest.distanceSquared >= reach * reach) return m;

    // An end of each closest to an end of the other: corner to corner, one point along the
    // gap (end caps meeting). Unless the gap runs straight across a segment: parallel
    // segments whose ends line up (two shins side by side) are a face over a face, clipped
    // below to both ends, as in collideHulls.
    bool touching = closest.distanceSquared <= kTouchingDistance * kTouchingDistance;
    bool endA = closest.alongA == 0.0 || closest.alongA == a.length;
    bool endB = closest.alongB == 0.0 || closest.alongB == b.length;
    if (!touching && endA && endB) {
        Vec2 gap = closest.pointB - closest.pointA;
        bool across = std::abs(dot(gap, a.direction)) <= kTouchingDistance ||
                      std::abs(dot(gap, b.direction)) <= kTouchingDistance;
        if (!across) {
            double distance = std::sqrt(closest.distanceSquared);
            if (distance - totalRadius >= speculativeDistance) return m;  // the root's rounding
            Vec2 n = (1.0 / distance) * gap;
            m.normal = rotate(xfA.q, n);
            int vertexA = closest.alongA == 0.0 ? 0 : 1;
            int vertexB = closest.alongB == 0.0 ? 0 : 1;
            addPoint(m, xfA, closest.pointA + a.radius * n, closest.pointB - b.radius * n, distance - totalRadius,
                     makeId(vertexA, vertexB, false, true));
            return m;
        }
    }

    // A face: the reference is the face of the larger separation, A's unless B's is better
    // by kReferenceFaceBias (collideHulls says why); the cores crossing take the face of least
    // penetration the same way.
    int faceA = 0;
    int faceB = 0;
    double separationA = segmentSeparation(a, b, faceA);
    double separationB = segmentSeparation(b, a, faceB);
    bool flip = separationB > separationA + kReferenceFaceBias;
    const Segment& ref = flip ? b : a;
    const Segment& inc = flip ? a : b;
    int refFace = flip ? faceB : faceA;
    Vec2 normal = refFace == 0 ? ref.normal : -ref.normal;  // from the reference toward the incident
    Vec2 v1 = refFace == 0 ? ref.start : ref.end;            // the face runs v1 → along perp(normal)
    // The incident segment is clipped from its start to its end whichever of its faces is
    // turned to the reference: a segment's two faces are one edge.
    Vec2 w1 = inc.start;
    Vec2 w2 = inc.end;

    const ClippedEdge clip = clipToSlab(v1, normal, ref.length, w1, w2, inc.length);
    m.normal = rotate(xfA.q, flip ? -normal : normal);
    for (int k = 0; k < clip.count; ++k) {
        double separation = clip.coreDistances[k] - totalRadius;
        if (separation >= speculativeDistance) continue;
        Vec2 onRef = clip.points[k] - (clip.coreDistances[k] - ref.radius) * normal;
        Vec2 onInc = clip.points[k] - inc.radius * normal;
        // Keyed by the incident capsule's end the point lies toward, not by its face turned to
        // the reference as in collideHulls: a capsule standing square on another has neither
        // face turned to it, the two tie, and a tilt of a hair either way swapped the clip's
        // order and with it the kept point's id.
        std::uint32_t id = makeId(refFace, clip.endOf[k], flip, false);
        if (flip) addPoint(m, xfA, onInc, onRef, separation, id);
        else addPoint(m, xfA, onRef, onInc, separation, id);
    }
    return m;
}

}  // namespace

Manifold collideCircles(const Circle& a, const Transform& xfA, const Circle& b, const Transform& xfB,
                        double speculativeDistance) {
    Vec2 centerB = inverseTransformPoint(xfA, transformPoint(xfB, b.center));
    Vec2 delta = centerB - a.center;
    double d = length(delta);
    Vec2 normal = d > kMinNormalDistance ? (1.0 / d) * delta : inverseRotate(xfA.q, kFallbackWorldNormal);
    return pointContact(xfA, a.center, a.radius, centerB, b.radius, normal, d, speculativeDistance, 0);
}

Manifold collideCapsuleAndCircle(const Capsule& a, const Transform& xfA, const Circle& b, const Transform& xfB,
                                 double speculativeDistance) {
    if (isShort(a)) return collideCircles(capsuleAsCircle(a), xfA, b, xfB, speculativeDistance);
    Vec2 centerB = inverseTransformPoint(xfA, transformPoint(xfB, b.center));
    Vec2 axis = a.center2 - a.center1;
    double fraction = std::clamp(dot(centerB - a.center1, axis) / lengthSquared(axis), 0.0, 1.0);
    Vec2 closest = a.center1 + fraction * axis;
    Vec2 delta = centerB - closest;
    double d = length(delta);
    // A centre on the segment: leave through the capsule's side.
    Vec2 normal = d > kMinNormalDistance ? (1.0 / d) * delta : normalize(Vec2{axis.y, -axis.x});
    std::uint32_t id = fraction == 0.0 ? 1u : fraction == 1.0 ? 2u : 0u;  // end 1, end 2, side
    return pointContact(xfA, closest, a.radius, centerB, b.radius, normal, d, speculativeDistance, id);
}

Manifold collidePolygonAndCircle(const Polygon& a, const Transform& xfA, const Circle& b, const Transform& xfB,
                                 double speculativeDistance) {
    if (a.count < 3) return {};
    Vec2 centerB = inverseTransformPoint(xfA, transformPoint(xfB, b.center));
    // The face the centre is furthest outside of holds the closest point of the core; with the
    // centre inside, it is the face of least penetration.
    int face = 0;
    double separation = -std::numeric_limits<double>::infinity();
    for (int i = 0; i < a.count; ++i) {
        double s = dot(a.normals[i], centerB - a.vertices[i]);
        if (s > separation) {
            separation = s;
            face = i;
        }
    }
    if (separation - a.radius - b.radius >= speculativeDistance) return {};

    int next = face + 1 < a.count ? face + 1 : 0;
    Vec2 v1 = a.vertices[face];
    Vec2 v2 = a.vertices[next];
    if (separation > kTouchingDistance) {
        Vec2 edge = v2 - v1;
        double fraction = dot(centerB - v1, edge);
        int vertex = fraction <= 0.0 ? face : fraction >= lengthSquared(edge) ? next : -1;
        if (vertex >= 0) {
            Vec2 corner = a.vertices[vertex];
            Vec2 delta = centerB - corner;
            double d = length(delta);  // >= separation > 0
            return pointContact(xfA, corner, a.radius, centerB, b.radius, (1.0 / d) * delta, d, speculativeDistance,
                                makeId(vertex, 0, false, true));
        }
    }
    Vec2 normal = a.normals[face];
    return pointContact(xfA, centerB - separation * normal, a.radius, centerB, b.radius, normal, separation,
                        speculativeDistance, makeId(face, 0, false, false));
}

Manifold collideCapsules(const Capsule& a, const Transform& xfA, const Capsule& b, const Transform& xfB,
                         double speculativeDistance) {
    if (isShort(b)) return collideCapsuleAndCircle(a, xfA, capsuleAsCircle(b), xfB, speculativeDistance);
    if (isShort(a)) return swapped(collideCapsuleAndCircle(b, xfB, capsuleAsCircle(a), xfA, speculativeDistance));
    return collideCapsuleShapes(capsuleShape(a), xfA, capsuleShape(b), xfB, speculativeDistance);
}

Manifold collidePolygonAndCapsule(const Polygon& a, const Transform& xfA, const Capsule& b, const Transform& xfB,
                                  double speculativeDistance) {
    if (isShort(b)) return collidePolygonAndCircle(a, xfA, capsuleAsCircle(b), xfB, speculativeDistance);
    return collidePolygonAndCapsuleShape(a, xfA, capsuleShape(b), xfB, speculativeDistance);
}

Manifold collideCapsuleShapes(const Polygon& a, const Transform& xfA, const Polygon& b, const Transform& xfB,
                              double speculativeDistance) {
    // A in its own frame is the shape as kept.
    Segment segmentB = placeSegment(b, relativeTransform(xfA, xfB));
    return collideSegments(segmentOf(a), segmentB, xfA, speculativeDistance);
}

Manifold collidePolygonAndCapsuleShape(const Polygon& a, const Transform& xfA, const Polygon& b, const Transform& xfB,
                                       double speculativeDistance) {
    if (a.count < 3) return {};
    // A in its own frame is the polygon as kept.
    HullStorage<2> hullB = placeCapsule(b, relativeTransform(xfA, xfB));
    return collideHulls(polygonView(a), hullB.view(), xfA, speculativeDistance);
}

Manifold collidePolygons(const Polygon& a, const Transform& xfA, const Polygon& b, const Transform& xfB,
                         double speculativeDistance) {
    if (a.count < 3 || b.count < 3) return {};
    HullStorage<kMaxPolygonVertices> hullB = placePolygon(b, relativeTransform(xfA, xfB));
    return collideHulls(polygonView(a), hullB.view(), xfA, speculativeDistance);
}

}  // namespace ragdoll
