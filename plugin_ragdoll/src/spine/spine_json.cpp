#include "spine/spine_json.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include "paper/xml_reader.h"
#include "rig/rig.h"
#include "spine/spine_atlas.h"
#include "spine/spine_json_animations.h"

namespace ragdoll {

namespace {

using Json = nlohmann::json;

/// Biggest magnitude a coordinate, angle or time may have: past it a number is a mistake
/// (and its squares would overflow in the pose maths).
constexpr double kMaxSpineNumber = 1e7;
/// Most digits a sequence's frame numbers are padded to: more is a mistake, not a name.
constexpr double kMaxSequenceDigits = 16;

/// A number as written in a message: a whole one as an integer ("9", not nlohmann's
/// "9.0": indices and counts are read as doubles), any other as JSON writes it.
std::string numberText(double value) {
    if (value == std::floor(value) && std::abs(value) < 1e15) return std::to_string(static_cast<long long>(value));
    return Json(value).dump();
}

class SpineReader {
public:
    SpineReader(std::string_view text, const std::string& file, SpineLoadResult& result)
        : text_(text), file_(file), result_(result), skeleton_(result.skeleton) {}

    void error(int line, const std::string& message) { result_.diagnostics.push_back({Severity::Error, file_, line, message}); }
    void warning(int line, const std::string& message) {
        result_.diagnostics.push_back({Severity::Warning, file_, line, message});
    }

    /// "\"text\"", built piece by piece: g++ 12 warns falsely (-Wstringop-overflow) about
    /// "\"" + std::string(text).
    static std::string quoted(std::string_view text) {
        std::string out = "\"";
        out += text;
        out += '"';
        return out;
    }

    /// Where the entry `"name": "NAME"` is first found after the key `section` (else the key
    /// "NAME" after it, else the section's key); npos without the section.
    size_t offsetOf(std::string_view section, const std::string& name) const {
        size_t from = text_.find(quoted(section));
        if (from == std::string_view::npos) return from;
        const std::string quoted = "\"" + name + "\"";
        for (size_t at = text_.find(quoted, from); at != std::string_view::npos; at = text_.find(quoted, at + 1)) {
            size_t back = at;
            while (back > 0 && std::isspace(static_cast<unsigned char>(text_[back - 1]))) --back;
            if (back == 0 || text_[back - 1] != ':') continue;
            --back;
            while (back > 0 && std::isspace(static_cast<unsigned char>(text_[back - 1]))) --back;
            if (back >= 6 && text_.substr(back - 6, 6) == "\"name\"") return at;
        }
        return offsetOfKey(from, name);
    }
    /// Where the key `"KEY"` is first found after `from`, or `from`.
    size_t offsetOfKey(size_t from, const std::string& key) const {
        size_t at = text_.find("\"" + key + "\"", from);
        return at == std::string_view::npos ? from : at;
    }
    /// Where the string that opens with the quote at `at` closes (its closing quote), past
    /// its escapes (an escaped quote does not close it), or npos.
    size_t stringEnd(size_t at) const {
        for (size_t i = at + 1; i < text_.size(); ++i) {
            if (text_[i] == '\\') ++i;
            else if (text_[i] == '"') return i;
        }
        return std::string_view::npos;
    }
    /// The text of the string that opens with the quote at `at`, its escapes decoded as the
    /// JSON parser decoded the keys it gave us ("arm\u0020L" is "arm L"), or nullopt.
    std::optional<std::string> stringAt(size_t at) const {
        if (at >= text_.size() || text_[at] != '"') return std::nullopt;
        const size_t end = stringEnd(at);
        if (end == std::string_view::npos) return std::nullopt;
        const std::string_view raw = text_.substr(at + 1, end - at - 1);
        if (raw.find('\\') == std::string_view::npos) return std::string(raw);
        const std::string_view literal = text_.substr(at, end + 1 - at);
        const Json decoded = Json::parse(literal.begin(), literal.end(), nullptr, false);
        if (!decoded.is_string()) return std::nullopt;
        return decoded.get<std::string>();
    }
    /// Where the value of the key that starts at `key` starts, or npos.
    size_t valueOf(size_t key) const {
        if (key == std::string_view::npos) return key;
        const size_t end = stringEnd(key);
        return end == std::string_view::npos ? end : text_.find_first_not_of(" \t\r\n:", end + 1);
    }
    /// Where each member of the object or array opening at `open` starts in the text (an
    /// object's: its key; an array's: its entry), then where it closes: member i spans
    /// [starts[i], starts[i + 1]). Empty when no object or array opens there.
    std::vector<size_t> memberStarts(size_t open) const {
        std::vector<size_t> starts;
        if (open >= text_.size() || (text_[open] != '{' && text_[open] != '[')) return starts;
        int depth = 0;  // of objects and arrays inside the members
        bool inString = false, inMember = false;
        size_t at = open + 1;
        for (; at < text_.size(); ++at) {
            const char c = text_[at];
            if (inString) {
                if (c == '\\') ++at;
                else if (c == '"') inString = false;
                continue;
            }
            if (depth == 0 && (c == '}' || c == ']')) break;
            if (depth == 0 && c == ',') {
                inMember = false;
                continue;
            }
            if (depth == 0 && !inMember && !std::isspace(static_cast<unsigned char>(c))) {
                inMember = true;
                starts.push_back(at);
            }
            if (c == '"') inString = true;
            else if (c == '{' || c == '[') ++depth;
            else if (c == '}' || c == ']') --depth;
        }
        starts.push_back(at);
        return starts;
    }
    /// Where the member `"KEY": …` of an object (its memberStarts) starts, or npos. Each
    /// member's key is compared as the parser read it: a key written with escapes
    /// ("arm\u0020L", "a\"b", "x\/y") is not the key's text.
    size_t memberOf(const std::vector<size_t>& members, const std::string& key) const {
        for (size_t i = 0; i + 1 < members.size(); ++i)
            if (stringAt(members[i]) == key) return members[i];
        return std::string_view::npos;
    }
    /// The line of the entry `"name": "NAME"` first found after the key `section`, or 0.
    int lineOf(std::string_view section, const std::string& name) const {
        const size_t at = offsetOf(section, name);
        return at == std::string_view::npos ? 0 : lineAt(at);
    }
    /// The line of the key `"KEY":` first found after `from`, or the line of `from`.
    int lineOfKey(size_t from, const std::string& key) const {
        size_t at = text_.find("\"" + key + "\"", from);
        return lineAt(at == std::string_view::npos ? from : at);
    }
    int lineOfKey(std::string_view section, const std::string& key) const {
        size_t from = text_.find(quoted(section));
        return from == std::string_view::npos ? 0 : lineOfKey(from, key);
    }
    /// The line of the first `"key": [`: an attachment's `"path": "head"` came before the
    /// top-level `"path": [` of constraints, and its warning was said there.
    int lineOfArrayKey(const std::string& key) const {
        const std::string quotedKey = "\"" + key + "\"";
        for (size_t at = text_.find(quotedKey); at != std::string_view::npos; at = text_.find(quotedKey, at + 1)) {
            size_t next = text_.find_first_not_of(" \t\r\n", at + quotedKey.size());
            if (next == std::string_view::npos || text_[next] != ':') continue;
            next = text_.find_first_not_of(" \t\r\n", next + 1);
            if (next != std::string_view::npos && text_[next] == '[') return lineAt(at);
        }
        return lineOfKey(0, key);
    }
    int lineAt(size_t offset) const {
        int line = 0, column = 0;
        lineAndColumn(text_, offset, line, column);
        return line;
    }

