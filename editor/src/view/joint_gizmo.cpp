#include "view/joint_gizmo.h"

#include <algorithm>

#include <imgui.h>

#include <cmath>

#include "model/edit_history.h"
#include "gizmo/label_layout.h"
#include "paper/plugin_host.h"
#include "paper/camera.h"

namespace paper::editor {

namespace {

// Colours: the arc in the editor's accent blue, red while the joint is outside its range,
// handles orange (lower) and green (upper) so the two ends read apart at a glance.
constexpr ImU32 kArcColor = IM_COL32(40, 110, 220, 255);
constexpr ImU32 kArcFill = IM_COL32(40, 110, 220, 45);
constexpr ImU32 kOutsideColor = IM_COL32(220, 40, 40, 255);
constexpr ImU32 kOutsideFill = IM_COL32(220, 40, 40, 45);
constexpr ImU32 kLowerColor = IM_COL32(235, 130, 20, 255);
constexpr ImU32 kUpperColor = IM_COL32(30, 160, 70, 255);
constexpr ImU32 kNeedleColor = IM_COL32(30, 30, 40, 255);
constexpr ImU32 kHighlight = IM_COL32(255, 255, 255, 255);
constexpr ImU32 kHalo = IM_COL32(255, 255, 255, 170);
constexpr ImU32 kLabelColor = IM_COL32(30, 34, 48, 255);
constexpr int kArcSegments = 48;

/// Drawable pixels (the camera's) to ImGui's window coordinates.
ImVec2 toImGui(Vec2 screen) {
    ImVec2 scale = ImGui::GetIO().DisplayFramebufferScale;
    return {screen.x / (scale.x > 0 ? scale.x : 1.0f), screen.y / (scale.y > 0 ? scale.y : 1.0f)};
}

ImVec2 toImGui(const Camera& camera, Vec2d world) {
    return toImGui(camera.worldToScreen(Vec2{float(world.x), float(world.y)}));
}

/// A colour at a fraction of its alpha: the unselected gizmos of "Show all".
ImU32 faded(ImU32 color, float alpha) {
    ImVec4 c = ImGui::ColorConvertU32ToFloat4(color);
    c.w *= alpha;
    return ImGui::ColorConvertFloat4ToU32(c);
}

}  // namespace

const JointView* findJoint(const std::vector<JointView>& joints, const std::string& name) {
    for (const JointView& j : joints)
        if (j.name == name) return &j;
    return nullptr;
}

GizmoFrame gizmoFrameOf(const JointInfo& info) {
    return {{info.pivot.x, info.pivot.y}, info.parentAngle, info.restOffset, info.mirrored};
}

JointLimits limitsOf(const JointInfo& info) { return sanitizeLimits({info.lowerLimit, info.upperLimit}); }

Vec2d gizmoPartWorld(const JointInfo& info, GizmoPart part, double pixelsPerMetre) {
    GizmoFrame frame = gizmoFrameOf(info);
    JointLimits limits = limitsOf(info);
    double radius = kGizmoRadiusPixels / pixelsPerMetre;
    if (part == GizmoPart::LowerHandle) return pointOnArc(frame, limits.lower, radius);
    if (part == GizmoPart::UpperHandle) return pointOnArc(frame, limits.upper, radius);
    return frame.pivot;
}

JointGizmoTool::Hit JointGizmoTool::hitAt(const std::vector<JointView>& joints, Vec2d mouseWorld, double pixelsPerMetre,
                                          bool showAll) const {
    // The selected gizmo first: it is drawn on top, so it wins where gizmos overlap.
    if (const JointView* j = findJoint(joints, selected_)) {
        GizmoPart part = hitTest(gizmoFrameOf(j->info), limitsOf(j->info), kGizmoRadiusPixels, kHandleRadiusPixels,
                                 pixelsPerMetre, mouseWorld);
        // The arc too (its tooltip gives the range), but not over another joint's pivot: the
        // 60-pixel arc passes through the neighbours' pivots (a shoulder's through its elbow),
        // and a click there is for that joint.
        const bool onOtherPivot = part == GizmoPart::Arc && std::any_of(joints.begin(), joints.end(), [&](const JointView& o) {
            const Vec2d pivot = gizmoFrameOf(o.info).pivot;
            return o.name != j->name && std::hypot(pivot.x - mouseWorld.x, pivot.y - mouseWorld.y) * pixelsPerMetre <= kPivotPickPixels;
        });
        if (part != GizmoPart::None && !onOtherPivot) return {j->name, part};
    }
    if (showAll) {
        for (const JointView& j : joints) {
            GizmoPart part = hitTest(gizmoFrameOf(j.info), limitsOf(j.info), kGizmoRadiusPixels, kHandleRadiusPixels,
                                     pixelsPerMetre, mouseWorld);
            if (part == GizmoPart::LowerHandle || part == GizmoPart::UpperHandle) return {j.name, part};
        }
    }
    return {};
}

bool JointGizmoTool::update(const std::vector<JointView>& joints, const GizmoMouse& mouse, double pixelsPerMetre,
                            bool showAll, PluginHost& plugin, std::optional<Edit>& finished) {
    if (dragging()) {
        const JointView* j = findJoint(joints, dragJoint_);
        if (!j) {
            cancelDrag();
            return false;
        }
        JointLimits now = limitsOf(j->info);
        JointLimits next = updateLimitDrag(drag_, now, angleFromMouse(gizmoFrameOf(j->info), mouse.world), mouse.snap);
        if (next.lower != now.lower || next.upper != now.upper) {
            setJointLimits(plugin, j->info, next);
            now = next;
        }
        if (mouse.released || !mouse.down) {
            finished = limitEdit(dragRef_, dragStart_, now);
            hovered_ = {dragJoint_, drag_.handle};
            drag_ = {};
        }
        return true;
    }

    hovered_ = hitAt(joints, mouse.world, pixelsPerMetre, showAll);
    if (!mouse.pressed) return false;
    if (hovered_.part == GizmoPart::LowerHandle || hovered_.part == GizmoPart::UpperHandle) {
        const JointView* j = findJoint(joints, hovered_.joint);
        selected_ = j->name;
        dragJoint_ = j->name;
        dragRef_ = jointRef(j->info.kind, j->info.character, j->name);
        dragStart_ = limitsOf(j->info);
        drag_ = beginLimitDrag(hovered_.part, dragStart_, angleFromMouse(gizmoFrameOf(j->info), mouse.world));
        return true;
    }
    // A click on the selected arc keeps it selected; anywhere else is the editor's to pick.
    return hovered_.part == GizmoPart::Arc;
}

void JointGizmoTool::drawOne(ImDrawList* list, const JointView& joint, const Camera& camera, bool selected) const {
    const JointInfo& info = joint.info;
    GizmoFrame frame = gizmoFrameOf(info);
    JointLimits limits = limitsOf(info);
    double ppm = camera.pixelsPerMetre;
    double radius = kGizmoRadiusPixels / ppm;
    bool isOutside = outside(info.currentAngle, limits, toRadians(0.5));
    bool active = dragging() && dragJoint_ == joint.name;
    bool hoveredJoint = hovered_.joint == joint.name;

    ImVec2 pivot = toImGui(camera, frame.pivot);
    std::vector<Vec2d> arc = arcPoints(frame, limits, radius, kArcSegments);
    std::vector<ImVec2> points;
    points.reserve(arc.size());
    for (Vec2d p : arc) points.push_back(toImGui(camera, p));
    ImU32 arcColor = isOutside ? kOutsideColor : kArcColor;

    if (!selected) {
        // Thin arcs only: with every joint shown, wedges and needles would pile up into a blot.
        list->AddPolyline(points.data(), int(points.size()), faded(kHalo, 0.6f), ImDrawFlags_None, 3.0f);
        list->AddPolyline(points.data(), int(points.size()), faded(arcColor, 0.8f), ImDrawFlags_None, 1.5f);
        for (GizmoPart part : {GizmoPart::LowerHandle, GizmoPart::UpperHandle}) {
            ImVec2 at = toImGui(camera, gizmoPartWorld(info, part, ppm));
            bool hot = (active && drag_.handle == part) || (!dragging() && hoveredJoint && hovered_.part == part);
            float r = hot ? float(kHandleRadiusPixels) * 1.3f : 3.0f;
            list->AddCircleFilled(at, r, part == GizmoPart::LowerHandle ? kLowerColor : kUpperColor);
            if (hot) list->AddCircle(at, r + 2.0f, kNeedleColor, 0, 2.0f);
        }
        return;
    }

    // The range as a pale wedge, a triangle per segment: a fan, so ranges wider than 180°
    // (not convex) fill correctly.
    // Anti-aliased fills would fringe every triangle's inner edges into visible seams.
    ImU32 fill = isOutside ? kOutsideFill : kArcFill;
    ImDrawListFlags flags = list->Flags;
    list->Flags &= ~ImDrawListFlags_AntiAliasedFill;
    for (std::size_t i = 0; i + 1 < points.size(); ++i) list->AddTriangleFilled(pivot, points[i], points[i + 1], fill);
    list->Flags = flags;
    // Lines get a pale halo first: the gizmo sits over dark limbs and the light paper alike.
    const float arcWidth = 3.0f;
    list->AddPolyline(points.data(), int(points.size()), kHalo, ImDrawFlags_None, arcWidth + 3.0f);
    list->AddPolyline(points.data(), int(points.size()), arcColor, ImDrawFlags_None, arcWidth);
    list->AddLine(pivot, points.front(), faded(kLowerColor, 0.8f), 1.0f);
    list->AddLine(pivot, points.back(), faded(kUpperColor, 0.8f), 1.0f);

    // The needle: the joint's current angle, a little past the arc.
    ImVec2 tip = toImGui(camera, pointOnArc(frame, info.currentAngle, radius * 1.15));
    const float needleWidth = 2.5f;
    list->AddLine(pivot, tip, kHalo, needleWidth + 3.0f);
    list->AddLine(pivot, tip, isOutside ? kOutsideColor : kNeedleColor, needleWidth);
    list->AddCircleFilled(pivot, 5.0f, kHalo);
    list->AddCircleFilled(pivot, 3.5f, kNeedleColor);

    for (GizmoPart part : {GizmoPart::LowerHandle, GizmoPart::UpperHandle}) {
        ImVec2 at = toImGui(camera, gizmoPartWorld(info, part, ppm));
        bool hot = (active && drag_.handle == part) || (!dragging() && hoveredJoint && hovered_.part == part);
        float r = float(kHandleRadiusPixels) * (hot ? 1.3f : 1.0f);
        list->AddCircleFilled(at, r, part == GizmoPart::LowerHandle ? kLowerColor : kUpperColor);
        // Hot: a dark ring round a white one, visible on paper and limbs alike.
        if (hot) list->AddCircle(at, r + 2.0f, kNeedleColor, 0, 2.0f);
        list->AddCircle(at, r, hot ? kHighlight : IM_COL32(255, 255, 255, 200), 0, hot ? 2.0f : 1.5f);
    }
}

double JointGizmoTool::labelDirection(const JointView& joint) const {
    ArcSweep sweep = arcSweep(gizmoFrameOf(joint.info), limitsOf(joint.info));
    return sweep.startWorldAngle + 0.5 * sweep.sweepRadians + 3.14159265358979323846;
}

void JointGizmoTool::draw(ImDrawList* list, const std::vector<JointView>& joints, const Camera& camera,
                          bool showAll) const {
    // The gizmos drawn, the selected one last (on top) and its label placed first.
    std::vector<const JointView*> shown;
    if (showAll)
        for (const JointView& j : joints)
            if (j.name != selected_) shown.push_back(&j);
    if (const JointView* selected = findJoint(joints, selected_)) shown.push_back(selected);
    for (const JointView* j : shown) drawOne(list, *j, camera, j->name == selected_);

    std::vector<LabelRequest> requests;
    for (auto it = shown.rbegin(); it != shown.rend(); ++it) {
        ImVec2 pivot = toImGui(camera, gizmoFrameOf((*it)->info).pivot);
        ImVec2 size = ImGui::CalcTextSize((*it)->name.c_str());
        requests.push_back({{pivot.x, pivot.y}, {size.x + 6.0, size.y + 2.0}, labelDirection(**it)});
    }
    std::vector<LabelBox> boxes = spreadLabels(requests);
    for (std::size_t i = 0; i < boxes.size(); ++i) {
        const JointView& j = *shown[shown.size() - 1 - i];
        bool selected = j.name == selected_;
        ImVec2 corner{float(boxes[i].corner.x), float(boxes[i].corner.y)};
        ImVec2 end{corner.x + float(boxes[i].size.x), corner.y + float(boxes[i].size.y)};
        list->AddRectFilled(corner, end, selected ? IM_COL32(255, 255, 255, 220) : IM_COL32(255, 255, 255, 160), 3.0f);
        list->AddText({corner.x + 3.0f, corner.y + 1.0f}, selected ? kLabelColor : faded(kLabelColor, 0.75f), j.name.c_str());
    }

    // The tooltip of the handle under the mouse or being dragged, in degrees.
    const std::string& name = dragging() ? dragJoint_ : hovered_.joint;
    GizmoPart part = dragging() ? drag_.handle : hovered_.part;
    if (const JointView* j = findJoint(joints, name); j && part != GizmoPart::None && !ImGui::GetIO().WantCaptureMouse)
        ImGui::SetTooltip("%s  %s", j->name.c_str(), tooltipText(part, limitsOf(j->info)).c_str());
}

}  // namespace paper::editor
