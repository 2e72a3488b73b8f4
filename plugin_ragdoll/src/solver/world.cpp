// World: creation and destruction of bodies, their queries and commands, settings. Joints
// are in world_joints.cpp, the step in step.cpp.
#include "solver/world.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "solver/arrays.h"
#include "solver/constants.h"

namespace ragdoll {

WorldDef defaultWorldDef() { return WorldDef{}; }
BodyDef defaultBodyDef() { return BodyDef{}; }
ShapeDef defaultShapeDef() { return ShapeDef{}; }
JointDef defaultJointDef() { return JointDef{}; }

World::World(const WorldDef& def) : def_(def) {
    setTaskSystem(def.tasks);
    setSubsteps(def.substeps);
    setIterations(def.iterations);
}

void World::setSubsteps(int substeps) { def_.substeps = std::clamp(substeps, 1, 64); }
void World::setIterations(int iterations) { def_.iterations = std::clamp(iterations, 1, 64); }
void World::setJointSolver(JointSolver solver) { def_.jointSolver = solver; }
void World::setTaskSystem(const TaskSystem& tasks) {
    def_.tasks = tasks;
    def_.tasks.workerCount = std::clamp(tasks.workerCount, 1, kMaxWorkers);
    if (!tasks.enqueueTask || !tasks.finishTask) def_.tasks.workerCount = 1;
}
void World::enableSleep(bool enable) {
    def_.enableSleep = enable;
    if (!enable)
        for (int i = 0; i < int(bodies_.size()); ++i)
            if (bodies_[size_t(i)].alive) wakeSlot(i);
}

// ---- handles ----

Body* World::get(BodyId id) {
    if (id.index1 <= 0 || id.index1 > int(bodies_.size())) return nullptr;
    Body& b = bodies_[size_t(id.index1 - 1)];
    return b.alive && b.generation == id.generation ? &b : nullptr;
}
const Body* World::get(BodyId id) const { return const_cast<World*>(this)->get(id); }
Joint* World::get(JointId id) {
    if (id.index1 <= 0 || id.index1 > int(joints_.size())) return nullptr;
    Joint& j = joints_[size_t(id.index1 - 1)];
    return j.alive && j.generation == id.generation ? &j : nullptr;
}
const Joint* World::get(JointId id) const { return const_cast<World*>(this)->get(id); }
double World::overlap(BodyId a, BodyId b, Vec2* normal) const {
    const Body* ba = get(a);
    const Body* bb = get(b);
    if (!ba || !bb || ba == bb || !ba->hasShape || !bb->hasShape) return 0.0;
    int slotA = a.index1 - 1, slotB = b.index1 - 1;
    double sign = 1.0;
    // The higher-ranked shape is A (see updateContact).
    if (int(ba->shape.type) < int(bb->shape.type)) {
        std::swap(slotA, slotB);
        sign = -1.0;
    }
    Contact c;
    c.bodyA = slotA;
    c.bodyB = slotB;
    if (!updateContact(c, bodies_[size_t(slotA)], sims_[size_t(slotA)], bodies_[size_t(slotB)], sims_[size_t(slotB)], 0.0))
        return 0.0;
    double deepest = 0.0;
    for (int i = 0; i < c.pointCount; ++i) deepest = std::max(deepest, -c.points[i].separation);
    if (normal) *normal = sign * c.normal;
    return deepest;
}

bool World::isValid(BodyId id) const { return get(id) != nullptr; }
bool World::isValid(JointId id) const { return get(id) != nullptr; }

BodyId World::bodyId(int slot) const {
    if (slot < 0 || slot >= int(bodies_.size()) || !bodies_[size_t(slot)].alive) return {};
    return BodyId{slot + 1, bodies_[size_t(slot)].generation};
}

// ---- bodies ----

AABB shapeBounds(const Body& body, const BodySim& sim) {
    Transform xf = bodyFrame(body, sim);
    const Polygon& g = body.shape.geometry;
    switch (body.shape.type) {
    case ShapeType::Circle: return computeAABB(Circle{g.vertices[0], g.radius}, xf);
    case ShapeType::Capsule: return computeAABB(Capsule{g.vertices[0], g.vertices[1], g.radius}, xf);
    case ShapeType::Polygon: break;
    }
    return computeAABB(g, xf);
}

static bool finite(double x) { return std::isfinite(x); }

BodyId World::createBody(const BodyDef& def) {
    if (!isFinite(def.position) || !finite(def.angle) || !isFinite(def.linearVelocity) || !finite(def.angularVelocity))
        return {};
    // What setDamping refuses is refused here too: a NaN damping made the body's velocity
    // NaN every substep, and NaN recovery put it back every step, for good.
    if (!finite(def.linearDamping) || !finite(def.angularDamping) || def.linearDamping < 0.0 ||
        def.angularDamping < 0.0 || !finite(def.gravityScale))
        return {};
    int slot;
    if (!freeBodies_.empty()) {
        slot = takeLowestSlot(freeBodies_);
    } else {
        slot = int(bodies_.size());
        bodies_.emplace_back();
        sims_.emplace_back();
    }
    Body& b = bodies_[size_t(slot)];
    BodySim& sim = sims_[size_t(slot)];
    sim = BodySim{};
    std::uint16_t generation = std::uint16_t(b.generation + 1);
    b = Body{};
    b.generation = generation == 0 ? 1 : generation;
    b.alive = true;
    b.type = def.type;
    sim.center = def.position;
    sim.angle = def.angle;
    sim.q = makeRot(def.angle);
    sim.prevCenter = def.position;
    sim.prevAngle = def.angle;
    if (def.type != BodyType::Static) {
        sim.linearVelocity = def.linearVelocity;
        sim.angularVelocity = def.angularVelocity;
    }
    sim.linearDamping = def.linearDamping;
    sim.angularDamping = def.angularDamping;
    sim.gravityScale = def.gravityScale;
    b.userData = def.userData;
    b.awake = def.type == BodyType::Static ? false : (def.awake || !def_.enableSleep);
    b.lastGoodCenter = def.position;
    b.lastGoodAngle = def.angle;
    if (def.type == BodyType::Dynamic) {
        // A dynamic body without a shape still needs a mass: 1 kg, like a 1 m disc-ish point.
        b.mass = 1.0;
        b.inertia = 1.0;
        sim.invMass = 1.0;
        sim.invInertia = 1.0;
    }
    refreshActive(slot);
    ++bodyCount_;
    broadPhase_.markDirty();
    queryIndex_.valid = false;
    return BodyId{slot + 1, b.generation};
}

bool World::destroyBody(BodyId id) {
    Body* b = get(id);
    if (!b) return false;
    int slot = id.index1 - 1;
    // Joints first (they unlink themselves from both bodies' lists).
    while (b->firstJoint >= 0) {
        int j = b->firstJoint;
        destroyJoint(JointId{j + 1, joints_[size_t(j)].generation});
    }
    wakeSlot(slot);  // whatever rested on it must fall
    contacts_.erase(std::remove_if(contacts_.begin(), contacts_.end(),
                                   [&](const Contact& c) { return c.bodyA == slot || c.bodyB == slot; }),
                    contacts_.end());
    b->alive = false;
    refreshActive(slot);
    releaseSlot(freeBodies_, slot);
    --bodyCount_;
    broadPhase_.markDirty();
    queryIndex_.valid = false;
    treeSolver_.markDirty();
    return true;
}

bool World::setShape(BodyId id, const ShapeDef& def, ShapeType type, const Polygon& geometry, const MassData& unitMass) {
    Body* b = get(id);
    if (!b || !finite(def.friction) || !finite(def.restitution)) return false;
    // A dynamic body's mass must come out finite and positive: from density 0 it was 0 kg
    // (moved by nothing, it fell through the ground), from a negative one below 0, and a
    // negative mass was taken as "not given" and silently became the shape's area.
    if (b->type == BodyType::Dynamic &&
        (!finite(def.mass) || def.mass < 0.0 || (def.mass == 0.0 && !(finite(def.density) && def.density > 0.0))))
        return false;
    BodySim& sim = sims_[size_t(id.index1 - 1)];
    b->shape.type = type;
    b->shape.geometry = geometry;
    b->shape.friction = std::max(def.friction, 0.0);
    b->shape.restitution = std::clamp(def.restitution, 0.0, 1.0);
    b->shape.filter = def.filter;
    b->hasShape = true;
    if (b->type == BodyType::Dynamic) {
        // unitMass is at density 1: scale to the requested mass or density.
        double scale = def.mass > 0.0 ? def.mass / unitMass.mass : def.density;
        b->mass = unitMass.mass * scale;
        b->inertia = unitMass.rotationalInertia * scale;
        // Moving the centre of mass keeps the origin's velocity (the API's meaning):
        // v_centre = v_origin + ω × (centre − origin).
        Vec2 origin = bodyFrame(*b, sim).p;
        Vec2 originVelocity = sim.linearVelocity + cross(sim.angularVelocity, origin - sim.center);
        b->localCenter = unitMass.center;
        sim.center = origin + rotate(sim.q, b->localCenter);
        sim.linearVelocity = originVelocity + cross(sim.angularVelocity, sim.center - origin);
        sim.prevCenter = sim.center;
        b->lastGoodCenter = sim.center;
        sim.invMass = b->mass > 0.0 ? 1.0 / b->mass : 0.0;
        sim.invInertia = b->inertia > 0.0 ? 1.0 / b->inertia : 0.0;
    }
    b->extent = 0.0;
    for (int i = 0; i < geometry.count; ++i)
        b->extent = std::max(b->extent, length(geometry.vertices[i] - b->localCenter) + geometry.radius);
    b->aabb = shapeBounds(*b, sim);
    broadPhase_.markDirty();
    queryIndex_.valid = false;
    treeSolver_.updateMass(int(id.index1 - 1), b->mass, b->inertia);  // it keeps a copy
    return true;
}

bool World::setCircle(BodyId id, const ShapeDef& def, const Circle& circle) {
    if (!(circle.radius > 0.0) || !isFinite(circle.center)) return false;
    Polygon g;
    g.count = 1;
    g.vertices[0] = circle.center;
    g.centroid = circle.center;
    g.radius = circle.radius;
    return setShape(id, def, ShapeType::Circle, g, computeMass(circle, 1.0));
}

bool World::setCapsule(BodyId id, const ShapeDef& def, const Capsule& capsule) {
    if (!(capsule.radius > 0.0) || !isFinite(capsule.center1) || !isFinite(capsule.center2)) return false;
    if (distance(capsule.center1, capsule.center2) < kMinCapsuleLength)
        return setCircle(id, def, Circle{capsule.center1, capsule.radius});
    return setShape(id, def, ShapeType::Capsule, capsuleShape(capsule), computeMass(capsule, 1.0));
}

bool World::setPolygon(BodyId id, const ShapeDef& def, const Polygon& polygon) {
    if (polygon.count < 3 || polygon.count > kMaxPolygonVertices) return false;
    return setShape(id, def, ShapeType::Polygon, polygon, computeMass(polygon, 1.0));
}

bool World::setDamping(BodyId id, double linearDamping, double angularDamping) {
    if (!get(id) || !finite(linearDamping) || !finite(angularDamping) || linearDamping < 0.0 || angularDamping < 0.0)
        return false;
    BodySim& sim = sims_[size_t(id.index1 - 1)];
    sim.linearDamping = linearDamping;
    sim.angularDamping = angularDamping;
    wakeSlot(id.index1 - 1);
    return true;
}

// ---- body queries and commands ----

BodyState World::bodyState(BodyId id) const {
    const Body* b = get(id);
    if (!b) return {};
    const BodySim& sim = sims_[size_t(id.index1 - 1)];
    BodyState s;
    s.position = bodyFrame(*b, sim).p;
    s.angle = sim.angle;
    // The API speaks of the origin: v_origin = v_com + ω × (origin − com).
    s.linearVelocity = sim.linearVelocity + cross(sim.angularVelocity, s.position - sim.center);
    s.angularVelocity = sim.angularVelocity;
    s.awake = b->awake;
    return s;
}

Transform World::bodyTransform(BodyId id) const {
    const Body* b = get(id);
    return b ? bodyFrame(*b, sims_[size_t(id.index1 - 1)]) : Transform{};
}
Vec2 World::worldCenterOfMass(BodyId id) const {
    return get(id) ? sims_[size_t(id.index1 - 1)].center : Vec2{};
}
double World::bodyMass(BodyId id) const {
    const Body* b = get(id);
    return b && b->isDynamic() ? b->mass : 0.0;
}
double World::bodyInertia(BodyId id) const {
    const Body* b = get(id);
    return b && b->isDynamic() ? b->inertia : 0.0;
}
BodyType World::bodyType(BodyId id) const {
    const Body* b = get(id);
    return b ? b->type : BodyType::Static;
}
const Shape* World::bodyShape(BodyId id) const {
    const Body* b = get(id);
    return b && b->hasShape ? &b->shape : nullptr;
}

void World::setTransform(BodyId id, Vec2 position, double angle) {
    Body* b = get(id);
    if (!b || !isFinite(position) || !finite(angle)) return;
    int slot = id.index1 - 1;
    BodySim& sim = sims_[size_t(slot)];
    sim.angle = angle;
    sim.q = makeRot(angle);
    sim.center = position + rotate(sim.q, b->localCenter);
    sim.prevCenter = sim.center;
    sim.prevAngle = angle;
    b->frozen = false;
    if (b->hasShape) b->aabb = shapeBounds(*b, sim);
    if (b->type == BodyType::Static) {
        broadPhase_.markDirty();
        queryIndex_.valid = false;
    }
    queryIndex_.othersSorted = queryIndex_.othersSorted && b->type == BodyType::Static;
    wakeSlot(slot);
    refreshActive(slot);
}

void World::setVelocity(BodyId id, Vec2 linear, double angular) {
    Body* b = get(id);
    if (!b || b->type == BodyType::Static || !isFinite(linear) || !finite(angular)) return;
    BodySim& sim = sims_[size_t(id.index1 - 1)];
    Vec2 origin = bodyFrame(*b, sim).p;
    sim.linearVelocity = linear + cross(angular, sim.center - origin);  // linear is the origin's
    sim.angularVelocity = angular;
    wakeSlot(id.index1 - 1);
}

void World::applyLinearImpulse(BodyId id, Vec2 impulse, Vec2 worldPoint) {
    Body* b = get(id);
    if (!b || !b->isDynamic() || !isFinite(impulse) || !isFinite(worldPoint)) return;
    BodySim& sim = sims_[size_t(id.index1 - 1)];
    sim.linearVelocity += sim.invMass * impulse;
    sim.angularVelocity += sim.invInertia * cross(worldPoint - sim.center, impulse);
    wakeSlot(id.index1 - 1);
}

void World::setKinematicTarget(BodyId id, Vec2 position, double angle, double dt) {
    Body* b = get(id);
    if (!b || b->type != BodyType::Kinematic || !(dt > 0.0) || !isFinite(position) || !finite(angle)) return;
    BodySim& sim = sims_[size_t(id.index1 - 1)];
    Vec2 targetCenter = position + rotate(makeRot(angle), b->localCenter);
    sim.linearVelocity = (1.0 / dt) * (targetCenter - sim.center);
    sim.angularVelocity = (angle - sim.angle) / dt;
    wakeSlot(id.index1 - 1);
}

BodySnapshot World::snapshot(BodyId id) const {
    const Body* b = get(id);
    if (!b) return {};
    const BodySim& sim = sims_[size_t(id.index1 - 1)];
    return {sim.center, sim.angle, sim.linearVelocity, sim.angularVelocity, b->awake, b->frozen, b->sleepTime,
            b->sleepingIsland};
}

bool World::restore(BodyId id, const BodySnapshot& s) {
    Body* b = get(id);
    // Island ids count up from 0 (-1: none); the next id must still fit.
    if (!b || !isFinite(s.center) || !finite(s.angle) || !isFinite(s.linearVelocity) || !finite(s.angularVelocity) ||
        !finite(s.sleepTime) || s.sleepingIsland < -1 || s.sleepingIsland >= kMaxSleepingIsland)
        return false;
    int slot = id.index1 - 1;
    BodySim& sim = sims_[size_t(slot)];
    sim.center = sim.prevCenter = s.center;
    sim.angle = sim.prevAngle = s.angle;
    sim.q = makeRot(s.angle);
    if (b->type != BodyType::Static) {
        sim.linearVelocity = s.linearVelocity;
        sim.angularVelocity = s.angularVelocity;
        b->awake = s.awake;
    }
    b->frozen = s.frozen;
    b->sleepTime = s.sleepTime;
    b->sleepingIsland = s.awake ? -1 : s.sleepingIsland;
    // Later islands must not reuse a restored island's id.
    if (b->sleepingIsland >= nextSleepingIsland_) nextSleepingIsland_ = b->sleepingIsland + 1;
    b->lastGoodCenter = s.center;
    b->lastGoodAngle = s.angle;
    if (b->hasShape) b->aabb = shapeBounds(*b, sim);
    if (b->type == BodyType::Static) {
        broadPhase_.markDirty();
        queryIndex_.valid = false;
    }
    queryIndex_.othersSorted = queryIndex_.othersSorted && b->type == BodyType::Static;
    refreshActive(slot);
    return true;
}

double World::jointLimitWarmStart(JointId id) const {
    const Joint* j = get(id);
    return j ? treeSolver_.limitWarmStart(*j) : 0.0;
}

bool World::setJointLimitWarmStart(JointId id, double lambda) {
    Joint* j = get(id);
    if (!j || !(lambda >= 0.0) || !finite(lambda)) return false;
    treeSolver_.setLimitWarmStart(*j, lambda);
    return true;
}

bool World::setNextSleepingIsland(std::int64_t next) {
    if (next < 0 || next > kMaxSleepingIsland) return false;
    for (const Body& b : bodies_)
        if (b.alive && b.sleepingIsland >= next) next = b.sleepingIsland + 1;
    nextSleepingIsland_ = next;
    return true;
}

void World::wake(BodyId id) {
    if (get(id)) wakeSlot(id.index1 - 1);
}

bool World::wakeSlot(int slot) {
    Body& b = bodies_[size_t(slot)];
    if (!b.alive || b.type == BodyType::Static) return false;
    b.sleepTime = 0.0;
    if (b.awake) return false;
    // Wake the whole island it fell asleep with: a rare event, so a scan is fine.
    std::int64_t island = b.sleepingIsland;
    for (int i = 0; i < int(bodies_.size()); ++i) {
        Body& other = bodies_[size_t(i)];
        if (other.alive && !other.awake && other.type != BodyType::Static && (other.sleepingIsland == island || i == slot)) {
            other.awake = true;
            other.sleepTime = 0.0;
            other.sleepingIsland = -1;
            refreshActive(i);
            if (contactPass_ > 0) wokenInPass_[size_t(i)] = contactPass_;
        }
    }
    return true;
}

bool World::shouldCollide(int a, int b) const {
    const Body& ba = bodies_[size_t(a)];
    const Body& bb = bodies_[size_t(b)];
    if (!ba.isDynamic() && !bb.isDynamic()) return false;
    // A joint between the two decides first: collideConnected lets them touch even inside
    // one non-colliding group (a rig's `collide="true"`). Two dynamic bodies in different
    // joint groups cannot share a joint, which spares most pairs the lookup.
    bool mayShareJoint = !ba.isDynamic() || !bb.isDynamic() || (ba.jointGroup >= 0 && ba.jointGroup == bb.jointGroup);
    const Filter& fa = ba.shape.filter;
    const Filter& fb = bb.shape.filter;
    const bool filterLets = fa.group != 0 && fa.group == fb.group
                                ? fa.group > 0
                                : (fa.categoryBits & fb.maskBits) != 0 && (fb.categoryBits & fa.maskBits) != 0;
    if (mayShareJoint) {
        // Two bodies of a ragdoll the filter keeps apart could only touch through a joint
        // that lets them: without one in the group, the joint lists need no walk (they were
        // a twentieth of the N=1000 pile's step, every body of a stickman meeting the others).
        if (!filterLets && ba.isDynamic() && bb.isDynamic() && !treeSolver_.collidesConnected(ba.jointGroup)) return false;
        int self = ba.firstJoint >= 0 ? a : b, other = self == a ? b : a;
        for (int j = bodies_[size_t(self)].firstJoint; j >= 0;) {
            const Joint& joint = joints_[size_t(j)];
            int partner = joint.bodyA == self ? joint.bodyB : joint.bodyA;
            if (partner == other) return joint.collideConnected;
            j = joint.bodyA == self ? joint.nextA : joint.nextB;
        }
    }
    return filterLets;
}

// ---- queries ----

WorldStats World::stats() const {
    WorldStats s = counters_;
    s.bodies = bodyCount_;
    s.joints = jointCount_;
    s.dynamicBodies = s.awakeBodies = 0;
    for (const Body& b : bodies_) {
        if (!b.alive || !b.isDynamic()) continue;
        ++s.dynamicBodies;
        if (b.awake) ++s.awakeBodies;
    }
    s.directJointGroups = def_.jointSolver == JointSolver::Direct ? treeSolver_.groupCount() : 0;
    // Measured here, on demand, rather than in every step: the positions have not moved since.
    s.maxJointSeparation = s.maxLimitViolation = 0.0;
    for (const Joint& j : joints_) {
        if (!j.alive) continue;
        const BodySim& a = sims_[size_t(j.bodyA)];
        const BodySim& b = sims_[size_t(j.bodyB)];
        s.maxJointSeparation = std::max(s.maxJointSeparation, jointSeparation(j, a, b));
        s.maxLimitViolation = std::max(s.maxLimitViolation, std::abs(jointLimitError(j, a, b)));
    }
    s.contactLanes = contactLanes_.laneCount();
    s.crossingContacts = contactLanes_.crossingCount();
    s.contacts = s.contactPoints = 0;
    for (const Contact& c : contacts_) {
        int touching = 0;
        for (int p = 0; p < c.pointCount; ++p) touching += c.points[p].separation < kLinearSlop ? 1 : 0;
        s.contacts += touching > 0 ? 1 : 0;
        s.contactPoints += touching;
    }
    s.memoryBytes = bodies_.capacity() * sizeof(Body) + sims_.capacity() * sizeof(BodySim) +
                    joints_.capacity() * sizeof(Joint) + contacts_.capacity() * sizeof(Contact) +
                    pairs_.capacity() * sizeof(pairs_[0]) + pairManifolds_.capacity() * sizeof(PairManifold) +
                    pairBlockStart_.capacity() * sizeof(int) + islandParent_.capacity() * sizeof(int) +
                    islandFlags_.capacity() + bodyContacts_.capacity() * sizeof(int) +
                    bodyContactKind_.capacity() +
                    contactLanes_.memoryBytes() + broadPhase_.memoryBytes() +
                    treeSolver_.memoryBytes();
    return s;
}

std::uint64_t World::stateHash() const {
    // FNV-1a, 64-bit (Fowler, Noll, Vo): byte by byte, so equal means equal bits.
    std::uint64_t hash = 14695981039346656037ull;
    auto mixBytes = [&](const void* data, std::size_t size) {
        const unsigned char* bytes = static_cast<const unsigned char*>(data);
        for (std::size_t i = 0; i < size; ++i) hash = (hash ^ bytes[i]) * 1099511628211ull;
    };
    auto mix = [&](auto value) {
        // Doubles by their bit pattern (memcpy: no padding, and -0.0 differs from 0.0).
        unsigned char bytes[sizeof value];
        std::memcpy(bytes, &value, sizeof value);
        mixBytes(bytes, sizeof value);
    };
    for (std::size_t i = 0; i < bodies_.size(); ++i) {
        const Body& b = bodies_[i];
        if (!b.alive) continue;
        const BodySim& s = sims_[i];
        mix(std::uint64_t(i));
        mix(s.center.x);
        mix(s.center.y);
        mix(s.angle);
        mix(s.q.c);
        mix(s.q.s);
        mix(s.linearVelocity.x);
        mix(s.linearVelocity.y);
        mix(s.angularVelocity);
        mix(std::uint8_t(b.awake));
        mix(std::uint8_t(b.frozen));
        mix(b.sleepTime);
        mix(b.sleepingIsland);
    }
    return hash;
}

}  // namespace ragdoll
