// `paperdoll rig …` as a user meets it: outputs, exit statuses, and clear errors for every
// kind of bad input. Commands run in-process through runRigCommand.

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "character/character_assets.h"
#include "rig_tools/rig_commands.h"
#include "rig/rig_loader.h"
#include "rig_test_support.h"
#include "test_png.h"

namespace fs = std::filesystem;
using namespace ragdoll;
using namespace rigtest;

namespace {

struct Run {
    int status = -1;
    std::string out, err;
};

Run run(std::vector<std::string> args) {
    std::ostringstream out, err;
    Run r;
    r.status = runRigCommand(args, out, err);
    r.out = out.str();
    r.err = err.str();
    return r;
}

struct TempDir {
    fs::path path = fs::temp_directory_path() / ("rig_commands_test_" + std::to_string(::getpid()));
    TempDir() {
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~TempDir() {
        std::error_code ignored;
        fs::remove_all(path, ignored);
    }
};

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

/// Where a copy of the stickman goes in `dir` (rigs/stickman.rig.xml) with the shipped clips
/// beside it as its "../anims/..." names them; the caller writes the rig's text there.
std::string stickmanPathWithClips(const TempDir& dir) {
    fs::create_directories(dir.path / "rigs");
    fs::copy(fs::path(PAPERDOLL_CONTENT_DIR) / "anims", dir.path / "anims", fs::copy_options::recursive);
    return (dir.path / "rigs" / "stickman.rig.xml").string();
}

}  // namespace

TEST_CASE("rig check prints one summary line per rig", "[rig][commands]") {
    std::string stickman = contentRig("stickman.rig.xml"), puppet = contentRig("paper_puppet.rig.xml");
    Run r = run({"rig", "check", stickman, puppet});
    CHECK(r.status == 0);
    CHECK(r.err.empty());
    CHECK(r.out == stickman + ": rig 'stickman': 10 bones, 10 bodies, 9 joints, 21.5 kg; 0 images, 0 sprites\n" +
                       puppet + ": rig 'paper_puppet': 12 bones, 12 bodies, 11 joints, 25 kg; 0 images, 0 sprites\n");
    // The leading "rig" is optional.
    CHECK(run({"check", stickman}).out == r.out.substr(0, r.out.find('\n') + 1));
}

TEST_CASE("rig check counts images and sprites and gives each image's size", "[rig][commands][sprites]") {
    TempDir dir;
    testpng::writeGrey(dir.path / "atlas.png", 96, 40);
    testpng::writeGrey(dir.path / "face.png", 12, 7);
    const std::string rig = (dir.path / "cutout.rig.xml").string();
    std::ofstream(rig) << R"(<rig name="cutout" format="1" units="px">
  <image name="atlas" file="atlas.png"/>
  <image name="face" file="face.png"/>
  <bone name="torso" angle="90" length="50"/>
  <bone name="head" parent="torso" length="30"/>
  <sprite bone="torso" image="atlas" rect="0 0 40 40" width="20" height="50" angle="90"/>
  <sprite bone="head" image="atlas" rect="40 0 56 40" width="30" height="26"/>
  <sprite bone="head" image="face" width="12" height="7" z="1"/>
  <body bone="torso" mass="8"/>
  <body bone="head" shape="circle" mass="1.5"/>
  <joint parent="torso" child="head"/>
</rig>
)";
    Run r = run({"rig", "check", rig});
    CAPTURE(r.err);
    CHECK(r.status == 0);
    CHECK(r.out == rig + ": rig 'cutout': 2 bones, 2 bodies, 1 joint, 9.5 kg; 2 images, 3 sprites\n"
                         "  image 'atlas': atlas.png, 96 x 40 px\n"
                         "  image 'face': face.png, 12 x 7 px\n");

    // A mesh is counted too.
    std::string text = readFile(rig);
    text.insert(text.find("  <body "), "  <mesh image=\"atlas\">\n"
                                         "    <vertex u=\"0\" v=\"0\"><weight bone=\"torso\" x=\"0\" y=\"0\"/></vertex>\n"
                                         "    <vertex u=\"10\" v=\"0\"><weight bone=\"torso\" x=\"10\" y=\"0\"/></vertex>\n"
                                         "    <vertex u=\"0\" v=\"10\"><weight bone=\"torso\" x=\"0\" y=\"10\"/></vertex>\n"
                                         "    <triangles>0 1 2</triangles>\n  </mesh>\n");
    std::ofstream(rig, std::ios::trunc) << text;
    Run meshed = run({"rig", "check", rig});
    CAPTURE(meshed.err);
    CHECK(meshed.status == 0);
    CHECK(contains(meshed.out, "9.5 kg; 2 images, 3 sprites, 1 mesh\n"));

    // A sprite whose image is missing fails the check with FILE:LINE.
    fs::remove(dir.path / "face.png");
    Run missing = run({"rig", "check", rig});
    CHECK(missing.status == 1);
    CHECK(missing.out.empty());
    CHECK(missing.err == rig + ":3: error: image: file 'face.png' (read as " + (dir.path / "face.png").string() +
                             "): file not found\n"
                             "paperdoll rig: 1 of 1 rig file failed the check\n");
}

