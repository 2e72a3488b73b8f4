// The exported entry point: the plugin's declarations and lifecycle over the C ABI.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <exception>
#include <new>

#include "module.h"

namespace bounce {

const PaperActionDesc kActions[kActionCount] = {
    {"spawn_ball", "spawn a ball", "Space"},
    {"shake", "shake", "S"},
    {"paddle_up", "paddle up", "Up"},
    {"paddle_down", "paddle down", "Down"},
};
const PaperStatDesc kStats[kStatCount] = {
    // Not "balls": that is the ball kind's list in --stats-json, and one key would hide the other.
    {"ball_count", "balls", "", 1.0, PAPER_STAT_INTEGER | PAPER_STAT_HUD},
    {"step_ms", "step time", "ms", 1.0, PAPER_STAT_HUD | PAPER_STAT_PLOT},
    {"max_speed_mps", "max speed", "m/s", 1.0, PAPER_STAT_HUD | PAPER_STAT_PLOT},
    {"lowest_ball_m", "lowest ball", "m", 1.0, PAPER_STAT_PLOT},  // the lowest ball's bottom
};
const PaperObjectKindDesc kKinds[kKindCount] = {
    {"settings", "Settings", nullptr, -1, PAPER_KIND_SETTINGS},
    {"emitter", "Emitter", "emitters", -1, 0},
    {"ball", "Ball", "balls", kEmitter, 0},
    {"paddle", "Paddle", nullptr, kEmitter, 0},
};
const PaperCommandDesc kCommands[kCommandCount] = {
    {kBall, "kick", "Kick", PAPER_ARGUMENT_NONE, 0.0, 0.0, nullptr},
    {kEmitter, "emit", "Emit a ball", PAPER_ARGUMENT_NONE, 0.0, 0.0, nullptr},
    {kEmitter, "emit_speed", "Emit speed", PAPER_ARGUMENT_FLOAT, 0.0, 10.0, "emit_speed"},
};
const PaperAssetTypeDesc kAssetType = {"bounce", "Bounce emitter", "*.bounce.xml"};

std::int32_t refuse(char* error, std::size_t capacity, const std::string& message) {
    if (error && capacity) {
        const std::size_t length = std::min(message.size(), capacity - 1);
        std::memcpy(error, message.data(), length);
        error[length] = '\0';
    }
    return std::int32_t(std::min<std::size_t>(message.size() + 1, INT32_MAX));
}

}  // namespace bounce

