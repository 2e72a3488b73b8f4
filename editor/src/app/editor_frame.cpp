// What the editor handles and draws each frame: its keys, the viewport's mouse (picking,
// gizmo drags), the Simulate step, the Joints panel, the status line and the title.
#include "app/editor_app.h"

#include <SDL.h>
#include <imgui.h>
#include <backends/imgui_impl_opengl3.h>
#include <backends/imgui_impl_sdl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>
#include <utility>

#include <unistd.h>

#include "paper/content_paths.h"
#include "app/editor.h"
#include "paper/fixed_step.h"
#include "paper/plugin_host.h"
#include "paper/draw_list.h"
#include "paper/gl_renderer.h"
#include "view/label_text.h"
#include "view/long_text.h"
#include "view/unsaved_dialog.h"
#include "view/viewport.h"
#include "paper/level_view.h"

namespace paper::editor {

namespace {

namespace fs = std::filesystem;

/// The most lines of a long message the status line shows; hovering it shows them all.
constexpr int kStatusMaxLines = 3;

}  // namespace

void Editor::handleKeys() {
    if (askUnsaved_ || menu_.openDialog || menu_.saveAsDialog) return;  // the dialog has the keys
    // A value being typed, or an open menu, has the keys too: Esc cancels the entry or closes
    // the menu, Ctrl+Z undoes typing, and "p" or "." are text (they played and stepped the
    // simulation, and Esc quit the editor, under a typed value).
    if (ImGui::GetIO().WantTextInput || ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId)) return;
    bool ctrl = input_.held(keys_.ctrl);
    if (ctrl && input_.pressed(keys_.undo)) input_.held(keys_.shift) ? redo() : undo();
    if (ctrl && input_.pressed(keys_.redo)) redo();
    if (ctrl && input_.pressed(keys_.save)) {
        if (input_.held(keys_.shift)) openSaveAsDialog(menu_);
        else save();
    }
    if (ctrl && input_.pressed(keys_.open)) openDialog(menu_, openChoices());
    if (ctrl && input_.pressed(keys_.quit)) request(PendingAction::Quit);
    if (!ctrl && input_.pressed(keys_.playPause)) simulation_.playing = !simulation_.playing;
    if (input_.pressed(keys_.step)) simulation_.stepOnce = true;
    if (input_.pressed(keys_.frameSelected)) frameSelected();
    if (input_.pressed(player_.resetView)) resetView();
    if (input_.pressed(player_.reloadPlugin)) reloadPlugin();
    if (input_.pressed(player_.quit)) {
        // Esc during a handle drag cancels the drag (the limits go back), as Esc cancels a
        // typed value; it quit the editor under the user's hand.
        if (cancelDrag()) report("Drag cancelled: the limits are back where they were.", false);
        else request(PendingAction::Quit);
    }
}

void Editor::handleViewport() {
    const ImGuiIO& io = ImGui::GetIO();
    const MouseState& mouse = input_.mouse();
    bool leftDown = mouse.down[int(MouseButton::Left)];
    bool pressed = leftDown && !leftWasDown_;
    bool released = !leftDown && leftWasDown_;
    leftWasDown_ = leftDown;
    bool mouseFree = !io.WantCaptureMouse;
    if (pressed) leftPressInWorld_ = mouseFree;

    ViewportInput view = updateViewport(camera_, input_, mouseFree, input_.held(keys_.space));
    Vec2 world = camera_.screenToWorld(mouse.position);
    Vec2d mouseWorld{world.x, world.y};
    std::vector<ObjectRef> under = mouseFree && !view.panning && !gizmo_.dragging()
                                       ? objectsAt(joints_, bodies_, mouseWorld, camera_.pixelsPerMetre)
                                       : std::vector<ObjectRef>{};
    hovered_ = clickTarget(under, mouse.position);
    if (view.panning && !gizmo_.dragging()) {
        editorOwnsPress_ = true;  // a hand-tool drag is not a grab either
        return;
    }
    if (!mouseFree && !gizmo_.dragging() && !released) return;

    GizmoMouse m;
    m.world = mouseWorld;
    m.pressed = pressed && leftPressInWorld_;
    m.down = leftDown && leftPressInWorld_;
    m.released = released;
    m.snap = input_.held(keys_.shift) ? SnapMode::Free : input_.held(keys_.ctrl) ? SnapMode::Fine : SnapMode::Default;
    if (released && gizmo_.dragging()) m.snap = dragSnap_;
    dragSnap_ = m.snap;
    std::optional<Edit> dragged;
    bool used = gizmo_.update(joints_, m, camera_.pixelsPerMetre, view_.allGizmos, plugin_, dragged);
    if (dragged) recordEdit(*dragged);
    // Over a gizmo's arc or handle a click is the gizmo's: the hover says so, not the body
    // under it (lit, the forearm under its elbow's arc stayed unselected when clicked).
    if (!gizmo_.hoveredJoint().empty() && !gizmo_.dragging()) {
        const JointView* j = findJoint(joints_, gizmo_.hoveredJoint());
        hovered_ = j ? jointRef(j->info.kind, j->info.character, j->name) : ObjectRef{};
    }
    if (gizmo_.dragging() && !selection_.is(ObjectKind::Joint, gizmo_.selected()))
        if (const JointView* j = findJoint(joints_, gizmo_.selected()))
            select(jointRef(j->info.kind, j->info.character, j->name));
    if (m.pressed && !used) {
        // Not a gizmo's handle: the pivot or body under the mouse, or nothing, is selected. A
        // body clicked while playing is also the plugin's to grab.
        select(hovered_);
        lastPickPixels_ = mouse.position;
        if (under.size() > 1) {
            const ObjectRef& next = clickTarget(under, mouse.position);
            report(std::to_string(under.size()) + " objects here: click again to select " + kindName(next.kind) + " " +
                       next.name + ".",
                   false);
        }
        used = hovered_.kind == ObjectKind::Joint;
    }
    if (pressed) editorOwnsPress_ = used || !simulation_.playing;
    if (released) editorOwnsPress_ = false;
}

