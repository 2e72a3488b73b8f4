// The atlas and JSON readers and the pose maths, against hand-written files and the
// formulas of Spine's format documentation.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "spine/spine_atlas.h"
#include "spine/spine_json.h"
#include "spine/spine_pose.h"
#include "spine_bot.h"
#include "spine_test_support.h"

using namespace ragdoll;
using namespace spinetest;

TEST_CASE("atlas: the 4.x form: bounds, offsets, a quarter-turned region, page properties", "[spine][atlas]") {
    AtlasLoadResult r = loadAtlasFile(dataPath("mini.atlas"));
    REQUIRE(r.ok);
    REQUIRE(r.atlas.pages.size() == 1);
    CHECK(r.atlas.pages[0].file == "../../../content/art/paper_doll.png");
    CHECK(r.atlas.pages[0].width == 512);
    CHECK(r.atlas.pages[0].height == 256);
    CHECK(r.atlas.pages[0].filter == "Linear, Linear");
    const AtlasRegion* box = r.atlas.find("box");
    REQUIRE(box);
    CHECK(box->degrees == 90);
    CHECK(box->line == 4);
    CHECK(box->pageRect() == PixelRect{10, 10, 20, 40});  // stored turned: the sides swap
    const AtlasRegion* trim = r.atlas.find("trim");
    REQUIRE(trim);
    CHECK(trim->degrees == 0);
    CHECK(trim->offsetX == 10);
    CHECK(trim->offsetY == 0);
    CHECK(trim->originalWidth == 30);
    CHECK(trim->originalHeight == 10);
}

TEST_CASE("atlas: the old libGDX form reads to the same regions", "[spine][atlas]") {
    AtlasLoadResult fresh = loadAtlasFile(dataPath("mini.atlas"));
    AtlasLoadResult old = loadAtlasFile(dataPath("mini_old.atlas"));
    REQUIRE(old.ok);
    REQUIRE(old.atlas.regions.size() == fresh.atlas.regions.size());
    for (size_t i = 0; i < old.atlas.regions.size(); ++i) {
        const AtlasRegion& a = old.atlas.regions[i];
        const AtlasRegion& b = fresh.atlas.regions[i];
        CHECK(a.name == b.name);
        CHECK(a.pageRect() == b.pageRect());
        CHECK(a.degrees == b.degrees);
        CHECK(a.offsetX == b.offsetX);
        CHECK(a.originalWidth == b.originalWidth);
        CHECK(a.originalHeight == b.originalHeight);
    }
    CHECK(old.atlas.pages[0].format == "RGBA8888");
}

TEST_CASE("atlas: bad values are errors on their line, odd turns and overflowing regions refused", "[spine][atlas]") {
    AtlasLoadResult r = parseAtlas("page.png\nsize: 64, 64\nhead\n  bounds: 0, 0, x, 8\n", "a.atlas");
    CHECK_FALSE(r.ok);
    REQUIRE(!r.diagnostics.empty());
    CHECK(r.diagnostics[0].format() == "a.atlas:4: error: bounds: 'x' is not a whole number from 0 to 65536");
    r = parseAtlas("page.png\nsize: 64, 64\nhead\n  bounds: 0, 0, 8, 8\n  rotate: 45\n", "a.atlas");
    CHECK_FALSE(r.ok);
    CHECK(r.diagnostics[0].line == 5);
    r = parseAtlas("page.png\nsize: 64, 64\nhead\n  bounds: 60, 0, 8, 8\n", "a.atlas");
    CHECK_FALSE(r.ok);
    CHECK(r.diagnostics[0].line == 3);
    CHECK(r.diagnostics[0].message.find("reaches outside page 'page.png' (64 x 64)") != std::string::npos);
    r = parseAtlas("", "a.atlas");
    CHECK_FALSE(r.ok);
}

TEST_CASE("JSON: a syntax error is reported at its line and column", "[spine][json]") {
    SpineLoadResult r = loadSpineJsonFile(dataPath("syntax.json"));
    CHECK_FALSE(r.ok);
    REQUIRE(r.diagnostics.size() == 1);
    CHECK(r.diagnostics[0].line == 5);
    CHECK(r.diagnostics[0].column == 5);
    CHECK(r.diagnostics[0].format().find("syntax.json:5:5: error: JSON syntax error") != std::string::npos);
}

