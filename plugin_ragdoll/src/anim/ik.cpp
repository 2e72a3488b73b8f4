// Analytic two-bone IK.
//
// The middle joint is found as the intersection of two circles (around the root with the
// upper length, around the target with the lower length): `along` is its distance along
// root→target, `height` its distance off that line, on the bendSign side. Both angles then
// come from atan2 of actual positions. Rejected: the textbook acos of the law of cosines
// for each angle — near full extension acos loses half the digits (its slope is infinite
// at ±1), which puts the end ~1e-8 m off; the circle form keeps the end within round-off.
//
// Targets out of range are first moved along root→target to the nearest reachable
// distance (|upper − lower| ≤ d ≤ upper + lower), so the chain stretches straight toward
// a far target and folds fully for a near one. A target on the root (no direction at all)
// uses +x as the direction, so the result is defined and finite.

#include "anim/ik.h"

#include <algorithm>
#include <cmath>

namespace ragdoll {

TwoBoneIkResult solveTwoBoneIk(Vec2 root, double upperLength, double lowerLength, Vec2 target, double bendSign) {
    const double side = bendSign < 0.0 ? -1.0 : 1.0;
    const double upper = std::max(upperLength, 0.0), lower = std::max(lowerLength, 0.0);
    const Vec2 toTarget = target - root;
    const double distance = length(toTarget);
    const double reach = upper + lower, fold = std::abs(upper - lower);
    // Below this distance the direction root→target is noise.
    const double tiny = 1.0e-12 * std::max(reach, 1.0);
    const Vec2 direction = distance > tiny ? (1.0 / distance) * toTarget : Vec2{1.0, 0.0};

    TwoBoneIkResult result;
    result.reached = distance >= fold && distance <= reach;
    const double clamped = std::clamp(distance, fold, reach);
    if (clamped <= tiny) {
        // Equal lengths and the target on the root: folded flat, the joint to the side.
        const double base = std::atan2(direction.y, direction.x);
        result.upperAngle = base + side * 0.5 * kPi;
        result.lowerAngle = result.upperAngle - side * kPi;
        return result;
    }
    const double along = (upper * upper - lower * lower + clamped * clamped) / (2.0 * clamped);
    const double height = std::sqrt(std::max(upper * upper - along * along, 0.0));
    const Vec2 joint = root + along * direction + (side * height) * perp(direction);
    const Vec2 end = root + clamped * direction;
    const Vec2 upperVector = joint - root, lowerVector = end - joint;
    result.upperAngle = upper > 0.0 ? std::atan2(upperVector.y, upperVector.x) : std::atan2(direction.y, direction.x);
    result.lowerAngle = lower > 0.0 ? std::atan2(lowerVector.y, lowerVector.x) : result.upperAngle;
    return result;
}

}  // namespace ragdoll
