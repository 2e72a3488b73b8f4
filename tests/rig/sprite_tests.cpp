// Cut-out art in rigs: <image> and <sprite> load in internal units with their defaults,
// every error comes with its line, bodies take their radius from the sprites, and saving
// keeps the elements byte for byte. The PNGs are written by each test (test_png.h) into a
// folder of its own; rig lines are numbered in comments where a test names them.

#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "character/drawn_shapes.h"
#include "paper/png_image.h"
#include "rig/rig_builder.h"
#include "rig/rig_loader.h"
#include "rig/rig_saver.h"
#include "rig_tools/rig_generator.h"
#include "rig_test_support.h"
#include "test_png.h"

namespace fs = std::filesystem;
using namespace ragdoll;
using namespace rigtest;

namespace {

/// A fresh folder per test, removed after it.
struct TempDir {
    fs::path path;
    TempDir() {
        static int counter = 0;
        path = fs::temp_directory_path() / ("rig_sprite_tests_" + std::to_string(::getpid()) + "_" + std::to_string(++counter));
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~TempDir() {
        std::error_code ignored;
        fs::remove_all(path, ignored);
    }
    std::string file(const std::string& name) const { return (path / name).string(); }
};

/// Loads `text` as the rig file `name` in dir (so its images resolve beside it).
RigLoadResult loadIn(const TempDir& dir, const std::string& text, const std::string& name = "cutout.rig.xml") {
    return loadRigFromText(text, dir.file(name));
}

std::vector<Diagnostic> errorsOf(const RigLoadResult& result) {
    std::vector<Diagnostic> out;
    for (const Diagnostic& d : result.diagnostics)
        if (d.severity == Severity::Error) out.push_back(d);
    return out;
}

/// The load failed and gave exactly these errors in order, all in `file`: {line, message}.
void requireErrors(const RigLoadResult& result, const std::string& file, const std::vector<std::pair<int, std::string>>& expected) {
    CHECK(result.rig == nullptr);
    const std::vector<Diagnostic> errors = errorsOf(result);
    INFO(describe(result.diagnostics));
    REQUIRE(errors.size() == expected.size());
    for (size_t i = 0; i < expected.size(); ++i) {
        CAPTURE(i);
        CHECK(errors[i].file == file);
        CHECK(errors[i].line == expected[i].first);
        CHECK(errors[i].message == expected[i].second);
    }
}

/// A pixel rig (scale 100): lines 1–6, the torso pointing up, an arm pointing left.
const std::string kHeader = R"(<rig name="cutout" format="1" units="px">
  <image name="atlas" file="atlas.png"/>
  <bone name="torso" x="0" y="100" angle="90" length="50"/>
  <bone name="head" parent="torso" length="30"/>
  <bone name="forearm.L" parent="torso" x="45" angle="180" length="30"/>
  <bone name="hand.L" parent="forearm.L" length="10"/>
)";

}  // namespace

TEST_CASE("images and sprites load in metres and radians, with their defaults", "[rig][sprites]") {
    TempDir dir;
    testpng::writeGrey(dir.path / "atlas.png", 64, 32);
    const RigLoadResult result = loadIn(dir, kHeader + R"(
  <sprite bone="forearm.L" image="atlas" rect="16 8 40 24" x="13.5" y="2" angle="-90" width="9" height="27" z="4" color="#ff804020"/>
  <sprite bone="head" image="atlas" width="26" height="26"/>
</rig>
)");
    INFO(describe(result.diagnostics));
    REQUIRE(result.rig);
    // Only that it has no bodies: the art itself draws no complaint.
    REQUIRE(result.diagnostics.size() == 1);
    CHECK(result.diagnostics[0].message.ends_with("has no <body> elements: it builds no ragdoll, and a level cannot "
                                                  "spawn it until `paperdoll rig generate` adds them"));
    const RigDefinition& rig = *result.rig;

    REQUIRE(rig.images.size() == 1);
    const RigImage& image = rig.images[0];
    CHECK(image.name == "atlas");
    CHECK(image.file == "atlas.png");
    CHECK(image.path == dir.file("atlas.png"));
    CHECK(image.width == 64);
    CHECK(image.height == 32);
    CHECK(image.line == 2);
    CHECK(rig.findImage("atlas") == 0);

    REQUIRE(rig.sprites.size() == 2);
    const RigSprite& arm = rig.sprites[0];
    CHECK(arm.bone == rig.findBone("forearm_L"));
    CHECK(arm.image == 0);
    CHECK(arm.rect == PixelRect{16, 8, 40, 24});
    CHECK(arm.centre.x == Approx(0.135));  // px / 100
    CHECK(arm.centre.y == Approx(0.02));
    CHECK(arm.angle == Approx(-90.0 * kDegree));
    CHECK(arm.width == Approx(0.09));
    CHECK(arm.height == Approx(0.27));
    CHECK(arm.z == 4);
    CHECK(arm.color == std::array<std::uint8_t, 4>{255, 128, 64, 32});
    CHECK(arm.order == 0);
    CHECK(arm.line == 8);

    const RigSprite& head = rig.sprites[1];
    CHECK(head.bone == rig.findBone("head"));
    CHECK(head.rect == PixelRect{0, 0, 64, 32});  // the whole image
    CHECK(head.centre.x == Approx(0.15));          // the midpoint of the 30 px head
    CHECK(head.centre.y == 0.0);
    CHECK(head.angle == 0.0);
    CHECK(head.z == 0);
    CHECK(head.color == std::array<std::uint8_t, 4>{255, 255, 255, 255});
    CHECK(head.order == 1);
}