TEST_CASE("JSON: bones, slots and skins read in both skin forms, versions told apart", "[spine][json]") {
    SpineLoadResult r4 = loadSpineJsonFile(dataPath("mini.json"));
    SpineLoadResult r3 = loadSpineJsonFile(dataPath("mini_38.json"));
    REQUIRE(r4.ok);
    REQUIRE(r3.ok);
    CHECK(r4.skeleton.major == 4);
    CHECK(r3.skeleton.major == 3);
    CHECK(r3.skeleton.minor == 8);
    for (const SpineSkeleton* s : {&r4.skeleton, &r3.skeleton}) {
        REQUIRE(s->bones.size() == 3);
        CHECK(s->bones[2].parent == 1);
        CHECK(s->bones[2].scaleX == 1.5);
        REQUIRE(s->slots.size() == 2);
        CHECK(s->slots[1].color[3] == Approx(128.0 / 255.0));
        const SpineSkin* skin = s->findSkin("default");
        REQUIRE(skin);
        REQUIRE(skin->attachments.size() == 2);
        CHECK(skin->attachments[0].width == 40);
        CHECK(skin->attachments[0].rotation == 15);
    }
    CHECK(r4.skeleton.findSkin("blue") != nullptr);
}

TEST_CASE("JSON: structural errors name the file and the entry's line", "[spine][json]") {
    SpineLoadResult r = loadSpineJsonFile(dataPath("unknown_parent.json"));
    CHECK_FALSE(r.ok);
    CHECK(r.diagnostics.at(0).format() == dataPath("unknown_parent.json") + ":5: error: bone 'arm': parent 'shoulder' is not a bone");
    r = loadSpineJsonFile(dataPath("cycle.json"));
    CHECK_FALSE(r.ok);
    CHECK(r.diagnostics.at(0).format() == dataPath("cycle.json") + ":5: error: bone 'a' is in a parent cycle");
    r = loadSpineJsonFile(dataPath("slot_unknown_bone.json"));
    CHECK_FALSE(r.ok);
    CHECK(r.diagnostics.at(0).format() == dataPath("slot_unknown_bone.json") + ":5: error: slot 'hat': bone 'head' is not a bone");
}

TEST_CASE("pose: setup world transforms equal the format's formulas to 1e-6", "[spine][pose]") {
    SpineLoadResult r = loadSpineJsonFile(dataPath("mini.json"));
    REQUIRE(r.ok);
    const std::vector<SpineWorld> w = poseSpineSkeleton(r.skeleton, nullptr, 0.0);
    // arm: x 10, y 5, rotation 30 under an identity root.
    CHECK(w[1].x == Approx(10.0).margin(1e-6));
    CHECK(w[1].y == Approx(5.0).margin(1e-6));
    CHECK(w[1].a == Approx(std::cos(30 * kDegree)).margin(1e-6));
    CHECK(w[1].b == Approx(std::cos(120 * kDegree)).margin(1e-6));
    CHECK(w[1].c == Approx(std::sin(30 * kDegree)).margin(1e-6));
    CHECK(w[1].d == Approx(std::sin(120 * kDegree)).margin(1e-6));
    // forearm: x 20 in the arm's frame, rotation 45, scaleX 1.5: world = arm · local.
    const double la = std::cos(45 * kDegree) * 1.5, lb = std::cos(135 * kDegree), lc = std::sin(45 * kDegree) * 1.5,
                 ld = std::sin(135 * kDegree);
    const double pa = std::cos(30 * kDegree), pb = std::cos(120 * kDegree), pc = std::sin(30 * kDegree), pd = std::sin(120 * kDegree);
    CHECK(w[2].x == Approx(10.0 + pa * 20.0).margin(1e-6));
    CHECK(w[2].y == Approx(5.0 + pc * 20.0).margin(1e-6));
    CHECK(w[2].a == Approx(pa * la + pb * lc).margin(1e-6));
    CHECK(w[2].b == Approx(pa * lb + pb * ld).margin(1e-6));
    CHECK(w[2].c == Approx(pc * la + pd * lc).margin(1e-6));
    CHECK(w[2].d == Approx(pc * lb + pd * ld).margin(1e-6));
    CHECK(w[2].angleDegrees() == Approx(75.0).margin(1e-9));
}

