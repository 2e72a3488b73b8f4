// Characters where they meet the world: props pushed by the animated figure (kinematic
// bodies on the bones), get-ups that keep the drawn figure out of ramps and stairs, and the
// deepest any drawn part reaches into terrain or props (the player's run_max_visual_depth_m).
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <utility>

#include "character/character_tuning.h"
#include "character/drawn_shapes.h"
#include "harness.h"
#include "run_process.h"
#include "solver/collide.h"
#include "solver/constants.h"

using namespace ragdoll;
using test::bit;
using test::box;
using test::flatLevel;
using test::rampLevel;

namespace {

constexpr double kDt = 1.0 / 60.0;

SceneProp crate(const char* name, Vec2 centre, double size, double mass) {
    SceneProp p;
    p.name = name;
    p.position = centre;
    p.halfExtents = {0.5 * size, 0.5 * size};
    p.mass = mass;
    p.rgba = 0xff4080c0u;
    return p;
}

void load(Scene& scene, const SceneLevel& level) {
    std::string error;
    const bool loaded = scene.loadLevel(level, error);
    INFO(error);
    REQUIRE(loaded);
}

/// Runs until the character is animated again (or the time runs out); the deepest drawn
/// overlap at the end of any of those steps.
double runGetUp(Scene& scene, double maxSeconds = 6.0) {
    Character& c = scene.character(0);
    double deepest = 0.0;
    for (int i = 0; i < int(maxSeconds / kDt) && c.mode() == CharacterMode::GettingUp; ++i) {
        test::run(scene, 1);
        deepest = std::max(deepest, scene.lastFigures().visualDepth);
    }
    return deepest;
}

}  // namespace

TEST_CASE("Walkers and runners climb steep ramps on the surface, never sinking into them", "[world][terrain]") {
    // The root rose at most 0.8 m/s: running (3.5 m/s) up a ramp past 13°, or walking up one
    // past 32°, it sank under the surface until the ground probe started inside the ramp and
    // missed it, and the figure fell through the terrain and out under the world.
    struct Climb {
        const char* name;
        double degrees, length;
        bool running;
    };
    for (const Climb& climb : {Climb{"running up a 10 m ramp of 20°", 20.0, 10.0, true},
                               Climb{"running up a 3 m ramp of 30°", 30.0, 3.0, true},
                               Climb{"walking up a 6 m ramp of 36°", 36.0, 6.0, false}}) {
        Scene scene;
        SceneLevel level = flatLevel();
        const double rise = climb.length * std::tan(climb.degrees * kPi / 180.0);
        level.terrain.push_back({{{2.0, 0.0}, {2.0 + climb.length, 0.0}, {2.0 + climb.length, rise}}, 0.7, 0.0});
        level.terrain.push_back(box(2.0 + climb.length, 0.0, 2.0 + climb.length + 40.0, rise));  // past an 8 s run
        load(scene, level);
        Character& c = scene.character(0);
        const std::uint64_t held = bit(Action::Right) | (climb.running ? bit(Action::Run) : 0);
        double deepest = 0.0, lowestUnder = 0.0;  // the root's most under the surface, m
        for (int i = 0; i < 480; ++i) {  // 8 s: over the top, walking or running
            test::run(scene, 1, test::input(held));
            deepest = std::max(deepest, scene.lastFigures().visualDepth);
            const double x = c.root().x;
            const double surface = x < 2.0 ? 0.0 : x < 2.0 + climb.length ? (x - 2.0) / climb.length * rise : rise;
            lowestUnder = std::max(lowestUnder, surface - c.root().y);
        }
        INFO(climb.name << ": the root at (" << c.root().x << ", " << c.root().y << "); deepest drawn part " << deepest
                        << " m; the root at most " << lowestUnder << " m under the surface");
        CHECK(c.mode() == CharacterMode::Animated);
        CHECK(c.root().x > 2.0 + climb.length);  // over the top, on the platform
        CHECK(c.root().y == Approx(rise).margin(0.01));
        CHECK(deepest < 0.02);
        CHECK(lowestUnder < tuning::kMaxGroundLag + 0.01);
    }
}

TEST_CASE("A ramp steeper than the walkable slope (50°) is a wall from its foot, up to it, one is climbed", "[world][terrain]") {
    // Climbed as stairs, a 50-55° ramp left the walker standing half way up it, one leg in
    // the air, once its knee probe met the slope (a 60° one stopped it at the foot).
    for (const double degrees : {40.0, 48.0, 52.0, 55.0, 65.0}) {
        CAPTURE(degrees);
        Scene scene;
        load(scene, rampLevel(degrees, "stickman.level.xml"));
        Character& c = scene.character(0);
        double deepest = 0.0;
        for (int i = 0; i < 240; ++i) {  // 4 s: onto the 4 m platform, not off its far end
            test::run(scene, 1, test::input(bit(Action::Right)));
            deepest = std::max(deepest, scene.lastFigures().visualDepth);
        }
        INFO("the root at (" << c.root().x << ", " << c.root().y << "), deepest drawn part " << deepest << " m");
        CHECK(deepest < 0.02);
        const bool walkable = std::tan(degrees * kPi / 180.0) <= tuning::kMaxSlope;
        if (walkable) {
            CHECK(c.root().y == Approx(1.5).margin(0.01));  // up on the platform
        } else {
            CHECK(c.root().y == Approx(0.0).margin(1e-9));  // at the foot, standing
            CHECK(c.root().x < 2.0);
            CHECK(c.root().x > 2.0 - tuning::kWallClearance - tuning::kBlockedMargin - 0.05);
            CHECK(c.clip() == &c.assets().clip(ClipRole::Idle));
        }
    }
    // A kerb 10 cm high with a 59° bevel (or 5 cm at 63°) is stepped over, as a square one is:
    // its face is steep, but its top comes within a step.
    for (const double height : {0.1, 0.05}) {
        CAPTURE(height);
        Scene scene;
        SceneLevel level = flatLevel("stickman.level.xml");
        level.terrain.push_back({{{2.0, 0.0}, {3.0, 0.0}, {3.0, height}, {2.0 + 0.6 * height, height}}, 0.7, 0.0});
        load(scene, level);
        test::run(scene, 240, test::input(bit(Action::Right)));
        CHECK(scene.character(0).root().x > 4.0);
    }
}

TEST_CASE("A walker held at a wall or a steep stair stands, not walking in place through it", "[world][terrain]") {
    // Stopped by the wall probe, the figure walked on in place: the paper doll's shoe went
    // 157-183 mm into the wall each stride, the stickman's shin 169 mm into a 0.4 m step of
    // stairs whose next riser stopped it. It stands idle there now, facing it.
    struct Stop {
        const char* name;
        const char* levelFile;
        std::vector<ScenePiece> pieces;
    };
    std::vector<ScenePiece> steep;  // 0.4 m steps on 0.25 m treads from x = 3
    for (int i = 0; i < 5; ++i) steep.push_back(box(3.0 + 0.25 * i, 0.0, 3.25 + 0.25 * i, 0.4 * (i + 1)));
    for (const Stop& stop : {Stop{"the paper doll at a wall", "harness.level.xml", {box(3.0, 0.0, 4.0, 2.0)}},
                             Stop{"the stickman at steep stairs", "stickman.level.xml", steep}}) {
        Scene scene;
        SceneLevel level = flatLevel(stop.levelFile);
        level.terrain.insert(level.terrain.end(), stop.pieces.begin(), stop.pieces.end());
        load(scene, level);
        Character& c = scene.character(0);
        double deepest = 0.0, heldAt = 0.0;
        for (int i = 0; i < 480; ++i) {
            test::run(scene, 1, test::input(bit(Action::Right)));
            deepest = std::max(deepest, scene.lastFigures().visualDepth);
            if (i == 360) heldAt = c.root().x;
        }
        INFO(stop.name << ": held at x = " << c.root().x << "; deepest drawn part " << deepest << " m");
        CHECK(c.root().x == heldAt);  // held for the last 2 s
        CHECK(c.root().x < 3.0);
        CHECK(deepest < 0.01);
    }
}

