// Bodies in the viewport: the plugin's bodies as the editor keeps them for a frame, what
// the mouse is over (a joint's pivot or a body), and the outlines drawn over the bones with
// ImGui's background draw list (under the gizmos and the panels).
#pragma once

#include <string>
#include <vector>

#include "model/object_ref.h"
#include "pick/picking.h"
#include "view/joint_gizmo.h"

struct ImDrawList;

namespace paper {
struct Camera;
class PluginHost;
}  // namespace paper

namespace paper::editor {

/// How near a body's outline, screen pixels, a click still picks it.
inline constexpr double kBodyPickSlackPixels = 4.0;

/// The body called name (a bone's name) of character, or null.
const BodyView* findBody(const std::vector<BodyView>& bodies, int character, const std::string& name);
const BodyView* findBody(std::vector<BodyView>&& bodies, int character, const std::string& name) = delete;
BodyShape shapeOf(const BodyInfo& info);
/// The middle of a body's centre line, world metres (F frames it).
Vec2d bodyCentre(const BodyInfo& info);

/// The joint pivots and bodies under the mouse (world metres) at zoom pixelsPerMetre, in the
/// order clicks repeated there select them (picksAt); empty for none.
std::vector<ObjectRef> objectsAt(const std::vector<JointView>& joints, const std::vector<BodyView>& bodies,
                                 Vec2d mouseWorld, double pixelsPerMetre);
/// Where a click selects body (world metres): on its centre line, away from every pivot and
/// from the points `taken` says are a gizmo's. False when nowhere does.
bool pointSelectingBody(const std::vector<JointView>& joints, const std::vector<BodyView>& bodies,
                        const BodyView& body, double pixelsPerMetre, const std::function<bool(Vec2d)>& taken,
                        Vec2d& point);

/// Draws every body's outline (when showOutlines), then the hovered object (a body's outline
/// or a joint's pivot ring) and the selected body, which are drawn whatever showOutlines says.
void drawBodyOutlines(ImDrawList* list, const std::vector<JointView>& joints, const std::vector<BodyView>& bodies,
                      const Camera& camera, bool showOutlines, const ObjectRef& hovered, const ObjectRef& selected);

}  // namespace paper::editor
