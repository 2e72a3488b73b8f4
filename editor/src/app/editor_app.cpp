#include "app/editor_app.h"

#include <SDL.h>
#include <imgui.h>
#include <imgui_internal.h>
#include <backends/imgui_impl_opengl3.h>
#include <backends/imgui_impl_sdl.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>
#include <utility>

#include <fcntl.h>
#include <unistd.h>

#include "paper/content_paths.h"
#include "app/editor.h"
#include "paper/file_checks.h"
#include "paper/fixed_step.h"
#include "paper/player_input.h"
#include "paper/plugin_host.h"
#include "paper/spelling.h"
#include "paper/startup.h"
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
using Clock = std::chrono::steady_clock;

constexpr const char* kProgram = "paperdoll_editor";
/// A character's height, metres, to frame its spawn before the plugin reports its bodies.
constexpr float kCharacterHeight = 1.8f;
/// What the editor adds to a save refused because the asset changed on disk since the
/// plugin read it: how to read it again here, or first to mend it when it does not open.
constexpr const char* kChangedOnDiskAdvice =
    "In the editor, Reset (Simulate panel) or F5 reads it again and applies your edits to it; then Ctrl+S saves both.";
constexpr const char* kBrokenOnDiskAdvice =
    "Mend it there first; then Reset (Simulate panel) or F5 reads it again and applies your edits to it, and Ctrl+S "
    "saves both.";
/// Frames the editor draws before a script's first command: ImGui lays out an auto-sized
/// panel in its first frame with the panel hidden, so a click in frame 0 or 1 would miss it.
constexpr std::int64_t kScriptWarmupFrames = 2;

/// The Plugin panel's "Build & reload": $PAPERDOLL_PLUGIN_BUILD if set, else the plugin's
/// build target (its descriptor's build_target; everything without one) in the build tree
/// this editor was built in.
std::string pluginBuildCommand(const PluginDescriptor& plugin) {
    if (const char* command = std::getenv("PAPERDOLL_PLUGIN_BUILD")) return command;
    auto quoted = [](const std::string& text) {
        std::string out = "'";
        for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
        return out + "'";
    };
    return quoted(PAPERDOLL_CMAKE_COMMAND) + " --build " + quoted(PAPERDOLL_BUILD_DIR) +
           (plugin.buildTarget.empty() ? "" : " --target " + quoted(plugin.buildTarget));
}

/// "elbow_L: 0.0° to 100.0°", "solver.substeps: 8" or "forearm.L mass: 2.5".
std::string editText(PluginHost& plugin, const Edit& edit, bool after) {
    if (edit.kind == EditKind::Limits) {
        const JointLimits& l = after ? edit.after : edit.before;
        return edit.object.name + ": " + degreesText(l.lower) + " to " + degreesText(l.upper);
    }
    // Named as the panels label it ("paper look", "angular damping", with its unit), not by
    // the plugin's key (view.paper_look), which says nothing to a user.
    std::optional<PropertyValue> property;
    if (edit.kind == EditKind::Property) {
        int kind = -1;
        std::uint64_t handle = 0;
        const std::vector<PropertyValue> all = settings(plugin, kind, handle);
        if (const PropertyValue* p = findProperty(all, edit.property)) property = *p;
    } else {
        property = objectProperty(plugin, edit.object, edit.property);
    }
    const std::string name = property && !property->label.empty() ? inRunningText(property->label) : edit.property;
    char value[32];
    std::snprintf(value, sizeof value, "%g", after ? edit.afterValue : edit.beforeValue);
    const std::string unit = property && !property->unit.empty() ? " " + property->unit : "";
    return (edit.kind == EditKind::ObjectProperty ? edit.object.name + " " : "") + name + ": " + value + unit;
}

/// What an edit changed, to select again when it is undone or redone (empty for settings).
ObjectRef objectOf(const Edit& edit) {
    return edit.kind == EditKind::Property ? ObjectRef{} : edit.object;
}

/// A number typed with a decimal comma (2,5) is read as with a point. The field a Ctrl+click
/// opens on a slider (ImGui's "temp input", only ever a number) drops the comma as a
/// character it does not take, and a mass typed as 2,5 kg became 25 kg.
void readDecimalCommaAsPoint() {
    const ImGuiID active = ImGui::GetActiveID();
    if (active == 0 || !ImGui::TempInputIsActive(active)) return;
    for (ImWchar& c : ImGui::GetIO().InputQueueCharacters)
        if (c == ',') c = '.';
}

}  // namespace

EditorBindings::EditorBindings(InputMap& input)
    : ctrl(input.bind("editor_ctrl", SDLK_LCTRL)),
      shift(input.bind("editor_shift", SDLK_LSHIFT)),
      space(input.bind("editor_pan", SDLK_SPACE)),
      undo(input.bind("editor_undo", SDLK_z)),
      redo(input.bind("editor_redo", SDLK_y)),
      save(input.bind("editor_save", SDLK_s)),
      open(input.bind("editor_open", SDLK_o)),
      quit(input.bind("editor_quit", SDLK_q)),
      playPause(input.bind("editor_play", SDLK_p)),
      step(input.bind("editor_step", SDLK_PERIOD)),
      frameSelected(input.bind("editor_frame", SDLK_f)),
      enter(input.bind("editor_enter", SDLK_RETURN)),
      backspace(input.bind("editor_backspace", SDLK_BACKSPACE)) {
    input.bind("editor_ctrl", SDLK_RCTRL);
    input.bind("editor_shift", SDLK_RSHIFT);
    input.bind("editor_enter", SDLK_KP_ENTER);
}

