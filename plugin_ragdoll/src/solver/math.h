// Double-precision 2D maths for the solver. Positions are doubles because in float the
// per-substep gravity step h²·g falls below the rounding step about 20 m from the origin
// and bodies stop falling (see NOTES.md, "Notation"). Metres, radians, y up, counter-clockwise.
#pragma once

#include <cmath>
#include <limits>

namespace ragdoll {

inline constexpr double kPi = 3.14159265358979323846;
inline constexpr double kInfinity = std::numeric_limits<double>::infinity();

struct Vec2 {
    double x = 0.0;
    double y = 0.0;
};

constexpr Vec2 operator+(Vec2 a, Vec2 b) { return {a.x + b.x, a.y + b.y}; }
constexpr Vec2 operator-(Vec2 a, Vec2 b) { return {a.x - b.x, a.y - b.y}; }
constexpr Vec2 operator-(Vec2 a) { return {-a.x, -a.y}; }
constexpr Vec2 operator*(double s, Vec2 a) { return {s * a.x, s * a.y}; }
constexpr Vec2 operator*(Vec2 a, double s) { return {s * a.x, s * a.y}; }
constexpr Vec2& operator+=(Vec2& a, Vec2 b) { a.x += b.x; a.y += b.y; return a; }
constexpr Vec2& operator-=(Vec2& a, Vec2 b) { a.x -= b.x; a.y -= b.y; return a; }
constexpr Vec2& operator*=(Vec2& a, double s) { a.x *= s; a.y *= s; return a; }
constexpr bool operator==(Vec2 a, Vec2 b) { return a.x == b.x && a.y == b.y; }

constexpr double dot(Vec2 a, Vec2 b) { return a.x * b.x + a.y * b.y; }
/// z of the 3D cross product: > 0 when b is counter-clockwise of a.
constexpr double cross(Vec2 a, Vec2 b) { return a.x * b.y - a.y * b.x; }
/// a turned a quarter counter-clockwise; ∂(R·r)/∂θ = perp(R·r).
constexpr Vec2 perp(Vec2 a) { return {-a.y, a.x}; }
/// ω × r for a scalar angular velocity ω.
constexpr Vec2 cross(double w, Vec2 r) { return {-w * r.y, w * r.x}; }
constexpr double lengthSquared(Vec2 a) { return dot(a, a); }
inline double length(Vec2 a) { return std::sqrt(dot(a, a)); }
inline double distance(Vec2 a, Vec2 b) { return length(a - b); }
inline Vec2 normalize(Vec2 a) {
    double len = length(a);
    return len > 0.0 ? (1.0 / len) * a : Vec2{};
}
constexpr Vec2 lerp(Vec2 a, Vec2 b, double t) { return a + t * (b - a); }
inline bool isFinite(Vec2 a) { return std::isfinite(a.x) && std::isfinite(a.y); }

/// A rotation stored as cosine and sine.
struct Rot {
    double c = 1.0;
    double s = 0.0;
};

/// cos and sin of the angle, and the angle of a vector (atan2(v.y, v.x), in [−π, π]): the
/// solver's own (trig.cpp), within about an ulp and the same bits on every CPU, where
/// libm's last bit depends on the CPU it runs on.
Rot makeRot(double angle);
double angleOf(Vec2 v);
constexpr Vec2 rotate(Rot q, Vec2 v) { return {q.c * v.x - q.s * v.y, q.s * v.x + q.c * v.y}; }
constexpr Vec2 inverseRotate(Rot q, Vec2 v) { return {q.c * v.x + q.s * v.y, -q.s * v.x + q.c * v.y}; }

/// q turned by deltaAngle, as the angle is: q and the angle must not drift apart, since pins
/// are solved on q and limits on the angle (a first-order turn drifted by Δθ³/3 per
/// correction, degrees per step for a limb a limit stops hard). Small turns — nearly all of
/// them — use the Taylor series to Δθ⁵ (error < 3·10⁻⁹ rad below 0.05 rad) instead of cos/sin.
inline Rot integrateRotation(Rot q, double deltaAngle) {
    double c, s;
    if (std::abs(deltaAngle) < 0.05) {
        const double a2 = deltaAngle * deltaAngle;
        c = 1.0 - a2 * (0.5 - a2 * (1.0 / 24.0));
        s = deltaAngle * (1.0 - a2 * (1.0 / 6.0 - a2 * (1.0 / 120.0)));
    } else {
        const Rot turn = makeRot(deltaAngle);
        c = turn.c;
        s = turn.s;
    }
    return {q.c * c - q.s * s, q.s * c + q.c * s};
}

/// A rigid placement: local point p maps to position + rotate(q, p).
struct Transform {
    Vec2 p;
    Rot q;
};

constexpr Vec2 transformPoint(const Transform& t, Vec2 v) { return t.p + rotate(t.q, v); }
constexpr Vec2 inverseTransformPoint(const Transform& t, Vec2 v) { return inverseRotate(t.q, v - t.p); }

/// The angle wrapped into (-π, π].
inline double wrapAngle(double a) {
    if (a > -kPi && a <= kPi) return a;  // the common case, without a division
    a = std::remainder(a, 2.0 * kPi);    // [-π, π]
    return a <= -kPi ? a + 2.0 * kPi : a;
}

struct AABB {
    Vec2 lower;
    Vec2 upper;
};

constexpr bool overlaps(const AABB& a, const AABB& b) {
    return a.lower.x <= b.upper.x && b.lower.x <= a.upper.x && a.lower.y <= b.upper.y && b.lower.y <= a.upper.y;
}

}  // namespace ragdoll
