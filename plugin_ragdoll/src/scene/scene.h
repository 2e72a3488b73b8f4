// The plugin's simulation: a solver world holding a level's terrain, props and characters,
// the player's input to the first character, the mouse grab, its tunable settings, and
// the state blob that carries all of it across a hot reload.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "character/character.h"
#include "scene/scene_input.h"
#include "solver/world.h"

namespace ragdoll {

struct ScenePiece {
    std::vector<Vec2> points;  ///< counter-clockwise convex, metres
    double friction = 0.6, restitution = 0.0;
    int line = 0;  ///< the level file's line of its element (0: none)
};

struct SceneProp {
    std::string name;  ///< the level's, or prop0, prop1, … in file order
    Vec2 position;
    double angle = 0.0;
    Vec2 halfExtents;
    double mass = 1.0, friction = 0.6, restitution = 0.0;
    std::uint32_t rgba = 0;  ///< for drawing
    int line = 0;            ///< the level file's line of it (0: none), for warnings
};

struct SceneSpawn {
    std::string name;
    std::string rigPath;  ///< a rig file naming its clips
    Vec2 position;        ///< feet
    bool facingRight = true;
    int line = 0;  ///< the level file's line of it (0: none), for warnings
};

struct SceneLevel {
    std::vector<ScenePiece> terrain;
    std::vector<SceneProp> props;
    std::vector<SceneSpawn> spawns;
    std::string path;  ///< the level's file ("": none): placement warnings name it and the line
};

/// A setting the editor can show and change (reflection).
struct SceneProperty {
    const char* name;
    const char* label;
    const char* unit;
    enum Kind { Float, Int, Bool } kind;
    double minValue, maxValue;
};

/// What the net-role preview (Tab) shows of the player's character.
enum class NetPreview : std::uint8_t {
    Off,        ///< standalone
    HostProxy,  ///< the player's character is a host; a proxy fed from it is drawn over it
    ProxyOnly,  ///< only what a peer sees (the host still simulates, unseen)
};

class Scene {
public:
    Scene();
    ~Scene();

    /// Replaces whatever was there with the level (terrain, props, characters at their
    /// spawns). False with every reason on bad data; the scene is then unchanged. The rigs'
    /// and clips' warnings ("FILE:LINE: warning: …") go to warnings when given.
    bool loadLevel(const SceneLevel& level, std::string& error, std::vector<std::string>* warnings = nullptr);
    /// One fixed step: input to the first character (its actions), the mouse grab, the
    /// characters and the world.
    void step(double dt, const SceneInput& input = {});

    const World& world() const { return world_; }
    World& world() { return world_; }
    struct PropView {
        Transform transform;
        Vec2 halfExtents;
        std::uint32_t rgba;
        const std::string* name;
        bool awake;
    };
    std::vector<PropView> props() const;

    int characterCount() const { return int(characters_.size()); }
    Character& character(int index) { return *characters_[size_t(index)]; }
    const Character& character(int index) const { return *characters_[size_t(index)]; }
    /// The proxy the net-role preview drives from the first character (null when off).
    const Character* previewProxy() const { return previewProxy_.get(); }
    NetPreview netPreview() const { return netPreview_; }
    void setNetPreview(NetPreview preview);
    /// What a press of `action` does, done now to character `index` (the keys act on the
    /// first): a toggle, a hit, a get-up, a blend step, the net preview. False for the held
    /// controls (walk, run, jump) and a bad index.
    bool act(int index, Action action);

    /// The body the mouse holds, if any, and where it holds it (world).
    bool grabbing() const { return !isNull(grabJoint_); }
    /// Whether characters' cut-out parts are drawn as paper (a setting, "view.paper_look").
    bool paperLook() const { return paperLook_; }
    Vec2 grabPoint() const;
    Vec2 grabTarget() const { return grabTarget_; }

    /// Characters' joint stretch (m) and limit violation (rad) at the end of the last step,
    /// and the largest since the level was loaded (the mouse's soft grab joint is excluded);
    /// and the deepest any character's drawn part reaches into terrain or props (m), in
    /// every mode.
    struct Figures {
        double stretch = 0.0, limitViolation = 0.0, visualDepth = 0.0;
    };
    Figures lastFigures() const { return last_; }
    Figures runFigures() const { return run_; }
    /// Wall time of the last step (ms): the world's step (World::stats) and the characters'
    /// own work around it (animation, ground probes, props pushed, drawn parts, the figures).
    double stepMilliseconds() const { return stepMilliseconds_; }
    /// The characters' share of it: the whole step less the world's own.
    double charactersMilliseconds() const { return charactersMilliseconds_; }

    /// The threads the host offers the solver (its job service; tasks.h), of which the
    /// "solver.threads" setting uses up to its value. None by default: the step runs on the
    /// caller's thread. Either way the simulation is the same to the bit.
    void setTaskSystem(const TaskSystem& available);
    void setThreads(int threads);
    int threads() const { return threads_; }

    // Reflection: properties by index.
    static const std::vector<SceneProperty>& propertyList();
    double property(int index) const;
    bool setProperty(int index, double value);

    /// The state blob: versioned and sectioned (see scene_state.cpp), so a newer plugin can read
    /// an older blob or refuse it with a reason.
    std::vector<std::uint8_t> saveState() const;
    bool loadState(const std::uint8_t* data, std::size_t size, std::string& error);

private:
    void handleInput(const SceneInput& input);
    /// The net preview's proxy of the first character.
    void makePreviewProxy();
    void updateGrab(const SceneInput& input);
    void releaseGrab();
    void measureFigures();

    World world_;
    std::vector<BodyId> terrain_;
    std::vector<BodyId> propBodies_;
    std::vector<SceneProp> propInfo_;
    std::map<std::string, std::shared_ptr<const CharacterAssets>> assets_;  ///< by rig path
    std::vector<std::unique_ptr<Character>> characters_;
    std::unique_ptr<Character> previewProxy_;
    NetPreview netPreview_ = NetPreview::Off;
    bool paperLook_ = true;  ///< cut-out parts drawn with a rim, a drop shadow and split pins
    TaskSystem available_;   ///< the host's workers (setTaskSystem)
    int threads_ = 1;        ///< the "solver.threads" setting

    BodyId grabBody_, grabAnchor_;
    JointId grabJoint_;
    Vec2 grabTarget_;
    bool mouseWasDown_ = false;

    Figures last_, run_;
    double stepMilliseconds_ = 0.0, charactersMilliseconds_ = 0.0;
    std::vector<DrawnShape> drawn_;  ///< scratch for measureFigures
    std::vector<BodyId> scratch_;
};

}  // namespace ragdoll
