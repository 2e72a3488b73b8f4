// Level loader: the harness level, unit conversion, the geometry each element expands
// into, and one test per kind of error with the exact line it must point at.
// Fixtures are in tests/engine/data/levels; each names its problem in a comment.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "paper/level.h"

namespace fs = std::filesystem;
using namespace paper;

namespace {

std::string fixturePath(const std::string& name) {
    return std::string(PAPERDOLL_TEST_DATA_DIR) + "/levels/" + name;
}

LevelLoadResult loadFixture(const std::string& name) { return loadLevelFile(fixturePath(name)); }

/// Loads a level whose <level> tag is on line 1, so body line N is file line N + 1.
LevelLoadResult loadBody(const std::string& body) {
    return loadLevelFromText("<level name=\"t\" format=\"1\">\n" + body + "\n</level>", "inline.level.xml");
}

std::vector<Diagnostic> diagnosticsOf(const LevelLoadResult& result, Severity severity) {
    std::vector<Diagnostic> out;
    for (const Diagnostic& d : result.diagnostics)
        if (d.severity == severity) out.push_back(d);
    return out;
}

/// The load failed with exactly these errors, in file order: {line, message}.
void requireErrors(const LevelLoadResult& result, const std::vector<std::pair<int, std::string>>& expected) {
    CHECK_FALSE(result.level.has_value());
    std::vector<Diagnostic> errors = diagnosticsOf(result, Severity::Error);
    REQUIRE(errors.size() == expected.size());
    for (size_t i = 0; i < expected.size(); ++i) {
        CHECK(errors[i].line == expected[i].first);
        CHECK(errors[i].message == expected[i].second);
    }
}

void checkPoints(const std::vector<Vec2>& actual, const std::vector<Vec2>& expected) {
    REQUIRE(actual.size() == expected.size());
    for (size_t i = 0; i < expected.size(); ++i) {
        CHECK(actual[i].x == Approx(expected[i].x).margin(1e-6));
        CHECK(actual[i].y == Approx(expected[i].y).margin(1e-6));
    }
}

/// Every turn strictly left: counter-clockwise and convex.
bool isCounterClockwiseConvex(const std::vector<Vec2>& points) {
    size_t n = points.size();
    for (size_t i = 0; i < n; ++i) {
        Vec2 a = points[i], b = points[(i + 1) % n], c = points[(i + 2) % n];
        if (cross(b - a, c - b) <= 0.0f) return false;
    }
    return true;
}

Rect boundsOf(const std::vector<Vec2>& points) {
    Rect r{points[0], points[0]};
    for (Vec2 p : points) {
        r.min = {std::min(r.min.x, p.x), std::min(r.min.y, p.y)};
        r.max = {std::max(r.max.x, p.x), std::max(r.max.y, p.y)};
    }
    return r;
}

}  // namespace

TEST_CASE("the harness level loads cleanly with ground, ramp, stairs, props and a spawn") {
    LevelLoadResult result = loadLevelFile(std::string(PAPERDOLL_CONTENT_DIR) + "/levels/harness.level.xml");
    std::string printed;
    for (const Diagnostic& d : result.diagnostics) printed += d.format() + "\n";
    INFO(printed);
    CHECK(result.diagnostics.empty());
    REQUIRE(result.level.has_value());
    const Level& level = *result.level;
    CHECK(level.name == "harness");

    // The ground: a box at least 40 m wide whose top edge is y = 0, from x = -12 to 30.
    auto ground = std::find_if(level.terrain.begin(), level.terrain.end(), [](const TerrainPiece& p) {
        Rect b = boundsOf(p.points);
        return p.kind == TerrainKind::Box && b.max.x - b.min.x >= 40.0f;
    });
    REQUIRE(ground != level.terrain.end());
    Rect groundBounds = boundsOf(ground->points);
    CHECK(groundBounds.max.y == Approx(0.0).margin(1e-6));
    CHECK(groundBounds.min.x == Approx(-12.0));
    CHECK(groundBounds.max.x == Approx(30.0));
    CHECK(std::count_if(ground->points.begin(), ground->points.end(), [](Vec2 p) { return p.y == 0.0f; }) == 2);

    // The ramp: about 20 degrees.
    auto ramp = std::find_if(level.terrain.begin(), level.terrain.end(),
                             [](const TerrainPiece& p) { return p.kind == TerrainKind::Ramp; });
    REQUIRE(ramp != level.terrain.end());
    Rect rampBounds = boundsOf(ramp->points);
    float rampDegrees = radiansToDegrees(
        std::atan((rampBounds.max.y - rampBounds.min.y) / (rampBounds.max.x - rampBounds.min.x)));
    CHECK(rampDegrees == Approx(20.0).margin(2.0));

    // The stairs: 6 steps of 0.4 m by 0.18 m, rising to the right from the ground.
    std::vector<Rect> steps;
    for (const TerrainPiece& p : level.terrain)
        if (p.kind == TerrainKind::Step) steps.push_back(boundsOf(p.points));
    REQUIRE(steps.size() == 6);
    for (size_t i = 0; i < steps.size(); ++i) {
        CHECK(steps[i].min.y == Approx(0.0).margin(1e-6));
        CHECK(steps[i].max.y == Approx(0.18 * double(i + 1)));
        CHECK(steps[i].max.x - steps[i].min.x == Approx(0.4));
    }

    REQUIRE(level.props.size() >= 3);
    REQUIRE(level.props.size() <= 5);
    for (const Prop& prop : level.props) {
        CHECK(prop.mass >= 2.0f);
        CHECK(prop.mass <= 10.0f);
    }

    REQUIRE(level.spawns.size() == 1);
    const SpawnPoint& player = level.spawns[0];
    CHECK(player.name == "player");
    CHECK(player.position.y == 0.0f);
    CHECK(player.facingRight);
    CHECK(fs::is_regular_file(player.asset));

    // On the default 16:9 viewport the start view shows the spawn and the whole ramp.
    const CameraView& camera = level.camera;
    float halfWidth = 0.5f * camera.viewHeight * 16.0f / 9.0f;
    CHECK(camera.center.x - halfWidth < player.position.x);
    CHECK(camera.center.x + halfWidth > rampBounds.max.x);
    CHECK(camera.center.y - 0.5f * camera.viewHeight < 0.0f);
    CHECK(camera.center.y + 0.5f * camera.viewHeight > 1.77f);
}

