// The joint-limit gizmo's maths against figures worked out by hand: mouse angles around a
// pivot in rotated and mirrored parent frames, handle hits at several zooms, snapping,
// drags across the ±180° seam and against the other handle, arcs, outside(), labels.
// Angles are written in degrees and compared in radians.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "gizmo/gizmo_math.h"
#include "gizmo/label_layout.h"

using namespace paper::editor;

namespace {

constexpr double kPi = 3.14159265358979323846;

double deg(double degrees) { return toRadians(degrees); }

// The world point at worldDegrees and radiusMetres from pivot, computed here rather than with
// the library's pointOnArc so the mouse tests do not check the library against itself.
Vec2d worldPoint(Vec2d pivot, double worldDegrees, double radiusMetres) {
    return {pivot.x + radiusMetres * std::cos(deg(worldDegrees)), pivot.y + radiusMetres * std::sin(deg(worldDegrees))};
}

Vec2d offset(Vec2d p, double worldDegrees, double metres) { return worldPoint(p, worldDegrees, metres); }

double distance(Vec2d a, Vec2d b) { return std::hypot(a.x - b.x, a.y - b.y); }

GizmoFrame frame(double parentDegrees, double restDegrees, bool mirrored, Vec2d pivot = {1.5, -0.75}) {
    return {pivot, deg(parentDegrees), deg(restDegrees), mirrored};
}

// Drives a drag through mouse angles (degrees, rig sense) and returns the limits after each.
std::vector<JointLimits> drag(GizmoPart handle, JointLimits limits, std::vector<double> mouseDegrees, SnapMode snap) {
    LimitDrag d = beginLimitDrag(handle, limits, deg(mouseDegrees.front()));
    std::vector<JointLimits> out;
    for (double m : mouseDegrees) {
        limits = updateLimitDrag(d, limits, deg(m), snap);
        out.push_back(limits);
    }
    return out;
}

}  // namespace

TEST_CASE("wrapAngle wraps to above -180 and up to 180 degrees", "[gizmo]") {
    CHECK(wrapAngle(-kPi) == kPi);
    CHECK(wrapAngle(kPi) == kPi);
    CHECK(wrapAngle(deg(-190.0)) == Approx(deg(170.0)).margin(1e-12));
    CHECK(wrapAngle(deg(370.0)) == Approx(deg(10.0)).margin(1e-12));
    CHECK(wrapAngle(3.0 * kPi) == Approx(kPi).margin(1e-12));
    CHECK(wrapAngle(deg(45.0)) == deg(45.0));
}

TEST_CASE("joint angle 0 points along parentAngle + restOffset, mirrored along parentAngle - restOffset", "[gizmo]") {
    // Parent at 30°, child at rest 60° from it: angle 0 points straight up, +10° at 100°.
    const GizmoFrame right = frame(30.0, 60.0, false);
    CHECK(worldAngleOfJointAngle(right, 0.0) == Approx(deg(90.0)).margin(1e-12));
    CHECK(directionOfJointAngle(right, 0.0).x == Approx(0.0).margin(1e-12));
    CHECK(directionOfJointAngle(right, 0.0).y == Approx(1.0).margin(1e-12));
    CHECK(worldAngleOfJointAngle(right, deg(10.0)) == Approx(deg(100.0)).margin(1e-12));

    // Mirrored: angle 0 at 30° − 60° = −30°, and +10° turns clockwise to −40°.
    const GizmoFrame left = frame(30.0, 60.0, true);
    CHECK(directionOfJointAngle(left, 0.0).x == Approx(std::sqrt(3.0) / 2.0).margin(1e-12));
    CHECK(directionOfJointAngle(left, 0.0).y == Approx(-0.5).margin(1e-12));
    CHECK(worldAngleOfJointAngle(left, deg(10.0)) == Approx(deg(-40.0)).margin(1e-12));
    CHECK(jointAngleOfWorldAngle(left, deg(-40.0)) == Approx(deg(10.0)).margin(1e-12));

    // A point on the arc lies at the radius, along the direction.
    const Vec2d p = pointOnArc(right, deg(10.0), 0.4);
    CHECK(p.x == Approx(1.5 + 0.4 * std::cos(deg(100.0))).margin(1e-12));
    CHECK(p.y == Approx(-0.75 + 0.4 * std::sin(deg(100.0))).margin(1e-12));
}

