// Rig loader: *.rig.xml (tinyxml2) into a RigDefinition in metres, radians and kilograms.
//
// Reading and checking go in two passes. First every element is read on its own (order of
// elements is free in the format), with each bad attribute reported; then the references
// are resolved on sanitised names (parents, cycles, the one root, visuals, bodies and
// joints to bones, joints to bodies). Checking goes on after an error so an author gets
// the whole list in one go, like from a compiler; the definition is handed out only when
// the list holds no error. A broken element is still recorded (with fallback values) so
// that what refers to it does not pile up follow-on errors. Rejected: stopping at the
// first error (one edit-reload cycle per typo) and exceptions (they carry one problem).
//
// <mesh> (textured triangles on weighted vertices) is read by rig_mesh_loader.cpp.
// <image> and <sprite> (the cut-out art) are read and resolved by rig_art_loader.cpp, which
// also decodes each image to check it; their references resolve before the bodies', since
// a body may take its radius from its bone's sprites.

#include "rig/rig_loader.h"

#include <cstdio>

#include <tinyxml2.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include "paper/xml_reader.h"
#include "rig/rig_art_loader.h"
#include "rig/rig_mesh_loader.h"
#include "rig/rig_xml.h"
#include "spine/spine_atlas.h"

namespace ragdoll {
namespace {

using tinyxml2::XMLElement;

using paper::AttributeReader;
using paper::inQuotes;
using paper::Need;
using paper::Range;
using paper::Reporter;
using rigload::kRigRules;
using rigload::readAngle;

/// Most substeps or iterations a rig may ask for.
constexpr int kMaxSolverCount = 64;

/// "true" or "false".
bool readBoolean(AttributeReader& in, const char* name, bool fallback) {
    const char* raw = in.find(name, Need::Optional);
    if (!raw) return fallback;
    if (std::string_view(raw) == "true") return true;
    if (std::string_view(raw) == "false") return false;
    in.fail(name, "must be 'true' or 'false'", inQuotes(raw));
    return fallback;
}

/// What an element said about other elements, kept until every element has been read.
struct BoneRecord {
    std::string parentName;  ///< as written
    bool hasParent = false;
    bool hasX = false, hasY = false;
};
struct Reference {
    std::string boneName;  ///< as written
    bool given = false;
};
struct VisualRecord {
    Reference bone;
};
struct BodyRecord {
    Reference bone;
    bool hasRadius = false, hasFraction = false;
    std::optional<double> x, y;  ///< the shape's centre as given (x defaults to the bone's midpoint)
};
struct JointRecord {
    Reference parent, child;
    bool hasLower = false, hasUpper = false;
    std::string lowerText, upperText;  ///< as written, for messages
};

class RigParser {
public:
    RigParser(Reporter& report, RigDefinition& rig)
        : report_(report), rig_(rig), art_(report, rig), meshes_(report, rig) {}

    void parse(const XMLElement& root) {
        if (!readHeader(root)) return;
        int boneErrors = report_.errorCount();  // the header's
        int ordinal = 0;
        for (const XMLElement* e = root.FirstChildElement(); e; e = e->NextSiblingElement(), ++ordinal) {
            std::string_view name = e->Name();
            const int before = report_.errorCount();
            if (name == "solver") readSolver(*e, ordinal);
            else if (name == "bone") {
                readBone(*e, ordinal);
                boneErrors += report_.errorCount() - before;
            }
            else if (name == "visual") readVisual(*e, ordinal);
            else if (name == "body") readBody(*e, ordinal);
            else if (name == "joint") readJoint(*e, ordinal);
            else if (name == "clip") readClip(*e, ordinal);
            else if (name == "drive") readDrive(*e, ordinal);
            else if (name == "image") art_.readImage(*e, ordinal);
            else if (name == "sprite") art_.readSprite(*e, ordinal);
            else if (name == "mesh") meshes_.readMesh(*e, ordinal);
            else
                report_.warning(e->GetLineNum(),
                                "unknown element '" + std::string(name) + "' ignored (kept on save)" +
                                    paper::didYouMean(name, {"solver", "bone", "visual", "body", "joint", "clip", "drive",
                                                             "image", "sprite", "mesh"}));
        }
        const int before = report_.errorCount();
        resolveBones(root);
        bonesIntact_ = boneErrors + report_.errorCount() - before == 0;
        resolveVisuals();
        art_.resolve(boneIndex_);
        meshes_.resolve(boneIndex_);
        resolveBodies();
        resolveJoints();
        if (report_.errorCount() == 0) {
            updateDerived(rig_);
            checkBodySizes();
            warnDisconnectedBodies(root);
            warnImplausibleFigures(root);
            warnBodiesSmallerThanTheirArt();
        }
    }

