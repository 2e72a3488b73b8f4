// Text placed in pixels on the frame, for labels that belong to the world (a spawn's name)
// rather than to a panel. The window draws it with Dear ImGui's font.
#pragma once

#include <string>

#include "paper/math.h"

namespace paper {

struct ScreenText {
    Vec2 position;  ///< pixels from the top-left of the view: the text's top-left corner
    Color color;
    std::string text;
};

}  // namespace paper
