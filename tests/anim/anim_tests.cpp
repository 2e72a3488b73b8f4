// The animation layer: forward kinematics, blending, two-bone IK, clip loading (one test
// per kind of error with its exact line and message), sampling, the clip player, and the
// shipped clips against the stickman (joint limits, seams, get-up ends, walk and run
// figures measured from the poses themselves).
// Inline clips put <clip> on line 1, so the Nth line of a body is file line N + 1.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "anim/clip.h"
#include "anim/clip_player.h"
#include "anim/ik.h"
#include "anim/pose.h"
#include "rig_tools/rig_generator.h"
#include "rig/rig_loader.h"

using namespace ragdoll;

namespace {

const std::string kContent = PAPERDOLL_CONTENT_DIR;
const std::string kAnims = kContent + "/anims/";

constexpr double kDegree = kPi / 180.0;

const RigDefinition& stickman() {
    static const std::shared_ptr<const RigDefinition> rig = [] {
        RigLoadResult result = loadRigFile(kContent + "/rigs/stickman.rig.xml");
        for (const Diagnostic& d : result.diagnostics) UNSCOPED_INFO(d.format());
        REQUIRE(result.rig);
        return result.rig;
    }();
    return *rig;
}

std::string describe(const std::vector<Diagnostic>& diagnostics) {
    std::string out;
    for (const Diagnostic& d : diagnostics) out += d.format() + "\n";
    return out;
}

Clip loadShipped(const std::string& name) {
    ClipLoadResult result = loadClipFile(kAnims + name + ".anim.xml", stickman());
    INFO(describe(result.diagnostics));
    REQUIRE(result.clip);
    REQUIRE(result.diagnostics.empty());
    return *result.clip;
}

const std::vector<std::string> kShipped = {"idle", "walk", "run", "jump", "daze", "get_up_front", "get_up_back"};

Vec2 direction(double angle) { return {std::cos(angle), std::sin(angle)}; }

Vec2 tipOf(const RigDefinition& rig, const std::vector<BonePose>& poses, int bone) {
    return poses[size_t(bone)].origin + rig.bones[size_t(bone)].length * direction(poses[size_t(bone)].angle);
}

/// A clip against the stickman whose <clip> tag is line 1.
ClipLoadResult loadBody(const std::string& attributes, const std::string& body) {
    return loadClipFromText("<clip name=\"t\" format=\"1\" " + attributes + ">\n" + body + "\n</clip>\n",
                            "inline.anim.xml", stickman());
}

/// The load failed with exactly one error, at this line, containing this text.
void requireError(const ClipLoadResult& result, int line, const std::string& fragment) {
    INFO(describe(result.diagnostics));
    CHECK_FALSE(result.clip);
    REQUIRE(result.diagnostics.size() == 1);
    const Diagnostic& d = result.diagnostics[0];
    CHECK(d.severity == Severity::Error);
    CHECK(d.file == "inline.anim.xml");
    CHECK(d.line == line);
    CHECK_THAT(d.message, Catch::Matchers::Contains(fragment));
}

}  // namespace

// ---------------------------------------------------------------- poses

TEST_CASE("FK of the rest pose reproduces the rig's derived rest pose", "[pose]") {
    const RigDefinition& rig = stickman();
    std::vector<BonePose> poses;
    computeBonePoses(rig, restLocalPose(rig), poses);
    REQUIRE(poses.size() == rig.bones.size());
    for (size_t i = 0; i < rig.bones.size(); ++i) {
        INFO(rig.bones[i].name);
        CHECK(std::abs(poses[i].origin.x - rig.bones[i].origin.x) <= 1e-12);
        CHECK(std::abs(poses[i].origin.y - rig.bones[i].origin.y) <= 1e-12);
        CHECK(std::abs(poses[i].angle - rig.bones[i].angle) <= 1e-12);
    }
    // Feet at 100 − 48 − 46 = 6 px, hands at 145 − 28 − 27 = 90 px.
    CHECK(tipOf(rig, poses, rig.findBone("shin.L")).y == Approx(0.06).margin(1e-12));
    CHECK(tipOf(rig, poses, rig.findBone("forearm.R")).y == Approx(0.90).margin(1e-12));
}

