// Analytic two-bone IK (law of cosines), for legs planting feet and arms reaching.
#pragma once

#include "solver/math.h"

namespace ragdoll {

struct TwoBoneIkResult {
    double upperAngle = 0.0;  ///< world angle of the upper bone (thigh, upper arm), radians
    double lowerAngle = 0.0;  ///< world angle of the lower bone (shin, forearm), radians
    bool reached = false;     ///< false: the target was out of reach and the chain points at it
};

/// Places a chain root → joint → end so the end lands on target. bendSign picks the side
/// the middle joint goes to, seen along root→target: +1 = left (counter-clockwise side),
/// -1 = right; it never flips, so a knee or elbow cannot bend the wrong way. A target
/// further than upper + lower stretches the chain straight toward it; one nearer than
/// |upper − lower| folds it fully.
TwoBoneIkResult solveTwoBoneIk(Vec2 root, double upperLength, double lowerLength, Vec2 target, double bendSign);

}  // namespace ragdoll
