#include <catch2/catch.hpp>

#include <string>

#include "app/cli.h"

using namespace paper;

namespace {
CliResult parse(std::vector<std::string> args) { return parsePlayerCommandLine(args); }
}  // namespace

TEST_CASE("the player's options parse", "[cli]") {
    CliResult r = parse({"--headless", "--frames", "120", "level.xml", "--stats-json", "s.json", "--realtime"});
    REQUIRE(r.options);
    CHECK(r.options->headless);
    CHECK(r.options->frames == 120);
    CHECK(r.options->levelPath == "level.xml");
    CHECK(r.options->statsJsonPath == "s.json");
    CHECK(r.options->realtime);

    r = parse({"--frames", "30", "--screenshot", "a.png", "--window", "640x360", "--no-vsync"});
    REQUIRE(r.options);
    CHECK(r.options->screenshotPath == "a.png");
    CHECK(r.options->windowWidth == 640);
    CHECK(r.options->windowHeight == 360);
    CHECK_FALSE(r.options->vsync);
    CHECK(r.options->levelPath.empty());

    // Named as another kind of image it is refused (it would hold PNG data); any other name is
    // the user's (a numbered frame).
    for (const char* name : {"frame.001", "shot", "Shot.PNG"}) {
        CAPTURE(name);
        CHECK(parse({"--frames", "1", "--screenshot", name}).options);
    }
    CHECK_THAT(parse({"--frames", "1", "--screenshot", "shot.webp"}).error,
               Catch::Contains("--screenshot 'shot.webp': a screenshot is written as PNG: name it 'shot.png'"));
}

TEST_CASE("the player's --asset names one file, never one the run writes", "[cli]") {
    CliResult r = parse({"--asset", "hero.rig.xml", "--frames", "1"});
    REQUIRE(r.options);
    CHECK(r.options->assetPath == "hero.rig.xml");
    CHECK(parse({"--asset", "a.rig.xml", "--asset", "b.rig.xml"}).error == "--asset is given twice");
    CHECK(parse({"--asset"}).error == "--asset needs a file");
    CHECK(parse({"--frames", "1", "--asset", "hero.rig.xml", "--stats-json", "hero.rig.xml"}).error ==
          "--stats-json 'hero.rig.xml': it is the asset this run reads");
}

TEST_CASE("The player takes --name=value as the rig commands do, and a value option once", "[cli]") {
    // `--frames=10` was an unknown option, while `paperdoll rig drop --frames=10` took it; and
    // `--frames 10 --frames 20` ran 20 steps without a word (the editor refused it).
    CliResult r = parse({"--headless", "--frames=10", "--stats-json=s.json", "--window=640x360", "lev=el.xml"});
    REQUIRE(r.options);
    CHECK(r.options->frames == 10);
    CHECK(r.options->statsJsonPath == "s.json");
    CHECK(r.options->windowWidth == 640);
    CHECK(r.options->levelPath == "lev=el.xml");  // a path, not an option
    struct Case {
        std::vector<std::string> args;
        const char* error;
    };
    const Case cases[] = {
        {{"--frames", "10", "--frames", "20"}, "--frames is given twice"},
        {{"--frames=10", "--frames=20"}, "--frames is given twice"},
        {{"--frames="}, "--frames needs a number of steps"},
        {{"--frames=abc"}, "--frames must be a whole number from 1 to 1000000000, got 'abc'"},
        {{"--headless=1", "--frames", "3"}, "--headless takes no value, got '--headless=1'"},
        {{"--fly=3"}, "unknown option '--fly' (see paperdoll --help)"},
    };
    for (const Case& c : cases) {
        r = parse(c.args);
        INFO(c.args[0]);
        CHECK_FALSE(r.options);
        CHECK(r.error == c.error);
    }
}

TEST_CASE("A --script names a file and lets a headless run go without --frames", "[cli]") {
    CliResult r = parse({"--headless", "--script", "walk.script", "--stats-json", "s.json"});
    REQUIRE(r.options);
    CHECK(r.options->scriptPath == "walk.script");
    CHECK(r.options->frames == -1);  // the script says how long
    r = parse({"--script", "walk.script", "--frames", "90", "--screenshot", "a.png"});
    REQUIRE(r.options);
    CHECK(r.options->frames == 90);
    // Whether the file exists, is a directory or is empty is the player's business: see
    // player_tests.cpp and script_tests.cpp.
}

TEST_CASE("bad command lines are refused with the reason", "[cli]") {
    struct Case {
        std::vector<std::string> args;
        const char* mentions;
    };
    const Case cases[] = {
        {{"--fly"}, "unknown option '--fly'"},
        {{"--frames"}, "--frames needs"},
        {{"--frames", "abc"}, "got 'abc'"},
        {{"--frames", "0"}, "from 1"},
        {{"--frames", "-5"}, "got '-5'"},
        {{"--frames", "99999999999999999999"}, "--frames must be"},
        {{"--frames", "12x"}, "got '12x'"},
        {{"--headless"}, "--headless needs --frames N (how many steps to run) or --script FILE"},
        {{"--script"}, "--script needs a file name"},
        {{"--script", ""}, "--script needs a file name"},
        {{"--headless", "--script", "s.script", "--screenshot", "x.png"}, "--screenshot needs a window"},
        {{"--headless", "--frames", "3", "--screenshot", "x.png"}, "--screenshot needs a window"},
        {{"--window", "big"}, "--window needs WIDTHxHEIGHT in pixels, from 64x64"},
        {{"--window", "10x10"}, "--window needs WIDTHxHEIGHT in pixels, from 64x64"},
        {{"--stats-json"}, "needs a file name"},
        {{"--stats-json", "--headless", "--frames", "1"}, "--stats-json needs a file name"},
        {{"a.xml", "b.xml"}, "more than one level"},
    };
    for (const Case& c : cases) {
        CliResult r = parse(c.args);
        CAPTURE(c.args);
        CHECK_FALSE(r.options);
        CHECK_THAT(r.error, Catch::Contains(c.mentions));
    }
}

TEST_CASE("The --help text documents every option", "[cli]") {
    std::string help = playerUsage();
    for (const char* option : {"--asset", "--headless", "--frames", "--realtime", "--stats-json", "--screenshot", "--script",
                               "--window", "--no-vsync", "--version", "--help"})
        CHECK_THAT(help, Catch::Contains(option));
    CliResult r = parse({"--help", "--bogus-after-help-is-still-an-error"});
    CHECK_FALSE(r.options);
    r = parse({"-h"});
    REQUIRE(r.options);
    CHECK(r.options->showHelp);
}
