// Animation clips: loading *.anim.xml against a rig, and sampling.
//
// ## Clip format (content/anims/*.anim.xml, format 1)
//
// ```xml
// <clip name="walk" format="1" duration="1.0" loop="true" interpolation="smooth">
//   <track bone="thigh.L">
//     <key t="0" angle="-20"/>
//     <key t="0.5" angle="22"/>
//   </track>
//   <track bone="shin.L" interpolation="linear"> <key t="0" angle="-5"/> ... </track>
//   <root> <key t="0" x="0" y="-2"/> <key t="1.0" x="130" y="-2"/> </root>
//   <event t="0.25" name="footstep_L"/>
// </clip>
// ```
//
// | element | attribute | meaning |
// |---|---|---|
// | clip | name | required, the clip's name |
// | clip | format | required, "1" |
// | clip | duration | required, seconds, > 0 |
// | clip | loop | "true" or "false" (default) |
// | clip | interpolation | "smooth" (default) or "linear": the default for every track |
// | track | bone | required, a bone of the rig (`.` and `_` are the same, as in rigs); one track per bone |
// | track | interpolation | overrides the clip's for this track |
// | key (in track) | t, angle | seconds in [0, duration], strictly increasing; degrees, an offset from the bone's rest local angle (0 = rest pose, counter-clockwise, the same convention as joint limits) |
// | root | — | at most one; its keys move the root bone |
// | root | interpolation | overrides the clip's for the root |
// | key (in root) | t, x, y | x: forward travel since the clip's start (root motion), y: offset of the root from its rest height; both in the rig's units (`units`/`scale` of the rig: px at 100 per metre for the stickman); a key gives x, y or both, and each forms its own track |
// | event | t, name | a named instant (footstep), seconds in [0, duration] |
//
// - Bones without a track keep their rest angle; no x keys means no travel, no y keys no offset.
// - Interpolation: `linear` joins keys by straight lines; `smooth` is a cubic Hermite
//   curve through every key with Catmull-Rom tangents (slope at a key = (next − previous)
//   value over (next − previous) time), so the motion is C1 (no velocity jumps). Before
//   its first key and after its last a track of a non-looping clip holds the key's
//   value, and those two keys get slope 0, so the hold joins smoothly.
// - Looping: every track starts with a key at t=0. A key at t=duration is optional; when
//   given it must repeat the t=0 value (an error otherwise: the loop would jump), when
//   left out the track closes on its first value. Tangents wrap around the seam (the key
//   before t=0 is the last one before t=duration), so a loop is C1 at the seam. Root x is
//   the exception: its key at t=duration may differ from t=0, the difference is the
//   travel of one cycle, and each loop adds it again (the root moves on, continuously).
// - Root motion: x is not part of the pose; the player turns its change over each step
//   into the character's movement (facing left mirrors it). y is part of the pose (bob,
//   crouch, lying down in the get-up clips).
// - A non-looping clip holds its last frame when it ends.
// - Loading checks everything and reports every problem as "FILE:LINE: error: element:
//   message"; a clip with any error does not load. Unknown attributes and elements are
//   warnings.
//
// Implementation notes. Values are converted once, at load: degrees to radians, rig units
// to metres (divided by rig.scale, as the rig's own lengths are). A looping track is
// stored normalised, with keys at 0 and at duration (the closing key added when the file
// leaves it out), so sampling finds one segment in [0, duration] and only the tangents
// at its ends look across the seam. Rejected: requiring the closing key in the file
// (redundant typing that can only be wrong) and allowing a looping track to start after
// t=0 (the value at the seam would then depend on the curve's shape across it, which is
// hard to see while authoring).

#include "anim/clip.h"

#include <tinyxml2.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "paper/xml_reader.h"

namespace ragdoll {
namespace {

using paper::AttributeReader;
using paper::AttributeRules;
using paper::inQuotes;
using paper::Need;
using paper::Range;
using paper::Reporter;
using tinyxml2::XMLElement;

/// Root offsets past 1e4 m are a units mistake (a px clip against a metre rig).
constexpr AttributeRules kClipRules{1.0e4, "is too large (more than 1e4 m; are the rig's units right?)", ""};
/// Two key values this close (file units) are the same, for the loop-closing check.
constexpr double kSameValue = 1.0e-9;

constexpr double kRadiansPerDegree = kPi / 180.0;

/// "1.25", "-0.5": a number as an author would write it, for messages.
std::string show(double value) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%g", value);
    return buffer;
}

/// A key as read, before conversion: for the loop check in file units and for messages.
struct KeyRecord {
    double time = 0.0;
    double fileValue = 0.0;
    int line = 0;
};

class ClipParser {
public:
    ClipParser(Reporter& report, const RigDefinition& rig, Clip& clip) : report_(report), rig_(rig), clip_(clip) {}

