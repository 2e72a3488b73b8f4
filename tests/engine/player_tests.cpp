// Runs the real `paperdoll` executable as a user would.
#include <catch2/catch.hpp>
#include <sys/stat.h>

#include <stb_image.h>
#include <stb_image_write.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <thread>
#include <vector>
#include <nlohmann/json.hpp>

#include "run_process.h"

namespace fs = std::filesystem;

namespace {

const std::string kPlayer = PAPERDOLL_PLAYER_EXE;
const std::string kHarness = std::string(PAPERDOLL_CONTENT_DIR) + "/levels/harness.level.xml";

std::string readBytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

nlohmann::json readJson(const std::string& path) {
    std::ifstream file(path);
    return nlohmann::json::parse(file);  // throws on invalid JSON, failing the test
}

/// The test plugin (tests/plugin/test_plugin.cpp), built beside the player (a dependency of
/// engine_tests): its one fake character walks, toggles and follows a left-button grab from
/// PaperInput, so a run shows what input reached the plugin.
const fs::path kTestPluginLibrary = fs::path(kPlayer).parent_path().parent_path() / "test_plugins" / "libtest_plugin_v1.so";

/// A folder with test.plugin and its library, and a script, for `--plugin` runs.
struct ScriptRun {
    std::string dir = test::makeTempDir();
    std::string plugin = dir + "/test.plugin";
    std::string script = dir + "/run.script";
    std::string stats = dir + "/s.json";

    ScriptRun() {
        INFO("build test_plugin_v1 (a dependency of plugin_tests) first: " << kTestPluginLibrary.string());
        REQUIRE(fs::exists(kTestPluginLibrary));
        fs::copy_file(kTestPluginLibrary, dir + "/libtest.so");
        std::ofstream(plugin) << "<plugin name=\"test\" version=\"1.0\" abi_version=\"2\" library=\"test\"/>\n";
    }
    ~ScriptRun() { fs::remove_all(dir); }

    test::ProcessResult run(const std::string& text, std::vector<std::string> extra = {}) {
        std::ofstream(script, std::ios::trunc) << text;
        std::vector<std::string> argv = {kPlayer, "--headless", kHarness, "--plugin", plugin, "--script", script,
                                         "--stats-json", stats, "--no-auto-reload"};
        argv.insert(argv.end(), extra.begin(), extra.end());
        return test::runProcess(argv);
    }
};

}  // namespace

TEST_CASE("stats-json's plugin object has the same keys with --no-plugin", "[player]") {
    // It had 4 of the 10 (no file, rollbacks, last_error, watch…): a reader needed two shapes.
    std::string dir = test::makeTempDir();
    nlohmann::json with, without;
    for (bool plugin : {true, false}) {
        std::vector<std::string> argv = {kPlayer, "--headless", "--frames", "2", kHarness, "--stats-json", dir + "/s.json"};
        if (!plugin) argv.push_back("--no-plugin");
        test::ProcessResult r = test::runProcess(argv);
        REQUIRE(r.exitCode == 0);
        (plugin ? with : without) = readJson(dir + "/s.json")["plugin"];
    }
    REQUIRE(with.size() == 10);
    for (const auto& [key, value] : with.items()) CHECK(without.contains(key));
    CHECK(without.size() == with.size());
    CHECK(without["loaded"] == false);
    CHECK(without["watch"] == "off");
    fs::remove_all(dir);
}

TEST_CASE("a headless run of the harness writes a valid stats JSON", "[player]") {
    std::string dir = test::makeTempDir();
    std::string stats = dir + "/s.json";
    test::ProcessResult r = test::runProcess({kPlayer, "--headless", "--frames", "120", kHarness, "--stats-json", stats});
    INFO(r.err);
    REQUIRE(r.exitCode == 0);
    CHECK_THAT(r.err, !Catch::Contains("error"));
    CHECK_THAT(r.err, Catch::Contains("plugin: loaded ragdoll"));
    nlohmann::json j = readJson(stats);
    CHECK(j["frames"] == 120);
    CHECK(j["mode"] == "headless");
    CHECK(j["simulated_seconds"].get<double>() == Approx(2.0));
    CHECK(j["level"]["name"] == "harness");
    CHECK(j["level"]["terrain"].get<int>() > 3);
    REQUIRE(j.contains("plugin"));
    for (const char* key : {"name", "version", "reloads"}) CHECK(j["plugin"].contains(key));
    CHECK(j["physics"].is_object());
    // The ragdoll plugin's part, as tools and tests read it: every key it has always had.
    const nlohmann::json& physics = j["physics"];
    for (const char* key : {"bodies", "joints", "contacts", "awake_bodies", "max_stretch_m", "max_limit_violation_deg",
                            "run_max_stretch_m", "run_max_limit_violation_deg", "max_visual_depth_m",
                            "run_max_visual_depth_m", "step_ms", "characters", "props"})
        CHECK(physics.contains(key));
    CHECK(physics["bodies"].is_number_integer());
    // The last step by stage: each there, and together the whole step.
    double stages = 0.0;
    for (const char* key : {"step_collide_ms", "step_integrate_ms", "step_body_contacts_ms", "step_joint_trees_ms",
                            "step_tree_contacts_ms", "step_velocities_ms", "step_finish_ms", "step_characters_ms"}) {
        INFO(key);
        REQUIRE(physics.contains(key));
        CHECK(physics[key].get<double>() >= 0.0);
        stages += physics[key].get<double>();
    }
    CHECK(stages == Approx(physics["step_ms"].get<double>()).epsilon(1e-9).margin(1e-12));
    REQUIRE(physics["characters"].size() == 1);
    for (const char* key : {"name", "mode", "net_role", "clip", "blend_weight", "position", "bodies"})
        CHECK(physics["characters"][0].contains(key));
    CHECK(physics["characters"][0]["position"].size() == 2);
    REQUIRE_FALSE(physics["props"].empty());
    for (const char* key : {"name", "position", "angle", "awake"}) CHECK(physics["props"][0].contains(key));
    CHECK(physics["props"][0]["awake"].is_boolean());
    CHECK(j["timing"]["wall_seconds"].get<double>() >= 0.0);
    CHECK_FALSE(fs::exists(stats + ".tmp"));
    fs::remove_all(dir);
}