Editor::Editor(const EditorOptions& options, Level level, PluginHost& plugin, std::vector<PluginDescriptor> found,
               const Script* script, std::ostream& err)
    : options_(options), level_(std::move(level)), plugin_(plugin), err_(err), script_(script) {
    assetPath_ = level_.spawns.front().asset;
    if (std::optional<fs::path> content = findContentDir()) contentFolder_ = *content;
    if (script) runner_.emplace(*script);
    pluginPanel_.found = std::move(found);
    pluginPanel_.loadedAt = clockText();
    pluginPanel_.seenGeneration = plugin_.generation();
    firstLoadedAt_ = pluginPanel_.loadedAt;
    pluginPanel_.buildCommand = pluginBuildCommand(plugin_.descriptor());
}

void Editor::wantGlyphsShown() {
    // The panels hand what they draw to paper::wantGlyphs as they draw it, in time for the next
    // frame; the objects' names and the typed paths come before this frame's (the Joints list
    // of a rig just opened, a letter just typed).
    for (const JointView& joint : joints_) wantGlyphs(joint.name);
    for (const BodyView& body : bodies_) wantGlyphs(body.name);
    wantGlyphs(menu_.pathBuffer);
    wantGlyphs(menu_.saveAsBuffer);
}

void Editor::showScriptedKeys() {
    // ImGui 1.86 reads a key as down or up each frame: a key let go and pressed again within
    // one (two `key press`es a frame apart) stayed down to it, one press, and the second
    // Backspace deleted nothing. So the presses are shown one a frame, in the order made, a
    // key shown down first shown up for a frame; a key with no press waiting is shown as held.
    const std::array<ActionId, kScriptedImGuiKeys> keys{keys_.enter, keys_.backspace, player_.quit};
    ScriptedKeys& shown = scriptedKeys_;
    for (int k = 0; k < kScriptedImGuiKeys; ++k)
        if (input_.pressed(keys[size_t(k)])) shown.queued.push_back(k);
    std::array<bool, kScriptedImGuiKeys> down{};
    for (int k = 0; k < kScriptedImGuiKeys; ++k)
        down[size_t(k)] = input_.held(keys[size_t(k)]) &&
                          std::find(shown.queued.begin(), shown.queued.end(), k) == shown.queued.end();
    if (!shown.queued.empty()) {
        const int next = shown.queued.front();
        if (!shown.down[size_t(next)]) {
            down[size_t(next)] = true;
            shown.queued.erase(shown.queued.begin());
        }
    }
    shown.down = down;
    ImGuiIO& io = ImGui::GetIO();
    io.KeysDown[io.KeyMap[ImGuiKey_Enter]] = down[0];
    io.KeysDown[io.KeyMap[ImGuiKey_Backspace]] = down[1];
    io.KeysDown[io.KeyMap[ImGuiKey_Escape]] = down[2];
}


void Editor::beginImGuiFrame() {
    wantGlyphsShown();
    if (const std::string said = window_.prepareFonts(); !said.empty()) err_ << kProgram << ": warning: " << said << '\n';
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplSDL2_NewFrame();
    if (script_) {
        // A scripted run owns the mouse and keys: ImGui sees the InputMap's (pushed SDL
        // events never move ImGui's cursor in 1.86; third_party/README.md says why).
        ImGuiIO& io = ImGui::GetIO();
        const MouseState& mouse = input_.mouse();
        ImVec2 scale = io.DisplayFramebufferScale;
        io.MousePos = {mouse.position.x / (scale.x > 0 ? scale.x : 1.0f),
                       mouse.position.y / (scale.y > 0 ? scale.y : 1.0f)};
        for (int b = 0; b < 3; ++b) io.MouseDown[b] = mouse.down[b];
        io.KeyCtrl = input_.held(keys_.ctrl);
        io.KeyShift = input_.held(keys_.shift);
        showScriptedKeys();
        if (!typedText_.empty()) io.AddInputCharactersUTF8(std::exchange(typedText_, "").c_str());
        // Focus moving to another window (tests run side by side on one X display) makes
        // ImGui release every key in NewFrame: a scripted Ctrl+click would land as a plain
        // click. The script's keys are the truth here, focused or not.
        io.AppFocusLost = false;
    }
    readDecimalCommaAsPoint();
    ImGui::NewFrame();
}

void Editor::select(const ObjectRef& object) {
    selection_ = object;
    gizmo_.select(object.kind == ObjectKind::Joint ? object.name : "");
}

namespace {
/// The camera's pixels in one of ImGui's units (more than 1 on a high-DPI screen).
float pixelsPerImGuiUnit() {
    const ImVec2 scale = ImGui::GetIO().DisplayFramebufferScale;
    return scale.x > 0.0f ? scale.x : 1.0f;
}
}  // namespace

ViewInsets Editor::insets(Rect box) const {
    // Before the first frame ImGui has no font size yet: its default font's 13 px then.
    float frame = ImGui::GetFontSize() > 0.0f ? ImGui::GetFrameHeight() : 19.0f;
    float spacing = ImGui::GetFontSize() > 0.0f ? ImGui::GetStyle().ItemSpacing.y : 4.0f;
    const float pixels = pixelsPerImGuiUnit();
    ViewInsets insets{frame * pixels, (frame + spacing + kStatusPaddingPixels) * pixels};
    // The side panels as drawn last frame (none before the first) that stand beside the box,
    // their rows meeting its rows on screen, while they leave the world a third of the window
    // between them. A figure knocked right was left lying under the Tuning panel, "in view";
    // at 800x600 one lay under the Inspector, which stands under the Joints panel there. A
    // panel above or below the box covers none of it: counted down the whole height, the
    // Simulate panel and the Joints panel alone left the least window's world under a third,
    // over a fallen figure as over a standing one.
    const float boxTop = camera_.worldToScreen({box.min.x, box.max.y}).y / pixels;
    const float boxBottom = camera_.worldToScreen({box.min.x, box.min.y}).y / pixels;
    // Where the panels beside it leave less, the Inspector is left out first (beside the Joints
    // panel in a wide window it may reach down to a figure lying on the ground), then all:
    // all or nothing, a selection in a wide window dropped the Simulate and Tuning panels too.
    const float width = ImGui::GetIO().DisplaySize.x;
    for (const bool withInspector : {true, false}) {
        float left = 0.0f, right = 0.0f;
        for (const char* title : kSidePanels) {
            const ImGuiWindow* panel = panelDrawnLastFrame(title);
            if (!panel || (!withInspector && std::string_view(title) == kInspectorPanel)) continue;
            if (panel->Pos.y > boxBottom || panel->Pos.y + panel->Size.y < boxTop) continue;
            if (panel->Pos.x + 0.5f * panel->Size.x < 0.5f * width) left = std::max(left, panel->Pos.x + panel->Size.x + kPanelGap);
            else right = std::max(right, width - panel->Pos.x + kPanelGap);
        }
        if (width - left - right >= width / 3.0f) {
            insets.leftPixels = left * pixels;
            insets.rightPixels = right * pixels;
            return insets;
        }
    }
    return insets;
}

