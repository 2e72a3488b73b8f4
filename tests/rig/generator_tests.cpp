// Authoring helper: bones sorted into kinds by name, proportional radii, one-way elbows and
// knees, a heavy torso, and a generated rig that saves, loads and drops like a hand-made one.

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "rig_tools/rig_drop.h"
#include "rig_tools/rig_generator.h"
#include "rig/rig_loader.h"
#include "rig/rig_saver.h"
#include "rig_test_support.h"

using namespace ragdoll;
using namespace rigtest;

namespace {

std::shared_ptr<const RigDefinition> loadData(const std::string& name) {
    RigLoadResult result = loadRigFile(std::string(PAPERDOLL_RIG_TEST_DATA_DIR) + "/" + name);
    REQUIRE(result.rig);
    return result.rig;
}

const RigBody& bodyOf(const RigDefinition& rig, const char* bone) {
    int b = rig.bodyOfBone(rig.findBone(bone));
    REQUIRE(b >= 0);
    return rig.bodies[size_t(b)];
}

const RigJoint& jointTo(const RigDefinition& rig, const char* child) {
    int bone = rig.findBone(child);
    for (const RigJoint& joint : rig.joints)
        if (joint.child == bone) return joint;
    FAIL("no joint to " << child);
    return rig.joints.front();
}

}  // namespace

TEST_CASE("bone kinds come from keywords in the name", "[rig][generator]") {
    CHECK(classifyBone("torso") == BoneKind::Torso);
    CHECK(classifyBone("Spine_02") == BoneKind::Torso);
    CHECK(classifyBone("chest") == BoneKind::Torso);
    CHECK(classifyBone("pelvis") == BoneKind::Torso);
    CHECK(classifyBone("neck") == BoneKind::Neck);
    CHECK(classifyBone("head") == BoneKind::Head);
    CHECK(classifyBone("upper_arm.L") == BoneKind::UpperArm);
    CHECK(classifyBone("UpperArm_R") == BoneKind::UpperArm);
    CHECK(classifyBone("forearm.R") == BoneKind::Forearm);
    CHECK(classifyBone("lower_arm_l") == BoneKind::Forearm);
    CHECK(classifyBone("hand.L") == BoneKind::Hand);
    CHECK(classifyBone("thigh.L") == BoneKind::Thigh);
    CHECK(classifyBone("upper_leg_R") == BoneKind::Thigh);
    CHECK(classifyBone("shin.R") == BoneKind::Shin);
    CHECK(classifyBone("calf_l") == BoneKind::Shin);
    CHECK(classifyBone("foot.L") == BoneKind::Foot);
    CHECK(classifyBone("tail") == BoneKind::Other);
    // Spine's spellings: hyphens, the part after the limb.
    CHECK(classifyBone("lower-arm-L") == BoneKind::Forearm);
    CHECK(classifyBone("arm-lower_R") == BoneKind::Forearm);
    CHECK(classifyBone("arm-upper_R") == BoneKind::UpperArm);
    CHECK(classifyBone("leg-upper_R") == BoneKind::Thigh);
    CHECK(classifyBone("leg-lower_R") == BoneKind::Shin);
    CHECK(classifyBone("front-thigh") == BoneKind::Thigh);
}

