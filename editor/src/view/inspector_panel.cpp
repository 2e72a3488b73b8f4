#include "view/inspector_panel.h"

#include <imgui.h>

#include <cmath>

#include "paper/plugin_host.h"
#include "view/widget_targets.h"

namespace paper::editor {

namespace {

constexpr float kSliderWidth = 160.0f;  ///< pixels, the inspector's slider frames
/// A positive range this many times wide (mass, 0.01 to 1000 kg) gets a logarithmic slider:
/// a linear one would give the usual values a few pixels at its left end.
constexpr double kLogarithmicRangeRatio = 1000.0;

PaperObjectKind pluginKind(ObjectKind kind) { return kind == ObjectKind::Body ? PAPER_OBJECT_BODY : PAPER_OBJECT_JOINT; }

bool isLimit(const ObjectRef& object, const std::string& property) {
    return object.kind == ObjectKind::Joint && (property == "lower" || property == "upper");
}

/// One property's widget; true when the user changed value this frame.
bool propertyWidget(const PaperPropertyInfo& p, const std::string& label, double& value) {
    ImGui::SetNextItemWidth(kSliderWidth);
    switch (p.type) {
    case PAPER_PROPERTY_BOOL: {
        bool v = value != 0.0;
        bool changed = ImGui::Checkbox(label.c_str(), &v);
        value = v ? 1.0 : 0.0;
        return changed;
    }
    case PAPER_PROPERTY_INT: {
        int v = int(std::lround(value));
        bool changed = ImGui::SliderInt(label.c_str(), &v, int(p.minValue), int(p.maxValue));
        value = v;
        return changed;
    }
    default: {
        ImGuiSliderFlags flags = ImGuiSliderFlags_AlwaysClamp;
        if (p.minValue > 0.0 && p.maxValue >= kLogarithmicRangeRatio * p.minValue) flags |= ImGuiSliderFlags_Logarithmic;
        const char* format = p.unit && std::string(p.unit) == "\xC2\xB0" ? "%.1f" : "%.4g";
        return ImGui::SliderScalar(label.c_str(), ImGuiDataType_Double, &value, &p.minValue, &p.maxValue, format,
                                   flags);
    }
    }
}

void drawHeader(const ObjectRef& selection, const std::vector<JointView>& joints, const std::vector<BodyView>& bodies) {
    if (selection.kind == ObjectKind::Joint) {
        ImGui::Text("Joint  %s", selection.name.c_str());
        if (const JointView* j = findJoint(joints, selection.name))
            ImGui::TextDisabled("angle now %.1f\xC2\xB0%s", toDegrees(j->info.currentAngle),
                                outside(j->info.currentAngle, limitsOf(j->info), toRadians(0.5)) ? "  (outside)" : "");
        return;
    }
    ImGui::Text("Body  %s", selection.name.c_str());
    if (const BodyView* b = findBody(bodies, selection.character, selection.name)) {
        const char* shape = b->info.shape == PAPER_SHAPE_CIRCLE ? "circle" : b->info.shape == PAPER_SHAPE_BOX ? "box" : "capsule";
        ImGui::TextDisabled("%s, %s", shape, b->info.simulated ? "simulated" : "following the animation");
    }
}

}  // namespace

std::optional<std::uint64_t> handleOf(PluginHost& plugin, const ObjectRef& object) {
    if (object.kind == ObjectKind::Joint) {
        for (const PaperJointInfo& j : plugin.joints())
            if (j.character == object.character && j.name && object.name == j.name) return j.handle;
    } else if (object.kind == ObjectKind::Body) {
        for (const PaperBodyInfo& b : plugin.bodies())
            if (b.character == object.character && b.name && object.name == b.name) return b.handle;
    }
    return std::nullopt;
}

std::optional<PaperPropertyInfo> objectProperty(PluginHost& plugin, const ObjectRef& object, const std::string& name) {
    std::optional<std::uint64_t> handle = handleOf(plugin, object);
    if (!handle) return std::nullopt;
    for (const PaperPropertyInfo& p : plugin.objectProperties(pluginKind(object.kind), *handle))
        if (p.name && name == p.name) return p;
    return std::nullopt;
}

bool setObjectPropertyByName(PluginHost& plugin, const ObjectRef& object, const std::string& name, double value) {
    std::optional<std::uint64_t> handle = handleOf(plugin, object);
    if (!handle) return false;
    std::vector<PaperPropertyInfo> properties = plugin.objectProperties(pluginKind(object.kind), *handle);
    for (std::size_t i = 0; i < properties.size(); ++i)
        if (properties[i].name && name == properties[i].name)
            return plugin.setObjectProperty(pluginKind(object.kind), *handle, int(i), value);
    return false;
}

std::optional<Edit> drawInspectorPanel(PluginHost& plugin, const ObjectRef& selection,
                                       const std::vector<JointView>& joints, const std::vector<BodyView>& bodies,
                                       InspectorState& state, WidgetTargets& targets) {
    std::optional<Edit> finished;
    ImGui::SetNextWindowPos({10.0f, 275.0f}, ImGuiCond_FirstUseEver);
    if (ImGui::Begin("Inspector", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
        std::optional<std::uint64_t> handle = selection.empty() ? std::nullopt : handleOf(plugin, selection);
        if (!handle) {
            ImGui::TextDisabled("Click a joint's pivot or a body to inspect it.");
        } else {
            drawHeader(selection, joints, bodies);
            ImGui::Separator();
            // Copy the strings first: the plugin's stay valid only until its next call.
            std::vector<PaperPropertyInfo> properties = plugin.objectProperties(pluginKind(selection.kind), *handle);
            std::vector<std::string> names;
            for (const PaperPropertyInfo& p : properties) names.emplace_back(p.name ? p.name : "");
            for (std::size_t i = 0; i < properties.size(); ++i) {
                const PaperPropertyInfo& p = properties[i];
                const std::string& name = names[i];
                std::string label = std::string(p.label ? p.label : name.c_str()) +
                                    (p.unit && *p.unit ? std::string(" (") + p.unit + ")" : "") + "##" + name;
                double value = p.value;
                bool changed = propertyWidget(p, label, value);
                targets.remember("inspector:" + name, p.type == PAPER_PROPERTY_BOOL ? 0.0f : kSliderWidth);
                if (p.type != PAPER_PROPERTY_BOOL && ImGui::IsItemHovered() && !ImGui::IsItemActive())
                    ImGui::SetTooltip("%g to %g%s%s; drag, or Ctrl+click to type a value", p.minValue, p.maxValue,
                                      p.unit && *p.unit ? " " : "", p.unit ? p.unit : "");
                if (ImGui::IsItemActivated()) {
                    state.activeObject = selection;
                    state.active = name;
                    state.activeBefore = p.value;
                    if (const JointView* j = findJoint(joints, selection.name)) state.limitsBefore = limitsOf(j->info);
                }
                if (changed) plugin.setObjectProperty(pluginKind(selection.kind), *handle, int(i), value);
                bool click = p.type == PAPER_PROPERTY_BOOL && changed;  // a click is the whole edit
                bool released = ImGui::IsItemDeactivated() && state.active == name && state.activeObject == selection;
                if (!click && !released) continue;
                if (isLimit(selection, name)) {
                    // Read back what the plugin kept (it refuses a lower above the upper).
                    std::vector<JointView> now = readJoints(plugin);
                    if (const JointView* j = findJoint(now, selection.name))
                        finished = limitEdit(selection.character, selection.name, state.limitsBefore, limitsOf(j->info));
                } else {
                    std::optional<PaperPropertyInfo> now = objectProperty(plugin, selection, name);
                    finished = objectPropertyEdit(selection, name, click ? p.value : state.activeBefore,
                                                  now ? now->value : value);
                }
                state.active.clear();
            }
        }
    }
    ImGui::End();
    return finished;
}

}  // namespace paper::editor