Rect Editor::firstCharacterBox() const {
    std::optional<Rect> box;
    for (const BodyView& b : bodies_) {
        if (b.info.character != 0) continue;
        const Rect around = capsuleBounds(b.info.a, b.info.b, float(b.info.radius));
        box = box ? united(*box, around) : around;
    }
    if (box) return *box;
    if (level_.spawns.empty()) return {};
    Vec2 feet = level_.spawns.front().position;
    return {feet - Vec2{0.3f, 0.0f}, feet + Vec2{0.3f, kCharacterHeight}};
}

void Editor::resetView() {
    camera_.frame(level_.camera.center, level_.camera.viewHeight);
    if (level_.spawns.empty()) return;
    const Rect character = firstCharacterBox();
    frameStart(camera_, character, insets(character));
    // Centred across the whole window, the first spawn's flag, beside the character's head,
    // reached under the Simulate panel in the least window (800x600), where insets leaves
    // the side panels out (they leave the world less than a third). Once that panel is laid
    // out, the view moves the least that clears it (a few pixels; none in a wider window).
    if (underSimulatePanel() <= 0.0f) return;
    const Rect box = characterAndFlagBox();
    const float overlap = camera_.worldToScreen({box.max.x, box.max.y}).x - (camera_.viewportSize.x - underSimulatePanel());
    if (overlap > 0.0f) camera_.center.x += overlap / camera_.pixelsPerMetre;
}

std::vector<ScreenText> Editor::spawnLabelsClearOfPanels() const {
    // A label runs right from its pole; where that would take it under the Simulate panel (the
    // first spawn's, in the least window) it runs left from the pole, if the Joints panel
    // leaves it the room there.
    std::vector<ScreenText> labels = spawnLabels(level_, camera_);
    const Span free = betweenSidePanels();
    for (ScreenText& label : labels) {
        const float width = labelWidth(label);
        const float leftOfPole = label.position.x - 2.0f * kSpawnLabelGapPixels - width;
        if (label.position.x + width > free.right && leftOfPole >= free.left) label.position.x = leftOfPole;
    }
    return labels;
}

Editor::Span Editor::betweenSidePanels() const {
    return {inspectorPlace_.jointsRight * pixelsPerImGuiUnit(),
            underSimulatePanel() > 0.0f ? camera_.viewportSize.x - underSimulatePanel() : camera_.viewportSize.x};
}

float Editor::labelWidth(const ScreenText& label) {
    return ImGui::CalcTextSize(label.text.c_str()).x * pixelsPerImGuiUnit();
}

float Editor::underSimulatePanel() const {
    if (simulation_.left <= 0.0f) return 0.0f;
    return (ImGui::GetIO().DisplaySize.x - simulation_.left + kPanelGap) * pixelsPerImGuiUnit();
}

Rect Editor::characterAndFlagBox() const {
    Rect box = firstCharacterBox();
    const Rect flag = spawnMarkerBox(level_.spawns.front());
    return {{std::min(box.min.x, flag.min.x), std::min(box.min.y, flag.min.y)},
            {std::max(box.max.x, flag.max.x), std::max(box.max.y, flag.max.y)}};
}

void Editor::frameSelected() {
    if (selection_.kind == ObjectKind::Joint) {
        if (const JointView* j = findJoint(joints_, selection_.name))
            frameWorldPoint(camera_, Vec2{j->info.pivot.x, j->info.pivot.y});
    } else if (const BodyView* b = findBody(bodies_, selection_.character, selection_.name)) {
        Vec2d centre = bodyCentre(b->info);
        frameWorldPoint(camera_, Vec2{float(centre.x), float(centre.y)});
    }
}

bool Editor::setLimits(const ObjectRef& joint, JointLimits limits) {
    for (const JointView& j : readJoints(plugin_))
        if (j.info.kind == joint.pluginKind && j.info.character == joint.character && j.name == joint.name)
            return setJointLimits(plugin_, j.info, limits);
    return false;
}

std::string Editor::applyEdits(const std::vector<Edit>& edits) {
    std::string error, failed;
    for (const Edit& edit : edits)
        if (!applyEdit(edit, true, error)) failed = error;
    return failed;
}

std::string Editor::applyEditsOverFile() { return applyEdits(history_.overFile()); }

bool Editor::applyEdit(const Edit& edit, bool after, std::string& error) {
    double value = after ? edit.afterValue : edit.beforeValue;
    switch (edit.kind) {
    case EditKind::Property:
        if (setPropertyByName(plugin_, edit.property, value)) return true;
        error = "property '" + edit.property + "' is gone or refused the value";
        return false;
    case EditKind::ObjectProperty:
        if (setObjectPropertyByName(plugin_, edit.object, edit.property, value)) return true;
        error = std::string(kindName(edit.object.kind)) + " '" + edit.object.name + "' or its " + edit.property +
                " is gone, or refused the value";
        return false;
    case EditKind::Limits:
        if (setLimits(edit.object, after ? edit.after : edit.before)) return true;
        error = "joint '" + edit.object.name + "' is gone or refused the limits";
        return false;
    }
    return false;
}

