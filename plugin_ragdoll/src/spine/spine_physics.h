// The physics skeleton of an imported Spine character (bodies sized from the art, as the
// rig generator sizes them from bones, and a heavy torso under light limbs):
//
// - Bodies: a Spine bone gets one when it carries a visible part of meaningful size (at
//   least kMeaningfulPartFraction of the largest part's area). Helper, IK-target and
//   control bones carry none; their parts and their motion ride on the nearest ancestor
//   with a body.
// - The rig keeps only the bones with bodies (a character needs a body per bone). A bodied
//   bone's rig parent is its nearest bodied ancestor. Where a bone's chain has none (legs
//   hanging off a hip helper with no part), it is jointed to the body nearest the helper,
//   usually the torso; the table says so. The root is the torso-like bone, else the one
//   with the most art.
// - Radius from the art (the rig's own rule: the thickness across the bone of its parts).
//   Mass from the area of the parts riding on the bone, the torso heaviest (torso 8 kg
//   : limb 1.5 kg, as the stickman): the torso-like bones share kHeaviestBodyMass by area, any other
//   body weighs kLimbMass × its area / the median limb's, between kLightestBodyMass and
//   kMaxLimbFraction of the torso.
// - Joints: limits from the bone's role guessed from its name (elbow, knee one-way; neck,
//   shoulder, hip wide: rig_generator.h's recipe); a one-way hinge bends the way its setup
//   pose is bent; then a range a clip goes past is widened on that side to hold the
//   furthest angle the clips reach (plus kClipLimitMargin), so a character going limp
//   mid-clip starts inside its limits. A clip that only reaches a limit (a straight knee
//   in a walk) leaves it as guessed. Damping and friction as the
//   rig generator gives them (dampAndRubJoints).
#pragma once

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "spine/spine_import_model.h"

namespace ragdoll {

inline constexpr double kMeaningfulPartFraction = 0.02;  ///< of the largest part's area
inline constexpr double kHeaviestBodyMass = 8.0;         ///< kg: the torso, all of it
inline constexpr double kLimbMass = 1.5;                 ///< kg: a limb with the median limb's art
inline constexpr double kMaxLimbFraction = 0.5;          ///< of the torso's mass, at most
inline constexpr double kLightestBodyMass = 0.3;         ///< kg
inline constexpr double kHingeBendDegrees = 5.0;         ///< a setup bend that sets a hinge's side
inline constexpr double kClipLimitMargin = 5.0;          ///< degrees beyond what the clips reach
/// A body whose art's middle lies this many of its radii or more off where the body would
/// be (the bone's line, a head's midpoint) is centred on its art instead: nearer, the body
/// still covers most of its art (a shin part holding the foot, 0.35 radii off its bone).
inline constexpr double kArtOffBody = 0.5;
/// Degrees a clip may pass a guessed limit by and still be at it, not past it: the pose
/// maths' rounding (a walk's straight knee reaches its limit 0 to within 1e-12).
inline constexpr double kClipLimitTolerance = 1e-3;
/// What the rig file is given, rounded so that it reads as written: limits to a millionth of
/// a degree (not 45.000000000000014, the margin's sum in radians and back), masses to 0.1 g.
/// As steps per unit, so that round(x * steps) / steps is the nearest double to the decimal.
inline constexpr double kLimitStepsPerDegree = 1e6;
inline constexpr double kMassStepsPerKg = 1e4;

/// A limit in degrees as the rig gets it: rounded to 1 / kLimitStepsPerDegree, in radians by
/// the rig file's own factor (kPi / 180, multiplied), so that it is written back as rounded.
inline double writtenLimit(double degrees) {
    return std::round(degrees * kLimitStepsPerDegree) / kLimitStepsPerDegree * (kPi / 180.0);
}

/// Which Spine bones become rig bones, their rig parents, and what every other bone rides on.
SpineRigMap mapSpineSkeleton(const SpineSkeleton& skeleton, const std::vector<SpineWorld>& setup,
                             const std::vector<SpinePart>& parts);

/// The angles (degrees from rest, relative to the rig parent) a rig bone reaches in the
/// clips. Empty (low > high) until a clip is sampled: with no clips nothing is reached, not
/// the rest angle, so no limit is widened.
struct AngleRange {
    double low = std::numeric_limits<double>::infinity();
    double high = -std::numeric_limits<double>::infinity();
    std::string lowClip, highClip;  ///< the clip reaching furthest each way, for the table
    bool empty() const { return low > high; }
};

/// Adds a body per rig bone and a joint per rig parent–child pair to a rig whose bones and
/// sprites are in place, and the table of guesses (one line per body and joint) to `table`.
void addSpinePhysics(RigDefinition& rig, const SpineRigMap& map,
                     const std::vector<AngleRange>& clipRanges, std::vector<std::string>& table);

}  // namespace ragdoll
