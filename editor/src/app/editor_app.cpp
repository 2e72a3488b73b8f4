#include "app/editor_app.h"

#include <SDL.h>
#include <imgui.h>
#include <backends/imgui_impl_opengl3.h>
#include <backends/imgui_impl_sdl.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <utility>

#include <unistd.h>

#include "app/content_paths.h"
#include "app/edit_history.h"
#include "app/editor_script.h"
#include "app/fixed_step.h"
#include "app/player_input.h"
#include "app/script.h"
#include "platform/input.h"
#include "platform/window.h"
#include "plugin/plugin_host.h"
#include "render/camera.h"
#include "render/draw_list.h"
#include "render/gl_renderer.h"
#include "view/joint_gizmo.h"
#include "view/plugin_panels.h"
#include "view/viewport.h"
#include "view/widget_targets.h"
#include "world/level_view.h"

namespace paper::editor {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr const char* kProgram = "paperdoll_editor";
/// The default view: this many metres of world around the first character, bottom to top.
constexpr float kCharacterViewHeight = 3.0f;
/// How far, degrees, an `expect` may miss by default: limits are set in whole snapped degrees.
constexpr double kDefaultExpectToleranceDegrees = 0.05;
/// Frames the editor draws before a script's first command: ImGui lays out an auto-sized
/// panel in its first frame with the panel hidden, so a click in frame 0 or 1 would miss it.
constexpr std::int64_t kScriptWarmupFrames = 2;

/// The editor's own keys, on top of the player's (PlayerBindings: Esc quits, Home resets
/// the view, F5 reloads the plugin; the game keys reach the plugin while it plays).
struct EditorBindings {
    ActionId ctrl, shift, space, undo, redo, save, playPause, step, frameSelected;

    explicit EditorBindings(InputMap& input)
        : ctrl(input.bind("editor_ctrl", SDLK_LCTRL)),
          shift(input.bind("editor_shift", SDLK_LSHIFT)),
          space(input.bind("editor_pan", SDLK_SPACE)),
          undo(input.bind("editor_undo", SDLK_z)),
          redo(input.bind("editor_redo", SDLK_y)),
          save(input.bind("editor_save", SDLK_s)),
          playPause(input.bind("editor_play", SDLK_p)),
          step(input.bind("editor_step", SDLK_PERIOD)),
          frameSelected(input.bind("editor_frame", SDLK_f)) {
        input.bind("editor_ctrl", SDLK_RCTRL);
        input.bind("editor_shift", SDLK_RSHIFT);
    }
};

/// The Plugin panel's "Build & reload": $PAPERDOLL_PLUGIN_BUILD if set, else the plugin
/// target in the build tree this editor was built in.
std::string pluginBuildCommand() {
    if (const char* command = std::getenv("PAPERDOLL_PLUGIN_BUILD")) return command;
    auto quoted = [](const std::string& text) {
        std::string out = "'";
        for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
        return out + "'";
    };
    return quoted(PAPERDOLL_CMAKE_COMMAND) + " --build " + quoted(PAPERDOLL_BUILD_DIR) + " --target plugin_ragdoll";
}

std::string degreesText(double radians) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f\xC2\xB0", toDegrees(radians) == 0.0 ? 0.0 : toDegrees(radians));
    return text;
}

/// Everything one editing session holds. The loop in run() is the frame order: events,
/// script, ImGui frame, keys, viewport and gizmo, simulation, drawing, screenshots.
class Editor {
public:
    Editor(const EditorOptions& options, const Level& level, PluginHost& plugin, std::string rigPath,
           std::vector<PluginDescriptor> found, const Script* script, std::ostream& err)
        : options_(options), level_(level), plugin_(plugin), rigPath_(std::move(rigPath)), err_(err) {
        if (script) runner_.emplace(*script);
        script_ = script;
        pluginPanel_.found = std::move(found);
        pluginPanel_.loadedAt = clockText();
        pluginPanel_.buildCommand = pluginBuildCommand();
    }

