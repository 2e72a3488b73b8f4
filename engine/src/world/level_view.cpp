#include "paper/level_view.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace paper {

namespace {

Color darker(Color c, float factor) {
    return {static_cast<unsigned char>(c.r * factor), static_cast<unsigned char>(c.g * factor),
            static_cast<unsigned char>(c.b * factor), c.a};
}

}  // namespace

void drawGrid(const Camera& camera, DrawList& draw) {
    Rect view = camera.visibleWorld();
    // Skip the fine lines once they would be closer than 8 pixels.
    int stride = camera.pixelsPerMetre >= 8.0f ? 1 : 5;
    const Color minor{228, 222, 208, 255}, major{212, 204, 186, 255};
    for (int x = int(std::floor(view.min.x)); x <= int(std::ceil(view.max.x)); ++x) {
        if (x % stride != 0) continue;
        bool isMajor = x % 5 == 0;
        draw.line({float(x), view.min.y}, {float(x), view.max.y}, draw.pixels(isMajor ? 1.5f : 1.0f), isMajor ? major : minor);
    }
    for (int y = int(std::floor(view.min.y)); y <= int(std::ceil(view.max.y)); ++y) {
        if (y % stride != 0) continue;
        bool isMajor = y % 5 == 0;
        draw.line({view.min.x, float(y)}, {view.max.x, float(y)}, draw.pixels(isMajor ? 1.5f : 1.0f), isMajor ? major : minor);
    }
}

void drawLevel(const Level& level, DrawList& draw, bool drawProps) {
    float outline = draw.pixels(2.0f);
    for (const TerrainPiece& piece : level.terrain) {
        draw.polygon(piece.points.data(), int(piece.points.size()), piece.color);
        draw.polygonOutline(piece.points.data(), int(piece.points.size()), outline, darker(piece.color, 0.7f));
    }
    for (const Prop& prop : level.props) {
        if (!drawProps) break;
        Vec2 h = prop.halfExtents;
        Vec2 corners[4] = {{-h.x, -h.y}, {h.x, -h.y}, {h.x, h.y}, {-h.x, h.y}};
        for (Vec2& c : corners) c = prop.position + rotate(c, prop.angle);
        draw.polygon(corners, 4, prop.color);
        draw.polygonOutline(corners, 4, outline, darker(prop.color, 0.65f));
        // A cross-brace so a prop's rotation reads at a glance.
        draw.line(corners[0], corners[2], draw.pixels(1.5f), darker(prop.color, 0.8f));
        draw.line(corners[1], corners[3], draw.pixels(1.5f), darker(prop.color, 0.8f));
    }
}

void drawSpawnMarkers(const Level& level, DrawList& draw) {
    const Color pole{120, 130, 150, 255}, flag{222, 92, 64, 255};
    for (const SpawnPoint& spawn : level.spawns) {
        Vec2 base = spawn.position, top = base + Vec2{0.0f, kSpawnMarkerHeight};
        draw.line(base, top, draw.pixels(2.0f), pole);
        float dir = spawn.facingRight ? 1.0f : -1.0f;
        Vec2 pennant[3] = {top, top + Vec2{kSpawnFlagLength * dir, -0.1f}, top + Vec2{0.0f, -0.2f}};
        draw.polygon(pennant, 3, flag);
        draw.circle(base, draw.pixels(4.0f), pole);
    }
}

Rect spawnMarkerBox(const SpawnPoint& spawn) {
    const float flagTip = spawn.position.x + (spawn.facingRight ? kSpawnFlagLength : -kSpawnFlagLength);
    return {{std::min(spawn.position.x, flagTip), spawn.position.y},
            {std::max(spawn.position.x, flagTip), spawn.position.y + kSpawnMarkerHeight}};
}

std::vector<ScreenText> spawnLabels(const Level& level, const Camera& camera) {
    std::vector<ScreenText> labels;
    for (const SpawnPoint& spawn : level.spawns) {
        Vec2 at = camera.worldToScreen(spawn.position + Vec2{0.0f, kSpawnMarkerHeight});
        labels.push_back({{at.x + kSpawnLabelGapPixels, at.y - 22.0f},
                          {60, 66, 80, 255},
                          spawn.name + "  (" + std::filesystem::path(spawn.asset).filename().string() + ")"});
    }
    return labels;
}

}  // namespace paper
