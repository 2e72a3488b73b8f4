#include "rig/rig_builder.h"

#include <cmath>

namespace ragdoll {

namespace {

bool validBone(const RigDefinition& rig, int bone) { return bone >= 0 && bone < int(rig.bones.size()); }
bool validBody(const RigDefinition& rig, int body) { return body >= 0 && body < int(rig.bodies.size()); }

/// What a definition edited by hand might have broken; the loader guarantees all of it.
bool checkRig(const RigDefinition& rig, std::string& why) {
    if (rig.bodies.empty()) {
        why = "rig '" + rig.name + "' has no bodies";
        return false;
    }
    for (const RigBody& body : rig.bodies) {
        if (!validBone(rig, body.bone)) {
            why = "a body refers to no bone";
            return false;
        }
        const RigBone& bone = rig.bones[size_t(body.bone)];
        if (!(body.radius > 0.0) || !std::isfinite(body.radius) || !(body.mass > 0.0) || !std::isfinite(body.mass) ||
            !(bone.length > 0.0) || !isFinite(bone.origin) || !std::isfinite(bone.angle)) {
            why = "body of bone '" + bone.name + "' has a non-positive or non-finite radius, mass or length";
            return false;
        }
    }
    for (const RigJoint& joint : rig.joints) {
        if (!validBody(rig, joint.parentBody) || !validBody(rig, joint.childBody) || joint.parentBody == joint.childBody ||
            !validBone(rig, joint.child)) {
            why = "joint '" + joint.name + "' does not join two bodies (call updateDerived after editing)";
            return false;
        }
    }
    return true;
}

}  // namespace

RagdollDef defaultRagdollDef() { return RagdollDef{}; }

Capsule bodyCapsule(const RigDefinition& rig, int body) {
    const RigBody& b = rig.bodies[size_t(body)];
    const RigBone& bone = rig.bones[size_t(b.bone)];
    const Vec2 centre = b.centreOn(bone), half{0.5 * bone.length, 0.0};
    return Capsule{centre - half, centre + half, b.radius};
}

Circle bodyCircle(const RigDefinition& rig, int body) {
    const RigBody& b = rig.bodies[size_t(body)];
    return Circle{b.centreOn(rig.bones[size_t(b.bone)]), b.radius};
}

Capsule placedBodyCapsule(const RigDefinition& rig, int body, Vec2 origin, double angle) {
    // Along and across the bone as RigBone::tip() takes them, so that a body on its bone ends
    // at the very bits of the bone's origin and tip.
    const Vec2 along{std::cos(angle), std::sin(angle)}, across{-along.y, along.x};
    auto place = [&](Vec2 local) { return origin + local.x * along + local.y * across; };
    if (rig.bodies[size_t(body)].shape == BodyShape::Circle) {
        const Circle circle = bodyCircle(rig, body);
        return {place(circle.center), place(circle.center), circle.radius};
    }
    const Capsule capsule = bodyCapsule(rig, body);  // a box's middle line and half-thickness
    return {place(capsule.center1), place(capsule.center2), capsule.radius};
}

Polygon bodyBox(const RigDefinition& rig, int body) {
    const RigBody& b = rig.bodies[size_t(body)];
    const RigBone& bone = rig.bones[size_t(b.bone)];
    return makeBox(0.5 * bone.length, b.radius, b.centreOn(bone), 0.0);
}

bool shapeRagdollBody(World& world, const RigDefinition& rig, int body, BodyId id, std::int32_t collisionGroup,
                      std::uint32_t categoryBits) {
    Filter filter;
    filter.group = collisionGroup;
    filter.categoryBits = categoryBits;
    return shapeRagdollBody(world, rig, body, id, filter, 1.0);
}

bool shapeRagdollBody(World& world, const RigDefinition& rig, int body, BodyId id, const Filter& filter,
                      double massScale) {
    const RigBody& rigBody = rig.bodies[size_t(body)];
    ShapeDef shape = defaultShapeDef();
    shape.mass = rigBody.mass * massScale;
    shape.friction = rigBody.friction;
    shape.restitution = rigBody.restitution;
    shape.filter = filter;
    switch (rigBody.shape) {
        case BodyShape::Capsule: return world.setCapsule(id, shape, bodyCapsule(rig, body));
        case BodyShape::Circle: return world.setCircle(id, shape, bodyCircle(rig, body));
        case BodyShape::Box: return world.setPolygon(id, shape, bodyBox(rig, body));
    }
    return false;
}

Ragdoll buildRagdoll(World& world, const RigDefinition& rig, const RagdollDef& def, std::string* error) {
    auto refuse = [&](const std::string& why) {
        if (error) *error = why;
        return Ragdoll{};
    };
    if (def.collisionGroup >= 0)
        return refuse("collision group " + std::to_string(def.collisionGroup) + " must be negative (one per ragdoll)");
    if (!isFinite(def.position) || !std::isfinite(def.angle) || !isFinite(def.linearVelocity) ||
        !std::isfinite(def.angularVelocity))
        return refuse("the ragdoll's position, angle or velocity is not finite");
    std::string why;
    if (!checkRig(rig, why)) return refuse(why);

    const Transform place{def.position, makeRot(def.angle)};
    const double side = def.mirrored ? -1.0 : 1.0;
    // The rig's rest pose in its own frame (mirrored when the ragdoll is), and placed.
    auto restPoint = [&](Vec2 p) { return Vec2{side * p.x, p.y}; };
    auto restAngle = [&](double a) { return def.mirrored ? kPi - a : a; };
    auto rigPoint = [&](Vec2 p) { return transformPoint(place, restPoint(p)); };
    auto rigAngle = [&](double a) { return def.angle + restAngle(a); };
    Ragdoll ragdoll;
    ragdoll.bodies.reserve(rig.bodies.size());
    ragdoll.joints.reserve(rig.joints.size());
    for (int i = 0; i < int(rig.bodies.size()); ++i) {
        const RigBody& body = rig.bodies[size_t(i)];
        const RigBone& bone = rig.bones[size_t(body.bone)];
        BodyDef bodyDef = defaultBodyDef();
        bodyDef.position = rigPoint(bone.origin);
        bodyDef.angle = rigAngle(bone.angle);
        // The body's origin (the bone's origin) moves with the rigid motion of the rig.
        bodyDef.linearVelocity = def.linearVelocity + cross(def.angularVelocity, bodyDef.position - def.position);
        bodyDef.angularVelocity = def.angularVelocity;
        bodyDef.linearDamping = body.linearDamping;
        bodyDef.angularDamping = body.angularDamping;
        bodyDef.userData = def.userData;
        BodyId id = world.createBody(bodyDef);

        const bool shaped = shapeRagdollBody(world, rig, i, id, def.collisionGroup, def.categoryBits);
        if (!isNull(id)) ragdoll.bodies.push_back(id);
        if (isNull(id) || !shaped) {
            destroyRagdoll(world, ragdoll);
            return refuse("the world refused the body of bone '" + bone.name + "'");
        }
    }
    // The joints' frames come from the rest pose in the rig's own frame, not from where it is
    // placed: the same rig gives the same bits wherever it is built, so a character rebuilt
    // from a saved state (elsewhere than it was first built) has the very joints it had.
    // Placed, their rounding followed the position.
    auto boneOf = [&](int rigBody) -> const RigBone& { return rig.bones[size_t(rig.bodies[size_t(rigBody)].bone)]; };
    auto restFrame = [&](int rigBody) {
        return Transform{restPoint(boneOf(rigBody).origin), makeRot(restAngle(boneOf(rigBody).angle))};
    };
    for (const RigJoint& joint : rig.joints) {
        // Anchored at the child bone's origin; the reference angle is the rest pose's.
        const Vec2 anchor = restPoint(rig.bones[size_t(joint.child)].origin);
        JointDef jointDef;
        jointDef.bodyA = ragdoll.bodies[size_t(joint.parentBody)];
        jointDef.bodyB = ragdoll.bodies[size_t(joint.childBody)];
        jointDef.localAnchorA = inverseTransformPoint(restFrame(joint.parentBody), anchor);
        jointDef.localAnchorB = inverseTransformPoint(restFrame(joint.childBody), anchor);
        jointDef.referenceAngle = restAngle(boneOf(joint.childBody).angle) - restAngle(boneOf(joint.parentBody).angle);
        jointDef.enableLimit = joint.limited;
        jointDef.lowerAngle = def.mirrored ? -joint.upper : joint.lower;
        jointDef.upperAngle = def.mirrored ? -joint.lower : joint.upper;
        jointDef.stiffness = joint.stiffness;
        jointDef.angularDamping = joint.damping;
        jointDef.frictionTorque = joint.friction;
        jointDef.collideConnected = joint.collide;
        JointId id = world.createJoint(jointDef);
        if (isNull(id)) {
            destroyRagdoll(world, ragdoll);
            return refuse("the world refused joint '" + joint.name + "'");
        }
        ragdoll.joints.push_back(id);
    }
    return ragdoll;
}

void destroyRagdoll(World& world, Ragdoll& ragdoll) {
    for (JointId joint : ragdoll.joints) world.destroyJoint(joint);
    for (BodyId body : ragdoll.bodies) world.destroyBody(body);
    ragdoll.joints.clear();
    ragdoll.bodies.clear();
}

}  // namespace ragdoll
