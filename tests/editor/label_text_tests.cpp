// A plugin's labels in the editor's sentences (view/label_text.h).
#include <catch2/catch.hpp>

#include "view/label_text.h"

using paper::editor::atSentenceStart;
using paper::editor::inRunningText;

TEST_CASE("an asset type's label reads with a small first letter mid-sentence", "[editor][text]") {
    // "Saves the Rig with its edits": the ragdoll plugin's label is a title.
    CHECK(inRunningText("Rig") == "rig");
    CHECK(inRunningText("Bounce emitter") == "bounce emitter");
    // Only the first letter: a name later in the label keeps its capital.
    CHECK(inRunningText("Level for Spine") == "level for Spine");
    // An abbreviation keeps its capitals; a label already small stays as it is.
    CHECK(inRunningText("PNG image") == "PNG image");
    CHECK(inRunningText("rig") == "rig");
    CHECK(inRunningText("") == "");
    // At the start of a sentence it takes its capital again.
    CHECK(atSentenceStart("rig or bounce emitter") == "Rig or bounce emitter");
    CHECK(atSentenceStart("PNG image") == "PNG image");
}

TEST_CASE("an asset type's label takes a or an by its first letter", "[editor][text]") {
    // "'x.png' is not a image file" read wrong for a label starting with a vowel.
    CHECK(paper::editor::withArticle("rig") == "a rig");
    CHECK(paper::editor::withArticle("image") == "an image");
    CHECK(paper::editor::withArticle("Emitter") == "an Emitter");
    CHECK(paper::editor::withArticle("PNG image") == "a PNG image");
}