TEST_CASE("a sprite knows where its art is in its rect: the texels at least half opaque", "[rig][sprites]") {
    // A 16 × 8 RGBA image, clear but for a block of art at x 3..6, y 2..6 (alpha 200) and a
    // faint haze at x 12 (alpha 100, under half).
    TempDir dir;
    std::vector<std::uint8_t> rgba(16 * 8 * 4, 0);
    for (int y = 2; y <= 6; ++y)
        for (int x = 3; x <= 6; ++x) rgba[size_t(4 * (y * 16 + x) + 3)] = 200;
    for (int y = 0; y < 8; ++y) rgba[size_t(4 * (y * 16 + 12) + 3)] = 100;
    testpng::writeBytes(dir.path / "atlas.png", testpng::encode(16, 8, 4, rgba));
    const RigLoadResult result = loadIn(dir, kHeader + R"(
  <sprite bone="forearm.L" image="atlas" rect="0 0 16 8" width="16" height="8"/>
  <sprite bone="head" image="atlas" rect="5 4 10 4" width="10" height="4"/>
  <sprite bone="torso" image="atlas" rect="8 0 8 8" width="8" height="8"/>
</rig>
)");
    INFO(describe(result.diagnostics));
    REQUIRE(result.rig);
    REQUIRE(result.rig->sprites.size() == 3);
    CHECK(result.rig->sprites[0].opaque == PixelRect{3, 2, 4, 5});
    CHECK(result.rig->sprites[1].opaque == PixelRect{5, 4, 2, 3});  // the art's corner in that rect
    CHECK(result.rig->sprites[2].opaque.width == 0);                // only haze: nothing drawn there
}

TEST_CASE("a sprite's flip mirrors its art along x, y or both, and anything else is refused with its line",
          "[rig][sprites]") {
    TempDir dir;
    testpng::writeGrey(dir.path / "atlas.png", 32, 32);
    const RigLoadResult good = loadIn(dir, kHeader + R"(
  <sprite bone="torso" image="atlas" width="10" height="10"/>
  <sprite bone="torso" image="atlas" width="10" height="10" flip="none"/>
  <sprite bone="torso" image="atlas" width="10" height="10" flip="x"/>
  <sprite bone="torso" image="atlas" width="10" height="10" flip="y"/>
  <sprite bone="torso" image="atlas" width="10" height="10" flip="xy"/>
</rig>
)");
    INFO(describe(good.diagnostics));
    REQUIRE(good.rig);
    REQUIRE(good.rig->sprites.size() == 5);
    const std::pair<bool, bool> expected[] = {{false, false}, {false, false}, {true, false}, {false, true}, {true, true}};
    const char* names[] = {"none", "none", "x", "y", "xy"};
    for (size_t i = 0; i < 5; ++i) {
        CAPTURE(i);
        CHECK(good.rig->sprites[i].flipX == expected[i].first);
        CHECK(good.rig->sprites[i].flipY == expected[i].second);
        CHECK(std::string(flipName(good.rig->sprites[i])) == names[i]);
    }

    // Lines 8-12: each bad value once, at its line, as for any other choice.
    const RigLoadResult bad = loadIn(dir, kHeader + R"(
  <sprite bone="torso" image="atlas" width="10" height="10" flip="z"/>
  <sprite bone="torso" image="atlas" width="10" height="10" flip="X"/>
  <sprite bone="torso" image="atlas" width="10" height="10" flip="yx"/>
  <sprite bone="torso" image="atlas" width="10" height="10" flip=""/>
  <sprite bone="torso" image="atlas" width="10" height="10" flip="true"/>
</rig>
)");
    requireErrors(bad, dir.file("cutout.rig.xml"), {
        {8, "sprite: attribute 'flip' has unknown value 'z' (supported: none, x, y, xy)"},
        {9, "sprite: attribute 'flip' has unknown value 'X' (supported: none, x, y, xy)"},
        {10, "sprite: attribute 'flip' has unknown value 'yx' (supported: none, x, y, xy)"},
        {11, "sprite: attribute 'flip' has unknown value '' (supported: none, x, y, xy)"},
        {12, "sprite: attribute 'flip' has unknown value 'true' (supported: none, x, y, xy)"},
    });
}