TEST_CASE("A runner that shoves a crate against a wall does not pass through the wall", "[world][props]") {
    // The crate pinned against the wall, the runner's foot in it was moved out of it forward,
    // into the wall, 0.15-0.25 m a step, until the figure stood on the wall's far side.
    Scene scene;
    SceneLevel level = flatLevel("stickman.level.xml");  // the paper doll does not get through
    level.terrain.push_back(box(5.75, 0.0, 6.25, 3.0));
    level.props.push_back(crate("crate", {4.5, 0.2}, 0.4, 3.0));
    load(scene, level);
    Character& c = scene.character(0);
    double furthest = 0.0;
    for (int i = 0; i < 240; ++i) {
        test::run(scene, 1, test::input(bit(Action::Right) | bit(Action::Run)));
        furthest = std::max(furthest, c.root().x);
    }
    INFO("the runner at (" << c.root().x << ", " << c.root().y << "), at most x = " << furthest << "; the crate at x = "
                           << scene.props()[0].transform.p.x);
    CHECK(c.mode() == CharacterMode::Animated);
    CHECK(furthest < 5.75 - 0.2);  // the wall's face, less the body's half width
}

TEST_CASE("A walker stops where the headroom ahead is lower than its head, and walks under a higher one", "[world][terrain]") {
    // Nothing but a knee-high probe stopped the walk: under a slab 1.2 m up, a beam from 1.0
    // to 1.3 m, a slanted ceiling or a ceiling over a ramp the walker went on, drawn through
    // them (a beam: 448 mm deep). It stops in front of them now, as at a wall; under a slab
    // 2.1 m up it walks on. Both rigs.
    struct Headroom {
        const char* name;
        std::vector<ScenePiece> pieces;
        double stopBefore;  ///< x the root stays short of (0: it walks under, past x = 5)
    };
    const ScenePiece ramp{{{3.0, 0.0}, {5.75, 0.0}, {5.75, 1.0}}, 0.7, 0.0};  // 20° up to a platform 1 m high
    const std::vector<Headroom> cases = {
        {"a slab 1.2 m up", {box(2.0, 1.2, 7.0, 2.0)}, 2.0},
        {"a beam from 1.0 to 1.3 m", {box(2.0, 1.0, 7.0, 1.3)}, 2.0},
        {"a ceiling sloping from 2.5 m down to 1.2 m", {{{{4.0, 2.5}, {8.0, 1.2}, {8.0, 3.0}, {4.0, 3.0}}, 0.6, 0.0}}, 6.2},
        {"a ceiling 1.6 m over a ramp's platform", {ramp, box(5.75, 0.0, 9.25, 1.0), box(4.5, 2.6, 9.5, 3.0)}, 5.2},
        {"a slab 2.1 m up", {box(2.0, 2.1, 7.0, 2.9)}, 0.0},
    };
    for (const char* levelFile : {"harness.level.xml", "stickman.level.xml"})
        for (const Headroom& room : cases) {
            Scene scene;
            SceneLevel level = flatLevel(levelFile);
            level.terrain.insert(level.terrain.end(), room.pieces.begin(), room.pieces.end());
            load(scene, level);
            Character& c = scene.character(0);
            double deepest = 0.0;
            for (int i = 0; i < 480; ++i) {
                test::run(scene, 1, test::input(bit(Action::Right)));
                deepest = std::max(deepest, scene.lastFigures().visualDepth);
            }
            INFO(levelFile << ", " << room.name << ": the walker at (" << c.root().x << ", " << c.root().y << "); deepest "
                           << deepest << " m");
            CHECK(deepest < 0.01);
            if (room.stopBefore > 0.0) CHECK(c.root().x < room.stopBefore);
            else CHECK(c.root().x > 5.0);
        }
}

TEST_CASE("A walker shoves a crate that has slept for a second, and no drawn limb enters it", "[world][props]") {
    Scene scene;
    SceneLevel level = flatLevel();
    level.props.push_back(crate("crate", {1.3, 0.2}, 0.4, 2.0));
    load(scene, level);
    Character& c = scene.character(0);
    // The crate settles and sleeps; then it sleeps a full second more.
    int asleepSteps = 0;
    for (int i = 0; i < 600 && asleepSteps < 60; ++i) {
        test::run(scene, 1);
        asleepSteps = scene.props()[0].awake ? 0 : asleepSteps + 1;
    }
    REQUIRE(asleepSteps == 60);
    const Vec2 start = scene.props()[0].transform.p;
    double deepest = 0.0;
    for (int i = 0; i < 180; ++i) {
        test::run(scene, 1, test::input(bit(Action::Right)));
        deepest = std::max(deepest, scene.lastFigures().visualDepth);
    }
    const double pushed = scene.props()[0].transform.p.x - start.x;
    INFO("crate pushed " << pushed << " m; the walker at x = " << c.root().x << "; deepest drawn overlap " << deepest << " m");
    CHECK(pushed >= 0.3);
    CHECK(deepest <= kLinearSlop);
    CHECK(c.mode() == CharacterMode::Animated);
}

TEST_CASE("Standing still by a riser, the feet stay on their own step", "[world][terrain]") {
    // A toe against the next step's riser lifted the leg pass after pass: an idle figure
    // standing there hung its foot 19 cm over its step, crouched. With the riser anywhere
    // from touching the foot to clear of it, each ankle stays where it stands on flat ground.
    double restAnkle[2] = {0.0, 0.0};
    double worst = 0.0, worstAt = 0.0;
    for (int i = -1; i <= 15; ++i) {
        const double riser = 0.05 + 0.02 * i;  // x of the step's face; i = -1: no step
        Scene scene;
        SceneLevel level = flatLevel();  // the paper doll, which has feet
        if (i >= 0) level.terrain.push_back(box(riser, 0.0, riser + 0.4, 0.18));
        load(scene, level);
        Character& c = scene.character(0);
        test::run(scene, 30);
        const RigDefinition& rig = c.rig();
        for (int side = 0; side < 2; ++side) {
            const int foot = rig.findBone(side == 0 ? "foot_L" : "foot_R");
            REQUIRE(foot >= 0);
            const double ankle = c.bonePoses()[size_t(foot)].origin.y;
            if (i < 0) restAnkle[side] = ankle;
            else if (ankle - restAnkle[side] > worst) worst = ankle - restAnkle[side], worstAt = riser;
        }
    }
    INFO("an ankle rose at most " << worst << " m, the riser at x = " << worstAt << " m");
    CHECK(worst < 0.02);
}

TEST_CASE("A get-up is refused in mid-air and taken once the ragdoll is down", "[world][getup]") {
    // G pressed while falling off a 3 m ledge stood the figure up in mid-air, where it hovered
    // for half a second before dropping.
    Scene scene;
    SceneLevel level = flatLevel("stickman.level.xml");
    level.terrain.push_back(box(-3.0, 0.0, 1.0, 3.0));
    level.spawns[0].position = {0.0, 3.0};
    load(scene, level);
    Character& c = scene.character(0);
    for (int i = 0; i < 240 && c.grounded(); ++i) test::run(scene, 1, test::input(bit(Action::Right)));
    REQUIRE_FALSE(c.grounded());  // walked off the edge
    scene.step(kDt, test::input(0, bit(Action::ToggleRagdoll)));
    REQUIRE(c.mode() == CharacterMode::Ragdoll);
    test::run(scene, 3);
    scene.step(kDt, test::input(0, bit(Action::GetUp)));
    CHECK(c.mode() == CharacterMode::Ragdoll);  // refused: still falling
    test::run(scene, 120);
    scene.step(kDt, test::input(0, bit(Action::GetUp)));
    CHECK(c.mode() == CharacterMode::GettingUp);  // down on the ground: taken
    CHECK(c.root().y == Approx(0.0).margin(0.01));
}

