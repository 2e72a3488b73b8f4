#include "solver/row_system.h"

#include <algorithm>
#include <cmath>

namespace ragdoll {

namespace {

/// One sweep; the largest change a row made to its own residual.
double sweep(const RowSystem& s) {
    const int n = s.count;
    double largest = 0.0;
    // The next row's residual, updated ahead of the others and handed on in a register: a
    // row waits on the one before it, and reading its residual back from the update's
    // stores would add their latency to that chain. The same arithmetic, so the same bits.
    double carried = 0.0;
    int carriedRow = -1;
    for (int i = 0; i < n; ++i) {
        const RowBound& b = s.bounds[i];
        if (s.invDiagonal[i] == 0.0 || (b.normalCount == 0 && b.lower == 0.0 && b.upper == 0.0)) continue;
        const double residual = carriedRow == i ? carried : s.residual[i];
        double lower = b.lower, upper = b.upper;
        if (b.normalCount > 0) {
            double normal = 0.0;
            for (int k = 0; k < b.normalCount; ++k) normal += s.lambda[b.normalFirst + k];
            upper = b.friction * normal;
            lower = -upper;
        }
        const double next =
            b.stick > 0.0 && b.compliance > 0.0
                ? stickThenSoftMultiplier(residual - s.w[i * n + i] * s.lambda[i], s.w[i * n + i], b.compliance, b.stick)
                : std::clamp(s.lambda[i] - (residual + b.compliance * s.lambda[i]) * s.invDiagonal[i], lower, upper);
        const double delta = next - s.lambda[i];
        if (delta == 0.0) continue;
        s.lambda[i] = next;
        largest = std::max(largest, std::abs(delta) * s.w[i * n + i]);
        const double* column = s.w + i * n;  // W is symmetric: its column i is row i, contiguous
        if (i + 1 < n) {
            carried = s.residual[i + 1] + column[i + 1] * delta;
            carriedRow = i + 1;
        }
        for (int k = 0; k < n; ++k) s.residual[k] += column[k] * delta;
    }
    return largest;
}

}  // namespace

double stickThenSoftMultiplier(double r0, double w, double compliance, double stick) {
    const double rigid = -r0 / w;
    if (std::abs(rigid) <= stick) return rigid;
    const double side = rigid > 0.0 ? 1.0 : -1.0;
    return (compliance * stick * side - r0) / (w + compliance);
}

int solveRowSystem(const RowSystem& system, int maxSweeps, double tolerance) {
    for (int done = 1; done <= maxSweeps; ++done)
        if (sweep(system) < tolerance) return done;
    return maxSweeps;
}

}  // namespace ragdoll