TEST_CASE("a flipped sprite's drawn shape is its art's, mirrored with it", "[rig][sprites][drawn]") {
    // A 16 x 8 image, clear but for a block of art at x 3..6, y 2..6 (its left half, above
    // the middle), drawn 1 px a centimetre on the head: the part is 16 x 8 cm, centred on the
    // head's midpoint (15, 0) cm.
    TempDir dir;
    std::vector<std::uint8_t> rgba(16 * 8 * 4, 0);
    for (int y = 2; y <= 6; ++y)
        for (int x = 3; x <= 6; ++x) rgba[size_t(4 * (y * 16 + x) + 3)] = 255;
    testpng::writeBytes(dir.path / "atlas.png", testpng::encode(16, 8, 4, rgba));
    const RigLoadResult result = loadIn(dir, kHeader + R"(
  <sprite bone="head" image="atlas" width="16" height="8"/>
  <sprite bone="head" image="atlas" width="16" height="8" flip="x"/>
  <sprite bone="head" image="atlas" width="16" height="8" flip="y"/>
  <sprite bone="head" image="atlas" width="16" height="8" flip="xy"/>
  <sprite bone="head" image="atlas" width="16" height="8" angle="180"/>
</rig>
)");
    INFO(describe(result.diagnostics));
    REQUIRE(result.rig);
    const RigDefinition& rig = *result.rig;
    // The opaque rect stays in the image's pixels, whatever the flip.
    for (const RigSprite& sprite : rig.sprites) CHECK(sprite.opaque == PixelRect{3, 2, 4, 5});
    // Every bone at (1, 2) m pointing along +x, so the head's frame is the world's moved.
    const std::vector<BonePose> poses(rig.bones.size(), BonePose{{1.0, 2.0}, 0.0});
    std::vector<DrawnShape> shapes;
    drawnShapes(rig, poses, 1.0, false, shapes);
    REQUIRE(shapes.size() == 5);
    // The art's box in the part: x from -5 to -1 cm, y from +2 to -3 cm (its middle at
    // (-3, -0.5) cm); 4 cm wide and 5 tall, so a capsule upright through its middle, 2 cm
    // round, its ends 0.5 cm either side. The part's centre is at (1.15, 2) m.
    struct Expected {
        double x, y;  ///< the capsule's middle in the world, metres
    };
    const Expected middles[] = {{1.12, 1.995}, {1.18, 1.995}, {1.12, 2.005}, {1.18, 2.005}, {1.18, 2.005}};
    for (size_t i = 0; i < 5; ++i) {
        CAPTURE(i, flipName(rig.sprites[i]));
        const DrawnShape& shape = shapes[i];
        CHECK(shape.radius == Approx(0.02));
        CHECK(0.5 * (shape.a.x + shape.b.x) == Approx(middles[i].x).margin(1e-12));
        CHECK(0.5 * (shape.a.y + shape.b.y) == Approx(middles[i].y).margin(1e-12));
        CHECK(std::abs(shape.a.x - shape.b.x) == Approx(0.0).margin(1e-12));
        CHECK(std::abs(shape.a.y - shape.b.y) == Approx(0.01).margin(1e-12));
    }
    // A character facing left mirrors each part across its bone: flip="y" mirrored comes
    // back to where the unflipped part is drawn facing right.
    std::vector<DrawnShape> facingLeft;
    drawnShapes(rig, poses, 1.0, true, facingLeft);
    CHECK(0.5 * (facingLeft[2].a.y + facingLeft[2].b.y) == Approx(1.995).margin(1e-12));
    CHECK(0.5 * (facingLeft[0].a.y + facingLeft[0].b.y) == Approx(2.005).margin(1e-12));
}

TEST_CASE("a body's radius reads where a flipped sprite's image runs: flip xy is a half turn", "[rig][sprites][builder]") {
    TempDir dir;
    testpng::writeGrey(dir.path / "atlas.png", 16, 16);
    // On the torso a part 40 x 12 along it and one across it, 30 x 20. Along the bone the
    // body is half the first part's height, 6; turned half round (its image running
    // backwards) it counts as across, and the body is half the larger of the smaller sides, 10.
    auto radiusWith = [&](const std::string& attributes) {
        const RigLoadResult result = loadIn(dir, kHeader + R"(
  <sprite bone="torso" image="atlas" width="40" height="12" )" + attributes + R"(/>
  <sprite bone="torso" image="atlas" angle="90" width="30" height="20"/>
</rig>
)");
        INFO(describe(result.diagnostics));
        REQUIRE(result.rig);
        return artRadius(*result.rig, result.rig->findBone("torso"));
    };
    CHECK(radiusWith("") == Approx(0.06));
    CHECK(radiusWith("flip=\"y\"") == Approx(0.06));
    CHECK(radiusWith("angle=\"180\"") == Approx(0.10));
    CHECK(radiusWith("flip=\"xy\"") == Approx(0.10));   // the same drawing as angle 180
    CHECK(radiusWith("flip=\"x\"") == Approx(0.10));    // as flip y at 180
    CHECK(radiusWith("flip=\"y\" angle=\"180\"") == Approx(0.10));
    CHECK(radiusWith("flip=\"xy\" angle=\"180\"") == Approx(0.06));
}

