// The ragdoll plugin, wrapped so that its second instance crashes in its 30th tick: a rebuild
// that crashes after a hot reload, for the editor's rollback test. The instances are counted
// in the file $PAPERDOLL_TEST_INSTANCE_COUNT (each reload loads a private copy of this
// library, with statics of its own); the first and any after the second run as the plugin
// does. Every call is the wrapped plugin's (RAGDOLL_LIBRARY, loaded once per copy).
#include "paper/plugin_api.h"

#include <dlfcn.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <thread>

struct PaperPluginInstance {
    PaperPluginInstance* wrapped;  // the ragdoll plugin's own instance, opaque here
    int number;                    // 1 for the first instance made, counted across copies
    int ticks;
};

namespace {

const PaperPluginApi* gWrapped = nullptr;
PaperPluginApi gApi;

int nextInstanceNumber() {
    const char* path = std::getenv("PAPERDOLL_TEST_INSTANCE_COUNT");
    if (!path) return 1;
    int count = 0;
    if (std::FILE* in = std::fopen(path, "r")) {
        if (std::fscanf(in, "%d", &count) != 1) count = 0;
        std::fclose(in);
    }
    if (std::FILE* out = std::fopen(path, "w")) {
        std::fprintf(out, "%d\n", count + 1);
        std::fclose(out);
    }
    return count + 1;
}

PaperPluginInstance* create(const PaperEngineServices* services, char* error, size_t capacity) {
    PaperPluginInstance* wrapped = gWrapped->create(services, error, capacity);
    if (!wrapped) return nullptr;
    const int number = nextInstanceNumber();
    // The reload a second past the first load, on any machine: the editor's Plugin panel
    // shows their times of day, which must differ for its test to tell them apart.
    if (number == 2) std::this_thread::sleep_for(std::chrono::milliseconds(1100));
    return new PaperPluginInstance{wrapped, number, 0};
}
void destroy(PaperPluginInstance* i) {
    gWrapped->destroy(i->wrapped);
    delete i;
}
int32_t loadLevel(PaperPluginInstance* i, const PaperLevelDesc* level, char* error, size_t capacity) {
    return gWrapped->loadLevel(i->wrapped, level, error, capacity);
}
void tick(PaperPluginInstance* i, double dt, const PaperInput* input) {
    if (i->number == 2 && ++i->ticks == 30) std::raise(SIGSEGV);
    gWrapped->tick(i->wrapped, dt, input);
}
void draw(PaperPluginInstance* i, uint32_t layers) { gWrapped->draw(i->wrapped, layers); }
size_t saveState(PaperPluginInstance* i, void* buffer, size_t capacity) {
    return gWrapped->saveState(i->wrapped, buffer, capacity);
}
int32_t loadState(PaperPluginInstance* i, const void* data, size_t size, char* error, size_t capacity) {
    return gWrapped->loadState(i->wrapped, data, size, error, capacity);
}
void getStats(PaperPluginInstance* i, double* values, int32_t count) { gWrapped->getStats(i->wrapped, values, count); }
int32_t objectCount(PaperPluginInstance* i, int32_t kind) { return gWrapped->objectCount(i->wrapped, kind); }
int32_t getObject(PaperPluginInstance* i, int32_t kind, int32_t index, PaperObjectInfo* info) {
    return gWrapped->getObject(i->wrapped, kind, index, info);
}
int32_t propertyCount(PaperPluginInstance* i, int32_t kind, uint64_t handle) {
    return gWrapped->propertyCount(i->wrapped, kind, handle);
}
int32_t getProperty(PaperPluginInstance* i, int32_t kind, uint64_t handle, int32_t index, PaperPropertyInfo* info) {
    return gWrapped->getProperty(i->wrapped, kind, handle, index, info);
}
int32_t setProperty(PaperPluginInstance* i, int32_t kind, uint64_t handle, int32_t index, double value) {
    return gWrapped->setProperty(i->wrapped, kind, handle, index, value);
}
int32_t runObjectCommand(PaperPluginInstance* i, uint64_t handle, int32_t command, double argument, char* error,
                         size_t capacity) {
    return gWrapped->runObjectCommand(i->wrapped, handle, command, argument, error, capacity);
}
int32_t saveAsset(PaperPluginInstance* i, const char* asset, const char* path, char* error, size_t capacity) {
    return gWrapped->saveAsset(i->wrapped, asset, path, error, capacity);
}

}  // namespace

extern "C" __attribute__((visibility("default"))) const PaperPluginApi* paperGetPluginApi(uint32_t abiVersion) {
    if (!gWrapped) {
        void* library = dlopen(RAGDOLL_LIBRARY, RTLD_NOW | RTLD_LOCAL);
        auto entry = library ? reinterpret_cast<PaperGetPluginApiFn>(dlsym(library, PAPER_PLUGIN_ENTRY_SYMBOL)) : nullptr;
        gWrapped = entry ? entry(abiVersion) : nullptr;
        if (!gWrapped) return nullptr;
        gApi = *gWrapped;  // its name, version, declarations, checkAsset and commandlets
        gApi.create = create;
        gApi.destroy = destroy;
        gApi.loadLevel = loadLevel;
        gApi.tick = tick;
        gApi.draw = draw;
        gApi.saveState = saveState;
        gApi.loadState = loadState;
        gApi.getStats = getStats;
        gApi.objectCount = objectCount;
        gApi.getObject = getObject;
        gApi.propertyCount = propertyCount;
        gApi.getProperty = getProperty;
        gApi.setProperty = setProperty;
        gApi.runObjectCommand = runObjectCommand;
        gApi.saveAsset = saveAsset;
    }
    return &gApi;
}
