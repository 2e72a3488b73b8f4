// The parts of a character as they are drawn (each cut-out part as the capsule in its art,
// each visual's round-capped line or circle), in the world, and how far they reach into the
// bodies around them. The player's run_max_visual_depth_m and the get-up's terrain clearance
// both measure these, not the bodies: what a user sees passing through a step is the drawn
// limb.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "anim/pose.h"
#include "rig/rig.h"
#include "solver/world.h"

namespace ragdoll {

/// A drawn part in world space: a capsule from a to b, or a circle when a == b.
struct DrawnShape {
    Vec2 a, b;
    double radius = 0.0;  ///< metres
};

/// The shapes of the rig's cut-out parts (sprites, and each bone's share of a mesh) and
/// visuals at these (world) poses, scaled by scale (a mirrored character's parts flipped as
/// drawn), into out after clearing it. Visuals with no width or radius draw nothing.
void drawnShapes(const RigDefinition& rig, const std::vector<BonePose>& poses, double scale, bool mirrored,
                 std::vector<DrawnShape>& out);

/// Signed distance between the shape and a body's shape: negative when they overlap, by that
/// depth. *normal (when given) points from the body out towards the shape.
double drawnSeparation(const World& world, BodyId body, const DrawnShape& shape, Vec2* normal = nullptr);

/// Which bodies count as "the world" a drawn part must stay out of.
enum class Obstacles : std::uint8_t {
    Terrain,         ///< static bodies
    Props,           ///< dynamic bodies no character owns (collision group 0)
    TerrainAndProps  ///< both
};

/// The deepest any of the shapes reaches into the obstacles (metres, 0 when none does) and
/// the direction that would take it out. scratch is reused for the broadphase query.
struct DrawnDepth {
    double depth = 0.0;
    Vec2 normal;
    BodyId body;  ///< the obstacle reached deepest into
};
/// Props count only from `minPropMass` and under `maxPropMass` (kg).
DrawnDepth deepestOverlap(const World& world, const std::vector<DrawnShape>& shapes, Obstacles obstacles,
                          std::vector<BodyId>& scratch, double minPropMass = 0.0,
                          double maxPropMass = std::numeric_limits<double>::infinity());

}  // namespace ragdoll
