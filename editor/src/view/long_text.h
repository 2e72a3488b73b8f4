// Text of any length in the panels. ImGui's formatted calls (Text, SetTooltip with "%s")
// go through a 3 KB buffer and cut what does not fit; these take the text whole.
#pragma once

#include <string>

namespace paper::editor {

/// A tooltip with all of text, wrapped at wrapPixels.
void wholeTooltip(const std::string& text, float wrapPixels = 720.0f);

}  // namespace paper::editor