    /// The header and every bone read without error: the skeleton the clips name is whole,
    /// whatever else in the rig is broken.
    bool bonesIntact() const { return bonesIntact_; }

private:
    AttributeReader reader(const XMLElement& element) { return AttributeReader(element, report_, rig_.scale, kRigRules); }

    /// False when the format is not one we read: nothing else in the file can be trusted.
    bool readHeader(const XMLElement& root) {
        AttributeReader in = reader(root);
        rig_.name = in.text("name", Need::Required);
        rig_.line = root.GetLineNum();
        if (!paper::readFormatOne(in, report_, root)) return false;
        static constexpr RigUnits kUnits[] = {RigUnits::Metres, RigUnits::Centimetres, RigUnits::Pixels};
        rig_.units = kUnits[in.choice("units", {"m", "cm", "px"})];
        rig_.scale = in.plain("scale", Need::Optional, Range::Positive, defaultScale(rig_.units));
        in.warnUnknownAttributes();
        return true;
    }

    void readSolver(const XMLElement& element, int ordinal) {
        if (rig_.solver.element >= 0) {
            report_.error(element, "only one <solver> allowed (the first is at line " + std::to_string(rig_.solver.line) + ")");
            return;
        }
        AttributeReader in = reader(element);
        RigSolverSettings& s = rig_.solver;
        s.line = element.GetLineNum();
        s.element = ordinal;
        s.substeps = in.wholeNumber("substeps", Need::Optional, 1, kMaxSolverCount, s.substeps);
        s.iterations = in.wholeNumber("iterations", Need::Optional, 1, kMaxSolverCount, s.iterations);
        s.gravity = in.length("gravity", Need::Optional, Range::Any, s.gravity);
        in.warnUnknownAttributes();
        warnChildElements(element);
    }

    void readClip(const XMLElement& element, int ordinal) {
        AttributeReader in = reader(element);
        RigClip clip;
        clip.line = element.GetLineNum();
        clip.element = ordinal;
        clip.name = in.text("name", Need::Required);
        clip.file = in.text("file", Need::Required);
        in.warnUnknownAttributes();
        warnChildElements(element);
        for (const RigClip& other : rig_.clips)
            if (!clip.name.empty() && other.name == clip.name)
                report_.error(element, "clip " + inQuotes(clip.name) + " is already given at line " + std::to_string(other.line));
        rig_.clips.push_back(std::move(clip));
    }

    void readDrive(const XMLElement& element, int ordinal) {
        RigDrive& d = rig_.drive;
        if (d.element >= 0) {
            report_.error(element, "only one <drive> allowed (the first is at line " + std::to_string(d.line) + ")");
            return;
        }
        AttributeReader in = reader(element);
        d.line = element.GetLineNum();
        d.element = ordinal;
        d.linearStiffness = in.plain("linear_stiffness", Need::Optional, Range::NonNegative, d.linearStiffness);
        d.linearDamping = in.plain("linear_damping", Need::Optional, Range::NonNegative, d.linearDamping);
        d.angularStiffness = in.plain("angular_stiffness", Need::Optional, Range::NonNegative, d.angularStiffness);
        d.angularDamping = in.plain("angular_damping", Need::Optional, Range::NonNegative, d.angularDamping);
        in.warnUnknownAttributes();
        warnChildElements(element);
    }

    void readBone(const XMLElement& element, int ordinal) {
        AttributeReader in = reader(element);
        RigBone bone;
        BoneRecord record;
        bone.line = element.GetLineNum();
        bone.element = ordinal;
        bone.fileName = in.text("name", Need::Required);
        bone.name = sanitiseName(bone.fileName);
        record.hasParent = in.has("parent");
        record.parentName = in.text("parent", Need::Optional);
        record.hasX = in.has("x");
        record.hasY = in.has("y");
        bone.localOrigin.x = in.length("x", Need::Optional, Range::Any, 0.0);
        bone.localOrigin.y = in.length("y", Need::Optional, Range::Any, 0.0);
        bone.localAngle = readAngle(in, "angle", Range::Any, 0.0);
        bone.length = in.length("length", Need::Required, Range::Positive, 1.0);
        in.warnUnknownAttributes();
        warnChildElements(element);
        rig_.bones.push_back(std::move(bone));
        boneRecords_.push_back(std::move(record));
    }

