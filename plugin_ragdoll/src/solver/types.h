// The solver's public API types: handles, definitions with defaults, and results.
// Bodies, shapes and joints are created from def structs (fill one from its Default…Def()
// and change what matters); the world hands back small generational handles that every
// call validates, so a stale handle is refused instead of touching a reused slot.
#pragma once

#include <cstddef>
#include <cstdint>

#include "solver/geometry.h"
#include "solver/tasks.h"

namespace ragdoll {

/// A body handle: slot index + 1 (0 = null) and the slot's generation when created.
struct BodyId {
    std::int32_t index1 = 0;
    std::uint16_t generation = 0;
};
struct JointId {
    std::int32_t index1 = 0;
    std::uint16_t generation = 0;
};
constexpr bool isNull(BodyId id) { return id.index1 == 0; }
constexpr bool isNull(JointId id) { return id.index1 == 0; }
constexpr bool operator==(BodyId a, BodyId b) { return a.index1 == b.index1 && a.generation == b.generation; }
constexpr bool operator==(JointId a, JointId b) { return a.index1 == b.index1 && a.generation == b.generation; }

/// How a world solves its joints.
enum class JointSolver {
    /// Each connected set of joints (a ragdoll, a chain) is solved exactly with a sparse
    /// LDLᵀ of its tree (Baraff 1996), a few Newton steps per substep: no stretch whatever
    /// the mass ratios. Joints closing a loop fall back to Gauss-Seidel.
    Direct,
    /// Gauss-Seidel XPBD, `iterations` sweeps per substep: cheap, stretches under load.
    Iterative,
};

struct WorldDef {
    Vec2 gravity{0.0, -9.81};       ///< m/s²
    int substeps = 4;               ///< per step (Macklin 2019: substeps beat iterations)
    /// Position iterations per substep: each sweeps the contacts body by body, then solves
    /// the joints. With the direct solver the joints are exact at one; more make ragdolls
    /// sink less into one another (a heap of 20 stickmen landing: 21.1 mm at 1, 13.9 at 2,
    /// 10.5 at 3), each costing another pass over those contacts and another joint solve
    /// (at 2, the step of a pile of 1000 stickmen a quarter longer, of 100 lying awake 7%).
    int iterations = 1;
    JointSolver jointSolver = JointSolver::Direct;
    bool enableSleep = true;
    /// Bodies beyond this distance from the origin are considered lost: they are
    /// reported and frozen in place (metres).
    double worldHalfExtent = 1000.0;
    /// Threads to split the step across (tasks.h); the default runs it on the caller's.
    /// Whatever it holds, the step's results are the same to the bit.
    TaskSystem tasks;
};
WorldDef defaultWorldDef();

enum class BodyType {
    Static,     ///< never moves; infinite mass
    Kinematic,  ///< moved by its velocity (or driven to a target pose); infinite mass
    Dynamic,    ///< moved by forces, contacts and joints
};

/// World::createBody refuses (a null id) a def whose position, angle, velocities or
/// gravityScale are not finite, or whose damping is negative or not finite (as setDamping).
struct BodyDef {
    BodyType type = BodyType::Dynamic;
    Vec2 position;            ///< origin of the body's frame, metres
    double angle = 0.0;       ///< radians, counter-clockwise
    Vec2 linearVelocity;      ///< of the origin, m/s
    double angularVelocity = 0.0;  ///< rad/s
    double linearDamping = 0.0;    ///< 1/s, >= 0; v shrinks by 1/(1 + h·damping) per substep
    double angularDamping = 0.0;   ///< 1/s, >= 0
    double gravityScale = 1.0;
    bool awake = true;
    std::uint64_t userData = 0;
};
BodyDef defaultBodyDef();

/// Which shapes may touch (Box2D's rule): two shapes in the same non-zero group always
/// collide if the group is positive and never if it is negative; otherwise they collide
/// when each one's category is in the other's mask.
struct Filter {
    std::uint32_t categoryBits = 1;
    std::uint32_t maskBits = 0xffffffffu;
    std::int32_t group = 0;
};

enum class ShapeType { Circle, Capsule, Polygon };

/// World::setCircle, setCapsule and setPolygon refuse (false, the body left as it was) a
/// friction or restitution that is not finite and, on a dynamic body, a mass that is negative
/// or not finite, or with no mass given a density that is not finite and > 0: the body's
/// mass must come out positive.
struct ShapeDef {
    /// kg/m² (the solver is 2D), > 0 on a dynamic body. Ignored when `mass` > 0, and on a
    /// static or kinematic body.
    double density = 1.0;
    /// When > 0, the body's total mass in kg, whatever the shape's area; 0: from `density`.
    double mass = 0.0;
    double friction = 0.6;     ///< static and dynamic coefficient (combined as the geometric mean); below 0 taken as 0
    double restitution = 0.0;  ///< 0..1, held to it (combined as the max)
    Filter filter;
};
ShapeDef defaultShapeDef();

/// World::createJoint refuses (a null id) what the joint setters refuse: bodies that are
/// invalid or the same, anchors, angles or stiffness that are not finite, damping or friction
/// that is negative or not finite, and an enabled limit whose lower angle is above its upper
/// one or which spans more than a full turn.
struct JointDef {
    BodyId bodyA;           ///< the parent
    BodyId bodyB;           ///< the child
    Vec2 localAnchorA;      ///< in A's frame, metres
    Vec2 localAnchorB;      ///< in B's frame
    /// Angle B − angle A at rest; limits are measured from it (radians).
    double referenceAngle = 0.0;
    bool enableLimit = false;
    double lowerAngle = 0.0;  ///< radians relative to the reference angle, >= -π
    double upperAngle = 0.0;  ///< radians, >= lowerAngle, <= π; lower == upper welds the angle
    /// 1 = rigid. Below 1, the fraction of the joint's error removed per substep (as XPBD
    /// compliance, so extra iterations refine instead of stiffening — see joint.h). Held to
    /// 0..1.
    double stiffness = 1.0;
    /// Relative angular velocity damping, 1/s, >= 0 (0 = none).
    double angularDamping = 0.0;
    /// Joint friction, N·m, >= 0 (0 = none): the largest torque with which the joint resists
    /// turning. Below it the joint holds its angle (a limb lying still stays still); above
    /// it, it turns against this torque. Box2D's ragdolls stop limbs with the same thing
    /// (a motor of speed 0 and this maximum torque).
    double frictionTorque = 0.0;
    /// Let A and B collide with each other (default: they don't).
    bool collideConnected = false;
};
JointDef defaultJointDef();

/// Builds a joint def anchored at a world point, with the reference angle taken from the
/// bodies' current angles.
JointDef makeRevoluteJointDef(class World& world, BodyId a, BodyId b, Vec2 worldAnchor);

struct BodyState {
    Vec2 position;
    double angle = 0.0;
    Vec2 linearVelocity;
    double angularVelocity = 0.0;
    bool awake = true;
};

/// Everything the solver keeps about a body's motion, exactly (centre-of-mass terms), so
/// a state saved and restored continues bit for bit (plugin hot reload).
struct BodySnapshot {
    Vec2 center;
    double angle = 0.0;
    Vec2 linearVelocity;
    double angularVelocity = 0.0;
    bool awake = true;
    bool frozen = false;
    double sleepTime = 0.0;  ///< seconds slow enough to sleep, counted twice while still (kStillSpeed)
    std::int64_t sleepingIsland = -1;
};

struct JointError {
    double separation = 0.0;       ///< distance between the two anchors, metres
    double limitViolation = 0.0;   ///< radians outside [lower, upper], 0 when inside or no limit
    double relativeAngle = 0.0;    ///< angle B − angle A − reference, wrapped to (−π, π]
};

/// Where the last step's time went, wall milliseconds by stage (the substeps' summed): what
/// to look at first when a scene steps slowly. The stages add up to the whole step
/// (stepMilliseconds).
struct StepProfile {
    double collide = 0.0;       ///< bounds, pairs, manifolds, wakes; contacts sorted by who solves them
    double integrate = 0.0;     ///< gravity and velocities into positions; fast manifolds found again
    double bodyContacts = 0.0;  ///< the contacts solved body by body (between ragdolls, props), positions and velocities
    double jointTrees = 0.0;    ///< the joint trees' direct solves (Newton), and joints outside trees
    double treeContacts = 0.0;  ///< each tree's contacts with the world and its limits, one system, positions and velocities
    double velocities = 0.0;    ///< velocities from positions, limits' and damping's velocity pass, clamps
    double finish = 0.0;        ///< angles and rotations made one, sleep, NaN recovery
};

struct WorldStats {
    int bodies = 0, dynamicBodies = 0, awakeBodies = 0, joints = 0;
    int contacts = 0;            ///< touching manifolds after the last step (an awake body in each)
    int contactPoints = 0;
    int islands = 0, sleepingIslands = 0;
    int directJointGroups = 0;   ///< joint trees solved directly
    /// The last step's body-by-body contacts: the lanes threads swept at once, and the
    /// contacts crossing lanes, swept on the calling thread (ContactLanes).
    int contactLanes = 0, crossingContacts = 0;
    double maxJointSeparation = 0.0;      ///< metres, at the end of the last step
    double maxLimitViolation = 0.0;       ///< radians, at the end of the last step
    int recoveredBodies = 0;     ///< bodies reset after NaN/inf, in total
    int frozenBodies = 0;        ///< bodies stopped for leaving the world bounds, in total
    int clampedVelocities = 0;   ///< velocities clamped for exceeding the maximum, in total
    int newtonIterations = 0;    ///< direct joint solver iterations in the last step
    double stepMilliseconds = 0.0;  ///< wall time of the last step
    StepProfile profile;            ///< the last step's time by stage
    std::size_t memoryBytes = 0;    ///< heap the world holds (arrays' capacities)
};

struct RayHit {
    BodyId body;
    Vec2 point;
    Vec2 normal;
    double fraction = 0.0;  ///< along the ray, 0..1
};

}  // namespace ragdoll
