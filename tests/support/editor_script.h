// Lines of editor scripts (paperdoll_editor --script) the tests write more than once.
#pragma once

#include <string>

namespace test {

/// Drags `joint`'s `handle` (lower or upper) through `via` to `to` degrees and lets go, a
/// frame after each move.
inline std::string dragLimit(const std::string& joint, const std::string& handle, int via, int to) {
    const std::string target = "mouse move target joint " + joint;
    return target + " " + handle + "\nwait_frames 1\nmouse down left\nwait_frames 1\n" + target + " angle " +
           std::to_string(via) + "\nwait_frames 1\n" + target + " angle " + std::to_string(to) +
           "\nwait_frames 1\nmouse up left\nwait_frames 1\n";
}

}  // namespace test
