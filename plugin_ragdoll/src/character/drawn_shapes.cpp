#include "character/drawn_shapes.h"

#include <algorithm>
#include <cmath>

#include "solver/collide.h"

namespace ragdoll {

namespace {

/// Only contacts this close are looked for; anything further reports this distance.
constexpr double kSearchDistance = 0.05;

double deepestPoint(const Manifold& m, Vec2 normal, Vec2* out) {
    if (m.pointCount == 0) return kSearchDistance;
    double separation = m.points[0].separation;
    for (int i = 1; i < m.pointCount; ++i) separation = std::min(separation, m.points[i].separation);
    if (out) *out = normal;
    return separation;
}

}  // namespace

namespace {

/// The capsule inscribed in a rectangle of a bone's frame — its centre at origin + turn·centre,
/// its half sizes hw and hh along turn's axes: along the long side, half the short side
/// round — placed on the bone as drawn (scaled, flipped when mirrored).
void addInscribedCapsule(Vec2 origin, Rot turn, Vec2 centre, double hw, double hh, const BonePose& pose, double scale,
                         bool mirrored, std::vector<DrawnShape>& out) {
    const Vec2 half = hw >= hh ? Vec2{hw - hh, 0.0} : Vec2{0.0, hh - hw};
    const Rot bone = makeRot(pose.angle);
    auto place = [&](Vec2 local) {
        Vec2 q = origin + rotate(turn, centre + local);
        if (mirrored) q.y = -q.y;
        return pose.origin + rotate(bone, scale * q);
    };
    out.push_back({place(-1.0 * half), place(half), scale * std::min(hw, hh)});
}

}  // namespace

void drawnShapes(const RigDefinition& rig, const std::vector<BonePose>& poses, double scale, bool mirrored,
                 std::vector<DrawnShape>& out) {
    out.clear();
    // A cut-out part as the capsule inscribed in the rectangle its art fills (its opaque
    // texels', found when the rig loaded; the whole quad when unknown), so the corners a
    // limb's or a shoe's art leaves clear are left out and a round head is the circle in its
    // square. Placed as draw.cpp places the quad: the rect's x across the quad's width, its
    // y (down) from the quad's top, then mirrored within the quad as the sprite's flip says
    // (the art at an unflipped part's left lies at a flipX part's right).
    for (const RigSprite& sprite : rig.sprites) {
        const PixelRect& art = sprite.opaque.width > 0 ? sprite.opaque : sprite.rect;
        const double toX = sprite.width / std::max(sprite.rect.width, 1), toY = sprite.height / std::max(sprite.rect.height, 1);
        const double left = -0.5 * sprite.width + toX * (art.x - sprite.rect.x);
        const double top = 0.5 * sprite.height - toY * (art.y - sprite.rect.y);
        const double hw = 0.5 * toX * art.width, hh = 0.5 * toY * art.height;
        Vec2 middle{left + hw, top - hh};
        if (sprite.flipX) middle.x = -middle.x;
        if (sprite.flipY) middle.y = -middle.y;
        addInscribedCapsule(sprite.centre, makeRot(sprite.angle), middle, hw, hh, poses[size_t(sprite.bone)], scale, mirrored,
                            out);
    }
    // A mesh as each bone's share of it (RigMeshPart): the capsule inscribed in its box, on
    // that bone. A mesh is cut to its art's outline, so its box is the art's.
    for (const RigMesh& mesh : rig.meshes)
        for (const RigMeshPart& part : mesh.parts) {
            if (part.low.x > part.high.x) continue;
            addInscribedCapsule({0.0, 0.0}, makeRot(0.0), 0.5 * (part.low + part.high), 0.5 * (part.high.x - part.low.x),
                                0.5 * (part.high.y - part.low.y), poses[size_t(part.bone)], scale, mirrored, out);
        }
    for (const RigVisual& visual : rig.visuals) {
        const BonePose& pose = poses[size_t(visual.bone)];
        const double length = rig.bones[size_t(visual.bone)].length;
        const Vec2 along{std::cos(pose.angle), std::sin(pose.angle)};
        if (visual.shape == VisualShape::Circle) {
            if (visual.radius <= 0.0) continue;
            const Vec2 c = pose.origin + (0.5 * length) * along;
            out.push_back({c, c, visual.radius * scale});
        } else if (visual.width > 0.0) {
            out.push_back({pose.origin, pose.origin + length * along, 0.5 * visual.width * scale});
        }
    }
}

double drawnSeparation(const World& world, BodyId body, const DrawnShape& shape, Vec2* normal) {
    const Shape* s = world.bodyShape(body);
    if (!s) return kSearchDistance;
    const Transform xf = world.bodyTransform(body);
    const Transform identity{{0.0, 0.0}, makeRot(0.0)};
    const Polygon& g = s->geometry;
    const bool round = shape.a.x == shape.b.x && shape.a.y == shape.b.y;
    const Circle circle{shape.a, shape.radius};
    const Capsule capsule{shape.a, shape.b, shape.radius};
    Manifold m;
    switch (s->type) {
    case ShapeType::Polygon:
        m = round ? collidePolygonAndCircle(g, xf, circle, identity, kSearchDistance)
                  : collidePolygonAndCapsule(g, xf, capsule, identity, kSearchDistance);
        return deepestPoint(m, m.normal, normal);
    case ShapeType::Capsule: {
        const Capsule own{g.vertices[0], g.vertices[1], g.radius};
        m = round ? collideCapsuleAndCircle(own, xf, circle, identity, kSearchDistance)
                  : collideCapsules(own, xf, capsule, identity, kSearchDistance);
        return deepestPoint(m, m.normal, normal);
    }
    case ShapeType::Circle: {
        const Circle own{g.vertices[0], g.radius};
        if (round) {
            m = collideCircles(own, xf, circle, identity, kSearchDistance);
            return deepestPoint(m, m.normal, normal);
        }
        m = collideCapsuleAndCircle(capsule, identity, own, xf, kSearchDistance);  // normal: shape → body
        return deepestPoint(m, -1.0 * m.normal, normal);
    }
    }
    return kSearchDistance;
}

DrawnDepth deepestOverlap(const World& world, const std::vector<DrawnShape>& shapes, Obstacles obstacles,
                          std::vector<BodyId>& scratch, double minPropMass, double maxPropMass) {
    DrawnDepth deepest;
    for (const DrawnShape& shape : shapes) {
        const double r = shape.radius;
        scratch.clear();
        world.queryAABB({{std::min(shape.a.x, shape.b.x) - r, std::min(shape.a.y, shape.b.y) - r},
                         {std::max(shape.a.x, shape.b.x) + r, std::max(shape.a.y, shape.b.y) + r}},
                        scratch);
        for (BodyId body : scratch) {
            const BodyType type = world.bodyType(body);
            if (type == BodyType::Kinematic) continue;
            if (type == BodyType::Static && obstacles == Obstacles::Props) continue;
            if (type == BodyType::Dynamic) {
                const Shape* s = world.bodyShape(body);
                if (obstacles == Obstacles::Terrain || !s || s->filter.group != 0) continue;
                if (const double mass = world.bodyMass(body); mass < minPropMass || mass >= maxPropMass) continue;
            }
            Vec2 normal;
            const double depth = -drawnSeparation(world, body, shape, &normal);
            if (depth > deepest.depth) deepest = {depth, normal, body};
        }
    }
    return deepest;
}

}  // namespace ragdoll
