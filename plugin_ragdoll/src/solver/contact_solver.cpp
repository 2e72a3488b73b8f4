#include <algorithm>
#include <cmath>

#include "solver/constants.h"
#include "solver/contact.h"

namespace ragdoll {

namespace {

Circle asCircle(const Polygon& g) { return {g.vertices[0], g.radius}; }
Capsule asCapsule(const Polygon& g) { return {g.vertices[0], g.vertices[1], g.radius}; }

// A static or kinematic body takes nothing (its inverse mass is 0) and is not written:
// contacts in lanes that run at once may share it (ContactLanes).
void applyPositionImpulse(BodySim& body, Vec2 r, Vec2 impulse, double sign) {
    if (!body.dynamic) return;
    body.center += (sign * body.invMass) * impulse;
    double dAngle = sign * body.invInertia * cross(r, impulse);
    body.angle += dAngle;
    body.q = integrateRotation(body.q, dAngle);
}

void applyVelocityImpulse(BodySim& body, Vec2 r, Vec2 impulse, double sign) {
    if (!body.dynamic) return;
    body.linearVelocity += (sign * body.invMass) * impulse;
    body.angularVelocity += sign * body.invInertia * cross(r, impulse);
}

double effectiveInverseMass(const BodySim& a, Vec2 ra, const BodySim& b, Vec2 rb, Vec2 direction) {
    double ca = cross(ra, direction), cb = cross(rb, direction);
    return a.invMass + b.invMass + a.invInertia * ca * ca + b.invInertia * cb * cb;
}

/// Solves K·x = rhs for the two points of a manifold along direction n, where
/// K_ij = w_a + w_b + Iw_a·(r_ai × n)(r_aj × n) + Iw_b·(r_bi × n)(r_bj × n).
/// False when the rows are nearly parallel (points almost on top of each other).
bool solveBlock(const BodySim& a, const BodySim& b, const Vec2 ra[2], const Vec2 rb[2], Vec2 n, const double rhs[2],
                double x[2]) {
    double ca0 = cross(ra[0], n), ca1 = cross(ra[1], n), cb0 = cross(rb[0], n), cb1 = cross(rb[1], n);
    double m = a.invMass + b.invMass;
    double k11 = m + a.invInertia * ca0 * ca0 + b.invInertia * cb0 * cb0;
    double k22 = m + a.invInertia * ca1 * ca1 + b.invInertia * cb1 * cb1;
    double k12 = m + a.invInertia * ca0 * ca1 + b.invInertia * cb0 * cb1;
    double det = k11 * k22 - k12 * k12;
    if (!(det > 1e-9 * k11 * k22)) return false;
    x[0] = (k22 * rhs[0] - k12 * rhs[1]) / det;
    x[1] = (k11 * rhs[1] - k12 * rhs[0]) / det;
    return true;
}

/// Solves K·x = rhs, K symmetric N×N (N = 2 or 3) by Cramer's rule; false when K is nearly
/// singular (rows that nearly repeat one another).
template <int N>
bool solveSmall(const double (&k)[N][N], const double (&rhs)[N], double (&x)[N]) {
    auto det = [](const double (&m)[N][N]) {
        if constexpr (N == 2) return m[0][0] * m[1][1] - m[0][1] * m[1][0];
        else
            return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
                   m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
    };
    const double d = det(k);
    double diagonal = 1.0;
    for (int i = 0; i < N; ++i) diagonal *= k[i][i];
    if (!(std::abs(d) > 1e-12 * std::abs(diagonal))) return false;
    for (int col = 0; col < N; ++col) {
        double m[N][N];
        for (int i = 0; i < N; ++i)
            for (int j = 0; j < N; ++j) m[i][j] = j == col ? rhs[i] : k[i][j];
        x[col] = det(m) / d;
    }
    return true;
}

/// A resting two-point manifold that sticks: both normal rows and the friction row (at the
/// manifold's centre) solved together as one 3×3 block. Solved one after the other, friction
/// held the surface point, the body pivoted about it, and the next normal push turned it
/// back about another point: a lying capsule crept down a 20° slope at 3 mm/s, ratchet by
/// ratchet. False (nothing applied) when the solution would pull or slide (outside the
/// Coulomb cone): then the sequential path decides.
bool solveStickingBlock(Contact& contact, BodySim& a, BodySim& b, const Vec2 ra[2], const Vec2 rb[2], const double c[2]) {
    const Vec2 n = contact.normal, t = perp(n);
    const Vec2 rac = contact.frictionCenter - a.prevCenter, rbc = contact.frictionCenter - b.prevCenter;
    const Vec2 dir[3] = {n, n, t};
    const Vec2 armA[3] = {ra[0], ra[1], rac}, armB[3] = {rb[0], rb[1], rbc};
    double k[3][3], ca[3], cb[3];
    for (int i = 0; i < 3; ++i) {
        ca[i] = cross(armA[i], dir[i]);
        cb[i] = cross(armB[i], dir[i]);
    }
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            k[i][j] = (a.invMass + b.invMass) * dot(dir[i], dir[j]) + a.invInertia * ca[i] * ca[j] + b.invInertia * cb[i] * cb[j];
    const double rhs[3] = {-c[0], -c[1], -contact.slip};
    double x[3];
    if (!solveSmall(k, rhs, x)) return false;
    const double n0 = contact.points[0].lambdaNormal + x[0], n1 = contact.points[1].lambdaNormal + x[1];
    if (n0 < 0.0 || n1 < 0.0 || std::abs(x[2]) > contact.friction * (n0 + n1)) return false;
    for (int i = 0; i < 3; ++i) {
        applyPositionImpulse(a, armA[i], x[i] * dir[i], -1.0);
        applyPositionImpulse(b, armB[i], x[i] * dir[i], 1.0);
    }
    contact.points[0].lambdaNormal = n0;
    contact.points[1].lambdaNormal = n1;
    contact.lambdaTangent = x[2];
    return true;
}

/// A push at an arm as it acts on a body's motion (c_x, c_y, θ): (p, r × p).
struct Wrench {
    double v[3] = {0.0, 0.0, 0.0};
};

Wrench wrench(Vec2 arm, Vec2 push) { return {{push.x, push.y, cross(arm, push)}}; }

double dot(const Wrench& a, const Wrench& b) { return a.v[0] * b.v[0] + a.v[1] * b.v[1] + a.v[2] * b.v[2]; }

/// How a body moves under a push in the passes body by body: Δ(c, θ) = P·wrench, P symmetric
/// 3×3 — the inverse mass diag(m⁻¹, m⁻¹, I⁻¹), or that with the rows of the terrain points
/// that hold it projected out (TerrainHold).
struct Mobility {
    double p[3][3] = {};
    Wrench times(const Wrench& f) const {
        Wrench r;
        for (int i = 0; i < 3; ++i) r.v[i] = p[i][0] * f.v[0] + p[i][1] * f.v[1] + p[i][2] * f.v[2];
        return r;
    }
    double response(Vec2 arm, Vec2 direction) const {
        const Wrench j = wrench(arm, direction);
        return dot(j, times(j));
    }
};

/// The body's mobility for a push of `amount` along `direction` (as it acts on the body) at
/// `arm`, with the body's terrain points held that the push would otherwise drive past their
/// allowed depth: P = M⁻¹ − M⁻¹·Jᵀ·A⁻¹·J·M⁻¹, J the held points' rows and A = J·M⁻¹·Jᵀ. Of
/// the sets of held points (none, either, both) the first that is consistent is taken: the
/// terrain pushes at every held point (multipliers −A⁻¹·J·M⁻¹·wrench ≥ 0) and the motion
/// leaves every other point short of the terrain (its gap now, the gap when the hold was
/// made moved with the body since). A held point still apart is held where it is. The
/// points on `pusher` are left out: a prop held by the prop under it is pushed by that one
/// on its own mass (as a body held by the terrain is, by the terrain).
Mobility mobility(const BodySim& body, const TerrainHold* hold, const Wrench& push, double amount, int pusher) {
    Mobility m;
    if (!body.dynamic) return m;
    m.p[0][0] = m.p[1][1] = body.invMass;
    m.p[2][2] = body.invInertia;
    if (!hold) return m;
    const TerrainPoint* points[2];
    int count = 0;
    for (int k = 0; k < hold->count; ++k)
        if (hold->points[k].support != pusher) points[count++] = &hold->points[k];
    if (count == 0) return m;
    const Wrench u = m.times(push);
    const Vec2 moved = body.center - hold->center;
    const double turned = body.angle - hold->angle;
    Wrench j[2], mj[2];
    double drive[2], gap[2], a[2][2];
    for (int k = 0; k < count; ++k) {
        const TerrainPoint& point = *points[k];
        j[k] = wrench(point.arm, point.normal);
        mj[k] = m.times(j[k]);
        drive[k] = dot(j[k], u);  // the point's motion along its normal per unit push, free
        gap[k] = point.gap + dot(point.normal, moved) + j[k].v[2] * turned;
    }
    for (int k = 0; k < count; ++k)
        for (int l = 0; l < count; ++l) a[k][l] = dot(j[k], mj[l]);
    // Left clear: not driven past the terrain, nor further in if it is in already.
    auto clear = [&](int k, double motion) { return motion * amount >= -std::max(gap[k], 0.0); };
    // None held.
    bool none = true;
    for (int k = 0; k < count; ++k) none = none && clear(k, drive[k]);
    if (none) return m;
    auto project = [&](const int* held, int heldCount, const double inverse[2][2]) {
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c)
                for (int k = 0; k < heldCount; ++k)
                    for (int l = 0; l < heldCount; ++l) m.p[r][c] -= mj[held[k]].v[r] * inverse[k][l] * mj[held[l]].v[c];
    };
    auto holdOne = [&](int k) {
        const int held[1] = {k};
        const double inverse[2][2] = {{1.0 / a[k][k], 0.0}, {0.0, 0.0}};
        project(held, 1, inverse);
    };
    // One held, the other (if any) left clear by the motion that leaves.
    for (int k = 0; k < count; ++k) {
        if (!(drive[k] < 0.0) || !(a[k][k] > 0.0)) continue;
        const int other = 1 - k;
        if (count == 2 && !clear(other, drive[other] - a[other][k] * drive[k] / a[k][k])) continue;
        holdOne(k);
        return m;
    }
    // Both held, if the terrain pushes at both.
    const double det = count == 2 ? a[0][0] * a[1][1] - a[0][1] * a[1][0] : 0.0;
    if (count == 2 && det > 1e-9 * a[0][0] * a[1][1] && a[1][1] * drive[0] - a[0][1] * drive[1] <= 0.0 &&
        a[0][0] * drive[1] - a[1][0] * drive[0] <= 0.0) {
        const int held[2] = {0, 1};
        const double inverse[2][2] = {{a[1][1] / det, -a[0][1] / det}, {-a[1][0] / det, a[0][0] / det}};
        project(held, 2, inverse);
        return m;
    }
    // None consistent (two points nearly one): the one driven in most.
    const int k = count == 2 && drive[1] / std::sqrt(a[1][1]) < drive[0] / std::sqrt(a[0][0]) ? 1 : 0;
    if (drive[k] < 0.0 && a[k][k] > 0.0) holdOne(k);
    return m;
}

/// The same for a push of `amount` along `direction` at `arm`.
Mobility mobility(const BodySim& body, const TerrainHold* hold, Vec2 arm, Vec2 direction, double amount, int pusher) {
    return mobility(body, hold, wrench(arm, direction), amount, pusher);
}

/// Moves a dynamic body by the push `sign`·impulse at `arm`, through its mobility: its
/// position (and q), or its velocity.
void moveBy(BodySim& body, const Mobility& m, Vec2 arm, Vec2 impulse, double sign, bool velocity) {
    if (!body.dynamic) return;
    moveBody(body, m.times(wrench(arm, sign * impulse)).v, velocity);
}

/// A two-point manifold between props with both points in, where a prop is held by the
/// terrain: the rows solved together
/// through the mobilities the pair's push (solved free first) gives the bodies, as
/// solveStickingBlock and the 2×2 block do on the free masses. Point by point, a crate 700
/// times as heavy as the crate under it tilted on the first point's push and on the second's
/// back, and sank through the held crate as if it were not there. True when it solved the
/// normals (and, sticking, the friction: `frictionSolved`).
bool solveHeldBlock(Contact& contact, BodySim& a, BodySim& b, const TerrainHold* holdA, const TerrainHold* holdB,
                    const double c[2], const Vec2 ra[2], const Vec2 rb[2], bool& frictionSolved) {
    const Vec2 n = contact.normal, t = perp(n);
    double estimate[2];
    const double rhs2[2] = {-c[0], -c[1]};
    if (!solveBlock(a, b, ra, rb, n, rhs2, estimate)) return false;
    Wrench pushA, pushB;
    for (int i = 0; i < 2; ++i) {
        const double amount = std::max(contact.points[i].lambdaNormal + estimate[i], 0.0) - contact.points[i].lambdaNormal;
        const Wrench wa = wrench(ra[i], -1.0 * n), wb = wrench(rb[i], n);
        for (int r = 0; r < 3; ++r) {
            pushA.v[r] += amount * wa.v[r];
            pushB.v[r] += amount * wb.v[r];
        }
    }
    const Mobility ma = mobility(a, holdA, pushA, 1.0, contact.bodyB), mb = mobility(b, holdB, pushB, 1.0, contact.bodyA);
    const Vec2 rac = contact.frictionCenter - a.prevCenter, rbc = contact.frictionCenter - b.prevCenter;
    const Vec2 dir[3] = {n, n, t};
    const Vec2 armA[3] = {ra[0], ra[1], rac}, armB[3] = {rb[0], rb[1], rbc};
    auto apply = [&](int row, double amount) {
        moveBy(a, ma, armA[row], amount * dir[row], -1.0, false);
        moveBy(b, mb, armB[row], amount * dir[row], 1.0, false);
    };
    auto k = [&](int i, int j) {
        return dot(wrench(armA[i], dir[i]), ma.times(wrench(armA[j], dir[j]))) +
               dot(wrench(armB[i], dir[i]), mb.times(wrench(armB[j], dir[j])));
    };
    frictionSolved = false;
    if (contact.lambdaTangent == 0.0) {
        double k3[3][3], x[3];
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) k3[i][j] = k(i, j);
        const double rhs3[3] = {-c[0], -c[1], -contact.slip};
        if (solveSmall(k3, rhs3, x)) {
            const double n0 = contact.points[0].lambdaNormal + x[0], n1 = contact.points[1].lambdaNormal + x[1];
            if (n0 >= 0.0 && n1 >= 0.0 && std::abs(x[2]) <= contact.friction * (n0 + n1)) {
                for (int i = 0; i < 3; ++i) apply(i, x[i]);
                contact.points[0].lambdaNormal = n0;
                contact.points[1].lambdaNormal = n1;
                contact.lambdaTangent = x[2];
                frictionSolved = true;
                return true;
            }
        }
    }
    const double k2[2][2] = {{k(0, 0), k(0, 1)}, {k(1, 0), k(1, 1)}};
    double x[2];
    if (!solveSmall(k2, rhs2, x)) return false;
    if (contact.points[0].lambdaNormal + x[0] < 0.0 || contact.points[1].lambdaNormal + x[1] < 0.0) return false;
    for (int i = 0; i < 2; ++i) {
        contact.points[i].lambdaNormal += x[i];
        apply(i, x[i]);
    }
    return true;
}

