#include "scene/scene.h"

#include <cmath>
#include <cstring>

namespace ragdoll {

namespace {

// ---- the state blob ----------------------------------------------------------------
// Layout (little endian, as the machine writes it; the blob never leaves the process):
//   "PDRS" magic, u32 format version, u32 section count, then sections:
//   4-byte tag, u32 payload size, payload.
// Sections: "WRLD" world settings, "BODY" every body's motion in creation order.
// A reader skips sections it does not know and refuses a blob missing one it needs, so
// adding a section is compatible and changing one takes a new tag.
constexpr char kMagic[4] = {'P', 'D', 'R', 'S'};
constexpr std::uint32_t kFormatVersion = 1;

/// Writes into a buffer sized up front (growing a vector byte by byte also trips g++ 12's
/// false -Wstringop-overflow at -O3).
struct Writer {
    std::vector<std::uint8_t> bytes;
    size_t at = 0;
    explicit Writer(size_t size) : bytes(size) {}
    void append(const void* data, size_t size) {
        std::memcpy(bytes.data() + at, data, size);
        at += size;
    }
    template <class T>
    void put(const T& value) { append(&value, sizeof(T)); }
    size_t beginSection(const char (&name)[5]) {
        append(name, 4);
        put(std::uint32_t(0));
        return at;
    }
    void endSection(size_t start) {
        auto size = std::uint32_t(at - start);
        std::memcpy(bytes.data() + start - sizeof size, &size, sizeof size);
    }
};

constexpr size_t kHeaderBytes = 12, kSectionHeaderBytes = 8;
constexpr size_t kWorldSettingsBytes = 2 * sizeof(double) + 4 * sizeof(std::int32_t);
constexpr size_t kBodyBytes = 6 * sizeof(double) + 2 + sizeof(double) + sizeof(std::int64_t);  // 66

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
};

const std::vector<SceneProperty> kProperties = {
    {"solver.substeps", "Substeps", "", SceneProperty::Int, 1, 32},
    {"solver.iterations", "Iterations", "", SceneProperty::Int, 1, 16},
    {"solver.gravity", "Gravity", "m/s²", SceneProperty::Float, -50.0, 0.0},
    {"solver.direct_joints", "Direct joint solver", "", SceneProperty::Bool, 0, 1},
    {"solver.sleep", "Sleeping", "", SceneProperty::Bool, 0, 1},
};

}  // namespace

Scene::Scene() {
    WorldDef def = defaultWorldDef();
    def.gravity = {0.0, -9.81};
    world_ = World(def);
}

bool Scene::loadLevel(const SceneLevel& level, std::string& error) {
    World fresh(world_.def());
    std::vector<BodyId> terrain, props;
    for (const ScenePiece& piece : level.terrain) {
        Polygon polygon;
        if (!makePolygon(piece.points.data(), int(piece.points.size()), 0.0, polygon)) {
            error = "terrain piece " + std::to_string(terrain.size()) + " is not a convex polygon of 3 to 8 points";
            return false;
        }
        BodyDef def = defaultBodyDef();
        def.type = BodyType::Static;
        BodyId id = fresh.createBody(def);
        ShapeDef shape = defaultShapeDef();
        shape.friction = piece.friction;
        shape.restitution = piece.restitution;
        fresh.setPolygon(id, shape, polygon);
        terrain.push_back(id);
    }
    for (const SceneProp& prop : level.props) {
        if (!(prop.mass > 0.0) || !(prop.halfExtents.x > 0.0) || !(prop.halfExtents.y > 0.0)) {
            error = "prop " + std::to_string(props.size()) + " needs a positive mass and size";
            return false;
        }
        BodyDef def = defaultBodyDef();
        def.position = prop.position;
        def.angle = prop.angle;
        BodyId id = fresh.createBody(def);
        ShapeDef shape = defaultShapeDef();
        shape.mass = prop.mass;
        shape.friction = prop.friction;
        shape.restitution = prop.restitution;
        fresh.setPolygon(id, shape, makeBox(prop.halfExtents.x, prop.halfExtents.y));
        props.push_back(id);
    }
    world_ = std::move(fresh);
    terrain_ = std::move(terrain);
    propBodies_ = std::move(props);
    propInfo_ = level.props;
    return true;
}

void Scene::step(double dt) { world_.step(dt); }

std::vector<Scene::PropView> Scene::props() const {
    std::vector<PropView> out;
    for (size_t i = 0; i < propBodies_.size(); ++i)
        out.push_back({world_.bodyTransform(propBodies_[i]), propInfo_[i].halfExtents, propInfo_[i].rgba});
    return out;
}

const std::vector<SceneProperty>& Scene::propertyList() { return kProperties; }

double Scene::property(int index) const {
    const WorldDef& d = world_.def();
    switch (index) {
    case 0: return d.substeps;
    case 1: return d.iterations;
    case 2: return d.gravity.y;
    case 3: return d.jointSolver == JointSolver::Direct ? 1.0 : 0.0;
    case 4: return d.enableSleep ? 1.0 : 0.0;
    default: return 0.0;
    }
}

bool Scene::setProperty(int index, double value) {
    if (index < 0 || index >= int(kProperties.size()) || !std::isfinite(value)) return false;
    const SceneProperty& p = kProperties[size_t(index)];
    if (value < p.minValue || value > p.maxValue) return false;
    switch (index) {
    case 0: world_.setSubsteps(int(std::lround(value))); break;
    case 1: world_.setIterations(int(std::lround(value))); break;
    case 2: world_.setGravity({0.0, value}); break;
    case 3: world_.setJointSolver(value != 0.0 ? JointSolver::Direct : JointSolver::Iterative); break;
    case 4: world_.enableSleep(value != 0.0); break;
    }
    return true;
}