    double number(const Json& object, const char* key, double fallback, int line, const std::string& what) {
        auto it = object.find(key);
        if (it == object.end() || it->is_null()) return fallback;
        if (!it->is_number() || !std::isfinite(it->get<double>()) || std::abs(it->get<double>()) > kMaxSpineNumber) {
            error(line, what + ": '" + key + "' must be a number of magnitude at most 1e7, got " + it->dump());
            return fallback;
        }
        return it->get<double>();
    }
    std::string string(const Json& object, const char* key, const std::string& fallback, int line, const std::string& what) {
        auto it = object.find(key);
        if (it == object.end() || it->is_null()) return fallback;
        if (!it->is_string()) {
            error(line, what + ": '" + key + "' must be a string, got " + it->dump());
            return fallback;
        }
        return it->get<std::string>();
    }
    bool boolean(const Json& object, const char* key, bool fallback, int line, const std::string& what) {
        auto it = object.find(key);
        if (it == object.end() || it->is_null()) return fallback;
        if (!it->is_boolean()) {
            error(line, what + ": '" + key + "' must be true or false, got " + it->dump());
            return fallback;
        }
        return it->get<bool>();
    }
    /// "rrggbbaa" (or "rrggbb") as Spine writes colours.
    SpineColor color(const Json& object, const char* key, int line, const std::string& what) {
        SpineColor out{1, 1, 1, 1};
        const std::string text = string(object, key, "", line, what);
        if (text.empty()) return out;
        if ((text.size() != 8 && text.size() != 6) || text.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos) {
            error(line, what + ": '" + key + "' must be a colour rrggbbaa, got '" + text + "'");
            return out;
        }
        for (size_t i = 0; i < text.size() / 2; ++i) out[i] = double(std::stoi(text.substr(2 * i, 2), nullptr, 16)) / 255.0;
        return out;
    }

