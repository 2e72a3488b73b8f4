// Rig loader: the reference stickman against the SCENES stickman, name sanitising, and
// one test per kind of error with the exact line and message it must give.
// Inline rigs put <rig> on line 1, so body line N is file line N + 1.

#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "rig/rig_loader.h"
#include "scenes.h"
#include "rig_test_support.h"

namespace fs = std::filesystem;
using namespace ragdoll;
using namespace rigtest;

namespace {

/// A rig in metres whose <rig> tag is line 1.
RigLoadResult loadBody(const std::string& body) {
    return loadRigFromText("<rig name=\"t\" format=\"1\" units=\"m\">\n" + body + "\n</rig>\n", "inline.rig.xml");
}

/// Two bones with bodies and a joint: lines 2–6. Tests append or replace lines.
const std::string kTorso = "<bone name=\"torso\" angle=\"90\" length=\"0.5\"/>";
const std::string kHead = "<bone name=\"head\" parent=\"torso\" length=\"0.3\"/>";
const std::string kTorsoBody = "<body bone=\"torso\" radius=\"0.1\" mass=\"8\"/>";
const std::string kHeadBody = "<body bone=\"head\" shape=\"circle\" radius=\"0.12\" mass=\"1.5\"/>";
const std::string kNeck = "<joint parent=\"torso\" child=\"head\" lower=\"-45\" upper=\"45\"/>";

std::vector<Diagnostic> ofSeverity(const RigLoadResult& result, Severity severity) {
    std::vector<Diagnostic> out;
    for (const Diagnostic& d : result.diagnostics)
        if (d.severity == severity) out.push_back(d);
    return out;
}

/// The load failed, built nothing, and gave exactly these errors in order: {line, message}.
void requireErrors(const RigLoadResult& result, const std::vector<std::pair<int, std::string>>& expected) {
    CHECK(result.rig == nullptr);
    std::vector<Diagnostic> errors = ofSeverity(result, Severity::Error);
    INFO(describe(errors));
    REQUIRE(errors.size() == expected.size());
    for (size_t i = 0; i < expected.size(); ++i) {
        CHECK(errors[i].line == expected[i].first);
        CHECK(errors[i].message == expected[i].second);
    }
}

void requireError(const RigLoadResult& result, int line, const std::string& message) {
    requireErrors(result, {{line, message}});
}

}  // namespace

// ---------------------------------------------------------------- what loads

TEST_CASE("the reference stickman loads as the SCENES stickman", "[rig][loader]") {
    RigLoadResult result = loadRigFile(contentRig("stickman.rig.xml"));
    INFO(describe(result.diagnostics));
    REQUIRE(result.rig);
    CHECK(result.diagnostics.empty());
    const RigDefinition& rig = *result.rig;
    CHECK(rig.name == "stickman");
    CHECK(rig.units == RigUnits::Pixels);
    CHECK(rig.scale == 100.0);
    CHECK(rig.bones.size() == 10);
    CHECK(rig.bodies.size() == 10);
    CHECK(rig.joints.size() == 9);
    CHECK(rig.solver.gravity == Approx(-9.8));
    CHECK(rig.totalMass() == Approx(21.5));

    // Every body lies where tests/scenes/SCENES.md puts the same bone: the rig's feet are
    // at y = 0 too.
    scenes::SceneSpec scene;
    scenes::addStickman(scene, 0.0, 0.0, {}, 0);
    for (const scenes::BodySpec& spec : scene.bodies) {
        CAPTURE(spec.name);
        int bone = rig.findBone(spec.name);
        REQUIRE(bone >= 0);
        int b = rig.bodyOfBone(bone);
        REQUIRE(b >= 0);
        const RigBone& rb = rig.bones[size_t(bone)];
        const RigBody& body = rig.bodies[size_t(b)];
        CHECK(body.radius == Approx(spec.radius).margin(1e-12));
        CHECK(body.mass == spec.mass);
        if (spec.shape == scenes::ShapeKind::Circle) {
            CHECK(body.shape == BodyShape::Circle);
            CHECK(rb.midpoint().x == Approx(spec.p0.x).margin(1e-12));
            CHECK(rb.midpoint().y == Approx(spec.p0.y).margin(1e-12));
        } else {
            CHECK(body.shape == BodyShape::Capsule);
            CHECK(rb.origin.x == Approx(spec.p0.x).margin(1e-12));
            CHECK(rb.origin.y == Approx(spec.p0.y).margin(1e-12));
            CHECK(rb.tip().x == Approx(spec.p1.x).margin(1e-12));
            CHECK(rb.tip().y == Approx(spec.p1.y).margin(1e-12));
        }
    }
    // Elbows and knees bend one way only; the torso outweighs each limb five times.
    for (const RigJoint& joint : rig.joints) {
        const std::string& child = rig.bones[size_t(joint.child)].name;
        CAPTURE(child);
        REQUIRE(joint.limited);
        if (child.starts_with("forearm")) CHECK((joint.lower == 0.0 && joint.upper > 0.0));
        if (child.starts_with("shin")) CHECK((joint.upper == 0.0 && joint.lower < 0.0));
    }
    const double torsoMass = rig.bodies[size_t(rig.bodyOfBone(rig.findBone("torso")))].mass;
    for (const RigBody& body : rig.bodies)
        if (body.bone != rig.findBone("torso")) CHECK(torsoMass >= 5.0 * body.mass);
}