TEST_CASE("rig check and the rig loader warn at an <image> whose PNG has no alpha channel", "[rig][commands][sprites]") {
    // Without transparency the clear surround of each part is black: every part is drawn as
    // a filled rectangle. RGB and grey files without tRNS; grey + alpha, a palette with
    // tRNS and 16-bit RGBA have transparency and are not warned about.
    TempDir dir;
    const fs::path corpus = fs::path(PAPERDOLL_CONTENT_DIR).parent_path() / "tests" / "fuzz" / "corpus" / "png";
    testpng::writeBytes(dir.path / "rgb.png", testpng::encode(8, 8, 3, testpng::filled(8, 8, {200, 100, 50})));
    testpng::writeBytes(dir.path / "grey.png", testpng::encode(8, 8, 1, testpng::filled(8, 8, {90})));
    testpng::writeGrey(dir.path / "grey_alpha.png", 8, 8);
    fs::copy_file(corpus / "palette_7x3.png", dir.path / "palette.png");  // a tRNS chunk
    fs::copy_file(corpus / "rgba16_4x2.png", dir.path / "rgba16.png");
    const std::string rig = (dir.path / "flat.rig.xml").string();
    std::ofstream(rig) << R"(<rig name="flat" format="1" units="px">
  <image name="hero" file="rgb.png"/>
  <image name="face" file="grey.png"/>
  <image name="cut" file="grey_alpha.png"/>
  <image name="palette" file="palette.png"/>
  <image name="deep" file="rgba16.png"/>
  <bone name="torso" angle="90" length="50"/>
  <sprite bone="torso" image="hero" width="20" height="50"/>
  <body bone="torso" mass="8"/>
</rig>
)";
    const std::string expected =
        rig + ":2: warning: image 'hero': rgb.png has no alpha channel: every part is drawn as an opaque rectangle (save it "
              "with transparency)\n" +
        rig + ":3: warning: image 'face': grey.png has no alpha channel: every part is drawn as an opaque rectangle (save it "
              "with transparency)\n";
    Run r = run({"rig", "check", rig});
    CHECK(r.status == 0);
    CHECK(r.err == expected);
    // The loader itself, which the player and the editor use, says the same.
    const RigLoadResult loaded = loadRigFile(rig);
    REQUIRE(loaded.rig);
    std::string said;
    for (const Diagnostic& d : loaded.diagnostics) said += d.format() + "\n";
    CHECK(said == expected);
}

TEST_CASE("rig check --json gives the file's numbers, not the last bits of the arithmetic", "[rig][commands]") {
    Run r = run({"rig", "check", "--json", contentRig("stickman.rig.xml")});
    REQUIRE(r.status == 0);
    const nlohmann::json rig = nlohmann::json::parse(r.out)["rigs"][0];
    // The stickman's hip limits are -30 and 120 degrees in the file; the torso stands
    // straight up from x = 0 (its end's x was 3.06e-17).
    nlohmann::json hip;
    for (const nlohmann::json& joint : rig["joints"])
        if (joint["name"] == "hip_L") hip = joint;
    REQUIRE(hip.is_object());
    CHECK(hip["lower_deg"].dump() == "-30.0");
    CHECK(hip["upper_deg"].dump() == "120.0");
    CHECK(rig["bones"][0]["end"][0].dump() == "0.0");
    CHECK(r.out.find("9999999") == std::string::npos);
    CHECK(r.out.find("0000000") == std::string::npos);
    // The file's units say how it writes lengths, not what the JSON's numbers are in: named
    // so ("units": "px" had sat beside lengths in metres).
    CHECK(rig["file_units"] == "px");
    CHECK(rig["file_units_per_metre"] == 100.0);
    CHECK(rig["bodies"][0]["radius_m"] == 0.09);  // 9 px in the file
    CHECK(rig["warnings"].is_array());
}

TEST_CASE("rig check --json lists a rig's warnings with it", "[rig][commands]") {
    // Its warnings went to standard error only: a pipeline reading the JSON never saw them.
    TempDir dir;
    std::string text = readFile(contentRig("stickman.rig.xml"));
    text.replace(text.find("<rig "), 5, "<rig colour=\"red\" ");
    fs::create_directories(dir.path / "rigs");
    const std::string rig = (dir.path / "rigs" / "warned.rig.xml").string();
    std::ofstream(rig) << text;
    fs::copy(fs::path(contentRig("stickman.rig.xml")).parent_path().parent_path() / "anims", dir.path / "anims",
             fs::copy_options::recursive);  // its clips, beside it as in content/
    const Run r = run({"rig", "check", "--json", rig});
    CAPTURE(r.err);
    const nlohmann::json json = nlohmann::json::parse(r.out);
    REQUIRE(json["rigs"][0]["warnings"].size() >= 1);
    CHECK(contains(json["rigs"][0]["warnings"][0].get<std::string>(), "unknown attribute 'colour'"));
}