    void readVersion(const Json& root) {
        auto it = root.find("skeleton");
        if (it != root.end() && it->is_object()) skeleton_.version = string(*it, "spine", "", lineOfKey("skeleton", "spine"), "skeleton");
        if (skeleton_.version.empty()) {
            warning(0, "skeleton: no 'spine' version; read as 4.2");
            return;
        }
        int major = 0, minor = 0;
        if (std::sscanf(skeleton_.version.c_str(), "%d.%d", &major, &minor) != 2 || major < 3 || major > 4 ||
            (major == 3 && minor != 8) || (major == 4 && minor > 2)) {
            warning(lineOfKey("skeleton", "spine"), "skeleton: version '" + skeleton_.version +
                                                        "' is not 3.8 or 4.0-4.2; read as the nearest of those");
            minor = major > 4 ? 2 : major == 4 ? std::clamp(minor, 0, 2) : 8;
            major = std::clamp(major, 3, 4);
        }
        skeleton_.major = major;
        skeleton_.minor = minor;
    }

    void readBones(const Json& root) {
        auto it = root.find("bones");
        if (it == root.end() || !it->is_array() || it->empty()) {
            error(0, "no bones: a Spine skeleton's 'bones' is an array with at least the root");
            return;
        }
        std::vector<std::string> parents;
        for (const Json& entry : *it) {
            SpineBone bone;
            if (!entry.is_object()) {
                error(lineOfKey("bones", "name"), "bones: every entry must be an object");
                continue;
            }
            bone.name = string(entry, "name", "", 0, "bone");
            bone.line = lineOf("bones", bone.name);
            const std::string what = "bone '" + bone.name + "'";
            if (bone.name.empty()) error(bone.line, "bones: an entry has no name");
            if (skeleton_.findBone(bone.name) >= 0) error(bone.line, what + " is defined twice");
            // A rig name has '_' for each '.': 'hand.r' and 'hand_r' would be one bone there,
            // an error the rig's own check gave at lines of a file never written.
            for (const SpineBone& other : skeleton_.bones)
                if (other.name != bone.name && sanitiseName(other.name) == sanitiseName(bone.name))
                    error(bone.line, what + " would be the same bone in a rig as '" + other.name + "' (line " +
                                         std::to_string(other.line) + "): a rig name has '_' for each '.'; rename one of them");
            parents.push_back(string(entry, "parent", "", bone.line, what));
            bone.length = number(entry, "length", 0.0, bone.line, what);
            bone.x = number(entry, "x", 0.0, bone.line, what);
            bone.y = number(entry, "y", 0.0, bone.line, what);
            bone.rotation = number(entry, "rotation", 0.0, bone.line, what);
            bone.scaleX = number(entry, "scaleX", 1.0, bone.line, what);
            bone.scaleY = number(entry, "scaleY", 1.0, bone.line, what);
            bone.shearX = number(entry, "shearX", 0.0, bone.line, what);
            bone.shearY = number(entry, "shearY", 0.0, bone.line, what);
            const std::string inherit = string(entry, entry.contains("inherit") ? "inherit" : "transform", "normal", bone.line, what);
            static const std::map<std::string, SpineInherit> kInherit = {
                {"normal", SpineInherit::Normal},
                {"onlyTranslation", SpineInherit::OnlyTranslation},
                {"noRotationOrReflection", SpineInherit::NoRotationOrReflection},
                {"noScale", SpineInherit::NoScale},
                {"noScaleOrReflection", SpineInherit::NoScaleOrReflection}};
            auto mode = kInherit.find(inherit);
            if (mode == kInherit.end()) error(bone.line, what + ": unknown inherit mode '" + inherit + "'");
            else bone.inherit = mode->second;
            skeleton_.bones.push_back(bone);
        }
        for (size_t i = 0; i < skeleton_.bones.size(); ++i) {
            SpineBone& bone = skeleton_.bones[i];
            if (parents[i].empty()) continue;
            bone.parent = skeleton_.findBone(parents[i]);
            if (bone.parent < 0) error(bone.line, "bone '" + bone.name + "': parent '" + parents[i] + "' is not a bone");
        }
        // A cycle: walking up from a bone takes more steps than there are bones.
        for (size_t i = 0; i < skeleton_.bones.size(); ++i) {
            int at = int(i);
            size_t steps = 0;
            while (at >= 0 && steps <= skeleton_.bones.size()) at = skeleton_.bones[size_t(at)].parent, ++steps;
            if (at >= 0) {
                error(skeleton_.bones[i].line, "bone '" + skeleton_.bones[i].name + "' is in a parent cycle");
                for (SpineBone& bone : skeleton_.bones) bone.parent = -1;  // so nothing later loops
                return;
            }
        }
        sortParentsFirst();
    }

