// The 2D batch: shapes in world space (metres) tessellated on the CPU into one indexed
// triangle list with per-vertex colour, and textured quads (cut-out art) in the same list.
// Consecutive triangles on one image form a batch: the GL backend draws one call per batch
// (shapes are on image 0, a white texel), in the order they were added. The headless
// backend never needs it, and tests inspect the triangles directly.
#pragma once

#include <cstdint>
#include <vector>

#include "paper/math.h"

namespace paper {

struct DrawVertex {
    Vec2 position;       ///< metres
    std::uint32_t rgba;  ///< r in the low byte, as OpenGL reads GL_UNSIGNED_BYTE x4; straight alpha
    Vec2 uv{};           ///< texture coordinates, 0..1 from the image's top-left (shapes: 0, 0)
    float silhouette = 0.0f;  ///< 1: the colour alone where the image is opaque (shadows, rims)
    /// The part of the image the vertex's quad or triangles cut out (their texture
    /// coordinates' bounds): sampling stays within it, so a part cut from an atlas never
    /// blends in its neighbour's texels at its edge (shapes: 0, 0 to 0, 0).
    Vec2 uvMin{}, uvMax{};
};  // 40 bytes

/// Triangles drawn with one image: indices [firstIndex, firstIndex + indexCount).
struct DrawBatch {
    int image = 0;  ///< an ImageStore id; 0 is plain colour
    std::uint32_t firstIndex = 0;
    std::uint32_t indexCount = 0;
};

/// Largest distance, in pixels, between a tessellated curve and the true curve.
inline constexpr float kCurveTolerancePixels = 0.2f;
inline constexpr int kMinArcSegments = 12;  ///< per full circle
inline constexpr int kMaxArcSegments = 128;

class DrawList {
public:
    /// Segments a full circle of this on-screen radius needs to stay within tolerance.
    static int circleSegments(float radiusPixels, float tolerancePixels = kCurveTolerancePixels);

    /// Sets the zoom curves are tessellated for; call when the camera changes.
    void setPixelsPerMetre(float pixelsPerMetre) { pixelsPerMetre_ = pixelsPerMetre; }
    float pixelsPerMetre() const { return pixelsPerMetre_; }
    /// A width of `pixels` on screen, in metres at the current zoom.
    float pixels(float pixels) const { return pixels / pixelsPerMetre_; }

    void clear();

    /// A thick line with round caps (a filled capsule of radius width/2).
    void line(Vec2 a, Vec2 b, float width, Color color);
    /// Connected thick lines with round joins.
    void polyline(const Vec2* points, int count, float width, Color color, bool closed = false);
    void capsule(Vec2 a, Vec2 b, float radius, Color fill);
    void capsuleOutline(Vec2 a, Vec2 b, float radius, float width, Color color);
    void circle(Vec2 center, float radius, Color fill);
    void circleOutline(Vec2 center, float radius, float width, Color color);
    /// A filled convex polygon, counter-clockwise or clockwise.
    void polygon(const Vec2* points, int count, Color fill);
    /// The outline of a convex polygon with mitred corners, centred on its edges.
    void polygonOutline(const Vec2* points, int count, float width, Color color);
    /// A quad of image (an ImageStore id > 0): corners in order round it, each with its
    /// texture coordinates, tinted (the image's colour times tint); a silhouette is the tint
    /// alone, as opaque as the image.
    void imageQuad(int image, const Vec2 corners[4], const Vec2 uvs[4], Color tint, bool silhouette = false);
    /// Triangles of image: `count` vertices (a multiple of 3), three per triangle, each with
    /// its texture coordinates; tint and silhouette as for imageQuad.
    void imageTriangles(int image, const Vec2* positions, const Vec2* uvs, int count, Color tint, bool silhouette = false);

    const std::vector<DrawVertex>& vertices() const { return vertices_; }
    const std::vector<std::uint32_t>& indices() const { return indices_; }
    const std::vector<DrawBatch>& batches() const { return batches_; }

private:
    int segmentsFor(float radiusMetres) const;
    /// Points of a convex capsule (or circle when a == b) outline, counter-clockwise.
    void capsulePoints(Vec2 a, Vec2 b, float radius, std::vector<Vec2>& out) const;
    void fan(const Vec2* points, int count, Color color);
    void ring(const Vec2* points, int count, float width, Color color);
    /// Starts a batch unless the last one is on image; `count` indices follow.
    void addToBatch(int image, std::uint32_t count);

    float pixelsPerMetre_ = 100.0f;
    std::vector<DrawVertex> vertices_;
    std::vector<std::uint32_t> indices_;
    std::vector<DrawBatch> batches_;
    std::vector<Vec2> scratch_;
};

std::uint32_t packColor(Color color);

}  // namespace paper
