#include "scene_level.h"

namespace test {

ragdoll::SceneLevel toSceneLevel(const paper::Level& in) {
    ragdoll::SceneLevel level;
    for (const paper::TerrainPiece& t : in.terrain) {
        ragdoll::ScenePiece piece;
        for (paper::Vec2 p : t.points) piece.points.push_back({p.x, p.y});
        piece.friction = t.friction;
        piece.restitution = t.restitution;
        level.terrain.push_back(piece);
    }
    for (const paper::Prop& p : in.props)
        level.props.push_back({p.name, {p.position.x, p.position.y}, p.angle, {p.halfExtents.x, p.halfExtents.y}, p.mass,
                               p.friction, p.restitution,
                               std::uint32_t(p.color.r) | std::uint32_t(p.color.g) << 8 | std::uint32_t(p.color.b) << 16 |
                                   std::uint32_t(p.color.a) << 24,
                               p.line});
    for (const paper::SpawnPoint& s : in.spawns)
        level.spawns.push_back({s.name, s.asset, {s.position.x, s.position.y}, s.facingRight, s.line});
    return level;
}

}  // namespace test
