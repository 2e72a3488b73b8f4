// The editor's undo/redo history and dirty marker (app/edit_history.h).
#include <catch2/catch.hpp>

#include "model/edit_history.h"

using namespace paper::editor;

namespace {
Edit edit(double beforeUpper, double afterUpper) {
    return limitEdit(jointRef(2, 0, "elbow_L"), {0.0, toRadians(beforeUpper)}, {0.0, toRadians(afterUpper)});
}
}  // namespace

TEST_CASE("undo and redo walk the edits back and forth", "[editor][history]") {
    EditHistory h;
    CHECK_FALSE(h.dirty());
    CHECK(h.undo() == nullptr);
    h.record(edit(135, 100));
    h.record(edit(100, 90));
    CHECK(h.dirty());
    const Edit* u = h.undo();
    REQUIRE(u);
    CHECK(u->before.upper == Approx(toRadians(100)));
    u = h.undo();
    REQUIRE(u);
    CHECK(u->before.upper == Approx(toRadians(135)));
    CHECK_FALSE(h.dirty());  // back where the file was loaded
    CHECK(h.undo() == nullptr);
    const Edit* r = h.redo();
    REQUIRE(r);
    CHECK(r->after.upper == Approx(toRadians(100)));
    CHECK(h.dirty());
}

TEST_CASE("an edit that changes nothing is not recorded", "[editor][history]") {
    EditHistory h;
    CHECK_FALSE(h.record(edit(135, 135)));
    CHECK(h.size() == 0);
    CHECK_FALSE(h.canUndo());
}

TEST_CASE("a new edit drops the redo branch", "[editor][history]") {
    EditHistory h;
    h.record(edit(135, 100));
    h.undo();
    h.record(edit(135, 120));
    CHECK_FALSE(h.canRedo());
    CHECK(h.size() == 1);
}

TEST_CASE("saving clears dirty, undoing past the save makes it dirty again", "[editor][history]") {
    EditHistory h;
    h.record(edit(135, 100));
    h.markSaved();
    CHECK_FALSE(h.dirty());
    h.undo();
    CHECK(h.dirty());
    h.redo();
    CHECK_FALSE(h.dirty());
    // Undo past the save, then branch: the saved state can never come back.
    h.undo();
    h.record(edit(135, 110));
    CHECK(h.dirty());
    h.undo();
    CHECK(h.dirty());
}

TEST_CASE("property edits share the history but do not make the rig dirty", "[editor][history]") {
    EditHistory h;
    h.record(propertyEdit("solver.substeps", 4, 8));
    CHECK(h.canUndo());
    CHECK_FALSE(h.dirty());  // Save writes the rig; the world settings are not in it
    h.record(edit(135, 100));
    CHECK(h.dirty());
    h.record(propertyEdit("solver.iterations", 1, 1));  // no change: not recorded
    CHECK(h.size() == 2);

    // Undo walks back through both kinds in order.
    const Edit* u = h.undo();
    REQUIRE(u);
    CHECK(u->kind == EditKind::Limits);
    CHECK_FALSE(h.dirty());
    u = h.undo();
    REQUIRE(u);
    CHECK(u->kind == EditKind::Property);
    CHECK(u->property == "solver.substeps");
    CHECK(u->beforeValue == 4);
    CHECK_FALSE(h.dirty());
}

TEST_CASE("branching away over property edits only keeps the rig clean", "[editor][history]") {
    EditHistory h;
    h.record(propertyEdit("solver.substeps", 4, 8));
    h.markSaved();
    h.undo();
    h.record(propertyEdit("solver.substeps", 4, 2));
    CHECK_FALSE(h.dirty());
    h.record(edit(135, 100));
    CHECK(h.dirty());
}

TEST_CASE("applied() lists the edits in effect, oldest first", "[editor][history]") {
    EditHistory h;
    h.record(edit(135, 100));
    h.record(propertyEdit("world.gravity", -9.81, -5));
    h.record(edit(100, 90));
    h.undo();
    std::vector<Edit> now = h.applied();
    REQUIRE(now.size() == 2);
    CHECK(now[0].after.upper == Approx(toRadians(100)));
    CHECK(now[1].property == "world.gravity");
}

namespace {
/// The elbow's upper limit, degrees, after applying `steps` (each edit's `after`) to a world
/// whose elbow the file left at `file` degrees.
double upperOver(double file, const std::vector<Edit>& steps) {
    double upper = file;
    for (const Edit& e : steps)
        if (e.object.name == "elbow_L") upper = toDegrees(e.after.upper);
    return upper;
}
}  // namespace