    /// Spine lists a parent before its children; a file that does not is read in that order.
    void sortParentsFirst() {
        std::vector<SpineBone>& bones = skeleton_.bones;
        bool ordered = true;
        for (size_t i = 0; i < bones.size(); ++i) ordered = ordered && bones[i].parent < int(i);
        if (ordered) return;
        std::vector<int> order, newIndex(bones.size(), -1);
        while (order.size() < bones.size())
            for (size_t i = 0; i < bones.size(); ++i)
                if (newIndex[i] < 0 && (bones[i].parent < 0 || newIndex[size_t(bones[i].parent)] >= 0)) {
                    newIndex[i] = int(order.size());
                    order.push_back(int(i));
                }
        std::vector<SpineBone> sorted;
        for (int i : order) {
            sorted.push_back(bones[size_t(i)]);
            if (sorted.back().parent >= 0) sorted.back().parent = newIndex[size_t(sorted.back().parent)];
        }
        bones = std::move(sorted);
    }

    int boneRef(const Json& object, const char* key, int line, const std::string& what) {
        const std::string name = string(object, key, "", line, what);
        const int bone = skeleton_.findBone(name);
        if (bone < 0) error(line, what + ": " + key + " '" + name + "' is not a bone");
        return bone;
    }

    void readSlots(const Json& root) {
        auto it = root.find("slots");
        if (it == root.end()) return;
        if (!it->is_array()) return error(lineOfKey(0, "slots"), "'slots' must be an array");
        for (const Json& entry : *it) {
            if (!entry.is_object()) continue;
            SpineSlot slot;
            slot.name = string(entry, "name", "", 0, "slot");
            slot.line = lineOf("slots", slot.name);
            const std::string what = "slot '" + slot.name + "'";
            if (skeleton_.findSlot(slot.name) >= 0) error(slot.line, what + " is defined twice");
            slot.bone = boneRef(entry, "bone", slot.line, what);
            slot.color = color(entry, "color", slot.line, what);
            slot.attachment = string(entry, "attachment", "", slot.line, what);
            // What the renderer cannot draw is said, not dropped in silence.
            if (const std::string blend = string(entry, "blend", "normal", slot.line, what); blend != "normal")
                warning(slot.line, what + ": blend mode '" + blend + "' is drawn as normal");
            if (entry.contains("dark")) warning(slot.line, what + ": its tint black ('dark') is not drawn");
            skeleton_.slots.push_back(slot);
        }
    }

    /// A 4.1+ sequence: the attachment's art is `count` regions named its path and a frame
    /// number (start + index) padded with zeros to `digits`. Only the setup frame is drawn,
    /// so the path becomes that region's name.
    void readSequence(SpineAttachment& a, const Json& sequence, const std::string& what) {
        if (!sequence.is_object()) return error(a.line, what + ": 'sequence' must be an object, got " + sequence.dump());
        const double count = number(sequence, "count", 0.0, a.line, what), start = number(sequence, "start", 1.0, a.line, what);
        const double digits = number(sequence, "digits", 0.0, a.line, what), setup = number(sequence, "setup", 0.0, a.line, what);
        auto whole = [](double value) { return value >= 0.0 && value == std::floor(value); };
        if (!whole(count) || count < 1 || !whole(start) || !whole(digits) || digits > kMaxSequenceDigits || !whole(setup) ||
            setup >= count)
            return error(a.line, what + ": 'sequence' needs a whole 'count' of at least 1, a whole 'start', 'digits' from 0 to " +
                                     numberText(kMaxSequenceDigits) + " and a 'setup' frame from 0 to count - 1, got " +
                                     sequence.dump());
        std::string frame = std::to_string(static_cast<long long>(start + setup));
        if (frame.size() < size_t(digits)) frame.insert(0, size_t(digits) - frame.size(), '0');
        a.path += frame;
        a.sequenceCount = int(count);
    }