TEST_CASE("FK places children after their parents whatever the file order", "[pose]") {
    // The shin comes first, its thigh last: one pass in file order would use an unplaced parent.
    RigLoadResult loaded = loadRigFromText(R"(<rig name="leg" format="1" units="m">
  <bone name="shin" parent="thigh" angle="-30" length="0.4"/>
  <bone name="hip" x="1" y="2" angle="-90" length="0.1"/>
  <bone name="thigh" parent="hip" x="0.1" angle="20" length="0.5"/>
</rig>)", "leg.rig.xml");
    INFO(describe(loaded.diagnostics));
    REQUIRE(loaded.rig);
    const RigDefinition& rig = *loaded.rig;
    std::vector<BonePose> poses;
    computeBonePoses(rig, restLocalPose(rig), poses);
    for (size_t i = 0; i < rig.bones.size(); ++i) {
        CHECK(std::abs(poses[i].origin.x - rig.bones[i].origin.x) <= 1e-12);
        CHECK(std::abs(poses[i].origin.y - rig.bones[i].origin.y) <= 1e-12);
        CHECK(std::abs(poses[i].angle - rig.bones[i].angle) <= 1e-12);
    }
    // By hand: hip points down from (1, 2); the thigh starts 0.1 below, at -70°.
    CHECK(poses[2].origin.x == Approx(1.0).margin(1e-12));
    CHECK(poses[2].origin.y == Approx(1.9).margin(1e-12));
    CHECK(poses[2].angle == Approx(-70.0 * kDegree).margin(1e-12));
    CHECK(poses[0].angle == Approx(-100.0 * kDegree).margin(1e-12));
}

TEST_CASE("FK with a changed angle moves the children rigidly", "[pose]") {
    const RigDefinition& rig = stickman();
    const int thigh = rig.findBone("thigh.L"), shin = rig.findBone("shin.L"), torso = rig.findBone("torso");
    std::vector<BonePose> rest, bent;
    LocalPose pose = restLocalPose(rig);
    computeBonePoses(rig, pose, rest);
    pose.angles[size_t(thigh)] += 0.7;
    pose.rootOffset = {0.25, -0.1};
    computeBonePoses(rig, pose, bent);
    // The knee is still a thigh length from the hip, the foot a shin length from the knee,
    // and the knee angle (shin relative to thigh) is unchanged.
    CHECK(distance(bent[size_t(thigh)].origin, bent[size_t(shin)].origin) == Approx(0.48).margin(1e-12));
    CHECK(distance(bent[size_t(shin)].origin, tipOf(rig, bent, shin)) == Approx(0.46).margin(1e-12));
    CHECK(bent[size_t(shin)].angle - bent[size_t(thigh)].angle ==
          Approx(rest[size_t(shin)].angle - rest[size_t(thigh)].angle).margin(1e-12));
    CHECK(bent[size_t(shin)].angle - rest[size_t(shin)].angle == Approx(0.7).margin(1e-12));
    // The root offset moves everything; the thigh turned about the hip.
    CHECK(bent[size_t(torso)].origin.x == Approx(0.25).margin(1e-12));
    CHECK(bent[size_t(torso)].origin.y == Approx(0.9).margin(1e-12));
    Vec2 knee = bent[size_t(torso)].origin + 0.48 * direction(-kPi / 2 + 0.7);
    CHECK(bent[size_t(shin)].origin.x == Approx(knee.x).margin(1e-12));
    CHECK(bent[size_t(shin)].origin.y == Approx(knee.y).margin(1e-12));
    // Bones outside the thigh's subtree only moved by the root offset.
    const int arm = rig.findBone("forearm.R");
    CHECK(bent[size_t(arm)].origin.x - rest[size_t(arm)].origin.x == Approx(0.25).margin(1e-12));
    CHECK(bent[size_t(arm)].angle == rest[size_t(arm)].angle);
}

TEST_CASE("Blending takes the shorter arc", "[pose]") {
    LocalPose a, b, out;
    a.angles = {170.0 * kDegree, 0.1, -3.0};
    b.angles = {-170.0 * kDegree, 0.5, 3.0};
    a.rootOffset = {0.0, 1.0};
    b.rootOffset = {2.0, -1.0};
    blendLocalPoses(a, b, 0.5, out);
    CHECK(std::abs(wrapAngle(out.angles[0] - kPi)) < 1e-12);  // through 180°, not through 0
    CHECK(out.angles[1] == Approx(0.3).margin(1e-15));
    // -3 → 3 rad: the difference 6 rad wraps to 6 − 2π, so halfway is -3 + (6 − 2π)/2.
    CHECK(out.angles[2] == Approx(-3.0 + 0.5 * (6.0 - 2.0 * kPi)).margin(1e-12));
    CHECK(out.rootOffset.x == Approx(1.0).margin(1e-15));
    CHECK(out.rootOffset.y == Approx(0.0).margin(1e-15));
    blendLocalPoses(a, b, 1.0, out);
    CHECK(out.angles == b.angles);
    blendLocalPoses(a, b, 0.0, a);  // output may alias an input
    CHECK(a.angles[0] == 170.0 * kDegree);
}