TEST_CASE("rig check --json gives each sprite's flip and where its rect's corners land, mirrored with it",
          "[rig][commands][sprites]") {
    TempDir dir;
    testpng::writeGrey(dir.path / "atlas.png", 16, 16);
    // A root bone at the origin pointing along +x, 1 px a centimetre: a 40 x 20 cm part
    // centred 1 m along it, plain and flipped each way.
    const std::string rig = (dir.path / "flips.rig.xml").string();
    std::ofstream(rig) << R"(<rig name="flips" format="1" units="px">
  <image name="atlas" file="atlas.png"/>
  <bone name="root" length="200"/>
  <sprite bone="root" image="atlas" width="40" height="20"/>
  <sprite bone="root" image="atlas" width="40" height="20" flip="x"/>
  <sprite bone="root" image="atlas" width="40" height="20" flip="y"/>
  <sprite bone="root" image="atlas" width="40" height="20" flip="xy"/>
</rig>
)";
    const Run r = run({"rig", "check", "--json", rig});
    INFO(r.err);
    REQUIRE(r.status == 0);
    const nlohmann::json sprites = nlohmann::json::parse(r.out)["rigs"][0]["sprites"];
    REQUIRE(sprites.size() == 4);
    // The rect's top-left, top-right, bottom-right and bottom-left, in metres.
    const double left = 0.8, right = 1.2, top = 0.1, bottom = -0.1;
    const struct {
        const char* flip;
        std::vector<std::vector<double>> quad;
    } expected[] = {
        {"none", {{left, top}, {right, top}, {right, bottom}, {left, bottom}}},
        {"x", {{right, top}, {left, top}, {left, bottom}, {right, bottom}}},
        {"y", {{left, bottom}, {right, bottom}, {right, top}, {left, top}}},
        {"xy", {{right, bottom}, {left, bottom}, {left, top}, {right, top}}},
    };
    for (size_t i = 0; i < 4; ++i) {
        CAPTURE(i, sprites[i].dump());
        CHECK(sprites[i]["flip"] == expected[i].flip);
        for (size_t c = 0; c < 4; ++c)
            for (size_t k = 0; k < 2; ++k) CHECK(sprites[i]["quad"][c][k].get<double>() == Approx(expected[i].quad[c][k]));
    }
}

TEST_CASE("rig check lists every error of every file and fails", "[rig][commands]") {
    std::string broken = dataPath("broken.rig.xml"), good = contentRig("stickman.rig.xml"), empty = dataPath("empty.rig.xml");
    Run r = run({"rig", "check", broken, good, empty});
    CHECK(r.status == 1);
    CHECK(r.out == good + ": rig 'stickman': 10 bones, 10 bodies, 9 joints, 21.5 kg; 0 images, 0 sprites\n");
    CHECK(r.err == broken + ":7: error: bone: unknown parent 'torsoo' of 'arm' (no bone has that name; did you mean 'torso'?)\n" +
                       broken + ":10: error: body: attribute 'mass' must be > 0, got 0\n" +
                       broken + ":11: error: body: bone 'arm.L' is not a bone of this rig\n" +
                       broken + ":12: error: joint: 'torso' -> 'head': child bone 'head' has no <body> (a joint needs "
                                "a body on both bones; without one the limb would float free)\n" +
                       broken + ":13: error: joint: lower limit 30 is greater than upper limit -30 (degrees); swap them\n" +
                       empty + ": error: file is empty; expected a <rig> element\n"
                               "paperdoll rig: 2 of 3 rig files failed the check\n");
}

TEST_CASE("rig check and rig drop refuse a rig the player refuses: a clip it names that does not load",
          "[rig][commands]") {
    // A copy of the stickman with its clips beside it, as shipped, and its walk clip then
    // pointed at a file that is not there.
    TempDir dir;
    const std::string rig = stickmanPathWithClips(dir);
    std::string text = readFile(contentRig("stickman.rig.xml"));
    std::ofstream(rig) << text;
    REQUIRE(run({"rig", "check", rig}).status == 0);

    // An attribute the idle clip's loader does not know: a warning at its line, as the
    // player logs it, and the rig still passes.
    const fs::path idle = dir.path / "anims" / "idle.anim.xml";
    std::string clip = readFile(idle);
    clip.replace(clip.find("<clip name="), 11, "<clip speed=\"2\" name=");
    std::ofstream(idle, std::ios::trunc) << clip;
    Run warned = run({"rig", "check", rig});
    CHECK(warned.status == 0);
    CHECK(contains(warned.err, idle.string() + ":4: warning: clip: unknown attribute 'speed' ignored"));

    const std::string walk = "file=\"../anims/walk.anim.xml\"";
    REQUIRE(contains(text, walk));
    text.replace(text.find(walk), walk.size(), "file=\"../anims/nope.anim.xml\"");
    std::ofstream(rig) << text;
    Run check = run({"rig", "check", rig});
    CHECK(check.status == 1);
    CHECK(check.out.empty());
    CHECK(contains(check.err, rig + ":61: error: clip: the 'walk' clip '../anims/nope.anim.xml' does not load"));
    CHECK(contains(check.err, "1 of 1 rig file failed the check"));
    const nlohmann::json json = nlohmann::json::parse(run({"rig", "check", "--json", rig}).out);
    CHECK(json["ok"] == false);
    CHECK(contains(json["rigs"][0]["errors"].dump(), "'walk' clip"));
    Run drop = run({"rig", "drop", rig});
    CHECK(drop.status == 1);
    CHECK(contains(drop.err, rig + ":61: error: clip:"));
    // A slip in the clip's file name: its error names the file most likely meant.
    std::string slip = text;
    slip.replace(slip.find("nope.anim.xml"), 13, "wlk.anim.xml");
    std::ofstream(rig, std::ios::trunc) << slip;
    CHECK(contains(run({"rig", "check", rig}).err,
                   "wlk.anim.xml: error: cannot open clip: file not found; did you mean 'walk.anim.xml'?\n"));

    // The rig broken elsewhere (an image that is not there, a body without mass), its bones
    // whole: the clip's error is listed with the rig's own, not after they are mended.
    const std::string torso = "<bone name=\"torso\"";
    REQUIRE(contains(text, torso));
    text.insert(text.find(torso), "<image name=\"art\" file=\"gone.png\"/>\n  ");
    const std::string mass = "mass=\"";
    text.replace(text.find(mass, text.find("<body ")), mass.size() + 1, "mass=\"0");
    std::ofstream(rig, std::ios::trunc) << text;
    Run both = run({"rig", "check", rig});
    CAPTURE(both.err);
    CHECK(both.status == 1);
    CHECK(contains(both.err, "error: image: file 'gone.png'"));
    CHECK(contains(both.err, "error: body: attribute 'mass' must be > 0"));
    CHECK(contains(both.err, rig + ":62: error: clip: the 'walk' clip '../anims/nope.anim.xml' does not load"));
    CHECK(contains(nlohmann::json::parse(run({"rig", "check", "--json", rig}).out)["rigs"][0]["errors"].dump(), "'walk' clip"));

    // A clip with no file: its missing attribute, once. Its rig's folder was read as the clip
    // too, and refused twice more (once with no file name at all).
    const std::string idleClip = "<clip name=\"idle\" file=\"../anims/idle.anim.xml\"/>";
    REQUIRE(contains(text, idleClip));
    text.replace(text.find(idleClip), idleClip.size(), "<clip name=\"idle\"/>");
    std::ofstream(rig, std::ios::trunc) << text;
    Run noFile = run({"rig", "check", rig});
    CAPTURE(noFile.err);
    CHECK(noFile.status == 1);
    CHECK(contains(noFile.err, "error: clip: missing required attribute 'file'"));
    CHECK_FALSE(contains(noFile.err, "the 'idle' clip"));
    CHECK_FALSE(contains(noFile.err, "it is a directory"));
}

