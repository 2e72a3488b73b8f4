// Contacts between two bodies, solved the XPBD way (Müller et al. 2020, §3.5–3.6).
//
// The manifold is found once per step; each point keeps its anchor on both bodies' core
// shapes (circle centre, capsule segment, polygon surface) in the bodies' frames, so every
// substep measures the current separation
//   C = (p_b − p_a)·n − (radius_a + radius_b),  p = c + R(θ)·r,  C ≥ −allowedDepth,
// with λ_n ≥ 0 accumulated per substep; a two-point manifold is one 2×2 block. Anchoring on
// the core rather than on the rounded surface matters: a surface point of a rolling circle
// turns away from the ground within a step, and pushing on it there spins the circle up.
// Static friction is a positional constraint at the manifold's centre cancelling the
// tangential slip integration gave the contact, bounded by μ·Σλ_n (contact_solver.cpp says
// why this differs from the paper). The velocity pass then applies dynamic friction (an
// impulse bounded by μ·Σλ_n/h) and restitution (against the normal speed before the
// position solve, off below 2·|g|·h).
// Points still apart at the start of the step are speculative: they act only once the
// bodies actually meet, which is what keeps fast limbs from tunnelling.
#pragma once

#include <cstdint>

#include "solver/body.h"
#include "solver/collide.h"
#include "solver/constants.h"

namespace ragdoll {

struct ContactPoint {
    Vec2 localAnchorA;  ///< on A's core shape, from A's centre of mass, in A's frame
    Vec2 localAnchorB;
    double lambdaNormal = 0.0;   ///< accumulated this substep
    double lambdaWarm = 0.0;     ///< a joint tree's last substep's λ_n here (its warm start)
    double normalSpeedBefore = 0.0;  ///< relative normal velocity at the substep start, m/s
    double separation = 0.0;     ///< latest measured, metres
    /// Overlap the position solve leaves this substep (metres): kAllowedPenetration, or what
    /// is left of the overlap the manifold was found with, less kMaxPushOutSpeed·h a substep.
    double allowedDepth = kAllowedPenetration;
    std::uint32_t id = 0;
};

struct Contact {
    int bodyA = -1, bodyB = -1;
    Vec2 normal;  ///< world, from A to B, fixed for the step
    ContactPoint points[2];
    int pointCount = 0;
    double radiusA = 0.0, radiusB = 0.0;  ///< the shapes' rounding radii (0 for polygons)
    double extentA = 0.0, extentB = 0.0;  ///< the bodies' Body::extent (read every substep)
    double lambdaTangent = 0.0;  ///< friction multiplier this substep, signed along perp(normal)
    double lambdaTangentWarm = 0.0;  ///< a joint tree's last substep's λ_t (its warm start)
    Vec2 frictionCenter;         ///< world point where friction acts this substep
    double slip = 0.0;           ///< tangential motion integration gave B relative to A this substep, m
    double friction = 0.6;
    double restitution = 0.0;
    /// The direct joint tree that solves this contact (one body in a tree, the other in
    /// none: terrain, a prop; or, for a `loose` contact, a prop the tree touches and what it
    /// rests on: World::adoptProps), or -1 for the body-by-body passes. Set once per step.
    int treeGroup = -1;
    /// Neither body is in a joint tree (props on the terrain and on each other).
    bool loose = false;
};

/// The manifold of two bodies' shapes within reach (no points: none).
Manifold collideBodies(const Body& a, const BodySim& simA, const Body& b, const BodySim& simB, double speculativeDistance);
/// The contact's points, normal and material from a manifold of its bodies; its
/// multipliers this substep reset.
void setManifold(Contact& contact, const Manifold& m, const Body& a, const BodySim& simA, const Body& b, const BodySim& simB);
/// Both: false when there is no manifold within reach.
bool updateContact(Contact& contact, const Body& a, const BodySim& simA, const Body& b, const BodySim& simB,
                   double speculativeDistance);

/// A joint tree's body or a prop by the terrain, as the passes body by body see it: its two
/// nearest points with static bodies (for a prop in a stack, with the held prop under it),
/// found each substep (World::holdOnTerrain). A push from another moving body that would
/// drive one of them past the terrain moves the body as if the terrain held it there (its inverse mass with those points' rows projected out, while the
/// terrain would push: contact_solver.cpp). Solved on its own mass, a light limb lying under
/// another ragdoll took nearly all of each push and went into the ground, its tree's
/// contact system putting it back after, and the other ragdoll sank through it.
struct TerrainPoint {
    Vec2 normal;  ///< from the terrain into the body
    Vec2 arm;     ///< from the body's centre of mass to the point
    double gap = 0.0;  ///< separation beyond the allowed depth (kAllowedPenetration), metres
    int support = -1;  ///< the body it rests on: static, or a held prop under it
};
struct TerrainHold {
    int count = 0;
    TerrainPoint points[2];
    Vec2 center;  ///< the body's pose when the hold was made
    double angle = 0.0;
};

/// After integration: resets multipliers, records approach speeds and the slip to cancel.
void prepareContactSubstep(Contact& contact, const BodySim& a, const BodySim& b, double h);
/// holdA, holdB: the bodies' holds on the terrain (at least one point each), or null.
void solveContactPositions(Contact& contact, BodySim& a, BodySim& b, const TerrainHold* holdA = nullptr,
                           const TerrainHold* holdB = nullptr);
void solveContactVelocities(Contact& contact, BodySim& a, BodySim& b, double h, double restitutionThreshold,
                            const TerrainHold* holdA = nullptr, const TerrainHold* holdB = nullptr);

/// Where the two surfaces meet now (the point both bodies are pushed at).
Vec2 contactLocation(const Contact& contact, const ContactPoint& p, const BodySim& a, const BodySim& b);
/// The point's separation now (also stored in p.separation), metres.
double measureSeparation(const Contact& contact, ContactPoint& p, const BodySim& a, const BodySim& b);

}  // namespace ragdoll
