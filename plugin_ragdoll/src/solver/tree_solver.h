// The direct joint solver: each connected set of joints between dynamic bodies (a
// ragdoll, a chain) forms a tree, whose joint constraints are solved exactly together in
// linear time (Baraff 1996, "Linear-Time Dynamics using Lagrange Multipliers"; the
// position-level use follows Deul et al. 2018). Per Newton step, at the current positions:
//     [ M   Jᵀ ] [ Δq ]   [ 0        ]
//     [ J  −Ã  ] [ −Δλ] = [ −C − Ã·λ ]
// The graph of bodies (3×3 mass blocks) and joints (2×2 pin, 3×3 pin + active limit)
// is a tree, so eliminating it leaves-first is a block LDLᵀ with no fill-in.
// Joints that would close a loop stay with the Gauss-Seidel pass.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "solver/body.h"
#include "solver/contact.h"
#include "solver/joint.h"
#include "solver/row_system.h"
#include "solver/tasks.h"

namespace ragdoll {

class TreeSolver {
public:
    /// Regroups joints into trees; call after joints or bodies were added or removed.
    void markDirty() { dirty_ = true; }
    /// Where the per-group loops run (tasks.h); the world sets it before each step.
    void setTasks(const TaskSystem* tasks) { tasks_ = tasks; }
    bool dirty() const { return dirty_; }
    void rebuild(std::vector<Body>& bodies, std::vector<Joint>& joints);

