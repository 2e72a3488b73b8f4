// The rig: an immutable, shareable description of a ragdoll (bones with their rest pose,
// how each bone is drawn, its physics body, the joints, the solver settings), read from a
// *.rig.xml file (rig/FORMAT.md, format 1) and built into worlds as many times
// as needed (rig_builder.h). Jolt's split: RagdollSettings (this) vs Ragdoll (an instance).
//
// Inside, everything is metres, radians and kilograms, converted once at load; bone names
// are sanitised once at load ('.' → '_'), and every reference is resolved to an index.
// What the file said is kept beside (fileName, sourceText, element) so a save can write
// the file back as it was, with only the edited values changed (rig_saver.h).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "paper/diagnostic.h"
#include "solver/math.h"

namespace ragdoll {

// Diagnostics are the engine's (a public, header-only part of it), so the rig loader and
// the level loader report in one format through one implementation.
using paper::Diagnostic;
using paper::hasErrors;
using paper::Severity;
int errorCount(const std::vector<Diagnostic>& diagnostics);

/// The file's units; `scale` says how many of them make a metre.
enum class RigUnits { Pixels, Centimetres, Metres };
/// "px", "cm" or "m".
const char* unitsName(RigUnits units);
/// px 100, cm 100, m 1.
double defaultScale(RigUnits units);

/// '.' → '_': the one place bone (and joint) names are sanitised, so `upper_arm.L` and
/// `upper_arm_L` are the same bone everywhere (an s&box model compiler does this silently
/// and left every dotted limb without a body; here it is done once, on purpose).
std::string sanitiseName(std::string_view name);

struct RigDefinition;
/// "; did you mean 'torso'?" when a bone of the rig (as its file spells it) is a slip away
/// from `typed`, the nearest; else "". For messages about a bone name that is not one.
std::string didYouMeanBone(const RigDefinition& rig, std::string_view typed);
/// The same for an <image> of the rig (a sprite's or a mesh's `image`).
std::string didYouMeanImage(const RigDefinition& rig, std::string_view typed);

struct RigBone {
    std::string name;      ///< sanitised: what code and references use
    std::string fileName;  ///< as the file spells it; written back on save
    int parent = -1;       ///< index in RigDefinition::bones; -1 for the root
    Vec2 localOrigin;      ///< in the parent's frame (its origin at 0,0, +x along it), metres; root: rig space
    double localAngle = 0.0;  ///< relative to the parent (root: to rig space), radians counter-clockwise
    double length = 0.0;      ///< metres, > 0
    // Rest pose in rig space (y up), derived by updateDerived().
    Vec2 origin;           ///< metres
    double angle = 0.0;    ///< radians
    Vec2 tip() const { return origin + length * Vec2{std::cos(angle), std::sin(angle)}; }
    Vec2 midpoint() const { return origin + (0.5 * length) * Vec2{std::cos(angle), std::sin(angle)}; }

