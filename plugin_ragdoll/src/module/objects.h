// The plugin's objects as the engine reflects them (plugin_api.h's object functions): the
// settings, characters, their joints and bodies, and the props.
#pragma once

#include "module/instance.h"

namespace ragdoll {

std::int32_t objectCount(PaperPluginInstance* instance, std::int32_t kind);
std::int32_t getObject(PaperPluginInstance* instance, std::int32_t kind, std::int32_t index, PaperObjectInfo* info);
std::int32_t propertyCount(PaperPluginInstance* instance, std::int32_t kind, std::uint64_t handle);
std::int32_t getProperty(PaperPluginInstance* instance, std::int32_t kind, std::uint64_t handle, std::int32_t index,
                         PaperPropertyInfo* info);
std::int32_t setProperty(PaperPluginInstance* instance, std::int32_t kind, std::uint64_t handle, std::int32_t index,
                         double value);
std::int32_t runObjectCommand(PaperPluginInstance* instance, std::uint64_t handle, std::int32_t command, double argument,
                              char* error, std::size_t capacity);
std::int32_t saveAsset(PaperPluginInstance* instance, const char* asset, const char* path, char* error,
                       std::size_t capacity);
std::int32_t checkAsset(const PaperEngineServices* services, const char* path, char* error, std::size_t capacity);

}  // namespace ragdoll