TEST_CASE("every shipped rig loads without errors or warnings", "[rig][loader]") {
    int rigs = 0;
    for (const auto& entry : fs::directory_iterator(std::string(PAPERDOLL_CONTENT_DIR) + "/rigs")) {
        if (!entry.path().string().ends_with(".rig.xml")) continue;
        ++rigs;
        RigLoadResult result = loadRigFile(entry.path().string());
        CAPTURE(entry.path().string());
        INFO(describe(result.diagnostics));
        CHECK(result.rig);
        CHECK(result.diagnostics.empty());
    }
    CHECK(rigs >= 2);
}

TEST_CASE("the paper puppet is in centimetres with dotted names, fractions and a neck body", "[rig][loader]") {
    RigLoadResult result = loadRigFile(contentRig("paper_puppet.rig.xml"));
    REQUIRE(result.rig);
    const RigDefinition& rig = *result.rig;
    CHECK(rig.units == RigUnits::Centimetres);
    CHECK(rig.bodies.size() == 12);
    CHECK(rig.solver.gravity == Approx(-9.81));
    // Dotted bones and joints are sanitised; the file's spelling is kept for saving.
    int arm = rig.findBone("upper_arm_L");
    REQUIRE(arm >= 0);
    CHECK(rig.bones[size_t(arm)].fileName == "upper_arm.L");
    CHECK(rig.findBone("upper_arm.L") == arm);
    CHECK(rig.bones[size_t(arm)].length == Approx(0.28));
    // Radius = fraction × the bone's length.
    const RigBody& armBody = rig.bodies[size_t(rig.bodyOfBone(arm))];
    CHECK(armBody.radiusSource == RadiusSource::Fraction);
    CHECK(armBody.radius == Approx(0.16 * 0.28));
    // The neck has a body, and both head joints hang on it.
    int neck = rig.findBone("neck"), head = rig.findBone("head"), torso = rig.findBone("torso");
    REQUIRE(rig.bodyOfBone(neck) >= 0);
    int jointsOnNeck = 0;
    for (const RigJoint& joint : rig.joints) {
        if (joint.parent == torso && joint.child == neck) ++jointsOnNeck;
        if (joint.parent == neck && joint.child == head) ++jointsOnNeck;
        CHECK(joint.name.find('.') == std::string::npos);
    }
    CHECK(jointsOnNeck == 2);
}

TEST_CASE("bones default to their parent's tip and compose their rest pose", "[rig][loader]") {
    RigLoadResult result = loadBody(kTorso + "\n" + kHead + "\n<bone name=\"arm\" parent=\"torso\" x=\"0.4\" y=\"0.1\" angle=\"-90\" length=\"0.2\"/>");
    REQUIRE(result.rig);
    const RigDefinition& rig = *result.rig;
    const RigBone& head = rig.bones[1];
    CHECK(head.localOrigin.x == 0.5);  // the torso's length
    CHECK(head.origin.x == Approx(0.0).margin(1e-15));
    CHECK(head.origin.y == Approx(0.5));
    CHECK(head.angle == Approx(90.0 * kDegree));
    const RigBone& arm = rig.bones[2];
    // (0.4, 0.1) in the torso's frame (its +x is up): 0.4 up and 0.1 to the left.
    CHECK(arm.origin.x == Approx(-0.1));
    CHECK(arm.origin.y == Approx(0.4));
    CHECK(arm.angle == Approx(0.0).margin(1e-15));  // 90° − 90°: pointing along +x
    CHECK(arm.tip().x == Approx(0.1));
}