/// solveContactPositions for a contact one of whose bodies the terrain holds: its points
/// together when both are in (solveHeldBlock), else one after the other, then static
/// friction, each push through both bodies' mobilities.
void solveHeldContactPositions(Contact& contact, BodySim& a, BodySim& b, const TerrainHold* holdA,
                               const TerrainHold* holdB, const double c[2], const Vec2 ra[2], const Vec2 rb[2]) {
    const Vec2 n = contact.normal;
    bool frictionSolved = false;
    // Props only: a tree body's velocity pass pulls back through the mobilities of the
    // pushes one point at a time, and after a block push that threw a 60 kg body landing on
    // a held limb back up at 1.1 m/s (restitution 0).
    const bool block = contact.loose && contact.pointCount == 2 && c[0] < 0.0 && c[1] < 0.0 &&
                       solveHeldBlock(contact, a, b, holdA, holdB, c, ra, rb, frictionSolved);
    if (frictionSolved) return;
    for (int i = 0; i < contact.pointCount && !block; ++i) {
        ContactPoint& p = contact.points[i];
        const double ci = i > 0 ? measureSeparation(contact, p, a, b) + p.allowedDepth : c[0];
        if (ci >= 0.0) continue;
        // The push free, then with what it would drive into the terrain held.
        const double free = effectiveInverseMass(a, ra[i], b, rb[i], n);
        if (!(free > 0.0)) continue;
        const double estimate = std::max(p.lambdaNormal - ci / free, 0.0) - p.lambdaNormal;
        const Mobility ma = mobility(a, holdA, ra[i], -1.0 * n, estimate, contact.bodyB), mb = mobility(b, holdB, rb[i], n, estimate, contact.bodyA);
        const double w = ma.response(ra[i], n) + mb.response(rb[i], n);
        if (!(w > 0.0)) continue;
        const double dl = std::max(p.lambdaNormal - ci / w, 0.0) - p.lambdaNormal;
        p.lambdaNormal += dl;
        moveBy(a, ma, ra[i], dl * n, -1.0, false);
        moveBy(b, mb, rb[i], dl * n, 1.0, false);
    }
    double lambdaNormal = 0.0;
    for (int i = 0; i < contact.pointCount; ++i) lambdaNormal += contact.points[i].lambdaNormal;
    if (lambdaNormal <= 0.0) return;
    // Static friction at the manifold's centre, with the mobilities its normal push has there.
    const Vec2 t = perp(n);
    const Vec2 rac = contact.frictionCenter - a.prevCenter, rbc = contact.frictionCenter - b.prevCenter;
    const Mobility ma = mobility(a, holdA, rac, -1.0 * n, lambdaNormal, contact.bodyB), mb = mobility(b, holdB, rbc, n, lambdaNormal, contact.bodyA);
    const double wt = ma.response(rac, t) + mb.response(rbc, t);
    if (!(wt > 0.0)) return;
    const double limit = contact.friction * lambdaNormal;
    const double total = std::clamp(-contact.slip / wt, -limit, limit);
    const double dl = total - contact.lambdaTangent;
    contact.lambdaTangent = total;
    moveBy(a, ma, rac, dl * t, -1.0, false);
    moveBy(b, mb, rbc, dl * t, 1.0, false);
}

