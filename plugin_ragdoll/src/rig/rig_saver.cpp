// Rig saver: the edited definition is compared, element by element, with the definition
// its source text loads into; only attributes whose canonical text differs are touched
// (see rig_saver.h for the normalisation). Comparing canonical texts of both definitions,
// rather than the file's spelling with the new value, is what makes "45" and "45.0" the
// same and leaves values the file never wrote (defaults) alone while they do not change.

#include "rig/rig_saver.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <sstream>

#include "paper/file_checks.h"
#include "rig/rig_loader.h"
#include "rig/rig_xml.h"

namespace ragdoll {
namespace {

namespace fs = std::filesystem;
using rigxml::Quantity;

/// Element kinds in the order a fresh file lists them: images before the bones (what the
/// art is cut from), sprites after the visuals (how bones are drawn).
enum class Kind { Solver, Image, Bone, Visual, Sprite, Body, Joint };
constexpr int kKindCount = 7;
const char* kindName(Kind kind) {
    static constexpr const char* kNames[kKindCount] = {"solver", "image", "bone", "visual", "sprite", "body", "joint"};
    return kNames[int(kind)];
}

struct Attribute {
    const char* name;
    std::optional<std::string> value;  ///< nullopt: must not be written
    bool isDefault = false;            ///< a new element leaves it out
};
using Attributes = std::vector<Attribute>;

/// Canonical attribute texts of one item; both definitions go through these.
class Emitter {
public:
    explicit Emitter(const RigDefinition& rig) : rig_(rig) {}

    std::string length(double metres) const { return rigxml::formatNumber(metres, Quantity::Length, rig_.scale); }
    std::string angle(double radians) const { return rigxml::formatNumber(radians, Quantity::Angle, rig_.scale); }
    static std::string plain(double value) { return rigxml::formatNumber(value, Quantity::Plain, 1.0); }
    std::string boneName(int bone) const {
        return bone >= 0 && bone < int(rig_.bones.size()) ? rig_.bones[size_t(bone)].fileName : std::string();
    }

    Attributes root() const {
        return {{"name", rig_.name, false},
                {"format", std::string("1"), false},
                {"units", std::string(unitsName(rig_.units)), false},
                {"scale", plain(rig_.scale), rig_.scale == defaultScale(rig_.units)}};
    }

    Attributes solver() const {
        const RigSolverSettings& s = rig_.solver;
        const RigSolverSettings d;
        return {{"substeps", std::to_string(s.substeps), s.substeps == d.substeps},
                {"iterations", std::to_string(s.iterations), s.iterations == d.iterations},
                {"gravity", length(s.gravity), s.gravity == d.gravity}};
    }

    Attributes bone(const RigBone& b) const {
        const bool root = b.parent < 0;
        const double defaultX = root ? 0.0 : rig_.bones[size_t(b.parent)].length;
        return {{"name", b.fileName, false},
                {"parent", root ? std::nullopt : std::optional<std::string>(boneName(b.parent)), false},
                {"x", length(b.localOrigin.x), b.localOrigin.x == defaultX},
                {"y", length(b.localOrigin.y), b.localOrigin.y == 0.0},
                {"angle", angle(b.localAngle), b.localAngle == 0.0},
                {"length", length(b.length), false}};
    }

    Attributes visual(const RigVisual& v) const {
        const bool circle = v.shape == VisualShape::Circle;
        auto optionalText = [](const std::string& s) { return s.empty() ? std::nullopt : std::optional<std::string>(s); };
        return {{"bone", boneName(v.bone), false},
                {"shape", std::string(circle ? "circle" : "line"), !circle},
                {"width", !circle && v.width > 0.0 ? std::optional<std::string>(length(v.width)) : std::nullopt, false},
                {"radius", circle && v.radius > 0.0 ? std::optional<std::string>(length(v.radius)) : std::nullopt, false},
                {"color", optionalText(v.color), false},
                {"sprite", optionalText(v.sprite), false}};
    }