TEST_CASE("A prop ten times the walker's mass is met as terrain: a low slab stepped over, a tall crate stood at",
          "[world][props]") {
    // Walking into a 1000 kg slab 25 cm tall, the stepping shin was held back out of its edge
    // and the walk surged at it again: back and forth 28 cm each stride, the walk playing.
    struct Case {
        const char* name;
        Vec2 centre, halfExtents;
        double mass;
    };
    for (const Case& k : {Case{"a 1000 kg slab 25 cm tall", {2.5, 0.125}, {0.5, 0.125}, 1000.0},
                          Case{"a 1000 kg crate 1 m tall", {2.3, 0.5}, {0.3, 0.5}, 1000.0},
                          Case{"a 1000 kg beam at the hips, on a pillar", {3.5, 0.8}, {1.5, 0.1}, 1000.0},
                          Case{"a 100 kg crate 40 cm tall", {2.3, 0.2}, {0.2, 0.2}, 100.0}}) {
        CAPTURE(k.name);
        Scene scene;
        SceneLevel level = flatLevel("stickman.level.xml");
        if (k.centre.y - k.halfExtents.y > 0.01) level.terrain.push_back(box(3.0, 0.0, 3.5, 0.7));  // a beam's pillar
        SceneProp prop = crate("prop", k.centre, 0.0, k.mass);
        prop.halfExtents = k.halfExtents;
        level.props.push_back(prop);
        load(scene, level);
        Character& c = scene.character(0);
        double deepest = 0.0, mostBack = 0.0, furthest = c.root().x;
        for (int i = 0; i < 300; ++i) {  // 5 s
            test::run(scene, 1, test::input(bit(Action::Right)));
            deepest = std::max(deepest, scene.lastFigures().visualDepth);
            furthest = std::max(furthest, c.root().x);
            mostBack = std::max(mostBack, furthest - c.root().x);
        }
        const Vec2 moved = scene.props()[0].transform.p - k.centre;
        INFO("the root at (" << c.root().x << ", " << c.root().y << "), back at most " << mostBack
                             << " m; the prop moved (" << moved.x << ", " << moved.y << ") m; deepest drawn part " << deepest);
        CHECK(deepest < 0.02);
        if (k.mass < 10.0 * c.rig().totalMass()) {
            CHECK(moved.x > 0.3);  // pushed along
            continue;
        }
        CHECK(mostBack < 0.005);  // never held back: no going back and forth
        if (k.centre.y - k.halfExtents.y < 0.01 && k.halfExtents.y < 0.2) {
            CHECK(c.root().x > k.centre.x + k.halfExtents.x);  // over it, and beyond
            CHECK(std::abs(moved.x) < 0.05);
        } else {
            CHECK(c.clip() == &c.assets().clip(ClipRole::Idle));  // standing at it
            CHECK(c.root().x < k.centre.x - k.halfExtents.x - tuning::kWallClearance + 0.01);
            CHECK(std::abs(moved.x) < 0.01);
        }
    }
}

TEST_CASE("A jump under a ceiling stops at it, and a ragdoll let go there falls back to the ground", "[world][jump]") {
    // Under a slab 2 m up (the stickman's head reaches 1.92 m), a jump drove the figure 35 cm into it;
    // limp mid-jump, the ragdoll hung in the slab, and got up standing on top of it.
    for (const bool limp : {false, true}) {
        CAPTURE(limp);
        Scene scene;
        SceneLevel level = flatLevel("stickman.level.xml");
        level.terrain.push_back(box(-3.0, 2.0, 3.0, 2.2));
        load(scene, level);
        Character& c = scene.character(0);
        scene.step(kDt, test::input(0, bit(Action::Jump)));
        REQUIRE_FALSE(c.grounded());
        double deepest = 0.0, highest = 0.0;
        for (int i = 0; i < 90; ++i) {
            scene.step(kDt, test::input(0, limp && i == 24 ? bit(Action::ToggleRagdoll) : 0));
            deepest = std::max(deepest, scene.lastFigures().visualDepth);
            highest = std::max(highest, c.root().y);
        }
        CHECK(highest > 0.06);  // it did jump, into the 8 cm between its head's top (1.92 m) and the slab
        CHECK(deepest < 0.02);
        if (limp) {
            REQUIRE(c.mode() == CharacterMode::Ragdoll);
            test::run(scene, 60);
            scene.step(kDt, test::input(0, bit(Action::GetUp)));
            REQUIRE(c.mode() == CharacterMode::GettingUp);
            CHECK(c.root().y == Approx(0.0).margin(0.01));  // on the ground, under the slab
        } else {
            CHECK(c.grounded());
            CHECK(c.root().y == Approx(0.0).margin(1e-9));
        }
    }
}

TEST_CASE("Touching props more than 1000 times apart in mass are warned about when the level loads", "[world][props]") {
    // A 0.2 kg crate between crates of 1000 and 500 kg, the stack nudged, flew off at 30 m/s,
    // unsaid. A 100:1 stack behaves, and is not warned about.
    Scene scene;
    SceneLevel level = flatLevel();
    level.props.push_back(crate("heavy", {3.0, 0.5}, 1.0, 1000.0));
    level.props.push_back(crate("light", {3.0, 1.1}, 0.2, 0.2));
    level.props.push_back(crate("apart", {8.0, 0.1}, 0.2, 0.2));  // alone: nothing to say
    level.props.push_back(crate("base", {12.0, 0.5}, 1.0, 100.0));
    level.props.push_back(crate("lid", {12.0, 1.1}, 0.2, 1.0));  // 1:100
    std::string error;
    std::vector<std::string> warnings;
    REQUIRE(scene.loadLevel(level, error, &warnings));
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0] == "prop 'light' (0.2 kg) touches prop 'heavy' (1000 kg, 5000 times its mass): squeezed, it can be "
                         "shot out (keep touching props within 1:1000)");
}

TEST_CASE("A spawn with no ground under it is warned about when the level loads", "[world][terrain]") {
    // Over the end of the ground (flatLevel's runs to x = 30): it fell for ever, unsaid. One
    // over a crate over the ground, and one on the ground, are not warned about.
    Scene scene;
    SceneLevel level = flatLevel();
    level.props.push_back(crate("crate", {5.0, 0.25}, 0.5, 3.0));
    level.spawns.push_back(level.spawns[0]);
    level.spawns.back().name = "over the edge";
    level.spawns.back().position = {31.0, 0.0};
    level.spawns.push_back(level.spawns[0]);
    level.spawns.back().name = "on the crate";
    level.spawns.back().position = {5.0, 0.5};
    std::string error;
    std::vector<std::string> warnings;
    REQUIRE(scene.loadLevel(level, error, &warnings));
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0] == "spawn 'over the edge' at (31, 0) m has no ground under it: it falls out of the level (place it over the terrain)");
}

TEST_CASE("A spawn standing in a prop is warned about when the level loads", "[world][props]") {
    // A 0.5 m crate placed at a stickman's chest: the crate was shoved off and the figure held
    // back half a metre from its spawn, its drawn parts 17 cm in the crate, unsaid. A crate
    // at its feet's side, touching, is not warned about.
    Scene scene;
    SceneLevel level = flatLevel("stickman.level.xml");
    level.spawns[0].position = {0.0, 0.0};
    level.props.push_back(crate("beside", {-0.6, 0.25}, 0.5, 3.0));
    level.props.push_back(crate("in the way", {0.0, 0.9}, 0.5, 5.0));
    std::string error;
    std::vector<std::string> warnings;
    REQUIRE(scene.loadLevel(level, error, &warnings));
    REQUIRE(warnings.size() == 1);
    CHECK_THAT(warnings[0], Catch::Matchers::StartsWith("spawn 'player' at (0, 0) m stands 0.") &&
                                Catch::Matchers::EndsWith(" m inside prop 'in the way': the prop is shoved off and the "
                                                          "figure held back (place them apart)"));
    // What it says happens: after a second the crate is off the figure and the figure moved.
    test::run(scene, 60);
    CHECK(std::abs(scene.character(0).root().x) > 0.1);

    level.props.pop_back();
    warnings.clear();
    REQUIRE(scene.loadLevel(level, error, &warnings));
    CHECK(warnings.empty());

    // Its feet in a 0.5 m crate: the feet were planted on the crate's top, the legs bent, and
    // the figure climbed onto it over the first frames, unsaid. Placed on its top: nothing.
    level.props.push_back(crate("underfoot", {0.05, 0.25}, 0.5, 5.0));
    warnings.clear();
    REQUIRE(scene.loadLevel(level, error, &warnings));
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0] == "spawn 'player' at (0, 0) m has its feet 0.5 m inside prop 'underfoot': it climbs onto it "
                         "(place it on its top, y = 0.5 m, or beside it)");
    test::run(scene, 60);
    CHECK(scene.character(0).root().y == Approx(0.5).margin(0.01));  // as said
    level.spawns[0].position = {0.0, 0.5};
    warnings.clear();
    REQUIRE(scene.loadLevel(level, error, &warnings));
    CHECK(warnings.empty());
}