TEST_CASE("the player plays the puppet, a rig naming no clips, and reports the props and the drawn depth", "[player]") {
    // Standing 1 s, knocked over by a hit from the left, lying 3 s, getting up.
    std::string dir = test::makeTempDir();
    std::string script = dir + "/puppet.script", stats = dir + "/s.json";
    std::ofstream(script) << "wait 1\nkey press 1\nwait 3\nkey press G\nwait 1\n";
    test::ProcessResult r = test::runProcess({kPlayer, "--headless", std::string(PAPERDOLL_CONTENT_DIR) + "/levels/puppet.level.xml",
                                              "--script", script, "--stats-json", stats});
    INFO(r.err);
    REQUIRE(r.exitCode == 0);
    const nlohmann::json physics = readJson(stats)["physics"];
    REQUIRE(physics["characters"].size() == 1);
    CHECK(physics["characters"][0]["name"] == "puppet");
    CHECK(physics["characters"][0]["mode"] == "animated");  // up again
    CHECK(physics["characters"][0]["bodies"] == 12);          // the bodies following its bones
    REQUIRE(physics["props"].size() == 1);
    CHECK(physics["props"][0]["name"] == "crate");  // named in the level
    // The fall and the get-up keep the drawn figure within 2 cm of the ground's surface.
    CHECK(physics["run_max_visual_depth_m"].get<double>() >= 0.0);
    CHECK(physics["run_max_visual_depth_m"].get<double>() <= 0.02);
    fs::remove_all(dir);
}

TEST_CASE("the view follows the figure the keys drive, until a pan takes it elsewhere and Home brings it back",
          "[player][camera]") {
    // A hit from the right throws the stickman (spawned at x = 1 m) off the left of the level's
    // view (x from -0.15 m in 1280x720): the player's own character was nowhere to be seen.
    const std::string level = std::string(PAPERDOLL_CONTENT_DIR) + "/levels/stickman.level.xml";
    const std::string dir = test::makeTempDir(), script = dir + "/run.script", stats = dir + "/s.json";
    struct Seen {
        double feet, left, right;  // metres: where the feet lie, and the view's edges
        bool following;
    };
    auto play = [&](const std::string& text) {
        std::ofstream(script, std::ios::trunc) << text;
        test::ProcessResult r = test::runProcess({kPlayer, "--headless", level, "--script", script, "--stats-json", stats});
        INFO(r.err);
        REQUIRE(r.exitCode == 0);
        const nlohmann::json j = readJson(stats);
        const nlohmann::json& view = j["view"];
        const double centre = view["center"][0].get<double>(), width = view["width_m"].get<double>();
        CHECK(view["height_m"].get<double>() == Approx(8.5));  // the level's; Follow never zooms
        return Seen{j["physics"]["characters"][0]["position"][0].get<double>(), centre - 0.5 * width, centre + 0.5 * width,
                    view["following"].get<bool>()};
    };
    const std::string knockedOver = "wait 0.5\nkey press 2\nwait 3\n";
    // A right drag of 300 px to the left before the hit: the view moves 3.54 m right, away
    // from where the figure lands.
    const std::string panned = "mouse move screen 640 360\nwait_frames 1\nmouse down right\nmouse move screen 340 360\n"
                               "wait_frames 1\nmouse up right\n" + knockedOver;

    const Seen start = play("wait_frames 1\n");
    CHECK(start.following);
    CHECK(start.feet > start.left + 0.1 * (start.right - start.left));

    const Seen followed = play(knockedOver);
    CAPTURE(followed.feet, followed.left, followed.right);
    CHECK(followed.following);
    CHECK(followed.feet < -0.15);  // beyond the level's view: it would be out of the picture
    CHECK(followed.feet > followed.left + 0.1 * (followed.right - followed.left));  // a tenth clear of the edge

    // The left button is the plugin's grab: a view moving under a held cursor would pull what
    // it holds after it. Held (over nothing) through the hit, the view stays where it was.
    const Seen held = play("mouse move screen 640 360\nwait_frames 1\nmouse down left\n" + knockedOver);
    CAPTURE(held.feet, held.left, held.right);
    CHECK(held.following);
    CHECK(held.left == Approx(start.left).margin(0.01));
    CHECK(held.feet < held.left);

    const Seen elsewhere = play(panned);
    CAPTURE(elsewhere.feet, elsewhere.left, elsewhere.right);
    CHECK_FALSE(elsewhere.following);
    CHECK(elsewhere.left == Approx(start.left + 300.0 * 8.5 / 720.0).margin(0.01));  // where the drag left it
    CHECK(elsewhere.feet < elsewhere.left);

    const Seen home = play(panned + "key press Home\nwait_frames 1\n");
    CAPTURE(home.feet, home.left, home.right);
    CHECK(home.following);
    CHECK(home.feet > home.left + 0.1 * (home.right - home.left));
    fs::remove_all(dir);
}