std::vector<std::uint8_t> Scene::saveState() const {
    std::uint32_t count = 0;
    world_.forEachBody([&](BodyId) { ++count; });
    Writer w(kHeaderBytes + 2 * kSectionHeaderBytes + kWorldSettingsBytes + sizeof count + count * kBodyBytes);
    w.append(kMagic, 4);
    w.put(kFormatVersion);
    w.put(std::uint32_t(2));  // sections

    size_t settings = w.beginSection("WRLD");
    const WorldDef& d = world_.def();
    w.put(d.gravity.x);
    w.put(d.gravity.y);
    w.put(std::int32_t(d.substeps));
    w.put(std::int32_t(d.iterations));
    w.put(std::int32_t(d.jointSolver == JointSolver::Direct ? 1 : 0));
    w.put(std::int32_t(d.enableSleep ? 1 : 0));
    w.endSection(settings);

    size_t bodies = w.beginSection("BODY");
    w.put(count);
    world_.forEachBody([&](BodyId id) {
        BodySnapshot s = world_.snapshot(id);
        w.put(s.center.x);
        w.put(s.center.y);
        w.put(s.angle);
        w.put(s.linearVelocity.x);
        w.put(s.linearVelocity.y);
        w.put(s.angularVelocity);
        w.put(std::uint8_t(s.awake));
        w.put(std::uint8_t(s.frozen));
        w.put(s.sleepTime);
        w.put(s.sleepingIsland);
    });
    w.endSection(bodies);
    return w.bytes;
}

bool Scene::loadState(const std::uint8_t* data, std::size_t size, std::string& error) {
    Reader r{data, size};
    if (!data || size < 12 || std::memcmp(data, kMagic, 4) != 0) {
        error = "not a ragdoll state blob (bad magic)";
        return false;
    }
    r.offset = 4;
    std::uint32_t version = r.get<std::uint32_t>();
    if (version != kFormatVersion) {
        error = "state format " + std::to_string(version) + " is not one this plugin reads (it reads " +
                std::to_string(kFormatVersion) + ")";
        return false;
    }
    std::uint32_t sections = r.get<std::uint32_t>();
    bool haveSettings = false, haveBodies = false;
    WorldDef def = world_.def();
    std::vector<BodySnapshot> snapshots;
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
        size_t end = r.offset + length;
        if (std::memcmp(tag, "WRLD", 4) == 0) {
            def.gravity.x = r.get<double>();
            def.gravity.y = r.get<double>();
            def.substeps = r.get<std::int32_t>();
            def.iterations = r.get<std::int32_t>();
            def.jointSolver = r.get<std::int32_t>() ? JointSolver::Direct : JointSolver::Iterative;
            def.enableSleep = r.get<std::int32_t>() != 0;
            haveSettings = r.ok && r.offset == end;
        } else if (std::memcmp(tag, "BODY", 4) == 0) {
            std::uint32_t count = r.get<std::uint32_t>();
            // Refuse a count the section cannot hold before allocating for it.
            if (!r.ok || count > (end - r.offset) / kBodyBytes) {
                r.ok = false;
                break;
            }
            snapshots.resize(count);
            for (BodySnapshot& s : snapshots) {
                s.center.x = r.get<double>();
                s.center.y = r.get<double>();
                s.angle = r.get<double>();
                s.linearVelocity.x = r.get<double>();
                s.linearVelocity.y = r.get<double>();
                s.angularVelocity = r.get<double>();
                s.awake = r.get<std::uint8_t>() != 0;
                s.frozen = r.get<std::uint8_t>() != 0;
                s.sleepTime = r.get<double>();
                s.sleepingIsland = r.get<std::int64_t>();
            }
            haveBodies = r.ok && r.offset == end;
        }
        r.offset = end;  // unknown sections are skipped
    }
    if (!r.ok) {
        error = "the state blob is truncated or corrupt";
        return false;
    }
    if (!haveSettings || !haveBodies) {
        error = std::string("the state blob lacks its ") + (haveSettings ? "BODY" : "WRLD") + " section";
        return false;
    }
    std::uint32_t count = 0;
    world_.forEachBody([&](BodyId) { ++count; });
    if (count != snapshots.size()) {
        error = "the state has " + std::to_string(snapshots.size()) + " bodies but this world has " +
                std::to_string(count) + " (a different level?)";
        return false;
    }
    if (!std::isfinite(def.gravity.x) || !std::isfinite(def.gravity.y) || def.substeps < 1 || def.substeps > 64 ||
        def.iterations < 1 || def.iterations > 64) {
        error = "the state's world settings are out of range";
        return false;
    }
    // Validate everything before touching the world, so a refusal changes nothing.
    for (const BodySnapshot& s : snapshots)
        if (!isFinite(s.center) || !std::isfinite(s.angle) || !isFinite(s.linearVelocity) ||
            !std::isfinite(s.angularVelocity) || !std::isfinite(s.sleepTime)) {
            error = "the state holds a non-finite body";
            return false;
        }
    world_.setGravity(def.gravity);
    world_.setSubsteps(def.substeps);
    world_.setIterations(def.iterations);
    world_.setJointSolver(def.jointSolver);
    world_.enableSleep(def.enableSleep);
    size_t i = 0;
    world_.forEachBody([&](BodyId id) { world_.restore(id, snapshots[i++]); });
    return true;
}

}  // namespace ragdoll