TEST_CASE("angleFromMouse: worked examples in rotated and mirrored parent frames", "[gizmo]") {
    const Vec2d pivot{1.5, -0.75};
    // Parent at 30°, mouse straight above the pivot (world 90°): 60°, mirrored 30° − 90° = −60°.
    CHECK(angleFromMouse(frame(30.0, 0.0, false), worldPoint(pivot, 90.0, 0.3)) == Approx(deg(60.0)).margin(1e-12));
    CHECK(angleFromMouse(frame(30.0, 0.0, true), worldPoint(pivot, 90.0, 0.3)) == Approx(deg(-60.0)).margin(1e-12));
    // Parent at 135°, mouse down-left (world −135°): −270° wraps to 90°; mirrored 270° to −90°.
    CHECK(angleFromMouse(frame(135.0, 0.0, false), worldPoint(pivot, -135.0, 0.3)) == Approx(deg(90.0)).margin(1e-12));
    CHECK(angleFromMouse(frame(135.0, 0.0, true), worldPoint(pivot, -135.0, 0.3)) == Approx(deg(-90.0)).margin(1e-12));
    // Parent at −170°, mouse at world 170°: 340° wraps to −20°; mirrored −340° to 20°.
    CHECK(angleFromMouse(frame(-170.0, 0.0, false), worldPoint(pivot, 170.0, 0.3)) == Approx(deg(-20.0)).margin(1e-12));
    CHECK(angleFromMouse(frame(-170.0, 0.0, true), worldPoint(pivot, 170.0, 0.3)) == Approx(deg(20.0)).margin(1e-12));
    // With a rest offset of 25°: 90° − 30° − 25° = 35°; mirrored 30° − 25° − 90° = −85°.
    CHECK(angleFromMouse(frame(30.0, 25.0, false), worldPoint(pivot, 90.0, 0.3)) == Approx(deg(35.0)).margin(1e-12));
    CHECK(angleFromMouse(frame(30.0, 25.0, true), worldPoint(pivot, 90.0, 0.3)) == Approx(deg(-85.0)).margin(1e-12));
}

TEST_CASE("angleFromMouse: the same angle at every radius", "[gizmo]") {
    const Vec2d pivot{1.5, -0.75};
    for (double parent : {30.0, 135.0, -170.0}) {
        for (bool mirrored : {false, true}) {
            for (double rest : {0.0, 25.0, -110.0}) {
                const GizmoFrame f = frame(parent, rest, mirrored, pivot);
                for (double joint : {-179.5, -120.0, -45.0, 0.0, 10.0, 90.0, 179.5}) {
                    const double world = mirrored ? parent - rest - joint : parent + rest + joint;
                    for (double radius : {0.01, 0.25, 1.0, 7.5}) {
                        INFO("parent " << parent << "° mirrored " << mirrored << " rest " << rest << "° joint "
                                       << joint << "° radius " << radius << " m");
                        CHECK(std::abs(angleFromMouse(f, worldPoint(pivot, world, radius)) - deg(joint)) < 1e-9);
                    }
                }
            }
        }
    }
}

TEST_CASE("angle to point on the arc and back again", "[gizmo]") {
    for (double parent : {30.0, 135.0, -170.0}) {
        for (bool mirrored : {false, true}) {
            const GizmoFrame f = frame(parent, 17.0, mirrored);
            for (double joint = -179.0; joint <= 180.0; joint += 7.0) {
                for (double radius : {0.05, 0.6, 3.0}) {
                    INFO("parent " << parent << "° mirrored " << mirrored << " joint " << joint << "° radius "
                                   << radius);
                    const Vec2d p = pointOnArc(f, deg(joint), radius);
                    CHECK(distance(p, f.pivot) == Approx(radius).epsilon(1e-12));
                    CHECK(std::abs(angleFromMouse(f, p) - deg(joint)) < 1e-9);
                }
            }
        }
    }
}

