#include "model/background_command.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace paper::editor {

BackgroundCommand::~BackgroundCommand() {
    if (pid_ > 0) {
        kill(-pid_, SIGTERM);  // its process group: the build's compilers too
        waitpid(pid_, nullptr, 0);
    }
    if (pipe_ >= 0) close(pipe_);
}

bool BackgroundCommand::start(const std::string& command) {
    if (running()) return false;
    if (pipe_ >= 0) close(pipe_);
    pipe_ = -1;
    finished_ = false;
    exitStatus_ = -1;
    output_.clear();
    command_ = command;
    int fds[2];
    if (pipe(fds) != 0) {
        output_ = std::string("cannot make a pipe: ") + std::strerror(errno);
        return false;
    }
    pid_t pid = fork();
    if (pid < 0) {
        output_ = std::string("cannot start the command: ") + std::strerror(errno);
        close(fds[0]);
        close(fds[1]);
        return false;
    }
    if (pid == 0) {
        setpgid(0, 0);
        dup2(fds[1], STDOUT_FILENO);
        dup2(fds[1], STDERR_FILENO);
        close(fds[0]);
        close(fds[1]);
        execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
        _exit(127);
    }
    setpgid(pid, pid);  // also here: the destructor may run before the child gets to it
    close(fds[1]);
    fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
    pipe_ = fds[0];
    pid_ = pid;
    return true;
}

void BackgroundCommand::readAvailable() {
    if (pipe_ < 0) return;
    char buffer[4096];
    for (;;) {
        ssize_t n = read(pipe_, buffer, sizeof buffer);
        if (n > 0) {
            output_.append(buffer, std::size_t(n));
        } else {
            if (n == 0 || errno != EINTR) break;  // end of file, or nothing more for now (EAGAIN)
        }
    }
}

void BackgroundCommand::poll() {
    readAvailable();
    if (pid_ <= 0) return;
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) != pid_) return;
    readAvailable();  // what it wrote just before it ended
    pid_ = -1;
    finished_ = true;
    exitStatus_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

namespace {
/// GCC quotes names with U+2018 and U+2019 (E2 80 98, E2 80 99), which the editor's font has
/// no glyph for: plain quotes instead.
std::string plainQuotes(const std::string& line) {
    std::string plain;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const bool curly = i + 2 < line.size() && line[i] == '\xE2' && line[i + 1] == '\x80' &&
                           (line[i + 2] == '\x98' || line[i + 2] == '\x99');
        plain += curly ? '\'' : line[i];
        if (curly) i += 2;
    }
    return plain;
}
}  // namespace

std::string firstCompilerError(const std::string& output) {
    const std::size_t at = output.find(": error:");
    if (at == std::string::npos) return {};
    const std::size_t newline = output.rfind('\n', at);
    const std::size_t begin = newline == std::string::npos ? 0 : newline + 1;
    std::string line = output.substr(begin, std::min(output.find('\n', at), output.size()) - begin);
    const std::size_t slash = line.rfind('/', line.find(':'));
    if (slash != std::string::npos) line.erase(0, slash + 1);
    return plainQuotes(line);
}

std::string whyBuildFailed(const std::string& output) {
    if (std::string error = firstCompilerError(output); !error.empty()) return error;
    const std::size_t end = output.find_last_not_of(" \t\r\n");
    if (end == std::string::npos) return {};
    const std::size_t newline = output.rfind('\n', end);
    const std::size_t begin = newline == std::string::npos ? 0 : newline + 1;
    return plainQuotes(output.substr(begin, end + 1 - begin));
}

}  // namespace paper::editor