TEST_CASE("rig check reads every clip the rig names, a role's or not, and warns about a misspelt role",
          "[rig][commands]") {
    // A clip under another name than a role's was never opened: a broken one passed the
    // check, and a role misspelt ('wlak') left the character walking in its rest pose.
    TempDir dir;
    const std::string rig = stickmanPathWithClips(dir);
    const std::string shipped = readFile(contentRig("stickman.rig.xml"));
    const std::string walk = "<clip name=\"walk\"";
    REQUIRE(contains(shipped, walk));

    std::string text = shipped;
    text.insert(text.find(walk), "<clip name=\"wave\" file=\"../anims/wave.anim.xml\"/>\n  ");
    std::ofstream(rig) << text;
    std::ofstream(dir.path / "anims" / "wave.anim.xml") << R"(<clip name="wave" format="1" duration="1">
  <track bone="forarm.L"><key t="0" angle="0"/><key t="0.5" angle="90"/></track>
</clip>
)";
    Run broken = run({"rig", "check", rig});
    CAPTURE(broken.err);
    CHECK(broken.status == 1);
    CHECK(contains(broken.err, (dir.path / "anims" / "wave.anim.xml").string() +
                                   ":2: error: track: bone 'forarm.L' is not a bone of rig 'stickman'"));
    CHECK(contains(broken.err, rig + ":61: error: clip: the 'wave' clip '../anims/wave.anim.xml' does not load"));
    CHECK_FALSE(contains(broken.err, "warning: clip: 'wave'"));  // no role is a slip away from it

    text = shipped;
    text.replace(text.find(walk), walk.size(), "<clip name=\"wlak\"");
    std::ofstream(rig, std::ios::trunc) << text;
    Run misspelt = run({"rig", "check", rig});
    CAPTURE(misspelt.err);
    CHECK(misspelt.status == 0);  // a warning: a clip of any name may be kept
    CHECK(contains(misspelt.err, rig + ":61: warning: clip: 'wlak' is no role a character plays (kept, never played): "
                                       "did you mean 'walk'? Without a 'walk' clip the character shows its rest pose there"));
}

TEST_CASE("rig check lists errors and warnings together as a compiler does: the rig's by line, then each clip's",
          "[rig][commands]") {
    // The stickman with a warning at its solver (line 7), its walk clip pointed at a file
    // that is not there (an error at line 61), an unknown element at line 67, and its idle
    // clip (named first, line 60) with a warning of its own at line 4. The warnings came
    // first and the errors after them all, out of the rig's line order; now the rig's lines
    // in order, then the clips' files in the order the rig names them.
    TempDir dir;
    const std::string rig = stickmanPathWithClips(dir);
    std::string text = readFile(contentRig("stickman.rig.xml"));
    text.replace(text.find("<solver "), 8, "<solver colour=\"red\" ");
    text.replace(text.find("../anims/walk.anim.xml"), 22, "../anims/nope.anim.xml");
    text.replace(text.find("  <drive "), 9, "  <extra/><drive ");
    std::ofstream(rig) << text;
    const fs::path idle = dir.path / "anims" / "idle.anim.xml";
    std::string clip = readFile(idle);
    clip.replace(clip.find("<clip name="), 11, "<clip speed=\"2\" name=");
    std::ofstream(idle, std::ios::trunc) << clip;

    Run check = run({"rig", "check", rig});
    CHECK(check.status == 1);
    CHECK(check.err == rig + ":7: warning: solver: unknown attribute 'colour' ignored (kept on save)\n" +
                           rig + ":61: error: clip: the 'walk' clip '../anims/nope.anim.xml' does not load (the error for " +
                           (dir.path / "anims" / "nope.anim.xml").string() + " says why)\n" +
                           rig + ":67: warning: unknown element 'extra' ignored (kept on save)\n" +
                           idle.string() + ":4: warning: clip: unknown attribute 'speed' ignored\n" +
                           (dir.path / "anims" / "nope.anim.xml").string() + ": error: cannot open clip: file not found\n"
                                                                           "paperdoll rig: 1 of 1 rig file failed the check\n");
    // rig drop loads it the same way, in the same order.
    Run drop = run({"rig", "drop", rig});
    CHECK(drop.status == 1);
    CHECK(drop.err == check.err.substr(0, check.err.find("paperdoll rig:")));
}

