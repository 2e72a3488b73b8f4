#include "view/inspector_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "paper/plugin_host.h"
#include "view/number_text.h"
#include "view/widget_targets.h"
#include "paper/window.h"

namespace paper::editor {

namespace {

constexpr float kSliderWidth = 160.0f;  ///< pixels, the inspector's slider frames

/// How a property's number is shown, read-only or in its slider: degrees to a tenth, an
/// integer whole, anything else to 4 significant digits.
const char* numberFormat(const PropertyValue& p) {
    if (p.type == PAPER_PROPERTY_INT) return "%.0f";
    return p.unit == "\xC2\xB0" ? "%.1f" : "%.4g";
}

/// A positive range this many times wide (mass, 0.01 to 1000 kg) gets a logarithmic slider:
/// a linear one would give the usual values a few pixels at its left end.
constexpr double kLogarithmicRangeRatio = 1000.0;

bool isLimit(const ObjectRef& object, const std::string& property) {
    return object.kind == ObjectKind::Joint && (property == "lower" || property == "upper");
}

/// One property's widget; true when the user changed value this frame.
bool propertyWidget(const PropertyValue& p, const std::string& label, double& value) {
    wantGlyphs(label);
    wantGlyphs(p.text);
    ImGui::SetNextItemWidth(kSliderWidth);
    // The value's text starts a frame padding into the slider's place; one that reached its
    // end ran into the label ("…, z 5Cut-out parts").
    const float roomForText = kSliderWidth - 2.0f * ImGui::GetStyle().FramePadding.x;
    if ((p.flags & PAPER_PROPERTY_READ_ONLY) && p.type == PAPER_PROPERTY_STRING &&
        ImGui::CalcTextSize(p.text.c_str()).x > roomForText) {
        // Too long for the slider's place, where it was cut (a body's cut-out parts): its name
        // on a line, then the text, an item ("; " between) a line.
        ImGui::TextUnformatted(label.c_str(), label.c_str() + std::min(label.find("##"), label.size()));
        ImGui::Indent();
        for (std::size_t begin = 0; begin <= p.text.size();) {
            const std::size_t end = std::min(p.text.find("; ", begin), p.text.size());
            ImGui::TextUnformatted(p.text.c_str() + begin, p.text.c_str() + end);
            begin = end + 2;
        }
        ImGui::Unindent();
        return false;
    }
    if (p.flags & PAPER_PROPERTY_READ_ONLY) {
        // Shown, not edited: the value as text in the slider's place.
        char text[96];
        if (p.type == PAPER_PROPERTY_STRING) std::snprintf(text, sizeof text, "%s", p.text.c_str());
        else if (p.type == PAPER_PROPERTY_VEC2) std::snprintf(text, sizeof text, "%.3f, %.3f", double(p.vector.x), double(p.vector.y));
        else if (p.type == PAPER_PROPERTY_BOOL) std::snprintf(text, sizeof text, "%s", p.value != 0.0 ? "yes" : "no");
        else std::snprintf(text, sizeof text, "%s", numberText(p.value, numberFormat(p)).c_str());
        ImGui::LabelText(label.c_str(), "%s", text);
        return false;
    }
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
        return ImGui::SliderScalar(label.c_str(), ImGuiDataType_Double, &value, &p.minValue, &p.maxValue, numberFormat(p),
                                   flags);
    }
    }
}

void drawHeader(PluginHost& plugin, const ObjectRef& selection, const std::vector<JointView>& joints) {
    const PluginDeclarations& d = plugin.declarations();
    const std::string kind = selection.pluginKind >= 0 && selection.pluginKind < int(d.kinds.size())
                                 ? d.kinds[size_t(selection.pluginKind)].label
                                 : std::string("Object");
    ImGui::Text("%s  %s", kind.c_str(), selection.name.c_str());
    if (selection.kind != ObjectKind::Joint) return;
    if (const JointView* j = findJoint(joints, selection.name))
        ImGui::TextDisabled("angle now %s%s", degreesText(j->info.currentAngle).c_str(),
                            outside(j->info.currentAngle, limitsOf(j->info), toRadians(0.5)) ? "  (outside)" : "");
}

}  // namespace

std::optional<std::uint64_t> handleOf(PluginHost& plugin, const ObjectRef& object) {
    if (object.empty() || object.pluginKind < 0) return std::nullopt;
    for (const ObjectEntry& o : plugin.objects(object.pluginKind))
        if (o.owner == object.character && o.name == object.name) return o.handle;
    return std::nullopt;
}

std::optional<PropertyValue> objectProperty(PluginHost& plugin, const ObjectRef& object, const std::string& name) {
    std::optional<std::uint64_t> handle = handleOf(plugin, object);
    if (!handle) return std::nullopt;
    const std::vector<PropertyValue> properties = plugin.properties(object.pluginKind, *handle);
    if (const PropertyValue* p = findProperty(properties, name)) return *p;
    return std::nullopt;
}