    Attributes image(const RigImage& i) const { return {{"name", i.name, false}, {"file", i.file, false}}; }

    Attributes sprite(const RigSprite& s) const {
        const bool knownImage = s.image >= 0 && s.image < int(rig_.images.size());
        const RigImage* image = knownImage ? &rig_.images[size_t(s.image)] : nullptr;
        const bool wholeImage = image && s.rect == PixelRect{0, 0, image->width, image->height};
        const std::string rect = std::to_string(s.rect.x) + " " + std::to_string(s.rect.y) + " " +
                                 std::to_string(s.rect.width) + " " + std::to_string(s.rect.height);
        const bool knownBone = s.bone >= 0 && s.bone < int(rig_.bones.size());
        const double midpoint = knownBone ? 0.5 * rig_.bones[size_t(s.bone)].length : 0.0;
        // White is the default tint: it is not written, so an unchanged white part whose
        // file spells it "#FFFFFF" is left alone, and a tint set back to white is removed.
        const bool white = s.color == std::array<std::uint8_t, 4>{255, 255, 255, 255};
        char color[16];
        if (s.color[3] == 255)
            std::snprintf(color, sizeof color, "#%02x%02x%02x", s.color[0], s.color[1], s.color[2]);
        else
            std::snprintf(color, sizeof color, "#%02x%02x%02x%02x", s.color[0], s.color[1], s.color[2], s.color[3]);
        return {{"bone", boneName(s.bone), false},
                {"image", image ? image->name : std::string(), false},
                {"rect", rect, wholeImage},
                {"x", length(s.centre.x), s.centre.x == midpoint},
                {"y", length(s.centre.y), s.centre.y == 0.0},
                {"angle", angle(s.angle), s.angle == 0.0},
                // Like white, no flip is not written: one set back to none is removed.
                {"flip", s.flipX || s.flipY ? std::optional<std::string>(flipName(s)) : std::nullopt, false},
                {"width", length(s.width), false},
                {"height", length(s.height), false},
                {"z", std::to_string(s.z), s.z == 0},
                {"color", white ? std::nullopt : std::optional<std::string>(color), false}};
    }

    Attributes body(const RigBody& b) const {
        const RigBody d;
        const bool knownBone = b.bone >= 0 && b.bone < int(rig_.bones.size());
        const Vec2 midpoint{knownBone ? 0.5 * rig_.bones[size_t(b.bone)].length : 0.0, 0.0};
        // On the midpoint (no centre) the shape follows the bone's length: nothing written, and
        // what the file had goes.
        auto centre = [&](double value) { return b.centre ? std::optional<std::string>(length(value)) : std::nullopt; };
        const Vec2 c = b.centre.value_or(midpoint);
        return {{"bone", boneName(b.bone), false},
                {"shape", std::string(shapeName(b.shape)), b.shape == BodyShape::Capsule},
                {"x", centre(c.x), c.x == midpoint.x},
                {"y", centre(c.y), c.y == 0.0},
                {"radius", b.radiusSource == RadiusSource::Explicit ? std::optional<std::string>(length(b.radius)) : std::nullopt, false},
                {"radius_fraction",
                 b.radiusSource == RadiusSource::Fraction ? std::optional<std::string>(plain(b.radiusFraction)) : std::nullopt,
                 false},
                {"mass", plain(b.mass), false},
                {"linear_damping", plain(b.linearDamping), b.linearDamping == d.linearDamping},
                {"angular_damping", plain(b.angularDamping), b.angularDamping == d.angularDamping},
                {"friction", plain(b.friction), b.friction == d.friction},
                {"restitution", plain(b.restitution), b.restitution == d.restitution}};
    }

