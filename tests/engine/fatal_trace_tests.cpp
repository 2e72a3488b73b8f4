// A crash of the player or the editor outside a plugin's calls says where it happened
// (paper::traceFatalSignals), then ends the process with the signal as before: a crash seen
// once in a thousand test runs left nothing but an exit status of 139.
#include <catch2/catch.hpp>

#include <csignal>
#include <string>

#include "run_process.h"

namespace {
const std::string kProbe = PAPERDOLL_FATAL_TRACE_PROBE;
}  // namespace

TEST_CASE("a crash writes the signal and the stack to stderr, then ends the process with it", "[startup][crash]") {
    SECTION("a fault") {
        const test::ProcessResult r = test::runProcess({kProbe, "segv"});
        INFO(r.err);
        CHECK_FALSE(r.timedOut);
#ifdef __SANITIZE_ADDRESS__
        CHECK(r.exitCode != 0);  // AddressSanitizer's report of the fault ends it, with its own status
#else
        CHECK(r.signalled);
        CHECK(r.exitCode == 128 + SIGSEGV);
#endif
        CHECK_THAT(r.err, Catch::Contains("fatal_trace_probe: fatal: SIGSEGV (invalid memory access); the stack"));
        // The frames below the handler's: the signal's return into libc, then the program's
        // own (the faulting function, main) and libc's start under them.
        const size_t trampoline = r.err.find("libc.so.6(");
        REQUIRE(trampoline != std::string::npos);
        CHECK(r.err.find("fatal_trace_probe(", trampoline) != std::string::npos);
    }
    SECTION("a signal sent: abort()") {
        const test::ProcessResult r = test::runProcess({kProbe, "abort"});
        INFO(r.err);
        CHECK(r.signalled);
        CHECK(r.exitCode == 128 + SIGABRT);
        CHECK_THAT(r.err, Catch::Contains("fatal_trace_probe: fatal: SIGABRT (abort); the stack"));
    }
    SECTION("no crash, nothing said") {
        const test::ProcessResult r = test::runProcess({kProbe});
        CHECK(r.exitCode == 0);
        CHECK(r.err.empty());
    }
}
