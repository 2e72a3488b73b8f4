// The solver's own sin/cos/atan2 (solver/trig.cpp) against long double references: how
// far off they are in units in the last place, and the special values atan2 defines.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

#include "solver/math.h"

using namespace ragdoll;

namespace {

/// |value − reference| in units of the spacing of doubles at the reference.
double ulpError(double value, long double reference) {
    const double rounded = double(reference);
    const double spacing = std::nextafter(std::abs(rounded), std::numeric_limits<double>::infinity()) - std::abs(rounded);
    return double(std::fabs((long double)value - reference) / (long double)spacing);
}

struct Worst {
    double sin = 0.0, cos = 0.0;
};

Worst worstSinCos(double lo, double hi, int samples, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> angle(lo, hi);
    Worst worst;
    for (int i = 0; i < samples; ++i) {
        const double x = angle(rng);
        const Rot q = makeRot(x);
        worst.sin = std::max(worst.sin, ulpError(q.s, sinl((long double)x)));
        worst.cos = std::max(worst.cos, ulpError(q.c, cosl((long double)x)));
    }
    return worst;
}

}  // namespace

TEST_CASE("the solver's sine and cosine are within an ulp of the exact values", "[solver][trig]") {
    // Measured: 0.80 ulp at most (glibc's sin/cos: 0.52, its FMA and SSE2 builds differing).
    Worst small = worstSinCos(-kPi, kPi, 400000, 1);
    Worst wide = worstSinCos(-2.0e4, 2.0e4, 400000, 2);   // the winding of a long spin
    Worst huge = worstSinCos(-3.0e6, 3.0e6, 100000, 3);   // up to the reduction limit
    CAPTURE(small.sin, small.cos, wide.sin, wide.cos, huge.sin, huge.cos);
    CHECK(small.sin < 1.0);
    CHECK(small.cos < 1.0);
    CHECK(wide.sin < 1.0);
    CHECK(wide.cos < 1.0);
    CHECK(huge.sin < 1.0);
    CHECK(huge.cos < 1.0);

    // Exact where the values are exact, and the quadrants' signs.
    CHECK(makeRot(0.0).c == 1.0);
    CHECK(makeRot(0.0).s == 0.0);
    CHECK(makeRot(1e-300).s == 1e-300);
    CHECK(makeRot(kPi / 2.0).c == Approx(0.0).margin(1e-16));
    CHECK(makeRot(kPi / 2.0).s == 1.0);
    CHECK(makeRot(-kPi / 2.0).s == -1.0);
    CHECK(makeRot(kPi).c == -1.0);
    CHECK(makeRot(kPi).s == Approx(0.0).margin(2e-16));
    CHECK(makeRot(3.0 * kPi / 4.0).c == Approx(-std::sqrt(0.5)).epsilon(1e-15));
    CHECK(makeRot(-3.0 * kPi / 4.0).s == Approx(-std::sqrt(0.5)).epsilon(1e-15));
    // Beyond the reduction limit: still a rotation, and close to the exact one.
    const double far = 1.0e9 + 0.5;
    const Rot q = makeRot(far);
    CHECK(q.c * q.c + q.s * q.s == Approx(1.0).epsilon(1e-15));
    CHECK(q.s == Approx(double(sinl((long double)far))).margin(1e-6));
    CHECK(std::isnan(makeRot(std::numeric_limits<double>::infinity()).s));
    CHECK(std::isnan(makeRot(std::numeric_limits<double>::quiet_NaN()).c));
}

TEST_CASE("the solver's atan2 is within an ulp of the exact value, with atan2's special values", "[solver][trig]") {
    std::mt19937_64 rng(4);
    std::uniform_real_distribution<double> coordinate(-2.0, 2.0);
    std::uniform_real_distribution<double> exponent(-30.0, 30.0);
    double worst = 0.0;
    for (int i = 0; i < 400000; ++i) {
        double x = coordinate(rng), y = coordinate(rng);
        if (i % 4 == 0) y *= std::exp2(exponent(rng));  // far from the diagonal, both ways
        const double a = angleOf({x, y});
        worst = std::max(worst, ulpError(a, atan2l((long double)y, (long double)x)));
    }
    CAPTURE(worst);
    CHECK(worst < 1.0);  // measured: 0.86

    const double inf = std::numeric_limits<double>::infinity();
    const double piD = double(kPi);
    CHECK(angleOf({1.0, 0.0}) == 0.0);
    CHECK(angleOf({0.0, 1.0}) == piD / 2.0);
    CHECK(angleOf({0.0, -1.0}) == -piD / 2.0);
    CHECK(angleOf({-1.0, 0.0}) == piD);
    CHECK(angleOf({-1.0, -0.0}) == -piD);
    CHECK(angleOf({1.0, 1.0}) == piD / 4.0);
    CHECK(std::signbit(angleOf({1.0, -0.0})));
    CHECK(angleOf({0.0, 0.0}) == 0.0);
    CHECK(angleOf({-0.0, 0.0}) == piD);
    CHECK(angleOf({-0.0, -0.0}) == -piD);
    CHECK(angleOf({inf, 1.0}) == 0.0);
    CHECK(angleOf({-inf, 1.0}) == piD);
    CHECK(angleOf({1.0, inf}) == piD / 2.0);
    CHECK(angleOf({-inf, -inf}) == Approx(-0.75 * piD).epsilon(1e-15));
    CHECK(std::isnan(angleOf({std::numeric_limits<double>::quiet_NaN(), 1.0})));
    // Round trip: the angle of a rotation is the angle it was made from.
    for (double angle : {-3.0, -1.0, -0.1, 0.0, 0.2, 1.5, 3.1}) CHECK(angleOf({makeRot(angle).c, makeRot(angle).s}) == Approx(angle).margin(4e-16));
}
