// A level read by the engine's loader, as the ragdoll plugin's Scene gets it through the C
// ABI (floats widened to doubles): what the character tests and the benchmark's sweep load.
#pragma once

#include "paper/level.h"
#include "scene/scene.h"

namespace test {

ragdoll::SceneLevel toSceneLevel(const paper::Level& level);

}  // namespace test