TEST_CASE("Props and spawns a level places inside one another, in the terrain or out of the world are warned about when it loads", "[world][props]") {
    // Two crates in one place (a copy-and-paste slip) are pushed apart, one sunk 10 cm into
    // the ground up out of it: neither where the level put it.
    Scene scene;
    SceneLevel level = flatLevel();
    level.props.push_back(crate("stacked", {3.0, 0.25}, 0.5, 3.0));
    level.props.push_back(crate("copy", {3.0, 0.25}, 0.5, 3.0));
    level.props.push_back(crate("sunk", {6.0, 0.15}, 0.5, 3.0));
    level.props.push_back(crate("resting", {9.0, 0.25}, 0.5, 3.0));  // on the ground: no warning
    level.props.push_back(crate("on top", {9.0, 0.75}, 0.5, 3.0));  // on the one under it: none
    std::string error;
    std::vector<std::string> warnings;
    REQUIRE(scene.loadLevel(level, error, &warnings));
    REQUIRE(warnings.size() == 2);
    CHECK(warnings[0] == "prop 'copy' is placed 0.5 m into prop 'stacked': the solver pushes it out at up to 3 m/s (place it clear)");
    CHECK(warnings[1] == "prop 'sunk' is placed 0.1 m into the terrain: the solver pushes it out at up to 3 m/s (place it clear)");

    // Far out, past the solver's world, a prop does not move at all (a level takes numbers
    // to 10⁶ m): said too.
    level.props = {crate("far", {3.0, 10000.0}, 0.5, 3.0)};
    warnings.clear();
    REQUIRE(scene.loadLevel(level, error, &warnings));
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0] == "prop 'far' at (3, 10000) m is beyond the solver's world (1000 m from the origin each way): it will not move");

    // Ground reaching past it: a crate pushed along it froze in mid-air at its edge, unsaid.
    level.props.clear();
    level.terrain.push_back(box(900.0, -1.0, 1010.0, 0.0));
    warnings.clear();
    REQUIRE(scene.loadLevel(level, error, &warnings));
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0] == "terrain reaches (1010, -1) m, beyond the solver's world (1000 m from the origin each way): what moves "
                         "there is frozen");
    level.terrain.pop_back();

    // A spawn reaching into a wall (its feet beside it, its arm and body in it): the figure
    // stands beside it, its position with it (it had been drawn there while its position,
    // and its walk, stayed in the wall).
    level.props.clear();
    level.terrain.push_back(box(5.0, 0.0, 7.0, 3.0));
    level.spawns[0].position = {7.05, 0.0};
    warnings.clear();
    REQUIRE(scene.loadLevel(level, error, &warnings));
    REQUIRE(warnings.size() == 1);
    CHECK_THAT(warnings[0], Catch::StartsWith("spawn '" + level.spawns[0].name + "' at (7.05, 0) m is inside the terrain: "
                                              "it stands beside it at x = ") &&
                                Catch::EndsWith(" m to the right (place it there)"));
    const Character& beside = scene.character(0);
    CHECK(beside.root().x > 7.05);
    CHECK(beside.root().y == Approx(0.0).margin(1e-9));
    test::run(scene, 30);
    CHECK(scene.lastFigures().visualDepth <= tuning::kPoseTerrainTolerance);
    CHECK(beside.root().x > 7.05);

    // Its feet on the ground under a block (which stands on it): the feet touch the block's
    // underside, not inside it, and the figure stood in the block, squatting out of it over
    // half a second. It stands out of the block the nearest way: in the middle of this 3 m
    // cube, beside it (1 m) rather than on its top (3 m); 15 cm into it, beside it (it had
    // been put on the top, 3 m up); on a block 0.3 m tall, on its top.
    for (const auto& [x, top] : {std::pair{6.0, false}, std::pair{6.85, false}, std::pair{10.0, true}}) {
        level.terrain.resize(2);
        level.terrain.push_back(box(9.0, 0.0, 11.0, 0.3));
        level.spawns[0].position = {x, 0.0};
        warnings.clear();
        REQUIRE(scene.loadLevel(level, error, &warnings));
        REQUIRE(warnings.size() == 1);
        const Character& c = scene.character(0);
        INFO("spawned at x = " << x << ": stands at (" << c.root().x << ", " << c.root().y << "); " << warnings[0]);
        if (top) {
            CHECK_THAT(warnings[0], Catch::Contains("has its feet 0.3 m inside the terrain: it stands on its surface at y = 0.3 m"));
            CHECK(c.root().y == Approx(0.3).margin(1e-6));
        } else {
            CHECK_THAT(warnings[0], Catch::Contains("is inside the terrain: it stands beside it at x = "));
            CHECK(c.root().y == Approx(0.0).margin(1e-9));
            CHECK((c.root().x < 5.0 || c.root().x > 7.0));
        }
        test::run(scene, 30);
        CHECK(scene.lastFigures().visualDepth <= tuning::kPoseTerrainTolerance);
    }
    level.terrain.resize(2);
    level.spawns[0].position = {2.0, 0.0};  // beside it: nothing to say
    warnings.clear();
    REQUIRE(scene.loadLevel(level, error, &warnings));
    CHECK(warnings.empty());

    // Under a shelf lower than its head, its feet on the ground: left standing in the shelf,
    // and said so (the warning promised a push-out that nothing made).
    level.terrain.push_back(box(1.0, 1.2, 3.0, 1.4));
    warnings.clear();
    REQUIRE(scene.loadLevel(level, error, &warnings));
    REQUIRE(warnings.size() == 1);
    CHECK_THAT(warnings[0], Catch::StartsWith("spawn '" + level.spawns[0].name + "' at (2, 0) m stands ") &&
                                Catch::EndsWith(" m inside the terrain over its feet (a ceiling or an overhang too low): no "
                                                "way out was found, and it is left standing in it (place it clear)"));
    test::run(scene, 30);
    CHECK(scene.character(0).root().x == Approx(2.0).margin(1e-9));
    CHECK(scene.character(0).root().y == Approx(0.0).margin(1e-9));
    level.terrain.resize(2);
    // Between two walls 12 cm apart: no ceiling to speak of.
    level.terrain.push_back(box(-1.0, 0.0, 1.94, 3.0));
    level.terrain.push_back(box(2.06, 0.0, 5.0, 3.0));
    warnings.clear();
    REQUIRE(scene.loadLevel(level, error, &warnings));
    REQUIRE(warnings.size() == 1);
    CHECK_THAT(warnings[0], Catch::StartsWith("spawn '" + level.spawns[0].name + "' at (2, 0) m stands ") &&
                                Catch::EndsWith(" m inside the terrain: no way out was found, and it is left standing in it "
                                                "(place it clear)"));
    level.terrain.resize(2);

    // A spawn with its feet deep in the ground (the ground 1 m thick, its top at 0): its
    // figure stands on the surface, said so. From 0.6 m down the ground probe, which starts
    // 0.6 m over the feet, began inside the ground and found none: the figure fell through
    // the ground and out of the world (y = -20 m after 2 s), without a word.
    for (const double depth : {0.3, 0.6, 0.9}) {
        CAPTURE(depth);
        level.spawns[0].position = {2.0, -depth};
        warnings.clear();
        REQUIRE(scene.loadLevel(level, error, &warnings));
        REQUIRE(warnings.size() == 1);
        char expected[160];
        std::snprintf(expected, sizeof expected, "' at (2, %g) m has its feet %g m inside the terrain: it stands on its surface at y = 0 m (place it there)", -depth, depth);
        CHECK(warnings[0] == "spawn '" + level.spawns[0].name + expected);
        test::run(scene, 120);
        const Character& c = scene.character(0);
        CHECK(c.mode() == CharacterMode::Animated);
        CHECK(std::abs(c.root().y) < 1e-6);
        CHECK(std::abs(c.root().x - 2.0) < 1e-6);
    }
    level.spawns[0].position = {2.0, 0.0};

    // Two spawns on one point: the second stood on the first one's head without a word.
    level.spawns.push_back(level.spawns[0]);
    level.spawns[1].name = "twin";
    warnings.clear();
    REQUIRE(scene.loadLevel(level, error, &warnings));
    REQUIRE(warnings.size() == 1);
    CHECK_THAT(warnings[0], Catch::StartsWith("spawn 'twin' stands ") &&
                                Catch::EndsWith(" m inside spawn '" + level.spawns[0].name +
                                                "': animated characters pass through each other, so they stand one in the other (place them apart)"));
    level.spawns[1].position.x += 1.0;  // a metre apart: nothing to say
    warnings.clear();
    REQUIRE(scene.loadLevel(level, error, &warnings));
    CHECK(warnings.empty());
    // Eight pasted on one point: a warning each, not one for every pair (28).
    level.spawns.resize(1);
    for (int k = 1; k < 8; ++k) {
        level.spawns.push_back(level.spawns[0]);
        level.spawns.back().name = "copy " + std::to_string(k);
    }
    warnings.clear();
    REQUIRE(scene.loadLevel(level, error, &warnings));
    REQUIRE(warnings.size() == 7);
    CHECK_THAT(warnings[6], Catch::StartsWith("spawn 'copy 7' stands ") && Catch::Contains(" (and 6 more): animated characters pass through each other"));
}