    void parse(const XMLElement& root) {
        if (!readHeader(root)) return;
        for (const XMLElement* e = root.FirstChildElement(); e; e = e->NextSiblingElement()) {
            std::string_view name = e->Name();
            if (name == "track") readTrack(*e);
            else if (name == "root") readRoot(*e);
            else if (name == "event") readEvent(*e);
            else
                report_.warning(e->GetLineNum(), "unknown element '" + std::string(name) + "' in <clip> ignored" +
                                                     paper::didYouMean(name, {"track", "root", "event"}));
        }
        std::stable_sort(clip_.events.begin(), clip_.events.end(),
                         [](const ClipEvent& a, const ClipEvent& b) { return a.time < b.time; });
    }

private:
    AttributeReader reader(const XMLElement& element) { return AttributeReader(element, report_, rig_.scale, kClipRules); }

    /// False when nothing else in the file can be trusted (an unknown format).
    bool readHeader(const XMLElement& root) {
        AttributeReader in = reader(root);
        clip_.name = in.text("name", Need::Required);
        if (!paper::readFormatOne(in, report_, root)) return false;
        std::optional<double> duration = in.number("duration", Need::Required, Range::Positive);
        if (duration && *duration > paper::kMaxPlainMagnitude) {
            in.fail("duration", "is too large (more than 1e6 seconds)", show(*duration));
            duration.reset();
        }
        haveDuration_ = duration.has_value();
        clip_.duration = duration.value_or(1.0);
        clip_.loop = readBoolean(in, "loop", false);
        interpolation_ = readInterpolation(in, Interpolation::Smooth);
        in.warnUnknownAttributes();
        return true;
    }

    bool readBoolean(AttributeReader& in, const char* name, bool fallback) {
        const char* raw = in.find(name, Need::Optional);
        if (!raw) return fallback;
        if (std::string_view(raw) == "true") return true;
        if (std::string_view(raw) == "false") return false;
        in.fail(name, "must be 'true' or 'false'", inQuotes(raw));
        return fallback;
    }

    Interpolation readInterpolation(AttributeReader& in, Interpolation fallback) {
        if (!in.has("interpolation")) {
            in.find("interpolation", Need::Optional);  // known, so not reported as unknown
            return fallback;
        }
        return in.choice("interpolation", {"smooth", "linear"}) == 0 ? Interpolation::Smooth : Interpolation::Linear;
    }

    void readTrack(const XMLElement& element) {
        AttributeReader in = reader(element);
        const std::string boneName = in.text("bone", Need::Required);
        ClipTrack track;
        track.interpolation = readInterpolation(in, interpolation_);
        in.warnUnknownAttributes();

        bool usable = !boneName.empty();
        if (usable) {
            track.bone = rig_.findBone(boneName);
            if (track.bone < 0) {
                report_.error(element, "bone " + inQuotes(boneName) + " is not a bone of rig " + inQuotes(rig_.name) +
                                           didYouMeanBone(rig_, boneName));
                usable = false;
            } else if (auto [it, inserted] = trackLine_.emplace(track.bone, element.GetLineNum()); !inserted) {
                report_.error(element, "bone " + inQuotes(boneName) + " already has a track at line " +
                                           std::to_string(it->second) + " (one track per bone)");
                usable = false;
            }
        }
        std::vector<KeyRecord> keys;
        for (const XMLElement* e = element.FirstChildElement(); e; e = e->NextSiblingElement()) {
            if (std::string_view(e->Name()) != "key") {
                report_.warning(e->GetLineNum(), "unknown element '" + std::string(e->Name()) + "' in <track> ignored");
                continue;
            }
            AttributeReader keyIn = reader(*e);
            std::optional<double> time = readTime(keyIn, *e);
            std::optional<double> degrees = keyIn.number("angle", Need::Required, Range::Any);
            if (degrees && std::abs(*degrees) > paper::kMaxPlainMagnitude) {
                keyIn.fail("angle", "is too large (more than 1e6 degrees)", show(*degrees));
                degrees.reset();
            }
            keyIn.warnUnknownAttributes();
            if (time && degrees) keys.push_back({*time, *degrees, e->GetLineNum()});
            else if (time) keys.push_back({*time, 0.0, e->GetLineNum()});  // keeps the order check going
        }
        checkKeys(element, keys, "track", "angle", false);
        if (!usable) return;
        for (const KeyRecord& k : keys) track.keys.push_back({k.time, k.fileValue * kRadiansPerDegree});
        if (track.keys.empty()) return;
        closeLoop(track, 0.0);
        clip_.tracks.push_back(std::move(track));
    }

