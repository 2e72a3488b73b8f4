// The engine's plugin loader and hot reload, against the real ragdoll plugin and against
// purpose-built test plugins (test_plugin.cpp) that misbehave on purpose.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <functional>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "paper/draw_list.h"
#include "paper/library.h"
#include "paper/plugin_host.h"
#include "host_queries.h"
#include "editor_script.h"
#include "run_process.h"

namespace fs = std::filesystem;
using namespace paper;
using namespace test;

namespace {

const fs::path kTestPlugins = TEST_PLUGIN_DIR;

std::uint64_t hashBytes(const std::vector<std::uint8_t>& bytes) {
    std::uint64_t h = 1469598103934665603ull;
    for (std::uint8_t b : bytes) h = (h ^ b) * 1099511628211ull;
    return h;
}

/// A folder holding test.plugin and libtest.so, whose library the tests swap.
struct Sandbox {
    fs::path dir = test::makeTempDir();
    fs::path library = dir / "libtest.so";
    PluginDescriptor descriptor;
    std::vector<std::string> log;

    Sandbox() {
        std::ofstream(dir / "test.plugin") << "<plugin name=\"test\" version=\"1.0\" abi_version=\"1\" library=\"test\"/>\n";
        DescriptorResult r = loadPluginDescriptor(dir / "test.plugin");
        REQUIRE(r.descriptor);
        descriptor = *r.descriptor;
    }
    ~Sandbox() { fs::remove_all(dir); }

    /// Replaces libtest.so with a build of the test plugin, atomically, as our build does.
    void install(const std::string& variant) {
        fs::copy_file(kTestPlugins / ("lib" + variant + ".so"), dir / "libtest.so.tmp", fs::copy_options::overwrite_existing);
        fs::rename(dir / "libtest.so.tmp", library);
    }
    std::unique_ptr<PluginHost> host() {
        return std::make_unique<PluginHost>(dir / "copies", [this](PaperLogLevel, const std::string& m) { log.push_back(m); });
    }
    size_t copies() const {
        std::error_code ec;
        size_t n = 0;
        for (auto& entry : fs::directory_iterator(dir / "copies", ec)) n += entry.is_regular_file() ? 1 : 0;
        return n;
    }
    /// The player, headless, 10 steps of a flat level with this plugin, its stats into `stats`.
    test::ProcessResult play(const fs::path& stats) const {
        const fs::path level = dir / "flat.level.xml";
        std::ofstream(level) << "<level name=\"flat\" format=\"1\" units=\"m\" scale=\"1\">\n"
                                "  <box x=\"0\" y=\"-0.5\" width=\"10\" height=\"1\"/>\n</level>\n";
        return test::runProcess({PAPERDOLL_PLAYER_EXE, "--headless", "--frames", "10", "--plugin",
                                 (dir / "test.plugin").string(), "--stats-json", stats.string(), level.string()},
                                {}, 60.0);
    }
};

int stepsOf(PluginHost& host) { return int(statOf(host, "steps")); }

/// Lines of /proc/self/maps naming a file under folder, as distinct files.
size_t mappedFilesUnder(const fs::path& folder) {
    std::ifstream maps("/proc/self/maps");
    std::set<std::string> files;
    std::string line;
    while (std::getline(maps, line))
        if (line.find(folder.string()) != std::string::npos) files.insert(line.substr(line.find('/')));
    return files.size();
}

/// The harness level with the stickman as its player (the tests below compare saved rigs
/// with the stickman's file).
paper::Level stickmanLevel() {
    LevelLoadResult level = loadLevelFile(std::string(PAPERDOLL_CONTENT_DIR) + "/levels/stickman.level.xml");
    REQUIRE(level.level);
    return *level.level;
}

/// A folder under base whose path is at least `length` characters (folders of 200, as a
/// file system allows at most 255 per name).
fs::path longFolder(const fs::path& base, size_t length) {
    fs::path folder = base;
    for (int i = 0; folder.string().size() < length; ++i) folder /= std::string(200, char('a' + i % 26));
    fs::create_directories(folder);
    return folder;
}

/// A rig file with exactly `count` errors, one a line: bodies on bones the rig does not have.
/// Returns the lines they are on.
std::vector<int> writeRigWithErrors(const fs::path& file, int count) {
    std::ofstream out(file);
    out << "<?xml version=\"1.0\"?>\n"                                       // line 1
        << "<rig name=\"many_errors\" format=\"1\" units=\"m\" scale=\"1\">\n"  // line 2
        << "  <bone name=\"torso\" x=\"0\" y=\"1\" angle=\"90\" length=\"0.5\"/>\n";  // line 3
    std::vector<int> lines;
    for (int i = 0; i < count; ++i) {
        out << "  <body bone=\"ghost_" << i << "\" mass=\"1\"/>\n";
        lines.push_back(4 + i);
    }
    out << "</rig>\n";
    return lines;
}

/// How many times part occurs in text.
size_t occurrences(const std::string& text, const std::string& part) {
    size_t count = 0;
    for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + part.size())) ++count;
    return count;
}

/// Every one of the rig's errors, whole (its path, its line and the bone it names), `times`
/// times over.
void checkEveryErrorWhole(const std::string& text, const std::string& rig, const std::vector<int>& lines,
                          size_t times = 1) {
    CHECK(occurrences(text, rig + ":") == times * lines.size());
    for (size_t i = 0; i < lines.size(); ++i) {
        std::string expected = rig + ":" + std::to_string(lines[i]) + ": error: body: bone 'ghost_" + std::to_string(i) +
                               "' is not a bone of this rig";
        INFO("error " << i + 1 << " of " << lines.size());
        CHECK(text.find(expected) != std::string::npos);
    }
}

}  // namespace

TEST_CASE("a new version of a plugin takes over with its state bit for bit", "[plugin]") {
    Sandbox box;
    box.install("test_plugin_v1");
    auto host = box.host();
    REQUIRE(host->load(box.descriptor));
    PaperInput input = {};
    for (int i = 0; i < 10; ++i) host->tick(1.0 / 60, input);
    std::uint64_t before = hashBytes(host->saveState());

    box.install("test_plugin_v2");
    REQUIRE(host->reload());
    CHECK(host->status().version == "2.0");
    CHECK(host->status().reloads == 1);
    CHECK(host->status().lastStateBytes == 4 + 8 + 4096);
    CHECK(hashBytes(host->saveState()) == before);
    host->tick(1.0 / 60, input);
    CHECK(stepsOf(*host) == 11);
    CHECK(box.log.back().find("reloaded test 1.0 -> 2.0, 4108 bytes of state") != std::string::npos);
}

TEST_CASE("what the plugin declares and reflects is copied, and the plugin sees the input", "[plugin]") {
    Sandbox box;
    box.install("test_plugin_v1");
    auto host = box.host();
    REQUIRE(host->load(box.descriptor));
    const PluginDeclarations& d = host->declarations();
    REQUIRE(d.actions.size() == 12);
    CHECK(d.actions[2].keys == std::vector<std::string>{"Left Shift", "Right Shift"});
    CHECK(d.kindNamed("walker") == 0);
    CHECK(d.commandNamed(0, "weight") == 0);
    CHECK(d.assetTypes.empty());
    const int walkers = kindOf(*host, "walker");
    std::vector<ObjectEntry> before = host->objects(walkers);
    REQUIRE(before.size() == 1);
    CHECK(before[0].name == "test");
    const std::vector<PropertyValue> was = host->properties(walkers, before[0].handle);
    CHECK(findProperty(was, "mode")->text == "standing");
    CHECK(findProperty(was, "net_role")->text == "solo");
    CHECK(findProperty(was, "bodies")->value == 1.0);

    PaperInput input = {};
    const int toggle = d.actionNamed("toggle"), role = d.actionNamed("role");
    input.pressed = input.held = (1u << toggle) | (1u << role);
    input.mouseWorld = {1.5f, -2.0f};
    input.mouseDown = 1;
    host->tick(1.0 / 60, input);
    const std::vector<PropertyValue> now = host->properties(walkers, before[0].handle);
    CHECK(findProperty(now, "mode")->text == "fallen");
    CHECK(findProperty(now, "net_role")->text == "leader");
    CHECK(findProperty(now, "bodies")->value == 11.0);
    CHECK(findProperty(now, "position")->vector == Vec2{1.5f, -2.0f});
    CHECK(findProperty(was, "mode")->text == "standing");  // owned copies, not the plugin's pointers
    CHECK(statOf(*host, "edges") == 2.0);

    // A command with its argument, and one that does not exist.
    std::string error;
    REQUIRE(host->runCommand(before[0].handle, 0, 0.75, error));
    CHECK(valueOf(*host, "walker", before[0].handle, "weight") == 0.75);
    CHECK_FALSE(host->runCommand(before[0].handle, 3, 0.0, error));
    CHECK(error == "no such command");
}

TEST_CASE("a killed host's library copies are removed by the next host, nothing else", "[plugin][copies]") {
    // A host killed before closing its library leaves its copy (40 MB for the ragdoll
    // plugin) in its folder under the temp folder; the next host to start removes it.
    const fs::path temp = test::makeTempDir();
    const pid_t child = ::fork();
    if (child == 0) ::_exit(0);
    REQUIRE(child > 0);
    REQUIRE(::waitpid(child, nullptr, 0) == child);  // gone: its pid names an abandoned folder
    const std::string dead = std::to_string(child), alive = std::to_string(::getpid());
    auto folderWith = [&](const std::string& name, const std::vector<std::string>& files) {
        fs::create_directories(temp / name);
        for (const std::string& f : files) std::ofstream(temp / name / f) << "x";
        return temp / name;
    };
    const fs::path editor = folderWith("paperdoll_editor-" + dead, {"libragdoll." + dead + ".0.so", "libragdoll." + dead + ".1.so"});
    const fs::path mixed = folderWith("paperdoll-" + dead, {"libragdoll." + dead + ".0.so", "notes.txt"});
    const fs::path running = folderWith("paperdoll-" + alive, {"libragdoll." + alive + ".0.so"});
    const fs::path other = folderWith("someone-" + dead, {"libragdoll." + dead + ".0.so"});

    CHECK(removeAbandonedCopies(temp) == 1);
    CHECK_FALSE(fs::exists(editor));
    CHECK(fs::exists(mixed / "notes.txt"));  // not ours: kept, and the folder with it
    CHECK_FALSE(fs::exists(mixed / ("libragdoll." + dead + ".0.so")));
    CHECK(fs::exists(running / ("libragdoll." + alive + ".0.so")));  // a live host's
    CHECK(fs::exists(other / ("libragdoll." + dead + ".0.so")));     // not a host's folder
    fs::remove_all(temp);
}

TEST_CASE("a plugin built for another ABI is refused and the old one keeps running", "[plugin]") {
    Sandbox box;
    box.install("test_plugin_v1");
    auto host = box.host();
    REQUIRE(host->load(box.descriptor));
    PaperInput input = {};
    host->tick(1.0 / 60, input);
    box.install("test_plugin_bad_abi");
    CHECK_FALSE(host->reload());
    CHECK_THAT(host->status().lastError, Catch::Contains("ABI mismatch") && Catch::Contains("engine speaks version " + std::to_string(PAPER_PLUGIN_ABI_VERSION)) &&
                                             Catch::Contains("version 999") && Catch::Contains("still running 1.0"));
    CHECK(host->status().version == "1.0");
    host->tick(1.0 / 60, input);
    CHECK(stepsOf(*host) == 2);
    CHECK(box.copies() == 1);  // the refused copy was removed
}