TEST_CASE("every art error is listed with its line, and loading goes on past each", "[rig][sprites][errors]") {
    TempDir dir;
    testpng::writeGrey(dir.path / "atlas.png", 64, 32);
    testpng::writeBytes(dir.path / "notes.png", {'h', 'e', 'l', 'l', 'o'});
    const RigLoadResult result = loadIn(dir, kHeader + R"(  <image name="atlas" file="atlas.png"/>
  <image name="gone" file="gone.png"/>
  <image name="notes" file="notes.png"/>
  <sprite bone="tail" image="atlas" width="10" height="10"/>
  <sprite bone="head" image="atlsa" width="10" height="10"/>
  <sprite bone="head" image="atlas" rect="60 0 8 8" width="10" height="10"/>
  <sprite bone="head" image="atlas" rect="0 30 8 3" width="10" height="10"/>
  <sprite bone="head" image="atlas" width="0" height="-2"/>
  <sprite bone="head" image="atlas" width="10" height="10" z="1.5"/>
  <sprite bone="head" image="atlas" rect="1 2 3" height="10"/>
  <sprite bone="head" image="gone" rect="0 0 900 900" width="10" height="10"/>
  <sprite bone="head" image="atlas" rect="9000 0 2 8" width="10" height="10"/>
  <sprite bone="head" image="atlas" rect="0 0 2147483647 8" width="10" height="10"/>
  <sprite bone="head" image="atlas" rect="0 0 99999999999999999999 8" width="10" height="10"/>
</rig>
)");
    requireErrors(result, dir.file("cutout.rig.xml"), {
        {7, "image: duplicate name 'atlas' (first at line 2)"},
        {8, "image: file 'gone.png' (read as " + dir.file("gone.png") + "): file not found"},
        {9, "image: file 'notes.png' (read as " + dir.file("notes.png") +
                "): not a PNG file (its first bytes are not the PNG signature)"},
        {10, "sprite: bone 'tail' is not a bone of this rig"},
        {11, "sprite: image 'atlsa' is not an <image> of this rig; did you mean 'atlas'?"},
        {12, "sprite: rect '60 0 8 8' reaches outside image 'atlas' (64 x 32 pixels)"},
        {13, "sprite: rect '0 30 8 3' reaches outside image 'atlas' (64 x 32 pixels)"},
        {14, "sprite: attribute 'width' must be > 0, got 0"},
        {14, "sprite: attribute 'height' must be > 0, got -2"},
        {15, "sprite: attribute 'z' must be a whole number, got '1.5'"},
        {16, "sprite: attribute 'rect' must be 'x y width height': four whole numbers of pixels, x and y >= 0, "
             "width and height > 0, got '1 2 3'"},
        {16, "sprite: missing required attribute 'width'"},
        // An image that failed to load is not checked against again (its error stands).
        // Whole numbers past the largest image reach outside it as any other (they were said
        // not to be whole numbers).
        {18, "sprite: rect '9000 0 2 8' reaches outside image 'atlas' (64 x 32 pixels)"},
        {19, "sprite: rect '0 0 2147483647 8' reaches outside image 'atlas' (64 x 32 pixels)"},
        {20, "sprite: rect '0 0 99999999999999999999 8' reaches outside image 'atlas' (64 x 32 pixels)"},
    });
}

TEST_CASE("a truncated, an oversized and a corrupt PNG are refused with the cause", "[rig][sprites][errors]") {
    TempDir dir;
    const std::vector<std::uint8_t> good = testpng::encode(16, 16, 4, testpng::filled(16, 16, {200, 100, 50, 255}));
    testpng::writeBytes(dir.path / "cut.png", testpng::truncated(good, good.size() / 2));
    testpng::writeBytes(dir.path / "huge.png", testpng::encode(9000, 2, 1, testpng::filled(9000, 2, {1})));
    testpng::writeBytes(dir.path / "damaged.png", testpng::corrupted(good));
    const RigLoadResult result = loadIn(dir, R"(<rig name="bad art" format="1">
  <bone name="torso" length="1"/>
  <image name="cut" file="cut.png"/>
  <image name="huge" file="huge.png"/>
  <image name="damaged" file="damaged.png"/>
</rig>
)");
    CHECK(result.rig == nullptr);
    const std::vector<Diagnostic> errors = errorsOf(result);
    INFO(describe(result.diagnostics));
    REQUIRE(errors.size() == 3);
    CHECK(errors[0].line == 3);
    CHECK(errors[0].message ==
          "image: file 'cut.png' (read as " + dir.file("cut.png") + "): truncated: the file ends before the image does");
    CHECK(errors[1].line == 4);
    CHECK(errors[1].message ==
          "image: file 'huge.png' (read as " + dir.file("huge.png") + "): 9000 x 2 pixels: larger than 8192 a side");
    CHECK(errors[2].line == 5);
    CHECK(errors[2].message.starts_with("image: file 'damaged.png' (read as " + dir.file("damaged.png") +
                                        "): not a readable PNG: IDAT: "));
}