TEST_CASE("rig check on a rig whose bones have an error still says a clip file it names is not there",
          "[rig][commands]") {
    // An unknown parent (line 10) leaves no skeleton to read the clips against; their files
    // are still checked, so the missing walk clip is said at once, not after the bone is
    // mended. The idle clip, there and a clip, says nothing.
    TempDir dir;
    const std::string rig = stickmanPathWithClips(dir);
    std::string text = readFile(contentRig("stickman.rig.xml"));
    const std::string head = "<bone name=\"head\" parent=\"torso\"";
    text.replace(text.find(head), head.size(), "<bone name=\"head\" parent=\"torsoo\"");
    text.replace(text.find("../anims/walk.anim.xml"), 22, "../anims/nope.anim.xml");
    std::ofstream(rig) << text;
    const std::string nope = (dir.path / "anims" / "nope.anim.xml").string();

    Run check = run({"rig", "check", rig});
    CAPTURE(check.err);
    CHECK(check.status == 1);
    CHECK(contains(check.err, rig + ":10: error: bone: unknown parent 'torsoo'"));
    CHECK(contains(check.err, rig + ":61: error: clip: the 'walk' clip '../anims/nope.anim.xml' does not load (the error for " +
                                  nope + " says why)\n"));
    CHECK(contains(check.err, nope + ": error: cannot open clip: file not found\n"));
    CHECK(!contains(check.err, "idle.anim.xml"));
    // A clip file that is not a clip is said too.
    std::ofstream(nope) << "<rig name=\"x\" format=\"1\"/>\n";
    Run wrongRoot = run({"rig", "check", rig});
    CHECK(wrongRoot.status == 1);
    CHECK(contains(wrongRoot.err, nope + ":1: error: "));
    CHECK(contains(wrongRoot.err, rig + ":61: error: clip: the 'walk' clip"));
    // The player's load says the same (the editor and the player show these lines).
    std::vector<std::string> errors;
    CHECK(ragdoll::loadCharacterAssets(rig, errors) == nullptr);
    CHECK(std::any_of(errors.begin(), errors.end(), [&](const std::string& e) { return contains(e, nope + ":1: error: "); }));
}

TEST_CASE("rig check on what is not a rig file", "[rig][commands]") {
    Run missing = run({"rig", "check", dataPath("nope.rig.xml")});
    CHECK(missing.status == 1);
    CHECK(contains(missing.err, dataPath("nope.rig.xml") + ": error: cannot open rig: file not found\n"));
    Run directory = run({"rig", "check", PAPERDOLL_RIG_TEST_DATA_DIR});
    CHECK(directory.status == 1);
    CHECK(contains(directory.err, "cannot open rig: it is a directory, not a file"));
    Run malformed = run({"rig", "check", dataPath("malformed.rig.xml")});
    CHECK(malformed.status == 1);
    CHECK(contains(malformed.err, dataPath("malformed.rig.xml") + ":3: error: malformed XML: closing tag </rig> does not match the open element <bone> (line 2)"));
    // A file of another kind is said to be one, not "malformed XML: broken text or entity".
    const std::string png = std::string(PAPERDOLL_CONTENT_DIR) + "/art/paper_doll.png";
    const std::string spine = std::string(PAPERDOLL_CONTENT_DIR) + "/spine/paper_doll.json";
    Run image = run({"rig", "check", png});
    CHECK(image.status == 1);
    CHECK(image.err == png + ": error: not an XML rig file (it is a PNG image: a rig names its images in <image file=...>)\n"
                             "paperdoll rig: 1 of 1 rig file failed the check\n");
    Run skeleton = run({"rig", "generate", spine, (fs::temp_directory_path() / "never_written.rig.xml").string()});
    CHECK(skeleton.status == 1);
    CHECK(skeleton.err == spine + ": error: not an XML rig file (it is JSON; a Spine skeleton becomes a rig with "
                                  "`paperdoll rig import SKELETON.json OUT.rig.xml`)\n");
    CHECK_FALSE(fs::exists(fs::temp_directory_path() / "never_written.rig.xml"));
}

TEST_CASE("bad usage is exit 2 with a clear message and the usage", "[rig][commands]") {
    auto usage = [](const Run& r, const std::string& message) {
        CAPTURE(r.err);
        CHECK(r.status == 2);
        CHECK(r.out.empty());
        CHECK(r.err.starts_with("paperdoll rig: error: " + message + "\n"));
        CHECK(contains(r.err, "usage: paperdoll rig check FILE..."));
        // The synopses, not what each command does: the error stays in sight.
        CHECK(r.err.ends_with("(`paperdoll rig --help` says what each does)\n"));
        CHECK_FALSE(contains(r.err, "validate rig files"));
    };
    std::string stickman = contentRig("stickman.rig.xml");
    usage(run({"rig"}), "missing command");
    usage(run({}), "missing command");
    usage(run({"rig", "inspect", stickman}), "unknown command 'inspect'");
    usage(run({"rig", "check"}), "'rig check' needs at least one FILE");
    usage(run({"rig", "check", "--strict", stickman}), "unknown option '--strict' for 'rig check'");
    usage(run({"rig", "drop"}), "'rig drop' needs a FILE");
    usage(run({"rig", "drop", stickman, stickman}), "'rig drop' takes one FILE, got 2");
    usage(run({"rig", "drop", stickman, "--fast"}), "unknown option '--fast' for 'rig drop'");
    usage(run({"rig", "drop", stickman, "--frames"}), "--frames needs a number of frames");
    usage(run({"rig", "drop", stickman, "--frames", "ten"}), "--frames must be a whole number, got 'ten'");
    usage(run({"rig", "drop", stickman, "--frames", "0"}), "--frames must be between 1 and 100000, got 0");
    usage(run({"rig", "drop", stickman, "--frames=-5"}), "--frames must be between 1 and 100000, got -5");
    usage(run({"rig", "drop", stickman, "--frames", "99999999999"}), "--frames must be between 1 and 100000, got 99999999999");
    usage(run({"rig", "drop", stickman, "--push", "fast"}), "--push must be a speed between -50 and 50 m/s, got 'fast'");
    usage(run({"rig", "generate", stickman}), "'rig generate' needs IN and OUT, got 1 argument");
    usage(run({"rig", "generate", stickman, stickman}),
          "OUT '" + stickman + "' is the input file; generate never overwrites IN");
    Run help = run({"rig", "--help"});
    CHECK(help.status == 0);
    CHECK(help.out.starts_with("usage: paperdoll rig check FILE..."));
}

