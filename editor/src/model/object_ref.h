// What the editor's selection, hover highlight and per-object edits point at: an object of
// the plugin with limits (a "joint") or an outline (a "body"), by its kind, owner and name.
// Names rather than the plugin's handles: Reset and Open rebuild the world, and an edit in
// the history must find its object again afterwards.
#pragma once

#include <string>
#include <utility>

namespace paper::editor {

/// The role an object plays for the editor's tools (model/reflected_objects.h).
enum class ObjectKind {
    None,   ///< nothing (an empty selection)
    Joint,  ///< an object with limits: a gizmo, a pivot to pick
    Body,   ///< an object with an outline to pick
    Other,  ///< any other object of the plugin's (named in a script)
};

struct ObjectRef {
    ObjectKind kind = ObjectKind::None;
    int pluginKind = -1;  ///< the plugin's kind of object (index into its declarations)
    int character = 0;    ///< the object owning it (PaperObjectInfo::owner)
    std::string name;

    bool empty() const { return kind == ObjectKind::None; }
    bool is(ObjectKind k, const std::string& n) const { return kind == k && name == n; }
    friend bool operator==(const ObjectRef&, const ObjectRef&) = default;
};

inline ObjectRef jointRef(int pluginKind, int character, std::string name) {
    return {ObjectKind::Joint, pluginKind, character, std::move(name)};
}
inline ObjectRef bodyRef(int pluginKind, int character, std::string name) {
    return {ObjectKind::Body, pluginKind, character, std::move(name)};
}

/// "joint", "body", "object" or "none": the words scripts and messages use.
inline const char* kindName(ObjectKind kind) {
    return kind == ObjectKind::Joint ? "joint" : kind == ObjectKind::Body ? "body" : kind == ObjectKind::Other ? "object" : "none";
}

}  // namespace paper::editor