TEST_CASE("what a rig or clip ignores is a warning in the player's log, naming the file and line", "[player]") {
    // The stickman, its clips beside it as shipped, on a flat level; an attribute the idle
    // clip's loader does not know, and one in the rig's first body.
    const fs::path dir = test::makeTempDir();
    const fs::path content = PAPERDOLL_CONTENT_DIR;
    fs::create_directories(dir / "rigs");
    fs::copy(content / "anims", dir / "anims", fs::copy_options::recursive);
    auto patch = [](const fs::path& path, const std::string& from, const std::string& to) {
        std::ifstream in(path);
        std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
        text.replace(text.find(from), from.size(), to);
        std::ofstream(path, std::ios::trunc) << text;
    };
    fs::copy_file(content / "rigs" / "stickman.rig.xml", dir / "rigs" / "stickman.rig.xml");
    patch(dir / "rigs" / "stickman.rig.xml", "<body bone=", "<body tint=\"red\" bone=");
    patch(dir / "anims" / "idle.anim.xml", "<clip name=", "<clip speed=\"2\" name=");
    const fs::path level = dir / "flat.level.xml";
    std::ofstream(level) << "<level name=\"flat\" format=\"1\" units=\"m\" scale=\"1\">\n"
                            "  <box x=\"0\" y=\"-0.5\" width=\"20\" height=\"1\"/>\n"
                            "  <spawn name=\"p\" asset=\"rigs/stickman.rig.xml\" x=\"0\" y=\"0\"/>\n</level>\n";
    test::ProcessResult r = test::runProcess({kPlayer, "--headless", level.string(), "--frames", "2"});
    INFO(r.err);
    CHECK(r.exitCode == 0);
    CHECK_THAT(r.err, Catch::Contains("stickman.rig.xml:31: warning: body: unknown attribute 'tint' ignored") &&
                          Catch::Contains("idle.anim.xml:4: warning: clip: unknown attribute 'speed' ignored"));
    // Each line says "warning" once, and starts with FILE:LINE: the log's own label and time
    // give way to the diagnostic's.
    CHECK_THAT(r.err, Catch::Contains("\n" + (dir / "anims" / "idle.anim.xml").string() + ":4: warning: clip:"));
    CHECK(r.err.find("] warning: ") == std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("the plugin's warnings about where a level places things name the level file and line", "[player]") {
    // A crate pasted into another, one past the solver's world, a spawn sunk into the ground.
    const fs::path dir = test::makeTempDir();
    const fs::path level = dir / "place.level.xml";
    std::ofstream(level) << "<level name=\"place\" format=\"1\" units=\"m\" scale=\"1\">\n"
                            "  <box x=\"0\" y=\"-0.5\" width=\"40\" height=\"1\"/>\n"
                            "  <spawn name=\"hero\" asset=\"" + std::string(PAPERDOLL_CONTENT_DIR) +
                                "/rigs/stickman.rig.xml\" x=\"0\" y=\"-0.6\"/>\n"
                            "  <prop name=\"stacked\" shape=\"box\" x=\"5\" y=\"0.3\" width=\"0.6\" height=\"0.6\" mass=\"10\"/>\n"
                            "  <prop name=\"copy\" shape=\"box\" x=\"5.2\" y=\"0.3\" width=\"0.6\" height=\"0.6\" mass=\"10\"/>\n"
                            "  <prop name=\"far\" shape=\"box\" x=\"2000\" y=\"0.3\" width=\"0.6\" height=\"0.6\" mass=\"10\"/>\n"
                            "</level>\n";
    test::ProcessResult r = test::runProcess({kPlayer, "--headless", level.string(), "--frames", "2"});
    INFO(r.err);
    CHECK(r.exitCode == 0);
    // Each at the start of its line, as a compiler prints them (they were logged after the
    // program's name and a time), and in line order (found check by check, they were not).
    const std::string at = "\n" + level.string();
    CHECK_THAT(r.err, Catch::Contains(at + ":3: warning: spawn 'hero' at (0, -0.6) m has its feet 0.6 m inside the terrain") &&
                          Catch::Contains(at + ":5: warning: prop 'copy' is placed 0.4 m into prop 'stacked'") &&
                          Catch::Contains(at + ":6: warning: prop 'far' at (2000, 0.3) m is beyond the solver's world"));
    CHECK(r.err.find(at + ":3:") < r.err.find(at + ":5:"));
    CHECK(r.err.find(at + ":5:") < r.err.find(at + ":6:"));
    fs::remove_all(dir);
}

TEST_CASE("a rigs folder linked into a project keeps finding its clips beside the folder it links to", "[player]") {
    // project/rigs -> content/rigs: "rigs/../anims" is content/anims to the system, and was
    // "anims" beside the link when shortened as text (the level refused: no clips).
    const fs::path dir = test::makeTempDir();
    fs::create_directory_symlink(fs::path(PAPERDOLL_CONTENT_DIR) / "rigs", dir / "rigs");
    fs::create_directory(dir / "levels");
    std::ofstream(dir / "levels" / "linked.level.xml")
        << "<level name=\"linked\" format=\"1\" units=\"m\" scale=\"1\">\n"
           "  <box x=\"0\" y=\"-0.5\" width=\"20\" height=\"1\"/>\n"
           "  <spawn name=\"p\" asset=\"../rigs/stickman.rig.xml\" x=\"0\" y=\"0\"/>\n</level>\n";
    test::ProcessResult r =
        test::runProcess({kPlayer, "--headless", (dir / "levels" / "linked.level.xml").string(), "--frames", "2"});
    INFO(r.err);
    CHECK(r.exitCode == 0);
    CHECK(r.err.find("error") == std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("the player's --asset plays a file of the user's in the level's first spawn, and a rig given as the level says how", "[player]") {
    // A rig just tuned or imported could be checked in the player only through a level made
    // for it: given where the level goes it was refused as a level, with no way out said.
    std::string dir = test::makeTempDir();
    std::string stats = dir + "/s.json";
    const std::string stickman = std::string(PAPERDOLL_CONTENT_DIR) + "/rigs/stickman.rig.xml";
    test::ProcessResult r = test::runProcess({kPlayer, "--headless", "--frames", "30", "--asset", stickman, "--stats-json", stats});
    INFO(r.err);
    REQUIRE(r.exitCode == 0);
    nlohmann::json json = readJson(stats);
    CHECK(json["level"]["name"] == "harness");
    CHECK(json["physics"]["characters"][0]["bodies"] == 10);  // the harness's own paper doll has 12

    r = test::runProcess({kPlayer, "--headless", "--frames", "1", stickman});
    CHECK(r.exitCode == 1);
    CHECK_THAT(r.err, Catch::Contains(stickman + ":6: error: root element is <rig>, expected <level>\n"
                                      "paperdoll: hint: '" + stickman + "' is a <rig> file, not a level; `paperdoll --asset " +
                                      stickman + "` puts it in the default level's first spawn\n"));
    r = test::runProcess({kPlayer, "--headless", "--frames", "1", "--asset", dir});
    CHECK(r.exitCode == 1);
    CHECK_THAT(r.err, Catch::Contains("paperdoll: error: cannot open '" + dir +
                                      "': it is a directory, not a file (--asset names the file the first spawn plays)"));
    fs::remove_all(dir);
}

TEST_CASE("the player finds the harness by itself from any directory", "[player]") {
    std::string dir = test::makeTempDir();
    std::string stats = dir + "/s.json";
    // Working directory is the test's build folder: the content is found from the executable.
    test::ProcessResult r = test::runProcess({kPlayer, "--headless", "--frames", "1", "--stats-json", stats});
    INFO(r.err);
    REQUIRE(r.exitCode == 0);
    CHECK(readJson(stats)["level"]["name"] == "harness");
    fs::remove_all(dir);
}

TEST_CASE("the stats file is written through a symbolic link and into a pipe, replacing neither", "[player]") {
    // Written beside the name and renamed over it, a link became a file (its target kept
    // the old stats) and a pipe a file nobody read; run as root, /dev/full was replaced.
    std::string dir = test::makeTempDir();
    const std::string target = dir + "/target.json", link = dir + "/link.json";
    std::ofstream(target) << "{}\n";
    fs::create_symlink("target.json", link);
    test::ProcessResult r = test::runProcess({kPlayer, "--headless", "--frames", "1", "--stats-json", link});
    INFO(r.err);
    REQUIRE(r.exitCode == 0);
    CHECK(fs::is_symlink(fs::symlink_status(link)));
    CHECK(readJson(target)["frames"] == 1);
    CHECK_FALSE(fs::exists(target + ".tmp"));

    const std::string fifo = dir + "/fifo";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    std::string read;
    std::thread reader([&] {
        std::ifstream in(fifo);
        read.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    });
    r = test::runProcess({kPlayer, "--headless", "--frames", "1", "--stats-json", fifo});
    reader.join();
    CHECK(r.exitCode == 0);
    CHECK(fs::is_fifo(fs::status(fifo)));
    CHECK(nlohmann::json::parse(read)["frames"] == 1);
    fs::remove_all(dir);
}

TEST_CASE("a malformed level exits non-zero with FILE:LINE: error:", "[player]") {
    std::string dir = test::makeTempDir();
    std::string level = dir + "/broken.level.xml";
    std::ofstream(level) << "<?xml version=\"1.0\"?>\n<level name=\"x\" format=\"1\">\n  <box x=\"0\" y=\"0\" width=\"oops\" height=\"1\"/>\n</level>\n";
    test::ProcessResult r = test::runProcess({kPlayer, "--headless", "--frames", "10", level, "--stats-json", dir + "/s.json"});
    CHECK(r.exitCode == 1);
    CHECK_THAT(r.err, Catch::StartsWith(level + ":3: error: "));
    CHECK_THAT(r.err, Catch::Contains("width"));
    CHECK_FALSE(fs::exists(dir + "/s.json"));  // nothing pretends to have run

    std::ofstream(level, std::ios::trunc) << "<level name=\"x\" format=\"1\">\n<box x=\"0\"\n";  // cut off
    r = test::runProcess({kPlayer, "--headless", "--frames", "10", level});
    CHECK(r.exitCode == 1);
    // FILE:LINE: error: with whatever line the parser stopped at.
    REQUIRE_THAT(r.err, Catch::StartsWith(level + ":"));
    size_t digits = level.size() + 1, end = r.err.find(": error: ", digits);
    REQUIRE(end != std::string::npos);
    CHECK(end > digits);
    CHECK(r.err.substr(digits, end - digits).find_first_not_of("0123456789") == std::string::npos);

    r = test::runProcess({kPlayer, "--headless", "--frames", "10", dir + "/missing.level.xml"});
    CHECK(r.exitCode == 1);
    CHECK_THAT(r.err, Catch::Contains("missing.level.xml"));
    fs::remove_all(dir);
}

TEST_CASE("bad command lines exit 2 and --help exits 0", "[player]") {
    test::ProcessResult r = test::runProcess({kPlayer, "--bogus"});
    CHECK(r.exitCode == 2);
    CHECK(r.err == "paperdoll: error: unknown option '--bogus' (see paperdoll --help)\n");
    r = test::runProcess({kPlayer, "--help"});
    CHECK(r.exitCode == 0);
    CHECK_THAT(r.out, Catch::Contains("--stats-json"));
    // The plugins' commands, read from the plugins found (the engine knows none itself).
    CHECK_THAT(r.out, Catch::Contains("\nPlugin 'ragdoll' adds `paperdoll rig ...`: `paperdoll rig --help` gives its usage.\n"));
    r = test::runProcess({kPlayer, "--headless"});
    CHECK(r.exitCode == 2);
}

TEST_CASE("realtime mode paces a headless run at 60 steps per second", "[player]") {
    auto start = std::chrono::steady_clock::now();
    test::ProcessResult r = test::runProcess({kPlayer, "--headless", "--frames", "30", "--realtime", kHarness});
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    REQUIRE(r.exitCode == 0);
    CHECK(seconds >= 0.49);  // 30 steps of 1/60 s; a lower bound only, so machine load cannot fail it
}

TEST_CASE("a plugin's image is drawn where its quad is, premultiplied (no colour bleeds from a clear texel), and its silhouette",
          "[player][display][image]") {
    ScriptRun run;  // the test plugin draws its first spawn's PNG as a 1 m square at the spawn
    // Four quarters of 2 × 2 texels (so a quarter's middle filters only its own colour). Top:
    // opaque red, then clear green (a colour no pixel should show); bottom: opaque blue, then
    // white at half opacity.
    const unsigned char quarters[4][4] = {{255, 0, 0, 255}, {0, 255, 0, 0}, {0, 0, 255, 255}, {255, 255, 255, 128}};
    unsigned char texels[64];
    for (int y = 0; y < 4; ++y)
        for (int x = 0; x < 4; ++x)
            for (int c = 0; c < 4; ++c) texels[(y * 4 + x) * 4 + c] = quarters[(y / 2) * 2 + x / 2][c];
    const std::string image = run.dir + "/art.png", level = run.dir + "/image.level.xml", png = run.dir + "/shot.png";
    REQUIRE(stbi_write_png(image.c_str(), 4, 4, 4, texels, 16));
    // 800 px for 4 m: 200 px a metre; the square spans x 400..600, y 200..400 in the picture,
    // its silhouette y 500..700.
    std::ofstream(level) << "<level name=\"image\" format=\"1\">\n  <camera x=\"0\" y=\"0\" height=\"4\"/>\n"
                            "  <box x=\"0\" y=\"-9\" width=\"1\" height=\"1\"/>\n"
                            "  <spawn name=\"art\" asset=\"art.png\" x=\"0\" y=\"0\"/>\n</level>\n";
    test::ProcessResult r = test::runProcess(
        {kPlayer, level, "--plugin", run.plugin, "--frames", "2", "--window", "800x800", "--screenshot", png}, test::displayEnv());
    INFO(r.err);
    REQUIRE(r.exitCode == 0);
    int w = 0, h = 0, channels = 0;
    unsigned char* pixels = stbi_load(png.c_str(), &w, &h, &channels, 3);
    REQUIRE(pixels);
    REQUIRE((w == 800 && h == 800));
    auto near = [&](int x, int y, int red, int green, int blue, int tolerance) {
        const unsigned char* p = pixels + (size_t(y) * size_t(w) + size_t(x)) * 3;
        INFO("pixel (" << x << ", " << y << ") is " << int(p[0]) << " " << int(p[1]) << " " << int(p[2]));
        CHECK(std::abs(p[0] - red) <= tolerance);
        CHECK(std::abs(p[1] - green) <= tolerance);
        CHECK(std::abs(p[2] - blue) <= tolerance);
    };
    // Mixed in linear light (the window's framebuffer is sRGB): the paper (243, 239, 228) is
    // (0.896, 0.863, 0.776) linear.
    near(450, 250, 255, 0, 0, 2);    // the red quarter's middle
    near(550, 250, 243, 239, 228, 2);  // the clear quarter: the paper behind, untinted
    near(450, 350, 0, 0, 255, 2);    // blue
    near(550, 350, 249, 247, 242, 3);  // white at 128/255 over the paper: 0.502 + 0.498 × paper
    // Where red meets the clear quarter, filtering mixes them: half red over the paper,
    // (0.5 + 0.5 × 0.896, 0.5 × 0.863, 0.5 × 0.776) linear (premultiplied: straight alpha
    // would mix in the clear texel's green; blended in sRGB numbers it would read 249 119 114).
    near(500, 250, 249, 176, 167, 8);
    // The silhouette: black as opaque as each texel.
    near(450, 550, 0, 0, 0, 2);
    near(550, 550, 243, 239, 228, 2);
    near(450, 650, 0, 0, 0, 2);
    near(550, 650, 178, 175, 167, 3);  // 0.498 × paper: half black over it (121 119 114 in sRGB numbers)
    stbi_image_free(pixels);

    // A spawn naming an image that is not a PNG: the plugin's load refuses the level with the
    // engine's reason, naming the file.
    std::ofstream(image, std::ios::trunc) << "not a picture";
    r = test::runProcess({kPlayer, "--headless", level, "--plugin", run.plugin, "--frames", "1"});
    CHECK(r.exitCode == 1);
    CHECK_THAT(r.err, Catch::Contains("image '" + image + "': not a PNG file"));
    // Said once, by the host's log; the player's last line points to it.
    const std::string reason = "not a PNG file";
    CHECK(r.err.find(reason) == r.err.rfind(reason));
    CHECK_THAT(r.err, Catch::Contains("cannot run the level " + level + " (the error above says why)"));
}

TEST_CASE("a rig's weighted mesh is drawn where its weights put it", "[player][display][mesh]") {
    // Two bones along +x at 1 m (resting 5 cm over the ground once the feet are put down),
    // a red mesh from x 0.25 to 0.75 and 0.1 to 0.3 above them, its middle vertices weighted
    // half on each bone. 800 px for 1 m, centred on (0.5, 0.25): the mesh spans x 200..600,
    // y 320..480 in the picture.
    std::string dir = test::makeTempDir();
    const unsigned char red[16] = {220, 20, 20, 255, 220, 20, 20, 255, 220, 20, 20, 255, 220, 20, 20, 255};
    REQUIRE(stbi_write_png((dir + "/red.png").c_str(), 2, 2, 4, red, 8));
    std::ofstream(dir + "/cuff.rig.xml") << R"(<rig name="cuff" format="1" units="m">
  <image name="red" file="red.png"/>
  <bone name="upper" x="0" y="1" angle="0" length="0.5"/>
  <bone name="lower" parent="upper" length="0.5"/>
  <body bone="upper" mass="2" radius="0.05"/>
  <body bone="lower" mass="1" radius="0.05"/>
  <joint parent="upper" child="lower" lower="-120" upper="120"/>
  <mesh image="red">
    <vertex u="0" v="0"> <weight bone="upper" x="0.25" y="0.3"/> </vertex>
    <vertex u="0" v="2"> <weight bone="upper" x="0.25" y="0.1"/> </vertex>
    <vertex u="1" v="0"> <weight bone="upper" x="0.5" y="0.3" w="0.5"/> <weight bone="lower" x="0" y="0.3" w="0.5"/> </vertex>
    <vertex u="1" v="2"> <weight bone="upper" x="0.5" y="0.1" w="0.5"/> <weight bone="lower" x="0" y="0.1" w="0.5"/> </vertex>
    <vertex u="2" v="0"> <weight bone="lower" x="0.25" y="0.3"/> </vertex>
    <vertex u="2" v="2"> <weight bone="lower" x="0.25" y="0.1"/> </vertex>
    <triangles>0 1 3  3 2 0  2 3 5  5 4 2</triangles>
  </mesh>
</rig>
)";
    std::ofstream(dir + "/cuff.level.xml") << R"(<level name="cuff" format="1" units="m" scale="1">
  <camera x="0.5" y="0.25" height="1"/>
  <box x="0" y="-0.5" width="10" height="1"/>
  <spawn name="cuff" asset="cuff.rig.xml" x="0" y="0" facing="right"/>
</level>
)";
    const std::string png = dir + "/shot.png";
    test::ProcessResult r = test::runProcess(
        {kPlayer, dir + "/cuff.level.xml", "--frames", "2", "--window", "800x800", "--screenshot", png}, test::displayEnv());
    INFO(r.err);
    REQUIRE(r.exitCode == 0);
    int w = 0, h = 0, channels = 0;
    unsigned char* pixels = stbi_load(png.c_str(), &w, &h, &channels, 3);
    REQUIRE(pixels);
    auto isRed = [&](int x, int y) {
        const unsigned char* p = pixels + (size_t(y) * size_t(w) + size_t(x)) * 3;
        INFO("pixel (" << x << ", " << y << ") is " << int(p[0]) << " " << int(p[1]) << " " << int(p[2]));
        return std::abs(p[0] - 220) <= 3 && std::abs(p[1] - 20) <= 3 && std::abs(p[2] - 20) <= 3;
    };
    CHECK(isRed(400, 400));  // across the joint, where the half-and-half vertices are
    CHECK(isRed(210, 330));  // near the shoulder-side corner (0.2625, 0.3375)
    CHECK(isRed(590, 470));  // near the wrist-side corner (0.7375, 0.1625)
    CHECK_FALSE(isRed(400, 300));  // above it (y 0.375)
    CHECK_FALSE(isRed(190, 400));  // before it (x 0.2375)
    CHECK_FALSE(isRed(400, 500));  // under it (y 0.125)
    stbi_image_free(pixels);
    fs::remove_all(dir);
}

TEST_CASE("with no display a windowed run says so, and renders offscreen only when asked", "[player][display]") {
    // SDL would fall back to its offscreen driver by itself: a window nobody sees.
    test::ProcessResult r = test::runProcess({kPlayer, "--frames", "2"}, {"DISPLAY=", "WAYLAND_DISPLAY=", "SDL_VIDEODRIVER="});
    CHECK(r.exitCode == 1);
    CHECK_THAT(r.err, Catch::Contains("no display to open a window on") && Catch::Contains("--headless"));
    // A display named that does not answer (asked again a few times first): named.
    r = test::runProcess({kPlayer, "--frames", "2"}, {"DISPLAY=:987", "WAYLAND_DISPLAY=", "SDL_VIDEODRIVER="});
    CHECK(r.exitCode == 1);
    CHECK_THAT(r.err, Catch::Contains("no display to open a window on (DISPLAY=:987 did not answer)"));
    r = test::runProcess({kPlayer, "--frames", "2"},
                         {"DISPLAY=", "WAYLAND_DISPLAY=", "SDL_VIDEODRIVER=offscreen", "LSAN_OPTIONS=detect_leaks=0"});
    INFO(r.err);
    CHECK(r.exitCode == 0);
}

TEST_CASE("a windowed run saves a screenshot of the harness", "[player][display]") {
    // One frame: the HUD is in it (ImGui showed a window that fits its contents from its
    // second frame on, so a first frame's screenshot had none).
    std::string dir = test::makeTempDir();
    std::string png = dir + "/shot.png";
    test::ProcessResult r =
        test::runProcess({kPlayer, "--frames", "1", "--window", "640x480", "--screenshot", png, kHarness}, test::displayEnv());
    INFO(r.err);
    REQUIRE(r.exitCode == 0);
    int w = 0, h = 0, channels = 0;
    unsigned char* pixels = stbi_load(png.c_str(), &w, &h, &channels, 3);
    REQUIRE(pixels);
    CHECK(w == 640);
    CHECK(h == 480);
    // The picture shows paper background above (right of the HUD) and the dark ground below.
    auto isPaper = [](const unsigned char* p) { return std::abs(p[0] - 243) < 16 && std::abs(p[1] - 239) < 16 && std::abs(p[2] - 228) < 16; };
    auto isDark = [](const unsigned char* p) { return p[0] < 140 && p[1] < 140 && p[2] < 150; };
    int paperTop = 0, darkBottom = 0, hud = 0;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const unsigned char* p = pixels + 3 * (y * w + x);
            if (y < h / 3 && x > 2 * w / 3 && isPaper(p)) ++paperTop;
            if (y > 3 * h / 4 && isDark(p)) ++darkBottom;
            if (y >= 15 && y < 45 && x >= 15 && x < 115 && isDark(p)) ++hud;  // the HUD's top left, under its title
        }
    stbi_image_free(pixels);
    CHECK(paperTop > (w / 3) * (h / 3) / 2);  // most of the top-right corner is background
    CHECK(darkBottom > w * h / 4 / 2);   // most of the bottom quarter is ground
    CHECK(hud > 100 * 30 / 2);           // the HUD's dark panel
    fs::remove_all(dir);
}

TEST_CASE("the HUD fades while the figure the keys drive is under it", "[player][display]") {
    // 800x600: the HUD covers the top left down to about y = 315, the doll stands under it
    // and its jump takes its head and torso up behind it.
    const std::string dir = test::makeTempDir();
    const std::string standing = dir + "/standing.png", jumping = dir + "/jumping.png";
    const std::string script = dir + "/jump.script";
    std::ofstream(script) << "wait 0.5\nscreenshot " << standing << "\nkey press Space\nwait 0.3\nscreenshot " << jumping
                          << "\n";
    test::ProcessResult r =
        test::runProcess({kPlayer, "--window", "800x600", "--script", script, kHarness}, test::displayEnv());
    INFO(r.err);
    REQUIRE(r.exitCode == 0);
    // The mean brightness of a strip of the HUD's background right of its text (the paper
    // behind it is about 240, the HUD's dark grey about 75 at full opacity).
    auto hudBackground = [](const std::string& png) {
        int w = 0, h = 0, channels = 0;
        unsigned char* pixels = stbi_load(png.c_str(), &w, &h, &channels, 3);
        REQUIRE(pixels);
        double sum = 0.0;
        int count = 0;
        for (int y = 14; y < 36; ++y)
            for (int x = 300; x < 400; ++x, ++count) sum += pixels[3 * (y * w + x) + 1];
        stbi_image_free(pixels);
        return sum / count;
    };
    CHECK(hudBackground(standing) < 120.0);
    CHECK(hudBackground(jumping) > 170.0);
    fs::remove_all(dir);
}

TEST_CASE("a screenshot onto the art the run draws is refused and the art is left whole", "[player][display]") {
    // A copy of the content: the harness's paper doll draws art/paper_doll.png.
    const fs::path dir = test::makeTempDir();
    fs::copy(PAPERDOLL_CONTENT_DIR, dir / "content", fs::copy_options::recursive);
    const fs::path art = dir / "content" / "art" / "paper_doll.png";
    const std::string level = (dir / "content" / "levels" / "harness.level.xml").string();
    const std::string before = readBytes(art);
    const fs::path script = dir / "shot.script";
    std::ofstream(script) << "wait_frames 1\nscreenshot " << art.string() << "\n";
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"--screenshot", art.string()}, std::vector<std::string>{"--script", script.string()}}) {
        std::vector<std::string> argv = {kPlayer, "--frames", "2", "--window", "320x240", level};
        argv.insert(argv.end(), args.begin(), args.end());
        CAPTURE(args);
        test::ProcessResult r = test::runProcess(argv, test::displayEnv());
        INFO(r.err);
        CHECK(r.exitCode == 1);
        CHECK_THAT(r.err, Catch::Contains("'" + art.string() + "' is art this run draws (an image a plugin loaded): a screenshot would replace it"));
        CHECK(readBytes(art) == before);
    }
    fs::remove_all(dir);
}

