#include "module/objects.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <iterator>
#include <string>
#include <vector>

#include "character/character_assets.h"
#include "module/declarations.h"
#include "rig/rig_builder.h"
#include "rig/rig_saver.h"
#include "rig/rig_tuning.h"

namespace ragdoll {

namespace {

constexpr double kDegrees = 180.0 / kPi;

// Handles. Settings: 1. Characters and props: index + 1. Joints and bodies: the character's
// index + 1 (high 32 bits) and the rig index, so they survive a reload.
std::uint64_t makeHandle(int character, int index) { return (std::uint64_t(character + 1) << 32) | std::uint64_t(index); }

int characterObjects(const Scene& scene) { return scene.characterCount() + (scene.previewProxy() ? 1 : 0); }

/// Character `index` of the object list: the level's, then the net preview's proxy.
const Character* characterAt(const Scene& scene, std::int64_t index) {
    if (index < 0 || index >= characterObjects(scene)) return nullptr;
    return index < scene.characterCount() ? &scene.character(int(index)) : scene.previewProxy();
}

/// The character and rig index a joint or body handle names, or null.
Character* partOwner(PaperPluginInstance* instance, std::int32_t kind, std::uint64_t handle, int& index) {
    const std::int64_t c = std::int64_t(handle >> 32) - 1;
    index = int(handle & 0xffffffffu);
    Scene& scene = instance->scene;
    if (c < 0 || c >= scene.characterCount() || index < 0) return nullptr;
    Character& character = scene.character(int(c));
    const size_t count = kind == kJoint ? character.rig().joints.size() : character.rig().bodies.size();
    return size_t(index) < count ? &character : nullptr;
}

/// The character's index in the scene (its handle's upper half, less one).
int characterIndex(const PaperPluginInstance* instance, const Character& c) {
    for (int i = 0; i < instance->scene.characterCount(); ++i)
        if (&instance->scene.character(i) == &c) return i;
    return -1;
}

bool isSelected(const PaperPluginInstance* instance, const Character& c, int bone) {
    return instance->selected.bone == bone && instance->selected.character == characterIndex(instance, c);
}

// Joints and bodies are each one list over every character, in character then rig order.
int partCount(const Character& c, std::int32_t kind) {
    return int(kind == kJoint ? c.rig().joints.size() : c.rig().bodies.size());
}

/// A property as the engine reads it.
struct Property {
    const char* name;
    const char* label;
    const char* unit;
    std::int32_t type;
    std::int32_t flags;
    double minValue, maxValue;
};

constexpr std::int32_t kShown = PAPER_PROPERTY_READ_ONLY;  // read only, in the inspector
constexpr std::int32_t kGizmo = PAPER_PROPERTY_READ_ONLY | PAPER_PROPERTY_HIDDEN;

enum CharacterProperty { kMode, kNetRole, kClip, kWeight, kPosition, kBodyCount, kSummary, kCharacterPropertyCount };
constexpr Property kCharacterProperties[kCharacterPropertyCount] = {
    {"mode", "Mode", "", PAPER_PROPERTY_STRING, kShown, 0, 0},
    {"net_role", "Net role", "", PAPER_PROPERTY_STRING, kShown, 0, 0},
    {"clip", "Clip", "", PAPER_PROPERTY_STRING, kShown, 0, 0},
    {"blend_weight", "Blend weight", "", PAPER_PROPERTY_FLOAT, kShown, 0, 1},
    {"position", "Position", "m", PAPER_PROPERTY_VEC2, kShown, 0, 0},
    {"bodies", "Bodies", "", PAPER_PROPERTY_INT, kShown, 0, 0},
    {"summary", "Summary", "", PAPER_PROPERTY_STRING, kGizmo | PAPER_PROPERTY_HUD | PAPER_PROPERTY_NOT_IN_STATS, 0, 0},
};

// After the rig's tuning properties (rig_tuning.h), what gizmos and outlines read.
enum JointGizmoProperty { kPivot, kAngle, kParentAngle, kRestOffset, kMirrored, kJointGizmoCount };
constexpr Property kJointGizmo[kJointGizmoCount] = {
    {"pivot", "Pivot", "m", PAPER_PROPERTY_VEC2, kGizmo, 0, 0},
    {"angle", "Angle", "\xC2\xB0", PAPER_PROPERTY_FLOAT, kShown, -180, 180},
    {"parent_angle", "Parent angle", "\xC2\xB0", PAPER_PROPERTY_FLOAT, kGizmo, -180, 180},
    {"rest_offset", "Rest offset", "\xC2\xB0", PAPER_PROPERTY_FLOAT, kGizmo, -360, 360},
    {"mirrored", "Mirrored", "", PAPER_PROPERTY_BOOL, kGizmo, 0, 1},
};
enum BodyOutlineProperty { kShape, kEndA, kEndB, kSimulated, kParts, kSelected, kBodyOutlineCount };
constexpr Property kBodyOutline[kBodyOutlineCount] = {
    {"shape", "Shape", "", PAPER_PROPERTY_STRING, kShown, 0, 0},
    {"a", "End A", "m", PAPER_PROPERTY_VEC2, kGizmo, 0, 0},
    {"b", "End B", "m", PAPER_PROPERTY_VEC2, kGizmo, 0, 0},
    {"simulated", "Simulated", "", PAPER_PROPERTY_BOOL, kShown, 0, 1},
    {"parts", "Cut-out parts", "", PAPER_PROPERTY_STRING, kShown | PAPER_PROPERTY_NOT_IN_STATS, 0, 0},
    {"selected", "Selected", "", PAPER_PROPERTY_BOOL, PAPER_PROPERTY_HIDDEN | PAPER_PROPERTY_NOT_IN_STATS, 0, 1},
};
enum PropProperty { kPropPosition, kPropAngle, kPropAwake, kPropPropertyCount };
constexpr Property kPropProperties[kPropPropertyCount] = {
    {"position", "Position", "m", PAPER_PROPERTY_VEC2, kShown, 0, 0},
    {"angle", "Angle", "rad", PAPER_PROPERTY_FLOAT, kShown, -kPi, kPi},
    {"awake", "Awake", "", PAPER_PROPERTY_BOOL, kShown, 0, 1},
};

void describe(PaperPropertyInfo& info, const Property& p) {
    info.name = p.name;
    info.label = p.label;
    info.unit = p.unit;
    info.type = p.type;
    info.flags = p.flags;
    info.minValue = p.minValue;
    info.maxValue = p.maxValue;
}

void describe(PaperPropertyInfo& info, const TuningProperty& p) {
    describe(info, Property{p.name, p.label, p.unit, p.kind == TuningProperty::Bool ? PAPER_PROPERTY_BOOL : PAPER_PROPERTY_FLOAT, 0,
                            p.minValue, p.maxValue});
}

PaperVec2 paperVec(Vec2 v) { return {float(v.x), float(v.y)}; }

/// "blend 0.40   standalone   walk": the mode in words, the blend weight only in the mode it
/// describes (limp or animated it would read 0.00 and mean nothing). A host the net-role
/// preview hides (showing only what a peer sees) says so: the HUD's two preview states
/// read alike otherwise.
std::string summary(const Character& c, bool hidden) {
    std::string line = modeName(c.mode());
    if (c.mode() == CharacterMode::Blend) {
        char weight[16];
        std::snprintf(weight, sizeof weight, " %.2f", c.blendWeight());
        line += weight;
    }
    return line + "   " + netRoleName(c.role()) + (hidden ? " (hidden)" : "") + "   " +
           (c.clip() ? c.clip()->name : std::string("(no clip)"));
}

std::int32_t characterProperty(PaperPluginInstance* instance, const Character& c, std::int32_t index, PaperPropertyInfo& info) {
    describe(info, kCharacterProperties[index]);
    switch (CharacterProperty(index)) {
    case kMode: info.text = modeName(c.mode()); break;
    case kNetRole: info.text = netRoleName(c.role()); break;
    case kClip: info.text = c.clip() ? c.clip()->name.c_str() : ""; break;
    case kWeight: info.value = c.blendWeight(); break;
    case kPosition: {
        const bool simulated = c.mode() == CharacterMode::Ragdoll || c.mode() == CharacterMode::Blend;
        info.vector = paperVec(simulated ? c.replicate().root : c.root());
        break;
    }
    case kBodyCount: info.value = c.bodyCount(); break;
    case kSummary:
        instance->text = summary(c, c.role() == NetRole::Host && instance->scene.netPreview() == NetPreview::ProxyOnly);
        info.text = instance->text.c_str();
        break;
    case kCharacterPropertyCount: return 1;
    }
    return 0;
}

std::int32_t jointProperty(const Character& c, int joint, std::int32_t index, PaperPropertyInfo& info) {
    const std::int32_t tuning = std::int32_t(jointProperties().size());
    const RigDefinition& rig = c.rig();
    if (index < tuning) {
        describe(info, jointProperties()[size_t(index)]);
        info.value = ragdoll::jointProperty(rig.joints[size_t(joint)], index);
        return 0;
    }
    const RigJoint& j = rig.joints[size_t(joint)];
    describe(info, kJointGizmo[index - tuning]);
    switch (JointGizmoProperty(index - tuning)) {
    case kPivot: info.vector = paperVec(c.bonePoses()[size_t(j.child)].origin); break;
    case kAngle: info.value = c.jointAngle(joint) * kDegrees; break;
    case kParentAngle: info.value = c.bonePoses()[size_t(j.parent)].angle * kDegrees; break;
    case kRestOffset: info.value = (rig.bones[size_t(j.child)].angle - rig.bones[size_t(j.parent)].angle) * kDegrees; break;
    case kMirrored: info.value = c.drawnMirrored() ? 1.0 : 0.0; break;
    case kJointGizmoCount: return 1;
    }
    return 0;
}

/// The cut-out parts on a body's bone: "doll 126 2 96 240, z 5" (a sprite's image, rect and
/// z; ", flip x" after them for a mirrored one), "doll mesh of 6 vertices, z 13" (a mesh
/// carried by this bone, in part or whole), "; " between; "none" for a bone drawn as a stick.
std::string partsText(const RigDefinition& rig, int bone) {
    std::string text;
    char line[160];
    for (const RigSprite& s : rig.sprites) {
        if (s.bone != bone) continue;
        std::snprintf(line, sizeof line, "%s%s %d %d %d %d, z %d", text.empty() ? "" : "; ",
                      rig.images[size_t(s.image)].name.c_str(), s.rect.x, s.rect.y, s.rect.width, s.rect.height, s.z);
        text += line;
        if (s.flipX || s.flipY) text += std::string(", flip ") + flipName(s);
    }
    for (const RigMesh& m : rig.meshes) {
        if (std::none_of(m.parts.begin(), m.parts.end(), [&](const RigMeshPart& p) { return p.bone == bone; })) continue;
        std::snprintf(line, sizeof line, "%s%s mesh of %zu vertices, z %d", text.empty() ? "" : "; ",
                      rig.images[size_t(m.image)].name.c_str(), m.vertices.size(), m.z);
        text += line;
    }
    return text.empty() ? "none" : text;
}

std::int32_t bodyProperty(PaperPluginInstance* instance, const Character& c, int body, std::int32_t index,
                          PaperPropertyInfo& info) {
    const std::int32_t tuning = std::int32_t(bodyProperties().size());
    const RigDefinition& rig = c.rig();
    const RigBody& b = rig.bodies[size_t(body)];
    if (index < tuning) {
        describe(info, bodyProperties()[size_t(index)]);
        info.value = ragdoll::bodyProperty(b, index);
        return 0;
    }
    // The shape in its bone's frame (as the ragdoll is built), placed on the bone as shown.
    const BonePose& pose = c.bonePoses()[size_t(b.bone)];
    const Transform frame{pose.origin, makeRot(pose.angle)};
    Vec2 a, z;
    if (b.shape == BodyShape::Circle) {
        a = z = transformPoint(frame, bodyCircle(rig, body).center);
    } else {
        const Capsule capsule = bodyCapsule(rig, body);
        a = transformPoint(frame, capsule.center1);
        z = transformPoint(frame, capsule.center2);
    }
    describe(info, kBodyOutline[index - tuning]);
    switch (BodyOutlineProperty(index - tuning)) {
    case kShape: info.text = b.shape == BodyShape::Capsule ? "capsule" : b.shape == BodyShape::Circle ? "circle" : "box"; break;
    case kEndA: info.vector = paperVec(a); break;
    case kEndB: info.vector = paperVec(z); break;
    case kSimulated: info.value = c.ragdoll().empty() ? 0.0 : 1.0; break;
    case kParts:
        instance->text = partsText(rig, b.bone);
        info.text = instance->text.c_str();
        break;
    case kSelected: info.value = isSelected(instance, c, b.bone) ? 1.0 : 0.0; break;
    case kBodyOutlineCount: return 1;
    }
    return 0;
}

std::int32_t propProperty(const Scene::PropView& p, std::int32_t index, PaperPropertyInfo& info) {
    describe(info, kPropProperties[index]);
    switch (PropProperty(index)) {
    case kPropPosition: info.vector = paperVec(p.transform.p); break;
    case kPropAngle: info.value = angleOf({p.transform.q.c, p.transform.q.s}); break;
    case kPropAwake: info.value = p.awake ? 1.0 : 0.0; break;
    case kPropPropertyCount: return 1;
    }
    return 0;
}

}  // namespace

std::int32_t objectCount(PaperPluginInstance* instance, std::int32_t kind) {
    const Scene& scene = instance->scene;
    switch (kind) {
    case kSettings: return 1;
    case kCharacter: return characterObjects(scene);
    case kJoint:
    case kBody: {
        int count = 0;
        for (int c = 0; c < scene.characterCount(); ++c) count += partCount(scene.character(c), kind);
        return count;
    }
    case kProp: return std::int32_t(scene.props().size());
    default: return 0;
    }
}

std::int32_t getObject(PaperPluginInstance* instance, std::int32_t kind, std::int32_t index, PaperObjectInfo* info) {
    const Scene& scene = instance->scene;
    if (!info || index < 0 || index >= objectCount(instance, kind)) return 1;
    switch (kind) {
    case kSettings:
        *info = {1, "settings", -1};
        return 0;
    case kCharacter:
        *info = {std::uint64_t(index) + 1, characterAt(scene, index)->name().c_str(), -1};
        return 0;
    case kJoint:
    case kBody:
        for (int c = 0; c < scene.characterCount(); ++c) {
            const Character& character = scene.character(c);
            if (index >= partCount(character, kind)) {
                index -= partCount(character, kind);
                continue;
            }
            const RigDefinition& rig = character.rig();
            const std::string& name = kind == kJoint ? character.assets().jointLabels[size_t(index)]
                                                     : rig.bones[size_t(rig.bodies[size_t(index)].bone)].name;
            *info = {makeHandle(c, index), name.c_str(), c};
            return 0;
        }
        return 1;
    case kProp: {
        // The name's storage is the scene's; the view list is only a copy of pointers.
        const std::vector<Scene::PropView> props = scene.props();
        *info = {std::uint64_t(index) + 1, props[size_t(index)].name->c_str(), -1};
        return 0;
    }
    default: return 1;
    }
}

std::int32_t propertyCount(PaperPluginInstance* instance, std::int32_t kind, std::uint64_t handle) {
    const Scene& scene = instance->scene;
    int index = 0;
    switch (kind) {
    case kSettings: return handle == 1 ? std::int32_t(Scene::propertyList().size()) : 0;
    case kCharacter: return characterAt(scene, std::int64_t(handle) - 1) ? kCharacterPropertyCount : 0;
    case kJoint: return partOwner(instance, kind, handle, index) ? std::int32_t(jointProperties().size()) + kJointGizmoCount : 0;
    case kBody: return partOwner(instance, kind, handle, index) ? std::int32_t(bodyProperties().size()) + kBodyOutlineCount : 0;
    case kProp: return handle >= 1 && handle <= scene.props().size() ? kPropPropertyCount : 0;
    default: return 0;
    }
}

std::int32_t getProperty(PaperPluginInstance* instance, std::int32_t kind, std::uint64_t handle, std::int32_t index,
                         PaperPropertyInfo* info) {
    if (!info || index < 0 || index >= propertyCount(instance, kind, handle)) return 1;
    *info = {};
    info->text = "";
    const Scene& scene = instance->scene;
    int part = 0;  // the rig index of a joint or body, set before it is read
    const Character* owner = kind == kJoint || kind == kBody ? partOwner(instance, kind, handle, part) : nullptr;
    switch (kind) {
    case kSettings: {
        const SceneProperty& p = Scene::propertyList()[size_t(index)];
        describe(*info, Property{p.name, p.label, p.unit,
                                 p.kind == SceneProperty::Float ? PAPER_PROPERTY_FLOAT
                                 : p.kind == SceneProperty::Int ? PAPER_PROPERTY_INT
                                                                : PAPER_PROPERTY_BOOL,
                                 0, p.minValue, p.maxValue});
        info->value = scene.property(index);
        return 0;
    }
    case kCharacter: return characterProperty(instance, *characterAt(scene, std::int64_t(handle) - 1), index, *info);
    case kJoint: return jointProperty(*owner, part, index, *info);
    case kBody: return bodyProperty(instance, *owner, part, index, *info);
    case kProp: return propProperty(scene.props()[size_t(handle - 1)], index, *info);
    default: return 1;
    }
}

std::int32_t setProperty(PaperPluginInstance* instance, std::int32_t kind, std::uint64_t handle, std::int32_t index,
                         double value) {
    int part = 0;
    Character* c = kind == kJoint || kind == kBody ? partOwner(instance, kind, handle, part) : nullptr;
    switch (kind) {
    case kSettings: return handle == 1 && instance->scene.setProperty(index, value) ? 0 : 1;
    case kJoint: return c && c->setJointProperty(part, index, value) ? 0 : 1;  // refuses the read-only ones
    case kBody: {
        if (!c) return 1;
        const std::int32_t selected = std::int32_t(bodyProperties().size()) + kSelected;
        if (index != selected) return c->setBodyProperty(part, index, value) ? 0 : 1;
        const int bone = c->rig().bodies[size_t(part)].bone;
        if (value != 0.0) instance->selected = {characterIndex(instance, *c), bone};
        else if (isSelected(instance, *c, bone)) instance->selected = {};
        return 0;
    }
    default: return 1;  // characters and props are read only
    }
}

std::int32_t runObjectCommand(PaperPluginInstance* instance, std::uint64_t handle, std::int32_t command, double argument,
                              char* error, std::size_t capacity) {
    Scene& scene = instance->scene;
    const std::int64_t index = std::int64_t(handle) - 1;
    if (command < 0 || command >= kCommandCount) return refuse(error, capacity, "no command " + std::to_string(command));
    if (index < 0 || index >= scene.characterCount())
        return refuse(error, capacity, "no character with handle " + std::to_string(handle) + " (the net preview's proxy only follows)");
    Character& c = scene.character(int(index));
    switch (CharacterCommand(command)) {
    case kBlendWeight: {
        if (!std::isfinite(argument) || argument < 0.0 || argument > 1.0)
            return refuse(error, capacity, "a blend weight is from 0 to 1");
        if (argument <= 0.0 && c.mode() == CharacterMode::Blend) return c.leaveBlend() ? 0 : refuse(error, capacity, "cannot leave the blend now");
        if (argument <= 0.0) return c.mode() == CharacterMode::Animated ? 0 : refuse(error, capacity, "the character is not animated or blending");
        return c.enterBlend(argument) ? 0 : refuse(error, capacity, std::string("cannot blend while ") + modeName(c.mode()));
    }
    case kToggleRagdoll: scene.act(int(index), Action::ToggleRagdoll); return 0;
    case kHitLeft: scene.act(int(index), Action::HitLeft); return 0;
    case kHitRight: scene.act(int(index), Action::HitRight); return 0;
    case kHitAbove: scene.act(int(index), Action::HitAbove); return 0;
    case kGetUp: scene.act(int(index), Action::GetUp); return 0;
    case kCommandCount: break;
    }
    return refuse(error, capacity, "no command " + std::to_string(command));
}

std::int32_t saveAsset(PaperPluginInstance* instance, const char* asset, const char* path, char* error, std::size_t capacity) {
    if (!asset) return refuse(error, capacity, "no asset named");
    Scene& scene = instance->scene;
    for (int c = 0; c < scene.characterCount(); ++c) {
        Character& character = scene.character(c);
        const RigDefinition& rig = character.rig();
        if (rig.path != asset) continue;
        try {
            const std::string target = path ? std::string(path) : rig.path;
            // The save patches the text read at load: over a file another program has
            // changed since, it would put back all it changed. Refused, and said how to go on
            // in the plugin's terms (the program showing it names its own controls).
            if (std::string changed = changedOnDisk(rig, target); !changed.empty())
                return refuse(error, capacity,
                              changed + ". Setting the level again or reloading the plugin reads the file again with "
                                        "the edits applied to it; then it can be saved.");
            RigSaveResult saved = saveRig(rig, target);
            if (saved.ok) {
                // The file holds this text now: the next save patches it, and a reload
                // counts what differs from it as edits.
                if (target == rig.path) character.rigSaved(std::move(saved.text));
                return 0;
            }
            std::string why = "cannot save '" + target + "'";
            for (const Diagnostic& d : saved.diagnostics) why += "\n" + d.format();
            return refuse(error, capacity, why);
        } catch (const std::exception& e) {
            return refuse(error, capacity, e.what());
        }
    }
    return refuse(error, capacity, std::string("no character of this level was made from '") + asset + "'");
}

std::int32_t checkAsset(const PaperEngineServices*, const char* path, char* error, std::size_t capacity) {
    if (!path) return refuse(error, capacity, "no file named");
    try {
        std::vector<std::string> errors;
        if (loadCharacterAssets(path, errors) && errors.empty()) return 0;
        std::string why;
        for (const std::string& e : errors) why += (why.empty() ? "" : "\n") + e;
        return refuse(error, capacity, why.empty() ? std::string("cannot open '") + path + "'" : why);
    } catch (const std::exception& e) {
        return refuse(error, capacity, e.what());
    }
}

}  // namespace ragdoll
