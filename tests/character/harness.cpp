#include "harness.h"

#include <catch2/catch.hpp>

#include "paper/level.h"
#include "scene_level.h"

namespace test {

ragdoll::SceneLevel harnessLevel() { return contentLevel("harness.level.xml"); }

ragdoll::SceneLevel contentLevel(const std::string& fileName) {
    paper::LevelLoadResult loaded = paper::loadLevelFile(std::string(PAPERDOLL_CONTENT_DIR) + "/levels/" + fileName);
    REQUIRE(loaded.level);
    return toSceneLevel(*loaded.level);
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