TEST_CASE("a library without the entry symbol is refused and the old one keeps running", "[plugin]") {
    Sandbox box;
    box.install("test_plugin_v1");
    auto host = box.host();
    REQUIRE(host->load(box.descriptor));
    box.install("test_plugin_no_entry");
    CHECK_FALSE(host->reload());
    CHECK_THAT(host->status().lastError, Catch::Contains("does not export the entry symbol 'paperGetPluginApi'"));
    PaperInput input = {};
    host->tick(1.0 / 60, input);
    CHECK(stepsOf(*host) == 1);
    CHECK(host->status().version == "1.0");
}

TEST_CASE("a table with a required function left NULL is refused, naming it, and the old one keeps running", "[plugin]") {
    Sandbox box;
    box.install("test_plugin_v1");
    auto host = box.host();
    REQUIRE(host->load(box.descriptor));
    box.install("test_plugin_null_entry");
    CHECK_FALSE(host->reload());
    CHECK_THAT(host->status().lastError, Catch::Contains("has an incomplete function table: its 'getObject' is null"));
    PaperInput input = {};
    host->tick(1.0 / 60, input);
    CHECK(stepsOf(*host) == 1);
    CHECK(host->status().version == "1.0");
}

TEST_CASE("a library that is not the plugin its descriptor describes is warned about at load", "[plugin]") {
    // The descriptor says test 1.0; installed, v1 is test 1.0 (nothing said) and v2 test 2.0.
    Sandbox box;
    box.install("test_plugin_v1");
    REQUIRE(box.host()->load(box.descriptor));
    for (const std::string& line : box.log) CHECK(line.find("describes") == std::string::npos);
    box.log.clear();
    box.install("test_plugin_v2");
    REQUIRE(box.host()->load(box.descriptor));
    CHECK(std::any_of(box.log.begin(), box.log.end(), [&](const std::string& line) {
        return line == "plugin: " + box.descriptor.path.string() + " describes test 1.0, but its library is test 2.0";
    }));
}

TEST_CASE("a crash in destroy when the host shuts down is said, and the engine lives on", "[plugin][crash]") {
    Sandbox box;
    box.install("test_plugin_crashes_in_destroy");
    {
        auto host = box.host();
        REQUIRE(host->load(box.descriptor));
        host->tick(1.0 / 60, PaperInput{});
    }  // the host goes: destroy crashes
    REQUIRE_FALSE(box.log.empty());
    CHECK_THAT(box.log.back(), Catch::Contains("'test 7.5' crashed while shutting down: SIGSEGV"));

    // At a reload the reload goes on (the new library is running), but a run that ends by
    // itself fails: it passed, the crash only in the log.
    auto host = box.host();
    REQUIRE(host->load(box.descriptor));
    CHECK(host->crashedDuringRun().empty());
    box.install("test_plugin_v1");
    CHECK(host->reload());
    CHECK(host->status().version == "1.0");
    CHECK(host->crashedDuringRun() ==
          "the plugin 'test' crashed during the run (an old instance in destroy at a reload; the log above says where)");
}

TEST_CASE("a library the system can never unload is warned about at load", "[plugin]") {
    // Built without -fno-gnu-unique, a rebuilt plugin reloaded over it ran with the old one's
    // statics, unsaid. The project's own plugins are built with it: no warning.
    Sandbox box;
    box.install("test_plugin_gnu_unique");
    auto host = box.host();
    REQUIRE(host->load(box.descriptor));
    const bool warned = std::any_of(box.log.begin(), box.log.end(), [](const std::string& line) {
        return line.find("has STB_GNU_UNIQUE symbols (Counter::created()::count") != std::string::npos &&
               line.find("build it with -fno-gnu-unique") != std::string::npos;
    });
    CHECK(warned == bool(GNU_UNIQUE_BUILT));
    Sandbox plain;
    plain.install("test_plugin_v1");
    auto other = plain.host();
    REQUIRE(other->load(plain.descriptor));
    for (const std::string& line : plain.log) CHECK(line.find("STB_GNU_UNIQUE") == std::string::npos);
}

TEST_CASE("a property on the HUD reads as its label, value and unit", "[plugin]") {
    // A number had been printed raw and bare: "ball0: 4.054799556732178" for a speed.
    auto property = [](int type, double value, const char* label, const char* unit, const char* text = "") {
        PropertyValue p;
        p.type = type;
        p.value = value;
        p.label = label;
        p.unit = unit;
        p.text = text;
        p.vector = {1.5f, -2.0f};
        return p;
    };
    CHECK(propertyText(property(PAPER_PROPERTY_FLOAT, 4.054799556732178, "Speed", "m/s")) == "Speed 4.05 m/s");
    CHECK(propertyText(property(PAPER_PROPERTY_INT, 3.0, "Bounces", "")) == "Bounces 3");
    CHECK(propertyText(property(PAPER_PROPERTY_VEC2, 0.0, "Position", "m")) == "Position (1.5, -2) m");
    CHECK(propertyText(property(PAPER_PROPERTY_STRING, 0.0, "Mode", "", "fallen")) == "fallen");
    CHECK(propertyText(property(PAPER_PROPERTY_BOOL, 1.0, "leader", "")) == "leader");
    CHECK(propertyText(property(PAPER_PROPERTY_BOOL, 0.0, "leader", "")).empty());
}

TEST_CASE("a table declaring one stats key twice is refused, naming it, and the old one keeps running", "[plugin]") {
    Sandbox box;
    box.install("test_plugin_v1");
    auto host = box.host();
    REQUIRE(host->load(box.descriptor));
    box.install("test_plugin_bad_declaration");
    CHECK_FALSE(host->reload());
    CHECK_THAT(host->status().lastError,
               Catch::Contains("declares the stats key 'edges' twice (a figure and the kind 'walker')"));
    CHECK(host->status().version == "1.0");
    CHECK(host->declarations().kinds[0].statsKey == "walkers");  // still the running library's

    // Two figures of one name: --stats-json wrote one key, the second over the first.
    box.install("test_plugin_two_figures");
    CHECK_FALSE(host->reload());
    CHECK_THAT(host->status().lastError, Catch::Contains("declares two figures named 'steps'"));
    CHECK(host->status().version == "1.0");
}

TEST_CASE("a plugin that refuses the state blob is not swapped in", "[plugin]") {
    Sandbox box;
    box.install("test_plugin_v1");
    auto host = box.host();
    REQUIRE(host->load(box.descriptor));
    PaperInput input = {};
    for (int i = 0; i < 3; ++i) host->tick(1.0 / 60, input);
    std::uint64_t before = hashBytes(host->saveState());
    box.install("test_plugin_refuses_state");
    CHECK_FALSE(host->reload());
    CHECK_THAT(host->status().lastError,
               Catch::Contains("refused the state") && Catch::Contains("refuses every state (test)"));
    CHECK(hashBytes(host->saveState()) == before);  // untouched
    host->tick(1.0 / 60, input);
    CHECK(stepsOf(*host) == 4);
    CHECK(host->status().reloads == 0);
}

TEST_CASE("a library that crashes taking over the state is refused and never unloaded", "[plugin][crash]") {
    // Its instance was destroyed and its library unloaded at once: the unload ran the
    // crashed library's finalizers unguarded, and a player whose reload had failed cleanly
    // died a moment later. Crashed, it is abandoned (crash_guard.h), as after a crash in a run.
    Sandbox box;
    box.install("test_plugin_v1");
    auto host = box.host();
    REQUIRE(host->load(box.descriptor));
    PaperInput input = {};
    for (int i = 0; i < 3; ++i) host->tick(1.0 / 60, input);
    const std::uint64_t before = hashBytes(host->saveState());
    REQUIRE(mappedFilesUnder(box.dir / "copies") == 1);
    box.install("test_plugin_crashes_in_load_state");
    CHECK_FALSE(host->reload());
    CHECK(host->status().lastError ==
          "reload failed, still running 1.0: the new library (7.6, '" + box.library.string() +
              "') crashed while loading the state: SIGSEGV (invalid memory access)");
    CHECK(mappedFilesUnder(box.dir / "copies") == 2);  // the crashed one stays mapped
    CHECK(hashBytes(host->saveState()) == before);
    host->tick(1.0 / 60, input);
    CHECK(stepsOf(*host) == 4);
    // A library that refuses the state (no crash) is unloaded as before; one that then crashes
    // in destroy is kept, as any crashed one (it was unloaded all the same, unsaid).
    box.install("test_plugin_refuses_state");
    CHECK_FALSE(host->reload());
    CHECK(mappedFilesUnder(box.dir / "copies") == 2);
    box.install("test_plugin_refuses_state_crashes_in_destroy");
    CHECK_FALSE(host->reload());
    CHECK_THAT(host->status().lastError, Catch::EndsWith("refuses every state (test) (and crashed in destroy)"));
    CHECK(mappedFilesUnder(box.dir / "copies") == 3);
    host->tick(1.0 / 60, input);
    CHECK(stepsOf(*host) == 5);
}

TEST_CASE("an empty state is handed over at a reload, for the new library to take or refuse", "[plugin]") {
    // A saveState that answered 0 bytes skipped loadState: the new library began the level
    // afresh (a falling figure back at its spawn) and the reload counted as a success.
    Sandbox box;
    box.install("test_plugin_empty_state");
    auto host = box.host();
    REQUIRE(host->load(box.descriptor));
    PaperInput input = {};
    for (int i = 0; i < 3; ++i) host->tick(1.0 / 60, input);
    box.install("test_plugin_v2");
    CHECK_FALSE(host->reload());
    CHECK(host->status().lastError ==
          "reload failed, still running 7.8: the new library (2.0, '" + box.library.string() +
              "') refused the state: not a test-plugin state (0 bytes)");
    CHECK(host->status().reloads == 0);
    host->tick(1.0 / 60, input);
    CHECK(stepsOf(*host) == 4);  // the old one runs on
}

TEST_CASE("a library the loader refuses for an undefined C++ symbol names it as the code spells it", "[plugin]") {
    Sandbox box;
    box.install("test_plugin_v1");
    auto host = box.host();
    REQUIRE(host->load(box.descriptor));
    box.install("test_plugin_undefined_symbol");
    CHECK_FALSE(host->reload());
    CHECK_THAT(host->status().lastError, Catch::Contains("reload failed, still running 1.0") &&
                                             Catch::Contains("undefined symbol: testplugin::neverDefined() "
                                                             "(_ZN10testplugin12neverDefinedEv)"));
}

TEST_CASE("a running plugin whose state does not come out whole is not reloaded", "[plugin]") {
    // Its saveState answers one size when asked and writes another: the new library would
    // have started without any state (the level afresh) and the reload been called done.
    Sandbox box;
    box.install("test_plugin_unsteady_state");
    auto host = box.host();
    REQUIRE(host->load(box.descriptor));
    PaperInput input = {};
    for (int i = 0; i < 3; ++i) host->tick(1.0 / 60, input);
    box.install("test_plugin_v2");
    CHECK_FALSE(host->reload());
    CHECK_THAT(host->status().lastError,
               Catch::Contains("reload failed, still running 7.0") &&
                   Catch::Contains("its saveState asked for 4108 bytes, then wrote 4116"));
    CHECK(host->status().version == "7.0");
    CHECK(host->status().reloads == 0);
    host->tick(1.0 / 60, input);
    CHECK(stepsOf(*host) == 4);  // the old instance goes on where it was
}

