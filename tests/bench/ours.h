// Our solver on a benchmark scene (ours.cpp, against ragdoll_core).
#pragma once

#include "scenes.h"

namespace bench {

/// Builds `scene` in our solver and steps it `steps` times at 1/60 s with `substeps`
/// substeps, sleeping on or off, measuring what SCENES.md asks (helpers in measure.h).
/// Sets result.engine to our engine's name.
scenes::BenchResult runOurs(const scenes::SceneSpec& scene, int steps, int substeps, bool sleeping, int iterations = 1,
                            bool iterativeJoints = false, int threads = 1);

}  // namespace bench
