// Authoring helper (Unreal's "generate bodies and constraints from the skeleton"): turns a
// rig that has only bones into a ragdoll, a starting point to tune by hand.
//
// Bones are sorted into kinds by keywords in their names. Radii are fractions of each
// bone's own length, so a skeleton of any size keeps its proportions:
// torso/spine/chest/pelvis 0.9, neck 0.6, head 0.55 (a circle), upper arm 0.28, forearm
// 0.24, hand 0.3, thigh 0.34, shin 0.26, foot 0.25, anything else 0.2. A capsule's radius
// fraction is capped at 0.5 — wider than its bone is long, a capsule no longer reads as
// that bone; the 0.9 was meant for the short pelvis/spine/chest bones of a 3D
// skeleton, and a 2D rig's single torso bone would otherwise be a body almost twice as wide
// as it is long. A bone that has a drawn visual takes its radius from it instead, so the
// body matches what is drawn.
//
// Masses: the torso kind 8 kg in all (shared by length among torso bones), head 1.5,
// neck 0.5, upper arm 1.5, forearm 1.2, hand 0.4, thigh 2, shin 1.5, foot 0.6, other 1.
// Joints: one per bone with a parent, anchored at the child's origin. The character faces
// +x (counter-clockwise = forward for a hanging limb): elbows bend one way, [0°, 140°];
// knees the other, [−140°, 0°]; everything else gets a symmetric, cone-like range:
// spine ±30°, neck ±30°, head ±45°, shoulder ±140°, wrist ±60°, hip −30° to 120°, ankle ±35°,
// other ±45°; each damped and rubbing as dampAndRubJoints says (the shipped rigs' tuning).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rig/rig.h"

namespace ragdoll {

enum class BoneKind { Torso, Neck, Head, UpperArm, Forearm, Hand, Thigh, Shin, Foot, Other };

/// What the recipe above gives a bone of one kind.
struct BoneRecipe {
    double radiusFraction;  ///< of the bone's length
    double mass;            ///< kg; for the torso, the whole torso's
    double lowerDegrees, upperDegrees;  ///< of the joint to its parent, from the rest pose
    const char* jointName;  ///< "elbow", "knee", …; nullptr for Other
};
BoneRecipe boneRecipe(BoneKind kind);

/// A bone's name as its words are matched: lower case, with '.', '-' and ' ' as '_'
/// (Spine's `lower-arm-L` is `lower_arm_l`).
std::string boneNameWords(std::string_view name);
/// The kind a bone's name suggests ("upper_arm.L" → UpperArm), case-insensitive. Given the
/// parent's kind (Other for a root), a bare "leg" is the thigh unless it hangs from a thigh or
/// a shin, and a bare "arm" under an upper arm or a forearm is the forearm; without it they are
/// Mixamo's (`LeftLeg` the shin, `LeftArm` the upper arm).
BoneKind classifyBone(std::string_view name, std::optional<BoneKind> parent = std::nullopt);
/// Every bone of the rig classified with its parent's kind, by index.
std::vector<BoneKind> classifyBones(const RigDefinition& rig);
const char* boneKindName(BoneKind kind);

struct GeneratedRig {
    RigDefinition rig;       ///< the input with generated bodies and joints (elements new)
    int replacedBodies = 0;  ///< bodies and joints the input had, now replaced
    int replacedJoints = 0;
};

/// Damps every joint of the rig at 1.5/s and gives it friction of half the torque of the
/// lightest limb's weight held level about its joint (rounded to 0.01 N·m; the paper doll's
/// 1 N·m is about half its forearm's): a swinging limb settles in a couple of seconds, a limb
/// at rest stays put, none is held up in the air by it, and a standing figure still folds,
/// whatever the figure's size. What the generator and the Spine import give their joints.
void dampAndRubJoints(RigDefinition& rig);

/// One body per bone and one joint per parent–child pair, as described above. Visuals,
/// bones, solver settings and the source text are kept, so saving writes the input file
/// with the new elements added.
GeneratedRig generateBodiesAndJoints(const RigDefinition& bones);

}  // namespace ragdoll