    /// slotAt: where the skin's entry for the slot is in the text (its key), so that the line
    /// found is this skin's entry, not another skin's of the same slot and name (nor the
    /// slot's key when the attachment has the slot's name).
    void readAttachment(SpineSkin& skin, int slot, const std::string& name, const Json& entry, size_t slotAt) {
        SpineAttachment a;
        a.slot = slot;
        a.name = name;
        const size_t at = memberOf(memberStarts(valueOf(slotAt)), name);
        a.line = at != std::string_view::npos ? lineAt(at) : lineOfKey(slotAt, name);
        const std::string what = "attachment '" + name + "' (skin '" + skin.name + "', slot '" +
                                 skeleton_.slots[size_t(slot)].name + "')";
        if (!entry.is_object()) return error(a.line, what + " must be an object");
        a.path = string(entry, "path", string(entry, "name", name, a.line, what), a.line, what);
        a.typeText = string(entry, "type", "region", a.line, what);
        static const std::map<std::string, SpineAttachmentType> kTypes = {
            {"region", SpineAttachmentType::Region},       {"mesh", SpineAttachmentType::Mesh},
            {"linkedmesh", SpineAttachmentType::LinkedMesh}, {"boundingbox", SpineAttachmentType::BoundingBox},
            {"path", SpineAttachmentType::Path},           {"point", SpineAttachmentType::Point},
            {"clipping", SpineAttachmentType::Clipping}};
        auto type = kTypes.find(a.typeText);
        a.type = type == kTypes.end() ? SpineAttachmentType::Other : type->second;
        a.x = number(entry, "x", 0.0, a.line, what);
        a.y = number(entry, "y", 0.0, a.line, what);
        a.rotation = number(entry, "rotation", 0.0, a.line, what);
        a.scaleX = number(entry, "scaleX", 1.0, a.line, what);
        a.scaleY = number(entry, "scaleY", 1.0, a.line, what);
        a.width = number(entry, "width", 0.0, a.line, what);
        a.height = number(entry, "height", 0.0, a.line, what);
        a.color = color(entry, "color", a.line, what);
        if (auto sequence = entry.find("sequence"); sequence != entry.end() && !sequence->is_null()) readSequence(a, *sequence, what);
        if (a.type == SpineAttachmentType::Mesh) readMesh(a, entry, what);
        if (a.type == SpineAttachmentType::LinkedMesh) {
            a.parentMesh = string(entry, "parent", "", a.line, what);
            a.parentSkin = string(entry, "skin", "", a.line, what);
            if (a.parentMesh.empty()) error(a.line, what + ": a linked mesh needs a 'parent'");
        }
        if (a.type == SpineAttachmentType::Region && (a.width <= 0.0 || a.height <= 0.0))
            error(a.line, what + ": a region attachment needs a width and height > 0");
        skin.attachments.push_back(std::move(a));
    }

    bool numbers(const Json& entry, const char* key, std::vector<double>& out, int line, const std::string& what) {
        auto it = entry.find(key);
        if (it == entry.end() || !it->is_array()) {
            error(line, what + ": a mesh needs '" + key + "' (an array of numbers)");
            return false;
        }
        for (const Json& v : *it) {
            if (!v.is_number() || !std::isfinite(v.get<double>()) || std::abs(v.get<double>()) > kMaxSpineNumber) {
                error(line, what + ": '" + key + "' holds " + v.dump() + ", not a number");
                return false;
            }
            out.push_back(v.get<double>());
        }
        return true;
    }

    void readMesh(SpineAttachment& a, const Json& entry, const std::string& what) {
        std::vector<double> triangles;
        if (!numbers(entry, "uvs", a.uvs, a.line, what) || !numbers(entry, "vertices", a.vertices, a.line, what) ||
            !numbers(entry, "triangles", triangles, a.line, what))
            return;
        if (a.uvs.size() % 2 != 0 || a.uvs.empty()) return error(a.line, what + ": 'uvs' must hold u, v pairs");
        const size_t count = a.uvs.size() / 2;
        if (triangles.size() % 3 != 0) return error(a.line, what + ": 'triangles' must hold three indices per triangle");
        for (double t : triangles) {
            if (t < 0 || t >= double(count) || t != std::floor(t))
                return error(a.line, what + ": triangle index " + numberText(t) + " is not one of the " +
                                         std::to_string(count) + " vertices");
            a.triangles.push_back(int(t));
        }
        a.weighted = a.vertices.size() != a.uvs.size();
        if (!a.weighted) return;
        // Weighted: per vertex, a bone count, then bone index, x, y, weight per bone.
        size_t at = 0;
        for (size_t v = 0; v < count; ++v) {
            if (at >= a.vertices.size()) return error(a.line, what + ": 'vertices' ends before vertex " + std::to_string(v));
            const double bones = a.vertices[at++];
            if (bones < 1 || bones != std::floor(bones) || bones > double(skeleton_.bones.size()))
                return error(a.line, what + ": vertex " + std::to_string(v) + " has a bad bone count " + numberText(bones));
            // A count that is right but has too few numbers after it: the array is cut short.
            if (at + size_t(bones) * 4 > a.vertices.size())
                return error(a.line, what + ": 'vertices' is cut short: vertex " + std::to_string(v) + "'s bone count " +
                                         numberText(bones) + " needs " + std::to_string(size_t(bones) * 4) + " numbers after it, " +
                                         std::to_string(a.vertices.size() - at) + " are left");
            double sum = 0.0;
            for (size_t b = 0; b < size_t(bones); ++b, at += 4) {
                const double bone = a.vertices[at];
                if (bone < 0 || bone >= double(skeleton_.bones.size()) || bone != std::floor(bone))
                    return error(a.line, what + ": vertex " + std::to_string(v) + " names bone index " + numberText(bone) +
                                             " of " + std::to_string(skeleton_.bones.size()));
                sum += a.vertices[at + 3];
            }
            if (std::abs(sum - 1.0) > 1e-3)
                return error(a.line, what + ": the weights of vertex " + std::to_string(v) + " sum to " + numberText(sum) +
                                         ", not 1");
        }
        if (at != a.vertices.size()) error(a.line, what + ": 'vertices' holds more than its " + std::to_string(count) + " vertices");
    }

