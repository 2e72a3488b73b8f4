// Spine mesh attachments (rigid, weighted and linked) as rig <mesh> elements: each vertex's
// texture position from the mesh's uvs through its atlas region (trimmed and turned as the
// region is stored), and its weights re-expressed on the rig bones the Spine bones ride on.
#pragma once

#include <string>
#include <vector>

#include "spine/spine_import_model.h"

namespace ragdoll {

/// The mesh a (linked) mesh attachment takes its vertices from: itself, or its parent in
/// the named skin (the linked mesh's own skin, else the default); nullptr if none.
const SpineAttachment* meshSource(const SpineSkeleton& skeleton, const SpineAttachment& attachment,
                                  const std::string& skinName);

/// Why meshSource found no parent for a linked mesh, for its error: the parent is looked
/// for in the linked mesh's own slot, so one in another slot is said to be there.
std::string whyNoParentMesh(const SpineSkeleton& skeleton, const SpineAttachment& attachment, const std::string& skinName);

/// Each vertex of a mesh in Spine's world, in the setup pose.
std::vector<std::array<double, 2>> meshWorldVertices(const SpineAttachment& source, int slotBone,
                                                     const std::vector<SpineWorld>& setup);

/// The Spine bone that carries most of a mesh's weight (the slot's bone for a rigid mesh).
int meshMainBone(const SpineAttachment& source, int slotBone, size_t boneCount);

/// A bone's share of a mesh: the setup-pose positions (Spine's world) of the vertices it
/// holds the largest weight of (a vertex weighted half and half is each bone's), all of a
/// rigid mesh's for its slot's bone. How far the art the bone moves reaches.
std::vector<std::array<double, 2>> meshShareOfBone(const SpineAttachment& source, int slotBone,
                                                   const std::vector<SpineWorld>& setup, int bone);

/// A mesh's area in the setup pose (its triangles', units²) shared among the Spine bones
/// that move it, per bone: each triangle's area split by its corners' mean weight on each
/// bone, so a mesh bending across an elbow credits the forearm the part that follows it (a
/// rigid mesh's is all its slot bone's). Whether a bone gets a body is judged on its share.
std::vector<double> meshAreaByBone(const SpineAttachment& source, int slotBone, const std::vector<SpineWorld>& setup);

/// The rig mesh of a part: texture positions in the page PNG's pixels (the atlas's times
/// pngScale), weights on rig bones (metres).
RigMesh rigMeshOf(const SpinePart& part, const SpineAttachment& source, int slotBone, const SpineRigMap& map,
                  const std::vector<SpineWorld>& setup, const RigDefinition& rig, int image, std::array<double, 2> pngScale);

}  // namespace ragdoll