TEST_CASE("a body's radius comes from radius, radius_fraction or the visual", "[rig][loader]") {
    RigLoadResult result = loadBody(kTorso + "\n" + kHead +
                                    "\n<bone name=\"arm\" parent=\"torso\" length=\"0.4\"/>"
                                    "\n<visual bone=\"torso\" width=\"0.2\"/>"
                                    "\n<visual bone=\"head\" shape=\"circle\" radius=\"0.13\"/>"
                                    "\n<body bone=\"torso\" mass=\"8\"/>"
                                    "\n<body bone=\"head\" shape=\"circle\" mass=\"1\"/>"
                                    "\n<body bone=\"arm\" radius_fraction=\"0.25\" mass=\"1\"/>");
    REQUIRE(result.rig);
    const RigDefinition& rig = *result.rig;
    CHECK(rig.bodies[0].radiusSource == RadiusSource::Visual);
    CHECK(rig.bodies[0].radius == Approx(0.1));  // half the line width
    CHECK(rig.bodies[1].radius == Approx(0.13));  // the drawn circle
    CHECK(rig.bodies[2].radius == Approx(0.1));   // 0.25 × 0.4
}

TEST_CASE("dotted names are sanitised once and references resolve either way", "[rig][loader][names]") {
    RigLoadResult result = loadBody(kTorso +
                                    "\n<bone name=\"upper_arm.L\" parent=\"torso\" length=\"0.3\"/>"
                                    "\n<bone name=\"forearm.L\" parent=\"upper_arm_L\" length=\"0.3\"/>"
                                    "\n" + kTorsoBody +
                                    "\n<body bone=\"upper_arm_L\" radius=\"0.04\" mass=\"1\"/>"
                                    "\n<body bone=\"forearm.L\" radius=\"0.04\" mass=\"1\"/>"
                                    "\n<joint name=\"shoulder.L\" parent=\"torso\" child=\"upper_arm.L\"/>"
                                    "\n<joint name=\"elbow.L\" parent=\"upper_arm.L\" child=\"forearm_L\"/>");
    INFO(describe(result.diagnostics));
    REQUIRE(result.rig);
    const RigDefinition& rig = *result.rig;
    CHECK(rig.bones[1].name == "upper_arm_L");
    CHECK(rig.bones[1].fileName == "upper_arm.L");
    CHECK(rig.bones[2].parent == 1);
    CHECK(rig.bodies[1].bone == 1);
    CHECK(rig.joints[0].name == "shoulder_L");
    CHECK(rig.joints[0].fileName == "shoulder.L");
    CHECK(rig.joints[1].parentBody == 1);
    CHECK(rig.joints[1].childBody == 2);
    CHECK(sanitiseName("a.b.c") == "a_b_c");
}

TEST_CASE("an unknown element a slip away from a rig element names it", "[rig][loader]") {
    RigLoadResult result =
        loadBody(kTorso + "\n" + kHead + "\n" + kTorsoBody + "\n" + kHeadBody + "\n<jiont parent=\"torso\" child=\"head\"/>\n" + kNeck);
    REQUIRE(result.rig);
    std::vector<Diagnostic> warnings = ofSeverity(result, Severity::Warning);
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0].format() == "inline.rig.xml:6: warning: unknown element 'jiont' ignored (kept on save); did you mean 'joint'?");
}

TEST_CASE("what the loader does not know is a warning, and the rig still loads", "[rig][loader]") {
    RigLoadResult result = loadRigFile(dataPath("unknown_content.rig.xml"));
    REQUIRE(result.rig);
    std::vector<Diagnostic> warnings = ofSeverity(result, Severity::Warning);
    std::vector<std::string> texts;
    for (const Diagnostic& d : warnings) texts.push_back(d.format());
    std::string path = dataPath("unknown_content.rig.xml");
    CHECK(texts == std::vector<std::string>{
                       path + ":7: warning: rig: unknown attribute 'author' ignored (kept on save)",
                       path + ":9: warning: bone: unknown attribute 'tag' ignored (kept on save)",
                       path + ":13: warning: unknown element 'editor-note' ignored (kept on save)",
                       path + ":19: warning: body: unknown attribute 'material' ignored (kept on save)",
                       path + ":23: warning: unknown element 'hint' in <body> ignored (kept on save)",
                   });
}