TEST_CASE("hitTest: a 10 px handle is hit from 5 px and missed from 15 px at every zoom", "[gizmo]") {
    const JointLimits limits{deg(-30.0), deg(100.0)};
    for (double pixelsPerMetre : {20.0, 85.0, 400.0}) {
        for (bool mirrored : {false, true}) {
            const GizmoFrame f = frame(30.0, 0.0, mirrored, {1.5, 0.8});
            // What a 60 px arc with 10 px handles has under the point `pixels` screen pixels
            // from `from` towards world angle `worldDegrees`.
            auto hitNear = [&](Vec2d from, double worldDegrees, double pixels) {
                const Vec2d mouse = offset(from, worldDegrees, pixels / pixelsPerMetre);
                return hitTest(f, limits, 60.0, 10.0, pixelsPerMetre, mouse);
            };
            for (GizmoPart handle : {GizmoPart::LowerHandle, GizmoPart::UpperHandle}) {
                const double angle = handle == GizmoPart::LowerHandle ? limits.lower : limits.upper;
                const Vec2d centre = pointOnArc(f, angle, 60.0 / pixelsPerMetre);
                const double radial = toDegrees(worldAngleOfJointAngle(f, angle));
                INFO(pixelsPerMetre << " px/m, mirrored " << mirrored << ", " << partName(handle));
                for (double direction : {radial, radial + 180.0, radial + 90.0, radial - 90.0, radial + 45.0})
                    CHECK(hitNear(centre, direction, 5.0) == handle);
                CHECK(hitNear(centre, radial, 9.9) == handle);
                CHECK(hitNear(centre, radial, 10.1) == GizmoPart::None);
                // 15 px out or in from the arc: nothing.
                CHECK(hitNear(centre, radial, 15.0) == GizmoPart::None);
                CHECK(hitNear(centre, radial + 180.0, 15.0) == GizmoPart::None);
            }
            // 15 px along the tangent from the upper handle: 61.8 px from the pivot, so on the arc
            // at 100° − atan(15/60) = 86.0° inside the range, and nothing at 114.0° beyond it.
            const Vec2d upper = pointOnArc(f, limits.upper, 60.0 / pixelsPerMetre);
            const double radial = toDegrees(worldAngleOfJointAngle(f, limits.upper));
            const double inward = mirrored ? radial + 90.0 : radial - 90.0;
            CHECK(hitNear(upper, inward, 15.0) == GizmoPart::Arc);
            CHECK(hitNear(upper, inward + 180.0, 15.0) == GizmoPart::None);
        }
    }
}

TEST_CASE("hitTest: the arc is hit within 4 px of its line and only inside the range", "[gizmo]") {
    const GizmoFrame f = frame(-170.0, 20.0, false, {0.0, 1.0});
    const JointLimits limits{deg(-30.0), deg(100.0)};
    const double ppm = 85.0;
    const double world35 = toDegrees(worldAngleOfJointAngle(f, deg(35.0)));
    CHECK(hitTest(f, limits, 60.0, 10.0, ppm, worldPoint(f.pivot, world35, 60.0 / ppm)) == GizmoPart::Arc);
    CHECK(hitTest(f, limits, 60.0, 10.0, ppm, worldPoint(f.pivot, world35, 63.0 / ppm)) == GizmoPart::Arc);
    CHECK(hitTest(f, limits, 60.0, 10.0, ppm, worldPoint(f.pivot, world35, 57.0 / ppm)) == GizmoPart::Arc);
    CHECK(hitTest(f, limits, 60.0, 10.0, ppm, worldPoint(f.pivot, world35, 65.0 / ppm)) == GizmoPart::None);
    CHECK(hitTest(f, limits, 60.0, 10.0, ppm, worldPoint(f.pivot, world35, 55.0 / ppm)) == GizmoPart::None);
    const double world150 = toDegrees(worldAngleOfJointAngle(f, deg(150.0)));
    CHECK(hitTest(f, limits, 60.0, 10.0, ppm, worldPoint(f.pivot, world150, 60.0 / ppm)) == GizmoPart::None);
    CHECK(hitTest(f, limits, 60.0, 10.0, ppm, f.pivot) == GizmoPart::None);
    // A view without a zoom hits nothing.
    CHECK(hitTest(f, limits, 60.0, 10.0, 0.0, worldPoint(f.pivot, world35, 1.0)) == GizmoPart::None);
}

