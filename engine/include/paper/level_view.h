// How a level looks: the paper background with a metre grid, terrain, props and spawn
// markers, tessellated into a DrawList.
#pragma once

#include <vector>

#include "paper/camera.h"
#include "paper/draw_list.h"
#include "paper/screen_text.h"
#include "paper/level.h"

namespace paper {

inline constexpr Color kPaperColor{243, 239, 228, 255};

/// A grid line every metre (stronger every 5 m) over the visible part of the world.
void drawGrid(const Camera& camera, DrawList& draw);
/// Props are drawn where the level places them, unless a plugin simulates (and draws) them.
void drawLevel(const Level& level, DrawList& draw, bool drawProps = true);
/// Height in metres of a spawn marker's pole, for placing its label.
inline constexpr float kSpawnMarkerHeight = 1.9f;
/// How far its flag reaches from the pole, metres, the way the spawn faces.
inline constexpr float kSpawnFlagLength = 0.35f;
/// The world rectangle a spawn's pole and flag cover.
Rect spawnMarkerBox(const SpawnPoint& spawn);
/// Each spawn's pole and flag: an authoring aid, drawn before (under) the characters, in the
/// editor and in the player's debug view only.
void drawSpawnMarkers(const Level& level, DrawList& draw);
/// Pixels between a spawn's pole and its label.
inline constexpr float kSpawnLabelGapPixels = 6.0f;
/// Each spawn's name and asset beside the top of its pole (running right from it,
/// kSpawnLabelGapPixels off), to be drawn under what the plugin draws too.
std::vector<ScreenText> spawnLabels(const Level& level, const Camera& camera);

}  // namespace paper