TEST_CASE("a headless script drives the plugin through the keys of the actions it declares", "[player][script]") {
    ScriptRun run;
    test::ProcessResult r = run.run(
        "# walk right for 1 s, fall, cycle the role twice (once by name), raise the weight\n"
        "key down Right\n"
        "wait 1\n"
        "key up Right\n"
        "key press R\n"
        "key press Tab\n"
        "wait_frames 2\n"
        "action press role\n"
        "key press N\n"
        "wait 0.5\n");
    INFO(r.err);
    REQUIRE(r.exitCode == 0);
    nlohmann::json j = readJson(run.stats);
    CHECK(j["frames"] == 92);  // the script's end: 60 + 2 + 30 steps
    const nlohmann::json& physics = j["physics"];
    // The figures the plugin declares, by their names, integers as integers.
    CHECK(physics["edges"] == 5);  // the test plugin counts pressed edges: Right, R, Tab, Tab, N
    CHECK(physics["steps"].is_number_integer());
    CHECK(physics["steps"] == 92);
    CHECK(physics["max_stretch_m"].get<double>() == Approx(0.0005));
    CHECK(physics["max_limit_violation_deg"].get<double>() == Approx(0.25));
    // The harness's props, unnamed in the file, numbered in file order; as the plugin has them.
    REQUIRE(physics["props"].is_array());
    REQUIRE(physics["props"].size() == 4);
    CHECK(physics["props"][0]["name"] == "prop0");
    CHECK(physics["props"][3]["name"] == "prop3");
    CHECK(physics["props"][1]["position"][0].get<double>() == Approx(13.5));
    CHECK(physics["props"][1]["position"][1].get<double>() == Approx(0.3));
    CHECK(physics["props"][1]["angle"].get<double>() == Approx(0.0));
    CHECK(physics["props"][1]["awake"] == false);
    // Each kind of object with a stats key, with its properties but those kept out.
    REQUIRE(physics["walkers"].is_array());
    REQUIRE(physics["walkers"].size() == 1);
    const nlohmann::json& c = physics["walkers"][0];
    CHECK(c["name"] == "player");
    CHECK(c["mode"] == "fallen");
    CHECK(c["net_role"] == "follower");
    CHECK(c["clip"] == "");
    CHECK(c["weight"].get<double>() == Approx(0.25));
    CHECK(c["bodies"] == 11);
    CHECK_FALSE(c.contains("summary"));  // the HUD's line, not a figure
    REQUIRE(c["position"].size() == 2);
    CHECK(c["position"][0].get<double>() == Approx(2.0).epsilon(1e-5));  // spawn x = 1, walked 60 steps at 1 m/s
    CHECK(c["position"][1].get<double>() == Approx(0.0).margin(1e-6));
}