TEST_CASE("hitTest: overlapping handles give the one that can move towards the mouse", "[gizmo]") {
    const double ppm = 85.0, r = 60.0 / ppm;
    for (bool mirrored : {false, true}) {
        const GizmoFrame f = frame(135.0, -40.0, mirrored);
        INFO("mirrored " << mirrored);
        auto hit = [&](JointLimits limits, double mouseDegrees) {
            return hitTest(f, limits, 60.0, 10.0, ppm, pointOnArc(f, deg(mouseDegrees), r));
        };
        // Coinciding at 40°: 1° above them (1 px away) the upper one, 1° below the lower one.
        CHECK(hit({deg(40.0), deg(40.0)}, 41.0) == GizmoPart::UpperHandle);
        CHECK(hit({deg(40.0), deg(40.0)}, 39.0) == GizmoPart::LowerHandle);
        CHECK(hit({deg(40.0), deg(40.0)}, 40.0) == GizmoPart::UpperHandle);
        // 5° apart (5.2 px) and both within reach: the nearer one.
        CHECK(hit({deg(40.0), deg(45.0)}, 41.0) == GizmoPart::LowerHandle);
        CHECK(hit({deg(40.0), deg(45.0)}, 44.0) == GizmoPart::UpperHandle);
        // Pinned at +180°: only the lower one can move; at −180° only the upper one.
        CHECK(hit({kPi, kPi}, 179.0) == GizmoPart::LowerHandle);
        CHECK(hit({kPi, kPi}, -179.0) == GizmoPart::LowerHandle);
        CHECK(hit({-kPi, -kPi}, -179.0) == GizmoPart::UpperHandle);
        CHECK(hit({-kPi, -kPi}, 179.0) == GizmoPart::UpperHandle);
        // The full circle: both handles at the seam; the side of the seam decides.
        CHECK(hit({-kPi, kPi}, 179.0) == GizmoPart::UpperHandle);
        CHECK(hit({-kPi, kPi}, -179.0) == GizmoPart::LowerHandle);
    }
}

TEST_CASE("snapAngle: 5 degrees by default, 1 fine, none free, within +-180", "[gizmo]") {
    CHECK(snapStepDegrees(SnapMode::Default) == 5.0);
    CHECK(snapStepDegrees(SnapMode::Fine) == 1.0);
    CHECK(snapStepDegrees(SnapMode::Free) == 0.0);

    CHECK(snapAngle(deg(97.4), SnapMode::Default) == deg(95.0));
    CHECK(snapAngle(deg(97.4), SnapMode::Fine) == deg(97.0));
    CHECK(snapAngle(deg(97.4), SnapMode::Free) == deg(97.4));
    CHECK(snapAngle(deg(-177.6), SnapMode::Default) == -kPi);
    CHECK(snapAngle(deg(-177.6), SnapMode::Fine) == deg(-178.0));
    CHECK(snapAngle(deg(-2.6), SnapMode::Default) == deg(-5.0));
    CHECK(snapAngle(deg(-2.4), SnapMode::Default) == 0.0);
    CHECK(snapAngle(deg(178.9), SnapMode::Default) == kPi);
    // Beyond ±180° clamps, in every mode.
    CHECK(snapAngle(deg(183.0), SnapMode::Default) == kPi);
    CHECK(snapAngle(deg(200.0), SnapMode::Fine) == kPi);
    CHECK(snapAngle(deg(-200.0), SnapMode::Free) == -kPi);
}

TEST_CASE("dragging the upper handle of -170..170 across the seam stops at 180 and never jumps to -180", "[gizmo]") {
    const JointLimits limits{deg(-170.0), deg(170.0)};
    // Through the mouse, in a rotated, mirrored frame: the rig-sense angles come from angleFromMouse.
    const GizmoFrame f = frame(-170.0, 35.0, true);
    auto mouse = [&](double jointDegrees) { return angleFromMouse(f, pointOnArc(f, deg(jointDegrees), 0.4)); };
    LimitDrag d = beginLimitDrag(GizmoPart::UpperHandle, limits, mouse(170.0));
    JointLimits now = limits;
    const std::vector<std::pair<double, double>> steps = {
        {175.0, 175.0}, {179.0, 179.0}, {-179.0, 180.0}, {-175.0, 180.0}, {-170.0, 180.0},  // over the seam
        {-179.0, 180.0}, {179.0, 179.0}, {172.0, 172.0},                                   // and back
    };
    for (auto [mouseDegrees, expectedUpper] : steps) {
        now = updateLimitDrag(d, now, mouse(mouseDegrees), SnapMode::Fine);
        INFO("mouse at " << mouseDegrees << "°");
        CHECK(now.upper == Approx(deg(expectedUpper)).margin(1e-12));
        CHECK(now.lower == Approx(deg(-170.0)).margin(1e-12));
    }

    // Free: the handle follows to the tenth of a degree and still stops at +180°.
    const std::vector<JointLimits> free =
        drag(GizmoPart::UpperHandle, limits, {170.0, 179.5, -179.5, 179.8}, SnapMode::Free);
    CHECK(free[1].upper == Approx(deg(179.5)).margin(1e-12));
    CHECK(free[2].upper == kPi);
    CHECK(free[3].upper == Approx(deg(179.8)).margin(1e-12));
    // The range now reaches the seam and draws 350°.
    CHECK(arcSweep(f, free[2]).sweepRadians == Approx(-deg(350.0)).margin(1e-12));
}

