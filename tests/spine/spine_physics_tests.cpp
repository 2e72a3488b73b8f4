// The physics guesses of `rig import` on a figure the tests write themselves (spine_bot.h):
// which bones get bodies, and the joint limits their roles and the clips give.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "paper/text_width.h"
#include "rig/rig_loader.h"
#include "rig_tools/rig_drop.h"
#include "spine/spine_json.h"
#include "spine/spine_mesh.h"
#include "spine/spine_pose.h"
#include "spine_bot.h"
#include "spine_test_support.h"

using namespace ragdoll;
using namespace spinetest;

namespace {

/// Imports the figure from folder at 100 units a metre; the run, and the rig it wrote.
struct BotImport {
    ImportRun run;
    std::optional<RigDefinition> rig;
};

BotImport importBot(const std::filesystem::path& folder, const nlohmann::ordered_json& bot) {
    SpineImportOptions o;
    o.skeletonPath = writeBot(folder, bot).string();
    o.outPath = (folder / "out" / "bot.rig.xml").string();
    o.scale = 100.0;
    std::filesystem::create_directories(folder / "out");
    BotImport result;
    result.run = runImport(o);
    if (result.run.exitCode == 0) {
        RigLoadResult loaded = loadRigFile(o.outPath);
        if (loaded.rig) result.rig = *loaded.rig;
    }
    return result;
}

const RigJoint& jointOf(const RigDefinition& rig, const std::string& bone) {
    for (const RigJoint& joint : rig.joints)
        if (joint.name == bone) return joint;
    FAIL("no joint for " << bone);
    return rig.joints.front();
}

/// The line of the guesses table for a bone.
std::string tableLine(const std::string& out, const std::string& bone) {
    const size_t at = out.find("\n  " + bone + " ");
    if (at == std::string::npos) return "";
    return out.substr(at + 1, out.find('\n', at + 1) - at - 1);
}

/// Renames a bone of the figure, and its children's and slots' references to it.
void renameBone(nlohmann::ordered_json& bot, const std::string& from, const std::string& to) {
    for (auto& bone : bot["bones"]) {
        if (bone["name"] == from) bone["name"] = to;
        if (bone.contains("parent") && bone["parent"] == from) bone["parent"] = to;
    }
    for (auto& slot : bot["slots"])
        if (slot["bone"] == from) slot["bone"] = to;
}

/// The terminal column where byte `at` of a line shows: a code point a column, the CJK
/// ideographs this test uses (3-byte sequences led by 0xE4 to 0xE9) two.
size_t columnAt(const std::string& line, size_t at) {
    size_t column = 0;
    for (size_t i = 0; i < at && i < line.size(); ++i) {
        const auto byte = static_cast<unsigned char>(line[i]);
        if ((byte & 0xC0) == 0x80) continue;  // inside a code point
        column += byte >= 0xE4 && byte <= 0xE9 ? 2 : 1;
    }
    return column;
}

}  // namespace

