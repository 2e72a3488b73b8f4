// Rig saver: unchanged rigs save byte-identical, edits round-trip exactly and touch only
// what changed, everything unknown survives, and a failed write leaves the original intact.

#include <catch2/catch.hpp>

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "rig/rig_loader.h"
#include "rig/rig_saver.h"
#include "rig_test_support.h"

namespace fs = std::filesystem;
using namespace ragdoll;
using namespace rigtest;

namespace {

void writeFile(const fs::path& path, const std::string& text) {
    std::ofstream file(path, std::ios::binary);
    file << text;
}

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

/// A fresh directory under the system temp dir, removed at the end of the test.
struct TempDir {
    fs::path path;
    TempDir() {
        path = fs::temp_directory_path() / ("rig_saver_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter()++));
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~TempDir() {
        std::error_code ignored;
        fs::permissions(path, fs::perms::owner_all, fs::perm_options::add, ignored);
        fs::remove_all(path, ignored);
    }
    static int& counter() {
        static int n = 0;
        return n;
    }
};

std::shared_ptr<const RigDefinition> load(const std::string& path) {
    RigLoadResult result = loadRigFile(path);
    INFO(describe(result.diagnostics));
    REQUIRE(result.rig);
    return result.rig;
}

/// Everything the definition says, exactly (lines and the source text aside).
void requireSameDefinition(const RigDefinition& a, const RigDefinition& b) {
    CHECK(a.name == b.name);
    CHECK(a.units == b.units);
    CHECK(a.scale == b.scale);
    CHECK(a.solver.substeps == b.solver.substeps);
    CHECK(a.solver.iterations == b.solver.iterations);
    CHECK(a.solver.gravity == b.solver.gravity);
    REQUIRE(a.bones.size() == b.bones.size());
    for (size_t i = 0; i < a.bones.size(); ++i) {
        const RigBone &x = a.bones[i], &y = b.bones[i];
        CAPTURE(x.name);
        CHECK(x.name == y.name);
        CHECK(x.fileName == y.fileName);
        CHECK(x.parent == y.parent);
        CHECK(x.localOrigin == y.localOrigin);
        CHECK(x.localAngle == y.localAngle);
        CHECK(x.length == y.length);
        CHECK(x.origin == y.origin);
        CHECK(x.angle == y.angle);
    }
    REQUIRE(a.visuals.size() == b.visuals.size());
    for (size_t i = 0; i < a.visuals.size(); ++i) {
        const RigVisual &x = a.visuals[i], &y = b.visuals[i];
        CHECK(x.bone == y.bone);
        CHECK(x.shape == y.shape);
        CHECK(x.width == y.width);
        CHECK(x.radius == y.radius);
        CHECK(x.color == y.color);
        CHECK(x.sprite == y.sprite);
    }
    REQUIRE(a.bodies.size() == b.bodies.size());
    for (size_t i = 0; i < a.bodies.size(); ++i) {
        const RigBody &x = a.bodies[i], &y = b.bodies[i];
        CAPTURE(i);
        CHECK(x.bone == y.bone);
        CHECK(x.shape == y.shape);
        CHECK(x.radiusSource == y.radiusSource);
        CHECK(x.radius == y.radius);
        CHECK(x.centre == y.centre);
        if (x.radiusSource == RadiusSource::Fraction) CHECK(x.radiusFraction == y.radiusFraction);
        CHECK(x.mass == y.mass);
        CHECK(x.linearDamping == y.linearDamping);
        CHECK(x.angularDamping == y.angularDamping);
        CHECK(x.friction == y.friction);
        CHECK(x.restitution == y.restitution);
    }
    REQUIRE(a.joints.size() == b.joints.size());
    for (size_t i = 0; i < a.joints.size(); ++i) {
        const RigJoint &x = a.joints[i], &y = b.joints[i];
        CAPTURE(i);
        CHECK(x.name == y.name);
        CHECK(x.fileName == y.fileName);
        CHECK(x.parent == y.parent);
        CHECK(x.child == y.child);
        CHECK(x.parentBody == y.parentBody);
        CHECK(x.childBody == y.childBody);
        CHECK(x.limited == y.limited);
        CHECK(x.lower == y.lower);
        CHECK(x.upper == y.upper);
        CHECK(x.stiffness == y.stiffness);
        CHECK(x.damping == y.damping);
        CHECK(x.friction == y.friction);
        CHECK(x.collide == y.collide);
    }
}

/// Every rig file we have, shipped and test data, that loads.
std::vector<std::string> loadableRigs() {
    std::vector<std::string> out;
    for (const char* dir : {PAPERDOLL_CONTENT_DIR "/rigs", PAPERDOLL_RIG_TEST_DATA_DIR})
        for (const auto& entry : fs::directory_iterator(dir))
            if (entry.path().string().ends_with(".rig.xml") && loadRigFile(entry.path().string()).rig)
                out.push_back(entry.path().string());
    return out;
}

}  // namespace

TEST_CASE("an unchanged rig saves byte-identical", "[rig][saver]") {
    TempDir dir;
    std::vector<std::string> rigs = loadableRigs();
    CHECK(rigs.size() >= 7);
    // Saved one folder down from a copy of the content's art, where a rig's images are found
    // as from content/rigs (a save checks them at the file it writes).
    fs::copy(fs::path(PAPERDOLL_CONTENT_DIR) / "art", dir.path / "art", fs::copy_options::recursive);
    fs::create_directories(dir.path / "rigs");
    for (const std::string& path : rigs) {
        CAPTURE(path);
        auto rig = load(path);
        RigTextResult text = rigToText(*rig);
        REQUIRE(text.ok);
        CHECK(text.text == readFile(path));
        fs::path copy = dir.path / "rigs" / fs::path(path).filename();
        RigSaveResult saved = saveRig(*rig, copy.string());
        REQUIRE(saved.ok);
        CHECK(readFile(copy) == readFile(path));
    }
}

TEST_CASE("edits round-trip exactly and change only the edited attributes", "[rig][saver]") {
    TempDir dir;
    auto original = load(std::string(PAPERDOLL_CONTENT_DIR) + "/rigs/paper_puppet.rig.xml");
    RigDefinition edited = *original;
    // What the editor changes: limits, stiffness, damping, friction, masses, radii, solver settings.
    RigJoint& elbow = edited.joints[size_t(4)];
    REQUIRE(elbow.fileName == "elbow.L");
    elbow.lower = 5.0 * kDegree;
    elbow.upper = 0.123456789;  // radians that are no round number of degrees
    elbow.stiffness = 0.75;
    elbow.damping = 1.5;
    elbow.friction = 0.25;
    edited.bodies[0].mass = 3.25;
    edited.bodies[1].radiusSource = RadiusSource::Explicit;  // a radius instead of the fraction
    edited.bodies[1].radius = 0.0875;
    edited.solver.substeps = 8;
    edited.solver.gravity = -9.5;
    updateDerived(edited);

    fs::path path = dir.path / "puppet.rig.xml";
    RigSaveResult saved = saveRig(edited, path.string());
    INFO(describe(saved.diagnostics));
    REQUIRE(saved.ok);
    auto reloaded = load(path.string());
    requireSameDefinition(*reloaded, edited);

    // Only the lines of the edited elements differ, and in them only the edited values.
    std::vector<std::string> before = lines(original->sourceText), after = lines(readFile(path));
    REQUIRE(before.size() == after.size());
    std::vector<std::string> changed;
    for (size_t i = 0; i < before.size(); ++i)
        if (before[i] != after[i]) changed.push_back(after[i]);
    CHECK(changed == std::vector<std::string>{
                         "  <solver substeps=\"8\" iterations=\"1\" gravity=\"-950\"/>",
                         "  <body bone=\"pelvis\" radius_fraction=\"0.6\" mass=\"3.25\" linear_damping=\"0.1\" angular_damping=\"0.5\"/>",
                         "  <body bone=\"torso\" mass=\"8\" linear_damping=\"0.1\" angular_damping=\"0.5\" radius=\"8.75\"/>",
                         "  <joint name=\"elbow.L\" parent=\"upper_arm.L\" child=\"forearm.L\" lower=\"5\" "
                         "upper=\"7.073552961937127\" stiffness=\"0.75\" damping=\"1.5\" friction=\"0.25\"/>",
                     });
}

TEST_CASE("everything the loader does not understand survives a save", "[rig][saver]") {
    TempDir dir;
    auto original = load(dataPath("unknown_content.rig.xml"));
    RigDefinition edited = *original;
    edited.bones[0].length = 0.52;          // <bone name="torso"   … tag='spine &amp; ribs'>
    edited.bodies[2].mass = 2.0;            // the multi-line <body> with a child element
    edited.joints[1].limited = false;       // shoulder.L becomes free: lower/upper removed
    edited.name = "keeper & co";
    updateDerived(edited);
    fs::path path = dir.path / "keeper.rig.xml";
    REQUIRE(saveRig(edited, path.string()).ok);
    std::string text = readFile(path);
    CHECK(text == R"(<?xml version="1.0" encoding="UTF-8"?>
<?editor layout="grid"?>
<!-- Everything in here that the loader does not understand must survive a save: a
     processing instruction (tinyxml2 takes them only before anything else), comments,
     unknown elements (with children and entities), unknown attributes, single quotes,
     odd spacing, and names spelt with dots. -->
<rig name="keeper &amp; co" format="1" units="px" scale="100" author="paperdoll team">
  <!-- bones -->
  <bone name="torso"   x="0" y="100" angle="90" length="52" tag='spine &amp; ribs'/>
  <bone name="head" parent="torso" length="30"/>
  <bone name="upper_arm.L" parent="torso" x="45" angle="180" length="28"/>

  <editor-note text="keep me" priority="2">
    <line>nested &amp; escaped</line>
  </editor-note>
  <visual bone="torso" width="18" color="#202020"/>
  <visual bone="head" shape="circle" radius="12"/>
  <visual bone="upper_arm.L" width="9"/>
  <body bone="torso" mass="8" material="cardboard"/>
  <body bone="head" shape="circle" mass="1.5"/>
  <body bone="upper_arm.L"
        mass="2">
    <hint>an unknown child element</hint>
  </body>
  <joint name="neck" parent="torso" child="head" lower="-45" upper="45"/>
  <joint name="shoulder.L" parent="torso" child="upper_arm.L"/>
</rig>
<!-- trailing comment -->
)");
    // The head bone defaults to the torso's tip: it follows the new length unwritten.
    auto reloaded = load(path.string());
    CHECK(reloaded->name == "keeper & co");
    CHECK(reloaded->bones[1].origin.y == Approx(1.52));
    CHECK(reloaded->bones[2].fileName == "upper_arm.L");
    CHECK_FALSE(reloaded->joints[1].limited);
}

TEST_CASE("added and removed elements are placed with their kind", "[rig][saver]") {
    auto original = load(dataPath("units_m.rig.xml"));
    RigDefinition edited = *original;
    edited.joints.erase(edited.joints.begin() + 1);  // the arm's joint goes
    RigJoint extra = original->joints[1];
    extra.element = -1;  // not in the file yet
    extra.fileName = "shoulder.L";
    extra.name = "shoulder_L";
    extra.lower = -90.0 * kDegree;
    extra.upper = 90.0 * kDegree;
    extra.collide = true;
    edited.joints.push_back(extra);
    RigVisual visual;
    visual.bone = edited.findBone("arm.L");
    visual.width = 0.09;
    visual.color = "#ff0000";
    edited.visuals.push_back(visual);
    updateDerived(edited);
    RigTextResult text = rigToText(edited);
    REQUIRE(text.ok);
    std::vector<std::string> out = lines(text.text);
    std::vector<std::string> tail(out.end() - 10, out.end() - 1);
    CHECK(tail == std::vector<std::string>{
                      "  <visual bone=\"head\" shape=\"circle\" radius=\"0.12\"/>",
                      "  <visual bone=\"arm.L\" width=\"0.09\" color=\"#ff0000\"/>",
                      "  <body bone=\"torso\" mass=\"8\"/>",
                      "  <body bone=\"head\" shape=\"circle\" mass=\"1.5\"/>",
                      "  <body bone=\"arm.L\" radius_fraction=\"0.08\" mass=\"1.5\"/>",
                      "  <body bone=\"leg.L\" shape=\"box\" radius=\"0.06\" mass=\"3\"/>",
                      "  <joint parent=\"torso\" child=\"head\" lower=\"-45\" upper=\"45\"/>",
                      "  <joint parent=\"torso\" child=\"leg.L\" lower=\"-90\" upper=\"30\"/>",
                      "  <joint name=\"shoulder.L\" parent=\"torso\" child=\"arm.L\" lower=\"-90\" upper=\"90\" collide=\"true\"/>",
                  });
    CHECK(text.text.ends_with("</rig>\n"));
    RigLoadResult reloaded = loadRigFromText(text.text, "added.rig.xml");
    REQUIRE(reloaded.rig);
    CHECK(reloaded.rig->joints.size() == 3);
    CHECK(reloaded.rig->joints[2].collide);
    // A visual added to a bone whose body has a fraction does not change the body.
    CHECK(reloaded.rig->bodies[2].radiusSource == RadiusSource::Fraction);
}

TEST_CASE("a removed group of elements takes the comment heading it along, and only then", "[rig][saver]") {
    const std::string source = R"(<rig name="commented" format="1" units="m">
  <bone name="torso" y="1" angle="90" length="0.5"/>
  <bone name="head" parent="torso" length="0.3"/>
  <bone name="arm.L" parent="torso" angle="180" length="0.5"/>

  <body bone="torso" radius="0.1" mass="8"/>
  <body bone="head" shape="circle" radius="0.1" mass="1.5"/>
  <body bone="arm.L" radius="0.05" mass="1.5"/>

  <!-- Loose neck, stiff shoulder: these
       limits were tuned by hand. -->
  <joint name="neck" parent="torso" child="head" lower="-45" upper="45"/>
  <joint name="shoulder.L" parent="torso" child="arm.L" lower="-90" upper="90"/>

  <!-- how hard the active ragdoll pulls -->
  <drive linear_stiffness="900"/>
</rig>
)";
    RigLoadResult original = loadRigFromText(source, "commented.rig.xml");
    INFO(describe(original.diagnostics));
    REQUIRE(original.rig);
    // The text saved with every joint removed.
    auto withoutJoints = [](const std::string& text) {
        RigLoadResult loaded = loadRigFromText(text, "commented.rig.xml");
        REQUIRE(loaded.rig);
        RigDefinition edited = *loaded.rig;
        edited.joints.clear();
        updateDerived(edited);
        RigTextResult saved = rigToText(edited);
        REQUIRE(saved.ok);
        return saved;
    };
    SECTION("every joint of the group removed: the comment on them and a blank line go too") {
        const RigTextResult text = withoutJoints(source);
        CHECK(text.text == R"(<rig name="commented" format="1" units="m">
  <bone name="torso" y="1" angle="90" length="0.5"/>
  <bone name="head" parent="torso" length="0.3"/>
  <bone name="arm.L" parent="torso" angle="180" length="0.5"/>

  <body bone="torso" radius="0.1" mass="8"/>
  <body bone="head" shape="circle" radius="0.1" mass="1.5"/>
  <body bone="arm.L" radius="0.05" mass="1.5"/>

  <!-- how hard the active ragdoll pulls -->
  <drive linear_stiffness="900"/>
</rig>
)");
    }
    SECTION("the last group before </rig> removed: no blank line left before it") {
        std::string last = source;
        last.erase(last.find("\n  <!-- how hard"), last.find("</rig>") - last.find("\n  <!-- how hard"));
        const RigTextResult text = withoutJoints(last);
        INFO(text.text);
        CHECK(text.text.ends_with("  <body bone=\"arm.L\" radius=\"0.05\" mass=\"1.5\"/>\n</rig>\n"));
    }
    SECTION("a group sharing its first line with a comment: each element goes alone, the lines stay apart") {
        std::string shared = source;
        shared.replace(shared.find("  <!-- Loose neck"), shared.find("  <joint name=\"neck\"") - shared.find("  <!-- Loose neck"),
                       "  <!-- neck --> ");
        const RigTextResult text = withoutJoints(shared);
        INFO(text.text);
        CHECK(text.text.find("  <!-- neck -->   \n\n  <!-- how hard") != std::string::npos);
    }
    SECTION("one joint of the group removed: the comment stays with the other") {
        RigDefinition edited = *original.rig;
        edited.joints.erase(edited.joints.begin());
        updateDerived(edited);
        RigTextResult text = rigToText(edited);
        REQUIRE(text.ok);
        CHECK(text.text.find("       limits were tuned by hand. -->\n  <joint name=\"shoulder.L\"") != std::string::npos);
        CHECK(text.text.find("<joint name=\"neck\"") == std::string::npos);
    }
}

TEST_CASE("a body set beside its bone saves its centre, in file units, and only then", "[rig][saver]") {
    auto original = load(dataPath("units_px.rig.xml"));  // 250 px a metre; the head is 75 px long
    RigDefinition edited = *original;
    const int head = edited.bodyOfBone(edited.findBone("head"));
    REQUIRE(head >= 0);
    edited.bodies[size_t(head)].centre = Vec2{0.17, 0.1};  // 42.5 px along the bone, 25 px to its left
    RigTextResult text = rigToText(edited);
    REQUIRE(text.ok);
    const std::vector<std::string> before = lines(original->sourceText), after = lines(text.text);
    REQUIRE(before.size() == after.size());
    std::vector<std::string> changed;
    for (size_t i = 0; i < before.size(); ++i)
        if (before[i] != after[i]) changed.push_back(after[i]);
    REQUIRE(changed.size() == 1);
    CHECK_THAT(changed[0], Catch::Contains("<body bone=\"head\"") && Catch::Contains(" x=\"42.5\" y=\"25\""));
    RigLoadResult reloaded = loadRigFromText(text.text, "moved.rig.xml");
    REQUIRE(reloaded.rig);
    requireSameDefinition(*reloaded.rig, edited);
    // Put back on its midpoint, the attributes go.
    RigDefinition back = *reloaded.rig;
    back.bodies[size_t(head)].centre.reset();
    RigTextResult again = rigToText(back);
    REQUIRE(again.ok);
    CHECK(again.text == original->sourceText);
}

TEST_CASE("a rig built in code is written fresh and loads back the same", "[rig][saver]") {
    auto original = load(dataPath("units_px.rig.xml"));
    RigDefinition fresh = *original;
    fresh.sourceText.clear();
    for (RigBone& b : fresh.bones) b.element = -1;
    for (RigVisual& v : fresh.visuals) v.element = -1;
    for (RigBody& b : fresh.bodies) b.element = -1;
    for (RigJoint& j : fresh.joints) j.element = -1;
    fresh.solver.element = -1;
    RigTextResult text = rigToText(fresh);
    REQUIRE(text.ok);
    // Only what differs from the defaults (-2452.5 px/s² is the default gravity: no <solver>).
    CHECK(text.text.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rig name=\"units\" format=\"1\" units=\"px\" scale=\"250\">\n"
                                "  <bone name=\"torso\" x=\"25\" y=\"300\" angle=\"80\" length=\"125\"/>\n"
                                "  <bone name=\"head\" parent=\"torso\" length=\"75\"/>\n"));
    CHECK(text.text.find("\n\n  <visual bone=\"torso\" width=\"45\"/>\n") != std::string::npos);
    CHECK(text.text.ends_with("  <joint parent=\"torso\" child=\"leg.L\" lower=\"-90\" upper=\"30\"/>\n</rig>\n"));
    RigLoadResult reloaded = loadRigFromText(text.text, "fresh.rig.xml");
    REQUIRE(reloaded.rig);
    requireSameDefinition(*reloaded.rig, *original);
}

