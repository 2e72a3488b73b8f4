// Our solver on a benchmark scene (ours.cpp, against ragdoll_core).
#pragma once

#include <vector>

#include "scenes.h"
#include "solver/world.h"

namespace bench {

/// Deepest overlap of `bodies` with the world's static bodies now (World::overlap), metres (≥ 0).
double deepestInStatics(const ragdoll::World& world, const std::vector<ragdoll::BodyId>& bodies);

/// Builds `scene` in our solver and steps it `steps` times at 1/60 s with `substeps`
/// substeps, sleeping on or off, measuring what SCENES.md asks (helpers in measure.h).
/// Sets result.engine to our engine's name.
scenes::BenchResult runOurs(const scenes::SceneSpec& scene, int steps, int substeps, bool sleeping, int iterations = 1,
                            bool iterativeJoints = false, int threads = 1);

}  // namespace bench
