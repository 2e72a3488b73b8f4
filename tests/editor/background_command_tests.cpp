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