TEST_CASE("the same level in m, cm and px gives the same metres") {
    LevelLoadResult metres = loadFixture("good_units_m.level.xml");
    REQUIRE(metres.level.has_value());
    CHECK(metres.diagnostics.empty());
    const Level& m = *metres.level;
    CHECK(m.terrain.size() == 6);  // box, ramp, 3 steps, polygon

    for (const char* other : {"good_units_cm.level.xml", "good_units_px.level.xml"}) {
        INFO(other);
        LevelLoadResult result = loadFixture(other);
        REQUIRE(result.level.has_value());
        CHECK(result.diagnostics.empty());
        const Level& o = *result.level;

        REQUIRE(o.terrain.size() == m.terrain.size());
        for (size_t i = 0; i < m.terrain.size(); ++i) {
            CHECK(o.terrain[i].kind == m.terrain[i].kind);
            checkPoints(o.terrain[i].points, m.terrain[i].points);
        }
        REQUIRE(o.props.size() == 1);
        CHECK(o.props[0].position.x == Approx(m.props[0].position.x).margin(1e-6));
        CHECK(o.props[0].position.y == Approx(m.props[0].position.y).margin(1e-6));
        CHECK(o.props[0].halfExtents.x == Approx(m.props[0].halfExtents.x).margin(1e-6));
        CHECK(o.props[0].halfExtents.y == Approx(m.props[0].halfExtents.y).margin(1e-6));
        CHECK(o.props[0].angle == m.props[0].angle);
        CHECK(o.props[0].mass == m.props[0].mass);
        REQUIRE(o.spawns.size() == 1);
        CHECK(o.spawns[0].position.x == Approx(m.spawns[0].position.x).margin(1e-6));
        CHECK(o.spawns[0].position.y == Approx(m.spawns[0].position.y).margin(1e-6));
        CHECK(o.camera.center.x == Approx(m.camera.center.x).margin(1e-6));
        CHECK(o.camera.center.y == Approx(m.camera.center.y).margin(1e-6));
        CHECK(o.camera.viewHeight == Approx(m.camera.viewHeight).margin(1e-6));
    }

    // Worked by hand from the metres file: prop 0.5 x 0.3 m turned 15 degrees.
    CHECK(m.props[0].halfExtents.x == Approx(0.25));
    CHECK(m.props[0].halfExtents.y == Approx(0.15));
    CHECK(m.props[0].angle == Approx(15.0 * 3.14159265358979 / 180.0));
    CHECK(m.spawns[0].position.x == Approx(-1.25));
}

