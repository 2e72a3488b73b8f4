// The bounce plugin through the engine's generic paths: the player (--stats-json, scripts
// pressing declared actions) and PluginHost (objects, properties, commands, assets, reload).
// Levels and assets: tests/bounce_plugin/levels and assets (3 orange balls, 2 blue).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "paper/plugin_host.h"
#include "run_process.h"

namespace fs = std::filesystem;
using namespace paper;

namespace {

const std::string kSource = BOUNCE_SOURCE_DIR;
const std::string kLevel = kSource + "/levels/bounce.level.xml";
const std::string kOrange = kSource + "/assets/orange.bounce.xml";
constexpr int kBallsAtStart = 3 + 2;  // the counts in orange.bounce.xml and blue.bounce.xml
constexpr double kStep = 1.0 / 60.0;

std::string readFile(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream all;
    all << in.rdbuf();
    return all.str();
}

/// Runs the player on the bounce level; returns its --stats-json.
nlohmann::json runPlayer(const std::string& dir, const std::string& script = "") {
    std::vector<std::string> argv = {PAPERDOLL_PLAYER_EXE, "--plugin", BOUNCE_DESCRIPTOR, "--headless", "--frames", "60",
                                     "--stats-json", dir + "/s.json"};
    if (!script.empty()) {
        std::ofstream(dir + "/run.script") << script;
        argv.insert(argv.end(), {"--script", dir + "/run.script"});
    }
    argv.push_back(kLevel);
    test::ProcessResult r = test::runProcess(argv, {}, 60.0);
    INFO(r.out << r.err);
    REQUIRE(r.exitCode == 0);
    return nlohmann::json::parse(readFile(dir + "/s.json"));
}

/// A host running the bounce plugin on the bounce level.
struct Bounce {
    std::string dir = test::makeTempDir();
    std::vector<std::string> log;
    std::unique_ptr<PluginHost> host =
        std::make_unique<PluginHost>(fs::path(dir) / "copies", [this](PaperLogLevel, const std::string& m) { log.push_back(m); });

    explicit Bounce(const std::string& level = kLevel) {
        DescriptorResult d = loadPluginDescriptor(BOUNCE_DESCRIPTOR);
        REQUIRE(d.descriptor);
        REQUIRE(host->load(*d.descriptor));
        LevelLoadResult l = loadLevelFile(level);
        REQUIRE(l.level);
        REQUIRE(host->setLevel(*l.level));
    }
    ~Bounce() { fs::remove_all(dir); }

    int kind(const char* name) const { return host->declarations().kindNamed(name); }
    double stat(const char* name) {
        const auto& stats = host->declarations().stats;
        for (size_t i = 0; i < stats.size(); ++i)
            if (stats[i].name == name) return host->stats().at(i);
        FAIL("no stat " << name);
        return 0.0;
    }
    const PropertyValue& property(const char* kindName, std::uint64_t handle, const char* name) {
        kept = host->properties(kind(kindName), handle);
        const PropertyValue* p = findProperty(kept, name);
        REQUIRE(p);
        return *p;
    }
    void run(int steps) {
        for (int i = 0; i < steps; ++i) host->tick(kStep, PaperInput{});
    }
    std::vector<PropertyValue> kept;
};

}  // namespace

TEST_CASE("the player runs the bounce level and reports every ball above the ground", "[bounce]") {
    const std::string dir = test::makeTempDir();
    const nlohmann::json s = runPlayer(dir);
    CHECK(s["plugin"]["name"] == "bounce");
    const nlohmann::json& physics = s["physics"];
    CHECK(physics["ball_count"] == kBallsAtStart);
    REQUIRE(physics["balls"].size() == size_t(kBallsAtStart));
    CHECK(physics["emitters"].size() == 2);
    for (const nlohmann::json& ball : physics["balls"]) {
        INFO(ball.dump());
        const double y = ball["position"][1], radius = ball["radius"];
        CHECK(y - radius >= -0.001);  // the ground's top is y = 0
        CHECK(ball["shape"] == "circle");
    }
    CHECK(physics["lowest_ball_m"].get<double>() >= -0.001);
    fs::remove_all(dir);
}

TEST_CASE("a script's action press and key press each emit exactly one ball", "[bounce]") {
    const std::string dir = test::makeTempDir();
    CHECK(runPlayer(dir, "wait_frames 10\naction press spawn_ball\n")["physics"]["ball_count"] == kBallsAtStart + 1);
    CHECK(runPlayer(dir, "wait_frames 10\nkey press Space\n")["physics"]["ball_count"] == kBallsAtStart + 1);
    CHECK(runPlayer(dir, "wait_frames 5\nkey press Space\nwait_frames 5\naction press spawn_ball\n")["physics"]["ball_count"] ==
          kBallsAtStart + 2);
    fs::remove_all(dir);
}