TEST_CASE("a body that no joint connects is a warning", "[rig][loader]") {
    RigLoadResult result = loadBody(kTorso + "\n" + kHead + "\n" + kTorsoBody + "\n" + kHeadBody);
    REQUIRE(result.rig);
    std::vector<Diagnostic> warnings = ofSeverity(result, Severity::Warning);
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0].line == 5);
    CHECK(warnings[0].message == "body: 'head' is not joined to 'torso' by any chain of joints; it will fall on its own");
}

TEST_CASE("a rig no one means — a units slip, gravity the wrong way, bodies 10^9 apart — loads with a warning", "[rig][loader]") {
    // Each loaded and played without a word: the first stood 177 m tall under 981 m/s² and
    // exploded in `rig drop`.
    auto warningsOf = [](const std::string& text) {
        std::vector<std::string> out;
        for (const Diagnostic& d : ofSeverity(loadRigFromText(text, "w.rig.xml"), Severity::Warning))
            out.push_back(std::to_string(d.line) + ": " + d.message);
        return out;
    };
    const std::string bones = "  <bone name=\"torso\" angle=\"90\" length=\"50\"/>\n"
                              "  <bone name=\"head\" parent=\"torso\" length=\"30\"/>\n";
    const std::string bodies = "  <body bone=\"torso\" mass=\"8\" radius=\"10\"/>\n  <body bone=\"head\" mass=\"2\" radius=\"10\"/>\n"
                               "  <joint parent=\"torso\" child=\"head\"/>\n";
    // Centimetres, as meant: nothing to say.
    CHECK(warningsOf("<rig name=\"t\" format=\"1\" units=\"cm\">\n" + bones + bodies + "</rig>\n").empty());
    // The same numbers read as metres, with the gravity written for centimetres.
    const std::vector<std::string> slip = warningsOf("<rig name=\"t\" format=\"1\" units=\"m\">\n<solver gravity=\"-981\"/>\n" + bones +
                                                     "  <body bone=\"torso\" mass=\"8\" radius=\"0.1\"/>\n  <body bone=\"head\" mass=\"2\" radius=\"0.1\"/>\n"
                                                     "  <joint parent=\"torso\" child=\"head\"/>\n</rig>\n");
    REQUIRE(slip.size() == 2);
    CHECK(slip[0] == "1: rig: its rest pose stands 80 m tall (units=\"m\", scale 1); were its numbers centimetres "
                     "(units=\"cm\") or pixels (units=\"px\")?");
    CHECK(slip[1] == "2: solver: gravity -981 m/s² (-981 in the file's m) is strong; the Earth's is -9.81 m/s², "
                     "written -9.81 in m at scale 1");
    // Gravity pointing up, in centimetres.
    const std::vector<std::string> up = warningsOf("<rig name=\"t\" format=\"1\" units=\"cm\">\n<solver gravity=\"981\"/>\n" + bones + bodies + "</rig>\n");
    REQUIRE(up.size() == 1);
    CHECK(up[0] == "2: solver: gravity 9.81 m/s² (981 in the file's cm) points up; the Earth's is -9.81 m/s², written -981 in cm at scale 100");
    // A torso of a million kilograms holding a head of a gram.
    const std::vector<std::string> heavy = warningsOf("<rig name=\"t\" format=\"1\" units=\"cm\">\n" + bones +
                                                      "  <body bone=\"torso\" mass=\"1e6\" radius=\"10\"/>\n  <body bone=\"head\" mass=\"0.001\" radius=\"10\"/>\n"
                                                      "  <joint parent=\"torso\" child=\"head\"/>\n</rig>\n");
    REQUIRE(heavy.size() == 1);
    CHECK(heavy[0] == "6: joint: 'torso' -> 'head' joins 1e+06 and 0.001 kg, 1e+09 to 1: past 1000 to 1 a light body "
                      "pressed by a heavy one is driven into what is under it");
}

// ---------------------------------------------------------------- errors, one kind each

TEST_CASE("an unknown parent is an error at the bone", "[rig][loader][errors]") {
    requireError(loadBody(kTorso + "\n<bone name=\"head\" parent=\"torsoo\" length=\"0.3\"/>"), 3,
                 "bone: unknown parent 'torsoo' of 'head' (no bone has that name; did you mean 'torso'?)");
}

