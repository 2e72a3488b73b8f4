// The `paperdoll` player: loads a level and runs it in a window or headless.
#pragma once

#include <iosfwd>

#include "app/cli.h"

namespace paper {

/// Runs the player; returns the process exit status. Messages go to out and err.
int runPlayer(const PlayerOptions& options, std::ostream& out, std::ostream& err);

/// main(): parses argv, prints errors as "paperdoll: error: …" and runs the player.
int playerMain(int argc, char** argv);

}  // namespace paper
