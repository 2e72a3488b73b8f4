// What tests/scenes/SCENES.md asks every engine to measure, computed by the same code for
// each engine so that the figures can be put side by side (used by box2d_peer.cpp and
// ours.cpp).
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "scenes.h"

namespace bench {

/// SCENES.md: exploded bodies leave |x| <= worldHalfWidth + this margin, metres.
inline constexpr double kEscapeMarginMetres = 1.0;
/// SCENES.md: exploded below this height, metres.
inline constexpr double kFloorYMetres = -10.0;
/// SCENES.md: exploded above this height, metres.
inline constexpr double kCeilingYMetres = 250.0;

/// First step (0-based) of the timing window. SCENES.md times steps 100..599 of 600 so that
/// the settling start is left out; runs of fewer than 200 steps are timed over every step
/// so that the window never holds fewer than 100 samples unless the run does.
inline int firstTimedStep(int steps) { return steps >= 200 ? 100 : 0; }

/// Fills msPerStepMedian and msPerStepMean over the timing window and msTotal over every
/// step from the wall time of each step taken, in milliseconds. A run cut short (it
/// exploded) is summarised over the steps it took.
inline void summarizeStepTimes(const std::vector<double>& stepMs, int plannedSteps, scenes::BenchResult& result) {
    result.msTotal = 0.0;
    for (double ms : stepMs) result.msTotal += ms;
    const size_t first = std::min(size_t(firstTimedStep(plannedSteps)), stepMs.size());
    std::vector<double> window(stepMs.begin() + std::ptrdiff_t(first), stepMs.end());
    if (window.empty()) window = stepMs;
    if (window.empty()) return;
    double sum = 0.0;
    for (double ms : window) sum += ms;
    result.msPerStepMean = sum / double(window.size());
    // Median: the middle element, or the mean of the two middle ones for an even count.
    const size_t mid = window.size() / 2;
    std::nth_element(window.begin(), window.begin() + std::ptrdiff_t(mid), window.end());
    double median = window[mid];
    if (window.size() % 2 == 0) {
        // nth_element leaves the lower half before mid: its largest is the other middle one.
        median = 0.5 * (median + *std::max_element(window.begin(), window.begin() + std::ptrdiff_t(mid)));
    }
    result.msPerStepMedian = median;
}

/// How far a joint's relative angle (child - parent, radians) lies outside [lower, upper];
/// 0 inside. Radians.
inline double limitViolation(double angle, double lower, double upper) {
    return std::max({lower - angle, angle - upper, 0.0});
}

/// SCENES.md's "exploded" test for one body's position: NaN or outside the world box.
inline bool hasEscaped(const scenes::SceneSpec& scene, double x, double y) {
    if (!std::isfinite(x) || !std::isfinite(y)) return true;
    return std::abs(x) > scene.worldHalfWidth + kEscapeMarginMetres || y < kFloorYMetres || y > kCeilingYMetres;
}

inline double radiansToDegrees(double radians) { return radians * (180.0 / ragdoll::kPi); }

}  // namespace bench