TEST_CASE("the editor drags a paddle's limit with its joint gizmo and saves only that value", "[bounce]") {
    const std::string dir = test::makeTempDir();
    fs::copy(kSource + "/levels", dir + "/levels");
    fs::copy(kSource + "/assets", dir + "/assets");
    test::ProcessResult r = test::runProcess({PAPERDOLL_EDITOR_EXE, "--headless", "--plugin", BOUNCE_DESCRIPTOR, "--level",
                                              dir + "/levels/bounce.level.xml", "--script", kSource + "/editor_paddle.script"},
                                             test::displayEnv(), 120.0);
    INFO(r.out << r.err);
    REQUIRE(r.exitCode == 0);
    std::string expected = readFile(kOrange);
    expected.replace(expected.find("upper=\"45\""), 10, "upper=\"60\"");
    CHECK(readFile(dir + "/assets/orange.bounce.xml") == expected);
    fs::remove_all(dir);
}

TEST_CASE("the host lists bounce's kinds and objects and edits a paddle's limits", "[bounce]") {
    Bounce b;
    const PluginDeclarations& d = b.host->declarations();
    REQUIRE(d.kinds.size() == 4);
    CHECK(d.settingsKind() == b.kind("settings"));
    CHECK(d.actionNamed("spawn_ball") == 0);
    CHECK(d.assetTypeOf(kOrange) == 0);

    const std::vector<ObjectEntry> emitters = b.host->objects(b.kind("emitter"));
    REQUIRE(emitters.size() == 2);
    CHECK(emitters[0].name == "orange");
    const std::vector<ObjectEntry> balls = b.host->objects(b.kind("ball"));
    REQUIRE(balls.size() == size_t(kBallsAtStart));
    CHECK(balls[0].owner == 0);
    CHECK(balls[4].owner == 1);
    const std::vector<ObjectEntry> paddles = b.host->objects(b.kind("paddle"));
    REQUIRE(paddles.size() == 2);
    const std::uint64_t paddle = paddles[0].handle;
    CHECK(b.property("emitter", emitters[0].handle, "asset").text == kOrange);

    // The joint-limit convention: the orange paddle rests on its lower stop, -30°, from (-1.5, 2).
    CHECK(b.property("paddle", paddle, "lower").value == -30.0);
    CHECK(b.property("paddle", paddle, "angle").value == -30.0);
    CHECK(b.property("paddle", paddle, "parent_angle").value == 0.0);
    CHECK(b.property("paddle", paddle, "pivot").vector.x == Approx(-1.5));
    const Vec2 tip = b.property("paddle", paddle, "b").vector;
    CHECK(tip.x == Approx(-1.5 + 0.8 * std::cos(-30.0 * M_PI / 180.0)));
    CHECK(tip.y == Approx(2.0 + 0.8 * std::sin(-30.0 * M_PI / 180.0)));
    CHECK(b.property("paddle", paddle, "shape").text == "capsule");

    REQUIRE(b.host->setProperty(b.kind("paddle"), paddle, "upper", 60.0));
    CHECK(b.property("paddle", paddle, "upper").value == 60.0);
    CHECK_FALSE(b.host->setProperty(b.kind("paddle"), paddle, "lower", 61.0));  // above upper
    CHECK_FALSE(b.host->setProperty(b.kind("paddle"), paddle, "upper", -31.0));  // below lower
    CHECK_FALSE(b.host->setProperty(b.kind("paddle"), paddle, "angle", 10.0));   // read only
    CHECK(b.property("paddle", paddle, "lower").value == -30.0);
    CHECK(b.property("paddle", paddle, "upper").value == 60.0);

    // Holding "paddle up" swings it to the new upper limit and no further.
    PaperInput up{};
    up.held = 1u << d.actionNamed("paddle_up");
    for (int i = 0; i < 60; ++i) b.host->tick(kStep, up);
    CHECK(b.property("paddle", paddle, "angle").value == 60.0);
}