    /// attachmentsAt: where the skin's attachments are in the text (their key or, before
    /// 3.8, the skin's name), so that each slot's lines are found in this skin's entry.
    void readSkin(const std::string& name, const Json& attachments, int line, size_t attachmentsAt) {
        SpineSkin skin;
        skin.name = name;
        skin.line = line;
        if (!attachments.is_object()) return error(line, "skin '" + name + "': its attachments must be an object");
        const std::vector<size_t> slotKeys = memberStarts(valueOf(attachmentsAt));
        for (auto& [slotName, entries] : attachments.items()) {
            // Not found only when the skin's entry is not where the text search put it:
            // the attachments' line then.
            const size_t found = memberOf(slotKeys, slotName);
            const size_t slotAt = found == std::string_view::npos ? attachmentsAt : found;
            const int slot = skeleton_.findSlot(slotName);
            if (slot < 0) {
                error(lineAt(slotAt), "skin '" + name + "': '" + slotName + "' is not a slot");
                continue;
            }
            if (!entries.is_object()) continue;
            for (auto& [attachmentName, entry] : entries.items()) readAttachment(skin, slot, attachmentName, entry, slotAt);
        }
        skeleton_.skins.push_back(std::move(skin));
    }

    /// 4.x and 3.8 exports: an array of {name, attachments}; before 3.8: an object by name.
    void readSkins(const Json& root) {
        auto it = root.find("skins");
        if (it == root.end()) return;
        const size_t skinsAt = text_.find(quoted("skins"));
        if (it->is_array()) {
            // Each skin's lines from its own entry in the text, whatever the order of its
            // keys (Spine writes "name" first; other tools and hand edits need not).
            const std::vector<size_t> entries = memberStarts(valueOf(skinsAt));
            for (size_t i = 0; i < it->size(); ++i) {
                const Json& entry = (*it)[i];
                if (!entry.is_object()) continue;
                const std::vector<size_t> keys = i + 1 < entries.size() ? memberStarts(entries[i]) : std::vector<size_t>{};
                const size_t nameAt = memberOf(keys, "name"), attachmentsAt = memberOf(keys, "attachments");
                const size_t entryAt = i + 1 < entries.size() ? entries[i] : skinsAt;
                const std::string name = string(entry, "name", "", 0, "skin");
                const int line = lineAt(nameAt != std::string_view::npos ? nameAt : entryAt);
                auto attachments = entry.find("attachments");
                if (attachments != entry.end())
                    readSkin(name, *attachments, line, attachmentsAt != std::string_view::npos ? attachmentsAt : entryAt);
                else skeleton_.skins.push_back({name, {}, line});
            }
        } else if (it->is_object()) {
            const std::vector<size_t> keys = memberStarts(valueOf(skinsAt));
            for (auto& [name, attachments] : it->items()) {
                const size_t found = memberOf(keys, name);
                const size_t at = found != std::string_view::npos ? found : offsetOfKey(skinsAt, name);
                readSkin(name, attachments, lineAt(at), at);
            }
        } else {
            error(lineOfKey(0, "skins"), "'skins' must be an array or an object");
        }
    }