TEST_CASE("script mouse commands reach the plugin in world metres", "[player][script]") {
    ScriptRun run;
    // The harness camera is centred on (7.4, 2.4): the middle of the nominal 1280x720 view.
    test::ProcessResult r = run.run("mouse move screen 640 360\nmouse down left\nwait_frames 1\nmouse up left\n");
    INFO(r.err);
    REQUIRE(r.exitCode == 0);
    nlohmann::json c = readJson(run.stats)["physics"]["walkers"][0];
    CHECK(c["position"][0].get<double>() == Approx(7.4));
    CHECK(c["position"][1].get<double>() == Approx(2.4));

    r = run.run("mouse move world 3.25 -1.5\nmouse down left\n");
    REQUIRE(r.exitCode == 0);
    c = readJson(run.stats)["physics"]["walkers"][0];
    CHECK(c["position"][0].get<double>() == Approx(3.25));
    CHECK(c["position"][1].get<double>() == Approx(-1.5));

    // A right-button drag pans the camera (the world follows the mouse) and grabs nothing:
    // after dragging 120 px left, the pixel under the mouse is still world x 7.4. Without
    // the pan it would be 120 px / (720 px / 8.5 m) = 1.42 m further left.
    r = run.run("mouse move screen 640 360\nwait_frames 1\nmouse down right\nmouse move screen 520 360\n"
                "wait_frames 1\nmouse up right\nmouse down left\n");
    REQUIRE(r.exitCode == 0);
    c = readJson(run.stats)["physics"]["walkers"][0];
    CHECK(c["position"][0].get<double>() == Approx(7.4));
    CHECK(c["position"][1].get<double>() == Approx(2.4));
}

