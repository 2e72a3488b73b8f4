// Runs the real `paperdoll` executable as a user would.
#include <catch2/catch.hpp>

#include <stb_image.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "run_process.h"

namespace fs = std::filesystem;

namespace {

const std::string kPlayer = PAPERDOLL_PLAYER_EXE;
const std::string kHarness = std::string(PAPERDOLL_CONTENT_DIR) + "/levels/harness.level.xml";

nlohmann::json readJson(const std::string& path) {
    std::ifstream file(path);
    return nlohmann::json::parse(file);  // throws on invalid JSON, failing the test
}

}  // namespace

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
    CHECK(j["timing"]["wall_seconds"].get<double>() >= 0.0);
    CHECK_FALSE(fs::exists(stats + ".tmp"));
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

TEST_CASE("a windowed run saves a screenshot of the harness", "[player][display]") {
    std::string dir = test::makeTempDir();
    std::string png = dir + "/shot.png";
    test::ProcessResult r =
        test::runProcess({kPlayer, "--frames", "5", "--window", "640x360", "--screenshot", png, kHarness}, test::displayEnv());
    INFO(r.err);
    REQUIRE(r.exitCode == 0);
    int w = 0, h = 0, channels = 0;
    unsigned char* pixels = stbi_load(png.c_str(), &w, &h, &channels, 3);
    REQUIRE(pixels);
    CHECK(w == 640);
    CHECK(h == 360);
    // The picture shows paper background above (right of the HUD) and the dark ground below.
    auto isPaper = [](const unsigned char* p) { return std::abs(p[0] - 243) < 16 && std::abs(p[1] - 239) < 16 && std::abs(p[2] - 228) < 16; };
    auto isDark = [](const unsigned char* p) { return p[0] < 140 && p[1] < 140 && p[2] < 150; };
    int paperTop = 0, darkBottom = 0;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const unsigned char* p = pixels + 3 * (y * w + x);
            if (y < h / 3 && x > 2 * w / 3 && isPaper(p)) ++paperTop;
            if (y > 3 * h / 4 && isDark(p)) ++darkBottom;
        }
    stbi_image_free(pixels);
    CHECK(paperTop > (w / 3) * (h / 3) / 2);  // most of the top-right corner is background
    CHECK(darkBottom > w * h / 4 / 2);   // most of the bottom quarter is ground
    fs::remove_all(dir);
}