TEST_CASE("dragging the lower handle of -170..170 across the seam stops at -180", "[gizmo]") {
    const std::vector<JointLimits> steps = drag(GizmoPart::LowerHandle, {deg(-170.0), deg(170.0)},
                                                {-170.0, -175.0, -179.0, 179.0, 175.0, -178.0}, SnapMode::Fine);
    const double expected[] = {-170.0, -175.0, -179.0, -180.0, -180.0, -178.0};
    for (size_t i = 0; i < steps.size(); ++i) {
        INFO("step " << i);
        CHECK(steps[i].lower == Approx(deg(expected[i])).margin(1e-12));
        CHECK(steps[i].upper == Approx(deg(170.0)).margin(1e-12));
    }
}

TEST_CASE("a drag remembers turns: a mouse that went on round brings the handle back only across the seam", "[gizmo]") {
    // The mouse crosses the seam and carries on a whole turn counter-clockwise (in rig sense)
    // to 170° again, that is 530° unwrapped: the handle stays at 180° all the way, then
    // comes back the same way and follows from 179° on.
    const std::vector<JointLimits> steps =
        drag(GizmoPart::UpperHandle, {deg(-170.0), deg(170.0)},
             {170.0, 179.0, -90.0, 0.0, 90.0, 170.0, 90.0, 0.0, -90.0, -179.0, 179.0, 150.0}, SnapMode::Default);
    const double expected[] = {170.0, 180.0, 180.0, 180.0, 180.0, 180.0, 180.0, 180.0, 180.0, 180.0, 180.0, 150.0};
    for (size_t i = 0; i < steps.size(); ++i) {
        INFO("step " << i);
        CHECK(steps[i].upper == Approx(deg(expected[i])).margin(1e-12));
    }
}

TEST_CASE("handles never cross: a dragged handle stops at the other one", "[gizmo]") {
    const JointLimits limits{deg(-30.0), deg(40.0)};
    SECTION("lower dragged past upper") {
        const std::vector<JointLimits> steps =
            drag(GizmoPart::LowerHandle, limits, {-30.0, 0.0, 39.0, 41.0, 60.0, 120.0, 10.0}, SnapMode::Fine);
        const double expected[] = {-30.0, 0.0, 39.0, 40.0, 40.0, 40.0, 10.0};
        for (size_t i = 0; i < steps.size(); ++i) {
            INFO("step " << i);
            CHECK(steps[i].lower == Approx(deg(expected[i])).margin(1e-12));
            CHECK(steps[i].upper == Approx(deg(40.0)).margin(1e-12));
        }
    }
    SECTION("upper dragged past lower, on past the seam and back") {
        const std::vector<JointLimits> steps =
            drag(GizmoPart::UpperHandle, limits,
                 {40.0, 0.0, -29.0, -31.0, -90.0, -170.0, -179.0, 179.0, -179.0, -90.0, 0.0}, SnapMode::Fine);
        const double expected[] = {40.0, 0.0, -29.0, -30.0, -30.0, -30.0, -30.0, -30.0, -30.0, -30.0, 0.0};
        for (size_t i = 0; i < steps.size(); ++i) {
            INFO("step " << i);
            CHECK(steps[i].upper == Approx(deg(expected[i])).margin(1e-12));
            CHECK(steps[i].lower == Approx(deg(-30.0)).margin(1e-12));
        }
    }
    SECTION("snapping never carries a handle past an off-grid neighbour") {
        // 12.6° snaps to 15°, beyond the upper limit at 12.3°: the lower handle stops at 12.3°.
        const JointLimits after =
            applyHandleDrag(GizmoPart::LowerHandle, {deg(-30.0), deg(12.3)}, deg(12.6), SnapMode::Default);
        CHECK(after.lower == deg(12.3));
        CHECK(after.upper == deg(12.3));
    }
}

