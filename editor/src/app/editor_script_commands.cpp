// The editor's script commands at run time (editor_script.h checks their syntax): named
// mouse targets, selection, typing, and the expects that stop a run with FILE:LINE.
#include <imgui.h>
#include <imgui_internal.h>  // FindWindowByName: where a panel is, by its title

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include "app/editor.h"
#include "paper/level_view.h"
#include "paper/plugin_host.h"
#include "paper/utf8.h"

namespace paper::editor {

namespace {

/// How far, degrees, an `expect joint` may miss by default: limits are set in whole snapped degrees.
constexpr double kDefaultExpectToleranceDegrees = 0.05;
/// How far a property may miss by default, in its unit.
constexpr double kDefaultPropertyTolerance = 1e-4;

/// `expect … VALUE [TOLERANCE]` with VALUE at w[at]: true when got is within the tolerance,
/// else error says what it is.
bool expectNumber(const std::vector<std::string>& w, std::size_t at, double got, double defaultTolerance,
                  std::string& error) {
    double want = std::stod(w[at]);
    double tolerance = w.size() == at + 2 ? std::stod(w[at + 1]) : defaultTolerance;
    if (std::fabs(got - want) <= tolerance) return true;
    std::string said;
    for (std::size_t i = 0; i <= at; ++i) said += (i ? " " : "") + w[i];
    char text[64];
    std::snprintf(text, sizeof text, ": it is %g", got);
    error = said + text;
    return false;
}

/// `expect … VALUE [TOLERANCE]` of a property: text for a string, else a number.
bool expectValue(const std::vector<std::string>& w, std::size_t at, const PropertyValue& p, std::string& error) {
    if (p.type == PAPER_PROPERTY_STRING) {
        if (p.text == w[at]) return true;
        error = "expect … " + p.name + " " + w[at] + ": it is '" + p.text + "'";
        return false;
    }
    char* end = nullptr;
    std::strtod(w[at].c_str(), &end);
    if (end == w[at].c_str() || *end != '\0') {
        error = "expect: '" + w[at] + "' is not a number, and " + p.name + " is one";
        return false;
    }
    return expectNumber(w, at, p.value, kDefaultPropertyTolerance, error);
}

}  // namespace

std::optional<ObjectRef> Editor::objectNamed(const std::string& kind, const std::string& name, std::string& error) const {
    if (kind == "joint") {
        if (const JointView* j = findJoint(joints_, name)) return jointRef(j->info.kind, j->info.character, j->name);
        error = "no joint '" + name + "' (joints: " + jointNames() + ")";
        return std::nullopt;
    }
    if (kind == "body") {
        for (const BodyView& b : bodies_)
            if (b.name == name) return bodyRef(b.info.kind, b.info.character, b.name);
        error = "no body '" + name + "' (bodies: " + bodyNames() + ")";
        return std::nullopt;
    }
    const int pluginKind = plugin_.declarations().kindNamed(kind);
    if (pluginKind < 0) {
        std::string kinds;
        for (const PluginDeclarations::Kind& k : plugin_.declarations().kinds)
            if (k.name != "joint" && k.name != "body") kinds += ", " + k.name;  // the plugin's may be named so too
        error = "no kind of object '" + kind + "' (joint, body" + kinds + ")";
        return std::nullopt;
    }
    std::string names;
    for (const ObjectEntry& o : plugin_.objects(pluginKind)) {
        if (o.name == name) return ObjectRef{ObjectKind::Other, pluginKind, o.owner, o.name};
        names += (names.empty() ? "" : ", ") + o.name;
    }
    error = "no " + kind + " '" + name + "' (" + (names.empty() ? "there are none" : names) + ")";
    return std::nullopt;
}

std::string Editor::jointNames() const {
    std::string names;
    for (const JointView& j : joints_) names += (names.empty() ? "" : ", ") + j.name;
    return names;
}

std::string Editor::bodyNames() const {
    std::string names;
    for (const BodyView& b : bodies_) names += (names.empty() ? "" : ", ") + b.name;
    return names;
}

bool Editor::moveToTarget(const ScriptCommand& c, std::string& error) {
    const std::vector<std::string> w(c.words.begin() + 2, c.words.end());  // target KIND NAME …
    if (w[1] == "widget") {  // target widget NAME [FRACTION]: where the panel drew it last frame
        ImVec2 at;
        if (!targets_.point(w[2], w.size() == 4 ? std::stof(w[3]) : 0.5f, at)) {
            error = "mouse move target: no widget '" + w[2] + "' in the last frame (widgets: " + targets_.names() + ")";
            return false;
        }
        ImVec2 scale = ImGui::GetIO().DisplayFramebufferScale;
        input_.mouseMove({at.x * (scale.x > 0 ? scale.x : 1.0f), at.y * (scale.y > 0 ? scale.y : 1.0f)});
        return true;
    }
    if (w[1] == "body") {  // target body NAME: a point a click there selects the body at
        const BodyView* b = findBody(bodies_, 0, w[2]);
        if (!b) {
            error = "mouse move target: no body '" + w[2] + "' (bodies: " + bodyNames() + ")";
            return false;
        }
        Vec2d at;
        auto gizmos = [&](Vec2d point) { return gizmo_.has(joints_, point, camera_.pixelsPerMetre, view_.allGizmos); };
        if (!pointSelectingBody(joints_, bodies_, *b, camera_.pixelsPerMetre, gizmos, at)) {
            error = "mouse move target: body '" + w[2] + "' is covered by pivots and other bodies at this zoom";
            return false;
        }
        input_.mouseMove(camera_.worldToScreen(Vec2{float(at.x), float(at.y)}));
        return true;
    }
    const JointView* j = findJoint(joints_, w[2]);  // target joint NAME PART [DEGREES]
    if (!j) {
        error = "mouse move target: no joint '" + w[2] + "' (joints: " + jointNames() + ")";
        return false;
    }
    Vec2d at;
    if (w[3] == "angle")
        at = pointOnArc(gizmoFrameOf(j->info), toRadians(std::stod(w[4])), kGizmoRadiusPixels / camera_.pixelsPerMetre);
    else
        at = gizmoPartWorld(j->info,
                            w[3] == "lower"   ? GizmoPart::LowerHandle
                            : w[3] == "upper" ? GizmoPart::UpperHandle
                                              : GizmoPart::None,
                            camera_.pixelsPerMetre);
    input_.mouseMove(camera_.worldToScreen(Vec2{float(at.x), float(at.y)}));
    return true;
}

bool Editor::selectByName(const ScriptCommand& c, std::string& error) {
    const std::string& name = c.words[2];  // select joint|body NAME
    std::optional<ObjectRef> object = objectNamed(c.words[1], name, error);
    if (!object) {
        error = "select: " + error;
        return false;
    }
    select(*object);
    return true;
}

bool Editor::expectLimit(const ScriptCommand& c, std::string& error) {
    const std::vector<std::string>& w = c.words;  // expect joint NAME lower|upper DEGREES [TOLERANCE]
    const JointView* j = findJoint(joints_, w[2]);
    if (!j) {
        error = "expect: no joint '" + w[2] + "' (joints: " + jointNames() + ")";
        return false;
    }
    double got = toDegrees(w[3] == "lower" ? j->info.lowerLimit : j->info.upperLimit);
    return expectNumber(w, 4, got, kDefaultExpectToleranceDegrees, error);
}

bool Editor::expectObjectProperty(const ScriptCommand& c, std::string& error) {
    const std::vector<std::string>& w = c.words;  // expect property KIND NAME PROPERTY VALUE [TOLERANCE]
    std::optional<ObjectRef> object = objectNamed(w[2], w[3], error);
    if (!object) {
        error = "expect: " + error;
        return false;
    }
    std::optional<PropertyValue> p = objectProperty(plugin_, *object, w[4]);
    if (!p) {
        error = "expect: " + w[2] + " '" + w[3] + "' has no property '" + w[4] + "'";
        return false;
    }
    return expectValue(w, 5, *p, error);
}

bool Editor::expectObject(const ScriptCommand& c, std::string& error) {
    const std::vector<std::string>& w = c.words;  // expect hovered|selected joint|body NAME / none
    const ObjectRef& got = w[1] == "hovered" ? hovered_ : selection_;
    bool match = w[2] == "none" ? got.empty() : got.is(w[2] == "body" ? ObjectKind::Body : ObjectKind::Joint, w[3]);
    if (match) return true;
    error = "expect " + w[1] + " " + w[2] + (w.size() == 4 ? " " + w[3] : "") + ": it is " + kindName(got.kind) +
            (got.empty() ? "" : " " + got.name);
    return false;
}

bool Editor::expectPlots(const ScriptCommand& c, std::string& error) {
    // expect plots N: every plot holds N samples, and the newest is what the plugin reports
    // now (the stats of the last step) in the plot's unit, once the library loaded has
    // stepped (a hot reload while paused keeps the samples of the one before).
    const StatsPlots& plots = simulation_.plots;
    std::size_t want = std::size_t(std::stoll(c.words[2]));
    char text[200];
    if (plots.count == 0) {
        error = "expect plots: the plugin flags no figure for plotting";
        return false;
    }
    const std::vector<double> stats = plugin_.stats();
    for (std::size_t i = 0; i < plots.count; ++i) {
        const StatsPlots::Plot& plot = plots.plots[i];
        if (plot.values.size() != want) {
            std::snprintf(text, sizeof text, "expect plots %zu: the %s plot holds %zu samples", want, plot.label.c_str(),
                          plot.values.size());
            error = text;
            return false;
        }
        if (want == 0 || !plots.stepped) continue;
        const double now = plot.stat < stats.size() ? stats[plot.stat] * plot.displayScale : 0.0;
        if (plot.values.latest() == float(now)) continue;
        std::snprintf(text, sizeof text, "expect plots %zu: the newest %s (%s) sample is %g, the plugin says %g", want,
                      plot.label.c_str(), plot.unit.c_str(), double(plot.values.latest()), now);
        error = text;
        return false;
    }
    return true;
}

bool Editor::expectView(const ScriptCommand& c, std::string& error) {
    const std::vector<std::string>& w = c.words;
    // The words after `expect WHAT`, as one text (status, drawn, save_as).
    std::string words;
    for (std::size_t i = 2; i < w.size(); ++i) words += (i > 2 ? " " : "") + w[i];
    if (w[1] == "status") {
        if (statusText_.find(words) != std::string::npos) return true;
        error = "expect status " + words + ": the status line says '" + statusText_ + "'";
        return false;
    }
    if (w[1] == "drawn") {  // every code point has a glyph in the panels' font: none shows as '?'
        const ImFont& font = *ImGui::GetIO().Fonts->Fonts[0];
        for (std::size_t at = 0; at < words.size();) {
            bool wellFormed = false;
            const std::uint32_t code = nextCodePoint(words, at, wellFormed);
            if (wellFormed && code <= 0xFFFF && font.FindGlyphNoFallback(ImWchar(code))) continue;
            char name[16];
            std::snprintf(name, sizeof name, "U+%04X", unsigned(code));
            error = "expect drawn " + words + ": " + name + " has no glyph in the panels' font (it shows as '?')";
            return false;
        }
        return true;
    }
    if (w[1] == "save_as") {  // its lines read as one: a script's words have no line breaks
        std::string shown = saveAsDialogText(menu_, openChoices());
        std::replace(shown.begin(), shown.end(), '\n', ' ');
        if (shown.find(words) != std::string::npos) return true;
        error = "expect save_as " + words + ": " + (shown.empty() ? "the Save As dialog is closed" : "it says '" + shown + "'");
        return false;
    }
    if (w[1] == "label") {  // the first spawn's label between the side panels
        const ScreenText label = spawnLabelsClearOfPanels().front();
        const Span free = betweenSidePanels();
        const float from = label.position.x, to = from + labelWidth(label);
        const bool visible = from >= free.left && to <= free.right;
        if (visible == (w[2] == "visible")) return true;
        char text[160];
        std::snprintf(text, sizeof text, ": it runs from x %.0f to %.0f px, the side panels leave %.0f to %.0f px", from, to,
                      free.left, free.right);
        error = "expect label " + w[2] + text;
        return false;
    }
    if (w[1] == "character" || w[1] == "flag") {
        const Rect box = w[1] == "flag" ? spawnMarkerBox(level_.spawns.front()) : firstCharacterBox();
        ViewInsets seen = insets(box);
        // The flag stands at the height of the Simulate panel, which covers it whatever the
        // side panels leave the world (insets() leaves them out when that is under a third).
        if (w[1] == "flag") seen.rightPixels = std::max(seen.rightPixels, underSimulatePanel());
        bool visible = isInView(camera_, box, seen);
        if (visible == (w[2] == "visible")) return true;
        Rect view = freeView(camera_, seen);
        char text[200];
        std::snprintf(text, sizeof text, ": it is %s (x %.2f..%.2f m, y %.2f..%.2f m; the view x %.2f..%.2f, y %.2f..%.2f)",
                      visible ? "visible" : "not wholly visible", box.min.x, box.max.x, box.min.y, box.max.y,
                      view.min.x, view.max.x, view.min.y, view.max.y);
        error = "expect " + w[1] + " " + w[2] + text;
        return false;
    }
    const bool sidePanel = std::find(kSidePanels.begin(), kSidePanels.end(), w[2]) != kSidePanels.end();
    const ImGuiWindow* panel = sidePanel ? panelDrawnLastFrame(w[2].c_str()) : nullptr;
    if ((w[3] == "inside" || w[3] == "gap" || w[3] == "clear") && !panel) {
        error = "expect panel: no panel '" + w[2] + "'" + (sidePanel ? " was drawn in the last frame" : "") +
                " (Joints, Inspector, Simulate, Tuning, Plugin)";
        return false;
    }
    // expect panel NAME gap PIXELS [TOLERANCE]: from its lower edge down to the status line.
    if (w[3] == "gap") return expectNumber(w, 4, statusTop_ - (panel->Pos.y + panel->Size.y), 0.5, error);
    if (w[3] == "inside") {  // expect panel NAME inside: wholly between the menu bar and the status line
        const ImVec2 low = panel->Pos, high{panel->Pos.x + panel->Size.x, panel->Pos.y + panel->Size.y};
        const float menuBottom = ImGui::GetFrameHeight();
        if (low.x >= 0.0f && low.y >= menuBottom && high.x <= ImGui::GetIO().DisplaySize.x && high.y <= statusTop_) return true;
        char text[200];
        std::snprintf(text, sizeof text, ": it spans x %.0f..%.0f, y %.0f..%.0f px; the free area is x 0..%.0f, y %.0f..%.0f",
                      low.x, high.x, low.y, high.y, ImGui::GetIO().DisplaySize.x, menuBottom, statusTop_);
        error = "expect panel " + w[2] + " inside" + text;
        return false;
    }
    if (w[3] == "clear") {  // expect panel NAME clear: no other side panel overlaps it (one would hide part of it)
        for (const char* title : kSidePanels) {
            const ImGuiWindow* other = panelDrawnLastFrame(title);
            if (!other || other == panel) continue;
            const bool apart = other->Pos.x >= panel->Pos.x + panel->Size.x || panel->Pos.x >= other->Pos.x + other->Size.x ||
                               other->Pos.y >= panel->Pos.y + panel->Size.y || panel->Pos.y >= other->Pos.y + other->Size.y;
            if (apart) continue;
            char text[240];
            std::snprintf(text, sizeof text, ": %s (x %.0f..%.0f, y %.0f..%.0f px) overlaps it (x %.0f..%.0f, y %.0f..%.0f)",
                          title, other->Pos.x, other->Pos.x + other->Size.x, other->Pos.y, other->Pos.y + other->Size.y,
                          panel->Pos.x, panel->Pos.x + panel->Size.x, panel->Pos.y, panel->Pos.y + panel->Size.y);
            error = "expect panel " + w[2] + " clear" + text;
            return false;
        }
        return true;
    }
    // expect panel NAME width PIXELS [TOLERANCE]: the panels whose width matters.
    if (w[2] != kJointsPanel) {
        error = "expect panel: no panel '" + w[2] + "' to measure (Joints)";
        return false;
    }
    return expectNumber(w, 4, jointsPanelWidth_, 0.5, error);
}

namespace {
/// Whether ImGui drew this window as a dialog (a modal popup) in the last frame; asked
/// between two frames, as the script's expectations are.
bool drawnDialog(const ImGuiWindow& window) {
    return (window.Flags & ImGuiWindowFlags_Modal) && window.Active && !window.Hidden;
}

/// A window's title as its title bar shows it: without what follows "##" (ImGui's id).
std::string shownTitle(const ImGuiWindow& window) {
    const char* name = window.Name;
    return std::string(name, ImGui::FindRenderedTextEnd(name));
}
}  // namespace

std::string Editor::dialogDrawnLastFrame() const {
    for (const ImGuiWindow* window : ImGui::GetCurrentContext()->Windows)
        if (drawnDialog(*window)) return shownTitle(*window);
    return "";
}

bool Editor::expectDialogOnTop(std::string& error) const {
    // In ImGui's display order, back to front, as the last frame drew it: the dialogs (the
    // modal windows drawn) after every panel and the status line.
    const ImVector<ImGuiWindow*>& windows = ImGui::GetCurrentContext()->Windows;
    int lowestDialog = windows.Size;
    for (int i = 0; i < windows.Size; ++i)
        if (drawnDialog(*windows[i])) lowestDialog = std::min(lowestDialog, i);
    if (lowestDialog == windows.Size) {
        error = "expect dialog on top: no dialog was drawn in the last frame";
        return false;
    }
    for (int i = lowestDialog + 1; i < windows.Size; ++i) {
        const ImGuiWindow* window = windows[i];
        if (!window->Active || (window->Flags & (ImGuiWindowFlags_Modal | ImGuiWindowFlags_ChildWindow | ImGuiWindowFlags_Tooltip)))
            continue;
        error = "expect dialog on top: the " + shownTitle(*window) + " window is drawn in front of the " +
                shownTitle(*windows[lowestDialog]) + " dialog";
        return false;
    }
    return true;
}

bool Editor::expectState(const ScriptCommand& c, std::string& error) {
    const std::vector<std::string>& w = c.words;
    if (w[1] == "status" || w[1] == "drawn" || w[1] == "save_as" || w[1] == "character" || w[1] == "flag" || w[1] == "label" || w[1] == "panel")
        return expectView(c, error);
    if (w[1] == "joint") return expectLimit(c, error);
    if (w[1] == "property" && w.size() >= 6) return expectObjectProperty(c, error);
    if (w[1] == "hovered" || w[1] == "selected") return expectObject(c, error);
    if (w[1] == "plots") return expectPlots(c, error);
    if (w[1] == "quit") {  // reached: the editor is still running
        error = "expect quit: the editor is still running";
        return false;
    }
    if (w[1] == "dialog" && w[2] == "on") return expectDialogOnTop(error);
    if (w[1] == "dialog" && w[2] == "closed") {  // no dialog drawn in the last frame, the question neither
        const std::string drawn = dialogDrawnLastFrame();
        if (drawn.empty() && !askUnsaved_) return true;
        error = "expect dialog closed: the " + (drawn.empty() ? std::string("unsaved-changes question is open") : drawn + " dialog was drawn in the last frame");
        return false;
    }
    if (w[1] == "dialog") {
        if (askUnsaved_ == (w[2] == "unsaved")) return true;
        error = std::string("expect dialog ") + w[2] + ": " + (askUnsaved_ ? "the unsaved-changes question is open"
                                                                          : "no question is open");
        return false;
    }
    if (w[1] == "reloads") return expectNumber(w, 2, plugin_.status().reloads, 0.0, error);
    if (w[1] == "loaded_at") {  // expect loaded_at first: the Plugin panel's load time is the first library's
        if (pluginPanel_.loadedAt == firstLoadedAt_) return true;
        error = "expect loaded_at first: the Plugin panel says loaded at " + pluginPanel_.loadedAt +
                ", the first library at " + firstLoadedAt_;
        return false;
    }
    if (w[1] == "dirty" || w[1] == "clean") {
        if (history_.dirty() == (w[1] == "dirty")) return true;
        error = "expect " + w[1] + ": the asset is " + (history_.dirty() ? "dirty (unsaved edits)" : "clean");
        return false;
    }
    if (w[1] == "property") {  // a setting
        int kind = -1;
        std::uint64_t handle = 0;
        const std::vector<PropertyValue> all = settings(plugin_, kind, handle);
        if (const PropertyValue* p = findProperty(all, w[2])) return expectValue(w, 3, *p, error);
        error = "expect property: no setting '" + w[2] + "'";
        return false;
    }
    // expect mode MODE, expect blend WEIGHT: the first object with a "mode" or "blend_weight".
    const std::string property = w[1] == "blend" ? "blend_weight" : "mode";
    const PluginDeclarations& d = plugin_.declarations();
    for (int kind = 0; kind < int(d.kinds.size()); ++kind) {
        for (const ObjectEntry& o : plugin_.objects(kind)) {
            const std::vector<PropertyValue> all = plugin_.properties(kind, o.handle);
            const PropertyValue* p = findProperty(all, property);
            if (!p) break;  // the kind has none
            if (w[1] == "blend") return expectNumber(w, 2, p->value, 1e-3, error);
            if (p->text == w[2]) return true;
            error = "expect mode " + w[2] + ": " + o.name + " is " + p->text;
            return false;
        }
    }
    error = "expect " + w[1] + ": the plugin has no object with a '" + property + "'";
    return false;
}

bool Editor::runScriptCommand(const ScriptCommand& c, std::string& error) {
    switch (c.op) {
    case ScriptOp::Screenshot: screenshots_.push_back(&c); return true;
    case ScriptOp::Quit: quit_ = true; return true;  // the script's end: nothing is asked
    case ScriptOp::Extension:
        if (isMouseTarget(c.words)) return moveToTarget(c, error);
        if (c.words[0] == "expect") return expectState(c, error);
        if (c.words[0] == "select") return selectByName(c, error);
        if (c.words[0] == "type") {
            // Into the field that took the keys last frame: with none, the text went nowhere
            // and the script passed on (a mistyped widget step went unnoticed).
            const ImGuiID active = ImGui::GetActiveID();
            if (active == 0 || !ImGui::GetInputTextState(active)) {
                error = "type: no text field takes the keys (Ctrl+click a slider or click a field first)";
                return false;
            }
            for (std::size_t i = 1; i < c.words.size(); ++i) typedText_ += (i > 1 ? " " : "") + c.words[i];
            return true;
        }
        error = "unknown editor command";
        return false;
    default: return true;
    }
}

}  // namespace paper::editor