/// solveContactVelocities for a contact one of whose bodies the terrain holds: the points that
/// pushed one after the other, then dynamic friction, through both bodies' mobilities.
void solveHeldContactVelocities(Contact& contact, BodySim& a, BodySim& b, double h, double restitutionThreshold,
                                const TerrainHold* holdA, const TerrainHold* holdB) {
    const Vec2 n = contact.normal;
    double lambdaNormal = 0.0;
    Vec2 center;
    for (int i = 0; i < contact.pointCount; ++i) {
        const ContactPoint& p = contact.points[i];
        if (p.lambdaNormal <= 0.0) continue;
        const Vec2 at = contactLocation(contact, p, a, b);
        const Vec2 ra = at - a.center, rb = at - b.center;
        lambdaNormal += p.lambdaNormal;
        center += p.lambdaNormal * at;
        const Vec2 relative = (b.linearVelocity + cross(b.angularVelocity, rb)) - (a.linearVelocity + cross(a.angularVelocity, ra));
        const double vn = dot(relative, n);
        const double e = std::abs(vn) <= restitutionThreshold ? 0.0 : contact.restitution;
        const double dv = std::max(-e * p.normalSpeedBefore, 0.0) - vn;
        // A push holds what it would drive into the terrain within the substep (its impulse
        // solved free); a pull, taking back the speed the position pass gave the bodies,
        // goes through the mobilities that pass pushed with (its λ_n), so the speed comes
        // back from what moved: from the free mass, a held limb took it and the heavy body
        // that the hold had pushed out kept it (thrown up at 3.5 m/s after landing at 6 m/s).
        const double free = effectiveInverseMass(a, ra, b, rb, n);
        if (!(free > 0.0)) continue;
        const double amount = dv >= 0.0 ? h * dv / free : p.lambdaNormal;
        const Mobility ma = mobility(a, holdA, ra, -1.0 * n, amount, contact.bodyB), mb = mobility(b, holdB, rb, n, amount, contact.bodyA);
        const double w = ma.response(ra, n) + mb.response(rb, n);
        if (!(w > 0.0)) continue;
        moveBy(a, ma, ra, (dv / w) * n, -1.0, true);
        moveBy(b, mb, rb, (dv / w) * n, 1.0, true);
    }
    if (lambdaNormal <= 0.0) return;
    center = (1.0 / lambdaNormal) * center;
    const Vec2 rac = center - a.center, rbc = center - b.center;
    const Vec2 relative = (b.linearVelocity + cross(b.angularVelocity, rbc)) - (a.linearVelocity + cross(a.angularVelocity, rac));
    const Vec2 t = perp(n);
    const double vt = dot(relative, t);
    const Mobility ma = mobility(a, holdA, rac, -1.0 * n, lambdaNormal, contact.bodyB), mb = mobility(b, holdB, rbc, n, lambdaNormal, contact.bodyA);
    const double wt = ma.response(rac, t) + mb.response(rbc, t);
    if (!(wt > 0.0) || vt == 0.0) return;
    const double budget = std::max(contact.friction * lambdaNormal - std::abs(contact.lambdaTangent), 0.0) / h;
    const double magnitude = std::min(std::abs(vt) / wt, budget);
    const Vec2 impulse = (-std::copysign(magnitude, vt)) * t;
    moveBy(a, ma, rac, impulse, -1.0, true);
    moveBy(b, mb, rbc, impulse, 1.0, true);
}

}  // namespace

