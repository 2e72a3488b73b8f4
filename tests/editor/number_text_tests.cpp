// Numbers as the Inspector shows them (view/number_text.h).
#include <catch2/catch.hpp>

#include "view/number_text.h"

using paper::editor::numberText;

TEST_CASE("a joint at rest reads 0, not a tiny negative or a negative zero", "[editor][inspector]") {
    // The read-only Angle showed "-5.331e-07" and the header "angle now -0.0°".
    CHECK(numberText(-5.331e-07, "%.4g") == "0");
    CHECK(numberText(-5.331e-07, "%.1f") == "0.0");
    CHECK(numberText(-0.04, "%.1f") == "0.0");
    CHECK(numberText(-0.0, "%.1f") == "0.0");
    // Values that print as something keep their sign and digits.
    CHECK(numberText(-0.06, "%.1f") == "-0.1");
    CHECK(numberText(-12.25, "%.4g") == "-12.25");
    CHECK(numberText(2.5, "%.4g") == "2.5");
    CHECK(numberText(0.0015, "%.4g") == "0.0015");
}