TEST_CASE("px defaults to 100 px per metre, m to 1 and cm to 100") {
    auto widthOf = [](const char* attributes) {
        LevelLoadResult r = loadLevelFromText(std::string("<level name=\"t\" format=\"1\" ") + attributes +
                                                  "><box x=\"0\" y=\"0\" width=\"200\" height=\"1\"/></level>",
                                              "inline.level.xml");
        REQUIRE(r.level.has_value());
        Rect b = boundsOf(r.level->terrain[0].points);
        return b.max.x - b.min.x;
    };
    CHECK(widthOf("") == Approx(200.0));
    CHECK(widthOf("units=\"m\"") == Approx(200.0));
    CHECK(widthOf("units=\"cm\"") == Approx(2.0));
    CHECK(widthOf("units=\"px\"") == Approx(2.0));
    CHECK(widthOf("units=\"px\" scale=\"40\"") == Approx(5.0));
}

TEST_CASE("props are named by the level or numbered in file order, a bad one keeping its number") {
    LevelLoadResult r = loadBody(R"(<box x="0" y="-1" width="20" height="2"/>
<prop x="0" y="1" width="1" height="1" mass="2"/>
<prop name="big crate" x="2" y="1" width="1" height="1" mass="2"/>
<prop x="4" y="1" width="1" height="1" mass="2"/>)");
    REQUIRE(r.level.has_value());
    REQUIRE(r.level->props.size() == 3);
    CHECK(r.level->props[0].name == "prop0");
    CHECK(r.level->props[1].name == "big crate");
    CHECK(r.level->props[2].name == "prop2");  // its place among the props, named or not
    requireErrors(loadBody(R"(<prop name="" x="0" y="1" width="1" height="1" mass="2"/>)"),
                  {{2, "prop: attribute 'name' must not be empty, got ''"}});
}

TEST_CASE("a box is centred on x, y and turned counter-clockwise by its angle") {
    LevelLoadResult r = loadBody(R"(<box x="1" y="2" width="4" height="2" angle="90"/>)");
    REQUIRE(r.level.has_value());
    const TerrainPiece& box = r.level->terrain[0];
    CHECK(box.kind == TerrainKind::Box);
    // Half extents (2, 1) turned a quarter: the corner (-2,-1) goes to (1,-2), and so on.
    checkPoints(box.points, {{2, 0}, {2, 4}, {0, 4}, {0, 0}});
    CHECK(isCounterClockwiseConvex(box.points));
}

TEST_CASE("a ramp puts its high corner above the end its direction names") {
    LevelLoadResult r = loadBody(R"(<ramp x="2" y="1" width="3" height="1.5"/>
<ramp x="2" y="1" width="3" height="1.5" direction="up-right"/>
<ramp x="2" y="1" width="3" height="1.5" direction="up-left"/>)");
    REQUIRE(r.level.has_value());
    const std::vector<TerrainPiece>& t = r.level->terrain;
    REQUIRE(t.size() == 3);
    for (const TerrainPiece& ramp : t) {
        CHECK(ramp.kind == TerrainKind::Ramp);
        CHECK(isCounterClockwiseConvex(ramp.points));
    }
    checkPoints(t[0].points, {{2, 1}, {5, 1}, {5, 2.5f}});  // up-right is the default
    checkPoints(t[1].points, {{2, 1}, {5, 1}, {5, 2.5f}});
    checkPoints(t[2].points, {{2, 1}, {5, 1}, {2, 2.5f}});
}

TEST_CASE("stairs expand into steps resting on y, tallest at the high end") {
    LevelLoadResult r = loadBody(R"(<stairs x="1" y="0.5" steps="3" step_width="0.4" step_height="0.2"/>
<stairs x="1" y="0.5" steps="3" step_width="0.4" step_height="0.2" direction="up-left"/>)");
    REQUIRE(r.level.has_value());
    const std::vector<TerrainPiece>& t = r.level->terrain;
    REQUIRE(t.size() == 6);
    for (size_t i = 0; i < t.size(); ++i) {
        CHECK(t[i].kind == TerrainKind::Step);
        CHECK(t[i].line == (i < 3 ? 2 : 3));
        CHECK(isCounterClockwiseConvex(t[i].points));
    }
    checkPoints(t[0].points, {{1.0f, 0.5f}, {1.4f, 0.5f}, {1.4f, 0.7f}, {1.0f, 0.7f}});
    checkPoints(t[1].points, {{1.4f, 0.5f}, {1.8f, 0.5f}, {1.8f, 0.9f}, {1.4f, 0.9f}});
    checkPoints(t[2].points, {{1.8f, 0.5f}, {2.2f, 0.5f}, {2.2f, 1.1f}, {1.8f, 1.1f}});
    checkPoints(t[3].points, {{1.0f, 0.5f}, {1.4f, 0.5f}, {1.4f, 1.1f}, {1.0f, 1.1f}});
    checkPoints(t[4].points, {{1.4f, 0.5f}, {1.8f, 0.5f}, {1.8f, 0.9f}, {1.4f, 0.9f}});
    checkPoints(t[5].points, {{1.8f, 0.5f}, {2.2f, 0.5f}, {2.2f, 0.7f}, {1.8f, 0.7f}});
}