TEST_CASE("With a script, --frames runs exactly that many steps, quit ends the run at once", "[player][script]") {
    ScriptRun run;
    const char* walk = "key down Right\nwait 0.5\nkey up Right\n";
    test::ProcessResult r = run.run(walk, {"--frames", "90"});  // longer: idles after the script
    REQUIRE(r.exitCode == 0);
    nlohmann::json j = readJson(run.stats);
    CHECK(j["frames"] == 90);
    CHECK(j["physics"]["walkers"][0]["position"][0].get<double>() == Approx(1.5).epsilon(1e-5));
    CHECK(j["physics"]["walkers"][0]["clip"] == "idle");

    r = run.run(walk, {"--frames", "15"});  // shorter: the script is cut
    REQUIRE(r.exitCode == 0);
    j = readJson(run.stats);
    CHECK(j["frames"] == 15);
    CHECK(j["physics"]["walkers"][0]["position"][0].get<double>() == Approx(1.25).epsilon(1e-5));
    CHECK(j["physics"]["walkers"][0]["clip"] == "walk");

    r = run.run("key down Right\nwait_frames 12\nquit\nwait 5\n", {"--frames", "600"});
    REQUIRE(r.exitCode == 0);
    CHECK(readJson(run.stats)["frames"] == 12);
}

