// Runs the real `paperdoll_editor` under the display, as a user (or CI's xvfb-run) would.

#include <sys/stat.h>

#include <catch2/catch.hpp>

#include <stb_image.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "editor_script.h"
#include "run_process.h"

namespace fs = std::filesystem;

namespace {

const std::string kEditor = PAPERDOLL_EDITOR_EXE;
const fs::path kContent = PAPERDOLL_CONTENT_DIR;
const fs::path kData = PAPERDOLL_EDITOR_TEST_DATA_DIR;
/// The built ragdoll plugin: its descriptor and library, beside the editor.
const fs::path kPlugins = fs::path(PAPERDOLL_EDITOR_EXE).parent_path() / "plugins";

std::string readText(const fs::path& path) {
    std::ifstream file(path, std::ios::binary);
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
}

/// A copy of a shipped rig (the stickman unless named) with its clips and art beside it, in
/// the shipped layout (the rig's <clip file="../anims/…"/> must resolve): the test edits and
/// saves the copy.
struct RigCopy {
    fs::path dir = test::makeTempDir();
    fs::path rig;

    explicit RigCopy(const std::string& name = "stickman.rig.xml") : rig(dir / "rigs" / name) {
        fs::create_directories(dir / "rigs");
        fs::copy_file(kContent / "rigs" / name, rig);
        fs::copy(kContent / "anims", dir / "anims", fs::copy_options::recursive);
        fs::copy(kContent / "art", dir / "art", fs::copy_options::recursive);
    }
    ~RigCopy() { fs::remove_all(dir); }
};

/// broken.rig.xml beside the copy's rig: the rig with every body's mass -2, which the plugin
/// refuses with a reason for each body, far more than the status line's three lines.
fs::path writeBrokenRig(const RigCopy& copy) {
    std::string broken = readText(copy.rig);
    for (std::size_t at = 0; (at = broken.find("mass=\"", at)) != std::string::npos; at += 6) {
        const std::size_t end = broken.find('"', at + 6);
        broken.replace(at + 6, end - at - 6, "-2");
    }
    const fs::path brokenRig = copy.rig.parent_path() / "broken.rig.xml";
    std::ofstream(brokenRig, std::ios::binary) << broken;
    return brokenRig;
}

/// The environment of an editor run: the display's (test::displayEnv) and the content folder,
/// so the editor finds the harness level from any build directory.
std::vector<std::string> editorEnv() {
    std::vector<std::string> env = test::displayEnv();
    env.push_back("PAPERDOLL_CONTENT=" + kContent.string());
    return env;
}

/// Pixels of the PNG within tolerance of an RGB colour; only in its last `bottomRows` rows
/// when that is given (the status line).
int countColour(const std::string& png, int r, int g, int b, int tolerance, int bottomRows = 0) {
    int w = 0, h = 0, n = 0;
    unsigned char* pixels = stbi_load(png.c_str(), &w, &h, &n, 3);
    if (!pixels) return -1;
    int count = 0;
    for (int i = bottomRows > 0 ? w * std::max(h - bottomRows, 0) : 0; i < w * h; ++i) {
        const unsigned char* p = pixels + 3 * i;
        if (std::abs(p[0] - r) <= tolerance && std::abs(p[1] - g) <= tolerance && std::abs(p[2] - b) <= tolerance)
            ++count;
    }
    stbi_image_free(pixels);
    return count;
}

/// The original rig with elbow_L's upper limit of 135° changed to degrees, the only change
/// a drag of its handle may make in the file.
std::string withElbowUpper(const std::string& original, const std::string& degrees) {
    const std::string before = "name=\"elbow_L\" parent=\"upper_arm.L\" child=\"forearm.L\" lower=\"0\" upper=\"135\"";
    std::string expected = original;
    std::size_t at = expected.find(before);
    if (at == std::string::npos) return "(the rig has no '" + before + "')";
    return expected.replace(at, before.size(),
                            "name=\"elbow_L\" parent=\"upper_arm.L\" child=\"forearm.L\" lower=\"0\" upper=\"" + degrees + "\"");
}

}  // namespace

TEST_CASE("the puppet, a rig naming no clips, opens and stands in the editor", "[editor][e2e]") {
    const fs::path dir = test::makeTempDir();  // a folder of its own: parallel runs cannot collide
    const std::string png = (dir / "puppet.png").string();
    test::ProcessResult r = test::runProcess({kEditor, "--rig", (kContent / "rigs" / "paper_puppet.rig.xml").string(),
                                              "--frames", "30", "--screenshot", png},
                                             editorEnv());
    INFO(r.err);
    CHECK(r.exitCode == 0);
    // Its near-side limbs are drawn in #b8a888: there is a figure on screen.
    CHECK(countColour(png, 0xb8, 0xa8, 0x88, 6) > 200);
    fs::remove_all(dir);
}

TEST_CASE("a scripted drag of elbow_L's upper handle, undone, redone and saved, changes only that limit",
          "[editor][e2e]") {
    RigCopy copy;
    std::string original = readText(copy.rig);
    std::string png = (copy.dir / "editor.png").string();
    test::ProcessResult r = test::runProcess(
        {kEditor, "--rig", copy.rig.string(), "--script", (kData / "drag_elbow.script").string(), "--screenshot", png},
        editorEnv());
    INFO(r.err);
    REQUIRE(r.exitCode == 0);
    CHECK(readText(copy.rig) == withElbowUpper(original, "100"));

    REQUIRE(fs::exists(png));
    // The gizmo's upper handle (green) and arc (blue) are on screen.
    CHECK(countColour(png, 30, 160, 70, 12) > 30);
    CHECK(countColour(png, 40, 110, 220, 12) > 30);
}

/// The built ragdoll plugin copied into a folder of its own under dir (its descriptor and
/// library), so a test can replace the library the editor watches.
fs::path pluginFolderIn(const fs::path& dir) {
    const fs::path plugins = dir / "plugins";
    fs::create_directories(plugins);
    fs::copy_file(kPlugins / "ragdoll.plugin", plugins / "ragdoll.plugin");
    fs::copy_file(kPlugins / "libragdoll.so", plugins / "libragdoll.so");
    return plugins;
}

/// PAPERDOLL_PLUGIN_BUILD for a "build" that renames an 8-byte library over the plugin's in
/// `plugins` the first time (the watcher's reload fails) and puts the good one back the second.
std::string breakThenMendBuild(const fs::path& plugins, const fs::path& dir) {
    const fs::path build = dir / "build.sh";
    std::ofstream(build) << "cd '" << plugins.string() << "'\n"
                         << "if [ -f good.so ]; then cp good.so next.so; rm good.so\n"
                         << "else cp libragdoll.so good.so; printf '\\177ELF1234' > next.so; fi\n"
                         << "mv next.so libragdoll.so\n";
    return "PAPERDOLL_PLUGIN_BUILD=sh '" + build.string() + "'";
}

/// A copy of the data script with `screenshot NAME` written into dir (scripts resolve file
/// names against the working directory, which ctest shares between tests).
fs::path scriptInto(const fs::path& dir, const std::string& name) {
    std::string text = readText(kData / name);
    for (std::size_t at = 0; (at = text.find("screenshot ", at)) != std::string::npos; at += 11)
        text.insert(at + 11, dir.string() + "/");
    fs::path copy = dir / name;
    std::ofstream(copy) << text;
    return copy;
}