TEST_CASE("a parent cycle is an error at its first bone", "[rig][loader][errors]") {
    requireError(loadBody(kTorso +
                          "\n<bone name=\"a\" parent=\"b\" length=\"0.3\"/>"
                          "\n<bone name=\"b\" parent=\"c\" length=\"0.3\"/>"
                          "\n<bone name=\"c\" parent=\"a\" length=\"0.3\"/>"),
                 3, "bone: parent cycle a -> b -> c -> a (each bone is its own ancestor)");
    requireError(loadBody(kTorso + "\n<bone name=\"a\" parent=\"a\" length=\"0.3\"/>"), 3,
                 "bone: parent cycle a -> a (each bone is its own ancestor)");
}

TEST_CASE("more than one root is an error at each extra root", "[rig][loader][errors]") {
    requireError(loadBody(kTorso + "\n<bone name=\"stray\" length=\"0.3\"/>"), 3,
                 "bone: 'stray' has no parent, and neither has 'torso' at line 2: a rig has one root; give this bone "
                 "a parent");
}

TEST_CASE("duplicate names are errors, also when they only collide after sanitising", "[rig][loader][errors][names]") {
    requireError(loadBody(kTorso + "\n" + kHead + "\n<bone name=\"head\" parent=\"torso\" length=\"0.3\"/>"), 4,
                 "bone: duplicate name 'head' (first at line 3)");
    requireError(loadBody(kTorso +
                          "\n<bone name=\"upper_arm_L\" parent=\"torso\" length=\"0.3\"/>"
                          "\n<bone name=\"upper_arm.L\" parent=\"torso\" length=\"0.3\"/>"),
                 4,
                 "bone: name 'upper_arm.L' becomes 'upper_arm_L' once '.' is replaced by '_', the same as "
                 "'upper_arm_L' at line 3; rename one of them");
    requireError(loadBody(kTorso + "\n" + kHead + "\n<bone name=\"arm\" parent=\"torso\" length=\"0.3\"/>\n" +
                          kTorsoBody + "\n" + kHeadBody + "\n<body bone=\"arm\" radius=\"0.04\" mass=\"1\"/>"
                          "\n<joint name=\"neck.a\" parent=\"torso\" child=\"head\"/>"
                          "\n<joint name=\"neck_a\" parent=\"torso\" child=\"arm\"/>"),
                 9, "joint: duplicate name 'neck_a' (after sanitising; first at line 8)");
}

TEST_CASE("a joint on a bone without a body is an error naming both bones", "[rig][loader][errors]") {
    requireError(loadBody(kTorso + "\n" + kHead + "\n" + kTorsoBody + "\n" + kNeck), 5,
                 "joint: 'torso' -> 'head': child bone 'head' has no <body> (a joint needs a body on both bones; "
                 "without one the limb would float free)");
    requireError(loadBody(kTorso + "\n" + kHead + "\n" + kHeadBody + "\n" + kNeck), 5,
                 "joint: 'torso' -> 'head': parent bone 'torso' has no <body> (a joint needs a body on both bones; "
                 "without one the limb would float free)");
    requireError(loadBody(kTorso + "\n" + kHead + "\n" + kNeck), 4,
                 "joint: 'torso' -> 'head': neither bone has a <body> (a joint needs a body on both bones; without "
                 "one the limb would float free)");
}

TEST_CASE("limits must be ordered, within a half turn, and given in pairs", "[rig][loader][errors]") {
    const std::string rig = kTorso + "\n" + kHead + "\n" + kTorsoBody + "\n" + kHeadBody + "\n";
    requireError(loadBody(rig + "<joint parent=\"torso\" child=\"head\" lower=\"50\" upper=\"10\"/>"), 6,
                 "joint: lower limit 50 is greater than upper limit 10 (degrees); swap them");
    requireError(loadBody(rig + "<joint parent=\"torso\" child=\"head\" lower=\"-200\" upper=\"10\"/>"), 6,
                 "joint: attribute 'lower' must be between -180 and 180 degrees, got -200");
    requireError(loadBody(rig + "<joint parent=\"torso\" child=\"head\" lower=\"0\" upper=\"180.5\"/>"), 6,
                 "joint: attribute 'upper' must be between -180 and 180 degrees, got 180.5");
    requireError(loadBody(rig + "<joint parent=\"torso\" child=\"head\" friction=\"-0.5\"/>"), 6,
                 "joint: attribute 'friction' must be >= 0, got -0.5");
    requireError(loadBody(rig + "<joint parent=\"torso\" child=\"head\" lower=\"-10\"/>"), 6,
                 "joint: attribute 'lower' given without 'upper': give both limits, or neither for a free joint");
    // ±180 itself is allowed, and no limits at all is a free joint.
    RigLoadResult full = loadBody(rig + "<joint parent=\"torso\" child=\"head\" lower=\"-180\" upper=\"180\"/>");
    REQUIRE(full.rig);
    CHECK(full.rig->joints[0].upper == Approx(kPi));
    RigLoadResult free = loadBody(rig + "<joint parent=\"torso\" child=\"head\"/>");
    REQUIRE(free.rig);
    CHECK_FALSE(free.rig->joints[0].limited);
}

