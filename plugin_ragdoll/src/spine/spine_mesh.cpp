#include "spine/spine_mesh.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace ragdoll {

namespace {

/// A weighted mesh's vertices: per vertex a bone count, then (bone, x, y, weight) each.
template <typename Visit>
void forEachWeight(const SpineAttachment& mesh, Visit visit) {
    size_t at = 0;
    for (size_t v = 0; at < mesh.vertices.size(); ++v) {
        const size_t count = size_t(mesh.vertices[at++]);
        for (size_t b = 0; b < count; ++b, at += 4)
            visit(v, int(mesh.vertices[at]), mesh.vertices[at + 1], mesh.vertices[at + 2], mesh.vertices[at + 3]);
    }
}

/// A point of the original (untrimmed, unturned) region image, pixels from its top-left,
/// as a position in the atlas page.
std::array<double, 2> pagePosition(const AtlasRegion& r, double ou, double ov) {
    // Into the packed pixels (offsets count from the bottom-left), then turned as stored.
    const double px = ou - r.offsetX, py = ov - (r.originalHeight - r.offsetY - r.height);
    switch (r.degrees) {
        case 90: return {r.x + py, r.y + (r.width - px)};
        case 180: return {r.x + (r.width - px), r.y + (r.height - py)};
        case 270: return {r.x + (r.height - py), r.y + px};
        default: return {r.x + px, r.y + py};
    }
}

}  // namespace

const SpineAttachment* meshSource(const SpineSkeleton& skeleton, const SpineAttachment& attachment,
                                  const std::string& skinName) {
    if (attachment.type == SpineAttachmentType::Mesh) return &attachment;
    if (attachment.type != SpineAttachmentType::LinkedMesh) return nullptr;
    for (const std::string& name : {attachment.parentSkin.empty() ? skinName : attachment.parentSkin, std::string("default")}) {
        const SpineSkin* skin = skeleton.findSkin(name);
        if (!skin) continue;
        for (const SpineAttachment& a : skin->attachments)
            if (a.slot == attachment.slot && a.name == attachment.parentMesh && a.type == SpineAttachmentType::Mesh) return &a;
    }
    return nullptr;
}

std::string whyNoParentMesh(const SpineSkeleton& skeleton, const SpineAttachment& attachment, const std::string& skinName) {
    const std::string parent = "'" + attachment.parentMesh + "'";
    if (!attachment.parentSkin.empty() && !skeleton.findSkin(attachment.parentSkin))
        return "its parent's skin '" + attachment.parentSkin + "' is no skin of the file";
    const std::string first = attachment.parentSkin.empty() ? skinName : attachment.parentSkin;
    const std::string lookedIn = "slot '" + skeleton.slots[size_t(attachment.slot)].name + "' of " +
                                 (first == "default" ? std::string("skin 'default'") : "skins '" + first + "' and 'default'");
    std::string meshes;
    for (const SpineSkin& skin : skeleton.skins)
        for (const SpineAttachment& a : skin.attachments) {
            if (a.name != attachment.parentMesh) continue;
            const bool lookedAt = a.slot == attachment.slot && (skin.name == first || skin.name == "default");
            if (lookedAt)  // found where it was looked for, so it is not a mesh
                return "its parent " + parent + " (skin '" + skin.name + "') is of type '" + a.typeText + "', not a mesh";
            if (a.type == SpineAttachmentType::Mesh)
                meshes += (meshes.empty() ? "slot '" : ", slot '") + skeleton.slots[size_t(a.slot)].name + "' of skin '" + skin.name + "'";
        }
    if (meshes.empty()) return "its parent mesh " + parent + " is in no skin (looked in " + lookedIn + ")";
    return "its parent mesh " + parent + " is in " + meshes + ", not in " + lookedIn +
           ", where a linked mesh's parent is looked for";
}

std::vector<std::array<double, 2>> meshWorldVertices(const SpineAttachment& source, int slotBone,
                                                     const std::vector<SpineWorld>& setup) {
    const size_t count = source.uvs.size() / 2;
    std::vector<std::array<double, 2>> out(count, {0.0, 0.0});
    if (!source.weighted) {
        for (size_t v = 0; v < count; ++v)
            setup[size_t(slotBone)].transform(source.vertices[2 * v], source.vertices[2 * v + 1], out[v][0], out[v][1]);
        return out;
    }
    forEachWeight(source, [&](size_t v, int bone, double x, double y, double w) {
        double wx = 0.0, wy = 0.0;
        setup[size_t(bone)].transform(x, y, wx, wy);
        out[v][0] += w * wx;
        out[v][1] += w * wy;
    });
    return out;
}

int meshMainBone(const SpineAttachment& source, int slotBone, size_t boneCount) {
    if (!source.weighted) return slotBone;
    std::vector<double> total(boneCount, 0.0);
    forEachWeight(source, [&](size_t, int bone, double, double, double w) { total[size_t(bone)] += w; });
    return int(std::max_element(total.begin(), total.end()) - total.begin());
}

