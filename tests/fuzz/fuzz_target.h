// What each fuzz target defines: libFuzzer's entry point. The same file builds two ways
// (tests/fuzz/CMakeLists.txt): with -fsanitize=fuzzer for fuzzing (PAPERDOLL_FUZZ, clang),
// and with replay_main.cpp as a plain program that runs the committed corpus in ctest.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

/// Set by a target when it takes an input as valid (past its refusal). The corpus replay
/// (replay_main.cpp) requires every input under a folder named with -must_take=FOLDER to
/// be taken: the shipped files a reader must keep reading. libFuzzer ignores it.
inline bool gFuzzInputTaken = false;

/// A property every accepted input must have; a violation is a finding, like a crash.
#define FUZZ_CHECK(condition)                                                                  \
    do {                                                                                       \
        if (!(condition)) {                                                                    \
            std::fprintf(stderr, "%s:%d: fuzz check failed: %s\n", __FILE__, __LINE__, #condition); \
            std::abort();                                                                      \
        }                                                                                      \
    } while (0)
