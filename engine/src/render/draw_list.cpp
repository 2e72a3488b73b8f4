#include "paper/draw_list.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace paper {

std::uint32_t packColor(Color c) {
    return std::uint32_t(c.r) | std::uint32_t(c.g) << 8 | std::uint32_t(c.b) << 16 | std::uint32_t(c.a) << 24;
}

int DrawList::circleSegments(float radiusPixels, float tolerancePixels) {
    // A chord of a circle of radius r spanning angle 2π/n sits r(1 - cos(π/n)) inside
    // the arc; solve for the smallest n that keeps this under the tolerance.
    if (!(radiusPixels > tolerancePixels)) return kMinArcSegments;
    float n = kPi / std::acos(1.0f - tolerancePixels / radiusPixels);
    return std::clamp(int(std::ceil(n)), kMinArcSegments, kMaxArcSegments);
}

int DrawList::segmentsFor(float radiusMetres) const { return circleSegments(radiusMetres * pixelsPerMetre_); }

void DrawList::clear() {
    vertices_.clear();
    indices_.clear();
    batches_.clear();
}

void DrawList::addToBatch(int image, std::uint32_t count) {
    if (batches_.empty() || batches_.back().image != image)
        batches_.push_back({image, std::uint32_t(indices_.size()), 0});
    batches_.back().indexCount += count;
}

namespace {

/// The smallest and largest texture coordinates of a draw: the image's region it cuts out.
std::pair<Vec2, Vec2> uvBounds(const Vec2* uvs, int count) {
    Vec2 low = uvs[0], high = uvs[0];
    for (int i = 1; i < count; ++i) {
        low = {std::min(low.x, uvs[i].x), std::min(low.y, uvs[i].y)};
        high = {std::max(high.x, uvs[i].x), std::max(high.y, uvs[i].y)};
    }
    return {low, high};
}

}  // namespace

void DrawList::imageQuad(int image, const Vec2 corners[4], const Vec2 uvs[4], Color tint, bool silhouette) {
    if (image <= 0) return;
    auto base = std::uint32_t(vertices_.size());
    std::uint32_t rgba = packColor(tint);
    const auto [uvMin, uvMax] = uvBounds(uvs, 4);
    for (int i = 0; i < 4; ++i) vertices_.push_back({corners[i], rgba, uvs[i], silhouette ? 1.0f : 0.0f, uvMin, uvMax});
    addToBatch(image, 6);
    indices_.insert(indices_.end(), {base, base + 1, base + 2, base, base + 2, base + 3});
}

void DrawList::imageTriangles(int image, const Vec2* positions, const Vec2* uvs, int count, Color tint, bool silhouette) {
    if (image <= 0 || count < 3) return;
    count -= count % 3;
    auto base = std::uint32_t(vertices_.size());
    std::uint32_t rgba = packColor(tint);
    const auto [uvMin, uvMax] = uvBounds(uvs, count);
    for (int i = 0; i < count; ++i) vertices_.push_back({positions[i], rgba, uvs[i], silhouette ? 1.0f : 0.0f, uvMin, uvMax});
    addToBatch(image, std::uint32_t(count));
    for (int i = 0; i < count; ++i) indices_.push_back(base + std::uint32_t(i));
}

void DrawList::capsulePoints(Vec2 a, Vec2 b, float radius, std::vector<Vec2>& out) const {
    out.clear();
    Vec2 axis = b - a;
    float baseAngle = length(axis) > 0.0f ? std::atan2(axis.y, axis.x) : 0.0f;
    // Half the circle's segments per cap, so a capsule is as smooth as a circle of its
    // radius; an even count puts a vertex exactly on each cap's tip.
    int half = std::max((segmentsFor(radius) + 3) / 4 * 2, 4);
    for (int i = 0; i <= half; ++i) {  // cap around b, from -90° to +90° of the axis
        float t = baseAngle - 0.5f * kPi + kPi * float(i) / float(half);
        out.push_back(b + radius * Vec2{std::cos(t), std::sin(t)});
    }
    if (a == b) {
        // A circle: the second cap would retrace the first half's mirror exactly.
        for (int i = 1; i < half; ++i) {
            float t = baseAngle + 0.5f * kPi + kPi * float(i) / float(half);
            out.push_back(a + radius * Vec2{std::cos(t), std::sin(t)});
        }
        return;
    }
    for (int i = 0; i <= half; ++i) {  // cap around a, from +90° to +270°
        float t = baseAngle + 0.5f * kPi + kPi * float(i) / float(half);
        out.push_back(a + radius * Vec2{std::cos(t), std::sin(t)});
    }
}

