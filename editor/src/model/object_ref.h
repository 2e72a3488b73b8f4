// What the editor's selection, hover highlight and per-object edits point at: a joint or a
// body of a character, by name. Names rather than the plugin's handles: Reset and Open rig
// rebuild the characters, and an edit in the history must find its object again afterwards.
#pragma once

#include <string>
#include <utility>

namespace paper::editor {

enum class ObjectKind {
    None,   ///< nothing (an empty selection)
    Joint,  ///< a joint, by its name in the rig
    Body,   ///< a body, by its bone's name (every bone of our rigs has one body)
};

struct ObjectRef {
    ObjectKind kind = ObjectKind::None;
    int character = 0;  ///< the character owning it (PaperJointInfo/PaperBodyInfo::character)
    std::string name;

    bool empty() const { return kind == ObjectKind::None; }
    bool is(ObjectKind k, const std::string& n) const { return kind == k && name == n; }
    friend bool operator==(const ObjectRef&, const ObjectRef&) = default;
};

inline ObjectRef jointRef(int character, std::string name) { return {ObjectKind::Joint, character, std::move(name)}; }
inline ObjectRef bodyRef(int character, std::string name) { return {ObjectKind::Body, character, std::move(name)}; }

/// "joint", "body" or "none": the words scripts and messages use.
inline const char* kindName(ObjectKind kind) {
    return kind == ObjectKind::Joint ? "joint" : kind == ObjectKind::Body ? "body" : "none";
}

}  // namespace paper::editor