TEST_CASE("a saveState asking for more than any state may take is refused, and the plugin runs on", "[plugin]") {
    // (size_t)-1 from saveState: the host's buffer threw inside the crash guard, which took
    // it for the plugin crashing and abandoned a healthy instance.
    Sandbox box;
    box.install("test_plugin_huge_state");
    auto host = box.host();
    REQUIRE(host->load(box.descriptor));
    PaperInput input = {};
    for (int i = 0; i < 3; ++i) host->tick(1.0 / 60, input);
    box.install("test_plugin_v2");
    CHECK_FALSE(host->reload());
    CHECK_THAT(host->status().lastError,
               Catch::Contains("reload failed, still running 7.2") &&
                   Catch::Contains("its saveState asked for 18446744073709551615 bytes, more than the 1024 MiB"));
    CHECK(host->loaded());
    CHECK(host->status().rollbacks == 0);
    host->tick(1.0 / 60, input);
    CHECK(stepsOf(*host) == 4);
}

TEST_CASE("a crash in saveState during a reload rolls back, and the reload ends there", "[plugin]") {
    // v1 runs 5 steps and reloads into a library whose saveState crashes; at the next
    // reload that crash rolls back to v1 with the state handed over at the first. The reload
    // went on with no state, started the new library on the level afresh, and said it was
    // done.
    Sandbox box;
    box.install("test_plugin_v1");
    auto host = box.host();
    REQUIRE(host->load(box.descriptor));
    PaperInput input = {};
    for (int i = 0; i < 5; ++i) host->tick(1.0 / 60, input);
    const std::uint64_t atFirstReload = hashBytes(host->saveState());
    box.install("test_plugin_crashes_in_save");
    REQUIRE(host->reload());
    host->tick(1.0 / 60, input);
    box.install("test_plugin_v2");
    CHECK_FALSE(host->reload());
    CHECK(host->loaded());
    CHECK(host->status().version == "1.0");
    CHECK(host->status().rollbacks == 1);
    CHECK(host->status().reloads == 1);
    CHECK_THAT(host->status().lastError, Catch::Contains("'test 7.3' crashed in saveState (SIGSEGV") &&
                                             Catch::Contains("rolled back to test 1.0"));
    CHECK(hashBytes(host->saveState()) == atFirstReload);
    CHECK(stepsOf(*host) == 5);
}

TEST_CASE("a reloaded plugin that crashes rolls back to the previous library and its state", "[plugin]") {
    Sandbox box;
    box.install("test_plugin_v1");
    auto host = box.host();
    REQUIRE(host->load(box.descriptor));
    PaperInput input = {};
    for (int i = 0; i < 5; ++i) host->tick(1.0 / 60, input);
    std::uint64_t atReload = hashBytes(host->saveState());

    box.install("test_plugin_crashes");
    REQUIRE(host->reload());  // it starts fine; it crashes in its first tick
    CHECK(host->status().version == "5.0");
    host->tick(1.0 / 60, input);  // SIGSEGV inside the plugin: the test process lives on

    CHECK(host->loaded());
    CHECK(host->status().version == "1.0");
    CHECK(host->status().rollbacks == 1);
    CHECK_THAT(host->status().lastError, Catch::Contains("'test 5.0' crashed in tick (SIGSEGV") &&
                                             Catch::Contains("rolled back to test 1.0"));
    CHECK(hashBytes(host->saveState()) == atReload);
    host->tick(1.0 / 60, input);
    CHECK(stepsOf(*host) == 6);
}

TEST_CASE("a library that crashes while it loads is refused and the running plugin keeps running", "[plugin]") {
    // A global constructor that crashes runs inside dlopen, outside every guarded call: the
    // whole process died, a hot reload taking the tuning session with it.
    Sandbox box;
    box.install("test_plugin_v1");
    auto host = box.host();
    REQUIRE(host->load(box.descriptor));
    PaperInput input = {};
    for (int i = 0; i < 3; ++i) host->tick(1.0 / 60, input);
    const std::uint64_t atReload = hashBytes(host->saveState());

    box.install("test_plugin_crashes_on_load");
    CHECK_FALSE(host->reload());
    CHECK(host->loaded());
    CHECK(host->status().version == "1.0");
    CHECK_THAT(host->status().lastError, Catch::Contains("crashed while loading, in its start-up code (SIGSEGV"));
    CHECK(hashBytes(host->saveState()) == atReload);
    host->tick(1.0 / 60, input);
    CHECK(stepsOf(*host) == 4);

    // And as the first load: refused with the same reason; a fixed build then loads.
    auto fresh = box.host();
    CHECK_FALSE(fresh->load(box.descriptor));
    CHECK_FALSE(fresh->loaded());
    CHECK_THAT(fresh->status().lastError, Catch::Contains("crashed while loading"));
    box.install("test_plugin_v2");
    CHECK(fresh->reload());
    CHECK(fresh->status().version == "2.0");
}

TEST_CASE("a crash with nothing to roll back to stops the plugin, not the engine", "[plugin]") {
    Sandbox box;
    box.install("test_plugin_crashes");
    auto host = box.host();
    REQUIRE(host->load(box.descriptor));
    PaperInput input = {};
    host->tick(1.0 / 60, input);
    CHECK_FALSE(host->loaded());
    CHECK_THAT(host->status().lastError, Catch::Contains("no earlier library to go back to"));
    host->tick(1.0 / 60, input);  // harmless now
    // A fixed build brings it back.
    box.install("test_plugin_v1");
    REQUIRE(host->reload());
    CHECK(host->loaded());
    CHECK(host->status().version == "1.0");
}

TEST_CASE("a plugin that fails its first load can be fixed and reloaded", "[plugin]") {
    Sandbox box;
    box.install("test_plugin_bad_abi");
    auto host = box.host();
    CHECK_FALSE(host->load(box.descriptor));
    CHECK_FALSE(host->loaded());
    CHECK_THAT(host->status().lastError, Catch::Contains("ABI mismatch"));
    box.install("test_plugin_v1");
    CHECK(host->reload());
    CHECK(host->loaded());
}

TEST_CASE("a library built for another machine is refused naming the machine", "[plugin]") {
    // An AArch64 build was refused in dlopen's words, which named the host's private copy of
    // it: "cannot open shared object file: No such file or directory".
    Sandbox box;
    std::ifstream source(kTestPlugins / "libtest_plugin_v1.so", std::ios::binary);
    const std::string ours((std::istreambuf_iterator<char>(source)), std::istreambuf_iterator<char>());
    REQUIRE(ours.size() > 64);
    auto build = [&](unsigned char elfClass, unsigned char endian, unsigned machine) {
        std::string bytes = ours;
        bytes[4] = char(elfClass);
        bytes[5] = char(endian);
        bytes[0x12] = char(endian == 1 ? machine & 0xff : machine >> 8);
        bytes[0x13] = char(endian == 1 ? machine >> 8 : machine & 0xff);
        std::ofstream(box.library, std::ios::binary | std::ios::trunc) << bytes;
        std::string why;
        CHECK_FALSE(isCompleteElf(box.library, why));
        return why;
    };
    const std::string file = "'" + box.library.string() + "' is a library for ";
    CHECK(build(2, 1, 183) == file + "AArch64; this engine runs on x86-64");
    CHECK(build(1, 1, 3) == file + "32-bit x86; this engine runs on x86-64");
    CHECK(build(2, 2, 21) == file + "big-endian 64-bit PowerPC; this engine runs on x86-64");
    std::ofstream(box.library, std::ios::binary | std::ios::trunc) << ours;
    std::string why;
    CHECK(isCompleteElf(box.library, why));
}

namespace {
/// Polls the host's watch for up to two seconds; whether it reloaded (or tried to: `tried`
/// is whether a reload was refused with an error).
bool pollWatch(PluginHost& host, bool* tried = nullptr) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    while (std::chrono::steady_clock::now() < until) {
        if (host.reloadIfChanged()) return true;
        if (tried && !host.status().lastError.empty()) return *tried = true, false;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
}
}  // namespace