TEST_CASE("handles on one another: the first move decides which is dragged", "[gizmo]") {
    const JointLimits limits{deg(90.0), deg(90.0)};
    for (GizmoPart pressed : {GizmoPart::LowerHandle, GizmoPart::UpperHandle}) {
        INFO((pressed == GizmoPart::LowerHandle ? "the press found the lower handle" : "the press found the upper handle"));
        const std::vector<JointLimits> up = drag(pressed, limits, {90.0, 95.0, 120.0}, SnapMode::Fine);
        CHECK(up.back().lower == Approx(deg(90.0)).margin(1e-12));
        CHECK(up.back().upper == Approx(deg(120.0)).margin(1e-12));
        const std::vector<JointLimits> down = drag(pressed, limits, {90.0, 85.0, 40.0}, SnapMode::Fine);
        CHECK(down.back().lower == Approx(deg(40.0)).margin(1e-12));
        CHECK(down.back().upper == Approx(deg(90.0)).margin(1e-12));
    }
    // Apart, the handle pressed is the one dragged, and it stops at the other as before.
    const std::vector<JointLimits> apart = drag(GizmoPart::LowerHandle, {deg(80.0), deg(90.0)}, {80.0, 120.0}, SnapMode::Fine);
    CHECK(apart.back().lower == Approx(deg(90.0)).margin(1e-12));
    CHECK(apart.back().upper == Approx(deg(90.0)).margin(1e-12));
}

TEST_CASE("handles meeting at the seam (the whole circle): the first move decides which is dragged", "[gizmo]") {
    // A free joint, -180..180: pressed on the seam, the press found the upper handle, which
    // cannot go up, so every drag up (the lower handle leaving -180) did nothing.
    const JointLimits full{-kPi, kPi};
    for (GizmoPart pressed : {GizmoPart::LowerHandle, GizmoPart::UpperHandle}) {
        INFO((pressed == GizmoPart::LowerHandle ? "the press found the lower handle" : "the press found the upper handle"));
        const double at = pressed == GizmoPart::LowerHandle ? -180.0 : 180.0;
        // On past the seam (the mouse's joint angle wraps to -175 and on to -60).
        const std::vector<JointLimits> up = drag(pressed, full, {at, -175.0, -60.0}, SnapMode::Fine);
        CHECK(up.back().lower == Approx(deg(-60.0)).margin(1e-12));
        CHECK(up.back().upper == Approx(kPi).margin(1e-12));
        const std::vector<JointLimits> down = drag(pressed, full, {at, 175.0, 60.0}, SnapMode::Fine);
        CHECK(down.back().lower == Approx(-kPi).margin(1e-12));
        CHECK(down.back().upper == Approx(deg(60.0)).margin(1e-12));
    }
}

TEST_CASE("applyHandleDrag clamps at +-180 rather than wrapping", "[gizmo]") {
    const JointLimits limits{deg(-30.0), deg(40.0)};
    CHECK(applyHandleDrag(GizmoPart::UpperHandle, limits, deg(190.0), SnapMode::Free).upper == kPi);
    CHECK(applyHandleDrag(GizmoPart::LowerHandle, limits, deg(-200.0), SnapMode::Default).lower == -kPi);
    CHECK(applyHandleDrag(GizmoPart::UpperHandle, limits, deg(97.4), SnapMode::Default).upper == deg(95.0));
    // Not a handle: nothing changes.
    const JointLimits same = applyHandleDrag(GizmoPart::Arc, limits, deg(10.0), SnapMode::Free);
    CHECK(same.lower == limits.lower);
    CHECK(same.upper == limits.upper);
    // Limits out of order or beyond ±180° are put right first.
    const JointLimits fixed = sanitizeLimits({deg(50.0), deg(-200.0)});
    CHECK(fixed.lower == -kPi);
    CHECK(fixed.upper == deg(50.0));
}

