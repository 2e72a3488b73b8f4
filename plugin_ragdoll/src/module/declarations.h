// What the plugin declares to the engine (plugin_api.h): its input actions, the figures it
// reports, the kinds of objects it reflects, the commands they run and the asset it opens.
#pragma once

#include <cstdint>

#include "paper/plugin_api.h"

namespace ragdoll {

/// The object kinds, by their index in kKinds.
enum ObjectKind : std::int32_t { kSettings, kCharacter, kJoint, kBody, kProp, kKindCount };

/// The commands, by their index in kCommands (all run on a character).
enum CharacterCommand : std::int32_t { kBlendWeight, kToggleRagdoll, kHitLeft, kHitRight, kHitAbove, kGetUp, kCommandCount };

/// The figures, by their index in kStats (getStats fills them in this order).
enum Stat : std::int32_t {
    kBodies, kJoints, kContacts, kAwakeBodies, kStepMs, kStretch, kLimitError,
    kRunStretch, kRunLimitError, kVisualDepth, kRunVisualDepth,
    kCollideMs, kIntegrateMs, kBodyContactsMs, kJointTreesMs, kTreeContactsMs, kVelocitiesMs, kFinishMs, kCharactersMs,
    kStatCount
};

extern const PaperActionDesc kActions[];
extern const std::int32_t kActionCount;
extern const PaperStatDesc kStats[kStatCount];
extern const PaperObjectKindDesc kKinds[kKindCount];
extern const PaperCommandDesc kCommands[kCommandCount];
extern const PaperAssetTypeDesc kAssetTypes[1];

}  // namespace ragdoll
