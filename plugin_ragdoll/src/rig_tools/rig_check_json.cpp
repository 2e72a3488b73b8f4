#include "rig_tools/rig_check_json.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "anim/pose.h"

namespace ragdoll {

namespace {

using Json = nlohmann::json;

constexpr double kDegreesPerRadian = 180.0 / kPi;

Json point(Vec2 p) { return Json::array({p.x, p.y}); }

/// Every number as the file would say it: computed values carry the last bits of their
/// arithmetic (a limit of -30 degrees read back as -29.999999999999996, a bone's end at
/// x = 3.06e-17), so each is rounded to 12 significant figures and anything under a
/// nanometre (or a billionth of a degree) is 0.
void tidyNumbers(Json& j) {
    if (j.is_number_float()) {
        const double v = j.get<double>();
        char text[32];
        std::snprintf(text, sizeof text, "%.12g", v);
        j = std::fabs(v) < 1e-9 ? 0.0 : std::strtod(text, nullptr);
    } else if (j.is_structured()) {
        for (Json& child : j) tidyNumbers(child);
    }
}

}  // namespace

std::string rigCheckJson(const std::string& file, const RigDefinition& rig, const std::vector<std::string>& warnings) {
    Json out;
    out["file"] = file;
    out["rig"] = rig.name;
    // How the file writes lengths; every number here is in metres and degrees whatever they are.
    out["file_units"] = unitsName(rig.units);
    out["file_units_per_metre"] = rig.scale;
    out["warnings"] = warnings;
    out["mass_kg"] = rig.totalMass();
    Json bones = Json::array();
    for (const RigBone& bone : rig.bones)
        bones.push_back({{"name", bone.fileName},
                         {"parent", bone.parent < 0 ? Json() : Json(rig.bones[size_t(bone.parent)].fileName)},
                         {"start", point(bone.origin)},
                         {"end", point(bone.tip())},
                         {"angle_deg", bone.angle * kDegreesPerRadian},
                         {"length_m", bone.length}});
    out["bones"] = bones;
    Json bodies = Json::array();
    for (const RigBody& body : rig.bodies) {
        const RigBone& bone = rig.bones[size_t(body.bone)];
        bodies.push_back({{"bone", bone.fileName},
                          {"shape", shapeName(body.shape)},
                          {"centre", point(bone.origin + rotate(makeRot(bone.angle), body.centreOn(bone)))},
                          {"radius_m", body.radius},
                          {"mass_kg", body.mass}});
    }
    out["bodies"] = bodies;
    Json joints = Json::array();
    for (const RigJoint& joint : rig.joints) {
        Json j = {{"name", joint.fileName.empty() ? Json() : Json(joint.fileName)},
                  {"parent", rig.bones[size_t(joint.parent)].fileName},
                  {"child", rig.bones[size_t(joint.child)].fileName},
                  {"anchor", point(rig.bones[size_t(joint.child)].origin)},
                  {"limited", joint.limited}};
        if (joint.limited) {
            j["lower_deg"] = joint.lower * kDegreesPerRadian;
            j["upper_deg"] = joint.upper * kDegreesPerRadian;
        }
        joints.push_back(j);
    }
    out["joints"] = joints;
    // Quads as the renderer draws them: where the rect's top-left, top-right, bottom-right
    // and bottom-left corners land (the rect's top is the part's +y, its left the part's −x,
    // each swapped by the sprite's flip).
    Json sprites = Json::array();
    for (const RigSprite& sprite : rig.sprites) {
        const RigBone& bone = rig.bones[size_t(sprite.bone)];
        const double hw = sprite.flipX ? -0.5 * sprite.width : 0.5 * sprite.width;
        const double hh = sprite.flipY ? -0.5 * sprite.height : 0.5 * sprite.height;
        const Vec2 local[4] = {{-hw, hh}, {hw, hh}, {hw, -hh}, {-hw, -hh}};
        Json quad = Json::array();
        for (const Vec2& corner : local)
            quad.push_back(point(bone.origin + rotate(makeRot(bone.angle), sprite.centre + rotate(makeRot(sprite.angle), corner))));
        sprites.push_back({{"bone", bone.fileName},
                           {"image", rig.images[size_t(sprite.image)].name},
                           {"rect", {sprite.rect.x, sprite.rect.y, sprite.rect.width, sprite.rect.height}},
                           {"flip", flipName(sprite)},
                           {"z", sprite.z},
                           {"quad", quad}});
    }
    out["sprites"] = sprites;
    Json meshes = Json::array();
    std::vector<BonePose> rest;
    for (const RigBone& bone : rig.bones) rest.push_back({bone.origin, bone.angle});
    for (const RigMesh& mesh : rig.meshes) {
        std::vector<Vec2> at;
        meshVertexPositions(mesh, rest, false, 1.0, at);
        Json vertices = Json::array();
        for (const Vec2& p : at) vertices.push_back(point(p));
        meshes.push_back({{"image", rig.images[size_t(mesh.image)].name},
                          {"z", mesh.z},
                          {"vertices", vertices},
                          {"triangles", mesh.triangles}});
    }
    out["meshes"] = meshes;
    tidyNumbers(out);
    return out.dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string rigCheckErrorJson(const std::string& file, const std::vector<std::string>& errors) {
    return Json{{"file", file}, {"errors", errors}}.dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace ragdoll