TEST_CASE("pose: a Bezier-curved rotate timeline follows the curve's formula (4.x and 3.8 spellings)", "[spine][pose]") {
    SpineLoadResult r4 = loadSpineJsonFile(dataPath("mini.json"));
    SpineLoadResult r3 = loadSpineJsonFile(dataPath("mini_38.json"));
    REQUIRE(r4.ok);
    REQUIRE(r3.ok);
    const SpineTimeline& t4 = r4.skeleton.animations.at(0).timelines.at(0);
    const SpineTimeline& t3 = r3.skeleton.animations.at(0).timelines.at(0);
    REQUIRE(t4.keys[0].curve == SpineCurveType::Bezier);
    REQUIRE(t3.keys[0].curve == SpineCurveType::Bezier);
    for (double t : {0.0, 0.1, 0.3, 0.5, 0.77, 1.0}) {
        CHECK(sampleSpineTimeline(t4, 0, t, 0.0) == Approx(swingByFormula(t)).margin(1e-9));
        CHECK(sampleSpineTimeline(t3, 0, t, 0.0) == Approx(swingByFormula(t)).margin(1e-9));
    }
    // Not the straight line: the ease holds the start back.
    CHECK(swingByFormula(0.3) < 0.3 * 90.0 - 5.0);
    const std::vector<SpineWorld> w = poseSpineSkeleton(r4.skeleton, &r4.skeleton.animations[0], 0.3);
    CHECK(w[2].angleDegrees() == Approx(75.0 + swingByFormula(0.3)).margin(1e-9));
}

TEST_CASE("pose: a two-bone IK constraint matches the law of cosines to 0.1 degree", "[spine][pose][ik]") {
    SpineLoadResult r = loadSpineJsonFile(dataPath("ik.json"));
    REQUIRE(r.ok);
    const std::vector<SpineWorld> w = poseSpineSkeleton(r.skeleton, nullptr, 0.0);
    // Equal bones of 10 to a target 13 away at atan2(-5, 12), bending clockwise (bendPositive false).
    const double toTarget = std::atan2(-5.0, 12.0) / kDegree, spread = std::acos(13.0 / 20.0) / kDegree;
    CHECK(w[1].angleDegrees() == Approx(toTarget + spread).margin(0.1));
    CHECK(w[2].angleDegrees() == Approx(toTarget - spread).margin(0.1));
    double tipX = 0, tipY = 0;
    w[2].transform(10.0, 0.0, tipX, tipY);
    CHECK(tipX == Approx(12.0).margin(1e-6));
    CHECK(tipY == Approx(-5.0).margin(1e-6));
    // Bending the other way mirrors the middle joint across the line to the target.
    r.skeleton.ik[0].bendPositive = true;
    const std::vector<SpineWorld> other = poseSpineSkeleton(r.skeleton, nullptr, 0.0);
    CHECK(other[1].angleDegrees() == Approx(toTarget - spread).margin(0.1));
    CHECK(other[2].angleDegrees() == Approx(toTarget + spread).margin(0.1));
}

TEST_CASE("JSON: path and physics constraints are read past with a warning each", "[spine][json]") {
    const SpineLoadResult r = parseSpineJson(R"({
  "skeleton": { "spine": "4.2.22" },
  "bones": [ { "name": "root" } ],
  "path": [ { "name": "rail", "bones": [ "root" ], "target": "track" } ],
  "physics": [ { "name": "hair", "bone": "root" }, { "name": "cape", "bone": "root" } ]
})", "p.json");
    REQUIRE(r.ok);
    REQUIRE(r.diagnostics.size() == 2);
    CHECK(r.diagnostics[0].format() == "p.json:4: warning: 1 path constraint(s) not baked (skipped): the clips hold what bone "
                                       "timelines, IK and transform constraints make");
    CHECK(r.diagnostics[1].line == 5);
    CHECK(r.diagnostics[1].message.starts_with("2 physics constraint(s) not baked"));

    // After skins whose attachment has a "path" of its own (the region's name in the atlas):
    // the warning was said at that attachment's line.
    const SpineLoadResult late = parseSpineJson(R"({
  "skeleton": { "spine": "4.2.22" },
  "bones": [ { "name": "root" } ],
  "slots": [ { "name": "face", "bone": "root", "attachment": "face" } ],
  "skins": [ { "name": "default", "attachments": { "face": { "face": { "path": "head", "width": 4, "height": 4 } } } } ],
  "path": [ { "name": "rail", "bones": [ "root" ], "target": "track" } ]
})", "late.json");
    REQUIRE(late.ok);
    REQUIRE(late.diagnostics.size() == 1);
    CHECK(late.diagnostics[0].line == 6);
}

