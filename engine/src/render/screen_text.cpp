#include "paper/screen_text.h"

#include <cstddef>

namespace paper {

namespace {

constexpr float kTextGap = 2.0f;  ///< pixels kept between stacked texts

bool overlap(Vec2 a, Vec2 aSize, Vec2 b, Vec2 bSize) {
    return a.x < b.x + bSize.x && b.x < a.x + aSize.x && a.y < b.y + bSize.y + kTextGap &&
           b.y < a.y + aSize.y + kTextGap;
}

}  // namespace

void stackOverlapping(std::vector<ScreenText>& texts, const std::vector<Vec2>& sizes) {
    for (std::size_t i = 1; i < texts.size() && i < sizes.size(); ++i) {
        // Each move puts the text just above one it overlapped, so its y only falls and takes
        // one of i values: this ends.
        for (std::size_t j = 0; j < i;) {
            if (overlap(texts[i].position, sizes[i], texts[j].position, sizes[j])) {
                texts[i].position.y = texts[j].position.y - sizes[i].y - kTextGap;
                j = 0;
            } else {
                ++j;
            }
        }
    }
}

}  // namespace paper
