// Bad input to every program: `paperdoll`, `paperdoll rig …`, `paperdoll_editor` and
// `ragdoll_bench` each refuse unknown options, missing files, directories, empty files,
// binary garbage and absurd numbers with a message that names the file (and line) or the
// cause, and a non-zero exit status: never a crash, a hang or a silent success.
//
// One row per input, run as a subprocess with a timeout; a failure names the row. With
// PAPERDOLL_BAD_INPUT_TABLE=FILE set, each row also appends a Markdown table line (program,
// input, first line printed, exit status) to FILE, for the reliability report.

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "run_process.h"

namespace fs = std::filesystem;

namespace {

const std::string kPlayer = PAPERDOLL_PLAYER_EXE;
const std::string kEditor = PAPERDOLL_EDITOR_EXE;
const std::string kContent = PAPERDOLL_CONTENT_DIR;
const std::string kHarness = kContent + "/levels/harness.level.xml";
const std::string kStickman = kContent + "/rigs/stickman.rig.xml";

/// Generous: the machine may be busy; a program that hangs still fails the row.
constexpr double kTimeoutSeconds = 60.0;

void writeFile(const fs::path& path, const std::string& bytes) {
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    file << bytes;
    REQUIRE(file.good());
}

/// The files the rows point at, made once per test process in a fresh folder.
struct Fixtures {
    fs::path dir = test::makeTempDir();
    std::string missing = (dir / "missing.xml").string();          ///< never created
    std::string folder = (dir / "folder.xml").string();            ///< a directory
    std::string empty = (dir / "empty.xml").string();              ///< zero bytes
    std::string garbage = (dir / "garbage.bin").string();          ///< random bytes, NULs included
    std::string device = "/dev/zero";                              ///< endless, not a regular file
    std::string file = (dir / "plain.txt").string();               ///< a regular file, used as a folder
    std::string badLevel = (dir / "bad.level.xml").string();       ///< an error on line 3
    std::string badRigLevel = (dir / "bad_rig.level.xml").string();  ///< its spawn's rig is garbage
    std::string badRig = (dir / "bad.rig.xml").string();           ///< an error on line 4
    std::string badScript = (dir / "bad.script").string();         ///< an error on line 2
    std::string commentScript = (dir / "comments.script").string();  ///< only comments
    std::string badPlugin = (dir / "bad.plugin").string();         ///< an error on line 2
    std::string noLibrary = (dir / "no_library.plugin").string();  ///< its library is missing
    std::string garbageLibrary = (dir / "garbage_library.plugin").string();  ///< its library is garbage

    Fixtures() {
        fs::create_directory(folder);
        writeFile(empty, "");
        std::mt19937 random(7);
        std::string noise(4096, '\0');
        for (char& c : noise) c = char(random() & 0xff);
        noise[10] = '\0';  // at least one NUL, early
        writeFile(garbage, noise);
        writeFile(file, "not a folder\n");
        writeFile(badLevel, "<level name=\"bad\" format=\"1\" units=\"m\" scale=\"1\">\n"
                            "  <box x=\"0\" y=\"-0.5\" width=\"42\" height=\"1\"/>\n"
                            "  <box x=\"0\" y=\"nan\" width=\"1\" height=\"1\"/>\n"
                            "  <spawn name=\"player\" asset=\"" + kStickman + "\" x=\"1\" y=\"0\"/>\n"
                            "</level>\n");
        writeFile(badRigLevel, "<level name=\"bad_rig\" format=\"1\" units=\"m\" scale=\"1\">\n"
                               "  <box x=\"0\" y=\"-0.5\" width=\"42\" height=\"1\"/>\n"
                               "  <spawn name=\"player\" asset=\"garbage.bin\" x=\"1\" y=\"0\"/>\n"
                               "</level>\n");
        writeFile(badRig, "<rig name=\"bad\" format=\"1\" units=\"m\" scale=\"1\">\n"
                          "  <bone name=\"torso\" x=\"0\" y=\"1\" angle=\"90\" length=\"0.5\"/>\n"
                          "  <bone name=\"head\" parent=\"torso\" length=\"0.3\"/>\n"
                          "  <body bone=\"head\" shape=\"circle\" radius=\"0.1\" mass=\"-2\"/>\n"
                          "</rig>\n");
        writeFile(badScript, "wait 1\nwait -3\nkey press R\n");
        writeFile(commentScript, "# nothing to do\n\n   # still nothing\n");
        writeFile(badPlugin, "<?xml version=\"1.0\"?>\n"
                             "<plugin name=\"ragdoll\" version=\"1\" abi_version=\"zero\" library=\"ragdoll\"/>\n");
        writeFile(noLibrary, "<plugin name=\"ragdoll\" version=\"1\" abi_version=\"3\" library=\"not_built\"/>\n");
        writeFile(garbageLibrary, "<plugin name=\"ragdoll\" version=\"1\" abi_version=\"3\" library=\"garbage\"/>\n");
        writeFile(dir / "libgarbage.so", noise);
    }
    ~Fixtures() {
        std::error_code ignored;
        fs::remove_all(dir, ignored);
    }
};

Fixtures& fixtures() {
    static Fixtures f;
    return f;
}

struct Row {
    std::string input;               ///< what is wrong, for the report
    std::vector<std::string> args;   ///< after the program's name
    int status;                      ///< the exit status the program documents for it
    std::vector<std::string> words;  ///< what the message must say (file, line, option, cause)
    bool window = false;             ///< opens a window (for the screenshot rows)
    std::vector<std::string> env = {};  ///< "NAME=value" for the program's environment
};

/// The first line printed, past the host's timestamped log of the plugin it loaded (which
/// says nothing about the input), with the fixtures' and the project's folders left out.
std::string firstLine(const std::string& text) {
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line))
        if (line.find(" s] plugin: loaded ") == std::string::npos) break;
    const std::string project = fs::path(kContent).parent_path().string() + "/";
    for (const std::string& dir : {fixtures().dir.string() + "/", project})
        for (size_t at; (at = line.find(dir)) != std::string::npos;) line.erase(at, dir.size());
    std::replace(line.begin(), line.end(), '|', '/');
    if (line.size() > 160) line = line.substr(0, 157) + "...";
    return line;
}