Manifold collideBodies(const Body& a, const BodySim& simA, const Body& b, const BodySim& simB, double speculativeDistance) {
    // Contacts are made with the higher-ranked shape as A (polygon > capsule > circle), so
    // each pair of kinds has exactly one narrow-phase function.
    Transform xa = bodyFrame(a, simA), xb = bodyFrame(b, simB);
    const Polygon& ga = a.shape.geometry;
    const Polygon& gb = b.shape.geometry;
    Manifold m;
    switch (a.shape.type) {
    case ShapeType::Polygon:
        if (b.shape.type == ShapeType::Polygon) m = collidePolygons(ga, xa, gb, xb, speculativeDistance);
        else if (b.shape.type == ShapeType::Capsule) m = collidePolygonAndCapsuleShape(ga, xa, gb, xb, speculativeDistance);
        else m = collidePolygonAndCircle(ga, xa, asCircle(gb), xb, speculativeDistance);
        break;
    case ShapeType::Capsule:
        if (b.shape.type == ShapeType::Capsule) m = collideCapsuleShapes(ga, xa, gb, xb, speculativeDistance);
        else m = collideCapsuleAndCircle(asCapsule(ga), xa, asCircle(gb), xb, speculativeDistance);
        break;
    case ShapeType::Circle:
        m = collideCircles(asCircle(ga), xa, asCircle(gb), xb, speculativeDistance);
        break;
    }
    return m;
}