TEST_CASE("--help or -h after a command prints that command's usage, options and exit statuses and exits 0",
          "[rig][commands]") {
    struct Case {
        std::vector<std::string> args;
        std::string usage;
        std::vector<std::string> options;  ///< lines of its options, each with its default
        std::string exitStatus;
    };
    const std::string checkStatus = "\nexit status: 0 every rig passed, 1 a rig has errors or cannot be read, 2 bad usage\n";
    const std::string dropStatus =
        "\nexit status: 0 within the limits, 1 bad or unreadable rig, 2 bad usage, 3 drop outside the limits\n";
    const std::string importStatus =
        "\nexit status: 0 imported, 1 bad or unreadable skeleton, atlas or page (nothing written),\n"
        "             2 bad usage (OUT exists without --force, is in a folder that is not there or\n"
        "             does not end in .rig.xml; a --skin or --loop name the skeleton lacks)\n";
    const std::vector<std::string> importOptions = {
        "\n  --atlas FILE    the libGDX atlas (default: SKELETON with .atlas in place of .json)\n",
        "\n  --skin NAME     a skin whose attachments go over the default skin's (default: the\n"
        "                  default skin alone)\n",
        "\n  --scale N       Spine units per metre, 0.001 to 1e6 (default: the setup\n"
        "                  pose taken as 1.8 m tall)\n",
        "\n  --force         overwrite OUT and the clips and page copies beside it",
        "\n  --loop NAME...  the animations whose clips loop, every name after it up to the next\n"
        "                  option or --; the rest play once (default: names with idle, walk or run)\n",
        "\nOUT must end in .rig.xml;"};
    const std::vector<Case> cases = {
        {{"rig", "check", "--help"}, "usage: paperdoll rig check FILE... [--json]\n\n  check      validate rig files:",
         {"\n  --json          print one JSON document instead of the summary lines"}, checkStatus},
        {{"rig", "check", "a.rig.xml", "--json", "-h"}, "usage: paperdoll rig check FILE... [--json]\n\n  check ", {}, checkStatus},
        {{"rig", "drop", "-h"},
         "usage: paperdoll rig drop FILE [--frames N] [--push M/S] [--json]\n\n  drop       drop the rig",
         {"\n  --frames N      frames of 1/60 s to step, 1 to 100000 (default 300)\n",
          "\n  --push M/S      the sideways speed given at the drop, -50 to 50 m/s (default 1)\n",
          "\n  --json          print one JSON object instead of the table: the measures, the limits\n"},
         dropStatus},
        {{"rig", "generate", "--help"}, "usage: paperdoll rig generate IN OUT [--force]\n\n  generate   add bodies",
         {"\n  --force         overwrite OUT when it exists (IN is never overwritten)\n", "\nOUT must end in .rig.xml"},
         "\nexit status: 0 written, 1 bad or unreadable IN, or OUT not written, 2 bad usage (OUT exists\n"
         "             without --force, is in a folder that is not there, or does not end in .rig.xml)\n"},
        {{"rig", "import", "-h"},
         "usage: paperdoll rig import SKELETON.json OUT.rig.xml [--atlas FILE] [--skin NAME]\n"
         "                            [--scale UNITS_PER_METRE] [--force] [--loop NAME...]\n\n  import     make a rig",
         importOptions, importStatus},
        {{"rig", "import", "hero.json", "--loop", "walk", "--help"}, "usage: paperdoll rig import SKELETON.json", {},
         importStatus},
    };
    for (const Case& c : cases) {
        Run r = run(c.args);
        CAPTURE(c.args.back(), r.out, r.err);
        CHECK(r.status == 0);
        CHECK(r.err.empty());
        CHECK(r.out.starts_with(c.usage));
        for (const std::string& option : c.options) CHECK(contains(r.out, option));
        CHECK(r.out.ends_with(c.exitStatus));
        // That command's alone: no other command's synopsis, no exit status of another's.
        for (const char* other : {"rig check FILE", "rig drop FILE", "rig generate IN", "rig import SKELETON"})
            if (!contains(c.usage, other)) CHECK_FALSE(contains(r.out, other));
        if (c.args[1] != "drop") CHECK_FALSE(contains(r.out, "3 drop outside the limits"));
    }
    // The overview: every command, each command's --help named, every exit status.
    Run overview = run({"rig", "--help"});
    CHECK(overview.status == 0);
    CHECK(contains(overview.out, "\n`paperdoll rig COMMAND --help` lists a command's options and their defaults.\n"));
    CHECK(overview.out.ends_with("exit status: 0 ok, 1 bad or unreadable file, 2 bad usage, 3 drop outside the limits\n"));
    // After "--" it is a file name, as any other argument there.
    Run r = run({"rig", "check", "--", "--help"});
    CHECK(r.status == 1);
    CHECK(contains(r.err, "--help: error: cannot open rig: file not found"));
}