TEST_CASE("A rig the level's spawns name that does not load is said once, with the spawns that name it", "[world][spawns]") {
    // Two spawns of one missing rig: its error came twice, and named no spawn.
    Scene scene;
    SceneLevel level = flatLevel();
    const std::string missing = std::string(PAPERDOLL_CONTENT_DIR) + "/rigs/no_such.rig.xml";
    level.spawns.resize(3);
    level.spawns[1] = {"left", missing, {-2.0, 0.0}, true};
    level.spawns[2] = {"right", missing, {2.0, 0.0}, true};
    std::string error;
    CHECK_FALSE(scene.loadLevel(level, error));
    size_t count = 0;
    for (size_t at = error.find(missing + ":"); at != std::string::npos; at = error.find(missing + ":", at + 1)) ++count;
    CHECK(count == 1);
    CHECK_THAT(error, Catch::EndsWith("(" + missing + " is the rig of the level's spawns 'left', 'right')"));
}

TEST_CASE("A refused rig's warnings come with its errors, after them, a slip naming the attribute meant",
          "[world][spawns]") {
    // The stickman with its clips beside it, one body's mass negative and its damping misspelt.
    const std::filesystem::path dir = test::makeTempDir();
    std::filesystem::copy(std::string(PAPERDOLL_CONTENT_DIR) + "/anims", dir / "anims");
    std::filesystem::create_directory(dir / "rigs");
    std::ifstream in(std::string(PAPERDOLL_CONTENT_DIR) + "/rigs/stickman.rig.xml");
    std::string rig((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const size_t body = rig.find("<body ");
    REQUIRE(body != std::string::npos);
    rig.replace(rig.find("mass=\"", body), 6, "mass=\"-");
    rig.insert(body + 6, "angular_dampng=\"1\" ");
    const std::string path = (dir / "rigs" / "slip.rig.xml").string();
    std::ofstream(path) << rig;

    Scene scene;
    SceneLevel level = flatLevel();
    level.spawns[0].rigPath = path;
    std::string error;
    CHECK_FALSE(scene.loadLevel(level, error));
    CAPTURE(error);
    CHECK(error.starts_with(path + ":31: error: body: attribute 'mass' must be > 0"));
    CHECK(error.find("\n" + path + ":31: warning: body: unknown attribute 'angular_dampng' ignored (kept on save); did "
                     "you mean 'angular_damping'?\n") != std::string::npos);
    std::filesystem::remove_all(dir);
}

TEST_CASE("A walker passes a standing character, which stays on the ground", "[world][spawns]") {
    // Its ground probe found the walker's following bodies: standing on its legs, the figure
    // walked past rose 0.76 m and fell back.
    Scene scene;
    SceneLevel level = flatLevel();
    level.spawns.push_back(level.spawns[0]);
    level.spawns[1].name = "bystander";
    level.spawns[1].position = level.spawns[0].position + Vec2{1.5, 0.0};
    load(scene, level);
    const Character& walker = scene.character(0);
    const Character& bystander = scene.character(1);
    double highest = 0.0;
    for (int i = 0; i < 200; ++i) {
        test::run(scene, 1, test::input(bit(Action::Right)));
        highest = std::max(highest, bystander.root().y - level.spawns[1].position.y);
    }
    CHECK(walker.root().x > bystander.root().x + 1.0);  // walked past it
    CHECK(highest < 0.001);
    CHECK(bystander.mode() == CharacterMode::Animated);
}

TEST_CASE("A heavy crate resists the walker more than a light one", "[world][props]") {
    auto walkInto = [](double mass, double& walked, double& pushed, double& deepest) {
        double felt = 0.0;  // the most the walker found itself pushing
        Scene scene;
        SceneLevel level = flatLevel();
        level.props.push_back(crate("load", {1.3, 0.3}, 0.6, mass));
        load(scene, level);
        test::run(scene, 60);
        const double propStart = scene.props()[0].transform.p.x, rootStart = scene.character(0).root().x;
        deepest = 0.0;
        for (int i = 0; i < 240; ++i) {
            test::run(scene, 1, test::input(bit(Action::Right)));
            deepest = std::max(deepest, scene.lastFigures().visualDepth);
            felt = std::max(felt, scene.character(0).pushedMass());
        }
        CHECK(felt == Approx(mass));
        walked = scene.character(0).root().x - rootStart;
        pushed = scene.props()[0].transform.p.x - propStart;
    };
    double walkedLight = 0, pushedLight = 0, deepLight = 0, walkedHeavy = 0, pushedHeavy = 0, deepHeavy = 0;
    walkInto(2.0, walkedLight, pushedLight, deepLight);
    walkInto(10.0, walkedHeavy, pushedHeavy, deepHeavy);
    INFO("2 kg: walked " << walkedLight << " m, pushed " << pushedLight << " m, deepest " << deepLight << " m");
    INFO("10 kg: walked " << walkedHeavy << " m, pushed " << pushedHeavy << " m, deepest " << deepHeavy << " m");
    CHECK(pushedLight > 0.3);
    CHECK(pushedHeavy > 0.1);
    CHECK(walkedHeavy < walkedLight - 0.2);  // the 10 kg block slows the walker
    CHECK(deepLight <= kLinearSlop);
    CHECK(deepHeavy <= kLinearSlop);
}

TEST_CASE("Get-ups keep every drawn part out of the ground: flat, 20° and 30° ramps, stairs", "[world][getup]") {
    struct Case {
        const char* name;
        SceneLevel level;
        double x;
        Vec2 hit;
    };
    SceneLevel harness = test::harnessLevel();
    const Case cases[] = {
        {"flat, hit from behind", flatLevel(), 0.0, {6.0, 2.0}},
        {"flat, hit from the front", flatLevel(), 0.0, {-6.0, 2.0}},
        {"20° ramp", rampLevel(20.0), 2.0, {6.0, 2.0}},
        {"30° ramp", rampLevel(30.0), 2.0, {6.0, 2.0}},
        {"30° ramp, fallen back down it", rampLevel(30.0), 2.6, {-6.0, 2.0}},
        {"harness stairs", harness, 3.3, {6.0, 2.0}},
        {"harness stairs, fallen back down them", harness, 4.4, {-6.0, 2.0}},
        {"harness 20° ramp", harness, 9.6, {6.0, 2.0}},
    };
    for (const Case& k : cases) {
        DYNAMIC_SECTION(k.name) {
            Scene scene;
            load(scene, k.level);
            Character& c = scene.character(0);
            c.teleport({k.x, 3.0}, true);
            test::run(scene, 90);
            REQUIRE(c.enterRagdoll(k.hit));
            test::run(scene, 180);
            REQUIRE(c.getUp());
            const double deepest = runGetUp(scene);
            INFO(k.name << ": deepest drawn overlap while getting up " << deepest << " m; over the run "
                        << scene.runFigures().visualDepth << " m; stands at " << c.root().x << ", " << c.root().y);
            CHECK(c.mode() == CharacterMode::Animated);
            CHECK(deepest <= 0.02);
        }
    }
}

namespace {

/// A copy of the stickman (px units, dotted bone names) with the given <clip> lines instead of
/// its own, in a folder of its own that is removed with it.
struct StickmanCopy {
    std::filesystem::path folder;
    std::string path;
    StickmanCopy(const std::string& name, const std::string& clips) : folder(test::makeTempDir()) {
        std::ifstream in(std::string(PAPERDOLL_CONTENT_DIR) + "/rigs/stickman.rig.xml");
        std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const size_t first = text.find("  <clip "), last = text.find("</rig>");
        REQUIRE(first != std::string::npos);
        text = text.substr(0, first) + clips + text.substr(last);
        path = (folder / (name + ".rig.xml")).string();
        std::ofstream(path) << text;
    }
    ~StickmanCopy() {
        std::error_code ignored;
        std::filesystem::remove_all(folder, ignored);
    }
};

SceneLevel levelWith(const std::string& rigPath) {
    SceneLevel level = flatLevel();
    level.spawns[0].rigPath = rigPath;
    return level;
}

/// The lowest point of the character's drawn figure, metres.
double lowestDrawnPoint(const Character& c) {
    std::vector<DrawnShape> shapes;
    drawnShapes(c.rig(), c.bonePoses(), c.appearance().scale, c.drawnMirrored(), shapes);
    double lowest = 1e9;
    for (const DrawnShape& s : shapes) lowest = std::min({lowest, s.a.y - s.radius, s.b.y - s.radius});
    return lowest;
}

}  // namespace

TEST_CASE("A rig whose root bone is off its origin stands over its spawn and turns where it stands", "[world][spawns]") {
    // A Spine skeleton's hips 40 px right of its origin stood 0.4 m beside its spawn, and
    // every turn threw it 0.8 m to the other side.
    std::string clips;
    for (const char* clip : {"idle", "walk"})
        clips += std::string("  <clip name=\"") + clip + "\" file=\"" + PAPERDOLL_CONTENT_DIR + "/anims/" + clip + ".anim.xml\"/>\n";
    const StickmanCopy copy("hips_off", clips);
    {
        std::ifstream in(copy.path);
        std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const std::string torso = "<bone name=\"torso\" x=\"0\"";
        REQUIRE(text.find(torso) != std::string::npos);
        text.replace(text.find(torso), torso.size(), "<bone name=\"torso\" x=\"40\"");
        std::ofstream(copy.path) << text;
    }
    Scene scene;
    SceneLevel level = levelWith(copy.path);
    load(scene, level);
    Character& c = scene.character(0);
    const int torso = c.assets().rootBone;
    auto torsoX = [&] { return c.bonePoses()[size_t(torso)].origin.x; };
    test::run(scene, 30);
    CHECK(torsoX() == Approx(level.spawns[0].position.x).margin(0.001));
    // Turning left, then right again: the torso keeps its place (a frame's walk at most).
    for (const Action way : {Action::Left, Action::Right}) {
        const double before = torsoX();
        test::run(scene, 2, test::input(bit(way)));
        CHECK(c.facingRight() == (way == Action::Right));
        CHECK(std::abs(torsoX() - before) < 0.03);
        test::run(scene, 30);
        CHECK(torsoX() == Approx(c.root().x).margin(0.001));
    }
}

TEST_CASE("A rig that names no clips stands in its rest pose, goes limp, and gets up in half a second", "[world][clipless]") {
    const StickmanCopy clipless("clipless_px", "");
    // The sections are named, not by path: Catch runs the case again for each section, and
    // the copy's folder is a new one each time.
    const std::pair<const char*, std::string> rigs[] = {
        {"the paper puppet (cm)", std::string(PAPERDOLL_CONTENT_DIR) + "/rigs/paper_puppet.rig.xml"},
        {"the stickman without clips (px)", clipless.path}};
    for (const auto& [name, rig] : rigs) DYNAMIC_SECTION(name) {
        Scene scene;
        load(scene, levelWith(rig));
        Character& c = scene.character(0);
        test::run(scene, 30);
        // Standing on its feet: the lowest drawn point on the ground (y = 0), within a millimetre.
        CHECK(c.mode() == CharacterMode::Animated);
        CHECK(lowestDrawnPoint(c) == Approx(0.0).margin(0.001));
        // No walk clip: the arrows leave it standing where it is.
        const double x = c.root().x;
        test::run(scene, 60, test::input(bit(Action::Right)));
        CHECK(c.root().x == Approx(x).margin(1e-9));
        // A hit knocks it down; it lies still; G gets it up by blending back to the rest pose.
        test::run(scene, 1, test::input(0, bit(Action::HitLeft)));
        REQUIRE(c.mode() == CharacterMode::Ragdoll);
        test::run(scene, 180);
        test::run(scene, 1, test::input(0, bit(Action::GetUp)));
        REQUIRE(c.mode() == CharacterMode::GettingUp);
        int steps = 0;
        while (c.mode() == CharacterMode::GettingUp && steps < 120) {
            test::run(scene, 1);
            ++steps;
        }
        INFO("got up in " << steps * kDt << " s");
        CHECK(c.mode() == CharacterMode::Animated);
        CHECK(steps * kDt <= 0.5 + 2 * kDt);
        test::run(scene, 10);
        CHECK(lowestDrawnPoint(c) == Approx(0.0).margin(0.001));
        // Exactly the rest pose again, relative to the root.
        LocalPose rest = restLocalPose(c.rig());
        std::vector<BonePose> restPoses;
        computeBonePoses(c.rig(), rest, restPoses);
        for (size_t b = 0; b < restPoses.size(); ++b) {
            const double shown = c.facingRight() ? c.bonePoses()[b].angle : kPi - c.bonePoses()[b].angle;
            CHECK(std::abs(wrapAngle(shown - restPoses[b].angle)) < 1e-6);
        }
    }
}

TEST_CASE("A rig's clip that is missing or broken is an error at the rig's <clip> line", "[world][clipless]") {
    const StickmanCopy copy("broken_clip", "  <clip name=\"idle\" file=\"../../no/such.anim.xml\"/>\n"
                                           "  <clip name=\"walk\" file=\"walk.anim.xml\"/>\n");
    const std::string& rig = copy.path;
    std::ofstream(std::filesystem::path(rig).parent_path() / "walk.anim.xml") << "<clip name=\"walk\" format=\"1\">\n  <key t=\"oops\"/>\n</clip>\n";
    Scene scene;
    std::string error;
    CHECK_FALSE(scene.loadLevel(levelWith(rig), error));
    INFO(error);
    // Both clips, each at its line of the rig (the <clip> lines follow the stickman's joints).
    std::ifstream in(rig);
    int line = 0, idleLine = 0, walkLine = 0;
    for (std::string text; std::getline(in, text);) {
        ++line;
        if (text.find("name=\"idle\"") != std::string::npos) idleLine = line;
        if (text.find("name=\"walk\"") != std::string::npos) walkLine = line;
    }
    CHECK_THAT(error, Catch::Contains(rig + ":" + std::to_string(idleLine) + ": error: clip: the 'idle' clip"));
    CHECK_THAT(error, Catch::Contains(rig + ":" + std::to_string(walkLine) + ": error: clip: the 'walk' clip"));
    CHECK_THAT(error, Catch::Contains("walk.anim.xml:1: error: clip: missing required attribute 'duration'"));
}

TEST_CASE("Walking the whole harness, no drawn part reaches 2 cm into terrain or props", "[world][props]") {
    // Up the stairs, across the platform past its crate, down the ramp, into the stack, over
    // the bump: 22 s to the far wall, pushing what it meets.
    Scene scene;
    test::loadHarness(scene);
    Character& c = scene.character(0);
    test::run(scene, 22 * 60, test::input(bit(Action::Right)));
    INFO("walked to x = " << c.root().x << "; deepest drawn overlap " << scene.runFigures().visualDepth << " m");
    CHECK(c.mode() == CharacterMode::Animated);
    CHECK(c.root().x > 20.0);
    CHECK(scene.runFigures().visualDepth <= 0.02);
}

TEST_CASE("A figure lying on all fours gets up from the clip's kneeling frame, not from lying flat", "[world][getup]") {
    Scene scene;
    load(scene, flatLevel());
    Character& c = scene.character(0);
    test::run(scene, 30);
    // The get-up-from-the-front clip half way: on knees and hands. Put the ragdoll in it.
    const Clip& clip = c.assets().clip(ClipRole::GetUpFront);
    const double middle = 0.5 * clip.duration;
    LocalPose local;
    sampleClip(clip, c.rig(), middle, local);
    std::vector<BonePose> pose;
    computeBonePoses(c.rig(), local, pose);
    REQUIRE(c.enterRagdoll());
    const Vec2 root = c.root();
    for (size_t i = 0; i < c.rig().bodies.size(); ++i) {
        const BonePose& p = pose[size_t(c.rig().bodies[i].bone)];
        scene.world().setTransform(c.ragdoll().bodies[i], root + p.origin, p.angle);
        scene.world().setVelocity(c.ragdoll().bodies[i], {}, 0.0);
    }
    test::run(scene, 1);
    REQUIRE(c.getUp());
    Character::SavedState state;
    c.save(state);
    INFO("the clip starts at " << state.currentTime << " s of " << clip.duration << " s");
    CHECK(c.clip() == &clip);
    CHECK(state.currentTime == Approx(middle).margin(0.2));
    const double deepest = runGetUp(scene);
    CHECK(c.mode() == CharacterMode::Animated);
    CHECK(deepest <= 0.02);
}

namespace {

/// Deepest overlap of the character's ragdoll bodies with the terrain now, metres (≥ 0).
double ragdollDepth(const World& world, const Character& c) {
    double deepest = 0.0;
    world.forEachBody([&](BodyId terrain) {
        if (world.bodyType(terrain) != BodyType::Static) return;
        const Shape* ground = world.bodyShape(terrain);
        const Transform xg = world.bodyTransform(terrain);
        for (BodyId body : c.ragdoll().bodies) {
            const Shape* s = world.bodyShape(body);
            const Polygon& g = s->geometry;
            const Manifold m = s->type == ShapeType::Capsule
                                   ? collidePolygonAndCapsule(ground->geometry, xg, Capsule{g.vertices[0], g.vertices[1], g.radius},
                                                              world.bodyTransform(body), 0.0)
                                   : collidePolygonAndCircle(ground->geometry, xg, Circle{g.vertices[0], g.radius},
                                                             world.bodyTransform(body), 0.0);
            for (int p = 0; p < m.pointCount; ++p) deepest = std::max(deepest, -m.points[p].separation);
        }
    });
    return deepest;
}

Vec2 ragdollCenterOfMass(const World& world, const Character& c) {
    Vec2 sum;
    double mass = 0.0;
    for (BodyId body : c.ragdoll().bodies) {
        sum += world.bodyMass(body) * world.worldCenterOfMass(body);
        mass += world.bodyMass(body);
    }
    return (1.0 / mass) * sum;
}

}  // namespace

// The limp-on-a-ramp case: the stickman going limp on a 25° ramp squats onto its hip and knee
// limits and then sits on the slope. Friction √(μ_ramp·μ_body) = 0.735 holds it
// (tan 25° = 0.47), so once settled it must stop dead, not creep below the sleep threshold
// (sleeping is off here). The solver used to let it slide 0.5 m in 40 s, and a limb
// reached 39-49 mm into the ramp as the squat met the limits.
TEST_CASE("A limp stickman on a 25° ramp with friction 0.735 stops dead and keeps its limbs out of it", "[world][ramp]") {
    Scene scene;
    SceneLevel level = rampLevel(25.0);
    const double bodyFriction = 0.6;  // the rig's (no friction attribute: the solver's default)
    level.terrain[1].friction = 0.735 * 0.735 / bodyFriction;
    load(scene, level);
    World& world = scene.world();
    Character& c = scene.character(0);
    const double x = GENERATE(3.0, 3.6, 4.2);
    c.teleport({x, 3.0}, true);
    test::run(scene, 90);
    REQUIRE(c.grounded());
    world.enableSleep(false);
    REQUIRE(c.enterRagdoll());
    REQUIRE(world.bodyShape(c.ragdoll().bodies[0])->friction == bodyFriction);
    double deepest = 0.0, fastestLate = 0.0;
    Vec2 settled;
    for (int i = 1; i <= 600; ++i) {
        test::run(scene, 1);
        deepest = std::max(deepest, ragdollDepth(world, c));
        if (i == 180) settled = ragdollCenterOfMass(world, c);
        if (i > 180)
            for (BodyId body : c.ragdoll().bodies) {
                const BodyState s = world.bodyState(body);
                fastestLate = std::max(fastestLate, length(s.linearVelocity) + 0.25 * std::abs(s.angularVelocity));
            }
    }
    const double crept = distance(ragdollCenterOfMass(world, c), settled);
    INFO("x = " << x << ": crept " << crept * 1000.0 << " mm from 3 s to 10 s; fastest body after 3 s "
                << fastestLate * 1000.0 << " mm/s; deepest into the ramp " << deepest * 1000.0 << " mm");
    CHECK(crept < 0.001);
    CHECK(fastestLate < 0.005);
    CHECK(deepest < 0.01);
}

// The cut-out puppet (no joint damping) hit by (7, 2) N·s as it stands: three steps later,
// flying free, its tree's first joint solve of a substep ended at its cap of Newton steps
// with the neck's limit still flipping in and out, and as the tree touched nothing (no
// free-motion pass to solve after) it was not solved again: the neck stood 2.6° past its
// limit at the end of the step. A tree left at the cap is now solved again.
TEST_CASE("A hit cut-out puppet keeps every joint within its limits and pinned at every step", "[world][limits]") {
    const double x = GENERATE(-1.0, 8.0, 9.0);
    Scene scene;
    load(scene, test::contentLevel("puppet.level.xml"));
    World& world = scene.world();
    Character& c = scene.character(0);
    c.teleport({x, 3.0}, true);
    test::run(scene, 90);
    REQUIRE(c.grounded());
    REQUIRE(c.enterRagdoll({7.0, 2.0}));
    double limit = 0.0, stretch = 0.0;
    for (int i = 0; i < 120; ++i) {
        test::run(scene, 1);
        for (JointId j : c.ragdoll().joints) {
            limit = std::max(limit, world.jointError(j).limitViolation);
            stretch = std::max(stretch, world.jointError(j).separation);
        }
    }
    INFO("x = " << x << ": worst limit " << limit / kPi * 180.0 << " deg, stretch " << stretch * 1000.0 << " mm");
    CHECK(limit < 0.5 * kPi / 180.0);
    CHECK(stretch < 0.001);
}

// A hard landing: the stickman goes limp 4 m above flat ground (landing at about 9 m/s),
// as it stands or hit sideways. Each limb that lands is stopped with the whole ragdoll
// behind it (its contacts are solved through the joint tree), so none is driven into the
// ground by the bodies above it: the solver used to let one reach 5-7 cm in for a few frames.
TEST_CASE("A ragdoll landing at 9 m/s keeps every limb within 1 cm of the ground's surface", "[world][landing]") {
    const Vec2 impulse = GENERATE(Vec2{}, Vec2{7.0, 2.0}, Vec2{-7.0, 2.0}, Vec2{0.0, -10.0});
    Scene scene;
    load(scene, flatLevel());
    World& world = scene.world();
    Character& c = scene.character(0);
    test::run(scene, 30);
    c.teleport({0.0, 4.0}, true);
    REQUIRE(c.enterRagdoll(impulse));
    double deepest = 0.0, fastest = 0.0;
    for (int i = 1; i <= 240; ++i) {
        test::run(scene, 1);
        deepest = std::max(deepest, ragdollDepth(world, c));
        for (BodyId body : c.ragdoll().bodies) fastest = std::max(fastest, length(world.bodyState(body).linearVelocity));
    }
    INFO("impulse (" << impulse.x << ", " << impulse.y << ") N·s: fastest " << fastest << " m/s; deepest into the ground "
                     << deepest * 1000.0 << " mm");
    CHECK(fastest > 8.0);  // it did land hard
    CHECK(deepest < 0.01);
}

TEST_CASE("A walker pushing a heavy crate goes on at the pace they share, never held back", "[world][props]") {
    // The walk shares its momentum with what it pushes. Counted only while a limb touched the
    // crate, a heavy crate was kicked ahead and stopped between strides, and the walker, at
    // full pace again, ran into it and was held back: at 100 kg 89 mm below the farthest it
    // had come, at 150 kg 124 mm, with 1.3 and 1.8 m of steps back in 8 s.
    auto walkedIn = [](Scene& scene, int steps) {
        const double from = scene.character(0).root().x;
        test::run(scene, steps, test::input(bit(Action::Right)));
        return scene.character(0).root().x - from;
    };
    Scene free;
    load(free, flatLevel());
    test::run(free, 60);
    walkedIn(free, 60);
    const double walkPace = walkedIn(free, 60);  // m/s, the walk's own
    for (const double crateMass : {2.0, 10.0, 40.0, 100.0, 150.0}) {
        CAPTURE(crateMass);
        Scene scene;
        SceneLevel level = flatLevel();
        level.props.push_back(crate("load", {1.3, 0.3}, 0.6, crateMass));
        load(scene, level);
        test::run(scene, 60);
        Character& c = scene.character(0);
        const double mass = c.rig().totalMass();
        const double shared = walkPace * mass / (mass + crateMass);
        walkedIn(scene, 120);  // up to the crate and into it
        const double rootFrom = c.root().x, crateFrom = scene.props()[0].transform.p.x;
        double farthest = c.root().x, heldBack = 0.0, deepest = 0.0;
        for (int i = 0; i < 360; ++i) {
            walkedIn(scene, 1);
            farthest = std::max(farthest, c.root().x);
            heldBack = std::max(heldBack, farthest - c.root().x);
            deepest = std::max(deepest, scene.lastFigures().visualDepth);
        }
        const double walked = c.root().x - rootFrom, pushed = scene.props()[0].transform.p.x - crateFrom;
        INFO("walking at " << walkPace << " m/s free: held back " << heldBack * 1000.0 << " mm at most; in 6 s walked "
                           << walked << " m (the shared pace " << shared << " m/s), the crate " << pushed
                           << " m; the deepest drawn part " << deepest * 1000.0 << " mm");
        CHECK(heldBack < 0.003);
        CHECK(walked / 6.0 == Approx(shared).epsilon(0.1));
        CHECK(std::abs(pushed - walked) < 0.03);  // the crate kept ahead of the walker, no farther
        CHECK(deepest <= kLinearSlop);
    }
}

TEST_CASE("A crate walked into a wall stays out of it, walking either way", "[world][props]") {
    // The push hands a walked-into crate what its friction took back in the last step; a wall
    // takes back all of it, and must not make the crate be driven into it ever harder.
    for (const double dir : {1.0, -1.0}) {
        CAPTURE(dir);
        Scene scene;
        SceneLevel level = flatLevel();
        level.terrain.push_back(dir > 0 ? box(3.0, 0.0, 3.5, 2.5) : box(-3.5, 0.0, -3.0, 2.5));
        level.props.push_back(crate("load", {dir * 1.6, 0.3}, 0.6, 20.0));
        load(scene, level);
        test::run(scene, 30);
        double deepestCrate = 0.0, deepest = 0.0;
        for (int i = 0; i < 360; ++i) {
            test::run(scene, 1, test::input(bit(dir > 0 ? Action::Right : Action::Left)));
            // The crate's face towards the wall, past the wall's.
            deepestCrate = std::max(deepestCrate, dir * scene.props()[0].transform.p.x + 0.3 - 3.0);
            deepest = std::max(deepest, scene.lastFigures().visualDepth);
        }
        INFO("the crate " << deepestCrate * 1000.0 << " mm into the wall at most; the walker at " << scene.character(0).root().x
                          << "; the deepest drawn part " << deepest * 1000.0 << " mm");
        CHECK(deepestCrate < 0.005);
        CHECK(dir * scene.character(0).root().x < 2.4);  // stopped at the crate against the wall
        CHECK(deepest <= kLinearSlop);
    }
}

TEST_CASE("A ragdoll lying under a table gets up beside it, not through its top", "[world][getup]") {
    // The figure stood up where its torso lay: under a table 0.72 m high its head rose 30 cm
    // into the top. It now gets up at the nearest place with room for the get-up (its clips'
    // reach above knee height), and under a ceiling too low for 1.5 m around it, not at all.
    struct Case {
        const char* name;
        double x, hit;
        double lyingFrom;  ///< m: it lies right of this (under the table, or short of it where its get-up would reach under)
        bool fromFront;    ///< the get-up it plays: both clips' reaches are tried
    };
    for (const Case& k : {Case{"knocked under it", -0.3, 6.0, 0.9, false}, Case{"knocked against its far leg", 2.8, -6.0, 0.9, false},
                          Case{"knocked short of it, face down", -0.3, 4.0, 0.5, true}}) {
        CAPTURE(k.name);
        Scene scene;
        SceneLevel level = flatLevel();
        level.terrain.push_back(box(1.0, 0.72, 2.2, 0.8));  // the table's top
        level.terrain.push_back(box(2.1, 0.0, 2.2, 0.72));  // its far leg
        load(scene, level);
        Character& c = scene.character(0);
        c.teleport({k.x, 0.0}, true);
        test::run(scene, 60);
        REQUIRE(c.enterRagdoll({k.hit, 1.0}));
        test::run(scene, 180);
        const double lying = c.bonePoses()[size_t(c.assets().rootBone)].origin.x;
        REQUIRE(c.getUp());
        // As near the table as the get-up it plays needs, not as far as the wider of the two
        // (the room had been both clips' reach; a figure getting up from its back stood 5 cm
        // further off than it needed).
        const bool fromFront = c.clip() == &c.assets().clip(ClipRole::GetUpFront);
        const double reach = c.assets().getUpReach[fromFront ? 0 : 1][c.facingRight() == (k.hit < 0.0) ? 1 : 0];
        const double gap = k.hit > 0.0 ? 1.0 - (c.root().x + reach) : c.root().x - reach - 2.2;
        const double deepest = runGetUp(scene);
        INFO("lying at x = " << lying << ", stood at " << c.root().x << " getting up from the " << (fromFront ? "front" : "back")
                             << ", " << gap * 1000.0 << " mm further from the table than its reach; the deepest drawn part "
                             << deepest * 1000.0 << " mm");
        CHECK(lying > k.lyingFrom);
        CHECK(fromFront == k.fromFront);
        CHECK(lying < 2.4);
        CHECK(deepest <= 0.02);
        CHECK(c.mode() == CharacterMode::Animated);
        CHECK(std::abs(c.root().x - lying) < 1.5);
        CHECK(gap >= -0.002);
        CHECK(gap < tuning::kGetUpRoomStep);
    }
    // Under a ceiling 0.72 m up from x = -5 to 5, there is no room to stand anywhere near.
    Scene scene;
    load(scene, flatLevel());
    Character& c = scene.character(0);
    REQUIRE(c.enterRagdoll({0.0, 0.0}));
    test::run(scene, 180);
    BodyDef def = defaultBodyDef();
    def.type = BodyType::Static;
    const BodyId ceiling = scene.world().createBody(def);
    ShapeDef shape = defaultShapeDef();
    shape.filter.categoryBits = kTerrainCategory;
    REQUIRE(scene.world().setPolygon(ceiling, shape, makeBox(5.0, 0.04, {0.0, 0.76})));
    CHECK_FALSE(c.getUp());
    CHECK(c.mode() == CharacterMode::Ragdoll);
}