void setManifold(Contact& contact, const Manifold& m, const Body& a, const BodySim& simA, const Body& b, const BodySim& simB) {
    contact.pointCount = m.pointCount;
    contact.normal = m.normal;
    double radiusA = a.shape.geometry.radius, radiusB = b.shape.geometry.radius;
    contact.radiusA = radiusA;
    contact.radiusB = radiusB;
    contact.extentA = a.extent;
    contact.extentB = b.extent;
    // Two joint groups' bodies sink into one another by what the passes body by body leave
    // (they know nothing of the joints that pull a pushed limb back in), and that must go
    // as fast as it comes: capped, three limp stickmen lying on each other kept 2–4 cm
    // inside one another and never slept.
    const bool pushOutCapped = a.jointGroup < 0 || b.jointGroup < 0;
    for (int i = 0; i < m.pointCount; ++i) {
        ContactPoint& p = contact.points[i];
        Vec2 coreA = m.points[i].pointA - radiusA * m.normal;
        Vec2 coreB = m.points[i].pointB + radiusB * m.normal;
        p.localAnchorA = inverseRotate(simA.q, coreA - simA.center);
        p.localAnchorB = inverseRotate(simB.q, coreB - simB.center);
        p.separation = m.points[i].separation;
        p.allowedDepth = pushOutCapped ? std::max(-p.separation, kAllowedPenetration) : kAllowedPenetration;
        p.id = m.points[i].id;
        p.lambdaNormal = 0.0;
    }
    contact.lambdaTangent = 0.0;
    contact.friction = std::sqrt(a.shape.friction * b.shape.friction);
    contact.restitution = std::max(a.shape.restitution, b.shape.restitution);
}