std::vector<std::array<double, 2>> meshShareOfBone(const SpineAttachment& source, int slotBone,
                                                   const std::vector<SpineWorld>& setup, int bone) {
    const std::vector<std::array<double, 2>> world = meshWorldVertices(source, slotBone, setup);
    if (!source.weighted) return bone == slotBone ? world : std::vector<std::array<double, 2>>{};
    std::vector<double> largest(world.size(), 0.0), own(world.size(), 0.0);
    forEachWeight(source, [&](size_t v, int b, double, double, double w) {
        largest[v] = std::max(largest[v], w);
        if (b == bone) own[v] = std::max(own[v], w);
    });
    std::vector<std::array<double, 2>> share;
    for (size_t v = 0; v < world.size(); ++v)
        if (own[v] > 0.0 && own[v] >= largest[v]) share.push_back(world[v]);
    return share;
}

std::vector<double> meshAreaByBone(const SpineAttachment& source, int slotBone, const std::vector<SpineWorld>& setup) {
    const std::vector<std::array<double, 2>> world = meshWorldVertices(source, slotBone, setup);
    // Each vertex's (bone, weight) pairs; a rigid mesh's vertices are all on the slot's bone.
    std::vector<std::vector<std::pair<int, double>>> weights(world.size());
    if (!source.weighted) {
        for (auto& w : weights) w.push_back({slotBone, 1.0});
    } else {
        forEachWeight(source, [&](size_t v, int bone, double, double, double w) { weights[v].push_back({bone, w}); });
    }
    std::vector<double> area(setup.size(), 0.0);
    for (size_t t = 0; t + 2 < source.triangles.size(); t += 3) {
        const auto& a = world[size_t(source.triangles[t])];
        const auto& b = world[size_t(source.triangles[t + 1])];
        const auto& c = world[size_t(source.triangles[t + 2])];
        const double triangle = 0.5 * std::abs((b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1]));
        for (size_t corner = 0; corner < 3; ++corner)
            for (const auto& [bone, w] : weights[size_t(source.triangles[t + corner])]) area[size_t(bone)] += triangle * w / 3.0;
    }
    return area;
}

RigMesh rigMeshOf(const SpinePart& part, const SpineAttachment& source, int slotBone, const SpineRigMap& map,
                  const std::vector<SpineWorld>& setup, const RigDefinition& rig, int image, std::array<double, 2> pngScale) {
    RigMesh mesh;
    mesh.image = image;
    mesh.z = part.slot;
    mesh.color = part.color;
    mesh.triangles = source.triangles;
    const size_t count = source.uvs.size() / 2;
    mesh.vertices.resize(count);
    const AtlasRegion& region = *part.region;
    for (size_t v = 0; v < count; ++v) {
        const std::array<double, 2> at =
            pagePosition(region, source.uvs[2 * v] * region.originalWidth, source.uvs[2 * v + 1] * region.originalHeight);
        mesh.vertices[v].u = at[0] * pngScale[0];
        mesh.vertices[v].v = at[1] * pngScale[1];
    }
    // A weight on a Spine bone becomes one on the rig bone it rides on, placed in that
    // bone's frame from its setup-pose world position. Two Spine bones riding on one rig
    // bone merge into one weight at their weighted mean: one rigid frame moves both points,
    // so Σ wᵢ·pose(pᵢ) = (Σ wᵢ)·pose(mean) exactly, whether or not the points coincide.
    auto addWeight = [&](size_t v, int spineBone, double wx, double wy, double w) {
        const int r = map.riderOfSpine[size_t(spineBone)];
        const RigBone& bone = rig.bones[size_t(r)];
        const double dx = wx / map.scale - bone.origin.x, dy = wy / map.scale - bone.origin.y;
        const Vec2 local{std::cos(bone.angle) * dx + std::sin(bone.angle) * dy, -std::sin(bone.angle) * dx + std::cos(bone.angle) * dy};
        for (RigMeshWeight& existing : mesh.vertices[v].weights)
            if (existing.bone == r) {
                const double total = existing.weight + w;
                existing.position = (existing.weight / total) * existing.position + (w / total) * local;
                existing.weight = total;
                return;
            }
        mesh.vertices[v].weights.push_back({r, local, w});
    };
    if (!source.weighted) {
        const std::vector<std::array<double, 2>> world = meshWorldVertices(source, slotBone, setup);
        for (size_t v = 0; v < count; ++v) addWeight(v, slotBone, world[v][0], world[v][1], 1.0);
    } else {
        forEachWeight(source, [&](size_t v, int bone, double x, double y, double w) {
            double wx = 0.0, wy = 0.0;
            setup[size_t(bone)].transform(x, y, wx, wy);
            addWeight(v, bone, wx, wy, w);
        });
    }
    return mesh;
}

}  // namespace ragdoll
