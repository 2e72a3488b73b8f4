// The velocity pass of a joint tree's contact system (TreeSolver::solveContactVelocities):
// the rows solveFreeMotion solved, held again on velocities through the tree's
// factorisation (tree_contacts.cpp has the position pass).
#include "solver/tree_solver.h"

#include <algorithm>
#include <cmath>

#include "solver/constants.h"
#include "solver/row_system.h"

namespace ragdoll {

namespace {

Vec2 pointVelocity(const BodySim& s, Vec2 at) { return s.linearVelocity + cross(s.angularVelocity, at - s.center); }

}  // namespace

void TreeSolver::solveRowVelocities(Group& group, int groupIndex, const std::vector<Body>& bodies,
                                    std::vector<BodySim>& sims, std::vector<Joint>& joints, std::vector<Contact>& contacts, double h,
                                    double restitutionThreshold) {
    const RowRange range = groupRows_[size_t(groupIndex)];
    const int count = range.count;
    if (count == 0) return;
    const ContactRow* rows = rows_.data() + range.first;
    const double* lambda = rowLambda_.data() + range.first;
    const RowSystem system = rowSystem(range, rowScratch_);
    double* impulse = system.lambda;
    double* v = system.residual;
    RowBound* bound = rowBounds_.data() + range.first;  // the position pass's are spent
    bool any = false;
    for (int i = 0; i < count; ++i) {
        const ContactRow& r = rows[i];
        impulse[i] = 0.0;
        bound[i] = {};  // left out unless said below
        if (r.turn) {
            // The damping is a position row only. The friction holds the relative turn rate
            // too, with what its position row left of its budget (as the contacts' dynamic
            // friction): else the contacts' pass below gave a resting head a turn rate of
            // 0.02-0.04 rad/s every substep that its angle never showed (the next position
            // pass took it back).
            v[i] = sims[size_t(r.otherBody)].angularVelocity - sims[size_t(r.treeBody)].angularVelocity;
            const double most = std::max(r.friction - std::abs(lambda[i]), 0.0) / h;
            if (most > 0.0) {
                bound[i] = {-most, most};
                any = true;
            }
            continue;
        }
        if (r.joint >= 0) {
            // A limit that pushed: no relative turn past its bound (no bounce, no creep).
            v[i] = r.limitSide * (sims[size_t(r.otherBody)].angularVelocity - sims[size_t(r.treeBody)].angularVelocity);
            if (lambda[i] > 0.0 || joints[size_t(r.joint)].lambdaLimit != 0.0) {
                bound[i] = {0.0, kInfinity};
                any = true;
            }
            continue;
        }
        const Contact& c = contacts[size_t(r.contact)];
        const BodySim& a = sims[size_t(c.bodyA)];
        const BodySim& b = sims[size_t(c.bodyB)];
        v[i] = dot(pointVelocity(b, r.at) - pointVelocity(a, r.at), r.dir);
        if (r.point >= 0) {
            // A point that pushed: the approach speed left over goes, then the bounce
            // (restitution against the speed before the position solve, off below the
            // threshold, as the body-by-body pass does). It may take back the speed its push
            // gave (a deep overlap pushed out does not fly apart), never pull harder. Points
            // that did not push are left out: holding them too (no approach) kept more
            // stickmen of the sweep awake.
            if (lambda[i] <= 0.0) continue;
            const double e = std::abs(v[i]) <= restitutionThreshold ? 0.0 : c.restitution;
            v[i] -= std::max(-e * c.points[r.point].normalSpeedBefore, 0.0);
            bound[i] = {-lambda[i] / h, kInfinity};
            any = true;
        } else {
            // Dynamic friction (Müller 2020, eq. 30, as an impulse): at most μ·Σλ_n/h of the
            // substep, less what static friction already spent.
            double normal = 0.0;
            for (int k = 0; k < r.normalCount; ++k) normal += lambda[r.normalFirst + k];
            const double most = std::max(c.friction * normal - std::abs(lambda[i]), 0.0) / h;
            bound[i] = {-most, most};
        }
    }
    if (!any) return;
    // The impulses are found on the position pass's W and applied through the same kind of
    // factorisation (no limit rows): one with other limit rows (the solve after the
    // position pass factors those it finds outside their range) gave a resting limb 2 m/s.
    // When that solve found nothing to do, the position pass's factorisation is still here.
    if (group.factoredSinceContacts) {
        prepareContactFactor(group, sims, joints);
        factor(group);
    }
    solveRowSystem(system, kTreeContactSweeps, kTreeContactTolerance / h);
    pushRows(group, range, bodies, sims, impulse, true);
}

}  // namespace ragdoll