    int run();

private:
    void beginImGuiFrame();
    void handleKeys();
    void handleViewport();
    void simulate();
    void drawPanels();
    void drawJointsPanel();
    void drawSimulatePanel();
    void drawHitButtons();
    void drawStatusBar();
    void updateTitle();

    void resetView();
    void frameSelected();
    void undo();
    void redo();
    void save();
    void reloadPlugin();
    /// Rebuilds the level in the plugin (the character back at rest) and applies the edits in
    /// the history again: the plugin reads the rig from its file, without the unsaved limits.
    void resetWorld();
    /// Applies one edit's `after` (redo) or `before` (undo); false with a message when it
    /// cannot (the joint or property is gone after a reload).
    bool applyEdit(const Edit& edit, bool after, std::string& error);
    /// Presses a key for one step, as if typed: the panel's hit buttons use the game keys.
    void pressKey(std::int32_t keycode) { pendingKey_ = keycode; }
    /// Sets a joint's limits by name (undo, redo); false when the plugin has no such joint now.
    bool setLimits(const std::string& joint, JointLimits limits);
    void report(std::string message, bool error) {
        message_ = std::move(message);
        messageIsError_ = error;
    }

    bool runScriptCommand(const ScriptCommand& command, std::string& error);
    bool moveToTarget(const ScriptCommand& command, std::string& error);
    bool expectLimit(const ScriptCommand& command, std::string& error);
    bool expectState(const ScriptCommand& command, std::string& error);
    std::string jointNames() const;

    const EditorOptions& options_;
    const Level& level_;
    PluginHost& plugin_;
    std::string rigPath_;
    std::ostream& err_;
    const Script* script_ = nullptr;
    std::optional<EditorScriptRunner> runner_;

    Window window_;
    InputMap input_;
    PlayerBindings player_{input_};
    EditorBindings keys_{input_};
    Camera camera_;
    JointGizmoTool gizmo_;
    EditHistory history_;
    std::vector<JointView> joints_;

    std::int64_t frame_ = 0;
    std::int64_t steps_ = 0;
    bool playing_ = false;
    bool stepOnce_ = false;
    bool showAll_ = false;
    bool quit_ = false;
    bool leftWasDown_ = false;
    bool leftPressInWorld_ = false;  ///< the left press began over the world, not a panel
    bool gizmoOwnsPress_ = false;    ///< the gizmo took the current left press: the plugin must not grab
    std::string message_ = "Paused. Click a joint's pivot (or pick one in the list), drag its handles.";
    bool messageIsError_ = false;
    std::string title_;
    std::vector<const ScriptCommand*> screenshots_;

    PluginPanelState pluginPanel_;
    TuningState tuning_;
    WidgetTargets targets_;
    std::int32_t pendingKey_ = 0;  ///< a panel button's key, pressed at the next frame's start
    std::int32_t releaseKey_ = 0;  ///< the key pressed last frame, released at this frame's start
    float blendWeight_ = 0.0f;     ///< the slider's value while it is dragged
};

void Editor::beginImGuiFrame() {
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplSDL2_NewFrame();
    if (script_) {
        // A scripted run owns the mouse: ImGui sees the InputMap's mouse, as TOOLCHAIN.md §4
        // says (pushed SDL events never move ImGui's cursor in 1.86).
        ImGuiIO& io = ImGui::GetIO();
        const MouseState& mouse = input_.mouse();
        ImVec2 scale = io.DisplayFramebufferScale;
        io.MousePos = {mouse.position.x / (scale.x > 0 ? scale.x : 1.0f),
                       mouse.position.y / (scale.y > 0 ? scale.y : 1.0f)};
        for (int b = 0; b < 3; ++b) io.MouseDown[b] = mouse.down[b];
        io.KeyCtrl = input_.held(keys_.ctrl);
        io.KeyShift = input_.held(keys_.shift);
    }
    ImGui::NewFrame();
}

void Editor::resetView() {
    camera_.frame(level_.camera.center, level_.camera.viewHeight);
    if (!level_.spawns.empty())
        camera_.frame(level_.spawns.front().position + Vec2{0.0f, 0.45f * kCharacterViewHeight}, kCharacterViewHeight);
}

