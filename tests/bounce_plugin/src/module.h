// The glue between the engine's C ABI (paper/plugin_api.h) and the bounce world: what the
// plugin declares, and the instance the engine holds. Nothing C++ crosses the boundary.
#pragma once

#include <string>

#include "paper/plugin_api.h"
#include "world.h"

struct PaperPluginInstance {
    const PaperEngineServices* services = nullptr;
    bounce::World world;
    double stepMilliseconds = 0.0;
    std::string text;  // a string handed to the engine, valid until the next call
};

namespace bounce {

// Declaration order is the ABI: bit i of PaperInput is kActions[i], and so on.
enum Action { kSpawnBall, kShake, kPaddleUp, kPaddleDown, kActionCount };
enum Stat { kBallsStat, kStepMs, kMaxSpeed, kLowestBall, kStatCount };
enum Kind { kSettings, kEmitter, kBall, kPaddle, kKindCount };
enum Command { kKick, kEmit, kEmitSpeed, kCommandCount };

extern const PaperActionDesc kActions[kActionCount];
extern const PaperStatDesc kStats[kStatCount];
extern const PaperObjectKindDesc kKinds[kKindCount];
extern const PaperCommandDesc kCommands[kCommandCount];
extern const PaperAssetTypeDesc kAssetType;

/// Writes message as plugin_api.h's "Reasons" says; returns the capacity it needs.
std::int32_t refuse(char* error, std::size_t capacity, const std::string& message);

std::int32_t objectCount(PaperPluginInstance* instance, std::int32_t kind);
std::int32_t getObject(PaperPluginInstance* instance, std::int32_t kind, std::int32_t index, PaperObjectInfo* info);
std::int32_t propertyCount(PaperPluginInstance* instance, std::int32_t kind, std::uint64_t handle);
std::int32_t getProperty(PaperPluginInstance* instance, std::int32_t kind, std::uint64_t handle, std::int32_t index,
                         PaperPropertyInfo* info);
std::int32_t setProperty(PaperPluginInstance* instance, std::int32_t kind, std::uint64_t handle, std::int32_t index,
                         double value);
std::int32_t runObjectCommand(PaperPluginInstance* instance, std::uint64_t handle, std::int32_t command, double argument,
                              char* error, std::size_t capacity);

}  // namespace bounce