bool setObjectPropertyByName(PluginHost& plugin, const ObjectRef& object, const std::string& name, double value) {
    std::optional<std::uint64_t> handle = handleOf(plugin, object);
    return handle && plugin.setProperty(object.pluginKind, *handle, name, value);
}

std::optional<Edit> drawInspectorPanel(PluginHost& plugin, const ObjectRef& selection,
                                       const std::vector<JointView>& joints, const InspectorPlace& place,
                                       InspectorState& state,
                                       WidgetTargets& targets) {
    std::optional<Edit> finished;
    // Beside the Joints panel only while that leaves the world a quarter of the window between
    // it and the Simulate panel: between 880 and 1000 px wide it fitted there, and lay over
    // the figure's head.
    const float worldLeft = place.jointsRight + 2.0f * kPanelGap + state.width;
    const bool fitsBeside = place.simulateLeft - worldLeft >= ImGui::GetIO().DisplaySize.x / 4.0f;
    const ImVec2 beside{place.jointsRight + kPanelGap, 30.0f}, under{place.jointsLeft, place.jointsBottom + kPanelGap};
    const ImVec2 at = placeWhenMoved(fitsBeside ? beside : under, {0.0f, 0.0f}, state.placedAt) ? state.placedAt : state.at;
    // Under the Joints panel in a short window, a joint's Inspector reached the folded Plugin
    // panel, and hid it once a three-line message in the status line lifted it.
    const bool pluginUnder = place.pluginTop > at.y && place.pluginLeft < at.x + state.width && place.pluginRight > at.x;
    const float statusTop = place.statusTop > 0.0f ? place.statusTop : ImGui::GetIO().DisplaySize.y;
    keepAbove(pluginUnder ? std::min(place.pluginTop, statusTop) : statusTop, at.y);
    if (ImGui::Begin(kInspectorPanel, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
        std::optional<std::uint64_t> handle = selection.empty() ? std::nullopt : handleOf(plugin, selection);
        if (!handle) {
            ImGui::TextDisabled("Click a joint's pivot or a body to inspect it.");
        } else {
            drawHeader(plugin, selection, joints);
            ImGui::Separator();
            const std::vector<PropertyValue> properties = plugin.properties(selection.pluginKind, *handle);
            for (std::size_t i = 0; i < properties.size(); ++i) {
                const PropertyValue& p = properties[i];
                if (p.flags & PAPER_PROPERTY_HIDDEN) continue;
                const std::string& name = p.name;
                std::string label = (p.label.empty() ? name : p.label) + (p.unit.empty() ? "" : " (" + p.unit + ")") + "##" + name;
                double value = p.value;
                bool changed = propertyWidget(p, label, value);
                if (p.flags & PAPER_PROPERTY_READ_ONLY) continue;
                targets.remember("inspector:" + name, p.type == PAPER_PROPERTY_BOOL ? 0.0f : kSliderWidth);
                if (p.type != PAPER_PROPERTY_BOOL && ImGui::IsItemHovered() && !ImGui::IsItemActive())
                    ImGui::SetTooltip("%g to %g%s%s; drag, or Ctrl+click to type a value", p.minValue, p.maxValue,
                                      p.unit.empty() ? "" : " ", p.unit.c_str());
                if (ImGui::IsItemActivated()) {
                    state.activeObject = selection;
                    state.active = name;
                    state.activeBefore = p.value;
                    if (const JointView* j = findJoint(joints, selection.name)) state.limitsBefore = limitsOf(j->info);
                }
                if (changed && isLimit(selection, name)) {
                    // A limit stops at the other one, as the gizmo's handles do (the plugin
                    // refuses a lower above the upper: a typed one was dropped without a word).
                    if (const PropertyValue* other = findProperty(properties, name == "lower" ? "upper" : "lower"))
                        value = name == "lower" ? std::min(value, other->value) : std::max(value, other->value);
                }
                if (changed) plugin.setProperty(selection.pluginKind, *handle, int(i), value);
                bool click = p.type == PAPER_PROPERTY_BOOL && changed;  // a click is the whole edit
                bool released = ImGui::IsItemDeactivated() && state.active == name && state.activeObject == selection;
                if (!click && !released) continue;
                if (isLimit(selection, name)) {
                    // Read back what the plugin kept (it refuses a lower above the upper).
                    std::vector<JointView> now = readJoints(plugin);
                    if (const JointView* j = findJoint(now, selection.name))
                        finished = limitEdit(selection, state.limitsBefore, limitsOf(j->info));
                } else {
                    std::optional<PropertyValue> now = objectProperty(plugin, selection, name);
                    finished = objectPropertyEdit(selection, name, click ? p.value : state.activeBefore,
                                                  now ? now->value : value);
                }
                state.active.clear();
            }
        }
    }
    state.width = ImGui::GetWindowWidth();
    state.at = ImGui::GetWindowPos();
    ImGui::End();
    return finished;
}

}  // namespace paper::editor
