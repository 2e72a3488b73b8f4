#include "paper/framing.h"

#include <algorithm>

namespace paper {

Rect freeView(const Camera& camera, ViewInsets insets) {
    Vec2 topLeft = camera.screenToWorld({insets.leftPixels, insets.topPixels});
    Vec2 bottomRight = camera.screenToWorld(
        {camera.viewportSize.x - insets.rightPixels, camera.viewportSize.y - insets.bottomPixels});
    return {{topLeft.x, bottomRight.y}, {bottomRight.x, topLeft.y}};
}

void frameStart(Camera& camera, Rect box, ViewInsets insets) {
    float freePixels = std::max(1.0f, camera.viewportSize.y - insets.topPixels - insets.bottomPixels);
    float needed = (box.max.y - box.min.y) + 2.0f * kStartGroundMetres;
    float freeMetres = std::max(kMinStartViewHeight, needed);
    camera.pixelsPerMetre = std::clamp(freePixels / freeMetres, Camera::kMinPixelsPerMetre, Camera::kMaxPixelsPerMetre);
    // The free strip's bottom edge sits kStartGroundMetres under the box; the spare height
    // goes above the head.
    float freeBottom = box.min.y - kStartGroundMetres;
    float freeMiddle = freeBottom + 0.5f * freePixels / camera.pixelsPerMetre;
    // The free strip's middle is off the viewport's middle by half the difference of the bars.
    float offsetPixels = 0.5f * (insets.bottomPixels - insets.topPixels);
    camera.center = {0.5f * (box.min.x + box.max.x), freeMiddle - offsetPixels / camera.pixelsPerMetre};
}

bool keepInView(Camera& camera, Rect box, ViewInsets insets) {
    Rect view = freeView(camera, insets);
    Vec2 margin{kFollowMarginFraction * (view.max.x - view.min.x), kFollowMarginFraction * (view.max.y - view.min.y)};
    Rect inner{view.min + margin, view.max - margin};
    auto shift = [](float boxMin, float boxMax, float innerMin, float innerMax) {
        if (boxMax - boxMin > innerMax - innerMin) return 0.5f * (boxMin + boxMax) - 0.5f * (innerMin + innerMax);
        if (boxMin < innerMin) return boxMin - innerMin;
        if (boxMax > innerMax) return boxMax - innerMax;
        return 0.0f;
    };
    Vec2 move{shift(box.min.x, box.max.x, inner.min.x, inner.max.x), shift(box.min.y, box.max.y, inner.min.y, inner.max.y)};
    if (move.x == 0.0f && move.y == 0.0f) return false;
    camera.center = camera.center + move;
    return true;
}

bool isInView(const Camera& camera, Rect box, ViewInsets insets) {
    Rect view = freeView(camera, insets);
    return box.min.x >= view.min.x && box.max.x <= view.max.x && box.min.y >= view.min.y && box.max.y <= view.max.y;
}

}  // namespace paper
