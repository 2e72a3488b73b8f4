// Rig builder: bodies lie exactly on the drawn bones, joints sit at the child's origin with
// the rig's limits, units do not change what is built, collision groups keep a ragdoll
// from colliding with itself, and destroying a ragdoll leaves nothing behind.

#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "rig/rig_builder.h"
#include "rig/rig_loader.h"
#include "solver/world.h"
#include "rig_test_support.h"

using namespace ragdoll;
using namespace rigtest;

namespace {

constexpr double kDt = 1.0 / 60.0;

std::shared_ptr<const RigDefinition> load(const std::string& path) {
    RigLoadResult result = loadRigFile(path);
    INFO(describe(result.diagnostics));
    REQUIRE(result.rig);
    return result.rig;
}

World quietWorld() {
    WorldDef def = defaultWorldDef();
    def.gravity = {0.0, 0.0};
    def.enableSleep = false;
    return World(def);
}

void checkNear(Vec2 actual, Vec2 expected, double tolerance) {
    CHECK(actual.x == Approx(expected.x).margin(tolerance));
    CHECK(actual.y == Approx(expected.y).margin(tolerance));
}

}  // namespace

TEST_CASE("capsules are the drawn bones and radii are half the drawn line width", "[rig][builder]") {
    auto rig = load(contentRig("stickman.rig.xml"));
    World world = quietWorld();
    RagdollDef def = defaultRagdollDef();
    def.position = {3.0, -2.0};
    def.angle = 0.7;
    Ragdoll ragdoll = buildRagdoll(world, *rig, def);
    REQUIRE(ragdoll.bodies.size() == rig->bodies.size());
    const Transform place{def.position, makeRot(def.angle)};
    for (size_t i = 0; i < rig->bodies.size(); ++i) {
        const RigBody& body = rig->bodies[i];
        const RigBone& bone = rig->bones[size_t(body.bone)];
        const RigVisual& visual = rig->visuals[size_t(rig->visualOfBone(body.bone))];
        CAPTURE(bone.name);
        const Shape* shape = world.bodyShape(ragdoll.bodies[i]);
        REQUIRE(shape);
        Transform xf = world.bodyTransform(ragdoll.bodies[i]);
        if (body.shape == BodyShape::Capsule) {
            REQUIRE(shape->type == ShapeType::Capsule);
            checkNear(transformPoint(xf, shape->geometry.vertices[0]), transformPoint(place, bone.origin), 1e-5);
            checkNear(transformPoint(xf, shape->geometry.vertices[1]), transformPoint(place, bone.tip()), 1e-5);
            CHECK(shape->geometry.radius == Approx(0.5 * visual.width).margin(1e-12));
        } else {
            REQUIRE(shape->type == ShapeType::Circle);
            checkNear(transformPoint(xf, shape->geometry.vertices[0]), transformPoint(place, bone.midpoint()), 1e-5);
            CHECK(shape->geometry.radius == Approx(visual.radius).margin(1e-12));
        }
        CHECK(world.bodyMass(ragdoll.bodies[i]) == Approx(body.mass));
        // The body's frame is the bone's frame.
        checkNear(xf.p, transformPoint(place, bone.origin), 1e-12);
        CHECK(world.bodyState(ragdoll.bodies[i]).angle == Approx(def.angle + bone.angle));
    }
}