TEST_CASE("bounce's commands kick a ball, emit one and set the emit speed", "[bounce]") {
    Bounce b;
    const PluginDeclarations& d = b.host->declarations();
    const std::uint64_t ball = b.host->objects(b.kind("ball"))[0].handle;
    const std::uint64_t emitter = b.host->objects(b.kind("emitter"))[1].handle;
    std::string error;

    const double before = b.property("ball", ball, "velocity").vector.y;
    REQUIRE(b.host->runCommand(ball, d.commandNamed(b.kind("ball"), "kick"), 0.0, error));
    CHECK(b.property("ball", ball, "velocity").vector.y == Approx(before + 3.0));
    CHECK_FALSE(b.host->runCommand(emitter, d.commandNamed(b.kind("ball"), "kick"), 0.0, error));  // not a ball
    CHECK(error.find("ball") != std::string::npos);

    const int speed = d.commandNamed(b.kind("emitter"), "emit_speed");
    CHECK_FALSE(b.host->runCommand(emitter, speed, 11.0, error));
    CHECK(error.find("0 to 10") != std::string::npos);
    REQUIRE(b.host->runCommand(emitter, speed, 2.0, error));
    CHECK(b.property("emitter", emitter, "emit_speed").value == 2.0);

    REQUIRE(b.host->runCommand(emitter, d.commandNamed(b.kind("emitter"), "emit"), 0.0, error));
    const std::vector<ObjectEntry> balls = b.host->objects(b.kind("ball"));
    REQUIRE(balls.size() == size_t(kBallsAtStart + 1));
    CHECK(balls.back().owner == 1);
    CHECK(b.property("ball", balls.back().handle, "velocity").vector.y == 2.0f);
    CHECK(b.stat("ball_count") == kBallsAtStart + 1);

    // "shake" kicks every ball: at the start none touches anything, so each falls 1/60 s
    // from 3 m/s upward.
    Bounce fresh;
    PaperInput shake{};
    shake.pressed = 1u << d.actionNamed("shake");
    fresh.host->tick(kStep, shake);
    for (const ObjectEntry& ball : fresh.host->objects(fresh.kind("ball")))
        CHECK(fresh.property("ball", ball.handle, "velocity").vector.y == Approx(3.0 - 9.81 * kStep));
}

TEST_CASE("bounce saves an edited asset, keeps the rest of the file and checks broken ones", "[bounce]") {
    Bounce b;
    const std::string original = readFile(kOrange);
    const std::uint64_t paddle = b.host->objects(b.kind("paddle"))[0].handle;
    const std::uint64_t emitter = b.host->objects(b.kind("emitter"))[0].handle;
    REQUIRE(b.host->setProperty(b.kind("paddle"), paddle, "upper", 100.0));
    REQUIRE(b.host->setProperty(b.kind("emitter"), emitter, "radius", 0.2));

    const std::string copy = b.dir + "/copy.bounce.xml";
    std::string error;
    REQUIRE(b.host->saveAsset(kOrange, copy, error));
    std::string expected = original;
    expected.replace(expected.find("upper=\"45\""), 10, "upper=\"100\"");
    expected.replace(expected.find("radius=\"0.15\""), 13, "radius=\"0.2\"");
    CHECK(readFile(copy) == expected);  // only the two values changed, comments and all kept
    CHECK(readFile(kOrange) == original);
    CHECK(b.host->checkAsset(copy, error));
    CHECK_FALSE(b.host->saveAsset(b.dir + "/none.bounce.xml", copy, error));

    // Setting the old values back undoes the edits: the file saves byte for byte as it was.
    REQUIRE(b.host->setProperty(b.kind("paddle"), paddle, "upper", 45.0));
    REQUIRE(b.host->setProperty(b.kind("emitter"), emitter, "radius", 0.15));
    REQUIRE(b.host->saveAsset(kOrange, copy, error));
    CHECK(readFile(copy) == original);

    // A bad number on line 3 and a paddle without its length on line 4: both named.
    const std::string broken = b.dir + "/broken.bounce.xml";
    std::ofstream(broken) << "<?xml version=\"1.0\"?>\n<!-- broken -->\n"
                          << "<bounce radius=\"0.1x\" restitution=\"0.5\" count=\"1\">\n"
                          << "  <paddle lower=\"0\" upper=\"10\"/>\n</bounce>\n";
    CHECK_FALSE(b.host->checkAsset(broken, error));
    CHECK(error.find(broken + ":3: error: <bounce> 'radius' is not a number: '0.1x'") != std::string::npos);
    CHECK(error.find(broken + ":4: error: <paddle> needs the attribute 'length'") != std::string::npos);

    const std::string malformed = b.dir + "/malformed.bounce.xml";  // <paddle> never closed
    std::ofstream(malformed) << "<bounce radius=\"0.1\">\n\n  <paddle>\n</bounce>\n";
    CHECK_FALSE(b.host->checkAsset(malformed, error));
    CHECK(error == malformed + ":3: error: malformed XML (XML_ERROR_MISMATCHED_ELEMENT)");  // the open one

    // A level whose spawn names that file is refused with the same lines.
    const std::string level = b.dir + "/broken.level.xml";
    std::ofstream(level) << "<level name=\"broken\" format=\"1\" units=\"m\">\n"
                         << "  <box x=\"0\" y=\"-0.5\" width=\"4\" height=\"1\"/>\n"
                         << "  <spawn name=\"one\" asset=\"broken.bounce.xml\" x=\"0\" y=\"1\"/>\n</level>\n";
    LevelLoadResult l = loadLevelFile(level);
    REQUIRE(l.level);
    CHECK_FALSE(b.host->setLevel(*l.level));
    CHECK(b.host->status().lastError.find(broken + ":3: error:") != std::string::npos);
}