TEST_CASE("rig generate refuses an OUT not ending in .rig.xml, or in a folder that is not there, before reading IN (exit 2)",
          "[rig][commands][generator]") {
    TempDir dir;
    const std::string in = dataPath("stickman_bones.rig.xml");
    const std::string txt = (dir.path / "x.txt").string();
    Run named = run({"rig", "generate", in, txt});
    CHECK(named.status == 2);
    CHECK(named.err.starts_with("paperdoll rig: error: OUT '" + txt +
                                "' must end in .rig.xml (the editor lists rigs by that ending)\n"));
    const std::string nodir = (dir.path / "nodir").string();
    Run missing = run({"rig", "generate", (dir.path / "missing.rig.xml").string(), nodir + "/o.rig.xml"});
    CHECK(missing.status == 2);
    CHECK(missing.err.starts_with("paperdoll rig: error: OUT '" + nodir + "/o.rig.xml': '" + nodir + "' does not exist\n"));
    CHECK(fs::is_empty(dir.path));
}

TEST_CASE("rig drop prints a table or one JSON object", "[rig][commands]") {
    std::string stickman = contentRig("stickman.rig.xml");
    Run table = run({"rig", "drop", stickman});
    CAPTURE(table.out, table.err);
    CHECK(table.status == 0);
    CHECK(table.out.starts_with("rig 'stickman' (" + stickman + "): 10 bodies, 9 joints, 21.5 kg; dropped 1 m onto flat "
                                "ground pushed 1 m/s sideways, 300 frames at 1/60 s\n  max joint stretch"));
    CHECK(table.out.ends_with("\nPASS\n"));
    // One body: "1 body, 0 joints" (it said "1 bodies").
    TempDir dir;
    const std::string one = (dir.path / "one.rig.xml").string();
    std::ofstream(one) << "<rig name=\"one\" format=\"1\">\n  <bone name=\"torso\" length=\"0.5\"/>\n"
                          "  <body bone=\"torso\" radius=\"0.1\" mass=\"8\"/>\n</rig>\n";
    Run single = run({"rig", "drop", one});
    CAPTURE(single.out, single.err);
    CHECK(single.out.starts_with("rig 'one' (" + one + "): 1 body, 0 joints, 8 kg; dropped"));

    Run json = run({"rig", "drop", stickman, "--json", "--frames", "60"});
    CHECK(json.status == 3);  // not at rest after 1 s (it has only just landed): outside the limits
    nlohmann::json j = nlohmann::json::parse(json.out);
    CHECK(j["rig"] == "stickman");
    CHECK(j["file"] == stickman);
    CHECK(j["frames"] == 60);
    CHECK(j["bodies"] == 10);
    CHECK(j["joints"] == 9);
    CHECK(j["max_stretch_m"].get<double>() <= 0.001);
    CHECK(j["max_limit_violation_deg"].get<double>() <= 1.0);
    CHECK(j["rest_frame"].is_null());  // never rested: null as rest_seconds is (it was -1)
    CHECK(j["rest_seconds"].is_null());
    CHECK(j["exploded"] == false);
    CHECK(j["pass"] == false);

    Run bones = run({"rig", "drop", dataPath("stickman_bones.rig.xml")});
    CHECK(bones.status == 1);
    CHECK(contains(bones.err, "has no bodies, nothing to drop (run `paperdoll rig generate` first)"));
    // With --json a rig that cannot be dropped still gives a document (it printed nothing).
    Run bonesJson = run({"rig", "drop", dataPath("stickman_bones.rig.xml"), "--json"});
    CHECK(bonesJson.status == 1);
    const nlohmann::json refused = nlohmann::json::parse(bonesJson.out);
    CHECK(refused["pass"] == false);
    CHECK(contains(refused["errors"][0].get<std::string>(), "has no bodies, nothing to drop"));
    const nlohmann::json missing = nlohmann::json::parse(run({"rig", "drop", "no_such.rig.xml", "--json"}).out);
    CHECK(contains(missing["errors"][0].get<std::string>(), "no_such.rig.xml: error: cannot open rig: file not found"));
    Run broken = run({"rig", "drop", dataPath("broken.rig.xml")});
    CHECK(broken.status == 1);
    CHECK(broken.out.empty());
}

TEST_CASE("rig generate writes a ragdoll from bones and never overwrites its input", "[rig][commands]") {
    TempDir dir;
    std::string in = dataPath("stickman_bones.rig.xml");
    const std::string before = readFile(in);
    std::string out = (dir.path / "stickman_generated.rig.xml").string();
    Run r = run({"rig", "generate", in, out});
    CAPTURE(r.out, r.err);
    CHECK(r.status == 0);
    CHECK(r.err.empty());
    CHECK(r.out.starts_with("wrote " + out + ": rig 'stickman_bones': 10 bones, 10 bodies, 9 joints, 21.9 kg; 0 images, 0 sprites (generated from " + in + ")\n"));
    CHECK(contains(r.out, "  elbow.L          upper_arm.L -> forearm.L [0, 140] deg\n"));
    CHECK(readFile(in) == before);
    RigLoadResult written = loadRigFile(out);
    REQUIRE(written.rig);
    CHECK(written.rig->bodies.size() == 10);

    // The same file reached by another path is still the input.
    Run same = run({"rig", "generate", in, (fs::path(PAPERDOLL_RIG_TEST_DATA_DIR) / ".." / "data" / "stickman_bones.rig.xml").string()});
    CHECK(same.status == 2);
    CHECK(readFile(in) == before);

    Run broken = run({"rig", "generate", dataPath("broken.rig.xml"), out, "--force"});
    CHECK(broken.status == 1);
    CHECK(contains(broken.err, "broken.rig.xml:7: error:"));
    Run noDir = run({"rig", "generate", in, (dir.path / "missing" / "x.rig.xml").string()});
    CHECK(noDir.status == 2);
    CHECK(noDir.err.starts_with("paperdoll rig: error: OUT '" + (dir.path / "missing" / "x.rig.xml").string() + "': '" +
                                (dir.path / "missing").string() + "' does not exist\n"));
}

