// Local poses, forward kinematics and blending.
//
// computeBonePoses() places bones parent-first without assuming file order (a rig may list
// a child before its parent). Rejected: sorting the bones once into a cached order — the
// rig is immutable and shared, and an order kept beside it could go stale after an edit.
// Instead the output doubles as the "already placed" marker (NaN angle = not yet), so a
// frame's FK allocates nothing once `out` has its size. Each placement uses exactly the
// operations of updateDerived(), so the rest pose comes out bit for bit as RigBone::origin
// and RigBone::angle.

#include "anim/pose.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ragdoll {

LocalPose restLocalPose(const RigDefinition& rig) {
    LocalPose pose;
    pose.angles.resize(rig.bones.size());
    for (size_t i = 0; i < rig.bones.size(); ++i) pose.angles[i] = rig.bones[i].localAngle;
    return pose;
}

namespace {

/// Places one bone whose parent (if any) is placed already.
void placeBone(const RigDefinition& rig, const LocalPose& pose, int index, std::vector<BonePose>& out) {
    const RigBone& bone = rig.bones[size_t(index)];
    const double localAngle = size_t(index) < pose.angles.size() ? pose.angles[size_t(index)] : bone.localAngle;
    BonePose& placed = out[size_t(index)];
    const int count = int(rig.bones.size());
    if (bone.parent >= 0 && bone.parent < count) {
        const BonePose& parent = out[size_t(bone.parent)];
        placed.origin = parent.origin + rotate(makeRot(parent.angle), bone.localOrigin);
        placed.angle = parent.angle + localAngle;
    } else {
        placed.origin = bone.localOrigin + pose.rootOffset;
        placed.angle = localAngle;
    }
}

}  // namespace

void computeBonePoses(const RigDefinition& rig, const LocalPose& pose, std::vector<BonePose>& out) {
    const int count = int(rig.bones.size());
    constexpr double kUnplaced = std::numeric_limits<double>::quiet_NaN();
    out.assign(size_t(count), BonePose{{}, kUnplaced});
    auto placed = [&](int b) { return b < 0 || b >= count || !std::isnan(out[size_t(b)].angle); };
    for (int start = 0; start < count; ++start) {
        // Place the topmost unplaced ancestor until this bone is placed; the step guard
        // stops a cyclic (badly edited) rig from looping forever.
        for (int guard = 0; !placed(start) && guard <= count; ++guard) {
            int top = start;
            for (int steps = 0; !placed(rig.bones[size_t(top)].parent) && steps < count; ++steps)
                top = rig.bones[size_t(top)].parent;
            placeBone(rig, pose, top, out);
        }
    }
}

void blendLocalPoses(const LocalPose& a, const LocalPose& b, double t, LocalPose& out) {
    // Written index by index so that out may be a or b.
    const size_t count = std::min(a.angles.size(), b.angles.size());
    out.angles.resize(count);
    if (t <= 0.0 || t >= 1.0) {
        // Exactly one of the two (a + 1·wrap(b − a) is b only modulo 2π).
        const LocalPose& end = t <= 0.0 ? a : b;
        for (size_t i = 0; i < count; ++i) out.angles[i] = end.angles[i];
        out.rootOffset = end.rootOffset;
        return;
    }
    for (size_t i = 0; i < count; ++i) out.angles[i] = a.angles[i] + t * wrapAngle(b.angles[i] - a.angles[i]);
    out.rootOffset = lerp(a.rootOffset, b.rootOffset, t);
}

void meshVertexPositions(const RigMesh& mesh, const std::vector<BonePose>& poses, bool mirrored, double scale,
                         std::vector<Vec2>& out) {
    out.assign(mesh.vertices.size(), Vec2{});
    for (size_t v = 0; v < mesh.vertices.size(); ++v)
        for (const RigMeshWeight& w : mesh.vertices[v].weights) {
            Vec2 q = w.position;
            if (mirrored) q.y = -q.y;
            const BonePose& pose = poses[size_t(w.bone)];
            out[v] = out[v] + w.weight * (pose.origin + rotate(makeRot(pose.angle), scale * q));
        }
}

}  // namespace ragdoll
