// `rig import` end to end: the rig it writes (sprites where the attachments are, bodies
// and joints from the art), the clips it bakes, the doll's drop, and every error exiting 1
// with nothing written.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>

#include "anim/clip.h"
#include "anim/pose.h"
#include <nlohmann/json.hpp>
#include <sstream>
#include <sys/stat.h>

#include "rig/rig_loader.h"
#include "rig_tools/rig_commands.h"
#include "rig_tools/rig_drop.h"
#include "spine/spine_bake.h"
#include "spine/spine_json.h"
#include "spine/spine_pose.h"
#include "spine_bot.h"
#include "spine_test_support.h"

using namespace ragdoll;
using namespace spinetest;

namespace {

using Corner = std::array<double, 2>;

/// The four corners of a sprite in rig space, metres.
std::array<Corner, 4> spriteCorners(const RigDefinition& rig, const RigSprite& s) {
    const RigBone& bone = rig.bones[size_t(s.bone)];
    std::array<Corner, 4> out{};
    int i = 0;
    for (double u : {-0.5, 0.5})
        for (double v : {-0.5, 0.5}) {
            const double lx = s.centre.x + std::cos(s.angle) * u * s.width - std::sin(s.angle) * v * s.height;
            const double ly = s.centre.y + std::sin(s.angle) * u * s.width + std::cos(s.angle) * v * s.height;
            out[size_t(i++)] = {bone.origin.x + std::cos(bone.angle) * lx - std::sin(bone.angle) * ly,
                                bone.origin.y + std::sin(bone.angle) * lx + std::cos(bone.angle) * ly};
        }
    return out;
}

/// The corners of a rectangle [x0, x1] × [y0, y1] of a bone's frame in Spine's world, divided by scale.
std::array<Corner, 4> spineCorners(const SpineWorld& w, double x0, double x1, double y0, double y1, double rotationDegrees,
                                   double cx, double cy, double scale) {
    std::array<Corner, 4> out{};
    int i = 0;
    const double r = rotationDegrees * kDegree;
    for (double x : {x0, x1})
        for (double y : {y0, y1}) {
            double wx = 0, wy = 0;
            w.transform(cx + std::cos(r) * x - std::sin(r) * y, cy + std::sin(r) * x + std::cos(r) * y, wx, wy);
            out[size_t(i++)] = {wx / scale, wy / scale};
        }
    return out;
}

/// Every corner of a has a corner of b within tolerance.
bool sameCorners(const std::array<Corner, 4>& a, const std::array<Corner, 4>& b, double tolerance) {
    for (const Corner& p : a) {
        bool found = false;
        for (const Corner& q : b) found = found || std::hypot(p[0] - q[0], p[1] - q[1]) <= tolerance;
        if (!found) return false;
    }
    return true;
}

/// A region attachment's numbers as its skeleton writes them.
struct RegionAttachmentSource {
    double x = 0.0, y = 0.0, rotation = 0.0, width = 0.0, height = 0.0, scaleX = 1.0, scaleY = 1.0;
};
/// Its region as the atlas gives it: the packed pixels' top-left in the page and their size
/// unturned (the atlas's bounds), where they lie in the original image, and whether the
/// page stores them a quarter turn round.
struct RegionSource {
    double x = 0.0, y = 0.0, width = 0.0, height = 0.0;
    double offsetX = 0.0, offsetY = 0.0, originalWidth = 0.0, originalHeight = 0.0;
    bool rotated = false;
};
/// A corner of a region's rect in its page (pixels, y down) and where Spine draws it.
struct TexelCorner {
    Corner page, world;
};

/// The four corners of a region attachment as Spine's runtimes draw them (RegionAttachment:
/// the packed pixels' corners in the attachment, bottom-left, top-left, top-right,
/// bottom-right, each with its UV; a region stored turned takes its UVs a quarter round),
/// through the bone's world matrix, divided by scale.
std::array<TexelCorner, 4> spineRegionCorners(const SpineWorld& bone, const RegionAttachmentSource& a, const RegionSource& r,
                                              double scale) {
    const double regionScaleX = a.width / r.originalWidth * a.scaleX, regionScaleY = a.height / r.originalHeight * a.scaleY;
    const double x1 = -a.width / 2 * a.scaleX + r.offsetX * regionScaleX, y1 = -a.height / 2 * a.scaleY + r.offsetY * regionScaleY;
    const double x2 = x1 + r.width * regionScaleX, y2 = y1 + r.height * regionScaleY;
    const double u = r.x, v = r.y, u2 = r.x + (r.rotated ? r.height : r.width), v2 = r.y + (r.rotated ? r.width : r.height);
    const Corner local[4] = {{x1, y1}, {x1, y2}, {x2, y2}, {x2, y1}};
    const Corner plainUv[4] = {{u, v2}, {u, v}, {u2, v}, {u2, v2}};
    const Corner turnedUv[4] = {{u2, v2}, {u, v2}, {u, v}, {u2, v}};
    const double c = std::cos(a.rotation * kDegree), s = std::sin(a.rotation * kDegree);
    std::array<TexelCorner, 4> out{};
    for (size_t i = 0; i < 4; ++i) {
        double wx = 0, wy = 0;
        bone.transform(a.x + c * local[i][0] - s * local[i][1], a.y + s * local[i][0] + c * local[i][1], wx, wy);
        out[i] = {r.rotated ? turnedUv[i] : plainUv[i], {wx / scale, wy / scale}};
    }
    return out;
}

/// Where a sprite draws a point of its image (pixels, y down) in rig space, metres, as
/// FORMAT.md places it: across the rect to the quad, mirrored by its flip, turned by its
/// angle, on its bone.
Corner drawnAt(const RigDefinition& rig, const RigSprite& s, const Corner& page) {
    double lx = ((page[0] - s.rect.x) / s.rect.width - 0.5) * s.width;
    double ly = (0.5 - (page[1] - s.rect.y) / s.rect.height) * s.height;
    if (s.flipX) lx = -lx;
    if (s.flipY) ly = -ly;
    const double px = s.centre.x + std::cos(s.angle) * lx - std::sin(s.angle) * ly;
    const double py = s.centre.y + std::sin(s.angle) * lx + std::cos(s.angle) * ly;
    const RigBone& bone = rig.bones[size_t(s.bone)];
    return {bone.origin.x + std::cos(bone.angle) * px - std::sin(bone.angle) * py,
            bone.origin.y + std::sin(bone.angle) * px + std::cos(bone.angle) * py};
}

/// A bone's world transform by the rules of Spine's runtimes (3.8 to 4.2,
/// Bone.updateWorldTransform; the Spine Runtimes Guide's "World transforms"), for a bone
/// without shear, written with angles: the local matrix is R(rotation)·diag(scaleX, scaleY);
/// normal takes P times it, onlyTranslation it alone; noRotationOrReflection the parent's
/// stretch along the parent's own axes, R(φ)·diag(|x|, |det P| / |x|)·R(−φ) (x the parent's
/// x axis, φ its angle), times it; noScale and noScaleOrReflection turn to the direction θ
/// that P gives the local rotation, mirrored across it when noScale and P mirrors, then
/// scale by the local scale. The origin goes through all of P. No parent: the local
/// transform alone.
SpineWorld spineWorldByRule(const SpineWorld* parent, const std::string& inherit, double x, double y, double rotation,
                            double scaleX, double scaleY) {
    auto turn = [](double degrees) {
        const double c = std::cos(degrees * kDegree), s = std::sin(degrees * kDegree);
        return SpineWorld{c, -s, s, c, 0, 0};
    };
    auto times = [](const SpineWorld& m, const SpineWorld& n) {
        return SpineWorld{m.a * n.a + m.b * n.c, m.a * n.b + m.b * n.d, m.c * n.a + m.d * n.c, m.c * n.b + m.d * n.d, 0, 0};
    };
    const SpineWorld stretch{scaleX, 0, 0, scaleY, 0, 0};
    const SpineWorld local = times(turn(rotation), stretch);
    if (!parent) return {local.a, local.b, local.c, local.d, x, y};
    const SpineWorld& p = *parent;
    SpineWorld axes = times(SpineWorld{p.a, p.b, p.c, p.d, 0, 0}, local);
    if (inherit == "onlyTranslation") axes = local;
    if (inherit == "noRotationOrReflection") {
        const double phi = std::atan2(p.c, p.a) / kDegree, length = std::hypot(p.a, p.c);
        const SpineWorld along{length, 0, 0, std::abs(p.a * p.d - p.b * p.c) / length, 0, 0};
        axes = times(times(times(turn(phi), along), turn(-phi)), local);
    }
    if (inherit == "noScale" || inherit == "noScaleOrReflection") {
        const double dx = p.a * std::cos(rotation * kDegree) + p.b * std::sin(rotation * kDegree);
        const double dy = p.c * std::cos(rotation * kDegree) + p.d * std::sin(rotation * kDegree);
        const bool mirrored = inherit == "noScale" && p.a * p.d - p.b * p.c < 0;
        axes = times(times(turn(std::atan2(dy, dx) / kDegree), SpineWorld{1, 0, 0, mirrored ? -1.0 : 1.0, 0, 0}), stretch);
    }
    axes.x = p.a * x + p.b * y + p.x;
    axes.y = p.c * x + p.d * y + p.y;
    return axes;
}

std::string describe(const std::vector<Diagnostic>& diagnostics) {
    std::string out;
    for (const Diagnostic& d : diagnostics) out += d.format() + "\n";
    return out;
}

SpineImportOptions options(const std::string& json, const std::filesystem::path& out) {
    SpineImportOptions o;
    o.skeletonPath = json;
    o.outPath = out.string();
    return o;
}

/// Imports mini.json (with mini.atlas, 10 units a metre) into folder as NAME.rig.xml, with
/// `to` in place of `from` when they are given (written there as NAME.json).
ImportRun importMini(const std::filesystem::path& folder, const std::string& name, const std::string& from = "",
                     const std::string& to = "") {
    std::string json = dataPath("mini.json");
    if (!from.empty()) {
        std::ifstream in(json);
        std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        REQUIRE(text.find(from) != std::string::npos);
        text.replace(text.find(from), from.size(), to);
        json = (folder / (name + ".json")).string();
        std::ofstream(json) << text;
    }
    SpineImportOptions o = options(json, folder / (name + ".rig.xml"));
    o.atlasPath = dataPath("mini.atlas");
    o.scale = 10.0;
    return runImport(o);
}

}  // namespace

TEST_CASE("import: sprite quads land where the attachments are (a turned region, a trimmed one)", "[spine][import]") {
    for (const char* atlas : {"mini.atlas", "mini_old.atlas"}) {
        const std::filesystem::path folder = freshFolder(std::string("quads_") + atlas);
        SpineImportOptions o = options(dataPath("mini.json"), folder / "mini.rig.xml");
        o.atlasPath = dataPath(atlas);
        o.scale = 10.0;
        ImportRun run = runImport(o);
        INFO(run.err);
        REQUIRE(run.exitCode == 0);
        RigLoadResult loaded = loadRigFile((folder / "mini.rig.xml").string());
        REQUIRE(loaded.rig);
        const RigDefinition& rig = *loaded.rig;
        REQUIRE(rig.bones.size() == 2);  // the root has no part: no bone, no body
        REQUIRE(rig.sprites.size() == 2);
        SpineLoadResult spine = loadSpineJsonFile(dataPath("mini.json"));
        const std::vector<SpineWorld> w = poseSpineSkeleton(spine.skeleton, nullptr, 0.0);
        // box: 40 x 20 at (10, 2) turned 15 degrees on the arm; stored turned a quarter in the page.
        const RigSprite& box = rig.sprites[0];
        CHECK(box.rect == PixelRect{10, 10, 20, 40});
        CHECK(sameCorners(spriteCorners(rig, box), spineCorners(w[1], -20, 20, -10, 10, 15, 10, 2, 10.0), 1e-9));
        CHECK((rig.bones[size_t(box.bone)].angle + box.angle) / kDegree == Approx(30 + 15 - 90).margin(1e-9));
        // trim: 30 x 10 at x 5 on the forearm (scaleX 1.5); only x in [0, 20] is packed.
        const RigSprite& trim = rig.sprites[1];
        CHECK(trim.rect == PixelRect{100, 10, 20, 10});
        CHECK(sameCorners(spriteCorners(rig, trim), spineCorners(w[2], 0, 20, -5, 5, 0, 0, 0, 10.0), 1e-9));
        CHECK(int(trim.color[0]) == 255);
        CHECK(int(trim.color[1]) == 0);
        CHECK(int(trim.color[3]) == 128);
    }
}

TEST_CASE("import: a named skin is the default skin plus its own attachments", "[spine][import]") {
    const std::filesystem::path folder = freshFolder("skin");
    SpineImportOptions o = options(dataPath("mini.json"), folder / "mini.rig.xml");
    o.skin = "blue";
    o.scale = 10.0;
    ImportRun run = runImport(o);
    INFO(run.err);
    REQUIRE(run.exitCode == 0);
    RigLoadResult loaded = loadRigFile((folder / "mini.rig.xml").string());
    REQUIRE(loaded.rig);
    REQUIRE(loaded.rig->sprites.size() == 2);
    CHECK(loaded.rig->sprites[0].rect == PixelRect{10, 10, 20, 40});  // the default skin's box
    CHECK(int(loaded.rig->sprites[1].color[2]) == 0);   // slot red × attachment blue
    CHECK(int(loaded.rig->sprites[1].color[0]) == 0);
    CHECK(loaded.rig->sprites[1].centre.x == Approx((6.0 + 5.0) * 1.5 / 10.0 - 0.0).margin(1e-9));
}

