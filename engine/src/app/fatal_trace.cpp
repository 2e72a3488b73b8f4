#include "paper/startup.h"

#include <execinfo.h>
#include <unistd.h>

#include <csignal>
#include <cstring>

#include "plugin/crash_guard.h"

namespace paper {

namespace {

constexpr int kFatalSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
constexpr int kFatalSignalCount = int(sizeof kFatalSignals / sizeof kFatalSignals[0]);
/// The actions before ours (the default, or a sanitizer's), given the signal back after the trace.
struct sigaction gPrevious[kFatalSignalCount];
/// "PROGRAM: fatal: " written ahead of the signal's name; set once, before any handler runs.
char gPrefix[128];
/// Frames written at most: a runaway recursion's stack is as deep as its overflow.
constexpr int kMostFrames = 64;
/// Where the handler runs, so that a stack overflow is traced too.
alignas(16) char gHandlerStack[64 * 1024];

void say(const char* text) {
    // Only write(2) here: a handler may run inside malloc, so no stdio, no allocation.
    for (size_t left = std::strlen(text); left > 0;) {
        const ssize_t wrote = ::write(STDERR_FILENO, text, left);
        if (wrote <= 0) return;
        text += wrote;
        left -= size_t(wrote);
    }
}

void onFatalSignal(int signal, siginfo_t* info, void*) {
    int index = 0;
    while (index < kFatalSignalCount && kFatalSignals[index] != signal) ++index;
    say(gPrefix);
    say(describeSignal(signal));
    say("; the stack, innermost first (addr2line -f -C -e FILE OFFSET names each line):\n");
    void* frames[kMostFrames];
    backtrace_symbols_fd(frames, backtrace(frames, kMostFrames), STDERR_FILENO);
    // The previous action (the default, or a sanitizer's) takes it from here: a fault happens
    // again as this returns; a signal sent (abort(), kill) is sent again.
    sigaction(signal, &gPrevious[index], nullptr);
    if (info->si_code <= 0) std::raise(signal);
}

}  // namespace

void traceFatalSignals(const char* program) {
    static bool installed = false;  // twice would hand a fault back to this handler for ever
    if (installed) return;
    installed = true;
    std::strncpy(gPrefix, program, sizeof gPrefix - 32);
    std::strcat(gPrefix, ": fatal: ");
    // backtrace() loads libgcc's unwinder on its first call, which allocates: not in a handler.
    void* warmUp[1];
    backtrace(warmUp, 1);
    // A stack of its own, so that a stack overflow is traced too; a sanitizer's is kept.
    stack_t stack = {};
    if (sigaltstack(nullptr, &stack) == 0 && (stack.ss_flags & SS_DISABLE)) {
        stack.ss_sp = gHandlerStack;
        stack.ss_size = sizeof gHandlerStack;
        stack.ss_flags = 0;
        sigaltstack(&stack, nullptr);
    }
    struct sigaction action = {};
    action.sa_sigaction = onFatalSignal;
    sigemptyset(&action.sa_mask);
    for (const int signal : kFatalSignals) sigaddset(&action.sa_mask, signal);  // one trace, not one inside another
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    for (int i = 0; i < kFatalSignalCount; ++i) sigaction(kFatalSignals[i], &action, &gPrevious[i]);
}

}  // namespace paper