    Reference readReference(AttributeReader& in, const char* attribute) {
        Reference ref;
        ref.given = in.has(attribute);
        ref.boneName = in.text(attribute, Need::Required);
        return ref;
    }

    void readVisual(const XMLElement& element, int ordinal) {
        AttributeReader in = reader(element);
        RigVisual visual;
        VisualRecord record;
        visual.line = element.GetLineNum();
        visual.element = ordinal;
        record.bone = readReference(in, "bone");
        visual.shape = in.choice("shape", {"line", "circle"}) == 0 ? VisualShape::Line : VisualShape::Circle;
        visual.color = in.color("color");
        visual.sprite = in.text("sprite", Need::Optional);
        // The format's first placeholder for art: files that use it keep loading (and it is
        // kept on save), but nothing opens or draws it, which the author should know.
        if (in.has("sprite"))
            report_.warning(element, "attribute 'sprite' is not drawn (kept on save); cut-out art is given by "
                                     "<image> and <sprite> elements");
        // A sprite-only visual needs no size; a drawn line or circle does.
        Need size = visual.sprite.empty() ? Need::Required : Need::Optional;
        if (visual.shape == VisualShape::Line)
            visual.width = in.length("width", size, Range::Positive, 0.0);
        else
            visual.radius = in.length("radius", size, Range::Positive, 0.0);
        in.warnUnknownAttributes();
        warnChildElements(element);
        rig_.visuals.push_back(std::move(visual));
        visualRecords_.push_back(std::move(record));
    }

    void readBody(const XMLElement& element, int ordinal) {
        AttributeReader in = reader(element);
        RigBody body;
        BodyRecord record;
        body.line = element.GetLineNum();
        body.element = ordinal;
        record.bone = readReference(in, "bone");
        static constexpr BodyShape kShapes[] = {BodyShape::Capsule, BodyShape::Circle, BodyShape::Box};
        body.shape = kShapes[in.choice("shape", {"capsule", "circle", "box"})];
        record.hasRadius = in.has("radius");
        record.hasFraction = in.has("radius_fraction");
        body.radius = in.length("radius", Need::Optional, Range::Positive, 0.0);
        body.radiusFraction = in.plain("radius_fraction", Need::Optional, Range::Positive, 0.0);
        body.radiusSource = record.hasRadius     ? RadiusSource::Explicit
                            : record.hasFraction ? RadiusSource::Fraction
                                                 : RadiusSource::Visual;
        if (record.hasRadius && record.hasFraction)
            report_.error(element, "give either 'radius' or 'radius_fraction', not both");
        if (in.has("x")) record.x = in.length("x", Need::Optional, Range::Any, 0.0);
        if (in.has("y")) record.y = in.length("y", Need::Optional, Range::Any, 0.0);
        body.mass = in.plain("mass", Need::Required, Range::Positive, 1.0);
        body.linearDamping = in.plain("linear_damping", Need::Optional, Range::NonNegative, 0.0);
        body.angularDamping = in.plain("angular_damping", Need::Optional, Range::NonNegative, 0.0);
        body.friction = in.plain("friction", Need::Optional, Range::NonNegative, body.friction);
        body.restitution = in.plain("restitution", Need::Optional, Range::UnitInterval, 0.0);
        in.warnUnknownAttributes();
        warnChildElements(element);
        rig_.bodies.push_back(std::move(body));
        bodyRecords_.push_back(std::move(record));
    }

    void readJoint(const XMLElement& element, int ordinal) {
        AttributeReader in = reader(element);
        RigJoint joint;
        JointRecord record;
        joint.line = element.GetLineNum();
        joint.element = ordinal;
        joint.fileName = in.text("name", Need::Optional);
        joint.name = sanitiseName(joint.fileName);
        record.parent = readReference(in, "parent");
        record.child = readReference(in, "child");
        record.hasLower = in.has("lower");
        record.hasUpper = in.has("upper");
        joint.lower = readAngle(in, "lower", Range::HalfTurn, 0.0);
        joint.upper = readAngle(in, "upper", Range::HalfTurn, 0.0);
        if (record.hasLower) record.lowerText = element.Attribute("lower");
        if (record.hasUpper) record.upperText = element.Attribute("upper");
        joint.limited = record.hasLower || record.hasUpper;
        if (record.hasLower != record.hasUpper)
            report_.error(element, std::string("attribute '") + (record.hasLower ? "lower" : "upper") +
                                       "' given without '" + (record.hasLower ? "upper" : "lower") +
                                       "': give both limits, or neither for a free joint");
        joint.stiffness = in.plain("stiffness", Need::Optional, Range::StiffnessRange, 1.0);
        joint.damping = in.plain("damping", Need::Optional, Range::NonNegative, 0.0);
        joint.friction = in.plain("friction", Need::Optional, Range::NonNegative, 0.0);  // N·m whatever the units
        joint.collide = readBoolean(in, "collide", false);
        in.warnUnknownAttributes();
        warnChildElements(element);
        rig_.joints.push_back(std::move(joint));
        jointRecords_.push_back(std::move(record));
    }

