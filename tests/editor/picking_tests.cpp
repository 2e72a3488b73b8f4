// What the viewport picks under the mouse (pick/picking.h): shapes, pivots before bodies,
// the deepest body, and the point a script clicks to select a body.
#include <catch2/catch.hpp>

#include "pick/picking.h"

using namespace paper::editor;

namespace {
BodyShape capsule(Vec2d a, Vec2d b, double r) { return {BodyOutline::Capsule, a, b, r}; }
}  // namespace

TEST_CASE("distance outside a capsule, a circle and a box", "[editor][picking]") {
    BodyShape arm = capsule({0, 0}, {1, 0}, 0.1);
    CHECK(distanceOutside(arm, {0.5, 0.3}) == Approx(0.2));
    CHECK(distanceOutside(arm, {0.5, 0.0}) == Approx(-0.1));
    CHECK(distanceOutside(arm, {1.3, 0.0}) == Approx(0.2));  // past the round end
    CHECK(distanceOutside(arm, {-0.3, 0.4}) == Approx(0.4));  // 0.5 from a, minus the radius

    BodyShape head{BodyOutline::Circle, {2, 2}, {2, 2}, 0.12};
    CHECK(distanceOutside(head, {2, 2.32}) == Approx(0.2));
    CHECK(distanceOutside(head, {2, 2}) == Approx(-0.12));

    // A box along y from (0,0) to (0,2), 0.5 either side: square ends, corners not rounded off.
    BodyShape box{BodyOutline::Box, {0, 0}, {0, 2}, 0.5};
    CHECK(distanceOutside(box, {0.8, 1.0}) == Approx(0.3));
    CHECK(distanceOutside(box, {0.0, 2.4}) == Approx(0.4));
    CHECK(distanceOutside(box, {0.8, 2.4}) == Approx(0.5));  // the corner: a 0.3-0.4-0.5 triangle
    CHECK(distanceOutside(box, {0.0, 1.0}) == Approx(-0.5));
    CHECK(distanceOutside(box, {0.0, 0.1}) == Approx(-0.1));  // near the square end
}

TEST_CASE("a pivot wins over the bodies it joins, else the deepest body", "[editor][picking]") {
    // An upper arm and a forearm meeting at an elbow at (1, 0).
    std::vector<BodyShape> bodies = {capsule({0, 0}, {1, 0}, 0.1), capsule({1, 0}, {2, 0}, 0.05)};
    std::vector<Vec2d> pivots = {{0, 0}, {1, 0}};
    const double pivotRadius = 0.08, slack = 0.04;

    PickResult atElbow = pickAt(pivots, bodies, {1.02, 0.01}, pivotRadius, slack);
    CHECK(atElbow.pivot == 1);
    CHECK(atElbow.body == -1);

    // Just past the pivot's reach on the forearm's side, inside both capsules: the upper arm's
    // round end reaches 1.1, but the mouse is deeper in the forearm (on its centre line).
    PickResult overlap = pickAt(pivots, bodies, {1.09, 0.0}, pivotRadius, slack);
    CHECK(overlap.pivot == -1);
    CHECK(overlap.body == 1);

    CHECK(pickAt(pivots, bodies, {1.5, 0.08}, pivotRadius, slack).body == 1);   // in the slack around the thin forearm
    CHECK(pickAt(pivots, bodies, {1.5, 0.10}, pivotRadius, slack).body == -1);  // beyond it
    CHECK(pickAt(pivots, bodies, {0.5, 0.12}, pivotRadius, slack).body == 0);
}

