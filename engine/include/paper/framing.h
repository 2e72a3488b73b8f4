// Where a camera looks at a figure: the starting view of one (its feet and the ground above a
// status line, its head under a menu bar) and Follow, which keeps it in view. The editor frames
// the asset being edited; the player follows the figure its input drives. Pure camera maths
// over a box in the world, tested headless (tests/engine/framing_tests.cpp).
#pragma once

#include "paper/math.h"
#include "paper/camera.h"

namespace paper {

/// The viewport's strips a program's bars and side panels cover, pixels: the world is seen
/// between them (the player has none).
struct ViewInsets {
    float topPixels = 0.0f;     ///< the menu bar
    float bottomPixels = 0.0f;  ///< the status line
    float leftPixels = 0.0f;    ///< the panels down the left
    float rightPixels = 0.0f;   ///< the panels down the right
};

/// The least view height, metres, of the starting frame (a figure 1.8 m tall has room).
inline constexpr float kMinStartViewHeight = 3.0f;
/// Ground shown under the figure's lowest point in the starting frame, metres.
inline constexpr float kStartGroundMetres = 0.4f;
/// Follow keeps the figure this fraction of the free view away from every edge.
inline constexpr float kFollowMarginFraction = 0.1f;

/// The world rectangle seen between the insets. frameStart reads the top and bottom insets
/// only and centres across the whole width (a program's side panels may not be laid out when
/// it first frames); keepInView and isInView keep clear of the sides too.
Rect freeView(const Camera& camera, ViewInsets insets);
/// Frames `box` (a figure's bounds, metres): centred across, its bottom
/// kStartGroundMetres above the status line with room above, at least kMinStartViewHeight of
/// world between the bars. The camera's viewport size must be set.
void frameStart(Camera& camera, Rect box, ViewInsets insets);
/// Moves the camera (never zooms) the least that brings `box` inside the free view shrunk by
/// kFollowMarginFraction; a box larger than that is centred. Returns whether it moved.
bool keepInView(Camera& camera, Rect box, ViewInsets insets);
/// Whether `box` lies wholly inside the free view.
bool isInView(const Camera& camera, Rect box, ViewInsets insets);

}  // namespace paper
