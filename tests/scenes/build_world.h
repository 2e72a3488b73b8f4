// Builds a neutral SceneSpec in our solver's World.
#pragma once

#include <vector>

#include "scenes.h"
#include "solver/world.h"

namespace scenes {

struct BuiltScene {
    std::vector<ragdoll::BodyId> bodies;  ///< one per SceneSpec body, same order
    std::vector<ragdoll::JointId> joints;  ///< one per SceneSpec joint
    std::vector<ragdoll::BodyId> anchors;  ///< static bodies made for joints to the world
};

/// Creates every body and joint of the scene. Capsule bodies have their origin at the
/// segment's midpoint and angle along p0→p1, as a rig places a bone's body.
BuiltScene buildWorld(ragdoll::World& world, const SceneSpec& scene);

/// Largest anchor separation (m) and limit violation (rad) over the scene's joints now.
void measureJoints(const ragdoll::World& world, const BuiltScene& built, double& maxSeparation, double& maxViolation);

/// Deepest overlap now of two moving bodies in a touching contact (World::overlap), metres:
/// how far ragdolls sink into one another. Sleeping bodies have no contacts.
double deepestBetweenMoving(const ragdoll::World& world);

}  // namespace scenes