    Attributes joint(const RigJoint& j) const {
        auto limit = [&](double radians) { return j.limited ? std::optional<std::string>(angle(radians)) : std::nullopt; };
        return {{"name", j.fileName.empty() ? std::nullopt : std::optional<std::string>(j.fileName), false},
                {"parent", boneName(j.parent), false},
                {"child", boneName(j.child), false},
                {"lower", limit(j.lower), false},
                {"upper", limit(j.upper), false},
                {"stiffness", plain(j.stiffness), j.stiffness == 1.0},
                {"damping", plain(j.damping), j.damping == 0.0},
                {"friction", plain(j.friction), j.friction == 0.0},
                {"collide", std::string(j.collide ? "true" : "false"), !j.collide}};
    }

    /// The attributes of item `index` of a kind.
    Attributes of(Kind kind, int index) const {
        switch (kind) {
            case Kind::Solver: return solver();
            case Kind::Image: return image(rig_.images[size_t(index)]);
            case Kind::Bone: return bone(rig_.bones[size_t(index)]);
            case Kind::Visual: return visual(rig_.visuals[size_t(index)]);
            case Kind::Sprite: return sprite(rig_.sprites[size_t(index)]);
            case Kind::Body: return body(rig_.bodies[size_t(index)]);
            case Kind::Joint: return joint(rig_.joints[size_t(index)]);
        }
        return {};
    }

private:
    const RigDefinition& rig_;
};

/// One item of a definition: its kind, index and element ordinal in the source (-1 = new).
struct Item {
    Kind kind;
    int index;
    int element;
};

/// Every item in fresh-file order. The solver is an item only when it has an element or
/// differs from the defaults.
std::vector<Item> itemsOf(const RigDefinition& rig) {
    std::vector<Item> items;
    const RigSolverSettings defaults;
    bool customSolver = rig.solver.substeps != defaults.substeps || rig.solver.iterations != defaults.iterations ||
                        rig.solver.gravity != defaults.gravity;
    if (rig.solver.element >= 0 || customSolver) items.push_back({Kind::Solver, 0, rig.solver.element});
    for (size_t i = 0; i < rig.images.size(); ++i) items.push_back({Kind::Image, int(i), rig.images[i].element});
    for (size_t i = 0; i < rig.bones.size(); ++i) items.push_back({Kind::Bone, int(i), rig.bones[i].element});
    for (size_t i = 0; i < rig.visuals.size(); ++i) items.push_back({Kind::Visual, int(i), rig.visuals[i].element});
    for (size_t i = 0; i < rig.sprites.size(); ++i) items.push_back({Kind::Sprite, int(i), rig.sprites[i].element});
    for (size_t i = 0; i < rig.bodies.size(); ++i) items.push_back({Kind::Body, int(i), rig.bodies[i].element});
    for (size_t i = 0; i < rig.joints.size(); ++i) items.push_back({Kind::Joint, int(i), rig.joints[i].element});
    return items;
}

std::string elementText(Kind kind, const Attributes& attributes) {
    std::string out = "<";
    out += kindName(kind);
    for (const Attribute& a : attributes) {
        if (!a.value || a.isDefault) continue;
        out += " ";
        out += a.name;
        out += "=\"" + rigxml::escapeAttribute(*a.value) + "\"";
    }
    return out + "/>";
}

/// A mesh as a fresh file writes it: one line per vertex, then its triangles. Meshes are
/// not edited (no tool changes them), so a patched save keeps their text as it was.
std::string meshText(const RigDefinition& rig, const RigMesh& mesh) {
    auto plain = [](double v) { return rigxml::formatNumber(v, Quantity::Plain, 1.0); };
    auto length = [&](double v) { return rigxml::formatNumber(v, Quantity::Length, rig.scale); };
    std::string out = "  <mesh image=\"" + rigxml::escapeAttribute(rig.images[size_t(mesh.image)].name) + "\"";
    if (mesh.z != 0) out += " z=\"" + std::to_string(mesh.z) + "\"";
    const std::array<std::uint8_t, 4>& c = mesh.color;
    if (c != std::array<std::uint8_t, 4>{255, 255, 255, 255}) {
        char hex[16];
        std::snprintf(hex, sizeof hex, c[3] == 255 ? "#%02x%02x%02x" : "#%02x%02x%02x%02x", c[0], c[1], c[2], c[3]);
        out += " color=\"" + std::string(hex) + "\"";
    }
    out += ">\n";
    for (const RigMeshVertex& vertex : mesh.vertices) {
        out += "    <vertex u=\"" + plain(vertex.u) + "\" v=\"" + plain(vertex.v) + "\">";
        for (const RigMeshWeight& w : vertex.weights) {
            out += " <weight bone=\"" + rigxml::escapeAttribute(rig.bones[size_t(w.bone)].fileName) + "\" x=\"" +
                   length(w.position.x) + "\" y=\"" + length(w.position.y) + "\"";
            if (vertex.weights.size() > 1) out += " w=\"" + plain(w.weight) + "\"";
            out += "/>";
        }
        out += " </vertex>\n";
    }
    out += "    <triangles>";
    for (size_t i = 0; i < mesh.triangles.size(); ++i) out += (i == 0 ? "" : i % 3 == 0 ? "  " : " ") + std::to_string(mesh.triangles[i]);
    return out + "</triangles>\n  </mesh>\n";
}

std::string freshText(const RigDefinition& rig) {
    Emitter emit(rig);
    std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rig";
    for (const Attribute& a : emit.root())
        if (a.value && !a.isDefault) out += std::string(" ") + a.name + "=\"" + rigxml::escapeAttribute(*a.value) + "\"";
    out += ">\n";
    int lastKind = -1;
    for (const Item& item : itemsOf(rig)) {
        if (lastKind >= 0 && int(item.kind) != lastKind) out += "\n";
        lastKind = int(item.kind);
        out += "  " + elementText(item.kind, emit.of(item.kind, item.index)) + "\n";
    }
    if (!rig.meshes.empty()) out += "\n";
    for (const RigMesh& mesh : rig.meshes) out += meshText(rig, mesh);
    return out + "</rig>\n";
}

/// A replacement of text[begin, end); insertions have begin == end.
struct Edit {
    size_t begin, end;
    std::string text;
};

/// The whitespace that precedes an element on its line, when nothing else does.
std::string indentOf(std::string_view text, size_t elementBegin) {
    size_t lineStart = text.rfind('\n', elementBegin == 0 ? 0 : elementBegin - 1);
    lineStart = lineStart == std::string_view::npos ? 0 : lineStart + 1;
    std::string_view before = text.substr(lineStart, elementBegin - lineStart);
    if (before.find_first_not_of(" \t") != std::string_view::npos) return "  ";
    return std::string(before);
}

/// The span that removing an element takes out: its whole line(s) when it is alone on them.
std::pair<size_t, size_t> removalSpan(std::string_view text, const rigxml::ScannedElement& e) {
    size_t lineStart = e.begin;
    while (lineStart > 0 && (text[lineStart - 1] == ' ' || text[lineStart - 1] == '\t')) --lineStart;
    size_t lineEnd = e.end;
    while (lineEnd < text.size() && (text[lineEnd] == ' ' || text[lineEnd] == '\t' || text[lineEnd] == '\r')) ++lineEnd;
    bool aloneBefore = lineStart == 0 || text[lineStart - 1] == '\n';
    bool aloneAfter = lineEnd == text.size() || text[lineEnd] == '\n';
    if (aloneBefore && aloneAfter) return {lineStart, lineEnd < text.size() ? lineEnd + 1 : lineEnd};
    return {e.begin, e.end};
}

/// Whether the text between two elements keeps them in one run: whitespace, one line break
/// at most (a blank line or a comment begins another).
bool sameRun(std::string_view gap) {
    return gap.find_first_not_of(" \t\r\n") == std::string_view::npos && std::count(gap.begin(), gap.end(), '\n') <= 1;
}

/// Whether text[begin, end) holds nothing but spaces and tabs (and a '\r').
bool blank(std::string_view text, size_t begin, size_t end) {
    return text.substr(begin, end - begin).find_first_not_of(" \t\r") == std::string_view::npos;
}

/// The span that removing a whole run of elements takes out, from `first` to `last`
/// (`after`: where the element before the run, or the root's start tag, ends). A comment
/// heading the run, alone on the lines just above it, goes with it: it spoke of those
/// elements (`rig generate` replacing a rig's joints left the note on their old limits
/// behind). So does a blank line above when one follows, or the root's end tag: what remains
/// keeps one blank line between its groups and none before `</rig>`. Nullopt when the run
/// shares a line with other text: its elements are then taken out one by one.
std::optional<std::pair<size_t, size_t>> runRemovalSpan(std::string_view text, size_t after, const rigxml::ScannedElement& first,
                                                        const rigxml::ScannedElement& last) {
    size_t begin = removalSpan(text, first).first;
    const size_t end = removalSpan(text, last).second;
    const bool wholeLines = begin > after && text[begin - 1] == '\n' && text[end - 1] == '\n';
    if (!wholeLines) return std::nullopt;
    const std::string_view above = text.substr(after, begin - after);
    const size_t tail = above.find_last_not_of(" \t\r\n");
    const bool lineAbove = tail != std::string_view::npos && std::count(above.begin() + tail, above.end(), '\n') == 1;
    if (lineAbove && above.substr(0, tail + 1).ends_with("-->")) {
        const size_t open = above.rfind("<!--", tail);
        const size_t openLine = open == std::string_view::npos ? open : above.rfind('\n', open);
        if (openLine != std::string_view::npos && above.find("-->", open) == tail - 2 && blank(above, openLine + 1, open))
            begin = after + openLine + 1;
    }
    const size_t lineBelowEnd = text.find('\n', end);
    const size_t below = text.find_first_not_of(" \t\r", end);
    const bool rootEndBelow = below != std::string_view::npos && text.substr(below).starts_with("</");
    if (rootEndBelow || (lineBelowEnd != std::string_view::npos && blank(text, end, lineBelowEnd))) {
        const size_t lineAboveStart = text.rfind('\n', begin - 2) + 1;  // begin > after >= 1
        if (blank(text, lineAboveStart, begin - 1)) begin = lineAboveStart;
    }
    return std::pair{begin, end};
}

/// Edits turning `before` attributes (as in the file) into `after` on one start tag.
void attributeEdits(const rigxml::ScannedElement& element, const Attributes& before,
                    const Attributes& after, std::vector<Edit>& edits) {
    std::string appended;
    for (size_t i = 0; i < after.size(); ++i) {
        const Attribute& now = after[i];
        const Attribute& was = before[i];
        if (now.value == was.value) continue;
        const rigxml::ScannedAttribute* existing = element.find(now.name);
        if (existing && now.value) {
            edits.push_back({existing->valueBegin, existing->valueEnd, rigxml::escapeAttribute(*now.value)});
        } else if (existing) {
            edits.push_back({existing->begin, existing->valueEnd + 1, std::string()});
        } else if (now.value) {
            appended += std::string(" ") + now.name + "=\"" + rigxml::escapeAttribute(*now.value) + "\"";
        }
    }
    if (!appended.empty()) edits.push_back({element.attributesEnd, element.attributesEnd, appended});
}

/// The patched text, or nullopt when the source cannot be matched with the definition
/// (then the caller writes the file fresh).
std::optional<std::string> patchedText(const RigDefinition& rig) {
    RigLoadResult original = loadRigFromText(rig.sourceText, rig.path);
    if (!original.rig) return std::nullopt;
    const std::string_view text = rig.sourceText;
    rigxml::ScannedDocument doc = rigxml::scanDocument(text);
    if (!doc.ok) return std::nullopt;

    const RigDefinition& was = *original.rig;
    Emitter before(was), after(rig);
    std::vector<Edit> edits;
    attributeEdits(doc.root, before.root(), after.root(), edits);

    // The original's items by element ordinal.
    std::map<int, Item> originalByElement;
    for (const Item& item : itemsOf(was))
        if (item.element >= 0) originalByElement.emplace(item.element, item);
    if (!originalByElement.empty() && originalByElement.rbegin()->first >= int(doc.children.size())) return std::nullopt;

    std::vector<char> kept(doc.children.size(), 0);
    std::vector<Item> added;
    for (const Item& item : itemsOf(rig)) {
        auto it = originalByElement.find(item.element);
        if (item.element < 0 || it == originalByElement.end() || it->second.kind != item.kind || kept[size_t(item.element)]) {
            added.push_back(item);
            continue;
        }
        kept[size_t(item.element)] = 1;
        const Item& source = it->second;
        attributeEdits(doc.children[size_t(item.element)], before.of(source.kind, source.index),
                       after.of(item.kind, item.index), edits);
    }
    std::vector<char> removed(doc.children.size(), 0);
    for (const auto& [element, item] : originalByElement) removed[size_t(element)] = !kept[size_t(element)];
    for (size_t first = 0; first < doc.children.size();) {
        // A run: elements on consecutive lines, no blank line or comment between them.
        size_t last = first;
        bool whole = removed[first];
        while (last + 1 < doc.children.size() &&
               sameRun(text.substr(doc.children[last].end, doc.children[last + 1].begin - doc.children[last].end))) {
            ++last;
            whole = whole && removed[last];
        }
        const size_t after = first == 0 ? doc.root.tagEnd : doc.children[first - 1].end;
        const auto span = whole ? runRemovalSpan(text, after, doc.children[first], doc.children[last]) : std::nullopt;
        if (span) {
            edits.push_back({span->first, span->second, std::string()});
        } else {
            for (size_t c = first; c <= last; ++c) {
                if (!removed[c]) continue;
                auto [begin, end] = removalSpan(text, doc.children[c]);
                edits.push_back({begin, end, std::string()});
            }
        }
        first = last + 1;
    }

    // New elements: after the last kept element of their kind, else after the last kept
    // element of an earlier kind (with a blank line), else before the first kept element.
    auto kindOfChild = [&](size_t child) -> int {
        auto it = originalByElement.find(int(child));
        return it == originalByElement.end() ? -1 : int(it->second.kind);
    };
    bool insertedAtRoot = false;
    for (int kind = 0; kind < kKindCount; ++kind) {
        std::vector<std::string> elements;
        for (const Item& item : added)
            if (int(item.kind) == kind) elements.push_back(elementText(item.kind, after.of(item.kind, item.index)));
        if (elements.empty()) continue;
        int sameKind = -1, earlierKind = -1, firstKept = -1;
        for (size_t c = 0; c < doc.children.size(); ++c) {
            if (!kept[c]) continue;
            if (firstKept < 0) firstKept = int(c);
            int k = kindOfChild(c);
            if (k == kind) sameKind = int(c);
            if (k >= 0 && k < kind) earlierKind = int(c);
        }
        std::string group;
        size_t at;
        if (sameKind >= 0 || earlierKind >= 0) {
            const rigxml::ScannedElement& anchor = doc.children[size_t(sameKind >= 0 ? sameKind : earlierKind)];
            std::string indent = indentOf(text, anchor.begin);
            if (sameKind < 0) group += "\n";
            for (const std::string& e : elements) group += "\n" + indent + e;
            at = anchor.end;
        } else if (firstKept >= 0) {
            // Before the first element, on lines of their own; the anchor keeps its indentation.
            const rigxml::ScannedElement& anchor = doc.children[size_t(firstKept)];
            std::string indent = indentOf(text, anchor.begin);
            for (const std::string& e : elements) group += indent + e + "\n";
            group += "\n";
            at = anchor.begin - (text.substr(0, anchor.begin).ends_with(indent) ? indent.size() : 0);
        } else {
            if (insertedAtRoot) group += "\n";
            for (const std::string& e : elements) group += "\n  " + e;
            at = doc.root.tagEnd;
            insertedAtRoot = true;
        }
        edits.push_back({at, at, group});
    }

    // In position order; at one position, insertions (in the order made) before replacements.
    std::stable_sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) {
        if (a.begin != b.begin) return a.begin < b.begin;
        return (a.begin == a.end) > (b.begin == b.end);
    });
    std::string out;
    out.reserve(text.size() + 256);
    size_t position = 0;
    for (const Edit& edit : edits) {
        if (edit.begin < position) return std::nullopt;  // overlapping edits: cannot happen, but never corrupt
        out.append(text.substr(position, edit.begin - position));
        out += edit.text;
        position = edit.end;
    }
    out.append(text.substr(position));
    return out;
}

