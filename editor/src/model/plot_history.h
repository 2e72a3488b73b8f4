// The Simulate panel's live plots: the last few seconds of the plugin's step figures, one
// sample per simulated step, in fixed-size ring buffers (nothing allocates while playing).
// Plain C++, tested headless.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>

#include "paper/plugin_api.h"

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

/// The three figures the Simulate panel plots, in the units it shows them in.
struct StatsPlots {
    RingBuffer<kPlotSamples> stepMilliseconds;    ///< the plugin's own step, ms
    RingBuffer<kPlotSamples> stretchMillimetres;  ///< the largest joint anchor separation, mm
    RingBuffer<kPlotSamples> limitErrorDegrees;   ///< the largest limit violation, degrees

    /// One step's figures (PluginHost::stats() right after the step).
    void add(const PaperPhysicsStats& stats) {
        stepMilliseconds.push(float(stats.stepMilliseconds));
        stretchMillimetres.push(float(stats.maxStretchMetres * 1000.0));
        limitErrorDegrees.push(float(stats.maxLimitViolationDegrees));
    }
    void clear() {
        stepMilliseconds.clear();
        stretchMillimetres.clear();
        limitErrorDegrees.clear();
    }
};

}  // namespace paper::editor