// ---------------------------------------------------------------- IK

namespace {
struct Chain {
    Vec2 joint, end;
};
Chain place(Vec2 root, double upper, double lower, const TwoBoneIkResult& r) {
    Vec2 joint = root + upper * direction(r.upperAngle);
    return {joint, joint + lower * direction(r.lowerAngle)};
}
}  // namespace

TEST_CASE("Two-bone IK reaches every reachable target, on the asked side", "[ik]") {
    std::mt19937_64 random(20240611);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    double worst = 0.0;
    for (int i = 0; i < 20000; ++i) {
        const double upper = 0.05 + unit(random), lower = 0.05 + unit(random);
        const Vec2 root{unit(random) * 10.0 - 5.0, unit(random) * 10.0 - 5.0};
        const double fold = std::abs(upper - lower), reach = upper + lower;
        // Strictly inside, so the side of the joint is defined (at the ends it is on the line).
        const double d = fold + (0.001 + 0.998 * unit(random)) * (reach - fold);
        const Vec2 target = root + d * direction(unit(random) * 2.0 * kPi);
        for (double bend : {1.0, -1.0}) {
            TwoBoneIkResult r = solveTwoBoneIk(root, upper, lower, target, bend);
            Chain chain = place(root, upper, lower, r);
            CHECK(r.reached);
            worst = std::max(worst, distance(chain.end, target));
            double side = cross(target - root, chain.joint - root);
            if (side * bend <= 0.0) FAIL("joint on the wrong side: bend " << bend << ", cross " << side);
        }
    }
    INFO("worst end error " << worst << " m");
    CHECK(worst < 1e-9);
}

TEST_CASE("Two-bone IK: out of reach, too close and on the root", "[ik]") {
    const Vec2 root{1.0, 2.0};
    SECTION("a far target stretches the chain straight toward it") {
        const Vec2 target = root + Vec2{3.0, 4.0};  // 5 m, reach 0.94 m
        TwoBoneIkResult r = solveTwoBoneIk(root, 0.48, 0.46, target, 1.0);
        CHECK_FALSE(r.reached);
        const double toward = std::atan2(4.0, 3.0);
        CHECK(r.upperAngle == Approx(toward).margin(1e-12));
        CHECK(r.lowerAngle == Approx(toward).margin(1e-12));
        Chain chain = place(root, 0.48, 0.46, r);
        CHECK(distance(chain.end, root + 0.94 * Vec2{0.6, 0.8}) < 1e-12);
    }
    SECTION("a target nearer than |upper − lower| folds the chain toward it") {
        const Vec2 target = root + Vec2{0.0, -0.1};  // |0.48 − 0.2| = 0.28 > 0.1
        TwoBoneIkResult r = solveTwoBoneIk(root, 0.48, 0.2, target, -1.0);
        CHECK_FALSE(r.reached);
        Chain chain = place(root, 0.48, 0.2, r);
        CHECK(distance(chain.end, root + Vec2{0.0, -0.28}) < 1e-12);
        CHECK(std::abs(wrapAngle(r.lowerAngle - r.upperAngle)) == Approx(kPi).margin(1e-12));
    }
    SECTION("a target on the root gives finite angles") {
        for (double lower : {0.48, 0.46}) {
            for (double bend : {1.0, -1.0}) {
                TwoBoneIkResult r = solveTwoBoneIk(root, 0.48, lower, root, bend);
                REQUIRE(std::isfinite(r.upperAngle));
                REQUIRE(std::isfinite(r.lowerAngle));
                Chain chain = place(root, 0.48, lower, r);
                CHECK(distance(chain.end, root) == Approx(0.48 - lower).margin(1e-12));
            }
        }
    }
}

// ---------------------------------------------------------------- loading errors

TEST_CASE("Clip loading: an unknown element a slip away from a clip element names it", "[clip][errors]") {
    ClipLoadResult result = loadBody("duration=\"1\"", "<trak bone=\"head\"><key t=\"0\" angle=\"1\"/></trak>");
    REQUIRE(result.clip);
    REQUIRE(result.diagnostics.size() == 1);
    CHECK(result.diagnostics[0].format() ==
          "inline.anim.xml:2: warning: unknown element 'trak' in <clip> ignored; did you mean 'track'?");
}