    void readRoot(const XMLElement& element) {
        if (rootLine_ > 0) {
            report_.error(element, "only one <root> allowed (the first is at line " + std::to_string(rootLine_) + ")");
            return;
        }
        rootLine_ = element.GetLineNum();
        AttributeReader in = reader(element);
        Interpolation interpolation = readInterpolation(in, interpolation_);
        in.warnUnknownAttributes();
        std::vector<KeyRecord> xKeys, yKeys;
        std::vector<KeyRecord> allKeys;  // for the order check, which covers every key
        for (const XMLElement* e = element.FirstChildElement(); e; e = e->NextSiblingElement()) {
            if (std::string_view(e->Name()) != "key") {
                report_.warning(e->GetLineNum(), "unknown element '" + std::string(e->Name()) + "' in <root> ignored");
                continue;
            }
            AttributeReader keyIn = reader(*e);
            std::optional<double> time = readTime(keyIn, *e);
            bool hasX = keyIn.has("x"), hasY = keyIn.has("y");
            std::optional<double> x = keyIn.number("x", Need::Optional, Range::Any);
            std::optional<double> y = keyIn.number("y", Need::Optional, Range::Any);
            for (auto [value, name] : {std::pair{&x, "x"}, std::pair{&y, "y"}}) {
                if (*value && std::abs(*(*value) / rig_.scale) > kClipRules.maxLengthMetres) {
                    keyIn.fail(name, kClipRules.lengthTooLarge, show(*(*value)));
                    value->reset();
                }
            }
            if (!hasX && !hasY) report_.error(*e, "give 'x', 'y' or both");
            keyIn.warnUnknownAttributes();
            if (!time) continue;
            allKeys.push_back({*time, 0.0, e->GetLineNum()});
            if (x) xKeys.push_back({*time, *x, e->GetLineNum()});
            if (y) yKeys.push_back({*time, *y, e->GetLineNum()});
        }
        checkKeys(element, allKeys, "root", nullptr, true);
        checkLoopKeys(element, xKeys, "x", true);
        checkLoopKeys(element, yKeys, "y", false);
        clip_.rootX = toTrack(xKeys, interpolation);
        clip_.rootY = toTrack(yKeys, interpolation);
        if (!clip_.rootX.keys.empty()) closeLoop(clip_.rootX, xTravel(xKeys));
        if (!clip_.rootY.keys.empty()) closeLoop(clip_.rootY, 0.0);
    }

    void readEvent(const XMLElement& element) {
        AttributeReader in = reader(element);
        std::optional<double> time = readTime(in, element);
        std::string name = in.text("name", Need::Required);
        in.warnUnknownAttributes();
        if (time && !name.empty()) clip_.events.push_back({*time, std::move(name)});
    }

    /// The key's t, checked against [0, duration]; nullopt (reported) when unusable.
    std::optional<double> readTime(AttributeReader& in, const XMLElement& element) {
        std::optional<double> time = in.number("t", Need::Required, Range::Any);
        if (!time) return std::nullopt;
        if (haveDuration_ && (*time < 0.0 || *time > clip_.duration)) {
            report_.error(element, "t=" + show(*time) + " is outside the clip's [0, " + show(clip_.duration) +
                                       "] seconds");
            return std::nullopt;
        }
        return time;
    }

