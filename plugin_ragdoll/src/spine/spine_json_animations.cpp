#include "spine/spine_json_animations.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace ragdoll {

namespace {

using Json = nlohmann::json;

constexpr double kMaxSpineNumber = 1e7;  // as spine_json.cpp: a bigger number is a mistake
/// Longest animation read: baking samples it at up to 240 Hz, so a stray huge time would
/// otherwise mean billions of poses.
constexpr double kMaxAnimationSeconds = 3600.0;

struct Context {
    std::string_view text;
    const std::string& file;
    SpineLoadResult& result;

    void error(int line, const std::string& message) { result.diagnostics.push_back({Severity::Error, file, line, message}); }
    void warning(int line, const std::string& message) {
        result.diagnostics.push_back({Severity::Warning, file, line, message});
    }
    /// Line of the key `"KEY"` first found after the key `"animations"`.
    int lineOfKey(const std::string& key, size_t from = std::string_view::npos) const {
        if (from == std::string_view::npos) from = text.find("\"animations\"");
        if (from == std::string_view::npos) return 0;
        size_t at = text.find("\"" + key + "\"", from);
        int line = 0, column = 0;
        lineAndColumn(text, at == std::string_view::npos ? from : at, line, column);
        return line;
    }
    bool number(const Json& object, const char* key, double& out, int line, const std::string& what) {
        auto it = object.find(key);
        if (it == object.end() || it->is_null()) return false;
        if (!it->is_number() || !std::isfinite(it->get<double>()) || std::abs(it->get<double>()) > kMaxSpineNumber) {
            error(line, what + ": '" + key + "' must be a number of magnitude at most 1e7, got " + it->dump());
            return false;
        }
        out = it->get<double>();
        return true;
    }
};

struct KindInfo {
    SpineTimelineKind kind;
    int values;            ///< 1 or 2
    double fallback;       ///< a value the key leaves out (scale: 1)
};

const std::map<std::string, KindInfo>& boneKinds() {
    static const std::map<std::string, KindInfo> kinds = {
        {"rotate", {SpineTimelineKind::Rotate, 1, 0.0}},         {"translate", {SpineTimelineKind::Translate, 2, 0.0}},
        {"translatex", {SpineTimelineKind::TranslateX, 1, 0.0}}, {"translatey", {SpineTimelineKind::TranslateY, 1, 0.0}},
        {"scale", {SpineTimelineKind::Scale, 2, 1.0}},           {"scalex", {SpineTimelineKind::ScaleX, 1, 1.0}},
        {"scaley", {SpineTimelineKind::ScaleY, 1, 1.0}},         {"shear", {SpineTimelineKind::Shear, 2, 0.0}}};
    return kinds;
}

/// 3.8's runtime turns a bone from one rotate key to the next by the shorter way: the
/// difference wrapped into [-180, 180). 4.x interpolates the values as written. Rewriting
/// each 3.8 key as the previous one plus that wrapped difference gives one meaning to both
/// (the same pose, and no jump of 360 degrees for the bake to follow).
void unwrapRotateKeys(std::vector<SpineKey>& keys) {
    for (size_t i = 1; i < keys.size(); ++i) {
        const double previous = keys[i - 1].values[0];
        const double change = keys[i].values[0] - previous;
        keys[i].values[0] = previous + change - 360.0 * std::floor(change / 360.0 + 0.5);
    }
}

/// Reads the keys of one timeline with their curves; false when it is not usable.
bool readKeys(Context& c, const Json& keys, const KindInfo& info, int major, int line, const std::string& what,
              SpineTimeline& out) {
    if (!keys.is_array()) {
        c.error(line, what + ": must be an array of keys");
        return false;
    }
    struct RawCurve {
        const Json* curve = nullptr;
        std::array<double, 3> more{0, 1, 1};  ///< 3.8's c2, c3, c4
    };
    std::vector<RawCurve> curves;
    for (const Json& key : keys) {
        if (!key.is_object()) {
            c.error(line, what + ": a key must be an object");
            return false;
        }
        SpineKey k;
        c.number(key, "time", k.time, line, what);
        if (!out.keys.empty() && k.time < out.keys.back().time) {
            c.error(line, what + ": key times must not decrease (" + Json(k.time).dump() + " after " +
                              Json(out.keys.back().time).dump() + ")");
            return false;
        }
        if (info.kind == SpineTimelineKind::Ik) {
            k.values[0] = 1.0;
            c.number(key, "mix", k.values[0], line, what);
            auto bend = key.find("bendPositive");
            k.bendPositive = bend == key.end() || !bend->is_boolean() || bend->get<bool>();
        } else if (info.values == 1) {
            k.values[0] = info.fallback;
            // 4.x writes "value"; 3.8's rotate writes "angle".
            if (!c.number(key, "value", k.values[0], line, what)) c.number(key, "angle", k.values[0], line, what);
        } else {
            k.values = {info.fallback, info.fallback};
            c.number(key, "x", k.values[0], line, what);
            c.number(key, "y", k.values[1], line, what);
        }
        RawCurve raw;
        if (auto curve = key.find("curve"); curve != key.end()) raw.curve = &*curve;
        c.number(key, "c2", raw.more[0], line, what);
        c.number(key, "c3", raw.more[1], line, what);
        c.number(key, "c4", raw.more[2], line, what);
        out.keys.push_back(k);
        curves.push_back(raw);
    }
    if (info.kind == SpineTimelineKind::Rotate && major < 4) unwrapRotateKeys(out.keys);
    const int values = info.kind == SpineTimelineKind::Ik ? 1 : info.values;
    for (size_t i = 0; i + 1 < out.keys.size(); ++i) {
        SpineKey& k = out.keys[i];
        const SpineKey& next = out.keys[i + 1];
        const Json* curve = curves[i].curve;
        if (!curve) continue;
        if (curve->is_string()) {
            if (*curve == "stepped") k.curve = SpineCurveType::Stepped;
            else c.warning(line, what + ": unknown curve " + curve->dump() + " (read as linear)");
            continue;
        }
        std::array<double, 4> normalised{};
        bool isNormalised = false;
        if (curve->is_number()) {
            normalised = {curve->get<double>(), curves[i].more[0], curves[i].more[1], curves[i].more[2]};
            isNormalised = true;
        } else if (curve->is_array() && curve->size() == 4 && major < 4) {
            for (size_t j = 0; j < 4; ++j) normalised[j] = (*curve)[j].is_number() ? (*curve)[j].get<double>() : 0.0;
            isNormalised = true;
        } else if (curve->is_array() &&
                   (curve->size() == size_t(4 * values) ||
                    // 4.x curves an IK key's mix and softness: the first four are the mix's
                    // (softness is not baked).
                    (info.kind == SpineTimelineKind::Ik && major >= 4 && curve->size() == 8))) {
            k.curve = SpineCurveType::Bezier;
            for (int v = 0; v < values; ++v)
                for (int j = 0; j < 4; ++j) {
                    const Json& n = (*curve)[size_t(4 * v + j)];
                    if (!n.is_number() || !std::isfinite(n.get<double>())) {
                        c.error(line, what + ": a curve holds " + n.dump() + ", not a number");
                        return false;
                    }
                    k.bezier[size_t(v)][size_t(j)] = n.get<double>();
                }
        } else {
            c.error(line, what + ": a curve must be \"stepped\", a number (3.8) or " + std::to_string(4 * values) +
                              " numbers (4.x)" +
                              (info.kind == SpineTimelineKind::Ik ? std::string(" or 8 (4.x IK: mix and softness)") : std::string()) +
                              ", got " + curve->dump());
            return false;
        }
        if (isNormalised) {
            k.curve = SpineCurveType::Bezier;
            const double span = next.time - k.time;
            for (int v = 0; v < values; ++v) {
                const double from = k.values[size_t(v)], change = next.values[size_t(v)] - from;
                k.bezier[size_t(v)] = {k.time + normalised[0] * span, from + normalised[1] * change,
                                       k.time + normalised[2] * span, from + normalised[3] * change};
            }
        }
        // The curve's time must run forward for it to be a function of time.
        for (int v = 0; v < values; ++v) {
            k.bezier[size_t(v)][0] = std::clamp(k.bezier[size_t(v)][0], k.time, next.time);
            k.bezier[size_t(v)][2] = std::clamp(k.bezier[size_t(v)][2], k.time, next.time);
        }
    }
    return !out.keys.empty();
}

/// The latest "time" anywhere under a value (slot, deform, draw order and event keys count
/// toward an animation's length even though they are not baked).
double latestTime(const Json& value) {
    double latest = 0.0;
    if (value.is_object()) {
        for (auto& [key, child] : value.items()) {
            if (key == "time" && child.is_number() && std::isfinite(child.get<double>()))
                latest = std::max(latest, std::min(child.get<double>(), kMaxSpineNumber));
            else latest = std::max(latest, latestTime(child));
        }
    } else if (value.is_array()) {
        for (const Json& child : value) latest = std::max(latest, latestTime(child));
    }
    return latest;
}

}  // namespace

