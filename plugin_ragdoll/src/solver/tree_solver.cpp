#include "solver/tree_solver.h"

#include <algorithm>
#include <cmath>

#include "solver/constants.h"

namespace ragdoll {

namespace {

using Mat = double[3][3];

/// Inverse of a symmetric definite (positive or negative) 3×3 block, by cofactors.
void invert3(const Mat& in, Mat& out) {
    double c00 = in[1][1] * in[2][2] - in[1][2] * in[2][1];
    double c01 = in[1][2] * in[2][0] - in[1][0] * in[2][2];
    double c02 = in[1][0] * in[2][1] - in[1][1] * in[2][0];
    double det = in[0][0] * c00 + in[0][1] * c01 + in[0][2] * c02;
    double inv = det != 0.0 ? 1.0 / det : 0.0;
    out[0][0] = c00 * inv;
    out[1][0] = c01 * inv;
    out[2][0] = c02 * inv;
    out[0][1] = (in[0][2] * in[2][1] - in[0][1] * in[2][2]) * inv;
    out[1][1] = (in[0][0] * in[2][2] - in[0][2] * in[2][0]) * inv;
    out[2][1] = (in[0][1] * in[2][0] - in[0][0] * in[2][1]) * inv;
    out[0][2] = (in[0][1] * in[1][2] - in[0][2] * in[1][1]) * inv;
    out[1][2] = (in[0][2] * in[1][0] - in[0][0] * in[1][2]) * inv;
    out[2][2] = (in[0][0] * in[1][1] - in[0][1] * in[1][0]) * inv;
}

}  // namespace

void TreeSolver::rebuild(std::vector<Body>& bodies, std::vector<Joint>& joints) {
    nodes_.clear();
    groups_.clear();
    for (Body& b : bodies) b.jointGroup = -1;
    for (Joint& j : joints) j.group = -1;

    auto isDynamic = [&](int slot) { return slot >= 0 && bodies[size_t(slot)].alive && bodies[size_t(slot)].isDynamic(); };
    std::vector<char> jointTaken(joints.size(), 0);
    std::vector<char> bodyTaken(bodies.size(), 0);

    for (int start = 0; start < int(bodies.size()); ++start) {
        if (!isDynamic(start) || bodyTaken[size_t(start)] || bodies[size_t(start)].firstJoint < 0) continue;
        int groupIndex = int(groups_.size());
        size_t first = nodes_.size();

        // Root: a joint to a static or kinematic body if the tree has one (eliminating
        // such a joint as a leaf would divide by its zero compliance); else the start body.
        // Find the component's bodies first to look for that joint.
        std::vector<int>& stack = scratchStack_;
        stack.clear();
        stack.push_back(start);
        bodyTaken[size_t(start)] = 1;
        std::vector<int>& component = scratchComponent_;
        component.clear();
        int anchoredJoint = -1;
        while (!stack.empty()) {
            int b = stack.back();
            stack.pop_back();
            component.push_back(b);
            for (int j = bodies[size_t(b)].firstJoint; j >= 0;) {
                const Joint& joint = joints[size_t(j)];
                int other = joint.bodyA == b ? joint.bodyB : joint.bodyA;
                if (!isDynamic(other)) {
                    if (anchoredJoint < 0) anchoredJoint = j;
                } else if (!bodyTaken[size_t(other)]) {
                    bodyTaken[size_t(other)] = 1;
                    stack.push_back(other);
                }
                j = joint.bodyA == b ? joint.nextA : joint.nextB;
            }
        }

        // Breadth-first from the root: parents always precede children in nodes_.
        auto addBody = [&](int slot, int parent) {
            nodes_.push_back(Node{slot, false, parent, false});
            bodies[size_t(slot)].jointGroup = groupIndex;
        };
        auto addJoint = [&](int slot, int parent) {
            nodes_.push_back(Node{slot, true, parent, false});
            joints[size_t(slot)].group = groupIndex;
            jointTaken[size_t(slot)] = 1;
        };
        for (int b : component) bodyTaken[size_t(b)] = 2;  // 2: in this component, not yet placed
        if (anchoredJoint >= 0) {
            const Joint& joint = joints[size_t(anchoredJoint)];
            int body = isDynamic(joint.bodyA) ? joint.bodyA : joint.bodyB;
            addJoint(anchoredJoint, -1);
            addBody(body, int(first));
        } else {
            addBody(start, -1);
        }
        bodyTaken[size_t(nodes_.back().index)] = 1;
        for (size_t n = first; n < nodes_.size(); ++n) {
            if (nodes_[n].isJoint) continue;
            int b = nodes_[n].index;
            for (int j = bodies[size_t(b)].firstJoint; j >= 0;) {
                const Joint& joint = joints[size_t(j)];
                int next = joint.bodyA == b ? joint.nextA : joint.nextB;
                if (!jointTaken[size_t(j)]) {
                    int other = joint.bodyA == b ? joint.bodyB : joint.bodyA;
                    if (!isDynamic(other) || bodyTaken[size_t(other)] == 1) {
                        // A second anchor to the world, or a loop: Gauss-Seidel takes it.
                        jointTaken[size_t(j)] = 1;
                    } else {
                        addJoint(j, int(n));
                        addBody(other, int(nodes_.size() - 1));
                        bodyTaken[size_t(other)] = 1;
                    }
                }
                j = next;
            }
        }
        // Reverse into leaves-first order, remapping parent indices.
        size_t count = nodes_.size() - first;
        std::reverse(nodes_.begin() + long(first), nodes_.end());
        for (size_t n = first; n < nodes_.size(); ++n)
            if (nodes_[n].parent >= 0) nodes_[n].parent = int(first + (count - 1 - (size_t(nodes_[n].parent) - first)));
        groups_.push_back(Group{int(first), int(count), start});
    }

    bodyNode_.assign(bodies.size(), -1);
    for (int n = 0; n < int(nodes_.size()); ++n)
        if (!nodes_[size_t(n)].isJoint) bodyNode_[size_t(nodes_[size_t(n)].index)] = n;
    diag_.resize(nodes_.size());
    inverse_.resize(nodes_.size());
    coupling_.resize(nodes_.size());
    lever_.resize(nodes_.size());
    rhs_.resize(nodes_.size());
    solution_.resize(nodes_.size());
    nodeMark_.assign(nodes_.size(), 0);
    limitWarm_.assign(joints.size(), 0.0);
    limitWarmSubstep_.assign(joints.size(), -1);
    needed_.reserve(nodes_.size());
    compliance_.resize(nodes_.size());
    // Each node's block with its parent is fixed but for the lever: which joint, which of
    // its bodies (A: −1, B: +1).
    for (size_t n = 0; n < nodes_.size(); ++n) {
        const Node& node = nodes_[n];
        if (node.parent < 0) continue;
        const int jn = node.isJoint ? int(n) : node.parent;
        const int bodySlot = node.isJoint ? nodes_[size_t(node.parent)].index : node.index;
        coupling_[n].sign = joints[size_t(nodes_[size_t(jn)].index)].bodyA == bodySlot ? -1.0 : 1.0;
    }
    dirty_ = false;
}

std::size_t TreeSolver::memoryBytes() const {
    return nodes_.capacity() * sizeof(Node) + groups_.capacity() * sizeof(Group) +
           (diag_.capacity() + inverse_.capacity()) * sizeof(Block) + coupling_.capacity() * sizeof(Coupling) +
           lever_.capacity() * sizeof(Lever) + (rhs_.capacity() + solution_.capacity()) * sizeof(Vec3) +
           compliance_.capacity() * sizeof(Compliance) +
           (scratchStack_.capacity() + scratchComponent_.capacity() + bodyNode_.capacity() +
            groupContactStart_.capacity() + groupContacts_.capacity()) * sizeof(int) +
           rows_.capacity() * sizeof(ContactRow) + groupRows_.capacity() * sizeof(RowRange) +
           (delassus_.capacity() + rowLambda_.capacity() + rowScratch_.capacity() + rowVelocity_.capacity() +
            rowTarget_.capacity()) * sizeof(double);
}

void TreeSolver::solve(const std::vector<Body>& bodies, std::vector<BodySim>& sims, std::vector<Joint>& joints, bool again) {
    lastIterations_ = 0;
    for (Group& group : groups_) {
        // A group sleeps and wakes as one island.
        if (!sims[size_t(group.sampleBody)].active) continue;
        // Solving again every group (not only the unsettled ones) was half of the SCENES
        // pile's tree solves, each measuring a residual the first solve had already cleared.
        // One left outside tolerance goes on, as before: skipping those too raised the pile's
        // largest limit error over the run from 0.13° to 0.76°.
        if (again && !group.unsettled) continue;
        group.unsettled = true;
        if (!again) prepareGroup(group, sims, joints);
        // Full Newton steps, refactoring each time. Reusing the first factorisation (the
        // chord method) was tried twice: no faster here at first, and a tumbling pile then
        // left up to 17 mm of stretch where full steps leave 0.05 mm; later, with limit rows
        // held through the solve so that the active set no longer flipped, a third fewer
        // factorisations but a resting pile of 100 stickmen still had 5 awake after 15 s
        // (the stale levers spread each correction slightly differently every substep).
        for (int iteration = 0; iteration < kMaxNewtonIterations; ++iteration) {
            if (!linearise(group, sims, joints)) {
                group.unsettled = false;
                break;
            }
            factor(group, bodies);
            group.factoredSinceContacts = true;
            solveFactored(group, sims, joints);
            ++lastIterations_;
        }
    }
}

void TreeSolver::prepareGroup(const Group& group, const std::vector<BodySim>& sims, std::vector<Joint>& joints) {
    // Compliance from each joint's stiffness, fixed for the substep (joint.h).
    for (int n = group.firstNode; n < group.firstNode + group.nodeCount; ++n) {
        const Node& node = nodes_[size_t(n)];
        if (!node.isJoint) continue;
        Joint& joint = joints[size_t(node.index)];
        joint.lambdaPin = {};
        joint.lambdaLimit = 0.0;
        const BodySim& a = sims[size_t(joint.bodyA)];
        const BodySim& b = sims[size_t(joint.bodyB)];
        double scale = complianceScale(joint.stiffness);
        double k[3];
        pinEffectiveMass(a, rotate(a.q, joint.localAnchorA), b, rotate(b.q, joint.localAnchorB), k);
        compliance_[size_t(n)] = {scale * k[0], scale * k[1], scale * k[2]};
    }
}

bool TreeSolver::linearise(const Group& group, const std::vector<BodySim>& sims, std::vector<Joint>& joints) {
    // Measures every joint's residual C + α̃·λ at the current positions and sets up the
    // right-hand side; false when all are within tolerance.
    bool needed = false;
    for (int n = group.firstNode; n < group.firstNode + group.nodeCount; ++n) {
        Node& node = nodes_[size_t(n)];
        Vec3& rhs = rhs_[size_t(n)];
        rhs = {};
        node.limitActive = false;
        if (!node.isJoint) continue;
        const Joint& joint = joints[size_t(node.index)];
        const BodySim& a = sims[size_t(joint.bodyA)];
        const BodySim& b = sims[size_t(joint.bodyB)];
        Lever& lever = lever_[size_t(n)];
        lever.a = rotate(a.q, joint.localAnchorA);
        lever.b = rotate(b.q, joint.localAnchorB);
        const Compliance& alpha = compliance_[size_t(n)];
        Vec2 alphaLambda{alpha.k11 * joint.lambdaPin.x + alpha.k12 * joint.lambdaPin.y,
                         alpha.k12 * joint.lambdaPin.x + alpha.k22 * joint.lambdaPin.y};
        Vec2 residual = (b.center + lever.b) - (a.center + lever.a) + alphaLambda;
        rhs.v[0] = -residual.x;
        rhs.v[1] = -residual.y;
        if (std::abs(residual.x) > kDirectLinearTolerance || std::abs(residual.y) > kDirectLinearTolerance) needed = true;
        if (joint.enableLimit) {
            double error = jointLimitError(joint, a, b);
            // A row only while outside the range: inside, the limit exerts nothing.
            if (error != 0.0) {
                node.limitActive = true;
                rhs.v[2] = -error;
                if (std::abs(error) > kDirectAngularTolerance) needed = true;
            }
        }
    }
    return needed;
}

// The block between a joint and one of its bodies is G = σ·P, σ = −1 for body A and +1
// for body B, with P = [[1, 0, s.x], [0, 1, s.y], [0, 0, l]], s = perp(lever), l = 1 when
// the limit row is active (else 0, and the joint's third row is a dummy: −1 on the
// diagonal, zero right-hand side, solving to zero). Every block is then 3×3 and the
// products below are written out with P's zeros, about a third of the dense work.
// σ² = 1, so the factor updates do not depend on σ.

namespace {

/// D −= Pᵀ·J·P (a joint eliminated into its parent body), J symmetric.
void subtractPtJP(const Mat& j, Vec2 s, double l, Mat& d) {
    double m02 = s.x * j[0][0] + s.y * j[0][1] + l * j[0][2];  // (J·P) third column
    double m12 = s.x * j[1][0] + s.y * j[1][1] + l * j[1][2];
    double m22 = s.x * j[2][0] + s.y * j[2][1] + l * j[2][2];
    double m[3][3] = {{j[0][0], j[0][1], m02}, {j[1][0], j[1][1], m12}, {j[2][0], j[2][1], m22}};
    for (int c = 0; c < 3; ++c) {
        d[0][c] -= m[0][c];
        d[1][c] -= m[1][c];
        d[2][c] -= s.x * m[0][c] + s.y * m[1][c] + l * m[2][c];
    }
}

/// D −= P·B·Pᵀ (a body eliminated into its parent joint), B symmetric.
void subtractPBPt(const Mat& b, Vec2 s, double l, Mat& d) {
    double n[3][3];  // P·B
    for (int c = 0; c < 3; ++c) {
        n[0][c] = b[0][c] + s.x * b[2][c];
        n[1][c] = b[1][c] + s.y * b[2][c];
        n[2][c] = l * b[2][c];
    }
    for (int r = 0; r < 3; ++r) {
        d[r][0] -= n[r][0] + s.x * n[r][2];
        d[r][1] -= n[r][1] + s.y * n[r][2];
        d[r][2] -= l * n[r][2];
    }
}

}  // namespace

void TreeSolver::factor(const Group& group, const std::vector<Body>& bodies) {
    int begin = group.firstNode, end = group.firstNode + group.nodeCount;
    for (int n = begin; n < end; ++n) {
        const Node& node = nodes_[size_t(n)];
        Mat& d = diag_[size_t(n)].m;
        if (node.isJoint) {
            // −α̃ on the pin rows; the limit row is rigid (0), or the dummy (−1).
            const Compliance& alpha = compliance_[size_t(n)];
            d[0][0] = -alpha.k11; d[0][1] = -alpha.k12; d[0][2] = 0.0;
            d[1][0] = -alpha.k12; d[1][1] = -alpha.k22; d[1][2] = 0.0;
            d[2][0] = 0.0;        d[2][1] = 0.0;        d[2][2] = node.limitActive ? 0.0 : -1.0;
        } else {
            const Body& body = bodies[size_t(node.index)];
            d[0][0] = body.mass; d[0][1] = 0.0;       d[0][2] = 0.0;
            d[1][0] = 0.0;       d[1][1] = body.mass; d[1][2] = 0.0;
            d[2][0] = 0.0;       d[2][1] = 0.0;       d[2][2] = body.inertia;
        }
        if (node.parent < 0) continue;
        // The block with the parent (its sign was set by rebuild()).
        const int jn = node.isJoint ? n : node.parent;
        Coupling& g = coupling_[size_t(n)];
        g.s = perp(g.sign < 0.0 ? lever_[size_t(jn)].a : lever_[size_t(jn)].b);
        g.l = nodes_[size_t(jn)].limitActive ? 1.0 : 0.0;
    }

    // Leaves first: invert D_i, then eliminate node i into its parent.
    for (int n = begin; n < end; ++n) {
        const Node& node = nodes_[size_t(n)];
        Mat& inv = inverse_[size_t(n)].m;
        invert3(diag_[size_t(n)].m, inv);
        if (node.parent < 0) continue;
        const Coupling& g = coupling_[size_t(n)];
        Mat& dp = diag_[size_t(node.parent)].m;
        if (node.isJoint)
            subtractPtJP(inv, g.s, g.l, dp);
        else
            subtractPBPt(inv, g.s, g.l, dp);
    }
}

void TreeSolver::solveFactored(const Group& group, std::vector<BodySim>& sims, std::vector<Joint>& joints) {
    substitute(group);
    // Apply: bodies move by Δq; joints accumulate λ += Δλ = −x.
    for (int n = group.firstNode; n < group.firstNode + group.nodeCount; ++n) {
        const Node& node = nodes_[size_t(n)];
        const Vec3& x = solution_[size_t(n)];
        if (node.isJoint) {
            Joint& joint = joints[size_t(node.index)];
            joint.lambdaPin -= Vec2{x.v[0], x.v[1]};
            if (node.limitActive) joint.lambdaLimit -= x.v[2];
        } else {
            BodySim& sim = sims[size_t(node.index)];
            sim.center += Vec2{x.v[0], x.v[1]};
            sim.angle += x.v[2];
            sim.q = integrateRotation(sim.q, x.v[2]);
        }
    }
}

void TreeSolver::substitute(const Group& group, const int* needed, int neededCount) {
    int begin = group.firstNode, end = group.firstNode + group.nodeCount;
    // Forward, leaves first: z_i = D_i⁻¹·y_i, then y_p −= H_pi·z_i, where H_pi = Gᵀ when i is
    // the joint and G when i is the body. A zero y_i gives a zero z_i and changes nothing
    // upward: a push on one body (a contact row) costs only its way to the root.
    for (int n = begin; n < end; ++n) {
        const Node& node = nodes_[size_t(n)];
        Vec3& z = solution_[size_t(n)];
        const Vec3& y = rhs_[size_t(n)];
        if (y.v[0] == 0.0 && y.v[1] == 0.0 && y.v[2] == 0.0) {
            z = {};
            continue;
        }
        const Mat& inv = inverse_[size_t(n)].m;
        for (int r = 0; r < 3; ++r) z.v[r] = inv[r][0] * y.v[0] + inv[r][1] * y.v[1] + inv[r][2] * y.v[2];
        if (node.parent < 0) continue;
        const Coupling& g = coupling_[size_t(n)];
        Vec3& yp = rhs_[size_t(node.parent)];
        if (node.isJoint) {  // Gᵀ·z
            yp.v[0] -= g.sign * z.v[0];
            yp.v[1] -= g.sign * z.v[1];
            yp.v[2] -= g.sign * (g.s.x * z.v[0] + g.s.y * z.v[1] + g.l * z.v[2]);
        } else {  // G·z
            yp.v[0] -= g.sign * (z.v[0] + g.s.x * z.v[2]);
            yp.v[1] -= g.sign * (z.v[1] + g.s.y * z.v[2]);
            yp.v[2] -= g.sign * g.l * z.v[2];
        }
    }

    // Back, root first: x_i = z_i − D_i⁻¹·H_ip·x_p, with H_ip = H_piᵀ. Only the needed
    // nodes when given (root first, each with its ancestors): the others keep z.
    const int backCount = needed ? neededCount : end - begin;
    for (int k = 0; k < backCount; ++k) {
        const int n = needed ? needed[k] : end - 1 - k;
        const Node& node = nodes_[size_t(n)];
        if (node.parent < 0) continue;
        const Vec3& xp = solution_[size_t(node.parent)];
        const Coupling& g = coupling_[size_t(n)];
        double hx[3];
        if (node.isJoint) {  // G·x_p
            hx[0] = g.sign * (xp.v[0] + g.s.x * xp.v[2]);
            hx[1] = g.sign * (xp.v[1] + g.s.y * xp.v[2]);
            hx[2] = g.sign * g.l * xp.v[2];
        } else {  // Gᵀ·x_p
            hx[0] = g.sign * xp.v[0];
            hx[1] = g.sign * xp.v[1];
            hx[2] = g.sign * (g.s.x * xp.v[0] + g.s.y * xp.v[1] + g.l * xp.v[2]);
        }
        const Mat& inv = inverse_[size_t(n)].m;
        Vec3& x = solution_[size_t(n)];
        for (int r = 0; r < 3; ++r) x.v[r] -= inv[r][0] * hx[0] + inv[r][1] * hx[1] + inv[r][2] * hx[2];
    }
}

// ---- contacts through the tree ----------------------------------------------------------
//
// A push f on the group's bodies moves them by Δq, the body rows of
//     [ M   Jᵀ ] [ Δq ]   [ f ]
//     [ J  −Ã  ] [ −λ ] = [ 0 ]
// (the joints keep their anchors together to first order while the bodies give way), which
// the factorisation of solve() already inverts. The relative motion of contact row i per
// unit push along row j is then W_ij = J_i·K⁻¹·J_jᵀ (the Delassus matrix, Baraff 1996 §8),
// built with one substitution per row; the rows' multipliers are found on that small dense
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

Vec2 pointVelocity(const BodySim& s, Vec2 at) { return s.linearVelocity + cross(s.angularVelocity, at - s.center); }

/// Where the material point that was at `at` when the substep began is now, less `at`.
Vec2 movedSince(const BodySim& s, Vec2 at) {
    const Vec2 local = inverseRotate(makeRot(s.prevAngle), at - s.prevCenter);
    return s.center + rotate(s.q, local) - at;
}

}  // namespace

