// Meshes in rigs (FORMAT.md, "Meshes"): rigid and weighted meshes load in internal units,
// size their bones' bodies, save byte for byte (and fresh), report every error on its line,
// bend at the joint when the ragdoll does, and count as drawn parts, bone by bone. The PNG is written by each test.

#include <catch2/catch.hpp>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "anim/pose.h"
#include "character/drawn_shapes.h"
#include "rig/rig_builder.h"
#include "rig/rig_loader.h"
#include "rig/rig_saver.h"
#include "rig_test_support.h"
#include "solver/world.h"
#include "test_png.h"

namespace fs = std::filesystem;
using namespace ragdoll;
using namespace rigtest;

namespace {

struct TempDir {
    fs::path path;
    TempDir() {
        static int counter = 0;
        path = fs::temp_directory_path() / ("rig_mesh_tests_" + std::to_string(::getpid()) + "_" + std::to_string(++counter));
        fs::remove_all(path);
        fs::create_directories(path);
        testpng::writeGrey(path / "atlas.png", 64, 32);
    }
    ~TempDir() {
        std::error_code ignored;
        fs::remove_all(path, ignored);
    }
    std::string file(const std::string& name) const { return (path / name).string(); }
};

/// An arm in pixels (scale 100): the upper arm along +x from (0, 100), the forearm on its tip;
/// a rigid patch on the upper arm (lines 8-13) and a cuff weighted across the elbow (14-22).
const std::string kArm = R"(<?xml version="1.0" encoding="UTF-8"?>
<rig name="arm" format="1" units="px">
  <image name="atlas" file="atlas.png"/>
  <bone name="upper" x="0" y="100" angle="0" length="50"/>
  <bone name="lower" parent="upper" length="50"/>
  <body bone="upper" mass="2"/>
  <body bone="lower" mass="1" radius="5"/>
  <mesh image="atlas" z="2">
    <vertex u="0" v="0"> <weight bone="upper" x="10" y="-6"/> </vertex>
    <vertex u="8" v="0"> <weight bone="upper" x="40" y="-6"/> </vertex>
    <vertex u="8" v="8"> <weight bone="upper" x="40"  y="8"/> </vertex>
    <triangles>0 1 2</triangles>
  </mesh>
  <mesh image="atlas" z="5" color="#ff000080">
    <vertex u="0" v="0"> <weight bone="upper" x="40" y="-3"/> </vertex>
    <vertex u="0" v="8"> <weight bone="upper" x="40" y="3"/> </vertex>
    <vertex u="4" v="0"> <weight bone="upper" x="50" y="-3" w="0.5"/> <weight bone="lower" x="0" y="-3" w="0.5"/> </vertex>
    <vertex u="4" v="8"> <weight bone="upper" x="50" y="3" w="0.5"/> <weight bone="lower" x="0" y="3" w="0.5"/> </vertex>
    <vertex u="8" v="0"> <weight bone="lower" x="10" y="-3"/> </vertex>
    <vertex u="8" v="8"> <weight bone="lower" x="10" y="3"/> </vertex>
    <triangles>0 2 3  3 1 0  2 4 5  5 3 2</triangles>
  </mesh>
  <joint parent="upper" child="lower" lower="-120" upper="120"/>
</rig>
)";

RigLoadResult loadArm(const TempDir& dir, const std::string& text = kArm) {
    return loadRigFromText(text, dir.file("arm.rig.xml"));
}

}  // namespace

TEST_CASE("meshes load, rigid and weighted, in metres, and a mesh sizes its bone's body", "[rig][mesh]") {
    TempDir dir;
    const RigLoadResult r = loadArm(dir);
    INFO(describe(r.diagnostics));
    REQUIRE(r.rig);
    REQUIRE(r.rig->meshes.size() == 2);
    const RigMesh& patch = r.rig->meshes[0];
    CHECK(patch.image == 0);
    CHECK(patch.z == 2);
    REQUIRE(patch.vertices.size() == 3);
    CHECK(patch.vertices[1].u == 8.0);
    CHECK(patch.vertices[1].weights.size() == 1);
    CHECK(patch.vertices[1].weights[0].bone == 0);
    CHECK(patch.vertices[1].weights[0].position.x == Approx(0.40));
    CHECK(patch.vertices[1].weights[0].weight == 1.0);
    CHECK(patch.triangles == std::vector<int>{0, 1, 2});
    const RigMesh& cuff = r.rig->meshes[1];
    CHECK(cuff.color == std::array<std::uint8_t, 4>{255, 0, 0, 128});
    REQUIRE(cuff.vertices[2].weights.size() == 2);
    CHECK(cuff.vertices[2].weights[1].bone == 1);
    CHECK(cuff.vertices[2].weights[1].weight == 0.5);
    CHECK(cuff.triangles.size() == 12);
    // The upper arm has no radius of its own: its mesh vertices span y -6..8 px across it
    // (the cuff's, mostly on it too, span less): radius 7 px.
    CHECK(r.rig->bodies[0].radius == Approx(0.07));
}

