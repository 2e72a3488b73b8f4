// Level loader: *.level.xml (read with tinyxml2) into a Level in metres, radians and
// counter-clockwise convex polygons.
//
// Every element is checked on its own and checking goes on after an error, so an author
// gets the whole list of problems in one go, like from a compiler; the Level is handed
// out only when the list holds no error. Rejected: stopping at the first problem (one
// edit-reload cycle per typo) and exceptions (they cannot carry several problems).

#include "paper/level.h"

#include "paper/file_checks.h"

#include <tinyxml2.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <initializer_list>
#include <limits>
#include <map>
#include <system_error>
#include <utility>

namespace paper {
namespace {

namespace fs = std::filesystem;
using tinyxml2::XMLElement;

/// Largest |length| accepted, metres: anything bigger is a typo, and float positions that
/// far out have centimetre-sized steps.
constexpr AttributeRules kLevelRules{1.0e6, "is too large (more than 1e6 m)", ""};
/// Most steps one <stairs> may expand into.
constexpr int kMaxStairSteps = 64;
/// Without a <camera>, the start view frames the terrain's bounds on a 16:9 screen (the
/// default viewport) with a margin, kept within these heights in metres.
constexpr float kAutoCameraAspect = 16.0f / 9.0f;
constexpr float kAutoCameraMargin = 1.1f;
constexpr float kAutoCameraMinHeight = 3.0f;
constexpr float kAutoCameraMaxHeight = 30.0f;
/// The shortest side a terrain piece may have, metres: the solver refuses sides near 1 µm,
/// and float positions tens of metres out are good to about a micrometre.
constexpr double kMinTerrainSide = 0.001;
/// Three polygon points whose turn has |sin| below this count as collinear: the solver
/// would get a degenerate edge normal from them.
constexpr double kCollinearSine = 1.0e-5;

/// A required position or size in the file's units, in metres (0 when invalid): the level
/// is in floats from here on.
float readLength(AttributeReader& in, const char* name, Range range) {
    return static_cast<float>(in.length(name, Need::Required, range, 0.0));
}

/// A number that is not a length (mass, friction, scale).
float readPlain(AttributeReader& in, const char* name, Need need, Range range, double fallback) {
    return static_cast<float>(in.plain(name, need, range, fallback));
}

/// Degrees counter-clockwise in the file, radians returned; 0 when absent.
float readAngle(AttributeReader& in, const char* name) {
    return degreesToRadians(readPlain(in, name, Need::Optional, Range::Any, 0.0));
}

/// "#rrggbb" or "#rrggbbaa"; fallback when absent or invalid.
Color readColor(AttributeReader& in, const char* name, Color fallback) {
    std::optional<std::array<unsigned char, 4>> rgba = parseHexColor(in.color(name));
    return rgba ? Color{(*rgba)[0], (*rgba)[1], (*rgba)[2], (*rgba)[3]} : fallback;
}

/// The corners of a rotated rectangle, counter-clockwise from the bottom left.
std::vector<Vec2> rectangle(Vec2 center, Vec2 halfExtents, float angle) {
    std::vector<Vec2> points{{-halfExtents.x, -halfExtents.y}, {halfExtents.x, -halfExtents.y},
                             {halfExtents.x, halfExtents.y}, {-halfExtents.x, halfExtents.y}};
    for (Vec2& p : points) p = center + rotate(p, angle);
    return points;
}

std::vector<Vec2> axisBox(float minX, float minY, float maxX, float maxY) {
    return {{minX, minY}, {maxX, minY}, {maxX, maxY}, {minX, maxY}};
}

/// How the outline turns at b on its way from a to c; > 0 is counter-clockwise.
struct Turn {
    double sine;     ///< sin of the turn: its sign, and near 0 when a, b, c are collinear
    double radians;  ///< signed angle, summed to tell a convex outline from a star
};

/// In double: float loses the small turns the collinearity test looks for.
Turn turnAt(Vec2 a, Vec2 b, Vec2 c) {
    double e1x = double(b.x) - a.x, e1y = double(b.y) - a.y;
    double e2x = double(c.x) - b.x, e2y = double(c.y) - b.y;
    double cross = e1x * e2y - e1y * e2x;
    double sine = cross / (std::hypot(e1x, e1y) * std::hypot(e2x, e2y));
    return {sine, std::atan2(cross, e1x * e2x + e1y * e2y)};
}

class LevelParser {
public:
    LevelParser(Reporter& report, const std::string& fileName)
        : report_(report), levelDirectory_(fs::path(fileName).parent_path()) {
        level_.path = fileName;
    }