bool updateContact(Contact& contact, const Body& a, const BodySim& simA, const Body& b, const BodySim& simB,
                   double speculativeDistance) {
    const Manifold m = collideBodies(a, simA, b, simB, speculativeDistance);
    contact.pointCount = m.pointCount;
    if (m.pointCount == 0) return false;
    setManifold(contact, m, a, simA, b, simB);
    return true;
}

/// Where the two surfaces meet now. A's surface point is coreA + radiusA·n, B's is
/// coreB − radiusB·n. A flat face's anchor is a material point that stays where the
/// contact began, while a rounded shape's surface point follows it as it rolls; so
/// against a flat face the rounded shape's point is used, else the midpoint. (Pushing at
/// the stale face point gives the push a lever arm that spins a rolling circle up.)
Vec2 contactLocation(const Contact& contact, const ContactPoint& p, const BodySim& a, const BodySim& b) {
    Vec2 n = contact.normal;
    Vec2 surfaceA = a.center + rotate(a.q, p.localAnchorA) + contact.radiusA * n;
    Vec2 surfaceB = b.center + rotate(b.q, p.localAnchorB) - contact.radiusB * n;
    bool flatA = contact.radiusA == 0.0, flatB = contact.radiusB == 0.0;
    if (flatA && !flatB) return surfaceB;
    if (flatB && !flatA) return surfaceA;
    return lerp(surfaceA, surfaceB, 0.5);
}

double measureSeparation(const Contact& contact, ContactPoint& p, const BodySim& a, const BodySim& b) {
    Vec2 coreA = a.center + rotate(a.q, p.localAnchorA);
    Vec2 coreB = b.center + rotate(b.q, p.localAnchorB);
    p.separation = dot(coreB - coreA, contact.normal) - (contact.radiusA + contact.radiusB);
    return p.separation;
}


