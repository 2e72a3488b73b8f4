// How the ragdoll plugin draws a scene through the engine's draw services: props as boxes
// with their crossed faces, characters as round-capped lines and head circles at their
// bones' poses (the far side shaded, limp ones washed), the net preview's proxy and the
// mouse grab's pull; and, for tools, the bones over them.
#include "module/draw.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace ragdoll {

namespace {

PaperColor unpack(std::uint32_t rgba) {
    return {std::uint8_t(rgba), std::uint8_t(rgba >> 8), std::uint8_t(rgba >> 16), std::uint8_t(rgba >> 24)};
}

/// "#rrggbb" or "#rrggbbaa"; dark grey when absent or unreadable.
PaperColor parseColor(const std::string& text) {
    PaperColor c = {32, 32, 32, 255};
    unsigned r = 0, g = 0, b = 0, a = 255;
    if (text.size() == 7 && std::sscanf(text.c_str(), "#%2x%2x%2x", &r, &g, &b) == 3) c = {std::uint8_t(r), std::uint8_t(g), std::uint8_t(b), 255};
    else if (text.size() == 9 && std::sscanf(text.c_str(), "#%2x%2x%2x%2x", &r, &g, &b, &a) == 4)
        c = {std::uint8_t(r), std::uint8_t(g), std::uint8_t(b), std::uint8_t(a)};
    return c;
}

/// The colour washed toward the tint's rgb, keeping tint.a/255 of its own (Appearance::tint).
PaperColor tinted(PaperColor c, std::uint32_t tint, float alpha) {
    const PaperColor t = unpack(tint);
    auto wash = [&](std::uint8_t own, std::uint8_t toward) { return std::uint8_t((own * t.a + toward * (255 - t.a)) / 255); };
    return {wash(c.r, t.r), wash(c.g, t.g), wash(c.b, t.b), std::uint8_t(c.a * alpha)};
}

/// Whether a bone is on the character's far side: a left-side bone by the naming rigs use
/// ("upper_arm.L", read as "upper_arm_L"). Drawn in profile, the left limbs are the ones
/// behind the body, and a rig colours them like the torso they cross.
bool onFarSide(const std::string& boneName) {
    return boneName.size() > 2 && boneName[boneName.size() - 2] == '_' &&
           (boneName.back() == 'L' || boneName.back() == 'l');
}

/// A far-side limb's colour: 30% of the way to white for a dark colour, to black for a light
/// one, so a left arm reads over the torso (the black stickman's #202020 becomes #626262, while
/// its near-side limbs stay #404040; the puppet's #d8c8a8 becomes #988c76).
PaperColor farSideShade(PaperColor c) {
    const int luminance = (299 * c.r + 587 * c.g + 114 * c.b) / 1000;
    const int toward = luminance < 128 ? 255 : 0;
    auto mix = [&](std::uint8_t v) { return std::uint8_t(v + (toward - v) * 3 / 10); };
    return {mix(c.r), mix(c.g), mix(c.b), c.a};
}

// The paper look: a rim of paper round each part, a shadow cast down and behind, and a
// split pin through each joint between two parts.
constexpr double kRimMetres = 0.005;
constexpr Vec2 kShadowOffset{0.012, -0.016};
constexpr PaperColor kRimColor{250, 247, 238, 255};
constexpr PaperColor kShadowColor{40, 30, 20, 120};  // mixed in linear light: about as dark as 70 in sRGB numbers
constexpr PaperColor kPinColor{196, 160, 84, 255}, kPinHoleColor{96, 72, 36, 255};
// A selected part is washed with the editor's selection violet, 40 % of the way.
constexpr PaperColor kHighlightColor{150, 70, 220, 102};
constexpr float kPinRadius = 0.011f, kPinHoleRadius = 0.004f;

/// Where a sprite's quad is: its rect's top-left, top-right, bottom-right and bottom-left
/// corners in world metres, on its bone as posed, grown by `grow` metres on every side (a
/// rim), moved by `offset` (a shadow). A mirrored character's parts flip with it: the bone
/// frame's +y, the side its front faces, turns over, and the art with it.
void spriteCorners(const RigSprite& sprite, const BonePose& pose, bool mirrored, double scale, double grow, Vec2 offset,
                   PaperVec2 out[4]) {
    const double hw = 0.5 * sprite.width + grow, hh = 0.5 * sprite.height + grow;
    const Vec2 local[4] = {{-hw, hh}, {hw, hh}, {hw, -hh}, {-hw, -hh}};  // the rect's top is its +y
    const Rot part = makeRot(sprite.angle), bone = makeRot(pose.angle);
    for (int i = 0; i < 4; ++i) {
        Vec2 q = sprite.centre + rotate(part, local[i]);
        if (mirrored) q.y = -q.y;
        const Vec2 p = pose.origin + rotate(bone, scale * q) + offset;
        out[i] = {float(p.x), float(p.y)};
    }
}

/// A sprite's texture coordinates, in its corners' order: a flipped sprite takes its rect's
/// other side at each corner, so the art is mirrored within the same quad (and its rim and
/// shadow, drawn from the same coordinates, with it).
void spriteUvs(const RigSprite& sprite, const RigImage& image, PaperVec2 out[4]) {
    float u0 = float(sprite.rect.x) / float(image.width), v0 = float(sprite.rect.y) / float(image.height);
    float u1 = float(sprite.rect.x + sprite.rect.width) / float(image.width);
    float v1 = float(sprite.rect.y + sprite.rect.height) / float(image.height);
    if (sprite.flipX) std::swap(u0, u1);
    if (sprite.flipY) std::swap(v0, v1);
    out[0] = {u0, v0};
    out[1] = {u1, v0};
    out[2] = {u1, v1};
    out[3] = {u0, v1};
}

/// A mesh's triangles as drawn (meshVertexPositions, into `placed`), moved by `offset`, with
/// their texture coordinates beside. The three vectors are the caller's, reused frame to frame.
void meshTriangles(const RigMesh& mesh, const RigImage& image, const std::vector<BonePose>& poses, bool mirrored,
                   double scale, Vec2 offset, std::vector<Vec2>& placed, std::vector<PaperVec2>& positions,
                   std::vector<PaperVec2>& uvs) {
    meshVertexPositions(mesh, poses, mirrored, scale, placed);
    positions.clear();
    uvs.clear();
    for (int index : mesh.triangles) {
        const RigMeshVertex& vertex = mesh.vertices[size_t(index)];
        const Vec2 p = placed[size_t(index)] + offset;
        positions.push_back({float(p.x), float(p.y)});
        uvs.push_back({float(vertex.u / image.width), float(vertex.v / image.height)});
    }
}

/// The bone a mesh vertex follows most (-1 when it has no weights).
int mainBone(const RigMeshVertex& vertex) {
    const RigMeshWeight* most = mainWeight(vertex);
    return most ? most->bone : -1;
}

/// Whether a mesh is (partly) the part of `bone`: some vertex follows that bone most. A
/// weighted mesh bending at a joint is a part of both bones, so selecting either body
/// highlights all of it (its triangles are not split between the bodies).
bool meshOnBone(const RigMesh& mesh, int bone) {
    if (bone < 0) return false;
    for (const RigMeshVertex& vertex : mesh.vertices)
        if (mainBone(vertex) == bone) return true;
    return false;
}

/// Which bones carry a part: a sprite's bone, and a mesh vertex's most-weighted bone.
std::vector<bool> bonesWithParts(const RigDefinition& rig) {
    std::vector<bool> hasPart(rig.bones.size(), false);
    for (const RigSprite& sprite : rig.sprites) hasPart[size_t(sprite.bone)] = true;
    for (const RigMesh& mesh : rig.meshes)
        for (const RigMeshVertex& vertex : mesh.vertices)
            if (const int bone = mainBone(vertex); bone >= 0) hasPart[size_t(bone)] = true;
    return hasPart;
}

/// A cut-out character: its parts (sprites and meshes) in z order (sprites before meshes,
/// then file order, among equals), each on its bones as posed — the bodies' while limp —
/// tinted by the part's colour, under the character's wash and the selection's violet. With
/// the paper look, every part's shadow first (so no shadow falls on the character's own
/// parts), then each part over a rim of paper (sprites only: a mesh has no rectangle to
/// grow), then a split pin at each joint between parts.
void drawSprites(const PaperEngineServices* s, const Character& character, float alpha,
                 const std::map<std::string, std::int32_t>& images, bool paper, int highlightedBone,
                 const std::vector<bool>& hasPart) {
    const RigDefinition& rig = character.rig();
    const Appearance& look = character.appearance();
    const std::vector<BonePose>& poses = character.bonePoses();
    const bool mirrored = character.drawnMirrored();
    struct Part {
        int z;
        bool mesh;
        int index;
    };
    std::vector<Part> order;
    for (size_t i = 0; i < rig.sprites.size(); ++i) order.push_back({rig.sprites[i].z, false, int(i)});
    for (size_t i = 0; i < rig.meshes.size(); ++i) order.push_back({rig.meshes[i].z, true, int(i)});
    std::stable_sort(order.begin(), order.end(), [](const Part& a, const Part& b) { return a.z < b.z; });
    auto handleOf = [&](int imageIndex) {
        auto it = images.find(rig.images[size_t(imageIndex)].path);
        return it == images.end() ? 0 : it->second;
    };
    // The character's wash (limp: part of the way to a pale blue-grey) lies over each part as
    // its silhouette, so art of any colour turns toward it; a tint multiplying the art would
    // only darken it.
    const PaperColor toward = unpack(look.tint);
    const bool washed = toward.a < 255;
    // A part's own alpha (its colour's) fades its shadow, rim and wash with it: a part made
    // transparent left a paper shape and its shadow over the parts behind it.
    auto wash = [&](float partAlpha) {
        return PaperColor{toward.r, toward.g, toward.b, std::uint8_t((255 - toward.a) * partAlpha)};
    };
    auto shadow = [](float partAlpha) {
        return PaperColor{kShadowColor.r, kShadowColor.g, kShadowColor.b, std::uint8_t(kShadowColor.a * partAlpha)};
    };
    PaperVec2 corners[4], uvs[4];
    std::vector<Vec2> meshPlaced;
    std::vector<PaperVec2> meshPositions, meshUvs;
    for (int pass = paper ? 0 : 1; pass < 2; ++pass) {
        for (const Part& part : order) {
            if (part.mesh) {
                // The same layers as a sprite's below (shadow; own colour; wash; selection),
                // but no rim: a mesh has no rectangle to grow.
                const RigMesh& mesh = rig.meshes[size_t(part.index)];
                const float partAlpha = alpha * float(mesh.color[3]) / 255.0f;
                const std::int32_t image = handleOf(mesh.image);
                if (!image || !s->drawTriangles) continue;
                meshTriangles(mesh, rig.images[size_t(mesh.image)], poses, mirrored, look.scale,
                              pass == 0 ? kShadowOffset : Vec2{}, meshPlaced, meshPositions, meshUvs);
                auto drawMesh = [&](PaperColor color, std::int32_t flags) {
                    s->drawTriangles(s->context, image, meshPositions.data(), meshUvs.data(),
                                     std::int32_t(meshPositions.size()), color, flags);
                };
                if (pass == 0) {
                    drawMesh(shadow(partAlpha), PAPER_IMAGE_SILHOUETTE);
                    continue;
                }
                drawMesh({mesh.color[0], mesh.color[1], mesh.color[2], std::uint8_t(mesh.color[3] * alpha)}, 0);
                if (washed) drawMesh(wash(partAlpha), PAPER_IMAGE_SILHOUETTE);
                if (meshOnBone(mesh, highlightedBone)) drawMesh(kHighlightColor, PAPER_IMAGE_SILHOUETTE);
                continue;
            }
            const RigSprite& sprite = rig.sprites[size_t(part.index)];
            const float partAlpha = alpha * float(sprite.color[3]) / 255.0f;
            const std::int32_t image = handleOf(sprite.image);
            if (!image) continue;
            const BonePose& pose = poses[size_t(sprite.bone)];
            spriteUvs(sprite, rig.images[size_t(sprite.image)], uvs);
            if (pass == 0) {
                spriteCorners(sprite, pose, mirrored, look.scale, 0.0, kShadowOffset, corners);
                s->drawImage(s->context, image, corners, uvs, shadow(partAlpha), PAPER_IMAGE_SILHOUETTE);
                continue;
            }
            if (paper) {
                spriteCorners(sprite, pose, mirrored, look.scale, kRimMetres, {}, corners);
                s->drawImage(s->context, image, corners, uvs, tinted(kRimColor, look.tint, partAlpha), PAPER_IMAGE_SILHOUETTE);
            }
            spriteCorners(sprite, pose, mirrored, look.scale, 0.0, {}, corners);
            const PaperColor own{sprite.color[0], sprite.color[1], sprite.color[2], std::uint8_t(sprite.color[3] * alpha)};
            s->drawImage(s->context, image, corners, uvs, own, 0);
            if (washed) s->drawImage(s->context, image, corners, uvs, wash(partAlpha), PAPER_IMAGE_SILHOUETTE);
            if (sprite.bone == highlightedBone)
                s->drawImage(s->context, image, corners, uvs, kHighlightColor, PAPER_IMAGE_SILHOUETTE);
        }
    }
    if (!paper) return;
    for (const RigJoint& joint : rig.joints) {
        if (!hasPart[size_t(joint.parent)] || !hasPart[size_t(joint.child)]) continue;
        const Vec2 at = poses[size_t(joint.child)].origin;
        s->drawCircle(s->context, {float(at.x), float(at.y)}, kPinRadius * float(look.scale), tinted(kPinColor, look.tint, alpha));
        s->drawCircle(s->context, {float(at.x), float(at.y)}, kPinHoleRadius * float(look.scale),
                      tinted(kPinHoleColor, look.tint, alpha));
    }
}

enum class Sides { Both, Far, Near };

/// The lines and circles of the bones without cut-out parts, of the sides asked for.
void drawVisuals(const PaperEngineServices* s, const Character& character, float alpha, const std::vector<bool>& hasPart,
                 Sides sides) {
    const RigDefinition& rig = character.rig();
    const Appearance& look = character.appearance();
    const std::vector<BonePose>& poses = character.bonePoses();
    for (const RigVisual& visual : rig.visuals) {
        if (hasPart[size_t(visual.bone)]) continue;
        const bool farSide = onFarSide(rig.bones[size_t(visual.bone)].name);
        if ((sides == Sides::Far && !farSide) || (sides == Sides::Near && farSide)) continue;
        const BonePose& pose = poses[size_t(visual.bone)];
        const double length = rig.bones[size_t(visual.bone)].length;
        const Vec2 along{std::cos(pose.angle), std::sin(pose.angle)};
        const PaperColor base = parseColor(visual.color);
        const PaperColor color = tinted(farSide ? farSideShade(base) : base, look.tint, alpha);
        if (visual.shape == VisualShape::Circle) {
            const Vec2 c = pose.origin + (0.5 * length) * along;
            s->drawCircle(s->context, {float(c.x), float(c.y)}, float(visual.radius * look.scale), color);
        } else if (visual.width > 0.0) {
            const Vec2 tip = pose.origin + length * along;
            s->drawLine(s->context, {float(pose.origin.x), float(pose.origin.y)}, {float(tip.x), float(tip.y)},
                        float(visual.width * look.scale), color);
        }
    }
}

/// The stickman as the source documents draw it: thick round-capped lines and a head circle,
/// at the bones' poses — the bodies' while limp, so the ragdoll shows where the bones are. A
/// bone with cut-out parts is drawn by them alone (drawSprites). In a rig that mixes the two,
/// the far side's lines lie behind the parts and the near side's in front, as a profile
/// figure's limbs do (they all lay over the parts, a far leg over the torso's art); lines
/// alone are drawn in file order (a far arm, shaded, reads over the torso).
void drawCharacter(const PaperEngineServices* s, const Character& character, float alpha,
                   const std::map<std::string, std::int32_t>& images, bool paper, int highlightedBone = -1) {
    const RigDefinition& rig = character.rig();
    const std::vector<bool> hasPart = bonesWithParts(rig);
    if (std::find(hasPart.begin(), hasPart.end(), true) == hasPart.end()) {
        drawVisuals(s, character, alpha, hasPart, Sides::Both);
        return;
    }
    drawVisuals(s, character, alpha, hasPart, Sides::Far);
    drawSprites(s, character, alpha, images, paper, highlightedBone, hasPart);
    drawVisuals(s, character, alpha, hasPart, Sides::Near);
}

/// A prop: a box with its crossed faces.
void drawProp(const PaperEngineServices* s, const Scene::PropView& prop) {
    Vec2 h = prop.halfExtents;
    Vec2 local[4] = {{-h.x, -h.y}, {h.x, -h.y}, {h.x, h.y}, {-h.x, h.y}};
    PaperVec2 corners[4];
    for (int i = 0; i < 4; ++i) {
        Vec2 p = transformPoint(prop.transform, local[i]);
        corners[i] = {float(p.x), float(p.y)};
    }
    PaperColor fill = unpack(prop.rgba);
    PaperColor edge = {std::uint8_t(fill.r * 0.65), std::uint8_t(fill.g * 0.65), std::uint8_t(fill.b * 0.65), fill.a};
    s->drawPolygon(s->context, corners, 4, fill);
    for (int i = 0; i < 4; ++i) s->drawLine(s->context, corners[i], corners[(i + 1) % 4], 0.02f, edge);
    s->drawLine(s->context, corners[0], corners[2], 0.015f, edge);
    s->drawLine(s->context, corners[1], corners[3], 0.015f, edge);
}

/// The skeleton over the art: each bone a thin line from its origin to its tip, each joint a
/// dot at its pivot, in colours that read over paper and parts alike.
void drawBones(const PaperEngineServices* s, const Character& character) {
    const RigDefinition& rig = character.rig();
    const std::vector<BonePose>& poses = character.bonePoses();
    const PaperColor bone = {20, 110, 200, 220}, pivot = {250, 250, 245, 235}, rim = {20, 60, 120, 235};
    for (size_t i = 0; i < rig.bones.size(); ++i) {
        const BonePose& pose = poses[i];
        const Vec2 tip = pose.origin + rig.bones[i].length * Vec2{std::cos(pose.angle), std::sin(pose.angle)};
        s->drawLine(s->context, {float(pose.origin.x), float(pose.origin.y)}, {float(tip.x), float(tip.y)}, 0.012f, bone);
    }
    for (const RigJoint& joint : rig.joints) {
        const Vec2 at = poses[size_t(joint.child)].origin;
        s->drawCircle(s->context, {float(at.x), float(at.y)}, 0.016f, rim);
        s->drawCircle(s->context, {float(at.x), float(at.y)}, 0.010f, pivot);
    }
}

}  // namespace

