// A small dense system of bounded rows — a joint tree's contacts with the world, its limits
// near their bounds and its damped joints (tree_contacts.cpp builds them) — solved for the
// rows' multipliers λ by projected Gauss-Seidel:
//     λ within its bounds with  v + W·λ + C·λ = 0  on every row strictly inside them
//     (and, on a row at a bound, the residual pointing away from that bound),
// W the rows' Delassus matrix (symmetric, positive semi-definite), C a diagonal compliance
// and v the rows' residuals at λ = 0.
#pragma once

namespace ragdoll {

/// What bounds a row: lower ≤ λ ≤ upper, or for a friction row (normalCount > 0)
/// |λ| ≤ friction · Σ of its manifold's normal rows' λ. A row with lower = upper = 0 is
/// left out (it keeps λ = 0). A soft row has compliance > 0 (its residual is v + c·λ);
/// with stick > 0 too it is rigid while |λ| ≤ stick and soft beyond (a joint's friction
/// and damping: the compliance then acts on λ − clamp(λ, −stick, stick), unbounded).
struct RowBound {
    double lower = 0.0, upper = 0.0;
    int normalFirst = 0, normalCount = 0;  ///< a friction row's normals, as row indices
    double friction = 0.0;
    double compliance = 0.0;
    double stick = 0.0;
};

/// One group's rows; the arrays are the caller's, `count` long (w: count × count,
/// row-major).
struct RowSystem {
    int count = 0;
    const double* w = nullptr;
    const double* invDiagonal = nullptr;  ///< 1 / (W_ii + C_ii), 0 for a row that moves nothing
    const RowBound* bounds = nullptr;
    double* lambda = nullptr;    ///< in: the starting guess; out: the answer
    double* residual = nullptr;  ///< in: v + W·λ for the starting λ; out: for the answer
};

/// The multiplier λ of a soft row with a stick budget (a joint's friction and damping):
/// r0 + w·λ + compliance·(λ − clamp(λ, −stick, stick)) = 0, r0 the row's residual at
/// λ = 0 and w its response: rigid while |λ| ≤ stick, the compliance taking the rest.
double stickThenSoftMultiplier(double r0, double w, double compliance, double stick);

/// Sweeps until no row moves its own residual by more than `tolerance` (its change in λ
/// times W_ii) or `maxSweeps` are done. Returns the sweeps taken.
int solveRowSystem(const RowSystem& system, int maxSweeps, double tolerance);

}  // namespace ragdoll