    void warnChildElements(const XMLElement& element) { rigload::warnChildElements(report_, element); }

    // ---- references ----

    std::string boneLabel(int index) const { return inQuotes(rig_.bones[size_t(index)].fileName); }

    /// The bone a reference names, or -1 with an error at the referring element.
    int lookup(const Reference& ref, const char* element, int line, const char* attribute) {
        if (!ref.given || ref.boneName.empty()) return -1;  // already reported as missing
        auto it = boneIndex_.find(sanitiseName(ref.boneName));
        if (it != boneIndex_.end()) return it->second;
        report_.error(line, std::string(element) + ": " + attribute + " " + inQuotes(ref.boneName) +
                                " is not a bone of this rig" + didYouMeanBone(rig_, ref.boneName));
        return -1;
    }

    void resolveBones(const XMLElement& root) {
        const int count = int(rig_.bones.size());
        if (count == 0) {
            report_.error(root, "rig has no <bone> elements");
            return;
        }
        // Names: unique after sanitising.
        for (int i = 0; i < count; ++i) {
            const RigBone& bone = rig_.bones[size_t(i)];
            if (bone.fileName.empty()) continue;
            auto [it, inserted] = boneIndex_.emplace(bone.name, i);
            if (inserted) continue;
            const RigBone& first = rig_.bones[size_t(it->second)];
            if (first.fileName == bone.fileName)
                report_.error(bone.line, "bone: duplicate name " + inQuotes(bone.fileName) + " (first at line " +
                                             std::to_string(first.line) + ")");
            else
                report_.error(bone.line, "bone: name " + inQuotes(bone.fileName) + " becomes " + inQuotes(bone.name) +
                                             " once '.' is replaced by '_', the same as " + inQuotes(first.fileName) +
                                             " at line " + std::to_string(first.line) + "; rename one of them");
        }
        // Parents.
        int firstRoot = -1;
        for (int i = 0; i < count; ++i) {
            RigBone& bone = rig_.bones[size_t(i)];
            const BoneRecord& record = boneRecords_[size_t(i)];
            if (!record.hasParent) {
                if (firstRoot < 0) {
                    firstRoot = i;
                } else {
                    report_.error(bone.line, "bone: " + inQuotes(bone.fileName) + " has no parent, and neither has " +
                                                 boneLabel(firstRoot) + " at line " +
                                                 std::to_string(rig_.bones[size_t(firstRoot)].line) +
                                                 ": a rig has one root; give this bone a parent");
                }
                continue;
            }
            if (record.parentName.empty()) {
                report_.error(bone.line, "bone: attribute 'parent' must not be empty (leave it out for the root)");
                continue;
            }
            auto it = boneIndex_.find(sanitiseName(record.parentName));
            if (it == boneIndex_.end()) {
                report_.error(bone.line, "bone: unknown parent " + inQuotes(record.parentName) + " of " +
                                             inQuotes(bone.fileName) + " (no bone has that name" +
                                             didYouMeanBone(rig_, record.parentName) + ")");
                continue;
            }
            bone.parent = it->second;
        }
        reportCycles();
        // Origins that default to the parent's tip.
        for (int i = 0; i < count; ++i) {
            RigBone& bone = rig_.bones[size_t(i)];
            const BoneRecord& record = boneRecords_[size_t(i)];
            if (bone.parent >= 0 && !record.hasX) bone.localOrigin.x = rig_.bones[size_t(bone.parent)].length;
            if (bone.parent >= 0 && !record.hasY) bone.localOrigin.y = 0.0;
        }
    }

