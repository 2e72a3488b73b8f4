// The question asked before unsaved rig edits would be lost (quitting, opening another
// rig): a modal with Save, Discard and Cancel. Its buttons are widget targets
// ("dialog:save", "dialog:discard", "dialog:cancel") so scripts answer it as a hand would.
#pragma once

#include <string>

namespace paper::editor {

class WidgetTargets;

enum class UnsavedChoice {
    Pending,  ///< not answered yet (or not open)
    Save,     ///< save, then go on if the save succeeded
    Discard,  ///< go on without saving
    Cancel,   ///< stay: nothing happens
};

/// Draws the question while open is true: rigName is the file with the unsaved edits,
/// action what happens after it ("quit", "open paper_puppet.rig.xml"). Once answered, open
/// turns false and the answer comes back; Esc answers Cancel.
UnsavedChoice drawUnsavedDialog(bool& open, const std::string& rigName, const std::string& action,
                                WidgetTargets& targets);

}  // namespace paper::editor
