// The plugin's exported entry point: glue between the engine's C ABI (paper/plugin_api.h)
// and the core (Scene). No state lives here but in the Instance the engine holds, so a
// reload cannot silently wipe anything.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <exception>
#include <new>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "module/declarations.h"
#include "module/draw.h"
#include "module/instance.h"
#include "module/objects.h"
#include "rig_tools/rig_commands.h"

namespace ragdoll {

std::int32_t refuse(char* error, std::size_t capacity, const std::string& message) {
    if (error && capacity) {
        size_t length = std::min(message.size(), capacity - 1);
        std::memcpy(error, message.data(), length);
        error[length] = '\0';
    }
    return std::int32_t(std::min<size_t>(message.size() + 1, size_t(INT32_MAX)));
}

}  // namespace ragdoll

namespace {

using ragdoll::refuse;
using ragdoll::Scene;

/// The engine's job service as the solver's task system (solver/tasks.h); none (one
/// worker: the calling thread) where the engine has no job service.
ragdoll::TaskSystem engineTasks(const PaperEngineServices* services) {
    ragdoll::TaskSystem tasks;
    if (!services->jobWorkerCount || !services->enqueueTask || !services->finishTask) return tasks;
    tasks.workerCount = int(services->jobWorkerCount(services->context));  // held to 1..kMaxWorkers by the world
    tasks.enqueueTask = [](ragdoll::TaskFn* task, int itemCount, int minRange, void* taskContext, void* user) -> void* {
        const auto* s = static_cast<const PaperEngineServices*>(user);
        return s->enqueueTask(s->context, task, itemCount, minRange, taskContext);
    };
    tasks.finishTask = [](void* handle, void* user) {
        const auto* s = static_cast<const PaperEngineServices*>(user);
        s->finishTask(s->context, handle);
    };
    tasks.userContext = const_cast<PaperEngineServices*>(services);
    return tasks;
}

PaperPluginInstance* create(const PaperEngineServices* services, char* error, size_t capacity) {
    if (!services || services->abiVersion != PAPER_PLUGIN_ABI_VERSION || services->structSize != sizeof(PaperEngineServices)) {
        refuse(error, capacity,
               "the engine's services table is version " + std::to_string(services ? services->abiVersion : 0) +
                   ", this plugin needs " + std::to_string(PAPER_PLUGIN_ABI_VERSION));
        return nullptr;
    }
    auto* instance = new (std::nothrow) PaperPluginInstance();
    if (!instance) {
        refuse(error, capacity, "out of memory");
        return nullptr;
    }
    instance->services = services;
    // Every worker the engine has, to begin with: the simulation is the same whatever the
    // setting, only its time changes (a state blob brings its own setting back).
    const ragdoll::TaskSystem tasks = engineTasks(services);
    instance->scene.setTaskSystem(tasks);
    instance->scene.setThreads(tasks.workerCount);
    return instance;
}

void destroy(PaperPluginInstance* instance) { delete instance; }

/// The engine's handle for every image the characters' rigs cut parts from. The rig loader
/// has decoded each already, so a refusal here is the engine's own trouble: logged, and the
/// parts of that image are not drawn.
void loadImages(PaperPluginInstance& instance) {
    const PaperEngineServices* s = instance.services;
    instance.images.clear();
    for (int c = 0; c < instance.scene.characterCount(); ++c)
        for (const ragdoll::RigImage& image : instance.scene.character(c).rig().images) {
            if (instance.images.count(image.path)) continue;
            std::int32_t handle = 0;
            char why[1024] = {};
            if (s->loadImage(s->context, image.path.c_str(), &handle, why, sizeof why) == 0)
                instance.images[image.path] = handle;
            else
                s->log(s->context, PAPER_LOG_WARNING, why);
        }
}

int32_t loadLevel(PaperPluginInstance* instance, const PaperLevelDesc* desc, char* error, size_t capacity) {
    if (!desc) {
        return refuse(error, capacity, "no level");
    }
    ragdoll::SceneLevel level;
    for (int32_t i = 0; i < desc->terrainCount; ++i) {
        const PaperTerrainPiece& t = desc->terrain[i];
        ragdoll::ScenePiece piece;
        for (int32_t k = 0; k < t.pointCount; ++k) piece.points.push_back({t.points[k].x, t.points[k].y});
        piece.friction = t.friction;
        piece.restitution = t.restitution;
        piece.line = t.line;
        level.terrain.push_back(std::move(piece));
    }
    for (int32_t i = 0; i < desc->propCount; ++i) {
        const PaperProp& p = desc->props[i];
        level.props.push_back({p.name ? p.name : "prop" + std::to_string(i), {p.position.x, p.position.y}, p.angle, {p.halfExtents.x, p.halfExtents.y}, p.mass,
                               p.friction, p.restitution,
                               std::uint32_t(p.color.r) | std::uint32_t(p.color.g) << 8 | std::uint32_t(p.color.b) << 16 |
                                   std::uint32_t(p.color.a) << 24,
                               p.line});
    }
    for (int32_t i = 0; i < desc->spawnCount; ++i) {
        const PaperSpawn& p = desc->spawns[i];
        level.spawns.push_back({p.name ? p.name : "", p.asset ? p.asset : "", {p.position.x, p.position.y},
                                p.facingRight != 0, p.line});
    }
    level.path = desc->path ? desc->path : "";
    std::string why;
    std::vector<std::string> warnings;
    try {
        if (!instance->scene.loadLevel(level, why, &warnings)) {
            return refuse(error, capacity, why);
        }
        // What the rigs and clips ignored (an unknown attribute, a misspelt element), said
        // where the user looks while playing: the host's log.
        for (const std::string& w : warnings) instance->services->log(instance->services->context, PAPER_LOG_WARNING, w.c_str());
        loadImages(*instance);
        instance->selected = {};
    } catch (const std::exception& e) {  // no exception may cross the C boundary
        return refuse(error, capacity, e.what());
    }
    return 0;
}

/// The engine's input as the scene's: the plugin declares its actions in Action's order
/// (module/declarations.cpp), so bit i is Action(i) on both sides.
ragdoll::SceneInput sceneInput(const PaperInput& in) {
    constexpr std::uint64_t kDeclared = (std::uint64_t(1) << int(ragdoll::Action::Count)) - 1;
    ragdoll::SceneInput out;
    out.pressed = in.pressed & kDeclared;
    out.held = in.held & kDeclared;
    out.mouseWorld = {in.mouseWorld.x, in.mouseWorld.y};
    out.mouseLeftDown = (in.mouseDown & 1) != 0;
    return out;
}

void tick(PaperPluginInstance* instance, double dt, const PaperInput* input) {
    instance->scene.step(dt, sceneInput(input ? *input : PaperInput{}));
}

void draw(PaperPluginInstance* instance, uint32_t layers) {
    drawScene(*instance->services, instance->scene, instance->images, (layers & PAPER_DRAW_ART) != 0,
              (layers & PAPER_DRAW_BONES) != 0, instance->selected);
}

size_t saveState(PaperPluginInstance* instance, void* buffer, size_t capacity) {
    std::vector<std::uint8_t> blob = instance->scene.saveState();
    if (buffer && capacity >= blob.size()) std::memcpy(buffer, blob.data(), blob.size());
    return blob.size();
}

int32_t loadState(PaperPluginInstance* instance, const void* data, size_t size, char* error, size_t capacity) {
    std::string why;
    if (!instance->scene.loadState(static_cast<const std::uint8_t*>(data), size, why)) {
        return refuse(error, capacity, why);
    }
    return 0;
}

void getStats(PaperPluginInstance* instance, double* values, int32_t count) {
    using namespace ragdoll;
    const WorldStats s = instance->scene.world().stats();
    const Scene::Figures last = instance->scene.lastFigures(), run = instance->scene.runFigures();
    double figures[kStatCount] = {};
    figures[kBodies] = s.bodies;
    figures[kJoints] = s.joints;
    figures[kContacts] = s.contacts;
    figures[kAwakeBodies] = s.awakeBodies;
    figures[kStepMs] = instance->scene.stepMilliseconds();
    figures[kStretch] = last.stretch;
    figures[kLimitError] = last.limitViolation * 180.0 / kPi;
    figures[kRunStretch] = run.stretch;
    figures[kRunLimitError] = run.limitViolation * 180.0 / kPi;
    figures[kVisualDepth] = last.visualDepth;
    figures[kRunVisualDepth] = run.visualDepth;
    figures[kCollideMs] = s.profile.collide;
    figures[kIntegrateMs] = s.profile.integrate;
    figures[kBodyContactsMs] = s.profile.bodyContacts;
    figures[kJointTreesMs] = s.profile.jointTrees;
    figures[kTreeContactsMs] = s.profile.treeContacts;
    figures[kVelocitiesMs] = s.profile.velocities;
    figures[kFinishMs] = s.profile.finish;
    figures[kCharactersMs] = instance->scene.charactersMilliseconds();
    for (int32_t i = 0; values && i < count && i < kStatCount; ++i) values[i] = figures[i];
}

/// A command's output as the C string the engine's print takes: a NUL byte in it (a name
/// read from a user's file) would end the string there and hide all that follows, so each
/// is written as \x00.
std::string withNulsEscaped(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        if (c == '\0') out += "\\x00";
        else out += c;
    }
    return out;
}