    /// Which groups a solve takes, and whether it starts the substep.
    enum class Pass {
        First,      ///< every awake group; resets the groups' joint multipliers
        Every,      ///< every awake group, going on from the multipliers
        Unsettled,  ///< only the groups moved since (solveFreeMotion) or left outside tolerance
    };
    /// Solves the pass's groups' joints to tolerance (up to kMaxNewtonIterations Newton
    /// steps). Only the first solve of a substep resets the multipliers, so a soft joint's
    /// compliance acts once per substep however often the tree is solved.
    void solve(std::vector<BodySim>& sims, std::vector<Joint>& joints, Pass pass);
    int groupCount() const { return int(groups_.size()); }
    /// Calls fn(bodySlot) for every body of the group.
    template <class Fn>
    void forEachBodyOf(int group, const Fn& fn) const {
        const Group& g = groups_[size_t(group)];
        for (int n = g.firstNode; n < g.firstNode + g.nodeCount; ++n)
            if (!nodes_[size_t(n)].isJoint) fn(nodes_[size_t(n)].index);
    }
    /// A body's new mass and inertia (it keeps a copy per tree node: see bodyMass_).
    void updateMass(int bodySlot, double mass, double inertia) {
        if (bodySlot >= 0 && size_t(bodySlot) < bodyNode_.size() && bodyNode_[size_t(bodySlot)] >= 0)
            bodyMass_[size_t(bodyNode_[size_t(bodySlot)])] = {mass, inertia};
    }
    /// Some joint between two bodies of the group lets them collide (collideConnected).
    bool collidesConnected(int group) const { return group >= 0 && groupCollidesConnected_[size_t(group)] != 0; }
    /// The group's joints, in slot order. The per-joint passes of the step read these lists
    /// instead of every Joint record each substep.
    std::span<const int> groupJoints(int group) const {
        return {groupJoints_.data() + groupJointStart_[size_t(group)],
                size_t(groupJointStart_[size_t(group) + 1] - groupJointStart_[size_t(group)])};
    }
    /// The live joints in no tree (a loop's, a second anchor's), in slot order: Gauss-Seidel's.
    const std::vector<int>& looseJoints() const { return looseJoints_; }
    std::size_t memoryBytes() const;
    /// What acts on a group's free motion, solved through its joints: each push moves the
    /// whole tree the way its joints let it (the articulated effective mass, from the same
    /// factorisation). Call after solve(), with the substep h; leaves second-order joint
    /// errors for the next solve().
    /// - The contacts of the group with bodies outside every tree (terrain, props): normal
    ///   and static friction rows of a manifold as one block (Contact::treeGroup). Solved
    ///   body by body before the joints, a light limb was pushed out of the ground on its
    ///   own mass and pulled back in by the joint solve with the rest of the ragdoll: a
    ///   ragdoll kneeling on a ramp rocked and crept for seconds and a hard landing drove a
    ///   limb 5-7 cm into the ground.
    /// - Joint damping and friction, on the relative rotation of each such joint this substep. As a
    ///   torque pair in the velocity pass it only slowed the two bodies' spin about their
    ///   own centres; the pins turned the swing back into it, and a hanging arm damped at
    ///   1.5/s still swung ±25° after seconds. A group touching nothing pushes joint by
    ///   joint through its factorisation, its limits near a bound held rigid in it.
    /// A group it moves is unsettled (anyUnsettled) until solved again.
    void solveFreeMotion(const std::vector<Body>& bodies, std::vector<BodySim>& sims, std::vector<Joint>& joints,
                         std::vector<Contact>& contacts, double h);
    /// Each group's contacts with bodies outside every tree, by Contact::treeGroup: call
    /// once the step's contacts are found, before solveFreeMotion.
    void sortContacts(const std::vector<Contact>& contacts);
    /// The velocity pass of the contacts solveFreeMotion solved (restitution, the approach
    /// speed left over, dynamic friction), through the same factorisation, so a limb's
    /// stop at the ground stops the ragdoll it belongs to instead of the limb alone.
    void solveContactVelocities(const std::vector<Body>& bodies, std::vector<BodySim>& sims, std::vector<Joint>& joints,
                                std::vector<Contact>& contacts, double h, double restitutionThreshold);
    /// The group's contact system this substep holds its limits (their velocity pass too).
    bool solvesLimits(int group) const {
        return group >= 0 && group < int(groupRows_.size()) && groupRows_[size_t(group)].count > 0;
    }
    /// A group the last solve left outside tolerance (at its cap of Newton steps) or that
    /// solveFreeMotion moved since.
    bool anyUnsettled() const {
        for (const Group& group : groups_)
            if (group.unsettled) return true;
        return false;
    }
    /// Newton iterations taken in the last solve, summed over groups.
    int lastIterations() const { return lastIterations_; }
    /// Between steps: the λ the joint's limit row begins the next substep with (0: the row
    /// did not act in the last one), and setting it (a restored state).
    double limitWarmStart(const Joint& joint) const { return joint.limitWarmSubstep == substep_ ? joint.limitWarm : 0.0; }
    void setLimitWarmStart(Joint& joint, double lambda) const {
        joint.limitWarm = lambda;
        joint.limitWarmSubstep = substep_;
    }

private:
    struct Node {
        int index = -1;       ///< body slot or joint slot
        bool isJoint = false;
        int parent = -1;      ///< index into nodes_, -1 for the root
        bool limitActive = false;  ///< joint nodes: the limit row takes part this iteration
    };
    struct Group {
        int firstNode = 0, nodeCount = 0;  ///< into nodes_, ordered leaves first
        int sampleBody = -1;               ///< any body of the group, to test for sleep
        bool unsettled = false;  ///< moved by solveFreeMotion, or left outside tolerance by the last solve
        bool factoredSinceContacts = false;  ///< solve() factored after solveFreeMotion
        int iterations = 0;  ///< Newton iterations of the last solve()
        /// What solveFreeMotion does with the group this substep.
        enum ContactPass : unsigned char { None, Damped, Rows } contactPass = None;
    };
    struct Block {
        double m[3][3];  ///< row-major
    };
    struct Vec3 {
        double v[3];
    };
    struct Compliance {
        double k11, k12, k22;  ///< α̃ of a joint's pin rows, symmetric 2×2
    };
    /// The joint–body block G = sign·[[1, 0, s.x], [0, 1, s.y], [0, 0, l]].
    struct Coupling {
        double sign;  ///< −1 for the joint's body A, +1 for B
        Vec2 s;       ///< perp(lever): how the anchor moves per radian
        double l;     ///< 1 with the limit row active, else 0
    };
    struct Lever {
        Vec2 a, b;  ///< a joint's anchors from each body's centre of mass, world axes
    };