TEST_CASE("a hot reload of the plugin keeps the unsaved edit and the simulation", "[editor][e2e][reload]") {
    RigCopy copy;
    const fs::path plugins = pluginFolderIn(copy.dir);
    fs::path script = scriptInto(copy.dir, "reload_keeps_edits.script");
    fs::path ready = copy.dir / "ready.png";

    std::atomic<bool> finished = false;
    test::ProcessResult r;
    std::thread editor([&] {
        r = test::runProcess({kEditor, "--rig", copy.rig.string(), "--plugin", (plugins / "ragdoll.plugin").string(),
                              "--script", script.string()},
                             editorEnv());
        finished = true;
    });
    // Once the script has its edit and a ragdoll (ready.png), replace the library the way
    // the build does: write a new file beside it, then rename it over the watched one.
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (!finished && !fs::exists(ready) && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    bool replaced = false;
    if (!finished && fs::exists(ready)) {
        fs::copy_file(kPlugins / "libragdoll.so", plugins / "libragdoll.so.new");
        fs::rename(plugins / "libragdoll.so.new", plugins / "libragdoll.so");
        replaced = true;
    }
    editor.join();
    INFO(r.err);
    REQUIRE(replaced);
    CHECK(r.exitCode == 0);  // the script's expects: reloads 1, upper 100, dirty, ragdoll
    CHECK_THAT(r.err, Catch::Contains("plugin: reloaded ragdoll"));
    CHECK(fs::exists(copy.dir / "reloaded.png"));
    CHECK(readText(copy.rig) == readText(kContent / "rigs" / "stickman.rig.xml"));  // the edit was never saved
}

TEST_CASE("the tuning and simulate panels, clicked: undoable properties, hit, reset keeps edits, blend",
          "[editor][e2e][panels]") {
    RigCopy copy;
    fs::path script = scriptInto(copy.dir, "panels.script");
    test::ProcessResult r =
        test::runProcess({kEditor, "--rig", copy.rig.string(), "--script", script.string()}, editorEnv());
    INFO(r.err);
    CHECK(r.exitCode == 0);
    for (const char* shot : {"tuning.png", "hit.png", "simulate.png"}) CHECK(fs::exists(copy.dir / shot));
    CHECK(readText(copy.rig) == readText(kContent / "rigs" / "stickman.rig.xml"));  // nothing saved
}

TEST_CASE("Build & reload runs the build command, shows its output and reloads", "[editor][e2e][build]") {
    RigCopy copy;
    fs::path script = scriptInto(copy.dir, "build_reload.script");
    std::vector<std::string> env = editorEnv();
    env.push_back("PAPERDOLL_PLUGIN_BUILD=echo compiled the plugin");
    test::ProcessResult r = test::runProcess({kEditor, "--rig", copy.rig.string(), "--script", script.string()}, env);
    INFO(r.err);
    CHECK(r.exitCode == 0);  // expect reloads 1, and the edit is still there
    CHECK(fs::exists(copy.dir / "build.png"));
}

TEST_CASE("a failed build's output keeps the Plugin panel above the status line, its Reload in reach", "[editor][e2e][build]") {
    RigCopy copy;
    fs::path script = scriptInto(copy.dir, "build_output_inside.script");
    std::vector<std::string> env = editorEnv();
    env.push_back("PAPERDOLL_PLUGIN_BUILD=sh -c 'for i in 1 2 3 4 5 6; do echo plugin.cpp:$i: error: it went wrong; done; exit 1'");
    test::ProcessResult r = test::runProcess({kEditor, "--rig", copy.rig.string(), "--script", script.string()}, env);
    INFO(r.err);
    CHECK(r.exitCode == 0);  // the panels inside, and a click on Reload reloaded

    // Asked of a panel there is not, the expect names those there are.
    std::ofstream(copy.dir / "nopanel.script") << "expect panel Layers inside\n";
    r = test::runProcess({kEditor, "--rig", copy.rig.string(), "--script", (copy.dir / "nopanel.script").string()}, editorEnv());
    CHECK(r.exitCode == 1);
    CHECK_THAT(r.err, Catch::Contains("no panel 'Layers' (Joints, Inspector, Simulate, Tuning, Plugin)"));
}

namespace {
/// Runs the editor on the copy's rig with a plugin folder of its own whose build breaks the
/// library and then mends it (breakThenMendBuild), and the script of that name.
test::ProcessResult runWithBreakThenMend(const RigCopy& copy, const char* scriptName) {
    const fs::path plugins = pluginFolderIn(copy.dir);
    std::vector<std::string> env = editorEnv();
    env.push_back(breakThenMendBuild(plugins, copy.dir));
    const fs::path script = scriptInto(copy.dir, scriptName);
    return test::runProcess(
        {kEditor, "--rig", copy.rig.string(), "--plugin", (plugins / "ragdoll.plugin").string(), "--script", script.string()}, env);
}
}  // namespace

TEST_CASE("the status line says what came of each reload, F5's or the file watcher's, and a failure in red once",
          "[editor][e2e][reload]") {
    RigCopy copy;
    const test::ProcessResult r = runWithBreakThenMend(copy, "reload_messages.script");
    INFO(r.err);
    CHECK(r.exitCode == 0);  // the expects: the failure said, then the good reload with no error left
    // The failure in the status line (its bottom 20 pixels) in red, as other refusals are.
    CHECK(countColour((copy.dir / "watch_failed.png").string(), 255, 115, 102, 8, 20) > 200);
}

TEST_CASE("the Plugin panel lifted over a reload's error goes back down onto the status line when it clears",
          "[editor][e2e][reload]") {
    RigCopy copy;
    const test::ProcessResult r = runWithBreakThenMend(copy, "plugin_panel_settles.script");
    INFO(r.err);
    CHECK(r.exitCode == 0);  // the expects: 8 pixels over the status line with the error and after it
}

TEST_CASE("a joint limit typed past the other limit stops at it, as a dragged handle does", "[editor][e2e][inspector]") {
    RigCopy copy;
    test::ProcessResult r = test::runProcess(
        {kEditor, "--rig", copy.rig.string(), "--script", (kData / "limit_typed_past.script").string()}, editorEnv());
    INFO(r.err);
    CHECK(r.exitCode == 0);
}

TEST_CASE("with a joint selected, its gizmo's arc is what the hover shows there, and the forearm a click selects",
          "[editor][e2e][picking]") {
    RigCopy copy;
    test::ProcessResult r = test::runProcess(
        {kEditor, "--rig", copy.rig.string(), "--script", (kData / "body_under_gizmo.script").string()}, editorEnv());
    INFO(r.err);
    CHECK(r.exitCode == 0);
}

TEST_CASE("with a joint selected a neighbour's pivot under its arc is what a click selects", "[editor][e2e][picking]") {
    RigCopy copy;
    test::ProcessResult r = test::runProcess(
        {kEditor, "--rig", copy.rig.string(), "--script", (kData / "pivot_under_arc.script").string()}, editorEnv());
    INFO(r.err);
    CHECK(r.exitCode == 0);
}

TEST_CASE("a value typed with a decimal comma is read as with a point", "[editor][e2e][inspector]") {
    RigCopy copy;
    test::ProcessResult r = test::runProcess(
        {kEditor, "--rig", copy.rig.string(), "--script", (kData / "decimal_comma.script").string()}, editorEnv());
    INFO(r.err);
    CHECK(r.exitCode == 0);
}

TEST_CASE("a second character in the level is not picked: the editor edits the first spawn's rig", "[editor][e2e][picking]") {
    RigCopy copy;
    const fs::path level = copy.dir / "two.level.xml";
    std::ofstream(level) << "<level name=\"two\" format=\"1\" units=\"m\">\n"
                            "  <box x=\"0\" y=\"-0.5\" width=\"20\" height=\"1\"/>\n"
                            "  <spawn name=\"first\" asset=\"rigs/stickman.rig.xml\" x=\"0\" y=\"0\"/>\n"
                            "  <spawn name=\"second\" asset=\"rigs/stickman.rig.xml\" x=\"1\" y=\"0\"/>\n"
                            "</level>\n";
    test::ProcessResult r = test::runProcess(
        {kEditor, level.string(), "--script", (kData / "second_character.script").string()}, editorEnv());
    INFO(r.err);
    CHECK(r.exitCode == 0);
}

TEST_CASE("clicks repeated in one place select each joint and body there in turn", "[editor][e2e][picking]") {
    RigCopy copy;
    test::ProcessResult r = test::runProcess(
        {kEditor, "--rig", copy.rig.string(), "--script", (kData / "click_again.script").string()}, editorEnv());
    INFO(r.err);
    CHECK(r.exitCode == 0);
}

TEST_CASE("an expect that does not hold fails the run with the script's file and line", "[editor][e2e]") {
    RigCopy copy;
    fs::path script = copy.dir / "wrong.script";
    std::ofstream(script) << "# comment\nexpect joint elbow_L upper 90\n";
    test::ProcessResult r =
        test::runProcess({kEditor, "--rig", copy.rig.string(), "--script", script.string()}, editorEnv());
    CHECK(r.exitCode == 1);
    CHECK_THAT(r.err, Catch::Contains(script.string() + ":2:") && Catch::Contains("it is 135"));
    CHECK(readText(copy.rig) == readText(kContent / "rigs" / "stickman.rig.xml"));  // nothing saved
}

TEST_CASE("a script naming a joint or a kind of object that is not there fails with its line", "[editor][e2e]") {
    RigCopy copy;
    fs::path script = copy.dir / "nojoint.script";
    std::ofstream(script) << "mouse move target joint wrist_L upper\n";
    test::ProcessResult r =
        test::runProcess({kEditor, "--rig", copy.rig.string(), "--script", script.string()}, editorEnv());
    CHECK(r.exitCode == 1);
    CHECK_THAT(r.err, Catch::Contains(script.string() + ":1:") && Catch::Contains("no joint 'wrist_L'"));

    // An unknown kind lists the kinds there are, each once (the plugin names its own
    // joints and bodies too).
    std::ofstream(script) << "select crate box_1\n";
    r = test::runProcess({kEditor, "--rig", copy.rig.string(), "--script", script.string()}, editorEnv());
    CHECK(r.exitCode == 1);
    CHECK_THAT(r.err, Catch::Contains(script.string() + ":1:") &&
                          Catch::Contains("no kind of object 'crate' (joint, body, settings, character, prop)"));
}

TEST_CASE("an editor script presses the plugin's actions by name, and an unknown one fails at its line",
          "[editor][e2e]") {
    RigCopy copy;
    fs::path script = copy.dir / "action.script";
    std::ofstream(script) << "key press P\nwait_frames 2\naction press toggle_ragdoll\nwait_frames 10\n"
                             "expect mode ragdoll\n";
    test::ProcessResult r =
        test::runProcess({kEditor, "--rig", copy.rig.string(), "--script", script.string()}, editorEnv());
    CHECK(r.exitCode == 0);
    CHECK(r.err.find("error") == std::string::npos);

    fs::path unknown = copy.dir / "unknown.script";
    std::ofstream(unknown) << "wait_frames 2\naction press bogus\n";
    r = test::runProcess({kEditor, "--rig", copy.rig.string(), "--script", unknown.string()}, editorEnv());
    CHECK(r.exitCode == 2);
    CHECK_THAT(r.err, Catch::Contains(unknown.string() + ":2:") && Catch::Contains("no action 'bogus'"));
}

TEST_CASE("editor: --frames runs that many frames and --screenshot saves the last one", "[editor]") {
    RigCopy copy;
    std::string png = (copy.dir / "shot.png").string();
    test::ProcessResult r = test::runProcess({kEditor, "--rig", copy.rig.string(), "--frames", "3", "--screenshot", png},
                                             editorEnv());
    INFO(r.err);
    CHECK(r.exitCode == 0);
    CHECK(fs::exists(png));
}

/// The original rig with forearm.L's body mass="1.5" changed to mass, the only change a mass
/// edit may make in the file.
std::string withForearmMass(const std::string& original, const std::string& mass) {
    const std::string before = "<body bone=\"forearm.L\" mass=\"1.5\"";
    std::string expected = original;
    std::size_t at = expected.find(before);
    if (at == std::string::npos) return "(the rig has no '" + before + "')";
    return expected.replace(at, before.size(), "<body bone=\"forearm.L\" mass=\"" + mass + "\"");
}

TEST_CASE("a body clicked in the viewport is inspected: its mass typed, undone, redone and saved alone",
          "[editor][e2e][inspector]") {
    RigCopy copy;
    std::string original = readText(copy.rig);
    fs::path script = scriptInto(copy.dir, "inspect_body.script");
    test::ProcessResult r =
        test::runProcess({kEditor, "--rig", copy.rig.string(), "--script", script.string()}, editorEnv());
    INFO(r.err);
    REQUIRE(r.exitCode == 0);  // the expects: hovered, selected, mass, one-step undos, the joint's limit
    CHECK(readText(copy.rig) == withForearmMass(original, "2.5"));

    // The hovered body's outline (bright teal) and the selected body's (violet) on screen.
    CHECK(countColour((copy.dir / "hover.png").string(), 0, 190, 210, 12) > 30);
    CHECK(countColour((copy.dir / "inspector_body.png").string(), 150, 70, 220, 12) > 30);
    CHECK(fs::exists(copy.dir / "inspector_joint.png"));
}

TEST_CASE("a body selected in the editor has its cut-out part marked by the plugin, and only while selected",
          "[editor][e2e][inspector][sprites]") {
    const fs::path dir = test::makeTempDir();
    fs::path script = scriptInto(dir, "select_part.script");
    const fs::path rig = kContent / "rigs" / "paper_doll.rig.xml";
    const std::string before = readText(rig);
    test::ProcessResult r = test::runProcess({kEditor, "--rig", rig.string(), "--script", script.string()}, editorEnv());
    INFO(r.err);
    REQUIRE(r.exitCode == 0);  // the expects: each click moves the plugin's flag with the selection
    CHECK(readText(rig) == before);
    fs::remove_all(dir);
}

TEST_CASE("joints named in Cyrillic and Greek are drawn from the machine's fonts, and a character no font has is said once",
          "[editor][e2e][fonts]") {
    RigCopy copy;
    std::string text = readText(copy.rig);
    for (auto [from, to] : {std::pair<std::string, std::string>{"neck", "шея"}, {"elbow_L", "локоть_L"},
                            {"knee_L", "γόνατο_L"}, {"knee_R", "\u0378_R"}}) {
        const std::string name = "name=\"" + from + "\"";
        text.replace(text.find(name), name.size(), "name=\"" + to + "\"");
    }
    std::ofstream(copy.rig, std::ios::binary) << text;
    const std::string said = "no font on this machine draws '\u0378' (U+0378): shown as '?'";
    auto countOf = [](const std::string& haystack, const std::string& needle) {
        int n = 0;
        for (size_t at = haystack.find(needle); at != std::string::npos; at = haystack.find(needle, at + 1)) ++n;
        return n;
    };

    test::ProcessResult drawn = test::runProcess(
        {kEditor, "--rig", copy.rig.string(), "--script", (kData / "names_drawn.script").string()}, editorEnv());
    INFO(drawn.err);
    CHECK(drawn.exitCode == 0);  // the expects: шея, локоть_L, γόνατο_L and tête all have glyphs
    CHECK(countOf(drawn.err, said) == 1);

    test::ProcessResult missing = test::runProcess(
        {kEditor, "--rig", copy.rig.string(), "--script", (kData / "names_missing.script").string()}, editorEnv());
    INFO(missing.err);
    CHECK(missing.exitCode == 1);
    CHECK_THAT(missing.err, Catch::Contains("names_missing.script:6: error: expect drawn \u0378_L: U+0378 has no glyph"));
    CHECK(countOf(missing.err, said) == 1);
    CHECK(readText(copy.rig) == text);
}

TEST_CASE("quitting with unsaved edits asks: Cancel keeps running, Discard quits without writing",
          "[editor][e2e][unsaved]") {
    RigCopy copy;
    std::string original = readText(copy.rig);
    fs::path script = scriptInto(copy.dir, "unsaved_discard.script");
    test::ProcessResult r =
        test::runProcess({kEditor, "--rig", copy.rig.string(), "--script", script.string()}, editorEnv());
    INFO(r.err);
    CHECK(r.exitCode == 0);  // Discard quit before the script's last expect could fail it
    CHECK(readText(copy.rig) == original);
    CHECK(fs::exists(copy.dir / "unsaved.png"));
}

TEST_CASE("quitting with unsaved edits, answered Save, writes the rig and quits", "[editor][e2e][unsaved]") {
    RigCopy copy;
    std::string original = readText(copy.rig);
    fs::path script = scriptInto(copy.dir, "unsaved_save.script");
    test::ProcessResult r =
        test::runProcess({kEditor, "--rig", copy.rig.string(), "--script", script.string()}, editorEnv());
    INFO(r.err);
    CHECK(r.exitCode == 0);  // Save quit before the script's last expect could fail it
    CHECK(readText(copy.rig) == withForearmMass(original, "3"));
}

TEST_CASE("opening another rig with unsaved edits refuses a rig that fails before asking and keeps the edits and Discard opens a good one",
          "[editor][e2e][unsaved]") {
    RigCopy copy;
    std::string original = readText(copy.rig);
    // Beside it: a puppet naming an idle clip that is not there (no character can be made
    // from it) and a heavier stickman.
    std::string puppet = readText(kContent / "rigs" / "paper_puppet.rig.xml");
    puppet.replace(puppet.find("</rig>"), 6, "  <clip name=\"idle\" file=\"missing.anim.xml\"/>\n</rig>");
    std::ofstream(copy.dir / "rigs" / "broken_puppet.rig.xml", std::ios::binary) << puppet;
    fs::path heavy = copy.dir / "rigs" / "stickman_heavy.rig.xml";
    std::ofstream(heavy, std::ios::binary) << withForearmMass(original, "2");
    std::string heavyText = readText(heavy);
    fs::path script = scriptInto(copy.dir, "open_rig.script");
    test::ProcessResult r =
        test::runProcess({kEditor, "--rig", copy.rig.string(), "--script", script.string()}, editorEnv());
    INFO(r.err);
    CHECK(r.exitCode == 0);  // the edit survives the refused rig; the heavy one opens clean
    CHECK_THAT(r.err, Catch::Contains("broken_puppet.rig.xml:") && Catch::Contains("the 'idle' clip 'missing.anim.xml' does not load"));
    CHECK(readText(copy.rig) == original);
    CHECK(readText(heavy) == heavyText);
}

TEST_CASE("a rig the plugin refuses at start ends the editor with its errors said once", "[editor][e2e]") {
    RigCopy copy;
    std::string text = readText(copy.rig);
    text.replace(text.find("walk.anim.xml"), 13, "nope.anim.xml");
    std::ofstream(copy.rig, std::ios::binary) << text;
    test::ProcessResult r = test::runProcess({kEditor, "--rig", copy.rig.string(), "--frames", "2"}, editorEnv());
    CHECK(r.exitCode == 1);
    const std::string error = copy.rig.string() + ":61: error: clip: the 'walk' clip '../anims/nope.anim.xml' does not load";
    CHECK_THAT(r.err, Catch::Contains(error));
    CHECK(r.err.find(error) == r.err.rfind(error));
    CHECK_THAT(r.err, Catch::Contains("cannot run the level ") &&
                          Catch::Contains(" with '" + copy.rig.string() + "' (the error above says why)"));
}

TEST_CASE("the live plots hold one sample per step, the newest the plugin's figures", "[editor][e2e][plots]") {
    RigCopy copy;
    fs::path script = scriptInto(copy.dir, "plots.script");
    test::ProcessResult r =
        test::runProcess({kEditor, "--rig", copy.rig.string(), "--script", script.string()}, editorEnv());
    INFO(r.err);
    CHECK(r.exitCode == 0);  // expect plots 0, then 90 after 90 steps
    CHECK(fs::exists(copy.dir / "plots.png"));
}

TEST_CASE("editor: --headless needs no display and still takes screenshots", "[editor][headless]") {
    RigCopy copy;
    std::string png = (copy.dir / "headless.png").string();
    // No display at all: the editor picks SDL's offscreen driver itself.
    test::ProcessResult r =
        test::runProcess({kEditor, "--headless", "--rig", copy.rig.string(), "--frames", "3", "--screenshot", png},
                         {"DISPLAY=", "LSAN_OPTIONS=detect_leaks=0", "PAPERDOLL_CONTENT=" + kContent.string()});
    INFO(r.err);
    CHECK(r.exitCode == 0);
    // The paper background (243, 239, 228) fills most of the picture.
    CHECK(countColour(png, 243, 239, 228, 3) > 1280 * 720 / 4);
}

TEST_CASE("editor command-line errors", "[editor][cli]") {
    SECTION("an unknown option exits 2 and names it") {
        test::ProcessResult r = test::runProcess({kEditor, "--bogus"});
        CHECK(r.exitCode == 2);
        CHECK_THAT(r.err, Catch::Contains("--bogus"));
    }
    SECTION("an option given twice exits 2 (the second would win without a word)") {
        test::ProcessResult r = test::runProcess({kEditor, "--asset", "a.rig.xml", "--asset", "b.rig.xml"});
        CHECK(r.exitCode == 2);
        CHECK(r.err == "paperdoll_editor: error: --asset is given twice\n");
        // --rig is --asset's other name: said so, not as the option the user did not type twice.
        r = test::runProcess({kEditor, "--rig", "a.rig.xml", "--asset", "b.rig.xml"});
        CHECK(r.exitCode == 2);
        CHECK(r.err == "paperdoll_editor: error: --rig and --asset are one option, the file to edit: give one\n");
    }
    SECTION("--name=value is read as the player and the rig commands read it") {
        test::ProcessResult r = test::runProcess({kEditor, "--headless", "--frames=0"});
        CHECK(r.exitCode == 2);
        CHECK(r.err == "paperdoll_editor: error: --frames needs a whole number from 1 to 1000000000, got '0'\n");
        r = test::runProcess({kEditor, "--headless=yes", "--frames", "2"});
        CHECK(r.exitCode == 2);
        CHECK(r.err == "paperdoll_editor: error: --headless takes no value, got '--headless=yes'\n");
    }
    SECTION("a screenshot into a folder that is not there is refused before the run") {
        RigCopy copy;
        test::ProcessResult r = test::runProcess(
            {kEditor, "--headless", "--rig", copy.rig.string(), "--frames", "2", "--screenshot", "/nonexistent/x.png"},
            editorEnv());
        CHECK(r.exitCode == 2);
        CHECK(r.err == "paperdoll_editor: error: --screenshot '/nonexistent/x.png': '/nonexistent' does not exist\n");
    }
    SECTION("the level may be given alone, as the player takes it") {
        test::ProcessResult r = test::runProcess({kEditor, (kContent / "levels" / "harness.level.xml").string(), "--headless", "--frames", "1"}, editorEnv());
        CHECK(r.exitCode == 0);
        test::ProcessResult version = test::runProcess({kEditor, "--version"});
        CHECK(version.exitCode == 0);
        CHECK(version.out.starts_with("paperdoll_editor "));
    }
    SECTION("a script's screenshot into a folder that is not there is refused before the run") {
        RigCopy copy;
        const fs::path script = copy.dir / "shot.script";
        std::ofstream(script) << "wait_frames 2\nscreenshot /nonexistent/x.png\n";
        test::ProcessResult r = test::runProcess(
            {kEditor, "--headless", "--rig", copy.rig.string(), "--script", script.string()}, editorEnv());
        CHECK(r.exitCode == 2);
        CHECK(r.err == script.string() + ":2: error: screenshot: cannot write '/nonexistent/x.png': '/nonexistent' does "
                                         "not exist (a screenshot's path is the working directory's)\n");
    }
    SECTION("a malformed value exits 2") {
        CHECK(test::runProcess({kEditor, "--window", "big"}).exitCode == 2);
        // Below 800x600 the panels would lie over one another and the character.
        test::ProcessResult small = test::runProcess({kEditor, "--window", "640x480"});
        CHECK(small.exitCode == 2);
        CHECK_THAT(small.err, Catch::Contains("from 800x600 to 16384x16384") && Catch::Contains("got '640x480'"));
        // A side past the largest is named as such, not as too small.
        test::ProcessResult large = test::runProcess({kEditor, "--window", "16385x700"});
        CHECK(large.exitCode == 2);
        CHECK_THAT(large.err, Catch::Contains("from 800x600 to 16384x16384") && Catch::Contains("got '16385x700'"));
        CHECK(test::runProcess({kEditor, "--frames", "-4"}).exitCode == 2);
        CHECK(test::runProcess({kEditor, "--rig"}).exitCode == 2);
    }
    SECTION("a missing --rig file fails with its path") {
        std::string missing = "/nonexistent/paperdoll/missing.rig.xml";
        test::ProcessResult r = test::runProcess({kEditor, "--rig", missing}, editorEnv());
        CHECK(r.exitCode != 0);
        CHECK_THAT(r.err, Catch::Contains(missing));
    }
    SECTION("a --plugin descriptor that cannot be read fails with its path") {
        std::string missing = "/nonexistent/paperdoll/ragdoll.plugin";
        test::ProcessResult r = test::runProcess({kEditor, "--plugin", missing}, editorEnv());
        CHECK(r.exitCode == 1);
        CHECK_THAT(r.err, Catch::Contains(missing));
        CHECK(test::runProcess({kEditor, "--plugin"}).exitCode == 2);
    }
    SECTION("a bad script exits 2 with FILE:LINE before any window opens") {
        std::string dir = test::makeTempDir();
        std::string script = dir + "/bad.script";
        std::ofstream(script) << "wait 1\nexpect joint elbow_L sideways 3\nmouse move target joint\n";
        test::ProcessResult r = test::runProcess({kEditor, "--script", script});
        CHECK(r.exitCode == 2);
        CHECK_THAT(r.err, Catch::Contains(script + ":2: error:") && Catch::Contains(script + ":3: error:"));
        fs::remove_all(dir);
    }
    SECTION("--help lists the options") {
        test::ProcessResult r = test::runProcess({kEditor, "--help"});
        CHECK(r.exitCode == 0);
        CHECK_THAT(r.out, Catch::Contains("--rig FILE") && Catch::Contains("--script FILE") &&
                              Catch::Contains("--plugin FILE") && Catch::Contains("--headless") &&
                              Catch::Contains("Ctrl+Q") && Catch::Contains("expect dialog unsaved|none|closed|on top") &&
                              Catch::Contains("expect drawn TEXT") && Catch::Contains("label visible|hidden") &&
                              Catch::Contains("expect panel NAME inside|clear"));
    }
}

TEST_CASE("the view starts on the whole character, follows it while playing and says Playing", "[editor][e2e][view]") {
    RigCopy copy;
    fs::path script = scriptInto(copy.dir, "view_follow.script");
    test::ProcessResult r =
        test::runProcess({kEditor, "--rig", copy.rig.string(), "--script", script.string()}, editorEnv());
    INFO(r.err);
    CHECK(r.exitCode == 0);
    CHECK(fs::exists(copy.dir / "followed.png"));

    // Follow off: the same walk ends out of view (the check above can fail).
    fs::path off = scriptInto(copy.dir, "view_no_follow.script");
    test::ProcessResult hidden =
        test::runProcess({kEditor, "--rig", copy.rig.string(), "--script", off.string()}, editorEnv());
    INFO(hidden.err);
    CHECK(hidden.exitCode == 0);
}

TEST_CASE("Follow keeps a knocked ragdoll clear of the side panels", "[editor][e2e][view]") {
    RigCopy copy("paper_doll.rig.xml");
    for (const char* name : {"follow_knocked.script", "follow_off_knocked.script"}) {
        fs::path script = scriptInto(copy.dir, name);
        test::ProcessResult r =
            test::runProcess({kEditor, "--rig", copy.rig.string(), "--script", script.string()}, editorEnv());
        INFO(name << ": " << r.err);
        CHECK(r.exitCode == 0);
    }
    CHECK(fs::exists(copy.dir / "knocked.png"));
}

TEST_CASE("the Joints panel's Undo, Redo and Save take clicks with the paper doll's 11 joints listed",
          "[editor][e2e][view]") {
    // The Inspector stood at a fixed height and covered the buttons under a list this long.
    RigCopy copy("paper_doll.rig.xml");
    const std::string original = readText(copy.rig);
    test::ProcessResult r = test::runProcess(
        {kEditor, "--rig", copy.rig.string(), "--script", (kData / "joints_buttons.script").string()}, editorEnv());
    INFO(r.err);
    REQUIRE(r.exitCode == 0);
    CHECK(readText(copy.rig) == withElbowUpper(original, "100"));
}

TEST_CASE("a joint the rig leaves unnamed is listed, picked, edited and saved under its bones' names", "[editor][e2e]") {
    // FORMAT.md lets a joint go unnamed; the editor aborted on its first frame (an empty ImGui
    // label in the Joints list), where the player and `rig check` took the rig.
    RigCopy copy;
    std::string text = readText(copy.rig);
    const std::string named = "<joint name=\"neck\" ";
    REQUIRE(text.find(named) != std::string::npos);
    text.replace(text.find(named), named.size(), "<joint ");
    std::ofstream(copy.rig, std::ios::trunc) << text;
    const fs::path script = copy.dir / "unnamed.script";
    std::ofstream(script) << "expect joint (torso-head) upper 45\n"
                             "mouse move target joint (torso-head) pivot\nwait_frames 1\nmouse down left\nwait_frames 1\n"
                             "mouse up left\nwait_frames 1\nexpect selected joint (torso-head)\n"
                          << test::dragLimit("(torso-head)", "upper", 38, 30) << "expect joint (torso-head) upper 30\n"
                             "mouse move target widget save\nwait_frames 1\nmouse down left\nwait_frames 1\n"
                             "mouse up left\nwait_frames 2\nexpect clean\nquit\n";
    test::ProcessResult r = test::runProcess({kEditor, "--rig", copy.rig.string(), "--script", script.string()}, editorEnv());
    INFO(r.err);
    REQUIRE(r.exitCode == 0);
    // Only its limit changed: no name written for it.
    const std::string neck = "<joint parent=\"torso\" child=\"head\" lower=\"-45\" upper=\"45\"";
    REQUIRE(text.find(neck) != std::string::npos);
    std::string expected = text;
    expected.replace(expected.find(neck), neck.size(), "<joint parent=\"torso\" child=\"head\" lower=\"-45\" upper=\"30\"");
    CHECK(readText(copy.rig) == expected);
}

TEST_CASE("a free joint's limit edited and undone saves it free, its lower handle drags from the seam", "[editor][e2e]") {
    // Undone, the neck had become limited to -180..180 (the file gained lower= and upper=
    // while the editor said clean); and at the seam, where both handles meet, a drag always
    // took the upper one, which cannot go up: the lower one could not be dragged at all.
    RigCopy copy;
    std::string text = readText(copy.rig);
    const std::string limits = " lower=\"-45\" upper=\"45\" damping=\"1.5\"";
    const size_t neck = text.find("<joint name=\"neck\"");
    REQUIRE(neck != std::string::npos);
    REQUIRE(text.find(limits, neck) != std::string::npos);
    text.replace(text.find(limits, neck), limits.size(), " damping=\"1.5\"");
    std::ofstream(copy.rig, std::ios::trunc) << text;
    auto run = [&](const std::string& steps) {
        const fs::path script = copy.dir / "free.script";
        std::ofstream(script, std::ios::trunc)
            << "select joint neck\nwait_frames 2\nexpect joint neck upper 180\n" << steps
            << "key down Left Ctrl\nkey press S\nwait_frames 1\nkey up Left Ctrl\nwait_frames 2\nexpect clean\nquit\n";
        return test::runProcess({kEditor, "--rig", copy.rig.string(), "--script", script.string()}, editorEnv());
    };
    test::ProcessResult r = run(test::dragLimit("neck", "upper", 120, 60) +
                                "wait_frames 1\nexpect joint neck upper 60\nexpect dirty\n"
                                "key down Left Ctrl\nkey press Z\nwait_frames 1\nkey up Left Ctrl\nwait_frames 2\n"
                                "expect joint neck upper 180\nexpect clean\n");
    INFO(r.err);
    REQUIRE(r.exitCode == 0);
    CHECK(readText(copy.rig) == text);

    r = run(test::dragLimit("neck", "lower", -120, -60) + "wait_frames 1\nexpect joint neck lower -60\nexpect joint neck upper 180\n");
    INFO(r.err);
    REQUIRE(r.exitCode == 0);
    std::string limited = text;
    limited.insert(limited.find("/>", limited.find("<joint name=\"neck\"")), " lower=\"-60\" upper=\"180\"");
    CHECK(readText(copy.rig) == limited);
}

TEST_CASE("keys typed into a value or pressed in an open menu are not the editor's shortcuts", "[editor][e2e][keys]") {
    RigCopy copy;
    const std::string original = readText(copy.rig);
    fs::path script = scriptInto(copy.dir, "keys_while_typing.script");
    test::ProcessResult r = test::runProcess({kEditor, "--rig", copy.rig.string(), "--script", script.string()}, editorEnv());
    INFO(r.err);
    // Every expect ran: the editor quit on neither Esc, and P played once the menu had closed
    // (an open menu keeps the shortcuts, as a typed value does).
    REQUIRE(r.exitCode == 0);
    CHECK(fs::exists(copy.dir / "end.png"));  // the script's last command but quit
    CHECK(readText(copy.rig) == original);
}

TEST_CASE("asking to quit again just after cancelling the unsaved-edits question asks again", "[editor][e2e][keys]") {
    RigCopy copy;
    const std::string original = readText(copy.rig);
    test::ProcessResult r = test::runProcess(
        {kEditor, "--headless", "--rig", copy.rig.string(), "--script", (kData / "esc_again.script").string()}, editorEnv());
    INFO(r.err);
    CHECK(r.exitCode == 0);  // 134 (abort) before
    CHECK(readText(copy.rig) == original);  // the script quits without saving
}

TEST_CASE("a script the editor quits before its end fails at the first command left", "[editor][e2e][script]") {
    RigCopy copy;
    fs::path script = scriptInto(copy.dir, "quit_early.script");
    test::ProcessResult r = test::runProcess({kEditor, "--rig", copy.rig.string(), "--script", script.string()}, editorEnv());
    CHECK(r.exitCode == 1);
    CHECK_THAT(r.err, Catch::Contains(script.string() + ":4: error: the editor quit before this command ran"));

    // `expect quit` says the quit is wanted there; reached with the editor running, it fails.
    std::ofstream(copy.dir / "wanted.script") << "key press Escape\nwait_frames 1\nexpect quit\n";
    r = test::runProcess({kEditor, "--rig", copy.rig.string(), "--script", (copy.dir / "wanted.script").string()}, editorEnv());
    CHECK(r.exitCode == 0);
    std::ofstream(copy.dir / "running.script") << "wait_frames 1\nexpect quit\n";
    r = test::runProcess({kEditor, "--rig", copy.rig.string(), "--script", (copy.dir / "running.script").string()},
                         editorEnv());
    CHECK(r.exitCode == 1);
    CHECK_THAT(r.err, Catch::Contains("running.script:2: error: expect quit: the editor is still running"));
}

TEST_CASE("in the least window the Inspector leaves the Simulate panel's Play button clear", "[editor][e2e][view]") {
    RigCopy copy("paper_doll.rig.xml");
    const std::string original = readText(copy.rig);
    test::ProcessResult r = test::runProcess({kEditor, "--rig", copy.rig.string(), "--window", "800x600", "--script",
                                              (kData / "narrow_window.script").string()},
                                             editorEnv());
    INFO(r.err);
    REQUIRE(r.exitCode == 0);  // the expects: the mass typed, saved, and Play pressed
    std::string expected = original;
    const std::string torso = "<body bone=\"torso\" shape=\"capsule\" mass=\"8\"";
    REQUIRE(expected.find(torso) != std::string::npos);
    expected.replace(expected.find(torso), torso.size(), "<body bone=\"torso\" shape=\"capsule\" mass=\"9\"");
    CHECK(readText(copy.rig) == expected);
}

TEST_CASE("in a window a little wider than the least the Inspector leaves the character clear", "[editor][e2e][view]") {
    // Between 880 and 1000 px wide the Inspector fitted beside the Joints panel and lay over
    // the stickman's head: its neck's pivot could not be clicked. At 1280 it stands there still.
    RigCopy copy;
    const fs::path script = copy.dir / "neck_clear.script";
    std::ofstream(script) << "select body forearm_L\nwait_frames 3\nmouse move target joint neck pivot\nwait_frames 2\n"
                             "expect hovered joint neck\nquit\n";
    for (const char* window : {"880x600", "960x640", "1280x720"}) {
        test::ProcessResult r =
            test::runProcess({kEditor, "--rig", copy.rig.string(), "--window", window, "--script", script.string()}, editorEnv());
        INFO(window << ": " << r.err);
        CHECK(r.exitCode == 0);
    }
}

TEST_CASE("the starting view shows the first spawn's flag and label clear of the side panels, in the least window too",
          "[editor][e2e][view]") {
    // Centred across the whole window, the paper doll's flag, beside its head, lay under the
    // Simulate panel at 800x600, and so did its label after; the label now runs left of the
    // pole there. Home comes back to the same view.
    const fs::path dir = test::makeTempDir();
    const fs::path script = dir / "flag.script";
    std::ofstream(script) << "expect flag visible\nexpect label visible\nexpect character visible\n"
                             "key press Home\nwait_frames 1\nexpect flag visible\nexpect label visible\n"
                             "expect character visible\nquit\n";
    for (const char* window : {"800x600", "1280x720"}) {
        test::ProcessResult r = test::runProcess({kEditor, "--window", window, "--script", script.string()}, editorEnv());
        INFO(window << ": " << r.err);
        CHECK(r.exitCode == 0);
    }
    fs::remove_all(dir);
}

TEST_CASE("editor: a screenshot onto the rig edited, a file named as one or its art is refused, the files whole",
          "[editor][e2e][script]") {
    RigCopy copy("paper_doll.rig.xml");
    const fs::path art = copy.dir / "art" / "paper_doll.png";
    const std::string rig = readText(copy.rig), picture = readText(art);
    const fs::path script = copy.dir / "shot.script";
    std::ofstream(script) << "wait_frames 1\nscreenshot " << art.string() << "\n";
    struct Case {
        std::vector<std::string> args;
        int status;
        std::string says;
    };
    const std::vector<Case> cases = {
        {{"--screenshot", copy.rig.string()}, 2,
         "--screenshot '" + copy.rig.string() + "': it is the file edited this run reads"},
        {{"--screenshot", (copy.dir / "other.rig.xml").string()}, 2,
         "it ends in .xml, as levels, rigs and clips do, which this would write over: name it 'other.rig.png'"},
        {{"--script", script.string()}, 1, "'" + art.string() + "' is art this run draws (an image a plugin loaded)"},
        {{"--frames", "2", "--screenshot", art.string()}, 1, "'" + art.string() + "' is art this run draws (an image a plugin loaded)"},
    };
    for (const Case& c : cases) {
        std::vector<std::string> argv = {kEditor, "--rig", copy.rig.string()};
        argv.insert(argv.end(), c.args.begin(), c.args.end());
        CAPTURE(c.args);
        test::ProcessResult r = test::runProcess(argv, editorEnv());
        INFO(r.err);
        CHECK(r.exitCode == c.status);
        CHECK_THAT(r.err, Catch::Contains(c.says));
        CHECK(readText(copy.rig) == rig);
        CHECK(readText(art) == picture);
        CHECK(!fs::exists(copy.dir / "other.rig.xml"));
    }
}

TEST_CASE("a failing expect names a dialog by the title it shows", "[editor][e2e][script]") {
    RigCopy copy;
    const fs::path script = copy.dir / "dialog_open.script";
    std::ofstream(script) << "key down Left Ctrl\nkey down Left Shift\nkey press S\nwait_frames 1\n"
                             "key up Left Shift\nkey up Left Ctrl\nwait_frames 2\nexpect dialog closed\n";
    test::ProcessResult r = test::runProcess({kEditor, "--rig", copy.rig.string(), "--script", script.string()}, editorEnv());
    CHECK(r.exitCode == 1);
    CHECK_THAT(r.err, Catch::Contains(script.string() + ":8: error: expect dialog closed: the Save As dialog was drawn"));
    CHECK_THAT(r.err, !Catch::Contains("###"));
}

TEST_CASE("the Joints panel keeps its width when an edit sets the unsaved marker", "[editor][e2e][view]") {
    RigCopy copy;
    // First the width as it is: a deliberately failing expect reports it.
    fs::path probe = copy.dir / "probe.script";
    std::ofstream(probe) << "expect panel Joints width 0 0\n";
    test::ProcessResult measured =
        test::runProcess({kEditor, "--rig", copy.rig.string(), "--script", probe.string()}, editorEnv());
    const std::string marker = "expect panel Joints width 0: it is ";
    std::size_t at = measured.err.find(marker);
    INFO(measured.err);
    REQUIRE(at != std::string::npos);
    double width = std::stod(measured.err.substr(at + marker.size()));
    CHECK(width > 100.0);

    std::string text = readText(kData / "joints_width.script");
    for (std::size_t p = 0; (p = text.find("WIDTH", p)) != std::string::npos;) text.replace(p, 5, std::to_string(width));
    fs::path script = copy.dir / "joints_width.script";
    std::ofstream(script) << text;
    test::ProcessResult r =
        test::runProcess({kEditor, "--rig", copy.rig.string(), "--script", script.string()}, editorEnv());
    INFO(r.err);
    CHECK(r.exitCode == 0);
}

/// Runs a data script on a copy of the stickman whose "build" command (the Plugin panel's
/// Build, $PAPERDOLL_PLUGIN_BUILD) is `change`, a sed expression applied to the rig file:
/// another program changing the file while the editor has it open.
test::ProcessResult runWithRigChangedBy(const RigCopy& copy, const std::string& script, const std::string& change) {
    const fs::path build = copy.dir / "change_rig.sh";
    std::ofstream(build) << "sed -i '" << change << "' '" << copy.rig.string() << "'\n";
    std::vector<std::string> env = editorEnv();
    env.push_back("PAPERDOLL_PLUGIN_BUILD=sh '" + build.string() + "'");
    return test::runProcess({kEditor, "--rig", copy.rig.string(), "--script", (kData / script).string()}, env);
}

TEST_CASE("a save never overwrites a change made to the rig on disk, and F5 reads it again with the edits kept",
          "[editor][e2e][save]") {
    RigCopy copy;
    const std::string knee = "name=\"knee_L\" parent=\"thigh.L\" child=\"shin.L\" lower=\"-135\"";
    const std::string kneeNow = "name=\"knee_L\" parent=\"thigh.L\" child=\"shin.L\" lower=\"-90\"";
    const std::string comment = "<!-- changed by another program -->";
    test::ProcessResult r = runWithRigChangedBy(copy, "save_changed_on_disk.script",
                                                "s/" + knee + "/" + kneeNow + "/; 1a " + comment);
    INFO(r.err);
    CHECK(r.exitCode == 0);  // refused while changed, then F5: knee_L -90 and elbow_L 100, saved twice
    // The file: the other program's changes and the editor's last edit, nothing else.
    std::string expected = withElbowUpper(readText(kContent / "rigs" / "stickman.rig.xml"), "90");
    REQUIRE(expected.find(knee) != std::string::npos);
    expected.replace(expected.find(knee), knee.size(), kneeNow);
    expected.insert(expected.find('\n') + 1, comment + "\n");
    CHECK(readText(copy.rig) == expected);
}

TEST_CASE("a rig deleted on disk while open is said to be gone and Save writes it again", "[editor][e2e][save]") {
    RigCopy copy;
    const fs::path build = copy.dir / "remove_rig.sh";
    std::ofstream(build) << "rm '" << copy.rig.string() << "'\n";
    std::vector<std::string> env = editorEnv();
    env.push_back("PAPERDOLL_PLUGIN_BUILD=sh '" + build.string() + "'");
    test::ProcessResult r =
        test::runProcess({kEditor, "--rig", copy.rig.string(), "--script", (kData / "rig_deleted.script").string()}, env);
    INFO(r.err);
    CHECK(r.exitCode == 0);
    CHECK(readText(copy.rig) == withElbowUpper(readText(kContent / "rigs" / "stickman.rig.xml"), "100"));
}

TEST_CASE("after the rig changed on disk and Reset or F5 read it again, undo leaves the file's value",
          "[editor][e2e][save]") {
    // The value before the edit, as the user understands it, is the file's as it is now: the
    // old file's 1.5 kg is gone from disk, and the rig reads clean once the edit is undone.
    const std::string mass = "<body bone=\"forearm.L\" mass=\"1.5\"";
    for (const std::string readAgain : {"mouse move target widget reset\nwait_frames 1\nmouse down left\nwait_frames 1\n"
                                        "mouse up left\nwait_frames 2\nexpect status Reset to the rest pose",
                                        "key press F5\nwait_frames 2\nexpect reloads 1\nexpect status had changed on disk"}) {
        RigCopy copy;
        std::string text = readText(kData / "undo_after_change_on_disk.script");
        text.replace(text.find("\nREAD_AGAIN") + 1, 10, readAgain);
        const fs::path script = copy.dir / "undo_after_change_on_disk.script";
        std::ofstream(script) << text;
        test::ProcessResult r = runWithRigChangedBy(copy, script.string(), "s/" + mass + "/<body bone=\"forearm.L\" mass=\"3\"/");
        INFO(readAgain);
        INFO(r.err);
        CHECK(r.exitCode == 0);
    }
}

/// Files a save left behind under a name of its own in dir or below: Save As's trial copy
/// (".saving-NAME") or the plugin's temporary file (".NAME.tmp-…").
std::vector<std::string> leftoverSaveFiles(const fs::path& dir) {
    std::vector<std::string> found;
    for (const fs::directory_entry& entry : fs::recursive_directory_iterator(dir)) {
        const std::string name = entry.path().filename().string();
        if (name.starts_with(".saving-") || name.find(".tmp-") != std::string::npos) found.push_back(name);
    }
    return found;
}

TEST_CASE("Save As writes the edited rig under another name then edits that file and refusals leave files alone",
          "[editor][e2e][save]") {
    RigCopy copy;
    const std::string original = readText(copy.rig);
    test::ProcessResult r =
        test::runProcess({kEditor, "--rig", copy.rig.string(), "--script", (kData / "save_as.script").string()}, editorEnv());
    INFO(r.err);
    CHECK(r.exitCode == 0);
    // tuned.rig.xml: the mass of its last save; the original replaced by Save As with 3.5 kg.
    CHECK(readText(copy.dir / "rigs" / "tuned.rig.xml") == withForearmMass(original, "3.5"));
    CHECK(readText(copy.rig) == withForearmMass(original, "3.5"));
    // The refused names: nothing written, no folder made.
    CHECK_FALSE(fs::exists(copy.dir / "rigs" / "tuned.xml"));
    CHECK_FALSE(fs::exists(copy.dir / "anims" / "missing"));
    CHECK(leftoverSaveFiles(copy.dir).empty());
}

TEST_CASE("Save As onto a symbolic link writes the file it names and the link stays a link",
          "[editor][e2e][save]") {
    RigCopy copy;
    const fs::path rigs = copy.dir / "rigs", deeper = copy.dir / "elsewhere" / "deeper";
    fs::create_directories(deeper);
    const std::string original = readText(copy.rig);
    fs::copy_file(copy.rig, rigs / "other.rig.xml");
    fs::copy_file(copy.rig, deeper / "real.rig.xml");
    fs::create_symlink("other.rig.xml", rigs / "link.rig.xml");
    fs::create_symlink("../elsewhere/deeper/real.rig.xml", rigs / "far.rig.xml");
    fs::create_symlink("nowhere.rig.xml", rigs / "dangling.rig.xml");
    fs::create_symlink("loop_back.rig.xml", rigs / "loop.rig.xml");
    fs::create_symlink("loop.rig.xml", rigs / "loop_back.rig.xml");
    REQUIRE(::mkfifo((rigs / "pipe.rig.xml").c_str(), 0644) == 0);
    fs::create_symlink("pipe.rig.xml", rigs / "to_pipe.rig.xml");
    test::ProcessResult r = test::runProcess(
        {kEditor, "--rig", copy.rig.string(), "--script", (kData / "save_as_link.script").string()}, editorEnv());
    INFO(r.err);
    CHECK(r.exitCode == 0);
    // What the link at path points to; empty when it is no link (a file replaced it).
    auto linkOf = [](const fs::path& path) {
        std::error_code ec;
        return fs::read_symlink(path, ec);
    };
    // Each link is the link it was; the files they name hold the rig as saved through them.
    CHECK(linkOf(rigs / "link.rig.xml") == "other.rig.xml");
    CHECK(linkOf(rigs / "far.rig.xml") == "../elsewhere/deeper/real.rig.xml");
    CHECK(readText(rigs / "other.rig.xml") == withForearmMass(original, "2.5"));
    CHECK(readText(deeper / "real.rig.xml") == withForearmMass(original, "3.5"));
    CHECK(readText(copy.rig) == original);
    // The refused links: as they were, nothing made where they point.
    CHECK(linkOf(rigs / "dangling.rig.xml") == "nowhere.rig.xml");
    CHECK_FALSE(fs::exists(fs::symlink_status(rigs / "nowhere.rig.xml")));
    CHECK(linkOf(rigs / "loop.rig.xml") == "loop_back.rig.xml");
    CHECK(linkOf(rigs / "loop_back.rig.xml") == "loop.rig.xml");
    CHECK(fs::is_fifo(rigs / "pipe.rig.xml"));
    CHECK(linkOf(rigs / "to_pipe.rig.xml") == "pipe.rig.xml");
    CHECK(leftoverSaveFiles(copy.dir).empty());
}

TEST_CASE("Save As into a folder where the rig's clips are not found is refused and nothing is written",
          "[editor][e2e][save]") {
    RigCopy copy;
    // Two levels down: from there the rig's "../anims" is a folder that does not exist (from
    // a folder beside rigs/ it would still be found).
    const fs::path deeper = copy.dir / "elsewhere" / "deeper";
    fs::create_directories(deeper);
    const std::string original = readText(copy.rig);
    const fs::path script = copy.dir / "save_as_elsewhere.script";
    std::ofstream(script) << "key down Left Ctrl\nkey down Left Shift\nkey press S\nwait_frames 1\nkey up Left Shift\n"
                             "key up Left Ctrl\nwait_frames 2\ntype ../elsewhere/deeper/tuned.rig.xml\nwait_frames 1\n"
                             "key press Return\nwait_frames 2\nscreenshot " << (copy.dir / "refused.png").string()
                          << "\nwait_frames 1\nmouse move screen 500 250\nwait_frames 5\nscreenshot "
                          << (copy.dir / "reason.png").string() << "\nwait_frames 1\nquit\n";
    // In a small window: the dialog shows the first lines of the reason (one for each clip)
    // and fits, its title bar too.
    test::ProcessResult r = test::runProcess(
        {kEditor, "--window", "800x600", "--rig", copy.rig.string(), "--script", script.string()}, editorEnv());
    INFO(r.err);
    CHECK(r.exitCode == 0);
    CHECK(fs::is_empty(deeper));  // neither the rig nor the trial copy
    CHECK(readText(copy.rig) == original);
    CHECK(leftoverSaveFiles(copy.dir).empty());
    // The plugin's reason, naming the clip it did not find, in the log; the dialog says it in
    // red (the status line's error colour).
    CHECK(r.err.find("idle.anim.xml") != std::string::npos);
    CHECK(r.err.find(".saving-") == std::string::npos);  // the reasons name the file chosen
    CHECK(countColour((copy.dir / "refused.png").string(), 255, 115, 102, 20) > 50);
    // The focused title bar's blue (ImGui's dark style): about 8000 pixels of it over the
    // buttons' 3000 when the title is on screen.
    CHECK(countColour((copy.dir / "refused.png").string(), 41, 74, 122, 6) > 7000);
    // Hovered, the whole reason in a tooltip (ImGui's dark grey), pushed back into the window:
    // put at the mouse it ran off the right and bottom edges, into the last columns.
    const std::string reason = (copy.dir / "reason.png").string();
    CHECK(countColour(reason, 21, 21, 21, 4) > 100000);
    int w = 0, h = 0, n = 0;
    unsigned char* pixels = stbi_load(reason.c_str(), &w, &h, &n, 3);
    REQUIRE(pixels);
    int dark = 0;  // in the window's last two columns, above the status line
    for (int y = 30; y < h - 40; ++y)
        for (int x = w - 2; x < w; ++x) dark += pixels[3 * (y * w + x)] < 60;
    stbi_image_free(pixels);
    CHECK(dark == 0);
}

TEST_CASE("a rig broken on disk while open is not overwritten by a save", "[editor][e2e][save]") {
    RigCopy copy;
    const std::string mass = "<body bone=\"forearm.L\" mass=\"1.5\"";
    test::ProcessResult r =
        runWithRigChangedBy(copy, "save_broken_on_disk.script", "s/" + mass + "/<body bone=\"forearm.L\" mass=\"-1.5\"/");
    INFO(r.err);
    CHECK(r.exitCode == 0);  // F5 and Reset fail, Ctrl+S refuses, the edit is still there
    CHECK(readText(copy.rig) == withForearmMass(readText(kContent / "rigs" / "stickman.rig.xml"), "-1.5"));
}

TEST_CASE("a handle drag cut short by F5, Esc or the unsaved question puts the limit back and is no edit",
          "[editor][e2e][gizmo]") {
    RigCopy copy;
    const std::string original = readText(copy.rig);
    test::ProcessResult r = test::runProcess(
        {kEditor, "--rig", copy.rig.string(), "--script", (kData / "drag_interrupted.script").string()}, editorEnv());
    INFO(r.err);
    CHECK(r.exitCode == 0);  // the expects: 135 and clean after each; Esc did not quit
    CHECK(readText(copy.rig) == original);
}

TEST_CASE("Reset after undoing a saved edit keeps it undone, and Save then writes the value seen", "[editor][e2e][save]") {
    RigCopy copy;
    test::ProcessResult r = test::runProcess(
        {kEditor, "--rig", copy.rig.string(), "--script", (kData / "reset_after_undo.script").string()}, editorEnv());
    INFO(r.err);
    CHECK(r.exitCode == 0);  // the expects: 1.5 and dirty after the Reset
    CHECK(readText(copy.rig).find("<body bone=\"forearm.L\" mass=\"3\"") != std::string::npos);  // saved before the undo
}

TEST_CASE("a handle drag saves the limit it showed when Ctrl or Shift is let go with the button", "[editor][e2e][gizmo]") {
    RigCopy copy;
    test::ProcessResult r = test::runProcess(
        {kEditor, "--rig", copy.rig.string(), "--script", (kData / "drag_modifier_release.script").string()}, editorEnv());
    INFO(r.err);
    CHECK(r.exitCode == 0);  // the expects: -97, -103.4, -110 after each release
    CHECK(readText(copy.rig).find("lower=\"-110\"") != std::string::npos);
}

TEST_CASE("key presses one frame apart each reach a text field", "[editor][e2e][panels]") {
    RigCopy copy;
    test::ProcessResult r = test::runProcess(
        {kEditor, "--rig", copy.rig.string(), "--script", (kData / "key_presses_frame_apart.script").string()}, editorEnv());
    INFO(r.err);
    CHECK(r.exitCode == 0);  // the expect: 98 after three Backspaces
}

TEST_CASE("values typed into the Tuning panel outside the plugin's ranges are clamped to them", "[editor][e2e][panels]") {
    RigCopy copy;
    test::ProcessResult r = test::runProcess(
        {kEditor, "--rig", copy.rig.string(), "--script", (kData / "tuning_typed.script").string()}, editorEnv());
    INFO(r.err);
    CHECK(r.exitCode == 0);
}

TEST_CASE("a long status message shows whole lines only, the last ending in '...'", "[editor][e2e][view]") {
    RigCopy copy;
    writeBrokenRig(copy);  // its refusal lists a dozen reasons
    const fs::path shot = copy.dir / "status.png";
    std::ofstream(copy.dir / "status.script") << "key down Left Ctrl\nkey press O\nwait_frames 1\nkey up Left Ctrl\n"
                                                 "wait_frames 2\nmouse move target widget open:broken.rig.xml\n"
                                                 "wait_frames 1\nmouse down left\nwait_frames 1\nmouse up left\n"
                                                 "wait_frames 1\nmouse move target widget open:open\nwait_frames 1\n"
                                                 "mouse down left\nwait_frames 1\nmouse up left\nwait_frames 3\n"
                                                 "mouse move target widget open:cancel\nwait_frames 1\n"
                                                 "mouse down left\nwait_frames 1\nmouse up left\nwait_frames 1\n"
                                                 "mouse move screen 640 300\nwait_frames 3\n"
                                                 "expect status Cannot open 'broken.rig.xml'\n"
                                                 "screenshot " << shot.string() << "\nquit\n";
    test::ProcessResult r = test::runProcess(
        {kEditor, "--rig", copy.rig.string(), "--script", (copy.dir / "status.script").string()}, editorEnv());
    INFO(r.err);
    REQUIRE(r.exitCode == 0);
    // The message in red in the status line, and none of it in the bar's bottom rows, where a
    // fourth line cut through showed the tops of its letters.
    CHECK(countColour(shot.string(), 255, 115, 102, 8, 60) > 200);
    CHECK(countColour(shot.string(), 255, 115, 102, 8, 5) == 0);
}

TEST_CASE("a name typed in Open right after Ctrl+O opens the file beside the rig, its ending optional", "[editor][e2e][script]") {
    // As Save As takes a name alone. It was read from the working directory (the file
    // listed beside the rig was "no such file"), and the keys went nowhere until the path
    // field was clicked.
    RigCopy copy;
    fs::copy_file(copy.rig, copy.dir / "rigs" / "other.rig.xml");
    const fs::path script = copy.dir / "typed.script";
    std::ofstream(script) << "key down Left Ctrl\nkey press O\nwait_frames 1\nkey up Left Ctrl\nwait_frames 2\n"
                             "type other.rig.xml\nwait_frames 1\nkey press Return\nwait_frames 3\n"
                             "expect status Opened " << (copy.dir / "rigs" / "other.rig.xml").string() << "\n";
    test::ProcessResult r = test::runProcess({kEditor, "--rig", copy.rig.string(), "--script", script.string()}, editorEnv());
    INFO(r.err);
    CHECK(r.exitCode == 0);

    // A name without its ending gets the rig's, as in Save As ("no such file" before).
    std::ofstream(script, std::ios::trunc)
        << "key down Left Ctrl\nkey press O\nwait_frames 1\nkey up Left Ctrl\nwait_frames 2\n"
           "type other\nwait_frames 1\nkey press Return\nwait_frames 3\n"
           "expect status Opened " << (copy.dir / "rigs" / "other.rig.xml").string() << "\n";
    r = test::runProcess({kEditor, "--rig", copy.rig.string(), "--script", script.string()}, editorEnv());
    INFO(r.err);
    CHECK(r.exitCode == 0);
}

TEST_CASE("a script's type with no text field taking the keys fails at its line", "[editor][e2e][script]") {
    // The text went nowhere and the run passed: a mistyped widget step went unnoticed.
    RigCopy copy;
    const fs::path script = copy.dir / "type.script";
    std::ofstream(script) << "wait_frames 2\ntype 4\n";
    test::ProcessResult r = test::runProcess({kEditor, "--rig", copy.rig.string(), "--script", script.string()}, editorEnv());
    CHECK(r.exitCode == 1);
    CHECK_THAT(r.err, Catch::Contains(script.string() + ":2: error: type: no text field takes the keys"));
    CHECK(readText(copy.rig) == readText(kContent / "rigs" / "stickman.rig.xml"));
}

TEST_CASE("at 800x600 playing keeps the Tuning panel clear of the status line", "[editor][e2e][view]") {
    // The Simulate panel grew by a line while playing and pushed Tuning into the status line.
    const fs::path dir = test::makeTempDir();
    const fs::path script = dir / "play.script";
    // The Tuning panel starts folded in a window this short: unfolded first, it is what the
    // growing Simulate panel pushes down.
    std::ofstream(script) << "mouse move target widget fold:Tuning\nwait_frames 1\nmouse down left\nwait_frames 1\n"
                             "mouse up left\nwait_frames 2\nexpect panel Tuning inside\nmouse move target widget play\n"
                             "wait_frames 1\nmouse down left\nwait_frames 1\nmouse up left\nwait 1\nexpect panel Tuning inside\n"
                             "expect panel Simulate inside\nexpect panel Tuning clear\n";
    test::ProcessResult r = test::runProcess({kEditor, "--window", "800x600", "--script", script.string()}, editorEnv());
    INFO(r.err);
    CHECK(r.exitCode == 0);
    fs::remove_all(dir);
}

TEST_CASE("at 800x600 Follow keeps a knocked figure clear of the Inspector, which the visibility check counts",
          "[editor][e2e][view]") {
    RigCopy copy("paper_doll.rig.xml");
    const fs::path script = scriptInto(copy.dir, "knocked_under_inspector.script");
    test::ProcessResult r = test::runProcess(
        {kEditor, "--window", "800x600", "--rig", copy.rig.string(), "--script", script.string()}, editorEnv());
    INFO(r.err);
    CHECK(r.exitCode == 0);
    CHECK(fs::exists(copy.dir / "knocked_800x600.png"));
}

TEST_CASE("at 800x600 a three-line status message keeps every panel above it and none behind another",
          "[editor][e2e][view]") {
    RigCopy copy("paper_doll.rig.xml");
    writeBrokenRig(copy);
    const fs::path script = scriptInto(copy.dir, "tall_status_least_window.script");
    test::ProcessResult r = test::runProcess(
        {kEditor, "--window", "800x600", "--rig", copy.rig.string(), "--script", script.string()}, editorEnv());
    INFO(r.err);
    CHECK(r.exitCode == 0);
}

TEST_CASE("a dialog is drawn in front of every panel, a refused Open and its last frame too", "[editor][e2e][view]") {
    RigCopy copy("paper_doll.rig.xml");
    writeBrokenRig(copy);
    const fs::path script = scriptInto(copy.dir, "dialog_on_top.script");
    // At 1280x720 the Tuning panel starts unfolded already: there the script's first click,
    // which unfolds it at 800x600, is left out (it would fold it).
    std::string wide = readText(script);
    const std::string unfold = "mouse move target widget fold:Tuning\nwait_frames 1\nmouse down left\nwait_frames 1\nmouse up left\n";
    REQUIRE(wide.find(unfold) != std::string::npos);
    wide.erase(wide.find(unfold), unfold.size());
    const fs::path wideScript = copy.dir / "dialog_on_top_1280x720.script";
    std::ofstream(wideScript) << wide;
    for (const auto& [window, path] : {std::pair{"800x600", script}, std::pair{"1280x720", wideScript}}) {
        test::ProcessResult r = test::runProcess(
            {kEditor, "--window", window, "--rig", copy.rig.string(), "--script", path.string()}, editorEnv());
        INFO(window << ": " << r.err);
        CHECK(r.exitCode == 0);
    }
}

TEST_CASE("after Open the Simulate panel plots the new rig's steps", "[editor][e2e][script]") {
    // A fresh panel state lost what the plugin flags for plotting until the next reload:
    // "the plugin flags no figure for plotting", and no plots, whatever was played.
    RigCopy copy;
    fs::copy_file(kContent / "rigs" / "paper_doll.rig.xml", copy.dir / "rigs" / "paper_doll.rig.xml");
    const fs::path script = copy.dir / "open.script";
    std::ofstream(script) << "expect plots 0\n"
                             "key down Left Ctrl\nkey press O\nwait_frames 1\nkey up Left Ctrl\nwait_frames 2\n"
                             "mouse move target widget open:paper_doll.rig.xml\nwait_frames 1\nmouse down left\n"
                             "wait_frames 1\nmouse up left\nwait_frames 1\nmouse move target widget open:open\n"
                             "wait_frames 1\nmouse down left\nwait_frames 1\nmouse up left\nwait_frames 2\n"
                             "expect status Opened\nexpect plots 0\n"
                             "key press .\nwait_frames 2\nkey press .\nwait_frames 2\nexpect plots 2\n";
    test::ProcessResult r = test::runProcess({kEditor, "--rig", copy.rig.string(), "--script", script.string()}, editorEnv());
    INFO(r.err);
    CHECK(r.exitCode == 0);
}

TEST_CASE("a failing expect still writes its frame's earlier screenshots, its error in the parse errors' form",
          "[editor][e2e][script]") {
    RigCopy copy;
    const fs::path script = copy.dir / "fails.script";
    const fs::path shot = copy.dir / "before.png";
    std::ofstream(script) << "screenshot " << shot.string() << "\nexpect joint elbow_L upper 90\n";
    test::ProcessResult r = test::runProcess({kEditor, "--rig", copy.rig.string(), "--script", script.string()}, editorEnv());
    CHECK(r.exitCode == 1);
    CHECK_THAT(r.err, Catch::Contains(script.string() + ":2: error: expect joint elbow_L upper 90") &&
                          Catch::Contains("it is 135"));
    CHECK(fs::exists(shot));
}