ObjectRef Editor::clickTarget(const std::vector<ObjectRef>& under, Vec2 mousePixels) const {
    if (under.empty()) return {};
    // A click where the last one was takes the next object there: the second of two
    // coincident pivots, a body under another.
    bool samePlace = std::hypot(mousePixels.x - lastPickPixels_.x, mousePixels.y - lastPickPixels_.y) <= kRepeatClickPixels;
    auto selected = std::find(under.begin(), under.end(), selection_);
    if (!samePlace || selected == under.end()) return under.front();
    return ++selected == under.end() ? under.front() : *selected;
}

OpenChoices Editor::openChoices() const {
    OpenChoices choices{assetPath_, contentFolder_, {}, {}, {}};
    for (const PluginDeclarations::AssetType& type : plugin_.declarations().assetTypes) {
        choices.patterns.push_back(type.pattern);
        choices.label += (choices.label.empty() ? "" : " or ") + type.label;
        choices.noun += (choices.noun.empty() ? "" : " or ") + inRunningText(type.label);
    }
    if (choices.label.empty()) {
        choices.label = "File";
        choices.noun = "file";
    }
    return choices;
}

void Editor::syncWithPlugin() {
    if (plugin_.generation() == pluginGeneration_) return;
    pluginGeneration_ = plugin_.generation();
    for (const std::string& problem : player_.bindGame(input_, plugin_.declarations())) report(problem, true);
    simulation_.plots.configure(plugin_.declarations().stats, pluginGeneration_);
    const PluginStatus& status = plugin_.status();
    const bool rolledBack = status.rollbacks != seenRollbacks_;
    seenRollbacks_ = status.rollbacks;
    // Started afresh after it had stopped (F5 once a crash left nothing to go back to): the
    // file's values, none of the edits.
    const bool startedAfresh = !wasRunning_ && plugin_.loaded() && pluginGeneration_ > 0;
    wasRunning_ = plugin_.loaded();
    if (!rolledBack && !startedAfresh) {
        editsAtReload_ = history_.applied();  // what the state a reload hands over holds
        return;
    }
    if (!plugin_.loaded()) return;
    // Rolled back after a crash, the plugin runs on the state from before the reload, with
    // the edits applied then: an edit made since was gone (and one undone since was back)
    // while the history, the `*` and Save went on as before — Save wrote the old values and
    // said Saved. The edits of then are undone, and today's applied again.
    cancelDrag();
    std::string error, failed;
    if (rolledBack)
        for (auto edit = editsAtReload_.rbegin(); edit != editsAtReload_.rend(); ++edit)
            if (!applyEdit(*edit, false, error)) failed = error;
    // Rolled back, the edits of then were taken back to the world before any edit; started
    // afresh, the world is the file's.
    if (const std::string again = rolledBack ? applyEdits(history_.applied()) : applyEditsOverFile(); !again.empty())
        failed = again;
    editsAtReload_ = history_.applied();
    const std::string what = rolledBack ? "The plugin was rolled back after a crash" : "The plugin started afresh";
    if (!failed.empty()) return report(what + ", and an edit could not be applied again: " + failed, true);
    if (!history_.applied().empty()) report(what + "; the edits are applied again.", true);
}