    int line = 0;      ///< line of its <bone>, for messages
    int element = -1;  ///< ordinal of its element among <rig>'s children; -1 = not in the file yet
};

enum class VisualShape { Line, Circle };

/// How a bone is drawn. Bodies without a radius of their own take it from here, so the
/// physics matches what the player sees (a body thinner or thicker than its drawing is
/// seen to sink into or hover over the ground).
struct RigVisual {
    int bone = -1;
    VisualShape shape = VisualShape::Line;
    double width = 0.0;   ///< line width, metres; 0 = not given (sprite only)
    double radius = 0.0;  ///< circle radius, metres, centred at the bone's midpoint; 0 = not given
    std::string color;    ///< "#rrggbb" or "#rrggbbaa" as written; empty = the renderer's default
    /// The format's first placeholder for art, before <image> and <sprite>: read (with a
    /// warning that it is not drawn) and saved, never opened.
    std::string sprite;
    int line = 0;
    int element = -1;
};

/// A PNG the rig's sprites cut their parts from. Decoded at load only to check it and learn
/// its size; the renderer decodes it again for itself (the pixels are not kept here).
struct RigImage {
    std::string name;  ///< what sprites refer to; unique, used exactly as written
    std::string file;  ///< as written: relative to the rig file (saved as is)
    std::string path;  ///< resolved: the rig file's folder joined with file
    int width = 0;     ///< pixels; 0 when the image could not be read (the rig then fails)
    int height = 0;
    int line = 0;
    int element = -1;
};

/// A rectangle of an image in its pixels: origin at the top-left, y down.
struct PixelRect {
    int x = 0, y = 0, width = 0, height = 0;
    bool operator==(const PixelRect&) const = default;
};

/// A cut-out part: a rectangle of an image drawn on a bone, following it in every mode. A
/// bone with sprites is drawn by them alone (its visual, if any, is the editor's bone view).
struct RigSprite {
    int bone = -1;   ///< index in RigDefinition::bones
    int image = -1;  ///< index in RigDefinition::images
    PixelRect rect;  ///< the part of the image; the whole image when the file gives none
    /// Where the art is within rect: the smallest rectangle holding every texel at least half
    /// opaque, in the image's pixels (found when the rig loads; zero size when unknown or
    /// wholly clear, and rect stands for it). The drawn part's shape (drawn_shapes.h).
    PixelRect opaque;
    Vec2 centre;     ///< the part's centre in the bone's frame (+x along it, +y to its left), metres
    double angle = 0.0;   ///< the rect's +x relative to the bone, radians counter-clockwise
    double width = 0.0;   ///< drawn size along the rect's x, metres, > 0 (the rect is stretched to it)
    double height = 0.0;  ///< drawn size along the rect's y, metres, > 0
    /// The rect's art mirrored within the quad before it is turned by `angle`: flipX swaps its
    /// left and right (the image's +x runs along the part's −x), flipY its top and bottom.
    /// Both together are a half turn. The quad itself is the same either way.
    bool flipX = false, flipY = false;
    int z = 0;            ///< draw order, higher in front; ties keep `order`
    std::array<std::uint8_t, 4> color{255, 255, 255, 255};  ///< RGBA tint multiplied into the image
    int order = 0;        ///< position among the rig's sprites in the file
    int line = 0;
    int element = -1;
};

/// A sprite's `flip` as the file writes it: "none", "x", "y" or "xy".
const char* flipName(const RigSprite& sprite);

/// The direction the sprite's image runs in (its +x), relative to the bone, radians: its
/// angle, turned half round by flipX.
double spriteImageAngle(const RigSprite& sprite);

/// One bone's pull on a mesh vertex: the vertex's place in that bone's frame and how much
/// of it follows that bone.
struct RigMeshWeight {
    int bone = -1;      ///< index in RigDefinition::bones
    Vec2 position;      ///< in the bone's frame, metres
    double weight = 1.0;  ///< > 0; a vertex's weights sum to 1
};

struct RigMeshVertex {
    double u = 0.0, v = 0.0;  ///< texture position in image pixels (origin top-left)
    std::vector<RigMeshWeight> weights;  ///< at least one
    int line = 0;
};

/// The weight a mesh vertex follows most (the first of equal ones; null without weights).
const RigMeshWeight* mainWeight(const RigMeshVertex& vertex);

/// The share of a mesh one bone carries, as a box in that bone's frame (metres): the
/// triangles with a vertex that follows this bone most, each of their vertices where its
/// weight on this bone puts it (a vertex with none is left out). Bent at a joint, each
/// bone's share follows its bone. The drawn part's shape (drawn_shapes.h), as a sprite's is
/// its opaque rect.
struct RigMeshPart {
    int bone = -1;
    Vec2 low, high;
};

/// A cut-out part drawn as textured triangles (Spine's mesh attachment): rigid when every
/// vertex has one weight on one bone, weighted (bending at a joint) otherwise. Drawn where
/// its weights put it: Σ w · (bone pose · position), in z order with the sprites.
struct RigMesh {
    int image = -1;
    int z = 0;
    std::array<std::uint8_t, 4> color{255, 255, 255, 255};
    std::vector<RigMeshVertex> vertices;
    std::vector<int> triangles;  ///< vertex indices, three per triangle
    std::vector<RigMeshPart> parts;  ///< one per bone carrying some of it, derived by updateDerived()
    int order = 0;               ///< position among the rig's meshes in the file
    int line = 0;
    int element = -1;
};

enum class BodyShape {
    Capsule,  ///< the bone's segment (origin to tip) swept by the radius
    Circle,   ///< centred at the bone's midpoint
    Box,      ///< the bone's length by twice the radius, along the bone
};
const char* shapeName(BodyShape shape);

/// Where a body's radius comes from (what the file said, kept for saving).
enum class RadiusSource {
    Explicit,  ///< `radius`
    Fraction,  ///< `radius_fraction` × the bone's length
    /// Neither: from the bone's art (artRadius): half its visual's line width or its
    /// visual's circle radius, else from its sprites.
    Visual,
};

/// What a body may weigh and how thick it may be: a gram to a thousand tonnes, a tenth of a
/// millimetre to 100 m. Beyond, the solver's inverse masses and inertias overflow.
inline constexpr double kMinBodyMass = 1e-3, kMaxBodyMass = 1e6;        ///< kg
inline constexpr double kMinBodyRadius = 1e-4, kMaxBodyRadius = 100.0;  ///< m
/// Past these a rig loads with a warning: most likely a units mistake or a typo, not a
/// figure anyone means. A rest pose this tall or short (m); a gravity outside this range or
/// pointing up (m/s²: the moon's is 1.6, a game may triple the Earth's); two jointed bodies
/// further apart in mass than this ratio (the joint tests hold 1:1000; past it a light body
/// pressed by a heavy one is driven into whatever is under it).
inline constexpr double kPlausibleMinHeight = 0.02, kPlausibleMaxHeight = 20.0;
inline constexpr double kPlausibleMinGravity = 1.0, kPlausibleMaxGravity = 50.0;
inline constexpr double kPlausibleMassRatio = 1000.0;
/// A body whose largest extent is under this fraction of the largest sprite or mesh share
/// on its bone (a 2 cm capsule under a 60 cm image) collides nowhere near where the art is
/// drawn: the art sinks nine tenths into the ground. A tenth leaves room for art meant to be larger
/// than its body (hair, a cape, a skirt a few times the size of the body it hangs from).
inline constexpr double kPlausibleBodyToArt = 0.1;

struct RigBody {
    int bone = -1;
    BodyShape shape = BodyShape::Capsule;
    RadiusSource radiusSource = RadiusSource::Visual;
    double radius = 0.0;          ///< metres, resolved by updateDerived() (Explicit: as given)
    double radiusFraction = 0.0;  ///< of the bone's length, when radiusSource == Fraction
    /// The shape's centre in the bone's frame, metres, when not the bone's midpoint (length/2,
    /// 0): a body beside its bone's line, where the art is (a head drawn above a short bone).
    std::optional<Vec2> centre;
    Vec2 centreOn(const RigBone& bone) const { return centre.value_or(Vec2{0.5 * bone.length, 0.0}); }
    double mass = 0.0;            ///< kg, > 0
    double linearDamping = 0.0;   ///< 1/s
    double angularDamping = 0.0;  ///< 1/s
    double friction = 0.6;        ///< coefficient, >= 0 (the solver's default)
    double restitution = 0.0;     ///< 0..1
    int line = 0;
    int element = -1;
};

/// A pin joint at the child bone's origin, with optional limits on
/// (child angle − parent angle) measured from the rest pose.
struct RigJoint {
    std::string name;      ///< sanitised like bone names; empty when the file gives none
    std::string fileName;  ///< as written
    int parent = -1;       ///< bone indices
    int child = -1;
    int parentBody = -1;   ///< body indices (RigDefinition::bodies), derived by updateDerived()
    int childBody = -1;
    bool limited = false;  ///< false: free rotation
    double lower = 0.0;    ///< radians, >= -π, <= upper
    double upper = 0.0;    ///< radians, <= π
    double stiffness = 1.0;  ///< (0, 1]; 1 = rigid, independent of the iteration count
    double damping = 0.0;    ///< relative angular velocity damping, 1/s
    double friction = 0.0;   ///< joint friction, the torque it resists turning with, N·m
    bool collide = false;    ///< the two bodies may collide with each other
    int line = 0;
    int element = -1;
};

/// The world settings this rig was tuned with.
struct RigSolverSettings {
    int substeps = 4;
    int iterations = 1;
    double gravity = -9.81;  ///< y component, m/s²
    int line = 0;
    int element = -1;  ///< its <solver>; -1 when the file has none (defaults)
};

/// A clip the characters built from this rig play, by role ("idle", "walk", "run",
/// "jump", "daze", "get_up_front", "get_up_back"); the file is relative to the rig file.
struct RigClip {
    std::string name;
    std::string file;  ///< as written
    int line = 0;
    int element = -1;
};

/// Gains of the active-ragdoll drive (BLEND): per unit mass and inertia, so one setting
/// suits light limbs and a heavy torso alike. Scaled by (1 − blend weight).
struct RigDrive {
    double linearStiffness = 900.0;  ///< 1/s²: pull toward the animated position
    double linearDamping = 60.0;     ///< 1/s: toward the animated velocity (2·√k: critical)
    double angularStiffness = 900.0; ///< 1/s²
    double angularDamping = 60.0;    ///< 1/s
    int line = 0;
    int element = -1;
};

struct RigDefinition {
    std::string name;
    RigUnits units = RigUnits::Metres;
    double scale = 1.0;  ///< file units per metre
    RigSolverSettings solver;
    std::vector<RigBone> bones;      ///< file order; exactly one root
    std::vector<RigVisual> visuals;
    std::vector<RigImage> images;    ///< file order; unique names
    std::vector<RigSprite> sprites;  ///< file order (RigSprite::order is the index here)
    std::vector<RigMesh> meshes;     ///< file order
    std::vector<RigBody> bodies;     ///< at most one per bone
    std::vector<RigJoint> joints;
    std::vector<RigClip> clips;
    RigDrive drive;

