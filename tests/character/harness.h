// The harness level (content/levels/harness.level.xml) as the plugin's Scene gets it, and
// small helpers the character tests share.
#pragma once

#include <string>

#include "scene/scene.h"

namespace test {

/// The harness level read by the engine's loader and handed over as the plugin does
/// (floats widened to doubles); the spawn optionally moved.
ragdoll::SceneLevel harnessLevel();
/// Another of content/levels the same way, by file name ("puppet.level.xml").
ragdoll::SceneLevel contentLevel(const std::string& fileName);

/// A box of terrain from (x0, y0) to (x1, y1).
ragdoll::ScenePiece box(double x0, double y0, double x1, double y1, double friction = 0.7);
/// Flat ground from x = -10 to 30 (top at y = 0) and a level's first spawn at x = 0, facing
/// right (the harness's: the paper doll).
ragdoll::SceneLevel flatLevel(const std::string& levelFile = "harness.level.xml");
/// Flat ground with a ramp rising to the right at the given angle from x = 2, up to 1.5 m,
/// and a platform beyond it.
ragdoll::SceneLevel rampLevel(double degrees, const std::string& levelFile = "harness.level.xml");

/// A scene with the harness loaded (REQUIREs success).
void loadHarness(ragdoll::Scene& scene);

/// Input with the given actions held (bit masks of ragdoll::Action) and pressed this step.
ragdoll::SceneInput input(std::uint64_t held = 0, std::uint64_t pressed = 0);
using ragdoll::bit;

/// Steps n times with the same input.
void run(ragdoll::Scene& scene, int steps, const ragdoll::SceneInput& in = {});

/// Kinetic energy of a character's bodies, J.
double kineticEnergy(const ragdoll::World& world, const ragdoll::Character& character);

}  // namespace test