void TreeSolver::buildRows(const Group& group, int groupIndex, const std::vector<Body>& bodies, std::vector<BodySim>& sims,
                           std::vector<Joint>& joints, std::vector<Contact>& contacts, const int* first, const int* last) {
    const int begin = int(rows_.size());
    for (const int* ci = first; ci != last; ++ci) {
        Contact& c = contacts[size_t(*ci)];
        const BodySim& a = sims[size_t(c.bodyA)];
        const BodySim& b = sims[size_t(c.bodyB)];
        const bool treeIsA = bodies[size_t(c.bodyA)].jointGroup == groupIndex;
        ContactRow row;
        row.contact = *ci;
        row.treeBody = treeIsA ? c.bodyA : c.bodyB;
        row.otherBody = treeIsA ? c.bodyB : c.bodyA;
        row.treeSign = treeIsA ? -1.0 : 1.0;
        const int normalFirst = int(rows_.size()) - begin;
        int normals = 0;
        for (int i = 0; i < c.pointCount; ++i) {
            // Points within the slop of touching: another row's push may close them.
            if (measureSeparation(c, c.points[i], a, b) + kAllowedPenetration >= kLinearSlop) continue;
            row.point = i;
            row.at = contactLocation(c, c.points[i], a, b);
            row.dir = c.normal;
            rows_.push_back(row);
            ++normals;
        }
        if (normals == 0 || c.friction <= 0.0) continue;
        row.point = -1;
        row.normalFirst = normalFirst;
        row.normalCount = normals;
        row.at = c.frictionCenter;
        row.dir = perp(c.normal);
        rows_.push_back(row);
    }
    // The limits at or near a bound, one-sided like the contacts: a push that bends a limb
    // past its limit is taken back by the next joint solve, which drove the limb into the
    // ground; held as rigid rows instead, a limit that had pushed in one substep and not the
    // next changed the whole tree's answer to the contacts, and a lying arm shook.
    for (int n = group.firstNode; n < group.firstNode + group.nodeCount; ++n) {
        if (!nodes_[size_t(n)].isJoint) continue;
        const Joint& joint = joints[size_t(nodes_[size_t(n)].index)];
        if (!joint.enableLimit) continue;
        const double offset = jointLimitOffset(joint, sims[size_t(joint.bodyA)], sims[size_t(joint.bodyB)]);
        const double side = offset > 0.0 ? -1.0 : 1.0;  // −1: the upper bound, +1: the lower
        // Every limit that pushed in this substep's joint solve is one too (its velocity
        // pass is the system's).
        if (joint.limitHalfWidth + side * offset >= kLimitRowMargin && joint.lambdaLimit == 0.0) continue;
        ContactRow row;
        row.joint = nodes_[size_t(n)].index;
        row.limitSide = side;
        row.treeBody = joint.bodyA;
        row.otherBody = joint.bodyB;
        rows_.push_back(row);
    }
    const int count = int(rows_.size()) - begin;
    groupRows_[size_t(groupIndex)] = {begin, count, int(delassus_.size())};
    delassus_.resize(delassus_.size() + size_t(count * count));
    computeDelassus(group, groupRows_[size_t(groupIndex)], sims);
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
    r.jac[0] = {{r.treeSign * r.dir.x, r.treeSign * r.dir.y, r.treeSign * cross(r.at - t.center, r.dir)}};
}