TEST_CASE("JSON: a 4.x IK key's curve of mix and softness (8 numbers) reads, the mix following its Bezier",
          "[spine][json][ik]") {
    const SpineLoadResult r = parseSpineJson(R"({
  "skeleton": { "spine": "4.2.22" },
  "bones": [ { "name": "root" }, { "name": "upper", "parent": "root", "length": 10 },
             { "name": "lower", "parent": "upper", "x": 10, "length": 10 }, { "name": "target", "parent": "root", "x": 12, "y": -5 } ],
  "ik": [ { "name": "limb", "bones": [ "upper", "lower" ], "target": "target" } ],
  "animations": { "reach": { "ik": { "limb": [
    { "time": 0, "mix": 0, "curve": [ 0.25, 0, 0.75, 1, 0.25, 0, 0.75, 0 ] },
    { "time": 1, "mix": 1 }
  ] } } }
})", "ik8.json");
    INFO((r.diagnostics.empty() ? std::string() : r.diagnostics[0].format()));
    REQUIRE(r.ok);
    const SpineTimeline& t = r.skeleton.animations.at(0).timelines.at(0);
    REQUIRE(t.kind == SpineTimelineKind::Ik);
    REQUIRE(t.keys[0].curve == SpineCurveType::Bezier);
    // The curve's control points (0.25, 0) and (0.75, 1) are symmetric about the middle, and
    // ease in: slower than the straight line early on.
    CHECK(sampleSpineTimeline(t, 0, 0.5, 1.0) == Approx(0.5).margin(1e-9));
    CHECK(sampleSpineTimeline(t, 0, 0.1, 1.0) < 0.1 - 0.02);
}

TEST_CASE("atlas: a PNG, UTF-16 or other binary file given as the atlas is one error saying what it is", "[spine][atlas]") {
    struct Case {
        std::string bytes, expected;
    };
    const std::string png("\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\x02\0", 20);
    const std::vector<Case> cases = {
        {png, "art.atlas: error: not a libGDX text atlas (it is a PNG image: the atlas is the .atlas text file that names it)"},
        {std::string("\xff\xfep\0a\0g\0e\0", 10), "art.atlas: error: not a libGDX text atlas (it is UTF-16 text: save it as UTF-8)"},
        {"page.png\nsize: 1,1\nbox\n  bounds: 0,0,1,1" + std::string("\0\x01\x02", 3),
         "art.atlas: error: not a libGDX text atlas (it is a binary file: it holds NUL bytes)"},
    };
    for (const Case& c : cases) {
        AtlasLoadResult r = parseAtlas(c.bytes, "art.atlas");
        CHECK_FALSE(r.ok);
        REQUIRE(r.diagnostics.size() == 1);
        CHECK(r.diagnostics[0].format() == c.expected);
    }
}

TEST_CASE("atlas: control bytes in a name are shown escaped, the message on one line", "[spine][atlas]") {
    AtlasLoadResult r = parseAtlas(std::string("page.png\nsize: 4,4\nb\x1a" "ox\n  bounds: 0,0,1,1\n  sp\x1b" "in: 1\n"), "a.atlas");
    REQUIRE(r.ok);
    REQUIRE(r.diagnostics.size() == 1);
    CHECK(r.diagnostics[0].format() == "a.atlas:5: warning: region 'b\\x1aox': unknown property 'sp\\x1bin' (ignored)");
}

TEST_CASE("atlas: a UTF-8 byte-order mark before the first page is skipped", "[spine][atlas]") {
    AtlasLoadResult r = parseAtlas("\xef\xbb\xbfpage.png\nsize: 4,4\nbox\n  bounds: 0,0,1,1\n", "a.atlas");
    CHECK(r.ok);
    REQUIRE(r.atlas.pages.size() == 1);
    CHECK(r.atlas.pages[0].file == "page.png");
    CHECK(r.atlas.pages[0].line == 1);
    CHECK(r.diagnostics.empty());
}

