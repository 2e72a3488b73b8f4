#include "solver/tree_solver.h"

#include <algorithm>
#include <cmath>

#include "solver/arrays.h"
#include "solver/constants.h"

namespace ragdoll {

namespace {

using Mat = double[3][3];

/// Inverse of a symmetric definite (positive or negative) 3×3 block, by cofactors. Only
/// the upper triangle is read and written twice: every block of the factorisation is
/// symmetric, and its six cofactors are two thirds of the nine.
void invert3(const Mat& in, Mat& out) {
    const double a00 = in[0][0], a01 = in[0][1], a02 = in[0][2], a11 = in[1][1], a12 = in[1][2], a22 = in[2][2];
    const double c00 = a11 * a22 - a12 * a12;
    const double c01 = a12 * a02 - a01 * a22;
    const double c02 = a01 * a12 - a11 * a02;
    const double det = a00 * c00 + a01 * c01 + a02 * c02;
    const double inv = det != 0.0 ? 1.0 / det : 0.0;
    out[0][0] = c00 * inv;
    out[0][1] = out[1][0] = c01 * inv;
    out[0][2] = out[2][0] = c02 * inv;
    out[1][1] = (a00 * a22 - a02 * a02) * inv;
    out[1][2] = out[2][1] = (a02 * a01 - a00 * a12) * inv;
    out[2][2] = (a00 * a11 - a01 * a01) * inv;
}

/// The same for a joint block without its limit row, [[A, 0], [0, −1]] with A 2×2: the
/// dummy row inverts to itself.
void invertPin(const Mat& in, Mat& out) {
    const double a00 = in[0][0], a01 = in[0][1], a11 = in[1][1];
    const double det = a00 * a11 - a01 * a01;
    const double inv = det != 0.0 ? 1.0 / det : 0.0;
    out[0][0] = a11 * inv;
    out[0][1] = out[1][0] = -a01 * inv;
    out[1][1] = a00 * inv;
    out[0][2] = out[1][2] = out[2][0] = out[2][1] = 0.0;
    out[2][2] = -1.0;
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

    // Every joint within a group counts, a loop's Gauss-Seidel joints too.
    groupCollidesConnected_.assign(groups_.size(), 0);
    for (const Joint& joint : joints)
        if (joint.alive && joint.collideConnected && isDynamic(joint.bodyA) && bodies[size_t(joint.bodyA)].jointGroup >= 0)
            groupCollidesConnected_[size_t(bodies[size_t(joint.bodyA)].jointGroup)] = 1;
    sortIntoBuckets(
        int(joints.size()), int(groups_.size()), [&](int j) { return joints[size_t(j)].group; }, [](int j) { return j; },
        groupJointStart_, groupJoints_);
    looseJoints_.clear();
    for (int j = 0; j < int(joints.size()); ++j)
        if (joints[size_t(j)].alive && joints[size_t(j)].group < 0) looseJoints_.push_back(j);
    bodyNode_.assign(bodies.size(), -1);
    bodyMass_.assign(nodes_.size(), BodyMass{});
    for (int n = 0; n < int(nodes_.size()); ++n)
        if (!nodes_[size_t(n)].isJoint) {
            const Body& body = bodies[size_t(nodes_[size_t(n)].index)];
            bodyNode_[size_t(nodes_[size_t(n)].index)] = n;
            bodyMass_[size_t(n)] = {body.mass, body.inertia};
        }
    diag_.resize(nodes_.size());
    inverse_.resize(nodes_.size());
    coupling_.resize(nodes_.size());
    lever_.resize(nodes_.size());
    rhs_.resize(nodes_.size());
    solution_.resize(nodes_.size());
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
           (diag_.capacity() + inverse_.capacity()) * sizeof(Block) + bodyMass_.capacity() * sizeof(BodyMass) + coupling_.capacity() * sizeof(Coupling) +
           lever_.capacity() * sizeof(Lever) + (rhs_.capacity() + solution_.capacity()) * sizeof(Vec3) +
           compliance_.capacity() * sizeof(Compliance) +
           groupCollidesConnected_.capacity() +
           (scratchStack_.capacity() + scratchComponent_.capacity() + bodyNode_.capacity() +
            groupContactStart_.capacity() + groupContacts_.capacity() + groupJointStart_.capacity() +
            groupJoints_.capacity() + looseJoints_.capacity()) * sizeof(int) +
           rows_.capacity() * sizeof(ContactRow) + groupRows_.capacity() * sizeof(RowRange) +
           rowPaths_.capacity() * sizeof(PathNode) +
           rowBounds_.capacity() * sizeof(RowBound) +
           (delassus_.capacity() + rowLambda_.capacity() + rowScratch_.capacity() + rowVelocity_.capacity() +
            rowInvDiagonal_.capacity()) * sizeof(double);
}

void TreeSolver::solve(std::vector<BodySim>& sims, std::vector<Joint>& joints, Pass pass) {
    // Each group owns its bodies, joints and node scratch: the groups are solved as a task
    // (tasks.h), and their iteration counts summed afterwards.
    runTask(*tasks_, int(groups_.size()), kGroupsPerRange, [&](int begin, int end, int) {
    for (int g = begin; g < end; ++g) {
        Group& group = groups_[size_t(g)];
        group.iterations = 0;
        // A group sleeps and wakes as one island.
        if (!sims[size_t(group.sampleBody)].active) continue;
        // Solving again every group (not only the unsettled ones) was half of the SCENES
        // pile's tree solves, each measuring a residual the first solve had already cleared.
        // One left outside tolerance goes on, as before: skipping those too raised the pile's
        // largest limit error over the run from 0.13° to 0.76°.
        if (pass == Pass::Unsettled && !group.unsettled) continue;
        group.unsettled = true;
        if (pass == Pass::First) prepareGroup(group, sims, joints);
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
            factor(group);
            group.factoredSinceContacts = true;
            solveFactored(group, sims, joints);
            ++group.iterations;
        }
    }
    });
    lastIterations_ = 0;
    for (const Group& group : groups_) lastIterations_ += group.iterations;
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
        if (scale == 0.0) {  // rigid, as nearly every ragdoll joint is: no effective mass needed
            compliance_[size_t(n)] = {0.0, 0.0, 0.0};
            continue;
        }
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

/// D −= Pᵀ·J·P (a joint eliminated into its parent body), J symmetric; D's upper
/// triangle (the lower one is never read: invert3 mirrors it).
void subtractPtJP(const Mat& j, Vec2 s, double l, Mat& d) {
    const double m02 = s.x * j[0][0] + s.y * j[0][1] + l * j[0][2];  // (J·P) third column
    const double m12 = s.x * j[1][0] + s.y * j[1][1] + l * j[1][2];
    const double m22 = s.x * j[2][0] + s.y * j[2][1] + l * j[2][2];
    d[0][0] -= j[0][0];
    d[0][1] -= j[0][1];
    d[0][2] -= m02;
    d[1][1] -= j[1][1];
    d[1][2] -= m12;
    d[2][2] -= s.x * m02 + s.y * m12 + l * m22;
}

/// D −= P·B·Pᵀ (a body eliminated into its parent joint), B symmetric; D's upper triangle.
/// Without the limit row (l = 0) only the pin's 2×2 changes.
void subtractPBPt(const Mat& b, Vec2 s, double l, Mat& d) {
    const double n00 = b[0][0] + s.x * b[2][0], n01 = b[0][1] + s.x * b[2][1], n02 = b[0][2] + s.x * b[2][2];
    const double n11 = b[1][1] + s.y * b[2][1], n12 = b[1][2] + s.y * b[2][2];
    d[0][0] -= n00 + s.x * n02;
    d[0][1] -= n01 + s.y * n02;
    d[1][1] -= n11 + s.y * n12;
    if (l == 0.0) return;
    d[0][2] -= l * n02;
    d[1][2] -= l * n12;
    d[2][2] -= l * l * b[2][2];
}

}  // namespace

void TreeSolver::factor(const Group& group) {
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
            const BodyMass& body = bodyMass_[size_t(n)];
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
        if (node.isJoint && !node.limitActive)
            invertPin(diag_[size_t(n)].m, inv);
        else
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

// Forward, leaves first: z_i = D_i⁻¹·y_i, then y_p −= H_pi·z_i, where H_pi = Gᵀ when i is
// the joint and G when i is the body. y_i is then (L⁻¹·y)_i for K = L·D·Lᵀ, the factor's
// L_pi = H_pi·D_i⁻¹. Only this file calls it (inline, for substitute's loop).
inline void TreeSolver::eliminate(int n, const Vec3& y, Vec3& z, Vec3* yParent) {
    const Mat& inv = inverse_[size_t(n)].m;
    for (int r = 0; r < 3; ++r) z.v[r] = inv[r][0] * y.v[0] + inv[r][1] * y.v[1] + inv[r][2] * y.v[2];
    if (nodes_[size_t(n)].parent < 0) return;
    const Coupling& g = coupling_[size_t(n)];
    Vec3& yp = *yParent;
    if (nodes_[size_t(n)].isJoint) {  // Gᵀ·z
        yp.v[0] -= g.sign * z.v[0];
        yp.v[1] -= g.sign * z.v[1];
        yp.v[2] -= g.sign * (g.s.x * z.v[0] + g.s.y * z.v[1] + g.l * z.v[2]);
    } else {  // G·z
        yp.v[0] -= g.sign * (z.v[0] + g.s.x * z.v[2]);
        yp.v[1] -= g.sign * (z.v[1] + g.s.y * z.v[2]);
        yp.v[2] -= g.sign * g.l * z.v[2];
    }
}

void TreeSolver::substitute(const Group& group) {
    int begin = group.firstNode, end = group.firstNode + group.nodeCount;
    // Forward (eliminate). A zero y_i gives a zero z_i and changes nothing upward: a push on
    // one body (a contact row) costs only its way to the root.
    for (int n = begin; n < end; ++n) {
        Vec3& z = solution_[size_t(n)];
        const Vec3& y = rhs_[size_t(n)];
        if (y.v[0] == 0.0 && y.v[1] == 0.0 && y.v[2] == 0.0) {
            z = {};
            continue;
        }
        const int parent = nodes_[size_t(n)].parent;
        eliminate(n, y, z, parent >= 0 ? &rhs_[size_t(parent)] : nullptr);
    }

    // Back, root first: x_i = z_i − D_i⁻¹·H_ip·x_p, with H_ip = H_piᵀ.
    for (int n = end - 1; n >= begin; --n) {
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

int TreeSolver::forwardAlong(int a, const Vec3& ya, int b, const Vec3& yb, PathNode* path) {
    // Up from the lower of the two (children come before their parents), meeting the other
    // on the way. On one path a node's y is only what its child passes up and its own push.
    const Vec3* lowY = &ya;
    const Vec3* highY = &yb;
    if (a < 0 || (b >= 0 && b < a)) {
        std::swap(a, b);
        std::swap(lowY, highY);
    }
    Vec3 y = *lowY;
    int count = 0;
    for (int n = a; n >= 0; n = nodes_[size_t(n)].parent) {
        if (n == b)
            for (int k = 0; k < 3; ++k) y.v[k] += highY->v[k];
        PathNode& p = path[count++];
        p.node = n;
        p.u = y;
        y = {};
        eliminate(n, p.u, p.z, &y);
    }
    return count;
}

}  // namespace ragdoll