TEST_CASE("import: a Bezier-curved clip is baked within 0.5 degrees of the Spine pose", "[spine][import][bake]") {
    const std::filesystem::path folder = freshFolder("bake");
    SpineImportOptions o = options(dataPath("mini.json"), folder / "mini.rig.xml");
    o.scale = 10.0;
    ImportRun run = runImport(o);
    INFO(run.err);
    REQUIRE(run.exitCode == 0);
    CHECK(run.out.find("swing -> mini.swing.anim.xml (once,") != std::string::npos);
    RigLoadResult loaded = loadRigFile((folder / "mini.rig.xml").string());
    REQUIRE(loaded.rig);
    ClipLoadResult clip = loadClipFile((folder / "mini.swing.anim.xml").string(), *loaded.rig);
    REQUIRE(clip.clip);
    CHECK_FALSE(clip.clip->loop);
    LocalPose pose;
    for (double t : {0.05, 0.3, 0.5, 0.71, 0.93}) {
        sampleClip(*clip.clip, *loaded.rig, t, pose);
        const double offset = (pose.angles[1] - loaded.rig->bones[1].localAngle) / kDegree;
        CHECK(offset == Approx(swingByFormula(t)).margin(0.5));
    }
}

TEST_CASE("import: the paper doll as Spine 4.2 becomes a rig that passes check and drop", "[spine][import][doll]") {
    const std::filesystem::path folder = freshFolder("doll");
    SpineImportOptions o = options(contentPath("spine/paper_doll.json"), folder / "doll.rig.xml");
    o.scale = 100.0;
    ImportRun run = runImport(o);
    INFO(run.err);
    REQUIRE(run.exitCode == 0);
    // Unsupported parts are warned about, each by name.
    CHECK(run.err.find("bounding box attachment 'hitbox' (slot 'hitbox'): not drawn by Paperdoll (skipped)") != std::string::npos);
    CHECK(run.err.find("'events' timelines are not baked (skipped)") != std::string::npos);
    CHECK(run.out.find("jointed to 'torso', the body nearest its helper bone 'hip'") != std::string::npos);
    CHECK(std::filesystem::exists(folder / "paper_doll.png"));

    RigLoadResult loaded = loadRigFile((folder / "doll.rig.xml").string());
    INFO(describe(loaded.diagnostics));
    REQUIRE(loaded.rig);
    const RigDefinition& rig = *loaded.rig;
    CHECK(rig.bones.size() == 10);  // root, hip and the foot targets carry no part
    CHECK(rig.bodies.size() == 10);
    CHECK(rig.joints.size() == 9);
    CHECK(rig.sprites.size() == 10);
    // The meshes: a rigid badge, a sash whose hip weights ride on the torso (so it is rigid
    // too), and a cuff weighted across the right elbow (on two rig bones, bending there).
    REQUIRE(rig.meshes.size() == 3);
    const int upperArm = rig.findBone("upper_arm_R"), forearm = rig.findBone("forearm_R");
    for (const RigMesh& mesh : {rig.meshes[0], rig.meshes[1]})
        for (const RigMeshVertex& vertex : mesh.vertices) {
            REQUIRE(vertex.weights.size() == 1);
            CHECK(vertex.weights[0].bone == rig.findBone("torso"));
        }
    const RigMesh& cuff = rig.meshes[2];
    REQUIRE(cuff.vertices.size() == 6);
    REQUIRE(cuff.vertices[2].weights.size() == 2);
    CHECK(cuff.vertices[2].weights[0].bone == upperArm);
    CHECK(cuff.vertices[2].weights[1].bone == forearm);
    CHECK(cuff.vertices[2].weights[0].weight == Approx(0.5));
    // Spine's (28, -4.5) on the upper arm and (0, -4.5) on the forearm: 1 unit = 1 cm.
    CHECK(cuff.vertices[2].weights[0].position.x == Approx(0.28));
    CHECK(cuff.vertices[2].weights[0].position.y == Approx(-0.045));
    CHECK(cuff.vertices[2].weights[1].position.x == Approx(0.0).margin(1e-12));
    // uvs (0.2, 0.15) of the forearm region (278, 2, 48 x 156 px in the page).
    CHECK(cuff.vertices[2].u == Approx(278 + 0.2 * 48));
    CHECK(cuff.vertices[2].v == Approx(2 + 0.15 * 156));
    CHECK(cuff.z == 13);
    const int torso = rig.findBone("torso"), head = rig.findBone("head"), thigh = rig.findBone("thigh_L");
    REQUIRE(torso == 0);  // the root: torso-like
    CHECK(rig.bones[size_t(thigh)].parent == torso);  // over the helper hip
    // The torso 8 kg and heaviest; the thigh (the median limb's art) 1.5 kg; radii from the art
    // (1 unit = 1 cm): the torso 24 cm wide, the head 30 x 31.
    CHECK(rig.bodies[size_t(rig.bodyOfBone(torso))].mass == Approx(8.0));
    CHECK(rig.bodies[size_t(rig.bodyOfBone(thigh))].mass == Approx(1.5));
    for (const RigBody& b : rig.bodies)
        if (b.bone != torso) CHECK(b.mass < 8.0);
    CHECK(rig.bodies[size_t(rig.bodyOfBone(torso))].radius == Approx(0.12));
    CHECK(rig.bodies[size_t(rig.bodyOfBone(head))].radius == Approx(0.15));
    CHECK(rig.bodies[size_t(rig.bodyOfBone(head))].shape == BodyShape::Circle);
    // Bones where Spine's setup pose puts them: the torso's origin on the hip at 1 m, upright.
    CHECK(rig.bones[size_t(torso)].origin.x == Approx(0.0).margin(1e-9));
    CHECK(rig.bones[size_t(torso)].origin.y == Approx(1.0).margin(1e-9));
    CHECK(rig.bones[size_t(torso)].angle / kDegree == Approx(90.0).margin(1e-9));
    CHECK(rig.bones[size_t(head)].origin.y == Approx(1.5).margin(1e-9));
    // The head part's centre: 15 up the head bone and 1 to its right (x 1 cm, y 1.65 m).
    for (const RigSprite& s : rig.sprites) {
        if (s.bone != head) continue;
        const RigBone& bone = rig.bones[size_t(head)];
        CHECK(bone.origin.x + std::cos(bone.angle) * s.centre.x - std::sin(bone.angle) * s.centre.y == Approx(0.01).margin(1e-9));
        CHECK(bone.origin.y + std::sin(bone.angle) * s.centre.x + std::cos(bone.angle) * s.centre.y == Approx(1.65).margin(1e-9));
    }
    // Elbows open the way the setup pose bends them (8 degrees counter-clockwise), knees the other.
    for (const RigJoint& j : rig.joints) {
        if (j.name == "forearm_L") {
            CHECK(j.lower / kDegree == Approx(-8.0).margin(1e-6));
            CHECK(j.upper / kDegree == Approx(132.0).margin(1e-6));
        }
        if (j.name == "shin_L") {
            // From the setup pose's bend the knee opens to a straight leg and no further.
            const double setupBend = rig.bones[size_t(rig.findBone("shin_L"))].localAngle;
            CHECK(setupBend < 0.0);
            CHECK(j.upper == Approx(-setupBend).margin(1e-9));
            CHECK(j.lower < 0.0);
        }
    }

    DropReport drop = dropRig(rig, DropOptions{});
    CHECK(drop.maxStretch <= 0.001);
    CHECK(drop.maxLimitViolationDegrees <= 1.0);
    CHECK_FALSE(drop.exploded);
    CHECK(drop.passed());
}

TEST_CASE("import: the baked walk matches the Spine pose (IK legs, Bezier arms) within 0.5 degrees", "[spine][import][bake]") {
    const std::filesystem::path folder = freshFolder("walk");
    SpineImportOptions o = options(contentPath("spine/paper_doll.json"), folder / "doll.rig.xml");
    o.scale = 100.0;
    REQUIRE(runImport(o).exitCode == 0);
    RigLoadResult loaded = loadRigFile((folder / "doll.rig.xml").string());
    REQUIRE(loaded.rig);
    const RigDefinition& rig = *loaded.rig;
    ClipLoadResult walk = loadClipFile((folder / "doll.walk.anim.xml").string(), rig);
    REQUIRE(walk.clip);
    CHECK(walk.clip->loop);
    CHECK(rootTravel(*walk.clip, 1.0) == Approx(1.0).margin(1e-6));  // the Spine root's 100 units a second

    SpineLoadResult spine = loadSpineJsonFile(contentPath("spine/paper_doll.json"));
    REQUIRE(spine.ok);
    const SpineAnimation* animation = nullptr;
    for (const SpineAnimation& a : spine.skeleton.animations)
        if (a.name == "walk") animation = &a;
    REQUIRE(animation);
    LocalPose pose;
    for (double t : {0.0, 0.13, 0.25, 0.37, 0.5, 0.61, 0.88}) {
        const std::vector<SpineWorld> w = poseSpineSkeleton(spine.skeleton, animation, t);
        sampleClip(*walk.clip, rig, t, pose);
        for (size_t b = 0; b < rig.bones.size(); ++b) {
            const int s = spine.skeleton.findBone(rig.bones[b].fileName);
            const int p = rig.bones[b].parent;
            const double parentAngle = p < 0 ? 0.0 : w[size_t(spine.skeleton.findBone(rig.bones[size_t(p)].fileName))].angleDegrees();
            INFO("bone " << rig.bones[b].fileName << " at t=" << t);
            CHECK(wrapDegrees(pose.angles[b] / kDegree - (w[size_t(s)].angleDegrees() - parentAngle)) == Approx(0.0).margin(0.5));
        }
    }
    // An independent number: at t = 0.25 the right arm's eased swing from -22 to 22 is half-way.
    sampleClip(*walk.clip, rig, 0.25, pose);
    const int arm = rig.findBone("upper_arm_R");
    CHECK((pose.angles[size_t(arm)] - rig.bones[size_t(arm)].localAngle) / kDegree == Approx(0.0).margin(0.5));
}

TEST_CASE("import: the 3.8 form of the doll gives the same rig and clips as the 4.2 form", "[spine][import]") {
    const std::filesystem::path a = freshFolder("form42"), b = freshFolder("form38");
    SpineImportOptions o42 = options(contentPath("spine/paper_doll.json"), a / "doll.rig.xml");
    SpineImportOptions o38 = options(contentPath("spine/paper_doll_38.json"), b / "doll.rig.xml");
    ImportRun r42 = runImport(o42), r38 = runImport(o38);
    INFO(r38.err);
    REQUIRE(r42.exitCode == 0);
    REQUIRE(r38.exitCode == 0);
    RigLoadResult x = loadRigFile((a / "doll.rig.xml").string()), y = loadRigFile((b / "doll.rig.xml").string());
    REQUIRE(x.rig);
    REQUIRE(y.rig);
    CHECK(x.rig->scale == Approx(y.rig->scale));
    REQUIRE(x.rig->bones.size() == y.rig->bones.size());
    for (size_t i = 0; i < x.rig->bones.size(); ++i) {
        CHECK(x.rig->bones[i].origin.x == Approx(y.rig->bones[i].origin.x).margin(1e-9));
        CHECK(x.rig->bones[i].angle == Approx(y.rig->bones[i].angle).margin(1e-9));
    }
    ClipLoadResult cx = loadClipFile((a / "doll.walk.anim.xml").string(), *x.rig);
    ClipLoadResult cy = loadClipFile((b / "doll.walk.anim.xml").string(), *y.rig);
    REQUIRE(cx.clip);
    REQUIRE(cy.clip);
    LocalPose px, py;
    for (double t : {0.1, 0.33, 0.6, 0.9}) {
        sampleClip(*cx.clip, *x.rig, t, px);
        sampleClip(*cy.clip, *y.rig, t, py);
        for (size_t i = 0; i < px.angles.size(); ++i) CHECK(px.angles[i] / kDegree == Approx(py.angles[i] / kDegree).margin(0.05));
    }
}

TEST_CASE("import: each bad input exits 1 with its file and line, and writes nothing", "[spine][import][errors]") {
    struct Case {
        const char* json;
        const char* atlas;
        const char* skin;
        std::string expected;
    };
    const std::vector<Case> cases = {
        {"syntax.json", "mini.atlas", "", dataPath("syntax.json") + ":5:5: error: JSON syntax error"},
        {"unknown_parent.json", "mini.atlas", "", dataPath("unknown_parent.json") + ":5: error: bone 'arm': parent 'shoulder' is not a bone"},
        {"cycle.json", "mini.atlas", "", dataPath("cycle.json") + ":5: error: bone 'a' is in a parent cycle"},
        {"slot_unknown_bone.json", "mini.atlas", "", dataPath("slot_unknown_bone.json") + ":5: error: slot 'hat': bone 'head' is not a bone"},
        {"missing_region.json", "missing_region.atlas", "",
         dataPath("missing_region.json") + ":6: error: attachment 'sleeve' (skin 'default', slot 'arm'): no region 'sleeve' in the atlas " +
             dataPath("missing_region.atlas")},
        {"missing_page.json", "missing_page.atlas", "", dataPath("missing_page.atlas") + ":1: error: page 'no_such_page.png': cannot read"},
        {"mini.json", "two_pages.atlas", "",
         dataPath("two_pages.atlas") + ":7: error: two pages share the file name 'paper_doll.png'"},
        // No declared page size to scale by (a PNG of another size than declared is scaled to).
        {"mini.json", "outside_page.atlas", "",
         dataPath("outside_page.atlas") + ":3: error: region 'box' reaches outside its page image (512 x 256)"},
        {"mini.json", "no_such.atlas", "", dataPath("no_such.atlas") + ": error: cannot open atlas: file not found"},
    };
    for (const Case& c : cases) {
        const std::filesystem::path folder = freshFolder("error");
        SpineImportOptions o = options(dataPath(c.json), folder / "out.rig.xml");
        o.atlasPath = dataPath(c.atlas);
        o.skin = c.skin;
        ImportRun run = runImport(o);
        INFO(c.json << " / " << c.atlas << ":\n" << run.err);
        CHECK(run.exitCode == 1);
        CHECK(run.err.find(c.expected) != std::string::npos);
        CHECK(run.out.empty());
        CHECK(filesIn(folder) == 0);
    }
}

