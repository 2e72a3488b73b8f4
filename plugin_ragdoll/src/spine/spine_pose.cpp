#include "spine/spine_pose.h"

#include <algorithm>
#include <cmath>

namespace ragdoll {

namespace {

constexpr double kDegrees = 3.14159265358979323846 / 180.0;
/// Bisection steps for a Bézier's time: 2^-60 of the segment, past double precision.
constexpr int kBezierSteps = 60;

double bezierAt(double p0, double p1, double p2, double p3, double s) {
    const double u = 1.0 - s;
    return u * u * u * p0 + 3.0 * u * u * s * p1 + 3.0 * u * s * s * p2 + s * s * s * p3;
}

SpineLocal setupLocal(const SpineBone& bone) {
    return {bone.x, bone.y, bone.rotation, bone.scaleX, bone.scaleY, bone.shearX, bone.shearY};
}

/// World transform of bone i from its local transform and its parent's world transform.
void updateWorld(const SpineSkeleton& skeleton, const std::vector<SpineLocal>& locals, std::vector<SpineWorld>& world,
                 size_t i) {
    const SpineBone& bone = skeleton.bones[i];
    const SpineLocal& l = locals[i];
    const double la = std::cos((l.rotation + l.shearX) * kDegrees) * l.scaleX;
    const double lb = std::cos((l.rotation + 90.0 + l.shearY) * kDegrees) * l.scaleY;
    const double lc = std::sin((l.rotation + l.shearX) * kDegrees) * l.scaleX;
    const double ld = std::sin((l.rotation + 90.0 + l.shearY) * kDegrees) * l.scaleY;
    SpineWorld& w = world[i];
    if (bone.parent < 0) {
        w = {la, lb, lc, ld, l.x, l.y};
        return;
    }
    const SpineWorld& p = world[size_t(bone.parent)];
    w.x = p.a * l.x + p.b * l.y + p.x;
    w.y = p.c * l.x + p.d * l.y + p.y;
    double pa = p.a, pb = p.b, pc = p.c, pd = p.d;
    switch (bone.inherit) {
        case SpineInherit::Normal: break;
        case SpineInherit::OnlyTranslation: pa = 1, pb = 0, pc = 0, pd = 1; break;
        case SpineInherit::NoScale:
        case SpineInherit::NoScaleOrReflection: {
            const double angle = std::atan2(p.c, p.a);
            pa = std::cos(angle), pb = -std::sin(angle), pc = std::sin(angle), pd = std::cos(angle);
            break;
        }
        case SpineInherit::NoRotationOrReflection:
            pa = std::hypot(p.a, p.c), pb = 0, pc = 0, pd = std::hypot(p.b, p.d);
            break;
    }
    w.a = pa * la + pb * lc;
    w.b = pa * lb + pb * ld;
    w.c = pc * la + pd * lc;
    w.d = pc * lb + pd * ld;
}

/// Bone i and everything below it, from their locals (bones are parent-first).
void updateBranch(const SpineSkeleton& skeleton, const std::vector<SpineLocal>& locals, std::vector<SpineWorld>& world,
                  size_t from) {
    std::vector<char> moved(skeleton.bones.size(), 0);
    moved[from] = 1;
    updateWorld(skeleton, locals, world, from);
    for (size_t i = from + 1; i < skeleton.bones.size(); ++i) {
        const int parent = skeleton.bones[i].parent;
        if (parent >= 0 && moved[size_t(parent)]) {
            moved[i] = 1;
            updateWorld(skeleton, locals, world, i);
        }
    }
}

/// Turns bone i by `degrees` in world space (its local rotation changes by the same angle
/// for a bone whose parent is not mirrored), then re-poses its branch.
void turnBone(const SpineSkeleton& skeleton, std::vector<SpineLocal>& locals, std::vector<SpineWorld>& world, size_t i,
              double degrees) {
    const int parent = skeleton.bones[i].parent;
    const bool mirrored = parent >= 0 && world[size_t(parent)].a * world[size_t(parent)].d -
                                                 world[size_t(parent)].b * world[size_t(parent)].c < 0.0;
    locals[i].rotation += mirrored ? -degrees : degrees;
    updateBranch(skeleton, locals, world, i);
}

double boneLength(const SpineSkeleton& skeleton, const std::vector<SpineWorld>& world, size_t i) {
    return skeleton.bones[i].length * std::hypot(world[i].a, world[i].c);
}

void applyIk(const SpineSkeleton& skeleton, const SpineIk& ik, double mix, bool bendPositive, std::vector<SpineLocal>& locals,
             std::vector<SpineWorld>& world) {
    if (mix == 0.0 || ik.target < 0 || ik.bones.empty()) return;
    const SpineWorld& target = world[size_t(ik.target)];
    const double tx = target.x, ty = target.y;
    const size_t first = size_t(ik.bones[0]);
    if (ik.bones.size() == 1) {
        const SpineWorld& w = world[first];
        const double want = std::atan2(ty - w.y, tx - w.x) / kDegrees;
        turnBone(skeleton, locals, world, first, mix * wrapDegrees(want - w.angleDegrees()));
        return;
    }
    const size_t second = size_t(ik.bones[1]);
    const SpineWorld& p = world[first];
    // The child's origin in the parent's frame (usually its tip): distance and angle.
    const SpineWorld& c = world[second];
    const double det = p.a * p.d - p.b * p.c;
    if (std::abs(det) < 1e-12) return;
    const double dx = c.x - p.x, dy = c.y - p.y;
    const double d1 = std::hypot(dx, dy), d2 = boneLength(skeleton, world, second);
    const double offset = wrapDegrees(std::atan2(dy, dx) / kDegrees - p.angleDegrees());
    const double reach = std::hypot(tx - p.x, ty - p.y);
    const double towardTarget = std::atan2(ty - p.y, tx - p.x) / kDegrees;
    double parentWorld = towardTarget - offset, childWorld = towardTarget;
    if (d1 > 1e-9 && reach > 1e-9) {
        const double cosine = std::clamp((d1 * d1 + reach * reach - d2 * d2) / (2.0 * d1 * reach), -1.0, 1.0);
        const double spread = std::acos(cosine) / kDegrees;
        // Bending to the positive side puts the middle joint clockwise of the line to the target.
        const double toJoint = towardTarget + (bendPositive ? -spread : spread);
        const double jx = p.x + d1 * std::cos(toJoint * kDegrees), jy = p.y + d1 * std::sin(toJoint * kDegrees);
        parentWorld = toJoint - offset;
        childWorld = std::atan2(ty - jy, tx - jx) / kDegrees;
        if (d2 < 1e-9) childWorld = c.angleDegrees() + (parentWorld - p.angleDegrees());
    }
    const double parentTurn = mix * wrapDegrees(parentWorld - p.angleDegrees());
    turnBone(skeleton, locals, world, first, parentTurn);
    turnBone(skeleton, locals, world, second, mix * wrapDegrees(childWorld - world[second].angleDegrees()));
}

void applyTransform(const SpineSkeleton& skeleton, const SpineTransformConstraint& t, std::vector<SpineLocal>& locals,
                    std::vector<SpineWorld>& world) {
    if (t.target < 0) return;
    for (int bone : t.bones) {
        if (bone < 0) continue;
        const SpineWorld& target = world[size_t(t.target)];
        double wx = 0.0, wy = 0.0;
        target.transform(t.offsetX, t.offsetY, wx, wy);
        const double want = target.angleDegrees() + t.offsetRotation;
        SpineWorld& w = world[size_t(bone)];
        const int parent = skeleton.bones[size_t(bone)].parent;
        if (t.mixX != 0.0 || t.mixY != 0.0) {
            // Move the origin, then express it back in the parent's frame so the branch follows.
            const double nx = w.x + (wx - w.x) * t.mixX, ny = w.y + (wy - w.y) * t.mixY;
            if (parent < 0) {
                locals[size_t(bone)].x += nx - w.x;
                locals[size_t(bone)].y += ny - w.y;
            } else {
                const SpineWorld& p = world[size_t(parent)];
                const double det = p.a * p.d - p.b * p.c;
                if (std::abs(det) > 1e-12) {
                    locals[size_t(bone)].x = (p.d * (nx - p.x) - p.b * (ny - p.y)) / det;
                    locals[size_t(bone)].y = (p.a * (ny - p.y) - p.c * (nx - p.x)) / det;
                }
            }
            updateBranch(skeleton, locals, world, size_t(bone));
        }
        if (t.mixRotate != 0.0)
            turnBone(skeleton, locals, world, size_t(bone), t.mixRotate * wrapDegrees(want - world[size_t(bone)].angleDegrees()));
    }
}

}  // namespace

double SpineWorld::angleDegrees() const { return std::atan2(c, a) / kDegrees; }

double wrapDegrees(double degrees) {
    double wrapped = std::fmod(degrees, 360.0);
    if (wrapped <= -180.0) wrapped += 360.0;
    if (wrapped > 180.0) wrapped -= 360.0;
    return wrapped;
}

double sampleSpineBezier(double t0, double v0, const std::array<double, 4>& c, double t1, double v1, double time) {
    double low = 0.0, high = 1.0;
    for (int i = 0; i < kBezierSteps; ++i) {
        const double mid = 0.5 * (low + high);
        if (bezierAt(t0, c[0], c[2], t1, mid) < time) low = mid;
        else high = mid;
    }
    return bezierAt(v0, c[1], c[3], v1, 0.5 * (low + high));
}

double sampleSpineTimeline(const SpineTimeline& timeline, int channel, double time, double fallback) {
    const std::vector<SpineKey>& keys = timeline.keys;
    if (keys.empty() || time < keys.front().time) return fallback;
    size_t i = 0;
    while (i + 1 < keys.size() && keys[i + 1].time <= time) ++i;
    const SpineKey& k = keys[i];
    const double v0 = k.values[size_t(channel)];
    if (i + 1 == keys.size() || k.curve == SpineCurveType::Stepped) return v0;
    const SpineKey& next = keys[i + 1];
    const double v1 = next.values[size_t(channel)];
    if (k.curve == SpineCurveType::Bezier) return sampleSpineBezier(k.time, v0, k.bezier[size_t(channel)], next.time, v1, time);
    const double span = next.time - k.time;
    return span > 0.0 ? v0 + (v1 - v0) * (time - k.time) / span : v1;
}

std::vector<SpineWorld> poseSpineSkeleton(const SpineSkeleton& skeleton, const SpineAnimation* animation, double time) {
    const size_t count = skeleton.bones.size();
    std::vector<SpineLocal> locals(count);
    for (size_t i = 0; i < count; ++i) locals[i] = setupLocal(skeleton.bones[i]);
    std::vector<double> ikMix(skeleton.ik.size());
    std::vector<char> ikBend(skeleton.ik.size());
    for (size_t i = 0; i < skeleton.ik.size(); ++i) ikMix[i] = skeleton.ik[i].mix, ikBend[i] = skeleton.ik[i].bendPositive;

    if (animation) {
        for (const SpineTimeline& t : animation->timelines) {
            if (t.kind == SpineTimelineKind::Ik) {
                const size_t ik = size_t(t.target);
                if (t.keys.empty() || time < t.keys.front().time) continue;
                ikMix[ik] = sampleSpineTimeline(t, 0, time, ikMix[ik]);
                size_t k = 0;
                while (k + 1 < t.keys.size() && t.keys[k + 1].time <= time) ++k;
                ikBend[ik] = t.keys[k].bendPositive;
                continue;
            }
            const SpineBone& setup = skeleton.bones[size_t(t.target)];
            SpineLocal& l = locals[size_t(t.target)];
            switch (t.kind) {
                case SpineTimelineKind::Rotate: l.rotation = setup.rotation + sampleSpineTimeline(t, 0, time, 0.0); break;
                case SpineTimelineKind::Translate:
                    l.x = setup.x + sampleSpineTimeline(t, 0, time, 0.0);
                    l.y = setup.y + sampleSpineTimeline(t, 1, time, 0.0);
                    break;
                case SpineTimelineKind::TranslateX: l.x = setup.x + sampleSpineTimeline(t, 0, time, 0.0); break;
                case SpineTimelineKind::TranslateY: l.y = setup.y + sampleSpineTimeline(t, 0, time, 0.0); break;
                case SpineTimelineKind::Scale:
                    l.scaleX = setup.scaleX * sampleSpineTimeline(t, 0, time, 1.0);
                    l.scaleY = setup.scaleY * sampleSpineTimeline(t, 1, time, 1.0);
                    break;
                case SpineTimelineKind::ScaleX: l.scaleX = setup.scaleX * sampleSpineTimeline(t, 0, time, 1.0); break;
                case SpineTimelineKind::ScaleY: l.scaleY = setup.scaleY * sampleSpineTimeline(t, 0, time, 1.0); break;
                case SpineTimelineKind::Shear:
                case SpineTimelineKind::Ik: break;
            }
        }
    }
    std::vector<SpineWorld> world(count);
    for (size_t i = 0; i < count; ++i) updateWorld(skeleton, locals, world, i);

    // Constraints by their order (IK before transform at equal order, as listed).
    struct Step {
        int order, kind, index;
    };
    std::vector<Step> steps;
    for (size_t i = 0; i < skeleton.ik.size(); ++i) steps.push_back({skeleton.ik[i].order, 0, int(i)});
    for (size_t i = 0; i < skeleton.transforms.size(); ++i) steps.push_back({skeleton.transforms[i].order, 1, int(i)});
    std::stable_sort(steps.begin(), steps.end(), [](const Step& a, const Step& b) { return a.order < b.order; });
    for (const Step& s : steps) {
        if (s.kind == 0) applyIk(skeleton, skeleton.ik[size_t(s.index)], ikMix[size_t(s.index)], ikBend[size_t(s.index)] != 0, locals, world);
        else applyTransform(skeleton, skeleton.transforms[size_t(s.index)], locals, world);
    }
    return world;
}

}  // namespace ragdoll
