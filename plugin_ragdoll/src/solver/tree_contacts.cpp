// The joint trees' contacts with the world, solved through each tree's factorisation
// (TreeSolver's second half: the joints alone are in tree_solver.cpp, the velocity pass of
// these rows in tree_contact_velocities.cpp).
#include "solver/tree_solver.h"

#include <algorithm>
#include <cmath>
#include <iterator>

#include "solver/arrays.h"
#include "solver/constants.h"
#include "solver/row_system.h"

namespace ragdoll {

// ---- contacts through the tree ----------------------------------------------------------
//
// A push f on the group's bodies moves them by Δq, the body rows of
//     [ M   Jᵀ ] [ Δq ]   [ f ]
//     [ J  −Ã  ] [ −λ ] = [ 0 ]
// (the joints keep their anchors together to first order while the bodies give way), which
// the factorisation of solve() already inverts. The relative motion of contact row i per
// unit push along row j is then W_ij = J_i·K⁻¹·J_jᵀ (the Delassus matrix, Baraff 1996 §8),
// built from each row's forward pass along its path to the root (computeDelassus); the
// rows' multipliers are found on that small dense
// system by projected Gauss-Seidel (λ_n ≥ 0, |λ_t| ≤ μ·Σλ_n per manifold) and applied in
// one substitution.

double TreeSolver::respondTurn(const Group& group, const Joint& joint) {
    // A joint to the world (the tree's root) has one body in the group.
    const int nodeA = bodyNode_[size_t(joint.bodyA)], nodeB = bodyNode_[size_t(joint.bodyB)];
    for (int n = group.firstNode; n < group.firstNode + group.nodeCount; ++n) rhs_[size_t(n)] = {};
    if (nodeA >= 0) rhs_[size_t(nodeA)].v[2] = -1.0;
    if (nodeB >= 0) rhs_[size_t(nodeB)].v[2] = 1.0;
    substitute(group);
    return (nodeB >= 0 ? solution_[size_t(nodeB)].v[2] : 0.0) - (nodeA >= 0 ? solution_[size_t(nodeA)].v[2] : 0.0);
}

void TreeSolver::applyToGroup(const Group& group, std::vector<BodySim>& sims, double amount) {
    for (int n = group.firstNode; n < group.firstNode + group.nodeCount; ++n) {
        const Node& node = nodes_[size_t(n)];
        if (node.isJoint) continue;
        const Vec3& x = solution_[size_t(n)];
        BodySim& sim = sims[size_t(node.index)];
        sim.center += amount * Vec2{x.v[0], x.v[1]};
        sim.angle += amount * x.v[2];
        sim.q = integrateRotation(sim.q, amount * x.v[2]);
    }
}

namespace {

/// Where the material point that was at `at` when the substep began is now, less `at`.
Vec2 movedSince(const BodySim& s, Vec2 at) {
    const Vec2 local = inverseRotate(makeRot(s.prevAngle), at - s.prevCenter);
    return s.center + rotate(s.q, local) - at;
}

/// A limited joint's bound nearer its angle: `side` −1 for the upper, +1 for the lower (a
/// positive push along side moves the angle into the range), `room` how far inside the
/// range the angle is (radians; negative past the bound), and whether the limit `held` the
/// joint: within kLimitRowMargin of the bound, or it pushed in this substep's joint solve.
struct NearBound {
    double side, room;
    bool held;
};
NearBound nearBound(const Joint& joint, const std::vector<BodySim>& sims) {
    const double offset = jointLimitOffset(joint, sims[size_t(joint.bodyA)], sims[size_t(joint.bodyB)]);
    const double side = offset > 0.0 ? -1.0 : 1.0;
    const double room = joint.limitHalfWidth + side * offset;
    return {side, room, room < kLimitRowMargin || joint.lambdaLimit != 0.0};
}

}  // namespace

void TreeSolver::buildRows(const Group& group, int groupIndex, const std::vector<Body>& bodies, std::vector<BodySim>& sims,
                           std::vector<Joint>& joints, std::vector<Contact>& contacts, const int* first, const int* last,
                           double h) {
    // Into the group's room in rows_, from range.first (solveFreeMotion made room for
    // rowsAtMost's count).
    RowRange& range = groupRows_[size_t(groupIndex)];
    const int begin = range.first;
    int end = begin;
    auto add = [&](const ContactRow& row) { rows_[size_t(end++)] = row; };
    // The damped joints first: the sweeps then end each pass on the contacts and limits,
    // which hold where the damping only slows (swept last, the damping rows left a hard
    // landing's limb 3 cm in the ground when the sweeps reached their cap).
    for (int n = group.firstNode; n < group.firstNode + group.nodeCount; ++n) {
        if (!nodes_[size_t(n)].isJoint) continue;
        const Joint& joint = joints[size_t(nodes_[size_t(n)].index)];
        if (resistsTurning(joint)) {
            // Joint damping of a tree held by the world is a row of the system too: pushed
            // alone through the free tree, each push turned the torso against the limb, the
            // contacts then held the torso and took that share back, and a lying ragdoll's
            // arm, damped at 1.5/s, swung for 10 s with ±5° left.
            ContactRow row;
            row.joint = nodes_[size_t(n)].index;
            row.limitSide = 1.0;  // the relative turn of B against A
            row.turn = true;
            row.damping = std::min(h * joint.angularDamping, 1.0);
            row.friction = joint.frictionTorque * h * h;
            row.treeBody = joint.bodyA;
            row.otherBody = joint.bodyB;
            add(row);
        }
    }
    for (const int* ci = first; ci != last; ++ci) {
        Contact& c = contacts[size_t(*ci)];
        const BodySim& a = sims[size_t(c.bodyA)];
        const BodySim& b = sims[size_t(c.bodyB)];
        // A loose contact (World::adoptProps) has no tree body: the terrain, or one of the
        // two props, takes the tree's place, outside the factorisation.
        const bool treeIsA = c.loose ? !a.dynamic : bodies[size_t(c.bodyA)].jointGroup == groupIndex;
        ContactRow row;
        row.contact = *ci;
        row.treeBody = treeIsA ? c.bodyA : c.bodyB;
        row.otherBody = treeIsA ? c.bodyB : c.bodyA;
        row.treeSign = treeIsA ? -1.0 : 1.0;
        const int normalFirst = end - begin;
        int normals = 0;
        // Points within the slop of touching: another row's push may close them. And a
        // manifold's push that lifts its deepest point out turns the body about its
        // centre, driving the other point in by up to as much: so the reach grows by how
        // far the deepest point is past the allowed depth.
        static_assert(std::size(Contact{}.points) == 2);
        double separation[2] = {0.0, 0.0};
        double deepest = kInfinity;
        for (int i = 0; i < c.pointCount; ++i) {
            separation[i] = measureSeparation(c, c.points[i], a, b) + c.points[i].allowedDepth;
            deepest = std::min(deepest, separation[i]);
        }
        const double reach = kLinearSlop + std::max(-deepest, 0.0);
        for (int i = 0; i < c.pointCount; ++i) {
            if (separation[i] >= reach) continue;
            row.point = i;
            row.at = contactLocation(c, c.points[i], a, b);
            row.dir = c.normal;
            add(row);
            ++normals;
        }
        if (normals == 0 || c.friction <= 0.0) continue;
        row.point = -1;
        row.normalFirst = normalFirst;
        row.normalCount = normals;
        row.at = c.frictionCenter;
        row.dir = perp(c.normal);
        add(row);
    }
    // The limits at or near a bound, one-sided like the contacts: a push that bends a limb
    // past its limit is taken back by the next joint solve, which drove the limb into the
    // ground; held as rigid rows instead, a limit that had pushed in one substep and not the
    // next changed the whole tree's answer to the contacts, and a lying arm shook.
    for (int n = group.firstNode; n < group.firstNode + group.nodeCount; ++n) {
        if (!nodes_[size_t(n)].isJoint) continue;
        const Joint& joint = joints[size_t(nodes_[size_t(n)].index)];
        if (!joint.enableLimit) continue;
        // Every limit that pushed in this substep's joint solve is one too (its velocity
        // pass is the system's).
        const NearBound bound = nearBound(joint, sims);
        if (!bound.held && bound.room >= kLimitRowReach) continue;
        ContactRow row;
        row.held = bound.held;
        row.joint = nodes_[size_t(n)].index;
        row.limitSide = bound.side;
        row.treeBody = joint.bodyA;
        row.otherBody = joint.bodyB;
        add(row);
    }
    // Where each row acts is set now: nothing moves the bodies before the rows are solved.
    for (int i = begin; i < end; ++i) rowJacobian(rows_[size_t(i)], sims);
    range.count = end - begin;
    range.pushesOthers = pushesOthers(range);
    // Room for each row's path to the root, its lower node's (computeDelassus), counted
    // from the group's own start in rowPaths_ (solveFreeMotion places it).
    range.pathSize = 0;
    for (int i = begin; i < end; ++i) {
        ContactRow& r = rows_[size_t(i)];
        r.pathFirst = range.pathSize;
        int depth[2] = {0, 0};
        for (int e = 0; e < 2; ++e)
            for (int n = r.node[e]; n >= 0; n = nodes_[size_t(n)].parent) ++depth[e];
        range.pathSize += std::max(depth[0], depth[1]);
    }
}

int TreeSolver::rowsAtMost(const Group& group, const std::vector<Joint>& joints, const std::vector<Contact>& contacts,
                           const int* first, const int* last) const {
    int most = 0;
    for (int n = group.firstNode; n < group.firstNode + group.nodeCount; ++n) {
        if (!nodes_[size_t(n)].isJoint) continue;
        const Joint& joint = joints[size_t(nodes_[size_t(n)].index)];
        most += int(resistsTurning(joint)) + int(joint.enableLimit);
    }
    for (const int* ci = first; ci != last; ++ci) most += contacts[size_t(*ci)].pointCount + 1;
    return most;
}

void TreeSolver::rowJacobian(ContactRow& r, const std::vector<BodySim>& sims) {
    if (r.joint >= 0) {
        // The relative angle, signed so that a positive push moves it into the range.
        r.node[0] = bodyNode_[size_t(r.treeBody)];
        r.node[1] = bodyNode_[size_t(r.otherBody)];
        r.jac[0] = {{0.0, 0.0, -r.limitSide}};
        r.jac[1] = {{0.0, 0.0, r.limitSide}};
        return;
    }
    const BodySim& t = sims[size_t(r.treeBody)];
    r.node[0] = bodyNode_[size_t(r.treeBody)];
    r.node[1] = -1;
    const BodySim& o = sims[size_t(r.otherBody)];
    r.looseTree = r.node[0] < 0 && (t.invMass != 0.0 || t.invInertia != 0.0);
    r.looseOther = o.invMass != 0.0 || o.invInertia != 0.0;
    r.jac[0] = {{r.treeSign * r.dir.x, r.treeSign * r.dir.y, r.treeSign * cross(r.at - t.center, r.dir)}};
}

double TreeSolver::looseResponse(const ContactRow& ri, const ContactRow& rj, const std::vector<BodySim>& sims) {
    // A body outside every tree answers on its own. Its part of row i is σ_i·dir_i: σ =
    // −treeSign_i as the row's other body (the tree may be A in one contact and B in the
    // other), +treeSign_i as a prop in the tree's place (a prop under a prop).
    double value = 0.0;
    auto add = [&](int bodyI, double signI, int bodyJ, double signJ) {
        if (bodyI != bodyJ) return;
        const BodySim& o = sims[size_t(bodyI)];
        value += signI * signJ *
                 (o.invMass * dot(ri.dir, rj.dir) + o.invInertia * cross(ri.at - o.center, ri.dir) * cross(rj.at - o.center, rj.dir));
    };
    add(ri.otherBody, -ri.treeSign, rj.otherBody, -rj.treeSign);
    if (ri.looseTree) add(ri.treeBody, ri.treeSign, rj.otherBody, -rj.treeSign);
    if (rj.looseTree) add(ri.otherBody, -ri.treeSign, rj.treeBody, rj.treeSign);
    if (ri.looseTree && rj.looseTree) add(ri.treeBody, ri.treeSign, rj.treeBody, rj.treeSign);
    return value;
}

void TreeSolver::pushLoose(BodySim& body, Vec2 at, Vec2 push, bool velocity) {
    const double turn = body.invInertia * cross(at - body.center, push);
    if (velocity) {
        body.linearVelocity += body.invMass * push;
        body.angularVelocity += turn;
    } else {
        body.center += body.invMass * push;
        body.angle += turn;
        body.q = integrateRotation(body.q, turn);
    }
}

void TreeSolver::computeDelassus(const RowRange& range, const std::vector<BodySim>& sims) {
    // K = L·D·Lᵀ (factor()), so W_ij = J_i·K⁻¹·J_jᵀ = u_iᵀ·D⁻¹·u_j = Σ_n z_i[n]·u_j[n] with
    // u_i = L⁻¹·J_iᵀ, z_i = D⁻¹·u_i (each D_n⁻¹ is symmetric; a joint's dummy limit slot
    // holds 0 in every u). u_i is the forward pass alone on row i, nonzero only on the path
    // from its body to the root (a limit's or turn's two bodies are on one path: the joint
    // lies between them). So a row costs its path and a pair of rows the part the two
    // share, where a full substitution per row (forward over the group, back over every
    // node W reads) took three times as long in the awake pile of 100.
    const int count = range.count;
    double* w = delassus_.data() + range.delassus;
    PathNode* paths = rowPaths_.data() + range.pathFirst;
    for (int i = 0; i < count; ++i) {
        ContactRow& r = rows_[size_t(range.first + i)];
        r.pathCount = forwardAlong(r.node[0], r.jac[0], r.node[1], r.jac[1], paths + r.pathFirst);
    }
    for (int i = 0; i < count; ++i) {
        const ContactRow& ri = rows_[size_t(range.first + i)];
        const PathNode* pi = paths + ri.pathFirst;
        for (int j = i; j < count; ++j) {
            const ContactRow& rj = rows_[size_t(range.first + j)];
            const PathNode* pj = paths + rj.pathFirst;
            // Two paths to the root share what lies above where they meet: from the root
            // down while they agree.
            double value = 0.0;
            for (int a = ri.pathCount - 1, b = rj.pathCount - 1; a >= 0 && b >= 0 && pi[a].node == pj[b].node; --a, --b)
                value += pi[a].z.v[0] * pj[b].u.v[0] + pi[a].z.v[1] * pj[b].u.v[1] + pi[a].z.v[2] * pj[b].u.v[2];
            if (ri.joint < 0 && rj.joint < 0 && ((ri.looseOther && ri.otherBody == rj.otherBody) || ri.looseTree || rj.looseTree))
                value += looseResponse(ri, rj, sims);
            w[i * count + j] = w[j * count + i] = value;
        }
    }
}

void TreeSolver::pushRows(const Group& group, const RowRange& range, const std::vector<Body>& bodies,
                          std::vector<BodySim>& sims, const double* amount, bool velocity) {
    (void)bodies;
    for (int n = group.firstNode; n < group.firstNode + group.nodeCount; ++n) rhs_[size_t(n)] = {};
    for (int i = 0; i < range.count; ++i) {
        const ContactRow& r = rows_[size_t(range.first + i)];
        if (amount[i] == 0.0) continue;
        for (int e = 0; e < 2; ++e)
            if (r.node[e] >= 0)
                for (int k = 0; k < 3; ++k) rhs_[size_t(r.node[e])].v[k] += amount[i] * r.jac[e].v[k];
        if (r.joint >= 0) continue;
        // A body outside answers on its own.
        if (r.looseOther) pushLoose(sims[size_t(r.otherBody)], r.at, (-r.treeSign * amount[i]) * r.dir, velocity);
        if (r.looseTree) pushLoose(sims[size_t(r.treeBody)], r.at, (r.treeSign * amount[i]) * r.dir, velocity);
    }
    substitute(group);
    for (int n = group.firstNode; n < group.firstNode + group.nodeCount; ++n) {
        const Node& node = nodes_[size_t(n)];
        if (node.isJoint) continue;
        moveBody(sims[size_t(node.index)], solution_[size_t(n)].v, velocity);
    }
}

void TreeSolver::prepareContactFactor(const Group& group, const std::vector<BodySim>& sims, std::vector<Joint>& joints) {
    linearise(group, sims, joints);  // levers where the bodies are now
    // The limits take part as one-sided rows of the contact system (buildRows), not as
    // rigid rows of the factorisation (a tree touching nothing holds those near a bound
    // for its damping's pushes: solveFreeMotion).
    for (int n = group.firstNode; n < group.firstNode + group.nodeCount; ++n) nodes_[size_t(n)].limitActive = false;
}

RowSystem TreeSolver::rowSystem(const RowRange& range, std::vector<double>& multipliers) {
    RowSystem s;
    s.count = range.count;
    s.w = delassus_.data() + range.delassus;
    s.invDiagonal = rowInvDiagonal_.data() + range.first;
    s.bounds = rowBounds_.data() + range.first;
    s.lambda = multipliers.data() + range.first;
    s.residual = rowVelocity_.data() + range.first;
    return s;
}

void TreeSolver::solveRowPositions(const Group& group, int groupIndex, const std::vector<Body>& bodies,
                                   std::vector<BodySim>& sims, std::vector<Joint>& joints, std::vector<Contact>& contacts) {
    const RowRange range = groupRows_[size_t(groupIndex)];
    const int count = range.count;
    if (count == 0) return;
    const double* w = delassus_.data() + range.delassus;
    ContactRow* rows = rows_.data() + range.first;
    double* lambda = rowLambda_.data() + range.first;
    double* start = rowScratch_.data() + range.first;
    double* v = rowVelocity_.data() + range.first;
    // Each row's own response, inverted once: a division in the sweep's chain of dependent
    // rows was a quarter of the sweeps' time.
    // What bounds each row, beside it (the sweeps read nothing else of a row or contact).
    double* invDiag = rowInvDiagonal_.data() + range.first;
    RowBound* bound = rowBounds_.data() + range.first;
    int sweeps = kTreeContactSweeps;
    for (int i = 0; i < count; ++i) {
        const double wii = w[i * count + i];
        const ContactRow& r = rows[i];
        if (r.friction > 0.0) sweeps = kTreeContactSweepsWithFriction;
        if (r.turn && r.damping == 0.0) {
            // Friction alone: rigid within its budget.
            bound[i] = {-r.friction, r.friction, 0, 0, 0.0, 0.0};
        } else if (r.turn) {
            // Compliance W'·(1 − f)/f: alone, the row takes back the fraction f of its turn
            // (as a joint's stiffness does, joint.h). W' is the joint's response with the
            // limits near their bounds held (each one's Schur complement, W_ii − W_il²/W_ll):
            // from the free tree's W_ii, a straight arm hanging on its elbow's limit took
            // back only a third of f (the push bent the elbow, and the limit undid it). Its
            // own limit is left out: on its bound it would leave no response, and the stiff
            // damping row then held the joint to the limit.
            double held = wii;
            for (int l = 0; l < count; ++l)
                if (rows[l].held && rows[l].joint != r.joint && w[l * count + l] > 0.0)
                    held -= w[i * count + l] * w[i * count + l] / w[l * count + l];
            held = std::max(held, kDampingRowMinResponse * wii);
            const double compliance = held * (1.0 - r.damping) / r.damping;
            bound[i] = {-kInfinity, kInfinity, 0, 0, 0.0, compliance, r.friction};
        } else if (r.point >= 0 || r.joint >= 0) {
            // A point gives a little (kTreeContactPointCompliance says why); a limit does not.
            bound[i] = {0.0, kInfinity, 0, 0, 0.0, r.point >= 0 ? kTreeContactPointCompliance * wii : 0.0};
        } else {
            bound[i] = {0.0, 0.0, r.normalFirst, r.normalCount, contacts[size_t(r.contact)].friction, 0.0};
        }
        invDiag[i] = wii > 0.0 ? 1.0 / (wii + bound[i].compliance) : 0.0;
    }
    // Warm start (kTreeContactWarmStart says why): each row begins near what it took in the
    // last substep. Cold, a load two limbs share (the SCENES stickman's left and right legs
    // lie on each other) was split differently every substep and the limbs scissored at a
    // few cm/s: five stickmen of a resting pile of 100 stayed awake for 30 s.
    for (int i = 0; i < count; ++i) {
        const ContactRow& r = rows[i];
        if (r.turn) lambda[i] = 0.0;  // proportional to this substep's turn: no guess
        else if (r.joint >= 0) {
            const Joint& joint = joints[size_t(r.joint)];
            lambda[i] = joint.limitWarmSubstep == substep_ - 1 ? joint.limitWarm : 0.0;
        }
        else if (r.point >= 0) lambda[i] = contacts[size_t(r.contact)].points[r.point].lambdaWarm;
        else lambda[i] = contacts[size_t(r.contact)].lambdaTangentWarm;
        lambda[i] *= kTreeContactWarmStart;
    }
    const RowSystem system = rowSystem(range, rowLambda_);
    // Outer steps measure the contacts again where the last push left them (the rows are
    // linear only to first order); inner sweeps solve the linear model.
    for (int outer = 0; outer < kTreeContactIterations; ++outer) {
        for (int i = 0; i < count; ++i) {
            ContactRow& r = rows[i];
            if (r.turn) {
                // The joint's relative turn this substep, where the bodies are now (a body
                // outside the tree, the world at the root, does not turn).
                const int na = bodyNode_[size_t(r.treeBody)], nb = bodyNode_[size_t(r.otherBody)];
                const BodySim& a = sims[size_t(r.treeBody)];
                const BodySim& b = sims[size_t(r.otherBody)];
                v[i] = (nb >= 0 ? b.angle - b.prevAngle : 0.0) - (na >= 0 ? a.angle - a.prevAngle : 0.0);
                start[i] = lambda[i];
                continue;
            }
            if (r.joint >= 0) {
                const Joint& joint = joints[size_t(r.joint)];
                v[i] = joint.limitHalfWidth + r.limitSide * jointLimitOffset(joint, sims[size_t(r.treeBody)], sims[size_t(r.otherBody)]);
                start[i] = lambda[i];
                continue;
            }
            Contact& c = contacts[size_t(r.contact)];
            const BodySim& a = sims[size_t(c.bodyA)];
            const BodySim& b = sims[size_t(c.bodyB)];
            if (r.point >= 0) {
                v[i] = measureSeparation(c, c.points[r.point], a, b) + c.points[r.point].allowedDepth;
            } else {
                // How far the surfaces at the manifold's centre have slid this substep: the
                // material points that were there when it began, wherever integration,
                // pushes and the joints have taken them since (the friction's residual).
                v[i] = dot(movedSince(b, r.at) - movedSince(a, r.at), r.dir);
            }
            start[i] = lambda[i];
        }
        if (outer == 0) {
            // The warm start is a guess, not yet applied: the residuals it predicts.
            for (int i = 0; i < count; ++i) {
                start[i] = 0.0;
                if (lambda[i] != 0.0)
                    for (int k = 0; k < count; ++k) v[k] += w[i * count + k] * lambda[i];
            }
        }
        solveRowSystem(system, sweeps, kTreeContactTolerance);
        for (int i = 0; i < count; ++i) start[i] = lambda[i] - start[i];
        pushRows(group, range, bodies, sims, start, false);
    }
    for (int i = 0; i < count; ++i) {
        if (rows[i].turn) continue;
        if (rows[i].joint >= 0) {
            joints[size_t(rows[i].joint)].limitWarm = lambda[i];
            joints[size_t(rows[i].joint)].limitWarmSubstep = substep_;
            continue;
        }
        Contact& c = contacts[size_t(rows[i].contact)];
        if (rows[i].point >= 0) c.points[rows[i].point].lambdaNormal = c.points[rows[i].point].lambdaWarm = lambda[i];
        else c.lambdaTangent = c.lambdaTangentWarm = lambda[i];
    }
}

bool TreeSolver::pushesOthers(const RowRange& range) const {
    for (int i = 0; i < range.count; ++i) {
        const ContactRow& r = rows_[size_t(range.first + i)];
        if (r.joint < 0 && (r.looseTree || r.looseOther)) return true;
    }
    return false;
}

template <class Fn>
void TreeSolver::forEachRowGroup(const Fn& fn) {
    // A group whose rows push a body outside every tree (a prop) may share it with another
    // group: those run after the rest, one after another in group order. The rest touch
    // only their own bodies and static or kinematic ones (read only), so they run as a task,
    // and the two sets move disjoint bodies: the same result as one loop in group order.
    const int groupCount = int(groupRows_.size());
    runTask(*tasks_, groupCount, kGroupsPerRange, [&](int begin, int end, int) {
        for (int g = begin; g < end; ++g)
            if (groupRows_[size_t(g)].count > 0 && !groupRows_[size_t(g)].pushesOthers) fn(g);
    });
    for (int g = 0; g < groupCount; ++g)
        if (groupRows_[size_t(g)].count > 0 && groupRows_[size_t(g)].pushesOthers) fn(g);
}

void TreeSolver::solveFreeMotion(const std::vector<Body>& bodies, std::vector<BodySim>& sims, std::vector<Joint>& joints,
                                 std::vector<Contact>& contacts, double h) {
    const int groupCount = int(groups_.size());
    ++substep_;
    groupRows_.assign(size_t(groupCount), RowRange{});

    // In stages, each a task over the groups where groups are independent (tasks.h); the
    // order of what one group does is the serial one, so the results are too.
    // 1. Each touching or damped group: its factorisation, its joint damping.
    runTask(*tasks_, groupCount, kGroupsPerRange, [&](int rangeBegin, int rangeEnd, int) {
    for (int g = rangeBegin; g < rangeEnd; ++g) {
        Group& group = groups_[size_t(g)];
        group.contactPass = Group::None;
        if (!sims[size_t(group.sampleBody)].active) continue;
        const int* first = groupContacts_.data() + groupContactStart_[size_t(g)];
        const int* last = groupContacts_.data() + groupContactStart_[size_t(g + 1)];
        bool touching = false;
        for (const int* ci = first; ci != last && !touching; ++ci) {
            Contact& c = contacts[size_t(*ci)];
            for (int i = 0; i < c.pointCount && !touching; ++i)
                touching = measureSeparation(c, c.points[i], sims[size_t(c.bodyA)], sims[size_t(c.bodyB)]) + c.points[i].allowedDepth < 0.0;
        }
        bool damped = false;
        for (int n = group.firstNode; n < group.firstNode + group.nodeCount && !damped; ++n)
            damped = nodes_[size_t(n)].isJoint && resistsTurning(joints[size_t(nodes_[size_t(n)].index)]);
        if (!touching && !damped) continue;
        group.contactPass = touching ? Group::Rows : Group::Damped;
        // How many rows it can have, for the room stage 2 builds them in.
        if (touching) groupRows_[size_t(g)].count = rowsAtMost(group, joints, contacts, first, last);
        group.unsettled = true;
        prepareContactFactor(group, sims, joints);
        // A tree touching nothing (so damped) damps its joints with pushes through this
        // factorisation (below), so its limits at or near a bound are rigid rows of it: left
        // out, a push at the shoulder of an arm hanging straight on its elbow's limit bent the
        // elbow into the limit, the next joint solve took two thirds of the push back, and the
        // swing died at 0.25/s where the damping asks 0.75/s.
        for (int n = group.firstNode; n < group.firstNode + group.nodeCount && !touching; ++n) {
            if (!nodes_[size_t(n)].isJoint) continue;
            const Joint& joint = joints[size_t(nodes_[size_t(n)].index)];
            if (joint.enableLimit) nodes_[size_t(n)].limitActive = nearBound(joint, sims).held;
        }
        factor(group);
        group.factoredSinceContacts = false;
        // A tree touching the world damps and rubs in its contact system (buildRows).
        if (touching) continue;
        // Joint damping: take back the fraction min(h·d, 1) of each joint's relative rotation
        // this substep, as the velocity-level form would of its relative angular velocity;
        // joint friction: all of it while its budget τ·h² lasts.
        for (int n = group.firstNode; n < group.firstNode + group.nodeCount; ++n) {
            if (!nodes_[size_t(n)].isJoint) continue;
            const Joint& joint = joints[size_t(nodes_[size_t(n)].index)];
            // A joint its own limit holds does not turn: nothing to damp, and its response
            // through the factorisation is zero but for rounding.
            if (!resistsTurning(joint) || nodes_[size_t(n)].limitActive) continue;
            const BodySim& a = sims[size_t(joint.bodyA)];
            const BodySim& b = sims[size_t(joint.bodyB)];
            const double turned = (b.angle - b.prevAngle) - (a.angle - a.prevAngle);
            const double w = respondTurn(group, joint);
            if (w <= 0.0) continue;
            const double f = std::min(h * joint.angularDamping, 1.0);
            const double stick = joint.frictionTorque * h * h;
            if (stick == 0.0) applyToGroup(group, sims, -f * turned / w);
            else if (f == 0.0) applyToGroup(group, sims, std::clamp(-turned / w, -stick, stick));
            else applyToGroup(group, sims, stickThenSoftMultiplier(turned, w, w * (1.0 - f) / f, stick));
        }
    }
    });
    // 2. The rows, each group's in its own room in rows_ (the rooms in group order, each
    // as large as the group's rows can be), so the groups build them as a task.
    int rowRoom = 0;
    for (RowRange& range : groupRows_) {
        range.first = rowRoom;
        rowRoom += range.count;
        range.count = 0;
    }
    resizeWithHeadroom(rows_, size_t(rowRoom));
    runTask(*tasks_, groupCount, kGroupsPerRange, [&](int rangeBegin, int rangeEnd, int) {
        for (int g = rangeBegin; g < rangeEnd; ++g)
            if (groups_[size_t(g)].contactPass == Group::Rows)
                buildRows(groups_[size_t(g)], g, bodies, sims, joints, contacts,
                          groupContacts_.data() + groupContactStart_[size_t(g)],
                          groupContacts_.data() + groupContactStart_[size_t(g + 1)], h);
    });
    // Where each group's W and rows' paths go, in group order.
    int delassusSize = 0, pathSize = 0;
    for (RowRange& range : groupRows_) {
        range.delassus = delassusSize;
        delassusSize += range.count * range.count;
        range.pathFirst = pathSize;
        pathSize += range.pathSize;
    }
    resizeWithHeadroom(delassus_, size_t(delassusSize));
    if (rowPaths_.size() < size_t(pathSize)) rowPaths_.resize(size_t(pathSize));
    // 3. Every group's W (reads positions, moves nothing).
    runTask(*tasks_, groupCount, kGroupsPerRange, [&](int rangeBegin, int rangeEnd, int) {
        for (int g = rangeBegin; g < rangeEnd; ++g)
            if (groupRows_[size_t(g)].count > 0) computeDelassus(groupRows_[size_t(g)], sims);
    });
    rowLambda_.resize(rows_.size());
    rowScratch_.resize(rows_.size());
    rowVelocity_.resize(rows_.size());
    rowInvDiagonal_.resize(rows_.size());
    rowBounds_.resize(rows_.size());
    // 4. The rows' solve.
    forEachRowGroup([&](int g) { solveRowPositions(groups_[size_t(g)], g, bodies, sims, joints, contacts); });
}

void TreeSolver::sortContacts(const std::vector<Contact>& contacts) {
    // Only contacts with bodies outside every tree (Contact::treeGroup): between two trees
    // the pass body by body is kept — in a pile of ragdolls nearly every contact is one, and
    // solving them through both trees doubled the step for no visible change. Once per step
    // (the contacts are found once per step): done every substep, these passes over every
    // contact were a twentieth of the N=1000 pile's step, in memory traffic.
    sortIntoBuckets(
        int(contacts.size()), int(groups_.size()), [&](int ci) { return contacts[size_t(ci)].treeGroup; },
        [](int ci) { return ci; }, groupContactStart_, groupContacts_);
}

void TreeSolver::solveContactVelocities(const std::vector<Body>& bodies, std::vector<BodySim>& sims,
                                        std::vector<Joint>& joints, std::vector<Contact>& contacts, double h, double restitutionThreshold) {
    // Each group's factorisation is the last one this substep (solveFreeMotion's, or the
    // solve's after it): where its bodies are now, to first order.
    forEachRowGroup([&](int g) {
        solveRowVelocities(groups_[size_t(g)], g, bodies, sims, joints, contacts, h, restitutionThreshold);
    });
}

}  // namespace ragdoll