void DrawList::fan(const Vec2* points, int count, Color color) {
    if (count < 3) return;
    auto base = std::uint32_t(vertices_.size());
    std::uint32_t rgba = packColor(color);
    for (int i = 0; i < count; ++i) vertices_.push_back({points[i], rgba});
    addToBatch(0, std::uint32_t(3 * (count - 2)));
    for (int i = 1; i + 1 < count; ++i) {
        indices_.push_back(base);
        indices_.push_back(base + std::uint32_t(i));
        indices_.push_back(base + std::uint32_t(i) + 1);
    }
}

void DrawList::ring(const Vec2* points, int count, float width, Color color) {
    if (count < 3 || width <= 0.0f) return;
    // Orientation decides which side of each edge is outside.
    float area2 = 0.0f;
    for (int i = 0; i < count; ++i) area2 += cross(points[i], points[(i + 1) % count]);
    float outward = area2 >= 0.0f ? 1.0f : -1.0f;
    float halfWidth = 0.5f * width;
    auto base = std::uint32_t(vertices_.size());
    std::uint32_t rgba = packColor(color);
    for (int i = 0; i < count; ++i) {
        Vec2 prev = points[(i + count - 1) % count], here = points[i], next = points[(i + 1) % count];
        // Outward normals of the two edges meeting here; the mitre runs along their mean.
        Vec2 n0 = outward * -perp(normalize(here - prev));
        Vec2 n1 = outward * -perp(normalize(next - here));
        Vec2 mitre = normalize(n0 + n1);
        float cosHalf = std::max(dot(mitre, n1), 0.25f);  // caps the mitre at 4x for sharp corners
        Vec2 offset = (halfWidth / cosHalf) * mitre;
        vertices_.push_back({here + offset, rgba});
        vertices_.push_back({here - offset, rgba});
    }
    addToBatch(0, std::uint32_t(6 * count));
    for (int i = 0; i < count; ++i) {
        std::uint32_t o0 = base + 2 * std::uint32_t(i), i0 = o0 + 1;
        std::uint32_t o1 = base + 2 * std::uint32_t((i + 1) % count), i1 = o1 + 1;
        indices_.insert(indices_.end(), {o0, o1, i1, o0, i1, i0});
    }
}

void DrawList::line(Vec2 a, Vec2 b, float width, Color color) { capsule(a, b, 0.5f * width, color); }

void DrawList::polyline(const Vec2* points, int count, float width, Color color, bool closed) {
    for (int i = 0; i + 1 < count; ++i) line(points[i], points[i + 1], width, color);
    if (closed && count > 2) line(points[count - 1], points[0], width, color);
    if (count == 1) circle(points[0], 0.5f * width, color);
}

void DrawList::capsule(Vec2 a, Vec2 b, float radius, Color fill) {
    capsulePoints(a, b, radius, scratch_);
    fan(scratch_.data(), int(scratch_.size()), fill);
}

void DrawList::capsuleOutline(Vec2 a, Vec2 b, float radius, float width, Color color) {
    capsulePoints(a, b, radius, scratch_);
    ring(scratch_.data(), int(scratch_.size()), width, color);
}

void DrawList::circle(Vec2 center, float radius, Color fill) { capsule(center, center, radius, fill); }

void DrawList::circleOutline(Vec2 center, float radius, float width, Color color) {
    capsuleOutline(center, center, radius, width, color);
}

void DrawList::polygon(const Vec2* points, int count, Color fill) { fan(points, count, fill); }

void DrawList::polygonOutline(const Vec2* points, int count, float width, Color color) {
    ring(points, count, width, color);
}

}  // namespace paper