TEST_CASE("the player's plugin list names each plugin's actions, as a script presses them, beside their keys", "[player]") {
    test::ProcessResult r = test::runProcess({kPlayer, "--list-plugins"});
    CHECK(r.exitCode == 0);
    CHECK_THAT(r.out, Catch::Contains("  keys          Left walk left, Right walk right, Left Shift/Right Shift run, Space jump, R ragdoll,") &&
                          Catch::Contains("  actions       walk_left, walk_right, run, jump, toggle_ragdoll, hit_left,"));

    // The descriptor beside the player named with --plugin too: one plugin, listed once.
    const std::string beside = (fs::path(kPlayer).parent_path() / "plugins" / "ragdoll.plugin").string();
    r = test::runProcess({kPlayer, "--list-plugins", "--plugin", beside});
    CHECK(r.exitCode == 0);
    CHECK(r.out.starts_with("1 plugin found in: " + beside + " (--plugin), "));  // where it looked, --plugin's first
}

TEST_CASE("a script naming an action the plugin does not declare exits 2 with its line", "[player][script]") {
    ScriptRun run;
    test::ProcessResult r = run.run("wait 0.5\naction press toggle\naction press ragdoll\n");
    CHECK(r.exitCode == 2);
    CHECK_THAT(r.err, Catch::Contains(run.script + ":3: error: no action 'ragdoll': the plugin declares none by that name "
                                                   "(its actions: walk_left, walk_right, run, jump, toggle, "));
    CHECK_FALSE(fs::exists(run.stats));
}

TEST_CASE("a bad script exits 2 with FILE:LINE: error: and runs nothing", "[player][script]") {
    ScriptRun run;
    test::ProcessResult r = run.run("wait 0.5\nkey press Lefty\nwait 1e12\n");
    CHECK(r.exitCode == 2);
    CHECK(r.err == run.script + ":2: error: unknown key name 'Lefty' (SDL key names: Left, Right, Space, R, 1, Tab, "
                                "Left Shift, ...)\n" +
                       run.script + ":3: error: wait: 1e12 s is more than a day (86400 s); use --frames for long runs\n");
    CHECK(r.out.empty());
    CHECK_FALSE(fs::exists(run.stats));

    // Screenshots need a window: refused when the script is loaded, not when reached.
    r = run.run("wait 1\nkey press R\nscreenshot shot.png\n");
    CHECK(r.exitCode == 2);
    CHECK(r.err == run.script + ":3: error: screenshot needs a window; this run is --headless\n");
    CHECK_FALSE(fs::exists(run.stats));

    // In a window, a screenshot into a folder that is not there: refused before the run (it
    // was found when the picture was due, after the whole script had played).
    std::ofstream(run.script, std::ios::trunc) << "wait 1\nscreenshot " << run.dir << "/none/shot.png\nwait 30\n";
    r = test::runProcess({kPlayer, kHarness, "--plugin", run.plugin, "--script", run.script, "--stats-json", run.stats},
                         test::displayEnv(), 20.0);
    CHECK(r.exitCode == 2);
    CHECK(r.err == run.script + ":2: error: screenshot: cannot write '" + run.dir + "/none/shot.png': '" + run.dir +
                       "/none' does not exist (a screenshot's path is the working directory's)\n");
    CHECK_FALSE(fs::exists(run.stats));
}