/// Appends the row to the report table when asked (see the top of the file).
void record(const std::string& program, const Row& row, const test::ProcessResult& r) {
    const char* table = std::getenv("PAPERDOLL_BAD_INPUT_TABLE");
    if (!table || !*table) return;
    std::string said = firstLine(r.err.empty() ? r.out : r.err);
    // Bytes that are not printable ASCII (a garbage file echoed back) as '?'.
    for (char& c : said)
        if (static_cast<unsigned char>(c) < 0x20) c = '?';
    std::string status = r.timedOut ? "timed out" : r.signalled ? "signal " + std::to_string(r.exitCode - 128)
                                                                : std::to_string(r.exitCode);
    std::ofstream(table, std::ios::app) << "| " << program << " | " << row.input << " | `" << said << "` | " << status
                                        << " |\n";
}

/// Standard output on a full disk: the row's arguments, prefixed with this, run the program
/// through the shell with its output sent to /dev/full.
const std::string kFullOutput = "<stdout on a full disk>";

void check(const std::string& program, const std::string& exe, const Row& row) {
    std::vector<std::string> argv = {exe};
    argv.insert(argv.end(), row.args.begin(), row.args.end());
    if (!row.args.empty() && row.args.front() == kFullOutput) {
        REQUIRE(fs::exists("/dev/full"));
        argv = {"/bin/sh", "-c", "exec \"$@\" >/dev/full", "sh", exe};
        argv.insert(argv.end(), row.args.begin() + 1, row.args.end());
    }
    std::vector<std::string> env = {"PAPERDOLL_CONTENT=" + kContent};
    if (row.window)
        for (const std::string& e : test::displayEnv()) env.push_back(e);
    env.insert(env.end(), row.env.begin(), row.env.end());  // later entries win
    test::ProcessResult r = test::runProcess(argv, env, kTimeoutSeconds);
    record(program, row, r);
    std::string said = r.err + r.out;
    INFO(program << ": " << row.input);
    INFO("printed:\n" << said);
    CHECK_FALSE(r.timedOut);
    CHECK_FALSE(r.signalled);
    CHECK(r.exitCode == row.status);
    for (const std::string& word : row.words) CHECK_THAT(said, Catch::Contains(word));
}

void checkAll(const std::string& program, const std::string& exe, const std::vector<Row>& rows) {
    for (const Row& row : rows) {
        DYNAMIC_SECTION(program << ": " << row.input) { check(program, exe, row); }
    }
}

}  // namespace

TEST_CASE("paperdoll refuses bad options and numbers", "[cli][bad-input][player]") {
    const std::vector<Row> rows = {
        {"`--frame` (a slip of --frames)", {"--frame", "3"}, 2, {"unknown option '--frame'; did you mean '--frames'?"}},
        {"an empty level path (the default level played)", {"--headless", "--frames", "1", ""}, 2,
         {"the level's path is empty ('')"}},
        {"unknown option `--bogus`", {"--bogus"}, 2, {"unknown option '--bogus'"}},
        {"`--frames` without a value", {"--headless", "--frames"}, 2, {"--frames needs"}},
        {"`--stats-json` followed by another option", {"--frames", "1", "--stats-json", "--headless"}, 2,
         {"--stats-json needs a file name"}},
        {"`--frames 0`", {"--headless", "--frames", "0"}, 2, {"--frames", "'0'"}},
        {"`--frames -5`", {"--headless", "--frames", "-5"}, 2, {"--frames", "'-5'"}},
        {"`--frames nan`", {"--headless", "--frames", "nan"}, 2, {"--frames", "'nan'"}},
        {"`--frames abc`", {"--headless", "--frames", "abc"}, 2, {"--frames", "'abc'"}},
        {"`--frames 1.5`", {"--headless", "--frames", "1.5"}, 2, {"--frames", "'1.5'"}},
        {"`--frames 1000000001` (too many)", {"--headless", "--frames", "1000000001"}, 2, {"--frames", "'1000000001'"}},
        {"`--frames 99999999999999999999` (overflows)", {"--headless", "--frames", "99999999999999999999"}, 2,
         {"--frames", "'99999999999999999999'"}},
        {"`--window 0x0`", {"--headless", "--frames", "1", "--window", "0x0"}, 2, {"--window", "'0x0'"}},
        {"`--window -1x720`", {"--headless", "--frames", "1", "--window", "-1x720"}, 2, {"--window", "'-1x720'"}},
        {"`--window 100000x100000`", {"--headless", "--frames", "1", "--window", "100000x100000"}, 2,
         {"--window", "'100000x100000'"}},
        {"`--window nanxnan`", {"--headless", "--frames", "1", "--window", "nanxnan"}, 2, {"--window", "'nanxnan'"}},
        {"`--window big`", {"--headless", "--frames", "1", "--window", "big"}, 2, {"--window", "'big'"}},
        {"two levels", {"--headless", "--frames", "1", kHarness, kHarness}, 2, {"more than one level"}},
        {"`--headless` with no end (no --frames, no --script)", {"--headless", kHarness}, 2,
         {"--headless needs --frames"}},
        {"`--screenshot` in a headless run", {"--headless", "--frames", "1", "--screenshot", "x.png"}, 2,
         {"--screenshot needs a window"}},
        {"`--screenshot` named other than .png (PNG data in shot.jpg)", {"--frames", "1", "--screenshot", "shot.jpg"}, 2,
         {"--screenshot 'shot.jpg': a screenshot is written as PNG: name it 'shot.png'"}},
        {"`--plugin` and `--no-plugin`", {"--headless", "--frames", "1", "--plugin", "x.plugin", "--no-plugin"}, 2,
         {"contradict"}},
        // --version and --list-plugins answer alone: what is beside them was ignored, exit 0.
        {"`--version extra`", {"--version", "extra"}, 2, {"paperdoll: error: --version takes no other argument, got 'extra'"}},
        {"`--version --headless`", {"--version", "--headless"}, 2, {"--version takes no other argument, got '--headless'"}},
        {"`--version --list-plugins`", {"--version", "--list-plugins"}, 2,
         {"--version takes no other argument, got '--list-plugins'"}},
        {"`--list-plugins extra`", {"--list-plugins", "extra"}, 2,
         {"paperdoll: error: --list-plugins takes no other argument but --plugin FILE, got 'extra'"}},
        {"`--list-plugins --frames=3`", {"--list-plugins", "--frames=3"}, 2,
         {"--list-plugins takes no other argument but --plugin FILE, got '--frames=3'"}},
        {"`PAPERDOLL_CONTENT` names a missing folder, no level given", {"--headless", "--frames", "1"}, 1,
         {"PAPERDOLL_CONTENT is '" + fixtures().missing + "', which is not a content folder"},
         false,
         {"PAPERDOLL_CONTENT=" + fixtures().missing}},
    };
    checkAll("paperdoll", kPlayer, rows);
}