TEST_CASE("an edit that would not load is not saved", "[rig][saver]") {
    TempDir dir;
    fs::path path = dir.path / "units.rig.xml";
    fs::copy_file(dataPath("units_m.rig.xml"), path);
    auto rig = load(path.string());
    RigDefinition edited = *rig;
    edited.bodies[0].mass = -1.0;
    RigSaveResult saved = saveRig(edited, path.string());
    CHECK_FALSE(saved.ok);
    std::vector<std::string> texts;
    for (const Diagnostic& d : saved.diagnostics) texts.push_back(d.format());
    CHECK(texts == std::vector<std::string>{path.string() + ":13: error: body: attribute 'mass' must be > 0, got -1",
                                            path.string() + ": error: not saved: the edited rig would not load"});
    CHECK(readFile(path) == readFile(dataPath("units_m.rig.xml")));
}

TEST_CASE("a failed write leaves the original intact and no temporary file behind", "[rig][saver][atomic]") {
    TempDir dir;
    fs::path path = dir.path / "stickman.rig.xml";
    const std::string originalText = readFile(std::string(PAPERDOLL_CONTENT_DIR) + "/rigs/stickman.rig.xml");
    writeFile(path, originalText);
    auto rig = load(path.string());
    RigDefinition edited = *rig;
    edited.bodies[0].mass = 9.0;
    auto onlyOriginalLeft = [&] {
        std::vector<std::string> names;
        for (const auto& entry : fs::directory_iterator(dir.path)) names.push_back(entry.path().filename().string());
        CHECK(names == std::vector<std::string>{"stickman.rig.xml"});
        CHECK(readFile(path) == originalText);
    };

    SECTION("the disk fills up halfway through the write") {
        // RLIMIT_FSIZE makes write() fail with EFBIG past 1 KB, even for root; SIGXFSZ
        // would kill the process instead, so it is ignored for the duration.
        struct rlimit old {};
        REQUIRE(::getrlimit(RLIMIT_FSIZE, &old) == 0);
        auto oldHandler = std::signal(SIGXFSZ, SIG_IGN);
        struct rlimit small = old;
        small.rlim_cur = 1024;
        REQUIRE(::setrlimit(RLIMIT_FSIZE, &small) == 0);
        RigSaveResult saved = saveRig(edited, path.string());
        ::setrlimit(RLIMIT_FSIZE, &old);
        std::signal(SIGXFSZ, oldHandler);
        CHECK_FALSE(saved.ok);
        REQUIRE(saved.diagnostics.size() == 1);
        CHECK(saved.diagnostics[0].message.find("File too large (the original is unchanged)") != std::string::npos);
        onlyOriginalLeft();
    }
    SECTION("the directory is read-only") {
        using fs::perms;
        fs::permissions(dir.path, perms::owner_read | perms::owner_exec | perms::group_read | perms::group_exec |
                                      perms::others_read | perms::others_exec, fs::perm_options::replace);
        // Root writes into a read-only directory anyway: then the save runs in a child that
        // has given root up (as the user nobody), and says by its exit status whether the
        // save was refused with a reason (1), went through (0) or could not drop root (2).
        int refused = -1;
        if (::geteuid() != 0) {
            const RigSaveResult saved = saveRig(edited, path.string());
            refused = !saved.ok && !saved.diagnostics.empty();
        } else {
            const pid_t child = ::fork();
            REQUIRE(child >= 0);
            if (child == 0) {
                if (::setgid(65534) != 0 || ::setuid(65534) != 0) ::_exit(2);
                const RigSaveResult saved = saveRig(edited, path.string());
                ::_exit(!saved.ok && !saved.diagnostics.empty() ? 1 : 0);
            }
            int status = 0;
            REQUIRE(::waitpid(child, &status, 0) == child);
            REQUIRE(WIFEXITED(status));
            refused = WEXITSTATUS(status);
        }
        fs::permissions(dir.path, perms::owner_all, fs::perm_options::replace);
        CHECK(refused == 1);
        onlyOriginalLeft();
    }
    SECTION("the directory vanished") {
        fs::path gone = dir.path / "gone";
        fs::create_directory(gone);
        fs::remove(gone);
        RigSaveResult saved = saveRig(edited, (gone / "stickman.rig.xml").string());
        CHECK_FALSE(saved.ok);
        REQUIRE(saved.diagnostics.size() == 1);
        CHECK(saved.diagnostics[0].format() ==
              (gone / "stickman.rig.xml").string() + ": error: cannot save rig: directory '" + gone.string() + "' does not exist");
        onlyOriginalLeft();
    }
    SECTION("the target is a directory") {
        RigSaveResult saved = saveRig(edited, dir.path.string());
        CHECK_FALSE(saved.ok);
        onlyOriginalLeft();
    }
    SECTION("and a successful save keeps the file's permissions") {
        fs::permissions(path, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read, fs::perm_options::replace);
        REQUIRE(saveRig(edited, path.string()).ok);
        CHECK(fs::status(path).permissions() == (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read));
        CHECK(load(path.string())->bodies[0].mass == 9.0);
    }
}

