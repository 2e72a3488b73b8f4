// The state blob: the scene written and read as a versioned, sectioned byte string that
// carries everything across a hot reload, and refused whole (changing nothing) when any
// part of it is corrupt or implausible.
#include "scene/scene.h"

#include <cmath>
#include <cstring>

#include "character/character_tuning.h"
#include "solver/constants.h"

namespace ragdoll {

namespace {

// Layout (little endian, as the machine writes it; the blob never leaves the process):
//   "PDRS" magic, u32 format version, u32 section count, then sections:
//   4-byte tag, u32 payload size, payload.
// Sections: "WRLD" world settings (format 6: and the next sleeping island's id), "BODY" the
// level's bodies (terrain, then props) in level order, "CHAR" every character (its mode,
// animation, poses, its rig's tuning and its own bodies; format 6: and its joints' limit
// warm starts, its bones' tracked velocities, the mass of the props it pushes and its hands'
// reach targets), "PREV" the net-role preview and its proxy, "RUNF" the run's joint figures,
// "DEPF" the run's deepest drawn overlap (format 4), "LOOK" how the scene is drawn (the
// paper look on or off; absent: on), "THRD" the solver's threads setting (absent: the
// scene keeps its own; threads change no result, only the time a step takes), "TUNF" each
// character's tuning as its rig's file has it (absent: the whole tuning in CHAR is restored;
// present: only what differs from it, the edits, over the file as the new instance read it).
// A reader skips sections it does not know and refuses a blob missing one it needs, so
// adding a section is compatible and changing one takes a new tag or format.
constexpr char kMagic[4] = {'P', 'D', 'R', 'S'};
constexpr std::uint32_t kFormatVersion = 6;
/// 2: the characters' tuning was their joint limits only; 2 and 3: one proxy box per
/// character where 4 has a body per rig body following the bones; up to 4, no joint friction;
/// up to 5, nothing of what a step hands the next beyond the bodies (a lying ragdoll reloaded
/// from one goes on a little differently).
constexpr std::uint32_t kOldestFormatRead = 2;

struct Writer {
    std::vector<std::uint8_t> bytes;
    void append(const void* data, size_t size) {
        const size_t at = bytes.size();
        bytes.resize(at + size);
        std::memcpy(bytes.data() + at, data, size);
    }
    template <class T>
    void put(const T& value) { append(&value, sizeof(T)); }
    void put(Vec2 v) {
        put(v.x);
        put(v.y);
    }
    size_t beginSection(const char (&name)[5]) {
        append(name, 4);
        put(std::uint32_t(0));
        return bytes.size();
    }
    void endSection(size_t start) {
        auto size = std::uint32_t(bytes.size() - start);
        std::memcpy(bytes.data() + start - sizeof size, &size, sizeof size);
    }
};

struct Reader {
    const std::uint8_t* data;
    size_t size, offset = 0;
    bool ok = true;
    template <class T>
    T get() {
        T value{};
        if (offset + sizeof(T) > size) {
            ok = false;
            return value;
        }
        std::memcpy(&value, data + offset, sizeof(T));
        offset += sizeof(T);
        return value;
    }
    Vec2 getVec2() {
        const double x = get<double>();
        return {x, get<double>()};
    }
    /// A count of items of at least itemBytes each that must fit in what is left.
    std::uint32_t getCount(size_t itemBytes) {
        const auto count = get<std::uint32_t>();
        if (!ok || count > (size - offset) / itemBytes) ok = false;
        return ok ? count : 0;
    }
};

constexpr size_t kSnapshotBytes = 6 * sizeof(double) + 2 + sizeof(double) + sizeof(std::int64_t);  // 66

void putSnapshot(Writer& w, const BodySnapshot& s) {
    w.put(s.center);
    w.put(s.angle);
    w.put(s.linearVelocity);
    w.put(s.angularVelocity);
    w.put(std::uint8_t(s.awake));
    w.put(std::uint8_t(s.frozen));
    w.put(s.sleepTime);
    w.put(s.sleepingIsland);
}

BodySnapshot getSnapshot(Reader& r) {
    BodySnapshot s;
    s.center = r.getVec2();
    s.angle = r.get<double>();
    s.linearVelocity = r.getVec2();
    s.angularVelocity = r.get<double>();
    s.awake = r.get<std::uint8_t>() != 0;
    s.frozen = r.get<std::uint8_t>() != 0;
    s.sleepTime = r.get<double>();
    s.sleepingIsland = r.get<std::int64_t>();
    return s;
}

// What a blob our solver wrote can hold: bodies inside the world (a lost body is frozen
// just outside it), moving no faster than the solver's speed limits allow between two
// steps (velocities are clamped in the step, set by switches a little above), finite
// everywhere. Anything else is corruption, refused before it can reach the solver: finite
// but absurd numbers (a body at 1e196 m) overflow in the step.
constexpr double kStateSpeedSlack = 10.0;
constexpr double kMaxGravity = 1000.0;  ///< m/s²; the tuning panel offers up to 50

bool insideWorld(Vec2 p, double margin = 1.0) {
    const double extent = margin * defaultWorldDef().worldHalfExtent;
    return isFinite(p) && std::abs(p.x) <= extent && std::abs(p.y) <= extent;
}

bool plausibleSnapshot(const BodySnapshot& s) {
    // A body is frozen in the step it crosses the bounds, so it is found just outside them.
    return insideWorld(s.center, s.frozen ? 2.0 : 1.0) && std::isfinite(s.angle) &&
           isFinite(s.linearVelocity) && length(s.linearVelocity) <= kStateSpeedSlack * kMaxLinearSpeed &&
           std::abs(s.angularVelocity) <= kStateSpeedSlack * kMaxAngularSpeed && std::isfinite(s.sleepTime) &&
           s.sleepingIsland >= -1 && s.sleepingIsland < kMaxSleepingIsland;
}

bool plausiblePoses(const std::vector<BonePose>& poses) {
    for (const BonePose& p : poses)
        if (!insideWorld(p.origin) || !std::isfinite(p.angle)) return false;
    return true;
}

void putPoses(Writer& w, const std::vector<BonePose>& poses) {
    w.put(std::uint32_t(poses.size()));
    for (const BonePose& p : poses) {
        w.put(p.origin);
        w.put(p.angle);
    }
}

std::vector<BonePose> getPoses(Reader& r) {
    std::vector<BonePose> poses(r.getCount(3 * sizeof(double)));
    for (BonePose& p : poses) {
        p.origin = r.getVec2();
        p.angle = r.get<double>();
    }
    return poses;
}

void putTuning(Writer& w, const RigTuning& t) {
    w.put(std::uint32_t(t.joints.size()));
    for (const JointTuning& j : t.joints) {
        w.put(std::uint8_t(j.limited));
        for (double v : {j.lower, j.upper, j.stiffness, j.damping, j.friction}) w.put(v);
        w.put(std::uint8_t(j.collide));
    }
    w.put(std::uint32_t(t.bodies.size()));
    for (const BodyTuning& b : t.bodies) {
        w.put(std::uint8_t(b.radiusSource));
        for (double v : {b.radius, b.radiusFraction, b.mass, b.linearDamping, b.angularDamping, b.friction}) w.put(v);
    }
}

/// Format 2 held the joint limits only: the rest is the rig's, as the reading character
/// fills in (Character::load takes a tuning with no bodies as "limits only").
RigTuning getTuning(Reader& r, std::uint32_t version) {
    RigTuning t;
    if (version == 2) {
        t.joints.resize(r.getCount(2 * sizeof(double)));
        for (JointTuning& j : t.joints) {
            j.lower = r.get<double>();
            j.upper = r.get<double>();
            j.limited = j.lower > -kPi || j.upper < kPi;
        }
        return t;
    }
    // Format 5 added the joints' friction; an older plugin ran without it (0).
    const bool friction = version >= 5;
    t.joints.resize(r.getCount(2 + (friction ? 5 : 4) * sizeof(double)));
    for (JointTuning& j : t.joints) {
        j.limited = r.get<std::uint8_t>() != 0;
        for (double* v : {&j.lower, &j.upper, &j.stiffness, &j.damping}) *v = r.get<double>();
        if (friction) j.friction = r.get<double>();
        j.collide = r.get<std::uint8_t>() != 0;
    }
    t.bodies.resize(r.getCount(1 + 6 * sizeof(double)));
    for (BodyTuning& b : t.bodies) {
        const auto source = r.get<std::uint8_t>();
        if (source > std::uint8_t(RadiusSource::Visual)) r.ok = false;
        b.radiusSource = RadiusSource(source);
        for (double* v : {&b.radius, &b.radiusFraction, &b.mass, &b.linearDamping, &b.angularDamping, &b.friction})
            *v = r.get<double>();
    }
    return t;
}

void putCharacter(Writer& w, const Character::SavedState& c) {
    w.put(std::uint8_t(c.mode));
    w.put(std::uint8_t(c.role));
    w.put(c.root);
    w.put(c.rootVelocity);
    w.put(std::uint8_t(c.facingRight));
    w.put(std::uint8_t(c.grounded));
    w.put(std::uint8_t(c.haveAnimHistory));
    w.put(std::uint8_t(c.ragdollMirrored));
    w.put(std::int32_t(c.currentClip));
    w.put(std::int32_t(c.previousClip));
    for (double v : {c.currentTime, c.previousTime, c.fadeTime, c.fadeDuration, c.speed}) w.put(v);
    putPoses(w, c.previousAnim);
    putPoses(w, c.poses);
    putPoses(w, c.getUpFrom);
    w.put(c.getUpTime);
    w.put(c.getUpShift);
    w.put(std::uint32_t(c.blendWeights.size()));
    for (double v : c.blendWeights) w.put(v);
    putTuning(w, c.tuning);
    for (const Appearance& a : {c.appearance, c.savedAppearance}) {
        w.put(a.tint);
        w.put(a.scale);
    }
    w.put(c.replicated.root);
    w.put(std::uint8_t(c.replicated.facingRight));
    w.put(std::uint8_t(c.replicated.mode));
    w.put(c.replicated.tint);
    w.put(c.replicatedVelocity);
    w.put(std::uint32_t(c.bodies.size()));
    for (const BodySnapshot& s : c.bodies) putSnapshot(w, s);
    w.put(std::uint32_t(c.animatedBodies.size()));
    for (const BodySnapshot& s : c.animatedBodies) putSnapshot(w, s);
    w.put(std::uint32_t(c.limitWarmStarts.size()));
    for (double lambda : c.limitWarmStarts) w.put(lambda);
    w.put(std::uint32_t(c.boneLinear.size()));
    for (Vec2 v : c.boneLinear) w.put(v);
    w.put(std::uint32_t(c.boneAngular.size()));
    for (double v : c.boneAngular) w.put(v);
    w.put(c.pushedMass);
    for (int side = 0; side < 2; ++side) {
        w.put(std::uint8_t(c.reaching[side]));
        w.put(c.reachTarget[side]);
    }
}

/// How a format-4 blob holds a character's get-up shift: format 4 wrote it as a vector at
/// first and as its sideways part later, under the same format number.
enum class ShiftLayout { Vector, Sideways };

/// Reads one character; values are checked by Character::load, enums here.
Character::SavedState getCharacter(Reader& r, std::uint32_t version, ShiftLayout shift) {
    Character::SavedState c;
    const auto mode = r.get<std::uint8_t>();
    const auto role = r.get<std::uint8_t>();
    if (mode > std::uint8_t(CharacterMode::GettingUp) || role > std::uint8_t(NetRole::Proxy)) r.ok = false;
    c.mode = CharacterMode(mode);
    c.role = NetRole(role);
    c.root = r.getVec2();
    c.rootVelocity = r.getVec2();
    c.facingRight = r.get<std::uint8_t>() != 0;
    c.grounded = r.get<std::uint8_t>() != 0;
    c.haveAnimHistory = r.get<std::uint8_t>() != 0;
    c.ragdollMirrored = r.get<std::uint8_t>() != 0;
    c.currentClip = r.get<std::int32_t>();
    c.previousClip = r.get<std::int32_t>();
    for (double* v : {&c.currentTime, &c.previousTime, &c.fadeTime, &c.fadeDuration, &c.speed}) *v = r.get<double>();
    c.previousAnim = getPoses(r);
    c.poses = getPoses(r);
    c.getUpFrom = getPoses(r);
    c.getUpTime = r.get<double>();
    if (version >= 4) c.getUpShift = shift == ShiftLayout::Vector ? r.getVec2().x : r.get<double>();
    c.blendWeights.resize(r.getCount(sizeof(double)));
    for (double& v : c.blendWeights) v = r.get<double>();
    c.tuning = getTuning(r, version);
    for (Appearance* a : {&c.appearance, &c.savedAppearance}) {
        a->tint = r.get<std::uint32_t>();
        a->scale = r.get<double>();
    }
    c.replicated.root = r.getVec2();
    c.replicated.facingRight = r.get<std::uint8_t>() != 0;
    const auto replicatedMode = r.get<std::uint8_t>();
    if (replicatedMode > std::uint8_t(CharacterMode::GettingUp)) r.ok = false;
    c.replicated.mode = CharacterMode(replicatedMode);
    c.replicated.tint = r.get<std::uint32_t>();
    c.replicatedVelocity = r.getVec2();
    c.bodies.resize(r.getCount(kSnapshotBytes));
    for (BodySnapshot& s : c.bodies) s = getSnapshot(r);
    if (version >= 4) {
        c.animatedBodies.resize(r.getCount(kSnapshotBytes));
        for (BodySnapshot& s : c.animatedBodies) s = getSnapshot(r);
    } else if (r.get<std::uint8_t>() != 0) {
        // Format 3's proxy box: gone, the following bodies are made on the bones instead.
        if (!plausibleSnapshot(getSnapshot(r))) r.ok = false;
    }
    if (version >= 6) {
        c.limitWarmStarts.resize(r.getCount(sizeof(double)));
        for (double& lambda : c.limitWarmStarts) lambda = r.get<double>();
        c.boneLinear.resize(r.getCount(2 * sizeof(double)));
        for (Vec2& v : c.boneLinear) v = r.getVec2();
        c.boneAngular.resize(r.getCount(sizeof(double)));
        for (double& v : c.boneAngular) v = r.get<double>();
        c.pushedMass = r.get<double>();
        for (int side = 0; side < 2; ++side) {
            c.reaching[side] = r.get<std::uint8_t>() != 0;
            c.reachTarget[side] = r.getVec2();
        }
    }
    for (const BodySnapshot& s : c.bodies)
        if (!plausibleSnapshot(s)) r.ok = false;
    for (const BodySnapshot& s : c.animatedBodies)
        if (!plausibleSnapshot(s)) r.ok = false;
    if (!insideWorld(c.root) || !insideWorld(c.replicated.root) ||
        !plausiblePoses(c.previousAnim) || !plausiblePoses(c.poses) || !plausiblePoses(c.getUpFrom) ||
        length(c.rootVelocity) > kStateSpeedSlack * kMaxLinearSpeed)
        r.ok = false;
    return c;
}

}  // namespace

std::vector<std::uint8_t> Scene::saveState() const {
    Writer w;
    w.append(kMagic, 4);
    w.put(kFormatVersion);
    w.put(std::uint32_t(9));  // sections

    size_t section = w.beginSection("WRLD");
    const WorldDef& d = world_.def();
    w.put(d.gravity);
    w.put(std::int32_t(d.substeps));
    w.put(std::int32_t(d.iterations));
    w.put(std::int32_t(d.jointSolver == JointSolver::Direct ? 1 : 0));
    w.put(std::int32_t(d.enableSleep ? 1 : 0));
    w.put(world_.nextSleepingIsland());
    w.endSection(section);

    section = w.beginSection("BODY");
    w.put(std::uint32_t(terrain_.size() + propBodies_.size()));
    for (const std::vector<BodyId>* list : {&terrain_, &propBodies_})
        for (BodyId id : *list) putSnapshot(w, world_.snapshot(id));
    w.endSection(section);

    section = w.beginSection("CHAR");
    w.put(std::uint32_t(characters_.size()));
    Character::SavedState saved;
    for (const auto& character : characters_) {
        character->save(saved);
        putCharacter(w, saved);
    }
    w.endSection(section);

    section = w.beginSection("TUNF");
    w.put(std::uint32_t(characters_.size()));
    for (const auto& character : characters_) putTuning(w, character->fileTuning());
    w.endSection(section);

    section = w.beginSection("PREV");
    w.put(std::uint8_t(netPreview_));
    w.put(std::uint8_t(previewProxy_ != nullptr));
    if (previewProxy_) {
        previewProxy_->save(saved);
        putCharacter(w, saved);
    }
    w.endSection(section);

    section = w.beginSection("RUNF");
    w.put(run_.stretch);
    w.put(run_.limitViolation);
    w.endSection(section);
    section = w.beginSection("DEPF");
    w.put(run_.visualDepth);
    w.endSection(section);
    section = w.beginSection("THRD");
    w.put(std::int32_t(threads_));
    w.endSection(section);
    section = w.beginSection("LOOK");
    w.put(std::int32_t(paperLook_ ? 1 : 0));
    w.endSection(section);
    return w.bytes;
}

namespace {

/// Reads a section holding characters with read(shift): a format-4 one with the vector
/// layout first and, if that does not fill the section exactly, the other (they differ by
/// 8 bytes a character); any other format has one layout. True when a layout filled it.
template <class Read>
bool readCharacters(Reader& section, size_t end, std::uint32_t version, const Read& read) {
    const Reader start = section;
    for (ShiftLayout shift : {ShiftLayout::Vector, ShiftLayout::Sideways}) {
        if (shift == ShiftLayout::Vector && version != 4) continue;
        section = start;
        read(shift);
        if (section.ok && section.offset == end) return true;
    }
    return false;
}

}  // namespace

bool Scene::loadState(const std::uint8_t* data, std::size_t size, std::string& error) {
    Reader r{data, size};
    if (!data || size < 12 || std::memcmp(data, kMagic, 4) != 0) {
        const bool ours = data && size >= 4 && std::memcmp(data, kMagic, 4) == 0;
        error = size == 0 ? "the state is empty (0 bytes)"
                : ours    ? "the state blob is truncated (" + std::to_string(size) + " bytes)"
                          : "not a ragdoll state blob (" + std::to_string(size) + " bytes, not starting as one)";
        return false;
    }
    r.offset = 4;
    std::uint32_t version = r.get<std::uint32_t>();
    if (version < kOldestFormatRead || version > kFormatVersion) {
        error = "state format " + std::to_string(version) + " is not one this plugin reads (it reads " +
                std::to_string(kOldestFormatRead) + " to " + std::to_string(kFormatVersion) + ")";
        return false;
    }
    std::uint32_t sections = r.get<std::uint32_t>();
    bool haveSettings = false, haveBodies = false, haveCharacters = false;
    WorldDef def = world_.def();
    std::vector<BodySnapshot> snapshots;
    std::vector<Character::SavedState> characters;
    std::vector<RigTuning> fileTunings;
    NetPreview preview = NetPreview::Off;
    bool havePreviewProxy = false;
    Character::SavedState previewState;
    Figures run;
    bool paperLook = true;
    int threads = threads_;
    std::int64_t nextSleepingIsland = 0;  // format 5 and before: as the restored bodies need
    for (std::uint32_t i = 0; i < sections && r.ok; ++i) {
        char tag[4] = {};
        if (r.offset + 8 > size) {
            r.ok = false;
            break;
        }
        std::memcpy(tag, data + r.offset, 4);
        r.offset += 4;
        std::uint32_t length = r.get<std::uint32_t>();
        if (r.offset + length > size) {
            r.ok = false;
            break;
        }
        const size_t end = r.offset + length;
        Reader section{data, end, r.offset};  // cannot read past its own section
        if (std::memcmp(tag, "WRLD", 4) == 0) {
            def.gravity = section.getVec2();
            def.substeps = section.get<std::int32_t>();
            def.iterations = section.get<std::int32_t>();
            def.jointSolver = section.get<std::int32_t>() ? JointSolver::Direct : JointSolver::Iterative;
            def.enableSleep = section.get<std::int32_t>() != 0;
            if (version >= 6) nextSleepingIsland = section.get<std::int64_t>();
            haveSettings = section.ok && section.offset == end;
        } else if (std::memcmp(tag, "BODY", 4) == 0) {
            snapshots.resize(section.getCount(kSnapshotBytes));
            for (BodySnapshot& s : snapshots) s = getSnapshot(section);
            haveBodies = section.ok && section.offset == end;
        } else if (std::memcmp(tag, "CHAR", 4) == 0) {
            haveCharacters = readCharacters(section, end, version, [&](ShiftLayout shift) {
                characters.resize(section.getCount(64));
                for (Character::SavedState& c : characters) c = getCharacter(section, version, shift);
            });
        } else if (std::memcmp(tag, "TUNF", 4) == 0) {
            fileTunings.resize(section.getCount(8));
            for (RigTuning& t : fileTunings) t = getTuning(section, kFormatVersion);
            if (section.offset != end) section.ok = false;
        } else if (std::memcmp(tag, "PREV", 4) == 0) {
            std::uint8_t mode = 0;
            const bool filled = readCharacters(section, end, version, [&](ShiftLayout shift) {
                mode = section.get<std::uint8_t>();
                havePreviewProxy = section.get<std::uint8_t>() != 0;
                if (havePreviewProxy) previewState = getCharacter(section, version, shift);
            });
            if (!filled || mode > std::uint8_t(NetPreview::ProxyOnly)) section.ok = false;
            preview = NetPreview(mode);
        } else if (std::memcmp(tag, "RUNF", 4) == 0) {
            run.stretch = section.get<double>();
            run.limitViolation = section.get<double>();
        } else if (std::memcmp(tag, "DEPF", 4) == 0) {
            run.visualDepth = section.get<double>();
        } else if (std::memcmp(tag, "LOOK", 4) == 0) {
            paperLook = section.get<std::int32_t>() != 0;
        } else if (std::memcmp(tag, "THRD", 4) == 0) {
            threads = section.get<std::int32_t>();
            if (threads < 1 || threads > kMaxWorkers) section.ok = false;
        }
        if (!section.ok) r.ok = false;
        r.offset = end;  // unknown sections are skipped
    }
    if (!r.ok) {
        error = "the state blob is truncated or corrupt";
        return false;
    }
    if (!haveSettings || !haveBodies || !haveCharacters) {
        error = std::string("the state blob lacks its ") + (!haveSettings ? "WRLD" : !haveBodies ? "BODY" : "CHAR") + " section";
        return false;
    }
    if (fileTunings.size() == characters.size())
        for (size_t c = 0; c < characters.size(); ++c) characters[c].fileTuning = std::move(fileTunings[c]);
    if (terrain_.size() + propBodies_.size() != snapshots.size() || characters.size() != characters_.size()) {
        error = "the state has " + std::to_string(snapshots.size()) + " level bodies and " +
                std::to_string(characters.size()) + " characters but this level has " +
                std::to_string(terrain_.size() + propBodies_.size()) + " and " + std::to_string(characters_.size()) +
                " (a different level?)";
        return false;
    }
    if (!isFinite(def.gravity) || length(def.gravity) > kMaxGravity || def.substeps < 1 || def.substeps > 64 ||
        def.iterations < 1 || def.iterations > 64 || !std::isfinite(run.stretch) || !std::isfinite(run.limitViolation) ||
        !std::isfinite(run.visualDepth) || nextSleepingIsland < 0 || nextSleepingIsland > kMaxSleepingIsland) {
        error = "the state's world settings are out of range";
        return false;
    }
    // Validate everything before touching the world, so a refusal changes nothing: each
    // character is tried on a scratch world built like this one first.
    for (const BodySnapshot& s : snapshots)
        if (!plausibleSnapshot(s)) {
            error = "the state holds a body outside the world, too fast or not finite";
            return false;
        }
    {
        World scratch(world_.def());
        for (size_t i = 0; i < characters.size(); ++i) {
            Character trial(scratch, characters_[i]->shared(), characters_[i]->def());
            if (!trial.load(characters[i], error)) return false;
        }
        if (havePreviewProxy && !characters_.empty()) {
            Character trial(scratch, characters_[0]->shared(), characters_[0]->def());
            if (!trial.load(previewState, error)) return false;
        }
    }

    releaseGrab();
    world_.setGravity(def.gravity);
    world_.setSubsteps(def.substeps);
    world_.setIterations(def.iterations);
    world_.setJointSolver(def.jointSolver);
    world_.enableSleep(def.enableSleep);
    size_t i = 0;
    for (const std::vector<BodyId>* list : {&terrain_, &propBodies_})
        for (BodyId id : *list) world_.restore(id, snapshots[i++]);
    for (size_t c = 0; c < characters.size(); ++c) characters_[c]->load(characters[c], error);
    netPreview_ = characters_.empty() ? NetPreview::Off : preview;
    previewProxy_.reset();
    if (havePreviewProxy && !characters_.empty()) {
        makePreviewProxy();
        previewProxy_->load(previewState, error);
    }
    world_.setNextSleepingIsland(nextSleepingIsland);  // after the bodies, whose islands it must pass
    run_ = run;
    paperLook_ = paperLook;
    setThreads(threads);
    return true;
}

}  // namespace ragdoll
