// LeakSanitizer support: whether this build has it (the asan preset), and what the
// windowed programs do so its report at exit can name the libraries it blames.
#pragma once

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PAPERDOLL_LSAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define PAPERDOLL_LSAN 1
#endif

namespace paper {

/// With LeakSanitizer: keeps every shared library loaded now mapped until the process
/// exits. SDL unloads the GL driver and the D-Bus client when the window closes; their
/// one-off allocations then show as leaks in "<unknown module>", which no suppression can
/// name. Kept mapped, the report names them, and tests/support/lsan.supp suppresses those
/// libraries alone. Without LeakSanitizer it does nothing.
void keepLibrariesMappedForLeakCheck();

}  // namespace paper
