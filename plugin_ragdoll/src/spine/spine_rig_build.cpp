#include "spine/spine_rig_build.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>

#include "anim/clip.h"
#include "paper/spelling.h"
#include "paper/xml_reader.h"
#include "rig/rig_loader.h"
#include "rig/rig_saver.h"
#include "spine/spine_mesh.h"
#include "spine/spine_physics.h"

namespace ragdoll {

namespace {

namespace fs = std::filesystem;

constexpr double kDegrees = kPi / 180.0;

/// Collects the build's diagnostics.
struct Reporter {
    std::vector<Diagnostic>& out;
    int errors = 0;
    void print(const std::vector<Diagnostic>& diagnostics) {
        for (const Diagnostic& d : diagnostics) {
            out.push_back(d);
            errors += d.severity == Severity::Error;
        }
    }
    void error(const std::string& file, int line, const std::string& message) {
        print({{Severity::Error, file, line, message}});
    }
    void warning(const std::string& file, int line, const std::string& message) {
        print({{Severity::Warning, file, line, message}});
    }
};

std::uint8_t byteOf(double unit) { return std::uint8_t(std::lround(std::clamp(unit, 0.0, 1.0) * 255.0)); }

/// An angle in radians rounded to 1e-9 degree, for the same reason.
double tidyAngle(double radians) { return std::round(radians / kDegrees * 1e9) / 1e9 * kDegrees; }

/// A rig failing its own check for sizes out of range says this many of them, and counts
/// the rest (reportOwnCheck).
constexpr int kSizeErrorsSaid = 5;

/// The scale that makes `height` units kImportHeightMetres tall, to kInferredScaleDigits
/// significant figures. Rounded with an exact power of ten (up to 1e22) so the result is
/// the nearest double to the decimal written; a scale needing a larger power is kept whole.
double inferredScale(double height) {
    const double scale = height / kImportHeightMetres;
    if (!(scale > 0.0) || !std::isfinite(scale)) return scale;
    const int decimals = kInferredScaleDigits - 1 - int(std::floor(std::log10(scale)));
    if (std::abs(decimals) > 22) return scale;
    const double power = std::pow(10.0, std::abs(decimals));
    return decimals >= 0 ? std::round(scale * power) / power : std::round(scale / power) * power;
}

/// How a bone is stretched in the setup pose along its x and y (its scale and its parents'),
/// as "1.5 x 1", for messages about a part that has no size.
std::string stretchText(const SpineWorld& bone) {
    return shortNumber(std::hypot(bone.a, bone.c), 4) + " x " + shortNumber(std::hypot(bone.b, bone.d), 4);
}

/// Whether an error of the rig's own check is about a size or length out of range (a
/// radius of 1200 m, a sprite 0 wide, a length over 1e4 m): what a wrong --scale gives.
bool saysSizeOutOfRange(const std::string& message) {
    return (message.find(" is outside ") != std::string::npos && message.ends_with(" m")) ||
           message.find("must be > 0, got 0") != std::string::npos || message.find("is too large (more than") != std::string::npos;
}

/// The region attachment as drawn in the setup pose (see SpinePart), or false (reported).
bool placePart(const SpineAttachment& a, const AtlasRegion& region, const SpineWorld& bone, SpinePart& part,
               Reporter& report, const std::string& file, const std::string& where) {
    const double w = a.width * a.scaleX, h = a.height * a.scaleY;
    // The packed pixels inside the original image (atlas whitespace stripping), y up; a
    // negative scale of the attachment mirrors where they lie in it, as Spine places them.
    const double ow = region.originalWidth, oh = region.originalHeight;
    const double fx0 = region.offsetX / ow, fx1 = (region.offsetX + region.width) / ow;
    const double fy0 = region.offsetY / oh, fy1 = (region.offsetY + region.height) / oh;
    const double cx = ((fx0 + fx1) * 0.5 - 0.5) * w, cy = ((fy0 + fy1) * 0.5 - 0.5) * h;
    const double r = a.rotation * kDegrees;
    const double lx = a.x + std::cos(r) * cx - std::sin(r) * cy, ly = a.y + std::sin(r) * cx + std::cos(r) * cy;
    bone.transform(lx, ly, part.centreX, part.centreY);
    // The attachment's axes through the bone's world matrix: direction and stretch.
    const double ax = bone.a * std::cos(r) + bone.b * std::sin(r), ay = bone.c * std::cos(r) + bone.d * std::sin(r);
    const double bx = -bone.a * std::sin(r) + bone.b * std::cos(r), by = -bone.c * std::sin(r) + bone.d * std::cos(r);
    const double stretchX = std::hypot(ax, ay), stretchY = std::hypot(bx, by);
    part.width = (fx1 - fx0) * std::abs(w) * stretchX;
    part.height = (fy1 - fy0) * std::abs(h) * stretchY;
    part.area = std::abs(w * h) * stretchX * stretchY;
    // Mirrored when the bone's world matrix and the attachment's own scale together turn
    // the quad over: a negative scale on the bone or an ancestor (Spine 3.8 and 4.x alike,
    // in the setup pose's matrix) or on the attachment. The attachment's +x is drawn along
    // (ax, ay), half turned by its own negative scaleX.
    part.mirrored = (bone.a * bone.d - bone.b * bone.c) * a.scaleX * a.scaleY < 0.0;
    const double alongX = std::atan2(ay, ax) / kDegrees + (a.scaleX < 0.0 ? 180.0 : 0.0);
    // Stored turned in the page (counter-clockwise): the page rect's +x is the image's
    // direction turned back, and its sides swap for a quarter turn. Mirrored, the turn back
    // goes the other way round (Spine's quad for a region stored turned maps the page's +x
    // to the attachment's −y, which a mirror puts on the other side of its +x), and the
    // page's top lies clockwise of its +x: flip="y".
    part.angle = part.mirrored ? alongX + region.degrees : alongX - region.degrees;
    if (region.degrees == 90 || region.degrees == 270) std::swap(part.width, part.height);
    part.region = &region;
    if (part.width <= 0.0 || part.height <= 0.0) {
        report.error(file, a.line, "attachment '" + a.name + "' " + where + " has no size in the setup pose (" +
                                       shortNumber(a.width, 4) + " x " + shortNumber(a.height, 4) + " scaled " +
                                       shortNumber(a.scaleX, 4) + " x " + shortNumber(a.scaleY, 4) + ", on its bone stretched " +
                                       stretchText(bone) + ")");
        return false;
    }
    return true;
}

/// A mesh part's setup-pose bounding box (as its centre and size), area and main bone.
void placeMesh(const SpineAttachment& source, const AtlasRegion& region, const std::vector<SpineWorld>& setup, int slotBone,
               size_t boneCount, SpinePart& part) {
    const std::vector<std::array<double, 2>> world = meshWorldVertices(source, slotBone, setup);
    double x0 = 1e300, x1 = -1e300, y0 = 1e300, y1 = -1e300;
    for (const auto& p : world) x0 = std::min(x0, p[0]), x1 = std::max(x1, p[0]), y0 = std::min(y0, p[1]), y1 = std::max(y1, p[1]);
    part.centreX = 0.5 * (x0 + x1);
    part.centreY = 0.5 * (y0 + y1);
    part.width = x1 - x0;
    part.height = y1 - y0;
    part.angle = 0.0;
    part.area = 0.0;
    for (size_t t = 0; t + 2 < source.triangles.size(); t += 3) {
        const auto& a = world[size_t(source.triangles[t])];
        const auto& b = world[size_t(source.triangles[t + 1])];
        const auto& c = world[size_t(source.triangles[t + 2])];
        part.area += 0.5 * std::abs((b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1]));
    }
    part.bone = meshMainBone(source, slotBone, boneCount);
    part.region = &region;
}

/// Corners of a part, for the setup pose's height and a bone's length.
std::array<std::array<double, 2>, 4> corners(const SpinePart& p) {
    const double c = std::cos(p.angle * kDegrees), s = std::sin(p.angle * kDegrees);
    std::array<std::array<double, 2>, 4> out{};
    int i = 0;
    for (double u : {-0.5, 0.5})
        for (double v : {-0.5, 0.5})
            out[size_t(i++)] = {p.centreX + c * u * p.width - s * v * p.height, p.centreY + s * u * p.width + c * v * p.height};
    return out;
}

/// Grows a bone's reach (how far along it from its origin its art goes) and side (the
/// art's larger extent along or across it) to hold points of its art, Spine's world.
void growReach(const std::vector<std::array<double, 2>>& points, const SpineWorld& bone, double angle, double& reach,
               double& side) {
    if (points.empty()) return;
    double along0 = 1e300, along1 = -1e300, across0 = 1e300, across1 = -1e300;
    for (const auto& p : points) {
        const double dx = p[0] - bone.x, dy = p[1] - bone.y;
        const double along = dx * std::cos(angle) + dy * std::sin(angle), across = -dx * std::sin(angle) + dy * std::cos(angle);
        along0 = std::min(along0, along), along1 = std::max(along1, along);
        across0 = std::min(across0, across), across1 = std::max(across1, across);
    }
    reach = std::max(reach, along1);
    side = std::max({side, along1 - along0, across1 - across0});
}

/// "'a', 'b'": the skins' names, quoted, for messages ("" when there are none).
std::string quotedNames(const std::vector<const SpineSkin*>& skins) {
    std::string names;
    for (const SpineSkin* skin : skins) names += (names.empty() ? "'" : ", '") + skin->name + "'";
    return names;
}

}  // namespace

