// The plugin's exported entry point: glue between the engine's C ABI (paper/plugin_api.h)
// and the core (Scene). No state lives here but in the Instance the engine holds, so a
// reload cannot silently wipe anything.
#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <sstream>
#include <string>
#include <vector>

#include "paper/plugin_api.h"
#include "rig/rig_commands.h"
#include "scene/scene.h"

struct PaperPluginInstance {
    const PaperEngineServices* services = nullptr;
    ragdoll::Scene scene;
};

namespace {

using ragdoll::Scene;

void writeError(char* error, size_t capacity, const std::string& message) {
    if (error && capacity) std::snprintf(error, capacity, "%s", message.c_str());
}

PaperColor unpack(std::uint32_t rgba) {
    return {std::uint8_t(rgba), std::uint8_t(rgba >> 8), std::uint8_t(rgba >> 16), std::uint8_t(rgba >> 24)};
}

PaperPluginInstance* create(const PaperEngineServices* services, char* error, size_t capacity) {
    if (!services || services->abiVersion != PAPER_PLUGIN_ABI_VERSION || services->structSize != sizeof(PaperEngineServices)) {
        writeError(error, capacity,
                   "the engine's services table is version " + std::to_string(services ? services->abiVersion : 0) +
                       ", this plugin needs " + std::to_string(PAPER_PLUGIN_ABI_VERSION));
        return nullptr;
    }
    auto* instance = new (std::nothrow) PaperPluginInstance();
    if (!instance) {
        writeError(error, capacity, "out of memory");
        return nullptr;
    }
    instance->services = services;
    return instance;
}

void destroy(PaperPluginInstance* instance) { delete instance; }

int32_t loadLevel(PaperPluginInstance* instance, const PaperLevelDesc* desc, char* error, size_t capacity) {
    if (!desc) {
        writeError(error, capacity, "no level");
        return 1;
    }
    ragdoll::SceneLevel level;
    for (int32_t i = 0; i < desc->terrainCount; ++i) {
        const PaperTerrainPiece& t = desc->terrain[i];
        ragdoll::ScenePiece piece;
        for (int32_t k = 0; k < t.pointCount; ++k) piece.points.push_back({t.points[k].x, t.points[k].y});
        piece.friction = t.friction;
        piece.restitution = t.restitution;
        level.terrain.push_back(std::move(piece));
    }
    for (int32_t i = 0; i < desc->propCount; ++i) {
        const PaperProp& p = desc->props[i];
        level.props.push_back({{p.position.x, p.position.y}, p.angle, {p.halfExtents.x, p.halfExtents.y}, p.mass,
                               p.friction, p.restitution,
                               std::uint32_t(p.color.r) | std::uint32_t(p.color.g) << 8 | std::uint32_t(p.color.b) << 16 |
                                   std::uint32_t(p.color.a) << 24});
    }
    std::string why;
    try {
        if (!instance->scene.loadLevel(level, why)) {
            writeError(error, capacity, why);
            return 1;
        }
    } catch (const std::exception& e) {  // no exception may cross the C boundary
        writeError(error, capacity, e.what());
        return 1;
    }
    return 0;
}

void tick(PaperPluginInstance* instance, double dt, const PaperInput*) { instance->scene.step(dt); }

void draw(PaperPluginInstance* instance) {
    const PaperEngineServices* s = instance->services;
    for (const Scene::PropView& prop : instance->scene.props()) {
        ragdoll::Vec2 h = prop.halfExtents;
        ragdoll::Vec2 local[4] = {{-h.x, -h.y}, {h.x, -h.y}, {h.x, h.y}, {-h.x, h.y}};
        PaperVec2 corners[4];
        for (int i = 0; i < 4; ++i) {
            ragdoll::Vec2 p = ragdoll::transformPoint(prop.transform, local[i]);
            corners[i] = {float(p.x), float(p.y)};
        }
        PaperColor fill = unpack(prop.rgba);
        PaperColor edge = {std::uint8_t(fill.r * 0.65), std::uint8_t(fill.g * 0.65), std::uint8_t(fill.b * 0.65), fill.a};
        s->drawPolygon(s->context, corners, 4, fill);
        for (int i = 0; i < 4; ++i) s->drawLine(s->context, corners[i], corners[(i + 1) % 4], 0.02f, edge);
        s->drawLine(s->context, corners[0], corners[2], 0.015f, edge);
        s->drawLine(s->context, corners[1], corners[3], 0.015f, edge);
    }
}

size_t saveState(PaperPluginInstance* instance, void* buffer, size_t capacity) {
    std::vector<std::uint8_t> blob = instance->scene.saveState();
    if (buffer && capacity >= blob.size()) std::memcpy(buffer, blob.data(), blob.size());
    return blob.size();
}

int32_t loadState(PaperPluginInstance* instance, const void* data, size_t size, char* error, size_t capacity) {
    std::string why;
    if (!instance->scene.loadState(static_cast<const std::uint8_t*>(data), size, why)) {
        writeError(error, capacity, why);
        return 1;
    }
    return 0;
}

void getStats(PaperPluginInstance* instance, PaperPhysicsStats* out) {
    ragdoll::WorldStats s = instance->scene.world().stats();
    out->bodies = s.bodies;
    out->joints = s.joints;
    out->contacts = s.contacts;
    out->awakeBodies = s.awakeBodies;
    out->maxStretchMetres = s.maxJointSeparation;
    out->maxLimitViolationDegrees = s.maxLimitViolation * 180.0 / ragdoll::kPi;
    out->stepMilliseconds = s.stepMilliseconds;
}

int32_t propertyCount(PaperPluginInstance*) { return int32_t(Scene::propertyList().size()); }

int32_t getProperty(PaperPluginInstance* instance, int32_t index, PaperPropertyInfo* info) {
    if (index < 0 || index >= propertyCount(instance) || !info) return 1;
    const ragdoll::SceneProperty& p = Scene::propertyList()[size_t(index)];
    info->name = p.name;
    info->label = p.label;
    info->unit = p.unit;
    info->type = p.kind == ragdoll::SceneProperty::Float ? PAPER_PROPERTY_FLOAT
                 : p.kind == ragdoll::SceneProperty::Int ? PAPER_PROPERTY_INT
                                                         : PAPER_PROPERTY_BOOL;
    info->minValue = p.minValue;
    info->maxValue = p.maxValue;
    info->value = instance->scene.property(index);
    return 0;
}

int32_t setProperty(PaperPluginInstance* instance, int32_t index, double value) {
    return instance->scene.setProperty(index, value) ? 0 : 1;
}

// Characters, and with them joints, arrive with the character issue.
int32_t jointCount(PaperPluginInstance*) { return 0; }
int32_t getJoint(PaperPluginInstance*, int32_t, PaperJointInfo*) { return 1; }
int32_t setJointLimits(PaperPluginInstance*, uint64_t, float, float) { return 1; }

/// `paperdoll rig …` (rig/rig_commands.h), printed through the engine.
int32_t runCommand(const PaperEngineServices* services, int32_t argc, const char* const* argv) {
    std::vector<std::string> args(argv, argv + argc);
    std::ostringstream out, err;
    int status = 2;
    try {
        status = ragdoll::runRigCommand(args, out, err);
    } catch (const std::exception& e) {
        err << "paperdoll rig: error: " << e.what() << '\n';
        status = 1;
    }
    services->print(services->context, 1, out.str().c_str());
    services->print(services->context, 2, err.str().c_str());
    return status;
}

const PaperPluginApi kApi = {
    PAPER_PLUGIN_ABI_VERSION, sizeof(PaperPluginApi), "ragdoll", PAPERDOLL_RAGDOLL_VERSION,
    create, destroy, loadLevel, tick, draw, saveState, loadState, getStats,
    propertyCount, getProperty, setProperty, jointCount, getJoint, setJointLimits,
    "rig", runCommand,
};

}  // namespace

extern "C" PAPER_PLUGIN_EXPORT const PaperPluginApi* paperGetPluginApi(uint32_t engineAbiVersion) {
    return engineAbiVersion == PAPER_PLUGIN_ABI_VERSION ? &kApi : nullptr;
}
