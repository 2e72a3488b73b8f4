// Calls into a plugin with a net under them (cr.h's idea): a SIGSEGV, SIGBUS, SIGFPE,
// SIGILL or SIGABRT raised inside the call jumps back here instead of killing the process.
//
// Limits, honestly: the jump abandons the plugin mid-function. Whatever it held stays as
// it was — a lock it took (including malloc's), memory it allocated, a half-updated
// object. The host therefore never calls the crashed instance again and leaks it; if the
// crash happened inside malloc, later allocations may deadlock. This is a tool for
// surviving a bad rebuild while tuning, not a sandbox.
#pragma once

#include <csetjmp>
#include <csignal>

namespace paper {

/// What happened in a guarded call: 0 when it returned, else the signal number.
using CrashSignal = int;

namespace crash_guard_detail {
/// The outermost guarded call installs the handlers and the matching leave() puts back
/// whatever was there (a test framework's, a sanitizer's, the application's own).
sigjmp_buf* enter(sigjmp_buf* buffer);
void leave(sigjmp_buf* previous);
}  // namespace crash_guard_detail

/// Runs fn(); returns 0, or the signal that interrupted it.
template <class Fn>
CrashSignal callGuarded(Fn&& fn) {
    sigjmp_buf buffer;
    sigjmp_buf* previous = crash_guard_detail::enter(&buffer);
    // sigsetjmp with savemask = 1 restores the signal mask the handler was entered with.
    int signal = sigsetjmp(buffer, 1);
    if (signal == 0) fn();
    crash_guard_detail::leave(previous);
    return signal;
}

/// "SIGSEGV (invalid memory access)" and so on.
const char* describeSignal(int signal);

}  // namespace paper
