// What the player and the editor do alike when they start: find the level (the one named,
// or the harness in the content folder) and make a plugin host whose log speaks in the
// program's name.
#pragma once

#include <memory>
#include <optional>
#include <ostream>
#include <string>

#include "paper/level.h"
#include "paper/plugin_host.h"

namespace paper {

/// Loads levelPath, or content/levels/harness.level.xml when it is empty. Every diagnostic
/// goes to err; without a level (none found, or errors in it) the reason is printed as
/// "PROGRAM: error: …" and the result is empty. levelHint finishes the sentence "or name …"
/// when no content folder is found (e.g. "a level file").
std::optional<Level> loadStartLevel(const std::string& program, const std::string& levelPath,
                                    const std::string& levelHint, std::ostream& err);

/// Puts the file a user named (--asset FILE) in place of the asset of the level's first
/// spawn, the one the player's keys drive and the editor edits. False, said as "PROGRAM:
/// error: cannot open 'FILE': why (purpose)", when it is no file; the level must have a spawn.
bool putAsset(const std::string& program, Level& level, const std::string& assetPath, const std::string& purpose,
              std::ostream& err);

/// A plugin host copying libraries into a private temporary folder (PROGRAM-PID) and logging
/// to err as "PROGRAM: [seconds since start] error: message", flushed at once (users watch it
/// while they rebuild).
std::unique_ptr<PluginHost> makePluginHost(const std::string& program, std::ostream& err);

/// From now on a crash outside a plugin's guarded calls (SIGSEGV, SIGBUS, SIGFPE, SIGILL,
/// SIGABRT) first writes "PROGRAM: fatal: SIGSEGV (invalid memory access); the stack, …" and
/// the stack's frames (file, offset, address) to stderr, then ends the process as before
/// (with the signal's status, or through a sanitizer's report). A crash that happens once in
/// a thousand runs then says where. The main thread's only: call it first in main.
void traceFatalSignals(const char* program);

}  // namespace paper
