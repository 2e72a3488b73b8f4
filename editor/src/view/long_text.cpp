#include "view/long_text.h"

#include <imgui.h>

#include <cstddef>

namespace paper::editor {

void wholeTooltip(const std::string& text, float wrapPixels) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(wrapPixels);
    ImGui::TextUnformatted(text.c_str(), text.c_str() + text.size());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}

std::string firstLines(const std::string& text, float wrapPixels, int maxLines) {
    const float most = float(maxLines) * ImGui::GetTextLineHeight() + 0.5f;
    auto height = [&](const std::string& t) { return ImGui::CalcTextSize(t.c_str(), t.c_str() + t.size(), false, wrapPixels).y; };
    if (height(text) <= most) return text;
    // The longest beginning that fits with the ellipsis: a binary search (a longer
    // beginning never takes fewer lines), then back to a character's first byte.
    const std::string ellipsis = "...";
    std::size_t fits = 0, over = text.size();
    while (over - fits > 1) {
        std::size_t mid = (fits + over) / 2;
        if (height(text.substr(0, mid) + ellipsis) <= most) fits = mid;
        else over = mid;
    }
    while (fits > 0 && (static_cast<unsigned char>(text[fits]) & 0xC0) == 0x80) --fits;
    std::string shown = text.substr(0, fits);
    while (!shown.empty() && (shown.back() == ' ' || shown.back() == '\n')) shown.pop_back();
    return shown + ellipsis;
}

}  // namespace paper::editor