TEST_CASE("polygons come out counter-clockwise and convex whatever the input winding") {
    LevelLoadResult r = loadBody(
        R"(<polygon><point x="0" y="0"/><point x="2" y="0"/><point x="2" y="1"/><point x="0" y="1"/></polygon>
<polygon><point x="0" y="0"/><point x="0" y="1"/><point x="2" y="1"/><point x="2" y="0"/></polygon>)");
    REQUIRE(r.level.has_value());
    REQUIRE(r.level->terrain.size() == 2);
    const TerrainPiece& given = r.level->terrain[0];
    const TerrainPiece& reversed = r.level->terrain[1];
    CHECK(given.kind == TerrainKind::Polygon);
    CHECK(isCounterClockwiseConvex(given.points));
    CHECK(isCounterClockwiseConvex(reversed.points));
    checkPoints(given.points, {{0, 0}, {2, 0}, {2, 1}, {0, 1}});
    checkPoints(reversed.points, {{2, 0}, {2, 1}, {0, 1}, {0, 0}});
}

TEST_CASE("surface attributes and defaults reach the terrain, props and spawns") {
    LevelLoadResult r = loadBody(
        R"(<box x="0" y="-0.5" width="10" height="1" friction="0.9" restitution="0.25" color="#10203080"/>
<ramp x="0" y="0" width="1" height="1" color="#A0b0C0"/>
<prop x="0" y="1" width="0.5" height="0.5" mass="5"/>)");
    REQUIRE(r.level.has_value());
    const TerrainPiece& box = r.level->terrain[0];
    CHECK(box.friction == Approx(0.9));
    CHECK(box.restitution == Approx(0.25));
    CHECK((box.color.r == 0x10 && box.color.g == 0x20 && box.color.b == 0x30 && box.color.a == 0x80));
    const TerrainPiece& ramp = r.level->terrain[1];
    CHECK(ramp.friction == Approx(0.6));
    CHECK(ramp.restitution == 0.0f);
    CHECK((ramp.color.r == 0xa0 && ramp.color.g == 0xb0 && ramp.color.b == 0xc0 && ramp.color.a == 255));
    const Prop& prop = r.level->props[0];
    CHECK(prop.angle == 0.0f);
    CHECK(prop.friction == Approx(0.6));
    CHECK(prop.line == 4);
    CHECK(r.level->path == "inline.level.xml");
    CHECK(r.level->name == "t");
}

TEST_CASE("without a camera the start view frames the terrain, within 3 to 30 m") {
    LevelLoadResult wide = loadBody(R"(<box x="5" y="-0.5" width="16" height="1"/>
<box x="5" y="2" width="1" height="4"/>)");
    REQUIRE(wide.level.has_value());
    // Bounds x -3..13, y -1..4: centre (5, 1.5); 16 m wide needs 16 / (16/9) = 9 m, plus 10 %.
    CHECK(wide.level->camera.center.x == Approx(5.0));
    CHECK(wide.level->camera.center.y == Approx(1.5));
    CHECK(wide.level->camera.viewHeight == Approx(9.9));

    LevelLoadResult small = loadBody(R"(<box x="0" y="0" width="1" height="1"/>)");
    REQUIRE(small.level.has_value());
    CHECK(small.level->camera.viewHeight == Approx(3.0));

    LevelLoadResult huge = loadBody(R"(<box x="0" y="0" width="500" height="1"/>)");
    REQUIRE(huge.level.has_value());
    CHECK(huge.level->camera.viewHeight == Approx(30.0));
}

TEST_CASE("a level without terrain loads with a warning and the default camera") {
    LevelLoadResult r = loadBody("");
    REQUIRE(r.level.has_value());
    std::vector<Diagnostic> warnings = diagnosticsOf(r, Severity::Warning);
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0].line == 1);
    CHECK(warnings[0].message == "level: no terrain: characters and props will fall forever");
    CHECK(r.level->camera.viewHeight == CameraView{}.viewHeight);
}

