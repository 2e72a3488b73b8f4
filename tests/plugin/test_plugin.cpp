// A small plugin for the loader tests, built several times with different behaviour:
//   TEST_PLUGIN_VERSION       the version it reports ("1.0", "2.0")
//   TEST_PLUGIN_ABI           an ABI version to claim instead of the real one
//   TEST_PLUGIN_NO_ENTRY      do not export the entry symbol
//   TEST_PLUGIN_NULL_ENTRY    a table with getProp left NULL
//   TEST_PLUGIN_REFUSE_STATE  refuse every state blob
//   TEST_PLUGIN_CRASH_IN_TICK crash (SIGSEGV) in its first tick
// Its state is a step counter and 4 KiB that every tick scrambles, so a state that does
// not survive a reload bit for bit shows in a hash.
//
// It also reports one fake character driven by PaperInput, so the player's input path can
// be checked end to end: the arrows walk it at 1 m/s (2 m/s with RUN), R flips it between
// "animated" and "ragdoll", G makes it "animated", B/N move the blend weight by 0.25, Tab
// cycles the net role, and while the left button is down it sits at the mouse (a grab).
// getStats reports the pressed edges it has seen in `contacts` and fixed figures for the
// stretch, limit and visual depth fields; getProp echoes the level's first props, asleep, where
// the level put them. The character is not part of the state blob.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <new>

#include "paper/plugin_api.h"

#ifndef TEST_PLUGIN_VERSION
#define TEST_PLUGIN_VERSION "1.0"
#endif
#ifndef TEST_PLUGIN_ABI
#define TEST_PLUGIN_ABI PAPER_PLUGIN_ABI_VERSION
#endif

namespace {

constexpr char kMagic[4] = {'T', 'S', 'T', 'S'};
constexpr size_t kPayload = 4096;

}  // namespace

struct PaperPluginInstance {
    const PaperEngineServices* services;
    std::uint64_t steps = 0;
    std::uint8_t payload[kPayload];

    // The fake character.
    char name[64] = "test";
    const char* mode = "animated";
    int netRole = 0;  // index into kNetRoles
    float blendWeight = 0.0f;
    PaperVec2 position = {0.0f, 0.0f};
    const char* clip = "idle";
    std::int32_t pressedEdges = 0;

    // The level's first props, as given.
    static constexpr int kMaxProps = 8;
    char propNames[kMaxProps][64] = {};
    PaperVec2 propPositions[kMaxProps] = {};
    float propAngles[kMaxProps] = {};
    int propCount = 0;
};

