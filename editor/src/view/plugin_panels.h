// The panels that show the plugin itself: Plugin (what was found, what runs, hot reload)
// and Tuning (its reflected properties, edited live). They talk to the plugin only through
// PluginHost, never the plugin's own headers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/background_command.h"
#include "model/edit_history.h"
#include "paper/descriptor.h"
#include "paper/plugin_host.h"
#include "view/panel_placement.h"

namespace paper {
class PluginHost;
}

namespace paper::editor {

class WidgetTargets;

/// What the Plugin panel shows besides PluginHost::status().
struct PluginPanelState {
    std::vector<PluginDescriptor> found;  ///< every descriptor on the search path (and --plugin's)
    std::string loadedAt;                 ///< wall-clock time the running library was loaded, "HH:MM:SS"
    std::string previousLoadedAt;         ///< the library's before it, which a crash's rollback runs again
    int seenGeneration = 0;               ///< PluginHost::generation() when loadedAt was last set
    int seenRollbacks = 0;                ///< status().rollbacks then
    bool autoReload = true;               ///< mirrors PluginHost::watch
    std::string buildCommand;             ///< "Build & reload" runs this (empty: no button)
    BackgroundCommand build;              ///< the build running or last run
    bool buildHandled = true;             ///< the finished build's result was acted on
    std::string buildFailed;              ///< a build that just failed, for the status line (taken by the editor)
    /// Grown past `bottom` (an error, a build's output), the panel is lifted back over it at
    /// the next frame, its left edge where it was; shrunk again while it stood on the status
    /// line (or the status line lowered under it), it is put back down onto it.
    bool lift = false;
    float liftLeft = 0.0f;
    bool onStatusLine = false;  ///< its lower edge was kPanelGap over `bottom` last frame
    float top = 0.0f;           ///< its top edge last frame, pixels (a drag moves it; a shrink does not)
    float right = 0.0f;         ///< its right edge last frame, pixels (the Inspector keeps above it)
};

/// Keeps loadedAt on the library running: a reload's (or a fresh start's) time, and after a
/// crash's rollback the time of the library gone back to; a failed reload or Reset starts none.
void followLoadedLibrary(const PluginHost& plugin, PluginPanelState& state);

/// Draws the Plugin panel; true when the plugin should be reloaded now (its Reload button, as
/// F5 does, or a successful "Build & reload" with Auto-reload off: with it on, the file
/// watcher reloads). Toggling Auto-reload calls plugin.watch at once. `bottom` is the lowest
/// its lower edge may go (the status line's top), pixels from the window's top. Its title
/// bar's fold arrow is the widget "fold:Plugin".
bool drawPluginPanel(PluginHost& plugin, PluginPanelState& state, float bottom, WidgetTargets& targets);

/// A property slider or checkbox being dragged: its value when the drag began.
struct TuningState {
    std::string active;         ///< the property being dragged, or empty
    double activeBefore = 0.0;  ///< its value at the press
    ImVec2 placedAt{-1.0f, -1.0f};  ///< where the panel was last put (placeWhenMoved)
    float left = 0.0f, top = 0.0f;  ///< its top left corner last frame, pixels
    float width = 0.0f;             ///< its width last frame, pixels
    bool dragged = false;           ///< moved by the user since it was last put
};

/// Draws the Tuning panel at the right edge under `top` (the Simulate panel's bottom), kept
/// above `bottom` (the status line's top; what does not fit scrolls): every property as a
/// slider (int, float) or checkbox (bool) in its range, set live through
/// PluginHost::setProperty. In a window shorter than kRoomyPanelsHeight it starts folded to
/// its title bar. Returns a finished edit (a whole slider drag is one) for the history;
/// widgets are remembered as "property:NAME", its fold arrow as "fold:Tuning".
std::optional<Edit> drawTuningPanel(PluginHost& plugin, float top, float bottom, TuningState& state,
                                    WidgetTargets& targets);

/// Remembers the fold arrow of the window just begun (ImGui's last item is its title bar
/// then) as the widget "fold:TITLE".
void rememberFoldArrow(const std::string& title, WidgetTargets& targets);

/// Sets the property named name to value; false when the plugin has no such property now
/// or refuses the value.
bool setPropertyByName(PluginHost& plugin, const std::string& name, double value);
/// The plugin's settings (the properties of its settings kind's object) with that kind and
/// the object's handle; empty when it declares none.
std::vector<PropertyValue> settings(PluginHost& plugin, int& kind, std::uint64_t& handle);

/// The current time of day, "HH:MM:SS", for the panel's load time.
std::string clockText();

}  // namespace paper::editor
