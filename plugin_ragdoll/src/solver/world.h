// The solver world: bodies with one shape each, pin joints with limits, contacts, and
// the XPBD step (Müller et al. 2020; Macklin et al. 2019). See step.cpp for the stages.
#pragma once

#include <chrono>
#include <cstdint>
#include <vector>

#include "solver/body.h"
#include "solver/broadphase.h"
#include "solver/contact_lanes.h"
#include "solver/contact.h"
#include "solver/joint.h"
#include "solver/tree_solver.h"
#include "solver/types.h"

namespace ragdoll {

struct WorldTestAccess;

class World {
public:
    explicit World(const WorldDef& def = defaultWorldDef());

    // Settings that may change between steps.
    const WorldDef& def() const { return def_; }
    void setGravity(Vec2 gravity) { def_.gravity = gravity; }
    void setSubsteps(int substeps);
    void setIterations(int iterations);
    void setJointSolver(JointSolver solver);
    void enableSleep(bool enable);
    /// The threads the step's independent work runs on (tasks.h); workerCount is held to
    /// 1..kMaxWorkers, and without both callbacks the step runs on the caller's thread.
    void setTaskSystem(const TaskSystem& tasks);

    BodyId createBody(const BodyDef& def);
    /// Removes the body, its joints and its contacts. Stale ids are ignored (false).
    bool destroyBody(BodyId id);
    bool isValid(BodyId id) const;
    /// Gives the body its one shape; the body's mass comes from it. False if invalid.
    bool setCircle(BodyId id, const ShapeDef& def, const Circle& circle);
    bool setCapsule(BodyId id, const ShapeDef& def, const Capsule& capsule);
    bool setPolygon(BodyId id, const ShapeDef& def, const Polygon& polygon);

    JointId createJoint(const JointDef& def);
    bool destroyJoint(JointId id);
    bool isValid(JointId id) const;
    bool setJointLimits(JointId id, bool enable, double lower, double upper);
    bool setJointStiffness(JointId id, double stiffness);
    bool setJointDamping(JointId id, double angularDamping);  ///< 1/s, >= 0
    bool setJointFriction(JointId id, double frictionTorque);  ///< N·m, >= 0
    bool setJointCollideConnected(JointId id, bool collide);

    // Body queries and commands. Invalid ids give a default value and change nothing.
    BodyState bodyState(BodyId id) const;
    Transform bodyTransform(BodyId id) const;
    Vec2 worldCenterOfMass(BodyId id) const;
    double bodyMass(BodyId id) const;
    double bodyInertia(BodyId id) const;  ///< about the centre of mass
    BodyType bodyType(BodyId id) const;
    const Shape* bodyShape(BodyId id) const;
    void setTransform(BodyId id, Vec2 position, double angle);  ///< teleport; wakes
    /// The origin's linear velocity (as BodyDef and BodyState), m/s, and rad/s; wakes.
    void setVelocity(BodyId id, Vec2 linear, double angular);
    void applyLinearImpulse(BodyId id, Vec2 impulse, Vec2 worldPoint);  ///< N·s; wakes
    /// Moves a kinematic body to reach the pose in dt seconds (velocities derived from it).
    void setKinematicTarget(BodyId id, Vec2 position, double angle, double dt);
    void wake(BodyId id);
    /// 1/s, >= 0 (as BodyDef); wakes. False if invalid.
    bool setDamping(BodyId id, double linearDamping, double angularDamping);

    BodySnapshot snapshot(BodyId id) const;
    /// Puts a body back exactly as snapshot() found it. False for an invalid id or
    /// non-finite values.
    bool restore(BodyId id, const BodySnapshot& snapshot);
    /// What a step hands the next besides the bodies' state, for a saved state to carry (a
    /// restored world then goes on bit for bit): the λ a joint tree's limit row begins the
    /// next substep with (0 for none or an invalid id), and the next sleeping island's id.
    double jointLimitWarmStart(JointId id) const;
    /// False for an invalid id or a λ that is not finite and ≥ 0.
    bool setJointLimitWarmStart(JointId id, double lambda);
    std::int64_t nextSleepingIsland() const { return nextSleepingIsland_; }
    /// Raised to every sleeping body's island + 1 (ids must not repeat); false past kMaxSleepingIsland.
    bool setNextSleepingIsland(std::int64_t next);

    JointError jointError(JointId id) const;
    JointDef jointDef(JointId id) const;

    void step(double dt);

