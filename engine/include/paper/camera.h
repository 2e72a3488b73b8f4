// A 2D camera: which part of the world (metres, y up) the viewport (pixels, y down) shows.
#pragma once

#include "paper/math.h"

namespace paper {

struct Camera {
    Vec2 center{0.0f, 1.0f};        ///< world point at the middle of the viewport, metres
    float pixelsPerMetre = 100.0f;  ///< zoom
    Vec2 viewportSize{1280.0f, 720.0f};  ///< pixels

    static constexpr float kMinPixelsPerMetre = 2.0f;
    static constexpr float kMaxPixelsPerMetre = 5000.0f;
    static constexpr float kZoomPerWheelNotch = 1.15f;  ///< 15 % per notch of the mouse wheel

    /// Fits viewHeight metres of world vertically into the viewport, centred on center.
    void frame(Vec2 newCenter, float viewHeight);
    Vec2 worldToScreen(Vec2 world) const;
    Vec2 screenToWorld(Vec2 screen) const;
    /// Moves the view by a drag of deltaPixels (the world follows the mouse).
    void panPixels(Vec2 deltaPixels);
    /// Multiplies the zoom by factor, keeping the world point under screenPoint fixed.
    void zoomAt(Vec2 screenPoint, float factor);
    /// Zooms by whole or fractional wheel notches (> 0 in) at screenPoint: the player's and
    /// the editor's wheel alike.
    void zoomByWheel(Vec2 screenPoint, float notches);
    /// The visible world rectangle.
    Rect visibleWorld() const;
    /// Column-major 4x4 matrix taking world metres to OpenGL clip space.
    void worldToClipMatrix(float out[16]) const;
};

}  // namespace paper
