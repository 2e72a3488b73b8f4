#include "character/character_assets.h"

#include <filesystem>

#include "rig/rig_loader.h"

namespace ragdoll {

namespace {

constexpr const char* kRoleNames[int(ClipRole::Count)] = {"idle", "walk", "run", "jump", "daze", "get_up_front", "get_up_back"};

void addErrors(const std::vector<Diagnostic>& diagnostics, std::vector<std::string>& errors) {
    for (const Diagnostic& d : diagnostics)
        if (d.severity == Severity::Error) errors.push_back(d.format());
}

}  // namespace

const char* clipRoleName(ClipRole role) { return kRoleNames[int(role)]; }

std::shared_ptr<const CharacterAssets> loadCharacterAssets(const std::string& rigPath, std::vector<std::string>& errors) {
    const size_t errorsBefore = errors.size();
    RigLoadResult loaded = loadRigFile(rigPath);
    addErrors(loaded.diagnostics, errors);
    if (!loaded.rig) return nullptr;

    auto assets = std::make_shared<CharacterAssets>();
    assets->rig = *loaded.rig;
    const RigDefinition& rig = assets->rig;
    const std::filesystem::path folder = std::filesystem::path(rigPath).parent_path();
    for (int role = 0; role < int(ClipRole::Count); ++role) {
        const RigClip* entry = rig.findClip(kRoleNames[role]);
        if (!entry) {
            errors.push_back(rigPath + ": error: rig: no <clip name=\"" + kRoleNames[role] +
                             "\" file=.../> (a character needs idle, walk, run, jump, daze, get_up_front and get_up_back)");
            continue;
        }
        const std::string path = (folder / entry->file).lexically_normal().string();
        ClipLoadResult clip = loadClipFile(path, rig);
        addErrors(clip.diagnostics, errors);
        if (clip.clip) assets->clips[role] = std::move(*clip.clip);
        else if (clip.diagnostics.empty()) errors.push_back(path + ": error: cannot load clip");
    }

    const int boneCount = int(rig.bones.size());
    assets->bodyOfBone.assign(size_t(boneCount), -1);
    for (int b = 0; b < int(rig.bodies.size()); ++b) assets->bodyOfBone[size_t(rig.bodies[size_t(b)].bone)] = b;
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
    const char* sides[2] = {"_L", "_R"};
    for (int s = 0; s < 2; ++s) {
        assets->legs[s] = {rig.findBone(std::string("thigh") + sides[s]), rig.findBone(std::string("shin") + sides[s])};
        assets->arms[s] = {rig.findBone(std::string("upper_arm") + sides[s]), rig.findBone(std::string("forearm") + sides[s])};
    }
    for (int b = 0; b < boneCount; ++b)
        if (assets->bodyOfBone[size_t(b)] < 0)
            errors.push_back(rigPath + ":" + std::to_string(rig.bones[size_t(b)].line) + ": error: bone '" +
                             rig.bones[size_t(b)].fileName + "' has no <body>: a character's ragdoll needs one per bone");
    if (errors.size() != errorsBefore) return nullptr;
    return assets;
}

}  // namespace ragdoll
