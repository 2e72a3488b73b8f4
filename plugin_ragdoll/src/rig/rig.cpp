#include "rig/rig.h"

#include "paper/spelling.h"

#include <algorithm>
#include <cmath>

namespace ragdoll {

int errorCount(const std::vector<Diagnostic>& diagnostics) {
    return int(std::count_if(diagnostics.begin(), diagnostics.end(),
                             [](const Diagnostic& d) { return d.severity == Severity::Error; }));
}

const char* unitsName(RigUnits units) {
    switch (units) {
        case RigUnits::Pixels: return "px";
        case RigUnits::Centimetres: return "cm";
        case RigUnits::Metres: return "m";
    }
    return "m";
}

std::string didYouMeanImage(const RigDefinition& rig, std::string_view typed) {
    std::vector<std::string_view> names;
    for (const RigImage& image : rig.images) names.push_back(image.name);
    return paper::didYouMean(typed, names);
}

std::string didYouMeanBone(const RigDefinition& rig, std::string_view typed) {
    const std::string sanitised = sanitiseName(typed);
    const RigBone* nearest = nullptr;
    size_t best = 0;
    for (const RigBone& bone : rig.bones) {
        if (!paper::isSlipOf(typed, bone.fileName) && !paper::isSlipOf(sanitised, bone.name)) continue;
        const size_t d = std::min(paper::editDistance(typed, bone.fileName), paper::editDistance(sanitised, bone.name));
        if (!nearest || d < best) {
            nearest = &bone;
            best = d;
        }
    }
    return nearest ? "; did you mean '" + nearest->fileName + "'?" : "";
}

double defaultScale(RigUnits units) { return units == RigUnits::Metres ? 1.0 : 100.0; }

const char* shapeName(BodyShape shape) {
    switch (shape) {
        case BodyShape::Capsule: return "capsule";
        case BodyShape::Circle: return "circle";
        case BodyShape::Box: return "box";
    }
    return "capsule";
}

std::string sanitiseName(std::string_view name) {
    std::string out(name);
    std::replace(out.begin(), out.end(), '.', '_');
    return out;
}

int RigDefinition::findBone(std::string_view boneName) const {
    std::string wanted = sanitiseName(boneName);
    for (size_t i = 0; i < bones.size(); ++i)
        if (bones[i].name == wanted) return int(i);
    return -1;
}

int RigDefinition::bodyOfBone(int bone) const {
    for (size_t i = 0; i < bodies.size(); ++i)
        if (bodies[i].bone == bone) return int(i);
    return -1;
}

int RigDefinition::visualOfBone(int bone) const {
    for (size_t i = 0; i < visuals.size(); ++i)
        if (visuals[i].bone == bone) return int(i);
    return -1;
}

int RigDefinition::findImage(std::string_view imageName) const {
    for (size_t i = 0; i < images.size(); ++i)
        if (images[i].name == imageName) return int(i);
    return -1;
}

const RigMeshWeight* mainWeight(const RigMeshVertex& vertex) {
    const RigMeshWeight* most = nullptr;
    for (const RigMeshWeight& w : vertex.weights)
        if (!most || w.weight > most->weight) most = &w;
    return most;
}

const char* flipName(const RigSprite& sprite) {
    if (sprite.flipX) return sprite.flipY ? "xy" : "x";
    return sprite.flipY ? "y" : "none";
}

double spriteImageAngle(const RigSprite& sprite) { return sprite.flipX ? sprite.angle + kPi : sprite.angle; }

double artRadius(const RigDefinition& rig, int bone) {
    const int v = rig.visualOfBone(bone);
    if (v >= 0) {
        const RigVisual& visual = rig.visuals[size_t(v)];
        if (visual.shape == VisualShape::Circle && visual.radius > 0.0) return visual.radius;
        if (visual.shape == VisualShape::Line && visual.width > 0.0) return 0.5 * visual.width;
    }
    double alongHeight = 0.0, smallerSide = 0.0;
    for (const RigSprite& sprite : rig.sprites) {
        if (sprite.bone != bone) continue;
        // Within rounding: 390° or −330° read in radians and wrapped lands a hair past 30°.
        // The image's direction, not the quad's: flip="xy" is a half turn and counts as one.
        if (std::abs(wrapAngle(spriteImageAngle(sprite))) <= kSpriteAlongBone + 1e-9)
            alongHeight = std::max(alongHeight, sprite.height);
        smallerSide = std::max(smallerSide, std::min(sprite.width, sprite.height));
    }
    // A mesh's vertices that follow this bone most: their spread across it is a thickness,
    // which the body takes when it is thicker than what the sprites say.
    double meshThickness = 0.0;
    for (const RigMesh& mesh : rig.meshes) {
        double low = 1e300, high = -1e300;
        for (const RigMeshVertex& vertex : mesh.vertices) {
            const RigMeshWeight* most = mainWeight(vertex);
            if (!most || most->bone != bone) continue;
            low = std::min(low, most->position.y);
            high = std::max(high, most->position.y);
        }
        if (high > low) meshThickness = std::max(meshThickness, high - low);
    }
    return 0.5 * std::max(meshThickness, alongHeight > 0.0 ? alongHeight : smallerSide);
}

const RigClip* RigDefinition::findClip(std::string_view name) const {
    for (const RigClip& clip : clips)
        if (clip.name == name) return &clip;
    return nullptr;
}

double RigDefinition::totalMass() const {
    double sum = 0.0;
    for (const RigBody& body : bodies) sum += body.mass;
    return sum;
}

namespace {

void deriveMeshParts(RigMesh& mesh, int boneCount) {
    mesh.parts.clear();
    std::vector<int> partOfBone(size_t(boneCount), -1);
    const int vertexCount = int(mesh.vertices.size());
    for (size_t t = 0; t + 2 < mesh.triangles.size(); t += 3) {
        const int* corners = &mesh.triangles[t];
        if (std::any_of(corners, corners + 3, [&](int v) { return v < 0 || v >= vertexCount; })) continue;
        for (int c = 0; c < 3; ++c) {
            const RigMeshWeight* most = mainWeight(mesh.vertices[size_t(corners[c])]);
            if (!most || most->bone < 0 || most->bone >= boneCount) continue;
            int& index = partOfBone[size_t(most->bone)];
            if (index < 0) {
                index = int(mesh.parts.size());
                mesh.parts.push_back({most->bone, {kInfinity, kInfinity}, {-kInfinity, -kInfinity}});
            }
            RigMeshPart& part = mesh.parts[size_t(index)];
            for (int k = 0; k < 3; ++k)
                for (const RigMeshWeight& w : mesh.vertices[size_t(corners[k])].weights) {
                    if (w.bone != part.bone) continue;
                    part.low = {std::min(part.low.x, w.position.x), std::min(part.low.y, w.position.y)};
                    part.high = {std::max(part.high.x, w.position.x), std::max(part.high.y, w.position.y)};
                }
        }
    }
}

}  // namespace

void updateDerived(RigDefinition& rig) {
    // Parents before children without assuming file order: walk each bone's chain up to a
    // posed ancestor. The loader has ruled out cycles and dangling parents; the depth guard
    // keeps a badly edited copy from looping forever.
    const int count = int(rig.bones.size());
    std::vector<char> posed(size_t(count), 0);
    std::vector<int> chain;
    for (int start = 0; start < count; ++start) {
        chain.clear();
        for (int b = start; b >= 0 && b < count && !posed[size_t(b)] && int(chain.size()) <= count;
             b = rig.bones[size_t(b)].parent)
            chain.push_back(b);
        for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
            RigBone& bone = rig.bones[size_t(*it)];
            if (bone.parent >= 0 && bone.parent < count) {
                const RigBone& parent = rig.bones[size_t(bone.parent)];
                bone.origin = parent.origin + rotate(makeRot(parent.angle), bone.localOrigin);
                bone.angle = parent.angle + bone.localAngle;
            } else {
                bone.origin = bone.localOrigin;
                bone.angle = bone.localAngle;
            }
            posed[size_t(*it)] = 1;
        }
    }

    for (RigBody& body : rig.bodies) {
        if (body.bone < 0 || body.bone >= count) continue;
        const RigBone& bone = rig.bones[size_t(body.bone)];
        switch (body.radiusSource) {
            case RadiusSource::Explicit: break;
            case RadiusSource::Fraction: body.radius = body.radiusFraction * bone.length; break;
            case RadiusSource::Visual: {
                // A bone with no art keeps the radius it had (the loader refuses such a body;
                // an edited copy keeps building as before).
                const double fromArt = artRadius(rig, body.bone);
                if (fromArt > 0.0) body.radius = fromArt;
                break;
            }
        }
    }

    for (RigJoint& joint : rig.joints) {
        joint.parentBody = rig.bodyOfBone(joint.parent);
        joint.childBody = rig.bodyOfBone(joint.child);
    }

    for (RigMesh& mesh : rig.meshes) deriveMeshParts(mesh, count);
}

}  // namespace ragdoll
