// Levels: static terrain, dynamic props, spawn points and the camera's start
// view, read from content/levels/*.level.xml (format described in the README).
// Everything is converted to metres, radians and counter-clockwise convex polygons at
// load; a level that has any error loads nothing.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "paper/math.h"
#include "paper/xml_reader.h"

namespace paper {

/// Most vertices a terrain polygon may have (the solver's convex polygon limit).
inline constexpr int kMaxPolygonVertices = 8;

enum class TerrainKind { Box, Ramp, Step, Polygon };

/// A static convex polygon of the terrain.
struct TerrainPiece {
    TerrainKind kind = TerrainKind::Box;
    std::vector<Vec2> points;  ///< metres, counter-clockwise, convex, 3..kMaxPolygonVertices
    float friction = 0.6f;
    float restitution = 0.0f;
    Color color{90, 98, 110, 255};
    int line = 0;  ///< source line, for messages
};

/// A dynamic box that characters can bump and knock over.
struct Prop {
    std::string name;          ///< `name`, or prop0, prop1, … in file order
    Vec2 position;             ///< centre, metres
    float angle = 0.0f;        ///< radians, counter-clockwise
    Vec2 halfExtents{0.25f, 0.25f};  ///< metres
    float mass = 5.0f;         ///< kg
    float friction = 0.6f;
    float restitution = 0.0f;
    Color color{176, 122, 62, 255};
    int line = 0;
};

/// Where the plugin puts something of its own, and the file (asset) it is made from.
struct SpawnPoint {
    std::string name;
    std::string asset;    ///< resolved against the level file's directory
    Vec2 position;        ///< metres
    bool facingRight = true;
    int line = 0;
};

/// The camera's start view.
struct CameraView {
    Vec2 center{0.0f, 1.0f};  ///< metres
    float viewHeight = 6.0f;  ///< metres visible from the bottom to the top of the screen
};

struct Level {
    std::string name;
    std::string path;  ///< the file it was loaded from
    std::vector<TerrainPiece> terrain;
    std::vector<Prop> props;
    std::vector<SpawnPoint> spawns;
    CameraView camera;
};

struct LevelLoadResult {
    std::optional<Level> level;           ///< set only when there were no errors
    std::vector<Diagnostic> diagnostics;  ///< every error and warning found
};

/// Reads and validates a level file; reports every problem it finds, not just the first.
LevelLoadResult loadLevelFile(const std::string& path);

/// Same, from text in memory; fileName is used in messages and to resolve asset paths.
LevelLoadResult loadLevelFromText(std::string_view xml, const std::string& fileName);

}  // namespace paper
