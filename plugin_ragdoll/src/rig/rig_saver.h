// Writing a rig back to its file after edits (limits, stiffness, masses, radii, solver
// settings, generated bodies and joints).
//
// The saver patches the text the rig was read from rather than printing a new document:
// every value that did not change keeps its exact text, and comments, blank lines,
// attribute order and spacing, unknown elements and attributes, and names as the file
// spelt them (`upper_arm.L`) all survive. An unchanged rig saves byte-identical.
//
// Normalisation, only where something changed:
//   - a changed value is rewritten in place, in the file's units, as the shortest decimal
//     that reads back to exactly the edited value ("45", "0.16", "28.6478897565412");
//   - an attribute that becomes needed is appended to the end of its start tag
//     (` name="value"`); one that stops applying (a radius replaced by a radius_fraction,
//     limits removed) is removed with the whitespace before it;
//   - a new element is written on its own line after the last element of its kind, with
//     that element's indentation (or after the elements of the kinds before it, in the
//     order solver, image, bone, visual, sprite, body, joint, after a blank line), with only the
//     attributes that differ from their defaults;
//   - an element whose item was removed from the definition is removed with its line;
//   - values are escaped (& < > " ') where written.
// A rig with no source text (built in code) is written fresh in that element order, two
// spaces of indentation, a blank line between kinds.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "rig/rig.h"

namespace ragdoll {

struct RigTextResult {
    bool ok = false;
    std::string text;
    std::vector<Diagnostic> diagnostics;  ///< why not (errors the edited rig would load with)
};

/// The file text for the rig, checked by loading it back: a rig that would not load is
/// refused with the loader's errors, so a save never writes a file that cannot be read.
RigTextResult rigToText(const RigDefinition& rig);
/// The same, checked as if the text were the file at loadedAs: the rig's images are files
/// relative to it, so a rig saved into another folder is refused when they are not there.
RigTextResult rigToText(const RigDefinition& rig, const std::string& loadedAs);

struct RigSaveResult {
    bool ok = false;
    std::vector<Diagnostic> diagnostics;
    std::string text;  ///< what was written (when ok): the rig's source text from now on
};

/// Writes rigToText(rig) to path atomically: a temporary file beside it, flushed to disk,
/// then renamed over the original, so a failure at any point leaves the original intact
/// (and no temporary file behind). A process killed mid-save leaves the original intact too,
/// and its temporary file (".NAME.tmp-XXXXXXXX" beside it), which the next save of NAME
/// removes. A new file gets the process's default permissions; an existing one keeps its own.
/// A read-only file (a version control system's, not checked out) is refused unless
/// overReadOnly (`rig generate --force`).
RigSaveResult saveRig(const RigDefinition& rig, const std::string& path, bool overReadOnly = false);

/// Why saving the rig to path would overwrite a change made to that file since the rig was
/// read from it (another program wrote it), or empty when it would not: path is not the
/// file the rig was read from, the rig has no source text, or the file still holds exactly
/// that text (or is gone). saveRig patches the text read at load, so a save over a file
/// that has changed since would silently put back everything that change did.
std::string changedOnDisk(const RigDefinition& rig, const std::string& path);

/// Writes all of bytes to the open file fd, retrying short writes and interruptions; false
/// with errno saying why (the saves here report the system's reason: a full disk, …).
bool writeAll(int fd, std::string_view bytes);

}  // namespace ragdoll