TEST_CASE("a rig saved through a symbolic link edits the file it names and keeps the link", "[rig][saver][atomic]") {
    // rigs/hero.rig.xml -> ../shared/stickman.rig.xml: the save replaced the link with an
    // edited copy, and the file it named was never edited.
    TempDir dir;
    fs::create_directories(dir.path / "shared");
    fs::create_directories(dir.path / "rigs");
    const fs::path real = dir.path / "shared" / "stickman.rig.xml", link = dir.path / "rigs" / "hero.rig.xml";
    const std::string originalText = readFile(std::string(PAPERDOLL_CONTENT_DIR) + "/rigs/stickman.rig.xml");
    writeFile(real, originalText);
    fs::create_symlink("../shared/stickman.rig.xml", link);
    auto rig = load(link.string());
    REQUIRE(rig);
    RigDefinition edited = *rig;
    edited.bodies[0].mass = 9.0;
    const RigSaveResult saved = saveRig(edited, link.string());
    INFO(describe(saved.diagnostics));
    REQUIRE(saved.ok);
    CHECK(fs::is_symlink(link));
    CHECK(fs::read_symlink(link) == "../shared/stickman.rig.xml");
    CHECK(readFile(real) != originalText);
    CHECK(load(real.string())->bodies[0].mass == 9.0);
    // Nothing left beside either: no temporary file, no copy.
    CHECK(std::distance(fs::directory_iterator(dir.path / "rigs"), fs::directory_iterator()) == 1);
    CHECK(std::distance(fs::directory_iterator(dir.path / "shared"), fs::directory_iterator()) == 1);
}

