// A shell command run in the background while the editor keeps drawing: the Plugin panel's
// "Build & reload" (`cmake --build … --target plugin_ragdoll`). Its output (stdout and
// stderr together) is collected a frame at a time without blocking. POSIX; no ImGui, so it
// is tested headless.
//
// A thread reading a pipe was the alternative; polling a non-blocking pipe once a frame
// needs no locking and lets the destructor stop a build the user walks away from.
#pragma once

#include <string>
#include <sys/types.h>

namespace paper::editor {

/// The first line of a build's output where a compiler says "error:", its file named
/// without its folder and the compiler's curly quotes made plain ("draw.cpp:61:52: error:
/// 'x' does not name a type"); empty when there is none.
std::string firstCompilerError(const std::string& output);
/// Why a build failed, in one line: its first compiler error, else the last line it wrote
/// (make's "No such file or directory. Stop."); empty when it wrote nothing.
std::string whyBuildFailed(const std::string& output);

class BackgroundCommand {
public:
    BackgroundCommand() = default;
    /// Stops a command still running (SIGTERM to its process group) and waits for it.
    ~BackgroundCommand();
    BackgroundCommand(const BackgroundCommand&) = delete;
    BackgroundCommand& operator=(const BackgroundCommand&) = delete;

    /// Runs `/bin/sh -c command` in its own process group; false with output() saying why
    /// when it could not start, or when one is still running.
    bool start(const std::string& command);
    /// Reads what the command wrote since the last poll and notices its exit. Call each frame.
    void poll();

    bool running() const { return pid_ > 0; }
    /// Whether a command has run to its end since the last start().
    bool finished() const { return finished_; }
    /// Its exit status once finished (128 + signal when killed), else -1.
    int exitStatus() const { return exitStatus_; }
    /// Everything it wrote so far.
    const std::string& output() const { return output_; }
    const std::string& command() const { return command_; }

private:
    void readAvailable();

    pid_t pid_ = -1;
    int pipe_ = -1;  ///< the read end of the command's stdout and stderr
    bool finished_ = false;
    int exitStatus_ = -1;
    std::string output_;
    std::string command_;
};

}  // namespace paper::editor
