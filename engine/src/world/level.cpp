// Level loader: *.level.xml (read with tinyxml2) into a Level in metres, radians and
// counter-clockwise convex polygons.
//
// Every element is checked on its own and checking goes on after an error, so an author
// gets the whole list of problems in one go, like from a compiler; the Level is handed
// out only when the list holds no error. Rejected: stopping at the first problem (one
// edit-reload cycle per typo) and exceptions (they cannot carry several problems).

#include "world/level.h"

#include <tinyxml2.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <map>
#include <system_error>

namespace paper {
namespace {

namespace fs = std::filesystem;
using tinyxml2::XMLElement;

/// Largest |value| accepted: metres for lengths, file units for other numbers. Anything
/// bigger is a typo, and float positions that far out have centimetre-sized steps.
constexpr double kMaxMagnitude = 1.0e6;
/// Most steps one <stairs> may expand into.
constexpr int kMaxStairSteps = 64;
/// Without a <camera>, the start view frames the terrain's bounds on a 16:9 screen (the
/// default viewport) with a margin, kept within these heights in metres.
constexpr float kAutoCameraAspect = 16.0f / 9.0f;
constexpr float kAutoCameraMargin = 1.1f;
constexpr float kAutoCameraMinHeight = 3.0f;
constexpr float kAutoCameraMaxHeight = 30.0f;
/// Three polygon points whose turn has |sin| below this count as collinear: the solver
/// would get a degenerate edge normal from them.
constexpr double kCollinearSine = 1.0e-5;

enum class Need { Required, Optional };
enum class Range { Any, Positive, NonNegative, UnitInterval };

/// Appends diagnostics for one file, prefixed with the element they are about.
class Reporter {
public:
    Reporter(const std::string& file, std::vector<Diagnostic>& out) : file_(file), out_(out) {}

    void error(int line, std::string message) { add(Severity::Error, line, std::move(message)); }
    void warning(int line, std::string message) { add(Severity::Warning, line, std::move(message)); }
    void error(const XMLElement& element, const std::string& message) {
        error(element.GetLineNum(), std::string(element.Name()) + ": " + message);
    }
    void warning(const XMLElement& element, const std::string& message) {
        warning(element.GetLineNum(), std::string(element.Name()) + ": " + message);
    }
    int errorCount() const { return errorCount_; }

private:
    void add(Severity severity, int line, std::string message) {
        if (severity == Severity::Error) ++errorCount_;
        out_.push_back(Diagnostic{severity, file_, line, std::move(message)});
    }

    const std::string& file_;
    std::vector<Diagnostic>& out_;
    int errorCount_ = 0;
};

/// Reads one element's attributes, converting lengths to metres. It remembers which
/// attributes were asked for, so whatever else the element carries is reported as unknown;
/// callers therefore read every attribute even after one failed.
class AttributeReader {
public:
    AttributeReader(const XMLElement& element, Reporter& report, double unitsPerMetre)
        : element_(element), report_(report), unitsPerMetre_(unitsPerMetre) {}

    /// A string; a required one must not be empty.
    std::string text(const char* name, Need need) {
        const char* raw = find(name, need);
        if (!raw) return {};
        if (need == Need::Required && *raw == '\0') fail(name, "must not be empty", "''");
        return raw;
    }

    /// One of allowed; the first is the default when the attribute is absent.
    std::string choice(const char* name, std::initializer_list<const char*> allowed) {
        const char* raw = find(name, Need::Optional);
        if (!raw) return *allowed.begin();
        std::string supported;
        for (const char* option : allowed) {
            if (std::string_view(raw) == option) return raw;
            supported += (supported.empty() ? "" : ", ") + std::string(option);
        }
        report_.error(element_, "attribute '" + std::string(name) + "' has unknown value '" + raw +
                                    "' (supported: " + supported + ")");
        return *allowed.begin();
    }