TEST_CASE("paperdoll refuses bad levels", "[cli][bad-input][player]") {
    const Fixtures& f = fixtures();
    auto level = [](const std::string& path) {
        return std::vector<std::string>{"--headless", "--frames", "1", path};
    };
    const std::vector<Row> rows = {
        {"level: missing file", level(f.missing), 1, {f.missing, "file not found"}},
        {"level: its name misspelt", level(kContent + "/levels/harnes.level.xml"), 1,
         {"harnes.level.xml: error: cannot open level: file not found; did you mean 'harness.level.xml'?"}},
        {"level: its folder misspelt", level(kContent + "/levelz/harness.level.xml"), 1,
         {"file not found; the folder '" + kContent + "/levelz' does not exist"}},
        {"level: a directory", level(f.folder), 1, {f.folder, "directory"}},
        {"level: empty file", level(f.empty), 1, {f.empty, "empty"}},
        {"level: binary garbage", level(f.garbage), 1, {f.garbage + ":1:", "malformed XML"}},
        {"level: /dev/zero", level(f.device), 1, {f.device, "not a regular file"}},
        {"level: NaN on line 3", level(f.badLevel), 1, {f.badLevel + ":3:", "'y'", "nan"}},
        {"level: its spawn's rig is binary garbage", level(f.badRigLevel), 1,
         {"garbage.bin: error: not an XML rig file (it is a binary file: it holds NUL bytes)"}},
    };
    checkAll("paperdoll", kPlayer, rows);
}

TEST_CASE("paperdoll refuses bad scripts", "[cli][bad-input][player]") {
    const Fixtures& f = fixtures();
    auto script = [](const std::string& path) {
        return std::vector<std::string>{"--headless", kHarness, "--script", path};
    };
    const std::vector<Row> rows = {
        {"--script: missing file", script(f.missing), 2, {f.missing, "No such file"}},
        {"--script: a directory", script(f.folder), 2, {f.folder, "directory"}},
        {"--script: empty file", script(f.empty), 2, {f.empty, "empty"}},
        {"--script: only comments", script(f.commentScript), 2, {f.commentScript, "no commands"}},
        {"--script: binary garbage", script(f.garbage), 2, {f.garbage + ":1:", "binary"}},
        {"--script: /dev/zero", script(f.device), 2, {f.device, "not a regular file"}},
        {"--script: `wait -3` on line 2", script(f.badScript), 2, {f.badScript + ":2:", "negative wait"}},
    };
    checkAll("paperdoll", kPlayer, rows);
}

TEST_CASE("paperdoll refuses bad plugins", "[cli][bad-input][player]") {
    const Fixtures& f = fixtures();
    auto plugin = [](const std::string& path) {
        return std::vector<std::string>{"--headless", "--frames", "1", kHarness, "--plugin", path};
    };
    const std::vector<Row> rows = {
        {"--plugin: missing descriptor", plugin(f.missing), 1, {f.missing, "no such file"}},
        {"--plugin: a directory", plugin(f.folder), 1, {f.folder, "not a file"}},
        {"--plugin: empty descriptor", plugin(f.empty), 1, {f.empty, "empty"}},
        {"--plugin: binary garbage", plugin(f.garbage), 1, {f.garbage + ": error: not a plugin descriptor (it is a binary file"}},
        {"--plugin: bad abi_version on line 2", plugin(f.badPlugin), 1, {f.badPlugin + ":2:", "abi_version"}},
        {"--plugin: its library is missing", plugin(f.noLibrary), 1, {"libnot_built.so", "No such file"}},
        {"--plugin: its library is binary garbage", plugin(f.garbageLibrary), 1, {"libgarbage.so", "is not an ELF shared library"}},
        {"--list-plugins --plugin garbage", {"--list-plugins", "--plugin", f.garbage}, 1, {f.garbage, "not a plugin descriptor"}},
        // Listed, and an error: a script checking an installation must not pass a plugin that cannot run.
        {"--list-plugins: a library missing", {"--list-plugins", "--plugin", f.noLibrary}, 1,
         {f.noLibrary + ": error: plugin 'ragdoll': its library ", "libnot_built.so is missing (build the plugin)"}},
        {"--list-plugins: a library of garbage", {"--list-plugins", "--plugin", f.garbageLibrary}, 1,
         {f.garbageLibrary + ": error: plugin 'ragdoll' cannot load: ", "is not an ELF shared library"}},
    };
    checkAll("paperdoll", kPlayer, rows);
}

TEST_CASE("paperdoll writes --stats-json for a level whose name is not UTF-8", "[cli][bad-input][player]") {
    // A byte that is not UTF-8 in the level's name: the stats writer threw, and the player
    // aborted (exit 134) with no file. It is written as U+FFFD now, the JSON valid.
    const Fixtures& f = fixtures();
    const std::string level = (f.dir / "latin1.level.xml").string(), stats = (f.dir / "latin1.json").string();
    writeFile(level, "<level name=\"caf\xe9\" format=\"1\" units=\"m\">\n"
                     "  <box x=\"0\" y=\"-0.5\" width=\"9\" height=\"1\"/>\n"
                     "</level>\n");
    const test::ProcessResult r =
        test::runProcess({kPlayer, "--headless", "--no-plugin", "--frames", "1", level, "--stats-json", stats});
    INFO(r.err);
    REQUIRE(r.exitCode == 0);
    std::ifstream in(stats);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const nlohmann::json j = nlohmann::json::parse(text);  // throws on invalid JSON
    CHECK(j["level"]["name"] == "caf\xef\xbf\xbd");  // U+FFFD in UTF-8
    CHECK(j["frames"] == 1);
}