TEST_CASE("Clip loading: each kind of error names its line", "[clip][errors]") {
    SECTION("unknown bone") {
        requireError(loadBody("duration=\"1\"", "<track bone=\"tail\"><key t=\"0\" angle=\"1\"/></track>"), 2,
                     "track: bone 'tail' is not a bone of rig 'stickman'");
    }
    SECTION("bad number") {
        requireError(loadBody("duration=\"1\"", "<track bone=\"head\">\n<key t=\"0\" angle=\"1,5\"/>\n</track>"), 3,
                     "key: attribute 'angle' must be a number, got '1,5'");
    }
    SECTION("keys out of order") {
        requireError(loadBody("duration=\"1\"",
                              "<track bone=\"head\">\n<key t=\"0.6\" angle=\"1\"/>\n<key t=\"0.5\" angle=\"2\"/>\n</track>"),
                     4, "key: t=0.5 does not come after t=0.6 (line 3); keys go in increasing time order");
    }
    SECTION("key outside the clip") {
        requireError(loadBody("duration=\"1\"", "<track bone=\"head\">\n<key t=\"1.5\" angle=\"1\"/>\n</track>"), 3,
                     "key: t=1.5 is outside the clip's [0, 1] seconds");
    }
    SECTION("two tracks for one bone, spelt differently") {
        requireError(loadBody("duration=\"1\"", "<track bone=\"thigh.L\"><key t=\"0\" angle=\"1\"/></track>\n"
                                                "<track bone=\"thigh_L\"><key t=\"0\" angle=\"2\"/></track>"),
                     3, "track: bone 'thigh_L' already has a track at line 2 (one track per bone)");
    }
    SECTION("missing duration") {
        requireError(loadBody("loop=\"true\"", "<track bone=\"head\"><key t=\"0\" angle=\"1\"/></track>"), 1,
                     "clip: missing required attribute 'duration'");
    }
    SECTION("not a clip") {
        requireError(loadClipFromText("<?xml version=\"1.0\"?>\n<rig name=\"x\" format=\"1\"/>\n", "inline.anim.xml",
                                      stickman()),
                     2, "root element is <rig>, expected <clip>");
    }
    SECTION("empty file") {
        requireError(loadClipFromText(" \n\t\n", "inline.anim.xml", stickman()), 0,
                     "file is empty; expected a <clip> element");
    }
    SECTION("a loop that does not close") {
        requireError(loadBody("duration=\"1\" loop=\"true\"",
                              "<track bone=\"head\">\n<key t=\"0\" angle=\"1\"/>\n<key t=\"1\" angle=\"2\"/>\n</track>"),
                     4, "key: the loop does not close: angle=2 at t=1 but angle=1 at t=0 (line 3)");
    }
    SECTION("a looping track that starts late") {
        requireError(loadBody("duration=\"1\" loop=\"true\"", "<track bone=\"head\">\n<key t=\"0.2\" angle=\"1\"/>\n</track>"),
                     2, "track: a looping clip's angle keys start at t=0 (the first is at t=0.2, line 3)");
    }
    SECTION("a track without keys") {
        requireError(loadBody("duration=\"1\"", "<track bone=\"head\"/>"), 2,
                     "track: no <key> elements; a track needs at least one");
    }
    SECTION("a missing file") {
        ClipLoadResult result = loadClipFile(kAnims + "no_such.anim.xml", stickman());
        CHECK_FALSE(result.clip);
        REQUIRE(result.diagnostics.size() == 1);
        CHECK(result.diagnostics[0].format() == kAnims + "no_such.anim.xml: error: cannot open clip: file not found");
    }
}

TEST_CASE("Clip loading collects every error and fails whole", "[clip][errors]") {
    ClipLoadResult result = loadBody("duration=\"1\"",
                                     "<track bone=\"tail\"><key t=\"0\" angle=\"1\"/></track>\n"
                                     "<track bone=\"head\"><key t=\"0\" angle=\"x\"/></track>\n"
                                     "<event t=\"2\" name=\"late\"/>");
    INFO(describe(result.diagnostics));
    CHECK_FALSE(result.clip);
    REQUIRE(result.diagnostics.size() == 3);
    CHECK(result.diagnostics[0].format() ==
          "inline.anim.xml:2: error: track: bone 'tail' is not a bone of rig 'stickman'");
    CHECK(result.diagnostics[1].format() == "inline.anim.xml:3: error: key: attribute 'angle' must be a number, got 'x'");
    CHECK(result.diagnostics[2].format() == "inline.anim.xml:4: error: event: t=2 is outside the clip's [0, 1] seconds");
}