TEST_CASE("JSON: a weighted mesh's 'vertices' cut short is said so, and indices are written as integers", "[spine][json]") {
    nlohmann::ordered_json bot = botSkeleton();
    giveBotArmMesh(bot);
    nlohmann::ordered_json& mesh = bot["skins"][0]["attachments"]["arm_r"]["armmesh"];
    nlohmann::ordered_json cut = mesh["vertices"];
    cut.erase(cut.size() - 1);  // the last vertex's weight
    mesh["vertices"] = cut;
    const std::string what = "attachment 'armmesh' (skin 'default', slot 'arm_r'): ";
    SpineLoadResult r = parseSpineJson(botText(bot), "bot.json");
    CHECK_FALSE(r.ok);
    REQUIRE(r.diagnostics.size() == 1);
    CHECK(r.diagnostics[0].message == what + "'vertices' is cut short: vertex 5's bone count 1 needs 4 numbers after it, 3 are left");
    CHECK(r.diagnostics[0].line == lineOf(botText(bot), "\"armmesh\": {"));

    giveBotArmMesh(bot);
    bot["skins"][0]["attachments"]["arm_r"]["armmesh"]["triangles"][11] = 9;
    r = parseSpineJson(botText(bot), "bot.json");
    REQUIRE(r.diagnostics.size() == 1);
    CHECK(r.diagnostics[0].message == what + "triangle index 9 is not one of the 6 vertices");

    giveBotArmMesh(bot);
    bot["skins"][0]["attachments"]["arm_r"]["armmesh"]["vertices"][1] = 12;
    r = parseSpineJson(botText(bot), "bot.json");
    REQUIRE(r.diagnostics.size() == 1);
    CHECK(r.diagnostics[0].message == what + "vertex 0 names bone index 12 of 12");

    giveBotArmMesh(bot);
    bot["skins"][0]["attachments"]["arm_r"]["armmesh"]["vertices"][0] = 1.5;
    r = parseSpineJson(botText(bot), "bot.json");
    REQUIRE(r.diagnostics.size() == 1);
    CHECK(r.diagnostics[0].message == what + "vertex 0 has a bad bone count 1.5");
}

TEST_CASE("JSON: a skin whose name follows its attachments has its messages at its own lines", "[spine][json]") {
    // JSON objects are unordered: a tool or a hand edit may write a skin's "name" after its
    // "attachments", and a slot's attachment may share the slot's name.
    const std::string text = R"({
  "skeleton": { "spine": "4.2.22" },
  "bones": [ { "name": "root" }, { "name": "arm", "parent": "root", "length": 20 } ],
  "slots": [ { "name": "arm", "bone": "arm", "attachment": "arm" } ],
  "skins": [
    {
      "attachments": {
        "arm": {
          "arm": { "width": 40, "height": 0 }
        },
        "hand": {}
      },
      "name": "default"
    },
    {
      "attachments": {
        "hand": {},
        "arm": {
          "arm": { "width": -4, "height": 10 }
        }
      },
      "name": "blue"
    }
  ]
})";
    SpineLoadResult r = parseSpineJson(text, "skins.json");
    CHECK_FALSE(r.ok);
    std::vector<std::string> messages;
    for (const Diagnostic& d : r.diagnostics) messages.push_back(d.format());
    CHECK(messages == std::vector<std::string>{
                          "skins.json:9: error: attachment 'arm' (skin 'default', slot 'arm'): a region attachment needs a "
                          "width and height > 0",
                          "skins.json:11: error: skin 'default': 'hand' is not a slot",
                          "skins.json:19: error: attachment 'arm' (skin 'blue', slot 'arm'): a region attachment needs a "
                          "width and height > 0",
                          "skins.json:17: error: skin 'blue': 'hand' is not a slot",
                      });
    REQUIRE(r.skeleton.skins.size() == 2);
    CHECK(r.skeleton.skins[0].line == 13);
    CHECK(r.skeleton.skins[1].line == 22);
}

