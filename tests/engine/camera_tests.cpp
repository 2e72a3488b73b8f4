#include <catch2/catch.hpp>

#include "paper/camera.h"

using namespace paper;

TEST_CASE("camera maps world metres to screen pixels with y up", "[camera]") {
    Camera camera;
    camera.viewportSize = {800, 600};
    camera.frame({2.0f, 1.0f}, 6.0f);  // 6 m over 600 px
    REQUIRE(camera.pixelsPerMetre == Approx(100.0f));

    Vec2 middle = camera.worldToScreen({2.0f, 1.0f});
    CHECK(middle.x == Approx(400.0f));
    CHECK(middle.y == Approx(300.0f));
    Vec2 aboveRight = camera.worldToScreen({3.0f, 2.0f});  // 1 m right and up: +100 px x, -100 px y
    CHECK(aboveRight.x == Approx(500.0f));
    CHECK(aboveRight.y == Approx(200.0f));

    Vec2 back = camera.screenToWorld(aboveRight);
    CHECK(back.x == Approx(3.0f));
    CHECK(back.y == Approx(2.0f));

    Rect view = camera.visibleWorld();
    CHECK(view.min.x == Approx(-2.0f));
    CHECK(view.max.x == Approx(6.0f));
    CHECK(view.min.y == Approx(-2.0f));
    CHECK(view.max.y == Approx(4.0f));
}

TEST_CASE("zooming at the cursor keeps the world point under it fixed", "[camera]") {
    Camera camera;
    camera.viewportSize = {1280, 720};
    camera.frame({0.0f, 1.0f}, 7.2f);
    Vec2 cursor{1000.0f, 150.0f};
    Vec2 before = camera.screenToWorld(cursor);
    camera.zoomAt(cursor, 2.5f);
    CHECK(camera.pixelsPerMetre == Approx(250.0f));
    Vec2 after = camera.screenToWorld(cursor);
    CHECK(after.x == Approx(before.x).margin(1e-4));
    CHECK(after.y == Approx(before.y).margin(1e-4));

    camera.zoomAt(cursor, 1e9f);  // clamped, not infinite
    CHECK(camera.pixelsPerMetre == Camera::kMaxPixelsPerMetre);
}

TEST_CASE("panning drags the world along with the mouse", "[camera]") {
    Camera camera;
    camera.viewportSize = {800, 600};
    camera.frame({0.0f, 0.0f}, 6.0f);
    Vec2 grabbed = camera.screenToWorld({100.0f, 100.0f});
    camera.panPixels({50.0f, -30.0f});
    Vec2 under = camera.worldToScreen(grabbed);
    CHECK(under.x == Approx(150.0f));
    CHECK(under.y == Approx(70.0f));
}

TEST_CASE("the clip matrix agrees with worldToScreen", "[camera]") {
    Camera camera;
    camera.viewportSize = {640, 480};
    camera.frame({-3.0f, 2.0f}, 4.0f);
    float m[16];
    camera.worldToClipMatrix(m);
    Vec2 world{-2.2f, 2.7f};
    float clipX = m[0] * world.x + m[4] * world.y + m[12];
    float clipY = m[1] * world.x + m[5] * world.y + m[13];
    Vec2 screen = camera.worldToScreen(world);
    CHECK((clipX + 1.0f) * 0.5f * 640.0f == Approx(screen.x));
    CHECK((1.0f - clipY) * 0.5f * 480.0f == Approx(screen.y));
}
