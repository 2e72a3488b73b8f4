#include "app/edit_history.h"

#include <cstdint>

namespace paper::editor {

void EditHistory::record(const LimitEdit& edit) {
    if (edit.before.lower == edit.after.lower && edit.before.upper == edit.after.upper) return;
    if (savedPosition_ > position_ && savedPosition_ != SIZE_MAX) savedPosition_ = SIZE_MAX;
    edits_.resize(position_);
    edits_.push_back(edit);
    ++position_;
}

const LimitEdit* EditHistory::undo() {
    if (!canUndo()) return nullptr;
    return &edits_[--position_];
}

const LimitEdit* EditHistory::redo() {
    if (!canRedo()) return nullptr;
    return &edits_[position_++];
}

}  // namespace paper::editor