namespace {

PaperPluginInstance* create(const PaperEngineServices* services, char*, size_t) {
    auto* instance = new (std::nothrow) PaperPluginInstance{services, 0, {}};
    for (size_t i = 0; i < kPayload; ++i) instance->payload[i] = std::uint8_t(i * 31 + 7);
    return instance;
}
void destroy(PaperPluginInstance* instance) { delete instance; }
int32_t loadLevel(PaperPluginInstance* instance, const PaperLevelDesc* level, char*, size_t) {
    if (level && level->spawnCount > 0) {
        std::snprintf(instance->name, sizeof instance->name, "%s", level->spawns[0].name);
        instance->position = level->spawns[0].position;
    }
    instance->propCount = 0;
    for (int32_t i = 0; level && i < level->propCount && i < PaperPluginInstance::kMaxProps; ++i) {
        std::snprintf(instance->propNames[i], sizeof instance->propNames[i], "%s", level->props[i].name);
        instance->propPositions[i] = level->props[i].position;
        instance->propAngles[i] = level->props[i].angle;
        instance->propCount = i + 1;
    }
    return 0;
}

constexpr const char* kNetRoles[] = {"standalone", "host", "proxy"};

bool bit(std::uint64_t mask, PaperAction action) { return (mask >> action) & 1u; }

void moveCharacter(PaperPluginInstance* c, double dt, const PaperInput& input) {
    for (std::uint64_t m = input.pressed; m; m &= m - 1) ++c->pressedEdges;
    if (bit(input.pressed, PAPER_ACTION_TOGGLE_RAGDOLL))
        c->mode = std::strcmp(c->mode, "ragdoll") == 0 ? "animated" : "ragdoll";
    if (bit(input.pressed, PAPER_ACTION_GET_UP)) c->mode = "animated";
    if (bit(input.pressed, PAPER_ACTION_NET_ROLE)) c->netRole = (c->netRole + 1) % 3;
    if (bit(input.pressed, PAPER_ACTION_BLEND_DOWN)) c->blendWeight = c->blendWeight > 0.25f ? c->blendWeight - 0.25f : 0.0f;
    if (bit(input.pressed, PAPER_ACTION_BLEND_UP)) c->blendWeight = c->blendWeight < 0.75f ? c->blendWeight + 0.25f : 1.0f;
    bool ragdoll = std::strcmp(c->mode, "ragdoll") == 0;
    int direction = int(bit(input.held, PAPER_ACTION_RIGHT)) - int(bit(input.held, PAPER_ACTION_LEFT));
    bool run = bit(input.held, PAPER_ACTION_RUN);
    c->clip = ragdoll ? "" : direction == 0 ? "idle" : run ? "run" : "walk";
    if (!ragdoll) c->position.x += float(direction * (run ? 2.0 : 1.0) * dt);
    if (input.mouseDown & 1) c->position = input.mouseWorld;
}

void tick(PaperPluginInstance* instance, double dt, const PaperInput* input) {
#ifdef TEST_PLUGIN_CRASH_IN_TICK
    volatile int* nowhere = nullptr;
    *nowhere = 1;
#endif
    if (input) moveCharacter(instance, dt, *input);
    ++instance->steps;
    std::uint64_t x = instance->steps * 0x9E3779B97F4A7C15ull;
    for (size_t i = 0; i < kPayload; ++i) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        instance->payload[i] ^= std::uint8_t(x);
    }
}

void draw(PaperPluginInstance*) {}

size_t saveState(PaperPluginInstance* instance, void* buffer, size_t capacity) {
    const size_t size = 4 + sizeof instance->steps + kPayload;
    if (buffer && capacity >= size) {
        auto* out = static_cast<std::uint8_t*>(buffer);
        std::memcpy(out, kMagic, 4);
        std::memcpy(out + 4, &instance->steps, sizeof instance->steps);
        std::memcpy(out + 4 + sizeof instance->steps, instance->payload, kPayload);
    }
    return size;
}

int32_t loadState(PaperPluginInstance* instance, const void* data, size_t size, char* error, size_t capacity) {
#ifdef TEST_PLUGIN_REFUSE_STATE
    (void)instance, (void)data, (void)size;
    std::snprintf(error, capacity, "this build refuses every state (test)");
    return 1;
#else
    const auto* in = static_cast<const std::uint8_t*>(data);
    if (size != 4 + sizeof instance->steps + kPayload || std::memcmp(in, kMagic, 4) != 0) {
        std::snprintf(error, capacity, "not a test-plugin state (%zu bytes)", size);
        return 1;
    }
    std::memcpy(&instance->steps, in + 4, sizeof instance->steps);
    std::memcpy(instance->payload, in + 4 + sizeof instance->steps, kPayload);
    return 0;
#endif
}

