// What `rig import` works with between reading a Spine skeleton and writing the rig: the
// visible parts (region attachments placed in the setup pose) and how Spine bones map to
// rig bones. Shared by the importer's parts (spine_import.cpp, spine_physics.cpp,
// spine_bake.cpp).
#pragma once

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "rig/rig.h"
#include "spine/spine_atlas.h"
#include "spine/spine_pose.h"
#include "spine/spine_skeleton.h"

namespace ragdoll {

/// A region attachment as drawn in the setup pose, in Spine's world (its units, y up).
struct SpinePart {
    std::string name;      ///< the attachment's name
    int slot = -1;         ///< draw order: the slot's index
    int bone = -1;         ///< the Spine bone its slot is on
    int line = 0;          ///< the attachment's line in the JSON (for messages)
    const AtlasRegion* region = nullptr;
    double centreX = 0.0, centreY = 0.0;  ///< of the drawn (packed) pixels
    double angle = 0.0;    ///< degrees: the packed rect's +x (after the atlas's turn)
    double width = 0.0, height = 0.0;  ///< drawn size of the packed rect along its x and y
    /// Drawn mirrored (a negative scale of its bones or its own): the packed rect's +y, up
    /// in its page, lies clockwise of its +x. The sprite's flip="y".
    bool mirrored = false;
    double area = 0.0;     ///< of the whole attachment (untrimmed), units²
    std::array<std::uint8_t, 4> color{255, 255, 255, 255};
    /// A mesh attachment (the vertices' source), or nullptr for a region. For a mesh the
    /// centre and size are its setup-pose bounding box (angle 0), the area its triangles'
    /// (shared among its bones by weight for the bodies: meshAreaByBone), and `bone` the
    /// Spine bone that carries most of its weight.
    const SpineAttachment* mesh = nullptr;
};

/// How the Spine skeleton becomes the rig's skeleton: only bones with a body are rig bones
/// (a character needs one body per bone), and everything else rides on one of them.
struct SpineRigMap {
    double scale = 100.0;              ///< Spine units per metre
    std::vector<int> rigOfSpine;       ///< per Spine bone: its rig bone, or -1
    std::vector<int> spineOfRig;       ///< per rig bone: its Spine bone
    std::vector<int> riderOfSpine;     ///< per Spine bone: the rig bone its parts and motion ride on
    std::vector<int> rigParent;        ///< per rig bone: its parent rig bone, -1 for the root
    std::vector<std::string> jointNote;  ///< per rig bone: how its parent was chosen (for the table)
    std::vector<double> partArea;      ///< per Spine bone: area of its own parts (its weighted share of a mesh), units²
};

/// A number with up to `decimals` decimals and no trailing zeros ("-0" as "0"), as the
/// importer writes figures into clips and its report.
inline std::string shortNumber(double value, int decimals) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    std::string text = buffer;
    if (text.find('.') != std::string::npos) {
        while (text.back() == '0') text.pop_back();
        if (text.back() == '.') text.pop_back();
    }
    return text == "-0" ? "0" : text;
}

/// World angle of a Spine bone's +x in the setup pose, degrees; its origin.
/// A length in metres rounded to 1e-9 of the file's units: the setup pose's matrices leave
/// noise in the last bits (30.000000000000004), which would otherwise be written as is.
inline double tidy(double metres, double scale) { return std::round(metres * scale * 1e9) / 1e9 / scale; }

inline double spineAngle(const std::vector<SpineWorld>& world, int bone) { return world[size_t(bone)].angleDegrees(); }

}  // namespace ragdoll
