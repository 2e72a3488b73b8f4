// A program that crashes as asked, after paper::traceFatalSignals: `segv` writes through a
// bad pointer (a fault), `abort` calls std::abort (a signal sent), and with no argument it
// ends without a crash. fatal_trace_tests.cpp runs it.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "paper/startup.h"

namespace {
// Not inlined, so the trace has a frame of this program's own between main and the fault.
[[gnu::noinline]] void writeThroughBadPointer(volatile int* where) { *where = 1; }
}  // namespace

int main(int argc, char** argv) {
    paper::traceFatalSignals("fatal_trace_probe");
    // An address in the unmapped first page, read back so that the compiler cannot see it.
    volatile std::uintptr_t unmapped = 16;
    if (argc == 2 && std::strcmp(argv[1], "segv") == 0) writeThroughBadPointer(reinterpret_cast<volatile int*>(unmapped));
    if (argc == 2 && std::strcmp(argv[1], "abort") == 0) std::abort();
    if (argc == 1) return 0;  // no crash: the trace says nothing
    // Built beside the programs, it is a test's helper: asked anything else, it says so.
    std::fputs("usage: fatal_trace_probe segv|abort\n"
               "A test helper (tests/engine/fatal_trace_tests.cpp): crashes as asked, to check the crash trace.\n",
               stderr);
    return 2;
}