TEST_CASE("import: straight elbows and knees keep the guess [0, 140] / [-140, 0] unless a clip goes past it",
          "[spine][import][limits]") {
    nlohmann::ordered_json bot = botSkeleton();
    bot["bones"][5]["rotation"] = 0;  // forearm_l straight
    REQUIRE(bot["bones"][5]["name"] == "forearm_l");

    // No animations: nothing is reached, nothing widened.
    BotImport still = importBot(freshFolder("limits_still"), bot);
    INFO(still.run.err);
    REQUIRE(still.rig);
    CHECK(jointOf(*still.rig, "forearm_l").lower / kDegree == Approx(0.0).margin(1e-9));
    CHECK(jointOf(*still.rig, "forearm_l").upper / kDegree == Approx(140.0).margin(1e-9));
    CHECK(jointOf(*still.rig, "shin_l").lower / kDegree == Approx(-140.0).margin(1e-9));
    CHECK(jointOf(*still.rig, "shin_l").upper / kDegree == Approx(0.0).margin(1e-9));
    CHECK(still.run.out.find("widened") == std::string::npos);
    CHECK(tableLine(still.run.out, "forearm_l").find("[0, 140]") != std::string::npos);
    CHECK(tableLine(still.run.out, "shin_l").find("[-140, 0]") != std::string::npos);

    // A walk bending the knee the way it bends (0 to -40 and back to straight) and a punch
    // straightening the left elbow 20 degrees past straight: only the elbow's lower limit
    // moves, to the punch's -20 less the 5 degree margin.
    bot["animations"]["walk"]["bones"]["shin_l"]["rotate"] =
        nlohmann::ordered_json::array({{{"value", 0}}, {{"time", 0.25}, {"value", -40}}, {{"time", 0.5}, {"value", 0}}});
    bot["animations"]["punch"]["bones"]["forearm_l"]["rotate"] =
        nlohmann::ordered_json::array({{{"value", 0}}, {{"time", 0.2}, {"value", -20}}, {{"time", 0.4}, {"value", 0}}});
    BotImport moving = importBot(freshFolder("limits_clips"), bot);
    INFO(moving.run.err);
    REQUIRE(moving.rig);
    CHECK(jointOf(*moving.rig, "shin_l").lower / kDegree == Approx(-140.0).margin(1e-9));
    CHECK(jointOf(*moving.rig, "shin_l").upper / kDegree == Approx(0.0).margin(1e-9));
    CHECK(tableLine(moving.run.out, "shin_l").find("widened") == std::string::npos);
    CHECK(jointOf(*moving.rig, "forearm_l").lower / kDegree == Approx(-25.0).margin(1e-6));
    CHECK(jointOf(*moving.rig, "forearm_l").upper / kDegree == Approx(140.0).margin(1e-9));
    CHECK(tableLine(moving.run.out, "forearm_l").find("[-25, 140]") != std::string::npos);
    CHECK(tableLine(moving.run.out, "forearm_l").find("widened to hold clip 'punch'") != std::string::npos);
}