    /// Every parent cycle once, at the line of its first bone in the file.
    void reportCycles() {
        const int count = int(rig_.bones.size());
        enum : char { Unvisited, OnPath, Done };
        std::vector<char> state(size_t(count), Unvisited);
        for (int start = 0; start < count; ++start) {
            std::vector<int> path;
            int b = start;
            while (b >= 0 && state[size_t(b)] == Unvisited) {
                state[size_t(b)] = OnPath;
                path.push_back(b);
                b = rig_.bones[size_t(b)].parent;
            }
            if (b >= 0 && state[size_t(b)] == OnPath) {
                auto first = std::find(path.begin(), path.end(), b);
                std::vector<int> cycle(first, path.end());
                int earliest = *std::min_element(cycle.begin(), cycle.end());
                std::rotate(cycle.begin(), std::find(cycle.begin(), cycle.end(), earliest), cycle.end());
                std::string chain;
                for (int c : cycle) chain += rig_.bones[size_t(c)].fileName + " -> ";
                chain += rig_.bones[size_t(earliest)].fileName;
                const RigBone& head = rig_.bones[size_t(earliest)];
                report_.error(head.line, "bone: parent cycle " + chain + " (each bone is its own ancestor)");
                for (int c : cycle) rig_.bones[size_t(c)].parent = -1;  // no follow-on pose
            }
            for (int p : path) state[size_t(p)] = Done;
        }
    }

    void resolveVisuals() {
        std::map<int, int> lineOfVisual;  // bone → line of its visual
        for (size_t i = 0; i < rig_.visuals.size(); ++i) {
            RigVisual& visual = rig_.visuals[i];
            visual.bone = lookup(visualRecords_[i].bone, "visual", visual.line, "bone");
            if (visual.bone < 0) continue;
            auto [it, inserted] = lineOfVisual.emplace(visual.bone, visual.line);
            if (!inserted)
                report_.error(visual.line, "visual: bone " + boneLabel(visual.bone) + " already has a visual at line " +
                                               std::to_string(it->second));
        }
    }

    void resolveBodies() {
        std::map<int, int> lineOfBody;
        for (size_t i = 0; i < rig_.bodies.size(); ++i) {
            RigBody& body = rig_.bodies[i];
            body.bone = lookup(bodyRecords_[i].bone, "body", body.line, "bone");
            if (body.bone < 0) continue;
            auto [it, inserted] = lineOfBody.emplace(body.bone, body.line);
            if (!inserted) {
                report_.error(body.line, "body: bone " + boneLabel(body.bone) + " already has a body at line " +
                                             std::to_string(it->second) + " (one body per bone)");
                continue;
            }
            if (const BodyRecord& r = bodyRecords_[i]; r.x || r.y)
                body.centre = Vec2{r.x.value_or(0.5 * rig_.bones[size_t(body.bone)].length), r.y.value_or(0.0)};
            if (body.radiusSource != RadiusSource::Visual) continue;
            if (!(artRadius(rig_, body.bone) > 0.0))
                report_.error(body.line, "body: no radius for bone " + boneLabel(body.bone) +
                                             ": give 'radius' or 'radius_fraction', or a <visual> with a width or "
                                             "radius, or a <sprite>, for the bone");
        }
    }

    static std::string shortNumber(double value) {
        char text[32];
        std::snprintf(text, sizeof text, "%g", value);
        return text;
    }

    /// Masses and radii the solver can divide by: a body of 1e-300 kg (or one a billion
    /// times thinner than a hair) has an inverse mass that overflows in the step.
    void checkBodySizes() {
        for (const RigBody& body : rig_.bodies) {
            if (body.mass < kMinBodyMass || body.mass > kMaxBodyMass)
                report_.error(body.line, "body: mass " + shortNumber(body.mass) + " kg of bone " +
                                             boneLabel(body.bone) + " is outside " + shortNumber(kMinBodyMass) +
                                             " to " + shortNumber(kMaxBodyMass) + " kg");
            if (body.radius < kMinBodyRadius || body.radius > kMaxBodyRadius)
                report_.error(body.line, "body: radius " + shortNumber(body.radius) + " m of bone " +
                                             boneLabel(body.bone) + " is outside " + shortNumber(kMinBodyRadius) +
                                             " to " + shortNumber(kMaxBodyRadius) + " m");
        }
    }

