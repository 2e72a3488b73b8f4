#include <catch2/catch.hpp>

#include <SDL_keycode.h>

#include "paper/input.h"

using namespace paper;

TEST_CASE("actions map several keys and report held, pressed and released", "[input]") {
    InputMap input;
    ActionId left = input.bind("walk_left", SDLK_LEFT);
    CHECK(input.bind("walk_left", SDLK_a) == left);
    ActionId quit = input.bind("quit", SDLK_ESCAPE);
    CHECK(input.find("walk_left") == left);
    CHECK(input.find("nope") == kNoAction);
    CHECK(input.name(quit) == "quit");

    input.keyEvent(SDLK_LEFT, true);
    CHECK(input.held(left));
    CHECK(input.pressed(left));
    CHECK_FALSE(input.held(quit));

    input.keyEvent(SDLK_a, true);  // a second key of the same action: no new press
    input.consumeEdges();
    CHECK_FALSE(input.pressed(left));
    input.keyEvent(SDLK_LEFT, false);
    CHECK(input.held(left));  // still held by A
    CHECK_FALSE(input.released(left));
    input.keyEvent(SDLK_a, false);
    CHECK_FALSE(input.held(left));
    CHECK(input.released(left));
}

TEST_CASE("a tap between two steps is seen by the next step", "[input]") {
    InputMap input;
    ActionId ragdoll = input.bind("toggle", SDLK_r);
    input.keyEvent(SDLK_r, true);
    input.keyEvent(SDLK_r, false);  // pressed and released within one frame
    input.endFrame();               // a rendered frame that ran no step
    CHECK(input.pressed(ragdoll));
    CHECK(input.released(ragdoll));
    input.consumeEdges();  // the step saw it
    CHECK_FALSE(input.pressed(ragdoll));
}

TEST_CASE("a press the frame itself acts on is taken once, however many frames run no step", "[input]") {
    // F3 and F1 toggle views each frame that sees the press: two frames with no step between
    // (a display faster than 60 Hz) toggled twice, the view back where it was.
    InputMap input;
    ActionId debugView = input.bind("debug_view", SDLK_F3);
    ActionId walk = input.bind("walk", SDLK_RIGHT);
    input.keyEvent(SDLK_F3, true);
    input.keyEvent(SDLK_RIGHT, true);
    CHECK(input.takePress(debugView));
    input.endFrame();  // no step this frame
    CHECK_FALSE(input.takePress(debugView));
    CHECK(input.pressed(walk));  // the others' presses wait for a step
}

TEST_CASE("key repeat does not count as new presses", "[input]") {
    InputMap input;
    ActionId jump = input.bind("jump", SDLK_SPACE);
    input.keyEvent(SDLK_SPACE, true);
    input.consumeEdges();
    input.keyEvent(SDLK_SPACE, true);  // auto-repeat
    CHECK_FALSE(input.pressed(jump));
    CHECK(input.held(jump));
    CHECK_FALSE(input.held(kNoAction));
}

TEST_CASE("mouse deltas and wheel accumulate until the frame ends", "[input]") {
    InputMap input;
    input.mouseMove({10, 10});
    input.endFrame();
    input.mouseMove({15, 12});
    input.mouseMove({25, 20});
    input.mouseWheel(1.0f);
    input.mouseWheel(0.5f);
    input.mouseButton(MouseButton::Right, true);
    CHECK(input.mouse().dragDelta.x == 15.0f);
    CHECK(input.mouse().dragDelta.y == 10.0f);
    CHECK(input.mouse().wheel == 1.5f);
    CHECK(input.mouse().down[int(MouseButton::Right)]);
    input.endFrame();
    CHECK(input.mouse().dragDelta.x == 0.0f);
    CHECK(input.mouse().wheel == 0.0f);
    CHECK(input.mouse().position.x == 25.0f);
}
