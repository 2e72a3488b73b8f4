// Every tuning number of the character layer, in one place.
#pragma once

#include <cstdint>

namespace ragdoll {
/// The terrain's collision category: the bodies that follow an animated character leave it
/// out (the feet are planted by IK; a limb brushing a step must not be stopped by it).
inline constexpr std::uint32_t kTerrainCategory = 2;
/// Every character's bodies (limp, or following its animation): a character's ground and
/// wall probes leave them out. Standing on another's following bodies, a figure a walker
/// passed was lifted 0.76 m onto its legs.
inline constexpr std::uint32_t kCharacterCategory = 4;
}  // namespace ragdoll

namespace ragdoll::tuning {

// Locomotion.
inline constexpr double kClipFadeSeconds = 0.2;     ///< cross-fade between locomotion clips
/// The fastest a clip may play (clips play at 1): what a saved state may say.
inline constexpr double kMaxClipSpeed = 10.0;
inline constexpr double kJumpSpeed = 4.2;           ///< m/s upward at take-off (≈ 0.9 m apex)
/// m/s the root may rise or sink to follow the ground: a stair step (0.18 m) takes about a
/// quarter of a stride, as a walker's hips do, and the tracked velocities a switch to physics
/// hands over stay those of a walk (snapping up a step would launch the ragdoll at 10 m/s).
inline constexpr double kClimbSpeed = 0.8;
/// On a slope the ground rises steadily under the walk, and the root rises with it at the
/// slope's own rate on top of kClimbSpeed (a runner up a 20° ramp rises 1.3 m/s): measured
/// over kSlopeProbe behind the root, a rise no steeper than kMaxSlope (tan 50°; a 0.18 m
/// stair's edge within 0.1 m is 61°) is a slope, not a step. Terrain rising ahead steeper
/// than kMaxSlope (its surface's normal, where a stair's tread is flat) is a wall.
inline constexpr double kSlopeProbe = 0.1;
inline constexpr double kMaxSlope = 1.19;
/// m: the most the root may lag under the ground it follows (a 0.3 m step is climbed at
/// kClimbSpeed within it): a root further below lost the ground probe, which starts
/// kGroundProbeUp above it, and the walker fell through a steep ramp.
inline constexpr double kMaxGroundLag = 0.35;
inline constexpr double kStepDownSpeed = 1.2;
inline constexpr double kGroundProbeUp = 0.6;       ///< m above the root a ground probe starts (a stair step is 0.18)
inline constexpr double kGroundProbeDown = 2.0;     ///< m below the root it ends
inline constexpr double kLedgeDrop = 0.3;           ///< m: ground further below than this is a fall, not a step down
inline constexpr double kWallProbeHeight = 0.5;     ///< m above the feet the wall probe runs
inline constexpr double kHeadProbeBelowTop = 0.1;   ///< m under the standing figure's top the headroom probe ends
/// The headroom probe meets a ceiling where the terrain's normal points at least this much
/// down (an underside, slanted or flat; not a stair's riser or tread).
inline constexpr double kCeilingMinNormal = 0.3;
/// A foot still in the terrain after its ankle turned lifts the leg; standing still, only when
/// the way out is at least this much upward (the normal's y): not for a toe against a riser.
inline constexpr double kLiftToeMinNormal = 0.5;
inline constexpr double kWallClearance = 0.3;       ///< m kept from a wall
/// m past kWallClearance within which a wall stops a walker before it takes a step: it stands
/// (idle) rather than walking in place against the wall.
inline constexpr double kBlockedMargin = 0.02;

// The bodies that follow the animated bones (driven, weightless, touching props and other
// characters but not the terrain).
/// Their mass over the rig's: heavy enough that a prop hardly deflects the limb from the
/// drawn pose, light enough that a limb pressed against a crate gives way.
inline constexpr double kAnimatedMassScale = 30.0;
/// m: a prop this close to one of them counts as pushed (its mass slows the walk).
inline constexpr double kPushContactDistance = 0.01;
/// m: walking on into a prop it pushes, the walker pushes it on while a limb is this close.
inline constexpr double kPushKeepDistance = 0.15;
/// m/s: a prop coming at the walker faster than this is not walked into (it meets the limbs
/// as any prop does).
inline constexpr double kPushedComingSpeed = 0.1;
inline constexpr double kPushSearchDistance = 0.25;  ///< m around a following body searched for props
/// m/s over the walker's own speed a pushed prop may keep, and rad/s it may spin.
inline constexpr double kPushedSpeedSlack = 0.5;
/// m/s: the most a limb's own motion counts toward that while getting up.
inline constexpr double kLimbPushSpeed = 1.0;
inline constexpr double kPushedMaxSpin = 3.0;
inline constexpr double kPushedMaxRise = 0.2;  ///< m/s upward a pushed prop may keep
/// A prop this many times the character's mass or more is not pushed by its walk: it is met
/// as terrain is, a wall at knee height to stand at, a step whose edge the toe lifts over.
/// Walked into, a 1000 kg slab 25 cm tall held the stepping foot back and the walk surged at
/// it again: the walker went back and forth 28 cm each stride, playing its walk.
inline constexpr double kImmovablePropMassRatio = 10.0;

// Switching to physics and back.
inline constexpr double kGetUpBlendSeconds = 0.5;   ///< physics pose → get-up clip
/// A get-up is refused while the torso is higher over the ground under it than this times
/// its height standing: the ragdoll is in the air (falling off a ledge, thrown).
inline constexpr double kGetUpMostTorsoHeight = 1.5;
/// m either side of where it lies a get-up looks for room to stand (lying under a table),
/// in steps of kGetUpRoomStep.
inline constexpr double kGetUpRoomSearch = 1.5;
inline constexpr double kGetUpRoomStep = 0.05;
inline constexpr double kGetUpRoomBand = 0.2;  ///< m: the room is tested in bands this tall at most
inline constexpr double kGetUpMatchStep = 1.0 / 30.0;  ///< s between the get-up frames compared with the lying pose
/// Pose-distance units (m·rad²) per second into a get-up clip: of two nearly equal frames the
/// earlier wins, so a body lying flat starts from the start.
inline constexpr double kGetUpMatchLatePenalty = 0.05;
/// m a shown pose may reach into the terrain before it is lifted out (getting up).
inline constexpr double kPoseTerrainTolerance = 0.004;
/// A prop the figure reaches into holds it back sideways by at most this much a step (m),
/// and only when the way out is at least this sideways (a crate on the head does not).
inline constexpr double kPropHoldBackMax = 0.1;
inline constexpr double kPropHoldBackMinNormal = 0.3;
inline constexpr double kMaxGetUpShift = 1.0;  ///< m the props may move a get-up's pose sideways in all
/// kg·m: a saved limit warm start (a substep's position impulse) past this is corrupt; a
/// limit of a lying stickman takes well under 1.
inline constexpr double kMaxLimitWarmStart = 1e4;
/// kg: a saved pushed mass past this is corrupt (a level's props weigh a few kilograms each).
inline constexpr double kMaxPushedMass = 1e6;
/// A saved bone velocity past these is corrupt (m/s, rad/s). Generous: a teleport can leave
/// a large one for a step, and the solver clamps what a ragdoll is handed anyway.
inline constexpr double kMaxBoneSpeed = 1e6;
inline constexpr double kMaxBoneTurnRate = 1e6;
inline constexpr double kBlendStep = 0.1;           ///< B/N change the blend weight by this
inline constexpr double kHitImpulse = 6.0;          ///< N·s given to every body by a hit (1/2/3)
/// While ragdolled (Appearance::tint): 45 % of the way to a pale blue-grey (#b4c4d8), so a
/// black figure turns slate and a light one bluish; either way it stands out from itself.
inline constexpr std::uint32_t kDazedTint = 0x8cd8c4b4u;

// Mouse grab: a soft pin between the grabbed body and the mouse.
inline constexpr double kGrabStiffness = 0.08;      ///< fraction of the error removed per substep
inline constexpr double kGrabDamping = 4.0;         ///< 1/s, keeps the body from swinging forever
/// The pin's anchor leads the grabbed point by at most this (metres): the pull is bounded,
/// as a mouse joint's force is elsewhere. Following the mouse however far, a crate dragged
/// 5 m under the floor was driven through the crate under it, which shot out of the level
/// at 29 m/s (now 5 m/s, knocked by the falling crate); a flick still throws a ragdoll at
/// 17 m/s (71 m/s before: more than any throw needs).
inline constexpr double kGrabMaxLead = 0.3;

}  // namespace ragdoll::tuning