    void resolveJoints() {
        std::map<std::pair<int, int>, int> lineOfPair;
        std::map<int, int> lineOfChild;
        std::map<std::string, int> lineOfName;
        for (size_t i = 0; i < rig_.joints.size(); ++i) {
            RigJoint& joint = rig_.joints[i];
            const JointRecord& record = jointRecords_[i];
            if (!joint.name.empty()) {
                auto [it, inserted] = lineOfName.emplace(joint.name, joint.line);
                if (!inserted)
                    report_.error(joint.line, "joint: duplicate name " + inQuotes(joint.fileName) +
                                                  " (after sanitising; first at line " + std::to_string(it->second) + ")");
            }
            if (joint.limited && record.hasLower && record.hasUpper && joint.lower > joint.upper)
                report_.error(joint.line, "joint: lower limit " + record.lowerText + " is greater than upper limit " +
                                              record.upperText + " (degrees); swap them");
            else if (joint.limited && (joint.lower > 0.0 || joint.upper < 0.0))
                report_.warning(joint.line, "joint: its limits " + record.lowerText + " to " + record.upperText +
                                                " (degrees) leave out the rest pose, 0: limits are measured from the "
                                                "pose the bones give, and the limb is held at the nearer limit, not "
                                                "where the file draws it");
            joint.parent = lookup(record.parent, "joint", joint.line, "parent");
            joint.child = lookup(record.child, "joint", joint.line, "child");
            if (joint.parent < 0 || joint.child < 0) continue;
            std::string pair = boneLabel(joint.parent) + " -> " + boneLabel(joint.child);
            if (joint.parent == joint.child) {
                report_.error(joint.line, "joint: " + pair + " joins a bone to itself");
                continue;
            }
            bool parentBody = rig_.bodyOfBone(joint.parent) >= 0, childBody = rig_.bodyOfBone(joint.child) >= 0;
            if (!parentBody || !childBody) {
                std::string missing = !parentBody && !childBody ? "neither bone has a <body>"
                                      : !parentBody             ? "parent bone " + boneLabel(joint.parent) + " has no <body>"
                                                                : "child bone " + boneLabel(joint.child) + " has no <body>";
                report_.error(joint.line, "joint: " + pair + ": " + missing +
                                              " (a joint needs a body on both bones; without one the limb would float free)");
                continue;
            }
            auto key = std::minmax(joint.parent, joint.child);
            auto [pairIt, newPair] = lineOfPair.emplace(std::pair<int, int>(key.first, key.second), joint.line);
            if (!newPair) {
                report_.error(joint.line, "joint: " + pair + " joins the same two bones as the joint at line " +
                                              std::to_string(pairIt->second));
                continue;
            }
            auto [childIt, newChild] = lineOfChild.emplace(joint.child, joint.line);
            if (!newChild)
                report_.warning(joint.line, "joint: " + boneLabel(joint.child) + " is already the child of the joint at line " +
                                                std::to_string(childIt->second) +
                                                "; the two joints close a loop, which the solver handles iteratively");
        }
    }

    /// A body that no chain of joints links to the rest falls on its own: allowed (a prop
    /// carried by the rig) but almost always a forgotten joint, so say so.
    /// A rig that loads but is no figure anyone means: a units mistake (a rig in cm written
    /// with units="m" stands 177 m tall under its own gravity of 981 m/s²), a gravity of the
    /// wrong sign or size, bodies 10⁹ apart in mass.
    void warnImplausibleFigures(const XMLElement& root) {
        double low = kInfinity, high = -kInfinity;
        for (const RigBone& bone : rig_.bones) {
            low = std::min({low, bone.origin.y, bone.tip().y});
            high = std::max({high, bone.origin.y, bone.tip().y});
        }
        const double height = high - low;
        const char* units = unitsName(rig_.units);
        const bool tall = height > kPlausibleMaxHeight, small = height < kPlausibleMinHeight && rig_.bones.size() > 1;
        if (tall || small) {
            // The likely slip: numbers in smaller units than declared (tall), or larger (small).
            const bool metres = rig_.units == RigUnits::Metres;
            const char* hint = tall && metres    ? "; were its numbers centimetres (units=\"cm\") or pixels (units=\"px\")?"
                               : small && !metres ? "; were its numbers metres (units=\"m\")?"
                                                  : "; are its units or scale right?";
            report_.warning(root, "its rest pose stands " + shortNumber(height) + " m tall (units=\"" + units + "\", scale " +
                                      shortNumber(rig_.scale) + ")" + hint);
        }
        const double g = rig_.solver.gravity;
        if (rig_.solver.element >= 0 && (g > 0.0 || std::abs(g) < kPlausibleMinGravity || std::abs(g) > kPlausibleMaxGravity))
            report_.warning(rig_.solver.line, "solver: gravity " + shortNumber(g) + " m/s² (" + shortNumber(g * rig_.scale) +
                                                  " in the file's " + units + ") " +
                                                  (g > 0.0 ? "points up" : std::abs(g) < kPlausibleMinGravity ? "is weak" : "is strong") +
                                                  "; the Earth's is -9.81 m/s², written " + shortNumber(-9.81 * rig_.scale) +
                                                  " in " + units + " at scale " + shortNumber(rig_.scale));
        for (const RigJoint& joint : rig_.joints) {
            const int a = rig_.bodyOfBone(joint.parent), b = rig_.bodyOfBone(joint.child);
            if (a < 0 || b < 0) continue;
            const double ma = rig_.bodies[size_t(a)].mass, mb = rig_.bodies[size_t(b)].mass;
            if (std::max(ma, mb) <= kPlausibleMassRatio * std::min(ma, mb)) continue;
            report_.warning(joint.line, "joint: " + boneLabel(joint.parent) + " -> " + boneLabel(joint.child) + " joins " +
                                            shortNumber(ma) + " and " + shortNumber(mb) + " kg, " +
                                            shortNumber(std::max(ma, mb) / std::min(ma, mb)) + " to 1: past " +
                                            shortNumber(kPlausibleMassRatio) +
                                            " to 1 a light body pressed by a heavy one is driven into what is under it");
        }
    }