TEST_CASE("bounce saves an asset back to its own file when given no path", "[bounce]") {
    const std::string dir = test::makeTempDir();
    fs::copy(kSource + "/levels", dir + "/levels");
    fs::copy(kSource + "/assets", dir + "/assets");
    {
        Bounce b(dir + "/levels/bounce.level.xml");
        const std::uint64_t paddle = b.host->objects(b.kind("paddle"))[1].handle;
        REQUIRE(b.host->setProperty(b.kind("paddle"), paddle, "length", 0.75));
        std::string error;
        REQUIRE(b.host->saveAsset(dir + "/assets/blue.bounce.xml", "", error));
    }
    CHECK(readFile(dir + "/assets/blue.bounce.xml").find("length=\"0.75\"") != std::string::npos);
    CHECK(readFile(dir + "/assets/orange.bounce.xml") == readFile(kOrange));
    fs::remove_all(dir);
}

TEST_CASE("a hot reload of bounce continues bit for bit, and a corrupt state is refused", "[bounce]") {
    Bounce reloaded, untouched;
    reloaded.run(45);
    untouched.run(45);
    REQUIRE(reloaded.host->setProperty(reloaded.kind("settings"), reloaded.host->objects(reloaded.kind("settings"))[0].handle,
                                       "gravity", 5.0));
    REQUIRE(untouched.host->setProperty(untouched.kind("settings"), untouched.host->objects(untouched.kind("settings"))[0].handle,
                                        "gravity", 5.0));
    const std::vector<std::uint8_t> before = reloaded.host->saveState();
    REQUIRE(before.size() > 8);
    REQUIRE(reloaded.host->reload());
    CHECK(reloaded.host->status().reloads == 1);
    CHECK(reloaded.host->saveState() == before);
    reloaded.run(60);
    untouched.run(60);
    CHECK(reloaded.host->saveState() == untouched.host->saveState());

    const std::vector<std::uint8_t> good = reloaded.host->saveState();
    std::vector<std::uint8_t> cut(good.begin(), good.end() - 5), wrongMagic = good;
    wrongMagic[0] = 'X';
    CHECK_FALSE(reloaded.host->loadState(cut));
    CHECK_FALSE(reloaded.host->loadState(wrongMagic));
    CHECK(reloaded.host->status().lastError.find("BNCE") != std::string::npos);
    CHECK(reloaded.host->saveState() == good);
}

TEST_CASE("bouncing balls lose energy and come to rest on the ground", "[bounce]") {
    Bounce b;
    const int ballKind = b.kind("ball");
    std::vector<double> dropHeight;
    for (const ObjectEntry& ball : b.host->objects(ballKind)) dropHeight.push_back(b.property("ball", ball.handle, "position").vector.y);
    // The fastest any ball moves in the first 2 s: the end of its first fall, to the ground
    // (about 1.6 m below the orange paddle's tip, 2.5 m below the blue hinge).
    double impactSpeed = 0.0;
    int steps = 0;
    for (; steps < 120; ++steps) {
        b.run(1);
        impactSpeed = std::max(impactSpeed, b.stat("max_speed_mps"));
        CHECK(b.stat("lowest_ball_m") >= -0.001);
    }
    CHECK(impactSpeed > 4.0);
    double highestLate = -1e9;
    for (; steps < 300; ++steps) {
        b.run(1);
        CHECK(b.stat("lowest_ball_m") >= -0.001);
        if (steps < 180) continue;
        for (const ObjectEntry& ball : b.host->objects(ballKind))
            highestLate = std::max(highestLate, double(b.property("ball", ball.handle, "position").vector.y));
    }
    INFO("after 5 s the fastest ball moves at " << b.stat("max_speed_mps") << " m/s; from 3 s the highest was at "
                                                << highestLate << " m");
    CHECK(b.stat("max_speed_mps") < 0.01);  // at rest
    CHECK(highestLate < *std::min_element(dropHeight.begin(), dropHeight.end()));
}