TEST_CASE("meshes save byte for byte, keep their text through other edits, and write fresh", "[rig][mesh][saver]") {
    TempDir dir;
    const std::string path = dir.file("arm.rig.xml");
    testpng::writeBytes(path, std::vector<std::uint8_t>(kArm.begin(), kArm.end()));
    const RigLoadResult loaded = loadRigFile(path);
    REQUIRE(loaded.rig);
    REQUIRE(saveRig(*loaded.rig, path).ok);
    CHECK(readFile(path) == kArm);

    RigDefinition edited = *loaded.rig;
    edited.joints[0].upper = 100.0 * kDegree;
    const RigTextResult patched = rigToText(edited);
    REQUIRE(patched.ok);
    std::string expected = kArm;
    expected.replace(expected.find("upper=\"120\""), 11, "upper=\"100\"");
    CHECK(patched.text == expected);

    RigDefinition fresh = *loaded.rig;
    fresh.sourceText.clear();
    const RigTextResult written = rigToText(fresh);
    INFO(describe(written.diagnostics));
    REQUIRE(written.ok);
    CHECK(written.text.find("  <mesh image=\"atlas\" z=\"5\" color=\"#ff000080\">\n") != std::string::npos);
    CHECK(written.text.find("    <vertex u=\"4\" v=\"0\"> <weight bone=\"upper\" x=\"50\" y=\"-3\" w=\"0.5\"/> "
                            "<weight bone=\"lower\" x=\"0\" y=\"-3\" w=\"0.5\"/> </vertex>\n") != std::string::npos);
    CHECK(written.text.find("    <triangles>0 2 3  3 1 0  2 4 5  5 3 2</triangles>\n") != std::string::npos);
    const RigLoadResult again = loadRigFromText(written.text, path);
    REQUIRE(again.rig);
    REQUIRE(again.rig->meshes.size() == 2);
    CHECK(again.rig->meshes[1].vertices[3].weights[1].position.y == Approx(0.03));
    CHECK(again.rig->meshes[1].triangles == loaded.rig->meshes[1].triangles);
}

TEST_CASE("every mesh error is reported on its line", "[rig][mesh][errors]") {
    TempDir dir;
    struct Case {
        std::string from, to;  ///< a replacement in kArm
        int line;
        std::string message;
    };
    const std::vector<Case> cases = {
        {"<weight bone=\"upper\" x=\"10\" y=\"-6\"/>", "<weight bone=\"elbow\" x=\"10\" y=\"-6\"/>", 9,
         "weight: bone 'elbow' is not a bone of this rig"},
        {"<mesh image=\"atlas\" z=\"2\">", "<mesh image=\"paper\" z=\"2\">", 8, "mesh: image 'paper' is not an <image> of this rig"},
        {"x=\"50\" y=\"-3\" w=\"0.5\"", "x=\"50\" y=\"-3\" w=\"0.4\"", 17, "vertex: the weights sum to 0.9, not 1 (within 0.001)"},
        {"<triangles>0 1 2</triangles>", "<triangles>0 1 3</triangles>", 12,
         "triangles: index 3 is not one of the mesh's 3 vertices"},
        {"<triangles>0 1 2</triangles>", "<triangles>0 1</triangles>", 12,
         "triangles: 2 indices: a mesh needs three per triangle, at least one triangle"},
        {"<triangles>0 1 2</triangles>", "<triangles>0 1 x</triangles>", 12, "triangles: index 'x' is not a whole number >= 0"},
        {"<vertex u=\"8\" v=\"8\"> <weight bone=\"upper\" x=\"40\"  y=\"8\"/>", "<vertex u=\"65\" v=\"8\"> <weight bone=\"upper\" x=\"40\"  y=\"8\"/>",
         11, "vertex: u, v (65, 8) is outside image 'atlas' (64 x 32 pixels)"},
        {"<vertex u=\"8\" v=\"0\"> <weight bone=\"upper\" x=\"40\" y=\"-6\"/> </vertex>", "<vertex u=\"8\" v=\"0\"> </vertex>", 10,
         "vertex: a vertex needs at least one <weight> (the bone it follows)"},
        {"    <triangles>0 1 2</triangles>\n", "", 8, "mesh: a mesh needs <triangles> (vertex indices, three per triangle)"},
    };
    for (const Case& c : cases) {
        std::string text = kArm;
        const size_t at = text.find(c.from);
        REQUIRE(at != std::string::npos);
        text.replace(at, c.from.size(), c.to);
        const RigLoadResult r = loadArm(dir, text);
        INFO(c.message << "\n" << describe(r.diagnostics));
        CHECK_FALSE(r.rig);
        bool found = false;
        for (const Diagnostic& d : r.diagnostics) found = found || (d.line == c.line && d.message == c.message);
        CHECK(found);
    }
}

