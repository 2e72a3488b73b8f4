// Small 2D maths shared by the engine, the editor and plugins' draw calls.
// World space: metres, y up, angles in radians counter-clockwise.
#pragma once

#include <algorithm>
#include <cmath>

namespace paper {

inline constexpr float kPi = 3.14159265358979323846f;

struct Vec2 {
    float x = 0.0f;
    float y = 0.0f;
};

constexpr Vec2 operator+(Vec2 a, Vec2 b) { return {a.x + b.x, a.y + b.y}; }
constexpr Vec2 operator-(Vec2 a, Vec2 b) { return {a.x - b.x, a.y - b.y}; }
constexpr Vec2 operator-(Vec2 a) { return {-a.x, -a.y}; }
constexpr Vec2 operator*(float s, Vec2 a) { return {s * a.x, s * a.y}; }
constexpr Vec2 operator*(Vec2 a, float s) { return {s * a.x, s * a.y}; }
constexpr Vec2& operator+=(Vec2& a, Vec2 b) { a.x += b.x; a.y += b.y; return a; }
constexpr Vec2& operator-=(Vec2& a, Vec2 b) { a.x -= b.x; a.y -= b.y; return a; }
constexpr bool operator==(Vec2 a, Vec2 b) { return a.x == b.x && a.y == b.y; }

constexpr float dot(Vec2 a, Vec2 b) { return a.x * b.x + a.y * b.y; }
/// z component of the 3D cross product; > 0 when b is counter-clockwise of a.
constexpr float cross(Vec2 a, Vec2 b) { return a.x * b.y - a.y * b.x; }
/// a rotated a quarter turn counter-clockwise.
constexpr Vec2 perp(Vec2 a) { return {-a.y, a.x}; }
inline float length(Vec2 a) { return std::sqrt(dot(a, a)); }
inline float distance(Vec2 a, Vec2 b) { return length(a - b); }
/// Unit vector along a, or (0,0) for a zero vector.
inline Vec2 normalize(Vec2 a) {
    float len = length(a);
    return len > 0.0f ? (1.0f / len) * a : Vec2{};
}
/// a rotated by angle radians counter-clockwise.
inline Vec2 rotate(Vec2 a, float angle) {
    float c = std::cos(angle), s = std::sin(angle);
    return {c * a.x - s * a.y, s * a.x + c * a.y};
}
constexpr Vec2 lerp(Vec2 a, Vec2 b, float t) { return {a.x + t * (b.x - a.x), a.y + t * (b.y - a.y)}; }

inline constexpr float degreesToRadians(float degrees) { return degrees * (kPi / 180.0f); }
inline constexpr float radiansToDegrees(float radians) { return radians * (180.0f / kPi); }

/// Axis-aligned box.
struct Rect {
    Vec2 min;
    Vec2 max;
};

/// The box round a segment a–b swept by a radius (a capsule; a circle when a == b).
inline Rect capsuleBounds(Vec2 a, Vec2 b, float radius) {
    return {{std::min(a.x, b.x) - radius, std::min(a.y, b.y) - radius}, {std::max(a.x, b.x) + radius, std::max(a.y, b.y) + radius}};
}
/// The box round two boxes.
inline Rect united(Rect a, Rect b) {
    return {{std::min(a.min.x, b.min.x), std::min(a.min.y, b.min.y)}, {std::max(a.max.x, b.max.x), std::max(a.max.y, b.max.y)}};
}

/// An RGBA colour, 8 bits per channel.
struct Color {
    unsigned char r = 0, g = 0, b = 0, a = 255;
};

}  // namespace paper