    /// At least one key, in strictly increasing time; a looping track also closes.
    void checkKeys(const XMLElement& element, const std::vector<KeyRecord>& keys, const char* what,
                   const char* valueName, bool rootKeys) {
        if (keys.empty()) {
            if (!element.FirstChildElement("key"))
                report_.error(element, "no <key> elements; a " + std::string(what) + " needs at least one");
            return;
        }
        for (size_t i = 1; i < keys.size(); ++i) {
            if (keys[i].time > keys[i - 1].time) continue;
            report_.error(keys[i].line, "key: t=" + show(keys[i].time) + " does not come after t=" +
                                            show(keys[i - 1].time) + " (line " + std::to_string(keys[i - 1].line) +
                                            "); keys go in increasing time order");
        }
        if (!rootKeys) checkLoopKeys(element, keys, valueName, false);
    }

    /// A looping track starts at t=0 and, when it has a key at t=duration, ends on its
    /// first value (root x excepted: the difference is a cycle's travel).
    void checkLoopKeys(const XMLElement& element, const std::vector<KeyRecord>& keys, const char* valueName,
                       bool travels) {
        if (!clip_.loop || !haveDuration_ || keys.empty()) return;
        const std::string where = std::string(element.Name()) + ": ";
        const KeyRecord& first = keys.front();
        if (first.time != 0.0) {
            report_.error(element.GetLineNum(), where + "a looping clip's " + valueName +
                                                    " keys start at t=0 (the first is at t=" + show(first.time) +
                                                    ", line " + std::to_string(first.line) + ")");
            return;
        }
        const KeyRecord& last = keys.back();
        if (travels || keys.size() < 2 || last.time != clip_.duration) return;
        if (std::abs(last.fileValue - first.fileValue) > kSameValue)
            report_.error(last.line, "key: the loop does not close: " + std::string(valueName) + "=" +
                                         show(last.fileValue) + " at t=" + show(last.time) + " but " + valueName + "=" +
                                         show(first.fileValue) + " at t=0 (line " + std::to_string(first.line) +
                                         "); repeat the first value or leave the key at t=duration out");
    }

    /// Root x of a loop: one cycle's travel, metres (the key at duration minus the key at 0).
    double xTravel(const std::vector<KeyRecord>& keys) const {
        if (!clip_.loop || keys.size() < 2 || keys.back().time != clip_.duration) return 0.0;
        return (keys.back().fileValue - keys.front().fileValue) / rig_.scale;
    }

    ClipTrack toTrack(const std::vector<KeyRecord>& keys, Interpolation interpolation) const {
        ClipTrack track;
        track.interpolation = interpolation;
        for (const KeyRecord& k : keys) track.keys.push_back({k.time, k.fileValue / rig_.scale});
        return track;
    }

    /// Adds the closing key of a looping track when the file left it out. Out-of-order
    /// keys (already reported) are left as they are: the clip will not load anyway.
    void closeLoop(ClipTrack& track, double travel) const {
        if (!clip_.loop || !haveDuration_) return;
        if (track.keys.back().time < clip_.duration)
            track.keys.push_back({clip_.duration, track.keys.front().value + travel});
    }