void drawScene(const PaperEngineServices& services, const Scene& scene, const std::map<std::string, std::int32_t>& images,
               bool art, bool bones, PartHighlight highlight) {
    const PaperEngineServices* s = &services;
    // Props are the level's, not a character's art: drawn with the art off too (the editor's
    // View > Sprites off, to look at the bones, left the crates out of the level).
    for (const Scene::PropView& prop : scene.props()) drawProp(s, prop);
    if (art) {
        const bool proxyOnly = scene.netPreview() == NetPreview::ProxyOnly;
        const bool paper = scene.paperLook();
        for (int i = 0; i < scene.characterCount(); ++i)
            if (!(proxyOnly && i == 0))
                drawCharacter(s, scene.character(i), 1.0f, images, paper, i == highlight.character ? highlight.bone : -1);
        if (const Character* proxy = scene.previewProxy())
            drawCharacter(s, *proxy, proxyOnly ? 1.0f : 0.45f, images, paper);
    }
    if (bones)
        for (int i = 0; i < scene.characterCount(); ++i) drawBones(s, scene.character(i));
    if (art && scene.grabbing()) {
        const Vec2 a = scene.grabPoint(), b = scene.grabTarget();
        const PaperColor pull = {230, 90, 40, 220};
        s->drawLine(s->context, {float(a.x), float(a.y)}, {float(b.x), float(b.y)}, 0.015f, pull);
        s->drawCircle(s->context, {float(a.x), float(a.y)}, 0.03f, pull);
    }
}

}  // namespace ragdoll