SpineBuild buildSpineRig(const SpineBuildInput& input) {
    SpineBuild build;
    Reporter report{build.diagnostics};
    const SpineSkeleton& skeleton = *input.skeleton;
    const SpineAtlas& atlas = *input.atlas;
    const fs::path outPath(input.outPath);
    // The skin: the default skin's attachments, then the named skin's over them.
    const SpineSkin* defaultSkin = skeleton.findSkin("default");
    const SpineSkin* namedSkin = nullptr;
    std::vector<const SpineSkin*> allSkins;
    for (const SpineSkin& skin : skeleton.skins) allSkins.push_back(&skin);
    const std::string skinNames = quotedNames(allSkins);
    if (!input.options.skin.empty()) {
        namedSkin = skeleton.findSkin(input.options.skin);
        if (!namedSkin)
            report.error(input.jsonPath, 0, "--skin '" + input.options.skin + "': no such skin (the file has " +
                                      (skinNames.empty() ? std::string("none") : skinNames) + ")");
    }
    std::map<std::pair<int, std::string>, const SpineAttachment*> shown;
    std::map<const SpineAttachment*, std::string> skinOf;  // for messages: which skin's entry is used
    for (const SpineSkin* skin : {defaultSkin, namedSkin})
        if (skin)
            for (const SpineAttachment& a : skin->attachments) {
                shown[{a.slot, a.name}] = &a;
                skinOf[&a] = skin->name;
            }
    for (const auto& [key, a] : shown)
        if (skeleton.slots[size_t(key.first)].attachment != key.second)
            report.warning(input.jsonPath, a->line, "attachment '" + a->name + "' (skin '" + skinOf[a] + "', slot '" +
                                                        skeleton.slots[size_t(key.first)].name +
                                                        "'): not the slot's setup attachment, not imported (attachment "
                                                        "swaps are not baked)");
    // The skins not imported that hold a slot's attachment: what --skin would bring in.
    auto skinsHolding = [&](int slot, const std::string& name) {
        std::vector<const SpineSkin*> holding;
        for (const SpineSkin& skin : skeleton.skins)
            if (std::any_of(skin.attachments.begin(), skin.attachments.end(),
                            [&](const SpineAttachment& a) { return a.slot == slot && a.name == name; }))
                holding.push_back(&skin);
        return holding;
    };

    for (const SpineBone& bone : skeleton.bones)
        if (bone.shearX != 0.0 || bone.shearY != 0.0)
            report.warning(input.jsonPath, bone.line, "bone '" + bone.name + "': shear is approximated (parts keep right angles)");
    // Inherit modes are posed as Spine's runtimes pose them (spine_pose.h), but a two-bone IK
    // over a bone that inherits otherwise than normally is solved as for a normal one, where
    // Spine 4.2's runtimes leave that IK unapplied.
    for (const SpineIk& ik : skeleton.ik)
        if (ik.bones.size() == 2)
            for (int b : ik.bones)
                if (b >= 0 && skeleton.bones[size_t(b)].inherit != SpineInherit::Normal)
                    report.warning(input.jsonPath, ik.line, "IK constraint '" + ik.name + "': bone '" + skeleton.bones[size_t(b)].name +
                                                                "' inherits '" + inheritName(skeleton.bones[size_t(b)].inherit) +
                                                                "'; the two-bone IK is solved as for 'normal' (Spine 4.2 leaves it "
                                                                "unapplied)");
    for (const SpineTransformConstraint& t : skeleton.transforms)
        if (t.local || t.relative)
            report.warning(input.jsonPath, t.line, "transform constraint '" + t.name + "': local and relative forms are baked as absolute");

    // The parts: each slot's setup attachment, in draw order.
    const std::vector<SpineWorld> setup = poseSpineSkeleton(skeleton, nullptr, 0.0);
    std::vector<SpinePart> parts;
    std::vector<SpineColor> partTint;
    for (size_t s = 0; s < skeleton.slots.size(); ++s) {
        const SpineSlot& slot = skeleton.slots[s];
        if (slot.attachment.empty()) continue;
        auto found = shown.find({int(s), slot.attachment});
        if (found == shown.end()) {
            const std::vector<const SpineSkin*> holding = skinsHolding(int(s), slot.attachment);
            const std::string which = holding.empty()       ? std::string()
                                      : holding.size() == 1 ? " (skin " + quotedNames(holding) + " has it"
                                                            : " (skins " + quotedNames(holding) + " have it";
            report.warning(input.jsonPath, slot.line, "slot '" + slot.name + "': its attachment '" + slot.attachment +
                                                "' is in no skin imported; nothing drawn" +
                                                (which.empty() ? which : which + ": --skin NAME imports one)"));
            continue;
        }
        const SpineAttachment& a = *found->second;
        const bool isMesh = a.type == SpineAttachmentType::Mesh || a.type == SpineAttachmentType::LinkedMesh;
        if (a.type != SpineAttachmentType::Region && !isMesh) {
            report.warning(input.jsonPath, a.line, std::string(attachmentTypeName(a.type)) + " attachment '" + a.name + "' (slot '" +
                                             slot.name + "'): not drawn by Paperdoll (skipped)");
            continue;
        }
        const AtlasRegion* region = atlas.find(a.path);
        if (!region) {
            std::vector<std::string> regionNames;
            for (const AtlasRegion& r : atlas.regions) regionNames.push_back(r.name);
            report.error(input.jsonPath, a.line, "attachment '" + a.name + "' (skin '" + skinOf[&a] + "', slot '" + slot.name +
                                                     "'): no region '" + a.path + "' in the atlas " + input.atlasPath +
                                                     paper::didYouMean(a.path, regionNames));
            continue;
        }
        if (a.sequenceCount > 0)
            report.warning(input.jsonPath, a.line, "attachment '" + a.name + "' (slot '" + slot.name + "'): a sequence of " +
                                                       std::to_string(a.sequenceCount) + (a.sequenceCount == 1 ? " frame" : " frames") +
                                                       "; only its setup frame '" + a.path +
                                                       "' is drawn (the frame animation is skipped)");
        SpinePart part;
        part.name = a.name;
        part.slot = int(s);
        part.bone = slot.bone;
        part.line = a.line;
        if (isMesh) {
            part.mesh = meshSource(skeleton, a, input.options.skin.empty() ? std::string("default") : input.options.skin);
            if (!part.mesh) {
                report.error(input.jsonPath, a.line, "linked mesh '" + a.name + "' (slot '" + slot.name + "'): " +
                                                         whyNoParentMesh(skeleton, a, input.options.skin.empty() ? std::string("default")
                                                                                                                 : input.options.skin));
                continue;
            }
            placeMesh(*part.mesh, *region, setup, slot.bone, skeleton.bones.size(), part);
        } else if (!placePart(a, *region, setup[size_t(slot.bone)], part, report, input.jsonPath,
                              "(slot '" + slot.name + "', bone '" + skeleton.bones[size_t(slot.bone)].name + "')")) {
            continue;
        }
        for (size_t c = 0; c < 4; ++c) part.color[c] = byteOf(slot.color[c] * a.color[c]);
        parts.push_back(part);
    }
    if (report.errors > 0) return build;
    if (parts.empty()) {
        report.error(input.jsonPath, 0, "no region attachment is shown in the setup pose: nothing to draw or to give bodies to" +
                                            (!defaultSkin && !namedSkin && !allSkins.empty()
                                                 ? " (the file has no 'default' skin; pass --skin with one of " + skinNames + ")"
                                                 : std::string()));
        return build;
    }

    // Scale: given, or the setup pose's height as kImportHeightMetres.
    double low = 1e300, high = -1e300;
    for (const SpinePart& p : parts)
        for (const auto& c : corners(p)) low = std::min(low, c[1]), high = std::max(high, c[1]);
    const double scale = input.options.scale ? *input.options.scale : inferredScale(high - low);
    if (!(scale > 0.0) || !std::isfinite(scale)) {
        report.error(input.jsonPath, 0, "the setup pose has no height; pass --scale UNITS_PER_METRE");
        return build;
    }
    // A rig's scale is a plain number of the file: past its largest the rig's check fell
    // back to its default scale and measured every length by that instead.
    if (scale > paper::kMaxPlainMagnitude) {
        const std::string why = input.options.scale ? "--scale " + shortNumber(scale, 4) + " units per metre is"
                                                    : "the setup pose is " + shortNumber(high - low, 2) + " units tall: taken as " +
                                                          shortNumber(kImportHeightMetres, 2) + " m, that is " +
                                                          shortNumber(scale, 4) + " units per metre,";
        report.error(input.jsonPath, 0, why + " more than a rig's scale may be (1e6); pass --scale UNITS_PER_METRE, the "
                                              "skeleton's units in a metre");
        return build;
    }

    SpineRigMap map = mapSpineSkeleton(skeleton, setup, parts);
    if (map.spineOfRig.empty()) {
        report.error(input.jsonPath, 0, "no part is large enough to carry a body");
        return build;
    }
    map.scale = scale;
    RigDefinition rig;
    std::string stem = outPath.filename().string();
    for (const char* suffix : {".rig.xml", ".xml"})
        if (stem.size() > std::string(suffix).size() && stem.ends_with(suffix)) {
            stem.resize(stem.size() - std::string(suffix).size());
            break;
        }
    rig.name = stem;
    rig.units = RigUnits::Pixels;
    rig.scale = scale;
    rig.path = input.outPath;
    std::vector<int> imageOfPage(atlas.pages.size(), -1);
    for (const SpinePart& p : parts) {
        int& image = imageOfPage[size_t(p.region->page)];
        if (image >= 0) continue;
        const AtlasPage& page = atlas.pages[size_t(p.region->page)];
        RigImage ri;
        ri.name = fs::path(page.file).stem().string();
        ri.file = fs::path(page.file).filename().string();
        ri.width = input.pageSizes[size_t(p.region->page)][0];
        ri.height = input.pageSizes[size_t(p.region->page)][1];
        image = int(rig.images.size());
        rig.images.push_back(ri);
    }

    // Bones: the bodied Spine bones, placed relative to their rig parents in the setup pose.
    for (size_t r = 0; r < map.spineOfRig.size(); ++r) {
        const int s = map.spineOfRig[r];
        const SpineWorld& w = setup[size_t(s)];
        RigBone bone;
        bone.fileName = skeleton.bones[size_t(s)].name;
        bone.name = sanitiseName(bone.fileName);
        bone.parent = map.rigParent[r];
        double length = skeleton.bones[size_t(s)].length * std::hypot(w.a, w.c);
        double reach = 0.0, side = 0.0;
        const double angle = w.angleDegrees() * kDegrees;
        for (const SpinePart& p : parts) {
            if (p.mesh) {
                // A mesh counts for each bone by its share (a forearm of length 0 whose only
                // art is the hand end of an arm mesh reaches as far as that end).
                const int slotBone = skeleton.slots[size_t(p.slot)].bone;
                growReach(meshShareOfBone(*p.mesh, slotBone, setup, s), w, angle, reach, side);
                continue;
            }
            if (p.bone != s) continue;
            side = std::max({side, p.width, p.height});
            for (const auto& c : corners(p))
                reach = std::max(reach, (c[0] - w.x) * std::cos(angle) + (c[1] - w.y) * std::sin(angle));
        }
        if (length < kMinBoneLengthFraction * side) length = std::max(reach, kMinBoneLengthFraction * side);
        bone.length = tidy(length / scale, scale);
        if (bone.parent < 0) {
            bone.localOrigin = {tidy(w.x / scale, scale), tidy(w.y / scale, scale)};
            bone.localAngle = tidyAngle(angle);
        } else {
            const SpineWorld& pw = setup[size_t(map.spineOfRig[size_t(bone.parent)])];
            const double pa = pw.angleDegrees() * kDegrees, dx = w.x - pw.x, dy = w.y - pw.y;
            bone.localOrigin = {tidy((std::cos(pa) * dx + std::sin(pa) * dy) / scale, scale),
                                tidy((-std::sin(pa) * dx + std::cos(pa) * dy) / scale, scale)};
            bone.localAngle = tidyAngle(wrapDegrees((angle - pa) / kDegrees) * kDegrees);
        }
        rig.bones.push_back(bone);
    }
    // Sprites: each region part on the rig bone it rides on, in draw order.
    for (const SpinePart& p : parts) {
        if (p.mesh) continue;
        const int r = map.riderOfSpine[size_t(p.bone)];
        const SpineWorld& w = setup[size_t(map.spineOfRig[size_t(r)])];
        const double a = w.angleDegrees() * kDegrees, dx = p.centreX - w.x, dy = p.centreY - w.y;
        RigSprite sprite;
        sprite.bone = r;
        sprite.image = imageOfPage[size_t(p.region->page)];
        sprite.rect = pngRect(*p.region, atlas.pages[size_t(p.region->page)], input.pageSizes[size_t(p.region->page)]);
        sprite.centre = {tidy((std::cos(a) * dx + std::sin(a) * dy) / scale, scale),
                         tidy((-std::sin(a) * dx + std::cos(a) * dy) / scale, scale)};
        sprite.angle = tidyAngle(wrapDegrees(p.angle - a / kDegrees) * kDegrees);
        sprite.flipY = p.mirrored;  // the rig bone only turns: its sprite carries the mirror
        sprite.width = tidy(p.width / scale, scale);
        sprite.height = tidy(p.height / scale, scale);
        // Rounded to the file's precision, a part drawn a billionth of a unit thin is 0: said
        // here of the Spine attachment, not of the rig file it would have made.
        if (sprite.width <= 0.0 || sprite.height <= 0.0) {
            const SpineSlot& slot = skeleton.slots[size_t(p.slot)];
            report.error(input.jsonPath, p.line, "attachment '" + p.name + "' (slot '" + slot.name + "', bone '" +
                                                     skeleton.bones[size_t(p.bone)].name + "') is drawn " +
                                                     shortNumber(p.width, 4) + " x " + shortNumber(p.height, 4) +
                                                     " units, too thin to draw (its bone is stretched " +
                                                     stretchText(setup[size_t(p.bone)]) + " in the setup pose)");
        }
        sprite.z = p.slot;
        sprite.color = p.color;
        sprite.order = int(rig.sprites.size());
        rig.sprites.push_back(sprite);
    }
    if (report.errors > 0) return build;
    updateDerived(rig);
    // Meshes: their weights on the rig bones (placed by the rest pose just derived).
    for (const SpinePart& p : parts) {
        if (!p.mesh) continue;
        const size_t page = size_t(p.region->page);
        rig.meshes.push_back(rigMeshOf(p, *p.mesh, skeleton.slots[size_t(p.slot)].bone, map, setup, rig, imageOfPage[page],
                                       pngScale(atlas.pages[page], input.pageSizes[page])));
        rig.meshes.back().order = int(rig.meshes.size()) - 1;
        for (RigMeshVertex& vertex : rig.meshes.back().vertices) {
            vertex.u = std::round(vertex.u * 1e6) / 1e6;
            vertex.v = std::round(vertex.v * 1e6) / 1e6;
            for (RigMeshWeight& weight : vertex.weights)
                weight.position = {tidy(weight.position.x, scale), tidy(weight.position.y, scale)};
        }
    }
    updateDerived(rig);

    // Clips, then the bodies and joints (whose limits hold what the clips reach).
    const std::string clipStem = stem;
    BakeResult baked = bakeSpineClips(skeleton, map, rig, input.options.loops ? &*input.options.loops : nullptr, clipStem,
                                      fs::path(input.jsonPath).filename().string());
    std::vector<std::string> table;
    for (const BakeWarning& w : baked.warnings) report.warning(input.jsonPath, w.line, w.message);
    addSpinePhysics(rig, map, baked.ranges, table);

    // The rig's own check speaks of the rig as it would be loaded beside the page images, a
    // file that is never written: its diagnostics name OUT instead, without the line of a
    // text nobody can open, and its errors end in one saying that nothing was written and,
    // for a size out of range, what the scale made of the art.
    const std::string scaleText =
        shortNumber(scale, 4) + " units per metre " +
        (input.options.scale ? std::string("(--scale)")
                             : "(the setup pose's " + shortNumber(high - low, 2) + " units taken as " + shortNumber(kImportHeightMetres, 2) + " m)");
    // Its warnings alone are held back: the import reads the written rig back and says them
    // then, at their lines in the file (said here too, they came twice). With an error
    // nothing is written, so they are said here with it.
    std::vector<Diagnostic> heldWarnings;
    auto reportOwnCheck = [&](const std::vector<Diagnostic>& diagnostics) {
        int errors = 0;
        bool sizes = false;
        std::vector<Diagnostic> said;
        for (Diagnostic d : diagnostics) {
            // rigToText's summary speaks of saving an edited rig: replaced by the one below.
            if (d.severity == Severity::Error && d.message.starts_with("not saved:")) continue;
            d.file = input.outPath;
            d.line = 0;
            if (d.severity == Severity::Error) ++errors, sizes = sizes || saysSizeOutOfRange(d.message);
            said.push_back(d);
        }
        if (errors == 0) {
            heldWarnings.insert(heldWarnings.end(), said.begin(), said.end());
            return;
        }
        // A scale far off puts most sizes out of range, and a size refused leaves errors of
        // its own (a sprite too large to read leaves its bone no radius, asking for a sprite
        // the import wrote): the first few sizes show the cause, the rest are counted.
        const size_t found = said.size();
        if (sizes) {
            int sizesSaid = 0;
            std::erase_if(said, [&](const Diagnostic& d) {
                return d.severity == Severity::Error && (!saysSizeOutOfRange(d.message) || ++sizesSaid > kSizeErrorsSaid);
            });
        }
        const size_t unsaid = found - said.size();
        report.print(heldWarnings);
        report.print(said);
        heldWarnings.clear();
        std::string message = "not imported (nothing written): the rig made from " + fs::path(input.jsonPath).filename().string() +
                              " fails the rig's checks above";
        if (unsaid > 0) message += " and " + std::to_string(unsaid) + " more not listed";
        if (sizes) {
            const double tall = (high - low) / scale;  // to three significant figures
            const std::string metres = shortNumber(tall, std::max(0, 2 - int(std::floor(std::log10(tall)))));
            message += "; its sizes are the skeleton's at " + scaleText + ", which makes the setup pose " + metres +
                       " m tall: pass --scale UNITS_PER_METRE, how many of the skeleton's units make a metre (the setup pose is " +
                       shortNumber(high - low, 2) + " units tall";
            if (input.options.scale)
                message += "; without --scale it is taken as " + shortNumber(kImportHeightMetres, 2) + " m, --scale " +
                           shortNumber(inferredScale(high - low), 6);
            message += ")";
        }
        report.error(input.outPath, 0, message);
    };

    // The rig's text, checked as if it sat beside the page images; then the clip entries.
    const fs::path pageDir = fs::path(input.atlasDir) / fs::path(atlas.pages[0].file).parent_path();
    RigTextResult text = rigToText(rig, (pageDir / outPath.filename()).string());
    reportOwnCheck(text.diagnostics);
    if (!text.ok) return build;
    std::string rigText = text.text;
    const size_t firstLine = rigText.find('\n') + 1;
    rigText.insert(firstLine, "<!-- Imported by `paperdoll rig import` from " + fs::path(input.jsonPath).filename().string() +
                                  " (Spine " + (skeleton.version.empty() ? std::string("?") : skeleton.version) + ", skin '" +
                                  (input.options.skin.empty() ? std::string("default") : input.options.skin) + "') and " +
                                  fs::path(input.atlasPath).filename().string() + " at " + shortNumber(scale, 4) +
                                  " units per metre. The bodies and joint limits are guesses to tune. -->\n");
    std::string clipLines = "\n";
    for (const BakedClip& clip : baked.clips)
        for (const std::string& role : clip.roles) clipLines += "  <clip name=\"" + role + "\" file=\"" + clip.file + "\"/>\n";
    rigText.insert(rigText.rfind("</rig>"), clipLines);
    RigLoadResult check = loadRigFromText(rigText, (pageDir / outPath.filename()).string());
    reportOwnCheck(check.diagnostics);
    if (!check.rig) return build;
    for (const BakedClip& clip : baked.clips) {
        ClipLoadResult clipCheck = loadClipFromText(clip.text, clip.file, *check.rig);
        report.print(clipCheck.diagnostics);
        if (!clipCheck.clip) {
            report.print(heldWarnings);  // nothing is written: no read-back to say them
            return build;
        }
    }


    build.ok = report.errors == 0;
    build.rig = std::move(rig);
    build.rigText = std::move(rigText);
    build.clips = std::move(baked.clips);
    build.table = std::move(table);
    build.imageOfPage = std::move(imageOfPage);
    for (size_t s = 0; s < skeleton.bones.size(); ++s)
        if (map.rigOfSpine[s] < 0) build.helpers.push_back(skeleton.bones[s].name);
    build.scale = scale;
    build.height = high - low;
    return build;
}

}  // namespace ragdoll
