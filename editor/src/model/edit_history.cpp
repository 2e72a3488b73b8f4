#include "model/edit_history.h"

#include <algorithm>
#include <cstdint>
#include <iterator>

namespace paper::editor {

namespace {
/// The edit that takes `edit` back: its `before` as what it sets.
Edit reversed(Edit edit) {
    std::swap(edit.before, edit.after);
    std::swap(edit.beforeValue, edit.afterValue);
    return edit;
}
}  // namespace

bool EditHistory::record(const Edit& edit) {
    if (edit.kind == EditKind::Limits && edit.before.lower == edit.after.lower && edit.before.upper == edit.after.upper)
        return false;
    if (edit.kind != EditKind::Limits && edit.beforeValue == edit.afterValue) return false;
    if (savedPosition_ > position_ && savedPosition_ != SIZE_MAX) {
        // The saved state is among the edits being dropped. If only world property edits lie
        // between here and there, the asset still matches the file: keep clean where it is.
        bool limitsBetween = std::any_of(edits_.begin() + long(position_), edits_.begin() + long(savedPosition_),
                                         changesAsset);
        if (limitsBetween)
            for (std::size_t i = savedPosition_; i-- > position_;) fileHolds_.push_back(reversed(edits_[i]));
        savedPosition_ = limitsBetween ? SIZE_MAX : position_;
    }
    edits_.resize(position_);
    edits_.push_back(edit);
    ++position_;
    return true;
}

bool EditHistory::dirty() const {
    if (savedPosition_ == SIZE_MAX) return true;
    std::size_t from = std::min(position_, savedPosition_), to = std::max(position_, savedPosition_);
    return std::any_of(edits_.begin() + long(from), edits_.begin() + long(to), changesAsset);
}

std::vector<Edit> EditHistory::overFile() const {
    std::vector<Edit> steps = fileHolds_;
    steps.insert(steps.end(), edits_.begin(), edits_.begin() + long(position_));
    if (savedPosition_ != SIZE_MAX)
        for (std::size_t i = savedPosition_; i-- > position_;) steps.push_back(reversed(edits_[i]));
    return steps;
}

void EditHistory::rebaseOnFile(const FileValueReader& fileValueOf) {
    // The file is another program's now: what it holds is the save point's values (below),
    // not the dropped edits'.
    fileHolds_.clear();
    const std::size_t savePoint = savedPosition_ == SIZE_MAX ? 0 : savedPosition_;
    for (std::size_t i = 0; i < edits_.size(); ++i) {
        const Edit& target = edits_[i];
        if (!changesAsset(target)) continue;  // settings are not in the file
        auto same = [&](const Edit& e) { return sameTarget(e, target); };
        if (std::find_if(edits_.begin(), edits_.begin() + long(i), same) != edits_.begin() + long(i))
            continue;  // this target's first edit was handled
        Edit file = target;
        if (!fileValueOf(file)) continue;
        const auto beforeSave = edits_.begin() + long(savePoint);
        if (auto last = std::find_if(std::make_reverse_iterator(beforeSave), edits_.rend(), same); last != edits_.rend()) {
            last->after = file.after;
            last->afterValue = file.afterValue;
        }
        if (auto first = std::find_if(beforeSave, edits_.end(), same); first != edits_.end()) {
            first->before = file.after;
            first->beforeValue = file.afterValue;
        }
    }
}

const Edit* EditHistory::undo() {
    if (!canUndo()) return nullptr;
    return &edits_[--position_];
}

const Edit* EditHistory::redo() {
    if (!canRedo()) return nullptr;
    return &edits_[position_++];
}

}  // namespace paper::editor