TEST_CASE("import: every mistake in the JSON is reported in one run, each at its line, and nothing is written",
          "[spine][import][errors]") {
    // Three typos: a slot on bone 'thight_l', the torso's skin entry keyed 'torsoo' (so the
    // slot's setup attachment 'torso' is in no skin), an animation of bone 'shin_left'.
    nlohmann::ordered_json bot = botSkeleton();
    for (nlohmann::ordered_json& slot : bot["slots"])
        if (slot["name"] == "leg_l") slot["bone"] = "thight_l";
    nlohmann::ordered_json& skin = bot["skins"][0]["attachments"];
    skin["torso"] = {{"torsoo", skin["torso"]["torso"]}};
    bot["animations"]["walk"]["bones"]["shin_left"]["rotate"] =
        nlohmann::ordered_json::array({{{"value", 0}}, {{"time", 0.25}, {"value", -40}}, {{"time", 0.5}, {"value", 0}}});
    const std::filesystem::path folder = freshFolder("all_errors");
    const std::string path = writeBot(folder, bot).string();
    const std::string json = botText(bot);
    SpineImportOptions o = options(path, folder / "out" / "bot.rig.xml");
    std::filesystem::create_directories(folder / "out");
    ImportRun run = runImport(o);
    INFO(run.err);
    CHECK(run.exitCode == 1);
    const std::string expected =
        path + ":" + std::to_string(lineOf(json, "\"name\": \"leg_l\"")) + ": error: slot 'leg_l': bone 'thight_l' is not a bone\n" +
        path + ":" + std::to_string(lineOf(json, "\"name\": \"torso\"", "\"slots\"")) +
        ": error: slot 'torso': its setup attachment 'torso' is in no skin (looked in skin 'default', which holds 'torsoo' for "
        "this slot)\n" +
        path + ":" + std::to_string(lineOf(json, "\"shin_left\"")) + ": error: animation 'walk': 'shin_left' is not a bone\n";
    CHECK(run.err == expected);
    CHECK(run.out.empty());
    CHECK(std::filesystem::is_empty(folder / "out"));
}

TEST_CASE("import: a body whose art lies beside its bone is centred on the art", "[spine][import][physics]") {
    // A head bone of length 0 pointing right with its art drawn 14 units above it: its circle
    // sat on the bone, under the art (sunk into the ground when the figure lay on its back).
    nlohmann::ordered_json bot = botSkeleton();
    for (nlohmann::ordered_json& bone : bot["bones"])
        if (bone["name"] == "head") {
            bone["length"] = 0;
            bone["rotation"] = -90;
        }
    bot["skins"][0]["attachments"]["head"]["head"] = {{"y", 14}, {"width", 28}, {"height", 28}};
    const std::filesystem::path folder = freshFolder("art_beside");
    SpineImportOptions o = options(writeBot(folder, bot).string(), folder / "bot.rig.xml");
    o.scale = 100.0;
    ImportRun run = runImport(o);
    INFO(run.err);
    REQUIRE(run.exitCode == 0);
    // The bone is lengthened to reach across its art (14 units), so the circle moves from its
    // midpoint (7, 0) to the art's middle (0, 14) in the bone's frame: 15.7 cm.
    CHECK(run.out.find("), body moved 15.7 cm onto its art\n") != std::string::npos);
    RigLoadResult loaded = loadRigFile((folder / "bot.rig.xml").string());
    REQUIRE(loaded.rig);
    const RigDefinition& rig = *loaded.rig;
    auto worldCentre = [&](const char* name) {
        const int bone = rig.findBone(name);
        const RigBody& body = rig.bodies[size_t(rig.bodyOfBone(bone))];
        return rig.bones[size_t(bone)].origin + rotate(makeRot(rig.bones[size_t(bone)].angle), body.centreOn(rig.bones[size_t(bone)]));
    };
    auto artCentre = [&](const char* name) {
        const int bone = rig.findBone(name);
        for (const RigSprite& sprite : rig.sprites)
            if (sprite.bone == bone) return rig.bones[size_t(bone)].origin + rotate(makeRot(rig.bones[size_t(bone)].angle), sprite.centre);
        FAIL("no sprite on " << name);
        return Vec2{};
    };
    // 100 units a metre: the art's centre 0.14 m over the neck, and the circle on it.
    const Vec2 art = artCentre("head"), body = worldCentre("head");
    CHECK(art.y - rig.bones[size_t(rig.findBone("head"))].origin.y == Approx(0.14).margin(1e-9));
    CHECK(body.x == Approx(art.x).margin(1e-9));
    CHECK(body.y == Approx(art.y).margin(1e-9));
    // Art along its bone leaves the body on the bone (nothing written for it).
    CHECK_FALSE(rig.bodies[size_t(rig.bodyOfBone(rig.findBone("torso")))].centre);
    CHECK_FALSE(rig.bodies[size_t(rig.bodyOfBone(rig.findBone("thigh_l")))].centre);
}

