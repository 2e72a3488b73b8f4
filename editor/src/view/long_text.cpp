#include "view/long_text.h"
#include "paper/window.h"

#include <imgui.h>

#include <algorithm>
#include <cstddef>

namespace paper::editor {

void wholeTooltip(const std::string& text, float wrapPixels) {
    // Within the window: at 800x600 a refused Save As's reason (a line for each clip not
    // found) ran off its right and bottom edges. What its height cannot hold ends in "...":
    // the log has all of it.
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    const ImGuiStyle& style = ImGui::GetStyle();
    const ImVec2 margin{2.0f * (style.WindowPadding.x + style.DisplaySafeAreaPadding.x),
                        2.0f * (style.WindowPadding.y + style.DisplaySafeAreaPadding.y)};
    const float wrap = std::max(std::min(wrapPixels, display.x - margin.x), 2.0f * ImGui::GetFontSize());
    const int lines = std::max(1, int((display.y - margin.y) / ImGui::GetTextLineHeightWithSpacing()));
    const std::string shown = firstLines(text, wrap - style.WindowPadding.x, lines);
    // Placed by hand: ImGui puts a tooltip that fits beside the mouse on no side at the mouse,
    // whatever it cuts off. Beside it where it fits, else pushed back into the window.
    const ImVec2 textSize = ImGui::CalcTextSize(shown.c_str(), shown.c_str() + shown.size(), false, wrap - style.WindowPadding.x);
    const ImVec2 size{textSize.x + 2.0f * style.WindowPadding.x, textSize.y + 2.0f * style.WindowPadding.y};
    const ImVec2 mouse = ImGui::GetIO().MousePos, safe = style.DisplaySafeAreaPadding;
    const float offset = 16.0f;  // clear of the cursor, as ImGui's own tooltips
    ImVec2 at{mouse.x + offset, mouse.y + offset};
    if (at.x + size.x > display.x - safe.x && mouse.x - offset - size.x >= safe.x) at.x = mouse.x - offset - size.x;
    at.x = std::max(std::min(at.x, display.x - safe.x - size.x), safe.x);
    at.y = std::max(std::min(at.y, display.y - safe.y - size.y), safe.y);
    ImGui::SetNextWindowPos(at);
    wantGlyphs(shown);
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(wrap);
    ImGui::TextUnformatted(shown.c_str(), shown.c_str() + shown.size());
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