    /// How deep two bodies' shapes overlap now (metres, 0 when apart), measured as the
    /// contacts measure it; the normal points from a to b.
    double overlap(BodyId a, BodyId b, Vec2* normal = nullptr) const;
    /// Every shape the ray from p1 to p2 crosses first (closest), or false.
    bool rayCast(Vec2 p1, Vec2 p2, Filter filter, RayHit& hit) const;
    /// Bodies whose fat bounds overlap the box, appended to out.
    void queryAABB(const AABB& box, std::vector<BodyId>& out) const;
    const std::vector<Contact>& contacts() const { return contacts_; }
    BodyId bodyId(int slot) const;
    WorldStats stats() const;
    /// FNV-1a over the exact bits of every live body's motion state in slot order: slot,
    /// centre of mass, angle, rotation, velocities and sleep state. Equal hashes mean the
    /// same simulation state, so it checks determinism across runs, builds and machines.
    std::uint64_t stateHash() const;
    /// Iterates live bodies: fn(BodyId).
    template <class Fn>
    void forEachBody(Fn&& fn) const {
        for (int i = 0; i < int(bodies_.size()); ++i)
            if (bodies_[size_t(i)].alive) fn(bodyId(i));
    }
    template <class Fn>
    void forEachJoint(Fn&& fn) const {
        for (int i = 0; i < int(joints_.size()); ++i)
            if (joints_[size_t(i)].alive) fn(JointId{i + 1, joints_[size_t(i)].generation});
    }

private:
    friend struct WorldTestAccess;  // lets tests inject faults (NaN) that the API refuses
    Body* get(BodyId id);
    const Body* get(BodyId id) const;
    Joint* get(JointId id);
    const Joint* get(JointId id) const;
    bool setShape(BodyId id, const ShapeDef& def, ShapeType type, const Polygon& geometry, const MassData& unitMass);
    /// Wakes the body's sleeping island; false when there was none to wake (awake, static or gone).
    bool wakeSlot(int slot);
    /// Recomputes sims_[slot].active/dynamic from the body's flags.
    void refreshActive(int slot);
    bool shouldCollide(int a, int b) const;

    // Stages of step(), in order (step.cpp).
    /// Holds every active body's speeds (dynamic ones only, if asked) to kMaxLinearSpeed and
    /// kMaxAngularSpeed, counted.
    void clampVelocities(bool dynamicOnly);
    /// How far apart two bodies' shapes may be for their contact to be made: the distance
    /// they can close (`closing`, metres), or against a static body the other's
    /// Body::terrainReach if further, plus kSpeculativeDistance.
    double contactReach(int a, int b, double closing) const;
    /// One search for contacts: pass 1 finds every pair with a moving body; a later pass
    /// only the pairs of bodies a contact woke in the pass before (wokenInPass_). True when
    /// this pass woke a sleeping island.
    bool updateContacts(double dt, int pass);
    /// Each joint group's reach (groupReach_) raised to that of every moving group whose
    /// swept bounds overlap its own.
    void reachOfTouchedTrees();
    /// After the step's first substep finds again the manifolds of bodies turning or sliding
    /// past each other fast (refreshMovingContact), then moves the bodies by their
    /// velocities and readies the contacts for the substep (substepsLeft counts this one).
    void integrate(double h, int substepsLeft);
    /// Finds a contact's manifold again where its bodies are now, when they turn or slide
    /// past each other fast enough that the features found at the step's start may no
    /// longer be closest.
    void refreshMovingContact(Contact& contact, double h, int substepsLeft);
    void solvePositions(double h);
    /// Gives the contacts of a prop a joint tree touches with what it rests on (the terrain,
    /// props under it) to that tree's contact system this step (Contact::treeGroup).
    void adoptProps();
    /// The contact is solved through its joint tree this step, not body by body.
    bool solvedByTree(const Contact& c) const;
    /// Lists the contacts solved body by body (bodyContacts_) and cuts them into lanes, and
    /// the contacts that may hold a body in them (terrainContacts_).
    void laneBodyContacts();
    /// Each substep, before the pass body by body: every held body's two nearest points with
    /// what holds it (terrainHolds_).
    void holdOnTerrain();
    /// After laneBodyContacts: the props resting on held props, held by them in turn.
    void holdStackedProps();
    /// The body's hold for the passes body by body, or null.
    const TerrainHold* terrainHold(int body) const;
    void updateVelocities(double h);
    void solveVelocities(double h);
    void updateSleep(double dt);
    /// Adds the time since the last lap to a stage of the step's profile (WorldStats::profile).
    void lap(double& stage);
    /// Resets bodies whose state is not finite (at the step's start and end); at the end
    /// also freezes bodies beyond the world's bounds and records the last good poses.
    void recoverBodies(bool stepStart);