TEST_CASE("Clip values convert once: degrees to radians, rig units to metres", "[clip]") {
    ClipLoadResult result = loadBody("duration=\"2\" interpolation=\"linear\"",
                                     "<track bone=\"thigh.R\"><key t=\"0\" angle=\"30\"/><key t=\"2\" angle=\"-10\"/></track>\n"
                                     "<root><key t=\"0\" x=\"0\" y=\"-5\"/><key t=\"2\" x=\"150\" y=\"5\"/></root>");
    INFO(describe(result.diagnostics));
    REQUIRE(result.clip);
    const RigDefinition& rig = stickman();
    LocalPose pose;
    sampleClip(*result.clip, rig, 0.5, pose);
    const int thigh = rig.findBone("thigh_R");
    CHECK(pose.angles[size_t(thigh)] == Approx(rig.bones[size_t(thigh)].localAngle + 20.0 * kDegree).margin(1e-12));
    CHECK(pose.rootOffset.x == 0.0);
    CHECK(pose.rootOffset.y == Approx(-0.025).margin(1e-12));  // px at 100 per metre
    CHECK(rootTravel(*result.clip, 1.0) == Approx(0.75).margin(1e-12));
    CHECK(rootTravel(*result.clip, 5.0) == Approx(1.5).margin(1e-12));  // clamped: not a loop
    // Bones without a track keep their rest angle.
    const int head = rig.findBone("head");
    CHECK(pose.angles[size_t(head)] == rig.bones[size_t(head)].localAngle);
}

TEST_CASE("Smooth looping tracks wrap their tangents around the seam", "[clip]") {
    // Keys 0, 10, 0, -10 degrees at quarter periods: the Catmull-Rom slope at t=0 uses
    // the key at 0.75 (−10°) and at 0.25 (+10°): 20° per 0.5 s = 40°/s.
    ClipLoadResult result = loadBody("duration=\"1\" loop=\"true\"",
                                     "<track bone=\"head\"><key t=\"0\" angle=\"0\"/><key t=\"0.25\" angle=\"10\"/>"
                                     "<key t=\"0.5\" angle=\"0\"/><key t=\"0.75\" angle=\"-10\"/></track>\n"
                                     "<root><key t=\"0\" x=\"0\"/><key t=\"1\" x=\"100\"/></root>");
    INFO(describe(result.diagnostics));
    REQUIRE(result.clip);
    const RigDefinition& rig = stickman();
    const int head = rig.findBone("head");
    LocalPose a, b;
    const double h = 1e-6;
    sampleClip(*result.clip, rig, h, a);
    sampleClip(*result.clip, rig, 1.0 - h, b);
    const double rest = rig.bones[size_t(head)].localAngle;
    CHECK((a.angles[size_t(head)] - rest) / h == Approx(40.0 * kDegree).epsilon(1e-5));
    CHECK((rest - b.angles[size_t(head)]) / h == Approx(40.0 * kDegree).epsilon(1e-5));
    // Two keys, one cycle's travel of 1 m: the wrapped tangents make the travel linear.
    for (double t : {0.0, 0.1, 0.37, 0.5, 0.99, 1.0, 2.5, 7.25})
        CHECK(rootTravel(*result.clip, t) == Approx(t).margin(1e-12));
}

// ---------------------------------------------------------------- the shipped clips

TEST_CASE("Every shipped clip loads against the stickman without a diagnostic", "[clip][content]") {
    for (const std::string& name : kShipped) {
        INFO(name);
        Clip clip = loadShipped(name);
        CHECK(clip.name == name);
        CHECK(clip.duration > 0.0);
    }
}

TEST_CASE("Looping clips are continuous and C1 at the seam", "[clip][content]") {
    // One-sided differences at ±1.5h: both estimate the slope at the seam, 3h apart, so
    // smooth motion makes them differ by about 3h·|f''|. The clips' angular accelerations
    // stay below ~3000 rad/s² (the run's knee: ~1.4 rad in ~0.1 s), so with h = 1e-6 s that
    // is < 0.01 rad/s, while round-off adds ~1e-16/1e-6 = 1e-10. A seam whose tangents did
    // not wrap would jump by the order of the velocity itself (> 0.1 rad/s in these clips).
    const RigDefinition& rig = stickman();
    const double h = 1e-6, tolerance = 0.01;
    for (const std::string& name : kShipped) {
        Clip clip = loadShipped(name);
        if (!clip.loop) continue;
        INFO(name);
        const double d = clip.duration;
        LocalPose before2, before1, after1, after2;
        sampleClip(clip, rig, d - 2 * h, before2);
        sampleClip(clip, rig, d - h, before1);
        sampleClip(clip, rig, d + h, after1);
        sampleClip(clip, rig, d + 2 * h, after2);
        double worstJump = 0.0, worstSlope = 0.0;
        for (size_t i = 0; i < rig.bones.size(); ++i) {
            worstJump = std::max(worstJump, std::abs(after1.angles[i] - before1.angles[i]));
            worstSlope = std::max(worstSlope, std::abs((after2.angles[i] - after1.angles[i]) / h -
                                                       (before1.angles[i] - before2.angles[i]) / h));
        }
        worstJump = std::max(worstJump, std::abs(after1.rootOffset.y - before1.rootOffset.y));
        const double vBefore = (rootTravel(clip, d - h) - rootTravel(clip, d - 2 * h)) / h;
        const double vAfter = (rootTravel(clip, d + 2 * h) - rootTravel(clip, d + h)) / h;
        INFO("jump " << worstJump << " rad, slope jump " << worstSlope << " rad/s, travel speed " << vBefore << " | "
                     << vAfter << " m/s");
        CHECK(worstJump < 1e-3);
        CHECK(worstSlope < tolerance);
        CHECK(std::abs(vAfter - vBefore) < tolerance);
    }
}

