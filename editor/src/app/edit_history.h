// Undo and redo of the editor's limit edits, and the dirty marker that goes with them.
//
// An edit is recorded once it is finished (a whole handle drag is one edit, from the limits
// at the press to those at the release), by joint name rather than handle: a hot reload
// hands out new handles, names stay. Plain C++, tested headless.
#pragma once

#include <string>
#include <vector>

#include "gizmo/gizmo_math.h"

namespace paper::editor {

/// One finished edit of one joint's limits.
struct LimitEdit {
    int character = 0;     ///< the character owning the joint (PaperJointInfo::character)
    std::string joint;     ///< the joint's name
    JointLimits before;    ///< radians, rig sense
    JointLimits after;     ///< radians, rig sense
};

class EditHistory {
public:
    /// Records a finished edit, dropping anything that could have been redone. Edits that
    /// change nothing are ignored (a click on a handle without moving it).
    void record(const LimitEdit& edit);
    /// The edit to undo (its `before` is what to set), or null when there is none; moves back.
    const LimitEdit* undo();
    /// The edit to redo (its `after` is what to set), or null when there is none; moves on.
    const LimitEdit* redo();

    bool canUndo() const { return position_ > 0; }
    bool canRedo() const { return position_ < edits_.size(); }
    /// Whether the rig differs from the last save (or the load): "*" in the status line.
    bool dirty() const { return position_ != savedPosition_; }
    /// The rig on disk now matches the edits up to here.
    void markSaved() { savedPosition_ = position_; }
    std::size_t size() const { return edits_.size(); }

private:
    std::vector<LimitEdit> edits_;
    std::size_t position_ = 0;       ///< edits_[0, position_) are applied
    /// The position the file on disk matches; SIZE_MAX once that state was dropped from the
    /// history (undo, then a new edit), so it can never be reached again.
    std::size_t savedPosition_ = 0;
};

}  // namespace paper::editor