TEST_CASE("a grabbed handle keeps its distance from the cursor", "[gizmo]") {
    // Grabbed 3° above its centre at 100°: the mouse at 113° puts it at 110°.
    const std::vector<JointLimits> steps =
        drag(GizmoPart::UpperHandle, {deg(-30.0), deg(100.0)}, {103.0, 113.0}, SnapMode::Fine);
    CHECK(steps[0].upper == Approx(deg(100.0)).margin(1e-12));
    CHECK(steps[1].upper == Approx(deg(110.0)).margin(1e-12));
    // A handle at 180° grabbed 1° past the seam (the mouse reads −179°) stays at 180°, and the
    // mouse back at 178° puts it at 177°.
    const std::vector<JointLimits> seam =
        drag(GizmoPart::UpperHandle, {deg(-170.0), kPi}, {-179.0, 178.0}, SnapMode::Fine);
    CHECK(seam[0].upper == Approx(kPi).margin(1e-12));
    CHECK(seam[0].lower == Approx(deg(-170.0)).margin(1e-12));
    CHECK(seam[1].upper == Approx(deg(177.0)).margin(1e-12));
}

TEST_CASE("dragging in a mirrored frame gives rig-sense angles", "[gizmo]") {
    // Parent at 20°, rest 10°, facing left: joint angle a points at world 10° − a.
    const GizmoFrame f = frame(20.0, 10.0, true, {0.0, 0.0});
    const JointLimits limits{deg(-30.0), deg(40.0)};
    // The upper handle (40°) sits at world −30°; the mouse moved to world −60° means 70°.
    LimitDrag d = beginLimitDrag(GizmoPart::UpperHandle, limits, angleFromMouse(f, worldPoint(f.pivot, -30.0, 0.5)));
    JointLimits now = updateLimitDrag(d, limits, angleFromMouse(f, worldPoint(f.pivot, -60.0, 0.5)), SnapMode::Default);
    CHECK(now.upper == Approx(deg(70.0)).margin(1e-12));
    // To world 0°: 10°.
    now = updateLimitDrag(d, now, angleFromMouse(f, worldPoint(f.pivot, 0.0, 0.5)), SnapMode::Default);
    CHECK(now.upper == Approx(deg(10.0)).margin(1e-12));
    CHECK(now.lower == Approx(deg(-30.0)).margin(1e-12));
}

TEST_CASE("the arc runs from lower to upper: -170..170 the long way, -10..10 the short one", "[gizmo]") {
    const GizmoFrame right = frame(30.0, 15.0, false);
    const GizmoFrame left = frame(30.0, 15.0, true);
    const JointLimits wide{deg(-170.0), deg(170.0)};
    const JointLimits narrow{deg(-10.0), deg(10.0)};

    CHECK(arcSweep(right, wide).startWorldAngle == Approx(deg(30.0 + 15.0 - 170.0)).margin(1e-12));
    CHECK(arcSweep(right, wide).sweepRadians == Approx(deg(340.0)).margin(1e-12));
    CHECK(arcSweep(right, narrow).sweepRadians == Approx(deg(20.0)).margin(1e-12));
    CHECK(arcSweep(left, wide).startWorldAngle == Approx(deg(30.0 - 15.0 + 170.0)).margin(1e-12));
    CHECK(arcSweep(left, wide).sweepRadians == Approx(deg(-340.0)).margin(1e-12));
    CHECK(arcSweep(right, {-kPi, kPi}).sweepRadians == Approx(2.0 * kPi).margin(1e-12));

    for (const GizmoFrame& f : {right, left}) {
        for (JointLimits limits : {wide, narrow}) {
            INFO("mirrored " << f.mirrored << ", range " << toDegrees(limits.upper - limits.lower) << "°");
            const std::vector<Vec2d> points = arcPoints(f, limits, 0.4, 8);
            REQUIRE(points.size() == 9);
            // From the lower handle to the upper one through joint angle 0, never through 180°.
            CHECK(distance(points.front(), pointOnArc(f, limits.lower, 0.4)) < 1e-12);
            CHECK(distance(points.back(), pointOnArc(f, limits.upper, 0.4)) < 1e-12);
            CHECK(distance(points[4], pointOnArc(f, 0.0, 0.4)) < 1e-12);
            for (Vec2d p : points) CHECK(distance(p, f.pivot) == Approx(0.4).epsilon(1e-12));
        }
    }
    CHECK(arcPoints(right, narrow, 0.4, 0).size() == 2);
}