void Editor::recordEdit(const Edit& edit) {
    // A typed value cancelled with Esc, or one the plugin kept as it was, changes nothing.
    if (history_.record(edit)) report("Set " + editText(plugin_, edit, true), false);
}

void Editor::undo() {
    if (gizmo_.dragging()) return;
    const Edit* edit = history_.undo();
    if (!edit) return report("Nothing to undo.", false);
    std::string error;
    if (!applyEdit(*edit, false, error)) return report("Undo: " + error + ".", true);
    if (ObjectRef object = objectOf(*edit); !object.empty()) select(object);
    report("Undid " + editText(plugin_, *edit, false), false);
}

void Editor::redo() {
    if (gizmo_.dragging()) return;
    const Edit* edit = history_.redo();
    if (!edit) return report("Nothing to redo.", false);
    std::string error;
    if (!applyEdit(*edit, true, error)) return report("Redo: " + error + ".", true);
    if (ObjectRef object = objectOf(*edit); !object.empty()) select(object);
    report("Redid " + editText(plugin_, *edit, true), false);
}

bool Editor::cancelDrag() {
    if (!gizmo_.dragging()) return false;
    // By name in the plugin as it is now: after a reload the joint's handle may be new.
    setLimits(gizmo_.dragJoint(), gizmo_.dragStart());
    gizmo_.cancelDrag();
    return true;
}

void Editor::reloadPlugin() {
    bool cancelled = cancelDrag();
    const bool changedOnDisk = assetChangedSinceRead();
    // A failure is the host's error as it stands ("reload failed, still running …"): red,
    // whether or not the old library runs on.
    if (plugin_.reload()) {
        if (readChangedAssetAgain(changedOnDisk)) return;
        assetRead();  // the new instance read the asset again
        report(cancelled ? "Plugin reloaded; the handle drag was cancelled." : "Plugin reloaded.", false);
    } else {
        report(plugin_.status().lastError, true);
    }
}

void Editor::assetRead() {
    assetReadStamp_ = stampOf(assetPath_);
    assetStamp_ = assetReadStamp_;
}

bool Editor::assetChangedSinceRead() const { return stampOf(assetPath_) != assetReadStamp_; }

bool Editor::readChangedAssetAgain(bool changedOnDisk) {
    // The new instance read the changed file and kept the edits the state carried, but the
    // history's undo values are the old file's, and the file's values under the edits are
    // not to be read from the instance: Reset reads them and applies the edits again.
    if (!changedOnDisk || history_.size() == 0) return false;
    resetWorld();
    if (messageIsError_) return true;
    report("Plugin reloaded; '" + fs::path(assetPath_).filename().string() +
               "' had changed on disk: read again, with your edits applied to it (the pose is back at rest).",
           false);
    return true;
}

std::optional<Editor::AssetStamp> Editor::stampOf(const std::string& path) {
    std::error_code ec;
    AssetStamp stamp{fs::last_write_time(path, ec), 0};
    if (ec) return std::nullopt;
    stamp.size = fs::file_size(path, ec);
    if (ec) return std::nullopt;
    return stamp;
}

void Editor::noticeAssetChange() {
    // A stat a frame: the change is said when it happens, not first at Ctrl+S.
    std::optional<AssetStamp> now = stampOf(assetPath_);
    if (now == assetStamp_) return;
    assetStamp_ = now;  // said once per change
    const std::string name = fs::path(assetPath_).filename().string();
    if (!now) {  // deleted or moved away: there is no change to read, and Save writes it again
        report("'" + name + "' is gone from disk (another program deleted or moved it). Save writes it again, with your "
                   "edits.",
               true);
        return;
    }
    report("'" + name + "' changed on disk (another program wrote it). Reset reads it again and applies your edits to "
               "it; until then Save will not write over that change.",
           true);
}

void Editor::reloadIfChanged() {
    // Between frames, by the file watcher: said in the status line as F5's is (a good reload
    // left a failed one's error there); a file that stays broken is said once.
    const std::string errorBefore = plugin_.status().lastError;
    const bool changedOnDisk = assetChangedSinceRead();
    if (plugin_.reloadIfChanged()) {
        // The reload carried the dragged limits over; cancelDrag puts the start back in the
        // new instance.
        bool cancelled = cancelDrag();
        if (readChangedAssetAgain(changedOnDisk)) return;
        assetRead();
        report(cancelled ? "Plugin reloaded: its library changed; the handle drag was cancelled."
                         : "Plugin reloaded: its library changed.",
               false);
    } else if (const std::string& error = plugin_.status().lastError; !error.empty() && error != errorBefore) {
        report(error, true);
    }
}

bool Editor::fileValueOf(Edit& value) {
    if (value.kind == EditKind::Limits) {
        for (const JointView& j : readJoints(plugin_))
            if (j.info.kind == value.object.pluginKind && j.info.character == value.object.character && j.name == value.object.name) {
                value.after = limitsOf(j.info);
                return true;
            }
        return false;
    }
    std::optional<PropertyValue> p = objectProperty(plugin_, value.object, value.property);
    if (p) value.afterValue = p->value;
    return p.has_value();
}

void Editor::resetWorld() {
    cancelDrag();
    // Read before setLevel reads the file: whether another program changed it since.
    const bool changedOnDisk = assetChangedSinceRead();
    if (!plugin_.setLevel(level_)) return report("Reset failed: " + plugin_.status().lastError, true);
    assetRead();
    // The world holds the file's values now, none of the edits yet: Undo must lead back to
    // these, not to the values the file had before the other program changed it.
    if (changedOnDisk) history_.rebaseOnFile([this](Edit& value) { return fileValueOf(value); });
    const std::string failed = applyEditsOverFile();
    simulation_.steps = 0;
    simulation_.sliders.clear();
    simulation_.plots.clear();
    if (!failed.empty()) return report("Reset, but an edit could not be applied again: " + failed, true);
    report("Reset to the rest pose; the edits are kept.", false);
}