void TreeSolver::computeDelassus(const Group& group, const RowRange& range, const std::vector<BodySim>& sims) {
    const int count = range.count;
    double* w = delassus_.data() + range.delassus;
    for (int i = 0; i < count; ++i) rowJacobian(rows_[size_t(range.first + i)], sims);
    // The nodes whose answer W reads, with their ancestors, root first.
    needed_.clear();
    for (int i = 0; i < count; ++i)
        for (int n : rows_[size_t(range.first + i)].node)
            for (; n >= 0 && !nodeMark_[size_t(n)]; n = nodes_[size_t(n)].parent) nodeMark_[size_t(n)] = 1;
    for (int n = group.firstNode + group.nodeCount - 1; n >= group.firstNode; --n)
        if (nodeMark_[size_t(n)]) {
            needed_.push_back(n);
            nodeMark_[size_t(n)] = 0;
        }
    // Column j: every row's relative motion per unit push along row j.
    for (int j = 0; j < count; ++j) {
        const ContactRow& rj = rows_[size_t(range.first + j)];
        for (int n = group.firstNode; n < group.firstNode + group.nodeCount; ++n) rhs_[size_t(n)] = {};
        for (int e = 0; e < 2; ++e)
            if (rj.node[e] >= 0)
                for (int k = 0; k < 3; ++k) rhs_[size_t(rj.node[e])].v[k] += rj.jac[e].v[k];
        substitute(group, needed_.data(), int(needed_.size()));
        for (int i = j; i < count; ++i) {
            const ContactRow& ri = rows_[size_t(range.first + i)];
            double value = 0.0;
            for (int e = 0; e < 2; ++e)
                if (ri.node[e] >= 0) {
                    const Vec3& x = solution_[size_t(ri.node[e])];
                    value += ri.jac[e].v[0] * x.v[0] + ri.jac[e].v[1] * x.v[1] + ri.jac[e].v[2] * x.v[2];
                }
            if (ri.joint < 0 && rj.joint < 0 && ri.otherBody == rj.otherBody) {  // a body outside answers on its own
                const BodySim& o = sims[size_t(ri.otherBody)];
                value += o.invMass * dot(ri.dir, rj.dir) +
                         o.invInertia * cross(ri.at - o.center, ri.dir) * cross(rj.at - o.center, rj.dir);
            }
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
        // A body outside answers on its own, with arms from its centre before the push.
        BodySim& o = sims[size_t(r.otherBody)];
        if (o.invMass == 0.0 && o.invInertia == 0.0) continue;
        const Vec2 impulse = (-r.treeSign * amount[i]) * r.dir;
        const double turn = o.invInertia * cross(r.at - o.center, impulse);
        if (velocity) {
            o.linearVelocity += o.invMass * impulse;
            o.angularVelocity += turn;
        } else {
            o.center += o.invMass * impulse;
            o.angle += turn;
            o.q = integrateRotation(o.q, turn);
        }
    }
    substitute(group);
    for (int n = group.firstNode; n < group.firstNode + group.nodeCount; ++n) {
        const Node& node = nodes_[size_t(n)];
        if (node.isJoint) continue;
        const Vec3& x = solution_[size_t(n)];
        BodySim& sim = sims[size_t(node.index)];
        if (velocity) {
            sim.linearVelocity += Vec2{x.v[0], x.v[1]};
            sim.angularVelocity += x.v[2];
        } else {
            sim.center += Vec2{x.v[0], x.v[1]};
            sim.angle += x.v[2];
            sim.q = integrateRotation(sim.q, x.v[2]);
        }
    }
}

void TreeSolver::prepareContactFactor(const Group& group, const std::vector<BodySim>& sims, std::vector<Joint>& joints) {
    linearise(group, sims, joints);  // levers where the bodies are now
    // The limits take part as one-sided rows of the contact system (buildRows), not as
    // rigid rows of the factorisation.
    for (int n = group.firstNode; n < group.firstNode + group.nodeCount; ++n) nodes_[size_t(n)].limitActive = false;
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
    // Warm start (kTreeContactWarmStart says why): each row begins near what it took in the
    // last substep. Cold, a load two limbs share (the SCENES stickman's left and right legs
    // lie on each other) was split differently every substep and the limbs scissored at a
    // few cm/s: five stickmen of a resting pile of 100 stayed awake for 30 s.
    for (int i = 0; i < count; ++i) {
        const ContactRow& r = rows[i];
        if (r.joint >= 0) lambda[i] = limitWarmSubstep_[size_t(r.joint)] == substep_ - 1 ? limitWarm_[size_t(r.joint)] : 0.0;
        else if (r.point >= 0) lambda[i] = contacts[size_t(r.contact)].points[r.point].lambdaWarm;
        else lambda[i] = contacts[size_t(r.contact)].lambdaTangentWarm;
        lambda[i] *= kTreeContactWarmStart;
    }
    // Outer steps measure the contacts again where the last push left them (the rows are
    // linear only to first order); inner sweeps solve the linear model.
    for (int outer = 0; outer < kTreeContactIterations; ++outer) {
        for (int i = 0; i < count; ++i) {
            ContactRow& r = rows[i];
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
                v[i] = measureSeparation(c, c.points[r.point], a, b) + kAllowedPenetration;
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
        for (int sweep = 0; sweep < kTreeContactSweeps; ++sweep) {
            double largest = 0.0;  // the largest change a row made to its own residual, metres
            for (int i = 0; i < count; ++i) {
                const double wii = w[i * count + i];
                if (!(wii > 0.0)) continue;
                const ContactRow& r = rows[i];
                double next = lambda[i] - v[i] / wii;
                if (r.point >= 0 || r.joint >= 0) {
                    next = std::max(next, 0.0);
                } else {
                    double normal = 0.0;
                    for (int k = 0; k < r.normalCount; ++k) normal += lambda[r.normalFirst + k];
                    const double limit = contacts[size_t(r.contact)].friction * normal;
                    next = std::clamp(next, -limit, limit);
                }
                const double delta = next - lambda[i];
                if (delta == 0.0) continue;
                lambda[i] = next;
                largest = std::max(largest, std::abs(delta) * wii);
                for (int k = 0; k < count; ++k) v[k] += w[i * count + k] * delta;  // W is symmetric: its row is contiguous
            }
            if (largest < kTreeContactTolerance) break;
        }
        for (int i = 0; i < count; ++i) start[i] = lambda[i] - start[i];
        pushRows(group, range, bodies, sims, start, false);
    }
    for (int i = 0; i < count; ++i) {
        if (rows[i].joint >= 0) {
            limitWarm_[size_t(rows[i].joint)] = lambda[i];
            limitWarmSubstep_[size_t(rows[i].joint)] = substep_;
            continue;
        }
        Contact& c = contacts[size_t(rows[i].contact)];
        if (rows[i].point >= 0) c.points[rows[i].point].lambdaNormal = c.points[rows[i].point].lambdaWarm = lambda[i];
        else c.lambdaTangent = c.lambdaTangentWarm = lambda[i];
    }
}

void TreeSolver::solveRowVelocities(Group& group, int groupIndex, const std::vector<Body>& bodies,
                                    std::vector<BodySim>& sims, std::vector<Joint>& joints, std::vector<Contact>& contacts, double h,
                                    double restitutionThreshold) {
    const RowRange range = groupRows_[size_t(groupIndex)];
    const int count = range.count;
    if (count == 0) return;
    const double* w = delassus_.data() + range.delassus;
    const ContactRow* rows = rows_.data() + range.first;
    const double* lambda = rowLambda_.data() + range.first;
    double* impulse = rowScratch_.data() + range.first;
    double* v = rowVelocity_.data() + range.first;
    double* target = rowTarget_.data() + range.first;
    bool any = false;
    for (int i = 0; i < count; ++i) {
        const ContactRow& r = rows[i];
        impulse[i] = 0.0;
        if (r.joint >= 0) {
            // A limit that pushed: no relative turn past its bound (no bounce, no creep).
            v[i] = r.limitSide * (sims[size_t(r.otherBody)].angularVelocity - sims[size_t(r.treeBody)].angularVelocity);
            target[i] = 0.0;
            any = any || lambda[i] > 0.0 || joints[size_t(r.joint)].lambdaLimit != 0.0;
            continue;
        }
        const Contact& c = contacts[size_t(r.contact)];
        const BodySim& a = sims[size_t(c.bodyA)];
        const BodySim& b = sims[size_t(c.bodyB)];
        v[i] = dot(pointVelocity(b, r.at) - pointVelocity(a, r.at), r.dir);
        if (r.point >= 0) {
            // Points that pushed: the approach speed left over goes, then the bounce
            // (restitution against the speed before the position solve, off below the
            // threshold, as the body-by-body pass does).
            const double e = std::abs(v[i]) <= restitutionThreshold || lambda[i] <= 0.0 ? 0.0 : c.restitution;
            target[i] = std::max(-e * c.points[r.point].normalSpeedBefore, 0.0);
            any = any || lambda[i] > 0.0;
        } else {
            // Dynamic friction (Müller 2020, eq. 30, as an impulse): at most μ·Σλ_n/h of the
            // substep, less what static friction already spent.
            double normal = 0.0;
            for (int k = 0; k < r.normalCount; ++k) normal += lambda[r.normalFirst + k];
            target[i] = std::max(c.friction * normal - std::abs(lambda[i]), 0.0) / h;
        }
    }
    if (!any) return;
    // The impulses are found on the position pass's W and applied through the same kind of
    // factorisation (no limit rows): one with other limit rows (the solve after the
    // position pass factors those it finds outside their range) gave a resting limb 2 m/s.
    // When that solve found nothing to do, the position pass's factorisation is still here.
    if (group.factoredSinceContacts) {
        prepareContactFactor(group, sims, joints);
        factor(group, bodies);
    }
    for (int sweep = 0; sweep < kTreeContactSweeps; ++sweep) {
        double largest = 0.0;  // the largest change a row made to its own speed, m/s
        for (int i = 0; i < count; ++i) {
            const double wii = w[i * count + i];
            const ContactRow& r = rows[i];
            if (!(wii > 0.0)) continue;
            double next;
            if (r.joint >= 0) {
                if (lambda[i] <= 0.0 && joints[size_t(r.joint)].lambdaLimit == 0.0) continue;  // did not push
                next = std::max(impulse[i] - v[i] / wii, 0.0);
            } else if (r.point >= 0) {
                // A point that pushed may take back the speed its push gave (a deep overlap
                // pushed out does not fly apart), never pull harder. Points that did not
                // push are left out: holding them too (no approach) kept more stickmen of
                // the sweep awake.
                if (lambda[i] <= 0.0) continue;
                next = std::max(impulse[i] - (v[i] - target[i]) / wii, -lambda[i] / h);
            } else {
                next = std::clamp(impulse[i] - v[i] / wii, -target[i], target[i]);
            }
            const double delta = next - impulse[i];
            if (delta == 0.0) continue;
            impulse[i] = next;
            largest = std::max(largest, std::abs(delta) * wii);
            for (int k = 0; k < count; ++k) v[k] += w[i * count + k] * delta;  // W is symmetric: its row is contiguous
        }
        if (largest * h < kTreeContactTolerance) break;
    }
    pushRows(group, range, bodies, sims, impulse, true);
}

bool TreeSolver::solveFreeMotion(const std::vector<Body>& bodies, std::vector<BodySim>& sims, std::vector<Joint>& joints,
                                 std::vector<Contact>& contacts, double h) {
    bool moved = false;
    // Each group's contacts, found once per substep (a pile has thousands of contacts and
    // groups). Only contacts with bodies outside every tree (Contact::treeGroup): between two
    // trees the pass body by body is kept — in a pile of ragdolls nearly every contact is
    // one, and solving them through both trees doubled the step for no visible change.
    const int groupCount = int(groups_.size());
    groupContactStart_.assign(size_t(groupCount + 1), 0);
    for (const Contact& c : contacts)
        if (c.treeGroup >= 0) ++groupContactStart_[size_t(c.treeGroup + 1)];
    for (int g = 0; g < groupCount; ++g) groupContactStart_[size_t(g + 1)] += groupContactStart_[size_t(g)];
    groupContacts_.resize(size_t(groupContactStart_[size_t(groupCount)]));
    for (int ci = 0; ci < int(contacts.size()); ++ci)
        if (contacts[size_t(ci)].treeGroup >= 0)
            groupContacts_[size_t(groupContactStart_[size_t(contacts[size_t(ci)].treeGroup)]++)] = ci;
    for (int g = groupCount; g > 0; --g) groupContactStart_[size_t(g)] = groupContactStart_[size_t(g - 1)];
    groupContactStart_[0] = 0;
    ++substep_;
    rows_.clear();
    delassus_.clear();
    groupRows_.assign(size_t(groupCount), RowRange{});

    for (int g = 0; g < groupCount; ++g) {
        Group& group = groups_[size_t(g)];
        if (!sims[size_t(group.sampleBody)].active) continue;
        const int* first = groupContacts_.data() + groupContactStart_[size_t(g)];
        const int* last = groupContacts_.data() + groupContactStart_[size_t(g + 1)];
        bool touching = false;
        for (const int* ci = first; ci != last && !touching; ++ci) {
            Contact& c = contacts[size_t(*ci)];
            for (int i = 0; i < c.pointCount && !touching; ++i)
                touching = measureSeparation(c, c.points[i], sims[size_t(c.bodyA)], sims[size_t(c.bodyB)]) + kAllowedPenetration < 0.0;
        }
        bool damped = false;
        for (int n = group.firstNode; n < group.firstNode + group.nodeCount && !damped; ++n)
            damped = nodes_[size_t(n)].isJoint && joints[size_t(nodes_[size_t(n)].index)].angularDamping > 0.0;
        if (!touching && !damped) continue;
        moved = true;
        group.unsettled = true;
        prepareContactFactor(group, sims, joints);
        factor(group, bodies);
        group.factoredSinceContacts = false;
        // Joint damping: take back the fraction min(h·d, 1) of each joint's relative rotation
        // this substep, as the velocity-level form would of its relative angular velocity.
        for (int n = group.firstNode; n < group.firstNode + group.nodeCount && damped; ++n) {
            if (!nodes_[size_t(n)].isJoint) continue;
            const Joint& joint = joints[size_t(nodes_[size_t(n)].index)];
            if (joint.angularDamping <= 0.0) continue;
            const BodySim& a = sims[size_t(joint.bodyA)];
            const BodySim& b = sims[size_t(joint.bodyB)];
            const double turned = (b.angle - b.prevAngle) - (a.angle - a.prevAngle);
            const double w = respondTurn(group, joint);
            if (w > 0.0) applyToGroup(group, sims, -std::min(h * joint.angularDamping, 1.0) * turned / w);
        }
        if (touching) buildRows(group, g, bodies, sims, joints, contacts, first, last);
    }
    rowLambda_.resize(rows_.size());
    rowScratch_.resize(rows_.size());
    rowVelocity_.resize(rows_.size());
    rowTarget_.resize(rows_.size());
    for (int g = 0; g < groupCount; ++g)
        if (groupRows_[size_t(g)].count > 0) solveRowPositions(groups_[size_t(g)], g, bodies, sims, joints, contacts);
    return moved;
}

void TreeSolver::solveContactVelocities(const std::vector<Body>& bodies, std::vector<BodySim>& sims,
                                        std::vector<Joint>& joints, std::vector<Contact>& contacts, double h, double restitutionThreshold) {
    // Each group's factorisation is the last one this substep (solveFreeMotion's, or the
    // solve's after it): where its bodies are now, to first order.
    for (int g = 0; g < int(groupRows_.size()); ++g)
        if (groupRows_[size_t(g)].count > 0)
            solveRowVelocities(groups_[size_t(g)], g, bodies, sims, joints, contacts, h, restitutionThreshold);
}

}  // namespace ragdoll
