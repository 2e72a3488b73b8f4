// Every tuning number of the character layer, in one place.
#pragma once

#include <cstdint>

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
inline constexpr double kStepDownSpeed = 1.2;
inline constexpr double kGroundProbeUp = 0.6;       ///< m above the root a ground probe starts (a stair step is 0.18)
inline constexpr double kGroundProbeDown = 2.0;     ///< m below the root it ends
inline constexpr double kLedgeDrop = 0.3;           ///< m: ground further below than this is a fall, not a step down
inline constexpr double kWallProbeHeight = 0.5;     ///< m above the feet the wall probe runs
inline constexpr double kWallClearance = 0.3;       ///< m kept from a wall

// The collision proxy: a kinematic box around the standing character (props bump it).
inline constexpr double kProxyHalfWidth = 0.22;
inline constexpr double kProxyHeight = 1.8;

// Switching to physics and back.
inline constexpr double kGetUpBlendSeconds = 0.5;   ///< physics pose → get-up clip
inline constexpr double kBlendStep = 0.1;           ///< B/N change the blend weight by this
inline constexpr double kHitImpulse = 6.0;          ///< N·s given to every body by a hit (1/2/3)
inline constexpr std::uint32_t kDazedTint = 0xffd0b0a0u;  ///< ABGR multiplier while ragdolled (a paler, bluish figure)

// Mouse grab: a soft pin between the grabbed body and the mouse.
inline constexpr double kGrabStiffness = 0.08;      ///< fraction of the error removed per substep
inline constexpr double kGrabDamping = 4.0;         ///< 1/s, keeps the body from swinging forever

}  // namespace ragdoll::tuning