TEST_CASE("a rig drawn only by sprites builds bodies as thick as its parts", "[rig][sprites][builder]") {
    TempDir dir;
    testpng::writeGrey(dir.path / "atlas.png", 32, 32);
    // The hand's part at 30° to its bone, written as any of the angles that are 30°.
    const std::string handAngle = GENERATE("30", "-330", "390");
    CAPTURE(handAngle);
    const RigLoadResult result = loadIn(dir, kHeader + R"(
  <sprite bone="torso" image="atlas" width="60" height="24"/>
  <sprite bone="torso" image="atlas" angle="-20" width="20" height="30"/>
  <sprite bone="torso" image="atlas" angle="90" width="50" height="70"/>
  <sprite bone="head" image="atlas" width="26" height="26"/>
  <sprite bone="forearm.L" image="atlas" x="13.5" angle="-90" width="9" height="27"/>
  <sprite bone="forearm.L" image="atlas" angle="60" width="30" height="11"/>
  <sprite bone="hand.L" image="atlas" angle=")" + handAngle + R"(" width="12" height="8"/>
  <sprite bone="hand.L" image="atlas" angle="150" width="20" height="16"/>
  <body bone="torso" mass="8"/>
  <body bone="head" shape="circle" mass="1.5"/>
  <body bone="forearm.L" mass="1"/>
  <body bone="hand.L" shape="box" mass="0.5"/>
  <joint parent="torso" child="head"/>
  <joint parent="torso" child="forearm.L"/>
  <joint parent="forearm.L" child="hand.L"/>
</rig>
)");
    INFO(describe(result.diagnostics));
    REQUIRE(result.rig);
    const RigDefinition& rig = *result.rig;
    for (const RigBody& body : rig.bodies) CHECK(body.radiusSource == RadiusSource::Visual);
    // Torso: the tallest part lying within 30° of the bone is 30 px (at -20°); the one
    // across it (90°) does not count.
    CHECK(rig.bodies[0].radius == Approx(0.15));
    CHECK(rig.bodies[1].radius == Approx(0.13));
    // Forearm: no part along it, so half the largest smaller side: 30 × 11 gives 11.
    CHECK(rig.bodies[2].radius == Approx(0.055));
    // Hand: 30° is still along the bone (8 px high); the bigger part at 150° is not.
    CHECK(rig.bodies[3].radius == Approx(0.04));
    CHECK(artRadius(rig, rig.findBone("hand.L")) == Approx(0.04));

    WorldDef worldDef = defaultWorldDef();
    worldDef.gravity = {0.0, 0.0};
    World world(worldDef);
    Ragdoll ragdoll = buildRagdoll(world, rig, defaultRagdollDef());
    REQUIRE(ragdoll.bodies.size() == 4);
    const double expected[] = {0.15, 0.13, 0.055};
    for (size_t i = 0; i < 3; ++i) {
        CAPTURE(i);
        const Shape* shape = world.bodyShape(ragdoll.bodies[i]);
        REQUIRE(shape);
        CHECK(shape->geometry.radius == Approx(expected[i]));
    }
    // The box is the hand's 10 px length by twice the radius.
    const Shape* box = world.bodyShape(ragdoll.bodies[3]);
    REQUIRE(box);
    REQUIRE(box->type == ShapeType::Polygon);
    double minY = 1e9, maxY = -1e9;
    for (int v = 0; v < box->geometry.count; ++v) {
        minY = std::min(minY, box->geometry.vertices[v].y);
        maxY = std::max(maxY, box->geometry.vertices[v].y);
    }
    CHECK(maxY - minY == Approx(0.08));
}

TEST_CASE("rig generate sizes the bodies of bones with sprites from them", "[rig][sprites][generator]") {
    TempDir dir;
    testpng::writeGrey(dir.path / "atlas.png", 16, 16);
    const RigLoadResult bones = loadIn(dir, kHeader + R"(  <sprite bone="torso" image="atlas" width="50" height="22"/>
  <sprite bone="forearm.L" image="atlas" angle="-90" width="8" height="30"/>
</rig>
)");
    INFO(describe(bones.diagnostics));
    REQUIRE(bones.rig);
    const GeneratedRig generated = generateBodiesAndJoints(*bones.rig);
    const RigDefinition& rig = generated.rig;
    REQUIRE(rig.bodies.size() == 4);
    const RigBody& torso = rig.bodies[size_t(rig.bodyOfBone(rig.findBone("torso")))];
    const RigBody& arm = rig.bodies[size_t(rig.bodyOfBone(rig.findBone("forearm_L")))];
    const RigBody& head = rig.bodies[size_t(rig.bodyOfBone(rig.findBone("head")))];
    CHECK(torso.radiusSource == RadiusSource::Visual);
    CHECK(torso.radius == Approx(0.11));
    CHECK(arm.radiusSource == RadiusSource::Visual);
    CHECK(arm.radius == Approx(0.04));
    CHECK(head.radiusSource == RadiusSource::Fraction);  // no art: the recipe's fraction
    // It saves beside its images and loads back with the same radii.
    const std::string out = dir.file("generated.rig.xml");
    const RigSaveResult saved = saveRig(rig, out);
    INFO(describe(saved.diagnostics));
    REQUIRE(saved.ok);
    const RigLoadResult back = loadRigFile(out);
    REQUIRE(back.rig);
    CHECK(back.rig->sprites.size() == 2);
    CHECK(back.rig->bodies[size_t(back.rig->bodyOfBone(0))].radius == Approx(0.11));
}

