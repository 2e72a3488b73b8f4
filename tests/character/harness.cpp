#include "harness.h"

#include <catch2/catch.hpp>

#include <cmath>

#include "paper/level.h"
#include "scene_level.h"

namespace test {

ragdoll::SceneLevel harnessLevel() { return contentLevel("harness.level.xml"); }

ragdoll::SceneLevel contentLevel(const std::string& fileName) {
    paper::LevelLoadResult loaded = paper::loadLevelFile(std::string(PAPERDOLL_CONTENT_DIR) + "/levels/" + fileName);
    REQUIRE(loaded.level);
    return toSceneLevel(*loaded.level);
}

ragdoll::ScenePiece box(double x0, double y0, double x1, double y1, double friction) {
    return {{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}, friction, 0.0};
}

ragdoll::SceneLevel flatLevel(const std::string& levelFile) {
    ragdoll::SceneLevel level = contentLevel(levelFile);
    level.terrain = {box(-10.0, -1.0, 30.0, 0.0)};
    level.props.clear();
    level.spawns.resize(1);
    level.spawns[0].position = {0.0, 0.0};
    level.spawns[0].facingRight = true;
    return level;
}

ragdoll::SceneLevel rampLevel(double degrees, const std::string& levelFile) {
    ragdoll::SceneLevel level = flatLevel(levelFile);
    const double rise = 1.5, run = rise / std::tan(degrees * ragdoll::kPi / 180.0);
    level.terrain.push_back({{{2.0, 0.0}, {2.0 + run, 0.0}, {2.0 + run, rise}}, 0.7, 0.0});
    level.terrain.push_back(box(2.0 + run, 0.0, 2.0 + run + 4.0, rise));
    return level;
}

void loadHarness(ragdoll::Scene& scene) {
    std::string error;
    INFO(error);
    REQUIRE(scene.loadLevel(harnessLevel(), error));
}

ragdoll::SceneInput input(std::uint64_t held, std::uint64_t pressed) {
    ragdoll::SceneInput in;
    in.held = held;
    in.pressed = pressed;
    return in;
}

void run(ragdoll::Scene& scene, int steps, const ragdoll::SceneInput& in) {
    for (int i = 0; i < steps; ++i) scene.step(1.0 / 60.0, in);
}

double kineticEnergy(const ragdoll::World& world, const ragdoll::Character& character) {
    double energy = 0.0;
    for (ragdoll::BodyId body : character.ragdoll().bodies) {
        const ragdoll::BodySnapshot s = world.snapshot(body);
        energy += 0.5 * world.bodyMass(body) * ragdoll::dot(s.linearVelocity, s.linearVelocity) +
                  0.5 * world.bodyInertia(body) * s.angularVelocity * s.angularVelocity;
    }
    return energy;
}

}  // namespace test
