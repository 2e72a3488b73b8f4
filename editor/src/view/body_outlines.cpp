#include "view/body_outlines.h"

#include <imgui.h>

#include <cmath>

#include "paper/plugin_host.h"
#include "paper/camera.h"

namespace paper::editor {

namespace {

// Outlines in a quiet teal that reads over the dark bones and the light paper; the hovered
// object brighter and thicker; the selected body in violet, apart from the gizmo's blue,
// orange and green.
constexpr ImU32 kOutlineColor = IM_COL32(0, 150, 165, 150);
constexpr ImU32 kHoverColor = IM_COL32(0, 190, 210, 255);
constexpr ImU32 kSelectedColor = IM_COL32(150, 70, 220, 255);
constexpr ImU32 kHalo = IM_COL32(255, 255, 255, 170);
/// Points on each round end of a capsule; a circle gets twice as many.
constexpr int kEndSegments = 12;
constexpr double kPi = 3.14159265358979323846;

ImVec2 toImGui(const Camera& camera, Vec2d world) {
    Vec2 screen = camera.worldToScreen(Vec2{float(world.x), float(world.y)});
    ImVec2 scale = ImGui::GetIO().DisplayFramebufferScale;
    return {screen.x / (scale.x > 0 ? scale.x : 1.0f), screen.y / (scale.y > 0 ? scale.y : 1.0f)};
}

/// The outline as a closed loop of screen points, into points (reused from outline to outline).
void outlinePoints(const BodyShape& shape, const Camera& camera, std::vector<ImVec2>& points) {
    points.clear();
    double dx = shape.b.x - shape.a.x, dy = shape.b.y - shape.a.y;
    double along = std::atan2(dy, dx);
    auto at = [&](Vec2d centre, double angle) {
        points.push_back(toImGui(camera, {centre.x + shape.radius * std::cos(angle), centre.y + shape.radius * std::sin(angle)}));
    };
    switch (shape.outline) {
    case BodyOutline::Circle:
        for (int i = 0; i < 2 * kEndSegments; ++i) at(shape.a, 2.0 * kPi * i / (2 * kEndSegments));
        break;
    case BodyOutline::Capsule:
        // Half a circle round b, then half round a.
        for (int i = 0; i <= kEndSegments; ++i) at(shape.b, along - 0.5 * kPi + kPi * i / kEndSegments);
        for (int i = 0; i <= kEndSegments; ++i) at(shape.a, along + 0.5 * kPi + kPi * i / kEndSegments);
        break;
    case BodyOutline::Box: {
        double nx = -std::sin(along) * shape.radius, ny = std::cos(along) * shape.radius;
        for (auto [p, s] : {std::pair{shape.a, -1.0}, std::pair{shape.b, -1.0}, std::pair{shape.b, 1.0},
                            std::pair{shape.a, 1.0}})
            points.push_back(toImGui(camera, {p.x + s * nx, p.y + s * ny}));
        break;
    }
    }
}

void drawOutline(ImDrawList* list, const BodyShape& shape, const Camera& camera, ImU32 color, float width, bool halo,
                 std::vector<ImVec2>& points) {
    outlinePoints(shape, camera, points);
    if (halo) list->AddPolyline(points.data(), int(points.size()), kHalo, ImDrawFlags_Closed, width + 3.0f);
    list->AddPolyline(points.data(), int(points.size()), color, ImDrawFlags_Closed, width);
}

}  // namespace

const BodyView* findBody(const std::vector<BodyView>& bodies, int character, const std::string& name) {
    for (const BodyView& b : bodies)
        if (b.info.character == character && b.name == name) return &b;
    return nullptr;
}

BodyShape shapeOf(const BodyInfo& info) {
    BodyShape shape;
    shape.outline = info.shape == OutlineShape::Circle ? BodyOutline::Circle
                    : info.shape == OutlineShape::Box  ? BodyOutline::Box
                                                       : BodyOutline::Capsule;
    shape.a = {info.a.x, info.a.y};
    shape.b = shape.outline == BodyOutline::Circle ? shape.a : Vec2d{info.b.x, info.b.y};
    shape.radius = info.radius;
    return shape;
}

Vec2d bodyCentre(const BodyInfo& info) { return {0.5 * (info.a.x + info.b.x), 0.5 * (info.a.y + info.b.y)}; }

namespace {

void pickInputs(const std::vector<JointView>& joints, const std::vector<BodyView>& bodies, std::vector<Vec2d>& pivots,
                std::vector<BodyShape>& shapes) {
    pivots.clear();
    shapes.clear();
    for (const JointView& j : joints) pivots.push_back({j.info.pivot.x, j.info.pivot.y});
    for (const BodyView& b : bodies) shapes.push_back(shapeOf(b.info));
}

}  // namespace

std::vector<ObjectRef> objectsAt(const std::vector<JointView>& joints, const std::vector<BodyView>& bodies,
                                 Vec2d mouseWorld, double pixelsPerMetre) {
    if (pixelsPerMetre <= 0.0) return {};
    std::vector<Vec2d> pivots;
    std::vector<BodyShape> shapes;
    pickInputs(joints, bodies, pivots, shapes);
    std::vector<ObjectRef> objects;
    for (PickResult hit : picksAt(pivots, shapes, mouseWorld, kPivotPickPixels / pixelsPerMetre,
                                  kBodyPickSlackPixels / pixelsPerMetre)) {
        if (hit.pivot >= 0) {
            const JointView& j = joints[std::size_t(hit.pivot)];
            objects.push_back(jointRef(j.info.kind, j.info.character, j.name));
        } else {
            const BodyView& b = bodies[std::size_t(hit.body)];
            objects.push_back(bodyRef(b.info.kind, b.info.character, b.name));
        }
    }
    return objects;
}

bool pointSelectingBody(const std::vector<JointView>& joints, const std::vector<BodyView>& bodies,
                        const BodyView& body, double pixelsPerMetre, const std::function<bool(Vec2d)>& taken,
                        Vec2d& point) {
    if (pixelsPerMetre <= 0.0) return false;
    std::vector<Vec2d> pivots;
    std::vector<BodyShape> shapes;
    pickInputs(joints, bodies, pivots, shapes);
    int index = int(&body - bodies.data());
    return pointPickingBody(pivots, shapes, index, kPivotPickPixels / pixelsPerMetre,
                            kBodyPickSlackPixels / pixelsPerMetre, taken, point);
}

void drawBodyOutlines(ImDrawList* list, const std::vector<JointView>& joints, const std::vector<BodyView>& bodies,
                      const Camera& camera, bool showOutlines, const ObjectRef& hovered, const ObjectRef& selected) {
    std::vector<ImVec2> points;  // one outline at a time, reused for all of them
    points.reserve(2 * kEndSegments + 2);
    for (const BodyView& b : bodies) {
        ObjectRef ref = bodyRef(b.info.kind, b.info.character, b.name);
        if (ref == selected || ref == hovered) continue;  // drawn on top below
        if (showOutlines) drawOutline(list, shapeOf(b.info), camera, kOutlineColor, 1.5f, false, points);
    }
    if (hovered.kind == ObjectKind::Body && !(hovered == selected))
        if (const BodyView* b = findBody(bodies, hovered.character, hovered.name))
            drawOutline(list, shapeOf(b->info), camera, kHoverColor, 2.5f, true, points);
    if (selected.kind == ObjectKind::Body)
        if (const BodyView* b = findBody(bodies, selected.character, selected.name))
            drawOutline(list, shapeOf(b->info), camera, kSelectedColor, hovered == selected ? 3.5f : 2.5f, true, points);
    if (hovered.kind == ObjectKind::Joint)
        if (const JointView* j = findJoint(joints, hovered.name)) {
            ImVec2 pivot = toImGui(camera, {j->info.pivot.x, j->info.pivot.y});
            list->AddCircle(pivot, float(kPivotPickPixels), kHalo, 0, 4.0f);
            list->AddCircle(pivot, float(kPivotPickPixels), kHoverColor, 0, 2.0f);
        }
}

}  // namespace paper::editor