TEST_CASE("a visual's old sprite attribute still loads, with a warning, and the sprites size the body",
          "[rig][sprites]") {
    TempDir dir;
    testpng::writeGrey(dir.path / "atlas.png", 8, 8);
    const RigLoadResult result = loadIn(dir, R"(<rig name="old" format="1" units="px">
  <image name="atlas" file="atlas.png"/>
  <bone name="torso" angle="90" length="50"/>
  <visual bone="torso" sprite="torso_part.png"/>
  <sprite bone="torso" image="atlas" width="50" height="18"/>
  <body bone="torso" mass="8"/>
</rig>
)");
    INFO(describe(result.diagnostics));
    REQUIRE(result.rig);
    REQUIRE(result.diagnostics.size() == 1);
    CHECK(result.diagnostics[0].severity == Severity::Warning);
    CHECK(result.diagnostics[0].line == 4);
    CHECK(result.diagnostics[0].message == "visual: attribute 'sprite' is not drawn (kept on save); cut-out art is "
                                           "given by <image> and <sprite> elements");
    CHECK(result.rig->visuals[0].sprite == "torso_part.png");
    CHECK(result.rig->bodies[0].radius == Approx(0.09));
}

TEST_CASE("saving keeps image and sprite elements byte for byte, and writes edits and fresh files",
          "[rig][sprites][saver]") {
    TempDir dir;
    testpng::writeGrey(dir.path / "atlas.png", 64, 32);
    const std::string source = R"(<?xml version="1.0" encoding="UTF-8"?>
<rig name="cutout" format="1" units="px">
  <!-- the atlas -->
  <image   file='atlas.png' name="atlas"   />
  <bone name="torso" x="0" y="100" angle="90" length="50"/>
  <bone name="head" parent="torso" length="30"/>

  <sprite bone="torso" image="atlas" rect="0 0 64 32" x="25.0" width="18" height="50.00" color="#FFFFFF"/>
  <sprite image="atlas" bone="head"
          width="26" height="26" z="9"   angle="-0" color="#ff000080"/>
  <body bone="torso" mass="8" radius="9"/>
  <body bone="head" shape="circle" mass="1.5"/>
  <joint parent="torso" child="head"/>
</rig>
)";
    const std::string path = dir.file("cutout.rig.xml");
    testpng::writeBytes(path, std::vector<std::uint8_t>(source.begin(), source.end()));
    const RigLoadResult loaded = loadRigFile(path);
    INFO(describe(loaded.diagnostics));
    REQUIRE(loaded.rig);
    CHECK(loaded.rig->bodies[1].radius == Approx(0.13));

    // Unchanged: the same bytes, through the text and through the file.
    const RigTextResult same = rigToText(*loaded.rig);
    REQUIRE(same.ok);
    CHECK(same.text == source);
    REQUIRE(saveRig(*loaded.rig, path).ok);
    CHECK(readFile(path) == source);

    // An edited sprite: only its changed attributes are touched.
    RigDefinition edited = *loaded.rig;
    edited.sprites[1].z = 3;
    edited.sprites[1].color = {255, 255, 255, 255};  // back to the default: removed
    edited.sprites[0].angle = 10.0 * kDegree;         // appended
    const RigTextResult patched = rigToText(edited);
    INFO(describe(patched.diagnostics));
    REQUIRE(patched.ok);
    std::string expected = source;
    expected.replace(expected.find("color=\"#FFFFFF\"/>"), 17, "color=\"#FFFFFF\" angle=\"10\"/>");
    expected.replace(expected.find("z=\"9\""), 5, "z=\"3\"");
    expected.replace(expected.find(" color=\"#ff000080\""), 18, "");
    CHECK(patched.text == expected);

    // Written fresh (a rig made in code): the art comes out too and loads back the same.
    RigDefinition fresh = *loaded.rig;
    fresh.sourceText.clear();
    const RigTextResult written = rigToText(fresh);
    REQUIRE(written.ok);
    CHECK(written.text.find("  <image name=\"atlas\" file=\"atlas.png\"/>\n") != std::string::npos);
    CHECK(written.text.find("  <sprite bone=\"torso\" image=\"atlas\" width=\"18\" height=\"50\"/>\n") !=
          std::string::npos);
    CHECK(written.text.find("  <sprite bone=\"head\" image=\"atlas\" width=\"26\" height=\"26\" z=\"9\" "
                            "color=\"#ff000080\"/>\n") != std::string::npos);
    const RigLoadResult back = loadRigFromText(written.text, path);
    REQUIRE(back.rig);
    REQUIRE(back.rig->sprites.size() == 2);
    for (size_t i = 0; i < 2; ++i) {
        const RigSprite &a = loaded.rig->sprites[i], &b = back.rig->sprites[i];
        CAPTURE(i);
        CHECK(a.bone == b.bone);
        CHECK(a.image == b.image);
        CHECK(a.rect == b.rect);
        CHECK(a.centre == b.centre);
        CHECK(a.angle == b.angle);
        CHECK(a.width == b.width);
        CHECK(a.height == b.height);
        CHECK(a.z == b.z);
        CHECK(a.color == b.color);
    }

    // Saved into a folder without its images, the rig would not load: refused.
    const fs::path elsewhere = dir.path / "elsewhere";
    fs::create_directories(elsewhere);
    const RigSaveResult moved = saveRig(*loaded.rig, (elsewhere / "cutout.rig.xml").string());
    CHECK_FALSE(moved.ok);
    CHECK_FALSE(fs::exists(elsewhere / "cutout.rig.xml"));
    REQUIRE(moved.diagnostics.size() == 2);
    CHECK(moved.diagnostics[0].line == 4);
    CHECK(moved.diagnostics[0].message == "image: file 'atlas.png' (read as " + (elsewhere / "atlas.png").string() +
                                              "): file not found");
    CHECK(moved.diagnostics[1].message == "not saved: the edited rig would not load");
}