TEST_CASE("paperdoll refuses outputs it cannot write", "[cli][bad-input][player]") {
    const Fixtures& f = fixtures();
    const std::string underFile = f.file + "/out";
    auto stats = [](const std::string& path) {
        return std::vector<std::string>{"--headless", "--frames", "1", kHarness, "--stats-json", path};
    };
    auto shot = [](const std::string& path) {
        return std::vector<std::string>{"--frames", "1", "--window", "320x240", kHarness, "--screenshot", path};
    };
    const std::vector<Row> rows = {
        // Refused before the run (exit 2): both files are written at its end.
        {"--stats-json: in a folder that does not exist", stats(f.missing + "/s.json"), 2,
         {"--stats-json '" + f.missing + "/s.json': '" + f.missing + "' does not exist"}},
        {"--stats-json: a directory", stats(f.folder), 2, {"--stats-json '" + f.folder + "': it is a directory"}},
        {"--stats-json: under a regular file", stats(underFile + ".json"), 2,
         {"--stats-json '" + underFile + ".json': '" + f.file + "' is not a folder"}},
        {"--screenshot: in a folder that does not exist", shot(f.missing + "/shot.png"), 2,
         {"--screenshot '" + f.missing + "/shot.png': '" + f.missing + "' does not exist"}},
        {"--screenshot: a directory", shot(f.folder), 2, {"--screenshot '" + f.folder + "': it is a directory"}},
        {"--screenshot: under a regular file", shot(underFile + ".png"), 2,
         {"--screenshot '" + underFile + ".png': '" + f.file + "' is not a folder"}},
        {"`--list-plugins` with standard output on a full disk", {kFullOutput, "--list-plugins"}, 1,
         {"cannot write to standard output", "No space left"}},
        // A write that fails at the run's end is an error too (stb's writer ignored it: exit 0).
        {"--screenshot: onto a full disk", shot("/dev/full"), 1,
         {"paperdoll: error: screenshot: cannot write '/dev/full': No space left on device"}, true},
        // The run's own inputs are refused as outputs: the level was overwritten, then lost.
        {"--stats-json: the level the run plays", {"--headless", "--frames", "1", f.badLevel, "--stats-json", f.badLevel}, 2,
         {"--stats-json '" + f.badLevel + "': it is the level this run reads"}},
        {"--stats-json: the script the run reads",
         {"--headless", kHarness, "--script", f.commentScript, "--stats-json", f.commentScript}, 2,
         {"--stats-json '" + f.commentScript + "': it is the script this run reads"}},
        // Named as the rigs, clips and art a run reads: a typo lost a rig (its text replaced).
        {"--stats-json: named as a rig", stats(f.badRig), 2,
         {"--stats-json '" + f.badRig + "': it ends in .xml, as levels, rigs and clips do, which this would write over: "
          "name it 'bad.rig.json'"}},
        {"--stats-json: named as art", stats(f.missing + ".png"), 2,
         {"--stats-json '" + f.missing + ".png': it ends in .png, as the art of rigs do"}},
        {"--screenshot: named as a clip", shot(f.missing), 2,
         {"--screenshot '" + f.missing + "': it ends in .xml, as levels, rigs and clips do, which this would write over: "
          "name it 'missing.png'"}},
    };
    checkAll("paperdoll", kPlayer, rows);
}

TEST_CASE("paperdoll rig refuses bad commands, options and numbers", "[cli][bad-input][rig]") {
    auto drop = [](std::vector<std::string> extra) {
        std::vector<std::string> args = {"rig", "drop", kStickman};
        args.insert(args.end(), extra.begin(), extra.end());
        return args;
    };
    const std::vector<Row> rows = {
        {"`rig` without a command", {"rig"}, 2, {"missing command"}},
        {"`rig bogus`", {"rig", "bogus"}, 2, {"unknown command 'bogus'"}},
        {"`rig check --bogus`", {"rig", "check", "--bogus"}, 2, {"unknown option '--bogus'"}},
        {"`rig check` without a file", {"rig", "check"}, 2, {"needs at least one FILE"}},
        {"`rig drop --bogus`", drop({"--bogus"}), 2, {"unknown option '--bogus'"}},
        {"`rig drop` with two files", drop({kStickman}), 2, {"takes one FILE"}},
        {"`rig drop --frames` without a value", drop({"--frames"}), 2, {"--frames needs"}},
        {"`rig drop --frames 10 --frames=20` (the second won, unsaid)", drop({"--frames", "10", "--frames=20"}), 2,
         {"--frames is given twice"}},
        {"`rig import --scale 2 --scale 3`", {"rig", "import", "a.json", "b.rig.xml", "--scale", "2", "--scale", "3"}, 2,
         {"--scale is given twice"}},
        {"`rig drop --frames 0`", drop({"--frames", "0"}), 2, {"--frames", "got 0"}},
        {"`rig drop --frames -1`", drop({"--frames", "-1"}), 2, {"--frames", "got -1"}},
        {"`rig drop --frames nan`", drop({"--frames", "nan"}), 2, {"--frames", "'nan'"}},
        {"`rig drop --frames 100001` (too many)", drop({"--frames", "100001"}), 2, {"--frames", "100001"}},
        {"`rig drop --frames 99999999999999999999`", drop({"--frames", "99999999999999999999"}), 2,
         {"--frames", "'99999999999999999999'"}},
        {"`rig drop --push nan`", drop({"--push", "nan"}), 2, {"--push", "'nan'"}},
        {"`rig drop --push inf`", drop({"--push", "inf"}), 2, {"--push", "'inf'"}},
        {"`rig drop --push 1e9`", drop({"--push", "1e9"}), 2, {"--push", "'1e9'"}},
        {"`rig drop --push fast`", drop({"--push", "fast"}), 2, {"--push", "'fast'"}},
        {"`rig generate` with one file", {"rig", "generate", kStickman}, 2, {"needs IN and OUT"}},
        {"`rig generate IN IN`", {"rig", "generate", kStickman, kStickman}, 2, {"is the input file"}},
        {"`rig import` with one file", {"rig", "import", kStickman}, 2, {"needs SKELETON.json and OUT.rig.xml"}},
        {"`rig import --bogus`", {"rig", "import", "--bogus"}, 2, {"unknown option '--bogus'"}},
        {"`rig chek` (a slip of check)", {"rig", "chek", "a.rig.xml"}, 2, {"unknown command 'chek'; did you mean 'check'?"}},
        {"`rig import --scale nan`", {"rig", "import", "a.json", "b.rig.xml", "--scale", "nan"}, 2, {"--scale", "'nan'"}},
        {"`rig import --scale -1`", {"rig", "import", "a.json", "b.rig.xml", "--scale", "-1"}, 2, {"--scale", "'-1'"}},
        {"`rig import --scale 1e-300` (every length past the file's)", {"rig", "import", "a.json", "b.rig.xml", "--scale", "1e-300"},
         2, {"--scale must be a number of units per metre from 0.001 to 1e6, got '1e-300'"}},
        {"`rig import --scale` without a value", {"rig", "import", "a.json", "b.rig.xml", "--scale"}, 2, {"--scale needs"}},
        {"`rig import --skin` without a name", {"rig", "import", "a.json", "b.rig.xml", "--skin"}, 2, {"--skin needs"}},
        {"`rig import IN IN`", {"rig", "import", kStickman, kStickman}, 2, {"is the skeleton file"}},
        {"`rig import` onto an existing OUT", {"rig", "import", "a.json", kStickman}, 2, {"already exists; pass --force"}},
        {"`rig check` with standard output on a full disk", {kFullOutput, "rig", "check", kStickman}, 1,
         {"cannot write to standard output"}},
    };
    checkAll("paperdoll rig", kPlayer, rows);

    // Run where a folder is named like the command (a project's rig/ folder): still the command.
    const std::filesystem::path here = std::filesystem::current_path(), project = test::makeTempDir();
    std::filesystem::create_directory(project / "rig");
    std::filesystem::current_path(project);
    const test::ProcessResult r = test::runProcess({kPlayer, "rig", "check", "--help"});
    std::filesystem::current_path(here);
    std::filesystem::remove_all(project);
    CHECK(r.exitCode == 0);
    CHECK(r.out.starts_with("usage: paperdoll rig check FILE..."));
}

