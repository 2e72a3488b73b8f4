#include "rig_tools/rig_generator.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <optional>
#include <set>

namespace ragdoll {

namespace {

struct Keyword {
    const char* text;
    BoneKind kind;
};

// Longer, more specific keywords first: "forearm" and "lower_arm" before "arm",
// "upper_leg" before "leg". Names are matched in lower case with '.', '-' and ' ' as '_'
// (Spine's `lower-arm-L`, `leg-upper_R`).
constexpr Keyword kKeywords[] = {
    {"forearm", BoneKind::Forearm},    {"lower_arm", BoneKind::Forearm}, {"lowerarm", BoneKind::Forearm},
    {"arm_lower", BoneKind::Forearm},  {"upper_arm", BoneKind::UpperArm}, {"upperarm", BoneKind::UpperArm},
    {"arm_upper", BoneKind::UpperArm}, {"hand", BoneKind::Hand},
    {"wrist", BoneKind::Hand},         {"thigh", BoneKind::Thigh},       {"upper_leg", BoneKind::Thigh},
    {"upperleg", BoneKind::Thigh},     {"leg_upper", BoneKind::Thigh},   {"upleg", BoneKind::Thigh},
    {"shin", BoneKind::Shin},          {"calf", BoneKind::Shin},         {"lower_leg", BoneKind::Shin},
    {"lowerleg", BoneKind::Shin},      {"leg_lower", BoneKind::Shin},
    {"foot", BoneKind::Foot},          {"toe", BoneKind::Foot},          {"ankle", BoneKind::Foot},
    {"head", BoneKind::Head},          {"skull", BoneKind::Head},        {"neck", BoneKind::Neck},
    {"torso", BoneKind::Torso},        {"spine", BoneKind::Torso},       {"chest", BoneKind::Torso},
    {"pelvis", BoneKind::Torso},       {"hips", BoneKind::Torso},        {"hip", BoneKind::Torso},
    {"abdomen", BoneKind::Torso},      {"belly", BoneKind::Torso},       {"waist", BoneKind::Torso},
    {"trunk", BoneKind::Torso},        {"arm", BoneKind::UpperArm},      {"leg", BoneKind::Shin},
};

}  // namespace

std::string boneNameWords(std::string_view name) {
    std::string out(name);
    for (char& c : out) c = c == '.' || c == '-' || c == ' ' ? '_' : char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

BoneRecipe boneRecipe(BoneKind kind) {
    switch (kind) {
        case BoneKind::Torso: return {0.9, 8.0, -30.0, 30.0, "spine"};
        case BoneKind::Neck: return {0.6, 0.5, -30.0, 30.0, "neck"};
        case BoneKind::Head: return {0.55, 1.5, -45.0, 45.0, "neck"};
        case BoneKind::UpperArm: return {0.28, 1.5, -140.0, 140.0, "shoulder"};
        case BoneKind::Forearm: return {0.24, 1.2, 0.0, 140.0, "elbow"};
        case BoneKind::Hand: return {0.3, 0.4, -60.0, 60.0, "wrist"};
        // The stickman's convention (and its clips'): facing +x, a hip flexes counter-clockwise,
        // so the thigh swings 120° forward (sitting up, getting up) and 30° back.
        case BoneKind::Thigh: return {0.34, 2.0, -30.0, 120.0, "hip"};
        case BoneKind::Shin: return {0.26, 1.5, -140.0, 0.0, "knee"};
        case BoneKind::Foot: return {0.25, 0.6, -35.0, 35.0, "ankle"};
        case BoneKind::Other: return {0.2, 1.0, -45.0, 45.0, nullptr};
    }
    return {0.2, 1.0, -45.0, 45.0, nullptr};
}

namespace {

/// A capsule wider than its bone is long no longer reads as that bone (see the header).
constexpr double kMaxCapsuleRadiusFraction = 0.5;
constexpr double kLinearDamping = 0.1;   // 1/s, as the reference stickman
constexpr double kAngularDamping = 0.5;  // 1/s
constexpr double kJointDamping = 1.5;       // 1/s (dampAndRubJoints)
constexpr double kJointFrictionShare = 0.5;  // of the lightest limb's level torque

/// The keyword that decided the kind and where it sits in the name, or none.
const Keyword* matchKeyword(std::string_view name, size_t& at) {
    const std::string lower = boneNameWords(name);
    for (const Keyword& k : kKeywords) {
        at = lower.find(k.text);
        if (at != std::string::npos) return &k;
    }
    return nullptr;
}

/// "shoulder" + the side suffix of "upper_arm.L" (".L"), or the child's name.
std::string jointNameFor(const RigBone& child, BoneKind kind, BoneKind parentKind) {
    const char* base = boneRecipe(kind).jointName;
    if (kind == BoneKind::Head && parentKind == BoneKind::Neck) base = "head";
    size_t at = 0;
    const Keyword* keyword = matchKeyword(child.fileName, at);
    if (!base || !keyword) return child.fileName;
    return base + child.fileName.substr(std::min(child.fileName.size(), at + std::string_view(keyword->text).size()));
}

}  // namespace

BoneKind classifyBone(std::string_view name, std::optional<BoneKind> parent) {
    size_t at = 0;
    const Keyword* keyword = matchKeyword(name, at);
    if (!keyword) return BoneKind::Other;
    // A bare "leg" or "arm" says which part by where it hangs: Mixamo's `LeftLeg` is the
    // shin under `LeftUpLeg`, but a `leg_R` on the hips is the thigh (it was made a shin, its
    // hip given a knee's limits); an "arm" under an upper arm is the forearm. Below those, a
    // limb's further segments (`leg3` under `leg2`) bend as the lower part does.
    const std::string_view bare = keyword->text;
    if (parent && bare == "leg")
        return *parent == BoneKind::Thigh || *parent == BoneKind::Shin ? BoneKind::Shin : BoneKind::Thigh;
    if (parent && bare == "arm" && (*parent == BoneKind::UpperArm || *parent == BoneKind::Forearm)) return BoneKind::Forearm;
    return keyword->kind;
}

std::vector<BoneKind> classifyBones(const RigDefinition& rig) {
    std::vector<BoneKind> kinds(rig.bones.size(), BoneKind::Other);
    std::vector<char> done(rig.bones.size(), 0);
    // Parents first (the loader refused cycles), each bone once.
    auto classify = [&](auto& self, int bone) -> BoneKind {
        if (!done[size_t(bone)]) {
            const int parent = rig.bones[size_t(bone)].parent;
            const BoneKind parentKind = parent >= 0 ? self(self, parent) : BoneKind::Other;
            kinds[size_t(bone)] = classifyBone(rig.bones[size_t(bone)].fileName, parentKind);
            done[size_t(bone)] = 1;
        }
        return kinds[size_t(bone)];
    };
    for (int b = 0; b < int(rig.bones.size()); ++b) classify(classify, b);
    return kinds;
}

const char* boneKindName(BoneKind kind) {
    switch (kind) {
        case BoneKind::Torso: return "torso";
        case BoneKind::Neck: return "neck";
        case BoneKind::Head: return "head";
        case BoneKind::UpperArm: return "upper arm";
        case BoneKind::Forearm: return "forearm";
        case BoneKind::Hand: return "hand";
        case BoneKind::Thigh: return "thigh";
        case BoneKind::Shin: return "shin";
        case BoneKind::Foot: return "foot";
        case BoneKind::Other: return "other";
    }
    return "other";
}

GeneratedRig generateBodiesAndJoints(const RigDefinition& input) {
    GeneratedRig out;
    out.rig = input;
    RigDefinition& rig = out.rig;
    out.replacedBodies = int(rig.bodies.size());
    out.replacedJoints = int(rig.joints.size());
    rig.bodies.clear();
    rig.joints.clear();

    const int count = int(rig.bones.size());
    double torsoLength = 0.0;
    const std::vector<BoneKind> kinds = classifyBones(rig);
    for (int i = 0; i < count; ++i)
        if (kinds[size_t(i)] == BoneKind::Torso) torsoLength += rig.bones[size_t(i)].length;

    for (int i = 0; i < count; ++i) {
        const RigBone& bone = rig.bones[size_t(i)];
        const BoneKind kind = kinds[size_t(i)];
        const BoneRecipe r = boneRecipe(kind);
        RigBody body;
        body.bone = i;
        body.shape = kind == BoneKind::Head ? BodyShape::Circle : BodyShape::Capsule;
        // The bone's art (a sized visual, else its sprites) says how thick it is.
        if (artRadius(rig, i) > 0.0) {
            body.radiusSource = RadiusSource::Visual;
        } else {
            body.radiusSource = RadiusSource::Fraction;
            body.radiusFraction = body.shape == BodyShape::Capsule ? std::min(r.radiusFraction, kMaxCapsuleRadiusFraction)
                                                                   : r.radiusFraction;
        }
        body.mass = kind == BoneKind::Torso && torsoLength > 0.0 ? r.mass * bone.length / torsoLength : r.mass;
        body.linearDamping = kLinearDamping;
        body.angularDamping = kAngularDamping;
        rig.bodies.push_back(body);
    }

    std::set<std::string> names;
    for (int i = 0; i < count; ++i) {
        const RigBone& bone = rig.bones[size_t(i)];
        if (bone.parent < 0) continue;
        const BoneKind kind = kinds[size_t(i)];
        const BoneRecipe r = boneRecipe(kind);
        RigJoint joint;
        joint.parent = bone.parent;
        joint.child = i;
        joint.limited = true;
        joint.lower = r.lowerDegrees * (kPi / 180.0);
        joint.upper = r.upperDegrees * (kPi / 180.0);
        std::string name = jointNameFor(bone, kind, kinds[size_t(bone.parent)]);
        std::string unique = name;
        for (int n = 2; names.count(sanitiseName(unique)); ++n) unique = name + "_" + std::to_string(n);
        names.insert(sanitiseName(unique));
        joint.fileName = unique;
        joint.name = sanitiseName(unique);
        rig.joints.push_back(joint);
    }
    dampAndRubJoints(rig);
    updateDerived(rig);
    return out;
}

void dampAndRubJoints(RigDefinition& rig) {
    constexpr double kNone = std::numeric_limits<double>::infinity();
    double lightestTorque = kNone;
    for (const RigJoint& joint : rig.joints)
        if (const int body = rig.bodyOfBone(joint.child); body >= 0)
            lightestTorque = std::min(lightestTorque, rig.bodies[size_t(body)].mass * std::abs(rig.solver.gravity) * 0.5 *
                                                          rig.bones[size_t(joint.child)].length);
    for (RigJoint& joint : rig.joints) {
        joint.damping = kJointDamping;
        if (lightestTorque < kNone) joint.friction = std::round(100.0 * kJointFrictionShare * lightestTorque) / 100.0;  // N·m
    }
}

}  // namespace ragdoll
