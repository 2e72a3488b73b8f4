// ragdoll_bench run as a user would: the sweep on one switch with its trace (the CSV must hold
// every step of both runs, a column per bone, and agree with the summary the same run prints),
// the sweep at the iterations it is given, a trace refused over the level it reads, the
// settings its table and the peer's JSON report as --help says, and the pile with the depth
// it reports.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "run_process.h"

#ifdef RAGDOLL_BENCH_EXE
namespace {

std::vector<std::string> splitCsv(const std::string& line) {
    std::vector<std::string> cells;
    std::stringstream in(line);
    for (std::string cell; std::getline(in, cell, ',');) cells.push_back(cell);
    return cells;
}

}  // namespace

TEST_CASE("ragdoll_bench traces one switch of the sweep, every step of both runs", "[cli][bench]") {
    const std::filesystem::path dir = test::makeTempDir();
    const std::string trace = (dir / "standing.csv").string();
    // Standing on the harness's flat ground at x = 0: it topples and stops within 3 s.
    const test::ProcessResult r = test::runProcess(
        {RAGDOLL_BENCH_EXE, "--scene", "sweep", "--switch", "0:standing", "--trace", trace, "--json"},
        {std::string("PAPERDOLL_CONTENT=") + PAPERDOLL_CONTENT_DIR}, 120.0);
    INFO(r.err);
    REQUIRE(r.exitCode == 0);
    CHECK_THAT(r.out, Catch::Contains("\"switches\": 1"));
    CHECK_THAT(r.out, Catch::Contains("\"stopped_within_3s\": 1"));

    std::ifstream csv(trace);
    std::string line;
    REQUIRE(std::getline(csv, line));
    const std::vector<std::string> header = splitCsv(line);
    REQUIRE(header.size() == 6 + 12);  // the paper doll's twelve bodies
    CHECK(line.starts_with("run,t_s,awake,deepest_mm,centre_x_m,centre_y_m,torso_mm_s,"));
    CHECK_THAT(line, Catch::Contains("foot_R_mm_s"));

    int sleeping = 0, awake = 0;
    double fastestAfter3s = 0.0, lastT = 0.0;
    while (std::getline(csv, line)) {
        const std::vector<std::string> cells = splitCsv(line);
        REQUIRE(cells.size() == header.size());
        const double t = std::atof(cells[1].c_str());
        if (cells[0] == "standing 0.0 sleeping") ++sleeping;
        else if (cells[0] == "standing 0.0 awake") {
            ++awake;
            if (t >= 3.0)
                for (size_t k = 6; k < cells.size(); ++k) fastestAfter3s = std::max(fastestAfter3s, std::atof(cells[k].c_str()));
        } else FAIL("an unexpected run: " << cells[0]);
        lastT = t;
    }
    CHECK(sleeping == 600);  // 10 s at 60 steps a second, each run
    CHECK(awake == 600);
    CHECK(lastT == Approx(10.0));
    INFO("fastest body from 3 s on, sleeping off: " << fastestAfter3s << " mm/s");
    CHECK(fastestAfter3s < 5.0);  // what stopped_within_3s counted
    std::filesystem::remove_all(dir);
}

TEST_CASE("ragdoll_bench runs the sweep at the iterations it is given", "[cli][bench]") {
    // A running figure going limp on the platform's edge: at two iterations its trees are
    // solved again after the contacts, and the switch ends on other bits (it rests at 2.53 s
    // rather than 2.97 s).
    auto run = [](const char* iterations) {
        const test::ProcessResult r = test::runProcess({RAGDOLL_BENCH_EXE, "--scene", "sweep", "--switch", "6.5:mid-run",
                                                        "--iterations", iterations, "--json"},
                                                       {std::string("PAPERDOLL_CONTENT=") + PAPERDOLL_CONTENT_DIR}, 120.0);
        INFO(r.err);
        REQUIRE(r.exitCode == 0);
        CHECK_THAT(r.out, Catch::Contains(std::string("\"iterations\": ") + iterations));
        const size_t at = r.out.find("\"state_hash\"");
        REQUIRE(at != std::string::npos);
        return r.out.substr(at, 40);
    };
    CHECK(run("1") != run("2"));
}

