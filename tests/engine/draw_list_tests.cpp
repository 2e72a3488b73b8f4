#include <catch2/catch.hpp>

#include <cmath>
#include <set>

#include "paper/draw_list.h"
#include "paper/screen_text.h"

using namespace paper;

namespace {

float triangleArea(const DrawList& d, size_t first) {
    Vec2 a = d.vertices()[d.indices()[first]].position;
    Vec2 b = d.vertices()[d.indices()[first + 1]].position;
    Vec2 c = d.vertices()[d.indices()[first + 2]].position;
    return 0.5f * std::fabs(cross(b - a, c - a));
}

float totalArea(const DrawList& d) {
    float area = 0.0f;
    for (size_t i = 0; i < d.indices().size(); i += 3) area += triangleArea(d, i);
    return area;
}

}  // namespace

TEST_CASE("circle segment count keeps the chord error under the tolerance", "[render]") {
    for (float radiusPixels : {2.0f, 10.0f, 50.0f, 200.0f, 1000.0f}) {
        int n = DrawList::circleSegments(radiusPixels, 0.2f);
        CHECK(n >= kMinArcSegments);
        CHECK(n <= kMaxArcSegments);
        float sagitta = radiusPixels * (1.0f - std::cos(kPi / float(n)));
        if (n < kMaxArcSegments) CHECK(sagitta <= 0.2f + 1e-4f);
    }
    // Larger circles on screen get more segments.
    CHECK(DrawList::circleSegments(200.0f) > DrawList::circleSegments(20.0f));
}

TEST_CASE("a filled circle is a fan whose rim lies on the circle", "[render]") {
    DrawList d;
    d.setPixelsPerMetre(100.0f);
    Vec2 c{1.0f, 2.0f};
    float r = 0.5f;  // 50 px on screen
    d.circle(c, r, Color{255, 0, 0, 255});
    int n = int(d.vertices().size());
    REQUIRE(n >= DrawList::circleSegments(50.0f));
    REQUIRE(int(d.indices().size()) == 3 * (n - 2));
    for (const DrawVertex& v : d.vertices()) CHECK(distance(v.position, c) == Approx(r).epsilon(1e-5));
    // Area of the inscribed n-gon: (n/2) r² sin(2π/n).
    float expected = 0.5f * float(n) * r * r * std::sin(2.0f * kPi / float(n));
    CHECK(totalArea(d) == Approx(expected).epsilon(1e-4));
    CHECK(totalArea(d) == Approx(kPi * r * r).epsilon(0.01));
    CHECK(d.vertices()[0].rgba == 0xff0000ffu);
}

TEST_CASE("a capsule spans its segment, caps included, and covers its area", "[render]") {
    DrawList d;
    d.setPixelsPerMetre(200.0f);
    Vec2 a{0.0f, 0.0f}, b{0.0f, 0.5f};  // a vertical torso, 0.5 m long
    float r = 0.09f;
    d.capsule(a, b, r, Color{32, 32, 32, 255});
    // Every vertex lies exactly r from the segment, and the extremes reach its caps.
    float minY = 1e9f, maxY = -1e9f;
    for (const DrawVertex& v : d.vertices()) {
        Vec2 p = v.position;
        float t = std::clamp(dot(p - a, b - a) / dot(b - a, b - a), 0.0f, 1.0f);
        CHECK(distance(p, lerp(a, b, t)) == Approx(r).epsilon(1e-4));
        minY = std::min(minY, p.y);
        maxY = std::max(maxY, p.y);
    }
    CHECK(minY == Approx(-r).margin(1e-5));
    CHECK(maxY == Approx(0.5f + r).margin(1e-5));
    float exact = 2.0f * r * 0.5f + kPi * r * r;
    CHECK(totalArea(d) == Approx(exact).epsilon(0.01));
}

TEST_CASE("a thick line is a capsule of half its width (round caps)", "[render]") {
    DrawList line, capsule;
    line.line({0, 0}, {1, 0}, 0.2f, Color{});
    capsule.capsule({0, 0}, {1, 0}, 0.1f, Color{});
    REQUIRE(line.vertices().size() == capsule.vertices().size());
    for (size_t i = 0; i < line.vertices().size(); ++i) CHECK(line.vertices()[i].position == capsule.vertices()[i].position);
    CHECK(totalArea(line) == Approx(0.2f + kPi * 0.01f).epsilon(0.01));
}

TEST_CASE("convex polygons fill to their exact area in either winding", "[render]") {
    Vec2 ccw[4] = {{0, 0}, {2, 0}, {2, 1}, {0, 1}};
    Vec2 cw[4] = {{0, 0}, {0, 1}, {2, 1}, {2, 0}};
    DrawList a, b;
    a.polygon(ccw, 4, Color{});
    b.polygon(cw, 4, Color{});
    CHECK(totalArea(a) == Approx(2.0f));
    CHECK(totalArea(b) == Approx(2.0f));
    CHECK(a.indices().size() == 6);
}

TEST_CASE("outlines are rings of the given width centred on the edges", "[render]") {
    Vec2 square[4] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    for (bool clockwise : {false, true}) {
        Vec2 pts[4];
        for (int i = 0; i < 4; ++i) pts[i] = square[clockwise ? 3 - i : i];
        DrawList d;
        d.polygonOutline(pts, 4, 0.1f, Color{});
        // Mitred ring from the 1.1 m square down to the 0.9 m square.
        CHECK(totalArea(d) == Approx(1.1f * 1.1f - 0.9f * 0.9f).epsilon(1e-4));
        float maxCoord = -1e9f;
        for (const DrawVertex& v : d.vertices()) maxCoord = std::max(maxCoord, v.position.x);
        CHECK(maxCoord == Approx(1.05f));
    }

    DrawList ring;
    ring.setPixelsPerMetre(100.0f);
    ring.circleOutline({0, 0}, 1.0f, 0.1f, Color{});
    CHECK(totalArea(ring) == Approx(kPi * (1.05f * 1.05f - 0.95f * 0.95f)).epsilon(0.01));
}