TEST_CASE("paperdoll rig refuses bad rig files", "[cli][bad-input][rig]") {
    const Fixtures& f = fixtures();
    const std::string out = (f.dir / "generated.rig.xml").string();
    const std::vector<Row> rows = {
        {"`rig check`: missing file", {"rig", "check", f.missing}, 1, {f.missing, "file not found"}},
        {"`rig check`: a directory", {"rig", "check", f.folder}, 1, {f.folder, "directory"}},
        {"`rig check`: empty file", {"rig", "check", f.empty}, 1, {f.empty, "empty"}},
        {"`rig check`: binary garbage", {"rig", "check", f.garbage}, 1,
         {f.garbage + ": error: not an XML rig file (it is a binary file: it holds NUL bytes)"}},
        {"`rig check`: /dev/zero", {"rig", "check", f.device}, 1, {f.device, "not a regular file"}},
        {"`rig check`: negative mass on line 4", {"rig", "check", f.badRig}, 1, {f.badRig + ":4:", "mass"}},
        {"`rig drop`: missing file", {"rig", "drop", f.missing}, 1, {f.missing, "file not found"}},
        {"`rig drop`: a directory", {"rig", "drop", f.folder}, 1, {f.folder, "directory"}},
        {"`rig drop`: empty file", {"rig", "drop", f.empty}, 1, {f.empty, "empty"}},
        {"`rig drop`: binary garbage", {"rig", "drop", f.garbage}, 1, {f.garbage + ": error: not an XML rig file"}},
        {"`rig drop`: negative mass on line 4", {"rig", "drop", f.badRig}, 1, {f.badRig + ":4:", "mass"}},
        {"`rig import`: SKELETON missing", {"rig", "import", f.missing, out}, 1, {f.missing, "file not found"}},
        {"`rig import`: SKELETON a directory", {"rig", "import", f.folder, out}, 1, {f.folder, "directory"}},
        {"`rig import`: SKELETON empty", {"rig", "import", f.empty, out}, 1, {f.empty + ":1:1:", "JSON syntax error"}},
        {"`rig import`: SKELETON binary garbage", {"rig", "import", f.garbage, out}, 1,
         {f.garbage + ": error: not a Spine JSON skeleton (it is a binary file: it holds NUL bytes)"}},
        {"`rig import`: SKELETON a rig", {"rig", "import", kStickman, out}, 1,
         {kStickman + ": error: not a Spine JSON skeleton (it is XML, a rig or a level; `paperdoll rig check` reads rigs)"}},
        {"`rig import`: SKELETON a PNG", {"rig", "import", kContent + "/art/paper_doll.png", out}, 1,
         {"paper_doll.png: error: not a Spine JSON skeleton (it is a PNG image: the skeleton is the .json Spine exports "
          "beside it)"}},
        {"`rig import`: SKELETON the atlas", {"rig", "import", kContent + "/spine/paper_doll.atlas", out}, 1,
         {"paper_doll.atlas: error: not a Spine JSON skeleton (it is a libGDX atlas: pass the skeleton's .json, and this "
          "as --atlas FILE)"}},
        {"`rig import`: --atlas the skeleton",
         {"rig", "import", kContent + "/spine/paper_doll.json", out, "--atlas", kContent + "/spine/paper_doll.json"}, 1,
         {"paper_doll.json: error: not a libGDX text atlas (it is JSON, likely the skeleton: the atlas is the .atlas file "
          "Spine exports beside it)"}},
        {"`rig check`: an atlas", {"rig", "check", kContent + "/spine/paper_doll.atlas"}, 1,
         {"paper_doll.atlas: error: not an XML rig file (it is a libGDX atlas; with its Spine skeleton it becomes a rig by "
          "`paperdoll rig import SKELETON.json OUT.rig.xml --atlas FILE`)"}},
        {"`rig import`: SKELETON /dev/zero", {"rig", "import", f.device, out}, 1, {f.device, "not a regular file"}},
        {"`rig generate`: IN missing", {"rig", "generate", f.missing, out}, 1, {f.missing, "file not found"}},
        {"`rig generate`: IN a directory", {"rig", "generate", f.folder, out}, 1, {f.folder, "directory"}},
        {"`rig generate`: IN empty", {"rig", "generate", f.empty, out}, 1, {f.empty, "empty"}},
        {"`rig generate`: IN binary garbage", {"rig", "generate", f.garbage, out}, 1, {f.garbage + ": error: not an XML rig file"}},
        {"`rig check`: a PNG", {"rig", "check", kContent + "/art/paper_doll.png"}, 1,
         {kContent + "/art/paper_doll.png: error: not an XML rig file (it is a PNG image: a rig names its images in <image "
                     "file=...>)"}},
        {"`rig check`: a Spine skeleton", {"rig", "check", kContent + "/spine/paper_doll.json"}, 1,
         {kContent + "/spine/paper_doll.json: error: not an XML rig file (it is JSON; a Spine skeleton becomes a rig with "
                     "`paperdoll rig import SKELETON.json OUT.rig.xml`)"}},
        {"`rig generate`: IN a PNG", {"rig", "generate", kContent + "/art/paper_doll.png", out}, 1,
         {kContent + "/art/paper_doll.png: error: not an XML rig file (it is a PNG image"}},
        {"`rig generate`: OUT in a folder that does not exist", {"rig", "generate", kStickman, f.missing + "/o.rig.xml"},
         2, {"OUT '" + f.missing + "/o.rig.xml': '" + f.missing + "' does not exist"}},
        {"`rig generate`: OUT a directory", {"rig", "generate", kStickman, f.folder}, 1, {f.folder, "directory"}},
        {"`rig generate`: OUT under a regular file", {"rig", "generate", kStickman, f.file + "/o.rig.xml"}, 2,
         {"OUT '" + f.file + "/o.rig.xml': '" + f.file + "' is not a folder"}},
        {"`rig generate`: OUT exists (without --force)", {"rig", "generate", kStickman, f.file}, 2,
         {f.file, "already exists", "--force"}},
    };
    checkAll("paperdoll rig", kPlayer, rows);
    CHECK_FALSE(fs::exists(out));
}