void prepareContactSubstep(Contact& contact, const BodySim& a, const BodySim& b, double h) {
    // Called after integration, so velocities are the ones that just moved the bodies.
    contact.lambdaTangent = 0.0;
    Vec2 center;
    for (int i = 0; i < contact.pointCount; ++i) {
        ContactPoint& p = contact.points[i];
        p.lambdaNormal = 0.0;
        Vec2 at = contactLocation(contact, p, a, b);
        Vec2 relative = (b.linearVelocity + cross(b.angularVelocity, at - b.center)) -
                        (a.linearVelocity + cross(a.angularVelocity, at - a.center));
        p.normalSpeedBefore = dot(relative, contact.normal);
        // An overlap the step began with goes at kMaxPushOutSpeed at most.
        p.allowedDepth = std::max(p.allowedDepth - kMaxPushOutSpeed * h, kAllowedPenetration);
        center += at;
    }
    if (contact.pointCount == 0) return;
    contact.frictionCenter = (1.0 / contact.pointCount) * center;
    Vec2 rac = contact.frictionCenter - a.center, rbc = contact.frictionCenter - b.center;
    Vec2 relative = (b.linearVelocity + cross(b.angularVelocity, rbc)) - (a.linearVelocity + cross(a.angularVelocity, rac));
    contact.slip = h * dot(relative, perp(contact.normal));
}

void solveContactPositions(Contact& contact, BodySim& a, BodySim& b, const TerrainHold* holdA, const TerrainHold* holdB) {
    Vec2 n = contact.normal;
    // Normal. Both bodies are pushed at the same point, where the surfaces meet, so the
    // pair of corrections exerts no net torque and angular momentum is kept. A two-point
    // manifold is solved as one 2×2 block: pushing one end before the other tilts a
    // resting box a little every substep, and stacks lean over.
    double c[2];
    Vec2 ra[2], rb[2];
    bool idle = true;  // apart and never pushed this substep: nothing to do, friction included
    for (int i = 0; i < contact.pointCount; ++i) {
        c[i] = measureSeparation(contact, contact.points[i], a, b) + contact.points[i].allowedDepth;
        idle = idle && c[i] >= 0.0 && contact.points[i].lambdaNormal == 0.0;
    }
    // Most of a pile's manifolds are speculative (found within reach, not touching).
    if (idle) return;
    for (int i = 0; i < contact.pointCount; ++i) {
        Vec2 at = contactLocation(contact, contact.points[i], a, b);
        // Lever arms from where the centres were when the substep began: then each pair
        // of pushes leaves Σ m·c_prev × Δc + I·Δθ unchanged, which is exactly the angular
        // momentum the velocity update derives; arms from the current centres would add
        // (v_a − v_b) × P per push, over 10% in a fast glancing collision.
        ra[i] = at - a.prevCenter;
        rb[i] = at - b.prevCenter;
    }
    if ((holdA || holdB) && a.dynamic && b.dynamic) {
        solveHeldContactPositions(contact, a, b, holdA, holdB, c, ra, rb);
        return;
    }
    auto push = [&](int i, double dl) {
        contact.points[i].lambdaNormal += dl;
        applyPositionImpulse(a, ra[i], dl * n, -1.0);
        applyPositionImpulse(b, rb[i], dl * n, 1.0);
    };
    bool solved = false;
    if (contact.pointCount == 2 && c[0] < 0.0 && c[1] < 0.0 && contact.lambdaTangent == 0.0 &&
        solveStickingBlock(contact, a, b, ra, rb, c))
        return;
    if (contact.pointCount == 2 && c[0] < 0.0 && c[1] < 0.0) {
        double rhs[2] = {-c[0], -c[1]}, dl[2];
        if (solveBlock(a, b, ra, rb, n, rhs, dl) && contact.points[0].lambdaNormal + dl[0] >= 0.0 &&
            contact.points[1].lambdaNormal + dl[1] >= 0.0) {
            push(0, dl[0]);
            push(1, dl[1]);
            solved = true;
        }
    }
    for (int i = 0; i < contact.pointCount && !solved; ++i) {
        ContactPoint& p = contact.points[i];
        if (i > 0) c[i] = measureSeparation(contact, p, a, b) + p.allowedDepth;  // the first push moved things
        if (c[i] >= 0.0) continue;
        double w = effectiveInverseMass(a, ra[i], b, rb[i], n);
        if (w > 0.0) push(i, std::max(p.lambdaNormal - c[i] / w, 0.0) - p.lambdaNormal);
    }

    // Static friction: cancel the tangential slip that integration gave the surfaces at the
    // contact this substep, within the Coulomb bound μ·Σλ_n. Two choices matter here:
    // - One constraint for the whole manifold, at its centre, with the whole budget: in 2D
    //   every point slips by the same amount along the one tangent, and per-point budgets
    //   saturate at the lighter-loaded end.
    // - The slip is the integration's (v·h at the contact), not the total displacement
    //   since the substep began (Müller 2020): the total includes the small rotations that
    //   the normal pushes of neighbouring contacts cause, and locking those in makes
    //   stacks and piles creep sideways, ratchet by ratchet.
    double lambdaNormal = 0.0;
    for (int i = 0; i < contact.pointCount; ++i) lambdaNormal += contact.points[i].lambdaNormal;
    if (lambdaNormal <= 0.0) return;
    Vec2 t = perp(n);
    Vec2 rac = contact.frictionCenter - a.prevCenter, rbc = contact.frictionCenter - b.prevCenter;
    double wt = effectiveInverseMass(a, rac, b, rbc, t);
    if (wt <= 0.0) return;
    double limit = contact.friction * lambdaNormal;
    double total = std::clamp(-contact.slip / wt, -limit, limit);
    double dl = total - contact.lambdaTangent;
    contact.lambdaTangent = total;
    applyPositionImpulse(a, rac, dl * t, -1.0);
    applyPositionImpulse(b, rbc, dl * t, 1.0);
}

