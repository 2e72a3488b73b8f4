// Building a ragdoll (bodies and joints in a solver world) from a rig, as many times as
// wanted: the rig is the shared asset, each build an instance (Jolt's
// RagdollSettings::CreateRagdoll).
//
// Each body's frame is its bone's frame: origin at the bone's origin, +x along the bone.
// So the capsule's segment is exactly the drawn bone (0,0)–(length,0), a circle sits at
// (length/2, 0), and a body's transform is its bone's pose with no offset to keep in sync
// (the character layer reads bones straight from bodies). The solver keeps the centre of
// mass separately, so the offset costs nothing. Rejected: origin at the segment midpoint
// (as the SCENES builder does), which would need a per-bone offset everywhere a bone pose
// is read or written.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rig/rig.h"
#include "solver/world.h"

namespace ragdoll {

/// Where and how one ragdoll instance is made.
struct RagdollDef {
    Vec2 position;          ///< where the rig's origin (0,0 in rig space) goes, metres
    double angle = 0.0;     ///< rotation of the whole rig, radians counter-clockwise
    /// Facing the other way: the rig is mirrored in its x before it is placed. A mirrored
    /// bone at angle a lies at π − a and joint limits [lower, upper] become [−upper, −lower],
    /// so knees and elbows keep bending the way they did (shapes are symmetric about
    /// their bone, so a mirrored body is a rotated one).
    bool mirrored = false;
    Vec2 linearVelocity;    ///< of the rig's origin, m/s
    double angularVelocity = 0.0;  ///< about the rig's origin, rad/s (each body gets v + ω × r)
    /// The ragdoll's own collision group: negative, and different for each ragdoll, so its
    /// bodies never collide with each other (except joints marked collide) but do with
    /// other ragdolls'. Zero or positive is refused.
    std::int32_t collisionGroup = -1;
    std::uint32_t categoryBits = 1;  ///< the bodies' collision category (Filter::categoryBits)
    std::uint64_t userData = 0;  ///< stored on every body
};
RagdollDef defaultRagdollDef();

/// The handles of one built ragdoll, index-aligned with the rig: bodies[i] is made from
/// rig.bodies[i], joints[j] from rig.joints[j].
struct Ragdoll {
    std::vector<BodyId> bodies;
    std::vector<JointId> joints;
    bool empty() const { return bodies.empty() && joints.empty(); }
};

/// Builds the rig into the world. On failure (invalid def, a world refusing a body) it
/// builds nothing, returns an empty Ragdoll and says why in *error when given.
Ragdoll buildRagdoll(World& world, const RigDefinition& rig, const RagdollDef& def, std::string* error = nullptr);

/// Gives a body the shape, mass and friction of rig.bodies[body], as buildRagdoll does; on
/// a body already simulated it keeps the pose and the origin's velocity (a live edit).
bool shapeRagdollBody(World& world, const RigDefinition& rig, int body, BodyId id, std::int32_t collisionGroup,
                      std::uint32_t categoryBits = 1);
/// The same shape for another use: the mass scaled and the collision filter given.
bool shapeRagdollBody(World& world, const RigDefinition& rig, int body, BodyId id, const Filter& filter,
                      double massScale);

/// Removes every joint and body the ragdoll made (stale handles are skipped) and empties it.
void destroyRagdoll(World& world, Ragdoll& ragdoll);

/// A body's shape in its bone frame, as buildRagdoll makes it: a capsule's segment the
/// bone's length along it, circles and boxes centred on the body's centre (the bone's
/// midpoint (length/2, 0) unless the rig moves it).
Capsule bodyCapsule(const RigDefinition& rig, int body);
Circle bodyCircle(const RigDefinition& rig, int body);
/// The capsule holding a body's shape (a capsule itself; a circle as both ends at its
/// centre; a box as its middle line, its corners on the rim) for its bone at `origin`
/// turned by `angle`: in the space the pose is in (rig space for the rest pose, the world
/// for a body's transform).
Capsule placedBodyCapsule(const RigDefinition& rig, int body, Vec2 origin, double angle);
Polygon bodyBox(const RigDefinition& rig, int body);

}  // namespace ragdoll
