#include "model/reflected_objects.h"

#include <cmath>

#include "paper/plugin_host.h"

namespace paper::editor {

namespace {

bool hasAll(const std::vector<PropertyValue>& properties, std::initializer_list<const char*> names) {
    for (const char* name : names)
        if (!findProperty(properties, name)) return false;
    return true;
}

double number(const std::vector<PropertyValue>& properties, const char* name) {
    const PropertyValue* p = findProperty(properties, name);
    return p ? p->value : 0.0;
}

Vec2 vector(const std::vector<PropertyValue>& properties, const char* name) {
    const PropertyValue* p = findProperty(properties, name);
    return p ? p->vector : Vec2{};
}

bool hasLimits(const std::vector<PropertyValue>& p) {
    return hasAll(p, {"pivot", "lower", "upper", "angle", "parent_angle", "rest_offset", "mirrored"});
}

/// Calls visit(kind, object, properties) for every object of every kind but the settings.
template <class Visit>
void forEachObject(PluginHost& plugin, Visit&& visit) {
    const PluginDeclarations& d = plugin.declarations();
    for (int kind = 0; kind < int(d.kinds.size()); ++kind) {
        if (d.kinds[size_t(kind)].flags & PAPER_KIND_SETTINGS) continue;
        for (const ObjectEntry& object : plugin.objects(kind)) {
            const std::vector<PropertyValue> properties = plugin.properties(kind, object.handle);
            if (properties.empty() || !editable(object.owner)) continue;  // gone since listed, or not edited
            visit(kind, object, properties);
        }
    }
}

}  // namespace

std::vector<JointView> readJoints(PluginHost& plugin) {
    std::vector<JointView> out;
    forEachObject(plugin, [&](int kind, const ObjectEntry& object, const std::vector<PropertyValue>& p) {
        if (!hasLimits(p)) return;
        JointInfo info;
        info.handle = object.handle;
        info.kind = kind;
        info.character = object.owner;
        info.pivot = vector(p, "pivot");
        info.parentAngle = toRadians(number(p, "parent_angle"));
        info.restOffset = toRadians(number(p, "rest_offset"));
        info.mirrored = number(p, "mirrored") != 0.0;
        info.lowerLimit = toRadians(number(p, "lower"));
        info.upperLimit = toRadians(number(p, "upper"));
        info.currentAngle = toRadians(number(p, "angle"));
        out.push_back({object.name, info});
    });
    return out;
}

std::vector<BodyView> readBodies(PluginHost& plugin) {
    std::vector<BodyView> out;
    forEachObject(plugin, [&](int kind, const ObjectEntry& object, const std::vector<PropertyValue>& p) {
        if (!hasOutline(p)) return;
        BodyInfo info;
        info.handle = object.handle;
        info.kind = kind;
        info.character = object.owner;
        const std::string& shape = findProperty(p, "shape")->text;
        info.shape = shape == "circle" ? OutlineShape::Circle : shape == "box" ? OutlineShape::Box : OutlineShape::Capsule;
        info.a = vector(p, "a");
        info.b = vector(p, "b");
        info.radius = number(p, "radius");
        for (size_t i = 0; i < p.size(); ++i)
            if (p[i].name == "selected" && !(p[i].flags & PAPER_PROPERTY_READ_ONLY)) {
                info.selectedProperty = int(i);
                info.selected = p[i].value != 0.0;
            }
        out.push_back({object.name, info});
    });
    return out;
}

void markSelectedBody(PluginHost& plugin, const std::vector<BodyView>& bodies, int character, const std::string& name) {
    for (const BodyView& body : bodies) {
        const bool wanted = body.info.character == character && body.name == name;
        if (body.info.selectedProperty >= 0 && body.info.selected != wanted)
            plugin.setProperty(body.info.kind, body.info.handle, body.info.selectedProperty, wanted ? 1.0 : 0.0);
    }
}

bool setJointLimits(PluginHost& plugin, const JointInfo& joint, JointLimits limits) {
    auto degrees = [](double radians) { return std::round(toDegrees(radians) * 1e9) / 1e9; };
    const double lower = degrees(limits.lower), upper = degrees(limits.upper);
    // A new lower above the current upper would be refused: move the upper first then.
    if (lower > toDegrees(joint.upperLimit)) {
        return plugin.setProperty(joint.kind, joint.handle, "upper", upper) &&
               plugin.setProperty(joint.kind, joint.handle, "lower", lower);
    }
    return plugin.setProperty(joint.kind, joint.handle, "lower", lower) &&
           plugin.setProperty(joint.kind, joint.handle, "upper", upper);
}

}  // namespace paper::editor
