// Posing a Spine skeleton as the format defines it: the setup pose, an animation's bone
// timelines at a time (linear, stepped and Bézier curves), then the IK and transform
// constraints in their order — giving every bone's world transform. `rig import` bakes
// clips from it and places the art with the setup pose.
//
// A bone's local transform is (x, y, rotation, scaleX, scaleY, shearX, shearY); its world
// transform is the 2×2 matrix [a b; c d] and the origin (x, y), as the JSON format page
// describes: a = cos(r + shX)·sX, b = cos(r + 90° + shY)·sY, c = sin(r + shX)·sX,
// d = sin(r + 90° + shY)·sY, then multiplied by the parent's (inherit "normal"). The other
// inherit modes follow Spine's runtimes exactly (spine_pose.cpp, updateWorld): onlyTranslation
// keeps the local matrix; noRotationOrReflection takes the parent's stretch, neither turned
// nor mirrored; noScale and noScaleOrReflection take the direction the parent gives the
// bone's rotation, at unit length, noScale keeping the parent's mirror and
// noScaleOrReflection dropping it.
//
// Timelines replace the setup pose with mix 1 (rotation and translation are added to the
// setup values, scale multiplies them); before a timeline's first key the setup value
// holds, after its last key the last value. A Bézier segment is solved exactly: the
// curve's time x(s) = t is found by bisection and its value y(s) taken (Spine's runtimes
// sample it in segments; the difference is far below the clip tolerance).
//
// IK: one bone turns to point its +x at the target; two bones solve the triangle by the
// law of cosines (the child's origin may sit off the parent's tip), bending to the
// positive (counter-clockwise) side when bendPositive; mix blends the turn. Lengths are
// kept (softness, stretch and compress are not modelled). Transform constraints move the
// bones' world rotation and origin toward the target's (plus offsets) by their mixes.
#pragma once

#include <vector>

#include "spine/spine_skeleton.h"

namespace ragdoll {

struct SpineLocal {
    double x = 0.0, y = 0.0, rotation = 0.0, scaleX = 1.0, scaleY = 1.0, shearX = 0.0, shearY = 0.0;
};

struct SpineWorld {
    double a = 1.0, b = 0.0, c = 0.0, d = 1.0;  ///< the linear part: bone axes in world space
    double x = 0.0, y = 0.0;                    ///< the bone's origin in world space
    /// World angle of the bone's +x, degrees.
    double angleDegrees() const;
    /// A point of the bone's frame in world space.
    void transform(double lx, double ly, double& wx, double& wy) const {
        wx = a * lx + b * ly + x;
        wy = c * lx + d * ly + y;
    }
};

/// Value of a timeline channel (0 or 1) at time t; `fallback` before the first key.
double sampleSpineTimeline(const SpineTimeline& timeline, int channel, double time, double fallback);

/// Bézier y at time t for the curve from (t0, v0) to (t1, v1) with inner points c.
double sampleSpineBezier(double t0, double v0, const std::array<double, 4>& c, double t1, double v1, double time);

/// Every bone's world transform in the setup pose (animation null) or in the animation at
/// time (seconds), constraints applied.
std::vector<SpineWorld> poseSpineSkeleton(const SpineSkeleton& skeleton, const SpineAnimation* animation, double time);

/// Angle a − b wrapped into (−180, 180], degrees.
double wrapDegrees(double degrees);

}  // namespace ragdoll