TEST_CASE("error: malformed XML points at the broken element") {
    LevelLoadResult r = loadFixture("bad_malformed.level.xml");
    CHECK_FALSE(r.level.has_value());
    REQUIRE(r.diagnostics.size() == 1);
    CHECK(r.diagnostics[0].severity == Severity::Error);
    CHECK(r.diagnostics[0].line == 5);
    CHECK_THAT(r.diagnostics[0].message, Catch::Matchers::StartsWith("malformed XML: broken attribute"));
    CHECK_THAT(r.diagnostics[0].message, Catch::Matchers::EndsWith("in <box>"));

    // Binary bytes with a '<' in them say what is wrong in words, not as tinyxml2's
    // XML_ERROR_PARSING.
    LevelLoadResult garbage = loadLevelFromText("\xd0<\x12\x9b", "x.level.xml");
    CHECK_FALSE(garbage.level.has_value());
    REQUIRE(garbage.diagnostics.size() == 1);
    const std::string parsing = "malformed XML: an element never closed (its closing tag missing, or the file cut short), "
                                "or a '<' that starts no element (a binary file?)";
    CHECK(garbage.diagnostics[0].message == parsing);

    // A level cut short (no </level>): the same words, at the element left open.
    LevelLoadResult cut = loadLevelFromText("<level name=\"x\" format=\"1\">\n  <box x=\"0\" y=\"0\" width=\"1\" height=\"1\"/>\n",
                                            "x.level.xml");
    CHECK_FALSE(cut.level.has_value());
    REQUIRE(cut.diagnostics.size() == 1);
    CHECK(cut.diagnostics[0].line == 1);
    CHECK(cut.diagnostics[0].message == parsing);
}

TEST_CASE("error: the root element is not <level>") {
    requireErrors(loadFixture("bad_root.level.xml"), {{3, "root element is <rig>, expected <level>"}});
}

TEST_CASE("error: unknown format version") {
    requireErrors(loadFixture("bad_format.level.xml"), {{3, "level: unsupported format '2' (supported: 1)"}});
    requireErrors(loadLevelFromText("<level name=\"t\"/>", "x"),
                  {{1, "level: missing required attribute 'format'"}});
}

TEST_CASE("error: unknown units or a bad scale") {
    // The units attribute is on line 4, but the line reported is the element's.
    requireErrors(loadFixture("bad_units.level.xml"),
                  {{3, "level: attribute 'units' has unknown value 'ft' (supported: m, cm, px)"}});
    requireErrors(loadLevelFromText("<level name=\"t\" format=\"1\" scale=\"0\"/>", "x"),
                  {{1, "level: attribute 'scale' must be > 0, got 0"}});
}

TEST_CASE("error: a missing required attribute") {
    requireErrors(loadFixture("bad_missing_attribute.level.xml"),
                  {{5, "spawn: missing required attribute 'asset'"}});
    requireErrors(loadBody(R"(<prop x="0" y="0" width="1" height="1"/>)"),
                  {{2, "prop: missing required attribute 'mass'"}});
    requireErrors(loadBody(R"(<box x="0" y="0" height="1"/>)"), {{2, "box: missing required attribute 'width'"}});
}

TEST_CASE("error: numbers are parsed strictly") {
    requireErrors(loadFixture("bad_number.level.xml"),
                  {{5, "box: attribute 'width' must be a number, got '1.5m'"}});
    for (const char* text : {"", "abc", " 1", "1 ", "1,5", "0x10", "--1", "1e"}) {
        INFO("width=\"" << text << "\"");
        requireErrors(loadBody(std::string("<box x=\"0\" y=\"0\" height=\"1\" width=\"") + text + "\"/>"),
                      {{2, "box: attribute 'width' must be a number, got '" + std::string(text) + "'"}});
    }
    requireErrors(loadBody(R"(<stairs x="0" y="0" steps="2.5" step_width="1" step_height="1"/>)"),
                  {{2, "stairs: attribute 'steps' must be a whole number, got '2.5'"}});
    requireErrors(loadBody(R"(<stairs x="0" y="0" steps="65" step_width="1" step_height="1"/>)"),
                  {{2, "stairs: attribute 'steps' must be between 1 and 64, got 65"}});
}

TEST_CASE("error: NaN and infinity") {
    requireErrors(loadFixture("bad_nonfinite.level.xml"),
                  {{4, "box: attribute 'x' must be a finite number, got 'nan'"},
                   {5, "prop: attribute 'y' must be a finite number, got 'inf'"},
                   {6, "ramp: attribute 'height' must be a finite number, got '-inf'"}});
    requireErrors(loadBody(R"(<box x="1e999" y="0" width="1" height="1"/>)"),
                  {{2, "box: attribute 'x' is out of range, got '1e999'"}});
}

