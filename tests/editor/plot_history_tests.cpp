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

TEST_CASE("a plot's scale puts its largest value a tenth under the top, never blowing up what reads 0.000",
          "[editor][plots]") {
    CHECK(plotTop(2.0f) == Approx(2.2f));
    CHECK(plotTop(0.05f) == Approx(0.055f));
    // Values the numbers show as 0.000 stay in the bottom twentieth of the box.
    CHECK(plotTop(1e-7f) == Approx(0.01f));
    CHECK(0.00049f / plotTop(0.00049f) <= 0.05f);
    CHECK(plotTop(0.0f) == Approx(0.01f));
}

TEST_CASE("the stats plots take one sample per step of each figure flagged for plotting, in its display units",
          "[editor][plots]") {
    using Stat = paper::PluginDeclarations::Stat;
    const std::vector<Stat> declared = {{"step_ms", "step time", "ms", 1.0, PAPER_STAT_PLOT},
                                        {"bodies", "bodies", "", 1.0, PAPER_STAT_INTEGER | PAPER_STAT_HUD},
                                        {"max_stretch_m", "stretch", "mm", 1000.0, PAPER_STAT_PLOT},
                                        {"limit_deg", "limit error", "deg", 1.0, PAPER_STAT_PLOT}};
    StatsPlots plots;
    plots.configure(declared, 7);
    REQUIRE(plots.count == 3);  // the bodies are not plotted
    CHECK(plots.plots[1].label == "stretch");
    CHECK(plots.generation == 7);
    for (int step = 0; step < int(kPlotSamples) + 25; ++step)
        plots.add({0.25 + 0.001 * step, 30.0, 0.002, double(step)});  // 2 mm of stretch
    const auto& stepMs = plots.plots[0].values;
    const auto& stretch = plots.plots[1].values;
    const auto& limit = plots.plots[2].values;
    REQUIRE(stepMs.size() == kPlotSamples);
    CHECK(stretch.latest() == Approx(2.0));
    CHECK(limit.latest() == Approx(kPlotSamples + 24));
    CHECK(limit[0] == Approx(25.0));  // the first 25 steps scrolled away
    CHECK(stepMs.max() == Approx(0.25 + 0.001 * (kPlotSamples + 24)));
    plots.clear();
    CHECK(limit.empty());
    plots.configure({}, 8);
    CHECK(plots.count == 0);
}

TEST_CASE("a hot reload declaring the same figures keeps the plots' samples, and a changed figure starts empty",
          "[editor][plots]") {
    using Stat = paper::PluginDeclarations::Stat;
    const std::vector<Stat> declared = {{"step_ms", "step time", "ms", 1.0, PAPER_STAT_PLOT},
                                        {"max_stretch_m", "stretch", "mm", 1000.0, PAPER_STAT_PLOT}};
    StatsPlots plots;
    plots.configure(declared, 1);
    for (int step = 0; step < 40; ++step) plots.add({double(step), 0.001});
    // The next library, the same figures (the editor reconfigures on every new generation).
    plots.configure(declared, 2);
    REQUIRE(plots.count == 2);
    CHECK(plots.generation == 2);
    CHECK(plots.plots[0].values.size() == 40);
    CHECK(plots.plots[0].values.latest() == Approx(39.0));
    CHECK(plots.plots[1].values.size() == 40);
    plots.add({40.0, 0.002});
    CHECK(plots.plots[0].values.size() == 41);

    // A library that adds a figure first, keeps step time and rescales stretch to metres:
    // step time keeps its samples where it now is, the others start empty.
    plots.configure({{"contacts", "contacts", "", 1.0, PAPER_STAT_PLOT},
                     {"step_ms", "step time", "ms", 1.0, PAPER_STAT_PLOT},
                     {"max_stretch_m", "stretch", "m", 1.0, PAPER_STAT_PLOT}},
                    3);
    REQUIRE(plots.count == 3);
    CHECK(plots.plots[0].values.empty());
    CHECK(plots.plots[1].label == "step time");
    CHECK(plots.plots[1].values.size() == 41);
    CHECK(plots.plots[1].values.latest() == Approx(40.0));
    CHECK(plots.plots[2].values.empty());
}
