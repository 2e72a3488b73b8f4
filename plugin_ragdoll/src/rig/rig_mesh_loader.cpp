#include "rig/rig_mesh_loader.h"

#include <cctype>
#include <charconv>
#include <cmath>

#include "rig/rig_xml.h"

namespace ragdoll::rigload {

namespace {

using paper::AttributeReader;
using paper::inQuotes;
using paper::Need;
using paper::Range;
using tinyxml2::XMLElement;

std::string show(double value) { return rigxml::formatNumber(value, rigxml::Quantity::Plain, 1.0); }

/// "more than LIMIT WHAT in one mesh". Appended, not joined with +: g++ 12 at -O3 without
/// vectorisation warns of an out-of-bounds copy in the joined form (a false -Warray-bounds).
std::string moreThanInOneMesh(int limit, const char* what) {
    std::string message = "more than ";
    message += std::to_string(limit);
    message += ' ';
    message += what;
    message += " in one mesh";
    return message;
}

}  // namespace

void MeshParser::readMesh(const XMLElement& element, int ordinal) {
    AttributeReader in = reader(element);
    RigMesh mesh;
    MeshRecord record;
    mesh.line = element.GetLineNum();
    mesh.element = ordinal;
    mesh.order = int(rig_.meshes.size());
    record.imageName = in.text("image", Need::Required);
    mesh.z = in.wholeNumber("z", Need::Optional, -kMaxPartZ, kMaxPartZ, 0);
    const std::string color = in.color("color");
    if (!color.empty()) mesh.color = *paper::parseHexColor(color);
    in.warnUnknownAttributes();
    bool haveTriangles = false;
    for (const XMLElement* child = element.FirstChildElement(); child; child = child->NextSiblingElement()) {
        const std::string_view name = child->Name();
        if (name == "vertex") {
            if (int(mesh.vertices.size()) >= kMaxMeshVertices) {
                report_.error(*child, moreThanInOneMesh(kMaxMeshVertices, "vertices"));
                break;
            }
            AttributeReader v = reader(*child);
            RigMeshVertex vertex;
            vertex.line = child->GetLineNum();
            vertex.u = v.plain("u", Need::Required, Range::NonNegative, 0.0);
            vertex.v = v.plain("v", Need::Required, Range::NonNegative, 0.0);
            v.warnUnknownAttributes();
            std::vector<std::string> bones;
            std::vector<int> lines;
            for (const XMLElement* w = child->FirstChildElement(); w; w = w->NextSiblingElement()) {
                if (std::string_view(w->Name()) != "weight") {
                    report_.warning(w->GetLineNum(), "unknown element '" + std::string(w->Name()) +
                                                         "' in <vertex> ignored (kept on save)");
                    continue;
                }
                AttributeReader wr = reader(*w);
                RigMeshWeight weight;
                bones.push_back(wr.text("bone", Need::Required));
                lines.push_back(w->GetLineNum());
                weight.position.x = wr.length("x", Need::Required, Range::Any, 0.0);
                weight.position.y = wr.length("y", Need::Required, Range::Any, 0.0);
                weight.weight = wr.plain("w", Need::Optional, Range::Positive, 1.0);
                wr.warnUnknownAttributes();
                warnChildElements(report_, *w);
                vertex.weights.push_back(weight);
            }
            if (vertex.weights.empty()) report_.error(*child, "a vertex needs at least one <weight> (the bone it follows)");
            double sum = 0.0;
            for (const RigMeshWeight& w : vertex.weights) sum += w.weight;
            if (!vertex.weights.empty() && std::abs(sum - 1.0) > kMeshWeightTolerance)
                report_.error(*child, "the weights sum to " + show(sum) + ", not 1 (within 0.001)");
            mesh.vertices.push_back(std::move(vertex));
            record.boneNames.push_back(std::move(bones));
            record.weightLines.push_back(std::move(lines));
        } else if (name == "triangles") {
            if (haveTriangles) report_.error(*child, "a second <triangles> in one mesh");
            haveTriangles = true;
            readTriangles(*child, mesh, record);
        } else {
            report_.warning(child->GetLineNum(), "unknown element '" + std::string(name) + "' in <mesh> ignored (kept on save)");
        }
    }
    if (!haveTriangles) report_.error(element, "a mesh needs <triangles> (vertex indices, three per triangle)");
    rig_.meshes.push_back(std::move(mesh));
    records_.push_back(std::move(record));
}

void MeshParser::readTriangles(const XMLElement& element, RigMesh& mesh, MeshRecord& record) {
    record.trianglesLine = element.GetLineNum();
    const char* raw = element.GetText();
    const std::string_view text = raw ? raw : "";
    size_t at = 0;
    while (at < text.size()) {
        while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at]))) ++at;
        if (at == text.size()) break;
        int index = 0;
        auto [end, status] = std::from_chars(text.data() + at, text.data() + text.size(), index);
        const size_t next = size_t(end - text.data());
        if (status != std::errc{} || next == at || (next < text.size() && !std::isspace(static_cast<unsigned char>(text[next]))) ||
            index < 0) {
            size_t stop = at;
            while (stop < text.size() && !std::isspace(static_cast<unsigned char>(text[stop]))) ++stop;
            report_.error(element, "index " + inQuotes(std::string(text.substr(at, stop - at))) +
                                       " is not a whole number >= 0");
            return;
        }
        if (int(mesh.triangles.size()) >= 3 * kMaxMeshVertices) {
            report_.error(element, moreThanInOneMesh(3 * kMaxMeshVertices, "indices"));
            return;
        }
        mesh.triangles.push_back(index);
        at = next;
    }
    if (mesh.triangles.empty() || mesh.triangles.size() % 3 != 0)
        report_.error(element, std::to_string(mesh.triangles.size()) +
                                   " indices: a mesh needs three per triangle, at least one triangle");
}

