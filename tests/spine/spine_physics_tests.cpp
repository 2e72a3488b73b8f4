// The physics guesses of `rig import` on a figure the tests write themselves (spine_bot.h):
// which bones get bodies, and the joint limits their roles and the clips give.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include "rig/rig_loader.h"
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

BotImport importBot(const std::filesystem::path& folder, const nlohmann::json& bot) {
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

}  // namespace

TEST_CASE("import: straight elbows and knees keep the guess [0, 140] / [-140, 0] unless a clip goes past it",
          "[spine][import][limits]") {
    nlohmann::json bot = botSkeleton();
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
        nlohmann::json::array({{{"value", 0}}, {{"time", 0.25}, {"value", -40}}, {{"time", 0.5}, {"value", 0}}});
    bot["animations"]["punch"]["bones"]["forearm_l"]["rotate"] =
        nlohmann::json::array({{{"value", 0}}, {{"time", 0.2}, {"value", -20}}, {{"time", 0.4}, {"value", 0}}});
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