void Editor::simulate() {
    if (!simulation_.playing && !simulation_.stepOnce) return;
    simulation_.stepOnce = false;
    PaperInput stepInput = makePaperInput(input_, player_, camera_);
    // The editor's clicks (selecting, dragging handles, panning) are not the game's grabs.
    if (editorOwnsPress_ || ImGui::GetIO().WantCaptureMouse) stepInput.mouseDown = 0;
    plugin_.tick(1.0 / kSimulationHz, stepInput);
    simulation_.plots.add(plugin_.stats());
    ++simulation_.steps;
}

void Editor::drawJointsPanel() {
    ImGui::SetNextWindowPos({10, 30}, ImGuiCond_FirstUseEver);
    if (ImGui::Begin(kJointsPanel, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
        // As wide as its widest content can get ("(outside)" on the longest name, "Save *"),
        // so it does not jump when a joint leaves its range or an edit sets the `*`.
        const ImGuiStyle& style = ImGui::GetStyle();
        float width = 0.0f;
        for (const JointView& j : joints_) width = std::max(width, ImGui::CalcTextSize((j.name + "  (outside)").c_str()).x);
        float saveWidth = ImGui::CalcTextSize("Save *").x + 2.0f * style.FramePadding.x;
        float buttons = ImGui::CalcTextSize("Undo").x + ImGui::CalcTextSize("Redo").x + 4.0f * style.FramePadding.x +
                        2.0f * style.ItemSpacing.x + saveWidth;
        ImGui::Dummy({std::max(width, buttons), 0.0f});
        ImGui::Checkbox("Show all", &view_.allGizmos);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("Every joint's gizmo, not only the selected one's");
        ImGui::Separator();
        for (const JointView& j : joints_) {
            bool outsideRange = outside(j.info.currentAngle, limitsOf(j.info), toRadians(0.5));
            std::string label = j.name + (outsideRange ? "  (outside)" : "");
            if (ImGui::Selectable(label.c_str(), selection_.is(ObjectKind::Joint, j.name)))
                select(jointRef(j.info.kind, j.info.character, j.name));
        }
        ImGui::Separator();
        ImGui::BeginDisabled(!history_.canUndo());
        if (ImGui::Button("Undo")) undo();
        ImGui::EndDisabled();
        targets_.remember("undo");
        ImGui::SameLine();
        ImGui::BeginDisabled(!history_.canRedo());
        if (ImGui::Button("Redo")) redo();
        ImGui::EndDisabled();
        targets_.remember("redo");
        ImGui::SameLine();
        if (ImGui::Button(history_.dirty() ? "Save *###save" : "Save###save", {saveWidth, 0.0f})) save();
        targets_.remember("save");
        jointsPanelWidth_ = ImGui::GetWindowWidth();
    }
    inspectorPlace_.jointsLeft = ImGui::GetWindowPos().x;
    inspectorPlace_.jointsRight = ImGui::GetWindowPos().x + ImGui::GetWindowSize().x;
    inspectorPlace_.jointsBottom = ImGui::GetWindowPos().y + ImGui::GetWindowSize().y;
    ImGui::End();
}

void Editor::drawStatusBar() {
    ImGuiIO& io = ImGui::GetIO();
    const ImGuiStyle& style = ImGui::GetStyle();
    std::string asset = fs::path(assetPath_).filename().string() + (history_.dirty() ? " *" : "");
    const char* state = simulation_.playing ? "Playing" : "Paused";
    statusText_ = std::string(state) + "  " + message_;
    // The message wraps beside the asset's name and the state, up to kStatusMaxLines lines; the
    // bar grows to hold them, and hovering it shows the whole message.
    float left = ImGui::CalcTextSize(asset.c_str()).x + ImGui::CalcTextSize(state).x + 2.0f * 24.0f;
    float wrap = std::max(100.0f, io.DisplaySize.x - left - 2.0f * style.WindowPadding.x);
    float lineHeight = ImGui::GetTextLineHeight();
    float textHeight = ImGui::CalcTextSize(message_.c_str(), message_.c_str() + message_.size(), false, wrap).y;
    int lines = std::clamp(int(std::ceil(textHeight / lineHeight - 0.01f)), 1, kStatusMaxLines);
    float height = ImGui::GetFrameHeightWithSpacing() + kStatusPaddingPixels + float(lines - 1) * lineHeight;
    statusTop_ = io.DisplaySize.y - height;
    ImGui::SetNextWindowPos({0, io.DisplaySize.y - height});
    ImGui::SetNextWindowSize({io.DisplaySize.x, height});
    ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                             ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav;
    if (ImGui::Begin("status", nullptr, flags)) {
        ImGui::TextUnformatted(asset.c_str(), asset.c_str() + asset.size());
        ImGui::SameLine(0.0f, 24.0f);
        ImGui::PushStyleColor(ImGuiCol_Text, simulation_.playing ? ImVec4{0.2f, 0.7f, 0.3f, 1.0f}
                                                                 : ImGui::GetStyleColorVec4(ImGuiCol_Text));
        ImGui::TextUnformatted(state);
        ImGui::PopStyleColor();
        ImGui::SameLine(0.0f, 24.0f);
        ImGui::PushStyleColor(ImGuiCol_Text, messageIsError_ ? ImVec4{1.0f, 0.45f, 0.4f, 1.0f}
                                                             : ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        // Whole lines only: what does not fit in kStatusMaxLines ends in "..." (the bar's
        // bottom edge cut a fourth line through), and the hover shows all of it.
        const std::string shown = firstLines(message_, wrap, kStatusMaxLines);
        wantGlyphs(asset);
        wantGlyphs(shown);
        ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + wrap);
        ImGui::TextUnformatted(shown.c_str(), shown.c_str() + shown.size());
        ImGui::PopTextWrapPos();
        ImGui::PopStyleColor();
        if (ImGui::IsWindowHovered() && textHeight > float(lines) * lineHeight + 0.5f) wholeTooltip(message_);
    }
    ImGui::End();
}

void Editor::drawPanels() {
    targets_.beginFrame();
    MainMenuActions menu = drawMainMenu(menu_, view_, history_.dirty(), openChoices(), targets_);
    if (menu.save) save();
    if (!menu.saveAs.empty()) saveAs(menu.saveAs, menu.replaceConfirmed);
    if (menu.quit) request(PendingAction::Quit);
    if (!menu.open.empty()) chooseToOpen(menu.open);

    drawJointsPanel();
    SimulateActions simulate = drawSimulatePanel(plugin_, simulation_, targets_);
    if (simulate.reset) resetWorld();
    if (!simulate.error.empty()) report(simulate.error, true);
    // The Plugin panel before the Inspector, which keeps above it where a narrow window puts
    // the Inspector under the Joints panel: where the Plugin panel stands this frame.
    if (drawPluginPanel(plugin_, pluginPanel_, statusTop_, targets_)) reloadPlugin();
    if (!pluginPanel_.buildFailed.empty()) report(std::exchange(pluginPanel_.buildFailed, {}), true);
    inspectorPlace_.simulateLeft = simulation_.left;
    inspectorPlace_.pluginLeft = pluginPanel_.liftLeft;
    inspectorPlace_.pluginRight = pluginPanel_.right;
    inspectorPlace_.pluginTop = pluginPanel_.top;
    inspectorPlace_.statusTop = statusTop_;
    if (std::optional<Edit> edit = drawInspectorPanel(plugin_, selection_, joints_, inspectorPlace_, inspector_, targets_))
        recordEdit(*edit);
    if (std::optional<Edit> edit = drawTuningPanel(plugin_, simulation_.bottom, statusTop_, tuning_, targets_))
        recordEdit(*edit);
    drawStatusBar();

    std::string action = pending_ == PendingAction::Open ? "open " + fs::path(pendingAsset_).filename().string() : "quit";
    switch (drawUnsavedDialog(askUnsaved_, fs::path(assetPath_).filename().string(), action, targets_)) {
    case UnsavedChoice::Save:
        if (save()) carryOut(pending_);
        break;
    case UnsavedChoice::Discard: carryOut(pending_); break;
    case UnsavedChoice::Cancel:
        pending_ = PendingAction::None;
        report("Cancelled: the edits are still here, unsaved.", false);
        break;
    case UnsavedChoice::Pending: break;
    }

    ImDrawList* background = ImGui::GetBackgroundDrawList();
    drawBodyOutlines(background, joints_, bodies_, camera_, view_.bodyOutlines, hovered_, selection_);
    gizmo_.draw(background, joints_, camera_, view_.allGizmos);
}

void Editor::updateTitle() {
    std::string title = "Paperdoll Editor - " + fs::path(assetPath_).filename().string() + (history_.dirty() ? " *" : "");
    if (title == title_) return;
    title_ = title;
    if (SDL_Window* w = SDL_GL_GetCurrentWindow()) SDL_SetWindowTitle(w, title.c_str());
}

}  // namespace paper::editor