TEST_CASE("JSON: a skin key written with escapes has its messages at its own line", "[spine][json]") {
    // JSON may spell a key with escapes (\u0020, \", \/): the parser hands over the decoded
    // key, which is not the text in the file. Each message is still at the key's own line,
    // not at the slot's or the skin's attachments'.
    const std::string array = R"({
  "skeleton": { "spine": "4.2.22" },
  "bones": [ { "name": "root" }, { "name": "arm", "parent": "root", "length": 20 } ],
  "slots": [ { "name": "arm", "bone": "arm" }, { "name": "a\"b", "bone": "arm" } ],
  "skins": [
    {
      "name": "default",
      "attachments": {
        "arm": {
          "arm": { "width": 40, "height": 10 },
          "arm\u0020L": { "width": 0, "height": 10 }
        },
        "a\"b": {
          "ok": { "width": 40, "height": 10 },
          "x\/y": { "width": 40, "height": -1 }
        },
        "h\u0061nd": {}
      }
    }
  ]
})";
    SpineLoadResult r = parseSpineJson(array, "escapes.json");
    CHECK_FALSE(r.ok);
    // In the parser's order of keys (sorted), each at its line.
    std::vector<std::string> messages;
    for (const Diagnostic& d : r.diagnostics) messages.push_back(d.format());
    CHECK(messages == std::vector<std::string>{
                          "escapes.json:15: error: attachment 'x/y' (skin 'default', slot 'a\"b'): a region attachment "
                          "needs a width and height > 0",
                          "escapes.json:11: error: attachment 'arm L' (skin 'default', slot 'arm'): a region attachment "
                          "needs a width and height > 0",
                          "escapes.json:17: error: skin 'default': 'hand' is not a slot",
                      });

    // Skins as an object by name (3.8's other form): the skin's own key is found the same way.
    const std::string object = R"({
  "skeleton": { "spine": "3.8.99" },
  "bones": [ { "name": "root" }, { "name": "arm", "parent": "root", "length": 20 } ],
  "slots": [ { "name": "arm", "bone": "arm" } ],
  "skins": {
    "default": {},
    "bl\u0075e": {
      "arm": {
        "sl\u0065eve": { "width": 40, "height": 0 }
      }
    }
  }
})";
    r = parseSpineJson(object, "escapes_37.json");
    CHECK_FALSE(r.ok);
    messages.clear();
    for (const Diagnostic& d : r.diagnostics) messages.push_back(d.format());
    CHECK(messages == std::vector<std::string>{
                          "escapes_37.json:9: error: attachment 'sleeve' (skin 'blue', slot 'arm'): a region attachment "
                          "needs a width and height > 0",
                      });
    const SpineSkin* blue = r.skeleton.findSkin("blue");
    REQUIRE(blue);
    CHECK(blue->line == 7);
}

TEST_CASE("a Spine version the reader was not written for is warned about, and read as the nearest it knows",
          "[spine][reader]") {
    struct Case {
        const char* version;
        bool warned;
        int major, minor;
    };
    for (const Case& c : {Case{"3.8.99", false, 3, 8}, Case{"4.0.64", false, 4, 0}, Case{"4.2.22", false, 4, 2},
                          Case{"3.7.94", true, 3, 8}, Case{"3.9", true, 3, 8}, Case{"4.3.01", true, 4, 2},
                          Case{"4.9", true, 4, 2}, Case{"5.0", true, 4, 2}, Case{"abc", true, 3, 8}}) {
        const std::string json = std::string("{\"skeleton\": {\"spine\": \"") + c.version + "\"}, \"bones\": [{\"name\": \"root\"}]}";
        SpineLoadResult r = parseSpineJson(json, "v.json");
        CAPTURE(c.version);
        REQUIRE(r.ok);
        const bool warned = std::any_of(r.diagnostics.begin(), r.diagnostics.end(), [&](const Diagnostic& d) {
            return d.message == std::string("skeleton: version '") + c.version + "' is not 3.8 or 4.0-4.2; read as the nearest of those";
        });
        CHECK(warned == c.warned);
        CHECK(r.skeleton.major == c.major);
        CHECK(r.skeleton.minor == c.minor);
    }
}

