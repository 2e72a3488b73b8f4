// The plugin's drawing: part of its glue, since it speaks the engine's draw services.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "paper/plugin_api.h"
#include "scene/scene.h"

namespace ragdoll {

/// A character's bone whose cut-out parts are drawn marked (a tool's selection); -1: none.
struct PartHighlight {
    int character = -1;
    int bone = -1;
};

/// Draws the scene for the current frame (only inside the engine's draw call): the art (props,
/// characters, the grab), and over it the bones (each a thin line, each joint a dot).
/// images: the engine's handle of each rig image, by its path (a sprite whose image has
/// none is not drawn). The highlighted bone's parts are washed with the editor's selection
/// colour.
void drawScene(const PaperEngineServices& services, const Scene& scene, const std::map<std::string, std::int32_t>& images,
               bool art, bool bones, PartHighlight highlight = {});

}  // namespace ragdoll
