// The Plugin panel's background build (app/background_command.h), with shell commands.
#include <catch2/catch.hpp>

#include <chrono>
#include <thread>

#include "model/background_command.h"

using paper::editor::BackgroundCommand;

namespace {
/// Polls until the command ends (or 10 s pass); false on the timeout.
bool waitFor(BackgroundCommand& command) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (command.running() && std::chrono::steady_clock::now() < deadline) {
        command.poll();
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return !command.running();
}
}  // namespace

TEST_CASE("a background command's output and exit status are collected without blocking",
          "[editor][build]") {
    BackgroundCommand command;
    CHECK_FALSE(command.running());
    REQUIRE(command.start("echo built; echo warned >&2; exit 3"));
    CHECK(command.running());
    CHECK_FALSE(command.start("true"));  // one at a time
    REQUIRE(waitFor(command));
    CHECK(command.finished());
    CHECK(command.exitStatus() == 3);
    CHECK(command.output() == "built\nwarned\n");

    REQUIRE(command.start("printf again"));  // a second run starts afresh
    REQUIRE(waitFor(command));
    CHECK(command.exitStatus() == 0);
    CHECK(command.output() == "again");
}

TEST_CASE("a command still running when the editor quits is stopped", "[editor][build]") {
    auto began = std::chrono::steady_clock::now();
    {
        BackgroundCommand command;
        REQUIRE(command.start("sleep 30"));
        command.poll();
        CHECK(command.running());
    }
    CHECK(std::chrono::steady_clock::now() - began < std::chrono::seconds(10));
}

TEST_CASE("a failed build's first compiler error is found whole, its file without its folder", "[editor][build]") {
    // What ninja and GCC print for a plugin source that does not compile (abridged).
    const std::string output =
        "[1/2] Building CXX object plugin_ragdoll/CMakeFiles/plugin_ragdoll.dir/src/module/draw.cpp.o\n"
        "FAILED: plugin_ragdoll/CMakeFiles/plugin_ragdoll.dir/src/module/draw.cpp.o\n"
        "/usr/bin/c++ -DPAPERDOLL_RAGDOLL_VERSION=1 -Werror -c /src/plugin_ragdoll/src/module/draw.cpp\n"
        "/src/plugin_ragdoll/src/module/draw.cpp:61:53: error: \xE2\x80\x98oops\xE2\x80\x99 does not name a type\n"
        "   61 | constexpr PaperColor kRimColor{250, 0, 0, 255}; oops;\n"
        "/src/plugin_ragdoll/src/module/draw.cpp:70:1: error: a second one\n"
        "ninja: build stopped: subcommand failed.\n";
    CHECK(paper::editor::firstCompilerError(output) == "draw.cpp:61:53: error: 'oops' does not name a type");
    // The command line's -Werror is no error line; output without one gives nothing.
    CHECK(paper::editor::firstCompilerError("FAILED: x.o\n/usr/bin/c++ -Werror -c x.cpp\nninja: build stopped\n").empty());
    CHECK(paper::editor::firstCompilerError("x.cpp:1:1: error: at the start").starts_with("x.cpp:1:1: error:"));
}

TEST_CASE("why a build failed is its first compiler error, else the last line it wrote", "[editor][build]") {
    // A build command that is not there gives no compiler error: make's last line says why.
    CHECK(paper::editor::whyBuildFailed("make: Entering directory '/x'\nmake: *** /nonexistent/my_plugin: No such file "
                                        "or directory.  Stop.\n\n") ==
          "make: *** /nonexistent/my_plugin: No such file or directory.  Stop.");
    CHECK(paper::editor::whyBuildFailed("FAILED: x.o\n/src/x.cpp:3:1: error: \xE2\x80\x98y\xE2\x80\x99 is wrong\nninja: build stopped\n") ==
          "x.cpp:3:1: error: 'y' is wrong");
    CHECK(paper::editor::whyBuildFailed("sh: 1: mkae: not found") == "sh: 1: mkae: not found");
    CHECK(paper::editor::whyBuildFailed("\n  \n").empty());
}
