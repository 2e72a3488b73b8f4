// The world's things as the engine's reflected objects: settings, emitters, balls and
// paddles, their properties and commands. Paddles follow plugin_api.h's joint-limit
// convention and balls and paddles its outline convention, so a tool that knows neither
// can drag a paddle's limits and pick a ball.
#include <cmath>
#include <exception>
#include <iterator>

#include "module.h"

namespace bounce {

namespace {

// A handle is its kind (high bits) and an index, or for a ball its id, plus one: unique
// across kinds (runObjectCommand gets only the handle) and stable across reloads.
std::uint64_t makeHandle(Kind kind, std::uint64_t n) { return (std::uint64_t(kind) << 48) | (n + 1); }
bool handleOf(std::uint64_t handle, Kind kind, std::uint64_t& n) {
    if (handle >> 48 != std::uint64_t(kind) || (handle & 0xffffffffffffull) == 0) return false;
    n = (handle & 0xffffffffffffull) - 1;
    return true;
}

struct Property {
    const char* name;
    const char* label;
    const char* unit;
    PaperPropertyType type;
    std::int32_t flags;
    double minValue, maxValue;
};

constexpr std::int32_t kReadOnly = PAPER_PROPERTY_READ_ONLY;
constexpr std::int32_t kHidden = PAPER_PROPERTY_READ_ONLY | PAPER_PROPERTY_HIDDEN;
#define DEGREES "\xC2\xB0"

enum SettingsProperty { kGravity, kRestitutionScale, kSettingsProperties };
constexpr Property kSettingsList[] = {
    {"gravity", "Gravity", "m/s\xC2\xB2", PAPER_PROPERTY_FLOAT, 0, 0.0, 50.0},
    {"restitution_scale", "Restitution scale", "", PAPER_PROPERTY_FLOAT, 0, 0.0, 1.0},
};
enum EmitterProperty { kAsset, kEmitterPosition, kEmitterRadius, kEmitterSpeed, kEmitterProperties };
constexpr Property kEmitterList[] = {
    {"asset", "Asset", "", PAPER_PROPERTY_STRING, kReadOnly, 0, 0},
    {"position", "Position", "m", PAPER_PROPERTY_VEC2, kReadOnly, 0, 0},
    {"radius", "Ball radius", "m", PAPER_PROPERTY_FLOAT, 0, 0.01, 1.0},
    {"emit_speed", "Emit speed", "m/s", PAPER_PROPERTY_FLOAT, kReadOnly, 0.0, 10.0},
};
enum BallProperty { kBallPosition, kVelocity, kBallRadius, kBallShape, kBallA, kBallB, kBallProperties };
constexpr Property kBallList[] = {
    {"position", "Position", "m", PAPER_PROPERTY_VEC2, kReadOnly, 0, 0},
    {"velocity", "Velocity", "m/s", PAPER_PROPERTY_VEC2, kReadOnly, 0, 0},
    {"radius", "Radius", "m", PAPER_PROPERTY_FLOAT, kReadOnly, 0.01, 1.0},
    {"shape", "Shape", "", PAPER_PROPERTY_STRING, kReadOnly, 0, 0},
    {"a", "Centre", "m", PAPER_PROPERTY_VEC2, kHidden | PAPER_PROPERTY_NOT_IN_STATS, 0, 0},
    {"b", "Centre", "m", PAPER_PROPERTY_VEC2, kHidden | PAPER_PROPERTY_NOT_IN_STATS, 0, 0},
};
enum PaddleProperty { kLower, kUpper, kAngle, kPivot, kParentAngle, kRestOffset, kMirrored, kLength, kPaddleShape,
                      kPaddleA, kPaddleB, kPaddleThickness, kPaddleProperties };
constexpr Property kPaddleList[] = {
    {"lower", "Lower limit", DEGREES, PAPER_PROPERTY_FLOAT, 0, -180.0, 180.0},
    {"upper", "Upper limit", DEGREES, PAPER_PROPERTY_FLOAT, 0, -180.0, 180.0},
    {"angle", "Angle", DEGREES, PAPER_PROPERTY_FLOAT, kReadOnly, -180.0, 180.0},
    {"pivot", "Pivot", "m", PAPER_PROPERTY_VEC2, kHidden, 0, 0},
    {"parent_angle", "Parent angle", DEGREES, PAPER_PROPERTY_FLOAT, kHidden, -180.0, 180.0},
    {"rest_offset", "Rest offset", DEGREES, PAPER_PROPERTY_FLOAT, kHidden, -360.0, 360.0},
    {"mirrored", "Mirrored", "", PAPER_PROPERTY_BOOL, kHidden, 0, 1},
    {"length", "Length", "m", PAPER_PROPERTY_FLOAT, 0, 0.05, 5.0},
    {"shape", "Shape", "", PAPER_PROPERTY_STRING, kReadOnly, 0, 0},
    {"a", "Pivot end", "m", PAPER_PROPERTY_VEC2, kHidden, 0, 0},
    {"b", "Tip", "m", PAPER_PROPERTY_VEC2, kHidden, 0, 0},
    {"radius", "Thickness", "m", PAPER_PROPERTY_FLOAT, kReadOnly, 0, 1},
};
static_assert(std::size(kSettingsList) == kSettingsProperties && std::size(kEmitterList) == kEmitterProperties &&
              std::size(kBallList) == kBallProperties && std::size(kPaddleList) == kPaddleProperties);

const Property* propertyList(std::int32_t kind, std::int32_t& count) {
    switch (kind) {
    case kSettings: return count = kSettingsProperties, kSettingsList;
    case kEmitter: return count = kEmitterProperties, kEmitterList;
    case kBall: return count = kBallProperties, kBallList;
    case kPaddle: return count = kPaddleProperties, kPaddleList;
    default: return count = 0, nullptr;
    }
}

PaperVec2 paper(Vec v) { return {float(v.x), float(v.y)}; }

Ball* ballWithId(World& w, std::uint64_t id) {
    for (Ball& b : w.balls)
        if (b.id == id) return &b;
    return nullptr;
}

/// The emitter or paddle a handle names (both are one per spawn), or null.
Emitter* emitterOf(World& w, Kind kind, std::uint64_t handle) {
    std::uint64_t n = 0;
    return handleOf(handle, kind, n) && n < w.emitters.size() ? &w.emitters[size_t(n)] : nullptr;
}

}  // namespace

std::int32_t objectCount(PaperPluginInstance* instance, std::int32_t kind) {
    const World& w = instance->world;
    switch (kind) {
    case kSettings: return 1;
    case kEmitter:
    case kPaddle: return std::int32_t(w.emitters.size());
    case kBall: return std::int32_t(w.balls.size());
    default: return 0;
    }
}

std::int32_t getObject(PaperPluginInstance* instance, std::int32_t kind, std::int32_t index, PaperObjectInfo* info) {
    World& w = instance->world;
    if (!info || index < 0 || index >= objectCount(instance, kind)) return 1;
    try {  // the names are built here; no exception may cross the C boundary
    switch (kind) {
    case kSettings: *info = {makeHandle(kSettings, 0), "settings", -1}; return 0;
    case kEmitter: *info = {makeHandle(kEmitter, std::uint64_t(index)), w.emitters[size_t(index)].name.c_str(), -1}; return 0;
    case kPaddle:
        instance->text = w.emitters[size_t(index)].name + ".paddle";
        *info = {makeHandle(kPaddle, std::uint64_t(index)), instance->text.c_str(), index};
        return 0;
    case kBall: {
        const Ball& b = w.balls[size_t(index)];
        instance->text = "ball" + std::to_string(b.id);
        *info = {makeHandle(kBall, b.id), instance->text.c_str(), b.emitter};
        return 0;
    }
    default: return 1;
    }
    } catch (const std::exception&) {
        return 1;
    }
}

std::int32_t propertyCount(PaperPluginInstance* instance, std::int32_t kind, std::uint64_t handle) {
    World& w = instance->world;
    std::uint64_t n = 0;
    std::int32_t count = 0;
    propertyList(kind, count);
    switch (kind) {
    case kSettings: return handleOf(handle, kSettings, n) && n == 0 ? count : 0;
    case kEmitter:
    case kPaddle: return emitterOf(w, Kind(kind), handle) ? count : 0;
    case kBall: return handleOf(handle, kBall, n) && ballWithId(w, n) ? count : 0;
    default: return 0;
    }
}

std::int32_t getProperty(PaperPluginInstance* instance, std::int32_t kind, std::uint64_t handle, std::int32_t index,
                         PaperPropertyInfo* info) {
    if (!info || index < 0 || index >= propertyCount(instance, kind, handle)) return 1;
    World& w = instance->world;
    std::int32_t count = 0;
    const Property& p = propertyList(kind, count)[index];
    *info = {p.name, p.label, p.unit, p.type, p.flags, p.minValue, p.maxValue, 0.0, {0.0f, 0.0f}, ""};
    std::uint64_t id = 0;
    if (kind == kSettings) {
        info->value = index == kGravity ? w.settings.gravity : w.settings.restitutionScale;
    } else if (kind == kEmitter) {
        const Emitter& e = *emitterOf(w, kEmitter, handle);
        switch (EmitterProperty(index)) {
        case kAsset: info->text = e.asset.path.c_str(); break;
        case kEmitterPosition: info->vector = paper(e.position); break;
        case kEmitterRadius: info->value = e.asset.radius; break;
        case kEmitterSpeed: info->value = e.emitSpeed; break;
        case kEmitterProperties: return 1;
        }
    } else if (kind == kBall && handleOf(handle, kBall, id)) {
        const Ball& b = *ballWithId(w, id);
        switch (BallProperty(index)) {
        case kBallPosition:
        case kBallA:
        case kBallB: info->vector = paper(b.position); break;
        case kVelocity: info->vector = paper(b.velocity); break;
        case kBallRadius: info->value = b.radius; break;
        case kBallShape: info->text = "circle"; break;
        case kBallProperties: return 1;
        }
    } else if (kind == kPaddle) {
        const Emitter& e = *emitterOf(w, kPaddle, handle);
        switch (PaddleProperty(index)) {
        case kLower: info->value = e.asset.lower; break;
        case kUpper: info->value = e.asset.upper; break;
        case kAngle: info->value = e.paddle.angle; break;
        case kPivot:
        case kPaddleA: info->vector = paper(e.position); break;
        case kPaddleB: info->vector = paper(w.paddleTip(e)); break;
        case kParentAngle:
        case kRestOffset:
        case kMirrored: info->value = 0.0; break;  // the paddle hangs on the world, unrotated
        case kLength: info->value = e.asset.length; break;
        case kPaddleShape: info->text = "capsule"; break;
        case kPaddleThickness: info->value = kPaddleRadius; break;
        case kPaddleProperties: return 1;
        }
    }
    return 0;
}

std::int32_t setProperty(PaperPluginInstance* instance, std::int32_t kind, std::uint64_t handle, std::int32_t index,
                         double value) {
    if (index < 0 || index >= propertyCount(instance, kind, handle) || !std::isfinite(value)) return 1;
    std::int32_t count = 0;
    const Property& p = propertyList(kind, count)[index];
    if ((p.flags & PAPER_PROPERTY_READ_ONLY) || value < p.minValue || value > p.maxValue) return 1;
    World& w = instance->world;
    if (kind == kSettings) {
        (index == kGravity ? w.settings.gravity : w.settings.restitutionScale) = value;
        return 0;
    }
    if (kind == kEmitter && index == kEmitterRadius) {  // for the balls it emits from now on
        emitterOf(w, kEmitter, handle)->asset.radius = value;
        return 0;
    }
    if (kind != kPaddle) return 1;
    Emitter& e = *emitterOf(w, kPaddle, handle);
    if ((index == kLower && value > e.asset.upper) || (index == kUpper && value < e.asset.lower)) return 1;
    switch (PaddleProperty(index)) {
    case kLower: e.asset.lower = value; break;
    case kUpper: e.asset.upper = value; break;
    case kLength: e.asset.length = value; break;
    default: return 1;
    }
    e.paddle.angle = std::fmin(std::fmax(e.paddle.angle, e.asset.lower), e.asset.upper);
    return 0;
}

std::int32_t runObjectCommand(PaperPluginInstance* instance, std::uint64_t handle, std::int32_t command, double argument,
                              char* error, std::size_t capacity) {
    if (command < 0 || command >= kCommandCount) return refuse(error, capacity, "no command " + std::to_string(command));
    World& w = instance->world;
    const PaperCommandDesc& c = kCommands[command];
    std::uint64_t n = 0;
    if (!handleOf(handle, Kind(c.kind), n)) return refuse(error, capacity, std::string("'") + c.name + "' runs on a " + kKinds[c.kind].name);
    if (command == kKick) {
        Ball* ball = ballWithId(w, n);
        if (!ball) return refuse(error, capacity, "no ball with handle " + std::to_string(handle));
        ball->velocity.y += kKickSpeed;
        return 0;
    }
    if (n >= w.emitters.size()) return refuse(error, capacity, "no emitter with handle " + std::to_string(handle));
    if (command == kEmit) {
        w.emit(int(n));
        return 0;
    }
    if (!std::isfinite(argument) || argument < c.minValue || argument > c.maxValue)
        return refuse(error, capacity, "an emit speed is from 0 to 10 m/s, got " + std::to_string(argument));
    w.emitters[size_t(n)].emitSpeed = argument;
    return 0;
}

}  // namespace bounce
