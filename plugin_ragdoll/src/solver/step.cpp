// The step, in stages (Müller et al. 2020, Algorithm 2; Macklin et al. 2019):
//   once per step:   NaN recovery, speed clamp, bounds, broadphase, narrow phase
//                    (speculative contacts)
//   per substep h:   integrate (after the first, the manifolds of bodies turning or
//                    sliding past each other fast found again) → position solve
//                    (contacts, Gauss-Seidel joints; then the direct joint trees) →
//                    velocities from positions → velocity pass (friction, restitution,
//                    joint damping)
//   once per step:   sleep, NaN recovery, bounds
// Joints are solved after contacts so they are exact at the end of every substep.
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <numeric>

#include "solver/arrays.h"
#include "solver/constants.h"
#include "solver/world.h"

namespace ragdoll {

namespace {

/// Pairs per block of the narrow phase: a block is one item of its task (a pair is a few
/// hundred nanoseconds) and keeps the manifolds it makes packed from its first slot.
constexpr int kPairsPerBlock = 64;
/// Bodies or contacts per range of the per-substep loops over them.
constexpr int kItemsPerRange = 256;
/// Trees per range of the velocity pass over their limits (most have nothing to do).
constexpr int kTreesPerRange = 32;

/// How fast the point of a body's shape farthest from its centre of mass (`extent` away,
/// Body::extent) moves about that centre, m/s.
double farEndSpeed(const BodySim& s, double extent) { return std::abs(s.angularVelocity) * extent; }

/// Runs fn(i, counts) for every i in [0, count) as a task; fn adds to counts what it
/// reports (speeds clamped, bodies recovered), and the sums are returned.
template <int N, class Fn>
std::array<int, N> countOver(const TaskSystem& tasks, int count, const Fn& fn) {
    std::array<std::array<int, N>, kMaxWorkers> perWorker{};
    runTask(tasks, count, kItemsPerRange, [&](int begin, int end, int worker) {
        for (int i = begin; i < end; ++i) fn(i, perWorker[size_t(worker)]);
    });
    std::array<int, N> total{};
    for (const std::array<int, N>& counts : perWorker)
        for (int k = 0; k < N; ++k) total[size_t(k)] += counts[size_t(k)];
    return total;
}

/// Holds the speeds to kMaxLinearSpeed and kMaxAngularSpeed; returns how many it clamped.
int clampVelocity(BodySim& s) {
    int clamped = 0;
    double speed = length(s.linearVelocity);
    if (speed > kMaxLinearSpeed) {
        // Finite components can still square to infinity: then measure the direction
        // scaled down (scaling by kMaxLinearSpeed / ∞ would stop the body dead instead).
        if (std::isinf(speed)) {
            s.linearVelocity *= 1.0 / std::max(std::abs(s.linearVelocity.x), std::abs(s.linearVelocity.y));
            speed = length(s.linearVelocity);
        }
        s.linearVelocity *= kMaxLinearSpeed / speed;
        ++clamped;
    }
    if (std::abs(s.angularVelocity) > kMaxAngularSpeed) {
        s.angularVelocity = std::copysign(kMaxAngularSpeed, s.angularVelocity);
        ++clamped;
    }
    return clamped;
}

int findRoot(std::vector<int>& parent, int i) {
    while (parent[size_t(i)] != i) {
        parent[size_t(i)] = parent[size_t(parent[size_t(i)])];
        i = parent[size_t(i)];
    }
    return i;
}

}  // namespace

void World::refreshActive(int slot) {
    const Body& b = bodies_[size_t(slot)];
    BodySim& s = sims_[size_t(slot)];
    s.active = b.alive && b.awake && !b.frozen && b.type != BodyType::Static;
    s.dynamic = b.alive && b.type == BodyType::Dynamic;
}

void World::lap(double& stage) {
    const auto now = std::chrono::steady_clock::now();
    stage += std::chrono::duration<double, std::milli>(now - lapStart_).count();
    lapStart_ = now;
}

void World::step(double dt) {
    const auto start = std::chrono::steady_clock::now();
    if (!(dt > 0.0) || !std::isfinite(dt)) return;
    StepProfile& profile = counters_.profile;
    profile = {};
    lapStart_ = start;
    // Joint groups are kept in both modes: the filter uses them to skip joint lookups.
    if (treeSolver_.dirty()) treeSolver_.rebuild(bodies_, joints_);
    treeSolver_.setTasks(&def_.tasks);

    // A body corrupted since the last step (NaN or inf, e.g. a finite impulse too large for
    // its mass) is reset before anything reads it: within the step its NaN would reach every
    // body it shares a joint tree or a contact with.
    recoverBodies(true);
    // Before anything moves: a runaway velocity (a user's impulse, a blow-up) is clamped and
    // counted rather than allowed to fling a body out of the world in one step.
    clampVelocities(false);
    // An island a contact wakes was not moving when the pairs were found, so it has no
    // contacts of its own (the ground under it) in this step and would fall for a whole
    // step (g·dt = 0.16 m/s, 1.4 mm into the ground): its pairs are searched again.
    wokenInPass_.assign(bodies_.size(), 0);
    for (int pass = 1; updateContacts(dt, pass) && pass < kContactSearchPasses; ++pass) {
    }
    if (def_.jointSolver == JointSolver::Direct) {
        adoptProps();
        treeSolver_.sortContacts(contacts_);
    }
    laneBodyContacts();
    lap(profile.collide);
    double h = dt / def_.substeps;
    counters_.newtonIterations = 0;
    for (int s = 0; s < def_.substeps; ++s) {
        integrate(h, def_.substeps - s);
        lap(profile.integrate);
        solvePositions(h);
        updateVelocities(h);
        lap(profile.velocities);
        solveVelocities(h);
    }
    // Substeps turn the rotation q incrementally (integrateRotation) and the constraints are
    // solved on q, so q is what the joints agree with; the angle drifts from it by O(Δθ³) per
    // substep. Between steps both are made one again from q (the angle keeps its winding), so
    // everything a caller reads (and a saved state restores) is a function of (centre, angle)
    // and a restored world goes on bit for bit.
    runTask(def_.tasks, int(sims_.size()), kItemsPerRange, [&](int begin, int end, int) {
        for (int i = begin; i < end; ++i) {
            BodySim& s = sims_[size_t(i)];
            if (!s.active) continue;
            s.angle += wrapAngle(angleOf({s.q.c, s.q.s}) - s.angle);
            s.q = makeRot(s.angle);
        }
    });
    updateSleep(dt);
    recoverBodies(false);
    if (!queryIndex_.valid) rebuildQueryIndex();
    else sortQueryIndexOthers();
    lap(profile.finish);
    counters_.stepMilliseconds = std::chrono::duration<double, std::milli>(lapStart_ - start).count();
}

void World::clampVelocities(bool dynamicOnly) {
    counters_.clampedVelocities += countOver<1>(def_.tasks, int(sims_.size()), [&](int i, std::array<int, 1>& clamped) {
        BodySim& s = sims_[size_t(i)];
        if (s.active && (s.dynamic || !dynamicOnly)) clamped[0] += clampVelocity(s);
    })[0];
}

bool World::updateContacts(double dt, int pass) {
    // Bounds swept over the step's motion so the broadphase sees where bodies will be
    // (sleeping bodies too: a later pass may find them woken), once: a later pass reuses them.
    if (pass == 1) {
        runTask(def_.tasks, int(bodies_.size()), kItemsPerRange, [&](int begin, int end, int) {
        for (int i = begin; i < end; ++i) {
            Body& b = bodies_[size_t(i)];
            const BodySim& s = sims_[size_t(i)];
            if (!b.alive || !b.hasShape || b.type == BodyType::Static) continue;
            b.apartInGroup = b.isDynamic() && b.jointGroup >= 0 && b.shape.filter.group < 0 &&
                                     !treeSolver_.collidesConnected(b.jointGroup)
                                 ? b.jointGroup
                                 : -1;
            AABB box = shapeBounds(b, s);
            Vec2 travel = dt * s.linearVelocity;
            double margin = kAabbMargin + std::abs(s.angularVelocity) * dt * 0.5 *
                                              std::max(box.upper.x - box.lower.x, box.upper.y - box.lower.y);
            box.lower += Vec2{std::min(travel.x, 0.0) - margin, std::min(travel.y, 0.0) - margin};
            box.upper += Vec2{std::max(travel.x, 0.0) + margin, std::max(travel.y, 0.0) + margin};
            b.aabb = box;
        }
        });
        // Per joint group (a task): how far its fastest point (its centre's speed plus its far
        // end's turning) travels in the step, as its joints can drag any of its bodies about
        // that far, and its bodies' swept bounds.
        const int groupCount = treeSolver_.groupCount();
        groupReach_.resize(size_t(groupCount));
        groupBounds_.resize(size_t(groupCount));
        runTask(def_.tasks, groupCount, kItemsPerRange, [&](int begin, int end, int) {
            for (int g = begin; g < end; ++g) {
                double reach = 0.0;
                AABB bounds{{kInfinity, kInfinity}, {-kInfinity, -kInfinity}};
                treeSolver_.forEachBodyOf(g, [&](int slot) {
                    const Body& b = bodies_[size_t(slot)];
                    const BodySim& s = sims_[size_t(slot)];
                    if (s.active) reach = std::max(reach, (length(s.linearVelocity) + farEndSpeed(s, b.extent)) * dt);
                    if (b.hasShape) {
                        bounds.lower = {std::min(bounds.lower.x, b.aabb.lower.x), std::min(bounds.lower.y, b.aabb.lower.y)};
                        bounds.upper = {std::max(bounds.upper.x, b.aabb.upper.x), std::max(bounds.upper.y, b.aabb.upper.y)};
                    }
                });
                groupReach_[size_t(g)] = reach;
                groupBounds_[size_t(g)] = bounds;
            }
        });
        reachOfTouchedTrees();
        terrainReach_ = groupReach_.empty() ? 0.0 : *std::max_element(groupReach_.begin(), groupReach_.end());
        runTask(def_.tasks, int(bodies_.size()), kItemsPerRange, [&](int begin, int end, int) {
            for (int i = begin; i < end; ++i) {
                Body& b = bodies_[size_t(i)];
                b.terrainReach = b.jointGroup >= 0 ? groupReach_[size_t(b.jointGroup)] : 0.0;
            }
        });
    }
    broadPhase_.findPairs(bodies_, pairs_, terrainReach_, def_.tasks);

    // The pass in which a body first moved in this search: 1 when awake from the start,
    // k + 1 when a contact woke it in pass k. A later pass searches only the pairs whose
    // first moving body began to move in it (the others were searched before). Read in the
    // narrow phase before this pass wakes anything: a body woken now counts as k + 1 or
    // as asleep, and neither is k.
    auto movingFrom = [&](int slot) {
        const Body& b = bodies_[size_t(slot)];
        if (b.type == BodyType::Static || !b.awake) return kContactSearchPasses + 1;
        return wokenInPass_[size_t(slot)] + 1;
    };
    // The narrow phase as a task over blocks of pairs (tasks.h): each block keeps the
    // manifolds its pairs make, in pair order, packed from the block's first slot. It reads
    // bodies and writes nothing else, so it can run before the wakes below (a wake changes no
    // pose or speed). The slots only grow, with the pairs (no allocation once warm). A whole
    // contact written into a slot per pair, and copied again into contacts_, was about half
    // of this function's own time in the N=1000 pile: most pairs make none, and the writes
    // and copies missed the cache.
    const int blocks = (int(pairs_.size()) + kPairsPerBlock - 1) / kPairsPerBlock;
    auto firstPair = [](int block) { return size_t(block) * kPairsPerBlock; };
    auto endPair = [&](int block) { return std::min(pairs_.size(), firstPair(block + 1)); };
    if (pairManifolds_.size() < pairs_.size()) pairManifolds_.resize(pairs_.capacity());
    pairBlockStart_.resize(size_t(blocks) + 1);
    runTask(def_.tasks, blocks, 1, [&](int blockBegin, int blockEnd, int) {
    for (int block = blockBegin; block < blockEnd; ++block) {
        size_t made = firstPair(block);
        for (size_t k = firstPair(block); k < endPair(block); ++k) {
            auto [i, j] = pairs_[k];
            if (pass > 1 && std::min(movingFrom(i), movingFrom(j)) != pass) continue;
            if (!shouldCollide(i, j)) continue;
            // The higher-ranked shape is A (see updateContact).
            int a = i, b = j;
            if (int(bodies_[size_t(a)].shape.type) < int(bodies_[size_t(b)].shape.type)) std::swap(a, b);
            const BodySim& sa = sims_[size_t(a)];
            const BodySim& sb = sims_[size_t(b)];
            // Reach: what the pair can close within the step, plus the fixed margin. A turning
            // body's far end closes faster than its centre: counting the centres alone, a
            // forearm landing at 29 rad/s was out of reach when the step began and ended it
            // 12 mm in the ground with no contact.
            const double closing = (length(sb.linearVelocity - sa.linearVelocity) + farEndSpeed(sa, bodies_[size_t(a)].extent) +
                                    farEndSpeed(sb, bodies_[size_t(b)].extent)) *
                                   dt;
            PairManifold& found = pairManifolds_[made];
            found.manifold = collideBodies(bodies_[size_t(a)], sa, bodies_[size_t(b)], sb, contactReach(a, b, closing));
            if (found.manifold.pointCount == 0) continue;
            found.bodyA = a;
            found.bodyB = b;
            found.wakes = sa.active != sb.active;  // one body is asleep; the other may wake it below
            ++made;
        }
        pairBlockStart_[size_t(block) + 1] = int(made - firstPair(block));
    }
    });
    // The contacts are kept in pair order after those of earlier passes: where each block's
    // start among them (on this thread), then built block by block as a task. contacts_
    // keeps its size between steps, so resizing it rarely builds new elements.
    pairBlockStart_[0] = pass == 1 ? 0 : int(contacts_.size());
    for (int block = 0; block < blocks; ++block) pairBlockStart_[size_t(block) + 1] += pairBlockStart_[size_t(block)];
    resizeWithHeadroom(contacts_, size_t(pairBlockStart_[size_t(blocks)]));
    runTask(def_.tasks, blocks, 1, [&](int blockBegin, int blockEnd, int) {
        for (int block = blockBegin; block < blockEnd; ++block) {
            const PairManifold* found = pairManifolds_.data() + firstPair(block);
            for (int at = pairBlockStart_[size_t(block)]; at < pairBlockStart_[size_t(block) + 1]; ++at, ++found) {
                const int a = found->bodyA, b = found->bodyB;
                Contact& c = contacts_[size_t(at)];
                c = Contact{};
                c.bodyA = a;
                c.bodyB = b;
                setManifold(c, found->manifold, bodies_[size_t(a)], sims_[size_t(a)], bodies_[size_t(b)], sims_[size_t(b)]);
                // A joint tree meeting a body outside every tree (terrain, a prop) solves the
                // contact itself (TreeSolver::solveFreeMotion).
                const int ga = bodies_[size_t(a)].jointGroup, gb = bodies_[size_t(b)].jointGroup;
                c.loose = ga < 0 && gb < 0;
                if (def_.jointSolver == JointSolver::Direct && (ga >= 0) != (gb >= 0)) c.treeGroup = std::max(ga, gb);
            }
        }
    });
    // An awake body reaching a sleeping one wakes its island, in pair order.
    contactPass_ = pass;
    bool woke = false;
    for (int block = 0; block < blocks; ++block) {
        const PairManifold* found = pairManifolds_.data() + firstPair(block);
        for (int at = pairBlockStart_[size_t(block)]; at < pairBlockStart_[size_t(block) + 1]; ++at, ++found) {
            if (!found->wakes) continue;
            const int a = found->bodyA, b = found->bodyB;
            if (sims_[size_t(a)].active && !sims_[size_t(b)].active) woke = wakeSlot(b) || woke;
            else if (sims_[size_t(b)].active && !sims_[size_t(a)].active) woke = wakeSlot(a) || woke;
        }
    }
    contactPass_ = 0;
    return woke;
}

void World::reachOfTouchedTrees() {
    // A tree is met by another whose swept bounds overlap its own this step; it can be
    // driven as far as that one travels: a ragdoll landing on another drives it down within
    // the step faster than it moved when the step began. In the N=1000 pile a stickman's
    // shins, 8 cm over the ground and falling at 1.4 m/s, were driven to 5.5 m/s by one
    // landing on it and ended the step 21 mm in the ground. (From this step's bounds, not
    // last step's contacts, which a saved state does not carry.)
    const int groupCount = int(groupReach_.size());
    // Sweep along x: the moving groups in order of their lower x (ties by index).
    groupOrder_.clear();
    for (int g = 0; g < groupCount; ++g)
        if (groupReach_[size_t(g)] > 0.0) groupOrder_.push_back(g);
    std::sort(groupOrder_.begin(), groupOrder_.end(), [&](int a, int b) {
        const double la = groupBounds_[size_t(a)].lower.x, lb = groupBounds_[size_t(b)].lower.x;
        return la < lb || (la == lb && a < b);
    });
    touchedReach_.assign(groupReach_.begin(), groupReach_.end());
    for (size_t i = 0; i < groupOrder_.size(); ++i) {
        const int a = groupOrder_[i];
        for (size_t k = i + 1; k < groupOrder_.size(); ++k) {
            const int b = groupOrder_[k];
            if (groupBounds_[size_t(b)].lower.x > groupBounds_[size_t(a)].upper.x) break;
            if (!overlaps(groupBounds_[size_t(a)], groupBounds_[size_t(b)])) continue;
            touchedReach_[size_t(a)] = std::max(touchedReach_[size_t(a)], groupReach_[size_t(b)]);
            touchedReach_[size_t(b)] = std::max(touchedReach_[size_t(b)], groupReach_[size_t(a)]);
        }
    }
    groupReach_.swap(touchedReach_);
}

void World::integrate(double h, int substepsLeft) {
    Vec2 gravity = def_.gravity;
    // Contact by contact, body by body, then contact by contact: each item writes only
    // itself (three tasks). A manifold found again is found where the last substep left
    // the bodies, apart: found after integration, a limb already halfway through a thin
    // wall took the far face's normal (the reliability soak) and was pushed out beyond it.
    if (substepsLeft < def_.substeps)
        runTask(def_.tasks, int(contacts_.size()), kItemsPerRange, [&](int begin, int end, int) {
            for (int i = begin; i < end; ++i) refreshMovingContact(contacts_[size_t(i)], h, substepsLeft);
        });
    runTask(def_.tasks, int(sims_.size()), kItemsPerRange, [&](int begin, int end, int) {
    for (int i = begin; i < end; ++i) {
        BodySim& s = sims_[size_t(i)];
        if (!s.active) continue;
        s.prevCenter = s.center;
        s.prevAngle = s.angle;
        if (s.dynamic) {
            s.linearVelocity += (h * s.gravityScale) * gravity;
            // Implicit damping: stable for any damping × h (Box2D's form).
            s.linearVelocity *= 1.0 / (1.0 + h * s.linearDamping);
            s.angularVelocity *= 1.0 / (1.0 + h * s.angularDamping);
        }
        s.center += h * s.linearVelocity;
        s.angle += h * s.angularVelocity;
        // Turned as every correction turns it (the step makes q and the angle one again at
        // its end); cos and sin of the angle here were 3% of the SCENES pile's step.
        s.q = integrateRotation(s.q, h * s.angularVelocity);
    }
    });
    runTask(def_.tasks, int(contacts_.size()), kItemsPerRange, [&](int begin, int end, int) {
        for (int i = begin; i < end; ++i) {
            Contact& c = contacts_[size_t(i)];
            prepareContactSubstep(c, sims_[size_t(c.bodyA)], sims_[size_t(c.bodyB)], h);
        }
    });
}

double World::contactReach(int a, int b, double closing) const {
    const Body& ba = bodies_[size_t(a)];
    const Body& bb = bodies_[size_t(b)];
    // A static body is met as far off as the other's joint group can carry it.
    if (ba.type == BodyType::Static) closing = std::max(closing, bb.terrainReach);
    if (bb.type == BodyType::Static) closing = std::max(closing, ba.terrainReach);
    return kSpeculativeDistance + closing;
}

void World::refreshMovingContact(Contact& c, double h, int substepsLeft) {
    // The manifold's anchors are the closest features when the step began. Bodies whose
    // surfaces sweep more than kContactRefreshTravel past each other in a substep, turning
    // (a far end) or sliding (along the normal's tangent), bring other features together: a
    // forearm at 25 rad/s, by a ramp's corner when the step began, ended it 10 mm into the
    // ramp, while its contact, measured at the anchors found at the start, read 2 mm; a
    // running doll's head, falling past a stair's edge at 4.6 m/s, went 10.3 mm into the
    // stair. Such a manifold is found again where the bodies are now, before the substep
    // moves them.
    const BodySim& sa = sims_[size_t(c.bodyA)];
    const BodySim& sb = sims_[size_t(c.bodyB)];
    // The extents kept in the contact: read from the cold Body records, every contact every
    // substep, this test was a twentieth of the N=1000 pile's step.
    const double turn = farEndSpeed(sa, c.extentA) + farEndSpeed(sb, c.extentB);
    const Vec2 relative = sb.linearVelocity - sa.linearVelocity;
    const double slide = std::abs(cross(relative, c.normal));  // along the tangent
    if ((turn + slide) * h <= kContactRefreshTravel || (!sa.active && !sb.active)) return;
    const Body& a = bodies_[size_t(c.bodyA)];
    const Body& b = bodies_[size_t(c.bodyB)];
    const ContactPoint before[2] = {c.points[0], c.points[1]};
    const int beforeCount = c.pointCount;
    const double closing = (length(relative) + turn) * h * substepsLeft;
    updateContact(c, a, sa, b, sb, contactReach(c.bodyA, c.bodyB, closing));
    // A point kept (the same features) keeps its tree's warm start; a new one starts cold.
    for (int k = 0; k < c.pointCount; ++k) {
        c.points[k].lambdaWarm = 0.0;
        for (int m = 0; m < beforeCount; ++m)
            if (before[m].id == c.points[k].id) c.points[k].lambdaWarm = before[m].lambdaWarm;
    }
}

void World::adoptProps() {
    // A prop an awake tree touches is moved by the tree's contact system, and its contacts
    // with the terrain are solved there too, in the same system: solved body by body before
    // it, they held the prop only against its own slip, and a figure leaning on a crate slid
    // it along at 1–4 cm/s against friction that holds it several times over. The first
    // tree to touch a prop (in contact order) takes it.
    bool any = false;
    for (const Contact& c : contacts_) {
        // Most are a limb and the terrain: refused on the hot records alone.
        if (c.treeGroup < 0 || !sims_[size_t(c.bodyA)].dynamic || !sims_[size_t(c.bodyB)].dynamic) continue;
        const bool treeIsA = bodies_[size_t(c.bodyA)].jointGroup == c.treeGroup;
        const int tree = treeIsA ? c.bodyA : c.bodyB, prop = treeIsA ? c.bodyB : c.bodyA;
        if (!sims_[size_t(tree)].active || !sims_[size_t(prop)].active) continue;
        if (!any) propGroup_.assign(bodies_.size(), -1);  // a scene without props never needs it
        if (propGroup_[size_t(prop)] < 0) propGroup_[size_t(prop)] = c.treeGroup;
        any = true;
    }
    // Then what those props rest on: the terrain, and the props under them, whose contacts
    // join in turn (a stack of crates the figure leans on), down to kPropDepth props from
    // the tree. Only down: a plank the figure's crate rests on brings its own ground, not
    // every other crate on it.
    const Vec2 up = -normalize(def_.gravity);
    for (int depth = 0; any && depth < kPropDepth; ++depth) {
        any = false;
        for (Contact& c : contacts_) {
            if (!c.loose) continue;
            // From the adopted side (A first, then B): the terrain, or a prop under it.
            for (int side = 0; side < 2 && c.treeGroup < 0; ++side) {
                const int self = side == 0 ? c.bodyA : c.bodyB, other = side == 0 ? c.bodyB : c.bodyA;
                const int group = propGroup_[size_t(self)];
                if (group < 0) continue;
                if (!sims_[size_t(other)].dynamic) {
                    c.treeGroup = group;
                    break;
                }
                // The normal points from A to B: up at `self` from a prop under it, which no
                // other tree has taken (a plank under many crates stays with the first).
                const double under = side == 0 ? -dot(c.normal, up) : dot(c.normal, up);
                if (!sims_[size_t(other)].active || under < kPropUnder || depth + 1 >= kPropDepth ||
                    (propGroup_[size_t(other)] >= 0 && propGroup_[size_t(other)] != group))
                    continue;
                c.treeGroup = group;
                if (propGroup_[size_t(other)] < 0) {
                    propGroup_[size_t(other)] = group;
                    any = true;
                }
            }
        }
    }
}

bool World::solvedByTree(const Contact& c) const {
    if (c.treeGroup < 0) return false;
    // A loose contact was given to a tree that is awake (adoptProps). Else a sleeping tree
    // does not solve: then the awake body it touches is pushed alone.
    if (c.loose) return true;
    const int treeBody = bodies_[size_t(c.bodyA)].jointGroup == c.treeGroup ? c.bodyA : c.bodyB;
    return sims_[size_t(treeBody)].active;
}

void World::laneBodyContacts() {
    // Which body moves, and which tree solves, holds for the whole step: nothing wakes or
    // sleeps between its substeps. Each contact is classed as a task (that reads the
    // bodies), then listed in order here.
    bodyContactKind_.resize(contacts_.size());
    const bool direct = def_.jointSolver == JointSolver::Direct;
    runTask(def_.tasks, int(contacts_.size()), kItemsPerRange, [&](int begin, int end, int) {
        for (int ci = begin; ci < end; ++ci) {
            const Contact& c = contacts_[size_t(ci)];
            const BodySim& a = sims_[size_t(c.bodyA)];
            const BodySim& b = sims_[size_t(c.bodyB)];
            const bool byTree = solvedByTree(c);
            const bool byBody = (a.active || b.active) && !byTree;
            // 3: a tree's contact with a static body, where it may hold the tree's body.
            const bool terrain = direct && byTree && !c.loose && (!a.dynamic || !b.dynamic);
            bodyContactKind_[size_t(ci)] = byBody ? (c.loose ? 2 : 1) : terrain ? 3 : 0;
        }
    });
    bodyContacts_.clear();
    propContacts_.clear();
    terrainContacts_.clear();
    heldBy_.clear();
    bool movingPairs = false;
    auto holdWith = [&](int ci, int body) {
        terrainContacts_.push_back(ci);
        heldBy_.push_back(body);
    };
    for (int ci = 0; ci < int(contacts_.size()); ++ci) {
        const std::uint8_t kind = bodyContactKind_[size_t(ci)];
        if (kind == 0) continue;
        const Contact& c = contacts_[size_t(ci)];
        const int dynamicSide = sims_[size_t(c.bodyA)].dynamic ? c.bodyA : c.bodyB;
        if (kind == 3) {
            holdWith(ci, dynamicSide);
            continue;
        }
        bodyContacts_.push_back(ci);
        if (kind == 2) propContacts_.push_back(ci);
        const bool bothMove = sims_[size_t(c.bodyA)].dynamic && sims_[size_t(c.bodyB)].dynamic;
        movingPairs = movingPairs || bothMove;
        // A prop on the terrain is held by it too, against the bodies it meets (its contact
        // with the terrain itself is solved here, body by body, as before).
        if (kind == 2 && !bothMove) holdWith(ci, dynamicSide);
    }
    contactLanes_.build(bodyContacts_, contacts_, sims_, def_.tasks);
    // Holds matter only where a held body meets another moving body in the passes body by body.
    if (!movingPairs) {
        terrainContacts_.clear();
        heldBy_.clear();
    }
    holdStackedProps();
    if (holdOf_.size() < bodies_.size()) holdOf_.resize(bodies_.size(), -1);
    resizeWithHeadroom(terrainPoints_, 2 * terrainContacts_.size());
}

void World::holdStackedProps() {
    if (terrainContacts_.empty() || propContacts_.empty()) return;
    // A prop resting on a held prop (the contact's normal within acos(kPropUnder) of straight
    // up into it) is held by it in turn, layer by layer up a stack: the held prop under it
    // gives way to a push from above only along its own support, so the prop above rests on
    // it as on the terrain. Held only by the terrain, the middle crate of three was pressed
    // into the bottom one by a crate 100 times its mass, and both sank through.
    heldProp_.assign(bodies_.size(), 0);
    for (int body : heldBy_) heldProp_[size_t(body)] = 1;
    const Vec2 up = -normalize(def_.gravity);
    for (int layer = 1; layer < kHeldPropLayers; ++layer) {
        bool any = false;
        for (int ci : propContacts_) {
            const Contact& c = contacts_[size_t(ci)];
            if (!sims_[size_t(c.bodyA)].dynamic || !sims_[size_t(c.bodyB)].dynamic) continue;
            // The normal points from A to B: B rests on A when it points up.
            const bool bOnA = dot(c.normal, up) >= kPropUnder, aOnB = -dot(c.normal, up) >= kPropUnder;
            const int upper = bOnA ? c.bodyB : aOnB ? c.bodyA : -1, lower = bOnA ? c.bodyA : c.bodyB;
            if (upper < 0 || heldProp_[size_t(lower)] != layer || heldProp_[size_t(upper)] != 0) continue;
            terrainContacts_.push_back(ci);
            heldBy_.push_back(upper);
            any = true;
        }
        if (!any) break;
        for (size_t t = 0; t < heldBy_.size(); ++t)
            if (heldProp_[size_t(heldBy_[t])] == 0) heldProp_[size_t(heldBy_[t])] = std::uint8_t(layer + 1);
    }
}

void World::holdOnTerrain() {
    for (int body : heldBodies_) holdOf_[size_t(body)] = -1;
    heldBodies_.clear();
    terrainHolds_.clear();
    // Each contact's points where the bodies are now (a task), then each body's two nearest,
    // in contact order (here).
    runTask(def_.tasks, int(terrainContacts_.size()), kItemsPerRange, [&](int begin, int end, int) {
        for (int t = begin; t < end; ++t) {
            const Contact& c = contacts_[size_t(terrainContacts_[size_t(t)])];
            const BodySim& a = sims_[size_t(c.bodyA)];
            const BodySim& b = sims_[size_t(c.bodyB)];
            const bool heldIsA = heldBy_[size_t(t)] == c.bodyA;  // the other is static, or a held prop under it
            for (int i = 0; i < 2; ++i) {
                TerrainPoint& point = terrainPoints_[size_t(2 * t + i)];
                point.support = heldIsA ? c.bodyB : c.bodyA;
                if (i >= c.pointCount) {
                    point.gap = kInfinity;
                    continue;
                }
                ContactPoint p = c.points[i];  // measured on a copy: the point's record is the tree's
                point.gap = measureSeparation(c, p, a, b) + p.allowedDepth;
                point.normal = heldIsA ? -1.0 * c.normal : c.normal;
                point.arm = contactLocation(c, p, a, b) - (heldIsA ? a : b).center;
            }
        }
    });
    for (int t = 0; t < int(terrainContacts_.size()); ++t) {
        const Contact& c = contacts_[size_t(terrainContacts_[size_t(t)])];
        const int body = heldBy_[size_t(t)];
        for (int i = 0; i < c.pointCount; ++i) {
            const TerrainPoint& point = terrainPoints_[size_t(2 * t + i)];
            if (holdOf_[size_t(body)] < 0) {
                holdOf_[size_t(body)] = int(terrainHolds_.size());
                heldBodies_.push_back(body);
                TerrainHold& hold = terrainHolds_.emplace_back();
                hold.center = sims_[size_t(body)].center;
                hold.angle = sims_[size_t(body)].angle;
            }
            TerrainHold& hold = terrainHolds_[size_t(holdOf_[size_t(body)])];
            // The two nearest: a third replaces the further if it is nearer.
            int slot = hold.count;
            if (slot == 2) {
                slot = hold.points[0].gap > hold.points[1].gap ? 0 : 1;
                if (point.gap >= hold.points[slot].gap) continue;
            } else {
                ++hold.count;
            }
            hold.points[slot] = point;
        }
    }
}

const TerrainHold* World::terrainHold(int body) const {
    if (terrainHolds_.empty()) return nullptr;
    const int entry = holdOf_[size_t(body)];
    return entry >= 0 ? &terrainHolds_[size_t(entry)] : nullptr;
}

void World::solvePositions(double h) {
    bool direct = def_.jointSolver == JointSolver::Direct;
    runTask(def_.tasks, int(joints_.size()), kItemsPerRange, [&](int begin, int end, int) {
        for (int i = begin; i < end; ++i) {
            Joint& j = joints_[size_t(i)];
            j.lambdaPin = {};
            j.lambdaLimit = 0.0;
            j.lambdaFriction = 0.0;
        }
    });
    auto gaussSeidel = [&](Joint& j) {
        BodySim& a = sims_[size_t(j.bodyA)];
        BodySim& b = sims_[size_t(j.bodyB)];
        if (a.active || b.active) solveJointGaussSeidel(j, a, b, h);
    };
    StepProfile& profile = counters_.profile;
    holdOnTerrain();
    // Each iteration sweeps the contacts body by body and then solves the joints. The
    // pass body by body pushes a limb out of another ragdoll on the limb's own mass, and
    // the tree's solve after it pulls the limb part of the way back in (the push spreads
    // over the whole ragdoll): the next iteration pushes again from there, so ragdolls
    // sink less into one another with each (WorldDef::iterations has the figures).
    for (int iteration = 0; iteration < def_.iterations; ++iteration) {
        contactLanes_.sweep(def_.tasks, [&](int ci) {
            Contact& c = contacts_[size_t(ci)];
            solveContactPositions(c, sims_[size_t(c.bodyA)], sims_[size_t(c.bodyB)], terrainHold(c.bodyA), terrainHold(c.bodyB));
        });
        lap(profile.bodyContacts);
        if (direct) {
            for (int ji : treeSolver_.looseJoints()) gaussSeidel(joints_[size_t(ji)]);
        } else {
            for (Joint& j : joints_)
                if (j.alive) gaussSeidel(j);
        }
        lap(profile.jointTrees);
        // The props' contacts again, on this thread (a level's props are few).
        for (int sweep = 1; sweep < kPropContactSweeps; ++sweep)
            for (int ci : propContacts_) {
                Contact& c = contacts_[size_t(ci)];
                solveContactPositions(c, sims_[size_t(c.bodyA)], sims_[size_t(c.bodyB)], terrainHold(c.bodyA),
                                      terrainHold(c.bodyB));
            }
        lap(profile.bodyContacts);
        if (direct) {
            treeSolver_.solve(sims_, joints_, iteration == 0 ? TreeSolver::Pass::First : TreeSolver::Pass::Every);
            counters_.newtonIterations += treeSolver_.lastIterations();
            lap(profile.jointTrees);
        }
    }
    if (direct) {
        treeSolver_.solveFreeMotion(bodies_, sims_, joints_, contacts_, h);
        lap(profile.treeContacts);
        // Again for the second-order joint error the free motion left, and for a tree the
        // first solve left at its cap: a hit cut-out puppet, flying free, kept its neck 2.6°
        // past its limit for a step when only the free motion's trees were solved again.
        if (treeSolver_.anyUnsettled()) {
            treeSolver_.solve(sims_, joints_, TreeSolver::Pass::Unsettled);
            counters_.newtonIterations += treeSolver_.lastIterations();
        }
        lap(profile.jointTrees);
    }
}

void World::updateVelocities(double h) {
    double inv = 1.0 / h;
    counters_.clampedVelocities += countOver<1>(def_.tasks, int(sims_.size()), [&](int i, std::array<int, 1>& clamped) {
        BodySim& s = sims_[size_t(i)];
        if (!s.active || !s.dynamic) return;
        s.linearVelocity = inv * (s.center - s.prevCenter);
        s.angularVelocity = inv * (s.angle - s.prevAngle);
        // The limits hold within the step too: a projection that moves a body far in one
        // substep (a joint closing on a limb torn off by a teleport, a light limb crushed
        // between heavy bodies) must not become a velocity that carries it on through the
        // rest of the step, past contacts found for the step's starting speeds.
        clamped[0] += clampVelocity(s);
    })[0];
}

void World::solveVelocities(double h) {
    double threshold = kRestitutionThresholdFactor * length(def_.gravity) * h;
    StepProfile& profile = counters_.profile;
    // A prop's hold is for the position pass only: its contact with the terrain is in this
    // sweep too and takes back what a push on its free mass drives into the terrain. Held
    // here as well, a crate under one 10,000 times its mass was thrown out from under it.
    auto treeHold = [&](int body) { return bodies_[size_t(body)].jointGroup >= 0 ? terrainHold(body) : nullptr; };
    contactLanes_.sweep(def_.tasks, [&](int ci) {
        Contact& c = contacts_[size_t(ci)];
        solveContactVelocities(c, sims_[size_t(c.bodyA)], sims_[size_t(c.bodyB)], h, threshold, treeHold(c.bodyA),
                               treeHold(c.bodyB));
    });
    lap(profile.bodyContacts);
    auto limitAndDamping = [&](Joint& j, bool damping) {
        BodySim& a = sims_[size_t(j.bodyA)];
        BodySim& b = sims_[size_t(j.bodyB)];
        if (!a.active && !b.active) return;
        solveLimitVelocity(j, a, b);
        if (damping) applyJointDampingAndFriction(j, a, b, h);
    };
    if (def_.jointSolver == JointSolver::Direct) {
        treeSolver_.solveContactVelocities(bodies_, sims_, joints_, contacts_, h, threshold);
        lap(profile.treeContacts);
        // A tree's limits, unless its contact system held them; its damping went through
        // the tree (TreeSolver). Trees share no body that moves, so they run as a task; the
        // joints in no tree (Gauss-Seidel's) after them, limits and damping.
        runTask(def_.tasks, treeSolver_.groupCount(), kTreesPerRange, [&](int begin, int end, int) {
            for (int g = begin; g < end; ++g)
                if (!treeSolver_.solvesLimits(g))
                    for (int ji : treeSolver_.groupJoints(g)) limitAndDamping(joints_[size_t(ji)], false);
        });
        for (int ji : treeSolver_.looseJoints()) limitAndDamping(joints_[size_t(ji)], true);
    } else {
        for (Joint& j : joints_)
            if (j.alive) limitAndDamping(j, true);
    }
    // The velocity pass exchanges momentum, but through a tree whose factorisation is a
    // substep's push old it can hand a 0.08 kg limb of an 80 kg ragdoll more than it took
    // (the reliability soak, 1:1000 masses: a limb 4× past the clamp's energy at a step's
    // end), so the speeds are held to the clamp here too.
    clampVelocities(true);
    lap(profile.velocities);
}

void World::updateSleep(double dt) {
    if (!def_.enableSleep) return;
    size_t n = bodies_.size();
    islandFlags_.resize(n);
    const int ready = countOver<1>(def_.tasks, int(n), [&](int i, std::array<int, 1>& count) {
        const BodySim& s = sims_[size_t(i)];
        islandFlags_[size_t(i)] = 0;
        if (!s.active) return;
        Body& b = bodies_[size_t(i)];
        const double speed = length(s.linearVelocity) + std::abs(s.angularVelocity) * b.extent;
        b.sleepTime = speed < kSleepSpeed ? b.sleepTime + (speed < kStillSpeed ? 2.0 * dt : dt) : 0.0;
        if (b.sleepTime < kTimeToSleep) return;
        islandFlags_[size_t(i)] = kIslandReady;
        ++count[0];
    })[0];
    // An island sleeps when its slowest body has been slow long enough: with no body that
    // has, none does (the islands below were a fortieth of the N=1000 pile's step, falling).
    if (ready == 0) return;
    // So only the ready bodies are joined into islands; one linked to an awake body that is
    // not ready keeps its island awake. Joining every body over every link, on one thread,
    // was a tenth of what the N=1000 pile's step left unshared on two.
    islandParent_.resize(n);
    std::iota(islandParent_.begin(), islandParent_.end(), 0);
    auto link = [&](int a, int b) {
        std::uint8_t &fa = islandFlags_[size_t(a)], &fb = islandFlags_[size_t(b)];
        // A link does something only when one of its bodies is ready, which most are not:
        // refused on the flags, a byte each, before the bodies' records are read.
        if (!((fa | fb) & kIslandReady) || !sims_[size_t(a)].active || !sims_[size_t(b)].active) return;
        if ((fa & kIslandReady) && (fb & kIslandReady)) {
            int ra = findRoot(islandParent_, a), rb = findRoot(islandParent_, b);
            if (ra != rb) islandParent_[size_t(std::max(ra, rb))] = std::min(ra, rb);
        } else if (fa & kIslandReady) {
            fa |= kIslandLinkedToBusy;
        } else if (fb & kIslandReady) {
            fb |= kIslandLinkedToBusy;
        }
    };
    for (const Joint& j : joints_)
        if (j.alive) link(j.bodyA, j.bodyB);
    // Every contact, touching or not yet: an awake body with a contact to a sleeping one
    // wakes it (updateContacts), so bodies that near each other must sleep together. With
    // only the touching contacts as links, two still bodies a few millimetres apart took
    // turns: each fell asleep and the other, still awake, woke it at once.
    for (const Contact& c : contacts_) {
        if (c.pointCount == 0) continue;
        link(c.bodyA, c.bodyB);
        // A body still being pushed out of a deep overlap (a prop placed in the ground) moves
        // at no speed the sleep test above sees: the velocity pass takes back the speed a
        // push-out gives. Its island stays awake until it is out (it slept 0.1 m in the ground).
        // Looked at only for a body ready to sleep, as link does: most contacts have none.
        if (!((islandFlags_[size_t(c.bodyA)] | islandFlags_[size_t(c.bodyB)]) & kIslandReady)) continue;
        const double deepest = c.pointCount == 1 ? c.points[0].separation : std::min(c.points[0].separation, c.points[1].separation);
        if (deepest >= -kDeepOverlap) continue;
        for (const int body : {c.bodyA, c.bodyB})
            if (islandFlags_[size_t(body)] & kIslandReady) islandFlags_[size_t(body)] |= kIslandLinkedToBusy;
    }

    for (size_t i = 0; i < n; ++i)
        if (islandFlags_[i] & kIslandLinkedToBusy) islandFlags_[size_t(findRoot(islandParent_, int(i)))] |= kIslandBusy;
    int highestRoot = -1;
    for (size_t i = 0; i < n; ++i) {
        if (!(islandFlags_[i] & kIslandReady)) continue;
        const int root = findRoot(islandParent_, int(i));  // the island's lowest slot
        if (islandFlags_[size_t(root)] & kIslandBusy) continue;
        // Island ids must outlive slot reuse, so they come from a counter, offset by the root.
        Body& b = bodies_[i];
        BodySim& s = sims_[i];
        b.awake = false;
        b.sleepingIsland = nextSleepingIsland_ + root;
        highestRoot = std::max(highestRoot, root);
        s.linearVelocity = {};
        s.angularVelocity = 0.0;
        s.active = false;
    }
    // Past the ids just given: by the highest root, not the slot count, which remembers bodies
    // long gone (a mouse grab's anchor) that a restored world never had.
    nextSleepingIsland_ += std::int64_t(highestRoot) + 1;
}

void World::recoverBodies(bool stepStart) {
    // Body by body as a task, counting [recovered, frozen].
    const std::array<int, 2> counts = countOver<2>(def_.tasks, int(bodies_.size()), [&](int i, std::array<int, 2>& count) {
        BodySim& s = sims_[size_t(i)];
        Body& b = bodies_[size_t(i)];
        // Sleeping bodies too: one corrupted while asleep would spread its NaN when woken.
        if (!b.alive || b.type == BodyType::Static) return;
        bool finiteState = isFinite(s.center) && std::isfinite(s.angle) && isFinite(s.linearVelocity) &&
                           std::isfinite(s.angularVelocity);
        if (!finiteState || b.recovering) {
            // Back to the last good pose, at rest: the world keeps stepping. A body found at
            // the start takes part in the step from there (others meet it, not its NaN) and
            // is put back once more at the end, so either way the step ends with it at rest
            // where it was last good, counted once.
            s.center = s.prevCenter = b.lastGoodCenter;
            s.angle = s.prevAngle = b.lastGoodAngle;
            s.q = makeRot(s.angle);
            s.linearVelocity = {};
            s.angularVelocity = 0.0;
            if (!b.recovering) ++count[0];
            b.recovering = stepStart;
        }
        if (stepStart) return;
        // A body that fell asleep in this step (updateSleep ran first) moved in it too: its
        // last good pose is where it now sleeps, or a later recovery would move it back.
        if (s.active && (std::abs(s.center.x) > def_.worldHalfExtent || std::abs(s.center.y) > def_.worldHalfExtent)) {
            b.frozen = true;
            s.linearVelocity = {};
            s.angularVelocity = 0.0;
            s.active = false;
            ++count[1];
        }
        b.lastGoodCenter = s.center;
        b.lastGoodAngle = s.angle;
    });
    counters_.recoveredBodies += counts[0];
    counters_.frozenBodies += counts[1];
}

}  // namespace ragdoll