TEST_CASE("overFile brings a world built from the file to what the user sees", "[editor][history]") {
    SECTION("edits since the save are applied") {
        EditHistory h;
        h.record(edit(135, 100));
        h.markSaved();
        h.record(edit(100, 90));
        CHECK(upperOver(100, h.overFile()) == Approx(90));
    }
    SECTION("an edit undone since the save is taken back: the file holds it") {
        EditHistory h;
        h.record(edit(135, 100));
        h.record(edit(100, 90));
        h.markSaved();
        h.undo();
        CHECK(upperOver(90, h.overFile()) == Approx(100));
        h.undo();
        CHECK(upperOver(90, h.overFile()) == Approx(135));
    }
    SECTION("with the save point dropped by a new edit, what the file still holds is taken back") {
        EditHistory h;
        h.record(edit(135, 100));
        h.markSaved();
        h.undo();
        h.record(limitEdit(jointRef(2, 0, "knee_L"), {0.0, 0.0}, {-1.0, 0.0}));  // another joint
        CHECK(h.dirty());
        CHECK(upperOver(100, h.overFile()) == Approx(135));
        h.markSaved();  // the file holds what is seen now
        CHECK(upperOver(135, h.overFile()) == Approx(135));
    }
}

TEST_CASE("inspector edits of joints and bodies are rig edits: dirty, undone in order", "[editor][history]") {
    EditHistory h;
    h.record(objectPropertyEdit(bodyRef(3, 0, "forearm_L"), "mass", 1.5, 1.5));  // no change: not recorded
    CHECK(h.size() == 0);
    h.record(propertyEdit("solver.substeps", 4, 8));
    CHECK_FALSE(h.dirty());
    h.record(objectPropertyEdit(bodyRef(3, 0, "forearm_L"), "mass", 1.5, 2.5));
    CHECK(h.dirty());  // Save writes body properties
    h.markSaved();
    h.record(objectPropertyEdit(jointRef(2, 0, "elbow_L"), "damping", 1.5, 3.0));
    CHECK(h.dirty());

    const Edit* u = h.undo();
    REQUIRE(u);
    CHECK(u->kind == EditKind::ObjectProperty);
    CHECK(u->object == jointRef(2, 0, "elbow_L"));
    CHECK(u->beforeValue == 1.5);
    CHECK_FALSE(h.dirty());  // back at the save
    u = h.undo();
    REQUIRE(u);
    CHECK(u->object.is(ObjectKind::Body, "forearm_L"));
    CHECK(u->property == "mass");
    CHECK(h.dirty());  // the saved mass is undone
    h.record(propertyEdit("solver.iterations", 1, 2));  // branching over the saved body edit: gone for good
    CHECK(h.dirty());

    h.clear();  // another rig was opened
    CHECK(h.size() == 0);
    CHECK_FALSE(h.dirty());
    CHECK_FALSE(h.canUndo());
}

namespace {
Edit massEdit(double before, double after) { return objectPropertyEdit(bodyRef(3, 0, "forearm_L"), "mass", before, after); }

/// The file as another program left it: forearm_L's mass 4 kg, elbow_L's upper limit 120°.
bool changedFile(Edit& value) {
    if (value.kind == EditKind::Limits) value.after = {0.0, toRadians(120)};
    else value.afterValue = 4.0;
    return true;
}
}  // namespace

TEST_CASE("after the file changed on disk and was read again, undo leads to its values, not the old file's",
          "[editor][history]") {
    // Nothing saved: undoing every edit leaves the file as it is now, and clean.
    EditHistory h;
    h.record(massEdit(1.5, 2.5));
    h.record(edit(135, 100));
    h.record(massEdit(2.5, 3.0));
    h.rebaseOnFile(changedFile);
    const Edit* u = h.undo();
    REQUIRE(u);
    CHECK(u->beforeValue == 2.5);  // the user's own earlier value stays
    u = h.undo();
    REQUIRE(u);
    CHECK(u->before.upper == Approx(toRadians(120)));  // the file's, was 135
    u = h.undo();
    REQUIRE(u);
    CHECK(u->beforeValue == 4.0);  // the file's, was 1.5
    CHECK_FALSE(h.dirty());
    // Redone, the edits are the user's values again.
    CHECK(h.redo()->afterValue == 2.5);
    CHECK(h.redo()->after.upper == Approx(toRadians(100)));
}

TEST_CASE("after a save and a change on disk, the save point stands for the file as it is now", "[editor][history]") {
    EditHistory h;
    h.record(massEdit(1.5, 2.5));
    h.markSaved();
    h.record(massEdit(2.5, 3.0));
    h.rebaseOnFile(changedFile);
    CHECK(h.applied()[0].afterValue == 4.0);  // applied again over the file, it keeps the file's 4 kg
    CHECK(h.undo()->beforeValue == 4.0);     // back to the save point: the file
    CHECK_FALSE(h.dirty());
    CHECK(h.undo()->beforeValue == 1.5);     // past it: the value before the first edit
    CHECK(h.dirty());
    // A setting is not in the file: it keeps its values.
    EditHistory s;
    s.record(propertyEdit("substeps", 8, 12));
    s.rebaseOnFile(changedFile);
    CHECK(s.undo()->beforeValue == 8.0);
}
