// What every character built from one rig file shares: the rig and its clips, loaded and
// checked once (Jolt's split between shared settings and instances).
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "anim/clip.h"
#include "rig/rig.h"

namespace ragdoll {

/// The clip roles a character plays; a rig names a file for each with <clip name=…>.
enum class ClipRole { Idle, Walk, Run, Jump, Daze, GetUpFront, GetUpBack, Count };
const char* clipRoleName(ClipRole role);  ///< "idle", "walk", …, "get_up_back"

struct CharacterAssets {
    RigDefinition rig;
    Clip clips[int(ClipRole::Count)];
    const Clip& clip(ClipRole role) const { return clips[int(role)]; }
    /// Per joint: its name, or for one the file leaves unnamed "(A-B)", its two bones (or
    /// "(joint N)" should that be taken), unique, so that every joint has a name to be
    /// listed, picked and edited by.
    std::vector<std::string> jointLabels;
    /// Bones in an order where every parent comes before its children.
    std::vector<int> parentFirst;
    /// Per bone: its body's index in rig.bodies, or -1.
    std::vector<int> bodyOfBone;
    int rootBone = -1;
    /// The root bone's x in the rest pose (rig space, metres): the figure stands with it over
    /// its root and turns about it, wherever the rig's origin is (a Spine skeleton's hips
    /// 0.4 m off its origin stood 0.4 m beside its spawn, and jumped 0.8 m at each turn).
    double rootRestX = 0.0;
    /// m from the feet to the top of the figure standing in the rest pose (its bodies' tops).
    double standingHeight = 0.0;
    /// m from the root each get-up clip's drawn parts reach above knee height, ahead (the way
    /// the rig faces) and behind: the room that get-up needs (one from the front leans far
    /// out over its knees): [0] the get-up from the front (ClipRole::GetUpFront), [1] the back.
    std::array<std::array<double, 2>, 2> getUpReach = {};
    /// The leg and arm chains two-bone IK drives, as bone indices (-1 when the rig lacks
    /// one): found by name (thigh/shin, upper_arm/forearm with _L/_R). A leg's `end` is its
    /// foot (foot_L/_R, a child of the shin), which turns at the ankle (`endJoint`, the joint
    /// it hangs from, or -1) to keep its toe out of the ground.
    struct Chain {
        int upper = -1, lower = -1, end = -1, endJoint = -1;
    };
    Chain legs[2], arms[2];
};

/// Loads a rig file and every clip it names. Null when anything is missing or broken. Every
/// error and warning is appended to diagnostics in the order a compiler lists them: the rig
/// file's by line (its <clip> entries' and bones' included), then each clip file's by line,
/// in the order the rig names them.
std::shared_ptr<const CharacterAssets> loadCharacterAssets(const std::string& rigPath, std::vector<Diagnostic>& diagnostics);

/// The same as text ("FILE:LINE: error: …"): loaded, its errors in errors (none) and its
/// warnings in warnings when given; refused, its errors and then its warnings in errors,
/// each in the order `rig check` lists them.
std::shared_ptr<const CharacterAssets> loadCharacterAssets(const std::string& rigPath, std::vector<std::string>& errors,
                                                           std::vector<std::string>* warnings = nullptr);

}  // namespace ragdoll
