#include "harness.h"

#include <catch2/catch.hpp>

#include "paper/level.h"

namespace test {

ragdoll::SceneLevel harnessLevel() {
    paper::LevelLoadResult loaded = paper::loadLevelFile(std::string(PAPERDOLL_CONTENT_DIR) + "/levels/harness.level.xml");
    REQUIRE(loaded.level);
    ragdoll::SceneLevel level;
    for (const paper::TerrainPiece& t : loaded.level->terrain) {
        ragdoll::ScenePiece piece;
        for (paper::Vec2 p : t.points) piece.points.push_back({p.x, p.y});
        piece.friction = t.friction;
        piece.restitution = t.restitution;
        level.terrain.push_back(piece);
    }
    for (const paper::Prop& p : loaded.level->props)
        level.props.push_back({p.name, {p.position.x, p.position.y}, p.angle, {p.halfExtents.x, p.halfExtents.y}, p.mass, p.friction,
                               p.restitution, 0xff808080u});
    for (const paper::SpawnPoint& s : loaded.level->spawns)
        level.spawns.push_back({s.name, s.rigPath, {s.position.x, s.position.y}, s.facingRight});
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