TEST_CASE("a body given a centre is its shape moved there in the bone's frame, the joints stay at the bones", "[rig][builder]") {
    // A head drawn above a bone of length 0.1 m: its circle was on the bone's midpoint, 12 cm
    // under the art.
    RigLoadResult loaded = loadRigFromText(
        "<rig name=\"t\" format=\"1\" units=\"cm\">\n"
        "<bone name=\"torso\" angle=\"90\" length=\"50\"/>\n"
        "<bone name=\"head\" parent=\"torso\" length=\"10\"/>\n"
        "<bone name=\"arm\" parent=\"torso\" x=\"45\" angle=\"-90\" length=\"40\"/>\n"
        "<body bone=\"torso\" shape=\"box\" radius=\"10\" mass=\"8\" y=\"3\"/>\n"
        "<body bone=\"head\" shape=\"circle\" radius=\"12\" mass=\"1\" x=\"0\" y=\"-12\"/>\n"
        "<body bone=\"arm\" radius=\"4\" mass=\"2\" x=\"25\"/>\n"
        "<joint parent=\"torso\" child=\"head\"/>\n<joint parent=\"torso\" child=\"arm\"/>\n</rig>\n",
        "offsets.rig.xml");
    INFO(describe(loaded.diagnostics));
    REQUIRE(loaded.rig);
    const RigDefinition& rig = *loaded.rig;
    World world = quietWorld();
    Ragdoll ragdoll = buildRagdoll(world, rig, defaultRagdollDef());
    auto worldPoint = [&](const char* bone, Vec2 local) {
        const BodyId body = ragdoll.bodies[size_t(rig.bodyOfBone(rig.findBone(bone)))];
        return transformPoint(world.bodyTransform(body), local);
    };
    auto shapeOf = [&](const char* bone) { return world.bodyShape(ragdoll.bodies[size_t(rig.bodyOfBone(rig.findBone(bone)))]); };
    // The head's bone points up from (0, 0.5): y = -12 cm in its frame is 12 cm to the right
    // of it, x = 0 its origin.
    REQUIRE(shapeOf("head")->type == ShapeType::Circle);
    checkNear(worldPoint("head", shapeOf("head")->geometry.vertices[0]), {0.12, 0.5}, 1e-9);
    // The arm's capsule keeps its 40 cm and runs from 5 to 45 cm along the bone (pointing
    // right from (0, 0.45)).
    REQUIRE(shapeOf("arm")->type == ShapeType::Capsule);
    checkNear(worldPoint("arm", shapeOf("arm")->geometry.vertices[0]), {0.05, 0.45}, 1e-9);
    checkNear(worldPoint("arm", shapeOf("arm")->geometry.vertices[1]), {0.45, 0.45}, 1e-9);
    // The torso's box, 3 cm to the left of its bone (pointing up): x from -0.13 to 0.07.
    REQUIRE(shapeOf("torso")->type == ShapeType::Polygon);
    double minX = 1e9, maxX = -1e9;
    for (int v = 0; v < shapeOf("torso")->geometry.count; ++v) {
        const Vec2 p = worldPoint("torso", shapeOf("torso")->geometry.vertices[v]);
        minX = std::min(minX, p.x);
        maxX = std::max(maxX, p.x);
    }
    CHECK(minX == Approx(-0.13).margin(1e-9));
    CHECK(maxX == Approx(0.07).margin(1e-9));
    // The masses are as given, the centres of mass where the shapes are.
    CHECK(world.bodyMass(ragdoll.bodies[size_t(rig.bodyOfBone(rig.findBone("head")))]) == Approx(1.0));
    checkNear(world.worldCenterOfMass(ragdoll.bodies[size_t(rig.bodyOfBone(rig.findBone("head")))]), {0.12, 0.5}, 1e-9);
    // The joints stay at the child bones' origins.
    REQUIRE(ragdoll.joints.size() == 2);
    for (size_t j = 0; j < 2; ++j) {
        const JointDef joint = world.jointDef(ragdoll.joints[j]);
        checkNear(worldPoint(j == 0 ? "head" : "arm", joint.localAnchorB), j == 0 ? Vec2{0.0, 0.5} : Vec2{0.0, 0.45}, 1e-9);
    }
}

TEST_CASE("a box body spans its bone and is twice the radius thick", "[rig][builder]") {
    auto rig = load(dataPath("units_m.rig.xml"));
    World world = quietWorld();
    Ragdoll ragdoll = buildRagdoll(world, *rig, defaultRagdollDef());
    int leg = rig->findBone("leg.L");
    int b = rig->bodyOfBone(leg);
    const Shape* shape = world.bodyShape(ragdoll.bodies[size_t(b)]);
    REQUIRE(shape);
    REQUIRE(shape->type == ShapeType::Polygon);
    REQUIRE(shape->geometry.count == 4);
    double minX = 1e9, maxX = -1e9, minY = 1e9, maxY = -1e9;
    for (int v = 0; v < 4; ++v) {
        minX = std::min(minX, shape->geometry.vertices[v].x);
        maxX = std::max(maxX, shape->geometry.vertices[v].x);
        minY = std::min(minY, shape->geometry.vertices[v].y);
        maxY = std::max(maxY, shape->geometry.vertices[v].y);
    }
    CHECK(minX == Approx(0.0).margin(1e-12));
    CHECK(maxX == Approx(0.9));
    CHECK(minY == Approx(-0.06));
    CHECK(maxY == Approx(0.06));
}

