// Pin joints with an optional angular limit.
//
// Pin: C = p_b − p_a ∈ R², p = c + R(θ)·r (r from the centre of mass), solved as one 2×2
// block (NOTES.md, "Pin joints": the one-row form along the separation is worse when swinging).
//   ∂C/∂c_a = −I, ∂C/∂θ_a = −perp(R_a r_a), ∂C/∂c_b = I, ∂C/∂θ_b = perp(R_b r_b).
// Limit: φ = wrap(θ_b − θ_a − θ_ref − centre), centre and half-width of [lower, upper]
//   stored so ranges across ±π work; C = φ − half ≤ 0 above, C = φ + half ≥ 0 below.
//   ∂C/∂θ_a = −1, ∂C/∂θ_b = 1.
// Stiffness k < 1 is XPBD compliance α̃ = K·(1 − k)/k, with K = J·M⁻¹·Jᵀ the pin's 2×2
// effective inverse mass: then (K + α̃)·Δλ = −C gives J·Δq = −k·C, so a solve removes
// exactly the fraction k of the error in every direction, and further iterations change
// nothing for an isolated joint: the result does not depend on the iteration count
// (Macklin et al. 2016, XPBD). k is per substep, so softness depends on the substep
// count, as PBD's does. PBD's k' = 1 − (1 − k)^(1/n) was rejected: it needs the iteration
// count and has no meaning in the direct solver. Limits are always rigid.
#pragma once

#include <cstdint>

#include "solver/body.h"

namespace ragdoll {

struct Joint {
    int bodyA = -1, bodyB = -1;  ///< body slots
    Vec2 localAnchorA, localAnchorB;  ///< from each body's centre of mass, in its frame
    double referenceAngle = 0.0;
    bool enableLimit = false;
    double limitCenter = 0.0, limitHalfWidth = 0.0;  ///< radians
    double lowerAngle = 0.0, upperAngle = 0.0;       ///< as given, for queries
    double stiffness = 1.0;
    double angularDamping = 0.0;
    double frictionTorque = 0.0;  ///< N·m
    bool collideConnected = false;

    int nextA = -1, nextB = -1;  ///< next joint in bodyA's / bodyB's joint list
    int group = -1;              ///< direct-solve group, -1 = Gauss-Seidel
    Vec2 lambdaPin;              ///< accumulated pin multiplier this substep (XPBD)
    double lambdaLimit = 0.0;    ///< accumulated limit multiplier this substep
    double lambdaFriction = 0.0;  ///< accumulated friction multiplier this substep (Gauss-Seidel)
    /// A joint tree's limit row's λ in the substep limitWarmSubstep (its next substep's warm
    /// start when that was the last one). Kept with the joint, not the tree solver, so a tree
    /// rebuilt for another character's joints keeps it and a saved state can carry it.
    double limitWarm = 0.0;
    std::int64_t limitWarmSubstep = -1;

    std::uint16_t generation = 0;
    bool alive = false;
};

/// Angle B − angle A − reference − limit centre, wrapped to (−π, π].
double jointLimitOffset(const Joint& joint, const BodySim& a, const BodySim& b);
/// The limit's C (0 when inside the range or without a limit).
double jointLimitError(const Joint& joint, const BodySim& a, const BodySim& b);
/// The joint resists its bodies' relative turn (damping or friction).
inline bool resistsTurning(const Joint& joint) { return joint.angularDamping > 0.0 || joint.frictionTorque > 0.0; }
/// Anchor separation |p_b − p_a| in metres.
double jointSeparation(const Joint& joint, const BodySim& a, const BodySim& b);

/// One Gauss-Seidel pass over a joint: pin block, the limit, then the friction. h is the substep.
void solveJointGaussSeidel(Joint& joint, BodySim& a, BodySim& b, double h);
/// Velocity pass of a limit that acted this substep: no relative speed past the bound.
void solveLimitVelocity(const Joint& joint, BodySim& a, BodySim& b);
/// Relative angular velocity damping in the velocity pass, and the joint friction's hold
/// on the relative turn rate with what its position row left of its budget.
void applyJointDampingAndFriction(const Joint& joint, BodySim& a, BodySim& b, double h);
/// (1 − k)/k: α̃ = scale·K (0 when rigid).
double complianceScale(double stiffness);
/// The pin's K = J·M⁻¹·Jᵀ as {k11, k12, k22}, for world lever arms ra, rb.
void pinEffectiveMass(const BodySim& a, Vec2 ra, const BodySim& b, Vec2 rb, double k[3]);

}  // namespace ragdoll
