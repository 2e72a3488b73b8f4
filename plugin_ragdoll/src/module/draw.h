// The plugin's drawing: part of its glue, since it speaks the engine's draw services.
#pragma once

#include "paper/plugin_api.h"
#include "scene/scene.h"

namespace ragdoll {

/// Draws the scene for the current frame (only inside the engine's draw call).
void drawScene(const PaperEngineServices& services, const Scene& scene);

}  // namespace ragdoll