TEST_CASE("paperdoll rig shows a user file's bytes escaped, and never cuts its output at a NUL",
          "[cli][bad-input][rig]") {
    const Fixtures& f = fixtures();
    // The test skeleton with an animation whose name holds a NUL (JSON allows it): the
    // import prints the name in its list of clips, on standard output.
    const std::string spineData = fs::path(kContent).parent_path().string() + "/tests/spine/data";
    std::ifstream mini(spineData + "/mini.json", std::ios::binary);
    std::string json((std::istreambuf_iterator<char>(mini)), std::istreambuf_iterator<char>());
    const size_t swing = json.find("\"swing\"");
    REQUIRE(swing != std::string::npos);
    json.replace(swing, 7, "\"sw\\u0000ing\"");
    const std::string nulJson = (f.dir / "nul_name.json").string();
    writeFile(nulJson, json);
    const std::string png = kContent + "/art/paper_doll.png";
    const std::vector<Row> rows = {
        {"`rig import`: a PNG given as the atlas",
         {"rig", "import", kContent + "/spine/paper_doll.json", (f.dir / "png_atlas.rig.xml").string(), "--atlas", png}, 1,
         {png + ": error: not a libGDX text atlas (it is a PNG image: the atlas is the .atlas text file that names it)\n"}},
        {"`rig import`: an animation named with a NUL",
         {"rig", "import", nulJson, (f.dir / "nul_name.rig.xml").string(), "--atlas", spineData + "/mini.atlas", "--scale", "10"},
         0, {"  sw\\x00ing -> nul_name.sw_ing.anim.xml (once, ", "; as 'sw_ing')\n"}},
    };
    checkAll("paperdoll rig", kPlayer, rows);
    CHECK_FALSE(fs::exists(f.dir / "png_atlas.rig.xml"));
}

TEST_CASE("paperdoll rig COMMAND --help prints that command's usage and exits 0", "[cli][rig]") {
    const std::vector<Row> rows = {
        {"`rig check --help`", {"rig", "check", "--help"}, 0, {"usage: paperdoll rig check FILE... [--json]\n\n  check "}},
        {"`rig import -h`", {"rig", "import", "-h"}, 0, {"usage: paperdoll rig import SKELETON.json OUT.rig.xml"}},
    };
    checkAll("paperdoll rig", kPlayer, rows);
}

TEST_CASE("--help wins over the other arguments read without error, and --version and --list-plugins answer alone",
          "[cli][player][editor]") {
    const Fixtures& f = fixtures();
    checkAll("paperdoll", kPlayer,
             {{"`--help` beside a level", {kHarness, "--help"}, 0, {"usage: paperdoll [LEVEL] [OPTIONS]"}},
              {"`--help` beside a malformed argument, still refused", {"--help", "--frames=x"}, 2, {"--frames", "'x'"}},
              {"`--version` alone", {"--version"}, 0, {"paperdoll "}},
              {"`--list-plugins --plugin FILE`", {"--list-plugins", "--plugin", f.noLibrary}, 1,
               {"found in: " + f.noLibrary + " (--plugin)"}}});
    checkAll("paperdoll_editor", kEditor,
             {{"`--help` beside a level", {kHarness, "--help"}, 0, {"usage: paperdoll_editor"}},
              {"`--help` beside a screenshot into no folder", {"--help", "--screenshot", "nodir/x.png"}, 0,
               {"usage: paperdoll_editor"}},
              {"`--version` alone", {"--version"}, 0, {"paperdoll_editor "}}});
}

