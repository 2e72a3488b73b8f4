// A *.bounce.xml emitter asset: the balls an emitter makes and its paddle.
//   <bounce radius="0.15" restitution="0.7" count="3" color="#e07030">
//     <paddle lower="-30" upper="45" length="0.8"/>
//   </bounce>
// Read with line numbers, so every mistake is reported as "FILE:LINE: error: …"; written
// back by patching only the values that changed, so the rest of the file stays as it was.
#pragma once

#include <cstdint>
#include <string>

namespace bounce {

struct EmitterAsset {
    std::string path;
    double radius = 0.1;       // metres, of each ball
    double restitution = 0.5;  // 0 (no bounce) to 1 (elastic)
    int count = 1;             // balls emitted when the level loads
    std::uint8_t color[3] = {200, 200, 200};
    double lower = 0.0, upper = 0.0;  // the paddle's limits, degrees from the +x axis
    double length = 0.5;              // the paddle's length, metres
};

/// Reads the file at path into out. False with every problem, one a line, in errors.
bool readAsset(const std::string& path, EmitterAsset& out, std::string& errors);

/// Writes the file `edited.path` with the edited radius, limits and length to target,
/// atomically (a temporary file renamed over it). False with the reason in error.
bool writeAsset(const EmitterAsset& edited, const std::string& target, std::string& error);

}  // namespace bounce
