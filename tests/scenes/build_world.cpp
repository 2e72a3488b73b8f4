#include "build_world.h"

#include <algorithm>
#include <cmath>

namespace scenes {

using namespace ragdoll;

BuiltScene buildWorld(World& world, const SceneSpec& scene) {
    BuiltScene built;
    for (const BodySpec& spec : scene.bodies) {
        BodyDef def = defaultBodyDef();
        def.type = spec.isStatic ? BodyType::Static : BodyType::Dynamic;
        def.linearVelocity = spec.velocity;
        def.linearDamping = spec.linearDamping;
        def.angularDamping = spec.angularDamping;
        ShapeDef shape = defaultShapeDef();
        shape.mass = spec.isStatic ? 0.0 : spec.mass;
        shape.friction = spec.friction;
        shape.restitution = spec.restitution;
        // One stickman (group >= 0) must not collide with itself: a negative group each.
        if (spec.group >= 0) shape.filter.group = -(spec.group + 1);

        BodyId id;
        switch (spec.shape) {
        case ShapeKind::Capsule: {
            Vec2 axis = spec.p1 - spec.p0;
            double half = 0.5 * length(axis);
            def.position = lerp(spec.p0, spec.p1, 0.5);
            def.angle = angleOf(axis);
            id = world.createBody(def);
            world.setCapsule(id, shape, Capsule{{-half, 0.0}, {half, 0.0}, spec.radius});
            break;
        }
        case ShapeKind::Circle:
            def.position = spec.p0;
            id = world.createBody(def);
            world.setCircle(id, shape, Circle{{0.0, 0.0}, spec.radius});
            break;
        case ShapeKind::Box:
            def.position = spec.p0;
            def.angle = spec.angle;
            id = world.createBody(def);
            world.setPolygon(id, shape, makeBox(spec.halfExtents.x, spec.halfExtents.y));
            break;
        }
        built.bodies.push_back(id);
    }
    for (const JointSpec& spec : scene.joints) {
        BodyId a;
        if (spec.bodyA >= 0) {
            a = built.bodies[size_t(spec.bodyA)];
        } else {
            BodyDef anchor = defaultBodyDef();
            anchor.type = BodyType::Static;
            anchor.position = spec.anchor;
            a = world.createBody(anchor);
            built.anchors.push_back(a);
        }
        JointDef def = makeRevoluteJointDef(world, a, built.bodies[size_t(spec.bodyB)], spec.anchor);
        def.enableLimit = spec.enableLimit;
        def.lowerAngle = spec.lower;
        def.upperAngle = spec.upper;
        built.joints.push_back(world.createJoint(def));
    }
    return built;
}

void measureJoints(const World& world, const BuiltScene& built, double& maxSeparation, double& maxViolation) {
    maxSeparation = maxViolation = 0.0;
    for (JointId j : built.joints) {
        JointError e = world.jointError(j);
        maxSeparation = std::max(maxSeparation, e.separation);
        maxViolation = std::max(maxViolation, e.limitViolation);
    }
}

double deepestBetweenMoving(const World& world) {
    double deepest = 0.0;
    for (const Contact& c : world.contacts()) {
        if (c.pointCount == 0) continue;
        const BodyId a = world.bodyId(c.bodyA), b = world.bodyId(c.bodyB);
        if (world.bodyType(a) == BodyType::Static || world.bodyType(b) == BodyType::Static) continue;
        deepest = std::max(deepest, world.overlap(a, b));
    }
    return deepest;
}

}  // namespace scenes