void MeshParser::resolve(const std::map<std::string, int>& boneIndex) {
    for (size_t m = 0; m < rig_.meshes.size(); ++m) {
        RigMesh& mesh = rig_.meshes[m];
        const MeshRecord& record = records_[m];
        for (size_t v = 0; v < mesh.vertices.size(); ++v)
            for (size_t w = 0; w < mesh.vertices[v].weights.size(); ++w) {
                const std::string& name = record.boneNames[v][w];
                if (name.empty()) continue;  // reported as missing already
                auto it = boneIndex.find(sanitiseName(name));
                if (it != boneIndex.end()) mesh.vertices[v].weights[w].bone = it->second;
                else report_.error(record.weightLines[v][w], "weight: bone " + inQuotes(name) + " is not a bone of this rig" +
                                                                 didYouMeanBone(rig_, name));
            }
        for (int index : mesh.triangles)
            if (index >= int(mesh.vertices.size())) {
                report_.error(record.trianglesLine, "triangles: index " + std::to_string(index) + " is not one of the mesh's " +
                                                        std::to_string(mesh.vertices.size()) + " vertices");
                break;
            }
        if (record.imageName.empty()) continue;
        mesh.image = rig_.findImage(record.imageName);
        if (mesh.image < 0) {
            report_.error(mesh.line, "mesh: image " + inQuotes(record.imageName) + " is not an <image> of this rig" +
                                         didYouMeanImage(rig_, record.imageName));
            continue;
        }
        const RigImage& image = rig_.images[size_t(mesh.image)];
        if (image.width == 0) continue;  // unreadable: reported at the image
        for (const RigMeshVertex& vertex : mesh.vertices)
            if (vertex.u > image.width || vertex.v > image.height)
                report_.error(vertex.line, "vertex: u, v (" + show(vertex.u) + ", " +
                                               show(vertex.v) + ") is outside image " + inQuotes(image.name) +
                                               " (" + std::to_string(image.width) + " x " + std::to_string(image.height) +
                                               " pixels)");
    }
}

}  // namespace ragdoll::rigload
