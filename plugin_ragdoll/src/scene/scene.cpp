#include "scene/scene.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>

#include "character/character_tuning.h"
#include "character/drawn_shapes.h"
#include "solver/constants.h"

namespace ragdoll {

namespace {

const std::vector<SceneProperty> kProperties = {
    {"solver.substeps", "Substeps", "", SceneProperty::Int, 1, 32},
    {"solver.iterations", "Iterations", "", SceneProperty::Int, 1, 16},
    {"solver.gravity", "Gravity", "m/s²", SceneProperty::Float, -50.0, 0.0},
    {"solver.direct_joints", "Direct joint solver", "", SceneProperty::Bool, 0, 1},
    {"solver.sleep", "Sleeping", "", SceneProperty::Bool, 0, 1},
    {"view.paper_look", "Paper look", "", SceneProperty::Bool, 0, 1},
    {"solver.threads", "Threads", "", SceneProperty::Int, 1, kMaxWorkers},
};

/// How far p is outside the body's shape (≤ 0 inside), metres.
double distanceOutside(const World& world, BodyId body, Vec2 p) {
    const Shape* shape = world.bodyShape(body);
    if (!shape) return 1e9;
    const Vec2 local = inverseTransformPoint(world.bodyTransform(body), p);
    const Polygon& g = shape->geometry;
    switch (shape->type) {
    case ShapeType::Circle: return distance(local, g.vertices[0]) - g.radius;
    case ShapeType::Capsule: {
        const Vec2 a = g.vertices[0], b = g.vertices[1], ab = b - a;
        const double t = std::clamp(dot(local - a, ab) / std::max(dot(ab, ab), 1e-12), 0.0, 1.0);
        return distance(local, a + t * ab) - g.radius;
    }
    case ShapeType::Polygon: {
        double outside = -1e9;
        for (int i = 0; i < g.count; ++i) outside = std::max(outside, dot(g.normals[i], local - g.vertices[i]));
        return outside - g.radius;
    }
    }
    return 1e9;
}

}  // namespace

Scene::Scene() {
    WorldDef def = defaultWorldDef();
    def.gravity = {0.0, -9.81};
    world_ = World(def);
}

// Characters go before the world they live in (the member order would do it the other way).
Scene::~Scene() {
    releaseGrab();
    previewProxy_.reset();
    characters_.clear();
}

namespace {

/// A prop placed into another or into the terrain deeper than this is warned about, and a
/// spawn whose standing figure reaches this far into the terrain or another's (metres).
constexpr double kPropOverlapWarning = 0.01;
constexpr double kSpawnOverlapWarning = 0.02;
/// Touching props of masses further apart than this are warned about (warnAboutMassRatios).
constexpr double kPropMassRatioWarning = 1000.0;

/// A placement warning about an element of the level's file, as a compiler's diagnostic
/// ("FILE:LINE: warning: …", which the host's log shows as is); the message alone when the
/// level came from no file.
std::string placed(const SceneLevel& level, int line, std::string message) {
    if (level.path.empty()) return message;
    return Diagnostic{Severity::Warning, level.path, line, std::move(message)}.format();
}

/// What a ray from a spawn sees: terrain and props, no character's bodies.
Filter terrainAndProps() {
    Filter filter;
    filter.maskBits = ~kCharacterCategory;
    return filter;
}

/// The level file's own warnings first, by line as a compiler lists them (they were found
/// check by check: lines 16, 14, 16, 12), then the rigs' and clips' in the order read.
void sortLevelWarnings(const SceneLevel& level, std::vector<std::string>& warnings) {
    if (level.path.empty()) return;
    // The path as placed() writes it (a diagnostic's file name has its control bytes escaped).
    const std::string one = Diagnostic{Severity::Warning, level.path, 1, ""}.format();
    const std::string prefix = one.substr(0, one.rfind(":1:") + 1);
    auto lineOf = [&](const std::string& w) { return std::atoi(w.c_str() + prefix.size()); };
    auto inLevel = [&](const std::string& w) { return w.starts_with(prefix) && lineOf(w) > 0; };
    const auto rigs = std::stable_partition(warnings.begin(), warnings.end(), inLevel);
    std::stable_sort(warnings.begin(), rigs, [&](const std::string& a, const std::string& b) { return lineOf(a) < lineOf(b); });
}

/// Props the level places inside one another or in the terrain: the solver pushes such an
/// overlap out at up to kMaxPushOutSpeed, so the prop rises out of it over the first frames
/// where it stands. A copy-and-paste slip, said when the level loads.
void warnAboutOverlappingProps(const World& world, const SceneLevel& level, const std::vector<BodyId>& props,
                               std::vector<std::string>& warnings) {
    const std::vector<SceneProp>& info = level.props;
    char depth[32], speed[32];
    std::snprintf(speed, sizeof speed, "%g m/s", kMaxPushOutSpeed);
    std::vector<BodyId> near;
    for (size_t i = 0; i < props.size(); ++i) {
        auto say = [&](double d, const std::string& what) {
            std::snprintf(depth, sizeof depth, "%.3g m", d);
            warnings.push_back(placed(level, info[i].line, "prop '" + info[i].name + "' is placed " + depth + " into " + what +
                               ": the solver pushes it out at up to " + speed + " (place it clear)"));
        };
        for (size_t j = 0; j < i; ++j)
            if (const double d = world.overlap(props[i], props[j]); d > kPropOverlapWarning) say(d, "prop '" + info[j].name + "'");
        // The terrain pieces about it only (a level may have thousands).
        const double reach = length(info[i].halfExtents);
        near.clear();
        world.queryAABB({info[i].position - Vec2{reach, reach}, info[i].position + Vec2{reach, reach}}, near);
        double deepest = 0.0;
        for (BodyId piece : near)
            if (world.bodyType(piece) == BodyType::Static) deepest = std::max(deepest, world.overlap(props[i], piece));
        if (deepest > kPropOverlapWarning) say(deepest, "the terrain");
    }
}

/// Props touching where the level puts them (their bounds within a centimetre), one more
/// than kPropMassRatioWarning times the other's mass: squeezed between heavy ones, the
/// light one is pushed out by their whole weight (a 0.2 kg crate between crates of 1000 and
/// 500 kg, the stack nudged, flew off at 30 m/s). Said once per light prop, at its line.
void warnAboutMassRatios(const SceneLevel& level, std::vector<std::string>& warnings) {
    constexpr double kTouching = 0.01;
    const std::vector<SceneProp>& props = level.props;
    auto halfBounds = [](const SceneProp& p) {
        const double c = std::abs(std::cos(p.angle)), s = std::abs(std::sin(p.angle));
        return Vec2{c * p.halfExtents.x + s * p.halfExtents.y, s * p.halfExtents.x + c * p.halfExtents.y};
    };
    for (size_t i = 0; i < props.size(); ++i) {
        size_t heaviest = i;
        for (size_t j = 0; j < props.size(); ++j) {
            const Vec2 reach = halfBounds(props[i]) + halfBounds(props[j]) + Vec2{kTouching, kTouching};
            const Vec2 apart = props[j].position - props[i].position;
            if (j != i && std::abs(apart.x) <= reach.x && std::abs(apart.y) <= reach.y && props[j].mass > props[heaviest].mass)
                heaviest = j;
        }
        if (props[heaviest].mass <= kPropMassRatioWarning * props[i].mass) continue;
        char masses[128];
        std::snprintf(masses, sizeof masses, "' (%g kg) touches prop '%s' (%g kg, %.0f times its mass)", props[i].mass,
                      props[heaviest].name.c_str(), props[heaviest].mass, props[heaviest].mass / props[i].mass);
        warnings.push_back(placed(level, props[i].line, "prop '" + props[i].name + masses +
                                                            ": squeezed, it can be shot out (keep touching props within 1:" +
                                                            std::to_string(int(kPropMassRatioWarning)) + ")"));
    }
}

/// Props, spawns and terrain past the solver's world, where it freezes bodies (a level's
/// numbers go to 10⁶ m).
void warnAboutLeavingTheWorld(double extent, const SceneLevel& level, std::vector<std::string>& warnings) {
    // Terrain reaching past it leads what moves there out of the world: a crate pushed along
    // such ground froze in mid-air at its edge, in the walker's way, unsaid.
    for (const ScenePiece& piece : level.terrain)
        for (Vec2 p : piece.points)
            if (std::abs(p.x) > extent || std::abs(p.y) > extent) {
                char where[160];
                std::snprintf(where, sizeof where, "terrain reaches (%g, %g) m, beyond the solver's world (%g m from the origin each way)",
                              p.x, p.y, extent);
                warnings.push_back(placed(level, piece.line, std::string(where) + ": what moves there is frozen"));
                break;
            }
    auto say = [&](const std::string& what, Vec2 p, int line, const char* outcome) {
        if (std::abs(p.x) <= extent && std::abs(p.y) <= extent) return;
        char where[96];
        std::snprintf(where, sizeof where, " at (%g, %g) m is beyond the solver's world (%g m from the origin", p.x, p.y, extent);
        warnings.push_back(placed(level, line, what + where + " each way): " + outcome));
    };
    for (const SceneProp& prop : level.props) say("prop '" + prop.name + "'", prop.position, prop.line, "it will not move");
    // A character's walk is not the solver's: it moves, but nothing there holds it up.
    for (const SceneSpawn& spawn : level.spawns)
        say("spawn '" + spawn.name + "'", spawn.position, spawn.line, "its bodies will not move, and nothing there holds it up");
}

/// A spawn with nothing under it, terrain or prop, down to the world's edge: it falls as soon
/// as it goes limp or steps, for ever (a level's pit with no floor, a spawn's y mistyped).
void warnAboutSpawnWithoutGround(const World& world, const Character& c, const SceneLevel& level, const SceneSpawn& spawn,
                                 std::vector<std::string>& warnings) {
    const Filter filter = terrainAndProps();
    RayHit hit;
    const Vec2 from = c.root() + Vec2{0.0, 0.01};
    if (std::abs(from.y) > world.def().worldHalfExtent ||
        world.rayCast(from, {from.x, -world.def().worldHalfExtent}, filter, hit))
        return;
    char where[96];
    std::snprintf(where, sizeof where, "' at (%g, %g) m has no ground under it", spawn.position.x, spawn.position.y);
    warnings.push_back(placed(level, spawn.line, "spawn '" + spawn.name + where + ": it falls out of the level (place it over the terrain)"));
}

/// How deep the character's drawn parts, as it stands, reach into the obstacles.
DrawnDepth deepestReach(const World& world, const Character& c, Obstacles obstacles) {
    std::vector<DrawnShape> shapes;
    std::vector<BodyId> scratch;
    drawnShapes(c.rig(), c.bonePoses(), c.appearance().scale, c.drawnMirrored(), shapes);
    return deepestOverlap(world, shapes, obstacles, scratch);
}

/// A spawn inside the terrain: the figure is pushed out of it sideways and stands askew,
/// away from where the level put it (a copy-and-paste slip, said when it loads).
void warnAboutSpawnInTerrain(const World& world, const Character& c, const SceneLevel& level, const SceneSpawn& spawn,
                             std::vector<std::string>& warnings) {
    // Feet under the surface: the figure was lifted onto it (Character::outOfTerrain).
    if (const double lift = c.root().y - spawn.position.y; lift > kSpawnOverlapWarning) {
        char where[128];
        std::snprintf(where, sizeof where, "' at (%g, %g) m has its feet %.3g m inside the terrain: it stands on its surface at y = %.3g m",
                      spawn.position.x, spawn.position.y, lift, c.root().y);
        warnings.push_back(placed(level, spawn.line, "spawn '" + spawn.name + where + " (place it there)"));
        return;
    }
    // Reaching into a wall: the figure was moved beside it (Character::standClearOfTerrain).
    if (const double aside = c.root().x - spawn.position.x; std::abs(aside) > kSpawnOverlapWarning) {
        char where[128];
        std::snprintf(where, sizeof where, "' at (%g, %g) m is inside the terrain: it stands beside it at x = %.3g m, %.3g m to the %s",
                      spawn.position.x, spawn.position.y, c.root().x, std::abs(aside), aside > 0.0 ? "right" : "left");
        warnings.push_back(placed(level, spawn.line, "spawn '" + spawn.name + where + " (place it there)"));
        return;
    }
    const DrawnDepth deepest = deepestReach(world, c, Obstacles::Terrain);
    if (deepest.depth <= kSpawnOverlapWarning) return;
    char where[96];
    std::snprintf(where, sizeof where, "' at (%g, %g) m stands %.3g m inside the terrain", spawn.position.x, spawn.position.y,
                  deepest.depth);
    // Still inside where standing clear of the terrain gave up: terrain over it (a ceiling too
    // low, an overhang), or a gap too narrow for it.
    const Filter filter = terrainAndProps();
    RayHit hit;
    const bool over = world.rayCast(c.root() + Vec2{0.0, 0.01}, c.root() + Vec2{0.0, c.assets().standingHeight}, filter, hit);
    warnings.push_back(placed(level, spawn.line, "spawn '" + spawn.name + where +
                                                     (over ? " over its feet (a ceiling or an overhang too low)" : "") +
                                                     ": no way out was found, and it is left standing in it (place it clear)"));
}

/// A spawn whose standing figure reaches into a prop: the two push each other apart as the
/// level starts, the prop shoved off and the figure held back from where the level put it.
void warnAboutSpawnInProps(const World& world, const Character& c, const SceneLevel& level, const SceneSpawn& spawn,
                           const std::vector<BodyId>& props, std::vector<std::string>& warnings) {
    // Its feet in a prop low enough for the ground probe to find its top: the figure plants
    // its feet up there, its legs bent, and climbs onto it over the first frames (unsaid).
    const Filter filter = terrainAndProps();
    RayHit hit;
    const Vec2 feet = c.root();
    if (world.rayCast(feet + Vec2{0.0, tuning::kGroundProbeUp}, feet, filter, hit) && hit.point.y - feet.y > kSpawnOverlapWarning)
        if (const auto under = std::find(props.begin(), props.end(), hit.body); under != props.end()) {
            char where[160];
            std::snprintf(where, sizeof where, "' at (%g, %g) m has its feet %.3g m inside prop '", spawn.position.x,
                          spawn.position.y, hit.point.y - feet.y);
            char onto[96];
            std::snprintf(onto, sizeof onto, "': it climbs onto it (place it on its top, y = %.3g m, or beside it)", hit.point.y);
            warnings.push_back(placed(level, spawn.line, "spawn '" + spawn.name + where +
                                                             level.props[size_t(under - props.begin())].name + onto));
            return;
        }
    const DrawnDepth deepest = deepestReach(world, c, Obstacles::Props);
    if (deepest.depth <= kSpawnOverlapWarning) return;
    const auto prop = std::find(props.begin(), props.end(), deepest.body);
    if (prop == props.end()) return;
    char where[96];
    std::snprintf(where, sizeof where, "' at (%g, %g) m stands %.3g m inside prop '", spawn.position.x, spawn.position.y,
                  deepest.depth);
    warnings.push_back(placed(level, spawn.line, "spawn '" + spawn.name + where + level.props[size_t(prop - props.begin())].name +
                                                     "': the prop is shoved off and the figure held back (place them apart)"));
}

/// Two spawns whose standing figures overlap: animated characters pass through each other,
/// so they stand one in the other (a copy-and-paste slip, said when it loads).
void warnAboutOverlappingSpawns(const World& world, const std::vector<std::unique_ptr<Character>>& characters,
                                const SceneLevel& level, std::vector<std::string>& warnings) {
    const std::vector<SceneSpawn>& spawns = level.spawns;
    auto bodies = [](const Character& c) -> const std::vector<BodyId>& {
        return c.animatedBodies().empty() ? c.ragdoll().bodies : c.animatedBodies();
    };
    // One warning a spawn, naming the earlier one it goes deepest into (eight spawns pasted
    // on one point make seven warnings, not 28).
    for (size_t j = 0; j < characters.size(); ++j) {
        double deepest = 0.0;
        size_t into = 0;
        int overlapped = 0;
        for (size_t i = 0; i < j; ++i) {
            double depth = 0.0;
            for (BodyId a : bodies(*characters[i]))
                for (BodyId b : bodies(*characters[j])) depth = std::max(depth, world.overlap(a, b));
            if (depth <= kSpawnOverlapWarning) continue;
            ++overlapped;
            if (depth > deepest) {
                deepest = depth;
                into = i;
            }
        }
        if (overlapped == 0) continue;
        char how[48];
        std::snprintf(how, sizeof how, "' stands %.3g m inside spawn '", deepest);
        const std::string more = overlapped == 1 ? "" : " (and " + std::to_string(overlapped - 1) + " more)";
        warnings.push_back(placed(level, spawns[j].line, "spawn '" + spawns[j].name + how + spawns[into].name + "'" + more +
                           ": animated characters pass through each other, so they stand one in the other (place them apart)"));
    }
}

}  // namespace

bool Scene::loadLevel(const SceneLevel& level, std::string& error, std::vector<std::string>* warnings) {
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
        shape.filter.categoryBits = kTerrainCategory;
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
    if (warnings) {
        warnAboutOverlappingProps(fresh, level, props, *warnings);
        warnAboutMassRatios(level, *warnings);
        warnAboutLeavingTheWorld(fresh.def().worldHalfExtent, level, *warnings);
    }
    // Every rig (and its clips) loads before anything changes; a rig shared by several
    // spawns loads once.
    std::map<std::string, std::shared_ptr<const CharacterAssets>> assets;
    std::vector<std::string> errors;
    std::set<std::string> refused;
    for (const SceneSpawn& spawn : level.spawns) {
        if (assets.count(spawn.rigPath) || refused.count(spawn.rigPath)) continue;
        auto loaded = loadCharacterAssets(spawn.rigPath, errors, warnings);
        if (loaded) {
            assets[spawn.rigPath] = std::move(loaded);
            continue;
        }
        // Which spawns name it: in a level of many, the file's own errors did not say.
        refused.insert(spawn.rigPath);
        std::string names;
        int count = 0;
        for (const SceneSpawn& other : level.spawns)
            if (other.rigPath == spawn.rigPath) names += std::string(count++ ? ", '" : "'") + other.name + "'";
        errors.push_back("(" + spawn.rigPath + " is the rig of the level's spawn" + std::string(count > 1 ? "s " : " ") + names + ")");
    }
    if (!errors.empty()) {
        error.clear();
        for (const std::string& e : errors) error += (error.empty() ? "" : "\n") + e;
        return false;
    }

    releaseGrab();
    previewProxy_.reset();
    netPreview_ = NetPreview::Off;
    characters_.clear();
    world_ = std::move(fresh);
    terrain_ = std::move(terrain);
    propBodies_ = std::move(props);
    propInfo_ = level.props;
    assets_ = std::move(assets);
    for (size_t i = 0; i < level.spawns.size(); ++i) {
        const SceneSpawn& spawn = level.spawns[i];
        CharacterDef def;
        def.name = spawn.name;
        def.position = spawn.position;
        def.facingRight = spawn.facingRight;
        def.collisionGroup = -1 - std::int32_t(i);
        characters_.push_back(std::make_unique<Character>(world_, assets_[spawn.rigPath], def));
        if (warnings) {
            warnAboutSpawnInTerrain(world_, *characters_.back(), level, spawn, *warnings);
            warnAboutSpawnWithoutGround(world_, *characters_.back(), level, spawn, *warnings);
            warnAboutSpawnInProps(world_, *characters_.back(), level, spawn, propBodies_, *warnings);
        }
    }
    if (warnings) {
        warnAboutOverlappingSpawns(world_, characters_, level, *warnings);
        sortLevelWarnings(level, *warnings);
    }
    last_ = run_ = {};
    stepMilliseconds_ = charactersMilliseconds_ = 0.0;
    return true;
}

void Scene::setNetPreview(NetPreview preview) {
    if (characters_.empty()) preview = NetPreview::Off;
    netPreview_ = preview;
    if (preview == NetPreview::Off) {
        previewProxy_.reset();
        if (!characters_.empty()) characters_[0]->setRole(NetRole::Standalone);
        return;
    }
    Character& host = *characters_[0];
    host.setRole(NetRole::Host);
    if (!previewProxy_) {
        makePreviewProxy();
        previewProxy_->applyReplicated(host.replicate());
    }
}

void Scene::makePreviewProxy() {
    const Character& host = *characters_[0];
    CharacterDef def = host.def();
    def.name += " (proxy)";
    def.role = NetRole::Proxy;
    def.collisionGroup = -1000;  // owns no bodies; apart from every character all the same
    previewProxy_ = std::make_unique<Character>(world_, host.shared(), def);
}

void Scene::handleInput(const SceneInput& input) {
    if (characters_.empty()) return;
    static constexpr Action kPressOrder[] = {Action::ToggleRagdoll, Action::HitLeft, Action::HitRight, Action::HitAbove,
                                             Action::GetUp,         Action::BlendUp, Action::BlendDown, Action::NetRole};
    for (Action a : kPressOrder)
        if (input.wasPressed(a)) act(0, a);
}

bool Scene::act(int index, Action action) {
    if (index < 0 || index >= characterCount()) return false;
    Character& c = *characters_[size_t(index)];
    const double J = tuning::kHitImpulse;
    // During a get-up, R and the hits act at once: the figure goes limp again where it is.
    switch (action) {
    case Action::ToggleRagdoll: c.toggleRagdoll(); return true;
    case Action::HitLeft: c.hit({J, 0.35 * J}); return true;
    case Action::HitRight: c.hit({-J, 0.35 * J}); return true;
    case Action::HitAbove: c.hit({0.0, -J}); return true;
    case Action::GetUp: c.getUp(); return true;
    case Action::BlendUp: {
        const double w = std::min(1.0, c.blendWeight() + tuning::kBlendStep);
        if (c.mode() == CharacterMode::Animated || c.mode() == CharacterMode::Blend) c.enterBlend(w);
        return true;
    }
    case Action::BlendDown:
        if (c.mode() == CharacterMode::Blend) {
            // The press that brings the weight to 0 leaves BLEND: at 0 the bodies would only
            // follow the animation exactly, which ANIMATED does without them.
            const double w = std::round((c.blendWeight() - tuning::kBlendStep) * 1e6) / 1e6;
            if (w <= 0.0) c.leaveBlend();
            else c.setBlendWeight(w);
        }
        return true;
    case Action::NetRole: setNetPreview(NetPreview((int(netPreview_) + 1) % 3)); return true;
    case Action::Left:
    case Action::Right:
    case Action::Run:
    case Action::Jump:
    case Action::Count: return false;  // held controls, read by the step
    }
    return false;
}

void Scene::step(double dt, const SceneInput& input) {
    if (!(dt > 0.0)) return;
    const auto start = std::chrono::steady_clock::now();
    handleInput(input);
    updateGrab(input);
    CharacterControls controls;
    controls.move = int(input.isHeld(Action::Right)) - int(input.isHeld(Action::Left));
    controls.run = input.isHeld(Action::Run);
    controls.jump = input.wasPressed(Action::Jump);
    for (size_t i = 0; i < characters_.size(); ++i) characters_[i]->preStep(dt, i == 0 ? controls : CharacterControls{});
    if (previewProxy_) previewProxy_->preStep(dt, {});
    world_.step(dt);
    for (auto& character : characters_) character->postStep(dt);
    if (previewProxy_) {
        previewProxy_->postStep(dt);
        previewProxy_->applyReplicated(characters_[0]->replicate());
    }
    measureFigures();
    stepMilliseconds_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    charactersMilliseconds_ = stepMilliseconds_ - world_.stats().stepMilliseconds;
}

void Scene::measureFigures() {
    last_ = {};
    for (const auto& character : characters_) {
        for (JointId joint : character->ragdoll().joints) {
            const JointError e = world_.jointError(joint);
            last_.stretch = std::max(last_.stretch, e.separation);
            last_.limitViolation = std::max(last_.limitViolation, e.limitViolation);
        }
        drawnShapes(character->rig(), character->bonePoses(), character->appearance().scale, character->drawnMirrored(),
                    drawn_);
        last_.visualDepth =
            std::max(last_.visualDepth, deepestOverlap(world_, drawn_, Obstacles::TerrainAndProps, scratch_).depth);
    }
    run_.stretch = std::max(run_.stretch, last_.stretch);
    run_.limitViolation = std::max(run_.limitViolation, last_.limitViolation);
    run_.visualDepth = std::max(run_.visualDepth, last_.visualDepth);
}

// ---- the mouse grab: a soft pin between the body and a kinematic anchor at the mouse ----

void Scene::updateGrab(const SceneInput& input) {
    const bool down = input.mouseLeftDown;
    const Vec2 mouse = input.mouseWorld;
    const bool pressedNow = down && !mouseWasDown_;
    mouseWasDown_ = down;
    if (!down) {
        releaseGrab();
        return;
    }
    if (!isFinite(mouse)) return;
    grabTarget_ = mouse;
    if (grabbing()) {
        // The pull is the pin's stiffness times how far the anchor leads the grabbed point:
        // bounded (kGrabMaxLead), a body dragged into the ground or another presses on it
        // instead of being driven through it.
        const Vec2 at = grabPoint(), lead = mouse - at;
        const double far = length(lead);
        const Vec2 target = far > tuning::kGrabMaxLead ? at + (tuning::kGrabMaxLead / far) * lead : mouse;
        world_.setKinematicTarget(grabAnchor_, target, 0.0, 1.0 / 60.0);
        return;
    }
    if (!pressedNow) return;
    // The nearest dynamic body within a finger's width; one that follows a standing
    // character's bones knocks it into a ragdoll and grabs its nearest limb.
    constexpr double kReach = 0.08;
    auto pick = [&](bool dynamicOnly) {
        std::vector<BodyId> candidates;
        world_.queryAABB({{mouse.x - kReach, mouse.y - kReach}, {mouse.x + kReach, mouse.y + kReach}}, candidates);
        BodyId best;
        double bestDistance = kReach;
        for (BodyId body : candidates) {
            if (dynamicOnly && world_.bodyType(body) != BodyType::Dynamic) continue;
            const double d = distanceOutside(world_, body, mouse);
            if (d < bestDistance) {
                bestDistance = d;
                best = body;
            }
        }
        return best;
    };
    BodyId body = pick(false);
    for (auto& character : characters_)
        if (!isNull(body) && std::find(character->animatedBodies().begin(), character->animatedBodies().end(), body) !=
                                 character->animatedBodies().end()) {
            character->enterRagdoll();
            body = {};
            double bestDistance = 1e9;
            for (BodyId limb : character->ragdoll().bodies) {
                const double d = distanceOutside(world_, limb, mouse);
                if (d < bestDistance) {
                    bestDistance = d;
                    body = limb;
                }
            }
        }
    if (isNull(body) || world_.bodyType(body) != BodyType::Dynamic) return;
    BodyDef anchorDef = defaultBodyDef();
    anchorDef.type = BodyType::Kinematic;
    anchorDef.position = mouse;
    grabAnchor_ = world_.createBody(anchorDef);
    JointDef joint = makeRevoluteJointDef(world_, grabAnchor_, body, mouse);
    joint.stiffness = tuning::kGrabStiffness;
    joint.angularDamping = 0.0;
    grabJoint_ = world_.createJoint(joint);
    grabBody_ = body;
    world_.wake(body);
}

void Scene::releaseGrab() {
    if (!isNull(grabJoint_)) world_.destroyJoint(grabJoint_);
    if (!isNull(grabAnchor_)) world_.destroyBody(grabAnchor_);
    grabJoint_ = {};
    grabAnchor_ = {};
    grabBody_ = {};
}

Vec2 Scene::grabPoint() const {
    if (!grabbing()) return {};
    return transformPoint(world_.bodyTransform(grabBody_), world_.jointDef(grabJoint_).localAnchorB);
}

std::vector<Scene::PropView> Scene::props() const {
    std::vector<PropView> out;
    for (size_t i = 0; i < propBodies_.size(); ++i)
        out.push_back({world_.bodyTransform(propBodies_[i]), propInfo_[i].halfExtents, propInfo_[i].rgba,
                       &propInfo_[i].name, world_.bodyState(propBodies_[i]).awake});
    return out;
}

const std::vector<SceneProperty>& Scene::propertyList() { return kProperties; }

void Scene::setTaskSystem(const TaskSystem& available) {
    available_ = available;
    setThreads(threads_);
}

void Scene::setThreads(int threads) {
    threads_ = std::clamp(threads, 1, kMaxWorkers);
    // The setting asks; the host's workers are what there is (the world runs one without
    // a job service's callbacks).
    TaskSystem tasks = available_;
    tasks.workerCount = std::min(threads_, available_.workerCount);
    world_.setTaskSystem(tasks);
}

double Scene::property(int index) const {
    const WorldDef& d = world_.def();
    switch (index) {
    case 0: return d.substeps;
    case 1: return d.iterations;
    case 2: return d.gravity.y;
    case 3: return d.jointSolver == JointSolver::Direct ? 1.0 : 0.0;
    case 4: return d.enableSleep ? 1.0 : 0.0;
    case 5: return paperLook_ ? 1.0 : 0.0;
    case 6: return threads_;
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
    case 5: paperLook_ = value != 0.0; break;
    case 6: setThreads(int(std::lround(value))); break;
    }
    return true;
}

}  // namespace ragdoll