namespace {

/// The smallest margin (radians; negative: outside) of any joint at any 100 Hz sample of any
/// shipped clip, with where it was; every sample outside by more than tolerance fails.
double smallestLimitMargin(const RigDefinition& rig, double tolerance, std::string& where) {
    double smallestMargin = 1e9;
    for (const std::string& name : kShipped) {
        Clip clip = loadShipped(name);
        LocalPose pose;
        const int samples = int(std::round(clip.duration * 100.0));
        for (int s = 0; s <= samples; ++s) {
            const double t = clip.duration * s / samples;
            sampleClip(clip, rig, t, pose);
            for (const RigJoint& joint : rig.joints) {
                if (!joint.limited) continue;
                const double angle =
                    wrapAngle(pose.angles[size_t(joint.child)] - rig.bones[size_t(joint.child)].localAngle);
                const double margin = std::min(angle - joint.lower, joint.upper - angle);
                if (margin < smallestMargin) {
                    smallestMargin = margin;
                    where = name + " t=" + std::to_string(t) + " " + joint.name;
                }
                if (margin < -tolerance)
                    FAIL_CHECK(name << " t=" << t << ": " << joint.name << " at " << angle / kDegree << "° outside ["
                                    << joint.lower / kDegree << ", " << joint.upper / kDegree << "]");
            }
        }
    }
    return smallestMargin;
}

}  // namespace

TEST_CASE("Every pose of every clip keeps the stickman inside its joint limits", "[clip][content]") {
    std::string where;
    double margin = smallestLimitMargin(stickman(), 0.0, where);
    std::printf("joint limits: smallest margin %.2f deg (%s)\n", margin / kDegree, where.c_str());
    CHECK(margin > -1e-9);
}

TEST_CASE("A stickman generated from the bones plays every shipped clip inside its generated limits",
          "[clip][content][generator]") {
    // `rig generate` on the stickman's skeleton: the generator's limits, the same bones.
    const RigDefinition generated = generateBodiesAndJoints(stickman()).rig;
    REQUIRE(generated.joints.size() == stickman().joints.size());
    std::string where;
    double margin = smallestLimitMargin(generated, 0.0, where);
    std::printf("generated rig's joint limits: smallest margin %.2f deg (%s)\n", margin / kDegree, where.c_str());
    // Nothing outside (an elbow straight at its 0° limit is the closest); the get-ups fold a
    // hip to 116.6°, inside the generated 120°, which was 80° before the generator followed
    // the stickman's convention.
    CHECK(margin > -1e-9);
    for (const RigJoint& joint : generated.joints) {
        if (joint.child != generated.findBone("thigh_L")) continue;
        CHECK(joint.lower / kDegree == Approx(-30.0));
        CHECK(joint.upper / kDegree == Approx(120.0));
    }
}