    Level parse(const XMLElement& root) {
        readHeader(root);
        int terrainElements = 0;
        for (const XMLElement* e = root.FirstChildElement(); e; e = e->NextSiblingElement()) {
            std::string_view name = e->Name();
            if (name == "box" || name == "ramp" || name == "stairs" || name == "polygon") ++terrainElements;
            if (name == "camera") readCamera(*e);
            else if (name == "box") readBox(*e);
            else if (name == "ramp") readRamp(*e);
            else if (name == "stairs") readStairs(*e);
            else if (name == "polygon") readPolygon(*e);
            else if (name == "prop") readProp(*e);
            else if (name == "spawn") readSpawn(*e);
            else
                report_.warning(e->GetLineNum(), "unknown element '" + std::string(name) + "' ignored" +
                                                     didYouMean(name, {"camera", "box", "ramp", "stairs", "polygon", "prop", "spawn"}));
        }
        // Broken terrain elements already have errors; this is for a file that has none at all.
        if (terrainElements == 0)
            report_.warning(root, "no terrain: characters and props will fall forever");
        if (cameraLine_ == 0 && !level_.terrain.empty()) frameTerrain();
        return std::move(level_);
    }

private:
    AttributeReader reader(const XMLElement& element) {
        return AttributeReader(element, report_, unitsPerMetre_, kLevelRules);
    }

    void readHeader(const XMLElement& root) {
        AttributeReader in = reader(root);
        level_.name = in.text("name", Need::Required);
        std::string format = in.text("format", Need::Required);
        if (!format.empty() && format != "1")
            report_.error(root, "unsupported format '" + format + "' (supported: 1)");
        bool metres = in.choice("units", {"m", "cm", "px"}) == 0;
        double defaultScale = metres ? 1.0 : 100.0;
        unitsPerMetre_ = readPlain(in, "scale", Need::Optional, Range::Positive, defaultScale);
        in.warnUnknownAttributes();
    }

    void readCamera(const XMLElement& element) {
        if (cameraLine_ != 0) {
            report_.error(element, "only one camera allowed (the first is at line " +
                                       std::to_string(cameraLine_) + ")");
            return;
        }
        cameraLine_ = element.GetLineNum();
        AttributeReader in = reader(element);
        level_.camera.center = {readLength(in, "x", Range::Any), readLength(in, "y", Range::Any)};
        level_.camera.viewHeight = readLength(in, "height", Range::Positive);
        in.warnUnknownAttributes();
        warnChildElements(element);
    }

    /// friction, restitution and colour, shared by every kind of terrain.
    TerrainPiece readSurface(AttributeReader& in, const XMLElement& element, TerrainKind kind) {
        TerrainPiece piece;
        piece.kind = kind;
        piece.line = element.GetLineNum();
        piece.friction = readPlain(in, "friction", Need::Optional, Range::NonNegative, piece.friction);
        piece.restitution = readPlain(in, "restitution", Need::Optional, Range::UnitInterval, piece.restitution);
        piece.color = readColor(in, "color", piece.color);
        return piece;
    }

    /// A size as written that is under kMinTerrainSide: an error naming the attribute (the
    /// points made from it can lose it altogether in floats, a side of "0 m"). Props too: a
    /// crate under a millimetre sank whole into the ground, under the contacts' 2 mm slop.
    bool checkSize(const XMLElement& element, const char* name, float value) {
        if (!(value < kMinTerrainSide * (1.0 - 1.0e-3))) return true;
        char got[64];
        std::snprintf(got, sizeof got, "%g m", double(value));
        report_.error(element, std::string("'") + name + "' is " + got + ": shorter than 1 mm, the shortest side the solver takes");
        return false;
    }

    /// checkSize for each (name, value), every one said.
    bool checkSizes(const XMLElement& element, std::initializer_list<std::pair<const char*, float>> sizes) {
        bool ok = true;
        for (const auto& [name, value] : sizes) ok = checkSize(element, name, value) && ok;
        return ok;
    }