std::string errnoText() { return std::strerror(errno); }

/// Removes the temporary files of saves to this target that were killed before their
/// rename (nothing runs after SIGKILL): those whose lock (see saveRig) nobody holds. A save
/// in progress holds its lock, except in the instant between creating its file and locking
/// it; losing its file then fails that save's rename, which leaves the original intact.
void removeStaleTemporaries(const fs::path& directory, const std::string& prefix) {
    std::error_code status;
    for (fs::directory_iterator it(directory, status), end; !status && it != end; it.increment(status)) {
        const std::string name = it->path().filename().string();
        if (!name.starts_with(prefix)) continue;
        int fd = ::open(it->path().c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
        if (fd < 0) continue;
        struct stat info;
        if (::fstat(fd, &info) == 0 && S_ISREG(info.st_mode) && ::flock(fd, LOCK_EX | LOCK_NB) == 0)
            ::unlink(it->path().c_str());
        ::close(fd);
    }
}

}  // namespace

RigTextResult rigToText(const RigDefinition& rig) { return rigToText(rig, rig.path); }

RigTextResult rigToText(const RigDefinition& rig, const std::string& loadedAs) {
    RigTextResult result;
    std::optional<std::string> patched;
    if (!rig.sourceText.empty()) patched = patchedText(rig);
    result.text = patched ? std::move(*patched) : freshText(rig);
    if (!rig.sourceText.empty() && !patched)
        result.diagnostics.push_back({Severity::Warning, rig.path, 0,
                                      "the rig's source text does not match its definition; written fresh "
                                      "(comments and unknown content of the original are lost)"});
    RigLoadResult check = loadRigFromText(result.text, loadedAs);
    if (!check.rig) {
        for (Diagnostic& d : check.diagnostics)
            if (d.severity == Severity::Error) result.diagnostics.push_back(std::move(d));
        result.diagnostics.push_back({Severity::Error, rig.path, 0, "not saved: the edited rig would not load"});
        return result;
    }
    result.ok = true;
    return result;
}