TEST_CASE("Get-up clips end standing in the idle clip's first pose", "[clip][content]") {
    const RigDefinition& rig = stickman();
    Clip idle = loadShipped("idle");
    LocalPose idlePose, start, end;
    sampleClip(idle, rig, 0.0, idlePose);
    const int torso = rig.findBone("torso");
    for (std::string name : {"get_up_front", "get_up_back"}) {
        INFO(name);
        Clip clip = loadShipped(name);
        CHECK_FALSE(clip.loop);
        CHECK(clip.duration >= 1.6);
        CHECK(clip.duration <= 2.0);
        sampleClip(clip, rig, clip.duration, end);
        for (size_t i = 0; i < rig.bones.size(); ++i)
            CHECK(std::abs(end.angles[i] - idlePose.angles[i]) <= 0.5 * kDegree);
        CHECK(std::abs(end.rootOffset.y - idlePose.rootOffset.y) < 1e-12);
        CHECK(std::abs(rootTravel(clip, clip.duration)) < 1e-12);
        // They start lying: the torso horizontal, the hip about a torso radius off the ground.
        sampleClip(clip, rig, 0.0, start);
        const double facing = name == "get_up_front" ? 0.0 : kPi;
        CHECK(std::abs(wrapAngle(start.angles[size_t(torso)] - facing)) < 5.0 * kDegree);
        CHECK(start.rootOffset.y == Approx(-0.88).margin(0.03));
    }
    // The idle clip itself starts with no root offset to speak of (its breathing bob).
    CHECK(std::abs(idlePose.rootOffset.y) < 0.01);
}

TEST_CASE("Walk and run cover human distances", "[clip][content]") {
    Clip walk = loadShipped("walk"), run = loadShipped("run");
    const double walkCycle = rootTravel(walk, walk.duration) - rootTravel(walk, 0.0);
    const double runSpeed = (rootTravel(run, run.duration) - rootTravel(run, 0.0)) / run.duration;
    std::printf("walk: %.3f m per %.2f s cycle; run: %.3f m/s\n", walkCycle, walk.duration, runSpeed);
    CHECK(walk.loop);
    CHECK(walkCycle >= 1.0);
    CHECK(walkCycle <= 1.6);
    CHECK(run.loop);
    CHECK(runSpeed >= 2.5);
    CHECK(runSpeed <= 4.5);
    // Root motion never goes backwards.
    for (const Clip* clip : {&walk, &run})
        for (int s = 1; s <= 200; ++s)
            CHECK(rootTravel(*clip, clip->duration * s / 200.0) >= rootTravel(*clip, clip->duration * (s - 1) / 200.0));
}

TEST_CASE("The walk's stance foot stays planted while root motion carries the body", "[clip][content]") {
    // World x of a foot = root travel + its FK x. While a foot is the lower one it bears
    // the weight, so it must not slide.
    const RigDefinition& rig = stickman();
    Clip walk = loadShipped("walk");
    const int shins[2] = {rig.findBone("shin.L"), rig.findBone("shin.R")};
    LocalPose pose;
    std::vector<BonePose> poses;
    int lowest = -1;
    double lo = 0.0, hi = 0.0, worst = 0.0;
    const int samples = 2000;
    for (int s = 0; s <= 2 * samples; ++s) {  // two cycles, so every stance is whole once
        const double t = walk.duration * s / samples;
        sampleClip(walk, rig, t, pose);
        computeBonePoses(rig, pose, poses);
        Vec2 feet[2] = {tipOf(rig, poses, shins[0]), tipOf(rig, poses, shins[1])};
        const int now = feet[0].y <= feet[1].y ? 0 : 1;
        const double x = rootTravel(walk, t) + feet[now].x;
        if (now != lowest) {
            if (lowest >= 0 && s > samples / 2) worst = std::max(worst, hi - lo);
            lowest = now;
            lo = hi = x;
        }
        lo = std::min(lo, x);
        hi = std::max(hi, x);
    }
    std::printf("walk: stance foot slides at most %.2f cm\n", worst * 100.0);
    CHECK(worst < 0.03);
}

// ---------------------------------------------------------------- the player

namespace {
/// Two constant clips on the stickman: the head at +170° and at −170°, 2 s each, looping.
Clip constantClip(double degrees, double travelPx) {
    ClipLoadResult result = loadBody(
        "duration=\"2\" loop=\"true\"",
        "<track bone=\"head\"><key t=\"0\" angle=\"" + std::to_string(degrees) + "\"/></track>\n" +
            "<root><key t=\"0\" x=\"0\"/><key t=\"2\" x=\"" + std::to_string(travelPx) + "\"/></root>");
    INFO(describe(result.diagnostics));
    REQUIRE(result.clip);
    return *result.clip;
}
}  // namespace