TEST_CASE("import: a mesh weighted across the elbow gives the forearm its own body, joint and track",
          "[spine][import][mesh]") {
    // The right arm is one mesh on upper_arm_r, its hand half weighted to forearm_r, which
    // has no region of its own; the punch turns both bones.
    nlohmann::ordered_json bot = botSkeleton();
    giveBotArmMesh(bot);
    bot["animations"]["punch"]["bones"]["upper_arm_r"]["rotate"] =
        nlohmann::ordered_json::array({{{"value", 0}}, {{"time", 0.2}, {"value", 90}}, {{"time", 0.4}, {"value", 0}}});
    bot["animations"]["punch"]["bones"]["forearm_r"]["rotate"] =
        nlohmann::ordered_json::array({{{"value", 0}}, {{"time", 0.2}, {"value", -10}}, {{"time", 0.4}, {"value", 0}}});
    const std::filesystem::path folder = freshFolder("mesh_elbow");
    BotImport imported = importBot(folder, bot);
    INFO(imported.run.err);
    REQUIRE(imported.rig);
    const RigDefinition& rig = *imported.rig;
    CHECK(imported.run.out.find("without a part, riding on their nearest body: root, hip\n") != std::string::npos);
    const int upperArm = rig.findBone("upper_arm_r"), forearm = rig.findBone("forearm_r");
    REQUIRE(upperArm >= 0);
    REQUIRE(forearm >= 0);
    CHECK(rig.bones[size_t(forearm)].parent == upperArm);
    CHECK(rig.bodyOfBone(forearm) >= 0);
    CHECK(jointOf(rig, "forearm_r").parent == upperArm);

    // The mesh keeps both bones: the shoulder's vertices on the upper arm, the elbow's half
    // on each, the hand's on the forearm at (28, +-5) cm of it.
    REQUIRE(rig.meshes.size() == 1);
    const RigMesh& mesh = rig.meshes[0];
    REQUIRE(mesh.vertices.size() == 6);
    for (size_t v : {0, 1}) {
        REQUIRE(mesh.vertices[v].weights.size() == 1);
        CHECK(mesh.vertices[v].weights[0].bone == upperArm);
    }
    for (size_t v : {2, 3}) {
        REQUIRE(mesh.vertices[v].weights.size() == 2);
        CHECK(mesh.vertices[v].weights[0].bone == upperArm);
        CHECK(mesh.vertices[v].weights[1].bone == forearm);
        CHECK(mesh.vertices[v].weights[1].weight == Approx(0.5));
    }
    for (size_t v : {4, 5}) {
        REQUIRE(mesh.vertices[v].weights.size() == 1);
        CHECK(mesh.vertices[v].weights[0].bone == forearm);
        CHECK(mesh.vertices[v].weights[0].position.x == Approx(0.28));
        CHECK(std::abs(mesh.vertices[v].weights[0].position.y) == Approx(0.05));
    }
    // Each arm bone is as thick as the mesh across it (10 units, 10 cm), not the bent arm's
    // whole spread (15 cm when the forearm folded into the upper arm).
    CHECK(rig.bodies[size_t(rig.bodyOfBone(upperArm))].radius == Approx(0.05));
    CHECK(rig.bodies[size_t(rig.bodyOfBone(forearm))].radius == Approx(0.05));

    // The punch keeps its forearm track: -10 degrees at 0.2 s.
    std::ifstream in(folder / "out" / "bot.punch.anim.xml");
    const std::string punch((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const size_t track = punch.find("<track bone=\"forearm_r\">");
    REQUIRE(track != std::string::npos);
    CHECK(punch.find("<key t=\"0.2\" angle=\"-10\"/>", track) < punch.find("</track>", track));
    CHECK(imported.run.err.find("keys are dropped") == std::string::npos);

    DropReport drop = dropRig(rig, DropOptions{});
    CHECK(drop.passed());
}

TEST_CASE("mesh: a weighted mesh's area is shared among its bones by each triangle's corner weights", "[spine][mesh]") {
    // The arm mesh straight (no elbow bend): the upper arm's 30 x 10 half is two triangles of
    // 150, the forearm's 28 x 10 half two of 140. Corner weights on the upper arm, per
    // triangle: 5/6, 2/3, 1/3, 1/6; the rest is the forearm's.
    nlohmann::ordered_json bot = botSkeleton();
    giveBotArmMesh(bot);
    bot["bones"][7]["rotation"] = 0;
    REQUIRE(bot["bones"][7]["name"] == "forearm_r");
    SpineLoadResult loaded = parseSpineJson(botText(bot), "bot.json");
    INFO(loaded.diagnostics.size());
    REQUIRE(loaded.ok);
    const SpineSkeleton& skeleton = loaded.skeleton;
    const std::vector<SpineWorld> setup = poseSpineSkeleton(skeleton, nullptr, 0.0);
    const SpineAttachment* mesh = nullptr;
    for (const SpineAttachment& a : skeleton.skins[0].attachments)
        if (a.name == "armmesh") mesh = &a;
    REQUIRE(mesh);
    const std::vector<double> area = meshAreaByBone(*mesh, skeleton.findBone("upper_arm_r"), setup);
    CHECK(area[size_t(skeleton.findBone("upper_arm_r"))] == Approx(150 * 5.0 / 6 + 150 * 2.0 / 3 + 140 / 3.0 + 140 / 6.0));  // 295
    CHECK(area[size_t(skeleton.findBone("forearm_r"))] == Approx(150 / 6.0 + 150 / 3.0 + 140 * 2.0 / 3 + 140 * 5.0 / 6));  // 285
    CHECK(area[size_t(skeleton.findBone("torso"))] == 0.0);
}

TEST_CASE("import: a helper bone's keys that move nothing baked are warned about, naming bone and animation",
          "[spine][import][bake]") {
    // The right forearm without art: no body, and nothing under it, so the punch's keys on it
    // cannot be in the clip. The walk's root translate is the root motion: not warned about.
    nlohmann::ordered_json bot = botSkeleton();
    nlohmann::ordered_json& slots = bot["slots"];
    for (size_t i = 0; i < slots.size(); ++i)
        if (slots[i]["name"] == "farm_r") slots.erase(i--);
    bot["skins"][0]["attachments"].erase("farm_r");
    bot["animations"]["punch"]["bones"]["forearm_r"]["rotate"] =
        nlohmann::ordered_json::array({{{"value", 0}}, {{"time", 0.2}, {"value", -10}}, {{"time", 0.4}, {"value", 0}}});
    bot["animations"]["walk"]["bones"]["root"]["translate"] = nlohmann::ordered_json::array({{{"x", 0}}, {{"time", 1}, {"x", 130}}});
    const std::filesystem::path folder = freshFolder("dropped_keys");
    BotImport imported = importBot(folder, bot);
    INFO(imported.run.err);
    REQUIRE(imported.rig);
    CHECK(imported.rig->findBone("forearm_r") < 0);
    const std::string json = botText(bot);
    const std::string expected = (folder / "bot.json").string() + ":" + std::to_string(lineOf(json, "\"punch\"")) +
                                 ": warning: animation 'punch': bone 'forearm_r' has no body (its parts ride on 'upper_arm_r'): "
                                 "its keys are dropped from the clip\n";
    CHECK(imported.run.err.find(expected) != std::string::npos);
    CHECK(imported.run.err.find("keys are dropped") == imported.run.err.rfind("keys are dropped"));  // the only one
}

TEST_CASE("import: a bone of length 0 whose only art is its share of a mesh is as long as that share reaches",
          "[spine][import][mesh]") {
    // The arm mesh's hand end (28 units along forearm_r, weighted to it alone) is the
    // forearm's only art; the forearm bone is given length 0. Its body reaches the hand: a
    // capsule 28 cm long (at 100 units a metre), as the forearm of length 28 gets.
    nlohmann::ordered_json bot = botSkeleton();
    giveBotArmMesh(bot);
    for (nlohmann::ordered_json& bone : bot["bones"])
        if (bone["name"] == "forearm_r") bone["length"] = 0;
    const std::filesystem::path folder = freshFolder("mesh_length0");
    BotImport imported = importBot(folder, bot);
    INFO(imported.run.err);
    REQUIRE(imported.rig);
    const RigDefinition& rig = *imported.rig;
    const int forearm = rig.findBone("forearm_r");
    REQUIRE(forearm >= 0);
    CHECK(rig.bones[size_t(forearm)].length == Approx(0.28).margin(1e-9));
    const int body = rig.bodyOfBone(forearm);
    REQUIRE(body >= 0);
    CHECK(rig.bodies[size_t(body)].shape == BodyShape::Capsule);
    CHECK(rig.bodies[size_t(body)].radius == Approx(0.05));
    // The upper arm, whose share is the shoulder's and elbow's vertices, keeps its 30 cm.
    CHECK(rig.bones[size_t(rig.findBone("upper_arm_r"))].length == Approx(0.30).margin(1e-9));
}

TEST_CASE("import: the guesses table keeps its columns for names that are not ASCII, and says when no role was recognised",
          "[spine][import][table]") {
    // Columns were padded by bytes: 'tête' (5 bytes, 4 columns) and '腿.L' (5 bytes, 4
    // columns: the ideograph shows two wide) pulled the rest of their rows a column left,
    // and the header stood a column right of every row from 'radius' on. A bone whose name
    // gave no role read "role from the name ('other')".
    nlohmann::ordered_json bot = botSkeleton();
    renameBone(bot, "torso", "körper");
    renameBone(bot, "head", "tête");
    renameBone(bot, "thigh_l", "腿.L");
    const BotImport imported = importBot(freshFolder("table_widths"), bot);
    INFO(imported.run.err);
    REQUIRE(imported.rig);
    const std::string& out = imported.run.out;
    INFO(out);
    const size_t headerAt = out.find("  bone ");
    REQUIRE(headerAt != std::string::npos);
    const std::string header = out.substr(headerAt, out.find('\n', headerAt) - headerAt);
    // Where each column starts (the radius and the mass right-aligned: where they end).
    CHECK(columnAt(header, header.find("role")) == 19);
    CHECK(columnAt(header, header.find("shape")) == 30);
    CHECK(columnAt(header, header.find("radius")) + 6 == 48);
    CHECK(columnAt(header, header.find("mass")) + 4 == 57);
    CHECK(columnAt(header, header.find("joint to")) == 59);
    CHECK(columnAt(header, header.find("limits (deg)")) == 76);
    CHECK(columnAt(header, header.find("why")) == 91);
    struct Row {
        const char* bone;
        const char* role;
        const char* shape;
        const char* jointTo;
        const char* limits;
        const char* why;
    };
    const Row rows[] = {
        {"körper", "other", "capsule", "(root)", "-", "no role recognised in the name: the root, given the torso's mass"},
        {"tête", "other", "capsule", "körper", "[-45, 45]", "no role recognised in the name: the default limits"},
        {"腿.L", "other", "capsule", "körper", "[-45, 45]",
         "no role recognised in the name: the default limits; jointed to 'körper', the body nearest its helper bone 'hip'"},
        {"shin_l", "shin", "capsule", "腿.L", "[-140, 0]", "role from the name ('shin')"},
    };
    for (const Row& row : rows) {
        const std::string line = tableLine(out, row.bone);
        INFO(row.bone << ": '" << line << "'");
        REQUIRE_FALSE(line.empty());
        CHECK(columnAt(line, line.find(std::string(" ") + row.role + " ") + 1) == 19);
        CHECK(columnAt(line, line.find(row.shape)) == 30);
        CHECK(columnAt(line, line.find(" m ")) + 2 == 48);
        CHECK(columnAt(line, line.find(" kg ")) + 3 == 57);
        const size_t jointAt = line.find(row.jointTo, line.find(" kg "));
        CHECK(columnAt(line, jointAt) == 59);
        CHECK(columnAt(line, line.find(row.limits, jointAt + std::string(row.jointTo).size())) == 76);
        CHECK(columnAt(line, line.find(row.why)) == 91);
        CHECK(line.ends_with(row.why));
    }
    CHECK(tableLine(out, "körper").find(" 8.00 kg ") != std::string::npos);  // the torso's mass, on the root
    CHECK(out.find("('other')") == std::string::npos);
}

TEST_CASE("the table's display width: a code point a column, combining accents none, East Asian wide blocks two",
          "[spine][table]") {
    CHECK(paper::displayWidth("thigh.L") == 7);
    CHECK(paper::displayWidth("tête") == 4);               // ê: 2 bytes, 1 column
    CHECK(paper::displayWidth("te\xCC\x82te") == 4);       // e and a combining circumflex: 1 column
    CHECK(paper::displayWidth("腿.L") == 4);               // a CJK ideograph: 3 bytes, 2 columns
    CHECK(paper::displayWidth("ｈａｎｄ") == 8);           // fullwidth forms
    CHECK(paper::displayWidth("\xF0\x9F\x98\x80") == 2);   // an emoji (U+1F600)
    CHECK(paper::displayWidth("a\xFF" "b") == 3);          // a byte starting no sequence: 1 column
    CHECK(paper::displayWidth("\xE8\x85") == 2);           // a sequence cut short: a column a byte
    CHECK(paper::padded("腿.L", 6) == "腿.L  ");
    CHECK(paper::padded("upper_arm.R.long", 4) == "upper_arm.R.long");  // wider text is kept whole
}