    /// A slot's setup attachment must be in some skin of the file: one in none is a typo
    /// (of the slot's attachment or of the skin's key), and importing past it would guess
    /// the bodies without that part. Said at the slot's line, naming the skins looked in
    /// and what they do hold for the slot. (One in a skin that is not imported, another
    /// --skin's, is the importer's to warn about: the slot is empty in that skin.)
    void checkSetupAttachments() {
        std::string skinNames;
        for (const SpineSkin& skin : skeleton_.skins) skinNames += (skinNames.empty() ? "'" : ", '") + skin.name + "'";
        const bool one = skeleton_.skins.size() == 1;
        for (size_t s = 0; s < skeleton_.slots.size(); ++s) {
            const SpineSlot& slot = skeleton_.slots[s];
            if (slot.attachment.empty()) continue;
            bool found = false;
            std::string held;
            for (const SpineSkin& skin : skeleton_.skins)
                for (const SpineAttachment& a : skin.attachments) {
                    if (a.slot != int(s)) continue;
                    found = found || a.name == slot.attachment;
                    held += (held.empty() ? "'" : ", '") + a.name + "'";
                }
            if (found) continue;
            std::string where = "the file has no skins";
            if (!skinNames.empty())
                where = std::string(one ? "looked in skin " : "looked in skins ") + skinNames + (one ? ", which holds " : ", which hold ") +
                        (held.empty() ? std::string("nothing") : held) + " for this slot";
            error(slot.line, "slot '" + slot.name + "': its setup attachment '" + slot.attachment + "' is in no skin (" + where + ")");
        }
    }