    WorldDef def_;
    std::vector<Body> bodies_;     ///< cold: shape, flags, bookkeeping
    std::vector<BodySim> sims_;    ///< hot: what the solver touches, same slots as bodies_
    /// Free slots, min-heaps: a new body or joint takes the lowest, so which slots a
    /// character's bodies get depends on what is alive, not on the order of earlier
    /// deletions — a restored state (built afresh) gets the same slots, and with them the
    /// same order of pairs and tree nodes, as the world it was saved from.
    std::vector<int> freeBodies_;
    int bodyCount_ = 0;
    std::vector<Joint> joints_;
    std::vector<int> freeJoints_;
    int jointCount_ = 0;
    std::vector<Contact> contacts_;
    std::vector<int> bodyContacts_;  ///< the contacts solved body by body this step, in order
    std::vector<std::uint8_t> bodyContactKind_;  ///< per contact, scratch: 0 not, 1 body by body, 2 and loose, 3 a tree's with a static body
    ContactLanes contactLanes_;      ///< bodyContacts_ in lanes that threads sweep at once
    std::vector<int> propContacts_;  ///< those of bodyContacts_ that are loose (Contact::loose)
    /// The contacts that hold a body this step (TerrainHold): awake trees' and props' with
    /// static bodies, and props' with the held props they rest on; empty when no contact
    /// between two dynamic bodies is solved body by body.
    std::vector<int> terrainContacts_;
    std::vector<int> heldBy_;  ///< per terrainContacts_: the body its points hold (a tree's or a prop)
    std::vector<std::uint8_t> heldProp_;  ///< per body slot, scratch: the stack layer a held prop is in (1 on the terrain), or 0
    std::vector<TerrainPoint> terrainPoints_;  ///< terrainContacts_'s points this substep, two per contact
    std::vector<TerrainHold> terrainHolds_;  ///< this substep's, one per body held
    std::vector<int> heldBodies_;            ///< the body of each of terrainHolds_
    std::vector<int> holdOf_;                ///< per body slot: its entry in terrainHolds_, or −1
    std::vector<int> propGroup_;     ///< per body slot: the tree group that took it as a prop this step, or −1 (set only when one did)
    BroadPhase broadPhase_;
    /// What rayCast and queryAABB look through instead of every Body record (~500 bytes
    /// apart: with thousands of terrain pieces, a character's queries were most of a frame):
    /// the static bodies sorted by their bounds' lower x, with the widest one's width, and the
    /// other bodies' slots. Rebuilt by the step after a body came, went, changed shape or a
    /// static one moved; a query before that step reads every body, as it did.
    struct QueryIndex {
        std::vector<int> statics;          ///< slots, by aabb.lower.x then slot
        std::vector<double> staticLowerX;  ///< their aabb.lower.x
        double widestStatic = 0.0;         ///< metres
        /// The other live bodies with a shape: by aabb.lower.x then slot while othersSorted
        /// (sorted again by each step, after it moved them; a body put somewhere between
        /// steps unsorts them until the next), else in no order.
        std::vector<int> others;
        std::vector<double> otherLowerX;
        double widestOther = 0.0;
        bool othersSorted = false;
        bool valid = false;  ///< which bodies are static and which not
    };
    QueryIndex queryIndex_;
    void rebuildQueryIndex();
    void sortQueryIndexOthers();
    /// Calls fn(slot) for every live body with a shape whose bounds may overlap box (some
    /// that do not, too), each once, in no set order.
    template <class Fn>
    void forEachCandidate(const AABB& box, Fn&& fn) const;
    TreeSolver treeSolver_;
    std::vector<std::pair<int, int>> pairs_;  ///< broadphase output, reused
    std::vector<double> groupReach_;  ///< per joint group: how far its fastest point, or that of a tree whose bounds overlap its own, travels in the step, m
    std::vector<double> touchedReach_;  ///< scratch for groupReach_
    std::vector<AABB> groupBounds_;     ///< per joint group, scratch: its bodies' swept bounds
    std::vector<int> groupOrder_;       ///< scratch: the moving groups sorted along x
    double terrainReach_ = 0.0;       ///< the largest Body::terrainReach this step
    /// Per body slot: the contact search pass of this step that woke it (0: none), and the
    /// pass now running (0 outside updateContacts), so wakeSlot can mark what it wakes.
    std::vector<int> wokenInPass_;
    int contactPass_ = 0;
    /// A manifold the narrow phase found: its bodies (A the higher-ranked shape) and whether
    /// one of them sleeps.
    struct PairManifold {
        int bodyA = -1, bodyB = -1;
        bool wakes = false;
        Manifold manifold;
    };
    std::vector<PairManifold> pairManifolds_;  ///< per block of pairs: its manifolds, packed from its first pair's slot
    std::vector<int> pairBlockStart_;          ///< per block of pairs: its first contact in contacts_
    std::vector<int> islandParent_;           ///< union-find over body slots, reused
    /// Per body slot, while sleeping is decided: ready to sleep; ready but linked to an awake
    /// body that is not; (on an island's root) some body of the island is so linked.
    enum : std::uint8_t { kIslandReady = 1, kIslandLinkedToBusy = 2, kIslandBusy = 4 };
    std::vector<std::uint8_t> islandFlags_;
    std::int64_t nextSleepingIsland_ = 0;
    std::chrono::steady_clock::time_point lapStart_;  ///< where the step's profile's current stage began
    WorldStats counters_;  ///< running totals (recovered, clamped) and last-step figures
};

}  // namespace ragdoll
