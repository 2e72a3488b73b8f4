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
