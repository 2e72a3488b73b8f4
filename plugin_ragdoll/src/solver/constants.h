// Tuning constants of the solver, with units and why each value. Values a user may want
// to change at run time live in WorldDef instead.
#pragma once

#include <cstdint>

namespace ragdoll {

/// Overlap the contact solver leaves in place (metres). Resting contacts that are pushed
/// fully apart lose touch every substep and jitter; a little overlap keeps them touching.
/// Must stay below kLinearSlop.
inline constexpr double kAllowedPenetration = 0.002;

/// The fastest a contact pushes out an overlap it did not make this substep (m/s: so much
/// of a point's depth at the substep's start, beyond kAllowedPenetration, per substep).
/// Two crates pasted into one place, or a body teleported into another, separate at this
/// speed instead of being thrown apart: the whole depth taken back in one substep made
/// two coincident 1 m crates throw the upper one up at 59 m/s. What the substep's own
/// motion drives in is still pushed out whole. Box2D v3 caps its push the same (3 m/s,
/// b2WorldDef::contactPushMaxVelocity).
inline constexpr double kMaxPushOutSpeed = 3.0;

/// Geometric tolerance (metres): the largest resting overlap the tests accept, and the
/// margin used when deciding that two shapes touch.
inline constexpr double kLinearSlop = 0.005;

/// Contacts are created this far before shapes touch, plus the distance the pair can
/// close in one step, so a 50 m/s limb is caught by 0.1 m ground (metres).
inline constexpr double kSpeculativeDistance = 4.0 * kLinearSlop;

/// A contact is found again at a substep when its bodies' surfaces can sweep more than this
/// past each other in it (metres: the far ends' |ω|·extent and the relative speed along the
/// contact's tangent, times h): the closest features found at the step's start may no
/// longer be the ones that meet. 2.5 slops: at 2 the harness sweep left two ragdolls
/// awake instead of one, at 4 a forearm at 25 rad/s still went 10 mm into a ramp's corner.
inline constexpr double kContactRefreshTravel = 2.5 * kLinearSlop;

/// Contact searches per step at most: after the first, each searches again the pairs of the
/// islands a contact woke in the one before (an island woken with none of its own contacts
/// falls for a step). Three cover a body waking a pile two islands deep.
inline constexpr int kContactSearchPasses = 3;

/// The body-by-body contacts are swept in lanes along x (ContactLanes), two threads at a
/// time: a lane gets about this many contacts at least (a lane is a task: a few µs to hand
/// over against ~0.1 µs a contact), the x range at most kMaxLanes of them (enough for 8
/// workers at once), each at least kLaneWidth wide (metres: a contact's bodies then lie in
/// one slab or two neighbouring ones unless one is longer than a slab).
inline constexpr int kLaneContacts = 256;
inline constexpr int kMaxLanes = 16;
inline constexpr double kLaneWidth = 2.0;

/// Position sweeps per substep over the contacts between bodies outside every tree (props
/// on the terrain and on each other): one sweep left a crate resting off-centre on another
/// tilted by the upper crate's push after the ground had set it flat, and set flat about
/// its foot the next substep it walked 5–9 mm/s, the two crates together; three hold them
/// within 1 mm over 5 s. The joint trees' contacts are solved in their own systems.
inline constexpr int kPropContactSweeps = 3;

/// A prop a joint tree touches has its contacts with the terrain solved in the tree's contact
/// system, and so do the props it rests on (their contact's normal within acos(kPropUnder)
/// of straight up), down to this many props from the tree (a stack of crates a figure
/// leans on): each adds rows to the tree's dense system.
inline constexpr int kPropDepth = 3;
inline constexpr double kPropUnder = 0.5;

/// A prop on the terrain is held by it against the bodies it meets in the passes body by
/// body (TerrainHold), and a prop resting on a held prop by that one, up to this many layers
/// of a stack (the terrain's is the first). Each layer is a pass over the props' contacts
/// per step.
inline constexpr int kHeldPropLayers = 32;

/// A capsule shorter than this (metres) is a circle: its segment has no direction to build
/// normals from (World::setCapsule makes it one; the narrow phase's Capsule functions treat
/// it as one).
inline constexpr double kMinCapsuleLength = 1.0e-9;

/// Broadphase boxes are grown by this beyond the swept motion of a step (metres).
inline constexpr double kAabbMargin = 0.02;

/// Below this normal speed (in units of |g|·h) restitution is off, so resting bodies do
/// not bounce on gravity's own velocity (Müller 2020, §3.6).
inline constexpr double kRestitutionThresholdFactor = 2.0;

/// Speed limits: beyond these a velocity is clamped and reported. 120 m/s is well above any
/// ragdoll limb (a 50 m/s hit is the tested extreme); the angular limit is about 19 turns/s.
inline constexpr double kMaxLinearSpeed = 120.0;   ///< m/s
inline constexpr double kMaxAngularSpeed = 120.0;  ///< rad/s

/// A body whose fastest surface point (|v| + |ω|·extent, extent = the farthest point of
/// its shape from its centre of mass) stays below this for kTimeToSleep may sleep with its
/// island (Box2D's criterion: a slowly turning long limb and a resting head compare fairly).
inline constexpr double kSleepSpeed = 0.05;   ///< m/s
/// Sleeping islands are numbered from 0 as they fall asleep (a body count per step at most):
/// ids at or above this come from a corrupt snapshot, and the next id could overflow.
inline constexpr std::int64_t kMaxSleepingIsland = std::int64_t(1) << 62;
inline constexpr double kTimeToSleep = 0.5;   ///< seconds
/// A body with a contact this deep (metres) does not sleep: it is still being pushed out
/// (World::updateSleep). Twice the slop: resting contacts sit within it (the sweep's
/// figures rest 2.0 mm deep at most).
inline constexpr double kDeepOverlap = 2.0 * kLinearSlop;
/// A body whose fastest surface point (as for kSleepSpeed) is slower than this, a tenth of
/// it, counts its time towards kTimeToSleep twice over: one that has all but stopped sleeps
/// after 0.25 s, where one still sliding or turning at up to kSleepSpeed waits the whole
/// 0.5 s, so nothing that moves faster sleeps sooner (a figure creeping at 1 cm/s waits as
/// long as before). 5 mm/s is the speed the sweep benchmark calls stopped: its figures
/// rested 0.25 s sooner on average, moving as before (src/solver/NOTES.md, sleeping).
inline constexpr double kStillSpeed = 0.005;  ///< m/s

/// The direct joint solver iterates Newton steps until every joint's error is below these,
/// at most kMaxNewtonIterations times per substep (solver/NOTES.md: one fixed iteration fed
/// a whipping chain until it blew up; 1000:1 mass ratios need 2–4).
inline constexpr double kDirectLinearTolerance = 1e-6;   ///< metres: 1000× inside the 1 mm stretch goal
inline constexpr double kDirectAngularTolerance = 1e-6;  ///< radians
inline constexpr int kMaxNewtonIterations = 8;

/// A joint tree's contacts with the world are solved together through the tree
/// (TreeSolver::solveFreeMotion): kTreeContactIterations times per substep the contacts are
/// measured again, and each time kTreeContactSweeps projected Gauss-Seidel sweeps solve the
/// small dense system of their rows. A ragdoll lying on the ground touches it at several
/// limbs, which the tree couples: with a single sweep, each limb's push undid part of the
/// others' and a resting stickman kept twitching at 1 cm/s. One outer step left the sweep's
/// limits at 0.12° instead of 0.02°; 16 sweeps left a dropped generated rig sitting with an
/// arm swinging (the drop test), 24 settle it and stop 5 more of the sweep's switches. The
/// sweeps end early once converged (kTreeContactTolerance), but rows that repeat one
/// another through a tree converge slowly: over half of a resting pile's solves reach the
/// cap (NOTES.md, "Speed").
inline constexpr int kTreeContactIterations = 2;
inline constexpr int kTreeContactSweeps = 24;
/// The sweeps' cap for a system with joint friction: its rows hold the joints rigidly
/// while the friction lasts, so a resting ragdoll's system is a nearly rigid body on
/// several contacts, whose rows repeat one another more. At 24 a paper doll sitting on a
/// 25° ramp (friction 0.735, which holds it) crept 4–5 mm in 7 s; at 48 under 1 mm.
inline constexpr int kTreeContactSweepsWithFriction = 48;
/// The sweeps stop once no row moves its own residual by more than this (metres; for
/// velocities, this per substep h).
inline constexpr double kTreeContactTolerance = 1e-7;
/// A tree's contact rows start each substep's sweeps from this fraction of what they took
/// in the last one (warm start: a resting tree needs the same again; TreeSolver says what
/// went wrong cold). In full, a stale multiplier after a mass change or a teleport (the reliability soak) pushed
/// a 0.08 kg limb half a metre into a wall before the sweeps could take it back.
inline constexpr double kTreeContactWarmStart = 0.9;
/// Each contact point's row of a tree's system is this little soft: compliance this
/// fraction of its own response W_ii, so it gives by 0.1% of what its push would move it
/// free (micrometres for a resting limb). A figure resting on three or more points carries
/// its weight on rows that repeat one another (W is singular); rigid, the load's split
/// among them is any of many, and the sweeps, stopping at their cap, left a different split
/// each step with the friction budgets following it. A doll lying on the harness's stairs
/// rocked so at 6–12 mm/s for good (the load flipping between three stair edges every
/// other step); a little give makes the split unique. The sweep: on the harness 115
/// switches of 116 stopped within 3 s (113 rigid), the mean time to stop 1.49 → 1.32 s;
/// 0.3, 3 and 10 times as much: 113, 115 and 114 (src/solver/NOTES.md).
inline constexpr double kTreeContactPointCompliance = 1e-3;
/// A damped joint of a tree touching the world is a soft row of its contact system, made
/// as soft as takes back the fraction h·d of its turn with the limits near their bounds
/// held; the limits' estimated share is capped so the response used stays at least this
/// fraction of the free tree's (the estimate adds limits up one by one, and two limits on
/// one limb would otherwise count twice and weld the joint).
inline constexpr double kDampingRowMinResponse = 0.2;
/// A joint limit within this of its bound (radians) joins its tree's contact system, and
/// its damping rows count it as held.
inline constexpr double kLimitRowMargin = 0.02;
/// A joint limit within this of its bound (radians) joins its tree's contact system too, as
/// a row that acts only if the contacts' push would turn it past the bound: a running
/// ragdoll's landing limb was pushed out of the ground past a limit left out, and the joint
/// solve after the push turned it back 10 mm into the ground. The sweeps' pushes stay
/// within this (a reach of 10 rad, every limit, gave the same figures).
inline constexpr double kLimitRowReach = 0.1;

}  // namespace ragdoll