void Editor::frameSelected() {
    if (const JointView* j = findJoint(joints_, gizmo_.selected()))
        frameWorldPoint(camera_, Vec2{j->info.pivot.x, j->info.pivot.y});
}

bool Editor::setLimits(const std::string& joint, JointLimits limits) {
    const std::vector<JointView> joints = readJoints(plugin_);  // findJoint points into it
    const JointView* j = findJoint(joints, joint);
    return j && plugin_.setJointLimits(j->info.handle, limits.lower, limits.upper);
}

bool Editor::applyEdit(const Edit& edit, bool after, std::string& error) {
    if (edit.kind == EditKind::Property) {
        if (setPropertyByName(plugin_, edit.property, after ? edit.afterValue : edit.beforeValue)) return true;
        error = "property '" + edit.property + "' is gone or refused the value";
        return false;
    }
    if (setLimits(edit.joint, after ? edit.after : edit.before)) return true;
    error = "joint '" + edit.joint + "' is gone";
    return false;
}

/// "elbow_L: 0.0° to 100.0°" or "solver.substeps: 8".
std::string editText(const Edit& edit, bool after) {
    if (edit.kind == EditKind::Property) {
        char value[32];
        std::snprintf(value, sizeof value, "%g", after ? edit.afterValue : edit.beforeValue);
        return edit.property + ": " + value;
    }
    const JointLimits& l = after ? edit.after : edit.before;
    return edit.joint + ": " + degreesText(l.lower) + " to " + degreesText(l.upper);
}

void Editor::undo() {
    if (gizmo_.dragging()) return;
    const Edit* edit = history_.undo();
    if (!edit) return report("Nothing to undo.", false);
    std::string error;
    if (!applyEdit(*edit, false, error)) return report("Undo: " + error + ".", true);
    if (edit->kind == EditKind::Limits) gizmo_.select(edit->joint);
    report("Undid " + editText(*edit, false), false);
}

void Editor::redo() {
    if (gizmo_.dragging()) return;
    const Edit* edit = history_.redo();
    if (!edit) return report("Nothing to redo.", false);
    std::string error;
    if (!applyEdit(*edit, true, error)) return report("Redo: " + error + ".", true);
    if (edit->kind == EditKind::Limits) gizmo_.select(edit->joint);
    report("Redid " + editText(*edit, true), false);
}

void Editor::reloadPlugin() {
    gizmo_.cancelDrag();
    report(plugin_.reload() ? "Plugin reloaded." : "Reload failed: " + plugin_.status().lastError, !plugin_.loaded());
}

void Editor::resetWorld() {
    gizmo_.cancelDrag();
    if (!plugin_.setLevel(level_)) return report("Reset failed: " + plugin_.status().lastError, true);
    std::string error, failed;
    for (const Edit& edit : history_.applied())
        if (!applyEdit(edit, true, error)) failed = error;
    steps_ = 0;
    blendWeight_ = 0.0f;
    if (!failed.empty()) return report("Reset, but an edit could not be applied again: " + failed, true);
    report("Reset to the rest pose; the edits are kept.", false);
}

void Editor::save() {
    if (gizmo_.dragging()) return;
    std::string error;
    // This slice edits one rig: the first character's, which --rig names.
    if (!plugin_.saveRig(0, "", error)) return report("Save failed: " + error, true);
    history_.markSaved();
    report("Saved " + rigPath_, false);
}