    void prepareGroup(const Group& group, const std::vector<BodySim>& sims, std::vector<Joint>& joints);
    /// Measures residuals into rhs_; false when all are within tolerance.
    bool linearise(const Group& group, const std::vector<BodySim>& sims, std::vector<Joint>& joints);
    /// Builds the blocks at the current positions and factors them (LDLᵀ, leaves first).
    void factor(const Group& group);
    /// Solves with the last factorisation and moves the bodies.
    void solveFactored(const Group& group, std::vector<BodySim>& sims, std::vector<Joint>& joints);
    /// solution_ = K⁻¹·rhs_ with the last factorisation (rhs_ is consumed).
    void substitute(const Group& group);
    /// One node of the forward pass: z = D_n⁻¹·y, and y_p −= H_pn·z for its parent p
    /// (yParent: y_p; unused at the root).
    void eliminate(int n, const Vec3& y, Vec3& z, Vec3* yParent);
    /// A node on a row's path to the root: the row's u = L⁻¹·Jᵀ there, and z = D⁻¹·u.
    struct PathNode {
        int node;
        Vec3 u, z;
    };
    /// The forward pass alone for a right-hand side y_a at node a and y_b at node b, one
    /// on the other's path to the root (b may be -1: none; so may a): only along that path,
    /// which it returns leaves first (the count).
    int forwardAlong(int a, const Vec3& ya, int b, const Vec3& yb, PathNode* path);
    /// The group's response to a unit angular push turning a joint's B against its A: fills
    /// solution_ and returns the relative rotation per unit push.
    double respondTurn(const Group& group, const Joint& joint);
    /// Moves the group's bodies by amount × the last response.
    void applyToGroup(const Group& group, std::vector<BodySim>& sims, double amount);
    /// One row of a group's contacts with the world: a point's normal, or a manifold's
    /// friction at its centre. B is pushed +dir at `at`, A −dir.
    struct ContactRow {
        int contact = -1;
        int point = -1;                       ///< the normal's point; -1 for the friction row
        int normalFirst = 0, normalCount = 0;  ///< friction: the manifold's normal rows (group-relative)
        int treeBody = -1, otherBody = -1;    ///< a limit row: the joint's A and B
        double treeSign = 1.0;                ///< −1 when the tree's body is the contact's A
        /// A contact between two props (World::adoptProps): the body in the tree's place
        /// is a prop too, and answers on its own like the other.
        bool looseTree = false;
        /// The contact's other body can move (a prop): it answers on its own. Terrain does not.
        bool looseOther = false;
        Vec2 at, dir;
        int joint = -1;          ///< a limit row's joint, else -1
        double limitSide = 0.0;  ///< +1 for the lower bound, −1 for the upper
        /// A limit row near its bound or pushing (kLimitRowMargin), which the turn rows
        /// count as held; the others only stop a push past the bound (kLimitRowReach).
        bool held = false;
        /// A turn row: a damped or rubbing joint's row on its relative turn this substep.
        bool turn = false;
        /// A turn row's damping, the fraction of the turn it takes back, min(h·d, 1); and its
        /// friction, the most it may take alone, τ·h² (a position-level multiplier).
        double damping = 0.0, friction = 0.0;
        int node[2] = {-1, -1};  ///< the tree's nodes the row acts on, and how (J's blocks)
        Vec3 jac[2] = {};
        /// computeDelassus's forward pass, in rowPaths_ from the group's RowRange::pathFirst.
        int pathFirst = 0, pathCount = 0;
    };
    struct RowRange {
        int first = 0, count = 0;  ///< into rows_
        int delassus = 0;          ///< into delassus_: count × count, row-major
        int pathFirst = 0, pathSize = 0;  ///< into rowPaths_: the rows' paths (computeDelassus)
        bool pushesOthers = false;  ///< a row pushes a movable body outside every tree
    };
    bool pushesOthers(const RowRange& range) const;
    /// The part of W_ij from the bodies outside every tree that rows i and j both push.
    static double looseResponse(const ContactRow& ri, const ContactRow& rj, const std::vector<BodySim>& sims);
    /// Moves a body outside every tree that can move (a row's looseOther or looseTree) as
    /// `push` at `at` does: a position-level push, or with `velocity` an impulse.
    static void pushLoose(BodySim& body, Vec2 at, Vec2 push, bool velocity);
    /// fn(group) for every group with rows, as a task where groups share no movable body.
    template <class Fn>
    void forEachRowGroup(const Fn& fn);
    /// At most how many rows buildRows makes for the group with these contacts.
    int rowsAtMost(const Group& group, const std::vector<Joint>& joints, const std::vector<Contact>& contacts,
                   const int* first, const int* last) const;
    /// The rows of the group's contacts, a turn row per damped or rubbing joint first, and the
    /// limits within kLimitRowReach of their bounds (their Delassus matrix W = J·K⁻¹·Jᵀ is
    /// computeDelassus's), in the group's room in rows_ from groupRows_[groupIndex].first.
    void buildRows(const Group& group, int groupIndex, const std::vector<Body>& bodies, std::vector<BodySim>& sims,
                   std::vector<Joint>& joints, std::vector<Contact>& contacts, const int* first, const int* last,
                   double h);
    void rowJacobian(ContactRow& row, const std::vector<BodySim>& sims);
    /// Pushes every row by amount[i] through the group (a body outside on its own), as a
    /// move of positions or as an impulse on velocities.
    void pushRows(const Group& group, const RowRange& range, const std::vector<Body>& bodies, std::vector<BodySim>& sims,
                  const double* amount, bool velocity);
    /// The group's rows as a row system, solving for `multipliers` (by row).
    RowSystem rowSystem(const RowRange& range, std::vector<double>& multipliers);
    void solveRowPositions(const Group& group, int groupIndex, const std::vector<Body>& bodies,
                           std::vector<BodySim>& sims, std::vector<Joint>& joints, std::vector<Contact>& contacts);
    /// Levers and limit rows for the contact passes' factorisation.
    void prepareContactFactor(const Group& group, const std::vector<BodySim>& sims, std::vector<Joint>& joints);
    /// W of the group's rows with its current factorisation.
    void computeDelassus(const RowRange& range, const std::vector<BodySim>& sims);
    void solveRowVelocities(Group& group, int groupIndex, const std::vector<Body>& bodies,
                            std::vector<BodySim>& sims, std::vector<Joint>& joints, std::vector<Contact>& contacts, double h,
                            double restitutionThreshold);

