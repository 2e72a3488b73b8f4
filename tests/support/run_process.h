// Runs a program from a test and captures its exit status and output.
#pragma once

#include <string>
#include <vector>

namespace test {

struct ProcessResult {
    int exitCode = -1;       ///< the exit status, or 128 + signal number when killed
    bool signalled = false;  ///< ended by a signal (a crash, or killed at the timeout)
    bool timedOut = false;   ///< still running at the timeout, so killed
    std::string out;
    std::string err;
};

/// Runs argv[0] with the given arguments, stdin from /dev/null; env entries
/// ("NAME=value") are added to the inherited environment. With timeoutSeconds > 0 a child
/// still running after that long is killed (SIGKILL) and reported as timedOut.
ProcessResult runProcess(const std::vector<std::string>& argv, const std::vector<std::string>& env = {},
                         double timeoutSeconds = 0.0);

/// A fresh empty directory under the system temp folder, for a test's files.
std::string makeTempDir();

/// For a child that opens a window: SDL's offscreen EGL driver when there is no X display,
/// so windowed tests run anywhere; and the leak check's suppressions (support/lsan.supp)
/// for the GL stack's allocations (Mesa, libdbus under X11) that outlive the check at exit
/// (third_party/README.md, "LeakSanitizer and the GL stack").
std::vector<std::string> displayEnv();

}  // namespace test