TEST_CASE("joints sit at the child's origin with the rig's limits, stiffness, damping and friction", "[rig][builder]") {
    RigLoadResult result = loadRigFromText(R"(<rig name="j" format="1" units="m">
  <bone name="torso" angle="90" length="0.5"/>
  <bone name="arm" parent="torso" x="0.4" angle="150" length="0.3"/>
  <bone name="hand" parent="arm" length="0.1"/>
  <body bone="torso" radius="0.1" mass="8"/>
  <body bone="arm" radius="0.04" mass="1"/>
  <body bone="hand" radius="0.03" mass="0.5"/>
  <joint parent="torso" child="arm" lower="-30" upper="60" stiffness="0.5" damping="2" friction="0.8" collide="true"/>
  <joint parent="arm" child="hand"/>
</rig>)", "joints.rig.xml");
    REQUIRE(result.rig);
    const RigDefinition& rig = *result.rig;
    World world = quietWorld();
    RagdollDef def = defaultRagdollDef();
    def.position = {1.0, 2.0};
    def.angle = -0.4;
    Ragdoll ragdoll = buildRagdoll(world, rig, def);
    REQUIRE(ragdoll.joints.size() == 2);
    const Transform place{def.position, makeRot(def.angle)};

    JointDef shoulder = world.jointDef(ragdoll.joints[0]);
    CHECK(shoulder.bodyA == ragdoll.bodies[0]);
    CHECK(shoulder.bodyB == ragdoll.bodies[1]);
    checkNear(transformPoint(world.bodyTransform(ragdoll.bodies[0]), shoulder.localAnchorA),
              transformPoint(place, rig.bones[1].origin), 1e-12);
    checkNear(shoulder.localAnchorB, {0.0, 0.0}, 1e-12);  // the child's origin
    CHECK(shoulder.referenceAngle == Approx(150.0 * kPi / 180.0));
    CHECK(shoulder.enableLimit);
    CHECK(shoulder.lowerAngle == Approx(-30.0 * kPi / 180.0));
    CHECK(shoulder.upperAngle == Approx(60.0 * kPi / 180.0));
    CHECK(shoulder.stiffness == 0.5);
    CHECK(shoulder.angularDamping == 2.0);
    CHECK(shoulder.frictionTorque == 0.8);  // N·m, though the rig is in metres or pixels alike
    CHECK(shoulder.collideConnected);

    JointDef wrist = world.jointDef(ragdoll.joints[1]);
    CHECK_FALSE(wrist.enableLimit);
    CHECK(wrist.frictionTorque == 0.0);
    CHECK(wrist.stiffness == 1.0);
    CHECK_FALSE(wrist.collideConnected);
    for (JointId joint : ragdoll.joints) {
        JointError error = world.jointError(joint);
        CHECK(error.separation < 1e-12);
        CHECK(error.relativeAngle == Approx(0.0).margin(1e-12));
    }
}

TEST_CASE("the same rig in px, cm and m builds the same bodies", "[rig][builder][units]") {
    auto metres = load(dataPath("units_m.rig.xml"));
    for (const char* other : {"units_cm.rig.xml", "units_px.rig.xml"}) {
        CAPTURE(other);
        auto rig = load(dataPath(other));
        CHECK(rig->solver.gravity == Approx(metres->solver.gravity).margin(1e-6));
        World a = quietWorld(), b = quietWorld();
        Ragdoll ra = buildRagdoll(a, *metres, defaultRagdollDef());
        Ragdoll rb = buildRagdoll(b, *rig, defaultRagdollDef());
        REQUIRE(ra.bodies.size() == 4);
        REQUIRE(rb.bodies.size() == ra.bodies.size());
        for (size_t i = 0; i < ra.bodies.size(); ++i) {
            CAPTURE(i);
            Transform xa = a.bodyTransform(ra.bodies[i]), xb = b.bodyTransform(rb.bodies[i]);
            checkNear(xb.p, xa.p, 1e-6);
            CHECK(b.bodyState(rb.bodies[i]).angle == Approx(a.bodyState(ra.bodies[i]).angle).margin(1e-6));
            CHECK(b.bodyMass(rb.bodies[i]) == Approx(a.bodyMass(ra.bodies[i])).margin(1e-6));
            CHECK(b.bodyInertia(rb.bodies[i]) == Approx(a.bodyInertia(ra.bodies[i])).margin(1e-6));
            const Shape* sa = a.bodyShape(ra.bodies[i]);
            const Shape* sb = b.bodyShape(rb.bodies[i]);
            REQUIRE(sa->type == sb->type);
            REQUIRE(sa->geometry.count == sb->geometry.count);
            CHECK(sb->geometry.radius == Approx(sa->geometry.radius).margin(1e-6));
            for (int v = 0; v < sa->geometry.count; ++v) checkNear(sb->geometry.vertices[v], sa->geometry.vertices[v], 1e-6);
        }
        REQUIRE(rb.joints.size() == ra.joints.size());
        for (size_t j = 0; j < ra.joints.size(); ++j) {
            JointDef ja = a.jointDef(ra.joints[j]), jb = b.jointDef(rb.joints[j]);
            checkNear(jb.localAnchorA, ja.localAnchorA, 1e-6);
            CHECK(jb.lowerAngle == Approx(ja.lowerAngle).margin(1e-6));
            CHECK(jb.upperAngle == Approx(ja.upperAngle).margin(1e-6));
            CHECK(jb.referenceAngle == Approx(ja.referenceAngle).margin(1e-6));
        }
    }
}