TEST_CASE("rig generate widens a limit its rig's clips go past, as the import does", "[rig][commands]") {
    // A wave keying the right arm to 175° over the guessed ±140° shoulder: the generated rig
    // held it, and in play the arm stopped at 140°. Widened to the furthest angle plus 5°.
    TempDir dir;
    std::string bones = readFile(dataPath("stickman_bones.rig.xml"));
    bones.insert(bones.find("</rig>"), "  <clip name=\"idle\" file=\"wave.anim.xml\"/>\n");
    const std::string in = (dir.path / "waver.rig.xml").string(), out = (dir.path / "waver_gen.rig.xml").string();
    std::ofstream(in) << bones;
    std::ofstream(dir.path / "wave.anim.xml")
        << "<clip name=\"wave\" format=\"1\" duration=\"1\" loop=\"true\">\n"
           "  <track bone=\"upper_arm.R\"><key t=\"0\" angle=\"90\"/><key t=\"0.5\" angle=\"175\"/></track>\n"
           "</clip>\n";
    Run r = run({"rig", "generate", in, out});
    CAPTURE(r.err);
    REQUIRE(r.status == 0);
    CHECK(contains(r.out, "  shoulder.R widened to hold clip 'idle'\n"));
    RigLoadResult written = loadRigFile(out);
    REQUIRE(written.rig);
    auto joint = [&](const char* name) -> const RigJoint& {
        for (const RigJoint& j : written.rig->joints)
            if (j.name == name) return j;
        FAIL("no joint " << name);
        return written.rig->joints[0];
    };
    const RigJoint& shoulder = joint("shoulder_R");
    CHECK(shoulder.upper * 180.0 / kPi == Approx(180.0));  // 175 + 5, at most 180
    CHECK(shoulder.lower * 180.0 / kPi == Approx(-140.0));  // not passed: as guessed
    const RigJoint& other = joint("shoulder_L");
    CHECK(other.upper * 180.0 / kPi == Approx(140.0));
}

TEST_CASE("rig generate into a pipe writes into it and leaves it a pipe", "[rig][commands]") {
    // A rig written to a device or a pipe (/dev/null, /dev/stdout) goes into it as it is: a
    // file renamed over it replaced it, and run as root that was the system's /dev/null.
    TempDir dir;
    const std::filesystem::path fifo = dir.path / "out.rig.xml";
    REQUIRE(::mkfifo(fifo.c_str(), 0666) == 0);
    std::string received;
    std::thread reader([&] {
        std::ifstream in(fifo, std::ios::binary);
        received.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    });
    Run r = run({"rig", "generate", dataPath("stickman_bones.rig.xml"), fifo.string(), "--force"});
    reader.join();
    CAPTURE(r.err);
    CHECK(r.status == 0);
    CHECK(r.out.starts_with("wrote " + fifo.string() + ": rig 'stickman_bones': 10 bones, 10 bodies, 9 joints"));
    CHECK(std::filesystem::is_fifo(fifo));
    RigLoadResult sent = loadRigFromText(received, "sent.rig.xml");
    REQUIRE(sent.rig);
    CHECK(sent.rig->joints.size() == 9);
}

TEST_CASE("rig generate overwrites an existing OUT only with --force", "[rig][commands]") {
    TempDir dir;
    std::string in = dataPath("stickman_bones.rig.xml");
    std::string out = (dir.path / "mine.rig.xml").string();
    const std::string mine = "<rig name=\"hand tuned\"/>\n";
    {
        std::ofstream file(out);
        file << mine;
    }
    Run refused = run({"rig", "generate", in, out});
    CHECK(refused.status == 2);
    CHECK(contains(refused.err, "paperdoll rig: error: OUT '" + out + "' already exists; pass --force to overwrite it\n"));
    CHECK(refused.out.empty());
    CHECK(readFile(out) == mine);

    Run forced = run({"rig", "generate", in, out, "--force"});
    CAPTURE(forced.err);
    CHECK(forced.status == 0);
    CHECK(forced.out.starts_with("wrote " + out + ": rig 'stickman_bones': 10 bones"));
    RigLoadResult written = loadRigFile(out);
    REQUIRE(written.rig);
    CHECK(written.rig->joints.size() == 9);

    // The option may come first too.
    Run first = run({"rig", "generate", "--force", in, out});
    CHECK(first.status == 0);

    // --force says overwrite: a read-only OUT too (the editor's Save refuses one), its mode kept.
    std::filesystem::permissions(out, std::filesystem::perms::owner_read);
    Run readOnly = run({"rig", "generate", in, out, "--force"});
    CAPTURE(readOnly.err);
    CHECK(readOnly.status == 0);
    CHECK(std::filesystem::status(out).permissions() == std::filesystem::perms::owner_read);
}