TEST_CASE("a slot's blend mode and tint black, which the renderer does not draw, are warned about at the slot",
          "[spine][reader]") {
    const std::string json = "{\"skeleton\": {\"spine\": \"4.2.22\"},\n"
                             "\"bones\": [{\"name\": \"root\"}],\n"
                             "\"slots\": [\n"
                             "{\"name\": \"plain\", \"bone\": \"root\", \"blend\": \"normal\"},\n"
                             "{\"name\": \"glow\", \"bone\": \"root\", \"blend\": \"additive\"},\n"
                             "{\"name\": \"shade\", \"bone\": \"root\", \"dark\": \"000000\"}\n"
                             "]}";
    SpineLoadResult r = parseSpineJson(json, "slots.json");
    REQUIRE(r.ok);
    std::vector<std::string> found;
    for (const Diagnostic& d : r.diagnostics) found.push_back(d.format());
    CHECK(found == std::vector<std::string>{"slots.json:5: warning: slot 'glow': blend mode 'additive' is drawn as normal",
                                            "slots.json:6: warning: slot 'shade': its tint black ('dark') is not drawn"});
}

TEST_CASE("JSON: two bones a rig would name alike ('hand.r', 'hand_r') are an error at the second one's line", "[spine][json]") {
    // The import built the rig and its own check then said so, at lines of a rig file it
    // never wrote, with knock-on errors about the bodies and joints.
    const SpineLoadResult r = parseSpineJson(R"({
  "skeleton": { "spine": "4.2.22" },
  "bones": [
    { "name": "root" },
    { "name": "hand.r", "parent": "root", "length": 10 },
    { "name": "hand_r", "parent": "root", "length": 10 }
  ]
})", "alike.json");
    CHECK_FALSE(r.ok);
    REQUIRE(r.diagnostics.size() == 1);
    CHECK(r.diagnostics[0].format() == "alike.json:6: error: bone 'hand_r' would be the same bone in a rig as 'hand.r' "
                                       "(line 5): a rig name has '_' for each '.'; rename one of them");
}

TEST_CASE("pose: 3.8 rotate keys turn the shorter way (the difference wrapped into +-180), 4.x keys as written",
          "[spine][pose]") {
    // 0 -> 170 -> -170: 3.8's runtime goes on through 180 to 190; 4.x goes back through 0.
    auto spin = [](const std::string& version, const std::string& secondCurve) {
        const std::string json = "{\"skeleton\": {\"spine\": \"" + version + "\"},\n"
                                 "\"bones\": [{\"name\": \"root\"}, {\"name\": \"arm\", \"parent\": \"root\", \"length\": 10}],\n"
                                 "\"animations\": {\"spin\": {\"bones\": {\"arm\": {\"rotate\": [\n"
                                 "{\"time\": 0, \"angle\": 0, \"value\": 0},\n"
                                 "{\"time\": 0.5, \"angle\": 170, \"value\": 170" + secondCurve + "},\n"
                                 "{\"time\": 1, \"angle\": -170, \"value\": -170}\n"
                                 "]}}}}}";
        SpineLoadResult r = parseSpineJson(json, "spin.json");
        REQUIRE(r.ok);
        return r.skeleton.animations.at(0).timelines.at(0);
    };
    const SpineTimeline old = spin("3.8.99", "");
    CHECK(sampleSpineTimeline(old, 0, 0.25, 0.0) == Approx(85.0).margin(1e-9));
    CHECK(sampleSpineTimeline(old, 0, 0.7, 0.0) == Approx(178.0).margin(1e-9));
    CHECK(sampleSpineTimeline(old, 0, 0.8, 0.0) == Approx(182.0).margin(1e-9));
    CHECK(sampleSpineTimeline(old, 0, 1.0, 0.0) == Approx(190.0).margin(1e-9));
    // A 3.8 curve is normalised to the wrapped change: half-way along a symmetric ease is 180.
    const SpineTimeline eased = spin("3.8.99", ", \"curve\": 0.25, \"c2\": 0, \"c3\": 0.75, \"c4\": 1");
    CHECK(sampleSpineTimeline(eased, 0, 0.75, 0.0) == Approx(180.0).margin(1e-6));
    const SpineTimeline fresh = spin("4.2.22", "");
    CHECK(sampleSpineTimeline(fresh, 0, 0.7, 0.0) == Approx(34.0).margin(1e-9));
    CHECK(sampleSpineTimeline(fresh, 0, 0.8, 0.0) == Approx(-34.0).margin(1e-9));
    CHECK(sampleSpineTimeline(fresh, 0, 1.0, 0.0) == Approx(-170.0).margin(1e-9));
}