TEST_CASE("the whole ragdoll starts with the given rigid velocity", "[rig][builder]") {
    auto rig = load(contentRig("stickman.rig.xml"));
    World world = quietWorld();
    RagdollDef def = defaultRagdollDef();
    def.position = {0.0, 1.0};
    def.linearVelocity = {2.0, 0.5};
    def.angularVelocity = 1.5;
    Ragdoll ragdoll = buildRagdoll(world, *rig, def);
    for (BodyId body : ragdoll.bodies) {
        // bodyState() gives the origin's velocity; the centre of mass moves with
        // v_origin + ω × (centre − origin), and a rigid motion about def.position means
        // v + ω × (centre − position) for it, whichever point the solver stores.
        BodyState state = world.bodyState(body);
        Vec2 center = world.worldCenterOfMass(body);
        Vec2 centerVelocity = state.linearVelocity + cross(state.angularVelocity, center - state.position);
        checkNear(centerVelocity, def.linearVelocity + cross(def.angularVelocity, center - def.position), 1e-12);
        CHECK(state.angularVelocity == 1.5);
    }
}

TEST_CASE("a ragdoll does not collide with itself but does with another ragdoll", "[rig][builder][collision]") {
    auto rig = load(contentRig("stickman.rig.xml"));
    World world = quietWorld();
    RagdollDef first = defaultRagdollDef();
    first.collisionGroup = -1;
    buildRagdoll(world, *rig, first);
    world.step(kDt);
    // Ten overlapping bodies (both arms and legs coincide in the rest pose), no contact.
    CHECK(world.stats().contacts == 0);

    RagdollDef second = first;
    second.collisionGroup = -2;
    second.position = {0.05, 0.0};
    buildRagdoll(world, *rig, second);
    world.step(kDt);
    CHECK(world.stats().contacts > 0);
}

TEST_CASE("collide=\"true\" lets a joint's two bodies touch", "[rig][builder][collision]") {
    const char* text = R"(<rig name="c" format="1" units="m">
  <bone name="a" length="0.5"/>
  <bone name="b" parent="a" angle="170" length="0.5"/>
  <body bone="a" radius="0.05" mass="1"/>
  <body bone="b" radius="0.05" mass="1"/>
  <joint parent="a" child="b" COLLIDE/>
</rig>)";
    for (bool collide : {false, true}) {
        std::string xml = text;
        xml.replace(xml.find("COLLIDE"), 7, collide ? "collide=\"true\"" : "");
        RigLoadResult result = loadRigFromText(xml, "c.rig.xml");
        REQUIRE(result.rig);
        World world = quietWorld();
        buildRagdoll(world, *result.rig, defaultRagdollDef());
        world.step(kDt);
        CAPTURE(collide);
        CHECK((world.stats().contacts > 0) == collide);  // b folds back over a
    }
}

TEST_CASE("a bad ragdoll def builds nothing", "[rig][builder]") {
    auto rig = load(contentRig("stickman.rig.xml"));
    World world = quietWorld();
    RagdollDef def = defaultRagdollDef();
    std::string error;
    def.collisionGroup = 0;
    CHECK(buildRagdoll(world, *rig, def, &error).empty());
    CHECK(error == "collision group 0 must be negative (one per ragdoll)");
    def.collisionGroup = -1;
    def.position.x = NAN;
    CHECK(buildRagdoll(world, *rig, def, &error).empty());
    RigDefinition edited = *rig;
    edited.bodies[3].mass = -1.0;
    CHECK(buildRagdoll(world, edited, defaultRagdollDef(), &error).empty());
    CHECK(world.stats().bodies == 0);
    CHECK(world.stats().joints == 0);
}

TEST_CASE("building and destroying a ragdoll 10,000 times leaves the world as it was", "[rig][builder]") {
    auto rig = load(contentRig("stickman.rig.xml"));
    WorldDef worldDef = defaultWorldDef();
    World world(worldDef);
    BodyDef groundDef = defaultBodyDef();
    groundDef.type = BodyType::Static;
    groundDef.position = {0.0, -0.5};
    world.setPolygon(world.createBody(groundDef), defaultShapeDef(), makeBox(20.0, 0.5));
    const WorldStats before = world.stats();
    for (int round = 0; round < 10000; ++round) {
        RagdollDef def = defaultRagdollDef();
        def.collisionGroup = -1 - round % 7;
        Ragdoll ragdoll = buildRagdoll(world, *rig, def);
        REQUIRE(ragdoll.bodies.size() == 10);
        REQUIRE(ragdoll.joints.size() == 9);
        if (round % 100 == 0) world.step(kDt);  // with contacts and joint groups made, now and then
        destroyRagdoll(world, ragdoll);
        REQUIRE(ragdoll.empty());
    }
    const WorldStats after = world.stats();
    CHECK(after.bodies == before.bodies);
    CHECK(after.joints == before.joints);
    world.step(kDt);
    CHECK(world.contacts().empty());
}