TEST_CASE("import: the report counts in words ('1 mesh') and the rig file's limits and masses are rounded to read",
          "[spine][import]") {
    // The walk bends the left knee 40 degrees against its guess: its upper limit is 40 plus
    // the 5 degree margin, which through radians came out 45.000000000000014.
    nlohmann::ordered_json bot = botSkeleton();
    giveBotArmMesh(bot);
    bot["animations"]["walk"]["bones"]["shin_l"]["rotate"] =
        nlohmann::ordered_json::array({{{"value", 0}}, {{"time", 0.25}, {"value", 40}}, {{"time", 0.5}, {"value", 0}}});
    const std::filesystem::path folder = freshFolder("readable");
    SpineImportOptions o = options(writeBot(folder, bot).string(), folder / "bot.rig.xml");
    ImportRun run = runImport(o);
    INFO(run.err);
    REQUIRE(run.exitCode == 0);
    CHECK(run.out.find("\n  12 Spine bones -> 10 rig bones with bodies; ") != std::string::npos);
    CHECK(run.out.find("\n  8 sprites and 1 mesh on 1 image, ") != std::string::npos);
    CHECK(run.out.find(" kg, 9 joints\n") != std::string::npos);
    std::ifstream in(folder / "bot.rig.xml");
    const std::string rig((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK(rig.find("<joint name=\"shin_l\" parent=\"thigh_l\" child=\"shin_l\" lower=\"-140\" upper=\"45\" ") != std::string::npos);
    // Every mass to 0.1 g and every limit to 1e-6 degree: at most 4 and 6 decimals.
    size_t masses = 0, limits = 0;
    for (const auto& [key, decimals] : std::vector<std::pair<std::string, size_t>>{{" mass=\"", 4}, {" lower=\"", 6}, {" upper=\"", 6}})
        for (size_t at = rig.find(key); at != std::string::npos; at = rig.find(key, at + 1)) {
            const std::string value = rig.substr(at + key.size(), rig.find('"', at + key.size()) - at - key.size());
            INFO(key << value);
            const size_t point = value.find('.');
            CHECK((point == std::string::npos || value.size() - point - 1 <= decimals));
            ++(key == " mass=\"" ? masses : limits);
        }
    CHECK(masses == 10);
    CHECK(limits == 18);
}

TEST_CASE("import: a rig failing its own check names OUT, says nothing was written and, for sizes, the scale used",
          "[spine][import][errors]") {
    const std::filesystem::path folder = freshFolder("own_check");
    SpineImportOptions o = options(dataPath("mini.json"), folder / "mini.rig.xml");
    o.scale = 0.01;  // a thousandth of what fits: every radius is in kilometres
    ImportRun run = runImport(o);
    INFO(run.err);
    CHECK(run.exitCode == 1);
    CHECK(run.err.find(o.outPath + ": error: body: radius 1000 m of bone 'arm' is outside 0.0001 to 100 m\n") != std::string::npos);
    CHECK(run.err.ends_with(o.outPath + ": error: not imported (nothing written): the rig made from mini.json fails the rig's "
                                       "checks above; its sizes are the skeleton's at 0.01 units per metre (--scale), which makes "
                                       "the setup pose 5475 m tall: pass --scale UNITS_PER_METRE, how many of the skeleton's units "
                                       "make a metre (the setup pose is 54.75 units tall; without --scale it is taken as 1.8 m, "
                                       "--scale 30.4183)\n"));
    // No message names the rig as if it were beside the atlas page, where it never is.
    CHECK(run.err.find("content/art/mini.rig.xml") == std::string::npos);
    CHECK(filesIn(folder) == 0);
}

TEST_CASE("import: a scale far off lists the first sizes out of range and counts the rest, not the errors they cause",
          "[spine][import][errors]") {
    const std::filesystem::path folder = freshFolder("far_off");
    SpineImportOptions o = options(dataPath("mini.json"), folder / "mini.rig.xml");
    o.scale = 1e-4;  // every length in tens of kilometres: too large to read, sprites too
    ImportRun run = runImport(o);
    INFO(run.err);
    CHECK(run.exitCode == 1);
    size_t listed = 0;
    for (size_t at = run.err.find("is too large (more than"); at != std::string::npos; at = run.err.find("is too large (more than", at + 1))
        ++listed;
    CHECK(listed == 5);
    // A sprite refused for its size leaves its bone no radius: that error asked for a sprite
    // the import had written.
    CHECK(run.err.find("no radius for bone") == std::string::npos);
    CHECK(run.err.find(" more not listed; its sizes are the skeleton's at 0.0001 units per metre (--scale), which makes the "
                       "setup pose 547530 m tall") != std::string::npos);
    CHECK(filesIn(folder) == 0);
}

TEST_CASE("import: a part a bone's scale makes too thin (or 0) to draw is an error at its attachment, naming slot and bone",
          "[spine][import][errors]") {
    std::ifstream in(dataPath("mini.json"), std::ios::binary);
    const std::string mini((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::filesystem::path folder = freshFolder("thin");
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"1e-12", "error: attachment 'trim' (slot 'forearm', bone 'forearm') is drawn 0 x 10 units, too thin to draw (its bone "
                  "is stretched 0 x 1 in the setup pose)\n"},
        {"0", "error: attachment 'trim' (slot 'forearm', bone 'forearm') has no size in the setup pose (30 x 10 scaled 1 x 1, on "
              "its bone stretched 0 x 1)\n"},
    };
    for (const auto& [scaleX, expected] : cases) {
        std::string json = mini;
        json.replace(json.find("\"scaleX\": 1.5"), 13, "\"scaleX\": " + scaleX);
        const std::filesystem::path path = folder / "thin.json";
        std::ofstream(path, std::ios::binary) << json;
        SpineImportOptions o = options(path.string(), folder / "thin.rig.xml");
        o.atlasPath = dataPath("mini.atlas");
        o.scale = 10.0;
        ImportRun run = runImport(o);
        INFO(run.err);
        CHECK(run.exitCode == 1);
        CHECK(run.err == path.string() + ":15: " + expected);
    }
}

TEST_CASE("import --skin: a region missing from the atlas is reported at the skin's own entry, naming the skin",
          "[spine][import][errors]") {
    // mini.json's skin 'blue' has its own 'trim' on line 18 (the default skin's is on line
    // 15): here it names a region the atlas does not have.
    std::ifstream in(dataPath("mini.json"), std::ios::binary);
    std::string json((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string blue = "\"trim\": { \"x\": 6,";
    REQUIRE(json.find(blue) != std::string::npos);
    json.replace(json.find(blue), blue.size(), "\"trim\": { \"path\": \"trim_blue\", \"x\": 6,");
    const std::filesystem::path folder = freshFolder("skin_region");
    const std::filesystem::path path = folder / "skins.json";
    std::ofstream(path, std::ios::binary) << json;
    SpineImportOptions o = options(path.string(), folder / "skins.rig.xml");
    o.atlasPath = dataPath("mini.atlas");
    o.scale = 10.0;
    o.skin = "blue";
    ImportRun run = runImport(o);
    CHECK(run.exitCode == 1);
    CHECK(run.err == path.string() + ":18: error: attachment 'trim' (skin 'blue', slot 'forearm'): no region 'trim_blue' in the atlas " +
                         dataPath("mini.atlas") + "\n");
    // The default skin's own entry still imports, and is found on its line.
    o.skin.clear();
    CHECK(runImport(o).exitCode == 0);
    SpineLoadResult loaded = loadSpineJsonFile(path.string());
    REQUIRE(loaded.skeleton.skins.size() == 2);
    CHECK(loaded.skeleton.skins[0].attachments[1].line == 15);
    CHECK(loaded.skeleton.skins[1].attachments[0].line == 18);
}

TEST_CASE("import: a thigh listed before the torso, both under a helper hip, is jointed to the torso and drops",
          "[spine][import]") {
    // The rig bones keep Spine's order, so here the child comes before its new parent.
    const std::filesystem::path folder = freshFolder("helper_hip");
    SpineImportOptions o = options(dataPath("helper_hip.json"), folder / "hip.rig.xml");
    o.atlasPath = dataPath("mini.atlas");
    o.scale = 100.0;
    ImportRun run = runImport(o);
    INFO(run.err);
    REQUIRE(run.exitCode == 0);
    CHECK(run.out.find("jointed to 'torso', the body nearest its helper bone 'hip'") != std::string::npos);
    RigLoadResult loaded = loadRigFile((folder / "hip.rig.xml").string());
    REQUIRE(loaded.rig);
    const RigDefinition& rig = *loaded.rig;
    REQUIRE(rig.bones.size() == 2);
    const int thigh = rig.findBone("thigh"), torso = rig.findBone("torso");
    REQUIRE(thigh == 0);
    REQUIRE(torso == 1);
    CHECK(rig.bones[size_t(thigh)].parent == torso);
    // Both hang from the hip's point, (0, 1) m: the thigh pointing down, the torso up.
    CHECK(rig.bones[size_t(thigh)].origin.x == Approx(0.0).margin(1e-9));
    CHECK(rig.bones[size_t(thigh)].origin.y == Approx(1.0).margin(1e-9));
    CHECK(rig.bones[size_t(thigh)].tip().y == Approx(0.6).margin(1e-9));
    CHECK(rig.bones[size_t(torso)].tip().y == Approx(1.4).margin(1e-9));
    REQUIRE(rig.joints.size() == 1);
    CHECK(rig.joints[0].parent == torso);
    CHECK(rig.joints[0].child == thigh);
    const DropReport drop = dropRig(rig, DropOptions{});
    CHECK(drop.passed());
}

TEST_CASE("import: an existing OUT is refused without --force and replaced with it", "[spine][import]") {
    const std::filesystem::path folder = freshFolder("force");
    SpineImportOptions o = options(dataPath("mini.json"), folder / "mini.rig.xml");
    o.scale = 10.0;
    REQUIRE(runImport(o).exitCode == 0);
    const auto written = std::filesystem::last_write_time(folder / "mini.rig.xml");
    ImportRun again = runImport(o);
    CHECK(again.exitCode == 2);
    CHECK(again.err.find("already exists; pass --force") != std::string::npos);
    CHECK(std::filesystem::last_write_time(folder / "mini.rig.xml") == written);
    o.force = true;
    CHECK(runImport(o).exitCode == 0);
}

namespace {

/// Every entry of a folder: a file's bytes, "<folder>" for a folder.
std::map<std::string, std::string> folderContents(const std::filesystem::path& folder) {
    std::map<std::string, std::string> contents;
    for (const auto& entry : std::filesystem::directory_iterator(folder)) {
        std::string bytes = "<folder>";
        if (!entry.is_directory()) {
            std::ifstream in(entry.path(), std::ios::binary);
            bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
        }
        contents[entry.path().filename().string()] = bytes;
    }
    return contents;
}

}  // namespace

TEST_CASE("import --force never writes over what it reads: the atlas, its page image, the skeleton",
          "[spine][import]") {
    // The skeleton, its atlas and the atlas's page in one folder, as a Spine export leaves them.
    const std::filesystem::path folder = freshFolder("force_inputs");
    std::filesystem::copy_file(dataPath("mini.json"), folder / "mini.json");
    std::filesystem::copy_file(std::string(PAPERDOLL_CONTENT_DIR) + "/art/paper_doll.png", folder / "page.png");
    std::ifstream in(dataPath("mini.atlas"));
    std::string atlas((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    atlas.replace(0, atlas.find('\n'), "page.png");
    std::ofstream(folder / "mini.atlas") << atlas;
    const auto before = folderContents(folder);
    for (const char* out : {"page.png", "mini.atlas", "./mini.json"}) {
        SpineImportOptions o = options((folder / "mini.json").string(), folder / out);
        o.scale = 10.0;
        o.force = true;
        ImportRun run = runImport(o);
        CAPTURE(out, run.err);
        CHECK(run.exitCode == 2);
        CHECK(run.err.find("over the ") != std::string::npos);
        CHECK(run.err.find("' it reads; choose another OUT") != std::string::npos);
        CHECK(folderContents(folder) == before);  // the art, the atlas and the skeleton whole, no clip written
    }
}

TEST_CASE("import refuses an OUT named like the page copy it writes beside it, or a device or pipe", "[spine][import]") {
    // mini.atlas's page is paper_doll.png: the import copies it beside OUT. An OUT of that
    // name put the rig over the copy, then failed reading it back as a PNG.
    const std::filesystem::path folder = freshFolder("out_is_page");
    for (bool force : {false, true}) {
        SpineImportOptions o = options(dataPath("mini.json"), folder / "paper_doll.png");
        o.scale = 10.0;
        o.force = force;
        ImportRun run = runImport(o);
        CAPTURE(force, run.err);
        CHECK(run.exitCode == 2);
        CHECK(run.err.find("is where the import writes the atlas page's copy beside the rig; choose another OUT") !=
              std::string::npos);
        CHECK(std::filesystem::is_empty(folder));  // nothing written
    }
    // A FIFO as OUT: refused, left a FIFO, nothing written beside it.
    const std::filesystem::path fifo = folder / "out.rig.xml";
    REQUIRE(::mkfifo(fifo.c_str(), 0666) == 0);
    SpineImportOptions o = options(dataPath("mini.json"), fifo);
    o.scale = 10.0;
    o.force = true;
    ImportRun run = runImport(o);
    CAPTURE(run.err);
    CHECK(run.exitCode == 2);
    CHECK(run.err.find("is not a regular file (a device or a pipe)") != std::string::npos);
    CHECK(std::filesystem::is_fifo(fifo));
    CHECK(std::distance(std::filesystem::directory_iterator(folder), std::filesystem::directory_iterator()) == 1);
}

TEST_CASE("import --force: a write that fails leaves the previous import byte for byte, with no temporary files",
          "[spine][import][errors]") {
    const std::filesystem::path folder = freshFolder("failed_write");
    SpineImportOptions o = options(dataPath("mini.json"), folder / "mini.rig.xml");
    o.scale = 10.0;
    REQUIRE(runImport(o).exitCode == 0);
    std::map<std::string, std::string> before = folderContents(folder);
    REQUIRE(before.size() == 3);  // the page, the clip, the rig
    REQUIRE(before.count("mini.swing.anim.xml") == 1);
    o.force = true;
    o.scale = 20.0;  // every file but the page changes
    // A folder where a file of the import must go (a temporary file, then a backup of the
    // rig, the last file written) makes that one write fail: the first fails before any file
    // is replaced, the second after the page and the clip were.
    const std::string rig = (folder / "mini.rig.xml").string();
    const std::vector<std::pair<std::string, std::string>> blocks = {
        {".mini.rig.xml.import-tmp",
         "cannot write " + rig + " (through its temporary file .mini.rig.xml.import-tmp): Is a directory (no file was changed)"},
        {".mini.rig.xml.import-backup",
         "cannot replace " + rig + ": moving it aside to " + (folder / ".mini.rig.xml.import-backup").string() + " failed: "},
    };
    for (const auto& [blocked, why] : blocks) {
        INFO(blocked);
        std::filesystem::create_directories(folder / blocked / "in_the_way");
        ImportRun run = runImport(o);
        CHECK(run.exitCode == 1);
        CHECK(run.err.find(o.outPath + ": error: not imported: " + why) != std::string::npos);
        CHECK(run.err.ends_with(" (no file was changed)\n"));
        std::map<std::string, std::string> expected = before;
        expected[blocked] = "<folder>";
        CHECK(folderContents(folder) == expected);
        std::filesystem::remove_all(folder / blocked);
    }
    // A folder where the clip goes is refused before anything is written (moved aside, it
    // would have been left behind under the backup's name).
    std::filesystem::remove(folder / "mini.swing.anim.xml");
    std::filesystem::create_directories(folder / "mini.swing.anim.xml" / "in_the_way");
    ImportRun refused = runImport(o);
    CHECK(refused.exitCode == 1);
    CHECK(refused.err == o.outPath + ": error: not imported: " + (folder / "mini.swing.anim.xml").string() + " is a directory\n");
    std::map<std::string, std::string> expected = before;
    expected["mini.swing.anim.xml"] = "<folder>";
    CHECK(folderContents(folder) == expected);
    std::filesystem::remove_all(folder / "mini.swing.anim.xml");
    // And with nothing in the way the same import replaces them, leaving no temporary file.
    ImportRun run = runImport(o);
    INFO(run.err);
    REQUIRE(run.exitCode == 0);
    std::map<std::string, std::string> after = folderContents(folder);
    CHECK(after.size() == 3);
    CHECK(after["mini.rig.xml"] != before["mini.rig.xml"]);
    CHECK(after["paper_doll.png"] == before["paper_doll.png"]);
}

TEST_CASE("import: an atlas saved with a UTF-8 byte-order mark finds its first page", "[spine][import]") {
    const std::filesystem::path folder = freshFolder("bom");
    // mini.atlas with a mark in front, its page named by the full path (the atlas is moved).
    std::ifstream in(dataPath("mini.atlas"), std::ios::binary);
    std::string atlas((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    atlas.replace(0, atlas.find('\n'), contentPath("art/paper_doll.png"));
    const std::filesystem::path bomAtlas = folder / "bom.atlas";
    std::ofstream(bomAtlas, std::ios::binary) << "\xef\xbb\xbf" << atlas;
    SpineImportOptions o = options(dataPath("mini.json"), folder / "out" / "mini.rig.xml");
    std::filesystem::create_directory(folder / "out");
    o.atlasPath = bomAtlas.string();
    o.scale = 10.0;
    ImportRun run = runImport(o);
    INFO(run.err);
    CHECK(run.exitCode == 0);
    CHECK(run.err.empty());
    CHECK(std::filesystem::exists(folder / "out" / "paper_doll.png"));
}

TEST_CASE("rig check --json gives the imported bones, bodies, joints and sprite quads in the world", "[spine][import][json]") {
    const std::filesystem::path folder = freshFolder("json");
    SpineImportOptions o = options(dataPath("mini.json"), folder / "mini.rig.xml");
    o.scale = 10.0;
    REQUIRE(runImport(o).exitCode == 0);
    std::ostringstream out, err;
    REQUIRE(runRigCommand({"rig", "check", "--json", (folder / "mini.rig.xml").string()}, out, err) == 0);
    const nlohmann::json doc = nlohmann::json::parse(out.str());
    CHECK(doc["ok"] == true);
    const nlohmann::json& rig = doc["rigs"][0];
    REQUIRE(rig["bones"].size() == 2);
    // arm: from (10, 5) along 30 degrees for 20 units; forearm: from the arm's tip along 75
    // degrees for 10 units scaled 1.5 (10 units a metre).
    const nlohmann::json& arm = rig["bones"][0];
    CHECK(arm["name"] == "arm");
    CHECK(arm["start"][0].get<double>() == Approx(1.0).margin(1e-9));
    CHECK(arm["start"][1].get<double>() == Approx(0.5).margin(1e-9));
    CHECK(arm["end"][0].get<double>() == Approx(1.0 + 2.0 * std::cos(30 * kDegree)).margin(1e-9));
    CHECK(arm["end"][1].get<double>() == Approx(0.5 + 2.0 * std::sin(30 * kDegree)).margin(1e-9));
    const nlohmann::json& forearm = rig["bones"][1];
    CHECK(forearm["start"][0].get<double>() == Approx(1.0 + 2.0 * std::cos(30 * kDegree)).margin(1e-9));
    CHECK(forearm["end"][0].get<double>() == Approx(1.0 + 2.0 * std::cos(30 * kDegree) + 1.5 * std::cos(75 * kDegree)).margin(1e-9));
    CHECK(forearm["end"][1].get<double>() == Approx(0.5 + 2.0 * std::sin(30 * kDegree) + 1.5 * std::sin(75 * kDegree)).margin(1e-9));
    REQUIRE(rig["bodies"].size() == 2);
    REQUIRE(rig["joints"].size() == 1);
    CHECK(rig["joints"][0]["parent"] == "arm");
    CHECK(rig["joints"][0]["anchor"][0] == forearm["start"][0]);
    // The box's quad is where the attachment is.
    SpineLoadResult spine = loadSpineJsonFile(dataPath("mini.json"));
    const std::vector<SpineWorld> w = poseSpineSkeleton(spine.skeleton, nullptr, 0.0);
    std::array<Corner, 4> quad{};
    for (size_t i = 0; i < 4; ++i) quad[i] = {rig["sprites"][0]["quad"][i][0].get<double>(), rig["sprites"][0]["quad"][i][1].get<double>()};
    CHECK(sameCorners(quad, spineCorners(w[1], -20, 20, -10, 10, 15, 10, 2, 10.0), 1e-9));
    CHECK(rig["sprites"][0]["rect"] == nlohmann::json::array({10, 10, 20, 40}));

    // A file that does not load: its errors in the document, and exit 1.
    std::ostringstream badOut, badErr;
    CHECK(runRigCommand({"rig", "check", "--json", dataPath("mini.json")}, badOut, badErr) == 1);
    const nlohmann::json bad = nlohmann::json::parse(badOut.str());
    CHECK(bad["ok"] == false);
    CHECK(bad["rigs"][0]["errors"].size() >= 1);
}

TEST_CASE("import: a linked mesh takes its parent's vertices and its own region", "[spine][import][mesh]") {
    const std::filesystem::path folder = freshFolder("linked");
    SpineImportOptions o = options(dataPath("linked.json"), folder / "linked.rig.xml");
    o.atlasPath = dataPath("mini.atlas");
    o.scale = 10.0;
    ImportRun run = runImport(o);
    INFO(run.err);
    REQUIRE(run.exitCode == 0);
    RigLoadResult loaded = loadRigFile((folder / "linked.rig.xml").string());
    REQUIRE(loaded.rig);
    REQUIRE(loaded.rig->meshes.size() == 1);
    const RigMesh& mesh = loaded.rig->meshes[0];
    REQUIRE(mesh.vertices.size() == 4);
    CHECK(mesh.triangles == std::vector<int>{0, 1, 3, 1, 2, 3});
    // uv (0.5, 0.5) of 'trim' (30 x 10 originally, the packed 20 x 10 from x 10): pixel (15, 5)
    // of the original is (5, 5) of the packed pixels, at (100, 10) in the page.
    CHECK(mesh.vertices[3].u == Approx(105.0));
    CHECK(mesh.vertices[3].v == Approx(15.0));
    // The vertex (10, 0) on the arm (pointing up from the origin): 1 m up, 10 units a metre.
    const RigBone& arm = loaded.rig->bones[size_t(mesh.vertices[3].weights[0].bone)];
    const Vec2 p = arm.origin + rotate(makeRot(arm.angle), mesh.vertices[3].weights[0].position);
    CHECK(p.x == Approx(0.0).margin(1e-9));
    CHECK(p.y == Approx(1.0).margin(1e-9));
}

TEST_CASE("pose: a transform constraint moves and turns its bone to the target's, plus offsets", "[spine][pose]") {
    SpineLoadResult r = loadSpineJsonFile(dataPath("transform.json"));
    REQUIRE(r.ok);
    std::vector<SpineWorld> w = poseSpineSkeleton(r.skeleton, nullptr, 0.0);
    CHECK(w[1].angleDegrees() == Approx(45.0).margin(1e-9));
    CHECK(w[1].x == Approx(3.0 * std::cos(40 * kDegree)).margin(1e-9));
    CHECK(w[1].y == Approx(20.0 + 3.0 * std::sin(40 * kDegree)).margin(1e-9));
    // Half the mixes: half way there.
    r.skeleton.transforms[0].mixRotate = 0.5;
    r.skeleton.transforms[0].mixX = r.skeleton.transforms[0].mixY = 0.5;
    w = poseSpineSkeleton(r.skeleton, nullptr, 0.0);
    CHECK(w[1].angleDegrees() == Approx(22.5).margin(1e-9));
    CHECK(w[1].x == Approx(0.5 * (10.0 + 3.0 * std::cos(40 * kDegree))).margin(1e-9));
}

TEST_CASE("import: --loop names the clips that loop, and by default idle, walk and run loop idle, walk and run", "[spine][import][bake]") {
    CHECK(loopsByDefault("idle"));
    CHECK(loopsByDefault("Walk_fast"));
    CHECK(loopsByDefault("run"));
    CHECK_FALSE(loopsByDefault("jump"));
    CHECK(clipRoleOf("hero-getUp") == "get_up");
    CHECK(clipRoleOf("idle2") == "idle");
    CHECK(clipRoleOf("attack") == "");
    const std::filesystem::path folder = freshFolder("loop");
    SpineImportOptions o = options(dataPath("mini.json"), folder / "mini.rig.xml");
    o.scale = 10.0;
    o.loops = std::vector<std::string>{"swing"};
    ImportRun run = runImport(o);
    INFO(run.err);
    REQUIRE(run.exitCode == 0);
    RigLoadResult loaded = loadRigFile((folder / "mini.rig.xml").string());
    REQUIRE(loaded.rig);
    ClipLoadResult clip = loadClipFile((folder / "mini.swing.anim.xml").string(), *loaded.rig);
    REQUIRE(clip.clip);
    CHECK(clip.clip->loop);
    // Not a role: listed in the rig under its own name, for scripts.
    CHECK(loaded.rig->findClip("swing") != nullptr);
}

TEST_CASE("import: --loop leaving out a clip that loops by default says so", "[spine][import][bake]") {
    // `--loop jump` stopped idle and walk looping without a word: the walk played once.
    nlohmann::ordered_json bot = botSkeleton();
    const nlohmann::ordered_json still = {{"bones", {{"shin_l", {{"rotate", nlohmann::ordered_json::array({{{"value", 0}}})}}}}}};
    for (const char* name : {"walk", "idle", "run_fast"}) bot["animations"][name] = still;
    const std::filesystem::path folder = freshFolder("loop_warning");
    const std::string json = writeBot(folder, bot).string();
    auto importWith = [&](const std::vector<std::string>& loops) {
        SpineImportOptions o = options(json, folder / "bot.rig.xml");
        o.loops = loops;
        o.force = true;
        ImportRun run = runImport(o);
        INFO(run.err);
        CHECK(run.exitCode == 0);
        return run.err;
    };
    CHECK_THAT(importWith({"walk"}),
               Catch::Contains(json + ": warning: --loop names every clip that loops: 'idle', 'run_fast' loop by default and will not "
                                      "(name them to --loop too to keep them looping)\n"));
    CHECK_THAT(importWith({"walk", "run_fast"}),
               Catch::Contains(json + ": warning: --loop names every clip that loops: 'idle' loops by default and will not "
                                      "(name it to --loop too to keep it looping)\n"));
    CHECK(importWith({"walk", "run_fast", "idle"}).find("--loop") == std::string::npos);
}

TEST_CASE("import: a get-up named front or back plays that get-up, one named neither plays both, or the one left",
          "[spine][import][bake]") {
    // 'getup-back' and 'getup-front' were both "get_up": the first played both get-ups and
    // the second was a script-only clip.
    CHECK(clipRoleOf("getup-back") == "get_up_back");
    CHECK(clipRoleOf("Stand_Up_Prone") == "get_up_front");
    CHECK(clipRoleOf("get up from belly") == "get_up_front");
    CHECK(clipRoleOf("getUp") == "get_up");
    const nlohmann::ordered_json still = {{"bones", {{"shin_l", {{"rotate", nlohmann::ordered_json::array({{{"value", 0}}})}}}}}};
    auto clipsOf = [&](const std::vector<std::string>& animations) {
        nlohmann::ordered_json bot = botSkeleton();
        for (const std::string& name : animations) bot["animations"][name] = still;
        const std::filesystem::path folder = freshFolder("get_ups");
        ImportRun run = runImport(options(writeBot(folder, bot).string(), folder / "bot.rig.xml"));
        INFO(run.err);
        REQUIRE(run.exitCode == 0);
        RigLoadResult loaded = loadRigFile((folder / "bot.rig.xml").string());
        REQUIRE(loaded.rig);
        std::string clips;
        for (const RigClip& clip : loaded.rig->clips)
            if (clip.name.find("get") != std::string::npos) clips += clip.name + "=" + clip.file + " ";
        return clips;
    };
    CHECK(clipsOf({"getup-back", "getup-front"}) == "get_up_back=bot.getup-back.anim.xml get_up_front=bot.getup-front.anim.xml ");
    CHECK(clipsOf({"get_up", "getup_back"}) == "get_up_front=bot.get_up.anim.xml get_up_back=bot.getup_back.anim.xml ");
    CHECK(clipsOf({"getUp"}) == "get_up_front=bot.getUp.anim.xml get_up_back=bot.getUp.anim.xml ");
}

TEST_CASE("import: --loop with a name that is no animation, or with no name, is refused (exit 2), naming the animations",
          "[spine][import][bake]") {
    const std::filesystem::path folder = freshFolder("loop_unknown");
    const std::string out = (folder / "mini.rig.xml").string();
    struct Case {
        std::vector<std::string> loop;
        std::string expected;
    };
    const std::vector<Case> cases = {
        {{"--loop", "swing", "swang"},
         "paperdoll rig: error: --loop 'swang': " + dataPath("mini.json") + " has no animation by that name (it has 'swing')\n"},
        {{"--loop=Swing"},
         "paperdoll rig: error: --loop 'Swing': " + dataPath("mini.json") + " has no animation by that name (it has 'swing')\n"},
        {{"--loop"}, "paperdoll rig: error: --loop needs an animation NAME (or several)\n"},
        {{"--loop", "--force"}, "paperdoll rig: error: --loop needs an animation NAME (or several)\n"},
        {{"--loop="}, "paperdoll rig: error: --loop needs an animation NAME\n"},
    };
    for (const Case& c : cases) {
        std::vector<std::string> args = {"rig", "import", dataPath("mini.json"), out, "--scale", "10"};
        args.insert(args.end(), c.loop.begin(), c.loop.end());
        std::ostringstream printed, err;
        INFO(c.loop.back());
        CHECK(runRigCommand(args, printed, err) == 2);
        CHECK(err.str().starts_with(c.expected));
        CHECK(filesIn(folder) == 0);
    }
}

TEST_CASE("import: --skin with a name that is no skin is refused (exit 2) as --loop's is, naming the skins",
          "[spine][import]") {
    const std::filesystem::path folder = freshFolder("skin_unknown");
    const std::string out = (folder / "mini.rig.xml").string();
    for (const auto& [skin, expected] : std::vector<std::pair<std::string, std::string>>{
             {"green", "paperdoll rig: error: --skin 'green': " + dataPath("mini.json") +
                           " has no skin by that name (it has 'default', 'blue')\n"},
             {"bleu", "paperdoll rig: error: --skin 'bleu': " + dataPath("mini.json") +
                          " has no skin by that name (it has 'default', 'blue'); did you mean 'blue'?\n"}}) {
        std::ostringstream printed, err;
        INFO(skin);
        CHECK(runRigCommand({"rig", "import", dataPath("mini.json"), out, "--atlas", dataPath("mini.atlas"), "--skin", skin},
                            printed, err) == 2);
        CHECK(err.str() == expected);
        CHECK(printed.str().empty());
        CHECK(filesIn(folder) == 0);
    }
}

TEST_CASE("import: OUT in a folder that is not there is refused before anything is read (exit 2), naming the folder",
          "[spine][import][errors]") {
    // The whole import ran, then failed at its first write naming a temporary file.
    const std::filesystem::path folder = freshFolder("no_out_folder");
    const std::string nodir = (folder / "nodir").string();
    for (const std::string& json : {dataPath("mini.json"), (folder / "missing.json").string()}) {
        std::ostringstream printed, err;
        INFO(json);
        CHECK(runRigCommand({"rig", "import", json, nodir + "/hero.rig.xml", "--atlas", dataPath("mini.atlas"), "--scale", "10"},
                            printed, err) == 2);
        CHECK(err.str() == "paperdoll rig: error: OUT '" + nodir + "/hero.rig.xml': '" + nodir + "' does not exist\n");
        CHECK(printed.str().empty());
    }
    CHECK(filesIn(folder) == 0);
}

TEST_CASE("import: an OUT not ending in .rig.xml is refused (exit 2): the editor lists rigs by that ending",
          "[spine][import][errors]") {
    const std::filesystem::path folder = freshFolder("out_name");
    for (const char* name : {"x.txt", "hero.xml", ".rig.xml"}) {
        const std::string out = (folder / name).string();
        std::ostringstream printed, err;
        INFO(name);
        CHECK(runRigCommand({"rig", "import", dataPath("mini.json"), out, "--atlas", dataPath("mini.atlas"), "--scale", "10"},
                            printed, err) == 2);
        CHECK(err.str().starts_with("paperdoll rig: error: OUT '" + out +
                                    "' must end in .rig.xml (the editor lists rigs by that ending)\n"));
        CHECK(filesIn(folder) == 0);
    }
}

TEST_CASE("import: a region missing from the atlas names the one a slip away", "[spine][import][atlas]") {
    const std::filesystem::path folder = freshFolder("region_slip");
    const std::filesystem::path json = writeBot(folder, botSkeleton());
    std::ifstream in(folder / "bot.atlas");
    std::string atlas((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    in.close();
    atlas.replace(atlas.find("head\n"), 5, "haed\n");
    std::ofstream(folder / "bot.atlas", std::ios::trunc) << atlas;
    SpineImportOptions o = options(json.string(), folder / "out.rig.xml");
    o.scale = 100.0;
    ImportRun run = runImport(o);
    CHECK(run.exitCode == 1);
    CHECK(run.err.starts_with(json.string() + ":"));
    CHECK(run.err.ends_with(": error: attachment 'head' (skin 'default', slot 'head'): no region 'head' in the atlas " +
                            (folder / "bot.atlas").string() + "; did you mean 'haed'?\n"));
}

TEST_CASE("import: with no SKELETON.atlas, an atlas beside it under a longer name is pointed to", "[spine][import][atlas]") {
    // Spine can export the atlas as NAME.atlas.txt; the import looks for NAME.atlas.
    const std::filesystem::path folder = freshFolder("atlas_txt");
    const std::filesystem::path json = writeBot(folder, botSkeleton());
    std::filesystem::rename(folder / "bot.atlas", folder / "bot.atlas.txt");
    SpineImportOptions o = options(json.string(), folder / "out.rig.xml");
    o.scale = 100.0;
    ImportRun run = runImport(o);
    CHECK(run.exitCode == 1);
    CHECK(run.err == (folder / "bot.atlas").string() +
                         ": error: cannot open atlas: file not found; bot.atlas.txt is beside the skeleton: pass it as "
                         "--atlas FILE (--atlas " + (folder / "bot.atlas.txt").string() + ")\n");
    o.atlasPath = (folder / "bot.atlas.txt").string();
    CHECK(runImport(o).exitCode == 0);
}

TEST_CASE("import: warnings are printed by file and line, whatever order they were found in", "[spine][import]") {
    // Two bounding boxes: slot 'early' first among the slots, its skin entry last; slot
    // 'late' the other way round. Found in slot order, they were said lines back.
    using json = nlohmann::ordered_json;
    json bot = botSkeleton();
    bot["slots"].insert(bot["slots"].begin(), json{{"name", "early"}, {"bone", "torso"}, {"attachment", "box_early"}});
    bot["slots"].push_back(json{{"name", "late"}, {"bone", "torso"}, {"attachment", "box_late"}});
    const json box = {{"type", "boundingbox"}, {"vertexCount", 3}, {"vertices", {0, 0, 10, 0, 0, 10}}};
    json attachments = json::object();
    attachments["late"] = {{"box_late", box}};
    for (const auto& [slot, entry] : bot["skins"][0]["attachments"].items()) attachments[slot] = entry;
    attachments["early"] = {{"box_early", box}};
    bot["skins"][0]["attachments"] = attachments;
    const std::filesystem::path folder = freshFolder("warning_order");
    const std::filesystem::path path = writeBot(folder, bot);
    SpineImportOptions o = options(path.string(), folder / "bot.rig.xml");
    o.scale = 100.0;
    ImportRun run = runImport(o);
    INFO(run.err);
    REQUIRE(run.exitCode == 0);
    const std::string late = ": warning: bounding box attachment 'box_late' (slot 'late')";
    const std::string early = ": warning: bounding box attachment 'box_early' (slot 'early')";
    REQUIRE(run.err.find(late) != std::string::npos);
    REQUIRE(run.err.find(early) != std::string::npos);
    CHECK(run.err.find(late) < run.err.find(early));
}

TEST_CASE("import: an animation named with dashes and '>' bakes a clip file that loads (its comment stays one comment)",
          "[spine][import][bake]") {
    const std::filesystem::path folder = freshFolder("dashes");
    std::ifstream in(dataPath("mini.json"));
    std::string json((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const size_t at = json.find("\"swing\"");
    REQUIRE(at != std::string::npos);
    json.replace(at, 7, "\"swing-->fast-\"");
    std::ofstream(folder / "dashed--doll-.json") << json;
    SpineImportOptions o = options((folder / "dashed--doll-.json").string(), folder / "dashed.rig.xml");
    o.atlasPath = dataPath("mini.atlas");
    o.scale = 10.0;
    ImportRun run = runImport(o);
    INFO(run.err);
    REQUIRE(run.exitCode == 0);
    RigLoadResult loaded = loadRigFile((folder / "dashed.rig.xml").string());
    REQUIRE(loaded.rig);
    const std::filesystem::path clipFile = folder / "dashed.swing--_fast-.anim.xml";
    ClipLoadResult clip = loadClipFile(clipFile.string(), *loaded.rig);
    INFO(describe(clip.diagnostics));
    CHECK(clip.clip);
    // Well-formed XML (tinyxml2 is lenient here, other readers are not): the comment runs to
    // its own end, with no "--" inside it.
    std::ifstream in2(clipFile);
    const std::string text((std::istreambuf_iterator<char>(in2)), std::istreambuf_iterator<char>());
    const size_t open = text.find("<!--");
    REQUIRE(open != std::string::npos);
    const size_t close = text.find("-->", open + 4);
    REQUIRE(close != std::string::npos);
    const std::string body = text.substr(open + 4, close - open - 4);
    INFO(body);
    CHECK(body.find("--") == std::string::npos);
    CHECK(body.find("sampled at") != std::string::npos);
}

TEST_CASE("content/spine/imported is what rig import makes of content/spine/paper_doll.json", "[spine][import][content]") {
    // The committed import stays in step with the importer and the generator's output:
    // re-run `paperdoll rig import content/spine/paper_doll.json
    // content/spine/imported/spine_doll.rig.xml --scale 100 --force` when this fails.
    const std::filesystem::path folder = freshFolder("content");
    SpineImportOptions o = options(contentPath("spine/paper_doll.json"), folder / "spine_doll.rig.xml");
    o.scale = 100.0;
    REQUIRE(runImport(o).exitCode == 0);
    size_t compared = 0;
    for (const auto& entry : std::filesystem::directory_iterator(folder)) {
        const std::filesystem::path committed = std::filesystem::path(contentPath("spine/imported")) / entry.path().filename();
        INFO(entry.path().filename().string());
        REQUIRE(std::filesystem::exists(committed));
        std::ifstream a(entry.path(), std::ios::binary), b(committed, std::ios::binary);
        const std::string made((std::istreambuf_iterator<char>(a)), std::istreambuf_iterator<char>());
        const std::string kept((std::istreambuf_iterator<char>(b)), std::istreambuf_iterator<char>());
        CHECK(made == kept);
        ++compared;
    }
    CHECK(compared == 5);  // the rig, three clips and the page
}

TEST_CASE("import: an animation moving a bone off its place on its parent is warned about", "[spine][import][bake]") {
    const std::filesystem::path folder = freshFolder("drift");
    SpineImportOptions o = options(dataPath("drift.json"), folder / "drift.rig.xml");
    o.atlasPath = dataPath("mini.atlas");
    o.scale = 10.0;
    ImportRun run = runImport(o);
    INFO(run.err);
    REQUIRE(run.exitCode == 0);
    CHECK(run.err.find(dataPath("drift.json") + ":17: warning: animation 'stretch': bone 'forearm' moves up to 8 units off its "
                                                "place on 'arm'") != std::string::npos);
    // The doll's walk moves nothing off its place (its hip bobs with the torso on it).
    const std::filesystem::path doll = freshFolder("drift_doll");
    ImportRun walk = runImport(options(contentPath("spine/paper_doll.json"), doll / "doll.rig.xml"));
    REQUIRE(walk.exitCode == 0);
    CHECK(walk.err.find("off its place") == std::string::npos);
}

TEST_CASE("import: art a negative scale mirrors is drawn mirrored, each corner of its rect where Spine draws it",
          "[spine][import]") {
    // A negative scale on the arm, the root or an attachment mirrors the region in Spine. A
    // sprite could only turn, so the art came out with its top and bottom swapped (and a
    // warning said so); now it carries flip="y". Each corner of each region's rect in its
    // page is compared with where Spine's runtime puts that texel: the box is stored turned
    // in the page, the trim has its whitespace stripped.
    struct Case {
        const char* name;
        const char* json;
        std::vector<std::pair<std::string, std::string>> edits;  ///< text replaced in the JSON
        RegionAttachmentSource box, trim;  ///< as the edited JSON has them
        bool boxMirrored, trimMirrored;
    };
    const RegionAttachmentSource box{10, 2, 15, 40, 20}, trim{5, 0, 0, 30, 10};
    RegionAttachmentSource trimFlipped = trim, boxUpsideDown = box;
    trimFlipped.scaleX = -1;
    boxUpsideDown.scaleY = -1;
    const std::string arm = "\"rotation\": 30 }", arm38 = "\"rotation\": 30, \"transform\": \"normal\" }";
    const Case cases[] = {
        {"plain", "mini.json", {}, box, trim, false, false},
        {"arm_scaleY", "mini.json", {{arm, "\"rotation\": 30, \"scaleY\": -1 }"}}, box, trim, true, true},
        {"arm_scaleX", "mini.json", {{arm, "\"rotation\": 30, \"scaleX\": -1 }"}}, box, trim, true, true},
        {"root_scaleX", "mini.json", {{"{ \"name\": \"root\" }", "{ \"name\": \"root\", \"scaleX\": -1 }"}}, box, trim, true, true},
        {"attachment_scaleX", "mini.json", {{"\"trim\": { \"x\": 5,", "\"trim\": { \"x\": 5, \"scaleX\": -1,"}}, box, trimFlipped,
         false, true},
        // Mirrored twice over, the box is only turned: no flip.
        {"arm_and_box_scaleY", "mini.json",
         {{arm, "\"rotation\": 30, \"scaleY\": -1 }"}, {"\"box\": { \"x\": 10,", "\"box\": { \"x\": 10, \"scaleY\": -1,"}},
         boxUpsideDown, trim, false, true},
        {"arm_scaleY_38", "mini_38.json", {{arm38, "\"rotation\": 30, \"transform\": \"normal\", \"scaleY\": -1 }"}}, box, trim,
         true, true},
    };
    // The box: bounds 10,10,40,20 stored turned; the trim: 20 x 10 packed at 100,10 of 30 x
    // 10, 10 stripped at its left. Both atlas forms say the same.
    const RegionSource boxRegion{10, 10, 40, 20, 0, 0, 40, 20, true}, trimRegion{100, 10, 20, 10, 10, 0, 30, 10, false};
    for (const Case& c : cases) {
        for (const char* atlas : {"mini.atlas", "mini_old.atlas"}) {
            INFO(c.name << " with " << atlas);
            const std::filesystem::path folder = freshFolder(std::string("mirrored_") + c.name + "_" + atlas);
            std::ifstream in(dataPath(c.json));
            std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            for (const auto& [from, to] : c.edits) {
                REQUIRE(text.find(from) != std::string::npos);
                text.replace(text.find(from), from.size(), to);
            }
            const std::string json = (folder / "mirrored.json").string();
            std::ofstream(json) << text;
            SpineImportOptions o = options(json, folder / "mirrored.rig.xml");
            o.atlasPath = dataPath(atlas);
            o.scale = 10.0;
            const ImportRun run = runImport(o);
            INFO(run.err);
            REQUIRE(run.exitCode == 0);
            CHECK(run.err.find("mirror") == std::string::npos);  // nothing is left drawn otherwise
            CHECK(run.err.find("flipped") == std::string::npos);
            const RigLoadResult loaded = loadRigFile((folder / "mirrored.rig.xml").string());
            REQUIRE(loaded.rig);
            const RigDefinition& rig = *loaded.rig;
            REQUIRE(rig.sprites.size() == 2);
            const SpineLoadResult spine = loadSpineJsonFile(json);
            const std::vector<SpineWorld> w = poseSpineSkeleton(spine.skeleton, nullptr, 0.0);
            const struct {
                const char* name;
                const RigSprite& sprite;
                std::array<TexelCorner, 4> spine;
                bool mirrored;
            } parts[] = {{"box", rig.sprites[0], spineRegionCorners(w[1], c.box, boxRegion, 10.0), c.boxMirrored},
                         {"trim", rig.sprites[1], spineRegionCorners(w[2], c.trim, trimRegion, 10.0), c.trimMirrored}};
            for (const auto& part : parts) {
                INFO(part.name << ": flip " << flipName(part.sprite) << ", angle " << part.sprite.angle / kDegree);
                CHECK(part.sprite.flipY == part.mirrored);
                CHECK_FALSE(part.sprite.flipX);
                for (const TexelCorner& corner : part.spine) {
                    const Corner drawn = drawnAt(rig, part.sprite, corner.page);
                    INFO("page (" << corner.page[0] << ", " << corner.page[1] << "): Spine draws it at (" << corner.world[0]
                                  << ", " << corner.world[1] << ") m, the rig at (" << drawn[0] << ", " << drawn[1] << ") m");
                    CHECK(std::hypot(drawn[0] - corner.world[0], drawn[1] - corner.world[1]) < 1e-8);
                }
            }
        }
    }
}

TEST_CASE("import: a bone's inherit mode places and mirrors its art as Spine draws it, under a mirrored parent",
          "[spine][import]") {
    // noScale was posed as noScaleOrReflection (the parent's rotation alone, its mirror
    // lost), noRotationOrReflection as the parent's scale along the world's axes, and a
    // mirrored parent turned the direction of both noScale modes the wrong way round. Each
    // corner of the forearm's trim (and the arm's box) is compared with where Spine's
    // rules put that texel, to 1e-8 m, and the forearm's angle and flip are checked.
    struct Case {
        const char* name;
        const char* json;
        std::vector<std::pair<std::string, std::string>> edits;  ///< text replaced in the JSON
        double root[2], arm[3], forearm[2];  ///< root scale x, y; arm scale x, y and box rotation; forearm rotation, scaleX
        const char* inherit;
        bool forearmMirrored;
        double forearmDegrees;  ///< the forearm's +x in the world, by hand
    };
    const std::string arm = "\"rotation\": 30 }", forearm = "\"rotation\": 45, \"scaleX\": 1.5 }";
    const std::string arm38 = "\"rotation\": 30, \"transform\": \"normal\" }";
    const Case cases[] = {
        // The arm mirrored (scaleY -1, turned 30): the forearm's 45 degrees go clockwise, to -15.
        {"noScale", "mini.json", {{arm, "\"rotation\": 30, \"scaleY\": -1 }"}, {forearm, forearm.substr(0, forearm.size() - 1) + ", \"inherit\": \"noScale\" }"}},
         {1, 1}, {1, -1, 15}, {45, 1.5}, "noScale", true, -15},
        {"noScale_38", "mini_38.json",
         {{arm38, "\"rotation\": 30, \"transform\": \"normal\", \"scaleY\": -1 }"},
          {forearm, forearm.substr(0, forearm.size() - 1) + ", \"transform\": \"noScale\" }"}},
         {1, 1}, {1, -1, 15}, {45, 1.5}, "noScale", true, -15},
        {"noScaleOrReflection", "mini.json",
         {{arm, "\"rotation\": 30, \"scaleY\": -1 }"}, {forearm, forearm.substr(0, forearm.size() - 1) + ", \"inherit\": \"noScaleOrReflection\" }"}},
         {1, 1}, {1, -1, 15}, {45, 1.5}, "noScaleOrReflection", false, -15},
        // Mirrored at the root, the arm twice as big: the forearm keeps the mirror, not the size.
        {"noScale_root", "mini.json",
         {{"{ \"name\": \"root\" }", "{ \"name\": \"root\", \"scaleX\": -1 }"},
          {arm, "\"rotation\": 30, \"scaleX\": 2, \"scaleY\": 2 }"},
          {forearm, forearm.substr(0, forearm.size() - 1) + ", \"inherit\": \"noScale\" }"}},
         {-1, 1}, {2, 2, 15}, {45, 1.5}, "noScale", true, 105},
        {"onlyTranslation", "mini.json",
         {{arm, "\"rotation\": 30, \"scaleY\": -1 }"}, {forearm, forearm.substr(0, forearm.size() - 1) + ", \"inherit\": \"onlyTranslation\" }"}},
         {1, 1}, {1, -1, 15}, {45, 1.5}, "onlyTranslation", false, 45},
        // The arm stretched 2 x -1 (the box square to it): the forearm turned 30 takes the
        // stretch along the arm's axes, a rectangle 3 x 1 turned 30, neither mirrored.
        {"noRotationOrReflection", "mini.json",
         {{arm, "\"rotation\": 30, \"scaleX\": 2, \"scaleY\": -1 }"},
          {"\"box\": { \"x\": 10, \"y\": 2, \"rotation\": 15,", "\"box\": { \"x\": 10, \"y\": 2, \"rotation\": 0,"},
          {forearm, "\"rotation\": 30, \"scaleX\": 1.5, \"inherit\": \"noRotationOrReflection\" }"}},
         {1, 1}, {2, -1, 0}, {30, 1.5}, "noRotationOrReflection", false, 30},
    };
    const RegionSource boxRegion{10, 10, 40, 20, 0, 0, 40, 20, true}, trimRegion{100, 10, 20, 10, 10, 0, 30, 10, false};
    for (const Case& c : cases) {
        INFO(c.name);
        const std::filesystem::path folder = freshFolder(std::string("inherit_") + c.name);
        std::ifstream in(dataPath(c.json));
        std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        for (const auto& [from, to] : c.edits) {
            REQUIRE(text.find(from) != std::string::npos);
            text.replace(text.find(from), from.size(), to);
        }
        const std::string json = (folder / "inherit.json").string();
        std::ofstream(json) << text;
        SpineImportOptions o = options(json, folder / "inherit.rig.xml");
        o.atlasPath = dataPath("mini.atlas");
        o.scale = 10.0;
        const ImportRun run = runImport(o);
        INFO(run.err);
        REQUIRE(run.exitCode == 0);
        CHECK(run.err.find("inherit") == std::string::npos);  // posed as Spine poses it: nothing to warn about
        const RigLoadResult loaded = loadRigFile((folder / "inherit.rig.xml").string());
        REQUIRE(loaded.rig);
        const RigDefinition& rig = *loaded.rig;
        REQUIRE(rig.sprites.size() == 2);
        const SpineWorld root = spineWorldByRule(nullptr, "normal", 0, 0, 0, c.root[0], c.root[1]);
        const SpineWorld armWorld = spineWorldByRule(&root, "normal", 10, 5, 30, c.arm[0], c.arm[1]);
        const SpineWorld forearmWorld = spineWorldByRule(&armWorld, c.inherit, 20, 0, c.forearm[0], c.forearm[1], 1);
        CHECK(forearmWorld.angleDegrees() == Approx(c.forearmDegrees).margin(1e-9));
        const RigSprite& trim = rig.sprites[1];
        CHECK(rig.bones[size_t(trim.bone)].angle / kDegree == Approx(c.forearmDegrees).margin(1e-6));
        const struct {
            const char* name;
            const RigSprite& sprite;
            std::array<TexelCorner, 4> spine;
            bool mirrored;
        } parts[] = {{"box", rig.sprites[0], spineRegionCorners(armWorld, {10, 2, c.arm[2], 40, 20}, boxRegion, 10.0), true},
                     {"trim", trim, spineRegionCorners(forearmWorld, {5, 0, 0, 30, 10}, trimRegion, 10.0), c.forearmMirrored}};
        for (const auto& part : parts) {
            INFO(part.name << ": flip " << flipName(part.sprite) << ", angle " << part.sprite.angle / kDegree);
            CHECK(part.sprite.flipY == part.mirrored);
            CHECK_FALSE(part.sprite.flipX);
            for (const TexelCorner& corner : part.spine) {
                const Corner drawn = drawnAt(rig, part.sprite, corner.page);
                INFO("page (" << corner.page[0] << ", " << corner.page[1] << "): Spine draws it at (" << corner.world[0] << ", "
                              << corner.world[1] << ") m, the rig at (" << drawn[0] << ", " << drawn[1] << ") m");
                CHECK(std::hypot(drawn[0] - corner.world[0], drawn[1] - corner.world[1]) < 1e-8);
            }
        }
    }
}

TEST_CASE("import: a two-bone IK over a bone that inherits otherwise than normally is warned about at the constraint",
          "[spine][import][ik]") {
    // The one difference left from Spine's pose: Spine 4.2's runtimes leave such an IK
    // unapplied; the import solves it as for normal bones, and says so where it is defined.
    const std::filesystem::path folder = freshFolder("inherit_ik");
    ImportRun run = importMini(folder, "reach", "\"rotation\": 45, \"scaleX\": 1.5 }",
                               "\"rotation\": 45, \"scaleX\": 1.5, \"inherit\": \"noScale\" }\n  ],\n"
                               "  \"ik\": [ { \"name\": \"reach\", \"bones\": [ \"arm\", \"forearm\" ], \"target\": \"root\" }");
    INFO(run.err);
    REQUIRE(run.exitCode == 0);
    CHECK(run.err.find((folder / "reach.json").string() +
                       ":8: warning: IK constraint 'reach': bone 'forearm' inherits 'noScale'; the two-bone IK is solved as "
                       "for 'normal' (Spine 4.2 leaves it unapplied)\n") != std::string::npos);
    CHECK(run.err.find("bone 'arm' inherits") == std::string::npos);  // normal: nothing to say
}

TEST_CASE("pose: IK turns a bone that takes neither its parent's turn nor its mirror toward the target",
          "[spine][pose][ik]") {
    // A one-bone IK on a bone under a mirrored parent: its local rotation was turned the
    // mirrored way whatever its inherit mode, so an onlyTranslation or noRotationOrReflection
    // bone (whose world angle is its rotation, the parent's mirror not taken) turned away
    // from the target. The target sits at (10, 10) from the bone's origin (0, 0): 45 degrees.
    for (const char* inherit : {"normal", "onlyTranslation", "noRotationOrReflection", "noScale", "noScaleOrReflection"}) {
        INFO(inherit);
        const SpineLoadResult r = parseSpineJson(std::string(R"({
  "skeleton": { "spine": "4.2.22" },
  "bones": [ { "name": "root", "scaleY": -1 }, { "name": "aim", "parent": "root", "length": 5, "rotation": -20, "inherit": ")") +
                                                     inherit + R"(" },
             { "name": "target", "parent": "root", "x": 10, "y": -10 } ],
  "ik": [ { "name": "look", "bones": [ "aim" ], "target": "target" } ]
})", "ik_inherit.json");
        REQUIRE(r.ok);
        const std::vector<SpineWorld> w = poseSpineSkeleton(r.skeleton, nullptr, 0.0);
        CHECK(w[2].x == Approx(10.0).margin(1e-12));
        CHECK(w[2].y == Approx(10.0).margin(1e-12));  // the root's mirror puts y -10 at +10
        CHECK(w[1].angleDegrees() == Approx(45.0).margin(1e-9));
    }
}

TEST_CASE("import: an animation scaling a bone at the end of its chain is warned about, naming bone and animation",
          "[spine][import][bake]") {
    // A forearm (nothing on it) scaled 1 to 1.25 and back: dropped without a word, where a
    // bone with children said so through them moving off their places.
    const std::filesystem::path folder = freshFolder("leaf_scale");
    const std::string swing = "\"swing\": { \"bones\": { \"forearm\": { ";
    ImportRun run = importMini(folder, "pulse", swing,
                               swing + "\"scale\": [ { \"time\": 0 }, { \"time\": 0.5, \"x\": 1.25, \"y\": 1.25 }, "
                                       "{ \"time\": 1 } ], ");
    INFO(run.err);
    REQUIRE(run.exitCode == 0);
    CHECK(run.err.find((folder / "pulse.json").string() + ":22: warning: animation 'swing': bone 'forearm' is scaled (up to 1.25 "
                       "times); a clip holds angles only, so its art keeps its size") != std::string::npos);
    ImportRun plain = importMini(folder, "plain");
    REQUIRE(plain.exitCode == 0);
    CHECK(plain.err.find("is scaled") == std::string::npos);
}

TEST_CASE("import: the scale taken from the setup pose's height is written to six significant figures", "[spine][import]") {
    // The bot's setup pose is 176 units tall (its head's top at 178, its feet at 2): as
    // 1.8 m, 97.777... units per metre, written 97.7778 and no longer.
    const std::filesystem::path folder = freshFolder("scale");
    ImportRun run = runImport(options(writeBot(folder, botSkeleton()).string(), folder / "bot.rig.xml"));
    INFO(run.err);
    REQUIRE(run.exitCode == 0);
    std::ifstream in(folder / "bot.rig.xml");
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string key = " scale=\"";
    const size_t at = text.find(key);
    REQUIRE(at != std::string::npos);
    const std::string written = text.substr(at + key.size(), text.find('"', at + key.size()) - at - key.size());
    CHECK(written == "97.7778");
    // The figure is still 1.8 m to well under a millimetre (0.4 micrometres).
    CHECK(std::abs(176.0 / std::stod(written) - 1.8) < 1e-6);
    RigLoadResult loaded = loadRigFile((folder / "bot.rig.xml").string());
    REQUIRE(loaded.rig);
    CHECK(loaded.rig->scale == 97.7778);
}

TEST_CASE("import names each attachment it leaves out, and the skin to pass when the file has no default skin",
          "[spine][import]") {
    const std::filesystem::path folder = freshFolder("skins_named");
    std::ifstream in(dataPath("mini.json"));
    const std::string mini((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto import = [&](const std::string& json) {
        std::ofstream(folder / "skins.json", std::ios::trunc) << json;
        SpineImportOptions o = options((folder / "skins.json").string(), folder / "skins.rig.xml");
        o.atlasPath = dataPath("mini.atlas");
        o.scale = 10.0;
        o.force = true;
        return runImport(o);
    };
    // A second attachment in the arm's slot (a swap the clips would make): named at its line.
    std::string swap = mini;
    const std::string box = "\"box\": { \"x\": 10,";
    REQUIRE(swap.find(box) != std::string::npos);
    swap.insert(swap.find(box), "\"box_alt\": { \"width\": 4, \"height\": 4 },\n      ");
    ImportRun swapped = import(swap);
    CAPTURE(swapped.err);
    CHECK(swapped.exitCode == 0);
    CHECK(swapped.err.find((folder / "skins.json").string() +
                           ":14: warning: attachment 'box_alt' (skin 'default', slot 'arm'): not the slot's setup "
                           "attachment, not imported (attachment swaps are not baked)") != std::string::npos);

    // The default skin renamed: each slot says which skin holds its attachment, and the error
    // lists the skins to pass.
    std::string knight = mini;
    knight.replace(knight.find("\"default\""), 9, "\"knight\"");
    ImportRun noDefault = import(knight);
    CAPTURE(noDefault.err);
    CHECK(noDefault.exitCode == 1);
    CHECK(noDefault.err.find(":9: warning: slot 'arm': its attachment 'box' is in no skin imported; nothing drawn (skin "
                             "'knight' has it: --skin NAME imports one)") != std::string::npos);
    CHECK(noDefault.err.find(":10: warning: slot 'forearm': its attachment 'trim' is in no skin imported; nothing drawn "
                             "(skins 'knight', 'blue' have it: --skin NAME imports one)") != std::string::npos);
    CHECK(noDefault.err.find("nothing to draw or to give bodies to (the file has no 'default' skin; pass --skin with one "
                             "of 'knight', 'blue')") != std::string::npos);
}

TEST_CASE("import warns once, at the atlas page, about a page PNG with no alpha channel", "[spine][import][atlas]") {
    // An RGB page draws every part as an opaque rectangle: said at the page (the art to
    // mend), not again at the copy the rig names.
    const std::filesystem::path folder = freshFolder("no_alpha");
    const std::filesystem::path json = writeBot(folder, botSkeleton());
    testpng::writeBytes(folder / "bot.png", testpng::encode(256, 128, 3, testpng::filled(256, 128, {90, 90, 90})));
    SpineImportOptions o = options(json.string(), folder / "out" / "bot.rig.xml");
    std::filesystem::create_directories(folder / "out");
    o.scale = 100.0;
    ImportRun run = runImport(o);
    INFO(run.err);
    REQUIRE(run.exitCode == 0);
    const std::string warning = "has no alpha channel: every part is drawn as an opaque rectangle (save it with transparency)";
    CHECK(run.err.find((folder / "bot.atlas").string() + ":1: warning: page 'bot.png' " + warning + "\n") != std::string::npos);
    size_t said = 0;
    for (size_t at = run.err.find(warning); at != std::string::npos; at = run.err.find(warning, at + 1)) ++said;
    CHECK(said == 1);
    // Saved with transparency: nothing said.
    testpng::writeGrey(folder / "bot.png", 256, 128);
    o.force = true;
    ImportRun again = runImport(o);
    CHECK(again.exitCode == 0);
    CHECK(again.err.find(warning) == std::string::npos);
}

TEST_CASE("import: a page PNG of another size than the atlas says is cut at the same fractions (rects and mesh UVs scaled)",
          "[spine][import][atlas]") {
    // Spine's runtimes divide a region's rect by the page's declared size: art exported
    // again at 2x (or 0.5x) keeps its atlas. The rects used as written cut the wrong pixels.
    nlohmann::ordered_json bot = botSkeleton();
    giveBotArmMesh(bot);
    struct Case {
        int pngWidth, pngHeight;
        const char* factor;
        PixelRect torso, head, limb;
        double meshU0, meshU1, meshV0, meshV1;
    };
    // The atlas: a 256 x 128 page; torso 0,0,32,64; head 96,0,32,32; limb 32,0,64,16; armmesh 32,64,128,16.
    for (const Case& c : {Case{512, 256, "2 x 2", {0, 0, 64, 128}, {192, 0, 64, 64}, {64, 0, 128, 32}, 64, 320, 128, 160},
                          Case{128, 64, "0.5 x 0.5", {0, 0, 16, 32}, {48, 0, 16, 16}, {16, 0, 32, 8}, 16, 80, 32, 40},
                          Case{384, 128, "1.5 x 1", {0, 0, 48, 64}, {144, 0, 48, 32}, {48, 0, 96, 16}, 48, 240, 64, 80}}) {
        CAPTURE(c.factor);
        const std::filesystem::path folder = freshFolder(std::string("pngsize_") + std::to_string(c.pngWidth));
        const std::filesystem::path json = writeBot(folder, bot);
        testpng::writeGrey(folder / "bot.png", c.pngWidth, c.pngHeight);
        SpineImportOptions o = options(json.string(), folder / "out" / "bot.rig.xml");
        std::filesystem::create_directories(folder / "out");
        o.scale = 100.0;
        ImportRun run = runImport(o);
        INFO(run.err);
        REQUIRE(run.exitCode == 0);
        CHECK(run.err.find((folder / "bot.atlas").string() + ":1: warning: page 'bot.png' says 256 x 128 but the PNG is " +
                           std::to_string(c.pngWidth) + " x " + std::to_string(c.pngHeight) + ": its regions are scaled by " +
                           c.factor + " to the PNG, as Spine's runtimes do") != std::string::npos);
        RigLoadResult loaded = loadRigFile((folder / "out" / "bot.rig.xml").string());
        REQUIRE(loaded.rig);
        const RigDefinition& rig = *loaded.rig;
        int torsos = 0, heads = 0, limbs = 0;
        for (const RigSprite& s : rig.sprites) {
            torsos += s.rect == c.torso;
            heads += s.rect == c.head;
            limbs += s.rect == c.limb;
        }
        CHECK(torsos == 1);
        CHECK(heads == 1);
        CHECK(limbs == 6);  // eight limbs, less the right arm's two: one mesh
        REQUIRE(rig.meshes.size() == 1);
        double u0 = 1e9, u1 = -1e9, v0 = 1e9, v1 = -1e9;
        for (const RigMeshVertex& v : rig.meshes[0].vertices) {
            u0 = std::min(u0, v.u), u1 = std::max(u1, v.u);
            v0 = std::min(v0, v.v), v1 = std::max(v1, v.v);
        }
        CHECK(u0 == Approx(c.meshU0));
        CHECK(u1 == Approx(c.meshU1));
        CHECK(v0 == Approx(c.meshV0));
        CHECK(v1 == Approx(c.meshV1));
    }
}

TEST_CASE("atlas: a region's rect in a PNG of another size: edges rounded, a sliver kept one pixel wide", "[spine][atlas]") {
    AtlasPage page;
    page.width = 10;
    page.height = 10;
    AtlasRegion sliver;
    sliver.x = 9, sliver.y = 0, sliver.width = 1, sliver.height = 10;
    // 0.3x: the sliver's edges 2.7 and 3 both round to 3, the PNG's edge: it keeps the last pixel.
    CHECK(pngRect(sliver, page, {3, 3}) == PixelRect{2, 0, 1, 3});
    AtlasRegion odd;
    odd.x = 3, odd.y = 5, odd.width = 4, odd.height = 5;
    CHECK(pngRect(odd, page, {5, 20}) == PixelRect{2, 10, 2, 10});  // 1.5 and 3.5 rounded up
    CHECK(pngRect(odd, page, {10, 10}) == PixelRect{3, 5, 4, 5});
    page.width = page.height = 0;  // no declared size: as written
    CHECK(pngRect(odd, page, {5, 20}) == PixelRect{3, 5, 4, 5});
}

TEST_CASE("import: a sequence attachment (4.1+) draws its setup frame's region, its frames warned about once", "[spine][import]") {
    // The region is the path and the frame number start + setup, padded to 'digits': the
    // import asked the atlas for 'torso' and stopped, saying it had no such region.
    nlohmann::ordered_json bot = botSkeleton();
    bot["skins"][0]["attachments"]["torso"]["torso"]["sequence"] = {{"count", 3}, {"start", 1}, {"digits", 2}, {"setup", 1}};
    const std::filesystem::path folder = freshFolder("sequence");
    const std::filesystem::path json = writeBot(folder, bot);
    std::ofstream(folder / "bot.atlas", std::ios::binary) << "bot.png\n"
                                                             "size: 256,128\n"
                                                             "torso01\n  bounds: 0,0,32,64\n"
                                                             "torso02\n  bounds: 160,0,32,64\n"
                                                             "torso03\n  bounds: 192,0,32,64\n"
                                                             "head\n  bounds: 96,0,32,32\n"
                                                             "limb\n  bounds: 32,0,64,16\n";
    SpineImportOptions o = options(json.string(), folder / "bot.rig.xml");
    o.scale = 100.0;
    ImportRun run = runImport(o);
    INFO(run.err);
    REQUIRE(run.exitCode == 0);
    const std::string text = botText(bot);
    const int line = lineOf(text, "\"x\": 27.5") - 1;
    const std::string warning = json.string() + ":" + std::to_string(line) +
                                ": warning: attachment 'torso' (slot 'torso'): a sequence of 3 frames; only its setup frame "
                                "'torso02' is drawn (the frame animation is skipped)";
    CHECK(run.err.find(warning) != std::string::npos);
    CHECK(run.err.find("a sequence of") == run.err.rfind("a sequence of"));  // once
    RigLoadResult loaded = loadRigFile((folder / "bot.rig.xml").string());
    REQUIRE(loaded.rig);
    int setupFrames = 0, others = 0;
    for (const RigSprite& s : loaded.rig->sprites) {
        setupFrames += s.rect == PixelRect{160, 0, 32, 64};
        others += s.rect == PixelRect{0, 0, 32, 64} || s.rect == PixelRect{192, 0, 32, 64};
    }
    CHECK(setupFrames == 1);
    CHECK(others == 0);
}

TEST_CASE("JSON: a sequence's frame outside its count, or a count of 0, is an error at the attachment", "[spine][json]") {
    for (const char* sequence : {R"({"count": 2, "setup": 2})", R"({"count": 0})", R"({"count": 2, "digits": -1})", R"("torso")"}) {
        CAPTURE(sequence);
        const std::string json = std::string("{\"skeleton\": {\"spine\": \"4.2.22\"},\n"
                                             "\"bones\": [{\"name\": \"root\"}],\n"
                                             "\"slots\": [{\"name\": \"s\", \"bone\": \"root\", \"attachment\": \"a\"}],\n"
                                             "\"skins\": [{\"name\": \"default\", \"attachments\": {\"s\": {\n"
                                             "\"a\": {\"width\": 10, \"height\": 10, \"sequence\": ") +
                                 sequence + "}}}}]}";
        SpineLoadResult r = parseSpineJson(json, "seq.json");
        CHECK_FALSE(r.ok);
        REQUIRE_FALSE(r.diagnostics.empty());
        CHECK(r.diagnostics[0].format().starts_with("seq.json:5: error: attachment 'a' (skin 'default', slot 's'): 'sequence'"));
    }
}

TEST_CASE("import: the rig's own warnings (a figure hundreds of metres tall) are said once, at their line in OUT",
          "[spine][import]") {
    // They came twice: from the check of the rig in memory without a line, then from the
    // written file read back, with it.
    const std::filesystem::path folder = freshFolder("tall");
    const std::filesystem::path json = writeBot(folder, botSkeleton());
    SpineImportOptions o = options(json.string(), folder / "bot.rig.xml");
    o.scale = 0.5;
    ImportRun run = runImport(o);
    INFO(run.err);
    REQUIRE(run.exitCode == 0);
    const std::string warning = (folder / "bot.rig.xml").string() + ":3: warning: rig: its rest pose stands ";
    CHECK(run.err.find(warning) != std::string::npos);
    CHECK(run.err.find("m tall") == run.err.rfind("m tall"));
}

TEST_CASE("import: a setup pose so tall that its scale is past a rig's largest is one error saying so, at the import's scale",
          "[spine][import][errors]") {
    // The rig's check refused the scale, fell back to 100 units a metre and then measured
    // a bone's place by that: "got 3000000 (30000 m)", of a figure 1.8 m tall.
    nlohmann::ordered_json bot = botSkeleton();
    bot["bones"][0]["scaleX"] = 20000;
    bot["bones"][0]["scaleY"] = 20000;
    const std::filesystem::path folder = freshFolder("huge");
    const std::filesystem::path json = writeBot(folder, bot);
    SpineImportOptions o = options(json.string(), folder / "bot.rig.xml");
    ImportRun run = runImport(o);
    INFO(run.err);
    CHECK(run.exitCode == 1);
    CHECK(run.err.find(json.string() + ": error: the setup pose is 3520000 units tall: taken as 1.8 m, that is 1955560 units "
                                       "per metre, more than a rig's scale may be (1e6); pass --scale UNITS_PER_METRE") !=
          std::string::npos);
    CHECK(run.err.find("too large") == std::string::npos);
    CHECK(run.err.find(" m)") == std::string::npos);
}

TEST_CASE("import: SKELETON.json and OUT missing says what was taken as what (--loop takes the names after it)",
          "[spine][import]") {
    struct Case {
        std::vector<std::string> args;
        std::string expected;
    };
    const std::vector<Case> cases = {
        {{"hero.json", "--loop", "walk", "out.rig.xml"},
         "paperdoll rig: error: 'rig import' needs SKELETON.json and OUT.rig.xml, got 'hero.json'; --loop took 'walk', "
         "'out.rig.xml' as animation names (it takes every name after it): put --loop after OUT, or end its names with --\n"},
        {{"hero.json"}, "paperdoll rig: error: 'rig import' needs SKELETON.json and OUT.rig.xml, got 'hero.json'\n"},
        {{"a.json", "b.rig.xml", "c.rig.xml"},
         "paperdoll rig: error: 'rig import' needs SKELETON.json and OUT.rig.xml, got 'a.json', 'b.rig.xml', 'c.rig.xml'\n"},
    };
    for (const Case& c : cases) {
        std::vector<std::string> args = {"rig", "import"};
        args.insert(args.end(), c.args.begin(), c.args.end());
        std::ostringstream printed, err;
        CHECK(runRigCommand(args, printed, err) == 2);
        CHECK(err.str().starts_with(c.expected));
    }
}

TEST_CASE("import: a linked mesh whose parent is in another slot is told so, naming the slot it is in", "[spine][import][mesh]") {
    // Spine looks for a linked mesh's parent in the linked mesh's own slot; the error said
    // the parent was "in no skin" when the skin held it, in another slot.
    const std::filesystem::path folder = freshFolder("linked_slot");
    const std::string json = (folder / "linked.json").string();
    std::ofstream(json) << R"({
  "skeleton": { "spine": "4.0.64" },
  "bones": [
    { "name": "root" },
    { "name": "arm", "parent": "root", "length": 20, "rotation": 90 }
  ],
  "slots": [ { "name": "arm", "bone": "arm", "attachment": "copy" }, { "name": "other", "bone": "arm" } ],
  "skins": [ { "name": "default", "attachments": {
    "other": {
      "base": { "type": "mesh", "path": "box", "uvs": [ 0, 0, 1, 0, 1, 1 ], "triangles": [ 0, 1, 2 ],
                "vertices": [ 0, -5, 20, -5, 20, 5 ], "hull": 3, "width": 20, "height": 10 }
    },
    "arm": {
      "copy": { "type": "linkedmesh", "parent": "base", "path": "trim", "width": 30, "height": 10 }
    }
  } } ]
}
)";
    SpineImportOptions o = options(json, folder / "linked.rig.xml");
    o.atlasPath = dataPath("mini.atlas");
    o.scale = 10.0;
    ImportRun run = runImport(o);
    INFO(run.err);
    CHECK(run.exitCode == 1);
    CHECK(run.err.find(json + ":14: error: linked mesh 'copy' (slot 'arm'): its parent mesh 'base' is in slot 'other' of skin "
                              "'default', not in slot 'arm' of skin 'default', where a linked mesh's parent is looked for") !=
          std::string::npos);
}

TEST_CASE("import: a figure flipped at its root is drawn as the unflipped one's mirror image, texel for texel",
          "[spine][import]") {
    // Its regions were drawn with their images' top and bottom swapped, with one warning at
    // the root naming them all; each is now flip="y", and every corner of every rect lands
    // where the unflipped figure's does, mirrored across x = 0 (the root's origin).
    auto importBot = [](const char* name, bool flipped) {
        nlohmann::ordered_json bot = botSkeleton();
        if (flipped) bot["bones"][0]["scaleX"] = -1;
        giveBotArmMesh(bot);  // a mesh is placed by its vertices, mirrored as in Spine
        const std::filesystem::path folder = freshFolder(name);
        const std::filesystem::path json = writeBot(folder, bot);
        SpineImportOptions o = options(json.string(), folder / "bot.rig.xml");
        o.scale = 100.0;
        const ImportRun run = runImport(o);
        INFO(run.err);
        REQUIRE(run.exitCode == 0);
        CHECK(run.err.find("mirror") == std::string::npos);
        RigLoadResult loaded = loadRigFile((folder / "bot.rig.xml").string());
        REQUIRE(loaded.rig);
        return std::move(*loaded.rig);
    };
    const RigDefinition plain = importBot("rootflip_plain", false), flipped = importBot("rootflip", true);
    REQUIRE(flipped.sprites.size() == 8);
    REQUIRE(plain.sprites.size() == flipped.sprites.size());
    for (size_t i = 0; i < flipped.sprites.size(); ++i) {
        const RigSprite &a = plain.sprites[i], &b = flipped.sprites[i];
        INFO("sprite " << i << " on '" << flipped.bones[size_t(b.bone)].name << "'");
        REQUIRE(a.rect == b.rect);
        CHECK_FALSE(a.flipY);
        CHECK(b.flipY);
        CHECK_FALSE(b.flipX);
        for (double px : {0.0, 1.0})
            for (double py : {0.0, 1.0}) {
                const Corner page{a.rect.x + px * a.rect.width, a.rect.y + py * a.rect.height};
                const Corner seen = drawnAt(flipped, b, page), unflipped = drawnAt(plain, a, page);
                CAPTURE(page[0], page[1], seen[0], seen[1], unflipped[0], unflipped[1]);
                CHECK(seen[0] == Approx(-unflipped[0]).margin(1e-9));
                CHECK(seen[1] == Approx(unflipped[1]).margin(1e-9));
            }
    }
}
