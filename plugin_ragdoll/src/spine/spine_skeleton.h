// A Spine skeleton as its JSON export describes it (Spine's "JSON export format" page),
// in plain structs: what `paperdoll rig import` reads before it turns it into a rig.
// Spine 3.8 and 4.0–4.2; the differences are settled at read time (spine_json.cpp) so the
// structs have one meaning: angles in degrees as in the file, lengths in the file's units,
// y up, every name resolved to an index, every Bézier curve in absolute time and value.
#pragma once

#include <array>
#include <string>
#include <vector>

namespace ragdoll {

/// How a bone takes its parent's transform (3.8–4.1 `transform`, 4.2 `inherit`).
enum class SpineInherit { Normal, OnlyTranslation, NoRotationOrReflection, NoScale, NoScaleOrReflection };
/// As the JSON spells it: "noScale".
const char* inheritName(SpineInherit inherit);

using SpineColor = std::array<double, 4>;  ///< RGBA in [0, 1]

struct SpineBone {
    std::string name;
    int parent = -1;  ///< index in SpineSkeleton::bones; -1 for a root
    double length = 0.0, x = 0.0, y = 0.0, rotation = 0.0;  ///< units, units, units, degrees
    double scaleX = 1.0, scaleY = 1.0, shearX = 0.0, shearY = 0.0;
    SpineInherit inherit = SpineInherit::Normal;
    int line = 0;  ///< of its entry in the JSON, for messages
};

struct SpineSlot {
    std::string name;
    int bone = -1;
    SpineColor color{1, 1, 1, 1};
    std::string attachment;  ///< shown in the setup pose; empty for none
    int line = 0;
};

enum class SpineAttachmentType { Region, Mesh, LinkedMesh, BoundingBox, Path, Point, Clipping, Other };
const char* attachmentTypeName(SpineAttachmentType type);

struct SpineAttachment {
    int slot = -1;
    std::string name;  ///< the key in its skin
    std::string path;  ///< the atlas region's name (defaults to name)
    SpineAttachmentType type = SpineAttachmentType::Region;
    std::string typeText;  ///< as written, for messages about types not known
    // Region: the image's centre, turn, scale and size in the slot bone's frame.
    double x = 0.0, y = 0.0, rotation = 0.0, scaleX = 1.0, scaleY = 1.0, width = 0.0, height = 0.0;
    SpineColor color{1, 1, 1, 1};
    // Mesh: uvs (0..1 of the region), triangles, and vertices: x, y pairs in the slot bone's
    // frame (rigid), or per vertex a bone count then (bone, x, y, weight) per bone (weighted).
    std::vector<double> uvs, vertices;
    std::vector<int> triangles;
    bool weighted = false;
    std::string parentMesh, parentSkin;  ///< linked mesh: the mesh it shares vertices with
    /// A sequence's number of frames (4.1+), 0 for none; `path` then names its setup frame.
    int sequenceCount = 0;
    int line = 0;
};

struct SpineSkin {
    std::string name;
    std::vector<SpineAttachment> attachments;
    int line = 0;
};

struct SpineIk {
    std::string name;
    std::vector<int> bones;  ///< one or two, parent first
    int target = -1;
    double mix = 1.0;
    bool bendPositive = true;
    int order = 0;
    int line = 0;
};

/// A transform constraint: the bones take the target's world rotation and position (plus
/// offsets), by mixes. Local and relative forms are read but approximated (warned).
struct SpineTransformConstraint {
    std::string name;
    std::vector<int> bones;
    int target = -1;
    double offsetRotation = 0.0, offsetX = 0.0, offsetY = 0.0;
    double mixRotate = 1.0, mixX = 1.0, mixY = 1.0;
    bool local = false, relative = false;
    int order = 0;
    int line = 0;
};

enum class SpineCurveType { Linear, Stepped, Bezier };

/// One key of a timeline with up to two values (translate and scale have x and y).
struct SpineKey {
    double time = 0.0;
    std::array<double, 2> values{0, 0};
    SpineCurveType curve = SpineCurveType::Linear;  ///< toward the next key
    /// Per value: the Bézier's inner control points (time, value, time, value), absolute.
    std::array<std::array<double, 4>, 2> bezier{};
    bool bendPositive = true;  ///< IK timelines only
};

enum class SpineTimelineKind { Rotate, Translate, TranslateX, TranslateY, Scale, ScaleX, ScaleY, Shear, Ik };

struct SpineTimeline {
    SpineTimelineKind kind = SpineTimelineKind::Rotate;
    int target = -1;  ///< a bone, or an IK constraint for Ik
    std::vector<SpineKey> keys;  ///< sorted by time
};

struct SpineAnimation {
    std::string name;
    double duration = 0.0;  ///< seconds: the last key of any timeline
    std::vector<SpineTimeline> timelines;
    int line = 0;
};

struct SpineSkeleton {
    std::string version;  ///< skeleton.spine, e.g. "4.2.22"
    int major = 4, minor = 2;
    std::vector<SpineBone> bones;  ///< parent before child
    std::vector<SpineSlot> slots;  ///< in draw order, back to front
    std::vector<SpineSkin> skins;
    std::vector<SpineIk> ik;
    std::vector<SpineTransformConstraint> transforms;
    std::vector<SpineAnimation> animations;
    std::string path;  ///< for messages

    int findBone(const std::string& name) const;
    int findSlot(const std::string& name) const;
    const SpineSkin* findSkin(const std::string& name) const;
};

}  // namespace ragdoll
