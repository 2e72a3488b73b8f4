// The benchmark scenes of SCENES.md (v1) as engine-neutral data, built once and used by
// the solver tests, our benchmark and the Box2D peer, so every engine steps the same thing.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "solver/math.h"

namespace scenes {

using ragdoll::Vec2;

enum class ShapeKind { Capsule, Circle, Box };

struct BodySpec {
    std::string name;
    ShapeKind shape = ShapeKind::Capsule;
    Vec2 p0, p1;            ///< capsule segment ends in world space (rest pose); circle/box: p0 = centre
    double radius = 0.0;    ///< capsule or circle radius, metres
    Vec2 halfExtents;       ///< box half-extents, metres
    double angle = 0.0;     ///< box angle, radians
    double mass = 1.0;      ///< kg; 0 for static
    bool isStatic = false;
    Vec2 velocity;          ///< initial linear velocity, m/s
    double friction = 0.6;
    double restitution = 0.0;
    double linearDamping = 0.0;
    double angularDamping = 0.0;
    int group = -1;         ///< bodies with the same group >= 0 never collide (one stickman)
};

struct JointSpec {
    std::string name;
    int bodyA = -1;  ///< parent body index; -1 = a static point in the world
    int bodyB = -1;  ///< child body index
    Vec2 anchor;     ///< world anchor in the rest pose
    bool enableLimit = false;
    double lower = 0.0, upper = 0.0;  ///< radians on (angle B - angle A), 0 in the rest pose
};

struct SceneSpec {
    std::string name;
    Vec2 gravity{0.0, -10.0};
    double worldHalfWidth = 60.0;   ///< bodies beyond |x| or below -worldHalfWidth/above 250 m have exploded
    std::vector<BodySpec> bodies;   ///< statics (ground, walls) included
    std::vector<JointSpec> joints;
};

/// SCENES.md "pile": n stickmen on the grid, tumbling, on the 120 m ground between walls.
SceneSpec makePile(int stickmen);
/// One SCENES.md stickman standing at x with feet at footY, no initial velocity, no ground.
void addStickman(SceneSpec& scene, double x, double footY, Vec2 velocity, int group);
/// SCENES.md "chain": 20 links of 0.5 m from a static pin at (0, 20) and a 50 kg end body
/// (a capsule of the same size); hanging straight down, or starting horizontal.
SceneSpec makeChain(bool horizontal);

/// What a benchmark run measured; the same keys for us and for a peer engine.
struct BenchResult {
    std::string engine;
    int bodies = 0, joints = 0, contacts = 0, awake = 0;
    double msPerStepMedian = 0.0, msPerStepMean = 0.0, msTotal = 0.0;
    double maxStretchEnd = 0.0, maxStretchRun = 0.0;                  ///< metres
    double maxLimitViolationEndDeg = 0.0, maxLimitViolationRunDeg = 0.0;  ///< degrees
    bool exploded = false;
    double maxDepth = 0.0;  ///< metres: the deepest any moving body was in a static one (the ground, a wall) after any step
    /// Metres: the deepest two moving bodies overlapped in a touching contact between them
    /// after any step (how far ragdolls sink into one another). Sleeping bodies have no
    /// contacts, but they do not move either: their last step awake counted.
    double maxOverlap = 0.0;
    std::size_t memoryBytes = 0;  ///< the world's heap at the end; 0 when the engine cannot tell
    std::string stateHash;        ///< the world's state hash after the last step, hex; empty when the engine has none
    /// The last step's lanes of body-by-body contacts and the contacts crossing them
    /// (WorldStats); -1 when the engine has none.
    int contactLanes = -1, crossingContacts = -1;
    /// Mean wall milliseconds a step spent in each stage (WorldStats::profile), over the
    /// same steps as msPerStepMean, in the engine's order; empty when the engine has none.
    std::vector<std::pair<std::string, double>> profileMs;
};

}  // namespace scenes