TEST_CASE("clear empties the batch and indices stay within the vertices", "[render]") {
    DrawList d;
    d.circle({0, 0}, 1.0f, Color{});
    Vec2 tri[3] = {{0, 0}, {1, 0}, {0, 1}};
    d.polygon(tri, 3, Color{});
    d.capsuleOutline({0, 0}, {1, 1}, 0.2f, 0.02f, Color{});
    for (std::uint32_t i : d.indices()) CHECK(i < d.vertices().size());
    d.clear();
    CHECK(d.vertices().empty());
    CHECK(d.indices().empty());
}

TEST_CASE("image quads and shapes keep their order in batches, one per run of an image", "[render][image]") {
    DrawList list;
    const Vec2 corners[4] = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};
    const Vec2 uvs[4] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    list.circle({0, 0}, 1.0f, {10, 20, 30, 255});
    list.imageQuad(3, corners, uvs, {255, 255, 255, 255});
    list.imageQuad(3, corners, uvs, {255, 0, 0, 128});  // the same image: the same batch
    list.imageQuad(5, corners, uvs, {255, 255, 255, 255});
    list.line({0, 0}, {1, 0}, 0.1f, {0, 0, 0, 255});
    list.imageQuad(0, corners, uvs, {255, 255, 255, 255});  // no image: nothing drawn
    const std::vector<DrawBatch>& batches = list.batches();
    REQUIRE(batches.size() == 4);
    CHECK(batches[0].image == 0);
    CHECK(batches[1].image == 3);
    CHECK(batches[1].indexCount == 12);
    CHECK(batches[2].image == 5);
    CHECK(batches[3].image == 0);
    std::uint32_t next = 0;
    for (const DrawBatch& b : batches) {  // contiguous, covering every index once
        CHECK(b.firstIndex == next);
        next += b.indexCount;
    }
    CHECK(next == list.indices().size());
    // A quad's vertices carry its texture coordinates and tint; shapes sample at (0, 0).
    const DrawVertex& quadCorner = list.vertices()[list.indices()[batches[1].firstIndex + 1]];
    CHECK(quadCorner.uv.x == 1.0f);
    CHECK(quadCorner.uv.y == 0.0f);
    CHECK(list.vertices()[0].uv.x == 0.0f);
    list.clear();
    CHECK(list.batches().empty());
}

TEST_CASE("image triangles join their image's batch, three indices per triangle, with their uvs and tint", "[draw]") {
    DrawList list;
    const Vec2 corners[4] = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};
    const Vec2 uvs[4] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    const Vec2 positions[7] = {{0, 0}, {2, 0}, {2, 1}, {2, 1}, {0, 1}, {0, 0}, {9, 9}};
    const Vec2 texels[7] = {{0, 0}, {0.5f, 0}, {0.5f, 0.25f}, {0.5f, 0.25f}, {0, 0.25f}, {0, 0}, {1, 1}};
    list.imageQuad(3, corners, uvs, {255, 255, 255, 255});
    list.imageTriangles(3, positions, texels, 7, {10, 20, 30, 40}, true);  // the seventh vertex: no whole triangle
    list.imageTriangles(0, positions, texels, 6, {255, 255, 255, 255});     // no image: nothing drawn
    list.imageTriangles(4, positions, texels, 2, {255, 255, 255, 255});     // no triangle: nothing drawn
    REQUIRE(list.batches().size() == 1);
    CHECK(list.batches()[0].indexCount == 6 + 6);
    REQUIRE(list.vertices().size() == 4 + 6);
    const DrawVertex& v = list.vertices()[list.indices()[6 + 2]];
    CHECK(v.position.x == 2.0f);
    CHECK(v.position.y == 1.0f);
    CHECK(v.uv.x == 0.5f);
    CHECK(v.uv.y == 0.25f);
    CHECK(v.rgba == packColor({10, 20, 30, 40}));
    CHECK(v.silhouette == 1.0f);
}

TEST_CASE("labels of spawns standing side by side are stacked, not written into one another", "[render]") {
    // Three spawn labels 50 px apart, each 230 px wide and 13 px high: as laid, all overlap.
    std::vector<ScreenText> labels = {{{100, 380}, {}, "player  (paper_doll.rig.xml)"},
                                      {{150, 380}, {}, "friend  (stickman.rig.xml)"},
                                      {{190, 380}, {}, "third  (stickman.rig.xml)"},
                                      {{600, 380}, {}, "far  (stickman.rig.xml)"}};
    const std::vector<Vec2> sizes(labels.size(), Vec2{230, 13});
    stackOverlapping(labels, sizes);
    CHECK(labels[0].position.y == 380);  // the first stays where its flag put it
    CHECK(labels[1].position.y == 365);  // above it, 2 px apart
    CHECK(labels[2].position.y == 350);  // above both
    CHECK(labels[3].position.y == 380);  // a label clear of the others is not moved
    for (std::size_t i = 0; i < labels.size(); ++i) {
        CHECK(labels[i].position.x == std::vector<float>{100, 150, 190, 600}[i]);  // each stays over its flag
        for (std::size_t j = 0; j < i; ++j) {
            bool apart = labels[i].position.x >= labels[j].position.x + sizes[j].x ||
                         labels[j].position.x >= labels[i].position.x + sizes[i].x ||
                         labels[i].position.y + sizes[i].y <= labels[j].position.y ||
                         labels[j].position.y + sizes[j].y <= labels[i].position.y;
            CHECK(apart);
        }
    }
}
