#include <catch2/catch.hpp>

#include "paper/fixed_step.h"

using namespace paper;

TEST_CASE("the fixed-step clock runs 60 steps per second at any frame rate", "[clock]") {
    for (double fps : {30.0, 59.94, 60.0, 144.0, 1000.0}) {
        FixedStepClock clock;
        long steps = 0;
        int frames = int(fps * 10.0);  // ten seconds
        for (int i = 0; i < frames; ++i) steps += clock.advance(1.0 / fps);
        CAPTURE(fps);
        CHECK(std::abs(steps - 600) <= 1);
        CHECK(clock.droppedSeconds == 0.0);
        CHECK(clock.interpolation() >= 0.0);
        CHECK(clock.interpolation() < 1.0);
    }
}

TEST_CASE("a long hitch is capped instead of spiralling", "[clock]") {
    FixedStepClock clock;
    CHECK(clock.advance(0.010) == 0);  // not yet a whole step
    CHECK(clock.accumulatorSeconds == Approx(0.010));
    CHECK(clock.advance(2.0) == clock.maxStepsPerFrame);  // a 2 s freeze
    CHECK(clock.droppedSeconds == Approx(2.010 - 5.0 / 60.0 - clock.accumulatorSeconds));
    CHECK(clock.accumulatorSeconds < clock.stepSeconds);
    CHECK(clock.advance(1.0 / 60.0) == 1);  // back to normal at once
}

TEST_CASE("negative or zero frame times run nothing", "[clock]") {
    FixedStepClock clock;
    CHECK(clock.advance(0.0) == 0);
    CHECK(clock.advance(-1.0) == 0);
    CHECK(clock.accumulatorSeconds == 0.0);
}
