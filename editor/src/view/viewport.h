// The editor's view of the world: the camera's response to the mouse (pan with the middle
// button or Space + left drag, zoom at the cursor with the wheel, F frames a point).
#pragma once

#include "paper/math.h"

namespace paper {
struct Camera;
class InputMap;
}  // namespace paper

namespace paper::editor {

/// How much of the world, metres, F shows around the framed joint, bottom to top.
inline constexpr float kFrameJointViewHeight = 2.4f;

/// What the viewport did with one frame of the mouse.
struct ViewportInput {
    bool panning = false;  ///< the drag moved the camera: the gizmo and the plugin must not see it
};

/// One frame of camera control. mouseFree: the mouse is over the world, not a panel;
/// spaceHeld turns a left drag into a pan (the hand tool).
ViewportInput updateViewport(Camera& camera, const InputMap& input, bool mouseFree, bool spaceHeld);

/// Centres the view on world (metres) at the framing zoom.
void frameWorldPoint(Camera& camera, Vec2 world);

}  // namespace paper::editor
