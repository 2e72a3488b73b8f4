// Box2D 2.4.1 (Debian libbox2d-dev) as a peer engine on the scenes of tests/scenes/SCENES.md.
// The only code in the project that may use Box2D; nothing of Box2D crosses this header.
#pragma once

#include <string>

#include "scenes.h"

namespace bench {

/// Box2D 2.4.1's recommended iterations a step, what the peer runs.
inline constexpr int kBox2DVelocityIterations = 8;
inline constexpr int kBox2DPositionIterations = 3;

/// True when this build links Box2D (CMake found it); false makes runBox2D a no-op.
bool box2dAvailable();

/// "box2d 2.4.1" from the linked library, or a note that the build has no Box2D.
std::string box2dEngineName();

/// Builds `scene` in a b2World and steps it `steps` times at 1/60 s with 8 velocity and
/// 3 position iterations and continuous collision off, sleeping on or off, measuring what
/// SCENES.md asks (see measure.h). Box2D 2.4.1 has no substeps: `substeps` is ignored.
/// Capsules collide as 8-gons around the capsule; their mass and inertia are the capsule's.
/// `bodies` counts every b2Body, statics and the fixture-less static bodies that hold joints
/// to the world included (as runOurs counts them). Without Box2D, returns an empty result.
scenes::BenchResult runBox2D(const scenes::SceneSpec& scene, int steps, int substeps, bool sleeping);

}  // namespace bench