    /// A length for a message: metres, and the file's own units when they are not metres.
    std::string lengthText(double metres) const {
        std::string text = shortNumber(metres) + " m";
        if (rig_.units != RigUnits::Metres) text += " (" + shortNumber(metres * rig_.scale) + " " + unitsName(rig_.units) + ")";
        return text;
    }

    /// The largest part of the art on a bone: its largest extent, its extents along the bone
    /// and across it (metres), what it is and its line. size 0 when the bone carries none.
    struct ArtExtent {
        double size = 0.0, along = 0.0, across = 0.0;
        const char* kind = "sprite";
        int line = 0;
    };

    ArtExtent largestArtOn(int bone) const {
        ArtExtent largest;
        for (const RigSprite& sprite : rig_.sprites) {
            if (sprite.bone != bone) continue;
            // The art's opaque part where known (a picture with wide clear margins is
            // smaller than its rect), as drawn.
            const bool opaque = sprite.opaque.width > 0 && sprite.opaque.height > 0;
            const double w = opaque ? sprite.width * sprite.opaque.width / sprite.rect.width : sprite.width;
            const double h = opaque ? sprite.height * sprite.opaque.height / sprite.rect.height : sprite.height;
            if (std::max(w, h) <= largest.size) continue;
            const double c = std::abs(std::cos(sprite.angle)), s = std::abs(std::sin(sprite.angle));
            largest = {std::max(w, h), w * c + h * s, w * s + h * c, "sprite", sprite.line};
        }
        // A mesh counts for each bone carrying some of it, with that bone's share (its part:
        // the triangles with a vertex following the bone most, in the bone's frame), as the
        // character keeps its drawn shape out of the ground: a sleeve bent at the elbow is
        // weighed against the upper arm's body and the forearm's, a share each, and a mesh
        // whose every vertex rides one bone is that bone's whole.
        for (const RigMesh& mesh : rig_.meshes)
            for (const RigMeshPart& part : mesh.parts) {
                if (part.bone != bone) continue;
                const double along = part.high.x - part.low.x, across = part.high.y - part.low.y;
                if (std::max(along, across) <= largest.size) continue;
                largest = {std::max(along, across), along, across, "mesh", mesh.line};
            }
        return largest;
    }

    /// A body far smaller than the art drawn on its bone: the physics handles the small body
    /// while the player sees the large picture fall through the ground or through others.
    void warnBodiesSmallerThanTheirArt() {
        for (const RigBody& body : rig_.bodies) {
            const ArtExtent art = largestArtOn(body.bone);
            const double length = rig_.bones[size_t(body.bone)].length, diameter = 2.0 * body.radius;
            const double bodySize = body.shape == BodyShape::Circle ? diameter
                                    : body.shape == BodyShape::Box  ? std::max(length, diameter)
                                                                    : length + diameter;
            if (art.size == 0.0 || bodySize >= kPlausibleBodyToArt * art.size) continue;
            const std::string kind = art.kind;
            std::string hint = "give it a radius of about " + lengthText(0.5 * art.across) + ", half the " + kind + "'s thickness";
            if (body.shape != BodyShape::Circle && length < 0.5 * art.along)
                hint += ", and its bone a length of about " + lengthText(art.along) + ", the " + kind + "'s length along it";
            report_.warning(body.line, "body: bone " + boneLabel(body.bone) + " has a " + shapeName(body.shape) + " " +
                                           lengthText(bodySize) + " across at most under a " + kind + " " +
                                           lengthText(art.size) + " across (line " + std::to_string(art.line) +
                                           "): it collides as the small body, not as the art is drawn; " + hint);
        }
    }