    /// Every side of the piece at least kMinTerrainSide long, else an error at its element
    /// (a piece a thousandth of a millimetre wide was refused later by the plugin, with no
    /// file or line).
    bool checkSides(const XMLElement& element, const std::vector<Vec2>& points) {
        double shortest = std::numeric_limits<double>::infinity();
        for (size_t i = 0; i < points.size(); ++i) {
            const Vec2 a = points[i], b = points[(i + 1) % points.size()];
            shortest = std::min(shortest, std::hypot(double(b.x) - a.x, double(b.y) - a.y));
        }
        if (shortest >= kMinTerrainSide * (1.0 - 1.0e-3)) return true;  // a 1 mm side in floats
        char got[64];
        std::snprintf(got, sizeof got, "%.3g m", shortest);
        report_.error(element, std::string("has a side of ") + got + ", shorter than 1 mm");
        return false;
    }

    void readBox(const XMLElement& element) {
        int errorsBefore = report_.errorCount();
        AttributeReader in = reader(element);
        Vec2 center{readLength(in, "x", Range::Any), readLength(in, "y", Range::Any)};
        Vec2 size{readLength(in, "width", Range::Positive), readLength(in, "height", Range::Positive)};
        float angle = readAngle(in, "angle");
        TerrainPiece piece = readSurface(in, element, TerrainKind::Box);
        in.warnUnknownAttributes();
        warnChildElements(element);
        if (report_.errorCount() > errorsBefore) return;
        if (!checkSizes(element, {{"width", size.x}, {"height", size.y}})) return;
        piece.points = rectangle(center, 0.5f * size, angle);
        if (!checkSides(element, piece.points)) return;
        level_.terrain.push_back(std::move(piece));
    }

    void readRamp(const XMLElement& element) {
        int errorsBefore = report_.errorCount();
        AttributeReader in = reader(element);
        float x = readLength(in, "x", Range::Any), y = readLength(in, "y", Range::Any);
        float width = readLength(in, "width", Range::Positive), height = readLength(in, "height", Range::Positive);
        bool upRight = in.choice("direction", {"up-right", "up-left"}) == 0;
        TerrainPiece piece = readSurface(in, element, TerrainKind::Ramp);
        in.warnUnknownAttributes();
        warnChildElements(element);
        if (report_.errorCount() > errorsBefore) return;
        if (!checkSizes(element, {{"width", width}, {"height", height}})) return;
        float highX = upRight ? x + width : x;
        piece.points = {{x, y}, {x + width, y}, {highX, y + height}};
        if (!checkSides(element, piece.points)) return;
        level_.terrain.push_back(std::move(piece));
    }

    void readStairs(const XMLElement& element) {
        int errorsBefore = report_.errorCount();
        AttributeReader in = reader(element);
        float x = readLength(in, "x", Range::Any), y = readLength(in, "y", Range::Any);
        int steps = in.wholeNumber("steps", Need::Required, 1, kMaxStairSteps, 1);
        float stepWidth = readLength(in, "step_width", Range::Positive);
        float stepHeight = readLength(in, "step_height", Range::Positive);
        bool upRight = in.choice("direction", {"up-right", "up-left"}) == 0;
        TerrainPiece surface = readSurface(in, element, TerrainKind::Step);
        in.warnUnknownAttributes();
        warnChildElements(element);
        if (report_.errorCount() > errorsBefore) return;
        if (!checkSizes(element, {{"step_width", stepWidth}, {"step_height", stepHeight}})) return;
        for (int i = 0; i < steps; ++i) {
            int heightInSteps = upRight ? i + 1 : steps - i;
            TerrainPiece step = surface;
            step.points = axisBox(x + float(i) * stepWidth, y, x + float(i + 1) * stepWidth,
                                  y + float(heightInSteps) * stepHeight);
            if (!checkSides(element, step.points)) return;
            level_.terrain.push_back(std::move(step));
        }
    }