TEST_CASE("a sprite's flip saves as written, is edited in place, appended, removed at none, and written fresh when set",
          "[rig][sprites][saver]") {
    TempDir dir;
    testpng::writeGrey(dir.path / "atlas.png", 16, 16);
    const std::string source = R"(<rig name="cutout" format="1" units="px">
  <image name="atlas" file="atlas.png"/>
  <bone name="torso" x="0" y="100" angle="90" length="50"/>
  <sprite bone="torso" image="atlas" width="18" height="50" flip='x'   z="2"/>
  <sprite bone="torso" image="atlas" width="18" height="50" flip="none"/>
  <sprite bone="torso" image="atlas" width="18" height="50"/>
  <sprite bone="torso" image="atlas" flip="xy" width="18" height="50"/>
</rig>
)";
    const std::string path = dir.file("cutout.rig.xml");
    testpng::writeBytes(path, std::vector<std::uint8_t>(source.begin(), source.end()));
    const RigLoadResult loaded = loadRigFile(path);
    INFO(describe(loaded.diagnostics));
    REQUIRE(loaded.rig);
    REQUIRE(loaded.rig->sprites.size() == 4);

    // Unchanged: byte for byte, the spelled-out "none" included.
    const RigTextResult same = rigToText(*loaded.rig);
    REQUIRE(same.ok);
    CHECK(same.text == source);

    RigDefinition edited = *loaded.rig;
    edited.sprites[0].flipX = false;  // x to y: the value alone changes, in its own quotes
    edited.sprites[0].flipY = true;
    edited.sprites[2].flipX = true;   // none to x: appended
    edited.sprites[3].flipX = false;  // xy to none: removed
    edited.sprites[3].flipY = false;
    const RigTextResult patched = rigToText(edited);
    INFO(describe(patched.diagnostics));
    REQUIRE(patched.ok);
    std::string expected = source;
    expected.replace(expected.find("flip='x'"), 8, "flip='y'");
    expected.replace(expected.find("height=\"50\"/>\n  <sprite bone=\"torso\" image=\"atlas\" flip"), 13,
                     "height=\"50\" flip=\"x\"/>");
    expected.replace(expected.find(" flip=\"xy\""), 10, "");
    CHECK(patched.text == expected);
    const RigLoadResult back = loadRigFromText(patched.text, path);
    REQUIRE(back.rig);
    for (size_t i = 0; i < 4; ++i) {
        CAPTURE(i);
        CHECK(back.rig->sprites[i].flipX == edited.sprites[i].flipX);
        CHECK(back.rig->sprites[i].flipY == edited.sprites[i].flipY);
    }

    // Written fresh: a flip beside the angle, none left out.
    RigDefinition fresh = edited;
    fresh.sourceText.clear();
    const RigTextResult written = rigToText(fresh);
    REQUIRE(written.ok);
    CHECK(written.text.find("  <sprite bone=\"torso\" image=\"atlas\" flip=\"y\" width=\"18\" height=\"50\" z=\"2\"/>\n") !=
          std::string::npos);
    CHECK(written.text.find("  <sprite bone=\"torso\" image=\"atlas\" width=\"18\" height=\"50\"/>\n") != std::string::npos);
    CHECK(written.text.find("  <sprite bone=\"torso\" image=\"atlas\" flip=\"x\" width=\"18\" height=\"50\"/>\n") !=
          std::string::npos);
    CHECK(written.text.find("none") == std::string::npos);
    const RigLoadResult reread = loadRigFromText(written.text, path);
    REQUIRE(reread.rig);
    for (size_t i = 0; i < 4; ++i) {
        CAPTURE(i);
        CHECK(reread.rig->sprites[i].flipX == edited.sprites[i].flipX);
        CHECK(reread.rig->sprites[i].flipY == edited.sprites[i].flipY);
    }
}