TEST_CASE("limits that leave out the rest pose are a warning: the limb is held at a limit, not where the bones draw it",
          "[rig][loader]") {
    const std::string rig = kTorso + "\n" + kHead + "\n" + kTorsoBody + "\n" + kHeadBody + "\n";
    for (const char* limits : {"lower=\"60\" upper=\"90\"", "lower=\"-90\" upper=\"-0.5\""}) {
        RigLoadResult r = loadBody(rig + "<joint parent=\"torso\" child=\"head\" " + limits + "/>");
        REQUIRE(r.rig);  // it loads
        REQUIRE(r.diagnostics.size() == 1);
        CHECK(r.diagnostics[0].severity == Severity::Warning);
        CHECK(r.diagnostics[0].line == 6);
        CHECK_THAT(r.diagnostics[0].message, Catch::StartsWith("joint: its limits ") &&
                                                 Catch::Contains(" (degrees) leave out the rest pose, 0: "));
    }
    // A limit at the rest pose itself holds it.
    RigLoadResult atRest = loadBody(rig + "<joint parent=\"torso\" child=\"head\" lower=\"0\" upper=\"90\"/>");
    REQUIRE(atRest.rig);
    CHECK(atRest.diagnostics.empty());
}

TEST_CASE("mass, length, radius and sizes must be positive", "[rig][loader][errors]") {
    requireError(loadBody("<bone name=\"torso\" length=\"0\"/>"), 2, "bone: attribute 'length' must be > 0, got 0");
    requireError(loadBody(kTorso + "\n<body bone=\"torso\" radius=\"0.1\" mass=\"-2\"/>"), 3,
                 "body: attribute 'mass' must be > 0, got -2");
    requireError(loadBody(kTorso + "\n<body bone=\"torso\" radius=\"0\" mass=\"2\"/>"), 3,
                 "body: attribute 'radius' must be > 0, got 0");
    requireError(loadBody(kTorso + "\n<body bone=\"torso\" radius_fraction=\"-0.1\" mass=\"2\"/>"), 3,
                 "body: attribute 'radius_fraction' must be > 0, got -0.1");
    requireError(loadBody(kTorso + "\n<visual bone=\"torso\" width=\"0\"/>"), 3,
                 "visual: attribute 'width' must be > 0, got 0");
    requireError(loadRigFromText("<rig name=\"t\" format=\"1\" units=\"px\" scale=\"0\">\n" + kTorso + "\n</rig>", "s.rig.xml"), 1,
                 "rig: attribute 'scale' must be > 0, got 0");
}

TEST_CASE("NaN and infinity are refused wherever a number goes", "[rig][loader][errors]") {
    requireError(loadBody("<bone name=\"torso\" length=\"nan\"/>"), 2,
                 "bone: attribute 'length' must be a finite number, got 'nan'");
    requireError(loadBody("<bone name=\"torso\" x=\"inf\" length=\"1\"/>"), 2,
                 "bone: attribute 'x' must be a finite number, got 'inf'");
    requireError(loadBody(kTorso + "\n<body bone=\"torso\" radius=\"0.1\" mass=\"-inf\"/>"), 3,
                 "body: attribute 'mass' must be a finite number, got '-inf'");
    requireError(loadBody(kTorso + "\n" + kHead + "\n" + kTorsoBody + "\n" + kHeadBody +
                          "\n<joint parent=\"torso\" child=\"head\" lower=\"NaN\" upper=\"1\"/>"),
                 6, "joint: attribute 'lower' must be a finite number, got 'NaN'");
    requireError(loadBody("<solver gravity=\"1e999\"/>\n" + kTorso), 2,
                 "solver: attribute 'gravity' is out of range, got '1e999'");
    requireError(loadBody("<bone name=\"torso\" length=\"1,5\"/>"), 2, "bone: attribute 'length' must be a number, got '1,5'");
}

