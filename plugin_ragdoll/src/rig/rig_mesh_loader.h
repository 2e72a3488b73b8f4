// The rig loader's part for <mesh> (FORMAT.md, "Meshes"): textured triangles whose
// vertices follow one bone (rigid) or several by weight (a weighted mesh bends at the
// joint). Internal to the loader, like rig_art_loader.h.
//
//   <mesh image="doll" z="7" color="#ffffff">
//     <vertex u="310" v="42"> <weight bone="torso" x="12.5" y="-3" w="0.7"/> <weight bone="hip" x="2" y="1" w="0.3"/> </vertex>
//     <triangles>0 1 2  2 3 0</triangles>
//   </mesh>
//
// Errors, each on its line: an unknown bone or image, a vertex without a weight, weights
// that do not sum to 1 (± kMeshWeightTolerance), a triangle index out of range, an index
// count that is not a multiple of three (or no triangles at all), u or v outside the image.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "rig/rig_art_loader.h"

namespace ragdoll::rigload {

inline constexpr double kMeshWeightTolerance = 1e-3;
/// Most vertices (and triangle indices) one mesh may have: Spine's largest example meshes
/// have a few hundred.
inline constexpr int kMaxMeshVertices = 65536;

class MeshParser {
public:
    MeshParser(paper::Reporter& report, RigDefinition& rig) : report_(report), rig_(rig) {}

    void readMesh(const tinyxml2::XMLElement& element, int ordinal);
    /// Bone and image names to indices, then the checks that need them.
    void resolve(const std::map<std::string, int>& boneIndex);

private:
    struct MeshRecord {
        std::string imageName;
        std::vector<std::vector<std::string>> boneNames;  ///< per vertex, per weight
        std::vector<std::vector<int>> weightLines;
        int trianglesLine = 0;
    };

    paper::AttributeReader reader(const tinyxml2::XMLElement& element) {
        return paper::AttributeReader(element, report_, rig_.scale, kRigRules);
    }
    void readTriangles(const tinyxml2::XMLElement& element, RigMesh& mesh, MeshRecord& record);

    paper::Reporter& report_;
    RigDefinition& rig_;
    std::vector<MeshRecord> records_;
};

}  // namespace ragdoll::rigload