    void warnDisconnectedBodies(const XMLElement& root) {
        const int count = int(rig_.bodies.size());
        if (count == 0) {
            report_.warning(root, "rig " + inQuotes(rig_.name) +
                                      " has no <body> elements: it builds no ragdoll, and a level cannot spawn it "
                                      "until `paperdoll rig generate` adds them");
            return;
        }
        std::vector<int> parent(static_cast<size_t>(count));
        for (int i = 0; i < count; ++i) parent[size_t(i)] = i;
        auto findSet = [&](int x) {
            while (parent[size_t(x)] != x) x = parent[size_t(x)] = parent[size_t(parent[size_t(x)])];
            return x;
        };
        for (const RigJoint& joint : rig_.joints) parent[size_t(findSet(joint.parentBody))] = findSet(joint.childBody);
        // Measured against the heaviest body: the one a player sees as "the ragdoll".
        int main = 0;
        for (int i = 1; i < count; ++i)
            if (rig_.bodies[size_t(i)].mass > rig_.bodies[size_t(main)].mass) main = i;
        for (int i = 0; i < count; ++i) {
            if (findSet(i) == findSet(main)) continue;
            const RigBody& body = rig_.bodies[size_t(i)];
            report_.warning(body.line, "body: " + boneLabel(body.bone) + " is not joined to " +
                                           boneLabel(rig_.bodies[size_t(main)].bone) +
                                           " by any chain of joints; it will fall on its own");
        }
    }

    Reporter& report_;
    RigDefinition& rig_;
    std::vector<BoneRecord> boneRecords_;  ///< parallel to rig_.bones
    std::vector<VisualRecord> visualRecords_;
    std::vector<BodyRecord> bodyRecords_;
    std::vector<JointRecord> jointRecords_;
    std::map<std::string, int> boneIndex_;  ///< sanitised name → bone
    rigload::ArtParser art_;                ///< <image> and <sprite>
    rigload::MeshParser meshes_;            ///< <mesh>
    bool bonesIntact_ = false;
};

}  // namespace

namespace {

/// What a file given as a rig is when it plainly is no XML (a PNG, UTF-16, binary data, a
/// JSON document such as a Spine skeleton), or nullopt: XML's own errors ("broken text or
/// entity") would say nothing useful about such a file.
std::optional<std::string> notXmlKind(std::string_view text) {
    if (std::optional<std::string> kind = paper::notTextFile(text, "a rig names its images in <image file=...>")) return kind;
    if (const std::string_view start = paper::fromFirstCharacter(text); start.starts_with('{') || start.starts_with('['))
        return "it is JSON; a Spine skeleton becomes a rig with `paperdoll rig import SKELETON.json OUT.rig.xml`";
    if (looksLikeAtlas(text))
        return "it is a libGDX atlas; with its Spine skeleton it becomes a rig by `paperdoll rig import SKELETON.json "
               "OUT.rig.xml --atlas FILE`";
    return std::nullopt;
}

}  // namespace

RigLoadResult loadRigFromText(std::string_view text, const std::string& fileName) {
    RigLoadResult result;
    Reporter report(fileName, result.diagnostics);
    if (std::optional<std::string> kind = notXmlKind(text)) {
        report.error(0, "not an XML rig file (" + *kind + ")");
        return result;
    }
    tinyxml2::XMLDocument document;
    const XMLElement* root = paper::parseRootElement(text, "rig", document, report);
    if (!root) return result;

    auto rig = std::make_shared<RigDefinition>();
    rig->path = fileName;
    rig->sourceText = std::string(text);
    RigParser parser(report, *rig);
    parser.parse(*root);
    // In line order, as a compiler lists them (references are checked after reading).
    std::stable_sort(result.diagnostics.begin(), result.diagnostics.end(),
                     [](const Diagnostic& a, const Diagnostic& b) { return a.line < b.line; });
    if (report.errorCount() == 0) result.rig = std::move(rig);
    else if (parser.bonesIntact()) result.skeleton = std::move(rig);
    else result.clips = rig->clips;
    return result;
}

RigLoadResult loadRigFile(const std::string& path) {
    RigLoadResult result;
    Reporter report(path, result.diagnostics);
    std::optional<std::string> text = paper::readUserFile(path, "rig", report);
    if (!text) return result;
    return loadRigFromText(*text, path);
}

}  // namespace ragdoll