TEST_CASE("unknown shapes and other unknown values are errors", "[rig][loader][errors]") {
    requireError(loadBody(kTorso + "\n<body bone=\"torso\" shape=\"sphere\" radius=\"0.1\" mass=\"1\"/>"), 3,
                 "body: attribute 'shape' has unknown value 'sphere' (supported: capsule, circle, box)");
    requireError(loadBody(kTorso + "\n<visual bone=\"torso\" shape=\"square\" width=\"0.1\"/>"), 3,
                 "visual: attribute 'shape' has unknown value 'square' (supported: line, circle)");
    requireError(loadRigFromText("<rig name=\"t\" format=\"1\" units=\"inch\">\n" + kTorso + "\n</rig>", "u.rig.xml"), 1,
                 "rig: attribute 'units' has unknown value 'inch' (supported: m, cm, px)");
    requireError(loadBody(kTorso + "\n" + kHead + "\n" + kTorsoBody + "\n" + kHeadBody +
                          "\n<joint parent=\"torso\" child=\"head\" collide=\"yes\"/>"),
                 6, "joint: attribute 'collide' must be 'true' or 'false', got 'yes'");
    requireError(loadBody("<solver substeps=\"0\"/>\n" + kTorso), 2, "solver: attribute 'substeps' must be between 1 and 64, got 0");
    requireError(loadBody(kTorso + "\n<visual bone=\"torso\" width=\"0.1\" color=\"red\"/>"), 3,
                 "visual: attribute 'color' must be '#rrggbb' or '#rrggbbaa', got 'red'");
}

TEST_CASE("missing required attributes are errors", "[rig][loader][errors]") {
    requireError(loadBody("<bone name=\"torso\"/>"), 2, "bone: missing required attribute 'length'");
    requireError(loadBody("<bone length=\"1\"/>"), 2, "bone: missing required attribute 'name'");
    requireError(loadBody(kTorso + "\n<body bone=\"torso\" radius=\"0.1\"/>"), 3, "body: missing required attribute 'mass'");
    requireError(loadBody(kTorso + "\n<body radius=\"0.1\" mass=\"1\"/>"), 3, "body: missing required attribute 'bone'");
    requireError(loadBody(kTorso + "\n" + kHead + "\n" + kTorsoBody + "\n" + kHeadBody + "\n<joint parent=\"torso\"/>"), 6,
                 "joint: missing required attribute 'child'");
    requireError(loadBody(kTorso + "\n<visual bone=\"torso\"/>"), 3, "visual: missing required attribute 'width'");
    requireError(loadRigFromText("<rig format=\"1\">\n" + kTorso + "\n</rig>", "n.rig.xml"), 1,
                 "rig: missing required attribute 'name'");
    requireError(loadRigFromText("<rig name=\"t\">\n" + kTorso + "\n</rig>", "n.rig.xml"), 1,
                 "rig: missing required attribute 'format'");
    // Without radius, fraction or a sized visual, a body has no size.
    requireError(loadBody(kTorso + "\n<body bone=\"torso\" mass=\"1\"/>"), 3,
                 "body: no radius for bone 'torso': give 'radius' or 'radius_fraction', or a <visual> with a width or "
                 "radius, or a <sprite>, for the bone");
    requireError(loadBody(kTorso + "\n<body bone=\"torso\" radius=\"0.1\" radius_fraction=\"0.2\" mass=\"1\"/>"), 3,
                 "body: give either 'radius' or 'radius_fraction', not both");
}

