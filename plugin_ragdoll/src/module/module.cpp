// The plugin's exported entry point: glue between the engine's C ABI (paper/plugin_api.h)
// and the core (Scene). No state lives here but in the Instance the engine holds, so a
// reload cannot silently wipe anything.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iterator>
#include <new>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "module/draw.h"
#include "paper/plugin_api.h"
#include "rig_tools/rig_commands.h"
#include "rig/rig_builder.h"
#include "rig/rig_saver.h"
#include "rig/rig_tuning.h"
#include "scene/scene.h"

struct PaperPluginInstance {
    const PaperEngineServices* services = nullptr;
    ragdoll::Scene scene;
};

namespace {

using ragdoll::Scene;

/// A refusal as plugin_api.h's "Reasons" says: the reason, cut to fit the engine's buffer,
/// and the capacity the whole of it needs as the return value, so the engine can ask again
/// and nothing is lost (a rig with 40 errors refuses with all 40).
int32_t refuse(char* error, size_t capacity, const std::string& message) {
    if (error && capacity) {
        size_t length = std::min(message.size(), capacity - 1);
        std::memcpy(error, message.data(), length);
        error[length] = '\0';
    }
    return int32_t(std::min<size_t>(message.size() + 1, size_t(INT32_MAX)));
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
    return instance;
}

void destroy(PaperPluginInstance* instance) { delete instance; }

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
        level.terrain.push_back(std::move(piece));
    }
    for (int32_t i = 0; i < desc->propCount; ++i) {
        const PaperProp& p = desc->props[i];
        level.props.push_back({p.name ? p.name : "prop" + std::to_string(i), {p.position.x, p.position.y}, p.angle, {p.halfExtents.x, p.halfExtents.y}, p.mass,
                               p.friction, p.restitution,
                               std::uint32_t(p.color.r) | std::uint32_t(p.color.g) << 8 | std::uint32_t(p.color.b) << 16 |
                                   std::uint32_t(p.color.a) << 24});
    }
    for (int32_t i = 0; i < desc->spawnCount; ++i) {
        const PaperSpawn& p = desc->spawns[i];
        level.spawns.push_back({p.name ? p.name : "", p.rigPath ? p.rigPath : "", {p.position.x, p.position.y},
                                p.facingRight != 0});
    }
    std::string why;
    try {
        if (!instance->scene.loadLevel(level, why)) {
            return refuse(error, capacity, why);
        }
    } catch (const std::exception& e) {  // no exception may cross the C boundary
        return refuse(error, capacity, e.what());
    }
    return 0;
}

/// The engine's action bits (PaperAction) as the scene's actions.
ragdoll::SceneInput sceneInput(const PaperInput& in) {
    using ragdoll::Action;
    static constexpr std::pair<PaperAction, Action> kActions[] = {
        {PAPER_ACTION_LEFT, Action::Left},           {PAPER_ACTION_RIGHT, Action::Right},
        {PAPER_ACTION_RUN, Action::Run},             {PAPER_ACTION_JUMP, Action::Jump},
        {PAPER_ACTION_TOGGLE_RAGDOLL, Action::ToggleRagdoll}, {PAPER_ACTION_HIT_LEFT, Action::HitLeft},
        {PAPER_ACTION_HIT_RIGHT, Action::HitRight},  {PAPER_ACTION_HIT_ABOVE, Action::HitAbove},
        {PAPER_ACTION_BLEND_DOWN, Action::BlendDown}, {PAPER_ACTION_BLEND_UP, Action::BlendUp},
        {PAPER_ACTION_GET_UP, Action::GetUp},        {PAPER_ACTION_NET_ROLE, Action::NetRole},
    };
    static_assert(std::size(kActions) == size_t(Action::Count));
    ragdoll::SceneInput out;
    for (const auto& [paper, action] : kActions) {
        if ((in.pressed >> paper) & 1u) out.pressed |= ragdoll::bit(action);
        if ((in.held >> paper) & 1u) out.held |= ragdoll::bit(action);
    }
    out.mouseWorld = {in.mouseWorld.x, in.mouseWorld.y};
    out.mouseLeftDown = (in.mouseDown & 1) != 0;
    return out;
}

void tick(PaperPluginInstance* instance, double dt, const PaperInput* input) {
    instance->scene.step(dt, sceneInput(input ? *input : PaperInput{}));
}

