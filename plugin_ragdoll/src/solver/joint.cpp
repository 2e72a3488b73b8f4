#include "solver/joint.h"

#include <algorithm>
#include <cmath>

namespace ragdoll {

double jointLimitOffset(const Joint& joint, const BodySim& a, const BodySim& b) {
    return wrapAngle(b.angle - a.angle - joint.referenceAngle - joint.limitCenter);
}

double jointLimitError(const Joint& joint, const BodySim& a, const BodySim& b) {
    if (!joint.enableLimit) return 0.0;
    double offset = jointLimitOffset(joint, a, b);
    if (offset > joint.limitHalfWidth) return offset - joint.limitHalfWidth;
    if (offset < -joint.limitHalfWidth) return offset + joint.limitHalfWidth;
    return 0.0;
}

double jointSeparation(const Joint& joint, const BodySim& a, const BodySim& b) {
    Vec2 pa = a.center + rotate(a.q, joint.localAnchorA);
    Vec2 pb = b.center + rotate(b.q, joint.localAnchorB);
    return distance(pa, pb);
}

double complianceScale(double stiffness) {
    if (stiffness >= 1.0) return 0.0;
    double k = std::max(stiffness, 1e-6);
    return (1.0 - k) / k;
}

void pinEffectiveMass(const BodySim& a, Vec2 ra, const BodySim& b, Vec2 rb, double k[3]) {
    Vec2 sa = perp(ra), sb = perp(rb);
    double m = a.invMass + b.invMass;
    k[0] = m + a.invInertia * sa.x * sa.x + b.invInertia * sb.x * sb.x;
    k[1] = a.invInertia * sa.x * sa.y + b.invInertia * sb.x * sb.y;
    k[2] = m + a.invInertia * sa.y * sa.y + b.invInertia * sb.y * sb.y;
}

static void applyAngle(BodySim& body, double delta) {
    body.angle += delta;
    body.q = integrateRotation(body.q, delta);
}

void solveJointGaussSeidel(Joint& joint, BodySim& a, BodySim& b, double h) {
    // Pin: one 2×2 block solve of (K + α̃)·Δλ = −C − α̃·λ with α̃ = scale·K (joint.h).
    Vec2 ra = rotate(a.q, joint.localAnchorA);
    Vec2 rb = rotate(b.q, joint.localAnchorB);
    Vec2 c = (b.center + rb) - (a.center + ra);
    Vec2 sa = perp(ra), sb = perp(rb);
    double k[3];
    pinEffectiveMass(a, ra, b, rb, k);
    double scale = complianceScale(joint.stiffness);
    Vec2 alphaLambda{scale * (k[0] * joint.lambdaPin.x + k[1] * joint.lambdaPin.y),
                     scale * (k[1] * joint.lambdaPin.x + k[2] * joint.lambdaPin.y)};
    double k11 = (1.0 + scale) * k[0], k12 = (1.0 + scale) * k[1], k22 = (1.0 + scale) * k[2];
    double det = k11 * k22 - k12 * k12;
    if (det > 0.0) {
        Vec2 rhs = -c - alphaLambda;
        Vec2 dl{(k22 * rhs.x - k12 * rhs.y) / det, (k11 * rhs.y - k12 * rhs.x) / det};
        joint.lambdaPin += dl;
        a.center -= a.invMass * dl;
        b.center += b.invMass * dl;
        applyAngle(a, -a.invInertia * dot(sa, dl));
        applyAngle(b, b.invInertia * dot(sb, dl));
    }

    const double w = a.invInertia + b.invInertia;
    if (w <= 0.0) return;
    if (double error = joint.enableLimit ? jointLimitError(joint, a, b) : 0.0; error != 0.0) {
        // One-sided: the accumulated multiplier may only push back into the range.
        double dl = -error / w;
        double total = joint.lambdaLimit + dl;
        total = error > 0.0 ? std::min(total, 0.0) : std::max(total, 0.0);
        dl = total - joint.lambdaLimit;
        joint.lambdaLimit = total;
        applyAngle(a, -a.invInertia * dl);
        applyAngle(b, b.invInertia * dl);
    }
    if (joint.frictionTorque > 0.0) {
        // Friction: take back this substep's relative turn, with at most τ·h² in all (a
        // position-level multiplier; at the velocity level the pin turned the swing back
        // into the limb and a forearm held by more than its weight's torque still fell).
        const double turned = (b.angle - b.prevAngle) - (a.angle - a.prevAngle);
        const double most = joint.frictionTorque * h * h;
        const double total = std::clamp(joint.lambdaFriction - turned / w, -most, most);
        const double dl = total - joint.lambdaFriction;
        joint.lambdaFriction = total;
        applyAngle(a, -a.invInertia * dl);
        applyAngle(b, b.invInertia * dl);
    }
}

void solveLimitVelocity(const Joint& joint, BodySim& a, BodySim& b) {
    // A limit that pushed this substep (λ ≠ 0) is a contact between the two bodies' angles:
    // like a contact's velocity pass, remove the relative angular velocity that still
    // heads past the bound (no bounce, no creeping in). Without this, the speed that the
    // position projection leaves behind makes a ragdoll resting on its limits shiver.
    if (!joint.enableLimit || joint.lambdaLimit == 0.0) return;
    double w = a.invInertia + b.invInertia;
    if (w <= 0.0) return;
    double relative = b.angularVelocity - a.angularVelocity;
    // λ < 0 held the upper bound (pushing the angle down), λ > 0 the lower.
    bool heading = joint.lambdaLimit < 0.0 ? relative > 0.0 : relative < 0.0;
    if (!heading) return;
    double impulse = -relative / w;
    // Not written where nothing turns: a tree's anchor may be another tree's (the trees'
    // limits run as a task).
    if (a.invInertia != 0.0) a.angularVelocity -= a.invInertia * impulse;
    if (b.invInertia != 0.0) b.angularVelocity += b.invInertia * impulse;
}

void applyJointDampingAndFriction(const Joint& joint, BodySim& a, BodySim& b, double h) {
    if (!resistsTurning(joint)) return;
    double w = a.invInertia + b.invInertia;
    if (w <= 0.0) return;
    if (joint.angularDamping > 0.0) {
        double relative = b.angularVelocity - a.angularVelocity;
        double impulse = -relative * std::min(h * joint.angularDamping, 1.0) / w;
        a.angularVelocity -= a.invInertia * impulse;
        b.angularVelocity += b.invInertia * impulse;
    }
    // The friction holds the relative turn rate with what its position row left of its
    // budget τ·h² (as the contacts' dynamic friction does).
    if (const double most = std::max(joint.frictionTorque * h * h - std::abs(joint.lambdaFriction), 0.0) / h; most > 0.0) {
        const double impulse = std::clamp(-(b.angularVelocity - a.angularVelocity) / w, -most, most);
        a.angularVelocity -= a.invInertia * impulse;
        b.angularVelocity += b.invInertia * impulse;
    }
}

}  // namespace ragdoll