TEST_CASE("auto-reload sees a library renamed away, and a folder moved away and made anew", "[plugin]") {
    // Renamed away (mv lib lib.old), the change was never seen, where a removal was refused
    // in words; and a build that moves its output folder away and makes a new one left the
    // watch on the old folder: auto-reload was off for good, unsaid.
    Sandbox box;
    box.install("test_plugin_v1");
    auto host = box.host();
    REQUIRE(host->load(box.descriptor));
    host->watch(true);
    fs::rename(box.library, box.dir / "libtest.so.old");
    bool tried = false;
    CHECK_FALSE(pollWatch(*host, &tried));
    CHECK(tried);
    CHECK_THAT(host->status().lastError, Catch::Contains("reload failed, still running 1.0") && Catch::Contains("libtest.so"));
    box.install("test_plugin_v2");
    CHECK(pollWatch(*host));
    CHECK(host->status().version == "2.0");

    // The folder moved away and made anew, the descriptor and a new build put back in it.
    const fs::path moved = box.dir.string() + ".moved";
    fs::rename(box.dir, moved);
    CHECK_FALSE(host->reloadIfChanged());
    fs::create_directories(box.dir);
    fs::copy_file(moved / "test.plugin", box.dir / "test.plugin");
    box.install("test_plugin_v1");
    CHECK(pollWatch(*host));
    CHECK(host->status().version == "1.0");
    CHECK(host->status().reloads == 2);
    // What happens in the old folder now is not the library's (it reloaded the same file).
    fs::copy_file(kTestPlugins / "libtest_plugin_v2.so", moved / "libtest.so", fs::copy_options::overwrite_existing);
    fs::remove_all(moved);
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(600);
    while (std::chrono::steady_clock::now() < until) {
        CHECK_FALSE(host->reloadIfChanged());
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    CHECK(host->status().reloads == 2);
}

TEST_CASE("auto-reload follows a library that is a link to the build's output", "[plugin]") {
    // The plugin's folder holding a link to the library the build writes elsewhere: the
    // watch was on the link's folder, where nothing happens when the build writes, and the
    // new build was never loaded.
    Sandbox box;
    const fs::path out = box.dir / "build" / "out";
    fs::create_directories(out);
    auto build = [&](const std::string& variant, const fs::path& into) {
        fs::copy_file(kTestPlugins / ("lib" + variant + ".so"), into.string() + ".tmp", fs::copy_options::overwrite_existing);
        fs::rename(into.string() + ".tmp", into);
    };
    build("test_plugin_v1", out / "libtest_plugin.so");
    fs::create_directory_symlink("build/out", box.dir / "out");        // a link on the way, too
    fs::create_symlink("out/libtest_plugin.so", box.library);        // relative, as `ln -s` makes it
    auto host = box.host();
    REQUIRE(host->load(box.descriptor));
    host->watch(true);
    CHECK(std::string(host->status().watchMethod) == "inotify");

    build("test_plugin_v2", out / "libtest_plugin.so");               // renamed over the target
    CHECK(pollWatch(*host));
    CHECK(host->status().version == "2.0");
    {   // written in place, as a linker does
        std::ifstream source(kTestPlugins / "libtest_plugin_v1.so", std::ios::binary);
        std::ofstream(out / "libtest_plugin.so", std::ios::binary | std::ios::trunc) << source.rdbuf();
    }
    CHECK(pollWatch(*host));
    CHECK(host->status().version == "1.0");

    // The link pointed elsewhere: the new target is loaded, and then watched instead.
    const fs::path other = box.dir / "other";
    fs::create_directories(other);
    build("test_plugin_v2", other / "libtest_plugin.so");
    fs::create_symlink(other / "libtest_plugin.so", box.dir / "link.tmp");
    fs::rename(box.dir / "link.tmp", box.library);
    CHECK(pollWatch(*host));
    CHECK(host->status().version == "2.0");
    build("test_plugin_v1", other / "libtest_plugin.so");
    CHECK(pollWatch(*host));
    CHECK(host->status().version == "1.0");
    // What happens to the old target now is not the library's.
    build("test_plugin_v2", out / "libtest_plugin.so");
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(600);
    while (std::chrono::steady_clock::now() < until) {
        CHECK_FALSE(host->reloadIfChanged());
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    CHECK(host->status().reloads == 4);

    // The plugin's folder moved away and made anew with the descriptor and a link to a build
    // elsewhere: the link is followed again, and that build's rebuilds are seen.
    const fs::path outside = test::makeTempDir();
    build("test_plugin_v2", outside / "libtest_plugin.so");
    const fs::path moved = box.dir.string() + ".moved";
    fs::rename(box.dir, moved);
    CHECK_FALSE(host->reloadIfChanged());
    fs::create_directories(box.dir);
    fs::copy_file(moved / "test.plugin", box.dir / "test.plugin");
    fs::create_symlink(outside / "libtest_plugin.so", box.library);
    CHECK(pollWatch(*host));
    CHECK(host->status().version == "2.0");
    build("test_plugin_v1", outside / "libtest_plugin.so");
    CHECK(pollWatch(*host));
    CHECK(host->status().version == "1.0");
    CHECK(host->status().reloads == 6);
    fs::remove_all(moved);
    fs::remove_all(outside);
}

TEST_CASE("auto-reload follows a versioned library's chain of links: a middle link pointed anew is seen", "[plugin]") {
    // libtest.so -> libtest.so.1 -> libtest.so.1.0, as a versioned library is installed, and
    // the middle link in another folder: only the folders of the first link and of the end
    // were watched, so an install that pointed libtest.so.1 at a new libtest.so.1.1 was
    // never loaded.
    Sandbox box;
    const fs::path lib = box.dir / "lib";
    fs::create_directories(lib);
    fs::copy_file(kTestPlugins / "libtest_plugin_v1.so", box.dir / "libtest.so.1.0");
    fs::create_symlink("../libtest.so.1.0", lib / "libtest.so.1");
    fs::create_symlink("lib/libtest.so.1", box.library);
    auto host = box.host();
    REQUIRE(host->load(box.descriptor));
    host->watch(true);
    CHECK(std::string(host->status().watchMethod) == "inotify");

    fs::copy_file(kTestPlugins / "libtest_plugin_v2.so", box.dir / "libtest.so.1.1");
    fs::create_symlink("../libtest.so.1.1", lib / "link.tmp");
    fs::rename(lib / "link.tmp", lib / "libtest.so.1");
    CHECK(pollWatch(*host));
    CHECK(host->status().version == "2.0");
    // The new end is watched, the old one no more.
    fs::copy_file(kTestPlugins / "libtest_plugin_v1.so", box.dir / "libtest.so.1.1", fs::copy_options::overwrite_existing);
    CHECK(pollWatch(*host));
    CHECK(host->status().version == "1.0");
    fs::copy_file(kTestPlugins / "libtest_plugin_v2.so", box.dir / "libtest.so.1.0", fs::copy_options::overwrite_existing);
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(600);
    while (std::chrono::steady_clock::now() < until) {
        CHECK_FALSE(host->reloadIfChanged());
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    CHECK(host->status().reloads == 2);
}

TEST_CASE("a library still being written is not loaded until it is complete", "[plugin]") {
    Sandbox box;
    box.install("test_plugin_v1");
    auto host = box.host();
    REQUIRE(host->load(box.descriptor));
    host->watch(true);
    CHECK(std::string(host->status().watchMethod) == "inotify");

    // Write the new build in place, half of it, the way a linker leaves a file mid-link.
    std::ifstream source(kTestPlugins / "libtest_plugin_v2.so", std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(source)), std::istreambuf_iterator<char>());
    {
        std::ofstream partial(box.library, std::ios::binary | std::ios::trunc);
        partial.write(bytes.data(), std::streamsize(bytes.size() / 2));
    }
    std::string why;
    CHECK_FALSE(isCompleteElf(box.library, why));
    CHECK_THAT(why, Catch::Contains("incomplete"));
    // Shorter than an ELF header: its size said.
    const fs::path stub = box.library.parent_path() / "stub.so";
    std::ofstream(stub, std::ios::binary) << "8 bytes!";
    CHECK_FALSE(isCompleteElf(stub, why));
    CHECK(why == "'" + stub.string() + "' is 8 bytes, too short to be a shared library (not one, or a build still writing it)");
    auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(800);
    while (std::chrono::steady_clock::now() < until) {
        CHECK_FALSE(host->reloadIfChanged());
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    CHECK(host->status().version == "1.0");
    CHECK(host->status().reloads == 0);

    // The rest arrives: within a second the new version is running.
    {
        std::ofstream rest(box.library, std::ios::binary | std::ios::app);
        rest.write(bytes.data() + bytes.size() / 2, std::streamsize(bytes.size() - bytes.size() / 2));
    }
    auto start = std::chrono::steady_clock::now();
    bool reloaded = false;
    while (!reloaded && std::chrono::steady_clock::now() - start < std::chrono::seconds(2)) {
        reloaded = host->reloadIfChanged();
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    CHECK(reloaded);
    CHECK(seconds < 1.0);
    CHECK(host->status().version == "2.0");
}

TEST_CASE("a thousand reloads leave no library copies mapped or on disk", "[plugin]") {
    Sandbox box;
    box.install("test_plugin_v1");
    fs::path copies = box.dir / "copies";
    {
        auto host = box.host();
        REQUIRE(host->load(box.descriptor));
        PaperInput input = {};
        for (int i = 0; i < 1000; ++i) {
            box.install(i % 2 ? "test_plugin_v1" : "test_plugin_v2");
            REQUIRE(host->reload());
            host->tick(1.0 / 60, input);
        }
        CHECK(stepsOf(*host) == 1000);
        CHECK(host->status().reloads == 1000);
        // The running library and the previous one (kept for rollback), nothing more.
        CHECK(mappedFilesUnder(copies) == 2);
        CHECK(box.copies() == 2);
    }
    CHECK(mappedFilesUnder(copies) == 0);
    CHECK_FALSE(fs::exists(copies));
}

TEST_CASE("the ragdoll plugin simulates the harness and a reload keeps it bit for bit", "[plugin][ragdoll]") {
    DescriptorResult d = loadPluginDescriptor(fs::path(RAGDOLL_PLUGIN_DIR) / "ragdoll.plugin");
    REQUIRE(d.descriptor);
    CHECK(d.descriptor->name == "ragdoll");
    CHECK(d.descriptor->abiVersion == PAPER_PLUGIN_ABI_VERSION);  // the descriptor says what the library speaks
    LevelLoadResult level = loadLevelFile(std::string(PAPERDOLL_CONTENT_DIR) + "/levels/harness.level.xml");
    REQUIRE(level.level);
    fs::path copies = test::makeTempDir();
    PluginHost reloaded(copies / "a", nullptr), reference(copies / "b", nullptr);
    for (PluginHost* host : {&reloaded, &reference}) {
        REQUIRE(host->load(*d.descriptor));
        REQUIRE(host->setLevel(*level.level));
    }
    // Tuning, which must survive the reload too.
    const int settings = reloaded.declarations().settingsKind();
    REQUIRE(settings >= 0);
    std::vector<PropertyValue> properties = reloaded.properties(settings, 1);
    REQUIRE(properties.size() >= 3);
    CHECK(properties[0].name == "solver.substeps");
    for (PluginHost* host : {&reloaded, &reference}) REQUIRE(host->setProperty(settings, 1, 0, 6));

    PaperInput input = {};
    for (int i = 0; i < 20; ++i)
        for (PluginHost* host : {&reloaded, &reference}) host->tick(1.0 / 60, input);
    std::vector<std::uint8_t> before = reloaded.saveState();
    REQUIRE(reloaded.reload());
    CHECK(reloaded.saveState() == before);
    CHECK(reloaded.properties(settings, 1)[0].value == 6.0);
    for (int i = 0; i < 40; ++i)
        for (PluginHost* host : {&reloaded, &reference}) host->tick(1.0 / 60, input);
    CHECK(reloaded.saveState() == reference.saveState());  // as if nothing had happened
    // Again with the figure lying limp on the ground (its limits at their bounds).
    const int toggle = reloaded.declarations().actionNamed("toggle_ragdoll");
    REQUIRE(toggle >= 0);
    PaperInput limp = {};
    limp.pressed = limp.held = std::uint64_t(1) << toggle;
    for (PluginHost* host : {&reloaded, &reference}) host->tick(1.0 / 60, limp);
    for (int i = 0; i < 80; ++i)
        for (PluginHost* host : {&reloaded, &reference}) host->tick(1.0 / 60, input);
    const int characterKind = kindOf(reloaded, "character");
    CHECK(findProperty(reloaded.properties(characterKind, reloaded.objects(characterKind)[0].handle), "mode")->text ==
          "ragdoll");
    REQUIRE(reloaded.reload());
    for (int i = 0; i < 60; ++i)
        for (PluginHost* host : {&reloaded, &reference}) host->tick(1.0 / 60, input);
    CHECK(reloaded.saveState() == reference.saveState());
    std::vector<ObjectEntry> characters = reloaded.objects(characterKind);
    REQUIRE(characters.size() == level.level->spawns.size());
    CHECK(characters[0].name == level.level->spawns[0].name);
    int characterBodies = 0;
    for (const ObjectEntry& c : characters) characterBodies += int(valueOf(reloaded, "character", c.handle, "bodies"));
    CHECK(statOf(reloaded, "bodies") == double(level.level->terrain.size() + level.level->props.size() + characterBodies));
    // The run's figures came across the reload, and are within the joints' goals.
    CHECK(statOf(reloaded, "run_max_stretch_m") == statOf(reference, "run_max_stretch_m"));
    CHECK(statOf(reloaded, "run_max_limit_violation_deg") == statOf(reference, "run_max_limit_violation_deg"));
    CHECK(statOf(reloaded, "run_max_stretch_m") <= 0.001);
    CHECK(statOf(reloaded, "run_max_limit_violation_deg") <= 1.0);
    fs::remove_all(copies);
}

TEST_CASE("plugin descriptors are validated with file and line", "[plugin][descriptor]") {
    fs::path dir = test::makeTempDir();
    auto write = [&](const std::string& name, const std::string& text) {
        std::ofstream(dir / name) << text;
        return dir / name;
    };
    DescriptorResult good = loadPluginDescriptor(write("good.plugin",
        "<?xml version=\"1.0\"?>\n<plugin name=\"x\" friendly_name=\"X!\" version=\"2.1\" abi_version=\"1\" library=\"x\" "
        "loading_phase=\"post_default\">\n<description>Does x.</description>\n</plugin>\n"));
    REQUIRE(good.descriptor);
    CHECK(good.descriptor->friendlyName == "X!");
    CHECK(good.descriptor->loadingPhase == LoadingPhase::PostDefault);
    CHECK(good.descriptor->description == "Does x.");
    CHECK(good.descriptor->libraryPath() == dir / "libx.so");

    struct Case {
        const char* text;
        const char* message;
    };
    const Case cases[] = {
        {"<plugin version=\"1\" abi_version=\"1\" library=\"x\"/>", ":1: error: plugin: missing required attribute 'name'"},
        {"\n<plugin name=\"x\" version=\"1\" abi_version=\"one\" library=\"x\"/>", ":2: error: plugin: attribute 'abi_version' must be a positive whole number, got 'one'"},
        {"<plugin name=\"x\" version=\"1\" abi_version=\"1\" library=\"../x\"/>", "attribute 'library' is a base name"},
        {"<plugin name=\"x\" version=\"1\" abi_version=\"1\" library=\"x\" loading_phase=\"soon\"/>", "unknown value 'soon'"},
        {"<level/>", ":1: error: the root element must be <plugin>"},
        {"<plugin name=\"x\"", "malformed XML"},
        // The library given for its descriptor read "malformed XML: broken text or entity".
        {"\x7f" "ELF\x02\x01\x01", ": error: it is a shared library, not a plugin descriptor: give the *.plugin file"},
        {"\x89PNG\r\n\x1a\n", ": error: not a plugin descriptor (it is a PNG image"},
    };
    int i = 0;
    for (const Case& c : cases) {
        fs::path file = write("bad" + std::to_string(i++) + ".plugin", c.text);
        DescriptorResult r = loadPluginDescriptor(file);
        CAPTURE(c.text);
        CHECK_FALSE(r.descriptor);
        REQUIRE_FALSE(r.diagnostics.empty());
        CHECK_THAT(r.diagnostics[0].format(), Catch::StartsWith(file.string()) && Catch::Contains(c.message));
    }
    DescriptorResult missing = loadPluginDescriptor(dir / "nope.plugin");
    REQUIRE_FALSE(missing.diagnostics.empty());
    CHECK_THAT(missing.diagnostics[0].format(), Catch::Contains("no such file"));

    // findPlugins lists the good ones, sorted by phase, and reports the bad ones.
    std::vector<Diagnostic> diagnostics;
    std::vector<PluginDescriptor> found = findPlugins({dir}, diagnostics);
    REQUIRE(found.size() == 1);
    CHECK(found[0].name == "x");
    CHECK(diagnostics.size() >= 6);
    fs::remove_all(dir);
}

TEST_CASE("plugins are found in the search path's order within a phase, and a name found twice is warned about",
          "[plugin][descriptor]") {
    // --help says the first found in $PAPERDOLL_PLUGIN_PATH, then plugins/: sorted by name,
    // a folder's "zzz" lost its place to the "aaa" of the next folder.
    const fs::path first = test::makeTempDir(), second = test::makeTempDir();
    auto describe = [](const fs::path& file, const char* name, const char* phase) {
        std::ofstream(file) << "<plugin name=\"" << name << "\" version=\"1\" abi_version=\"1\" library=\"x\" loading_phase=\""
                            << phase << "\"/>\n";
    };
    describe(first / "b.plugin", "zzz", "default");
    describe(first / "a.plugin", "yyy", "default");
    describe(second / "a.plugin", "aaa", "default");
    describe(second / "b.plugin", "zzz", "default");
    describe(second / "c.plugin", "early", "pre_default");
    std::vector<Diagnostic> diagnostics;
    const std::vector<PluginDescriptor> found = findPlugins({first, second}, diagnostics);
    std::vector<std::string> names;
    for (const PluginDescriptor& d : found) names.push_back(d.name);
    CHECK(names == std::vector<std::string>{"early", "yyy", "zzz", "aaa", "zzz"});
    REQUIRE(diagnostics.size() == 1);
    CHECK(diagnostics[0].severity == Severity::Warning);
    CHECK(diagnostics[0].format() == (second / "b.plugin").string() + ": warning: plugin 'zzz' is described by " +
                                         (first / "b.plugin").string() + " too, which comes first");

    // One folder named twice, in other words (the plugins folder in $PAPERDOLL_PLUGIN_PATH
    // and beside the executable), is read once: no descriptor of it is warned against itself.
    diagnostics.clear();
    const std::vector<PluginDescriptor> once = findPlugins({first, first / "." / ".." / first.filename()}, diagnostics);
    CHECK(once.size() == 2);
    CHECK(diagnostics.empty());

    // One descriptor reached two ways, through a folder of links to it and to its library, is
    // listed once (the editor's Plugins found showed two identical entries); a link to the
    // descriptor alone names another library (beside the link), and is listed.
    const fs::path links = test::makeTempDir(), build = test::makeTempDir();
    std::ofstream(build / "libx.so") << "not loaded here\n";
    describe(build / "x.plugin", "linked", "default");
    fs::create_symlink(build / "x.plugin", links / "x.plugin");
    fs::create_symlink(build / "libx.so", links / "libx.so");
    diagnostics.clear();
    const std::vector<PluginDescriptor> linked = findPlugins({links, build}, diagnostics);
    REQUIRE(linked.size() == 1);
    CHECK(linked[0].path == links / "x.plugin");
    CHECK(diagnostics.empty());
    fs::remove(links / "libx.so");
    CHECK(findPlugins({links, build}, diagnostics).size() == 2);
    fs::remove_all(links);
    fs::remove_all(build);

    // A misspelt attribute is named, beside the required one it leaves missing.
    std::ofstream(first / "typo.plugin") << "<plugin name=\"t\" version=\"1\" abi_version=\"1\" libary=\"t\"/>\n";
    const DescriptorResult typo = loadPluginDescriptor(first / "typo.plugin");
    CHECK_FALSE(typo.descriptor);
    REQUIRE(typo.diagnostics.size() == 2);
    CHECK(typo.diagnostics[0].format() ==
          (first / "typo.plugin").string() + ":1: warning: plugin: unknown attribute 'libary' ignored; did you mean 'library'?");
    CHECK_THAT(typo.diagnostics[1].message, Catch::Contains("missing required attribute 'library'"));

    // The library's file name where its base name goes: the loader looked for liblibt.so.so.
    std::ofstream(first / "whole.plugin") << "<plugin name=\"t\" version=\"1\" abi_version=\"1\" library=\"libt.so\"/>\n";
    const DescriptorResult whole = loadPluginDescriptor(first / "whole.plugin");
    CHECK_FALSE(whole.descriptor);
    REQUIRE(whole.diagnostics.size() == 1);
    CHECK_THAT(whole.diagnostics[0].message,
               Catch::Contains("library 'libt.so' is the file's name; give its base name, library=\"t\""));
    fs::remove_all(first);
    fs::remove_all(second);
}

TEST_CASE("the ragdoll plugin's joints are edited live, kept across a reload and saved into the rig file", "[plugin][ragdoll]") {
    const paper::Level level = stickmanLevel();
    fs::path dir = test::makeTempDir();
    PluginHost host(dir / "copies", nullptr);
    REQUIRE(host.load(ragdollDescriptor()));
    REQUIRE(host.setLevel(level));
    const int jointKind = kindOf(host, "joint");
    REQUIRE(host.objects(jointKind).size() == 9);
    const ObjectEntry elbow = objectOf(host, "joint", "elbow_L");
    CHECK(valueOf(host, "joint", elbow.handle, "upper") == Approx(135.0));
    CHECK(elbow.owner == 0);
    CHECK(valueOf(host, "joint", elbow.handle, "mirrored") == 0.0);  // the spawn faces right
    CHECK(valueOf(host, "joint", elbow.handle, "rest_offset") == Approx(0.0).margin(1e-6));  // forearm straight on
    CHECK(propertyOf(host, "joint", elbow.handle, "pivot").flags & PAPER_PROPERTY_HIDDEN);   // the gizmo's, not the inspector's
    const std::uint64_t handle = elbow.handle;
    // Edited: live, refused when out of order, kept across a reload.
    CHECK_FALSE(host.setProperty(jointKind, handle, "lower", 140.0));
    REQUIRE(host.setProperty(jointKind, handle, "upper", 100.0));
    REQUIRE(host.reload());
    CHECK(valueOf(host, "joint", handle, "upper") == 100.0);
    // Saved into a copy of the rig: only that attribute changes.
    const fs::path original = fs::path(PAPERDOLL_CONTENT_DIR) / "rigs" / "stickman.rig.xml";
    const fs::path copy = dir / "stickman.rig.xml";
    std::string error;
    const std::string rigFile = level.spawns.front().asset;
    bool ok = host.saveAsset(rigFile, copy.string(), error);
    INFO(error);
    REQUIRE(ok);
    auto read = [](const fs::path& p) {
        std::ifstream in(p);
        return std::string(std::istreambuf_iterator<char>(in), {});
    };
    std::string expected = read(original);
    const std::string was = "<joint name=\"elbow_L\" parent=\"upper_arm.L\" child=\"forearm.L\" lower=\"0\" upper=\"135\"";
    REQUIRE(expected.find(was) != std::string::npos);
    expected.replace(expected.find(was), was.size(),
                     "<joint name=\"elbow_L\" parent=\"upper_arm.L\" child=\"forearm.L\" lower=\"0\" upper=\"100\"");
    const std::string saved = read(copy);
    if (saved != expected) {  // show where
        size_t at = 0;
        while (at < saved.size() && at < expected.size() && saved[at] == expected[at]) ++at;
        INFO("first difference at byte " << at << ": saved '" << saved.substr(at, 60) << "' expected '"
                                         << expected.substr(at, 60) << "'");
        CHECK(saved == expected);
    }
    // A path that cannot be written is refused with the reason.
    CHECK_FALSE(host.saveAsset(rigFile, (dir / "no" / "such" / "folder" / "x.rig.xml").string(), error));
    CHECK(error.find("cannot save") != std::string::npos);
    CHECK_FALSE(host.saveAsset((dir / "other.rig.xml").string(), "", error));
    CHECK_THAT(error, Catch::Contains("no character of this level was made from"));
    // The blend weight command reaches the character.
    const int characterKind = kindOf(host, "character");
    const int blend = host.declarations().commandNamed(characterKind, "blend_weight");
    REQUIRE(blend >= 0);
    const ObjectEntry player = host.objects(characterKind).front();
    REQUIRE(host.runCommand(player.handle, blend, 0.5, error));
    CHECK(propertyOf(host, "character", player.handle, "mode").text == "blend");
    CHECK(valueOf(host, "character", player.handle, "blend_weight") == Approx(0.5));
    CHECK_FALSE(host.runCommand(player.handle, blend, 1.5, error));
    CHECK(error == "a blend weight is from 0 to 1");
    REQUIRE(host.runCommand(player.handle, blend, 0.0, error));
    CHECK(propertyOf(host, "character", player.handle, "mode").text == "animated");
    fs::remove_all(dir);
}

TEST_CASE("the ragdoll plugin's bodies are listed on their bones, and joint and body properties are edited live, kept "
          "across a reload and saved",
          "[plugin][ragdoll]") {
    const paper::Level level = stickmanLevel();
    fs::path dir = test::makeTempDir();
    PluginHost host(dir / "copies", nullptr);
    REQUIRE(host.load(ragdollDescriptor()));
    REQUIRE(host.setLevel(level));

    const int jointKind = kindOf(host, "joint"), bodyKind = kindOf(host, "body");
    auto propertyIndex = [&](int kind, std::uint64_t handle, const char* name) {
        std::vector<PropertyValue> list = host.properties(kind, handle);
        for (size_t i = 0; i < list.size(); ++i)
            if (list[i].name == name) return int(i);
        FAIL("no property " << name);
        return -1;
    };
    auto value = [&](int kind, std::uint64_t handle, const char* name) {
        return host.properties(kind, handle)[size_t(propertyIndex(kind, handle, name))].value;
    };
    auto vector = [&](int kind, std::uint64_t handle, const char* name) {
        return host.properties(kind, handle)[size_t(propertyIndex(kind, handle, name))].vector;
    };

    // Every bone's body, drawn where the bone is: the forearm's capsule starts at the elbow.
    REQUIRE(host.objects(bodyKind).size() == 10);
    const ObjectEntry forearm = objectOf(host, "body", "forearm_L");
    const ObjectEntry elbow = objectOf(host, "joint", "elbow_L");
    CHECK(propertyOf(host, "body", forearm.handle, "shape").text == "capsule");
    CHECK(forearm.owner == 0);
    CHECK(value(bodyKind, forearm.handle, "simulated") == 0.0);  // standing: animated
    CHECK(value(bodyKind, forearm.handle, "radius") == Approx(0.04));  // half the visual's 8 cm line
    const Vec2 a = vector(bodyKind, forearm.handle, "a"), b = vector(bodyKind, forearm.handle, "b");
    const Vec2 pivot = vector(jointKind, elbow.handle, "pivot");
    CHECK(std::hypot(a.x - pivot.x, a.y - pivot.y) < 1e-6);
    CHECK(std::hypot(b.x - a.x, b.y - a.y) == Approx(0.27).epsilon(1e-6));
    CHECK(propertyOf(host, "body", objectOf(host, "body", "head").handle, "shape").text == "circle");

    // A level the plugin refuses leaves the running one and says why; the next good one clears that.
    paper::Level broken = level;
    broken.spawns[0].asset = (dir / "missing.rig.xml").string();
    CHECK_FALSE(host.setLevel(broken));
    CHECK_THAT(host.status().lastError, Catch::Contains("missing.rig.xml"));
    REQUIRE(host.setLevel(level));
    CHECK(host.status().lastError.empty());

    // The property lists, with their units: the tuning the inspector shows, then what gizmos
    // and outlines read (hidden from it, or read only).
    std::vector<PropertyValue> jointProps = host.properties(jointKind, elbow.handle);
    std::vector<PropertyValue> bodyProps = host.properties(bodyKind, forearm.handle);
    auto editable = [](const std::vector<PropertyValue>& list) {
        return std::count_if(list.begin(), list.end(), [](const PropertyValue& p) { return !(p.flags & PAPER_PROPERTY_READ_ONLY); });
    };
    CHECK(editable(jointProps) == 6);
    CHECK(editable(bodyProps) == 6);  // the five the Inspector shows, and the hidden "selected" tools set
    CHECK(value(jointKind, elbow.handle, "upper") == Approx(135.0));
    CHECK(jointProps[size_t(propertyIndex(jointKind, elbow.handle, "upper"))].unit == "°");
    CHECK(value(jointKind, elbow.handle, "damping") == Approx(1.5));
    CHECK(value(jointKind, elbow.handle, "friction") == Approx(1.0));
    CHECK(jointProps[size_t(propertyIndex(jointKind, elbow.handle, "friction"))].unit == "N·m");
    CHECK(value(bodyKind, forearm.handle, "mass") == Approx(1.5));
    CHECK(value(bodyKind, forearm.handle, "angular_damping") == Approx(0.5));
    CHECK(host.properties(bodyKind, elbow.handle | 0xffff).empty());  // no such body

    // Refused, changing nothing: out of range, not finite, crossing limits, read only, unknown index or handle.
    const int mass = propertyIndex(bodyKind, forearm.handle, "mass");
    const int lower = propertyIndex(jointKind, elbow.handle, "lower");
    CHECK_FALSE(host.setProperty(bodyKind, forearm.handle, mass, -1.0));
    CHECK_FALSE(host.setProperty(bodyKind, forearm.handle, mass, std::nan("")));
    CHECK_FALSE(host.setProperty(jointKind, elbow.handle, lower, 140.0));  // above upper = 135
    CHECK_FALSE(host.setProperty(jointKind, elbow.handle, "angle", 10.0));
    CHECK_FALSE(host.setProperty(bodyKind, forearm.handle, 99, 1.0));
    CHECK_FALSE(host.setProperty(bodyKind, std::uint64_t(7) << 32, mass, 1.0));
    CHECK(value(bodyKind, forearm.handle, "mass") == 1.5);

    // Edited, then carried across a reload.
    REQUIRE(host.setProperty(bodyKind, forearm.handle, mass, 2.5));
    REQUIRE(host.setProperty(bodyKind, forearm.handle, "radius", 0.05));
    REQUIRE(host.setProperty(jointKind, elbow.handle, "stiffness", 0.8));
    REQUIRE(host.setProperty(jointKind, elbow.handle, "collide", 1.0));
    REQUIRE(host.setProperty(jointKind, elbow.handle, "upper", 100.0));
    REQUIRE(host.setProperty(jointKind, elbow.handle, "friction", 0.4));
    REQUIRE(host.reload());
    CHECK(value(bodyKind, forearm.handle, "mass") == 2.5);
    CHECK(value(bodyKind, forearm.handle, "radius") == 0.05);
    CHECK(value(jointKind, elbow.handle, "stiffness") == 0.8);
    CHECK(value(jointKind, elbow.handle, "collide") == 1.0);
    CHECK(value(jointKind, elbow.handle, "upper") == Approx(100.0).epsilon(1e-12));
    CHECK(value(jointKind, elbow.handle, "friction") == 0.4);

    // Saved into a copy of the rig: the forearm's body and the elbow's joint lines change, nothing else.
    const fs::path copy = dir / "stickman.rig.xml";
    std::string error;
    REQUIRE(host.saveAsset(level.spawns.front().asset, copy.string(), error));
    std::ifstream originalIn(fs::path(PAPERDOLL_CONTENT_DIR) / "rigs" / "stickman.rig.xml"), savedIn(copy);
    std::string originalLine, savedLine;
    std::vector<std::pair<std::string, std::string>> changed;
    while (std::getline(originalIn, originalLine) && std::getline(savedIn, savedLine))
        if (originalLine != savedLine) changed.emplace_back(originalLine, savedLine);
    CHECK_FALSE(std::getline(savedIn, savedLine));  // no line added or lost
    REQUIRE(changed.size() == 2);
    CHECK(changed[0].second ==
          "  <body bone=\"forearm.L\" mass=\"2.5\" linear_damping=\"0.05\" angular_damping=\"0.5\" radius=\"5\"/>");
    CHECK(changed[1].second == "  <joint name=\"elbow_L\" parent=\"upper_arm.L\" child=\"forearm.L\" lower=\"0\" "
                               "upper=\"100\" damping=\"1.5\" friction=\"0.4\" stiffness=\"0.8\" collide=\"true\"/>");
    fs::remove_all(dir);
}

TEST_CASE("a rig with 40 errors at a 2000-character path reaches the host and the programs whole", "[plugin][ragdoll][messages]") {
    fs::path dir = test::makeTempDir();
    fs::path folder = longFolder(dir, 2000);
    fs::path rig = folder / "many_errors.rig.xml";
    REQUIRE(rig.string().size() > 2000);
    std::vector<int> lines = writeRigWithErrors(rig, 40);

    SECTION("through the plugin host: the refused level's reason") {
        paper::Level level = stickmanLevel();
        level.spawns.front().asset = rig.string();
        std::vector<std::string> log;
        PluginHost host(dir / "copies", [&](PaperLogLevel, const std::string& m) { log.push_back(m); });
        REQUIRE(host.load(ragdollDescriptor()));
        CHECK_FALSE(host.setLevel(level));
        const std::string& reason = host.status().lastError;
        INFO(reason.size() << " characters");
        CHECK(reason.size() > 40 * 2000);
        checkEveryErrorWhole(reason, rig.string(), lines);
        REQUIRE_FALSE(log.empty());
        checkEveryErrorWhole(log.back(), rig.string(), lines);
    }
    SECTION("`paperdoll rig check`") {
        test::ProcessResult r = test::runProcess({PAPERDOLL_PLAYER_EXE, "rig", "check", rig.string()}, {}, 60.0);
        CHECK(r.exitCode == 1);
        checkEveryErrorWhole(r.err, rig.string(), lines);
        CHECK(occurrences(r.err, ": error: ") == 40);
    }
    SECTION("the player, headless: the plugin refuses the level, and says all of why") {
        fs::path levelFile = dir / "one_spawn.level.xml";
        std::ofstream(levelFile) << "<level name=\"one\" format=\"1\">\n"
                                    "  <box x=\"0\" y=\"-0.5\" width=\"10\" height=\"1\"/>\n"
                                    "  <spawn name=\"many\" asset=\"" << rig.string() << "\" x=\"0\" y=\"0\"/>\n"
                                    "</level>\n";
        test::ProcessResult r = test::runProcess({PAPERDOLL_PLAYER_EXE, "--headless", "--frames", "1", levelFile.string()},
                                                 {"PAPERDOLL_PLUGIN_PATH=" RAGDOLL_PLUGIN_DIR}, 60.0);
        CHECK(r.exitCode == 1);
        // Once, in the log's line as the plugin refuses; the run's last line points to it.
        checkEveryErrorWhole(r.err, rig.string(), lines);
        CHECK_THAT(r.err, Catch::Contains("cannot run the level " + levelFile.string() + " (the error above says why)"));
        CHECK_THAT(r.err, Catch::Contains("(" + rig.string() + " is the rig of the level's spawn 'many')"));
    }
    fs::remove_all(dir);
}

namespace {

/// The harness level copied into dir with the content it names, the paper doll's rig text
/// changed line by line by `edit`; the level as loaded from there.
LevelLoadResult harnessWithEditedDoll(const fs::path& dir, const std::function<std::string(const std::string&)>& edit) {
    const fs::path content = PAPERDOLL_CONTENT_DIR;
    for (const char* folder : {"rigs", "anims", "art"}) fs::copy(content / folder, dir / folder, fs::copy_options::recursive);
    fs::create_directories(dir / "levels");
    fs::copy_file(content / "levels" / "harness.level.xml", dir / "levels" / "harness.level.xml");
    const fs::path rig = dir / "rigs" / "paper_doll.rig.xml";
    std::ifstream in(rig);
    std::string text;
    for (std::string line; std::getline(in, line);) text += edit(line) + "\n";
    in.close();
    std::ofstream(rig) << text;
    return loadLevelFile((dir / "levels" / "harness.level.xml").string());
}

}  // namespace

TEST_CASE("a part made transparent by its colour takes its shadow and paper rim with it", "[plugin][ragdoll][sprites]") {
    // A head tinted #ffffff00 still drew an opaque paper rim and a shadow over the torso.
    const fs::path dir = test::makeTempDir();
    const std::uint32_t headAlpha = GENERATE(0u, 128u);
    INFO("the head's colour alpha " << headAlpha);
    bool tinted = false;
    LevelLoadResult level = harnessWithEditedDoll(dir, [&](const std::string& line) {
        const std::string headSprite = "<sprite bone=\"head\" ";
        if (line.find(headSprite) == std::string::npos) return line;
        char color[32];
        std::snprintf(color, sizeof color, "color=\"#ffffff%02x\" ", headAlpha);
        tinted = true;
        return std::string(line).insert(line.find(headSprite) + headSprite.size(), color);
    });
    REQUIRE(tinted);
    REQUIRE(level.level);
    PluginHost host(dir / "copies", nullptr);
    REQUIRE(host.load(ragdollDescriptor()));
    REQUIRE(host.setLevel(*level.level));
    DrawList list;
    host.draw(list, PAPER_DRAW_ART);
    // Quads in drawing order: the 12 parts' shadows, then each part's rim and itself; the
    // head is 7th in z order.
    std::uint32_t firstIndex = 0;
    for (const DrawBatch& b : list.batches())
        if (b.image > 0) {
            REQUIRE(b.indexCount == 12 * 3 * 6);  // one batch: the atlas's
            firstIndex = b.firstIndex;
        }
    auto alphaOfQuad = [&](int quad) {  // its two triangles' six corners, one alpha
        auto alphaAt = [&](int k) { return list.vertices()[list.indices()[firstIndex + 6 * std::uint32_t(quad) + std::uint32_t(k)]].rgba >> 24; };
        for (int k = 1; k < 6; ++k) CHECK(alphaAt(k) == alphaAt(0));
        return alphaAt(0);
    };
    const int head = 6;
    CHECK(alphaOfQuad(head) == 120 * headAlpha / 255);             // its shadow
    CHECK(alphaOfQuad(12 + 2 * head) == 255 * headAlpha / 255);    // its rim
    CHECK(alphaOfQuad(12 + 2 * head + 1) == headAlpha);            // itself
    CHECK(alphaOfQuad(head - 1) == 120);                           // the torso's shadow, as before
    CHECK(alphaOfQuad(12 + 2 * (head - 1)) == 255);                // and its rim
    fs::remove_all(dir);
}

TEST_CASE("in a rig of lines and cut-out parts, the far side's lines lie behind the parts, the near side's in front",
          "[plugin][ragdoll][sprites]") {
    // Every line was drawn over every part: the far leg over the torso's art.
    const fs::path dir = test::makeTempDir();
    LevelLoadResult level = harnessWithEditedDoll(dir, [](const std::string& line) {
        // The far shin and the near one drawn as lines instead.
        for (const char* bone : {"shin.L", "shin.R"})
            if (line.find("<sprite bone=\"" + std::string(bone) + "\"") != std::string::npos)
                return "  <visual bone=\"" + std::string(bone) + "\" width=\"10\" color=\"#303030\"/>";
        return line;
    });
    REQUIRE(level.level);
    PluginHost host(dir / "copies", nullptr);
    REQUIRE(host.load(ragdollDescriptor()));
    REQUIRE(host.setLevel(*level.level));
    REQUIRE(host.setProperty(host.declarations().settingsKind(), 1, "view.paper_look", 0.0));  // no pins, no shadows
    DrawList list;
    host.draw(list, PAPER_DRAW_ART);
    // In the order drawn: the far shin's first vertex (its colour shaded 30 % toward white),
    // the parts' first, the near shin's first.
    auto firstOf = [&](std::uint32_t rgba) {
        for (size_t v = 0; v < list.vertices().size(); ++v)
            if (list.vertices()[v].rgba == rgba) return v;
        return list.vertices().size();
    };
    size_t firstPart = list.vertices().size();
    for (const DrawBatch& b : list.batches())
        if (b.image > 0) firstPart = std::min<size_t>(firstPart, list.indices()[b.firstIndex]);
    const size_t farShin = firstOf(packColor({0x6e, 0x6e, 0x6e, 255})), nearShin = firstOf(packColor({0x30, 0x30, 0x30, 255}));
    REQUIRE(farShin < list.vertices().size());
    REQUIRE(nearShin < list.vertices().size());
    REQUIRE(firstPart < list.vertices().size());
    CHECK(farShin < firstPart);
    CHECK(firstPart < nearShin);
    fs::remove_all(dir);
}

TEST_CASE("a reason from a plugin built before the length rule is read whole too", "[plugin][messages]") {
    // The test plugin refuses saveAsset the old way: cut to the buffer, status 1.
    Sandbox box;
    box.install("test_plugin_v1");
    auto host = box.host();
    REQUIRE(host->load(box.descriptor));
    std::string path = "/nowhere/" + std::string(9000, 'p') + "/end.x";
    std::string error;
    CHECK_FALSE(host->saveAsset("a.x", path, error));
    CHECK(error == "the test plugin has no assets to write from 'a.x' to '" + path + "'");
}

TEST_CASE("the level's props are drawn with the characters' art off too", "[plugin][ragdoll][sprites]") {
    // The editor's View > Sprites off (to see the bones) left the harness's crates out.
    LevelLoadResult level = loadLevelFile(std::string(PAPERDOLL_CONTENT_DIR) + "/levels/harness.level.xml");
    REQUIRE(level.level);
    REQUIRE(!level.level->props.empty());
    fs::path copies = test::makeTempDir();
    PluginHost host(copies, nullptr);
    REQUIRE(host.load(ragdollDescriptor()));
    REQUIRE(host.setLevel(*level.level));
    DrawList list;
    host.draw(list, 0);
    // Something at every prop's centre, nothing where the paper doll stands.
    auto drawnNear = [&](Vec2 at, float within) {
        for (const DrawVertex& v : list.vertices())
            if (std::abs(v.position.x - at.x) <= within && std::abs(v.position.y - at.y) <= within) return true;
        return false;
    };
    for (const Prop& prop : level.level->props) {
        CAPTURE(prop.name);
        CHECK(drawnNear(prop.position, std::max(prop.halfExtents.x, prop.halfExtents.y)));
    }
    CHECK_FALSE(drawnNear(level.level->spawns.front().position + Vec2{0.0f, 1.0f}, 0.3f));
    fs::remove_all(copies);
}

TEST_CASE("the paper doll is drawn from its atlas: every part a quad on its bone, with the paper look's shadow and rim",
          "[plugin][ragdoll][sprites]") {
    LevelLoadResult level = loadLevelFile(std::string(PAPERDOLL_CONTENT_DIR) + "/levels/harness.level.xml");
    REQUIRE(level.level);
    fs::path copies = test::makeTempDir();
    PluginHost host(copies, nullptr);
    REQUIRE(host.load(ragdollDescriptor()));
    REQUIRE(host.setLevel(*level.level));
    REQUIRE(host.images().count() == 1);  // the atlas, loaded through the engine
    CHECK(host.images().image(1)->width == 512);
    auto imageIndices = [](const DrawList& list) {
        std::uint32_t n = 0;
        for (const DrawBatch& b : list.batches()) n += b.image > 0 ? b.indexCount : 0;
        return n;
    };
    DrawList list;
    host.draw(list, PAPER_DRAW_ART);
    CHECK(imageIndices(list) == 12 * 3 * 6);  // 12 parts, each a shadow, a rim and itself: 2 triangles each
    const int settings = host.declarations().settingsKind();
    REQUIRE(host.setProperty(settings, 1, "view.paper_look", 0.0));
    list.clear();
    host.draw(list, PAPER_DRAW_ART);
    CHECK(imageIndices(list) == 12 * 6);  // the parts alone
    // The head's part is centred on the head bone as the rig places it: 15 cm up from the
    // neck (the torso's tip, 1.5 m up), 1 cm forward; the idle pose leans it a little.
    Vec2 centre{};
    for (const DrawBatch& b : list.batches())
        if (b.image > 0) {
            const std::uint32_t head = b.firstIndex + 6 * 6;  // z order: five far-side parts, the torso, then the head
            for (int k : {0, 1, 2, 5}) centre = centre + 0.25f * list.vertices()[list.indices()[head + k]].position;
        }
    CHECK(centre.x == Approx(1.0 + 0.01).margin(0.03));  // the spawn's x
    CHECK(centre.y == Approx(1.5 + 0.15).margin(0.02));
    // The Inspector's read-only list of a body's parts; a stick-drawn bone has none.
    CHECK(propertyOf(host, "body", objectOf(host, "body", "head").handle, "parts").text == "doll 2 2 120 124, z 7");

    // A tool's selection: the selected body's part, and only it, is washed violet over its own
    // quad (a silhouette at 40 %); selecting another moves the mark, clearing it removes it.
    auto violetQuads = [&](Vec2& centre) {
        list.clear();
        host.draw(list, PAPER_DRAW_ART);
        const std::uint32_t violet = packColor({150, 70, 220, 102});
        int quads = 0;
        for (size_t v = 0; v + 3 < list.vertices().size(); v += 4)
            if (list.vertices()[v].rgba == violet && list.vertices()[v].silhouette == 1.0f) {
                ++quads;
                centre = 0.5f * (list.vertices()[v].position + list.vertices()[v + 2].position);
            }
        return quads;
    };
    const std::uint64_t forearm = objectOf(host, "body", "forearm_R").handle, head = objectOf(host, "body", "head").handle;
    Vec2 marked{};
    CHECK(violetQuads(marked) == 0);
    REQUIRE(host.setProperty(kindOf(host, "body"), forearm, "selected", 1.0));
    CHECK(valueOf(host, "body", forearm, "selected") == 1.0);
    CHECK(violetQuads(marked) == 1);
    const Vec2 a = propertyOf(host, "body", forearm, "a").vector, b = propertyOf(host, "body", forearm, "b").vector;
    CHECK(length(marked - (a + 0.175f * normalize(b - a))) < 0.002f);  // the forearm's part: centred 17.5 cm along it
    REQUIRE(host.setProperty(kindOf(host, "body"), head, "selected", 1.0));
    CHECK(valueOf(host, "body", forearm, "selected") == 0.0);
    CHECK(violetQuads(marked) == 1);
    CHECK(length(marked - centre) < 0.001f);  // the head's part, found above
    REQUIRE(host.setProperty(kindOf(host, "body"), head, "selected", 0.0));
    CHECK(violetQuads(marked) == 0);
    fs::remove_all(copies);
}

TEST_CASE("the Inspector lists a body's meshes among its cut-out parts", "[plugin][ragdoll][mesh]") {
    // The imported Spine doll: its right elbow's patch is a mesh bent across the joint, so
    // both the upper arm and the forearm carry it; the torso carries two (collar and belt).
    LevelLoadResult level = loadLevelFile(std::string(PAPERDOLL_CONTENT_DIR) + "/levels/spine_doll.level.xml");
    REQUIRE(level.level);
    fs::path copies = test::makeTempDir();
    PluginHost host(copies, nullptr);
    REQUIRE(host.load(ragdollDescriptor()));
    REQUIRE(host.setLevel(*level.level));
    auto partsOf = [&](const char* body) { return propertyOf(host, "body", objectOf(host, "body", body).handle, "parts").text; };
    CHECK(partsOf("upper_arm_R") == "paper_doll 226 2 48 140, z 8; paper_doll mesh of 6 vertices, z 13");
    CHECK(partsOf("forearm_R") == "paper_doll 278 2 48 156, z 9; paper_doll mesh of 6 vertices, z 13");
    CHECK(partsOf("upper_arm_L").find("mesh") == std::string::npos);
    CHECK(partsOf("torso") ==
          "paper_doll 126 2 96 240, z 4; paper_doll mesh of 4 vertices, z 10; paper_doll mesh of 4 vertices, z 11");
    fs::remove_all(copies);
}

TEST_CASE("a player run that ends by itself fails when the plugin crashed in it", "[plugin][crash][player]") {
    // `--frames` and scripts are what CI runs: a plugin stopped by a crash (no library to go
    // back to) left the rest of the run simulating nothing, and the run exited 0. And a
    // library whose finalizer trips over what the crash left half-made was unloaded at exit,
    // unguarded: the player died with SIGSEGV (139) after reporting the crash.
    for (const char* variant : {"test_plugin_crashes", "test_plugin_crashes_dirty"}) {
        INFO(variant);
        Sandbox box;
        box.install(variant);
        const fs::path stats = box.dir / "stats.json";
        test::ProcessResult r = box.play(stats);
        INFO(r.err);
        CHECK(r.exitCode == 1);
        CHECK_THAT(r.err, Catch::Contains("the plugin 'test' crashed during the run (stopped; the log above says where)"));
        CHECK(fs::exists(stats));  // the run's figures are still written
    }
}

TEST_CASE("an editor run that ends by itself fails when the plugin crashed in it, as the player's does", "[plugin][crash][editor]") {
    // A scripted editor run whose plugin crashed (and stopped: no library to go back to)
    // exited 0, where the player's fails.
    Sandbox box;
    box.install("test_plugin_crashes");
    const fs::path script = box.dir / "play.script";
    std::ofstream(script) << "key press P\nwait_frames 10\n";
    test::ProcessResult r = test::runProcess(
        {PAPERDOLL_EDITOR_EXE, "--headless", "--plugin", (box.dir / "test.plugin").string(), "--script", script.string(),
         std::string(PAPERDOLL_CONTENT_DIR) + "/levels/harness.level.xml"},
        {}, 60.0);
    INFO(r.err);
    CHECK(r.exitCode == 1);
    CHECK_THAT(r.err, Catch::Contains("paperdoll_editor: error: the plugin 'test' crashed during the run (stopped; the log above says where)"));
}

TEST_CASE("an edit made after a reload is applied again when a crash rolls the plugin back", "[plugin][crash][editor]") {
    // The rollback starts the previous library with the state from before the reload: an edit
    // made since was gone from the plugin while the editor kept its `*` and its history, and
    // Save wrote the old value and said Saved.
    Sandbox box;
    box.install("test_plugin_crash_after_reload");  // its second instance crashes in its 30th tick
    const fs::path content = PAPERDOLL_CONTENT_DIR;
    fs::create_directories(box.dir / "rigs");
    const fs::path rig = box.dir / "rigs" / "stickman.rig.xml";
    fs::copy_file(content / "rigs" / "stickman.rig.xml", rig);
    fs::copy(content / "anims", box.dir / "anims", fs::copy_options::recursive);
    const fs::path script = box.dir / "rollback.script";
    std::ofstream(script) << "key press F5\nwait_frames 2\nexpect reloads 1\n"
                             "select joint elbow_L\nwait_frames 2\n"
                          << test::dragLimit("elbow_L", "upper", 118, 100) << "expect joint elbow_L upper 100\n"
                             "key press P\nwait_frames 40\n"  // the crash, and the rollback
                             "expect joint elbow_L upper 100\nexpect dirty\n"
                             "key down Left Ctrl\nkey press S\nwait_frames 1\nkey up Left Ctrl\nwait_frames 2\n"
                             "expect clean\n";
    test::ProcessResult r = test::runProcess(
        {PAPERDOLL_EDITOR_EXE, "--headless", "--plugin", (box.dir / "test.plugin").string(), "--rig", rig.string(), "--script",
         script.string()},
        {"PAPERDOLL_TEST_INSTANCE_COUNT=" + (box.dir / "instances").string(), "PAPERDOLL_CONTENT=" + content.string()}, 60.0);
    INFO(r.err);
    CHECK_THAT(r.err, Catch::Contains("crashed in tick") && Catch::Contains("rolled back to ragdoll"));
    CHECK_THAT(r.err, !Catch::Contains(script.string() + ":"));  // every expect held
    CHECK(r.exitCode == 1);  // a run the plugin crashed in fails
    std::ifstream in(rig);
    const std::string saved((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK_THAT(saved, Catch::Contains("<joint name=\"elbow_L\" parent=\"upper_arm.L\" child=\"forearm.L\" lower=\"0\" upper=\"100\""));

    // An edit the reload's state held, undone since: back after the rollback, unsaid, and
    // saved by the next Save. The file now says 100; dragged to 80, reloaded, undone (100).
    fs::remove(box.dir / "instances");
    std::ofstream(script, std::ios::trunc)
        << "select joint elbow_L\nwait_frames 2\n" << test::dragLimit("elbow_L", "upper", 90, 80)
        << "expect joint elbow_L upper 80\n"
           "key press F5\nwait_frames 2\nexpect reloads 1\n"
           "key down Left Ctrl\nkey press Z\nwait_frames 1\nkey up Left Ctrl\nwait_frames 1\n"
           "expect joint elbow_L upper 100\nexpect clean\n"
           "key press P\nwait_frames 40\n"
           "expect joint elbow_L upper 100\nexpect clean\n";
    r = test::runProcess({PAPERDOLL_EDITOR_EXE, "--headless", "--plugin", (box.dir / "test.plugin").string(), "--rig",
                          rig.string(), "--script", script.string()},
                         {"PAPERDOLL_TEST_INSTANCE_COUNT=" + (box.dir / "instances").string(),
                          "PAPERDOLL_CONTENT=" + content.string()},
                         60.0);
    INFO(r.err);
    CHECK_THAT(r.err, Catch::Contains("rolled back to ragdoll"));
    CHECK_THAT(r.err, !Catch::Contains(script.string() + ":"));
}

TEST_CASE("after a crash rolls the plugin back, the editor's Plugin panel says when the library running was loaded",
          "[plugin][crash][editor]") {
    // The panel took a reload's time when the reload counter moved, and nothing else: rolled
    // back, the first library ran on under the time the crashed one was loaded at.
    Sandbox box;
    box.install("test_plugin_crash_after_reload");  // its second instance starts a second late, crashes in its 30th tick
    const fs::path script = box.dir / "rollback.script";
    std::ofstream(script) << "expect loaded_at first\n"
                             "key press F5\nwait_frames 2\nexpect reloads 1\n"
                             "key press P\nwait_frames 40\n"  // the crash, and the rollback
                             "expect loaded_at first\n";
    test::ProcessResult r = test::runProcess(
        {PAPERDOLL_EDITOR_EXE, "--headless", "--plugin", (box.dir / "test.plugin").string(), "--script", script.string(),
         std::string(PAPERDOLL_CONTENT_DIR) + "/levels/harness.level.xml"},
        {"PAPERDOLL_TEST_INSTANCE_COUNT=" + (box.dir / "instances").string()}, 60.0);
    INFO(r.err);
    CHECK_THAT(r.err, Catch::Contains("rolled back to ragdoll"));
    CHECK_THAT(r.err, !Catch::Contains(script.string() + ":"));  // every expect held
}

TEST_CASE("stats-json says the plugin crashed when it crashed handing over the figures", "[plugin][crash][player]") {
    // The plugin's status was written before its figures were asked for: the file said
    // loaded, no error, beside the empty figures of a plugin that had just been stopped.
    Sandbox box;
    box.install("test_plugin_crashes_in_stats");
    const fs::path stats = box.dir / "stats.json";
    test::ProcessResult r = box.play(stats);
    INFO(r.err);
    CHECK(r.exitCode == 1);
    std::ifstream in(stats);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK_THAT(text, Catch::Contains("\"loaded\": false"));
    CHECK_THAT(text, Catch::Contains("crashed in getStats (SIGSEGV"));
}

TEST_CASE("the ragdoll plugin never saves over a rig changed on disk, and a reload keeps only the edits over it",
          "[plugin][ragdoll][save]") {
    // A copy of the stickman with its clips, where another program can change it.
    const fs::path dir = test::makeTempDir();
    const fs::path content = PAPERDOLL_CONTENT_DIR;
    fs::create_directories(dir / "rigs");
    fs::copy_file(content / "rigs" / "stickman.rig.xml", dir / "rigs" / "stickman.rig.xml");
    fs::copy(content / "anims", dir / "anims", fs::copy_options::recursive);
    const fs::path rig = dir / "rigs" / "stickman.rig.xml";
    paper::Level level = stickmanLevel();
    level.spawns.front().asset = rig.string();
    auto read = [&] {
        std::ifstream in(rig, std::ios::binary);
        return std::string(std::istreambuf_iterator<char>(in), {});
    };
    auto replace = [](std::string text, const std::string& from, const std::string& to) {
        REQUIRE(text.find(from) != std::string::npos);
        return text.replace(text.find(from), from.size(), to);
    };

    PluginHost host(dir / "copies", nullptr);
    REQUIRE(host.load(ragdollDescriptor()));
    REQUIRE(host.setLevel(level));
    const int jointKind = kindOf(host, "joint");
    const int bodyKind = kindOf(host, "body");
    const ObjectEntry elbow = objectOf(host, "joint", "elbow_L");
    const ObjectEntry knee = objectOf(host, "joint", "knee_L");
    const ObjectEntry forearm = objectOf(host, "body", "forearm_L");
    REQUIRE(host.setProperty(jointKind, elbow.handle, "upper", 100.0));
    REQUIRE(host.setProperty(bodyKind, forearm.handle, "mass", 2.5));

    // Another program: knee_L's lower limit, the forearm's mass (edited here too) and a comment.
    const std::string original = read();
    std::string changed = replace(original, "name=\"knee_L\" parent=\"thigh.L\" child=\"shin.L\" lower=\"-135\"",
                                  "name=\"knee_L\" parent=\"thigh.L\" child=\"shin.L\" lower=\"-90\"");
    changed = replace(changed, "<body bone=\"forearm.L\" mass=\"1.5\"", "<body bone=\"forearm.L\" mass=\"3\"");
    changed = replace(changed, "<rig ", "<!-- changed by another program -->\n<rig ");
    std::ofstream(rig, std::ios::binary) << changed;

    // The save is refused, saying why and what to do; the file is as the other program left it.
    std::string error;
    CHECK_FALSE(host.saveAsset(rig.string(), "", error));
    // In the plugin's terms: no program's buttons (the editor adds its own).
    CHECK(error ==
          "'stickman.rig.xml' changed on disk since it was read (another program wrote it), and saving would undo that "
          "change. Setting the level again or reloading the plugin reads the file again with the edits applied to it; "
          "then it can be saved.");
    CHECK(read() == changed);

    // A hot reload reads the file again: the unedited knee as the file has it now; the
    // edited elbow and forearm as edited (an edit wins over the file's change).
    REQUIRE(host.reload());
    CHECK(valueOf(host, "joint", knee.handle, "lower") == Approx(-90.0));
    CHECK(valueOf(host, "joint", elbow.handle, "upper") == Approx(100.0));
    CHECK(valueOf(host, "body", forearm.handle, "mass") == 2.5);

    // Now it saves: the other program's changes and the edits. And again, over what it wrote.
    REQUIRE(host.saveAsset(rig.string(), "", error));
    std::string expected = replace(changed, "child=\"forearm.L\" lower=\"0\" upper=\"135\"", "child=\"forearm.L\" lower=\"0\" upper=\"100\"");
    expected = replace(expected, "<body bone=\"forearm.L\" mass=\"3\"", "<body bone=\"forearm.L\" mass=\"2.5\"");
    CHECK(read() == expected);
    REQUIRE(host.setProperty(jointKind, elbow.handle, "upper", 90.0));
    INFO(error);
    REQUIRE(host.saveAsset(rig.string(), "", error));
    CHECK(read() == replace(expected, "upper=\"100\"", "upper=\"90\""));

    // Saved, the values are the file's: a reload over a file changed again takes its new
    // value for the elbow, no longer an edit.
    const std::string changedAgain = replace(read(), "upper=\"90\"", "upper=\"80\"");
    std::ofstream(rig, std::ios::binary) << changedAgain;
    REQUIRE(host.reload());
    CHECK(valueOf(host, "joint", elbow.handle, "upper") == Approx(80.0));
    fs::remove_all(dir);
}

TEST_CASE("the ragdoll plugin's HUD line tells the net-role preview's two states apart", "[plugin][ragdoll]") {
    const paper::Level level = stickmanLevel();
    fs::path dir = test::makeTempDir();
    PluginHost host(dir / "copies", nullptr);
    REQUIRE(host.load(ragdollDescriptor()));
    REQUIRE(host.setLevel(level));
    const int characterKind = kindOf(host, "character");
    const std::uint64_t player = host.objects(characterKind)[0].handle;
    const int role = host.declarations().actionNamed("net_role");
    REQUIRE(role >= 0);
    auto summaryAfterTab = [&] {
        PaperInput tab = {};
        tab.pressed = tab.held = std::uint64_t(1) << role;
        host.tick(1.0 / 60, tab);
        return propertyOf(host, "character", player, "summary").text;
    };
    // Host with its proxy drawn over it; then only what a peer sees, the host hidden.
    const std::string hostAndProxy = summaryAfterTab(), proxyOnly = summaryAfterTab();
    CHECK(hostAndProxy.find("   host   ") != std::string::npos);
    CHECK(proxyOnly.find("   host (hidden)   ") != std::string::npos);
    CHECK(summaryAfterTab().find("   standalone   ") != std::string::npos);
    fs::remove_all(dir);
}
