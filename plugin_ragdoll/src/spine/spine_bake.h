// Baking Spine animations into Paperdoll clips (README, "Clips"): the skeleton is posed as
// Spine defines it (spine_pose.h: timelines with their curves, then IK and transform
// constraints) at sample times, and each rig bone's angle relative to its rig parent is
// written as a key (an offset from its rest angle), linear between keys. Samples are taken
// at every Spine key and on a uniform grid, made finer (30, 60, 120, 240 Hz) until the
// clip, read back linearly, is within kBakeTolerance of the Spine pose halfway between
// any two samples; a stepped key becomes a jump of kJumpLead. The rig root's origin becomes the root track: x its travel since the
// clip's start (root motion), y its offset from the rest height. Only angles and the root
// move: an animation that moves a bone off its place on its parent (a translate or scale
// timeline, a helper bone turning between two bodies) is warned about, and so are the keys
// of a helper bone that move nothing baked (a forearm without a body), which are dropped.
#pragma once

#include <string>
#include <vector>

#include "spine/spine_import_model.h"
#include "spine/spine_physics.h"

namespace ragdoll {

inline constexpr double kBakeTolerance = 0.25;  ///< degrees between samples (the baked clips may differ by 0.5 at most)
inline constexpr double kBakeStartRate = 30.0;  ///< Hz
inline constexpr double kBakeMaxRate = 240.0;   ///< Hz
/// How long before a jump in a timeline (a stepped key) the value before it is sampled, s.
inline constexpr double kJumpLead = 1e-4;
/// A Spine animation with no length (one pose) becomes a clip this long, seconds.
inline constexpr double kStillClipDuration = 0.1;

struct BakedClip {
    std::string animation;           ///< the Spine animation's name
    std::vector<std::string> roles;  ///< rig clip names it is listed under ("walk"; both get-ups)
    std::string file;                ///< file name, beside the rig
    std::string text;                ///< the clip file's text
    bool loop = false;
    double rate = 0.0;               ///< Hz it was sampled at
    int keys = 0;                    ///< per track
    double maxError = 0.0;           ///< degrees, at the half-way checks
};

/// A bone an animation moves off its place on its parent by more than this fraction of its
/// length: the clip cannot follow (rig bones keep their places), which is warned about.
inline constexpr double kDriftWarning = 0.05;

struct BakeWarning {
    int line = 0;  ///< of the animation in the JSON
    std::string message;
};

struct BakeResult {
    std::vector<BakedClip> clips;
    std::vector<AngleRange> ranges;  ///< per rig bone, over every clip
    std::vector<BakeWarning> warnings;
};

/// The role name an animation is wired to ("walk", "get_up_back"…; "get_up" for a get-up
/// that says neither front nor back), or "" for a script-only clip.
std::string clipRoleOf(const std::string& animationName);
/// True when the animation loops by default: its name holds idle, walk or run.
bool loopsByDefault(const std::string& animationName);

/// Bakes every animation of the skeleton against the rig's bones. `loops` are the names to
/// loop (nullptr: loopsByDefault); fileStem prefixes the clip file names ("doll" →
/// "doll.walk.anim.xml").
BakeResult bakeSpineClips(const SpineSkeleton& skeleton, const SpineRigMap& map, const RigDefinition& rig,
                          const std::vector<std::string>* loops, const std::string& fileStem, const std::string& source);

}  // namespace ragdoll
