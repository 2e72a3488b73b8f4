#include "plugin/crash_guard.h"

namespace paper {

namespace {

thread_local sigjmp_buf* gActive = nullptr;
constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
constexpr int kSignalCount = int(sizeof kSignals / sizeof kSignals[0]);
thread_local struct sigaction gSaved[kSignalCount];
/// The actions the outermost guarded call replaced, for every thread: a crash on a thread in
/// no guarded call of its own (a worker of the plugin's job pool while the main thread is in
/// one) goes to them, the program's trace of a crash (traceFatalSignals) or the default.
struct sigaction gOutside[kSignalCount];

void onSignal(int signal) {
    if (gActive) siglongjmp(*gActive, signal);
    // Not inside a guarded call: behave as if we were never here.
    for (int i = 0; i < kSignalCount; ++i)
        if (kSignals[i] == signal) sigaction(signal, &gOutside[i], nullptr);
    std::raise(signal);
}

}  // namespace

namespace crash_guard_detail {

sigjmp_buf* enter(sigjmp_buf* buffer) {
    sigjmp_buf* previous = gActive;
    if (!previous) {
        struct sigaction action = {};
        action.sa_handler = onSignal;
        sigemptyset(&action.sa_mask);
        // SA_NODEFER: the jump out never returns from the handler, so the signal must not
        // stay blocked (sigsetjmp's saved mask restores the rest).
        action.sa_flags = SA_NODEFER;
        for (int i = 0; i < kSignalCount; ++i) {
            sigaction(kSignals[i], &action, &gSaved[i]);
            gOutside[i] = gSaved[i];
        }
    }
    gActive = buffer;
    return previous;
}

void leave(sigjmp_buf* previous) {
    gActive = previous;
    if (!previous)
        for (int i = 0; i < kSignalCount; ++i) sigaction(kSignals[i], &gSaved[i], nullptr);
}

}  // namespace crash_guard_detail

const char* describeSignal(int signal) {
    switch (signal) {
    case SIGSEGV: return "SIGSEGV (invalid memory access)";
    case SIGBUS: return "SIGBUS (bus error)";
    case SIGFPE: return "SIGFPE (arithmetic error)";
    case SIGILL: return "SIGILL (illegal instruction)";
    case SIGABRT: return "SIGABRT (abort)";
    default: return "a fatal signal";
    }
}

}  // namespace paper
