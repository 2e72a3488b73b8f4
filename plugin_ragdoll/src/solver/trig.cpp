// The solver's sine, cosine and arctangent: the same bits on every x86-64 CPU.
//
// Why not std::sin/cos/atan2: glibc's libm picks a variant of them when it loads (an
// ifunc: an FMA/AVX2 build on CPUs that have FMA and AVX2, an AVX or SSE2 build elsewhere).
// None is correctly rounded, and the FMA build disagrees with the others in the last bit on
// about one argument in 1,300 (sin), 1,700 (cos) and 4,000 (atan2). The solver turns every
// body's angle into cos/sin every substep, so a simulation diverged between CPUs: the
// SCENES pile's state hash after 600 steps differed between this machine's FMA build and
// its AVX one (selected with GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2,-FMA). The rejected
// alternative, pinning the variant in tests, would only hide that: a game's replays and
// network peers would still diverge.
//
// So these use only +, −, ×, ÷ and sqrt, which IEEE 754 rounds the same everywhere (no FMA
// changes an expression's rounding either: the top-level CMakeLists.txt keeps them out of
// every build), and nearbyint and remainder, whose results are exact by definition (libm has
// variants of nearbyint too, but an exact result has only one value). Accuracy is glibc's
// class: within 0.8 ulp (sin, cos) and 0.9 ulp (atan2), where glibc's are within 0.52
// (tests/solver/trig_tests.cpp measures them against long double).
// - sin/cos: Cody–Waite reduction by π/2 in three parts (Cody & Waite 1980, "Software
//   Manual for the Elementary Functions"), the reduced argument kept as a double-double,
//   then the Taylor series to x¹⁷ and x¹⁶ on [−π/4, π/4] (truncation below 10⁻¹⁸).
// - atan2: the octant by symmetry, then atan(t) = atan(c) + atan((t − c)/(1 + t·c)) for a
//   breakpoint c (Abramowitz & Stegun 4.4.34) leaves |u| < 3/16 for the Taylor series to
//   u²¹ (truncation below 2⁻⁵⁷ of u).
// The constants (π/2 and atan of the breakpoints) were evaluated to 300 bits and split into
// a double and the rest.
#include <cmath>
#include <limits>

#include "solver/math.h"