TEST_CASE("a bare leg or arm is told by where it hangs", "[rig][generator]") {
    RigLoadResult result = loadRigFromText(R"(<rig name="bare" format="1" units="m">
  <bone name="hip" y="1" angle="90" length="0.3"/>
  <bone name="leg_R" parent="hip" x="0" angle="180" length="0.45"/>
  <bone name="LeftUpLeg" parent="hip" x="0" angle="180" length="0.45"/>
  <bone name="LeftLeg" parent="LeftUpLeg" length="0.45"/>
  <bone name="arm_L" parent="hip" angle="180" length="0.3"/>
  <bone name="arm_lower_L" parent="arm_L" length="0.3"/>
  <bone name="upper_arm_R" parent="hip" angle="180" length="0.3"/>
  <bone name="arm_R" parent="upper_arm_R" length="0.3"/>
  <bone name="back-leg1" parent="hip" angle="180" length="0.3"/>
  <bone name="back-leg2" parent="back-leg1" length="0.3"/>
  <bone name="back-leg3" parent="back-leg2" length="0.3"/>
</rig>
)", "bare.rig.xml");
    REQUIRE(result.rig);
    const std::vector<BoneKind> kinds = classifyBones(*result.rig);
    CHECK(kinds == std::vector<BoneKind>{BoneKind::Torso, BoneKind::Thigh, BoneKind::Thigh, BoneKind::Shin, BoneKind::UpperArm,
                                         BoneKind::Forearm, BoneKind::UpperArm, BoneKind::Forearm, BoneKind::Thigh,
                                         BoneKind::Shin, BoneKind::Shin});
    // Generated, the thigh on the hips gets a hip's limits, not a knee's.
    GeneratedRig generated = generateBodiesAndJoints(*result.rig);
    const RigJoint& hip = generated.rig.joints[0];
    CHECK(hip.child == 1);
    CHECK(hip.lower == Approx(-30.0 * kDegree));
    CHECK(hip.upper == Approx(120.0 * kDegree));
}

TEST_CASE("a skeleton becomes a ragdoll with proportional radii and one-way elbows and knees", "[rig][generator]") {
    auto bones = loadData("stickman_bones.rig.xml");
    REQUIRE(bones->bodies.empty());
    GeneratedRig generated = generateBodiesAndJoints(*bones);
    const RigDefinition& rig = generated.rig;
    CHECK(generated.replacedBodies == 0);
    REQUIRE(rig.bodies.size() == 10);
    REQUIRE(rig.joints.size() == 9);

    // Radius = fraction × the bone's own length (capsules capped at 0.5).
    CHECK(bodyOf(rig, "torso").radiusFraction == 0.5);  // 0.9, capped
    CHECK(bodyOf(rig, "torso").radius == Approx(0.25));
    CHECK(bodyOf(rig, "head").shape == BodyShape::Circle);
    CHECK(bodyOf(rig, "head").radius == Approx(0.55 * 0.30));
    CHECK(bodyOf(rig, "upper_arm.L").radius == Approx(0.28 * 0.28));
    CHECK(bodyOf(rig, "forearm.R").radius == Approx(0.24 * 0.27));
    CHECK(bodyOf(rig, "thigh.L").radius == Approx(0.34 * 0.48));
    CHECK(bodyOf(rig, "shin.R").radius == Approx(0.26 * 0.46));
    for (const RigBody& body : rig.bodies) CHECK(body.radiusSource == RadiusSource::Fraction);

    // The torso is heavier than any limb.
    for (const RigBody& body : rig.bodies)
        if (body.bone != rig.findBone("torso")) CHECK(bodyOf(rig, "torso").mass > 3.0 * body.mass);

    // Hinges bend one way; hips flex forward as the stickman's clips do; everything else gets a
    // symmetric range.
    const RigJoint& elbow = jointTo(rig, "forearm.L");
    CHECK(elbow.fileName == "elbow.L");
    CHECK(elbow.lower == 0.0);
    CHECK(elbow.upper == Approx(140.0 * kDegree));
    const RigJoint& knee = jointTo(rig, "shin.R");
    CHECK(knee.fileName == "knee.R");
    CHECK(knee.lower == Approx(-140.0 * kDegree));
    CHECK(knee.upper == 0.0);
    for (const char* child : {"thigh.L", "thigh.R"}) {
        const RigJoint& hip = jointTo(rig, child);
        CAPTURE(child);
        CHECK(hip.lower == Approx(-30.0 * kDegree));
        CHECK(hip.upper == Approx(120.0 * kDegree));
    }
    for (const char* child : {"head", "upper_arm.L", "upper_arm.R"}) {
        const RigJoint& joint = jointTo(rig, child);
        CAPTURE(child);
        CHECK(joint.limited);
        CHECK(joint.lower == Approx(-joint.upper));
        CHECK(joint.parent == rig.findBone("torso"));
    }
    CHECK(jointTo(rig, "head").fileName == "neck");
    CHECK(jointTo(rig, "upper_arm.R").fileName == "shoulder.R");
}

