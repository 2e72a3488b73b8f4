#include "run_process.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace test {

namespace {

std::string slurp(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
}

}  // namespace

std::string makeTempDir() {
    const char* base = std::getenv("TMPDIR");
    std::string pattern = std::string(base && *base ? base : "/tmp") + "/paperdoll-test-XXXXXX";
    if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    return pattern;
}

ProcessResult runProcess(const std::vector<std::string>& argv, const std::vector<std::string>& env) {
    // Output goes to files rather than pipes: no deadlock however much the child prints.
    std::string dir = makeTempDir();
    std::string outPath = dir + "/stdout", errPath = dir + "/stderr";
    pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("fork failed");
    if (pid == 0) {
        int out = open(outPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int err = open(errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (out < 0 || err < 0) _exit(126);
        dup2(out, STDOUT_FILENO);
        dup2(err, STDERR_FILENO);
        for (const std::string& e : env) putenv(const_cast<char*>(e.c_str()));
        std::vector<char*> args;
        for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        execv(args[0], args.data());
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    ProcessResult result;
    result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    result.out = slurp(outPath);
    result.err = slurp(errPath);
    std::remove(outPath.c_str());
    std::remove(errPath.c_str());
    rmdir(dir.c_str());
    return result;
}

std::vector<std::string> displayEnv() {
    // Leak checks stay on in the programs we start; lsan.supp names the system libraries
    // (GL driver, D-Bus) whose allocations outlive the check, and says why.
    std::vector<std::string> env = {"LSAN_OPTIONS=suppressions=" PAPERDOLL_LSAN_SUPPRESSIONS ":print_suppressions=0"};
    const char* display = std::getenv("DISPLAY");
    if (!display || !*display) env.push_back("SDL_VIDEODRIVER=offscreen");
    return env;
}

}  // namespace test