    /// A position or size in the file's units, returned in metres (0 when invalid).
    float length(const char* name, Range range) {
        std::optional<double> value = number(name, Need::Required, range);
        if (!value) return 0.0f;
        double metres = *value / unitsPerMetre_;
        if (std::abs(metres) > kMaxMagnitude) {
            fail(name, "is too large (more than 1e6 m)", element_.Attribute(name));
            return 0.0f;
        }
        return static_cast<float>(metres);
    }

    /// Degrees counter-clockwise in the file, radians returned; 0 when absent.
    float angle(const char* name) { return degreesToRadians(plain(name, Need::Optional, Range::Any, 0.0)); }

    /// A number that is not a length (mass, friction, scale): no unit conversion.
    float plain(const char* name, Need need, Range range, double fallback) {
        std::optional<double> value = number(name, need, range);
        if (!value) return static_cast<float>(fallback);
        if (std::abs(*value) > kMaxMagnitude) {
            fail(name, "is too large (more than 1e6)", element_.Attribute(name));
            return static_cast<float>(fallback);
        }
        return static_cast<float>(*value);
    }

    /// A required whole number in [min, max].
    int count(const char* name, int min, int max) {
        const char* raw = find(name, Need::Required);
        if (!raw) return min;
        std::string_view view(raw);
        long long value = 0;
        auto [end, status] = std::from_chars(view.data(), view.data() + view.size(), value);
        if (status != std::errc{} || end != view.data() + view.size()) {
            fail(name, "must be a whole number", quoted(raw));
            return min;
        }
        if (value < min || value > max) {
            fail(name, "must be between " + std::to_string(min) + " and " + std::to_string(max), raw);
            return min;
        }
        return static_cast<int>(value);
    }

    /// "#rrggbb" or "#rrggbbaa"; fallback when absent or invalid.
    Color color(const char* name, Color fallback) {
        const char* raw = find(name, Need::Optional);
        if (!raw) return fallback;
        std::string_view view(raw);
        unsigned char channels[4] = {0, 0, 0, 255};
        bool valid = (view.size() == 7 || view.size() == 9) && view[0] == '#';
        for (size_t i = 0; valid && 1 + 2 * i < view.size(); ++i) {
            const char* first = view.data() + 1 + 2 * i;
            auto [end, status] = std::from_chars(first, first + 2, channels[i], 16);
            valid = status == std::errc{} && end == first + 2;
        }
        if (!valid) {
            fail(name, "must be '#rrggbb' or '#rrggbbaa'", quoted(raw));
            return fallback;
        }
        return Color{channels[0], channels[1], channels[2], channels[3]};
    }

    void warnUnknownAttributes() {
        for (const tinyxml2::XMLAttribute* a = element_.FirstAttribute(); a; a = a->Next()) {
            if (std::find(known_.begin(), known_.end(), std::string_view(a->Name())) == known_.end())
                report_.warning(element_, "unknown attribute '" + std::string(a->Name()) + "' ignored");
        }
    }

private:
    static std::string quoted(const char* raw) { return "'" + std::string(raw) + "'"; }

    const char* find(const char* name, Need need) {
        known_.push_back(name);
        const char* raw = element_.Attribute(name);
        if (!raw && need == Need::Required)
            report_.error(element_, "missing required attribute '" + std::string(name) + "'");
        return raw;
    }

    void fail(const char* name, const std::string& requirement, const std::string& shown) {
        report_.error(element_, "attribute '" + std::string(name) + "' " + requirement + ", got " + shown);
    }

