// The live plots' ring buffers (app/plot_history.h).
#include <catch2/catch.hpp>

#include "model/plot_history.h"

using namespace paper::editor;

TEST_CASE("a ring buffer keeps the newest values, oldest first", "[editor][plots]") {
    RingBuffer<4> ring;
    CHECK(ring.empty());
    CHECK(ring.latest() == 0.0f);
    CHECK(ring.max() == 0.0f);
    ring.push(1.0f);
    ring.push(5.0f);
    ring.push(2.0f);
    REQUIRE(ring.size() == 3);
    CHECK(ring[0] == 1.0f);
    CHECK(ring[2] == 2.0f);
    CHECK(ring.latest() == 2.0f);
    CHECK(ring.max() == 5.0f);
    CHECK(ring.oldest() == 0);

    ring.push(3.0f);
    ring.push(4.0f);  // drops the 1
    ring.push(0.5f);  // drops the 5
    REQUIRE(ring.size() == 4);
    CHECK(ring[0] == 2.0f);
    CHECK(ring[1] == 3.0f);
    CHECK(ring[3] == 0.5f);
    CHECK(ring.max() == 4.0f);
    // What ImGui::PlotLines reads: the storage from oldest(), wrapping round.
    CHECK(ring.data()[ring.oldest()] == 2.0f);

    ring.clear();
    CHECK(ring.size() == 0);
    ring.push(7.0f);
    CHECK(ring[0] == 7.0f);
}

TEST_CASE("the stats plots take one sample per step in their display units", "[editor][plots]") {
    StatsPlots plots;
    PaperPhysicsStats stats{};
    for (int step = 0; step < int(kPlotSamples) + 25; ++step) {
        stats.stepMilliseconds = 0.25 + 0.001 * step;
        stats.maxStretchMetres = 0.002;         // 2 mm
        stats.maxLimitViolationDegrees = step;  // degrees as they are
        plots.add(stats);
    }
    REQUIRE(plots.stepMilliseconds.size() == kPlotSamples);
    CHECK(plots.stretchMillimetres.latest() == Approx(2.0));
    CHECK(plots.limitErrorDegrees.latest() == Approx(kPlotSamples + 24));
    CHECK(plots.limitErrorDegrees[0] == Approx(25.0));  // the first 25 steps scrolled away
    CHECK(plots.stepMilliseconds.max() == Approx(0.25 + 0.001 * (kPlotSamples + 24)));
    plots.clear();
    CHECK(plots.limitErrorDegrees.empty());
}