void Editor::handleKeys() {
    bool ctrl = input_.held(keys_.ctrl);
    if (ctrl && input_.pressed(keys_.undo)) input_.held(keys_.shift) ? redo() : undo();
    if (ctrl && input_.pressed(keys_.redo)) redo();
    if (ctrl && input_.pressed(keys_.save)) save();
    if (!ctrl && input_.pressed(keys_.playPause)) playing_ = !playing_;
    if (input_.pressed(keys_.step)) stepOnce_ = true;
    if (input_.pressed(keys_.frameSelected)) frameSelected();
    if (input_.pressed(player_.resetView)) resetView();
    if (input_.pressed(player_.reloadPlugin)) reloadPlugin();
    if (input_.held(player_.quit)) quit_ = true;
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
    if (view.panning && !gizmo_.dragging()) {
        gizmoOwnsPress_ = true;  // a hand-tool drag is not a grab either
        return;
    }
    if (!mouseFree && !gizmo_.dragging() && !released) return;

    GizmoMouse m;
    Vec2 world = camera_.screenToWorld(mouse.position);
    m.world = {world.x, world.y};
    m.pressed = pressed && leftPressInWorld_;
    m.down = leftDown && leftPressInWorld_;
    m.released = released;
    m.snap = input_.held(keys_.shift) ? SnapMode::Free : input_.held(keys_.ctrl) ? SnapMode::Fine : SnapMode::Default;
    bool used = gizmo_.update(joints_, m, camera_.pixelsPerMetre, showAll_, plugin_, history_);
    if (pressed) gizmoOwnsPress_ = used || !playing_;
    if (released) gizmoOwnsPress_ = false;
}

void Editor::simulate() {
    if (!playing_ && !stepOnce_) return;
    stepOnce_ = false;
    PaperInput stepInput = makePaperInput(input_, player_, camera_);
    // The editor's clicks (selecting, dragging handles, panning) are not the game's grabs.
    if (gizmoOwnsPress_ || ImGui::GetIO().WantCaptureMouse) stepInput.mouseDown = 0;
    plugin_.tick(1.0 / kSimulationHz, stepInput);
    ++steps_;
}