TEST_CASE("a weighted mesh bends at the joint with the ragdoll", "[rig][mesh][builder]") {
    TempDir dir;
    const RigLoadResult r = loadArm(dir);
    REQUIRE(r.rig);
    const RigDefinition& rig = *r.rig;
    WorldDef worldDef = defaultWorldDef();
    worldDef.gravity = {0.0, 0.0};
    worldDef.enableSleep = false;
    World world(worldDef);
    Ragdoll ragdoll = buildRagdoll(world, rig, defaultRagdollDef());
    REQUIRE(ragdoll.bodies.size() == 2);
    // Spin the forearm: the elbow bends.
    world.setVelocity(ragdoll.bodies[1], {0.0, 0.0}, 6.0);
    for (int i = 0; i < 20; ++i) world.step(1.0 / 60.0);
    std::vector<BonePose> poses(2);
    for (int b = 0; b < 2; ++b) {
        const Transform t = world.bodyTransform(ragdoll.bodies[size_t(b)]);
        poses[size_t(b)] = {t.p, std::atan2(t.q.s, t.q.c)};
    }
    const double bend = (poses[1].angle - poses[0].angle) / kDegree;
    CHECK(bend > 30.0);
    std::vector<Vec2> at;
    meshVertexPositions(rig.meshes[1], poses, false, 1.0, at);
    auto onBone = [&](int bone, Vec2 local) { return poses[size_t(bone)].origin + rotate(makeRot(poses[size_t(bone)].angle), local); };
    // The shoulder side stays on the upper arm, the wrist side follows the forearm, and the
    // elbow vertices sit half way between where each bone would put them.
    CHECK(length(at[0] - onBone(0, {0.40, -0.03})) < 1e-9);
    CHECK(length(at[4] - onBone(1, {0.10, -0.03})) < 1e-9);
    const Vec2 elbow = 0.5 * (onBone(0, {0.50, 0.03}) + onBone(1, {0.0, 0.03}));
    CHECK(length(at[3] - elbow) < 1e-9);
    // The cuff's edge turns by the elbow's bend: shoulder side along the upper arm, wrist
    // side along the forearm.
    const double shoulderEdge = angleOf(at[2] - at[0]) / kDegree, wristEdge = angleOf(at[4] - at[2]) / kDegree;
    CHECK(std::abs(shoulderEdge - poses[0].angle / kDegree) < 15.0);
    CHECK(std::abs(wristEdge - poses[1].angle / kDegree) < 15.0);
    CHECK(wristEdge - shoulderEdge > 20.0);
}

