// Text of any length in the panels. ImGui's formatted calls (Text, SetTooltip with "%s")
// go through a 3 KB buffer and cut what does not fit; these take the text whole.
#pragma once

#include <string>

namespace paper::editor {

/// A tooltip with all of text, wrapped at wrapPixels, or as much as the window holds (its
/// width and height): the rest is cut with "...".
void wholeTooltip(const std::string& text, float wrapPixels = 720.0f);

/// text as it fits in maxLines lines wrapped at wrapPixels (the current font): whole when
/// it does, else its longest beginning that fits with "..." after it, so a box of that many
/// lines shows whole lines only (a fourth was cut through the middle).
std::string firstLines(const std::string& text, float wrapPixels, int maxLines);

}  // namespace paper::editor
