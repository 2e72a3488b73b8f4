// Text placed in pixels on the frame, for labels that belong to the world (a spawn's name)
// rather than to a panel. The window draws it with Dear ImGui's font.
#pragma once

#include <string>
#include <vector>

#include "paper/math.h"

namespace paper {

struct ScreenText {
    Vec2 position;  ///< pixels from the top-left of the view: the text's top-left corner
    Color color;
    std::string text;
};

/// Moves each text up, in order, until it overlaps none placed before it: spawns standing
/// side by side would otherwise write their labels into one another. `sizes[i]` is the
/// width and height of texts[i] in pixels (the window measures them with its font).
void stackOverlapping(std::vector<ScreenText>& texts, const std::vector<Vec2>& sizes);

}  // namespace paper