bool Editor::save() {
    if (gizmo_.dragging()) return false;
    std::string error;
    // The editor edits one asset: the first spawn's, which --asset or File > Open names.
    if (!plugin_.saveAsset(assetPath_, "", error)) {
        // The plugin says what happened in its terms; what to do about a change on disk is
        // the editor's to say, with its own controls.
        std::string advice;
        if (assetChangedSinceRead()) {
            // Reset and F5 fail on a file that does not open: say so, and why (its first line).
            std::string why;
            advice = plugin_.checkAsset(assetPath_, why)
                         ? std::string(" ") + kChangedOnDiskAdvice
                         : " As it is on disk now it does not open (" + why.substr(0, why.find('\n')) + "). " +
                               kBrokenOnDiskAdvice;
        }
        report("Save failed: " + error + advice, true);
        return false;
    }
    history_.markSaved();
    assetRead();  // what the plugin wrote
    report("Saved " + assetPath_, false);
    return true;
}

namespace {
/// "*.rig.xml" gives ".rig.xml": the ending a name alone gets; empty for another pattern.
std::string endingOf(const std::string& pattern) { return pattern.starts_with("*") ? pattern.substr(1) : ""; }
}  // namespace

std::string Editor::assetPattern() const {
    const PluginDeclarations& declarations = plugin_.declarations();
    const int type = declarations.assetTypeOf(assetPath_);
    return type >= 0 ? declarations.assetTypes[std::size_t(type)].pattern : "";
}

fs::path Editor::saveAsTarget(const std::string& typed, std::string& why) const {
    const PluginDeclarations& declarations = plugin_.declarations();
    const int type = declarations.assetTypeOf(assetPath_);
    const std::string pattern = assetPattern();
    // The ending a name alone gets, and that any name must have.
    const std::string ending = endingOf(pattern);
    std::error_code ec;
    // A relative path (a name alone) is taken from the current file's folder; an absolute
    // one replaces it.
    const fs::path path = (fs::absolute(assetPath_, ec).parent_path() / typed).lexically_normal();
    if (path.filename().empty() || fs::is_directory(path, ec)) {
        // "b.rig.xml/": a folder only if it is there.
        if (!fs::is_directory(path, ec)) {
            why = "there is no folder '" + path.string() + "'";
            return {};
        }
        why = "'" + typed + "' is a folder: name the file in it" + (ending.empty() ? "" : ", ending in " + ending);
        return {};
    }
    // ".rig.xml": the ending alone names a hidden file with no name.
    if (!ending.empty() && path.filename().string() == ending) {
        why = "'" + typed + "' has no name before " + ending;
        return {};
    }
    if (!fs::is_directory(path.parent_path(), ec)) {
        why = "there is no folder '" + path.parent_path().string() + "'";
        return {};
    }
    fs::path target = path;
    if (!ending.empty() && path.filename().string().find('.') == std::string::npos) target += ending;
    if (!pattern.empty() && !matchesPattern(pattern, target.filename().string())) {
        why = "'" + target.filename().string() + "' is not " +
              withArticle(inRunningText(declarations.assetTypes[std::size_t(type)].label)) +
              " file: its name must end in " + ending;
        return {};
    }
    return target;
}

namespace {

/// The file a Save As onto path writes: path itself, or through a symbolic link the file it
/// names, as the plugin's own save follows it (so the link stays a link). Empty with why
/// when the chain ends nowhere or loops: there is no file to give the asset to, and writing
/// in the link's place would replace the link, not edit what it points at.
fs::path saveAsFile(const fs::path& path, std::string& why) {
    const fs::path file = linkedFile(path, why);
    std::error_code ec;
    if (!file.empty() && file != path && !fs::exists(file, ec)) {
        why = "'" + path.filename().string() + "' is a symbolic link to '" + file.lexically_normal().string() +
              "', which does not exist";
        return {};
    }
    // A named pipe or a device is no file to give the asset to: the trial copy renamed over
    // it replaced it (run as root, /dev/full itself) and said it saved.
    const fs::file_type type = file.empty() ? fs::file_type::not_found : fs::status(file, ec).type();
    if (type != fs::file_type::regular && type != fs::file_type::not_found) {
        const std::string name = "'" + file.lexically_normal().string() + "'";
        if (type == fs::file_type::none) {  // its folder cannot be read
            why = name + " cannot be looked at: " + ec.message();
            return {};
        }
        const char* what = type == fs::file_type::fifo        ? "a named pipe"
                           : type == fs::file_type::socket    ? "a socket"
                           : type == fs::file_type::directory ? "a folder"
                                                              : "a device";
        why = name + " is " + what + ", not a file to save into";
        return {};
    }
    return file;
}

}  // namespace

