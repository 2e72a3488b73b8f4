#include "character/character_assets.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <optional>
#include <string_view>

#include "anim/pose.h"
#include "character/character_tuning.h"
#include "character/drawn_shapes.h"
#include "paper/file_checks.h"
#include "paper/spelling.h"
#include "rig/rig_builder.h"
#include "rig/rig_loader.h"
#include "rig_tools/rig_generator.h"

namespace ragdoll {

namespace {

/// The side a bone's name gives (0 left, 1 right: `thigh-L`, `L_thigh`, `left_thigh`), or -1.
int sideOf(std::string_view name) {
    const std::string n = boneNameWords(name);
    for (int side = 0; side < 2; ++side) {
        const std::string letter = side == 0 ? "l" : "r", word = side == 0 ? "left" : "right";
        if (n.ends_with("_" + letter) || n.starts_with(letter + "_") || n.find(word) != std::string::npos) return side;
    }
    return -1;
}

/// The chains of `upper` bones with a `lower` child (and an `end` child of that, unless
/// `end` is Other) that the rig's names left unfound or half found, in bone order, each on
/// the side its name gives when that one is open (side 0 is the left: an arm reaches by it).
void chainsByRole(const RigDefinition& rig, const std::vector<BoneKind>& kinds, BoneKind upper, BoneKind lower, BoneKind end,
                  CharacterAssets::Chain (&chains)[2]) {
    auto childOf = [&](int parent, BoneKind kind) {
        for (int b = 0; b < int(rig.bones.size()); ++b)
            if (rig.bones[size_t(b)].parent == parent && kinds[size_t(b)] == kind) return b;
        return -1;
    };
    auto found = [](const CharacterAssets::Chain& chain) { return chain.upper >= 0 && chain.lower >= 0; };
    for (CharacterAssets::Chain& chain : chains)
        if (found(chain) && chain.end < 0 && end != BoneKind::Other) chain.end = childOf(chain.lower, end);
    for (int b = 0; b < int(rig.bones.size()); ++b) {
        const bool taken = (found(chains[0]) && chains[0].upper == b) || (found(chains[1]) && chains[1].upper == b);
        const int child = kinds[size_t(b)] == upper && !taken ? childOf(b, lower) : -1;
        if (child < 0) continue;
        const int side = sideOf(rig.bones[size_t(b)].fileName);
        CharacterAssets::Chain* open = side >= 0 && !found(chains[side]) ? &chains[side]
                                       : !found(chains[0])               ? &chains[0]
                                       : !found(chains[1])               ? &chains[1]
                                                                         : nullptr;
        if (open) *open = {b, child, end == BoneKind::Other ? -1 : childOf(child, end), -1};
    }
}

constexpr const char* kRoleNames[int(ClipRole::Count)] = {"idle", "walk", "run", "jump", "daze", "get_up_front", "get_up_back"};

/// In the order a compiler lists them: the rig file's by line, then each other file's
/// (the clips) by line, the files in the order the rig names them (as found).
void sortAsACompiler(const std::string& rigPath, std::vector<Diagnostic>& diagnostics) {
    std::vector<std::string> files{rigPath};
    for (const Diagnostic& d : diagnostics)
        if (std::find(files.begin(), files.end(), d.file) == files.end()) files.push_back(d.file);
    auto rank = [&](const Diagnostic& d) { return std::find(files.begin(), files.end(), d.file) - files.begin(); };
    std::stable_sort(diagnostics.begin(), diagnostics.end(), [&](const Diagnostic& a, const Diagnostic& b) {
        return rank(a) != rank(b) ? rank(a) < rank(b) : a.line < b.line;
    });
}

}  // namespace

const char* clipRoleName(ClipRole role) { return kRoleNames[int(role)]; }

namespace {

/// CharacterAssets::getUpReach: each get-up clip's drawn parts above knee height, sampled.
std::array<std::array<double, 2>, 2> getUpReach(const CharacterAssets& a) {
    std::array<std::array<double, 2>, 2> reaches = {};
    LocalPose local;
    std::vector<BonePose> poses;
    std::vector<DrawnShape> shapes;
    for (const ClipRole role : {ClipRole::GetUpFront, ClipRole::GetUpBack}) {
        std::array<double, 2>& reach = reaches[role == ClipRole::GetUpFront ? 0 : 1];
        const Clip& clip = a.clip(role);
        for (double time = 0.0; time <= clip.duration + 1e-9; time += tuning::kGetUpMatchStep) {
            sampleClip(clip, a.rig, time, local);
            computeBonePoses(a.rig, local, poses);
            drawnShapes(a.rig, poses, 1.0, false, shapes);
            for (const DrawnShape& shape : shapes)
                if (std::max(shape.a.y, shape.b.y) + shape.radius > tuning::kWallProbeHeight) {
                    reach[0] = std::max(reach[0], std::max(shape.a.x, shape.b.x) + shape.radius - a.rootRestX);
                    reach[1] = std::max(reach[1], a.rootRestX - std::min(shape.a.x, shape.b.x) + shape.radius);
                }
        }
    }
    return reaches;
}

/// Where the rig's rest pose has its lowest point (a shin's tip less its body's radius, or
/// any body's lowest point when the rig has no legs), rig-space metres.
double restPoseBottom(const CharacterAssets& a) {
    const RigDefinition& rig = a.rig;
    std::vector<BonePose> pose;
    computeBonePoses(rig, restLocalPose(rig), pose);
    auto lowestOf = [&](int body) {
        const BonePose& p = pose[size_t(rig.bodies[size_t(body)].bone)];
        const Capsule placed = placedBodyCapsule(rig, body, p.origin, p.angle);
        return std::min(placed.center1.y, placed.center2.y) - placed.radius;
    };
    double bottom = 1e300;
    for (const CharacterAssets::Chain& leg : a.legs)
        if (leg.lower >= 0 && a.bodyOfBone[size_t(leg.lower)] >= 0) bottom = std::min(bottom, lowestOf(a.bodyOfBone[size_t(leg.lower)]));
    if (bottom < 1e300) return bottom;
    for (int b = 0; b < int(rig.bodies.size()); ++b) bottom = std::min(bottom, lowestOf(b));
    return bottom < 1e300 ? bottom : 0.0;
}

/// The clip a rig that names none plays for a role: its rest pose, lowered (or raised) so
/// the feet stand on the ground. Looping for standing roles; a short hold for the get-ups,
/// which then blend from the lying pose back to the rest pose.
Clip restClip(const CharacterAssets& a, ClipRole role) {
    Clip clip;
    clip.name = std::string("rest (no '") + clipRoleName(role) + "' clip)";
    const bool getUp = role == ClipRole::GetUpFront || role == ClipRole::GetUpBack;
    clip.duration = getUp ? 0.1 : 1.0;
    clip.loop = !getUp;
    clip.rootY.keys = {{0.0, -restPoseBottom(a)}};
    if (clip.loop) clip.rootY.keys.push_back({clip.duration, -restPoseBottom(a)});
    return clip;
}

/// The error at a rig's <clip> line for a clip file that does not load, pointing at its own.
Diagnostic clipDoesNotLoad(const std::string& rigPath, const RigClip& entry, const std::string& path) {
    return {Severity::Error, rigPath, entry.line,
            "clip: the '" + entry.name + "' clip '" + entry.file + "' does not load (the error for " + path + " says why)"};
}

/// Loads a clip the rig names against the rig's bones; one that does not load is an error at
/// the rig's <clip> line as well as in its own file.
std::optional<Clip> loadRigClip(const std::string& rigPath, const RigDefinition& rig, const RigClip& entry,
                                std::vector<Diagnostic>& diagnostics) {
    const std::string path = paper::pathBeside(std::filesystem::path(rigPath).parent_path(), entry.file);
    ClipLoadResult clip = loadClipFile(path, rig);
    diagnostics.insert(diagnostics.end(), clip.diagnostics.begin(), clip.diagnostics.end());
    if (clip.clip) return std::move(*clip.clip);
    diagnostics.push_back(clipDoesNotLoad(rigPath, entry, path));
    return std::nullopt;
}

/// A clip of a rig whose bones have errors: its file is checked to be there and be a clip,
/// an error at the rig's <clip> line as well as in its own file when it is not.
void checkRigClipAlone(const std::string& rigPath, const RigClip& entry, std::vector<Diagnostic>& diagnostics) {
    if (entry.file.empty()) return;  // the rig's own error says so
    const std::string path = paper::pathBeside(std::filesystem::path(rigPath).parent_path(), entry.file);
    const std::vector<Diagnostic> found = checkClipFileAlone(path);
    if (!hasErrors(found)) return;
    diagnostics.insert(diagnostics.end(), found.begin(), found.end());
    diagnostics.push_back(clipDoesNotLoad(rigPath, entry, path));
}

int roleOf(const std::string& name) {
    for (int role = 0; role < int(ClipRole::Count); ++role)
        if (name == kRoleNames[role]) return role;
    return -1;
}

/// A clip under a name no role has is kept and never played; a slip off a role the rig names
/// no clip for, it is most likely that role misspelt ('wlak'), which would leave the
/// character walking in its rest pose without a word.
void warnAboutMisspeltRole(const std::string& rigPath, const RigDefinition& rig, const RigClip& entry,
                           std::vector<Diagnostic>& diagnostics) {
    for (int role = 0; role < int(ClipRole::Count); ++role) {
        if (rig.findClip(kRoleNames[role]) || !paper::isSlipOf(entry.name, kRoleNames[role])) continue;
        diagnostics.push_back({Severity::Warning, rigPath, entry.line,
                               "clip: '" + entry.name + "' is no role a character plays (kept, never played): did you mean '" +
                                   kRoleNames[role] + "'? Without a '" + kRoleNames[role] +
                                   "' clip the character shows its rest pose there"});
        return;
    }
}

/// Every clip the rig names, each checked: a role's into roleClips when given, the others
/// read for their errors only.
void loadRigClips(const std::string& rigPath, const RigDefinition& rig, Clip* roleClips, std::vector<Diagnostic>& diagnostics) {
    for (const RigClip& entry : rig.clips) {
        // No file: the rig's own error says so (loaded, its folder was read as a clip and
        // refused twice more, once with no file name).
        if (entry.file.empty()) continue;
        const int role = roleOf(entry.name);
        std::optional<Clip> clip = loadRigClip(rigPath, rig, entry, diagnostics);
        if (role >= 0 && clip && roleClips) roleClips[role] = std::move(*clip);
        if (role < 0) warnAboutMisspeltRole(rigPath, rig, entry, diagnostics);
    }
}

/// The assets, every diagnostic appended to `diagnostics` as found; null on any error.
std::shared_ptr<const CharacterAssets> loadAssets(const std::string& rigPath, std::vector<Diagnostic>& diagnostics) {
    RigLoadResult loaded = loadRigFile(rigPath);
    diagnostics.insert(diagnostics.end(), loaded.diagnostics.begin(), loaded.diagnostics.end());
    if (!loaded.rig) {
        // Its skeleton whole, the clips are checked too: every error at once. Its bones
        // broken, the clips' files as far as they can be without the bones they name.
        if (loaded.skeleton) loadRigClips(rigPath, *loaded.skeleton, nullptr, diagnostics);
        for (const RigClip& entry : loaded.clips) checkRigClipAlone(rigPath, entry, diagnostics);
        return nullptr;
    }

    auto assets = std::make_shared<CharacterAssets>();
    assets->rig = *loaded.rig;
    const RigDefinition& rig = assets->rig;
    const int boneCount = int(rig.bones.size());
    assets->bodyOfBone.assign(size_t(boneCount), -1);
    for (int b = 0; b < int(rig.bodies.size()); ++b) assets->bodyOfBone[size_t(rig.bodies[size_t(b)].bone)] = b;
    // Unique among the names and the labels before it ("(a-b-c)" could be either of two
    // pairs; "(joint N)" could be a name too): then "(joint N)", or failing that "(joint N')".
    auto taken = [&](const std::string& label) {
        return std::any_of(rig.joints.begin(), rig.joints.end(), [&](const RigJoint& j) { return j.name == label; }) ||
               std::find(assets->jointLabels.begin(), assets->jointLabels.end(), label) != assets->jointLabels.end();
    };
    for (size_t j = 0; j < rig.joints.size(); ++j) {
        const RigJoint& joint = rig.joints[j];
        std::string label = joint.name;
        if (label.empty()) {
            label = "(" + rig.bones[size_t(joint.parent)].name + "-" + rig.bones[size_t(joint.child)].name + ")";
            if (taken(label)) label = "(joint " + std::to_string(j) + ")";
            while (taken(label)) label = label.substr(0, label.find(')')) + "')";
        }
        assets->jointLabels.push_back(label);
    }
    // Parent-first order: repeatedly take bones whose parent is placed (the loader has
    // already refused cycles).
    std::vector<char> placed(size_t(boneCount), 0);
    while (int(assets->parentFirst.size()) < boneCount) {
        for (int b = 0; b < boneCount; ++b) {
            const int parent = rig.bones[size_t(b)].parent;
            if (!placed[size_t(b)] && (parent < 0 || placed[size_t(parent)])) {
                placed[size_t(b)] = 1;
                assets->parentFirst.push_back(b);
                if (parent < 0) assets->rootBone = b;
            }
        }
    }
    if (assets->rootBone >= 0) assets->rootRestX = rig.bones[size_t(assets->rootBone)].origin.x;
    for (int b = 0; b < int(rig.bodies.size()); ++b) {
        const RigBone& bone = rig.bones[size_t(rig.bodies[size_t(b)].bone)];
        // The bone's top plus the radius (a head circle's drawing reaches past its body), or the
        // body's own top where the rig moves it higher.
        const Capsule placed = placedBodyCapsule(rig, b, bone.origin, bone.angle);
        const double radius = rig.bodies[size_t(b)].radius;
        assets->standingHeight = std::max({assets->standingHeight, std::max(bone.origin.y, bone.tip().y) + radius,
                                           std::max(placed.center1.y, placed.center2.y) + radius});
    }
    // The limbs IK plants, by name: `thigh_L` or `thigh.l` (a side's letter in either case,
    // as the far side is told apart for drawing; a rig spelt in lower case had no IK, unsaid).
    const char* sides[2][2] = {{"_L", "_l"}, {"_R", "_r"}};
    for (int s = 0; s < 2; ++s) {
        auto find = [&](const char* limb) {
            const int upper = rig.findBone(std::string(limb) + sides[s][0]);
            return upper >= 0 ? upper : rig.findBone(std::string(limb) + sides[s][1]);
        };
        assets->legs[s] = {find("thigh"), find("shin")};
        const int foot = find("foot");
        if (foot >= 0 && assets->legs[s].lower >= 0 && rig.bones[size_t(foot)].parent == assets->legs[s].lower)
            assets->legs[s].end = foot;
        assets->arms[s] = {find("upper_arm"), find("forearm")};
    }
    // Else by their bones' roles (a Spine skeleton's `thigh-L` or `front-thigh` had no IK, its
    // toes 15 cm into a stair): a thigh with a shin under it, the foot under that.
    const std::vector<BoneKind> kinds = classifyBones(rig);
    chainsByRole(rig, kinds, BoneKind::Thigh, BoneKind::Shin, BoneKind::Foot, assets->legs);
    chainsByRole(rig, kinds, BoneKind::UpperArm, BoneKind::Forearm, BoneKind::Other, assets->arms);
    for (CharacterAssets::Chain& leg : assets->legs)
        for (size_t j = 0; j < rig.joints.size() && leg.end >= 0; ++j)
            if (rig.joints[j].child == leg.end) leg.endJoint = int(j);

    // The clips the rig names; a role it names none for plays the rest pose, standing (so
    // any rig `rig check` accepts is playable).
    loadRigClips(rigPath, rig, assets->clips, diagnostics);
    for (int role = 0; role < int(ClipRole::Count); ++role)
        if (!rig.findClip(kRoleNames[role])) assets->clips[role] = restClip(*assets, ClipRole(role));
    // A skeleton with no bodies yet (what `rig generate` reads) is one error, not one a bone.
    if (rig.bodies.empty())
        diagnostics.push_back({Severity::Error, rigPath, rig.line,
                               "rig: '" + rig.name + "' has no <body> elements, so it has no ragdoll to spawn: "
                               "`paperdoll rig generate IN OUT` adds a body to every bone and a joint between them"});
    else
        for (int b = 0; b < boneCount; ++b)
            if (assets->bodyOfBone[size_t(b)] < 0)
                diagnostics.push_back({Severity::Error, rigPath, rig.bones[size_t(b)].line,
                                       "bone: '" + rig.bones[size_t(b)].fileName +
                                           "' has no <body>: a character's ragdoll needs one per bone"});
    if (hasErrors(diagnostics)) return nullptr;
    assets->getUpReach = getUpReach(*assets);
    return assets;
}

}  // namespace

std::shared_ptr<const CharacterAssets> loadCharacterAssets(const std::string& rigPath, std::vector<Diagnostic>& diagnostics) {
    std::vector<Diagnostic> found;
    std::shared_ptr<const CharacterAssets> assets = loadAssets(rigPath, found);
    sortAsACompiler(rigPath, found);
    diagnostics.insert(diagnostics.end(), found.begin(), found.end());
    return assets;
}

std::shared_ptr<const CharacterAssets> loadCharacterAssets(const std::string& rigPath, std::vector<std::string>& errors,
                                                           std::vector<std::string>* warnings) {
    std::vector<Diagnostic> diagnostics;
    std::shared_ptr<const CharacterAssets> assets = loadCharacterAssets(rigPath, diagnostics);
    for (const Diagnostic& d : diagnostics)
        if (d.severity == Severity::Error) errors.push_back(d.format());
    // Refused, its warnings go after its errors (a misspelt attribute warned about is often
    // what an error comes from), so the refusal's first line is still an error.
    std::vector<std::string>* warningsTo = assets ? warnings : &errors;
    for (const Diagnostic& d : diagnostics)
        if (d.severity != Severity::Error && warningsTo) warningsTo->push_back(d.format());
    return assets;
}

}  // namespace ragdoll
