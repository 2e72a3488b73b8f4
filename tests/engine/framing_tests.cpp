// The camera's framing, headless: the editor's starting frame and Follow (the editor's and
// the player's).
#include <catch2/catch.hpp>

#include "paper/framing.h"

using namespace paper;

namespace {

Camera camera1280x720() {
    Camera camera;
    camera.viewportSize = {1280.0f, 720.0f};
    return camera;
}

const ViewInsets kBars{19.0f, 27.0f};
/// The stickman standing at x = 2 m on the ground: feet at 0, head at 1.77 m.
const Rect kStickman{{1.8f, -0.05f}, {2.2f, 1.77f}};

}  // namespace

TEST_CASE("The starting frame shows the whole character and ground under its feet above the status line",
          "[framing]") {
    Camera camera = camera1280x720();
    frameStart(camera, kStickman, kBars);
    Rect view = freeView(camera, kBars);
    CHECK(isInView(camera, kStickman, kBars));
    // The ground strip: 0.4 m under the feet, above the status line's top edge.
    CHECK(view.min.y == Approx(kStickman.min.y - kStartGroundMetres).margin(1e-4));
    CHECK(camera.worldToScreen({2.0f, kStickman.min.y}).y < 720.0f - kBars.bottomPixels - 30.0f);
    // 3 m between the bars, the character centred across.
    CHECK(view.max.y - view.min.y == Approx(kMinStartViewHeight).margin(1e-4));
    CHECK(camera.center.x == Approx(2.0f));

    // A taller character gets a taller view.
    Rect giant{{0.0f, 0.0f}, {1.0f, 5.0f}};
    frameStart(camera, giant, kBars);
    CHECK(isInView(camera, giant, kBars));
    CHECK(freeView(camera, kBars).max.y - freeView(camera, kBars).min.y == Approx(5.8f).margin(1e-3));
}

TEST_CASE("Follow moves the camera only when the character nears an edge, and just enough", "[framing]") {
    Camera camera = camera1280x720();
    frameStart(camera, kStickman, kBars);
    Vec2 start = camera.center;
    CHECK_FALSE(keepInView(camera, kStickman, kBars));
    CHECK(camera.center.x == start.x);

    // Walked 6 m right: out of view, until Follow brings it back inside the margins.
    Rect walked{kStickman.min + Vec2{6.0f, 0.0f}, kStickman.max + Vec2{6.0f, 0.0f}};
    CHECK_FALSE(isInView(camera, walked, kBars));
    CHECK(keepInView(camera, walked, kBars));
    CHECK(isInView(camera, walked, kBars));
    Rect view = freeView(camera, kBars);
    CHECK(view.max.x - walked.max.x == Approx(kFollowMarginFraction * (view.max.x - view.min.x)).margin(1e-3));
    CHECK(camera.center.y == Approx(start.y));  // it only walked sideways
    CHECK_FALSE(keepInView(camera, walked, kBars));
}

TEST_CASE("Follow keeps the character clear of the side panels, not only inside the window", "[framing]") {
    // A ragdoll knocked right came to lie under the Tuning panel: inside the window, so
    // Follow never moved. The side panels' columns are insets too.
    Camera camera = camera1280x720();
    frameStart(camera, kStickman, kBars);
    const ViewInsets panels{kBars.topPixels, kBars.bottomPixels, 341.0f, 358.0f};
    CHECK(isInView(camera, kStickman, panels));  // the starting frame is clear of both columns

    // Lying 1.4 to 2.2 m to the right (225 px a metre): inside the window's margins, under
    // the right column, which starts 1.25 m right of the centre.
    const Rect lying{{3.4f, -0.05f}, {4.2f, 0.25f}};
    CHECK(isInView(camera, lying, kBars));
    CHECK_FALSE(isInView(camera, lying, panels));
    CHECK_FALSE(keepInView(camera, lying, kBars));
    CHECK(keepInView(camera, lying, panels));
    CHECK(isInView(camera, lying, panels));
    // Just inside the margin, in pixels: the right column starts at 1280 - 358.
    const Rect view = freeView(camera, panels);
    const float marginPixels = kFollowMarginFraction * (1280.0f - 341.0f - 358.0f);
    CHECK(camera.worldToScreen({lying.max.x, 0.0f}).x == Approx(1280.0f - 358.0f - marginPixels).margin(0.05));
    CHECK(view.max.x - lying.max.x == Approx(kFollowMarginFraction * (view.max.x - view.min.x)).margin(1e-3));
}