void Editor::saveAs(const std::string& typed, bool replaceConfirmed) {
    cancelDrag();  // a drag cut short is no edit: what is written is the edits made
    std::string why;
    const fs::path target = saveAsTarget(typed, why);
    if (!why.empty()) return refuseSaveAs(menu_, "Not saved: " + why + ".");
    const fs::path file = saveAsFile(target, why);
    if (!why.empty()) return refuseSaveAs(menu_, "Not saved: " + why + ".");
    std::error_code ec;
    // An existing file is replaced only once the user says so, the one being edited too
    // (the dialog says that one stays as it is).
    if (fs::exists(target, ec) && !replaceConfirmed) return askToReplace(menu_, target.string());
    if (fs::equivalent(target, assetPath_, ec)) {  // the file being edited: a plain save
        if (save()) return closeSaveAsDialog(menu_);
        return refuseSaveAs(menu_, message_);
    }
    if (std::string error = writeCheckedCopy(target, file); !error.empty()) {
        // The whole reason in the log too, as a refused Open's.
        err_ << kProgram << ": error: not saved as '" << target.string() << "':\n" << error << '\n';
        return refuseSaveAs(menu_, "Not saved: " + error);
    }
    closeSaveAsDialog(menu_);
    const std::string old = fs::path(assetPath_).filename().string();
    if (!switchAsset(target.string(), why))
        return report("Saved as " + target.string() + ", but it cannot be read back, so " + old +
                          " is still the file edited: " + why,
                      true);
    // The file holds the edits; the settings are not in it: all are applied again, and Undo
    // still leads to the values before each edit.
    history_.markSaved();
    const std::string failed = applyEditsOverFile();
    simulation_.steps = 0;
    simulation_.sliders.clear();
    simulation_.plots.clear();
    if (!failed.empty())
        return report("Saved as " + target.string() + ", but an edit could not be applied again: " + failed, true);
    const std::string into = file == target ? "" : " (into " + file.lexically_normal().string() + ", the file it links to)";
    report("Saved as " + target.string() + into + "; editing it now (" + old + " is unchanged).", false);
}

namespace {
/// Removes a file when it goes out of scope, whichever way the scope is left.
struct RemovedAtExit {
    fs::path path;
    ~RemovedAtExit() {
        std::error_code ec;
        fs::remove(path, ec);
    }
};

/// A copy of from at to, on disk before it is renamed over anything (the plugin's trial
/// copy is; a crash must leave the old file or the new one, whole); false with ec.
bool copyToDisk(const fs::path& from, const fs::path& to, std::error_code& ec) {
    if (!fs::copy_file(from, to, fs::copy_options::overwrite_existing, ec)) return false;
    const int fd = ::open(to.c_str(), O_RDONLY | O_CLOEXEC);
    const bool synced = fd >= 0 && ::fsync(fd) == 0;
    if (!synced) ec = std::error_code(errno, std::generic_category());
    if (fd >= 0) ::close(fd);
    return synced;
}
}  // namespace

std::string Editor::writeCheckedCopy(const fs::path& target, const fs::path& file) {
    // A file names others (a rig its images and clips) relative to its folder: saved into
    // another, they may not be found. So the plugin saves it under a name of our own beside
    // the target and reads it back from there; only a file that opens takes the target's
    // name (a rename in one folder: atomic, as the plugin's own save is). The trial copy is
    // gone however this returns (renamed, or removed).
    //
    // Through a symbolic link the check is still made beside the link, not beside the file
    // it names: the plugin resolves a file's references from the folder of the path it was
    // opened by (a rig through a link finds its images and clips from the link's folder),
    // and the editor goes on editing the target by that path. Only the bytes go to the file
    // the link names, renamed over it from that file's own folder (a copy there first when
    // it is another folder: a rename across filesystems fails), so the link stays a link.
    const RemovedAtExit trial{target.parent_path() / (".saving-" + target.filename().string())};
    auto named = [&](std::string text) {  // the reasons name the file the user chose
        const std::string from = trial.path.string(), to = target.string();
        for (std::size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size())
            text.replace(at, from.size(), to);
        return text;
    };
    std::string error;
    if (!plugin_.saveAsset(assetPath_, trial.path.string(), error)) return named(error);
    if (!plugin_.checkAsset(trial.path.string(), error))
        return "saved there it would not open (a file it names relative to its folder is not found from '" +
               target.parent_path().string() + "'?):\n" + named(error);
    std::error_code ec;
    const bool sameFolder = fs::equivalent(file.parent_path(), target.parent_path(), ec);
    const RemovedAtExit beside{sameFolder ? fs::path() : file.parent_path() / (".saving-" + file.filename().string())};
    const fs::path& written = sameFolder ? trial.path : beside.path;
    if (!sameFolder && !copyToDisk(trial.path, beside.path, ec))
        return "cannot write '" + file.lexically_normal().string() + "': " + ec.message();
    if (fs::exists(file, ec)) fs::permissions(written, fs::status(file, ec).permissions(), ec);  // it keeps its own
    fs::rename(written, file, ec);
    if (ec) return "cannot write '" + file.lexically_normal().string() + "': " + ec.message();
    return {};
}

bool Editor::switchAsset(const std::string& path, std::string& why) {
    cancelDrag();
    const std::string previous = level_.spawns.front().asset;
    level_.spawns.front().asset = path;
    if (!plugin_.setLevel(level_)) {
        // The plugin keeps the level it is given for its reloads: the current one goes back,
        // with its edits.
        why = plugin_.status().lastError;
        level_.spawns.front().asset = previous;
        plugin_.setLevel(level_);
        applyEditsOverFile();
        return false;
    }
    assetPath_ = path;
    assetRead();
    return true;
}

void Editor::request(PendingAction action, std::string asset) {
    if (askUnsaved_) return;  // already asking
    pending_ = action;
    pendingAsset_ = std::move(asset);
    cancelDrag();  // a drag cut short is no edit, whatever the answer
    if (history_.dirty()) {
        askUnsaved_ = true;
        return;
    }
    carryOut(action);
}

void Editor::carryOut(PendingAction action) {
    pending_ = PendingAction::None;
    if (action == PendingAction::Quit) quit_ = true;
    if (action == PendingAction::Open) openAsset(pendingAsset_);
}

std::string Editor::openPathOf(const std::string& typed) const {
    std::error_code ec;
    fs::path path = typed;
    if (!path.is_absolute()) {
        const fs::path beside = (fs::absolute(assetPath_, ec).parent_path() / typed).lexically_normal();
        path = fs::exists(beside, ec) || !fs::exists(typed, ec) ? beside : path;
    }
    // A name alone with no ending gets the current asset's, as in Save As ("hero" opens
    // hero.rig.xml), unless a file is there by that very name.
    const std::string ending = endingOf(assetPattern());
    if (!ending.empty() && !fs::exists(path, ec) && path.filename().string().find('.') == std::string::npos)
        path += ending;
    return path.string();
}