TEST_CASE("a bone that is drawn keeps the drawn radius", "[rig][generator]") {
    RigLoadResult result = loadRigFile(std::string(PAPERDOLL_CONTENT_DIR) + "/rigs/stickman.rig.xml");
    REQUIRE(result.rig);
    GeneratedRig generated = generateBodiesAndJoints(*result.rig);
    CHECK(generated.replacedBodies == 10);
    CHECK(generated.replacedJoints == 9);
    for (size_t i = 0; i < generated.rig.bodies.size(); ++i) {
        CHECK(generated.rig.bodies[i].radiusSource == RadiusSource::Visual);
        CHECK(generated.rig.bodies[i].radius == result.rig->bodies[i].radius);
    }
}

TEST_CASE("generated over a rig's own bodies and joints, the comment on the old joints goes with them", "[rig][generator]") {
    RigLoadResult stickman = loadRigFile(std::string(PAPERDOLL_CONTENT_DIR) + "/rigs/stickman.rig.xml");
    REQUIRE(stickman.rig);
    const std::string oldNote = "Joint friction 1 N·m";  // the shipped joints' comment
    REQUIRE(stickman.rig->sourceText.find(oldNote) != std::string::npos);
    GeneratedRig generated = generateBodiesAndJoints(*stickman.rig);
    RigTextResult text = rigToText(generated.rig);
    REQUIRE(text.ok);
    CHECK(text.text.find(oldNote) == std::string::npos);
    CHECK(text.text.find("<!-- What characters made from this rig play") != std::string::npos);  // the clips' note stays
    CHECK(text.text.find("\n\n\n") == std::string::npos);
    RigLoadResult reloaded = loadRigFromText(text.text, "generated.rig.xml");
    REQUIRE(reloaded.rig);
    CHECK(reloaded.rig->joints.size() == 9);
}

TEST_CASE("a generated rig saves as its input plus the new elements and drops cleanly", "[rig][generator]") {
    auto bones = loadData("stickman_bones.rig.xml");
    GeneratedRig generated = generateBodiesAndJoints(*bones);
    RigTextResult text = rigToText(generated.rig);
    REQUIRE(text.ok);
    // The input's text is kept as it was, up to its last bone; the new groups follow it.
    const std::string& source = bones->sourceText;
    size_t lastBone = source.find("<bone name=\"shin.R\" parent=\"thigh.R\" length=\"46\"/>");
    REQUIRE(lastBone != std::string::npos);
    size_t lineEnd = source.find('\n', lastBone);
    CHECK(text.text.substr(0, lineEnd) == source.substr(0, lineEnd));
    CHECK(text.text.find("\n\n  <body bone=\"torso\" radius_fraction=\"0.5\" mass=\"8\" linear_damping=\"0.1\" "
                         "angular_damping=\"0.5\"/>\n") != std::string::npos);
    // Every joint damped at 1.5/s and rubbing at half the lightest limb's level torque: the
    // forearm's, 1.2 kg × 9.8 m/s² × 0.135 m / 2 = 0.79 N·m.
    CHECK(text.text.find("\n  <joint name=\"elbow.L\" parent=\"upper_arm.L\" child=\"forearm.L\" lower=\"0\" "
                         "upper=\"140\" damping=\"1.5\" friction=\"0.79\"/>\n") != std::string::npos);
    CHECK(text.text.ends_with("</rig>\n"));

    RigLoadResult reloaded = loadRigFromText(text.text, "generated.rig.xml");
    INFO(describe(reloaded.diagnostics));
    REQUIRE(reloaded.rig);
    CHECK(reloaded.diagnostics.empty());
    CHECK(reloaded.rig->bodies.size() == 10);
    DropReport drop = dropRig(*reloaded.rig);
    CAPTURE(drop.maxStretch, drop.maxLimitViolationDegrees, drop.restFrame, drop.explosion);
    CHECK(drop.passed());
}
