// The plugin's simulation: a solver world holding a level's terrain and props (and, with
// the character issue, its characters), its tunable settings, and the state blob that
// carries it across a hot reload.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "solver/world.h"

namespace ragdoll {

struct ScenePiece {
    std::vector<Vec2> points;  ///< counter-clockwise convex, metres
    double friction = 0.6, restitution = 0.0;
};

struct SceneProp {
    Vec2 position;
    double angle = 0.0;
    Vec2 halfExtents;
    double mass = 1.0, friction = 0.6, restitution = 0.0;
    std::uint32_t rgba = 0;  ///< for drawing
};

struct SceneLevel {
    std::vector<ScenePiece> terrain;
    std::vector<SceneProp> props;
};

/// A setting the editor can show and change (reflection).
struct SceneProperty {
    const char* name;
    const char* label;
    const char* unit;
    enum Kind { Float, Int, Bool } kind;
    double minValue, maxValue;
};

class Scene {
public:
    Scene();

    /// Replaces whatever was there with the level. False with a reason on bad data.
    bool loadLevel(const SceneLevel& level, std::string& error);
    void step(double dt);

    const World& world() const { return world_; }
    World& world() { return world_; }
    struct PropView {
        Transform transform;
        Vec2 halfExtents;
        std::uint32_t rgba;
    };
    std::vector<PropView> props() const;

    // Reflection: properties by index.
    static const std::vector<SceneProperty>& propertyList();
    double property(int index) const;
    bool setProperty(int index, double value);

    /// The state blob: versioned and sectioned (see scene.cpp), so a newer plugin can read
    /// an older blob or refuse it with a reason.
    std::vector<std::uint8_t> saveState() const;
    bool loadState(const std::uint8_t* data, std::size_t size, std::string& error);

private:
    World world_;
    std::vector<BodyId> terrain_;
    std::vector<BodyId> propBodies_;
    std::vector<SceneProp> propInfo_;
};

}  // namespace ragdoll
