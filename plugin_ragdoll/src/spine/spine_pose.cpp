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

/// A local transform's matrix: the bone's axes, turned by `rotation` (degrees) and sheared,
/// scaled by its scale.
void localMatrix(double rotation, const SpineLocal& l, double& a, double& b, double& c, double& d) {
    a = std::cos((rotation + l.shearX) * kDegrees) * l.scaleX;
    b = std::cos((rotation + 90.0 + l.shearY) * kDegrees) * l.scaleY;
    c = std::sin((rotation + l.shearX) * kDegrees) * l.scaleX;
    d = std::sin((rotation + 90.0 + l.shearY) * kDegrees) * l.scaleY;
}

/// World transform of bone i from its local transform and its parent's world transform P,
/// by the rules of Spine's runtimes (3.8 to 4.2: Bone.updateWorldTransform, the "World
/// transforms" section of the Spine Runtimes Guide), with the skeleton's own scale 1. The
/// origin always goes through all of P. The axes:
/// - normal: P times the local matrix;
/// - onlyTranslation: the local matrix alone;
/// - noRotationOrReflection: P's x axis kept, its y axis replaced by P's x axis turned a
///   quarter counter-clockwise and scaled by |det P| / |P's x axis|² (P's stretch, neither
///   turned nor mirrored), the local rotation taken less P's x axis's angle (90° less that
///   of P's y axis when the x axis is under 0.01 long, the x axis then zero);
/// - noScale, noScaleOrReflection: the local rotation's direction through P, made unit
///   length (left as it is when under 1e-5 long, only multiplied by its length), with the
///   y axis a quarter turn counter-clockwise of it — turned the other way for noScale when
///   P mirrors (det P < 0): noScale keeps the parent's reflection, noScaleOrReflection
///   drops it — then times the local shear and scale (no rotation, it is in the direction).
void updateWorld(const SpineSkeleton& skeleton, const std::vector<SpineLocal>& locals, std::vector<SpineWorld>& world,
                 size_t i) {
    const SpineBone& bone = skeleton.bones[i];
    const SpineLocal& l = locals[i];
    SpineWorld& w = world[i];
    double la = 1, lb = 0, lc = 0, ld = 1;
    if (bone.parent < 0) {
        localMatrix(l.rotation, l, la, lb, lc, ld);
        w = {la, lb, lc, ld, l.x, l.y};
        return;
    }
    const SpineWorld& p = world[size_t(bone.parent)];
    w.x = p.a * l.x + p.b * l.y + p.x;
    w.y = p.c * l.x + p.d * l.y + p.y;
    // The parent's part, za zb / zc zd, times the local matrix.
    double za = p.a, zb = p.b, zc = p.c, zd = p.d;
    switch (bone.inherit) {
        case SpineInherit::Normal: localMatrix(l.rotation, l, la, lb, lc, ld); break;
        case SpineInherit::OnlyTranslation:
            za = 1, zb = 0, zc = 0, zd = 1;
            localMatrix(l.rotation, l, la, lb, lc, ld);
            break;
        case SpineInherit::NoRotationOrReflection: {
            const double xx = p.a * p.a + p.c * p.c;
            double parentTurn = 0.0;
            if (xx > 1e-4) {
                const double stretch = std::abs(p.a * p.d - p.b * p.c) / xx;
                zb = -p.c * stretch;
                zd = p.a * stretch;
                parentTurn = std::atan2(p.c, p.a) / kDegrees;
            } else {
                za = 0, zc = 0, zb = -p.b;
                parentTurn = 90.0 - std::atan2(p.d, p.b) / kDegrees;
            }
            localMatrix(l.rotation - parentTurn, l, la, lb, lc, ld);
            break;
        }
        case SpineInherit::NoScale:
        case SpineInherit::NoScaleOrReflection: {
            const double r = l.rotation * kDegrees;
            za = p.a * std::cos(r) + p.b * std::sin(r);
            zc = p.c * std::cos(r) + p.d * std::sin(r);
            const double length = std::hypot(za, zc);
            const double toUnit = length > 1e-5 ? 1.0 / length : length;
            za *= toUnit, zc *= toUnit;
            const bool keepsMirror = bone.inherit == SpineInherit::NoScale && p.a * p.d - p.b * p.c < 0.0;
            zb = keepsMirror ? zc : -zc;
            zd = keepsMirror ? -za : za;
            localMatrix(0.0, l, la, lb, lc, ld);
            break;
        }
    }
    w.a = za * la + zb * lc;
    w.b = za * lb + zb * ld;
    w.c = zc * la + zd * lc;
    w.d = zc * lb + zd * ld;
}

/// Whether a bone's world angle turns the other way from its local rotation because its
/// parent mirrors: for the modes that take the direction through the parent's matrix
/// (onlyTranslation and noRotationOrReflection take neither its turn nor its mirror).
bool turnsMirrored(const SpineSkeleton& skeleton, const std::vector<SpineWorld>& world, size_t i) {
    const SpineBone& bone = skeleton.bones[i];
    if (bone.parent < 0 || bone.inherit == SpineInherit::OnlyTranslation || bone.inherit == SpineInherit::NoRotationOrReflection)
        return false;
    const SpineWorld& p = world[size_t(bone.parent)];
    return p.a * p.d - p.b * p.c < 0.0;
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

/// Turns bone i by `degrees` in world space (its local rotation changes by the same angle,
/// the other way round where its parent's mirror turns it: turnsMirrored), then re-poses
/// its branch.
void turnBone(const SpineSkeleton& skeleton, std::vector<SpineLocal>& locals, std::vector<SpineWorld>& world, size_t i,
              double degrees) {
    locals[i].rotation += turnsMirrored(skeleton, world, i) ? -degrees : degrees;
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