    Reporter& report_;
    const RigDefinition& rig_;
    Clip& clip_;
    bool haveDuration_ = false;
    Interpolation interpolation_ = Interpolation::Smooth;
    std::map<int, int> trackLine_;  ///< bone → line of its track
    int rootLine_ = 0;
};

// ---- sampling ----

/// The value of a track at t. Looping tracks are normalised (keys at 0 and duration, t in
/// [0, duration]); `travel` is what one cycle adds (root x), 0 otherwise.
double sampleTrack(const ClipTrack& track, bool loop, double duration, double travel, double t) {
    const std::vector<ClipKey>& keys = track.keys;
    if (keys.empty()) return 0.0;
    if (!(t > keys.front().time)) return keys.front().value;  // NaN too: no segment holds it
    if (t >= keys.back().time) return keys.back().value;
    // Segment [i, i + 1] holding t.
    const size_t i = size_t(std::upper_bound(keys.begin(), keys.end(), t,
                                             [](double time, const ClipKey& k) { return time < k.time; }) -
                            keys.begin()) - 1;
    const ClipKey& k0 = keys[i];
    const ClipKey& k1 = keys[i + 1];
    const double span = k1.time - k0.time;
    const double s = (t - k0.time) / span;
    if (track.interpolation == Interpolation::Linear) return k0.value + s * (k1.value - k0.value);

    // Catmull-Rom slope at key j from its neighbours; across the seam of a loop the
    // neighbour is the key one cycle away (shifted by duration and travel); at the ends
    // of a non-looping track the slope is 0 (it joins the hold).
    const size_t last = keys.size() - 1;
    auto slope = [&](size_t j) {
        ClipKey before, after;
        if (j > 0) {
            before = keys[j - 1];
        } else if (loop && last >= 1) {
            before = {keys[last - 1].time - duration, keys[last - 1].value - travel};
        } else {
            return 0.0;
        }
        if (j < last) {
            after = keys[j + 1];
        } else if (loop && last >= 1) {
            after = {keys[1].time + duration, keys[1].value + travel};
        } else {
            return 0.0;
        }
        return (after.value - before.value) / (after.time - before.time);
    };
    const double m0 = slope(i) * span, m1 = slope(i + 1) * span;
    const double s2 = s * s, s3 = s2 * s;
    return (2.0 * s3 - 3.0 * s2 + 1.0) * k0.value + (s3 - 2.0 * s2 + s) * m0 + (-2.0 * s3 + 3.0 * s2) * k1.value +
           (s3 - s2) * m1;
}

/// One cycle's travel of a looping clip's root x, metres.
double cycleTravel(const Clip& clip) {
    if (!clip.loop || clip.rootX.keys.empty()) return 0.0;
    return clip.rootX.keys.back().value - clip.rootX.keys.front().value;
}

/// t wrapped into [0, duration) for a loop, clamped to [0, duration] otherwise; cycles
/// gets the whole loops removed.
double clipTime(const Clip& clip, double time, double* cycles) {
    if (cycles) *cycles = 0.0;
    if (!(clip.duration > 0.0)) return 0.0;
    if (!clip.loop) return std::clamp(time, 0.0, clip.duration);
    const double whole = std::floor(time / clip.duration);
    double local = time - whole * clip.duration;
    if (cycles) *cycles = whole;
    return std::clamp(local, 0.0, clip.duration);
}

}  // namespace

ClipLoadResult loadClipFromText(std::string_view text, const std::string& fileName, const RigDefinition& rig) {
    ClipLoadResult result;
    Reporter report(fileName, result.diagnostics);
    tinyxml2::XMLDocument document;
    const XMLElement* root = paper::parseRootElement(text, "clip", document, report);
    if (!root) return result;

    Clip clip;
    clip.path = fileName;
    ClipParser parser(report, rig, clip);
    parser.parse(*root);
    std::stable_sort(result.diagnostics.begin(), result.diagnostics.end(),
                     [](const Diagnostic& a, const Diagnostic& b) { return a.line < b.line; });
    if (report.errorCount() == 0) result.clip = std::move(clip);
    return result;
}

ClipLoadResult loadClipFile(const std::string& path, const RigDefinition& rig) {
    ClipLoadResult result;
    Reporter report(path, result.diagnostics);
    std::optional<std::string> text = paper::readUserFile(path, "clip", report);
    if (!text) return result;
    return loadClipFromText(*text, path, rig);
}

std::vector<Diagnostic> checkClipFileAlone(const std::string& path) {
    std::vector<Diagnostic> diagnostics;
    Reporter report(path, diagnostics);
    if (std::optional<std::string> text = paper::readUserFile(path, "clip", report)) {
        tinyxml2::XMLDocument document;
        paper::parseRootElement(*text, "clip", document, report);
    }
    return diagnostics;
}

void sampleClip(const Clip& clip, const RigDefinition& rig, double time, LocalPose& out) {
    const double t = clipTime(clip, time, nullptr);
    out.angles.resize(rig.bones.size());
    for (size_t i = 0; i < rig.bones.size(); ++i) out.angles[i] = rig.bones[i].localAngle;
    for (const ClipTrack& track : clip.tracks) {
        if (track.bone < 0 || size_t(track.bone) >= out.angles.size()) continue;
        out.angles[size_t(track.bone)] += sampleTrack(track, clip.loop, clip.duration, 0.0, t);
    }
    out.rootOffset = {0.0, sampleTrack(clip.rootY, clip.loop, clip.duration, 0.0, t)};
}

double rootTravel(const Clip& clip, double time) {
    if (clip.rootX.keys.empty()) return 0.0;
    double cycles = 0.0;
    const double t = clipTime(clip, time, &cycles);
    const double travel = cycleTravel(clip);
    return sampleTrack(clip.rootX, clip.loop, clip.duration, travel, t) + cycles * travel;
}

}  // namespace ragdoll
