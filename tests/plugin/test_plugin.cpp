// A small plugin for the loader tests, built several times with different behaviour:
//   TEST_PLUGIN_VERSION       the version it reports ("1.0", "2.0")
//   TEST_PLUGIN_ABI           an ABI version to claim instead of the real one
//   TEST_PLUGIN_NO_ENTRY      do not export the entry symbol
//   TEST_PLUGIN_REFUSE_STATE  refuse every state blob
//   TEST_PLUGIN_CRASH_IN_TICK crash (SIGSEGV) in its first tick
// Its state is a step counter and 4 KiB that every tick scrambles, so a state that does
// not survive a reload bit for bit shows in a hash.
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
};

namespace {

PaperPluginInstance* create(const PaperEngineServices* services, char*, size_t) {
    auto* instance = new (std::nothrow) PaperPluginInstance{services, 0, {}};
    for (size_t i = 0; i < kPayload; ++i) instance->payload[i] = std::uint8_t(i * 31 + 7);
    return instance;
}
void destroy(PaperPluginInstance* instance) { delete instance; }
int32_t loadLevel(PaperPluginInstance*, const PaperLevelDesc*, char*, size_t) { return 0; }

void tick(PaperPluginInstance* instance, double, const PaperInput*) {
#ifdef TEST_PLUGIN_CRASH_IN_TICK
    volatile int* nowhere = nullptr;
    *nowhere = 1;
#endif
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
}
int32_t propertyCount(PaperPluginInstance*) { return 0; }
int32_t getProperty(PaperPluginInstance*, int32_t, PaperPropertyInfo*) { return 1; }
int32_t setProperty(PaperPluginInstance*, int32_t, double) { return 1; }
int32_t jointCount(PaperPluginInstance*) { return 0; }
int32_t getJoint(PaperPluginInstance*, int32_t, PaperJointInfo*) { return 1; }
int32_t setJointLimits(PaperPluginInstance*, uint64_t, float, float) { return 1; }

const PaperPluginApi kApi = {TEST_PLUGIN_ABI, sizeof(PaperPluginApi), "test", TEST_PLUGIN_VERSION, create, destroy,
                             loadLevel, tick, draw, saveState, loadState, getStats, propertyCount, getProperty,
                             setProperty, jointCount, getJoint, setJointLimits, nullptr, nullptr};

}  // namespace

#ifndef TEST_PLUGIN_NO_ENTRY
extern "C" PAPER_PLUGIN_EXPORT const PaperPluginApi* paperGetPluginApi(uint32_t) { return &kApi; }
#else
// Built, but under another name: the loader must say the entry symbol is missing.
extern "C" PAPER_PLUGIN_EXPORT const PaperPluginApi* paperGetPluginApiMisspelt(uint32_t) { return &kApi; }
#endif