void getStats(PaperPluginInstance* instance, PaperPhysicsStats* stats) {
    *stats = {};
    stats->bodies = int32_t(instance->steps);
    stats->contacts = instance->pressedEdges;
    stats->maxStretchMetres = 0.0005;
    stats->maxLimitViolationDegrees = 0.25;
    stats->runMaxStretchMetres = 0.002;
    stats->runMaxLimitViolationDegrees = 1.5;
    stats->maxVisualDepthMetres = 0.003;
    stats->runMaxVisualDepthMetres = 0.0125;
}
int32_t propertyCount(PaperPluginInstance*) { return 0; }
int32_t getProperty(PaperPluginInstance*, int32_t, PaperPropertyInfo*) { return 1; }
int32_t setProperty(PaperPluginInstance*, int32_t, double) { return 1; }
int32_t jointCount(PaperPluginInstance*) { return 0; }
int32_t getJoint(PaperPluginInstance*, int32_t, PaperJointInfo*) { return 1; }
int32_t setJointLimits(PaperPluginInstance*, uint64_t, double, double) { return 1; }
int32_t characterCount(PaperPluginInstance*) { return 1; }
int32_t getCharacter(PaperPluginInstance* instance, int32_t index, PaperCharacterInfo* info) {
    if (index != 0 || !info) return 1;
    bool ragdoll = std::strcmp(instance->mode, "ragdoll") == 0;
    *info = {instance->name, instance->mode, kNetRoles[instance->netRole], instance->clip, instance->blendWeight,
             instance->position, ragdoll ? 11 : 1};
    return 0;
}

int32_t setBlendWeight(PaperPluginInstance* instance, int32_t character, float weight) {
    if (character != 0) return 1;
    instance->blendWeight = weight;
    return 0;
}
// Refuses the way a plugin built before plugin_api.h's "Reasons" rule does: the reason cut to
// the buffer and a bare 1, so the engine must notice the full buffer and ask again.
int32_t saveRig(PaperPluginInstance*, int32_t, const char* path, char* error, size_t capacity) {
    std::snprintf(error, capacity, "the test plugin has no rigs to write to '%s'", path ? path : "");
    return 1;
}

int32_t bodyCount(PaperPluginInstance*) { return 0; }
int32_t getBody(PaperPluginInstance*, int32_t, PaperBodyInfo*) { return 1; }
int32_t objectPropertyCount(PaperPluginInstance*, int32_t, uint64_t) { return 0; }
int32_t getObjectProperty(PaperPluginInstance*, int32_t, uint64_t, int32_t, PaperPropertyInfo*) { return 1; }
int32_t setObjectProperty(PaperPluginInstance*, int32_t, uint64_t, int32_t, double) { return 1; }
int32_t propCount(PaperPluginInstance* instance) { return instance->propCount; }
[[maybe_unused]] int32_t getProp(PaperPluginInstance* instance, int32_t index, PaperPropInfo* info) {
    if (index < 0 || index >= instance->propCount || !info) return 1;
    *info = {instance->propNames[index], instance->propPositions[index], instance->propAngles[index], 0};
    return 0;
}

const PaperPluginApi kApi = {
    .abiVersion = TEST_PLUGIN_ABI,
    .structSize = sizeof(PaperPluginApi),
    .name = "test",
    .version = TEST_PLUGIN_VERSION,
    .commands = nullptr,
    .create = create,
    .destroy = destroy,
    .loadLevel = loadLevel,
    .tick = tick,
    .draw = draw,
    .saveState = saveState,
    .loadState = loadState,
    .getStats = getStats,
    .propertyCount = propertyCount,
    .getProperty = getProperty,
    .setProperty = setProperty,
    .jointCount = jointCount,
    .getJoint = getJoint,
    .setJointLimits = setJointLimits,
    .characterCount = characterCount,
    .getCharacter = getCharacter,
    .setBlendWeight = setBlendWeight,
    .saveRig = saveRig,
    .bodyCount = bodyCount,
    .getBody = getBody,
    .objectPropertyCount = objectPropertyCount,
    .getObjectProperty = getObjectProperty,
    .setObjectProperty = setObjectProperty,
    .propCount = propCount,
#ifndef TEST_PLUGIN_NULL_ENTRY
    .getProp = getProp,
#else
    .getProp = nullptr,
#endif
    .runCommand = nullptr,
};

}  // namespace

#ifndef TEST_PLUGIN_NO_ENTRY
extern "C" PAPER_PLUGIN_EXPORT const PaperPluginApi* paperGetPluginApi(uint32_t) { return &kApi; }
#else
// Built, but under another name: the loader must say the entry symbol is missing.
extern "C" PAPER_PLUGIN_EXPORT const PaperPluginApi* paperGetPluginApiMisspelt(uint32_t) { return &kApi; }
#endif
