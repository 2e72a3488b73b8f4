// Where the panels' widgets were drawn last frame, by a short name ("reload", "blend"), so
// a script can move the mouse onto them (`mouse move target widget NAME [FRACTION]`) and
// click them as a hand would, instead of calling what they do.
#pragma once

#include <imgui.h>

#include <map>
#include <string>

namespace paper::editor {

class WidgetTargets {
public:
    /// Records the last ImGui item (call right after drawing it) under name. frameWidth > 0:
    /// only that much from the left, pixels (a slider's frame without its label).
    void remember(const std::string& name, float frameWidth = 0.0f) {
        ImVec2 min = ImGui::GetItemRectMin(), max = ImGui::GetItemRectMax();
        if (frameWidth > 0.0f) max.x = min.x + frameWidth;
        rects_[name] = {min, max};
    }
    /// The point FRACTION (0..1) of the way across the widget at mid-height, in ImGui's
    /// coordinates; false when no widget of that name was drawn.
    bool point(const std::string& name, float fraction, ImVec2& at) const {
        auto it = rects_.find(name);
        if (it == rects_.end()) return false;
        const auto& [min, max] = it->second;
        at = {min.x + fraction * (max.x - min.x), 0.5f * (min.y + max.y)};
        return true;
    }
    /// The names drawn, for error messages.
    std::string names() const {
        std::string all;
        for (const auto& entry : rects_) all += (all.empty() ? "" : ", ") + entry.first;
        return all;
    }

private:
    std::map<std::string, std::pair<ImVec2, ImVec2>> rects_;
};

}  // namespace paper::editor