    /// The value in file units; nullopt when absent or invalid (and then reported).
    /// std::from_chars rather than strtod: it ignores the locale and does not skip
    /// leading spaces, so "1,5" or " 1" fail instead of being half read.
    std::optional<double> number(const char* name, Need need, Range range) {
        const char* raw = find(name, need);
        if (!raw) return std::nullopt;
        std::string_view view(raw);
        double value = 0.0;
        auto [end, status] = std::from_chars(view.data(), view.data() + view.size(), value);
        if (status == std::errc::result_out_of_range) {
            fail(name, "is out of range", quoted(raw));
            return std::nullopt;
        }
        if (status != std::errc{} || end != view.data() + view.size()) {
            fail(name, "must be a number", quoted(raw));
            return std::nullopt;
        }
        if (!std::isfinite(value)) {
            fail(name, "must be a finite number", quoted(raw));
            return std::nullopt;
        }
        const char* requirement = nullptr;
        switch (range) {
            case Range::Any: break;
            case Range::Positive: if (!(value > 0.0)) requirement = "must be > 0"; break;
            case Range::NonNegative: if (value < 0.0) requirement = "must be >= 0"; break;
            case Range::UnitInterval:
                if (value < 0.0 || value > 1.0) requirement = "must be between 0 and 1";
                break;
        }
        if (requirement) {
            fail(name, requirement, raw);
            return std::nullopt;
        }
        return value;
    }

    const XMLElement& element_;
    Reporter& report_;
    double unitsPerMetre_;
    std::vector<std::string_view> known_;
};

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
            else report_.warning(e->GetLineNum(), "unknown element '" + std::string(name) + "' ignored");
        }
        // Broken terrain elements already have errors; this is for a file that has none at all.
        if (terrainElements == 0)
            report_.warning(root, "no terrain: characters and props will fall forever");
        if (cameraLine_ == 0 && !level_.terrain.empty()) frameTerrain();
        return std::move(level_);
    }

