#include "paper/camera.h"

#include <algorithm>
#include <cmath>

namespace paper {

void Camera::frame(Vec2 newCenter, float viewHeight) {
    center = newCenter;
    if (viewHeight > 0.0f && viewportSize.y > 0.0f)
        pixelsPerMetre = std::clamp(viewportSize.y / viewHeight, kMinPixelsPerMetre, kMaxPixelsPerMetre);
}

Vec2 Camera::worldToScreen(Vec2 world) const {
    Vec2 offset = (world - center) * pixelsPerMetre;
    return {0.5f * viewportSize.x + offset.x, 0.5f * viewportSize.y - offset.y};
}

Vec2 Camera::screenToWorld(Vec2 screen) const {
    Vec2 offset{screen.x - 0.5f * viewportSize.x, 0.5f * viewportSize.y - screen.y};
    return center + offset * (1.0f / pixelsPerMetre);
}

void Camera::panPixels(Vec2 deltaPixels) {
    center -= Vec2{deltaPixels.x, -deltaPixels.y} * (1.0f / pixelsPerMetre);
}

void Camera::zoomAt(Vec2 screenPoint, float factor) {
    Vec2 anchor = screenToWorld(screenPoint);
    pixelsPerMetre = std::clamp(pixelsPerMetre * factor, kMinPixelsPerMetre, kMaxPixelsPerMetre);
    // Shift so the anchor lands back under the cursor.
    center += anchor - screenToWorld(screenPoint);
}

void Camera::zoomByWheel(Vec2 screenPoint, float notches) { zoomAt(screenPoint, std::pow(kZoomPerWheelNotch, notches)); }

Rect Camera::visibleWorld() const {
    Vec2 half = Vec2{viewportSize.x, viewportSize.y} * (0.5f / pixelsPerMetre);
    return {center - half, center + half};
}

void Camera::worldToClipMatrix(float out[16]) const {
    float sx = 2.0f * pixelsPerMetre / viewportSize.x;
    float sy = 2.0f * pixelsPerMetre / viewportSize.y;
    const float m[16] = {sx, 0, 0, 0, 0, sy, 0, 0, 0, 0, 1, 0, -sx * center.x, -sy * center.y, 0, 1};
    std::copy(m, m + 16, out);
}

}  // namespace paper