    std::vector<Node> nodes_;
    std::vector<Group> groups_;
    // Per-node scratch, sized with nodes_, so solving never allocates.
    /// A body node's mass and inertia, copied at rebuild() and by updateMass(): read from the cold Body record
    /// (~500 bytes apart), they were half of factor()'s time in cache misses.
    struct BodyMass {
        double mass = 0.0, inertia = 0.0;
    };
    std::vector<BodyMass> bodyMass_;  ///< per node (body nodes only)
    std::vector<Block> diag_;     ///< D_i, reduced by the children's elimination
    std::vector<Block> inverse_;  ///< D_i⁻¹
    std::vector<Coupling> coupling_;  ///< each node's block with its parent (see factor)
    std::vector<Lever> lever_;
    std::vector<Vec3> rhs_;
    std::vector<Vec3> solution_;
    std::vector<Compliance> compliance_;
    std::vector<int> scratchStack_, scratchComponent_;
    std::vector<int> bodyNode_;  ///< per body slot: its node in nodes_, or -1
    std::vector<char> groupCollidesConnected_;  ///< per group: collidesConnected()
    std::vector<int> groupJointStart_, groupJoints_;  ///< groupJoints(): group g's from groupJointStart_[g]
    std::vector<int> looseJoints_;
    /// Contacts by group (counting sort each step, by Contact::treeGroup): group g's are
    /// groupContacts_[groupContactStart_[g] … groupContactStart_[g + 1]).
    std::vector<int> groupContactStart_, groupContacts_;
    // The contact rows of this substep, by group (pooled: no allocation once warm).
    std::vector<ContactRow> rows_;
    std::vector<RowRange> groupRows_;
    std::vector<double> delassus_;
    std::vector<double> rowLambda_, rowScratch_, rowVelocity_;
    std::vector<double> rowInvDiagonal_;  ///< 1 / (W_ii + compliance) per row (0 for a row that moves nothing)
    /// The rows' bounds, the position pass's (a turn row soft beyond its friction), then the
    /// velocity pass's.
    std::vector<RowBound> rowBounds_;
    std::int64_t substep_ = 0;  ///< solveFreeMotion calls, numbering substeps
    /// Each row's path to the root (ContactRow::pathFirst), as computeDelassus found it.
    std::vector<PathNode> rowPaths_;
    /// Groups per range of a task: a ragdoll's solve is a few microseconds, so a range holds
    /// several to keep the hand-over small next to the work.
    static constexpr int kGroupsPerRange = 4;
    static constexpr TaskSystem kSerial{};
    const TaskSystem* tasks_ = &kSerial;
    bool dirty_ = true;
    int lastIterations_ = 0;
};

}  // namespace ragdoll