TEST_CASE("a mesh counts as drawn parts, each bone's share following its bone", "[rig][mesh][drawn]") {
    // What the get-up keeps out of terrain and props, and the player measures as a drawn
    // part's depth (character/drawn_shapes.h): an imported Spine character's meshes as much
    // as its sprites. The cuff bends at the elbow: the upper arm carries its triangles with a
    // vertex following the upper arm most, the forearm the others.
    TempDir dir;
    const RigLoadResult r = loadArm(dir);
    REQUIRE(r.rig);
    const RigDefinition& rig = *r.rig;
    const RigMesh& cuff = rig.meshes[1];
    REQUIRE(cuff.parts.size() == 2);
    CHECK(cuff.parts[0].bone == 0);
    CHECK(cuff.parts[0].low.x == Approx(0.40));
    CHECK(cuff.parts[0].high.x == Approx(0.50));
    CHECK(cuff.parts[1].bone == 1);
    CHECK(cuff.parts[1].low.x == Approx(0.0).margin(1e-12));  // the elbow's vertices, where the forearm's weight puts them
    CHECK(cuff.parts[1].high.x == Approx(0.10));
    CHECK(cuff.parts[1].low.y == Approx(-0.03));
    CHECK(cuff.parts[1].high.y == Approx(0.03));

    // The elbow bent 90°: the forearm points up from (0.5, 1).
    const std::vector<BonePose> poses{{{0.0, 1.0}, 0.0}, {{0.5, 1.0}, 0.5 * kPi}};
    std::vector<DrawnShape> shapes;
    drawnShapes(rig, poses, 1.0, false, shapes);
    CHECK(shapes.size() == 3);  // the patch, the cuff on each bone
    World world(defaultWorldDef());
    auto depthIn = [&](Vec2 centre) {
        BodyDef def = defaultBodyDef();
        def.type = BodyType::Static;
        def.position = centre;
        const BodyId box = world.createBody(def);
        world.setPolygon(box, defaultShapeDef(), makeBox(0.01, 0.01));
        std::vector<BodyId> scratch;
        const double depth = deepestOverlap(world, shapes, Obstacles::Terrain, scratch).depth;
        world.destroyBody(box);
        return depth;
    };
    // A 2 cm box in the bent cuff (the forearm's share: 3 cm round, from 2 to 8 cm up the
    // forearm): in by its half width and the capsule's radius.
    CHECK(depthIn({0.5, 1.05}) == Approx(0.04).margin(1e-6));
    // Where the cuff would be had it not bent: nothing drawn there.
    CHECK(depthIn({0.585, 1.0}) == 0.0);
    // Mirrored (a character facing left), the shares flip across their bones as drawn.
    drawnShapes(rig, poses, 1.0, true, shapes);
    CHECK(depthIn({0.5, 1.05}) == Approx(0.04).margin(1e-6));
}

TEST_CASE("a body far smaller than the mesh on its bone is warned about as under a sprite", "[rig][mesh][loader]") {
    TempDir dir;
    // A hanging arm's sleeve bent at the elbow (pixels at 100 a metre): 50 px on the upper
    // arm, 60 px on a forearm 1 px long. Each bone is weighed against its share of the mesh: the forearm's
    // capsule of radius 0.5 px (2 cm across) under its 60 x 10 px share is warned about; the
    // upper arm's circle 6 px across is over a tenth of its 50 px share, though not of the
    // whole 110 px sleeve.
    const std::string rig = R"(<rig name="sleeve" format="1" units="px">
  <image name="atlas" file="atlas.png"/>
  <bone name="upper" x="0" y="100" angle="-90" length="50"/>
  <bone name="lower" parent="upper" length="1"/>
  <body bone="upper" shape="circle" mass="2" radius="3"/>
  <body bone="lower" mass="1" RADIUS/>
  <mesh image="atlas">
    <vertex u="0" v="0"> <weight bone="upper" x="0" y="-5"/> </vertex>
    <vertex u="0" v="10"> <weight bone="upper" x="0" y="5"/> </vertex>
    <vertex u="20" v="0"> <weight bone="upper" x="50" y="-5" w="0.5"/> <weight bone="lower" x="0" y="-5" w="0.5"/> </vertex>
    <vertex u="20" v="10"> <weight bone="upper" x="50" y="5" w="0.5"/> <weight bone="lower" x="0" y="5" w="0.5"/> </vertex>
    <vertex u="40" v="0"> <weight bone="lower" x="60" y="-5"/> </vertex>
    <vertex u="40" v="10"> <weight bone="lower" x="60" y="5"/> </vertex>
    <triangles>0 2 3  3 1 0  2 4 5  5 3 2</triangles>
  </mesh>
  <joint parent="upper" child="lower"/>
</rig>
)";
    auto warningsOf = [&](const std::string& radius) {
        std::string text = rig;
        text.replace(text.find("RADIUS"), 6, radius);
        const RigLoadResult result = loadRigFromText(text, dir.file("sleeve.rig.xml"));
        INFO(describe(result.diagnostics));
        REQUIRE(result.rig);
        return formatted(result.diagnostics);
    };
    CHECK(warningsOf("radius=\"0.5\"") ==
          std::vector<std::string>{dir.file("sleeve.rig.xml") +
                                   ":6: warning: body: bone 'lower' has a capsule 0.02 m (2 px) across at most under a mesh "
                                   "0.6 m (60 px) across (line 7): it collides as the small body, not as the art is drawn; give it "
                                   "a radius of about 0.05 m (5 px), half the mesh's thickness, and its bone a length of about "
                                   "0.6 m (60 px), the mesh's length along it"});
    // Its radius from the mesh's thickness across it (5 px): 11 px across, over a tenth.
    CHECK(warningsOf("").empty());
}