TEST_CASE("outside: the current angle beyond the limits turns the arc red", "[gizmo]") {
    const JointLimits limits{deg(-30.0), deg(40.0)};
    CHECK(outside(deg(50.0), limits));
    CHECK(outside(deg(-30.5), limits));
    CHECK_FALSE(outside(deg(0.0), limits));
    CHECK_FALSE(outside(deg(-30.0), limits));
    CHECK_FALSE(outside(deg(40.0), limits));
    CHECK_FALSE(outside(deg(-30.5), limits, deg(1.0)));
    CHECK(outside(deg(41.5), limits, deg(1.0)));
    // −180° and 180° are one angle: inside a range that ends at either.
    CHECK_FALSE(outside(-kPi, {deg(-170.0), kPi}));
    CHECK_FALSE(outside(kPi, {-kPi, deg(-170.0)}));
    CHECK_FALSE(outside(deg(175.0), {deg(-170.0), kPi}));
    CHECK(outside(deg(-175.0), {deg(-170.0), kPi}));
    // [−170°, 170°] leaves out the 20° through the seam.
    CHECK(outside(deg(175.0), {deg(-170.0), deg(170.0)}));
    CHECK(outside(-kPi, {deg(-170.0), deg(170.0)}));
}

TEST_CASE("labels: degrees with one decimal", "[gizmo]") {
    CHECK(angleLabel("upper", deg(100.0)) == "upper 100.0\u00b0");
    CHECK(angleLabel("lower", deg(-12.345)) == "lower -12.3\u00b0");
    CHECK(angleLabel("lower", deg(-0.04)) == "lower 0.0\u00b0");
    CHECK(angleLabel("current", kPi) == "current 180.0\u00b0");
    const JointLimits limits{deg(-30.0), deg(100.0)};
    CHECK(tooltipText(GizmoPart::UpperHandle, limits) == "upper 100.0\u00b0");
    CHECK(tooltipText(GizmoPart::LowerHandle, limits) == "lower -30.0\u00b0");
    CHECK(tooltipText(GizmoPart::Arc, limits) == "range -30.0\u00b0 to 100.0\u00b0");
    CHECK(tooltipText(GizmoPart::None, limits).empty());
    CHECK(std::string(partName(GizmoPart::Arc)) == "arc");
}

TEST_CASE("Show all's joint names are spread so no two overlap and none covers a pivot", "[gizmo][labels]") {
    // The stickman standing at 120 px/m: shoulders share a pivot, and so do the hips.
    struct Pivot {
        const char* name;
        double x, y;
    };
    const Pivot pivots[] = {{"neck", 640, 300},      {"shoulder_L", 640, 306}, {"elbow_L", 640, 340},
                            {"shoulder_R", 640, 306}, {"elbow_R", 640, 340},    {"hip_L", 640, 360},
                            {"knee_L", 640, 418},     {"hip_R", 640, 360},      {"knee_R", 640, 418}};
    std::vector<LabelRequest> requests;
    for (const Pivot& p : pivots)
        requests.push_back({{p.x, p.y}, {7.0 * double(std::string(p.name).size()) + 6.0, 15.0}, 0.0});
    std::vector<LabelBox> boxes = spreadLabels(requests);
    REQUIRE(boxes.size() == requests.size());
    double farthest = 0.0;
    for (std::size_t i = 0; i < boxes.size(); ++i) {
        for (std::size_t k = i + 1; k < boxes.size(); ++k) {
            INFO(pivots[i].name << " and " << pivots[k].name);
            CHECK_FALSE(boxes[i].overlaps(boxes[k], 0.0));
        }
        for (const Pivot& p : pivots) {
            LabelBox dot{{p.x - 4.0, p.y - 4.0}, {8.0, 8.0}};
            CHECK_FALSE(boxes[i].overlaps(dot, 0.0));
        }
        double cx = boxes[i].corner.x + 0.5 * boxes[i].size.x - requests[i].anchor.x;
        double cy = boxes[i].corner.y + 0.5 * boxes[i].size.y - requests[i].anchor.y;
        farthest = std::max(farthest, std::sqrt(cx * cx + cy * cy));
    }
    // Each stays near its joint: within 150 px of its pivot.
    CHECK(farthest < 150.0);
    // The first (the selected joint's) gets its preferred side: straight right of the pivot.
    CHECK(boxes[0].corner.x > pivots[0].x);
    CHECK(boxes[0].corner.y < pivots[0].y);
    CHECK(boxes[0].corner.y + boxes[0].size.y > pivots[0].y);
}