TEST_CASE("error: absurd magnitudes after unit conversion") {
    requireErrors(loadFixture("bad_too_large.level.xml"),
                  {{4, "box: attribute 'x' is too large (more than 1e6 m), got 2e8 (2e+06 m)"}});
    // In pixels at half a pixel a metre, 600000 px are 1.2e6 m: the metres are shown beside.
    requireErrors(loadLevelFromText(R"(<level name="t" format="1" units="px" scale="0.5">
<box x="600000" y="0" width="4" height="1"/></level>)", "px.level.xml"),
                  {{2, "box: attribute 'x' is too large (more than 1e6 m), got 600000 (1.2e+06 m)"}});
    // 1e8 cm is exactly 1e6 m: still allowed.
    LevelLoadResult edge = loadLevelFromText(
        R"(<level name="t" format="1" units="cm"><box x="1e8" y="0" width="100" height="100"/></level>)", "x");
    CHECK(edge.level.has_value());
}

TEST_CASE("error: negative or zero sizes") {
    requireErrors(loadFixture("bad_size.level.xml"), {{4, "box: attribute 'width' must be > 0, got -1"},
                                                      {5, "box: attribute 'height' must be > 0, got 0"},
                                                      {6, "stairs: attribute 'step_width' must be > 0, got 0"}});
    requireErrors(loadBody(R"(<camera x="0" y="0" height="0"/>)"),
                  {{2, "camera: attribute 'height' must be > 0, got 0"}});
}

TEST_CASE("error: friction, restitution, direction and facing out of range") {
    requireErrors(loadBody(R"(<box x="0" y="0" width="1" height="1" friction="-0.1" restitution="1.5"/>
<ramp x="0" y="0" width="1" height="1" direction="down"/>
<spawn name="p" asset="x.rig.xml" x="0" y="0" facing="up"/>)"),
                  {{2, "box: attribute 'friction' must be >= 0, got -0.1"},
                   {2, "box: attribute 'restitution' must be between 0 and 1, got 1.5"},
                   {3, "ramp: attribute 'direction' has unknown value 'down' (supported: up-right, up-left)"},
                   {4, "spawn: attribute 'facing' has unknown value 'up' (supported: right, left)"},
                   {4, "spawn: asset file 'x.rig.xml' not found"}});
}

TEST_CASE("error: zero or negative prop mass") {
    requireErrors(loadFixture("bad_mass.level.xml"), {{5, "prop: attribute 'mass' must be > 0, got 0"},
                                                      {6, "prop: attribute 'mass' must be > 0, got -2"}});
}

TEST_CASE("error: a non-convex polygon names the point that bends inwards") {
    requireErrors(loadFixture("bad_concave.level.xml"), {{8, "polygon: not convex at point 4"}});
    // A pentagram turns the same way at every point but winds round twice.
    requireErrors(loadBody(R"(<polygon><point x="0" y="1"/><point x="-0.59" y="-0.81"/><point x="0.95" y="0.31"/>
<point x="-0.95" y="0.31"/><point x="0.59" y="-0.81"/></polygon>)"),
                  {{2, "polygon: edges cross each other; list the points in order around the outline"}});
}

TEST_CASE("error: collinear, repeated and zero-area polygon points") {
    requireErrors(loadFixture("bad_collinear.level.xml"),
                  {{6, "polygon: point 2 is collinear with its neighbours; remove it"},
                   {10, "polygon: has zero area (all points on one line)"}});
    requireErrors(loadBody(R"(<polygon><point x="0" y="0"/><point x="1" y="0"/>
<point x="1" y="0"/><point x="0" y="1"/></polygon>)"),
                  {{2, "polygon: point 2 repeats a neighbouring point"}});
}

TEST_CASE("error: a terrain piece with a side under 1 mm, at its line") {
    // The solver cannot take such a side: the plugin refused the level later, naming only
    // "terrain piece 1", with no file or line.
    requireErrors(loadBody(R"(<box x="0" y="0.5" width="1e-6" height="1"/>)"),
                  {{2, "box: 'width' is 1e-06 m: shorter than 1 mm, the shortest side the solver takes"}});
    requireErrors(loadBody(R"(<box x="0" y="-1" width="20" height="2"/>
<stairs x="0" y="0" steps="3" step_width="0.0005" step_height="0.2"/>
<ramp x="2" y="0" width="1" height="0.0002"/>)"),
                  {{3, "stairs: 'step_width' is 0.0005 m: shorter than 1 mm, the shortest side the solver takes"},
                   {4, "ramp: 'height' is 0.0002 m: shorter than 1 mm, the shortest side the solver takes"}});
    // Said as written: at y = -0.5, a height of 1e-9 m is lost in floats ("a side of 0 m").
    requireErrors(loadBody(R"(<box x="0" y="-0.5" width="1" height="1e-9"/>)"),
                  {{2, "box: 'height' is 1e-09 m: shorter than 1 mm, the shortest side the solver takes"}});
    // A prop too: under the contacts' 2 mm slop it sank whole into the ground.
    requireErrors(loadBody(R"(<prop x="0" y="1" width="0.0005" height="0.0005" mass="1"/>)"),
                  {{2, "prop: 'width' is 0.0005 m: shorter than 1 mm, the shortest side the solver takes"},
                   {2, "prop: 'height' is 0.0005 m: shorter than 1 mm, the shortest side the solver takes"}});
    // A polygon's side, measured from its points.
    requireErrors(loadBody(R"(<polygon><point x="0" y="0"/><point x="1" y="0"/><point x="1" y="0.0002"/></polygon>)"),
                  {{2, "polygon: has a side of 0.0002 m, shorter than 1 mm"}});
    // 1 mm itself is taken, where floats round it a little short too.
    CHECK(loadBody(R"(<box x="3" y="0.5" width="0.001" height="1"/>)").level);
    CHECK(loadBody(R"(<box x="30" y="0.5" width="0.001" height="1"/>)").level);
}