TEST_CASE("ragdoll_bench's sweep table shows the settings --help says it shows", "[cli][bench]") {
    // --help: the sweep reports "scene, level, substeps, iterations, threads, ..." in the
    // table as in the JSON; the table left the threads out.
    const test::ProcessResult r =
        test::runProcess({RAGDOLL_BENCH_EXE, "--scene", "sweep", "--switch", "0:standing", "--substeps", "3",
                          "--iterations", "2", "--threads", "2"},
                         {std::string("PAPERDOLL_CONTENT=") + PAPERDOLL_CONTENT_DIR}, 120.0);
    INFO(r.err << r.out);
    REQUIRE(r.exitCode == 0);
    CHECK_THAT(r.out, Catch::StartsWith("scene sweep, "));
    CHECK_THAT(r.out, Catch::Contains("harness.level.xml"));
    CHECK_THAT(r.out, Catch::Contains("3 substeps, iterations 2, threads 2\n"));
}

TEST_CASE("ragdoll_bench's help says what the peer's JSON records of our settings", "[cli][bench]") {
    const test::ProcessResult help = test::runProcess({RAGDOLL_BENCH_EXE, "--help"});
    REQUIRE(help.exitCode == 0);
    // Box2D has no substeps: its JSON records none (the help said "the value is only recorded").
    CHECK_THAT(help.out, Catch::Contains("the peer's JSON has \"substeps\": null"));
    const test::ProcessResult r =
        test::runProcess({RAGDOLL_BENCH_EXE, "--n", "1", "--steps", "2", "--substeps", "3", "--peer", "box2d", "--json"});
    if (r.exitCode == 1 && r.err.find("built without Box2D") != std::string::npos) return;  // no peer in this build
    INFO(r.err);
    REQUIRE(r.exitCode == 0);
    const nlohmann::json j = nlohmann::json::parse(r.out);
    CHECK(j["substeps"] == 3);
    CHECK(j["peer"]["substeps"].is_null());
    CHECK(j["peer"]["joint_solver"].is_null());
    CHECK(j["peer"]["iterations"] == nlohmann::json({{"velocity", 8}, {"position", 3}}));
    CHECK(j["peer"]["threads"] == 1);
}

TEST_CASE("ragdoll_bench --version prints its version, as the other programs do", "[cli][bench]") {
    const test::ProcessResult r = test::runProcess({RAGDOLL_BENCH_EXE, "--version"});
    CHECK(r.exitCode == 0);
    CHECK(r.out.starts_with("ragdoll_bench "));
    CHECK(r.out.find('.') != std::string::npos);  // a version number
}

TEST_CASE("ragdoll_bench prints the sweep level's warnings with their file and line", "[cli][bench]") {
    // A level the user wrote with a slip in an attribute and its spawn inside a block: the
    // sweep measures it as the player plays it, and says so as the player does.
    const std::filesystem::path dir = test::makeTempDir();
    const std::string level = (dir / "slip.level.xml").string();
    std::ofstream(level) << "<level name=\"slip\" format=\"1\" units=\"m\">\n"
                            "  <box x=\"0\" y=\"-0.5\" width=\"20\" height=\"1\" frction=\"0.7\"/>\n"
                            "  <box x=\"3\" y=\"0.25\" width=\"1\" height=\"0.5\"/>\n"
                            "  <spawn name=\"p\" asset=\""
                         << PAPERDOLL_CONTENT_DIR << "/rigs/stickman.rig.xml\" x=\"3\" y=\"0\"/>\n"
                            "</level>\n";
    const test::ProcessResult r =
        test::runProcess({RAGDOLL_BENCH_EXE, "--scene", "sweep", "--level", level, "--switch", "0:standing", "--json"}, {},
                         120.0);
    INFO(r.err);
    REQUIRE(r.exitCode == 0);
    CHECK_THAT(r.err, Catch::Contains(level + ":2: warning: box: unknown attribute 'frction' ignored; did you mean 'friction'?"));
    CHECK_THAT(r.err, Catch::Contains(level + ":4: warning: spawn 'p' at (3, 0) m has its feet 0.5 m inside the terrain"));
    CHECK_THAT(r.out, Catch::Contains("\"switches\": 1"));
    std::filesystem::remove_all(dir);
}