void Editor::drawJointsPanel() {
    ImGui::SetNextWindowPos({10, 10}, ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize({250, 0}, ImGuiCond_FirstUseEver);
    if (ImGui::Begin("Joints", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
        ImGui::Checkbox("Show all", &showAll_);
        ImGui::Separator();
        for (const JointView& j : joints_) {
            bool outsideRange = outside(j.info.currentAngle, limitsOf(j.info), toRadians(0.5));
            std::string label = j.name + (outsideRange ? "  (outside)" : "");
            if (ImGui::Selectable(label.c_str(), j.name == gizmo_.selected())) gizmo_.select(j.name);
        }
        ImGui::Separator();
        if (const JointView* j = findJoint(joints_, gizmo_.selected())) {
            JointLimits l = limitsOf(j->info);
            ImGui::Text("%s", j->name.c_str());
            ImGui::Text("lower %s   upper %s", degreesText(l.lower).c_str(), degreesText(l.upper).c_str());
            ImGui::Text("now %s", degreesText(j->info.currentAngle).c_str());
        } else {
            ImGui::TextDisabled("no joint selected");
        }
        ImGui::Separator();
        ImGui::BeginDisabled(!history_.canUndo());
        if (ImGui::Button("Undo")) undo();
        ImGui::EndDisabled();
        ImGui::SameLine();
        ImGui::BeginDisabled(!history_.canRedo());
        if (ImGui::Button("Redo")) redo();
        ImGui::EndDisabled();
        ImGui::SameLine();
        if (ImGui::Button(history_.dirty() ? "Save *" : "Save")) save();
    }
    ImGui::End();
}

void Editor::drawHitButtons() {
    // The game keys, pressed for one step: the same path as typing 1, 2, 3 while playing.
    struct Hit {
        const char* label;
        const char* target;
        std::int32_t key;
    };
    static constexpr Hit kHits[] = {
        {"Hit from left (1)", "hit_left", SDLK_1}, {"right (2)", "hit_right", SDLK_2}, {"above (3)", "hit_above", SDLK_3}};
    ImGui::BeginDisabled(!playing_);
    for (const Hit& hit : kHits) {
        if (&hit != kHits) ImGui::SameLine();
        if (ImGui::Button(hit.label)) pressKey(hit.key);
        targets_.remember(hit.target);
    }
    ImGui::EndDisabled();
}

void Editor::drawSimulatePanel() {
    ImGuiIO& io = ImGui::GetIO();
    ImGui::SetNextWindowPos({io.DisplaySize.x - 10.0f, 10.0f}, ImGuiCond_Always, {1.0f, 0.0f});
    if (ImGui::Begin("Simulate", nullptr, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoMove)) {
        if (ImGui::Button(playing_ ? "Pause (P)" : "Play (P)", {90, 0})) playing_ = !playing_;
        targets_.remember("play");
        ImGui::SameLine();
        ImGui::BeginDisabled(playing_);
        if (ImGui::Button("Step (.)")) stepOnce_ = true;
        targets_.remember("step");
        ImGui::EndDisabled();
        ImGui::SameLine();
        if (ImGui::Button("Reset")) resetWorld();
        targets_.remember("reset");
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("Rebuild the level at rest; the edited limits stay");
        ImGui::Text("%s   step %lld", playing_ ? "playing" : "paused", static_cast<long long>(steps_));
        std::vector<CharacterStatus> characters = plugin_.characters();
        for (const CharacterStatus& c : characters)
            ImGui::TextDisabled("%s: %s, blend %.2f", c.name.c_str(), c.mode.c_str(), c.blendWeight);
        if (!characters.empty()) {
            // Shows the plugin's weight except while dragged (the plugin may clamp or move it).
            if (!ImGui::IsAnyItemActive()) blendWeight_ = characters.front().blendWeight;
            ImGui::SetNextItemWidth(180.0f);
            if (ImGui::SliderFloat("Blend weight", &blendWeight_, 0.0f, 1.0f, "%.2f"))
                plugin_.setBlendWeight(0, blendWeight_);
            targets_.remember("blend", 180.0f);
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("0 keyframed .. 1 physics (B/N while playing)");
        }
        drawHitButtons();
        if (playing_) ImGui::TextDisabled("game keys reach the plugin (R ragdoll)");
    }
    ImGui::End();
}

void Editor::drawStatusBar() {
    ImGuiIO& io = ImGui::GetIO();
    float height = ImGui::GetFrameHeightWithSpacing() + 4.0f;
    ImGui::SetNextWindowPos({0, io.DisplaySize.y - height});
    ImGui::SetNextWindowSize({io.DisplaySize.x, height});
    ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                             ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav;
    if (ImGui::Begin("status", nullptr, flags)) {
        ImGui::Text("%s%s", fs::path(rigPath_).filename().string().c_str(), history_.dirty() ? " *" : "");
        ImGui::SameLine(0.0f, 24.0f);
        if (messageIsError_)
            ImGui::TextColored({1.0f, 0.45f, 0.4f, 1.0f}, "%s", message_.c_str());
        else
            ImGui::TextDisabled("%s", message_.c_str());
    }
    ImGui::End();
}

void Editor::drawPanels() {
    drawJointsPanel();
    drawSimulatePanel();
    if (drawPluginPanel(plugin_, pluginPanel_, targets_)) reloadPlugin();
    if (std::optional<Edit> edit = drawTuningPanel(plugin_, tuning_, targets_)) {
        history_.record(*edit);
        report("Set " + editText(*edit, true), false);
    }
    drawStatusBar();
    gizmo_.draw(ImGui::GetBackgroundDrawList(), joints_, camera_, showAll_);
}

void Editor::updateTitle() {
    std::string title = "Paperdoll Editor - " + fs::path(rigPath_).filename().string() + (history_.dirty() ? " *" : "");
    if (title == title_) return;
    title_ = title;
    if (SDL_Window* w = SDL_GL_GetCurrentWindow()) SDL_SetWindowTitle(w, title.c_str());
}

std::string Editor::jointNames() const {
    std::string names;
    for (const JointView& j : joints_) names += (names.empty() ? "" : ", ") + j.name;
    return names;
}

bool Editor::moveToTarget(const ScriptCommand& c, std::string& error) {
    const std::vector<std::string> w(c.words.begin() + 2, c.words.end());  // target joint NAME PART [DEGREES]
    if (w[1] == "widget") {  // target widget NAME [FRACTION]: where the panel drew it last frame
        ImVec2 at;
        if (!targets_.point(w[2], w.size() == 4 ? std::stof(w[3]) : 0.5f, at)) {
            error = "mouse move target: no widget '" + w[2] + "' (widgets: " + targets_.names() + ")";
            return false;
        }
        ImVec2 scale = ImGui::GetIO().DisplayFramebufferScale;
        input_.mouseMove({at.x * (scale.x > 0 ? scale.x : 1.0f), at.y * (scale.y > 0 ? scale.y : 1.0f)});
        return true;
    }
    const JointView* j = findJoint(joints_, w[2]);
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

bool Editor::expectLimit(const ScriptCommand& c, std::string& error) {
    const std::vector<std::string>& w = c.words;  // expect joint NAME lower|upper DEGREES [TOLERANCE]
    const JointView* j = findJoint(joints_, w[2]);
    if (!j) {
        error = "expect: no joint '" + w[2] + "' (joints: " + jointNames() + ")";
        return false;
    }
    double want = std::stod(w[4]);
    double tolerance = w.size() == 6 ? std::stod(w[5]) : kDefaultExpectToleranceDegrees;
    double got = toDegrees(w[3] == "lower" ? j->info.lowerLimit : j->info.upperLimit);
    if (std::fabs(got - want) <= tolerance) return true;
    char text[160];
    std::snprintf(text, sizeof text, "expect joint %s %s %g: it is %.3f", w[2].c_str(), w[3].c_str(), want, got);
    error = text;
    return false;
}

bool Editor::expectState(const ScriptCommand& c, std::string& error) {
    const std::vector<std::string>& w = c.words;
    std::vector<CharacterStatus> characters = plugin_.characters();
    auto number = [&](std::size_t at, double got, double defaultTolerance) {
        double want = std::stod(w[at]);
        double tolerance = w.size() == at + 2 ? std::stod(w[at + 1]) : defaultTolerance;
        if (std::fabs(got - want) <= tolerance) return true;
        char text[64];
        std::snprintf(text, sizeof text, ": it is %g", got);
        error = "expect " + w[1] + (at == 3 ? " " + w[2] : "") + " " + w[at] + text;
        return false;
    };
    if (w[1] == "reloads") return number(2, plugin_.status().reloads, 0.0);
    if (w[1] == "dirty" || w[1] == "clean") {
        if (history_.dirty() == (w[1] == "dirty")) return true;
        error = "expect " + w[1] + ": the rig is " + (history_.dirty() ? "dirty (unsaved edits)" : "clean");
        return false;
    }
    if (w[1] == "property") {
        for (const PaperPropertyInfo& p : plugin_.properties())
            if (p.name && w[2] == p.name) return number(3, p.value, 1e-4);
        error = "expect property: no property '" + w[2] + "'";
        return false;
    }
    if (characters.empty()) {
        error = "expect " + w[1] + ": the plugin has no character";
        return false;
    }
    if (w[1] == "blend") return number(2, characters.front().blendWeight, 1e-3);
    if (characters.front().mode == w[2]) return true;  // mode
    error = "expect mode " + w[2] + ": it is " + characters.front().mode;
    return false;
}

bool Editor::runScriptCommand(const ScriptCommand& c, std::string& error) {
    switch (c.op) {
    case ScriptOp::Screenshot: screenshots_.push_back(&c); return true;
    case ScriptOp::Quit: quit_ = true; return true;
    case ScriptOp::Extension:
        if (isMouseTarget(c.words)) return moveToTarget(c, error);
        if (c.words[0] == "expect") return c.words[1] == "joint" ? expectLimit(c, error) : expectState(c, error);
        if (c.words[0] == "select") {
            if (!findJoint(joints_, c.words[2])) {
                error = "select: no joint '" + c.words[2] + "' (joints: " + jointNames() + ")";
                return false;
            }
            gizmo_.select(c.words[2]);
            return true;
        }
        error = "unknown editor command";
        return false;
    default: return true;
    }
}

int Editor::run() {
    std::string error;
    WindowDef def;
    def.title = "Paperdoll Editor";
    def.width = options_.windowWidth;
    def.height = options_.windowHeight;
    def.vsync = options_.frames < 0 && !script_;
    if (!window_.open(def, error)) {
        err_ << kProgram << ": error: " << error << '\n';
        return 1;
    }
    GlRenderer renderer;
    if (!renderer.init(error)) {
        err_ << kProgram << ": error: " << error << '\n';
        return 1;
    }
    camera_.viewportSize = window_.framebufferSize();
    resetView();
    joints_ = readJoints(plugin_);
    DrawList draw;

    for (frame_ = 0;; ++frame_) {
        MouseState scriptMouse = input_.mouse();
        if (!window_.pollEvents(input_)) quit_ = true;
        if (script_) {
            // The script owns the mouse: a pointer resting in the window must not move it.
            input_.mouseMove(scriptMouse.position);
            for (int b = 0; b < 3; ++b) input_.mouseButton(MouseButton(b), scriptMouse.down[b]);
        }
        Vec2 size = window_.framebufferSize();
        camera_.viewportSize = size;
        if (plugin_.reloadIfChanged()) gizmo_.cancelDrag();
        if (releaseKey_) input_.keyEvent(std::exchange(releaseKey_, 0), false);
        if (pendingKey_) {
            input_.keyEvent(pendingKey_, true);
            releaseKey_ = std::exchange(pendingKey_, 0);
        }
        joints_ = readJoints(plugin_);

        if (runner_ && frame_ >= kScriptWarmupFrames) {
            auto handler = [this](const ScriptCommand& c, std::string& e) { return runScriptCommand(c, e); };
            if (!runner_->run(frame_ - kScriptWarmupFrames, input_, camera_, handler, error)) {
                err_ << kProgram << ": error: " << options_.scriptPath << ':' << runner_->failedLine() << ": " << error
                     << '\n';
                return 1;
            }
        }

        beginImGuiFrame();
        if (!quit_) {
            handleKeys();
            handleViewport();
            simulate();
        }
        joints_ = readJoints(plugin_);

        draw.clear();
        draw.setPixelsPerMetre(camera_.pixelsPerMetre);
        drawGrid(camera_, draw);
        drawLevel(level_, draw, /*drawProps=*/!plugin_.loaded());
        plugin_.draw(draw);
        renderer.beginFrame(int(size.x), int(size.y), kPaperColor);
        renderer.draw(draw, camera_);
        drawPanels();
        window_.renderImGui();
        updateTitle();

        for (const ScriptCommand* c : screenshots_) {
            if (!saveFramebufferPng(c->file, int(size.x), int(size.y), error)) {
                err_ << kProgram << ": error: " << options_.scriptPath << ':' << c->line << ": screenshot: " << error
                     << '\n';
                return 1;
            }
        }
        screenshots_.clear();

        bool scriptOver = script_ && options_.frames < 0 && runner_->done() &&
                          frame_ - kScriptWarmupFrames >= script_->endStep();
        bool framesOver = options_.frames > 0 && frame_ + 1 >= options_.frames;
        if (quit_ || scriptOver || framesOver) break;
        window_.swap();
        input_.endFrame();
        input_.consumeEdges();
    }
    // The last frame is still in the back buffer: what the user saw last.
    if (!options_.screenshotPath.empty()) {
        Vec2 size = window_.framebufferSize();
        if (!saveFramebufferPng(options_.screenshotPath, int(size.x), int(size.y), error)) {
            err_ << kProgram << ": error: screenshot: " << error << '\n';
            return 1;
        }
    }
    return 0;
}

/// Every plugin on the search path, --plugin's first (as the player's --list-plugins).
std::vector<PluginDescriptor> findEditorPlugins(const EditorOptions& options, std::ostream& err) {
    std::vector<Diagnostic> diagnostics;
    std::vector<PluginDescriptor> found = findPluginsNamedFirst(options.pluginPath, diagnostics);
    for (const Diagnostic& d : diagnostics) err << d.format() << '\n';
    return found;
}

}  // namespace

int runEditor(const EditorOptions& options, std::ostream& out, std::ostream& err) {
    if (options.showHelp) {
        out << editorUsage();
        return 0;
    }

    // The script first: a bad one stops the run before anything loads.
    std::optional<Script> script;
    if (!options.scriptPath.empty()) {
        std::vector<ScriptError> errors;
        script = loadEditorScript(options.scriptPath, errors);
        for (const ScriptError& e : errors) err << Script::format(options.scriptPath, e) << '\n';
        if (!errors.empty()) return 2;
    }

    std::string levelPath = options.levelPath;
    if (levelPath.empty()) {
        std::optional<fs::path> content = findContentDir();
        if (!content) {
            err << kProgram << ": error: cannot find the content folder (run from the repository, or set "
                               "PAPERDOLL_CONTENT); or name a level with --level FILE\n";
            return 1;
        }
        levelPath = (*content / "levels" / "harness.level.xml").string();
    }
    LevelLoadResult loaded = loadLevelFile(levelPath);
    for (const Diagnostic& d : loaded.diagnostics) err << d.format() << '\n';
    if (!loaded.level) return 1;
    Level& level = *loaded.level;
    if (level.spawns.empty()) {
        err << kProgram << ": error: " << levelPath << ": the level has no spawn, so there is no rig to edit\n";
        return 1;
    }
    if (!options.rigPath.empty()) {
        std::error_code ec;
        if (!fs::is_regular_file(options.rigPath, ec)) {
            err << kProgram << ": error: cannot open rig '" << options.rigPath
                << "': no such file (--rig names the rig file to edit)\n";
            return 1;
        }
        level.spawns.front().rigPath = fs::absolute(options.rigPath).lexically_normal().string();
    }

    std::vector<PluginDescriptor> found = findEditorPlugins(options, err);
    if (!options.pluginPath.empty() && (found.empty() || found.front().path != fs::path(options.pluginPath))) {
        err << kProgram << ": error: cannot use plugin '" << options.pluginPath << "' (see the messages above)\n";
        return 1;
    }
    if (found.empty()) {
        err << kProgram << ": error: no plugin found (looked in $PAPERDOLL_PLUGIN_PATH and plugins/ beside the "
                           "executable); build the ragdoll plugin first\n";
        return 1;
    }
    const PluginDescriptor* descriptor = &found.front();
    auto start = Clock::now();
    PluginHost plugin(fs::temp_directory_path() / ("paperdoll-editor-" + std::to_string(getpid())),
                      [&err, start](PaperLogLevel logLevel, const std::string& message) {
                          char when[32];
                          std::snprintf(when, sizeof when, "[%8.3f s] ",
                                        std::chrono::duration<double>(Clock::now() - start).count());
                          err << kProgram << ": " << when
                              << (logLevel == PAPER_LOG_ERROR     ? "error: "
                                  : logLevel == PAPER_LOG_WARNING ? "warning: "
                                                                  : "")
                              << message << std::endl;
                      });
    if (!plugin.load(*descriptor) || !plugin.setLevel(level)) {
        err << kProgram << ": error: " << plugin.status().lastError << '\n';
        return 1;
    }
    if (plugin.characters().empty()) {
        err << kProgram << ": error: the plugin made no character from '" << level.spawns.front().rigPath
            << "' (see the messages above)\n";
        return 1;
    }
    plugin.watch(true);

    Editor editor(options, level, plugin, level.spawns.front().rigPath, found, script ? &*script : nullptr, err);
    return editor.run();
}

int editorMain(int argc, char** argv) {
    EditorCliResult cli = parseEditorCommandLine(std::vector<std::string>(argv + 1, argv + argc));
    if (!cli.options) {
        std::cerr << kProgram << ": error: " << cli.error << '\n';
        return 2;
    }
    return runEditor(*cli.options, std::cout, std::cerr);
}

}  // namespace paper::editor