namespace {

using namespace bounce;

PaperPluginInstance* create(const PaperEngineServices* services, char* error, size_t capacity) {
    if (!services || services->abiVersion != PAPER_PLUGIN_ABI_VERSION || services->structSize != sizeof(PaperEngineServices)) {
        refuse(error, capacity, "the engine's services table is not ABI version " + std::to_string(PAPER_PLUGIN_ABI_VERSION));
        return nullptr;
    }
    auto* instance = new (std::nothrow) PaperPluginInstance();
    if (!instance) refuse(error, capacity, "out of memory");
    else instance->services = services;
    return instance;
}

void destroy(PaperPluginInstance* instance) { delete instance; }

int32_t loadLevel(PaperPluginInstance* instance, const PaperLevelDesc* level, char* error, size_t capacity) {
    if (!level) return refuse(error, capacity, "no level");
    try {
        World next;
        next.settings = instance->world.settings;
        for (int32_t i = 0; i < level->terrainCount; ++i) {
            const PaperTerrainPiece& t = level->terrain[i];
            Piece piece{{}, t.friction, t.restitution};
            for (int32_t k = 0; k < t.pointCount; ++k) piece.points.push_back({t.points[k].x, t.points[k].y});
            next.terrain.push_back(std::move(piece));
        }
        std::string errors;  // every spawn's problems, not only the first's
        for (int32_t i = 0; i < level->spawnCount; ++i) {
            const PaperSpawn& s = level->spawns[i];
            Emitter e;
            e.name = s.name ? s.name : "emitter" + std::to_string(i);
            e.position = {s.position.x, s.position.y};
            std::string why;
            if (!s.asset || !*s.asset) why = "spawn '" + e.name + "' names no asset (a " + kAssetType.pattern + " file)";
            else readAsset(s.asset, e.asset, why);
            if (!why.empty()) {
                errors += (errors.empty() ? "" : "\n") + why;
                continue;
            }
            e.paddle.angle = e.asset.lower;  // resting on its lower stop
            next.emitters.push_back(std::move(e));
        }
        if (!errors.empty()) return refuse(error, capacity, errors);
        for (int e = 0; e < int(next.emitters.size()); ++e)
            for (int slot = 0; slot < next.emitters[size_t(e)].asset.count; ++slot) next.emit(e, slot);
        instance->world = std::move(next);
        instance->stepMilliseconds = 0.0;
    } catch (const std::exception& e) {  // no exception may cross the C boundary
        return refuse(error, capacity, e.what());
    }
    return 0;
}

void tick(PaperPluginInstance* instance, double dt, const PaperInput* input) {
    const PaperInput in = input ? *input : PaperInput{};
    World& w = instance->world;
    const double start = instance->services->timeSeconds(instance->services->context);
    try {
        if ((in.pressed >> kSpawnBall & 1) && !w.emitters.empty()) w.emit(0);
        if (in.pressed >> kShake & 1)
            for (Ball& b : w.balls) b.velocity.y += kKickSpeed;
        w.step(dt, {(in.held >> kPaddleUp & 1) != 0, (in.held >> kPaddleDown & 1) != 0});
    } catch (const std::exception& e) {  // out of memory: say so, and keep the last state
        instance->services->log(instance->services->context, PAPER_LOG_ERROR, e.what());
    }
    instance->stepMilliseconds = 1000.0 * (instance->services->timeSeconds(instance->services->context) - start);
}

PaperColor colorOf(const std::uint8_t rgb[3]) { return {rgb[0], rgb[1], rgb[2], 255}; }
PaperVec2 paper(Vec v) { return {float(v.x), float(v.y)}; }

void draw(PaperPluginInstance* instance, uint32_t layers) {
    if (!(layers & PAPER_DRAW_ART)) return;  // no skeleton to show
    const PaperEngineServices& s = *instance->services;
    const World& w = instance->world;
    for (const Emitter& e : w.emitters) {  // a small diamond at the spawn point, the paddle on it
        const PaperVec2 p = paper(e.position);
        const PaperVec2 diamond[4] = {{p.x, p.y - 0.08f}, {p.x + 0.08f, p.y}, {p.x, p.y + 0.08f}, {p.x - 0.08f, p.y}};
        s.drawPolygon(s.context, diamond, 4, colorOf(e.asset.color));
        s.drawCapsule(s.context, p, paper(w.paddleTip(e)), float(kPaddleRadius), {200, 200, 210, 255});
    }
    for (const Ball& b : w.balls)
        s.drawCircle(s.context, paper(b.position), float(b.radius), colorOf(w.emitters[size_t(b.emitter)].asset.color));
}

size_t saveState(PaperPluginInstance* instance, void* buffer, size_t capacity) {
    const std::vector<std::uint8_t> blob = instance->world.save();
    if (buffer && capacity >= blob.size()) std::memcpy(buffer, blob.data(), blob.size());
    return blob.size();
}

int32_t loadState(PaperPluginInstance* instance, const void* data, size_t size, char* error, size_t capacity) {
    std::string why;
    try {
        if (!instance->world.load(static_cast<const std::uint8_t*>(data), size, why)) return refuse(error, capacity, why);
    } catch (const std::exception& e) {
        return refuse(error, capacity, e.what());
    }
    return 0;
}

void getStats(PaperPluginInstance* instance, double* values, int32_t count) {
    const World& w = instance->world;
    double fastest = 0.0, lowest = 0.0;
    for (size_t i = 0; i < w.balls.size(); ++i) {
        const Ball& b = w.balls[i];
        fastest = std::max(fastest, std::hypot(b.velocity.x, b.velocity.y));
        lowest = i == 0 ? b.position.y - b.radius : std::min(lowest, b.position.y - b.radius);
    }
    const double figures[kStatCount] = {double(w.balls.size()), instance->stepMilliseconds, fastest, lowest};
    for (int32_t i = 0; values && i < count && i < kStatCount; ++i) values[i] = figures[i];
}

int32_t saveAsset(PaperPluginInstance* instance, const char* asset, const char* path, char* error, size_t capacity) {
    if (!asset) return refuse(error, capacity, "no asset named");
    const Emitter* source = nullptr;
    for (const Emitter& e : instance->world.emitters) {
        if (e.asset.path != asset) continue;
        const EmitterAsset& a = e.asset;
        if (source && (a.radius != source->asset.radius || a.lower != source->asset.lower ||
                       a.upper != source->asset.upper || a.length != source->asset.length))
            return refuse(error, capacity, "emitters '" + source->name + "' and '" + e.name + "' both come from '" + asset +
                                               "' but were edited differently; make them agree first");
        source = source ? source : &e;
    }
    if (!source) return refuse(error, capacity, std::string("no emitter of this level was made from '") + asset + "'");
    std::string why;
    try {
        if (!writeAsset(source->asset, path ? path : asset, why)) return refuse(error, capacity, why);
    } catch (const std::exception& e) {
        return refuse(error, capacity, e.what());
    }
    return 0;
}

int32_t checkAsset(const PaperEngineServices*, const char* path, char* error, size_t capacity) {
    if (!path) return refuse(error, capacity, "no file named");
    EmitterAsset asset;
    std::string why;
    try {
        return readAsset(path, asset, why) ? 0 : refuse(error, capacity, why);
    } catch (const std::exception& e) {
        return refuse(error, capacity, e.what());
    }
}

const PaperPluginApi kApi = {
    .abiVersion = PAPER_PLUGIN_ABI_VERSION,
    .structSize = sizeof(PaperPluginApi),
    .name = "bounce",
    .version = "1.0.0",
    .commandlets = nullptr,
    .actions = kActions,
    .actionCount = kActionCount,
    .stats = kStats,
    .statCount = kStatCount,
    .kinds = kKinds,
    .kindCount = kKindCount,
    .commands = kCommands,
    .commandCount = kCommandCount,
    .assetTypes = &kAssetType,
    .assetTypeCount = 1,
    .create = create,
    .destroy = destroy,
    .loadLevel = loadLevel,
    .tick = tick,
    .draw = draw,
    .saveState = saveState,
    .loadState = loadState,
    .getStats = getStats,
    .objectCount = objectCount,
    .getObject = getObject,
    .propertyCount = propertyCount,
    .getProperty = getProperty,
    .setProperty = setProperty,
    .runObjectCommand = runObjectCommand,
    .saveAsset = saveAsset,
    .checkAsset = checkAsset,
    .runCommand = nullptr,
};

}  // namespace

extern "C" PAPER_PLUGIN_EXPORT const PaperPluginApi* paperGetPluginApi(uint32_t engineAbiVersion) {
    return engineAbiVersion == PAPER_PLUGIN_ABI_VERSION ? &kApi : nullptr;
}