/// `paperdoll rig …` (rig_tools/rig_commands.h), printed through the engine.
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
    services->print(services->context, 1, withNulsEscaped(out.str()).c_str());
    services->print(services->context, 2, withNulsEscaped(err.str()).c_str());
    return status;
}

const PaperPluginApi kApi = {
    .abiVersion = PAPER_PLUGIN_ABI_VERSION,
    .structSize = sizeof(PaperPluginApi),
    .name = "ragdoll",
    .version = PAPERDOLL_RAGDOLL_VERSION,
    .commandlets = "rig",
    .actions = ragdoll::kActions,
    .actionCount = ragdoll::kActionCount,
    .stats = ragdoll::kStats,
    .statCount = ragdoll::kStatCount,
    .kinds = ragdoll::kKinds,
    .kindCount = ragdoll::kKindCount,
    .commands = ragdoll::kCommands,
    .commandCount = ragdoll::kCommandCount,
    .assetTypes = ragdoll::kAssetTypes,
    .assetTypeCount = 1,
    .create = create,
    .destroy = destroy,
    .loadLevel = loadLevel,
    .tick = tick,
    .draw = draw,
    .saveState = saveState,
    .loadState = loadState,
    .getStats = getStats,
    .objectCount = ragdoll::objectCount,
    .getObject = ragdoll::getObject,
    .propertyCount = ragdoll::propertyCount,
    .getProperty = ragdoll::getProperty,
    .setProperty = ragdoll::setProperty,
    .runObjectCommand = ragdoll::runObjectCommand,
    .saveAsset = ragdoll::saveAsset,
    .checkAsset = ragdoll::checkAsset,
    .runCommand = runCommand,
};

}  // namespace

extern "C" PAPER_PLUGIN_EXPORT const PaperPluginApi* paperGetPluginApi(uint32_t engineAbiVersion) {
    return engineAbiVersion == PAPER_PLUGIN_ABI_VERSION ? &kApi : nullptr;
}