TEST_CASE("paperdoll_editor refuses bad options and numbers", "[cli][bad-input][editor]") {
    const std::vector<Row> rows = {
        {"unknown option `--bogus`", {"--bogus"}, 2, {"unknown option '--bogus'"}},
        {"`--scrip` (a slip of --script)", {"--scrip", "x"}, 2, {"unknown option '--scrip'; did you mean '--script'?"}},
        {"two levels", {"a.level.xml", "b.level.xml"}, 2, {"more than one level given: 'a.level.xml' and 'b.level.xml'"}},
        {"a level and --level", {"a.level.xml", "--level", "b.level.xml"}, 2,
         {"more than one level given: 'a.level.xml' and --level"}},
        {"--screenshot in a folder that does not exist", {"--headless", "--frames", "1", "--screenshot", "nodir/x.png"}, 2,
         {"--screenshot 'nodir/x.png': 'nodir' does not exist"}},
        {"`--headless` alone (nothing would end the run)", {"--headless"}, 2,
         {"--headless needs --frames N (how many frames to run) or --script FILE"}},
        {"`--frames` without a value", {"--frames"}, 2, {"--frames"}},
        {"`--frames 0`", {"--frames", "0"}, 2, {"--frames", "'0'"}},
        {"`--frames -1`", {"--frames", "-1"}, 2, {"--frames", "'-1'"}},
        {"`--frames nan`", {"--frames", "nan"}, 2, {"--frames", "'nan'"}},
        {"`--frames abc`", {"--frames", "abc"}, 2, {"--frames", "'abc'"}},
        {"`--frames 99999999999999999999`", {"--frames", "99999999999999999999"}, 2,
         {"--frames", "'99999999999999999999'"}},
        {"`--window 10x10` (too small)", {"--frames", "1", "--window", "10x10"}, 2, {"--window", "'10x10'"}},
        {"`--window 100000x100000`", {"--frames", "1", "--window", "100000x100000"}, 2, {"--window", "'100000x100000'"}},
        {"`--window nanxnan`", {"--frames", "1", "--window", "nanxnan"}, 2, {"--window", "'nanxnan'"}},
        {"`--window 1280x`", {"--frames", "1", "--window", "1280x"}, 2, {"--window", "'1280x'"}},
        // --version answers alone: what is beside it was ignored, exit 0.
        {"`--version extra`", {"--version", "extra"}, 2,
         {"paperdoll_editor: error: --version takes no other argument, got 'extra'"}},
        {"`--version --headless`", {"--headless", "--version"}, 2, {"--version takes no other argument, got '--headless'"}},
        {"`--level` without a value", {"--level"}, 2, {"--level needs"}},
        {"`--rig` followed by another option", {"--rig", "--frames", "1"}, 2, {"--rig needs a file"}},
        {"`PAPERDOLL_CONTENT` names a missing folder, no level given", {"--frames", "1"}, 1,
         {"PAPERDOLL_CONTENT is '" + fixtures().missing + "', which is not a content folder"},
         false,
         {"PAPERDOLL_CONTENT=" + fixtures().missing}},
    };
    checkAll("paperdoll_editor", kEditor, rows);
}

TEST_CASE("paperdoll_editor refuses bad files", "[cli][bad-input][editor]") {
    const Fixtures& f = fixtures();
    auto opt = [](const char* option, const std::string& path) {
        return std::vector<std::string>{"--frames", "1", option, path};
    };
    const std::vector<Row> rows = {
        {"--level: missing file", opt("--level", f.missing), 1, {f.missing, "file not found"}},
        {"--level: a directory", opt("--level", f.folder), 1, {f.folder, "directory"}},
        {"--level: empty file", opt("--level", f.empty), 1, {f.empty, "empty"}},
        {"--level: binary garbage", opt("--level", f.garbage), 1, {f.garbage + ":1:", "malformed XML"}},
        {"--level: NaN on line 3", opt("--level", f.badLevel), 1, {f.badLevel + ":3:", "nan"}},
        {"--level: its spawn's rig is binary garbage", opt("--level", f.badRigLevel), 1,
         {"garbage.bin: error: not an XML rig file (it is a binary file: it holds NUL bytes)"}},
        {"--rig: missing file", opt("--rig", f.missing), 1, {f.missing, "no such file"}},
        {"--rig: a directory", opt("--rig", f.folder), 1, {"--rig names the file", f.folder, "it is a directory"}},
        {"--asset: a directory", opt("--asset", f.folder), 1, {"--asset names the file", f.folder, "it is a directory"}},
        {"--rig: its name misspelt", opt("--rig", kContent + "/rigs/stikman.rig.xml"), 1,
         {"no such file; did you mean 'stickman.rig.xml'? (--rig names the file to edit)"}},
        {"--rig: empty file", opt("--rig", f.empty), 1, {f.empty, "empty"}},
        {"--rig: binary garbage", opt("--rig", f.garbage), 1,
         {f.garbage + ": error: not an XML rig file (it is a binary file: it holds NUL bytes)"}},
        {"--rig: /dev/zero", opt("--rig", f.device), 1, {"--rig names the file", f.device, "not a regular file"}},
        {"--rig: negative mass on line 4", opt("--rig", f.badRig), 1, {f.badRig + ":4:", "mass"}},
        {"--script: missing file", opt("--script", f.missing), 2, {f.missing, "No such file"}},
        {"--script: a directory", opt("--script", f.folder), 2, {f.folder, "directory"}},
        {"--script: empty file", opt("--script", f.empty), 2, {f.empty, "empty"}},
        {"--script: binary garbage", opt("--script", f.garbage), 2, {f.garbage + ":1:", "binary"}},
        {"--script: /dev/zero", opt("--script", f.device), 2, {f.device, "not a regular file"}},
        {"--script: `wait -3` on line 2", opt("--script", f.badScript), 2, {f.badScript + ":2:", "negative wait"}},
        {"--plugin: missing descriptor", opt("--plugin", f.missing), 1, {f.missing, "no such file"}},
        {"--plugin: a directory", opt("--plugin", f.folder), 1, {f.folder, "not a file"}},
        {"--plugin: empty descriptor", opt("--plugin", f.empty), 1, {f.empty, "empty"}},
        {"--plugin: binary garbage", opt("--plugin", f.garbage), 1, {f.garbage + ": error: not a plugin descriptor (it is a binary file"}},
        {"--plugin: its library is missing", opt("--plugin", f.noLibrary), 1,
         {"libnot_built.so", "No such file", "paperdoll_editor: error: the plugin 'ragdoll' did not load"}},
        {"--plugin: its library is binary garbage", opt("--plugin", f.garbageLibrary), 1,
         {"libgarbage.so", "is not an ELF shared library"}},
        {"--screenshot: in a folder that does not exist", opt("--screenshot", f.missing + "/shot.png"), 2,
         {"--screenshot '" + f.missing + "/shot.png': '" + f.missing + "' does not exist"}},
        {"--screenshot: a directory", opt("--screenshot", f.folder), 2, {"--screenshot '" + f.folder + "': it is a directory"}},
        {"--screenshot: named other than .png", opt("--screenshot", "shot.JPG"), 2,
         {"--screenshot 'shot.JPG': a screenshot is written as PNG: name it 'shot.png'"}},
    };
    checkAll("paperdoll_editor", kEditor, rows);
}