    void readConstraints(const Json& root) {
        for (const char* kind : {"path", "physics"})
            if (auto it = root.find(kind); it != root.end() && it->is_array() && !it->empty())
                warning(lineOfArrayKey(kind), std::to_string(it->size()) + " " + kind +
                                                " constraint(s) not baked (skipped): the clips hold what bone timelines, IK "
                                                "and transform constraints make");
        if (auto it = root.find("ik"); it != root.end() && it->is_array())
            for (const Json& entry : *it) {
                if (!entry.is_object()) continue;
                SpineIk ik;
                ik.name = string(entry, "name", "", 0, "ik");
                ik.line = lineOf("ik", ik.name);
                const std::string what = "IK constraint '" + ik.name + "'";
                if (auto bones = entry.find("bones"); bones != entry.end() && bones->is_array())
                    for (const Json& bone : *bones) {
                        ik.bones.push_back(bone.is_string() ? skeleton_.findBone(bone.get<std::string>()) : -1);
                        if (ik.bones.back() < 0) error(ik.line, what + ": " + bone.dump() + " is not a bone");
                    }
                if (ik.bones.empty() || ik.bones.size() > 2) error(ik.line, what + ": needs one or two bones");
                ik.target = boneRef(entry, "target", ik.line, what);
                ik.mix = number(entry, "mix", 1.0, ik.line, what);
                ik.bendPositive = boolean(entry, "bendPositive", true, ik.line, what);
                ik.order = int(number(entry, "order", 0.0, ik.line, what));
                if (number(entry, "softness", 0.0, ik.line, what) != 0.0 || boolean(entry, "stretch", false, ik.line, what) ||
                    boolean(entry, "compress", false, ik.line, what))
                    warning(ik.line, what + ": softness, stretch and compress are not baked (the bones keep their lengths)");
                skeleton_.ik.push_back(ik);
            }
        if (auto it = root.find("transform"); it != root.end() && it->is_array())
            for (const Json& entry : *it) {
                if (!entry.is_object()) continue;
                SpineTransformConstraint t;
                t.name = string(entry, "name", "", 0, "transform");
                t.line = lineOf("transform", t.name);
                const std::string what = "transform constraint '" + t.name + "'";
                if (auto bones = entry.find("bones"); bones != entry.end() && bones->is_array())
                    for (const Json& bone : *bones) {
                        t.bones.push_back(bone.is_string() ? skeleton_.findBone(bone.get<std::string>()) : -1);
                        if (t.bones.back() < 0) error(t.line, what + ": " + bone.dump() + " is not a bone");
                    }
                t.target = boneRef(entry, "target", t.line, what);
                t.offsetRotation = number(entry, "rotation", 0.0, t.line, what);
                t.offsetX = number(entry, "x", 0.0, t.line, what);
                t.offsetY = number(entry, "y", 0.0, t.line, what);
                // 4.x: mixRotate, mixX, mixY; 3.8: rotateMix, translateMix.
                t.mixRotate = number(entry, "mixRotate", number(entry, "rotateMix", 1.0, t.line, what), t.line, what);
                t.mixX = number(entry, "mixX", number(entry, "translateMix", 1.0, t.line, what), t.line, what);
                t.mixY = number(entry, "mixY", t.mixX, t.line, what);
                t.local = boolean(entry, "local", false, t.line, what);
                t.relative = boolean(entry, "relative", false, t.line, what);
                t.order = int(number(entry, "order", 0.0, t.line, what));
                skeleton_.transforms.push_back(t);
            }
    }

private:
    std::string_view text_;
    const std::string& file_;
    SpineLoadResult& result_;
    SpineSkeleton& skeleton_;
};

}  // namespace

void lineAndColumn(std::string_view text, size_t offset, int& line, int& column) {
    line = 1;
    column = 1;
    for (size_t i = 0; i < offset && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
}

SpineLoadResult parseSpineJson(std::string_view text, const std::string& fileName) {
    SpineLoadResult result;
    result.skeleton.path = fileName;
    Json root;
    try {
        root = Json::parse(text.begin(), text.end());
    } catch (const Json::parse_error& e) {
        // nlohmann counts the byte it stopped at from 1.
        int line = 0, column = 0;
        lineAndColumn(text, e.byte > 0 ? e.byte - 1 : 0, line, column);
        std::string message = e.what();
        const size_t detail = message.find("syntax error");
        Diagnostic d{Severity::Error, fileName, line, "JSON " + (detail == std::string::npos ? message : message.substr(detail))};
        d.column = column;
        result.diagnostics.push_back(d);
        return result;
    }
    if (!root.is_object()) {
        result.diagnostics.push_back({Severity::Error, fileName, 1, "a Spine skeleton is a JSON object"});
        return result;
    }
    SpineReader reader(text, fileName, result);
    reader.readVersion(root);
    reader.readBones(root);
    // Every section is read whatever the errors before it, so that one run lists every
    // mistake (a slot on a misspelt bone, a misspelt skin entry, an animation of a misspelt
    // bone), as the atlas's missing regions are; only without bones is there nothing for
    // the rest to name.
    if (!result.skeleton.bones.empty()) {
        reader.readSlots(root);
        reader.readSkins(root);
        reader.checkSetupAttachments();
        reader.readConstraints(root);
        readSpineAnimations(root, text, fileName, result);
    }
    result.ok = !hasErrors(result.diagnostics);
    return result;
}

namespace {

/// What a file given as the skeleton is instead, when it is plainly no JSON: a parser's
/// "invalid literal" at 1:1 says nothing of that.
std::optional<std::string> notJsonKind(std::string_view text) {
    if (std::optional<std::string> kind = paper::notTextFile(text, "the skeleton is the .json Spine exports beside it"))
        return kind;
    if (looksLikeAtlas(text)) return "it is a libGDX atlas: pass the skeleton's .json, and this as --atlas FILE";
    if (paper::fromFirstCharacter(text).starts_with('<'))
        return "it is XML, a rig or a level; `paperdoll rig check` reads rigs";
    return std::nullopt;
}

}  // namespace

SpineLoadResult loadSpineJsonFile(const std::string& path) {
    // The user's file through the one reader every loader uses: a directory, a device
    // (/dev/zero would never end) or a missing file is refused with the cause.
    SpineLoadResult result;
    paper::Reporter report(path, result.diagnostics);
    std::optional<std::string> text = paper::readUserFile(path, "skeleton", report);
    if (!text) return result;
    if (std::optional<std::string> kind = notJsonKind(*text)) {
        report.error(0, "not a Spine JSON skeleton (" + *kind + ")");
        return result;
    }
    return parseSpineJson(*text, path);
}

const char* attachmentTypeName(SpineAttachmentType type) {
    switch (type) {
        case SpineAttachmentType::Region: return "region";
        case SpineAttachmentType::Mesh: return "mesh";
        case SpineAttachmentType::LinkedMesh: return "linked mesh";
        case SpineAttachmentType::BoundingBox: return "bounding box";
        case SpineAttachmentType::Path: return "path";
        case SpineAttachmentType::Point: return "point";
        case SpineAttachmentType::Clipping: return "clipping";
        case SpineAttachmentType::Other: return "unknown";
    }
    return "unknown";
}

const char* inheritName(SpineInherit inherit) {
    switch (inherit) {
        case SpineInherit::Normal: return "normal";
        case SpineInherit::OnlyTranslation: return "onlyTranslation";
        case SpineInherit::NoRotationOrReflection: return "noRotationOrReflection";
        case SpineInherit::NoScale: return "noScale";
        case SpineInherit::NoScaleOrReflection: return "noScaleOrReflection";
    }
    return "normal";
}

int SpineSkeleton::findBone(const std::string& name) const {
    for (size_t i = 0; i < bones.size(); ++i)
        if (bones[i].name == name) return int(i);
    return -1;
}
int SpineSkeleton::findSlot(const std::string& name) const {
    for (size_t i = 0; i < slots.size(); ++i)
        if (slots[i].name == name) return int(i);
    return -1;
}
const SpineSkin* SpineSkeleton::findSkin(const std::string& name) const {
    for (const SpineSkin& skin : skins)
        if (skin.name == name) return &skin;
    return nullptr;
}

}  // namespace ragdoll
