// The level the state blob's fuzz target loads its inputs into, and in which most of the
// kept blobs of tests/fuzz/corpus/state were saved: ground, one crate and the stickman,
// like the harness's first spawn. Shared with the character tests, which load every kept
// blob into the level it came from.
#pragma once

#include <string>

#include "scene/scene.h"

inline ragdoll::SceneLevel stateBlobLevel(const std::string& contentDir) {
    ragdoll::SceneLevel level;
    level.terrain.push_back({{{-20.0, -1.0}, {20.0, -1.0}, {20.0, 0.0}, {-20.0, 0.0}}});
    level.props.push_back({"crate", {2.0, 0.25}, 0.0, {0.25, 0.25}, 5.0, 0.6, 0.0, 0xff808080u});
    level.spawns.push_back({"player", contentDir + "/rigs/stickman.rig.xml", {0.0, 0.0}, true});
    return level;
}
