// The plugin instance the engine holds, and what the glue's files share about it.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "module/draw.h"
#include "paper/plugin_api.h"
#include "scene/scene.h"

struct PaperPluginInstance {
    const PaperEngineServices* services = nullptr;
    ragdoll::Scene scene;
    std::string text;  ///< a string property's value, valid until the next call (plugin_api.h)
    /// The engine's handle of each rig image, by its resolved path (loaded with the level).
    std::map<std::string, std::int32_t> images;
    /// The body a tool has selected (its "selected" property), drawn with its parts marked.
    ragdoll::PartHighlight selected;
};

namespace ragdoll {

/// A refusal as plugin_api.h's "Reasons" says: the reason, cut to fit the engine's buffer,
/// and the capacity the whole of it needs as the return value, so the engine can ask again
/// and nothing is lost (a rig with 40 errors refuses with all 40).
std::int32_t refuse(char* error, std::size_t capacity, const std::string& message);

}  // namespace ragdoll