void solveContactVelocities(Contact& contact, BodySim& a, BodySim& b, double h, double restitutionThreshold,
                            const TerrainHold* holdA, const TerrainHold* holdB) {
    if ((holdA || holdB) && a.dynamic && b.dynamic) {
        solveHeldContactVelocities(contact, a, b, h, restitutionThreshold, holdA, holdB);
        return;
    }
    Vec2 n = contact.normal;
    Vec2 ra[2], rb[2];
    double dvn[2], bounce[2];
    double lambdaNormal = 0.0;
    Vec2 center;
    int active = 0;
    for (int i = 0; i < contact.pointCount; ++i) {
        const ContactPoint& p = contact.points[i];
        if (p.lambdaNormal <= 0.0) continue;
        Vec2 at = contactLocation(contact, p, a, b);
        ra[active] = at - a.center;
        rb[active] = at - b.center;
        // Normal: remove the approach speed the position pass left, then bounce.
        Vec2 relative = (b.linearVelocity + cross(b.angularVelocity, rb[active])) -
                        (a.linearVelocity + cross(a.angularVelocity, ra[active]));
        double vn = dot(relative, n);
        double e = std::abs(vn) <= restitutionThreshold ? 0.0 : contact.restitution;
        bounce[active] = std::max(-e * p.normalSpeedBefore, 0.0);
        dvn[active] = bounce[active] - vn;
        lambdaNormal += p.lambdaNormal;
        center += p.lambdaNormal * at;
        ++active;
    }
    if (active == 0) return;

    double impulse[2];
    if (active == 2 && solveBlock(a, b, ra, rb, n, dvn, impulse)) {
        for (int i = 0; i < 2; ++i) {
            applyVelocityImpulse(a, ra[i], impulse[i] * n, -1.0);
            applyVelocityImpulse(b, rb[i], impulse[i] * n, 1.0);
        }
    } else {
        for (int i = 0; i < active; ++i) {
            double wn = effectiveInverseMass(a, ra[i], b, rb[i], n);
            if (wn <= 0.0) continue;
            // Measure again: the previous point's impulse changed the velocities.
            Vec2 relative = (b.linearVelocity + cross(b.angularVelocity, rb[i])) - (a.linearVelocity + cross(a.angularVelocity, ra[i]));
            double dv = bounce[i] - dot(relative, n);
            applyVelocityImpulse(a, ra[i], (dv / wn) * n, -1.0);
            applyVelocityImpulse(b, rb[i], (dv / wn) * n, 1.0);
        }
    }

    // Dynamic friction (Müller 2020, eq. 30, in impulse form so units agree): at the
    // manifold's centre, a tangential impulse of at most μ times the normal impulse
    // Σλ_n/h of this substep, less what static friction already spent.
    center = (1.0 / lambdaNormal) * center;
    Vec2 rac = center - a.center, rbc = center - b.center;
    Vec2 relative = (b.linearVelocity + cross(b.angularVelocity, rbc)) - (a.linearVelocity + cross(a.angularVelocity, rac));
    Vec2 t = perp(n);
    double vt = dot(relative, t);
    double wt = effectiveInverseMass(a, rac, b, rbc, t);
    if (wt <= 0.0 || vt == 0.0) return;
    double budget = std::max(contact.friction * lambdaNormal - std::abs(contact.lambdaTangent), 0.0) / h;
    double magnitude = std::min(std::abs(vt) / wt, budget);
    Vec2 frictionImpulse = (-std::copysign(magnitude, vt)) * t;
    applyVelocityImpulse(a, rac, frictionImpulse, -1.0);
    applyVelocityImpulse(b, rbc, frictionImpulse, 1.0);
}

}  // namespace ragdoll