TEST_CASE("a read-only rig file is not saved over", "[rig][saver][atomic]") {
    // Made read-only (a version control system's file not checked out): the temporary file
    // renamed over it replaced it all the same, unsaid, the read-only mode kept on the new one.
    TempDir dir;
    const fs::path path = dir.path / "stickman.rig.xml";
    const std::string originalText = readFile(std::string(PAPERDOLL_CONTENT_DIR) + "/rigs/stickman.rig.xml");
    writeFile(path, originalText);
    fs::permissions(path, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
    auto rig = load(path.string());
    REQUIRE(rig);
    RigDefinition edited = *rig;
    edited.bodies[0].mass = 9.0;
    RigSaveResult saved = saveRig(edited, path.string());
    REQUIRE_FALSE(saved.ok);
    REQUIRE(saved.diagnostics.size() == 1);
    CHECK(saved.diagnostics[0].message == "cannot save rig: '" + path.string() +
                                              "' is read-only (checked in, or not yours?): make it writable to save over it");
    CHECK(readFile(path) == originalText);
    CHECK(std::distance(fs::directory_iterator(dir.path), fs::directory_iterator()) == 1);  // no temporary file
    // Made writable, it saves.
    fs::permissions(path, fs::perms::owner_write, fs::perm_options::add);
    saved = saveRig(edited, path.string());
    CHECK(saved.ok);
    CHECK(load(path.string())->bodies[0].mass == 9.0);
}
