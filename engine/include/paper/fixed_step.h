// The fixed-timestep clock (Glenn Fiedler, "Fix Your Timestep!"): the simulation
// advances in whole steps of stepSeconds while rendering runs as fast as it can.
#pragma once

#include <cmath>

namespace paper {

inline constexpr double kSimulationHz = 60.0;

struct FixedStepClock {
    double stepSeconds = 1.0 / kSimulationHz;
    /// Steps one frame may run before the rest of the backlog is dropped; keeps a slow
    /// frame from causing more steps, slower frames and so on (the spiral of death).
    int maxStepsPerFrame = 5;

    double accumulatorSeconds = 0.0;  ///< real time not yet simulated, < stepSeconds after advance
    double droppedSeconds = 0.0;      ///< real time thrown away by the cap, in total

    /// Adds a frame's real time; returns how many steps to run now.
    int advance(double frameSeconds) {
        if (frameSeconds > 0.0) accumulatorSeconds += frameSeconds;
        int steps = 0;
        while (accumulatorSeconds >= stepSeconds && steps < maxStepsPerFrame) {
            accumulatorSeconds -= stepSeconds;
            ++steps;
        }
        if (accumulatorSeconds >= stepSeconds) {
            double keep = std::fmod(accumulatorSeconds, stepSeconds);
            droppedSeconds += accumulatorSeconds - keep;
            accumulatorSeconds = keep;
        }
        return steps;
    }

    /// How far real time is into the next step, 0..1, for interpolating what is drawn.
    double interpolation() const { return accumulatorSeconds / stepSeconds; }
};

}  // namespace paper