void draw(PaperPluginInstance* instance) { drawScene(*instance->services, instance->scene); }

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

void getStats(PaperPluginInstance* instance, PaperPhysicsStats* out) {
    ragdoll::WorldStats s = instance->scene.world().stats();
    out->bodies = s.bodies;
    out->joints = s.joints;
    out->contacts = s.contacts;
    out->awakeBodies = s.awakeBodies;
    // The characters' joints (the mouse's soft grab joint stretches on purpose).
    const Scene::Figures last = instance->scene.lastFigures(), run = instance->scene.runFigures();
    out->maxStretchMetres = last.stretch;
    out->maxLimitViolationDegrees = last.limitViolation * 180.0 / ragdoll::kPi;
    out->stepMilliseconds = s.stepMilliseconds;
    out->runMaxStretchMetres = run.stretch;
    out->runMaxLimitViolationDegrees = run.limitViolation * 180.0 / ragdoll::kPi;
    out->maxVisualDepthMetres = last.visualDepth;
    out->runMaxVisualDepthMetres = run.visualDepth;
}

int32_t propCount(PaperPluginInstance* instance) { return int32_t(instance->scene.props().size()); }

int32_t getProp(PaperPluginInstance* instance, int32_t index, PaperPropInfo* info) {
    const std::vector<Scene::PropView> props = instance->scene.props();
    if (index < 0 || index >= int32_t(props.size()) || !info) return 1;
    const Scene::PropView& p = props[size_t(index)];
    info->name = p.name->c_str();
    info->position = {float(p.transform.p.x), float(p.transform.p.y)};
    info->angle = ragdoll::angleOf({p.transform.q.c, p.transform.q.s});
    info->awake = p.awake ? 1 : 0;
    return 0;
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

/// The character a joint or body handle names, or null; index gets the rig index.
ragdoll::Character* handleCharacter(PaperPluginInstance* instance, uint64_t handle, int& index) {
    const std::int64_t c = std::int64_t(handle >> 32) - 1;
    index = int(handle & 0x7fffffffu);
    if (c < 0 || c >= instance->scene.characterCount() || (handle & 0x80000000u)) return nullptr;
    return &instance->scene.character(int(c));
}

// Joints and bodies are each one list over every character, in character then rig order.
/// The list's length; countOf gives a rig's share.
int32_t listLength(PaperPluginInstance* instance, int32_t (*countOf)(const ragdoll::RigDefinition&)) {
    int32_t length = 0;
    for (int c = 0; c < instance->scene.characterCount(); ++c) length += countOf(instance->scene.character(c).rig());
    return length;
}

/// The character holding item `index` of the list, with index turned into its rig index;
/// -1 when the index is outside the list.
int locate(PaperPluginInstance* instance, int32_t (*countOf)(const ragdoll::RigDefinition&), int32_t& index) {
    if (index < 0) return -1;
    for (int c = 0; c < instance->scene.characterCount(); ++c) {
        const int32_t share = countOf(instance->scene.character(c).rig());
        if (index < share) return c;
        index -= share;
    }
    return -1;
}

uint64_t makeHandle(int character, int index) { return (std::uint64_t(character + 1) << 32) | std::uint64_t(index); }

// Joints: every character's, in character then rig order. A handle is the character's
// index + 1 (high 32 bits) and the joint's rig index, so it survives a reload.
int32_t jointsOf(const ragdoll::RigDefinition& rig) { return int32_t(rig.joints.size()); }
int32_t jointCount(PaperPluginInstance* instance) { return listLength(instance, jointsOf); }

int32_t getJoint(PaperPluginInstance* instance, int32_t index, PaperJointInfo* info) {
    const int c = locate(instance, jointsOf, index);
    if (!info || c < 0) return 1;
    const ragdoll::Character& character = instance->scene.character(c);
    const ragdoll::RigDefinition& rig = character.rig();
    const ragdoll::RigJoint& joint = rig.joints[size_t(index)];
    const ragdoll::BonePose& pivot = character.bonePoses()[size_t(joint.child)];
    info->handle = makeHandle(c, index);
    info->name = joint.name.c_str();
    info->pivot = {float(pivot.origin.x), float(pivot.origin.y)};
    info->parentAngle = character.bonePoses()[size_t(joint.parent)].angle;
    info->restOffset = rig.bones[size_t(joint.child)].angle - rig.bones[size_t(joint.parent)].angle;
    info->mirrored = character.drawnMirrored() ? 1 : 0;
    info->character = c;
    info->lowerLimit = character.jointLower(index);
    info->upperLimit = character.jointUpper(index);
    info->currentAngle = character.jointAngle(index);
    info->limitEnabled = joint.limited ? 1 : 0;
    info->stiffness = float(joint.stiffness);
    info->damping = float(joint.damping);
    info->collideConnected = joint.collide ? 1 : 0;
    return 0;
}

int32_t setJointLimits(PaperPluginInstance* instance, uint64_t handle, double lower, double upper) {
    int joint = 0;
    ragdoll::Character* c = handleCharacter(instance, handle, joint);
    return c && c->setJointLimits(joint, lower, upper) ? 0 : 1;
}

// Bodies: every character's, in character then rig order, handles as for joints.
int32_t bodiesOf(const ragdoll::RigDefinition& rig) { return int32_t(rig.bodies.size()); }
int32_t bodyCount(PaperPluginInstance* instance) { return listLength(instance, bodiesOf); }

int32_t getBody(PaperPluginInstance* instance, int32_t index, PaperBodyInfo* info) {
    const int c = locate(instance, bodiesOf, index);
    if (!info || c < 0) return 1;
    const ragdoll::Character& character = instance->scene.character(c);
    const ragdoll::RigDefinition& rig = character.rig();
    const ragdoll::RigBody& body = rig.bodies[size_t(index)];
    // The shape in its bone's frame (as the ragdoll is built), placed on the bone as shown.
    const ragdoll::BonePose& pose = character.bonePoses()[size_t(body.bone)];
    const ragdoll::Transform frame{pose.origin, ragdoll::makeRot(pose.angle)};
    ragdoll::Vec2 a, b;
    switch (body.shape) {
    case ragdoll::BodyShape::Capsule:
    case ragdoll::BodyShape::Box: {
        const ragdoll::Capsule capsule = ragdoll::bodyCapsule(rig, index);
        a = ragdoll::transformPoint(frame, capsule.center1);
        b = ragdoll::transformPoint(frame, capsule.center2);
        break;
    }
    case ragdoll::BodyShape::Circle: a = b = ragdoll::transformPoint(frame, ragdoll::bodyCircle(rig, index).center); break;
    }
    info->handle = makeHandle(c, index);
    info->name = rig.bones[size_t(body.bone)].name.c_str();
    info->character = c;
    info->shape = body.shape == ragdoll::BodyShape::Capsule ? PAPER_SHAPE_CAPSULE
                  : body.shape == ragdoll::BodyShape::Circle ? PAPER_SHAPE_CIRCLE
                                                             : PAPER_SHAPE_BOX;
    info->a = {float(a.x), float(a.y)};
    info->b = {float(b.x), float(b.y)};
    info->radius = body.radius;
    info->simulated = character.ragdoll().empty() ? 0 : 1;
    return 0;
}

const std::vector<ragdoll::TuningProperty>* objectProperties(int32_t kind) {
    return kind == PAPER_OBJECT_JOINT ? &ragdoll::jointProperties()
           : kind == PAPER_OBJECT_BODY ? &ragdoll::bodyProperties()
                                       : nullptr;
}

/// The character and rig index of a joint or body handle, or null when it names none.
ragdoll::Character* objectCharacter(PaperPluginInstance* instance, int32_t kind, uint64_t handle, int& index) {
    ragdoll::Character* c = handleCharacter(instance, handle, index);
    if (!c || !objectProperties(kind)) return nullptr;
    const size_t count = kind == PAPER_OBJECT_JOINT ? c->rig().joints.size() : c->rig().bodies.size();
    return size_t(index) < count ? c : nullptr;
}

int32_t objectPropertyCount(PaperPluginInstance* instance, int32_t kind, uint64_t handle) {
    int index = 0;
    return objectCharacter(instance, kind, handle, index) ? int32_t(objectProperties(kind)->size()) : 0;
}

int32_t getObjectProperty(PaperPluginInstance* instance, int32_t kind, uint64_t handle, int32_t property,
                          PaperPropertyInfo* info) {
    int index = 0;
    const ragdoll::Character* c = objectCharacter(instance, kind, handle, index);
    if (!c || !info || property < 0 || property >= int32_t(objectProperties(kind)->size())) return 1;
    const ragdoll::TuningProperty& p = (*objectProperties(kind))[size_t(property)];
    info->name = p.name;
    info->label = p.label;
    info->unit = p.unit;
    info->type = p.kind == ragdoll::TuningProperty::Bool ? PAPER_PROPERTY_BOOL : PAPER_PROPERTY_FLOAT;
    info->minValue = p.minValue;
    info->maxValue = p.maxValue;
    info->value = kind == PAPER_OBJECT_JOINT ? ragdoll::jointProperty(c->rig().joints[size_t(index)], property)
                                             : ragdoll::bodyProperty(c->rig().bodies[size_t(index)], property);
    return 0;
}

int32_t setObjectProperty(PaperPluginInstance* instance, int32_t kind, uint64_t handle, int32_t property, double value) {
    int index = 0;
    ragdoll::Character* c = objectCharacter(instance, kind, handle, index);
    if (!c) return 1;
    const bool set = kind == PAPER_OBJECT_JOINT ? c->setJointProperty(index, property, value)
                                                : c->setBodyProperty(index, property, value);
    return set ? 0 : 1;
}

int32_t setBlendWeight(PaperPluginInstance* instance, int32_t character, float weight) {
    if (character < 0 || character >= instance->scene.characterCount() || !std::isfinite(weight)) return 1;
    ragdoll::Character& c = instance->scene.character(character);
    if (weight <= 0.0f && c.mode() == ragdoll::CharacterMode::Blend) return c.leaveBlend() ? 0 : 1;
    if (weight <= 0.0f) return c.mode() == ragdoll::CharacterMode::Animated ? 0 : 1;
    return c.enterBlend(weight) ? 0 : 1;
}

int32_t saveRig(PaperPluginInstance* instance, int32_t character, const char* path, char* error, size_t capacity) {
    if (character < 0 || character >= instance->scene.characterCount()) {
        return refuse(error, capacity, "no character " + std::to_string(character));
    }
    try {
        const ragdoll::RigDefinition& rig = instance->scene.character(character).rig();
        const std::string target = path ? std::string(path) : rig.path;
        ragdoll::RigSaveResult saved = ragdoll::saveRig(rig, target);
        if (!saved.ok) {
            std::string why = "cannot save '" + target + "'";
            for (const ragdoll::Diagnostic& d : saved.diagnostics) why += "\n" + d.format();
            return refuse(error, capacity, why);
        }
    } catch (const std::exception& e) {
        return refuse(error, capacity, e.what());
    }
    return 0;
}

int32_t characterCount(PaperPluginInstance* instance) {
    return instance->scene.characterCount() + (instance->scene.previewProxy() ? 1 : 0);
}

int32_t getCharacter(PaperPluginInstance* instance, int32_t index, PaperCharacterInfo* info) {
    if (!info || index < 0 || index >= characterCount(instance)) return 1;
    const Scene& scene = instance->scene;
    const ragdoll::Character& c = index < scene.characterCount() ? scene.character(index) : *scene.previewProxy();
    info->name = c.name().c_str();
    info->mode = ragdoll::modeName(c.mode());
    info->netRole = ragdoll::netRoleName(c.role());
    info->clip = c.clip() ? c.clip()->name.c_str() : "";
    info->blendWeight = float(c.blendWeight());
    const ragdoll::Vec2 at = c.mode() == ragdoll::CharacterMode::Ragdoll || c.mode() == ragdoll::CharacterMode::Blend
                                 ? c.replicate().root
                                 : c.root();
    info->position = {float(at.x), float(at.y)};
    info->bodies = c.bodyCount();
    return 0;
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
    services->print(services->context, 1, out.str().c_str());
    services->print(services->context, 2, err.str().c_str());
    return status;
}

const PaperPluginApi kApi = {
    .abiVersion = PAPER_PLUGIN_ABI_VERSION,
    .structSize = sizeof(PaperPluginApi),
    .name = "ragdoll",
    .version = PAPERDOLL_RAGDOLL_VERSION,
    .commands = "rig",
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
    .getProp = getProp,
    .runCommand = runCommand,
};

}  // namespace

extern "C" PAPER_PLUGIN_EXPORT const PaperPluginApi* paperGetPluginApi(uint32_t engineAbiVersion) {
    return engineAbiVersion == PAPER_PLUGIN_ABI_VERSION ? &kApi : nullptr;
}
