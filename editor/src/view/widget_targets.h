// Where the panels' widgets were drawn last frame, by a short name ("reload", "blend"), so
// a script can move the mouse onto them (`mouse move target widget NAME [FRACTION]`) and
// click them as a hand would, instead of calling what they do.
#pragma once

#include <imgui.h>

#include <cstdint>
#include <map>
#include <string>

namespace paper::editor {

class WidgetTargets {
public:
    /// Starts a frame's widgets: those not remembered again from here on (a closed dialog,
    /// the inspector of an object no longer selected) stop being targets.
    void beginFrame() { ++frame_; }
    /// Records the last ImGui item (call right after drawing it) under name. frameWidth > 0:
    /// only that much from the left, pixels (a slider's frame without its label).
    void remember(const std::string& name, float frameWidth = 0.0f) {
        ImVec2 min = ImGui::GetItemRectMin(), max = ImGui::GetItemRectMax();
        if (frameWidth > 0.0f) max.x = min.x + frameWidth;
        rects_[name] = {min, max, frame_};
    }
    /// The point FRACTION (0..1) of the way across the widget at mid-height, in ImGui's
    /// coordinates; false when no widget of that name was drawn in the last frame.
    bool point(const std::string& name, float fraction, ImVec2& at) const {
        auto it = rects_.find(name);
        if (it == rects_.end() || it->second.frame != frame_) return false;
        const Rect& r = it->second;
        at = {r.min.x + fraction * (r.max.x - r.min.x), 0.5f * (r.min.y + r.max.y)};
        return true;
    }
    /// The names drawn in the last frame, for error messages.
    std::string names() const {
        std::string all;
        for (const auto& [name, rect] : rects_)
            if (rect.frame == frame_) all += (all.empty() ? "" : ", ") + name;
        return all;
    }

private:
    struct Rect {
        ImVec2 min, max;
        std::uint64_t frame = 0;  ///< the frame it was drawn in (beginFrame's count)
    };
    std::map<std::string, Rect> rects_;
    std::uint64_t frame_ = 0;
};

}  // namespace paper::editor
