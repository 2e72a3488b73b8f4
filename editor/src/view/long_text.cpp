#include "view/long_text.h"

#include <imgui.h>

namespace paper::editor {

void wholeTooltip(const std::string& text, float wrapPixels) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(wrapPixels);
    ImGui::TextUnformatted(text.c_str(), text.c_str() + text.size());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}

}  // namespace paper::editor
