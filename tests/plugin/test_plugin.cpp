// A small plugin for the loader tests, built several times with different behaviour:
//   TEST_PLUGIN_VERSION       the version it reports ("1.0", "2.0")
//   TEST_PLUGIN_ABI           an ABI version to claim instead of the real one
//   TEST_PLUGIN_NO_ENTRY      do not export the entry symbol
//   TEST_PLUGIN_NULL_ENTRY    a table with getObject left NULL
//   TEST_PLUGIN_REFUSE_STATE  refuse every state blob
//   TEST_PLUGIN_CRASH_IN_TICK crash (SIGSEGV) in its first tick
//   TEST_PLUGIN_CRASH_ON_LOAD crash (SIGSEGV) in a global constructor, while it loads
//   TEST_PLUGIN_BAD_DECLARATION  a kind's stats key that is also a figure's name
//   TEST_PLUGIN_TWO_FIGURES      two figures of one name
//   TEST_PLUGIN_UNSTEADY_STATE   saveState answers 8 bytes more when it writes than when asked
//   TEST_PLUGIN_HUGE_STATE       saveState answers (size_t)-1, a -1 returned as a size
//   TEST_PLUGIN_EMPTY_STATE      saveState answers 0 bytes, a "buffer too small" bug
//   TEST_PLUGIN_CRASH_IN_SAVE    crash (SIGSEGV) in saveState, once it has stepped
//   TEST_PLUGIN_CRASH_IN_STATS   crash (SIGSEGV) in getStats
//   TEST_PLUGIN_CRASH_IN_DESTROY crash (SIGSEGV) in destroy
//   TEST_PLUGIN_CRASH_IN_LOAD_STATE  crash (SIGSEGV) in loadState
//   TEST_PLUGIN_DIRTY_FINALIZER  a crash leaves a global half-made, which the library's
//                                finalizer (run when it is unloaded, or at exit) trips over
//   TEST_PLUGIN_GNU_UNIQUE       an inline function's static of default visibility, built
//                                without -fno-gnu-unique (g++ binds it STB_GNU_UNIQUE)
//   TEST_PLUGIN_UNDEFINED_SYMBOL calls a C++ function defined nowhere (the loader refuses it)
// Its state is a step counter and 4 KiB that every tick scrambles, so a state that does
// not survive a reload bit for bit shows in a hash.
//
// It declares the actions, figures and object kinds the engine's tests read, and reports one
// fake "walker" driven by its actions, so the player's input path can be checked end to end:
// the arrows walk it at 1 m/s (2 m/s with RUN), R flips it between "standing" and "fallen",
// G makes it "standing", B/N move its weight by 0.25, Tab cycles its role, and while the left
// button is down it sits at the mouse (a grab). getStats reports the steps, the pressed edges
// it has seen ("edges") and fixed figures; its "prop" objects echo the level's first props,
// asleep, where the level put them. The walker is not part of the state blob. When the
// level's first spawn names a PNG, it is loaded through the engine and drawn as a 1 m square,
// with its silhouette below.
#include <csignal>
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

#ifdef TEST_PLUGIN_GNU_UNIQUE
// Outside the anonymous namespace: external linkage, which the binding needs.
struct __attribute__((visibility("default"))) Counter {
    static int& created() {
        static int count = 0;
        return count;
    }
};
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
    const char* mode = "standing";
    int netRole = 0;  // index into kNetRoles
    float blendWeight = 0.0f;
    PaperVec2 position = {0.0f, 0.0f};
    const char* clip = "idle";
    std::int32_t image = 0;  // the first spawn's asset when it is a PNG: drawn as a 1 m square
    std::int32_t pressedEdges = 0;

    // The level's first props, as given.
    static constexpr int kMaxProps = 8;
    char propNames[kMaxProps][64] = {};
    PaperVec2 propPositions[kMaxProps] = {};
    float propAngles[kMaxProps] = {};
    int propCount = 0;
};