private:
    AttributeReader reader(const XMLElement& element) {
        return AttributeReader(element, report_, unitsPerMetre_);
    }

    void readHeader(const XMLElement& root) {
        AttributeReader in = reader(root);
        level_.name = in.text("name", Need::Required);
        std::string format = in.text("format", Need::Required);
        if (!format.empty() && format != "1")
            report_.error(root, "unsupported format '" + format + "' (supported: 1)");
        std::string units = in.choice("units", {"m", "cm", "px"});
        double defaultScale = units == "m" ? 1.0 : 100.0;
        unitsPerMetre_ = in.plain("scale", Need::Optional, Range::Positive, defaultScale);
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
        level_.camera.center = {in.length("x", Range::Any), in.length("y", Range::Any)};
        level_.camera.viewHeight = in.length("height", Range::Positive);
        in.warnUnknownAttributes();
        warnChildElements(element);
    }

    /// friction, restitution and colour, shared by every kind of terrain.
    TerrainPiece readSurface(AttributeReader& in, const XMLElement& element, TerrainKind kind) {
        TerrainPiece piece;
        piece.kind = kind;
        piece.line = element.GetLineNum();
        piece.friction = in.plain("friction", Need::Optional, Range::NonNegative, piece.friction);
        piece.restitution = in.plain("restitution", Need::Optional, Range::UnitInterval, piece.restitution);
        piece.color = in.color("color", piece.color);
        return piece;
    }

    void readBox(const XMLElement& element) {
        int errorsBefore = report_.errorCount();
        AttributeReader in = reader(element);
        Vec2 center{in.length("x", Range::Any), in.length("y", Range::Any)};
        Vec2 size{in.length("width", Range::Positive), in.length("height", Range::Positive)};
        float angle = in.angle("angle");
        TerrainPiece piece = readSurface(in, element, TerrainKind::Box);
        in.warnUnknownAttributes();
        warnChildElements(element);
        if (report_.errorCount() > errorsBefore) return;
        piece.points = rectangle(center, 0.5f * size, angle);
        level_.terrain.push_back(std::move(piece));
    }

    void readRamp(const XMLElement& element) {
        int errorsBefore = report_.errorCount();
        AttributeReader in = reader(element);
        float x = in.length("x", Range::Any), y = in.length("y", Range::Any);
        float width = in.length("width", Range::Positive), height = in.length("height", Range::Positive);
        bool upRight = in.choice("direction", {"up-right", "up-left"}) == "up-right";
        TerrainPiece piece = readSurface(in, element, TerrainKind::Ramp);
        in.warnUnknownAttributes();
        warnChildElements(element);
        if (report_.errorCount() > errorsBefore) return;
        float highX = upRight ? x + width : x;
        piece.points = {{x, y}, {x + width, y}, {highX, y + height}};
        level_.terrain.push_back(std::move(piece));
    }

    void readStairs(const XMLElement& element) {
        int errorsBefore = report_.errorCount();
        AttributeReader in = reader(element);
        float x = in.length("x", Range::Any), y = in.length("y", Range::Any);
        int steps = in.count("steps", 1, kMaxStairSteps);
        float stepWidth = in.length("step_width", Range::Positive);
        float stepHeight = in.length("step_height", Range::Positive);
        bool upRight = in.choice("direction", {"up-right", "up-left"}) == "up-right";
        TerrainPiece surface = readSurface(in, element, TerrainKind::Step);
        in.warnUnknownAttributes();
        warnChildElements(element);
        if (report_.errorCount() > errorsBefore) return;
        for (int i = 0; i < steps; ++i) {
            int heightInSteps = upRight ? i + 1 : steps - i;
            TerrainPiece step = surface;
            step.points = axisBox(x + float(i) * stepWidth, y, x + float(i + 1) * stepWidth,
                                  y + float(heightInSteps) * stepHeight);
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
            piece.points.push_back({point.length("x", Range::Any), point.length("y", Range::Any)});
            pointLines.push_back(child->GetLineNum());
            point.warnUnknownAttributes();
        }
        int count = int(piece.points.size());
        if (count < 3 || count > kMaxPolygonVertices) {
            report_.error(element, "has " + std::to_string(count) + " points, needs 3 to " +
                                       std::to_string(kMaxPolygonVertices));
            return;
        }
        if (report_.errorCount() > errorsBefore || !checkConvex(element, piece.points, pointLines)) return;
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
        in.choice("shape", {"box"});
        prop.position = {in.length("x", Range::Any), in.length("y", Range::Any)};
        Vec2 size{in.length("width", Range::Positive), in.length("height", Range::Positive)};
        prop.halfExtents = 0.5f * size;
        prop.angle = in.angle("angle");
        prop.mass = in.plain("mass", Need::Required, Range::Positive, prop.mass);
        prop.friction = in.plain("friction", Need::Optional, Range::NonNegative, prop.friction);
        prop.restitution = in.plain("restitution", Need::Optional, Range::UnitInterval, prop.restitution);
        prop.color = in.color("color", prop.color);
        in.warnUnknownAttributes();
        warnChildElements(element);
        if (report_.errorCount() > errorsBefore) return;
        level_.props.push_back(prop);
    }

    void readSpawn(const XMLElement& element) {
        int errorsBefore = report_.errorCount();
        AttributeReader in = reader(element);
        SpawnPoint spawn;
        spawn.line = element.GetLineNum();
        spawn.name = in.text("name", Need::Required);
        std::string rig = in.text("rig", Need::Required);
        spawn.position = {in.length("x", Range::Any), in.length("y", Range::Any)};
        spawn.facingRight = in.choice("facing", {"right", "left"}) == "right";
        in.warnUnknownAttributes();
        warnChildElements(element);
        if (!spawn.name.empty()) {
            auto [first, inserted] = spawnLines_.emplace(spawn.name, spawn.line);
            if (!inserted)
                report_.error(element, "duplicate spawn name '" + spawn.name + "' (first at line " +
                                           std::to_string(first->second) + ")");
        }
        if (!rig.empty()) {
            // Checked here rather than when the rig loads, so the message points at this line.
            spawn.rigPath = (levelDirectory_ / rig).lexically_normal().string();
            std::error_code status;
            if (!fs::is_regular_file(spawn.rigPath, status)) {
                bool exists = fs::exists(spawn.rigPath, status);
                report_.error(element, "rig file '" + spawn.rigPath + "' " +
                                           (exists ? "is not a regular file" : "not found"));
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
    std::map<std::string, int> spawnLines_;  ///< every spawn name seen, even in a broken spawn
};

/// tinyxml2's ErrorStr() is "Error=XML_ERROR_… ErrorID=7 (0x7) Line number=2: detail";
/// this keeps the detail and replaces the enum name with words.
std::string describeXmlError(const tinyxml2::XMLDocument& document) {
    std::string what;
    switch (document.ErrorID()) {
        case tinyxml2::XML_ERROR_PARSING_ELEMENT: what = "broken element (unclosed '<' or missing '>'?)"; break;
        case tinyxml2::XML_ERROR_PARSING_ATTRIBUTE:
            what = "broken attribute (missing quotes, '=' or a repeated name?)";
            break;
        case tinyxml2::XML_ERROR_PARSING_TEXT: what = "broken text or entity"; break;
        case tinyxml2::XML_ERROR_PARSING_CDATA: what = "unterminated CDATA section"; break;
        case tinyxml2::XML_ERROR_PARSING_COMMENT: what = "unterminated comment"; break;
        case tinyxml2::XML_ERROR_PARSING_DECLARATION: what = "broken <?xml ...?> declaration"; break;
        case tinyxml2::XML_ERROR_MISMATCHED_ELEMENT:
            what = "closing tag does not match the open element";
            break;
        default: what = tinyxml2::XMLDocument::ErrorIDToName(document.ErrorID()); break;
    }
    std::string_view full = document.ErrorStr();
    size_t lineField = full.find("Line number=");
    size_t detail = lineField == std::string_view::npos ? lineField : full.find(": ", lineField);
    if (detail != std::string_view::npos) {
        std::string_view text = full.substr(detail + 2);
        constexpr std::string_view kElementPrefix = "XMLElement name=";
        if (text.substr(0, kElementPrefix.size()) == kElementPrefix)
            what += " in <" + std::string(text.substr(kElementPrefix.size())) + ">";
        else
            what += ": " + std::string(text);
    }
    return what;
}

}  // namespace

LevelLoadResult loadLevelFromText(std::string_view xml, const std::string& fileName) {
    LevelLoadResult result;
    Reporter report(fileName, result.diagnostics);
    if (xml.find_first_not_of(" \t\r\n") == std::string_view::npos) {
        report.error(0, "file is empty");
        return result;
    }
    tinyxml2::XMLDocument document;
    if (document.Parse(xml.data(), xml.size()) != tinyxml2::XML_SUCCESS) {
        report.error(document.ErrorLineNum(), "malformed XML: " + describeXmlError(document));
        return result;
    }
    const XMLElement* root = document.RootElement();
    if (!root) {
        report.error(0, "no root element; expected <level>");
        return result;
    }
    if (std::string_view(root->Name()) != "level") {
        report.error(root->GetLineNum(),
                     "root element is <" + std::string(root->Name()) + ">, expected <level>");
        return result;
    }
    // tinyxml2 accepts several top-level elements; XML does not, so say they are skipped.
    for (const XMLElement* extra = root->NextSiblingElement(); extra; extra = extra->NextSiblingElement()) {
        report.warning(extra->GetLineNum(),
                       "unknown element '" + std::string(extra->Name()) + "' after <level> ignored");
    }

    LevelParser parser(report, fileName);
    Level level = parser.parse(*root);
    if (report.errorCount() == 0) result.level = std::move(level);
    return result;
}

LevelLoadResult loadLevelFile(const std::string& path) {
    LevelLoadResult result;
    Reporter report(path, result.diagnostics);
    std::error_code status;
    fs::file_type type = fs::status(path, status).type();
    if (type == fs::file_type::not_found) {
        report.error(0, "cannot open level: file not found");
        return result;
    }
    if (status) {
        report.error(0, "cannot open level: " + status.message());
        return result;
    }
    if (type == fs::file_type::directory) {
        report.error(0, "cannot open level: it is a directory, not a file");
        return result;
    }
    if (type != fs::file_type::regular) {
        report.error(0, "cannot open level: not a regular file");
        return result;
    }
    std::ifstream file(path, std::ios::binary);
    std::string text;
    if (file.is_open()) text.assign(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
    if (!file.is_open() || file.bad()) {
        report.error(0, "cannot open level: the file could not be read");
        return result;
    }
    return loadLevelFromText(text, path);
}

}  // namespace paper