std::string Editor::cannotOpen(const std::string& path) {
    std::string why = notAFile(path);
    if (why.empty() && plugin_.declarations().assetTypeOf(path) < 0) why = "the plugin opens no file named like that";
    if (why.empty()) plugin_.checkAsset(path, why);
    return why;
}

void Editor::chooseToOpen(const std::string& typed) {
    const std::string path = openPathOf(typed);
    const std::string why = cannotOpen(path);
    if (why.empty()) {
        closeOpenDialog(menu_);
        return request(PendingAction::Open, path);
    }
    err_ << kProgram << ": error: cannot open '" << path << "':\n" << why << '\n';
    report("Cannot open '" + fs::path(path).filename().string() + "': " + why, true);
    refuseOpen(menu_, openChoices(), typed, why);
}

void Editor::openAsset(const std::string& path) {
    const std::string name = fs::path(path).filename().string();
    std::string why = cannotOpen(path);
    if (!why.empty()) {
        // The whole reason in the log too: the status line shows only its first lines.
        err_ << kProgram << ": error: cannot open '" << path << "':\n" << why << '\n';
        return report("Cannot open '" + name + "', kept " + fs::path(assetPath_).filename().string() + ": " + why, true);
    }
    if (!switchAsset(fs::absolute(path).lexically_normal().string(), why))
        return report("Cannot open '" + name + "', kept " + fs::path(assetPath_).filename().string() +
                          " and its edits: " + why,
                      true);
    history_.clear();
    select({});
    hovered_ = {};
    // A new run of the new asset: paused, no steps, empty plots. The plots keep what the
    // plugin flags for plotting (the plugin is the same; a fresh SimulateState lost them
    // until the next reload).
    simulation_.playing = simulation_.stepOnce = false;
    simulation_.steps = 0;
    simulation_.sliders.clear();
    simulation_.plots.clear();
    report("Opened " + assetPath_, false);
}

int Editor::run() {
    std::string error;
    WindowDef def;
    def.title = "Paperdoll Editor";
    def.minWidth = kMinEditorWidth;
    def.minHeight = kMinEditorHeight;
    def.width = options_.windowWidth;
    def.height = options_.windowHeight;
    def.vsync = options_.frames < 0 && !script_;
    if (!window_.open(def, error)) {
        err_ << kProgram << ": error: " << error << '\n';
        return 1;
    }
    // Opaque panels: at the style's 0.94 the terrain behind one showed through as a darker
    // box inside it (the Tuning panel over the harness's platform); folded, at the style's
    // 0.51, a spawn's flag pole showed through the Tuning panel's title bar.
    ImGui::GetStyle().Colors[ImGuiCol_WindowBg].w = 1.0f;
    ImGui::GetStyle().Colors[ImGuiCol_TitleBgCollapsed].w = 1.0f;
    GlRenderer renderer;
    if (!renderer.init(error)) {
        err_ << kProgram << ": error: " << error << '\n';
        return 1;
    }
    camera_.viewportSize = window_.framebufferSize();
    joints_ = readJoints(plugin_);
    bodies_ = readBodies(plugin_);
    resetView();
    assetRead();
    DrawList backdrop, draw;

    for (frame_ = 0;; ++frame_) {
        MouseState scriptMouse = input_.mouse();
        bool closeAsked = !window_.pollEvents(input_);
        if (script_) {
            // The script owns the mouse: a pointer resting in the window must not move it.
            input_.mouseMove(scriptMouse.position);
            for (int b = 0; b < 3; ++b) input_.mouseButton(MouseButton(b), scriptMouse.down[b]);
        }
        Vec2 size = window_.framebufferSize();
        camera_.viewportSize = size;
        reloadIfChanged();
        noticeAssetChange();
        syncWithPlugin();
        joints_ = readJoints(plugin_);
        bodies_ = readBodies(plugin_);

        // A command that fails ends the run after this frame: the screenshots its earlier
        // commands asked for are still written (they were lost when it returned at once).
        std::optional<ScriptError> scriptFailure;
        // The side panels are laid out now: the starting view again, clear of them (a
        // script starts on it).
        if (frame_ == kScriptWarmupFrames) resetView();
        if (runner_ && frame_ >= kScriptWarmupFrames) {
            auto handler = [this](const ScriptCommand& c, std::string& e) { return runScriptCommand(c, e); };
            if (!runner_->run(frame_ - kScriptWarmupFrames, input_, camera_, handler, error))
                scriptFailure = ScriptError{runner_->failedLine(), error};
        }

        beginImGuiFrame();
        if (closeAsked) request(PendingAction::Quit);
        if (!quit_) {
            handleKeys();
            handleViewport();
            simulate();
        }
        joints_ = readJoints(plugin_);
        bodies_ = readBodies(plugin_);
        const bool bodySelected = selection_.kind == ObjectKind::Body;
        markSelectedBody(plugin_, bodies_, bodySelected ? selection_.character : -1, bodySelected ? selection_.name : "");
        if (view_.follow && simulation_.playing) {
            const Rect character = firstCharacterBox();
            keepInView(camera_, character, insets(character));
        }

        // Back to front: the level with its spawn markers and their labels, then what the
        // plugin draws (characters, props), then the panels, outlines and gizmos.
        backdrop.clear();
        backdrop.setPixelsPerMetre(camera_.pixelsPerMetre);
        drawGrid(camera_, backdrop);
        drawLevel(level_, backdrop, /*drawProps=*/!plugin_.loaded());
        drawSpawnMarkers(level_, backdrop);
        draw.clear();
        draw.setPixelsPerMetre(camera_.pixelsPerMetre);
        plugin_.draw(draw, (view_.art ? std::uint32_t(PAPER_DRAW_ART) : 0u) | (view_.bones ? std::uint32_t(PAPER_DRAW_BONES) : 0u));
        renderer.beginFrame(int(size.x), int(size.y), kPaperColor);
        renderer.draw(backdrop, camera_);
        Window::drawTextNow(spawnLabelsClearOfPanels());
        renderer.draw(draw, camera_, &plugin_.images());
        drawPanels();
        window_.renderImGui();
        updateTitle();

        // A script's errors at run time read as its parse errors do (FILE:LINE: error: …).
        for (const ScriptCommand* c : screenshots_) {
            if (!saveFramebufferPng(c->file, int(size.x), int(size.y), error, &plugin_.images())) {
                err_ << Script::format(options_.scriptPath, {c->line, "screenshot: " + error}) << '\n';
                return 1;
            }
        }
        screenshots_.clear();
        if (scriptFailure) {
            err_ << Script::format(options_.scriptPath, *scriptFailure) << '\n';
            return 1;
        }

        bool scriptOver = script_ && options_.frames < 0 && runner_->done() &&
                          frame_ - kScriptWarmupFrames >= script_->endStep();
        bool framesOver = options_.frames > 0 && frame_ + 1 >= options_.frames;
        if (const ScriptCommand* next = runner_ ? runner_->next() : nullptr;
            quit_ && next && next->words != std::vector<std::string>{"expect", "quit"}) {
            // Esc, Ctrl+Q or the window closed with commands left: their expects never ran.
            err_ << Script::format(options_.scriptPath,
                                   {next->line, "the editor quit before this command ran (a key, a dialog or the "
                                                "window's close button quit it; `expect quit` says it should)"})
                 << '\n';
            return 1;
        }
        if (quit_ || scriptOver || framesOver) break;
        window_.swap();
        input_.endFrame();
        input_.consumeEdges();
    }
    // The last frame is still in the back buffer: what the user saw last.
    if (!options_.screenshotPath.empty()) {
        Vec2 size = window_.framebufferSize();
        if (!saveFramebufferPng(options_.screenshotPath, int(size.x), int(size.y), error, &plugin_.images())) {
            err_ << kProgram << ": error: screenshot: " << error << '\n';
            return 1;
        }
    }
    // A run that ends by itself (--frames, a script) is a check, as the player's is: a plugin
    // that crashed in it, rolled back or stopped, fails it (it exited 0).
    if (script_ || options_.frames > 0)
        if (const std::string crash = plugin_.crashedDuringRun(); !crash.empty()) {
            err_ << kProgram << ": error: " << crash << '\n';
            return 1;
        }
    return 0;
}