    void readPolygon(const XMLElement& element) {
        int errorsBefore = report_.errorCount();
        AttributeReader in = reader(element);
        TerrainPiece piece = readSurface(in, element, TerrainKind::Polygon);
        in.warnUnknownAttributes();
        std::vector<int> pointLines;
        for (const XMLElement* child = element.FirstChildElement(); child;
             child = child->NextSiblingElement()) {
            if (std::string_view(child->Name()) != "point") {
                warnUnknownChild(element, *child);
                continue;
            }
            AttributeReader point = reader(*child);
            piece.points.push_back({readLength(point, "x", Range::Any), readLength(point, "y", Range::Any)});
            pointLines.push_back(child->GetLineNum());
            point.warnUnknownAttributes();
        }
        int count = int(piece.points.size());
        if (count < 3 || count > kMaxPolygonVertices) {
            report_.error(element, "has " + std::to_string(count) + " points, needs 3 to " +
                                       std::to_string(kMaxPolygonVertices));
            return;
        }
        if (report_.errorCount() > errorsBefore || !checkConvex(element, piece.points, pointLines) ||
            !checkSides(element, piece.points))
            return;
        double twiceArea = 0.0;
        for (int i = 0; i < count; ++i)
            twiceArea += cross(piece.points[i], piece.points[(i + 1) % count]);
        if (twiceArea < 0.0) std::reverse(piece.points.begin(), piece.points.end());
        level_.terrain.push_back(std::move(piece));
    }

    /// Reports every vertex that breaks convexity, in either winding; true when none does.
    bool checkConvex(const XMLElement& polygon, const std::vector<Vec2>& points,
                     const std::vector<int>& lines) {
        int count = int(points.size());
        std::vector<double> sines(count);
        double totalTurn = 0.0;
        int positive = 0, negative = 0;
        for (int i = 0; i < count; ++i) {
            Vec2 previous = points[(i + count - 1) % count], next = points[(i + 1) % count];
            if (points[i] == next || points[i] == previous) {
                report_.error(lines[i],
                              "polygon: point " + std::to_string(i + 1) + " repeats a neighbouring point");
                return false;
            }
            Turn turn = turnAt(previous, points[i], next);
            sines[i] = turn.sine;
            totalTurn += turn.radians;
            if (sines[i] > kCollinearSine) ++positive;
            if (sines[i] < -kCollinearSine) ++negative;
        }
        if (positive == 0 && negative == 0) {
            report_.error(polygon, "has zero area (all points on one line)");
            return false;
        }
        // The winding is whichever turn the majority of vertices make; the others are the culprits.
        double winding = positive >= negative ? 1.0 : -1.0;
        bool convex = true;
        for (int i = 0; i < count; ++i) {
            std::string which = "point " + std::to_string(i + 1);
            if (std::abs(sines[i]) <= kCollinearSine) {
                report_.error(lines[i], "polygon: " + which + " is collinear with its neighbours; remove it");
                convex = false;
            } else if (sines[i] * winding < 0.0) {
                report_.error(lines[i], "polygon: not convex at " + which);
                convex = false;
            }
        }
        // All turns the same way but winding twice round is a star, not a convex polygon.
        if (convex && std::abs(totalTurn) > 3.0 * kPi) {
            report_.error(polygon, "edges cross each other; list the points in order around the outline");
            convex = false;
        }
        return convex;
    }

    void readProp(const XMLElement& element) {
        int errorsBefore = report_.errorCount();
        AttributeReader in = reader(element);
        Prop prop;
        prop.line = element.GetLineNum();
        // Unnamed props are numbered by their place among all the file's props, so a name
        // does not change when an earlier prop is fixed or named.
        const std::string numbered = "prop" + std::to_string(propsSeen_++);
        prop.name = in.has("name") ? in.text("name", Need::Required) : numbered;
        in.choice("shape", {"box"});
        prop.position = {readLength(in, "x", Range::Any), readLength(in, "y", Range::Any)};
        Vec2 size{readLength(in, "width", Range::Positive), readLength(in, "height", Range::Positive)};
        prop.halfExtents = 0.5f * size;
        prop.angle = readAngle(in, "angle");
        prop.mass = readPlain(in, "mass", Need::Required, Range::Positive, prop.mass);
        prop.friction = readPlain(in, "friction", Need::Optional, Range::NonNegative, prop.friction);
        prop.restitution = readPlain(in, "restitution", Need::Optional, Range::UnitInterval, prop.restitution);
        prop.color = readColor(in, "color", prop.color);
        in.warnUnknownAttributes();
        warnChildElements(element);
        if (report_.errorCount() > errorsBefore) return;
        if (!checkSizes(element, {{"width", size.x}, {"height", size.y}})) return;
        // Two of one name load (they are two crates), but the stats and a state name a prop by
        // it: one of them would be reported, or restored, as the other.
        auto [first, inserted] = propLines_.emplace(prop.name, prop.line);
        if (!inserted)
            report_.warning(prop.line, std::string("prop: ") + (in.has("name") ? "duplicate name '" : "its default name '") +
                                           prop.name + "' is the prop's at line " + std::to_string(first->second) +
                                           ": the stats list both under it");
        level_.props.push_back(prop);
    }