    std::string path;        ///< the file it was read from (for messages)
    int line = 0;            ///< line of its <rig>, for messages
    std::string sourceText;  ///< the file's text as read; the saver patches it (empty: written fresh)

    /// Index of the bone with this name (sanitised or as spelt in the file), or -1.
    int findBone(std::string_view name) const;
    /// Index in bodies of the bone's body, or -1.
    int bodyOfBone(int bone) const;
    /// Index in visuals of the bone's visual, or -1.
    int visualOfBone(int bone) const;
    /// Index in images of the image with this name, or -1.
    int findImage(std::string_view name) const;
    double totalMass() const;  ///< kg
    /// The clip with this role name, or nullptr.
    const RigClip* findClip(std::string_view name) const;
};

/// How far a sprite may turn from its bone and still count as lying along it (its height
/// then being the part's thickness across the bone): 30°.
inline constexpr double kSpriteAlongBone = 30.0 * (kPi / 180.0);

/// The radius a body without `radius` or `radius_fraction` takes from its bone's art; 0 when
/// the bone has none that gives one. In order: half the visual's line width, or the
/// visual's circle radius; else, from the bone's sprites, half the largest height of a
/// sprite whose image runs within kSpriteAlongBone of the bone (spriteImageAngle: a part
/// flipped in x runs backwards, as one turned 180°); else half the largest of the
/// sprites' smaller sides (a part turned across the bone: its thinner side is the best
/// guess at its thickness).
/// Meshes count too: half the thickness across the bone (the spread of y) of the vertices
/// whose largest weight is on it, when that is more than the sprites give.
double artRadius(const RigDefinition& rig, int bone);

/// Recomputes what is derived: the rest pose in rig space, body radii from fractions and
/// visuals, and the joints' body indices. The loader calls it; call it again after editing
/// a copy of a definition (bone lengths, radius sources) and before building it.
void updateDerived(RigDefinition& rig);

}  // namespace ragdoll
