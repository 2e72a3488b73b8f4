// The Simulate panel's live plots: the last few seconds of the plugin's step figures, one
// sample per simulated step, in fixed-size ring buffers (nothing allocates while playing).
// Plain C++, tested headless.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>

#include <string>
#include <vector>

#include "paper/plugin_host.h"

namespace paper::editor {

/// The newest Capacity values pushed; once full, each push drops the oldest.
template <std::size_t Capacity>
class RingBuffer {
public:
    static_assert(Capacity > 0);

    void push(float value) {
        values_[next_] = value;
        next_ = (next_ + 1) % Capacity;
        if (size_ < Capacity) ++size_;
    }
    void clear() { size_ = next_ = 0; }

    std::size_t size() const { return size_; }
    static constexpr std::size_t capacity() { return Capacity; }
    bool empty() const { return size_ == 0; }
    /// The i-th value, oldest first (i < size()).
    float operator[](std::size_t i) const { return values_[(oldest() + i) % Capacity]; }
    /// The newest value; 0 when empty.
    float latest() const { return empty() ? 0.0f : (*this)[size_ - 1]; }
    /// The largest value held; 0 when empty.
    float max() const {
        if (empty()) return 0.0f;
        float best = (*this)[0];
        for (std::size_t i = 1; i < size_; ++i) best = std::max(best, (*this)[i]);
        return best;
    }
    /// The storage and where its oldest value is, for ImGui::PlotLines's values_offset.
    const float* data() const { return values_.data(); }
    std::size_t oldest() const { return size_ < Capacity ? 0 : next_; }

private:
    std::array<float, Capacity> values_{};
    std::size_t next_ = 0;  ///< where the next push goes
    std::size_t size_ = 0;
};

/// Samples the plots keep: 5 s of steps at the editor's 60 Hz.
inline constexpr std::size_t kPlotSamples = 300;

/// The most figures the Simulate panel plots at once.
inline constexpr std::size_t kMaxPlots = 8;

/// The figures the plugin flags for plotting (PAPER_STAT_PLOT), in their display units.
/// The top of a plot's scale for the largest value in view: a tenth above it, so the line
/// never touches the top, and never under kPlotSmallestTop. The numbers beside a plot show
/// three decimals: a stretch of 1e-7 mm read "max 0.000" while its line, scaled to itself,
/// ran along the top of the box as if at its worst.
inline constexpr float kPlotSmallestTop = 0.01f;
inline float plotTop(float largest) { return largest * 1.1f > kPlotSmallestTop ? largest * 1.1f : kPlotSmallestTop; }

struct StatsPlots {
    struct Plot {
        std::size_t stat = 0;        ///< index into the plugin's stats
        std::string name, label, unit;
        double displayScale = 1.0;
        RingBuffer<kPlotSamples> values;
    };
    std::array<Plot, kMaxPlots> plots;
    std::size_t count = 0;  ///< plots in use
    int generation = -1;    ///< the plugin library they were chosen for (PluginHost::generation)
    /// Whether that library has stepped since: until then the figures it reports are a new
    /// instance's (its step time 0), not those of the step the newest samples come from.
    bool stepped = false;

    /// Chooses the plots from the plugin's declared figures (the first kMaxPlots flagged).
    /// A figure plotted before (the same name, unit and scale: a hot reload of the same
    /// plugin) keeps its samples, wherever it moved in the list; a new one starts empty.
    /// Only Reset (clear()) empties them all: a reload goes on with the same simulation.
    void configure(const std::vector<PluginDeclarations::Stat>& stats, int pluginGeneration) {
        const std::array<Plot, kMaxPlots> before = plots;
        const std::size_t countBefore = count;
        count = 0;
        for (std::size_t i = 0; i < stats.size() && count < kMaxPlots; ++i) {
            if (!(stats[i].flags & PAPER_STAT_PLOT)) continue;
            Plot& plot = plots[count++];
            plot.stat = i;
            plot.name = stats[i].name;
            plot.label = stats[i].label;
            plot.unit = stats[i].unit;
            plot.displayScale = stats[i].displayScale;
            plot.values.clear();
            for (std::size_t b = 0; b < countBefore; ++b)
                if (before[b].name == plot.name && before[b].unit == plot.unit &&
                    before[b].displayScale == plot.displayScale)
                    plot.values = before[b].values;
        }
        generation = pluginGeneration;
        stepped = false;
    }
    /// One step's figures (PluginHost::stats() right after the step).
    void add(const std::vector<double>& values) {
        stepped = true;
        for (std::size_t i = 0; i < count; ++i) {
            Plot& plot = plots[i];
            plot.values.push(plot.stat < values.size() ? float(values[plot.stat] * plot.displayScale) : 0.0f);
        }
    }
    void clear() {
        for (Plot& plot : plots) plot.values.clear();
    }
};

}  // namespace paper::editor