TEST_CASE("ClipPlayer cross-fades along the shorter arc, the old clip still moving", "[player]") {
    const RigDefinition& rig = stickman();
    const int head = rig.findBone("head");
    Clip a = constantClip(170.0, 100.0), b = constantClip(-170.0, 300.0);
    ClipPlayer player;
    player.play(&a, 0.5);  // nothing to fade from: a cut
    CHECK(player.fadeDuration() == 0.0);
    player.advance(0.3);
    player.play(&b, 1.0);
    CHECK(player.previous().clip == &a);
    // Halfway through the fade smoothstep(0.5) = 0.5: +170° and −170° meet at 180°.
    const double motion = player.advance(0.5);
    CHECK(player.previous().time == Approx(0.8));  // a kept advancing
    CHECK(player.time() == Approx(0.5));
    LocalPose pose;
    player.sample(rig, pose);
    CHECK(std::abs(wrapAngle(pose.angles[size_t(head)] - rig.bones[size_t(head)].localAngle - kPi)) < 1e-12);
    // Root motion of the step, weight at its middle (fraction 0.25): 0.5 s at 0.5 and 1.5 m/s.
    const double w = 0.25 * 0.25 * (3.0 - 2.0 * 0.25);
    CHECK(motion == Approx((1.0 - w) * 0.25 + w * 0.75).margin(1e-12));
    player.advance(0.6);
    CHECK(player.previous().clip == nullptr);  // the fade is over
    player.sample(rig, pose);
    CHECK(pose.angles[size_t(head)] == Approx(rig.bones[size_t(head)].localAngle - 170.0 * kDegree).margin(1e-12));
    // Playing what plays already changes nothing.
    const double time = player.time();
    player.play(&b, 0.3);
    CHECK(player.time() == time);
    CHECK(player.previous().clip == nullptr);
}

TEST_CASE("ClipPlayer reports an event crossed at a loop wrap once", "[player]") {
    ClipLoadResult result = loadBody("duration=\"1\" loop=\"true\"",
                                     "<track bone=\"head\"><key t=\"0\" angle=\"0\"/></track>\n"
                                     "<event t=\"0\" name=\"start\"/>\n<event t=\"0.95\" name=\"late\"/>");
    REQUIRE(result.clip);
    ClipPlayer player;
    player.play(&*result.clip, 0.0);
    std::vector<std::string> events;
    player.advance(0.9, &events);  // [0, 0.9): "start" at 0
    CHECK(events == std::vector<std::string>{"start"});
    events.clear();
    player.advance(0.2, &events);  // [0.9, 1.1): "late" at 0.95, "start" again at 1.0
    std::sort(events.begin(), events.end());
    CHECK(events == std::vector<std::string>{"late", "start"});
    CHECK(player.time() == Approx(0.1));
    events.clear();
    // Many small steps over 10 cycles: each event once per cycle, never twice.
    for (int i = 0; i < 1000; ++i) player.advance(0.01, &events);
    CHECK(std::count(events.begin(), events.end(), "start") == 10);
    CHECK(std::count(events.begin(), events.end(), "late") == 10);
}

TEST_CASE("ClipPlayer root motion over N loops is N cycles of travel", "[player]") {
    Clip walk = loadShipped("walk");
    const double cycle = rootTravel(walk, walk.duration) - rootTravel(walk, 0.0);
    ClipPlayer player;
    player.play(&walk, 0.0);
    double total = 0.0;
    const int loops = 7, stepsPerLoop = 60;  // 1/60 s steps of a 1 s cycle
    for (int i = 0; i < loops * stepsPerLoop; ++i) total += player.advance(walk.duration / stepsPerLoop);
    CHECK(std::abs(total - loops * cycle) < 1e-9);
    CHECK((player.time() < 1e-9 || walk.duration - player.time() < 1e-9));  // a whole number of loops
    // At speed 2 the same steps cover twice the distance.
    player.setSpeed(2.0);
    double fast = 0.0;
    for (int i = 0; i < stepsPerLoop; ++i) fast += player.advance(walk.duration / stepsPerLoop);
    CHECK(std::abs(fast - 2.0 * cycle) < 1e-9);
}

TEST_CASE("ClipPlayer: a non-looping clip finishes and holds its last frame", "[player]") {
    const RigDefinition& rig = stickman();
    Clip getUp = loadShipped("get_up_back");
    ClipPlayer player;
    player.play(&getUp, 0.0);
    double total = 0.0;
    for (int i = 0; i < 100 && !player.finished(); ++i) total += player.advance(0.05);
    CHECK(player.finished());
    CHECK(player.time() == getUp.duration);
    CHECK(total == Approx(rootTravel(getUp, getUp.duration) - rootTravel(getUp, 0.0)).margin(1e-12));
    LocalPose held, last;
    player.sample(rig, held);
    sampleClip(getUp, rig, getUp.duration, last);
    CHECK(held.angles == last.angles);
    std::vector<std::string> events;
    CHECK(player.advance(1.0, &events) == 0.0);
    CHECK(events.empty());
    player.sample(rig, held);
    CHECK(held.angles == last.angles);
}