namespace {

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
    if (options.showVersion) {
        out << kProgram << " " << PAPERDOLL_VERSION << '\n';
        return 0;
    }
    // Before SDL starts (Window::open): the offscreen driver renders and reads back like a
    // window but shows nothing and needs no display (third_party/README.md, "Displays").
    if (options.headless) setenv("SDL_VIDEODRIVER", "offscreen", 1);

    // The script first: a bad one stops the run before anything loads.
    std::optional<Script> script;
    if (!options.scriptPath.empty()) {
        std::vector<ScriptError> errors;
        script = loadEditorScript(options.scriptPath, errors);
        for (ScriptError& e : script->checkScreenshotFolders()) errors.push_back(std::move(e));
        sortByLine(errors);
        for (const ScriptError& e : errors) err << Script::format(options.scriptPath, e) << '\n';
        if (!errors.empty()) return 2;
    }

    std::optional<Level> loaded = loadStartLevel(kProgram, options.levelPath, "a level with --level FILE", err);
    if (!loaded) return 1;
    Level& level = *loaded;
    if (level.spawns.empty()) {
        err << kProgram << ": error: " << level.path << ": the level has no spawn, so there is no asset to edit\n";
        return 1;
    }
    const std::string assetPurpose = options.assetOption + " names the file to edit";
    if (!options.assetPath.empty() && !putAsset(kProgram, level, options.assetPath, assetPurpose, err)) return 1;

    std::vector<PluginDescriptor> found = findEditorPlugins(options, err);
    if (!options.pluginPath.empty() && (found.empty() || found.front().path != fs::path(options.pluginPath))) {
        err << kProgram << ": error: cannot use plugin '" << options.pluginPath << "' (see the messages above)\n";
        return 1;
    }
    if (found.empty()) {
        err << kProgram << ": error: no plugin found (looked in $PAPERDOLL_PLUGIN_PATH and plugins/ beside the "
                           "executable); build one first\n";
        return 1;
    }
    const PluginDescriptor* descriptor = &found.front();
    std::unique_ptr<PluginHost> host = makePluginHost(kProgram, err);
    PluginHost& plugin = *host;
    // The host has logged why (with every error of the assets): said once, and only what
    // failed. A library that did not load had been blamed on the level's rig.
    if (!plugin.load(*descriptor)) {
        err << kProgram << ": error: the plugin '" << descriptor->name << "' did not load (the error above says why)\n";
        return 1;
    }
    if (!plugin.setLevel(level)) {
        // Which asset is the log's to say: another spawn's broken rig was blamed on the first's.
        err << kProgram << ": error: the plugin '" << descriptor->name << "' cannot run the level " << level.path
            << " with '" << level.spawns.front().asset << "' (the error above says why)\n";
        return 1;
    }
    plugin.watch(true);
    if (script) {
        // `action press jump` needs the plugin's actions, known only now (as in the player).
        InputMap keys;
        PlayerBindings bindings{keys};
        bindings.bindGame(keys, plugin.declarations());
        std::vector<ScriptError> errors = script->bindActions(keys, &plugin.declarations());
        for (const ScriptError& e : errors) err << Script::format(options.scriptPath, e) << '\n';
        if (!errors.empty()) return 2;
    }

    Editor editor(options, std::move(level), plugin, found, script ? &*script : nullptr, err);
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