TEST_CASE("A --script with a missing file, a directory or an empty file", "[player][script][cli]") {
    std::string dir = test::makeTempDir();
    std::string stats = dir + "/s.json";
    test::ProcessResult r =
        test::runProcess({kPlayer, "--headless", kHarness, "--no-plugin", "--script", dir + "/nope.script"});
    CHECK(r.exitCode == 2);
    CHECK(r.err == dir + "/nope.script: error: cannot read the script '" + dir +
                       "/nope.script': No such file or directory\n");

    r = test::runProcess({kPlayer, "--headless", kHarness, "--no-plugin", "--script", dir});
    CHECK(r.exitCode == 2);
    CHECK(r.err == dir + ": error: '" + dir + "' is a directory, not a script file\n");

    // An empty script asks for nothing: a wrong or truncated file, refused before any step.
    std::ofstream(dir + "/empty.script").flush();
    for (std::vector<std::string> frames : {std::vector<std::string>{}, std::vector<std::string>{"--frames", "7"}}) {
        std::vector<std::string> argv = {kPlayer, "--headless", kHarness, "--no-plugin", "--script",
                                         dir + "/empty.script", "--stats-json", stats};
        argv.insert(argv.end(), frames.begin(), frames.end());
        r = test::runProcess(argv);
        CHECK(r.exitCode == 2);
        CHECK(r.err == dir + "/empty.script: error: the script '" + dir +
                           "/empty.script' is empty: no commands, only blank lines or comments\n");
        CHECK_FALSE(fs::exists(stats));
    }

    r = test::runProcess({kPlayer, "--headless", kHarness, "--script"});
    CHECK(r.exitCode == 2);
    CHECK(r.err == "paperdoll: error: --script needs a file name\n");
    fs::remove_all(dir);
}

TEST_CASE("a windowed script takes its screenshots at their steps", "[player][script][display]") {
    ScriptRun run;
    std::string shot = run.dir + "/walked.png", last = run.dir + "/last.png";
    std::ofstream(run.script) << "key down Right\nwait_frames 3\nscreenshot " << shot << "\nkey up Right\nwait_frames 2\n";
    test::ProcessResult r = test::runProcess({kPlayer, kHarness, "--plugin", run.plugin, "--script", run.script,
                                              "--window", "320x180", "--screenshot", last, "--stats-json", run.stats},
                                             test::displayEnv());
    INFO(r.err);
    REQUIRE(r.exitCode == 0);
    nlohmann::json j = readJson(run.stats);
    CHECK(j["frames"] == 5);
    CHECK(j["mode"] == "window");
    int w = 0, h = 0, channels = 0;
    for (const std::string& png : {shot, last}) {
        unsigned char* pixels = stbi_load(png.c_str(), &w, &h, &channels, 3);
        CHECK(pixels);
        CHECK(w == 320);
        CHECK(h == 180);
        stbi_image_free(pixels);
    }
}

TEST_CASE("F1 hides the HUD and shows it again", "[player][script][display]") {
    ScriptRun run;
    const std::string shown = run.dir + "/shown.png", hidden = run.dir + "/hidden.png", again = run.dir + "/again.png";
    std::ofstream(run.script) << "wait_frames 2\nscreenshot " << shown << "\nkey press F1\nwait_frames 2\nscreenshot "
                              << hidden << "\nkey press F1\nwait_frames 2\nscreenshot " << again << "\n";
    auto play = [&](const char* window) {
        test::ProcessResult r = test::runProcess({kPlayer, kHarness, "--plugin", run.plugin, "--script", run.script,
                                                  "--window", window},
                                                 test::displayEnv());
        INFO(r.err);
        REQUIRE(r.exitCode == 0);
    };
    play("640x480");
    // The HUD's dark panel over the top-left corner, counted pixel by pixel.
    auto hudPixels = [](const std::string& png) {
        int w = 0, h = 0, channels = 0;
        unsigned char* pixels = stbi_load(png.c_str(), &w, &h, &channels, 3);
        REQUIRE(pixels);
        int count = 0;
        for (int y = 0; y < 120; ++y)
            for (int x = 0; x < 200; ++x) {
                const unsigned char* p = pixels + 3 * (y * w + x);
                count += p[0] < 100 && p[1] < 100 && p[2] < 100 ? 1 : 0;
            }
        stbi_image_free(pixels);
        return count;
    };
    CHECK(hudPixels(shown) > 200 * 120 / 2);
    CHECK(hudPixels(hidden) == 0);  // the level's paper and grid there
    CHECK(hudPixels(again) > 200 * 120 / 2);  // its text (the frame rate) moves a few pixels
    // Under 480 px tall the HUD would cover most of the view: hidden at start, F1 shows it.
    play("640x360");
    CHECK(hudPixels(shown) == 0);
    CHECK(hudPixels(hidden) > 200 * 120 / 2);
}

namespace {

/// The player's log lines holding `part`, without their "[   1.234 s] " time.
std::vector<std::string> logLinesWith(const std::string& err, const std::string& part) {
    std::vector<std::string> lines;
    std::istringstream in(err);
    for (std::string line; std::getline(in, line);) {
        if (line.find(part) == std::string::npos) continue;
        std::size_t time = line.find("s] ");
        lines.push_back(time == std::string::npos ? line : line.substr(time + 3));
    }
    return lines;
}

}  // namespace

TEST_CASE("F5 and auto-reload refuse a garbage or missing library the same way, headless", "[player][reload]") {
    for (const bool garbage : {true, false}) {
        ScriptRun run;
        CAPTURE(garbage);
        // Auto-reload sees the library replaced by garbage (or removed) a moment after the
        // player loaded it; the script's F5 comes 2 s later, once auto-reload has spoken.
        std::ofstream(run.script) << "wait 2.5\nkey press F5\nwait 0.5\n";
        std::string library = run.dir + "/libtest.so";
        std::string breakIt = garbage ? "yes 'not a library' | head -c 4096 > " + library + ".tmp && mv " + library + ".tmp " + library
                                      : "rm " + library;
        std::string log = run.dir + "/err.txt";
        std::string command = "'" + kPlayer + "' --headless --realtime '" + kHarness + "' --plugin '" + run.plugin +
                              "' --script '" + run.script + "' --stats-json '" + run.stats + "' 2> '" + log +
                              "' & pid=$!; until grep -qs 'plugin: loaded' '" + log + "'; do sleep 0.05; done; sleep 0.3; " +
                              breakIt + "; wait $pid; status=$?; cat '" + log + "' >&2; exit $status";
        test::ProcessResult r = test::runProcess({"/bin/sh", "-c", command}, {}, 120.0);
        INFO(r.err);
        CHECK(r.exitCode == 0);
        std::vector<std::string> refused = logLinesWith(r.err, "reload failed");
        REQUIRE(refused.size() == 2);  // auto-reload's, then F5's
        CHECK(refused[0] == refused[1]);
        CHECK_THAT(refused[0], Catch::StartsWith("error: plugin: reload failed, still running 1.0: "));
        CHECK_THAT(refused[0], Catch::Contains(library));
        CHECK_THAT(refused[0], Catch::Contains(garbage ? "is not an ELF shared library" : "No such file"));
        // What the HUD shows: the status's last error, the same words.
        nlohmann::json j = readJson(run.stats);
        CHECK("error: plugin: " + j["plugin"]["last_error"].get<std::string>() == refused[1]);
        CHECK(j["plugin"]["loaded"] == true);  // the old library keeps running
        CHECK(j["frames"] == 180);
    }
}
