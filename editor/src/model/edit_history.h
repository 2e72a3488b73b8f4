// Undo and redo of the editor's edits, and the dirty marker that goes with them.
//
// An edit is recorded once it is finished (a whole handle drag is one edit, from the limits
// at the press to those at the release), by joint or property name rather than handle or
// index: Reset and Open rebuild the world, names stay. Three kinds share one
// history, so Ctrl+Z walks back through all of them in the order they were made: a joint's
// limits (the gizmo, and the inspector's lower/upper), an object's other inspector
// properties (both saved in the asset) and a plugin setting from the tuning panel (not part
// of the asset).
// Plain C++, tested headless.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "model/object_ref.h"
#include "gizmo/gizmo_math.h"

namespace paper::editor {

enum class EditKind {
    Limits,    ///< a joint's lower/upper limits: `object`, `before`, `after`
    Property,  ///< a plugin setting (the settings kind's property): `property`, `beforeValue`, `afterValue`
    /// an object's inspector property other than the limits: `object`, `property`,
    /// `beforeValue`, `afterValue`
    ObjectProperty,
};

/// One finished edit: a joint's limits or a property, by kind.
struct Edit {
    JointLimits before;    ///< radians from the rest pose
    JointLimits after;     ///< radians from the rest pose
    EditKind kind = EditKind::Limits;
    ObjectRef object;          ///< Limits, ObjectProperty: the joint or body
    std::string property;      ///< the property's stable name (PaperPropertyInfo::name)
    double beforeValue = 0.0;  ///< the property's value before, in its unit
    double afterValue = 0.0;   ///< the property's value after
};

/// A limit edit, for EditHistory::record.
inline Edit limitEdit(ObjectRef joint, JointLimits before, JointLimits after) {
    Edit edit;
    edit.object = std::move(joint);
    edit.before = before;
    edit.after = after;
    return edit;
}

/// A property edit, for EditHistory::record.
inline Edit propertyEdit(std::string property, double before, double after) {
    Edit edit;
    edit.kind = EditKind::Property;
    edit.property = std::move(property);
    edit.beforeValue = before;
    edit.afterValue = after;
    return edit;
}

/// An inspector edit of a joint's or body's property, for EditHistory::record.
inline Edit objectPropertyEdit(ObjectRef object, std::string property, double before, double after) {
    Edit edit = propertyEdit(std::move(property), before, after);
    edit.kind = EditKind::ObjectProperty;
    edit.object = std::move(object);
    return edit;
}

/// Whether an edit changes the asset (and so the file Save writes): limits and object
/// properties do, settings do not.
inline bool changesAsset(const Edit& edit) { return edit.kind != EditKind::Property; }

/// Whether two edits change the same thing: one joint's limits, or one property of one object.
inline bool sameTarget(const Edit& a, const Edit& b) {
    return a.kind == b.kind && a.object == b.object && (a.kind == EditKind::Limits || a.property == b.property);
}

/// Reads what the asset's file, as just read again, holds for an edit's joint or property,
/// into the edit's `after` (limits) or `afterValue`; false when it cannot (the object is gone).
using FileValueReader = std::function<bool(Edit& value)>;

class EditHistory {
public:
    /// Records a finished edit, dropping anything that could have been redone. Edits that
    /// change nothing are ignored (a click on a handle without moving it): false.
    bool record(const Edit& edit);
    /// The edit to undo (its `before` is what to set), or null when there is none; moves back.
    const Edit* undo();
    /// The edit to redo (its `after` is what to set), or null when there is none; moves on.
    const Edit* redo();

    bool canUndo() const { return position_ > 0; }
    bool canRedo() const { return position_ < edits_.size(); }
    /// Whether the asset differs from the last save (or the load): "*" in the status line.
    /// Only asset edits count (changesAsset): world properties are not written by Save.
    bool dirty() const;
    /// The asset on disk now matches the edits up to here.
    void markSaved() {
        savedPosition_ = position_;
        fileHolds_.clear();
    }
    std::size_t size() const { return edits_.size(); }
    /// The asset was read again from its file after another program changed it. That file
    /// is now what the save point stands for (position 0 when nothing was saved, or when the
    /// saved state was dropped): for each joint's limits and object property the history
    /// edits, the file's value becomes the `after` of its last edit before the save point
    /// and the `before` of its first edit from there on. So Ctrl+Z back to the save point
    /// leaves the file's values as they are now (it put back the old file's), and the edits
    /// up to it no longer undo the other program's change when applied again.
    void rebaseOnFile(const FileValueReader& fileValueOf);
    /// Forgets every edit and marks the asset clean (another was opened).
    void clear() { *this = EditHistory(); }
    /// The edits in effect now, oldest first: what to apply again (each edit's `after`) to a
    /// world as it was before the first edit, so that it matches what the user sees.
    std::vector<Edit> applied() const { return {edits_.begin(), edits_.begin() + long(position_)}; }
    /// What to apply (each edit's `after`, in order) to a world built from the asset's file so
    /// that it matches what the user sees. The file holds the edits up to the save point: the
    /// ones undone since are taken back (applied reversed, newest first) after the ones in
    /// effect, and once a new edit dropped the save point, the dropped ones the file still
    /// holds are taken back before anything.
    std::vector<Edit> overFile() const;

private:
    std::vector<Edit> edits_;
    std::size_t position_ = 0;       ///< edits_[0, position_) are applied
    /// The position the file on disk matches; SIZE_MAX once that state was dropped from the
    /// history (undo, then a new edit), so it can never be reached again.
    std::size_t savedPosition_ = 0;
    /// With the save point dropped: the edits the file holds that the history no longer
    /// does, reversed and newest first (overFile takes them back).
    std::vector<Edit> fileHolds_;
};

}  // namespace paper::editor
