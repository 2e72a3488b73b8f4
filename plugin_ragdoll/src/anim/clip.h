// Animation clips (content/anims/*.anim.xml, format in the README): keyed angle offsets per
// bone, a root track (forward travel as root motion, plus vertical bob/offset), looping,
// linear or smooth interpolation, optional named events. Loaded against one rig: bone
// names resolve (sanitised like the rig's) to indices once, at load.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "anim/pose.h"
#include "rig/rig.h"

namespace ragdoll {

enum class Interpolation { Linear, Smooth };

struct ClipKey {
    double time = 0.0;   ///< seconds from the clip's start
    double value = 0.0;  ///< radians for angles, metres for the root's x/y
};

struct ClipTrack {
    int bone = -1;  ///< index in the rig; the value is an offset from the rest localAngle
    Interpolation interpolation = Interpolation::Smooth;
    std::vector<ClipKey> keys;  ///< sorted by time, at least one
};

struct ClipEvent {
    double time = 0.0;
    std::string name;
};

struct Clip {
    std::string name;
    double duration = 0.0;  ///< seconds, > 0
    bool loop = false;
    std::vector<ClipTrack> tracks;  ///< bones without a track keep their rest angle
    /// Root: x is forward travel in metres since the clip's start (root motion, turned into
    /// the character's movement; facing left mirrors it), y an offset from the rest height.
    ClipTrack rootX, rootY;
    std::vector<ClipEvent> events;
    std::string path;  ///< for messages
};

struct ClipLoadResult {
    std::optional<Clip> clip;              ///< empty when any error
    std::vector<Diagnostic> diagnostics;  ///< "FILE:LINE: error: element: message"
};
ClipLoadResult loadClipFile(const std::string& path, const RigDefinition& rig);
ClipLoadResult loadClipFromText(std::string_view text, const std::string& fileName, const RigDefinition& rig);
/// What can be found wrong with a clip file without the bones it names: missing, unreadable,
/// not XML, not a <clip>. For a rig whose own bones have errors, so a clip file it names
/// that is not there is said at once, not only after the bones are mended.
std::vector<Diagnostic> checkClipFileAlone(const std::string& path);

/// The pose at time t (wrapped when looping, clamped otherwise). rootOffset gets y only.
void sampleClip(const Clip& clip, const RigDefinition& rig, double time, LocalPose& out);
/// The root's forward travel (rootX) at time t, unwrapped: a looping clip keeps adding
/// one cycle's travel per loop, so root motion is rootTravel(t1) − rootTravel(t0).
double rootTravel(const Clip& clip, double time);

}  // namespace ragdoll