#ifdef RAGDOLL_BENCH_EXE
TEST_CASE("ragdoll_bench refuses bad options and numbers", "[cli][bad-input][bench]") {
    const std::vector<Row> rows = {
        {"unknown option `--bogus`", {"--bogus"}, 2, {"unknown option '--bogus'"}},
        {"a stray argument", {"pile"}, 2, {"unexpected argument 'pile'"}},
        {"`--versoin` (a slip of --version)", {"--versoin"}, 2, {"unknown option '--versoin'"}},
        {"`--scene bogus`", {"--scene", "bogus"}, 2, {"unknown scene 'bogus'"}},
        {"`--joints bogus`", {"--joints", "bogus"}, 2, {"unknown joint solver 'bogus'"}},
        {"`--peer bogus`", {"--peer", "bogus"}, 2, {"unknown peer engine 'bogus'"}},
        {"`--n` without a value", {"--n"}, 2, {"--n needs"}},
        {"`--n 0`", {"--n", "0"}, 2, {"--n", "'0'"}},
        {"`--n -1`", {"--n", "-1"}, 2, {"--n", "'-1'"}},
        {"`--n nan`", {"--n", "nan"}, 2, {"--n", "'nan'"}},
        {"`--n 10001` (too many)", {"--n", "10001"}, 2, {"--n", "'10001'"}},
        {"`--n 99999999999999999999`", {"--n", "99999999999999999999"}, 2, {"--n", "'99999999999999999999'"}},
        {"`--steps 0`", {"--steps", "0"}, 2, {"--steps", "'0'"}},
        {"`--steps 1e3`", {"--steps", "1e3"}, 2, {"--steps", "'1e3'"}},
        {"`--steps 100001` (too many)", {"--steps", "100001"}, 2, {"--steps", "'100001'"}},
        {"`--substeps 0`", {"--substeps", "0"}, 2, {"--substeps", "'0'"}},
        {"`--substeps -4`", {"--substeps", "-4"}, 2, {"--substeps", "'-4'"}},
        {"`--substeps nan`", {"--substeps", "nan"}, 2, {"--substeps", "'nan'"}},
        {"`--substeps 65` (too many)", {"--substeps", "65"}, 2, {"--substeps", "'65'"}},
        {"`--iterations 0`", {"--iterations", "0"}, 2, {"--iterations", "'0'"}},
        {"`--iterations abc`", {"--iterations", "abc"}, 2, {"--iterations", "'abc'"}},
        {"`--n 5 --n 6` (twice)", {"--n", "5", "--n", "6"}, 2, {"--n is given twice"}},
        {"`--scene chain --n 5`", {"--scene", "chain", "--n", "5"}, 2, {"--n applies to --scene pile only"}},
        {"`--threads 0`", {"--threads", "0"}, 2, {"--threads", "'0'"}},
        {"`--level` with the pile", {"--level", "x.level.xml"}, 2, {"--level applies to --scene sweep only"}},
        {"`--scene sweep --peer box2d`", {"--scene", "sweep", "--peer", "box2d"}, 2, {"--peer applies to"}},
        {"`--switch` without a kind", {"--scene", "sweep", "--switch", "5.5"}, 2, {"--switch must be X:KIND", "'5.5'"}},
        {"`--switch` with an unknown kind", {"--scene", "sweep", "--switch", "5.5:jump"}, 2, {"'5.5:jump'"}},
        {"`--switch` with no number", {"--scene", "sweep", "--switch", "far:hit"}, 2, {"'far:hit'"}},
        {"`--switch` with the pile", {"--switch", "1:hit"}, 2, {"--switch applies to --scene sweep only"}},
        {"`--trace` with the pile", {"--trace", "t.csv"}, 2, {"--trace applies to --scene sweep only"}},
        {"`--steps` with the sweep", {"--scene", "sweep", "--steps", "10"}, 2, {"--steps applies to the pile and the chain"}},
        {"`--joints` with the sweep", {"--scene", "sweep", "--joints", "iterative"}, 2, {"--joints applies to the pile and the chain"}},
        {"`--no-sleep` with the sweep", {"--scene", "sweep", "--no-sleep"}, 2, {"--no-sleep applies to the pile and the chain"}},
        {"`--joints` twice", {"--joints", "direct", "--joints", "iterative"}, 2, {"--joints is given twice"}},
        {"`--n=5 --n 6` (twice, one with '=')", {"--n=5", "--n", "6"}, 2, {"--n is given twice"}},
        {"`--n=abc`", {"--n=abc"}, 2, {"--n must be a whole number", "'abc'"}},
        {"`--json=1`", {"--json=1"}, 2, {"--json takes no value, got '--json=1'"}},
        {"`--switch` where no character stands", {"--scene", "sweep", "--switch", "500:hit"}, 1,
         {"--switch 500:hit: the character cannot stand at x = 500 m",
          "put there at y = 3 m, it was not standing on the ground 1.5 s later"}},
        {"`--trace` into a missing folder", {"--scene", "sweep", "--switch", "0:standing", "--trace", "no_such_dir/t.csv"}, 1,
         {"no_such_dir/t.csv", "cannot be written: No such file or directory"}},
        {"`--trace` onto a full disk", {"--scene", "sweep", "--switch", "0:standing", "--trace", "/dev/full"}, 1,
         {"/dev/full", "cannot be written"}},
        {"`--scene sweep` with a missing level", {"--scene", "sweep", "--level", "no_such.level.xml"}, 1, {"no_such.level.xml"}},
        {"`--json` with standard output on a full disk", {kFullOutput, "--n", "1", "--steps", "2", "--json"}, 1,
         {"cannot write the results", "No space left"}},
        {"`--help` with standard output on a full disk", {kFullOutput, "--help"}, 1,
         {"cannot write the help to standard output", "No space left"}},
        {"`--version` with standard output on a full disk", {kFullOutput, "--version"}, 1,
         {"cannot write the version to standard output", "No space left"}},
    };
    checkAll("ragdoll_bench", RAGDOLL_BENCH_EXE, rows);
}
#endif
