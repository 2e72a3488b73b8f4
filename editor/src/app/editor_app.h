// The `paperdoll_editor` program: a level with the ragdoll plugin, paused on a standing
// character, whose joint limits the user edits with gizmos.
#pragma once

#include <iosfwd>

#include "app/editor_options.h"

namespace paper::editor {

/// Runs the editor; returns the process exit status (0, 1 for a failed run or expect, 2 for
/// a bad script). Messages go to out and err.
int runEditor(const EditorOptions& options, std::ostream& out, std::ostream& err);

/// main(): parses argv (a bad command line exits 2) and runs the editor.
int editorMain(int argc, char** argv);

}  // namespace paper::editor
