#include "view/viewport.h"


#include "paper/input.h"
#include "paper/camera.h"

namespace paper::editor {

ViewportInput updateViewport(Camera& camera, const InputMap& input, bool mouseFree, bool spaceHeld) {
    const MouseState& mouse = input.mouse();
    ViewportInput result;
    bool middlePan = mouse.down[int(MouseButton::Middle)];
    bool handPan = spaceHeld && mouse.down[int(MouseButton::Left)];
    if (middlePan || handPan) {
        result.panning = true;
        if (mouse.dragDelta.x != 0.0f || mouse.dragDelta.y != 0.0f) camera.panPixels(mouse.dragDelta);
    }
    if (mouseFree && mouse.wheel != 0.0f) camera.zoomByWheel(mouse.position, mouse.wheel);
    return result;
}

void frameWorldPoint(Camera& camera, Vec2 world) { camera.frame(world, kFrameJointViewHeight); }

}  // namespace paper::editor