TEST_CASE("error: too few or too many polygon points") {
    requireErrors(loadFixture("bad_point_count.level.xml"),
                  {{4, "polygon: has 2 points, needs 3 to 8"}, {5, "polygon: has 9 points, needs 3 to 8"}});
}

TEST_CASE("error: unknown prop shape") {
    requireErrors(loadFixture("bad_prop_shape.level.xml"),
                  {{5, "prop: attribute 'shape' has unknown value 'circle' (supported: box)"}});
}

TEST_CASE("error: the rig file must exist, resolved against the level's directory") {
    fs::path levels = fs::path(PAPERDOLL_TEST_DATA_DIR) / "levels";
    std::string missing = (levels / "no_such.rig.xml").lexically_normal().string();
    std::string directory = (levels / ".").lexically_normal().string();
    requireErrors(loadFixture("bad_missing_rig.level.xml"),
                  {{5, "spawn: asset file '" + missing + "' not found"},
                   {6, "spawn: asset file '" + directory + "' is not a regular file"}});
}

TEST_CASE("error: duplicate spawn name") {
    requireErrors(loadFixture("bad_duplicate_spawn.level.xml"),
                  {{6, "spawn: duplicate spawn name 'player' (first at line 4)"}});
}

TEST_CASE("error: bad colours") {
    requireErrors(loadFixture("bad_color.level.xml"),
                  {{4, "box: attribute 'color' must be '#rrggbb' or '#rrggbbaa', got '#12345'"},
                   {5, "prop: attribute 'color' must be '#rrggbb' or '#rrggbbaa', got 'red'"},
                   {6, "ramp: attribute 'color' must be '#rrggbb' or '#rrggbbaa', got '#gg0000'"}});
}

TEST_CASE("error: two cameras") {
    requireErrors(loadFixture("bad_two_cameras.level.xml"),
                  {{6, "camera: only one camera allowed (the first is at line 4)"}});
}

TEST_CASE("error: a missing file") {
    std::string path = fixturePath("no_such.level.xml");
    requireErrors(loadLevelFile(path), {{0, "cannot open level: file not found"}});
    CHECK(loadLevelFile(path).diagnostics[0].file == path);
}

TEST_CASE("error: a directory instead of a file") {
    requireErrors(loadLevelFile(std::string(PAPERDOLL_TEST_DATA_DIR) + "/levels"),
                  {{0, "cannot open level: it is a directory, not a file"}});
}

TEST_CASE("error: an empty file") {
    requireErrors(loadFixture("empty.level.xml"), {{0, "file is empty; expected a <level> element"}});
    requireErrors(loadLevelFromText(" \n\t\n", "blank.level.xml"), {{0, "file is empty; expected a <level> element"}});
    requireErrors(loadLevelFromText("<!-- only a comment -->", "comment.level.xml"),
                  {{0, "no root element; expected <level>"}});
}

TEST_CASE("every error in a file is reported and the level is not loaded") {
    LevelLoadResult r = loadFixture("bad_many_errors.level.xml");
    CHECK_FALSE(r.level.has_value());
    CHECK(diagnosticsOf(r, Severity::Error).size() == 4);
    CHECK(diagnosticsOf(r, Severity::Warning).size() == 1);
    requireErrors(r, {{4, "box: attribute 'width' must be a number, got 'abc'"},
                      {5, "ramp: missing required attribute 'height'"},
                      {7, "prop: attribute 'mass' must be > 0, got 0"},
                      {8, "spawn: missing required attribute 'name'"}});
}