TEST_CASE("the paper doll's parts lie on its bodies: shoes and hands within 2 cm", "[rig][sprites][content]") {
    // What a user sees go into the ground is the drawn part; the solver holds the bodies out
    // of it. Every opaque pixel of each part, placed on its bone, against its bone's body:
    // before the doll had feet and hands, its shoes (drawn on the shins) reached 12.3 cm past
    // them and its hands (past the forearm's end) 5.6 cm.
    const RigLoadResult loaded = loadRigFile(std::string(PAPERDOLL_CONTENT_DIR) + "/rigs/paper_doll.rig.xml");
    REQUIRE(loaded.rig);
    const RigDefinition& rig = *loaded.rig;
    paper::PngImage atlas;
    std::string error;
    REQUIRE(paper::loadPng(rig.images.at(0).path, atlas, error));
    int shoesAndHands = 0;
    for (const RigSprite& sprite : rig.sprites) {
        const RigBone& bone = rig.bones[size_t(sprite.bone)];
        const int body = rig.bodyOfBone(sprite.bone);
        REQUIRE(body >= 0);
        REQUIRE(rig.bodies[size_t(body)].shape != BodyShape::Box);
        // The body as buildRagdoll makes it, in the bone's frame: a segment swept by a radius.
        Capsule shape = bodyCapsule(rig, body);
        if (rig.bodies[size_t(body)].shape == BodyShape::Circle) {
            const Circle circle = bodyCircle(rig, body);
            shape = {circle.center, circle.center, circle.radius};
        }
        const Vec2 a = shape.center1, b = shape.center2;
        const Rot turn = makeRot(sprite.angle);
        double beyond = -shape.radius;  // how far the part reaches past its body, metres
        for (int y = sprite.rect.y; y < sprite.rect.y + sprite.rect.height; ++y)
            for (int x = sprite.rect.x; x < sprite.rect.x + sprite.rect.width; ++x) {
                if (atlas.rgba[size_t(4 * (y * atlas.width + x) + 3)] < 128) continue;
                const Vec2 local{((x + 0.5 - sprite.rect.x) / sprite.rect.width - 0.5) * sprite.width,
                                 (0.5 - (y + 0.5 - sprite.rect.y) / sprite.rect.height) * sprite.height};  // the image's top is +y
                const Vec2 q = sprite.centre + rotate(turn, local);
                const double t = std::clamp(dot(q - a, b - a) / std::max(dot(b - a, b - a), 1e-12), 0.0, 1.0);
                beyond = std::max(beyond, distance(q, a + t * (b - a)) - shape.radius);
            }
        INFO(bone.name << ": " << beyond * 100.0 << " cm past its body");
        CHECK(beyond > 0.0);      // the paper round a body: a rim of art it does not cover
        CHECK(beyond <= 0.035);   // the hair 3.3 cm, the square corners of a sole 1.9 cm
        if (bone.name.rfind("foot", 0) == 0 || bone.name.rfind("forearm", 0) == 0) {
            CHECK(beyond <= 0.02);
            ++shoesAndHands;
        }
    }
    CHECK(shoesAndHands == 4);
}

TEST_CASE("a body far smaller than the sprite on its bone is warned about, with the sizes and what to change",
          "[rig][sprites][loader]") {
    TempDir dir;
    testpng::writeGrey(dir.path / "atlas.png", 32, 32);
    // A forearm 1 px long with a capsule of radius 0.5 px: 2 cm across under its 60 x 10 cm
    // sprite (pixels at 100 a metre).
    const std::string rig = R"(<rig name="tiny" format="1" units="px">
  <image name="atlas" file="atlas.png"/>
  <bone name="torso" y="100" angle="90" length="50"/>
  <bone name="forearm" parent="torso" x="45" angle="180" length="1"/>
  <sprite bone="torso" image="atlas" x="25" angle="90" width="50" height="24"/>
  <sprite bone="forearm" image="atlas" x="30" width="60" height="10"/>
  <body bone="torso" mass="8"/>
  <body bone="forearm" mass="1" RADIUS/>
  <joint parent="torso" child="forearm"/>
</rig>
)";
    auto warningsOf = [&](const std::string& radius) {
        std::string text = rig;
        text.replace(text.find("RADIUS"), 6, radius);
        const RigLoadResult result = loadIn(dir, text);
        INFO(describe(result.diagnostics));
        REQUIRE(result.rig);
        return formatted(result.diagnostics);
    };
    CHECK(warningsOf("radius=\"0.5\"") ==
          std::vector<std::string>{dir.file("cutout.rig.xml") +
                                   ":8: warning: body: bone 'forearm' has a capsule 0.02 m (2 px) across at most under a sprite "
                                   "0.6 m (60 px) across (line 6): it collides as the small body, not as the art is drawn; give it "
                                   "a radius of about 0.05 m (5 px), half the sprite's thickness, and its bone a length of about "
                                   "0.6 m (60 px), the sprite's length along it"});
    // Over a tenth of the art is plausible (hair or a cape larger than its body): 8 cm.
    CHECK(warningsOf("radius=\"3.5\"").empty());
    // Its radius from the art (5 px): nothing to say.
    CHECK(warningsOf("").empty());
}

TEST_CASE("the shipped rigs and the imported Spine doll have no body far smaller than its art", "[rig][sprites][content]") {
    for (const std::string& file : {contentRig("stickman.rig.xml"), contentRig("paper_doll.rig.xml"),
                                    contentRig("paper_puppet.rig.xml"),
                                    std::string(PAPERDOLL_CONTENT_DIR) + "/spine/imported/spine_doll.rig.xml"}) {
        const RigLoadResult result = loadRigFile(file);
        INFO(file << "\n" << describe(result.diagnostics));
        REQUIRE(result.rig);
        for (const Diagnostic& d : result.diagnostics) CHECK(d.message.find("collides as the small body") == std::string::npos);
    }
}
