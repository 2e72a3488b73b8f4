// Poses of a rig's skeleton: a local pose (what clips produce and blend: each bone's angle
// relative to its parent, and the root's offset) and the rig-space pose forward kinematics
// makes from it (each bone's origin and angle, what drawing, IK and ragdolls use).
#pragma once

#include <vector>

#include "rig/rig.h"

namespace ragdoll {

/// What a clip says at one instant, for every bone of one rig.
struct LocalPose {
    /// Per bone (index-aligned with RigDefinition::bones): the angle relative to the parent
    /// (root: to rig space), radians — the rest pose's localAngle plus the clip's offset.
    std::vector<double> angles;
    /// Added to the root bone's rest origin, rig-space metres (bob, sway, crouch; lying
    /// down in the get-up clips). Forward travel is root motion, not part of the pose.
    Vec2 rootOffset;
};

/// A bone placed in rig space (or world space, after the character places it).
struct BonePose {
    Vec2 origin;         ///< metres
    double angle = 0.0;  ///< radians, +x of the bone's frame
};

/// The rest pose as a LocalPose (angles = localAngle, no offset).
LocalPose restLocalPose(const RigDefinition& rig);

/// Forward kinematics: every bone's origin and angle in rig space. Children are placed at
/// their localOrigin in the parent's frame (which rotates with the parent's angle).
void computeBonePoses(const RigDefinition& rig, const LocalPose& pose, std::vector<BonePose>& out);

/// Where a mesh's vertices are drawn on bones posed as `poses`: Σ w · (bone pose ·
/// position), the positions scaled by `scale` and, for a mirrored character, flipped across
/// their bones (as its sprites are).
void meshVertexPositions(const RigMesh& mesh, const std::vector<BonePose>& poses, bool mirrored, double scale,
                         std::vector<Vec2>& out);

/// a + t (b − a), angles along the shorter arc; both poses of the same rig.
void blendLocalPoses(const LocalPose& a, const LocalPose& b, double t, LocalPose& out);

}  // namespace ragdoll
