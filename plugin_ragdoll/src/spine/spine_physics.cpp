#include "spine/spine_physics.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "paper/text_width.h"
#include "rig_tools/rig_generator.h"
#include "spine/spine_mesh.h"

namespace ragdoll {

namespace {

constexpr double kLinearDamping = 0.05;   // 1/s, as the paper doll
constexpr double kAngularDamping = 0.5;   // 1/s

/// Distance from a point to a bone's segment in the setup pose, Spine units.
double distanceToBone(const SpineSkeleton& skeleton, const std::vector<SpineWorld>& setup, int bone, double x, double y) {
    const SpineWorld& w = setup[size_t(bone)];
    double tipX = 0.0, tipY = 0.0;
    w.transform(skeleton.bones[size_t(bone)].length, 0.0, tipX, tipY);
    const double dx = tipX - w.x, dy = tipY - w.y, lengthSquared = dx * dx + dy * dy;
    double t = lengthSquared > 0.0 ? ((x - w.x) * dx + (y - w.y) * dy) / lengthSquared : 0.0;
    t = std::clamp(t, 0.0, 1.0);
    return std::hypot(x - (w.x + t * dx), y - (w.y + t * dy));
}

int nearestBodiedAncestor(const SpineSkeleton& skeleton, const std::vector<char>& bodied, int bone) {
    for (int at = skeleton.bones[size_t(bone)].parent; at >= 0; at = skeleton.bones[size_t(at)].parent)
        if (bodied[size_t(at)]) return at;
    return -1;
}

/// Whole degrees for the table ("0", never "-0": a straight hinge's limit is -0 from -bend).
std::string degrees(double value) { return shortNumber(value, 0); }

/// The middle of the box round a bone's art in its frame (its sprites, and the parts of
/// meshes that follow it most), metres; none without art.
std::optional<Vec2> artMiddle(const RigDefinition& rig, int bone) {
    Vec2 low{1e300, 1e300}, high{-1e300, -1e300};
    auto add = [&](Vec2 p) {
        low = {std::min(low.x, p.x), std::min(low.y, p.y)};
        high = {std::max(high.x, p.x), std::max(high.y, p.y)};
    };
    for (const RigSprite& sprite : rig.sprites) {
        if (sprite.bone != bone) continue;
        const Rot turn = makeRot(sprite.angle);
        for (const Vec2 corner : {Vec2{-1, -1}, Vec2{1, -1}, Vec2{1, 1}, Vec2{-1, 1}})
            add(sprite.centre + rotate(turn, Vec2{0.5 * sprite.width * corner.x, 0.5 * sprite.height * corner.y}));
    }
    for (const RigMesh& mesh : rig.meshes)
        for (const RigMeshPart& part : mesh.parts)
            if (part.bone == bone && part.low.x <= part.high.x) {
                add(part.low);
                add(part.high);
            }
    if (low.x > high.x) return std::nullopt;
    return 0.5 * (low + high);
}

}  // namespace

SpineRigMap mapSpineSkeleton(const SpineSkeleton& skeleton, const std::vector<SpineWorld>& setup,
                             const std::vector<SpinePart>& parts) {
    const size_t count = skeleton.bones.size();
    SpineRigMap map;
    map.partArea.assign(count, 0.0);
    map.rigOfSpine.assign(count, -1);
    map.riderOfSpine.assign(count, -1);
    double largest = 0.0;
    for (const SpinePart& part : parts) {
        // A weighted mesh counts for each bone by its weights (an arm mesh bending at the
        // elbow gives the forearm a body of its own); a region is all its bone's.
        if (part.mesh) {
            const std::vector<double> shares = meshAreaByBone(*part.mesh, skeleton.slots[size_t(part.slot)].bone, setup);
            for (size_t i = 0; i < count; ++i) map.partArea[i] += shares[i];
        } else {
            map.partArea[size_t(part.bone)] += part.area;
        }
        largest = std::max(largest, part.area);
    }
    std::vector<char> bodied(count, 0);
    for (size_t i = 0; i < count; ++i) bodied[i] = largest > 0.0 && map.partArea[i] >= kMeaningfulPartFraction * largest;

    // The root: among bones with no bodied ancestor, a torso-like one, else the most art.
    int root = -1;
    auto better = [&](int a, int b) {
        const bool torsoA = classifyBone(skeleton.bones[size_t(a)].name) == BoneKind::Torso;
        const bool torsoB = classifyBone(skeleton.bones[size_t(b)].name) == BoneKind::Torso;
        if (torsoA != torsoB) return torsoA;
        return map.partArea[size_t(a)] > map.partArea[size_t(b)];
    };
    for (size_t i = 0; i < count; ++i)
        if (bodied[i] && nearestBodiedAncestor(skeleton, bodied, int(i)) < 0 && (root < 0 || better(int(i), root)))
            root = int(i);
    if (root < 0) return map;  // no art at all: the importer reports it

    // Parents: the nearest bodied ancestor; orphans join the connected tree one at a time,
    // the closest first, at the body nearest their helper bone.
    std::vector<int> parentOf(count, -1);
    std::vector<std::string> note(count);
    std::vector<char> connected(count, 0);
    connected[size_t(root)] = 1;
    std::vector<int> orphans;
    for (size_t i = 0; i < count; ++i) {
        if (!bodied[i] || int(i) == root) continue;
        parentOf[i] = nearestBodiedAncestor(skeleton, bodied, int(i));
        if (parentOf[i] < 0) orphans.push_back(int(i));
        else if (parentOf[i] != skeleton.bones[i].parent)
            note[i] = "joined over helper bones to '" + skeleton.bones[size_t(parentOf[i])].name + "'";
    }
    auto spread = [&]() {  // bones whose parent is connected become connected (parent-first order)
        for (size_t i = 0; i < count; ++i)
            if (bodied[i] && parentOf[i] >= 0 && connected[size_t(parentOf[i])]) connected[i] = 1;
    };
    spread();
    while (!orphans.empty()) {
        double best = 1e300;
        size_t bestOrphan = 0;
        int bestParent = -1;
        for (size_t o = 0; o < orphans.size(); ++o) {
            const int orphan = orphans[o];
            const int helper = skeleton.bones[size_t(orphan)].parent >= 0 ? skeleton.bones[size_t(orphan)].parent : orphan;
            for (size_t c = 0; c < count; ++c) {
                if (!connected[c]) continue;
                const double d = distanceToBone(skeleton, setup, int(c), setup[size_t(helper)].x, setup[size_t(helper)].y);
                if (d < best) best = d, bestOrphan = o, bestParent = int(c);
            }
        }
        const int orphan = orphans[bestOrphan];
        parentOf[size_t(orphan)] = bestParent;
        const int helper = skeleton.bones[size_t(orphan)].parent;
        note[size_t(orphan)] = "jointed to '" + skeleton.bones[size_t(bestParent)].name + "', the body nearest its helper bone '" +
                               (helper >= 0 ? skeleton.bones[size_t(helper)].name : std::string("(none)")) + "'";
        connected[size_t(orphan)] = 1;
        orphans.erase(orphans.begin() + long(bestOrphan));
        spread();
    }

    // Rig bones in Spine's order. A bone jointed over helper bones may come before its new
    // parent (a thigh listed before the torso under a hip helper): rigs allow any order.
    for (size_t i = 0; i < count; ++i) {
        if (!bodied[i]) continue;
        map.rigOfSpine[i] = int(map.spineOfRig.size());
        map.spineOfRig.push_back(int(i));
    }
    for (int spine : map.spineOfRig) {
        const int parent = parentOf[size_t(spine)];
        map.rigParent.push_back(parent >= 0 ? map.rigOfSpine[size_t(parent)] : -1);
        map.jointNote.push_back(note[size_t(spine)]);
    }
    // A bone without a body rides on its nearest bodied ancestor, else on the body nearest it.
    for (size_t i = 0; i < count; ++i) {
        int rider = bodied[i] ? int(i) : nearestBodiedAncestor(skeleton, bodied, int(i));
        if (rider < 0) {
            double best = 1e300;
            for (int spine : map.spineOfRig) {
                const double d = distanceToBone(skeleton, setup, spine, setup[i].x, setup[i].y);
                if (d < best) best = d, rider = spine;
            }
        }
        map.riderOfSpine[i] = map.rigOfSpine[size_t(rider)];
    }
    return map;
}

void addSpinePhysics(RigDefinition& rig, const SpineRigMap& map,
                     const std::vector<AngleRange>& clipRanges, std::vector<std::string>& table) {
    const size_t count = rig.bones.size();
    // Area of the art riding on each rig bone, in the rig's own units (sprites are its art).
    std::vector<double> area(count, 0.0);
    for (const RigSprite& sprite : rig.sprites) area[size_t(sprite.bone)] += sprite.width * sprite.height;
    for (const RigMesh& mesh : rig.meshes) {
        // A mesh's triangles (in the rest pose) count for the rig bones that move them, each
        // triangle split by its corners' mean weights (as meshAreaByBone splits the Spine mesh).
        std::vector<Vec2> at(mesh.vertices.size());
        for (size_t v = 0; v < mesh.vertices.size(); ++v)
            for (const RigMeshWeight& w : mesh.vertices[v].weights) {
                const RigBone& bone = rig.bones[size_t(w.bone)];
                at[v] = at[v] + w.weight * (bone.origin + Vec2{std::cos(bone.angle) * w.position.x - std::sin(bone.angle) * w.position.y,
                                                               std::sin(bone.angle) * w.position.x + std::cos(bone.angle) * w.position.y});
            }
        for (size_t t = 0; t + 2 < mesh.triangles.size(); t += 3) {
            const Vec2 a = at[size_t(mesh.triangles[t])], b = at[size_t(mesh.triangles[t + 1])], c = at[size_t(mesh.triangles[t + 2])];
            const double triangle = 0.5 * std::abs((b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y));
            for (size_t corner = 0; corner < 3; ++corner)
                for (const RigMeshWeight& w : mesh.vertices[size_t(mesh.triangles[t + corner])].weights)
                    area[size_t(w.bone)] += triangle * w.weight / 3.0;
        }
    }
    // The torso's bodies share kHeaviestBodyMass by area (the root's alone when no bone is
    // torso-like); every other body weighs kLimbMass times its area over the median of theirs.
    const std::vector<BoneKind> kinds = classifyBones(rig);
    std::vector<char> torso(count, 0);
    bool anyTorso = false;
    for (size_t i = 0; i < count; ++i) anyTorso |= (torso[i] = kinds[i] == BoneKind::Torso) != 0;
    if (!anyTorso) torso[0] = 1;
    double torsoArea = 0.0;
    std::vector<double> limbAreas;
    for (size_t i = 0; i < count; ++i) {
        if (torso[i]) torsoArea += area[i];
        else limbAreas.push_back(area[i]);
    }
    std::sort(limbAreas.begin(), limbAreas.end());
    const double median = limbAreas.empty() ? 1.0 : limbAreas[limbAreas.size() / 2];
    for (size_t i = 0; i < count; ++i) {
        RigBody body;
        body.bone = int(i);
        const BoneKind kind = kinds[i];
        body.shape = kind == BoneKind::Head ? BodyShape::Circle : BodyShape::Capsule;
        body.radiusSource = RadiusSource::Visual;
        body.mass = torso[i] ? kHeaviestBodyMass * area[i] / torsoArea
                             : std::clamp(kLimbMass * area[i] / median, kLightestBodyMass, kMaxLimbFraction * kHeaviestBodyMass);
        body.mass = std::round(body.mass * kMassStepsPerKg) / kMassStepsPerKg;
        body.linearDamping = kLinearDamping;
        body.angularDamping = kAngularDamping;
        rig.bodies.push_back(body);
    }
    updateDerived(rig);
    // Art beside its bone (a head drawn above a bone of length 0, a figure of one bone whose
    // art stands on it): the body goes where the art is, else it lies off it, a head sunk
    // into the ground under its drawing.
    std::vector<std::string> centredOnArt(count);
    for (size_t i = 0; i < count; ++i) {
        RigBody& body = rig.bodies[i];
        const std::optional<Vec2> art = artMiddle(rig, int(i));
        if (!art) continue;
        const Vec2 onBone{0.5 * rig.bones[i].length, 0.0};
        const Vec2 centre = body.shape == BodyShape::Circle ? *art : Vec2{onBone.x, art->y};
        const double off = length(centre - onBone);
        if (off < kArtOffBody * body.radius) continue;
        body.centre = Vec2{tidy(centre.x, rig.scale), tidy(centre.y, rig.scale)};
        centredOnArt[i] = "moved " + shortNumber(off * 100.0, 1) + " cm onto its art";
    }
    // Columns padded by how wide names show (paper/text_width.h), not by their bytes: a bone
    // named 'tête' or '腿.L' keeps its row in line; any name is whole (no fixed buffer).
    auto row = [](const std::string& bone, const std::string& role, const std::string& shape, const std::string& radius,
                  const std::string& mass, const std::string& jointTo, const std::string& limits, const std::string& why) {
        return "  " + paper::padded(bone, 16) + " " + paper::padded(role, 10) + " " + paper::padded(shape, 8) + " " +
               std::string(radius.size() < 9 ? 9 - radius.size() : 0, ' ') + radius + " " +
               std::string(mass.size() < 8 ? 8 - mass.size() : 0, ' ') + mass + "  " + paper::padded(jointTo, 16) + " " +
               paper::padded(limits, 14) + " " + why;
    };
    table.push_back(row("bone", "role", "shape", "radius", "mass", "joint to", "limits (deg)", "why"));
    for (size_t i = 0; i < count; ++i) {
        const RigBone& bone = rig.bones[i];
        const BoneKind kind = kinds[i];
        const BoneRecipe recipe = boneRecipe(kind);
        // Why each guess: the role the name gave (or that it gave none, the limits then the
        // default ones), then what moved the body or the limits off the role's recipe.
        std::string why = kind != BoneKind::Other ? std::string("role from the name ('") + boneKindName(kind) + "')"
                          : bone.parent >= 0      ? std::string("no role recognised in the name: the default limits")
                          : torso[i]              ? std::string("no role recognised in the name: the root, given the torso's mass")
                                                  : std::string("no role recognised in the name");
        if (!centredOnArt[i].empty()) why += ", body " + centredOnArt[i];
        std::string limits = "-";
        if (bone.parent >= 0) {
            RigJoint joint;
            joint.parent = bone.parent;
            joint.child = int(i);
            joint.fileName = bone.fileName;
            joint.name = bone.name;
            joint.limited = true;
            double lower = recipe.lowerDegrees, upper = recipe.upperDegrees;
            const bool hinge = kind == BoneKind::Forearm || kind == BoneKind::Shin;
            if (hinge) {
                // Bent in the setup pose: the hinge opens that way, measured from straight.
                const double bend = wrapDegrees(bone.localAngle * 180.0 / kPi);
                const bool positive = std::abs(bend) > kHingeBendDegrees ? bend > 0.0 : recipe.upperDegrees > 0.0;
                const double reach = std::max(std::abs(recipe.lowerDegrees), std::abs(recipe.upperDegrees));
                lower = positive ? -bend : -reach - bend;
                upper = positive ? reach - bend : -bend;
                if (std::abs(bend) > kHingeBendDegrees)
                    why += ", one-way, bending " + std::string(positive ? "counter-clockwise" : "clockwise") +
                           " as in the setup pose";
            }
            // Widened only on a side a clip goes past, to the furthest angle plus the margin:
            // a clip reaching a limit (a straight knee) is inside it, and with no clip (an
            // empty range) the guess stands.
            const AngleRange& range = clipRanges[i];
            const bool pastLower = !range.empty() && range.low < lower - kClipLimitTolerance;
            const bool pastUpper = !range.empty() && range.high > upper + kClipLimitTolerance;
            if (pastLower) lower = std::max(-180.0, range.low - kClipLimitMargin);
            if (pastUpper) upper = std::min(180.0, range.high + kClipLimitMargin);
            if (pastLower && pastUpper && range.lowClip != range.highClip)
                why += ", limits widened to hold clips '" + range.lowClip + "' and '" + range.highClip + "'";
            else if (pastLower || pastUpper)
                why += ", limits widened to hold clip '" + (pastLower ? range.lowClip : range.highClip) + "'";
            joint.lower = writtenLimit(lower);
            joint.upper = writtenLimit(upper);
            rig.joints.push_back(joint);
            limits = "[";
            limits += degrees(lower);
            limits += ", ";
            limits += degrees(upper);
            limits += "]";
            if (!map.jointNote[i].empty()) why += "; " + map.jointNote[i];
        }
        const RigBody& body = rig.bodies[i];
        char radius[32], mass[32];
        std::snprintf(radius, sizeof radius, "%.3f m", body.radius);
        std::snprintf(mass, sizeof mass, "%.2f kg", body.mass);
        table.push_back(row(bone.fileName, boneKindName(kind), shapeName(body.shape), radius, mass,
                            bone.parent >= 0 ? rig.bones[size_t(bone.parent)].fileName : "(root)", limits, why));
    }
    dampAndRubJoints(rig);
    updateDerived(rig);
}

}  // namespace ragdoll