    void readSpawn(const XMLElement& element) {
        int errorsBefore = report_.errorCount();
        AttributeReader in = reader(element);
        SpawnPoint spawn;
        spawn.line = element.GetLineNum();
        spawn.name = in.text("name", Need::Required);
        std::string asset = in.text("asset", Need::Required);
        spawn.position = {readLength(in, "x", Range::Any), readLength(in, "y", Range::Any)};
        spawn.facingRight = in.choice("facing", {"right", "left"}) == 0;
        in.warnUnknownAttributes();
        warnChildElements(element);
        if (!spawn.name.empty()) {
            auto [first, inserted] = spawnLines_.emplace(spawn.name, spawn.line);
            if (!inserted)
                report_.error(element, "duplicate spawn name '" + spawn.name + "' (first at line " +
                                           std::to_string(first->second) + ")");
        }
        if (!asset.empty()) {
            // Checked here rather than when the plugin opens it, so the message points at this line.
            spawn.asset = pathBeside(levelDirectory_, asset);
            std::error_code status;
            if (!fs::is_regular_file(spawn.asset, status)) {
                bool exists = fs::exists(spawn.asset, status);
                report_.error(element, "asset file '" + spawn.asset + "' " +
                                           (exists ? "is not a regular file" : "not found" + didYouMeanFile(spawn.asset)));
            }
        }
        if (report_.errorCount() > errorsBefore) return;
        level_.spawns.push_back(std::move(spawn));
    }

    void warnChildElements(const XMLElement& element) {
        for (const XMLElement* child = element.FirstChildElement(); child; child = child->NextSiblingElement())
            warnUnknownChild(element, *child);
    }

    void warnUnknownChild(const XMLElement& parent, const XMLElement& child) {
        report_.warning(child.GetLineNum(), "unknown element '" + std::string(child.Name()) + "' in <" +
                                                parent.Name() + "> ignored");
    }

    void frameTerrain() {
        Rect bounds{level_.terrain[0].points[0], level_.terrain[0].points[0]};
        for (const TerrainPiece& piece : level_.terrain) {
            for (Vec2 p : piece.points) {
                bounds.min = {std::min(bounds.min.x, p.x), std::min(bounds.min.y, p.y)};
                bounds.max = {std::max(bounds.max.x, p.x), std::max(bounds.max.y, p.y)};
            }
        }
        Vec2 size = bounds.max - bounds.min;
        level_.camera.center = 0.5f * (bounds.min + bounds.max);
        level_.camera.viewHeight = std::clamp(kAutoCameraMargin * std::max(size.y, size.x / kAutoCameraAspect),
                                              kAutoCameraMinHeight, kAutoCameraMaxHeight);
    }

    Reporter& report_;
    fs::path levelDirectory_;
    double unitsPerMetre_ = 1.0;  ///< the level's scale
    Level level_;
    int cameraLine_ = 0;  ///< line of the <camera> read, 0 while there is none
    int propsSeen_ = 0;   ///< <prop> elements read so far, good or not
    std::map<std::string, int> spawnLines_;  ///< every spawn name seen, even in a broken spawn
    std::map<std::string, int> propLines_;   ///< every loaded prop's name and its line
};

}  // namespace

LevelLoadResult loadLevelFromText(std::string_view xml, const std::string& fileName) {
    LevelLoadResult result;
    Reporter report(fileName, result.diagnostics);
    tinyxml2::XMLDocument document;
    const XMLElement* root = parseRootElement(xml, "level", document, report);
    if (!root) return result;

    LevelParser parser(report, fileName);
    Level level = parser.parse(*root);
    if (report.errorCount() == 0) result.level = std::move(level);
    return result;
}

LevelLoadResult loadLevelFile(const std::string& path) {
    LevelLoadResult result;
    Reporter report(path, result.diagnostics);
    std::optional<std::string> text = readUserFile(path, "level", report);
    if (!text) return result;
    return loadLevelFromText(*text, path);
}

}  // namespace paper
