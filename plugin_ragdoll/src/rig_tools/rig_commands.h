// `paperdoll rig …`: headless commands on rig files (Unreal commandlet style), for authors
// and CI. The executable forwards its arguments here.
//
//   paperdoll rig check FILE…                     every error of every file, or one summary line per rig
//   paperdoll rig drop FILE [--frames N] [--json] drop onto flat ground and measure (rig_drop.h)
//   paperdoll rig generate IN OUT                 bodies and joints from bones (rig_generator.h)
//
// Exit status: 0 success (drop: within the limits); 1 a file could not be read, is not a
// valid rig, or could not be written; 2 bad usage (unknown command or option, missing or
// extra arguments, --frames outside 1..100000, generate asked to overwrite its input);
// 3 drop ran but the rig broke a limit (stretch, limit violation, rest, explosion).
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace ragdoll {

/// Runs one rig command. args are the words after the program name; the leading "rig" may
/// be there or not ({"rig", "check", "a.rig.xml"} and {"check", "a.rig.xml"} are the same).
/// Results go to out; errors, warnings and usage to err. Returns the exit status above.
int runRigCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace ragdoll