#ifdef TEST_PLUGIN_UNDEFINED_SYMBOL
// Declared, called, defined nowhere: the loader refuses the library (RTLD_NOW).
namespace testplugin {
void neverDefined();
}
#endif

namespace {

PaperPluginInstance* create(const PaperEngineServices* services, char*, size_t) {
#ifdef TEST_PLUGIN_GNU_UNIQUE
    ++Counter::created();
#endif
    auto* instance = new (std::nothrow) PaperPluginInstance{services, 0, {}};
    for (size_t i = 0; i < kPayload; ++i) instance->payload[i] = std::uint8_t(i * 31 + 7);
    return instance;
}
void destroy(PaperPluginInstance* instance) {
#ifdef TEST_PLUGIN_CRASH_IN_DESTROY
    std::raise(SIGSEGV);
#endif
    delete instance;
}
int32_t loadLevel(PaperPluginInstance* instance, const PaperLevelDesc* level, char* error, size_t capacity) {
    if (level && level->spawnCount > 0) {
        std::snprintf(instance->name, sizeof instance->name, "%s", level->spawns[0].name);
        instance->position = level->spawns[0].position;
        const char* asset = level->spawns[0].asset;
        const size_t length = asset ? std::strlen(asset) : 0;
        if (length > 4 && std::strcmp(asset + length - 4, ".png") == 0) {
            int32_t status = instance->services->loadImage(instance->services->context, asset, &instance->image, error, capacity);
            if (status != 0) return status;  // the engine's reason, as it wrote it
        }
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

constexpr const char* kNetRoles[] = {"solo", "leader", "follower"};

enum Action { kLeft, kRight, kRun, kJump, kToggle, kHitLeft, kHitRight, kHitAbove, kWeightDown, kWeightUp, kStand, kRole, kActionCount };
constexpr PaperActionDesc kActions[kActionCount] = {
    {"walk_left", "walk left", "Left"},  {"walk_right", "walk right", "Right"},   {"run", "run", "Left Shift|Right Shift"},
    {"jump", "jump", "Space"},           {"toggle", "fall", "R"},                {"hit_left", "hit from the left", "1"},
    {"hit_right", "hit from the right", "2"}, {"hit_above", "hit from above", "3"}, {"weight_down", "weight down", "B"},
    {"weight_up", "weight up", "N"},     {"stand", "stand", "G"},                {"role", "role", "Tab"},
};

enum Stat { kSteps, kEdges, kStretch, kLimit, kStatCount };
constexpr PaperStatDesc kStats[kStatCount] = {
    {"steps", "steps", "", 1.0, PAPER_STAT_INTEGER | PAPER_STAT_HUD},
    {"edges", "edges", "", 1.0, PAPER_STAT_INTEGER | PAPER_STAT_HUD},
    {"max_stretch_m", "stretch", "mm", 1000.0, PAPER_STAT_HUD | PAPER_STAT_PLOT},
#ifndef TEST_PLUGIN_TWO_FIGURES
    {"max_limit_violation_deg", "limit error", "deg", 1.0, PAPER_STAT_PLOT},
#else
    {"steps", "limit error", "deg", 1.0, PAPER_STAT_PLOT},  // the name of the first too
#endif
};

enum Kind { kWalker, kProp, kKindCount };
constexpr PaperObjectKindDesc kKinds[kKindCount] = {
#ifndef TEST_PLUGIN_BAD_DECLARATION
    {"walker", "Walker", "walkers", -1, 0},
#else
    {"walker", "Walker", "edges", -1, 0},  // the key of a figure too
#endif
    {"prop", "Prop", "props", -1, 0},
};
constexpr PaperCommandDesc kCommands[] = {{kWalker, "weight", "Weight", PAPER_ARGUMENT_FLOAT, 0.0, 1.0, "weight"}};

bool bit(std::uint64_t mask, Action action) { return (mask >> action) & 1u; }

void moveCharacter(PaperPluginInstance* c, double dt, const PaperInput& input) {
    for (std::uint64_t m = input.pressed; m; m &= m - 1) ++c->pressedEdges;
    if (bit(input.pressed, kToggle)) c->mode = std::strcmp(c->mode, "fallen") == 0 ? "standing" : "fallen";
    if (bit(input.pressed, kStand)) c->mode = "standing";
    if (bit(input.pressed, kRole)) c->netRole = (c->netRole + 1) % 3;
    if (bit(input.pressed, kWeightDown)) c->blendWeight = c->blendWeight > 0.25f ? c->blendWeight - 0.25f : 0.0f;
    if (bit(input.pressed, kWeightUp)) c->blendWeight = c->blendWeight < 0.75f ? c->blendWeight + 0.25f : 1.0f;
    bool fallen = std::strcmp(c->mode, "fallen") == 0;
    int direction = int(bit(input.held, kRight)) - int(bit(input.held, kLeft));
    bool run = bit(input.held, kRun);
    c->clip = fallen ? "" : direction == 0 ? "idle" : run ? "run" : "walk";
    if (!fallen) c->position.x += float(direction * (run ? 2.0 : 1.0) * dt);
    if (input.mouseDown & 1) c->position = input.mouseWorld;
}

#ifdef TEST_PLUGIN_DIRTY_FINALIZER
// What a crash in the middle of updating a global container leaves: its finalizer crashes.
bool gHalfMade = false;
struct FinalizerTripsOverACrash {
    ~FinalizerTripsOverACrash() {
        if (gHalfMade) std::raise(SIGSEGV);
    }
} finalizerTripsOverACrash;
#define TEST_PLUGIN_CRASH_HERE() (gHalfMade = true, std::raise(SIGSEGV))
#else
#define TEST_PLUGIN_CRASH_HERE() std::raise(SIGSEGV)
#endif

#ifdef TEST_PLUGIN_CRASH_ON_LOAD
// A plugin's global object whose constructor crashes: it runs inside dlopen.
struct CrashesOnLoad {
    CrashesOnLoad() { std::raise(SIGSEGV); }  // a null store here the compiler drops as undefined
} crashesOnLoad;
#endif

void tick(PaperPluginInstance* instance, double dt, const PaperInput* input) {
#ifdef TEST_PLUGIN_UNDEFINED_SYMBOL
    testplugin::neverDefined();
#endif
#ifdef TEST_PLUGIN_CRASH_IN_TICK
    TEST_PLUGIN_CRASH_HERE();
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

/// The image, if any, as a 1 m square whose bottom-left corner is the walker's position, and
/// its black silhouette 1.5 m below.
void draw(PaperPluginInstance* instance, uint32_t layers) {
    if (instance->image <= 0 || !(layers & PAPER_DRAW_ART)) return;
    const PaperVec2 uvs[4] = {{0.0f, 0.0f}, {1.0f, 0.0f}, {1.0f, 1.0f}, {0.0f, 1.0f}};
    for (int silhouette = 0; silhouette <= 1; ++silhouette) {
        const PaperVec2 p = {instance->position.x, instance->position.y - 1.5f * float(silhouette)};
        const PaperVec2 corners[4] = {{p.x, p.y + 1.0f}, {p.x + 1.0f, p.y + 1.0f}, {p.x + 1.0f, p.y}, {p.x, p.y}};
        const PaperColor tint = silhouette ? PaperColor{0, 0, 0, 255} : PaperColor{255, 255, 255, 255};
        instance->services->drawImage(instance->services->context, instance->image, corners, uvs, tint,
                                      silhouette ? PAPER_IMAGE_SILHOUETTE : 0);
    }
}

size_t saveState(PaperPluginInstance* instance, void* buffer, size_t capacity) {
#ifdef TEST_PLUGIN_HUGE_STATE
    return size_t(-1);
#endif
#ifdef TEST_PLUGIN_EMPTY_STATE
    (void)instance, (void)buffer, (void)capacity;
    return 0;
#endif
#ifdef TEST_PLUGIN_CRASH_IN_SAVE
    if (instance->steps > 0) std::raise(SIGSEGV);
#endif
    const size_t size = 4 + sizeof instance->steps + kPayload;
    if (buffer && capacity >= size) {
        auto* out = static_cast<std::uint8_t*>(buffer);
        std::memcpy(out, kMagic, 4);
        std::memcpy(out + 4, &instance->steps, sizeof instance->steps);
        std::memcpy(out + 4 + sizeof instance->steps, instance->payload, kPayload);
    }
#ifdef TEST_PLUGIN_UNSTEADY_STATE
    if (buffer) return size + 8;
#endif
    return size;
}

int32_t loadState(PaperPluginInstance* instance, const void* data, size_t size, char* error, size_t capacity) {
#ifdef TEST_PLUGIN_REFUSE_STATE
    (void)instance, (void)data, (void)size;
    std::snprintf(error, capacity, "this build refuses every state (test)");
    return 1;
#else
#ifdef TEST_PLUGIN_CRASH_IN_LOAD_STATE
    TEST_PLUGIN_CRASH_HERE();
#endif
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

void getStats(PaperPluginInstance* instance, double* values, int32_t count) {
#ifdef TEST_PLUGIN_CRASH_IN_STATS
    std::raise(SIGSEGV);
#endif
    const double figures[kStatCount] = {double(instance->steps), double(instance->pressedEdges), 0.0005, 0.25};
    for (int32_t i = 0; i < count && i < kStatCount; ++i) values[i] = figures[i];
}

int32_t objectCount(PaperPluginInstance* instance, int32_t kind) {
    return kind == kWalker ? 1 : kind == kProp ? instance->propCount : 0;
}
[[maybe_unused]] int32_t getObject(PaperPluginInstance* instance, int32_t kind, int32_t index, PaperObjectInfo* info) {
    if (!info || index < 0 || index >= objectCount(instance, kind)) return 1;
    *info = {uint64_t(index) + 1, kind == kWalker ? instance->name : instance->propNames[index], -1};
    return 0;
}

// The walker's: mode, role, clip, weight, position, bodies, and the HUD's summary; a prop's:
// position, angle, awake.
int32_t propertyCount(PaperPluginInstance* instance, int32_t kind, uint64_t handle) {
    if (handle < 1 || handle > uint64_t(objectCount(instance, kind))) return 0;
    return kind == kWalker ? 7 : kind == kProp ? 3 : 0;
}
int32_t getProperty(PaperPluginInstance* instance, int32_t kind, uint64_t handle, int32_t index, PaperPropertyInfo* info) {
    if (!info || index < 0 || index >= propertyCount(instance, kind, handle)) return 1;
    *info = {};
    info->unit = info->text = "";
    constexpr int32_t kReadOnly = PAPER_PROPERTY_READ_ONLY;
    if (kind == kProp) {
        const int p = int(handle - 1);
        const char* names[] = {"position", "angle", "awake"};
        info->name = info->label = names[index];
        info->flags = kReadOnly;
        info->type = index == 0 ? PAPER_PROPERTY_VEC2 : index == 1 ? PAPER_PROPERTY_FLOAT : PAPER_PROPERTY_BOOL;
        info->vector = instance->propPositions[p];
        info->value = index == 1 ? instance->propAngles[p] : 0.0;
        return 0;
    }
    const bool fallen = std::strcmp(instance->mode, "fallen") == 0;
    static char summary[96];
    switch (index) {
    case 0: *info = {"mode", "Mode", "", PAPER_PROPERTY_STRING, kReadOnly, 0, 0, 0, {}, instance->mode}; break;
    case 1: *info = {"net_role", "Role", "", PAPER_PROPERTY_STRING, kReadOnly, 0, 0, 0, {}, kNetRoles[instance->netRole]}; break;
    case 2: *info = {"clip", "Clip", "", PAPER_PROPERTY_STRING, kReadOnly, 0, 0, 0, {}, instance->clip}; break;
    case 3: *info = {"weight", "Weight", "", PAPER_PROPERTY_FLOAT, kReadOnly, 0, 1, instance->blendWeight, {}, ""}; break;
    case 4: *info = {"position", "Position", "m", PAPER_PROPERTY_VEC2, kReadOnly, 0, 0, 0, instance->position, ""}; break;
    case 5: *info = {"bodies", "Bodies", "", PAPER_PROPERTY_INT, kReadOnly, 0, 0, fallen ? 11.0 : 1.0, {}, ""}; break;
    default:
        std::snprintf(summary, sizeof summary, "%s   %s", instance->mode, kNetRoles[instance->netRole]);
        *info = {"summary", "Summary", "", PAPER_PROPERTY_STRING,
                 kReadOnly | PAPER_PROPERTY_HIDDEN | PAPER_PROPERTY_HUD | PAPER_PROPERTY_NOT_IN_STATS, 0, 0, 0, {}, summary};
    }
    return 0;
}
int32_t setProperty(PaperPluginInstance*, int32_t, uint64_t, int32_t, double) { return 1; }

int32_t runObjectCommand(PaperPluginInstance* instance, uint64_t handle, int32_t command, double argument, char* error,
                         size_t capacity) {
    if (handle != 1 || command != 0) {
        std::snprintf(error, capacity, "no such command");
        return int32_t(std::strlen("no such command") + 1);
    }
    instance->blendWeight = float(argument);
    return 0;
}

// Refuses the way a plugin built before plugin_api.h's "Reasons" rule does: the reason cut to
// the buffer and a bare 1, so the engine must notice the full buffer and ask again.
int32_t saveAsset(PaperPluginInstance*, const char* asset, const char* path, char* error, size_t capacity) {
    std::snprintf(error, capacity, "the test plugin has no assets to write from '%s' to '%s'", asset ? asset : "",
                  path ? path : "");
    return 1;
}

const PaperPluginApi kApi = {
    .abiVersion = TEST_PLUGIN_ABI,
    .structSize = sizeof(PaperPluginApi),
    .name = "test",
    .version = TEST_PLUGIN_VERSION,
    .commandlets = nullptr,
    .actions = kActions,
    .actionCount = kActionCount,
    .stats = kStats,
    .statCount = kStatCount,
    .kinds = kKinds,
    .kindCount = kKindCount,
    .commands = kCommands,
    .commandCount = 1,
    .assetTypes = nullptr,
    .assetTypeCount = 0,
    .create = create,
    .destroy = destroy,
    .loadLevel = loadLevel,
    .tick = tick,
    .draw = draw,
    .saveState = saveState,
    .loadState = loadState,
    .getStats = getStats,
    .objectCount = objectCount,
#ifndef TEST_PLUGIN_NULL_ENTRY
    .getObject = getObject,
#else
    .getObject = nullptr,
#endif
    .propertyCount = propertyCount,
    .getProperty = getProperty,
    .setProperty = setProperty,
    .runObjectCommand = runObjectCommand,
    .saveAsset = saveAsset,
    .checkAsset = nullptr,
    .runCommand = nullptr,
};

}  // namespace

#ifndef TEST_PLUGIN_NO_ENTRY
extern "C" PAPER_PLUGIN_EXPORT const PaperPluginApi* paperGetPluginApi(uint32_t) { return &kApi; }
#else
// Built, but under another name: the loader must say the entry symbol is missing.
extern "C" PAPER_PLUGIN_EXPORT const PaperPluginApi* paperGetPluginApiMisspelt(uint32_t) { return &kApi; }
#endif