void readSpineAnimations(const Json& root, std::string_view text, const std::string& fileName, SpineLoadResult& result) {
    Context c{text, fileName, result};
    SpineSkeleton& skeleton = result.skeleton;
    auto it = root.find("animations");
    if (it == root.end()) return;
    if (!it->is_object()) return c.error(c.lineOfKey("animations", 0), "'animations' must be an object");
    for (auto& [name, entry] : it->items()) {
        SpineAnimation animation;
        animation.name = name;
        animation.line = c.lineOfKey(name);
        const size_t from = text.find("\"" + name + "\"", text.find("\"animations\""));
        if (!entry.is_object()) {
            c.error(animation.line, "animation '" + name + "' must be an object");
            continue;
        }
        animation.duration = latestTime(entry);
        if (animation.duration > kMaxAnimationSeconds) {
            c.error(animation.line, "animation '" + name + "' lasts " + Json(animation.duration).dump() +
                                        " s, more than an hour: a time is wrong");
            continue;
        }
        for (auto& [section, content] : entry.items()) {
            const std::string what = "animation '" + name + "'";
            if (section == "bones" && content.is_object()) {
                for (auto& [boneName, timelines] : content.items()) {
                    const int line = c.lineOfKey(boneName, from);
                    const int bone = skeleton.findBone(boneName);
                    if (bone < 0) {
                        c.error(line, what + ": '" + boneName + "' is not a bone");
                        continue;
                    }
                    if (!timelines.is_object()) continue;
                    for (auto& [kindName, keys] : timelines.items()) {
                        auto kind = boneKinds().find(kindName);
                        if (kind == boneKinds().end()) {
                            c.warning(line, what + ", bone '" + boneName + "': '" + kindName +
                                                "' timelines are not baked (skipped)");
                            continue;
                        }
                        if (kind->second.kind == SpineTimelineKind::Shear)
                            c.warning(line, what + ", bone '" + boneName + "': shear is not baked (skipped)");
                        SpineTimeline timeline;
                        timeline.kind = kind->second.kind;
                        timeline.target = bone;
                        if (readKeys(c, keys, kind->second, skeleton.major, line,
                                     what + ", bone '" + boneName + "', " + kindName, timeline) &&
                            timeline.kind != SpineTimelineKind::Shear)
                            animation.timelines.push_back(std::move(timeline));
                    }
                }
            } else if (section == "ik" && content.is_object()) {
                for (auto& [ikName, keys] : content.items()) {
                    const int line = c.lineOfKey(ikName, from);
                    int target = -1;
                    for (size_t i = 0; i < skeleton.ik.size(); ++i)
                        if (skeleton.ik[i].name == ikName) target = int(i);
                    if (target < 0) {
                        c.error(line, what + ": '" + ikName + "' is not an IK constraint");
                        continue;
                    }
                    SpineTimeline timeline;
                    timeline.kind = SpineTimelineKind::Ik;
                    timeline.target = target;
                    if (readKeys(c, keys, {SpineTimelineKind::Ik, 1, 1.0}, skeleton.major, line,
                                 what + ", IK '" + ikName + "'", timeline))
                        animation.timelines.push_back(std::move(timeline));
                }
            } else {
                c.warning(c.lineOfKey(section, from), what + ": '" + section +
                                                          "' timelines are not baked (skipped): clips hold bone angles only");
            }
        }
        skeleton.animations.push_back(std::move(animation));
    }
}

}  // namespace ragdoll
