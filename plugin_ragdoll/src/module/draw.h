// The plugin's drawing: part of its glue, since it speaks the engine's draw services.
#pragma once

#include "paper/plugin_api.h"
#include "scene/scene.h"

namespace ragdoll {

/// Draws the scene for the current frame (only inside the engine's draw call): the art (props,
/// characters, the grab), and over it the bones (each a thin line, each joint a dot).
void drawScene(const PaperEngineServices& services, const Scene& scene, bool art, bool bones);

}  // namespace ragdoll