TEST_CASE("unknown elements and attributes are warnings and the level still loads") {
    LevelLoadResult r = loadFixture("unknown_element.level.xml");
    REQUIRE(r.level.has_value());
    CHECK(r.level->terrain.size() == 1);
    CHECK_FALSE(hasErrors(r.diagnostics));
    std::vector<Diagnostic> warnings = diagnosticsOf(r, Severity::Warning);
    REQUIRE(warnings.size() == 2);
    CHECK(warnings[0].line == 4);
    CHECK(warnings[0].message == "box: unknown attribute 'colour' ignored; did you mean 'color'?");
    CHECK(warnings[1].line == 5);
    CHECK(warnings[1].message == "unknown element 'tree' ignored");
}

TEST_CASE("an unknown element a slip away from a real one names it") {
    LevelLoadResult r = loadLevelFromText("<level name=\"x\" format=\"1\" units=\"m\">\n"
                                          "  <bxo x=\"0\" y=\"1\" width=\"1\" height=\"1\"/>\n"
                                          "  <box x=\"0\" y=\"-0.5\" width=\"9\" height=\"1\"/>\n"
                                          "  <tree/>\n"
                                          "</level>\n",
                                          "slip.level.xml");
    REQUIRE(r.level.has_value());
    std::vector<Diagnostic> warnings = diagnosticsOf(r, Severity::Warning);
    REQUIRE(warnings.size() == 2);
    CHECK(warnings[0].format() == "slip.level.xml:2: warning: unknown element 'bxo' ignored; did you mean 'box'?");
    CHECK(warnings[1].format() == "slip.level.xml:4: warning: unknown element 'tree' ignored");
}

TEST_CASE("two props of one name load, with a warning at the second") {
    LevelLoadResult r = loadLevelFromText("<level name=\"x\" format=\"1\" units=\"m\">\n"
                                          "  <box x=\"0\" y=\"-0.5\" width=\"9\" height=\"1\"/>\n"
                                          "  <prop name=\"crate\" x=\"0\" y=\"0.2\" width=\"0.4\" height=\"0.4\" mass=\"2\"/>\n"
                                          "  <prop name=\"crate\" x=\"1\" y=\"0.2\" width=\"0.4\" height=\"0.4\" mass=\"2\"/>\n"
                                          "</level>\n",
                                          "twins.level.xml");
    REQUIRE(r.level.has_value());
    CHECK(r.level->props.size() == 2);
    std::vector<Diagnostic> warnings = diagnosticsOf(r, Severity::Warning);
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0].format() ==
          "twins.level.xml:4: warning: prop: duplicate name 'crate' is the prop's at line 3: the stats list both under it");
    // An unnamed prop is named by its place (prop1 here): a prop named so before it collides.
    LevelLoadResult unnamed = loadLevelFromText("<level name=\"x\" format=\"1\" units=\"m\">\n"
                                                "  <prop name=\"prop1\" x=\"0\" y=\"0.2\" width=\"0.4\" height=\"0.4\" mass=\"2\"/>\n"
                                                "  <prop x=\"1\" y=\"0.2\" width=\"0.4\" height=\"0.4\" mass=\"2\"/>\n"
                                                "  <box x=\"0\" y=\"-0.5\" width=\"9\" height=\"1\"/>\n"
                                                "</level>\n",
                                                "default.level.xml");
    REQUIRE(unnamed.level.has_value());
    std::vector<Diagnostic> said = diagnosticsOf(unnamed, Severity::Warning);
    REQUIRE(said.size() == 1);
    CHECK(said[0].format() ==
          "default.level.xml:3: warning: prop: its default name 'prop1' is the prop's at line 2: the stats list both under it");
}

TEST_CASE("format() gives FILE:LINE: error: message") {
    Diagnostic error{Severity::Error, "file", 12, "box: attribute 'width' must be > 0, got -1"};
    CHECK(error.format() == "file:12: error: box: attribute 'width' must be > 0, got -1");
    Diagnostic warning{Severity::Warning, "a.level.xml", 3, "unknown element 'foo' ignored"};
    CHECK(warning.format() == "a.level.xml:3: warning: unknown element 'foo' ignored");
    Diagnostic whole{Severity::Error, "gone.level.xml", 0, "cannot open level: file not found"};
    CHECK(whole.format() == "gone.level.xml: error: cannot open level: file not found");

    LevelLoadResult r = loadFixture("bad_size.level.xml");
    REQUIRE_FALSE(r.diagnostics.empty());
    CHECK(r.diagnostics[0].format() ==
          fixturePath("bad_size.level.xml") + ":4: error: box: attribute 'width' must be > 0, got -1");
}
