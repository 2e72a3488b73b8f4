#include "spine/spine_bake.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <set>

#include "rig/rig_xml.h"

namespace ragdoll {

namespace {

std::string lowercase(const std::string& text) {
    std::string out = text;
    for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

/// Text for inside an XML comment, which may hold no "--" and may not end in '-' (a name
/// like "run--fast" would otherwise break the clip file): a space goes between such dashes.
/// Entities are not read in a comment; control bytes, which XML allows nowhere (a NUL would
/// end the file for its reader), are written as \xNN.
std::string commentText(const std::string& text) {
    std::string out;
    for (char c : paper::escapeControlBytes(text)) {
        if (c == '-' && !out.empty() && out.back() == '-') out += ' ';
        out += c;
    }
    if (!out.empty() && out.back() == '-') out += ' ';
    return out;
}

std::string fileSafe(const std::string& name) {
    std::string out = name;
    for (char& c : out)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') c = '_';
    return out;
}

/// One sample of every rig bone: angle offsets from rest (degrees) and the root's origin.
struct Sample {
    std::vector<double> angles;
    double rootX = 0.0, rootY = 0.0;  ///< Spine units
    /// Per rig bone: how far its origin is from where the rig keeps it on its parent, units.
    std::vector<double> drift;
};

Sample sampleAt(const SpineSkeleton& skeleton, const SpineRigMap& map, const std::vector<double>& restLocal,
                const std::vector<Vec2>& rest, const SpineAnimation& animation, double time) {
    const std::vector<SpineWorld> world = poseSpineSkeleton(skeleton, &animation, time);
    Sample s;
    s.angles.resize(map.spineOfRig.size());
    for (size_t i = 0; i < map.spineOfRig.size(); ++i) {
        const double own = world[size_t(map.spineOfRig[i])].angleDegrees();
        const int parent = map.rigParent[i];
        const double local = parent < 0 ? own : own - world[size_t(map.spineOfRig[size_t(parent)])].angleDegrees();
        s.angles[i] = wrapDegrees(local - restLocal[i]);
    }
    s.drift.assign(map.spineOfRig.size(), 0.0);
    for (size_t i = 0; i < map.spineOfRig.size(); ++i) {
        const int parent = map.rigParent[i];
        if (parent < 0) continue;
        const SpineWorld& own = world[size_t(map.spineOfRig[i])];
        const SpineWorld& up = world[size_t(map.spineOfRig[size_t(parent)])];
        const double a = up.angleDegrees() * kPi / 180.0, dx = own.x - up.x, dy = own.y - up.y;
        const Vec2 local{std::cos(a) * dx + std::sin(a) * dy, -std::sin(a) * dx + std::cos(a) * dy};
        s.drift[i] = length(local - map.scale * rest[i]);
    }
    const SpineWorld& root = world[size_t(map.spineOfRig[0])];
    s.rootX = root.x;
    s.rootY = root.y;
    return s;
}

/// Per Spine bone: whether its keys can show in the clips, which hold the bodied bones'
/// angles and the root only. They can when the bone has a body or a bone under it does (its
/// motion carries that body), or a bone under it is a constraint's target (the constraint
/// turns its bones); a helper bone with none of these (a forearm without art) moves nothing
/// that is baked, and its keys are dropped.
std::vector<char> keysReachClips(const SpineSkeleton& skeleton, const SpineRigMap& map) {
    std::vector<char> reaches(skeleton.bones.size(), 0);
    for (size_t i = 0; i < skeleton.bones.size(); ++i) reaches[i] = map.rigOfSpine[i] >= 0;
    for (const SpineIk& ik : skeleton.ik)
        if (ik.target >= 0) reaches[size_t(ik.target)] = 1;
    for (const SpineTransformConstraint& t : skeleton.transforms)
        if (t.target >= 0) reaches[size_t(t.target)] = 1;
    // Parents come before their children (the reader sorts them so): children first here.
    for (size_t i = skeleton.bones.size(); i-- > 0;)
        if (reaches[i] && skeleton.bones[i].parent >= 0) reaches[size_t(skeleton.bones[i].parent)] = 1;
    return reaches;
}

}  // namespace

std::string clipRoleOf(const std::string& animationName) {
    const std::string name = lowercase(animationName);
    for (const char* getUp : {"getup", "get_up", "get-up", "get up", "standup", "stand_up", "stand-up"})
        if (name.find(getUp) != std::string::npos) {
            // From lying face down ("front", "prone", "belly") or on the back ("back", "supine").
            for (const char* front : {"front", "prone", "belly"})
                if (name.find(front) != std::string::npos) return "get_up_front";
            for (const char* back : {"back", "supine"})
                if (name.find(back) != std::string::npos) return "get_up_back";
            return "get_up";
        }
    for (const char* role : {"idle", "walk", "run", "jump", "daze"})
        if (name.find(role) != std::string::npos) return role;
    return "";
}

bool loopsByDefault(const std::string& animationName) {
    const std::string name = lowercase(animationName);
    return name.find("idle") != std::string::npos || name.find("walk") != std::string::npos ||
           name.find("run") != std::string::npos;
}

BakeResult bakeSpineClips(const SpineSkeleton& skeleton, const SpineRigMap& map, const RigDefinition& rig,
                          const std::vector<std::string>* loops, const std::string& fileStem, const std::string& source) {
    BakeResult result;
    const size_t count = rig.bones.size();
    result.ranges.assign(count, AngleRange{});
    std::vector<double> restLocal(count);
    std::vector<Vec2> restOrigin(count);
    for (size_t i = 0; i < count; ++i) {
        restLocal[i] = rig.bones[i].localAngle * 180.0 / kPi;
        restOrigin[i] = rig.bones[i].localOrigin;
    }
    const std::vector<SpineWorld> setup = poseSpineSkeleton(skeleton, nullptr, 0.0);
    const double restRootY = setup[size_t(map.spineOfRig[0])].y;

    // Roles: an animation named exactly as a role first, then the first whose name holds it.
    // A get-up that says neither front nor back plays both of the character's get-ups, or the
    // one no other get-up took, so it comes last.
    std::set<std::string> taken;
    std::vector<std::vector<std::string>> rolesOf(skeleton.animations.size());
    for (int pass = 0; pass < 3; ++pass)
        for (size_t a = 0; a < skeleton.animations.size(); ++a) {
            const std::string role = clipRoleOf(skeleton.animations[a].name);
            const bool exact = lowercase(skeleton.animations[a].name) == role;
            const bool eitherGetUp = role == "get_up";
            if (role.empty() || !rolesOf[a].empty() || (pass == 0 && !exact) || (pass < 2 && eitherGetUp)) continue;
            for (const std::string& r : eitherGetUp ? std::vector<std::string>{"get_up_front", "get_up_back"}
                                                    : std::vector<std::string>{role})
                if (taken.insert(r).second) rolesOf[a].push_back(r);
        }

    std::set<std::string> names;
    const std::vector<char> reachesClips = keysReachClips(skeleton, map);
    for (size_t a = 0; a < skeleton.animations.size(); ++a) {
        const SpineAnimation& animation = skeleton.animations[a];
        // A helper bone's keys that move nothing baked are lost: said, once per bone.
        std::set<int> dropped;
        for (const SpineTimeline& t : animation.timelines)
            if (t.kind != SpineTimelineKind::Ik && !reachesClips[size_t(t.target)] && dropped.insert(t.target).second) {
                const int rider = map.spineOfRig[size_t(map.riderOfSpine[size_t(t.target)])];
                result.warnings.push_back({animation.line, "animation '" + animation.name + "': bone '" +
                                                               skeleton.bones[size_t(t.target)].name +
                                                               "' has no body (its parts ride on '" + skeleton.bones[size_t(rider)].name +
                                                               "'): its keys are dropped from the clip"});
            }
        BakedClip clip;
        clip.animation = animation.name;
        if (!rolesOf[a].empty()) clip.roles = rolesOf[a];
        else {
            std::string name = fileSafe(animation.name);
            while (names.count(name) || clipRoleOf(name) == name) name += "_";
            clip.roles = {name};
        }
        for (const std::string& role : clip.roles) names.insert(role);
        clip.loop = loops ? std::find(loops->begin(), loops->end(), animation.name) != loops->end()
                          : loopsByDefault(animation.name);
        clip.file = fileStem + "." + fileSafe(animation.name) + ".anim.xml";
        const bool still = animation.duration <= 0.0;
        const double duration = still ? kStillClipDuration : animation.duration;

        // Sample times: the Spine keys and a grid, finer until the half-way checks pass.
        std::vector<double> times;
        std::vector<Sample> samples;
        for (double rate = kBakeStartRate;; rate *= 2.0) {
            std::set<double> grid;
            const int steps = std::max(1, int(std::ceil(duration * rate - 1e-9)));
            for (int i = 0; i <= steps; ++i) grid.insert(std::min(duration, duration * i / steps));
            // A jump (a stepped key, or a timeline's first key after the start, before which the
            // setup pose holds) gets a sample just before it, so the clip jumps there too.
            for (const SpineTimeline& t : animation.timelines)
                for (size_t k = 0; k < t.keys.size(); ++k) {
                    const double time = t.keys[k].time;
                    if (time > 0.0 && time < duration) grid.insert(time);
                    const bool jump = k == 0 ? time > 0.0 : t.keys[k - 1].curve == SpineCurveType::Stepped;
                    if (jump && time - kJumpLead > 0.0 && time <= duration) grid.insert(time - kJumpLead);
                }
            // Times closer than the file's precision (6 decimals) are one key.
            times.clear();
            for (double t : grid)
                if (times.empty() || t - times.back() > 1e-5) times.push_back(t);
            if (duration - times.back() <= 1e-5) times.back() = duration;
            samples.clear();
            for (double t : times) samples.push_back(sampleAt(skeleton, map, restLocal, restOrigin, animation, still ? 0.0 : t));
            double worst = 0.0;
            for (size_t i = 0; i + 1 < times.size(); ++i) {
                if (times[i + 1] - times[i] <= 2.0 * kJumpLead) continue;  // a jump: no half-way to match
                const Sample mid = sampleAt(skeleton, map, restLocal, restOrigin, animation, still ? 0.0 : 0.5 * (times[i] + times[i + 1]));
                for (size_t b = 0; b < count; ++b) {
                    const double halfway = samples[i].angles[b] + 0.5 * wrapDegrees(samples[i + 1].angles[b] - samples[i].angles[b]);
                    worst = std::max(worst, std::abs(wrapDegrees(mid.angles[b] - halfway)));
                }
            }
            clip.rate = rate;
            clip.maxError = worst;
            if (worst <= kBakeTolerance || rate >= kBakeMaxRate) break;
        }
        // A bone at the end of its chain scaled by the animation (a breathing head): a clip
        // holds angles only, and nothing moved off its place to say so above.
        for (const SpineTimeline& t : animation.timelines) {
            if (t.kind != SpineTimelineKind::Scale && t.kind != SpineTimelineKind::ScaleX && t.kind != SpineTimelineKind::ScaleY)
                continue;
            const int r = t.target >= 0 && size_t(t.target) < map.rigOfSpine.size() ? map.rigOfSpine[size_t(t.target)] : -1;
            if (r < 0 || std::any_of(rig.bones.begin(), rig.bones.end(), [&](const RigBone& b) { return b.parent == r; }))
                continue;
            double most = 1.0;
            for (const SpineKey& key : t.keys)
                for (int v = 0; v < (t.kind == SpineTimelineKind::Scale ? 2 : 1); ++v)
                    if (std::abs(key.values[size_t(v)] - 1.0) > std::abs(most - 1.0)) most = key.values[size_t(v)];
            if (std::abs(most - 1.0) > 1e-3)
                result.warnings.push_back({animation.line, "animation '" + animation.name + "': bone '" + rig.bones[size_t(r)].fileName +
                                                               "' is scaled (up to " + shortNumber(most, 3) +
                                                               " times); a clip holds angles only, so its art keeps its size"});
        }
        // Bones keep their place on their parents in a clip (only angles and the root move):
        // say where the animation moves one off it.
        for (size_t b = 0; b < count; ++b) {
            double worst = 0.0;
            for (const Sample& sample : samples) worst = std::max(worst, sample.drift[b]);
            if (worst > kDriftWarning * std::max(1.0, rig.bones[b].length * map.scale))
                result.warnings.push_back({animation.line, "animation '" + animation.name + "': bone '" + rig.bones[b].fileName +
                                                               "' moves up to " + shortNumber(worst, 2) +
                                                               " units off its place on '" +
                                                               rig.bones[size_t(rig.bones[b].parent)].fileName +
                                                               "' (translate, scale or helper bones); the clip keeps it there and bakes its angle only"});
        }

        // A looping clip's key at the end must repeat its first: bone tracks leave it out.
        // The root keeps it: root x's change over the loop is one cycle's travel.
        const size_t boneKeys = clip.loop && times.size() > 1 ? times.size() - 1 : times.size();
        clip.keys = int(boneKeys);

        std::string text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- Baked by `paperdoll rig import` from animation '" +
                           commentText(animation.name) + "' of " + commentText(source) + ", sampled at " + shortNumber(clip.rate, 0) +
                           " Hz (linear between keys, within " + shortNumber(clip.maxError, 3) +
                           " degrees of the Spine pose half-way). -->\n";
        text += "<clip name=\"" + rigxml::escapeAttribute(clip.roles[0]) + "\" format=\"1\" duration=\"" + shortNumber(duration, 6) +
                "\" loop=\"" + (clip.loop ? "true" : "false") + "\" interpolation=\"linear\">\n";
        for (size_t b = 0; b < count; ++b) {
            // Unwrapped across samples so a turn through 180° does not jump back.
            std::vector<double> unwrapped(boneKeys);
            bool moves = false;
            for (size_t i = 0; i < boneKeys; ++i) {
                unwrapped[i] = i == 0 ? samples[i].angles[b]
                                      : unwrapped[i - 1] + wrapDegrees(samples[i].angles[b] - samples[i - 1].angles[b]);
                moves = moves || std::abs(unwrapped[i]) > 1e-4;
                AngleRange& range = result.ranges[b];
                if (unwrapped[i] < range.low) range.low = unwrapped[i], range.lowClip = animation.name;
                if (unwrapped[i] > range.high) range.high = unwrapped[i], range.highClip = animation.name;
            }
            if (!moves) continue;
            text += "  <track bone=\"" + rigxml::escapeAttribute(rig.bones[b].fileName) + "\">";
            for (size_t i = 0; i < boneKeys; ++i)
                text += " <key t=\"" + shortNumber(times[i], 6) + "\" angle=\"" + shortNumber(unwrapped[i], 4) + "\"/>";
            text += " </track>\n";
        }
        bool rootMoves = false;
        for (const Sample& s : samples)
            rootMoves = rootMoves || std::abs(s.rootX - samples[0].rootX) > 1e-6 || std::abs(s.rootY - restRootY) > 1e-6;
        // The loop's closing root key repeats the first y (only x may differ: the travel).
        auto closing = [&](size_t i) { return clip.loop && i + 1 == samples.size() && i > 0; };
        if (rootMoves) {
            text += "  <root>";
            for (size_t i = 0; i < samples.size(); ++i)
                text += " <key t=\"" + shortNumber(times[i], 6) + "\" x=\"" + shortNumber(samples[i].rootX - samples[0].rootX, 4) +
                        "\" y=\"" + shortNumber((closing(i) ? samples[0].rootY : samples[i].rootY) - restRootY, 4) + "\"/>";
            text += " </root>\n";
        }
        clip.text = text + "</clip>\n";
        result.clips.push_back(std::move(clip));
    }
    return result;
}

}  // namespace ragdoll
