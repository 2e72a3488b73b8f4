// The SCENES.md (v1) scenes as data. The tables below are SCENES.md's, in its coordinates
// (stickman standing at x = 0 with feet at y = 0); builders only translate them.
#include "scenes.h"

#include <cassert>
#include <iterator>
#include <string>

namespace scenes {

namespace {

// SCENES.md: friction 0.6 everywhere, restitution 0; stickman damping where the engine has it.
constexpr double kFriction = 0.6;
constexpr double kStickmanLinearDamping = 0.1;   // 1/s
constexpr double kStickmanAngularDamping = 0.5;  // 1/s

struct BoneRow {
    const char* name;
    ShapeKind shape;
    Vec2 p0, p1;  ///< rest pose, feet at y = 0; circle: p0 = centre
    double radius;
    double mass;
};

// The stickman table. Left and right limbs coincide in the rest pose (a 2D side view).
constexpr BoneRow kBones[] = {
    {"torso", ShapeKind::Capsule, {0.0, 1.00}, {0.0, 1.50}, 0.09, 8.0},
    {"head", ShapeKind::Circle, {0.0, 1.65}, {0.0, 1.65}, 0.12, 1.5},
    {"upper_arm_L", ShapeKind::Capsule, {0.0, 1.45}, {0.0, 1.17}, 0.045, 1.5},
    {"upper_arm_R", ShapeKind::Capsule, {0.0, 1.45}, {0.0, 1.17}, 0.045, 1.5},
    {"forearm_L", ShapeKind::Capsule, {0.0, 1.17}, {0.0, 0.90}, 0.04, 1.5},
    {"forearm_R", ShapeKind::Capsule, {0.0, 1.17}, {0.0, 0.90}, 0.04, 1.5},
    {"thigh_L", ShapeKind::Capsule, {0.0, 1.00}, {0.0, 0.52}, 0.06, 1.5},
    {"thigh_R", ShapeKind::Capsule, {0.0, 1.00}, {0.0, 0.52}, 0.06, 1.5},
    {"shin_L", ShapeKind::Capsule, {0.0, 0.52}, {0.0, 0.06}, 0.05, 1.5},
    {"shin_R", ShapeKind::Capsule, {0.0, 0.52}, {0.0, 0.06}, 0.05, 1.5},
};
constexpr int kBoneCount = int(std::size(kBones));

enum Bone { Torso, Head, UpperArmL, UpperArmR, ForearmL, ForearmR, ThighL, ThighR, ShinL, ShinR };

struct JointRow {
    const char* name;
    Bone parent, child;
    Vec2 anchor;  ///< rest pose, feet at y = 0
    double lower, upper;  ///< radians on child angle - parent angle
};

constexpr JointRow kJoints[] = {
    {"neck", Torso, Head, {0.0, 1.50}, -0.8, 0.8},
    {"shoulder_L", Torso, UpperArmL, {0.0, 1.45}, -2.5, 2.5},
    {"shoulder_R", Torso, UpperArmR, {0.0, 1.45}, -2.5, 2.5},
    {"elbow_L", UpperArmL, ForearmL, {0.0, 1.17}, 0.0, 2.4},
    {"elbow_R", UpperArmR, ForearmR, {0.0, 1.17}, 0.0, 2.4},
    {"hip_L", Torso, ThighL, {0.0, 1.00}, -1.6, 0.4},
    {"hip_R", Torso, ThighR, {0.0, 1.00}, -1.6, 0.4},
    {"knee_L", ThighL, ShinL, {0.0, 0.52}, -2.4, 0.0},
    {"knee_R", ThighR, ShinR, {0.0, 0.52}, -2.4, 0.0},
};

BodySpec staticBox(const char* name, Vec2 centre, Vec2 halfExtents) {
    BodySpec b;
    b.name = name;
    b.shape = ShapeKind::Box;
    b.p0 = centre;
    b.p1 = centre;
    b.halfExtents = halfExtents;
    b.mass = 0.0;
    b.isStatic = true;
    b.friction = kFriction;
    return b;
}

}  // namespace

void addStickman(SceneSpec& scene, double x, double footY, Vec2 velocity, int group) {
    const int first = int(scene.bodies.size());
    const Vec2 offset{x, footY};
    for (const BoneRow& row : kBones) {
        BodySpec b;
        b.name = row.name;
        b.shape = row.shape;
        b.p0 = row.p0 + offset;
        b.p1 = row.p1 + offset;
        b.radius = row.radius;
        b.mass = row.mass;
        b.velocity = velocity;
        b.friction = kFriction;
        b.restitution = 0.0;
        b.linearDamping = kStickmanLinearDamping;
        b.angularDamping = kStickmanAngularDamping;
        b.group = group;
        scene.bodies.push_back(b);
    }
    for (const JointRow& row : kJoints) {
        JointSpec j;
        j.name = row.name;
        j.bodyA = first + row.parent;
        j.bodyB = first + row.child;
        j.anchor = row.anchor + offset;
        j.enableLimit = true;
        j.lower = row.lower;
        j.upper = row.upper;
        scene.joints.push_back(j);
    }
}

SceneSpec makePile(int stickmen) {
    assert(stickmen >= 0);
    // SCENES.md grid: 100 columns 1.1 m apart from x = -55, rows 2.2 m apart from feet at 0.5 m.
    constexpr int kColumns = 100;
    constexpr double kFirstColumnX = -55.0, kColumnSpacing = 1.1;
    constexpr double kFirstRowFootY = 0.5, kRowSpacing = 2.2;
    // The ground spans the world; the walls stand on it, their inner faces at x = ±60 from
    // y = 0 to 200, with 1 m of thickness outside the world.
    constexpr double kHalfWidth = 60.0, kGroundThickness = 1.0, kWallThickness = 1.0, kWallHeight = 200.0;

    SceneSpec scene;
    scene.name = "pile";
    scene.worldHalfWidth = kHalfWidth;
    scene.bodies.reserve(3 + size_t(stickmen) * kBoneCount);
    scene.joints.reserve(size_t(stickmen) * std::size(kJoints));
    scene.bodies.push_back(staticBox("ground", {0.0, -0.5 * kGroundThickness}, {kHalfWidth, 0.5 * kGroundThickness}));
    scene.bodies.push_back(staticBox("wall_left", {-kHalfWidth - 0.5 * kWallThickness, 0.5 * kWallHeight},
                                     {0.5 * kWallThickness, 0.5 * kWallHeight}));
    scene.bodies.push_back(staticBox("wall_right", {kHalfWidth + 0.5 * kWallThickness, 0.5 * kWallHeight},
                                     {0.5 * kWallThickness, 0.5 * kWallHeight}));

    for (int i = 0; i < stickmen; ++i) {
        const int column = i % kColumns, row = i / kColumns;
        // A fixed spread of -1.0 .. +1.0 m/s so that the stickmen tumble (7919 is prime).
        const double vx = double((i * 7919) % 11 - 5) * 0.2;
        addStickman(scene, kFirstColumnX + kColumnSpacing * column, kFirstRowFootY + kRowSpacing * row, {vx, 0.0}, i);
    }
    return scene;
}

SceneSpec makeChain(bool horizontal) {
    constexpr int kLinks = 20;
    constexpr double kLinkLength = 0.5, kLinkRadius = 0.05, kLinkMass = 1.0, kEndMass = 50.0;
    const Vec2 pin{0.0, 20.0};
    // Hanging straight down, or laid out to the right of the pin (it then swings down).
    const Vec2 step = horizontal ? Vec2{kLinkLength, 0.0} : Vec2{0.0, -kLinkLength};

    SceneSpec scene;
    scene.name = horizontal ? "chain_horizontal" : "chain";
    scene.bodies.reserve(kLinks + 1);
    scene.joints.reserve(kLinks + 1);
    // Links 0..19, then the heavy end body (index 20) of the same size.
    for (int k = 0; k <= kLinks; ++k) {
        const bool isEnd = k == kLinks;
        BodySpec b;
        b.name = isEnd ? "end_mass" : "link_" + std::to_string(k);
        b.shape = ShapeKind::Capsule;
        b.p0 = pin + double(k) * step;
        b.p1 = pin + double(k + 1) * step;
        b.radius = kLinkRadius;
        b.mass = isEnd ? kEndMass : kLinkMass;
        b.friction = kFriction;
        b.group = 0;  // one group: the links never collide with each other

        JointSpec j;
        j.name = "pin_" + std::to_string(k);
        j.bodyA = k - 1;  // -1 for k = 0: the static pin
        j.bodyB = k;
        j.anchor = b.p0;
        scene.bodies.push_back(b);
        scene.joints.push_back(j);
    }
    return scene;
}

}  // namespace scenes