TEST_CASE("references to bones that do not exist are errors at the referring element", "[rig][loader][errors]") {
    requireErrors(loadBody(kTorso + "\n" + kTorsoBody + "\n<visual bone=\"tail\" width=\"0.1\"/>\n<body bone=\"tail\" radius=\"0.1\" mass=\"1\"/>\n<joint parent=\"torso\" child=\"tail\"/>"),
                  {{4, "visual: bone 'tail' is not a bone of this rig"},
                   {5, "body: bone 'tail' is not a bone of this rig"},
                   {6, "joint: child 'tail' is not a bone of this rig"}});
    requireError(loadBody(kTorso + "\n" + kTorsoBody + "\n<body bone=\"torso\" radius=\"0.1\" mass=\"1\"/>"), 4,
                 "body: bone 'torso' already has a body at line 3 (one body per bone)");
    // A slip away from a bone (a letter swapped, changed, or the dot written as '_' with the
    // side's case changed) is pointed at the bone; 'hand' is no slip of 'head'.
    requireErrors(loadBody(kTorso + "\n" + kHead + "\n<bone name=\"shin.R\" parent=\"torso\" length=\"0.4\"/>\n" + kTorsoBody +
                           "\n<body bone=\"haed\" radius=\"0.1\" mass=\"1\"/>\n<body bone=\"shin_r\" radius=\"0.1\" mass=\"1\"/>"
                           "\n<body bone=\"hand\" radius=\"0.1\" mass=\"1\"/>"),
                  {{6, "body: bone 'haed' is not a bone of this rig; did you mean 'head'?"},
                   {7, "body: bone 'shin_r' is not a bone of this rig; did you mean 'shin.R'?"},
                   {8, "body: bone 'hand' is not a bone of this rig"}});
}

TEST_CASE("a format version we do not know stops the load", "[rig][loader][errors]") {
    requireError(loadRigFromText("<rig name=\"t\" format=\"2\">\n<bone name=\"x\" length=\"banana\"/>\n</rig>", "f.rig.xml"), 1,
                 "rig: unsupported format '2' (this version reads format 1)");
}

TEST_CASE("malformed XML is an error at its line", "[rig][loader][errors]") {
    RigLoadResult result = loadRigFile(dataPath("malformed.rig.xml"));
    CHECK(result.rig == nullptr);
    REQUIRE(result.diagnostics.size() == 1);
    // Both lines: the closing tag that broke it, and the element it found open.
    CHECK(result.diagnostics[0].line == 3);
    CHECK(result.diagnostics[0].message == "malformed XML: closing tag </rig> does not match the open element <bone> (line 2)");
    // A misspelt closing tag at the end was reported at the first line, and not named.
    requireError(loadRigFromText("<rig name=\"t\" format=\"1\">\n<!-- </x> -->\n<bone name=\"x\" length=\"1\" note=\"a>b\"/>\n"
                                 "<body bone=\"x\" mass=\"1\">\n</body>\n</rg>\n",
                                 "t.rig.xml"),
                 6, "malformed XML: closing tag </rg> does not match the open element <rig> (line 1)");
    // The open element found by its whole name: <bone2 is not <bone.
    requireError(loadRigFromText("<rig name=\"t\" format=\"1\">\n<bone2 a=\"1\"/><bone>\n<x/>\n</bone2>\n</rig>\n", "p.rig.xml"), 4,
                 "malformed XML: closing tag </bone2> does not match the open element <bone> (line 2)");
    requireError(loadRigFromText("<level name=\"x\"/>", "l.rig.xml"), 1, "root element is <level>, expected <rig>");
    requireError(loadBody(""), 1, "rig: rig has no <bone> elements");
}

TEST_CASE("missing, empty and directory files are errors about the file", "[rig][loader][errors]") {
    requireError(loadRigFile(dataPath("no_such.rig.xml")), 0, "cannot open rig: file not found");
    requireError(loadRigFile(dataPath("empty.rig.xml")), 0, "file is empty; expected a <rig> element");
    requireError(loadRigFile(PAPERDOLL_RIG_TEST_DATA_DIR), 0, "cannot open rig: it is a directory, not a file");
    requireError(loadRigFromText("  \n\t", "blank.rig.xml"), 0, "file is empty; expected a <rig> element");
}

TEST_CASE("every error of a file is reported, in line order, in the compiler's format", "[rig][loader][errors]") {
    std::string path = dataPath("broken.rig.xml");
    RigLoadResult result = loadRigFile(path);
    CHECK(result.rig == nullptr);
    std::vector<std::string> texts;
    for (const Diagnostic& d : result.diagnostics) texts.push_back(d.format());
    CHECK(texts == std::vector<std::string>{
                       path + ":7: error: bone: unknown parent 'torsoo' of 'arm' (no bone has that name; did you mean 'torso'?)",
                       path + ":10: error: body: attribute 'mass' must be > 0, got 0",
                       path + ":11: error: body: bone 'arm.L' is not a bone of this rig",
                       path + ":12: error: joint: 'torso' -> 'head': child bone 'head' has no <body> (a joint needs a "
                              "body on both bones; without one the limb would float free)",
                       path + ":13: error: joint: lower limit 30 is greater than upper limit -30 (degrees); swap them",
                   });
}