bool writeAll(int fd, std::string_view bytes) {
    size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += size_t(n);
    }
    return true;
}

RigSaveResult saveRig(const RigDefinition& rig, const std::string& path, bool overReadOnly) {
    RigSaveResult result;
    auto fail = [&](const std::string& message) {
        result.diagnostics.push_back({Severity::Error, path, 0, "cannot save rig: " + message});
        return result;
    };
    RigTextResult text = rigToText(rig, path);
    for (Diagnostic& d : text.diagnostics) {
        d.file = path;
        result.diagnostics.push_back(std::move(d));
    }
    if (!text.ok) return result;

    // Into a device, a pipe or a descriptor (/dev/null, /dev/stdout) as it is: a file renamed
    // over it would replace it (run as root, the system's /dev/null itself).
    std::error_code status;
    if (fs::exists(path, status) && !fs::is_regular_file(path, status) && !fs::is_directory(path, status)) {
        const int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
        if (fd < 0) return fail("cannot open it: " + errnoText());
        const bool written = writeAll(fd, text.text);
        const std::string writeError = written ? std::string() : errnoText();
        if (::close(fd) != 0 && written) return fail("writing it failed: " + errnoText());
        if (!written) return fail("writing it failed: " + writeError);
        result.ok = true;
        result.text = std::move(text.text);
        return result;
    }

    // Saved through a symbolic link, into the file it names (hop by hop, a dangling one too):
    // the temporary file renamed over the link itself replaced the link with a copy, and the
    // rig it pointed at was never edited.
    std::string why;
    const fs::path target = paper::linkedFile(path, why);
    if (target.empty()) return fail(why);
    if (fs::is_directory(target, status)) return fail("it is a directory");
    // A file made read-only (a version control system's, not checked out) is left alone: the
    // temporary file renamed over it replaced it all the same, with no word, its mode kept.
    if (!overReadOnly && fs::is_regular_file(target, status)) {
        const fs::perms mode = fs::status(target, status).permissions();
        const fs::perms writable = fs::perms::owner_write | fs::perms::group_write | fs::perms::others_write;
        if ((mode & writable) == fs::perms::none || ::access(target.c_str(), W_OK) != 0)
            return fail("'" + target.string() + "' is read-only (checked in, or not yours?): make it writable to save over it");
    }
    const fs::path directory = target.has_parent_path() ? target.parent_path() : fs::path(".");
    if (!fs::is_directory(directory, status)) {
        const char* why = fs::exists(directory, status) ? "is not a directory" : "does not exist";
        return fail("directory '" + directory.string() + "' " + why);
    }

    // A name of our own beside the target (same filesystem, so the rename is atomic).
    // O_EXCL: never write into a file someone else made; retried on the rare clash.
    const std::string tempPrefix = "." + target.filename().string() + ".tmp-";
    removeStaleTemporaries(directory, tempPrefix);
    std::random_device entropy;
    std::string temp;
    int fd = -1;
    for (int attempt = 0; attempt < 16 && fd < 0; ++attempt) {
        char suffix[16];
        std::snprintf(suffix, sizeof suffix, "%08x", unsigned(entropy()));
        temp = (directory / (tempPrefix + suffix)).string();
        fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST) break;
    }
    if (fd < 0) return fail("cannot create a temporary file in '" + directory.string() + "': " + errnoText());
    // A lock on it until the rename, through a descriptor of its own (fd is closed before
    // the rename to catch a failed write-back). The kernel drops the lock when the process
    // dies, so a temporary file nobody holds a lock on is one a killed save left behind.
    int lockFd = ::dup(fd);
    if (lockFd >= 0) ::flock(lockFd, LOCK_EX | LOCK_NB);
    auto unlock = [&] {
        if (lockFd >= 0) ::close(lockFd);
    };

    bool written = writeAll(fd, text.text);
    std::string writeError = written ? std::string() : errnoText();
    bool synced = written && ::fsync(fd) == 0;
    if (written && !synced) writeError = errnoText();
    bool closed = ::close(fd) == 0;
    if (synced && !closed) writeError = errnoText();
    if (!written || !synced || !closed) {
        ::unlink(temp.c_str());
        unlock();
        return fail("writing '" + temp + "' failed: " + writeError + " (the original is unchanged)");
    }
    struct stat original;
    if (::stat(target.c_str(), &original) == 0) ::chmod(temp.c_str(), original.st_mode & 07777);
    if (::rename(temp.c_str(), target.c_str()) != 0) {
        std::string error = errnoText();
        ::unlink(temp.c_str());
        unlock();
        return fail("renaming the temporary file over it failed: " + error + " (the original is unchanged)");
    }
    unlock();
    // Make the rename itself durable; failing here loses nothing already written.
    int dirFd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dirFd >= 0) {
        ::fsync(dirFd);
        ::close(dirFd);
    }
    result.ok = true;
    result.text = std::move(text.text);
    return result;
}

std::string changedOnDisk(const RigDefinition& rig, const std::string& path) {
    if (rig.sourceText.empty() || rig.path.empty()) return {};
    std::error_code status;
    if (!fs::exists(path, status) || !fs::equivalent(path, rig.path, status)) return {};
    std::ifstream file(path, std::ios::binary);
    std::stringstream now;
    now << file.rdbuf();
    if (!file || now.str() == rig.sourceText) return {};
    return "'" + fs::path(path).filename().string() +
           "' changed on disk since it was read (another program wrote it), and saving would undo that change";
}

}  // namespace ragdoll