namespace ragdoll {

namespace {

constexpr double kTwoOverPi = 0x1.45f306dc9c883p-1;
// π/2 = kPio2Part1 + kPio2Part2 + kPio2Part3 to 2⁻¹²². Parts 1 and 2 have 32 significant
// bits, so k·part is exact for |k| < 2²¹.
constexpr double kPio2Part1 = 0x1.921fb544p+0;
constexpr double kPio2Part2 = 0x1.0b4611a6p-34;
constexpr double kPio2Part3 = 0x1.3198a2e037073p-69;
/// Below this |angle| the quadrant k = round(angle·2/π) is under 2²¹.
constexpr double kReductionLimit = 0x1p20 * 3.0;
/// The constant part of atan2 in each of its four cases, for each breakpoint c of the
/// argument reduction: atan(c), π/2 − atan(c), π − atan(c) and π/2 + atan(c), each as the
/// double nearest and the rest. The breakpoints are 0, 2/8, 3/8 … 8/8.
struct DoubleDouble {
    double hi, lo;
};
constexpr double kAtanBreakpoint[8] = {0.0, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1.0};
constexpr DoubleDouble kAtanBase[4][8] = {
    {
        {0x0.0p+0, 0x0.0p+0},
        {0x1.f5b75f92c80ddp-3, 0x1.8ab6e3cf7afbdp-57},
        {0x1.6f61941e4def1p-2, -0x1.c63aae6f6e918p-56},
        {0x1.dac670561bb4fp-2, 0x1.a2b7f222f65e2p-56},
        {0x1.1e00babdefeb4p-1, -0x1.928df287a668fp-58},
        {0x1.4978fa3269ee1p-1, 0x1.2419a87f2a458p-56},
        {0x1.700a7c5784634p-1, -0x1.8c34d25aadef6p-56},
        {0x1.921fb54442d18p-1, 0x1.1a62633145c07p-55},
    },
    {
        {0x1.921fb54442d18p+0, 0x1.1a62633145c07p-54},
        {0x1.5368c951e9cfdp+0, -0x1.96f47948a99f1p-54},
        {0x1.3647503caf55cp+0, 0x1.17e21d9a42c9ap-55},
        {0x1.1b6e192ebbe44p+0, 0x1.b1b466a88828ep-54},
        {0x1.031f57e54adbep+0, 0x1.338b4259c0270p-54},
        {0x1.dac670561bb4fp-1, 0x1.a2b7f222f65e2p-55},
        {0x1.b434ee31013fdp-1, -0x1.0520d0701d877p-55},
        {0x1.921fb54442d18p-1, 0x1.1a62633145c07p-55},
    },
    {
        {0x1.921fb54442d18p+1, 0x1.1a62633145c07p-53},
        {0x1.72c43f4b1650ap+1, 0x1.c1b6f4f44e10bp-53},
        {0x1.643382c07913ap+1, 0x1.a65371fe67254p-54},
        {0x1.56c6e7397f5aep+1, 0x1.660b64ece6f4bp-53},
        {0x1.4a9f8694c6d6bp+1, 0x1.26f6d2c582f3bp-53},
        {0x1.3fc176b7a8560p+1, -0x1.441a3bd3f1083p-58},
        {0x1.361d162e61b8bp+1, 0x1.4be8fd7c9b7e6p-53},
        {0x1.2d97c7f3321d2p+1, 0x1.a79394c9e8a0ap-54},
    },
    {
        {0x1.921fb54442d18p+0, 0x1.1a62633145c07p-54},
        {0x1.d0d6a1369bd34p+0, -0x1.a23602a65700cp-57},
        {0x1.edf81a4bd64d4p+0, 0x1.a8d3b7956a1c1p-54},
        {0x1.0468a8ace4df6p+1, 0x1.0620bf7406affp-55},
        {0x1.109009519d639p+1, 0x1.01398408cb59ep-54},
        {0x1.1b6e192ebbe44p+1, 0x1.b1b466a88828ep-53},
        {0x1.251279b802819p+1, 0x1.6eaa5d3534893p-55},
        {0x1.2d97c7f3321d2p+1, 0x1.a79394c9e8a0ap-54},
    },
};

constexpr double factorial(int n) { return n <= 1 ? 1.0 : double(n) * factorial(n - 1); }

/// sin(r + rr) and cos(r + rr) for |r| ≤ π/4 + ε, rr a correction below half an ulp of r.
Rot sinCosReduced(double r, double rr) {
    const double z = r * r;
    // sin r = r + r³·(−1/3! + z/5! − … + z⁷/17!), Horner from the smallest term.
    double ps = 1.0 / factorial(17);
    ps = ps * z - 1.0 / factorial(15);
    ps = ps * z + 1.0 / factorial(13);
    ps = ps * z - 1.0 / factorial(11);
    ps = ps * z + 1.0 / factorial(9);
    ps = ps * z - 1.0 / factorial(7);
    ps = ps * z + 1.0 / factorial(5);
    ps = ps * z - 1.0 / factorial(3);
    // cos r = 1 − z/2 + z²·(1/4! − z/6! + … + z⁶/16!).
    double pc = 1.0 / factorial(16);
    pc = pc * z - 1.0 / factorial(14);
    pc = pc * z + 1.0 / factorial(12);
    pc = pc * z - 1.0 / factorial(10);
    pc = pc * z + 1.0 / factorial(8);
    pc = pc * z - 1.0 / factorial(6);
    pc = pc * z + 1.0 / factorial(4);
    // sin(r + rr) ≈ sin r + rr·cos r and cos(r + rr) ≈ cos r − rr·sin r, to first order in rr.
    const double s = r + (r * z * ps + rr * (1.0 - 0.5 * z));
    // 1 − z/2 loses the low bits of z/2 when z is large; (1 − w) − hz recovers them exactly.
    const double hz = 0.5 * z;
    const double w = 1.0 - hz;
    const double c = w + (((1.0 - w) - hz) + (z * z * pc - r * rr));
    return {c, s};
}

/// Veltkamp's split: v = hi + lo, each with at most 26 significant bits, so the product of
/// two halves is exact (Dekker 1971).
void split(double v, double& hi, double& lo) {
    const double scaled = (0x1p27 + 1.0) * v;
    hi = scaled - (scaled - v);
    lo = v - hi;
}

/// The rounding error of q = a / b: a / b − q, to first order (a − b·q is found exactly
/// from the split products).
double divisionError(double a, double b, double q) {
    double bh, bl, qh, ql;
    split(b, bh, bl);
    split(q, qh, ql);
    const double product = b * q;
    const double productError = ((bh * qh - product) + bh * ql + bl * qh) + bl * ql;  // b·q − product, exactly
    return ((a - product) - productError) / b;  // a − product is exact: product is within an ulp of a
}

/// atan(y/x) for 0 ≤ y ≤ x (not both 0) plus the constant of `quadrant` (see kAtanBase),
/// negated when `negate`. The constant and the series are added once, at the end, so the
/// result is rounded once; the rounding of y/x and of 1 + t·c are corrected to first order.
double atanFromBase(double y, double x, int quadrant, bool negate) {
    const double t = y / x;
    // Splitting overflows near the largest doubles; far from 1 the correction is skipped
    // (the result may then be off by 1.5 ulp instead of under 1).
    const double tError = x > 0x1p-500 && x < 0x1p500 ? divisionError(y, x, t) : 0.0;
    // The breakpoint nearest t, but none at 1/8: there atan(c) + atan(u) would nearly
    // cancel (t = 1/16 gives 0.124 − 0.062) and the error of u would show in the result.
    // Below 3/16 the series runs on t itself.
    const int nearest = int(t * 8.0 + 0.5);
    const int index = nearest <= 1 ? 0 : nearest - 1;
    const double c = kAtanBreakpoint[index];
    // t − c is exact (Sterbenz: t is within 1/16 of c ≥ 1/4, or c = 0); 1 + t·c is carried
    // with its rounding errors (c has at most 3 significant bits, so each half of t times c
    // is exact).
    double th, tl;
    split(t, th, tl);
    const double tc = t * c;
    const double tcError = (th * c - tc) + tl * c;
    const double den = 1.0 + tc;
    const double denError = ((1.0 - den) + tc) + tcError;
    const double u = (t - c) / den;
    const double z = u * u;
    // atan u = u + u³·(−1/3 + z/5 − … + z⁹/21): |u| < 3/16 leaves under 2⁻⁵⁷ of u.
    double p = 1.0 / 21.0;
    p = p * z - 1.0 / 19.0;
    p = p * z + 1.0 / 17.0;
    p = p * z - 1.0 / 15.0;
    p = p * z + 1.0 / 13.0;
    p = p * z - 1.0 / 11.0;
    p = p * z + 1.0 / 9.0;
    p = p * z - 1.0 / 7.0;
    p = p * z + 1.0 / 5.0;
    p = p * z - 1.0 / 3.0;
    // First-order corrections: d atan(t)/dt = 1/(1 + t²); u's denominator was off by denError.
    const double correction = tError / (1.0 + t * t) - u * denError / (den * (1.0 + z));
    const double series = u + (u * z * p + correction);
    const DoubleDouble base = kAtanBase[quadrant][index];
    return base.hi + (base.lo + (negate ? -series : series));
}

}  // namespace

Rot makeRot(double angle) {
    if (!(std::abs(angle) < kReductionLimit)) {
        if (!std::isfinite(angle)) {
            constexpr double nan = std::numeric_limits<double>::quiet_NaN();
            return {nan, nan};
        }
        // Beyond 3·10⁶ rad (half a million turns) reduce by the double nearest 2π first,
        // exactly as remainder does: that is off by under 0.35 of the spacing of doubles
        // near the angle, so less than the angle itself can say.
        angle = std::remainder(angle, 2.0 * kPi);
    }
    const double k = std::nearbyint(angle * kTwoOverPi);
    // angle − k·part1 is exact; the rest is carried as a double-double (r, rr).
    const double r1 = angle - k * kPio2Part1;
    const double w = k * kPio2Part2;
    const double r2 = r1 - w;
    // Knuth's TwoSum: r1 − w = r2 + e exactly, whatever their magnitudes.
    const double bv = r2 - r1;
    const double av = r2 - bv;
    const double e = (r1 - av) + (-w - bv);
    const double tail = e - k * kPio2Part3;
    const double r = r2 + tail;
    const double rr = tail - (r - r2);
    const Rot q = sinCosReduced(r, rr);
    switch (static_cast<long long>(k) & 3) {
    case 0: return {q.c, q.s};
    case 1: return {-q.s, q.c};
    case 2: return {-q.c, -q.s};
    default: return {q.s, -q.c};
    }
}

double angleOf(Vec2 v) {
    double x = v.x, y = v.y;
    if (std::isnan(x) || std::isnan(y)) return std::numeric_limits<double>::quiet_NaN();
    if (std::isinf(x) || std::isinf(y)) {
        // Only the directions of the infinite components count (atan2's conventions).
        x = std::isinf(v.x) ? std::copysign(1.0, v.x) : std::copysign(0.0, v.x);
        y = std::isinf(v.y) ? std::copysign(1.0, v.y) : std::copysign(0.0, v.y);
    }
    const double ax = std::abs(x), ay = std::abs(y);
    const bool left = std::signbit(x);  // −0 counts as left, as in atan2
    double a;
    if (ax == 0.0 && ay == 0.0)
        a = left ? kAtanBase[2][0].hi : 0.0;
    else if (ay <= ax)
        a = left ? atanFromBase(ay, ax, 2, true) : atanFromBase(ay, ax, 0, false);  // π − atan t, atan t
    else
        a = left ? atanFromBase(ax, ay, 3, false) : atanFromBase(ax, ay, 1, true);  // π/2 ± atan t
    return std::copysign(a, y);
}

}  // namespace ragdoll