TEST_CASE("ragdoll_bench refuses a trace that would write over the level it reads", "[cli][bench]") {
    // The trace opened after the level was read and wrote its CSV over it: the user's level
    // was lost. Given with --level (spelt two ways) or the content folder's harness, which
    // the sweep reads by default, it is refused before the run, as the player refuses its
    // --stats-json.
    const std::filesystem::path dir = test::makeTempDir();
    std::filesystem::create_directory(dir / "levels");
    const std::string level = (dir / "levels" / "harness.level.xml").string();
    const std::string text = "<level name=\"flat\" format=\"1\" units=\"m\">\n"
                             "  <box x=\"0\" y=\"-0.5\" width=\"20\" height=\"1\"/>\n"
                             "  <spawn name=\"p\" asset=\"" +
                             std::string(PAPERDOLL_CONTENT_DIR) + "/rigs/stickman.rig.xml\" x=\"0\" y=\"0\"/>\n"
                             "</level>\n";
    std::ofstream(level) << text;
    const std::string otherSpelling = (dir / "levels" / ".." / "levels" / "harness.level.xml").string();
    const std::vector<std::vector<std::string>> commands = {
        {RAGDOLL_BENCH_EXE, "--scene", "sweep", "--level", level, "--switch", "0:standing", "--trace", level},
        {RAGDOLL_BENCH_EXE, "--scene", "sweep", "--level", level, "--switch", "0:standing", "--trace", otherSpelling},
        {RAGDOLL_BENCH_EXE, "--scene", "sweep", "--switch", "0:standing", "--trace", level},  // the default level
    };
    for (const std::vector<std::string>& command : commands) {
        CAPTURE(command.back());
        const test::ProcessResult r = test::runProcess(command, {"PAPERDOLL_CONTENT=" + dir.string()}, 120.0);
        INFO(r.err);
        CHECK(r.exitCode == 2);
        CHECK_THAT(r.err, Catch::Contains("--trace '" + command.back() + "': it is the level this run reads"));
        std::ifstream in(level);
        const std::string after((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        CHECK(after == text);
    }
    std::filesystem::remove_all(dir);
}

// The pile reports how deep its bodies went into the ground and walls: 20 stickmen dropped
// in a heap stay within the contacts' allowed overlap (2 mm) and their slop.
TEST_CASE("ragdoll_bench reports the pile's deepest body in the terrain", "[cli][bench]") {
    const test::ProcessResult r =
        test::runProcess({RAGDOLL_BENCH_EXE, "--scene", "pile", "--n", "20", "--steps", "300", "--json"}, {}, 120.0);
    INFO(r.err << r.out);
    REQUIRE(r.exitCode == 0);
    const size_t at = r.out.find("\"max_depth_m\": ");
    REQUIRE(at != std::string::npos);
    const double depth = std::atof(r.out.c_str() + at + 15);
    CHECK(depth > 0.001);  // they do rest on the ground, 2 mm in
    CHECK(depth < 0.005);
}
TEST_CASE("ragdoll_bench refuses a --trace named as a rig, a clip or their art, writing nothing", "[cli][bench]") {
    const std::string rig = std::string(PAPERDOLL_CONTENT_DIR) + "/rigs/stickman.rig.xml";
    std::ifstream in(rig);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (const std::string& trace : {rig, std::string(PAPERDOLL_CONTENT_DIR) + "/art/paper_doll.png"}) {
        CAPTURE(trace);
        const test::ProcessResult r =
            test::runProcess({RAGDOLL_BENCH_EXE, "--scene", "sweep", "--switch", "0:standing", "--trace", trace}, {}, 120.0);
        INFO(r.err);
        CHECK(r.exitCode == 2);
        CHECK_THAT(r.err, Catch::Contains("--trace '" + trace + "': it ends in " +
                                          std::filesystem::path(trace).extension().string() + ", as "));
    }
    std::ifstream again(rig);
    CHECK(std::string((std::istreambuf_iterator<char>(again)), std::istreambuf_iterator<char>()) == text);
}
#endif