TEST_CASE("everything under the mouse in the order repeated clicks select it", "[editor][picking]") {
    // Two hips on one pivot at the torso's foot, a thigh hanging from each, and a third pivot
    // 0.05 m away (inside the reach): the nearest pivots first, coincident ones as pickAt
    // breaks the tie, then the bodies by depth in their own thickness.
    std::vector<BodyShape> bodies = {capsule({0, 1.0}, {0, 0.5}, 0.12), capsule({0, 0.5}, {0, 0}, 0.06),
                                     capsule({0.01, 0.5}, {0.01, 0}, 0.06)};
    std::vector<Vec2d> pivots = {{0, 0.5}, {0, 0.5}, {0.05, 0.5}};
    std::vector<PickResult> picks = picksAt(pivots, bodies, {0.0, 0.49}, 0.08, 0.01);
    REQUIRE(picks.size() == 6);
    CHECK(picks[0].pivot == pickAt(pivots, bodies, {0.0, 0.49}, 0.08, 0.01).pivot);
    CHECK(picks[0].pivot == 1);
    CHECK(picks[1].pivot == 0);
    CHECK(picks[2].pivot == 2);
    CHECK(picks[3].body == 1);  // on the first thigh's centre line: depth -1 of its thickness
    CHECK(picks[4].body == 0);  // 1 cm past the torso's line, of its 12 cm: -0.92
    CHECK(picks[5].body == 2);  // 1 cm off the second thigh's line, of its 6 cm: -0.83
    CHECK(picksAt(pivots, bodies, {3.0, 3.0}, 0.08, 0.01).empty());
}

TEST_CASE("a thin limb over a thick body is picked on its own centre line", "[editor][picking]") {
    // Side view: a torso 0.18 m thick along y, an arm 0.08 m thick hanging 0.03 m in front
    // of the torso's centre line. In metres the mouse on the arm's line is deeper in the
    // torso (0.06 m) than in the arm (0.04 m); in thicknesses the arm wins.
    std::vector<BodyShape> bodies = {capsule({0, 1.0}, {0, 1.5}, 0.09), capsule({0.03, 1.45}, {0.03, 1.1}, 0.04)};
    CHECK(pickBody(bodies, {0.03, 1.3}, 0.01) == 1);
    CHECK(pickBody(bodies, {-0.05, 1.3}, 0.01) == 0);  // behind the arm: only the torso
}

TEST_CASE("the point that selects a body is on it, away from the pivots", "[editor][picking]") {
    std::vector<BodyShape> bodies = {capsule({0, 0}, {1, 0}, 0.1), capsule({1, 0}, {2, 0}, 0.05)};
    std::vector<Vec2d> pivots = {{0, 0}, {1, 0}};
    Vec2d at;
    REQUIRE(pointPickingBody(pivots, bodies, 1, 0.08, 0.04, nullptr, at));
    CHECK(at.x == Approx(2.0));  // the forearm's free end: farthest from the elbow
    CHECK(at.y == Approx(0.0));
    CHECK(pickAt(pivots, bodies, at, 0.08, 0.04).body == 1);

    REQUIRE(pointPickingBody(pivots, bodies, 0, 0.08, 0.04, nullptr, at));
    CHECK(at.x == Approx(0.5));  // midway between its two pivots
    CHECK(pickAt(pivots, bodies, at, 0.08, 0.04).body == 0);

    // A body buried under a pivot everywhere cannot be clicked.
    std::vector<BodyShape> tiny = {capsule({1, 0}, {1.01, 0}, 0.01)};
    CHECK_FALSE(pointPickingBody(pivots, tiny, 0, 0.08, 0.04, nullptr, at));
    CHECK_FALSE(pointPickingBody(pivots, bodies, 5, 0.08, 0.04, nullptr, at));

    // Points another's (a gizmo's arc drawn over the forearm's end) are passed over: the
    // nearest free one to the end is taken instead.
    auto arc = [](Vec2d p) { return p.x > 1.8; };
    REQUIRE(pointPickingBody(pivots, bodies, 1, 0.08, 0.04, arc, at));
    CHECK(at.x <= 1.8);
    CHECK(at.x >= 1.7);
    CHECK(pickAt(pivots, bodies, at, 0.08, 0.04).body == 1);
}
