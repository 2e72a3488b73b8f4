#include "paper/plugin_host.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <system_error>
#include <type_traits>

#include "plugin/crash_guard.h"
#include "paper/draw_list.h"

#include "platform/leak_check.h"
#ifdef PAPERDOLL_LSAN
#include <sanitizer/lsan_interface.h>
#endif

namespace paper {

namespace fs = std::filesystem;

namespace {

/// A crashed instance is abandoned on purpose (see crash_guard.h); tell LeakSanitizer so.
void abandon(void* instance) {
#ifdef PAPERDOLL_LSAN
    if (instance) __lsan_ignore_object(instance);
#else
    (void)instance;
#endif
}

/// A reason's first buffer; a longer one is asked for again at the size the plugin says.
constexpr size_t kFirstReasonCapacity = 4096;
/// The most a reason may take; beyond it the plugin is not telling a reason but a story.
constexpr size_t kMaxReasonCapacity = size_t(64) << 20;
/// The most a hot-reload state may take (a world of 10,000 bodies takes a few MiB); a size
/// past it is a plugin's bug (a -1 returned as size_t), refused rather than allocated.
constexpr size_t kMaxStateBytes = size_t(1) << 30;

/// Calls `call(buffer, capacity)`, one that writes a reason as plugin_api.h's "Reasons" says,
/// and asks again with a larger buffer until the whole reason fits. Returns the call's status
/// (0 success); the reason, whole, is in `reason`.
template <class Call>
int32_t callForReason(Call&& call, std::string& reason) {
    size_t capacity = kFirstReasonCapacity;
    for (;;) {
        std::string buffer(capacity, '\0');
        int32_t status = call(buffer.data(), capacity);
        size_t length = strnlen(buffer.data(), capacity);
        reason.assign(buffer.data(), length);
        if (status == 0) return status;
        // A plugin that follows the rule says how much it needs; one that does not (status 1)
        // and fills the buffer may have been cut, so it gets four times as much.
        size_t needed = status > 1 ? size_t(status) : length + 1 >= capacity ? 4 * capacity : 0;
        if (needed <= capacity || capacity >= kMaxReasonCapacity) return status;
        capacity = std::min(needed, kMaxReasonCapacity);
    }
}

/// Writes a reason into the plugin's buffer as plugin_api.h's "Reasons" says: cut to fit,
/// and returns the capacity the whole reason needs.
int32_t writeReason(char* error, size_t capacity, const std::string& reason) {
    if (error && capacity) {
        size_t length = std::min(reason.size(), capacity - 1);
        std::memcpy(error, reason.data(), length);
        error[length] = '\0';
    }
    return int32_t(std::min<size_t>(reason.size() + 1, size_t(INT32_MAX)));
}

double millisecondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

Vec2 toVec(PaperVec2 v) { return {v.x, v.y}; }
Color toColor(PaperColor c) { return {c.r, c.g, c.b, c.a}; }

/// The name of the plugin function Member, from plugin_api.h's list (for crash reports).
template <auto Member>
constexpr const char* functionName() {
#define PAPER_NAME_OF(required, returns, name, parameters)                                \
    if constexpr (std::is_same_v<decltype(Member), decltype(&PaperPluginApi::name)>) { \
        if (Member == &PaperPluginApi::name) return #name;                              \
    }
    PAPER_PLUGIN_FUNCTIONS(PAPER_NAME_OF)
#undef PAPER_NAME_OF
    return "a plugin function";
}

std::chrono::steady_clock::time_point startTime() {
    static const auto start = std::chrono::steady_clock::now();
    return start;
}

}  // namespace

PaperEngineServices PluginHost::makeServices(PluginHost* host) {
    PaperEngineServices s = {};
    s.abiVersion = PAPER_PLUGIN_ABI_VERSION;
    s.structSize = sizeof(PaperEngineServices);
    s.context = host;
    s.log = [](void* context, int32_t level, const char* message) {
        if (auto* host = static_cast<PluginHost*>(context))
            host->log(PaperLogLevel(level), message ? message : "");
        else
            std::fprintf(stderr, "%s\n", message ? message : "");
    };
    s.drawLine = [](void* context, PaperVec2 a, PaperVec2 b, float width, PaperColor color) {
        if (DrawList* d = context ? static_cast<PluginHost*>(context)->drawTarget_ : nullptr) d->line(toVec(a), toVec(b), width, toColor(color));
    };
    s.drawCircle = [](void* context, PaperVec2 center, float radius, PaperColor color) {
        if (DrawList* d = context ? static_cast<PluginHost*>(context)->drawTarget_ : nullptr) d->circle(toVec(center), radius, toColor(color));
    };
    s.drawCapsule = [](void* context, PaperVec2 a, PaperVec2 b, float radius, PaperColor color) {
        if (DrawList* d = context ? static_cast<PluginHost*>(context)->drawTarget_ : nullptr) d->capsule(toVec(a), toVec(b), radius, toColor(color));
    };
    s.drawPolygon = [](void* context, const PaperVec2* points, int32_t count, PaperColor color) {
        DrawList* d = context ? static_cast<PluginHost*>(context)->drawTarget_ : nullptr;
        if (!d || !points || count < 3 || count > 64) return;
        Vec2 converted[64];
        for (int32_t i = 0; i < count; ++i) converted[i] = toVec(points[i]);
        d->polygon(converted, count, toColor(color));
    };
    s.loadImage = [](void* context, const char* path, int32_t* image, char* error, size_t capacity) -> int32_t {
        auto* host = static_cast<PluginHost*>(context);
        std::string why = !host ? "no engine" : !path || !image ? "loadImage: null argument" : "";
        int id = 0;
        if (why.empty() && (id = host->images_.load(path, why)) == 0) why = "image '" + std::string(path) + "': " + why;
        if (id == 0) return writeReason(error, capacity, why);
        *image = id;
        return 0;
    };
    s.drawImage = [](void* context, int32_t image, const PaperVec2* corners, const PaperVec2* uvs, PaperColor tint,
                     int32_t flags) {
        DrawList* d = context ? static_cast<PluginHost*>(context)->drawTarget_ : nullptr;
        if (!d || !corners || !uvs) return;
        const Vec2 at[4] = {toVec(corners[0]), toVec(corners[1]), toVec(corners[2]), toVec(corners[3])};
        const Vec2 uv[4] = {toVec(uvs[0]), toVec(uvs[1]), toVec(uvs[2]), toVec(uvs[3])};
        d->imageQuad(image, at, uv, toColor(tint), (flags & PAPER_IMAGE_SILHOUETTE) != 0);
    };
    s.drawTriangles = [](void* context, int32_t image, const PaperVec2* positions, const PaperVec2* uvs, int32_t count,
                         PaperColor tint, int32_t flags) {
        DrawList* d = context ? static_cast<PluginHost*>(context)->drawTarget_ : nullptr;
        if (!d || !positions || !uvs || count < 3 || count > PAPER_MAX_TRIANGLE_VERTICES) return;
        std::vector<Vec2>& at = static_cast<PluginHost*>(context)->triangleScratch_;
        at.resize(2 * size_t(count));
        for (int32_t i = 0; i < count; ++i) {
            at[size_t(i)] = toVec(positions[i]);
            at[size_t(count + i)] = toVec(uvs[i]);
        }
        d->imageTriangles(image, at.data(), at.data() + count, count, toColor(tint), (flags & PAPER_IMAGE_SILHOUETTE) != 0);
    };
    s.timeSeconds = [](void*) {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - startTime()).count();
    };
    s.print = [](void*, int32_t stream, const char* text) {
        if (text) std::fputs(text, stream == 2 ? stderr : stdout);
    };
    // The job service, where there is a host to own the pool (commandlets run without).
    if (host) {
        s.jobWorkerCount = [](void* context) -> int32_t { return static_cast<PluginHost*>(context)->jobs_.workerCount(); };
        s.enqueueTask = [](void* context, PaperTaskFn task, int32_t itemCount, int32_t minRange, void* taskContext) {
            return static_cast<PluginHost*>(context)->jobs_.enqueue(task, itemCount, minRange, taskContext);
        };
        s.finishTask = [](void* context, void* task) { static_cast<PluginHost*>(context)->jobs_.finish(task); };
    }
    return s;
}

PluginHost::PluginHost(fs::path copyFolder, LogFn log)
    : copyFolder_(std::move(copyFolder)), log_(std::move(log)), jobs_(paper::JobPool::machineWorkers()),
      services_(makeServices(this)) {
    startTime();
}

PluginHost::~PluginHost() {
    if (current_.instance) {
        // Said, as in a reload: at exit it had passed without a word.
        if (int signal = callGuarded([&] { current_.api()->destroy(current_.instance); })) {
            abandon(current_.instance);  // what it did not free is lost with the crash
            current_.library->abandon();
            log(PAPER_LOG_WARNING, "plugin: '" + status_.name + " " + status_.version +
                                       "' crashed while shutting down: " + describeSignal(signal));
        }
        current_.instance = nullptr;
    }
    current_.library.reset();
    previous_.library.reset();
    crashed_.clear();
    std::error_code ec;
    fs::remove(copyFolder_, ec);  // only if empty: never delete what is not ours
}

void PluginHost::fail(const std::string& error) {
    status_.lastError = error;
    log(PAPER_LOG_ERROR, "plugin: " + error);
}

bool PluginHost::start(Generation& generation, const std::vector<std::uint8_t>* state, std::string& error) {
    const PaperPluginApi& api = *generation.api();
    std::string message;
    PaperPluginInstance* instance = nullptr;
    int signal = 0;
    callForReason(
        [&](char* buffer, size_t capacity) {
            signal = callGuarded([&] { instance = api.create(&services_, buffer, capacity); });
            return signal || instance ? 0 : 1;
        },
        message);
    if (signal) {
        error = std::string("crashed while starting: ") + describeSignal(signal);
        generation.library->abandon();
        return false;
    }
    if (!instance) {
        error = "refused to start: " + (message.empty() ? std::string("no reason given") : message);
        return false;
    }
    // Refused, the instance is destroyed; crashed, it is never called again (crash_guard.h)
    // and its library never unloaded: destroyed and unloaded at once, a library crashed
    // while loading the state took the running player down with it.
    auto abandon = [&](const std::string& why) {
        error = why;
        if (signal || callGuarded([&] { api.destroy(instance); })) {
            if (!signal) error += " (and crashed in destroy)";
            paper::abandon(instance);
            generation.library->abandon();
        }
        return false;
    };
    // Each call is guarded on its own: a crash on the way leaves no status to read.
    auto guardedCall = [&](auto&& call) {
        return callForReason(
            [&](char* buffer, size_t capacity) {
                int32_t status = 1;
                signal = callGuarded([&] { status = call(buffer, capacity); });
                return signal ? 0 : status;
            },
            message);
    };
    if (hasLevel_) {
        PaperLevelDesc level{terrain_.data(), int32_t(terrain_.size()), props_.data(), int32_t(props_.size()),
                             spawns_.data(), int32_t(spawns_.size()), levelPath_.c_str()};
        int32_t rc = guardedCall([&](char* buffer, size_t capacity) { return api.loadLevel(instance, &level, buffer, capacity); });
        if (signal) return abandon(std::string("crashed while loading the level: ") + describeSignal(signal));
        if (rc != 0) return abandon("refused the level: " + message);
    }
    // Handed over even when empty: a saveState that gave 0 bytes (a "buffer too small" bug)
    // skipped loadState, and the new library began the level afresh, called a success.
    if (state) {
        int32_t rc = guardedCall([&](char* buffer, size_t capacity) {
            return api.loadState(instance, state->data(), state->size(), buffer, capacity);
        });
        if (signal) return abandon(std::string("crashed while loading the state: ") + describeSignal(signal));
        if (rc != 0) return abandon("refused the state: " + message);
    }
    generation.instance = instance;
    return true;
}

void PluginHost::warnIfNeverUnloaded(const PluginLibrary& library) {
    if (library.uniqueSymbol().empty()) return;
    log(PAPER_LOG_WARNING, "plugin: '" + library.source().string() + "' has STB_GNU_UNIQUE symbols (" +
                               library.uniqueSymbol() +
                               ", …): the system never unloads it, so a rebuild reloaded over it runs with the old "
                               "one's static variables; build it with -fno-gnu-unique (g++)");
}

std::string PluginHost::crashedDuringRun() const {
    if (status_.rollbacks == 0 && loaded() && destroyCrashes_ == 0) return {};
    std::string how = !loaded()                ? std::string("stopped")
                      : status_.rollbacks == 0 ? std::string()
                                               : "rolled back " + std::to_string(status_.rollbacks) +
                                                     (status_.rollbacks == 1 ? " time" : " times");
    // A crash in an old instance's destroy at a reload let the reload go on: the run passed.
    if (destroyCrashes_ > 0) how += (how.empty() ? "" : ", ") + std::string("an old instance in destroy at a reload");
    return "the plugin '" + descriptor_.name + "' crashed during the run (" + how + "; the log above says where)";
}

bool PluginHost::load(const PluginDescriptor& descriptor) {
    descriptor_ = descriptor;
    std::string error;
    std::unique_ptr<PluginLibrary> library = PluginLibrary::open(descriptor.libraryPath(), copyFolder_, error);
    if (!library) {
        fail(error);
        return false;
    }
    warnIfNeverUnloaded(*library);
    Generation next;
    next.library = std::move(library);
    if (!start(next, nullptr, error)) {
        fail("'" + descriptor.name + "' " + next.api()->version + " ('" + next.library->source().string() + "') " + error);
        return false;
    }
    current_ = std::move(next);
    status_.loaded = true;
    status_.name = current_.api()->name;
    declarations_ = readDeclarations(*current_.api());
    ++generation_;
    status_.version = current_.api()->version;
    status_.file = descriptor.libraryPath().string();
    status_.lastError.clear();
    log(PAPER_LOG_INFO, "plugin: loaded " + status_.name + " " + status_.version + " from " + status_.file);
    // The descriptor is what lists and the editor's Plugins found show: a library that says
    // otherwise is a stale build or a descriptor copied from another plugin.
    if (status_.name != descriptor.name || status_.version != descriptor.version)
        log(PAPER_LOG_WARNING, "plugin: " + descriptor.path.string() + " describes " + descriptor.name + " " +
                                   descriptor.version + ", but its library is " + status_.name + " " + status_.version);
    return true;
}

bool PluginHost::setLevel(const Level& level) {
    levelPath_ = level.path;
    terrainPoints_.clear();
    terrain_.clear();
    props_.clear();
    spawnStrings_.clear();
    spawns_.clear();
    for (const TerrainPiece& piece : level.terrain) {
        std::vector<PaperVec2> points;
        for (Vec2 p : piece.points) points.push_back({p.x, p.y});
        terrainPoints_.push_back(std::move(points));
    }
    for (size_t i = 0; i < level.terrain.size(); ++i)
        terrain_.push_back({terrainPoints_[i].data(), int32_t(terrainPoints_[i].size()), level.terrain[i].friction,
                            level.terrain[i].restitution, level.terrain[i].line});
    propNames_.clear();
    for (const Prop& p : level.props) propNames_.push_back(p.name);
    for (size_t i = 0; i < level.props.size(); ++i) {
        const Prop& p = level.props[i];
        props_.push_back({propNames_[i].c_str(), {p.position.x, p.position.y}, p.angle, {p.halfExtents.x, p.halfExtents.y},
                          p.mass, p.friction, p.restitution, {p.color.r, p.color.g, p.color.b, p.color.a}, p.line});
    }
    spawnStrings_.reserve(level.spawns.size() * 2);  // stable c_str() pointers
    for (const SpawnPoint& s : level.spawns) {
        spawnStrings_.push_back(s.name);
        spawnStrings_.push_back(s.asset);
    }
    for (size_t i = 0; i < level.spawns.size(); ++i)
        spawns_.push_back({spawnStrings_[2 * i].c_str(), spawnStrings_[2 * i + 1].c_str(),
                           {level.spawns[i].position.x, level.spawns[i].position.y}, level.spawns[i].facingRight ? 1 : 0,
                           level.spawns[i].line});
    hasLevel_ = true;
    if (!current_.instance) return false;
    PaperLevelDesc desc{terrain_.data(), int32_t(terrain_.size()), props_.data(), int32_t(props_.size()), spawns_.data(),
                        int32_t(spawns_.size()), levelPath_.c_str()};
    std::string message;
    int32_t rc = 0;
    if (!guarded("loadLevel", [&](const PaperPluginApi& api, PaperPluginInstance* instance) {
            rc = callForReason([&](char* buffer, size_t capacity) { return api.loadLevel(instance, &desc, buffer, capacity); },
                               message);
        }))
        return false;
    if (rc != 0) {
        fail("the level was refused: " + message);
        return false;
    }
    status_.lastError.clear();  // a refusal before it is no longer the state of things
    return true;
}

bool PluginHost::saveState(std::vector<std::uint8_t>& blob, std::string& error) {
    blob.clear();
    // Only the plugin's calls inside the guard (its crash returns through longjmp): a
    // string built in there is one the compiler warns may be clobbered.
    size_t size = 0, written = 0;
    if (!guarded("saveState", [&](const PaperPluginApi& api, PaperPluginInstance* instance) {
            size = api.saveState(instance, nullptr, 0);
        }))
        return false;
    // The buffer is the host's, made outside the guard: a size past any state (a -1 returned
    // as size_t) threw from in there, which the guard took for the plugin crashing.
    if (size > kMaxStateBytes) {
        error = "its saveState asked for " + std::to_string(size) + " bytes, more than the " +
                std::to_string(kMaxStateBytes >> 20) + " MiB a state may take";
        return false;
    }
    blob.resize(size);
    if (!guarded("saveState", [&](const PaperPluginApi& api, PaperPluginInstance* instance) {
            written = api.saveState(instance, blob.data(), blob.size());
        })) {
        blob.clear();
        return false;
    }
    if (written == size) return true;
    error = "its saveState asked for " + std::to_string(size) + " bytes, then wrote " + std::to_string(written) +
            ": its state cannot be taken whole";
    blob.clear();
    return false;
}

std::vector<std::uint8_t> PluginHost::saveState() {
    std::vector<std::uint8_t> blob;
    std::string error;
    saveState(blob, error);
    return blob;
}

bool PluginHost::loadState(const std::vector<std::uint8_t>& blob) {
    std::string message;
    int32_t rc = 1;
    if (!guarded("loadState", [&](const PaperPluginApi& api, PaperPluginInstance* instance) {
            rc = callForReason(
                [&](char* buffer, size_t capacity) { return api.loadState(instance, blob.data(), blob.size(), buffer, capacity); },
                message);
        }))
        return false;
    if (rc != 0) fail("state refused: " + message);
    return rc == 0;
}

bool PluginHost::reload() {
    auto began = std::chrono::steady_clock::now();
    if (!current_.instance) {
        // Nothing running (a first load failed, or a crash left nothing to roll back to).
        return !descriptor_.name.empty() && load(descriptor_);
    }
    std::string error;
    std::unique_ptr<PluginLibrary> library = PluginLibrary::open(descriptor_.libraryPath(), copyFolder_, error);
    if (!library) {
        fail("reload failed, still running " + status_.version + ": " + error);
        return false;
    }
    warnIfNeverUnloaded(*library);
    // A state the running instance cannot hand over whole is no reload: started without it,
    // the new library would begin the level afresh (a falling figure back at its spawn) and
    // call that a success.
    std::vector<std::uint8_t> state;
    const int saving = generation_;
    const bool whole = saveState(state, error);
    // It crashed while saving: stopped, or rolled back to the previous library with its state
    // (which must keep running: the reload ends here, the crash said in the status).
    if (!current_.instance || generation_ != saving) return false;
    if (!whole) {
        fail("reload failed, still running " + status_.version + ": " + error);
        return false;
    }
    Generation next;
    next.library = std::move(library);
    std::string oldVersion = status_.version;
    if (!start(next, &state, error)) {
        // Which build it was (the file may be replaced again before anyone reads the log).
        fail("reload failed, still running " + oldVersion + ": the new library (" + next.api()->version + ", '" +
             next.library->source().string() + "') " + error);
        return false;  // next's library closes here; the old instance never noticed
    }
    PaperPluginInstance* old = current_.instance;
    const PaperPluginApi* oldApi = current_.api();
    if (int signal = callGuarded([&] { oldApi->destroy(old); })) {
        abandon(old);
        current_.library->abandon();
        ++destroyCrashes_;
        log(PAPER_LOG_WARNING, "plugin: the old instance ('" + status_.name + " " + oldVersion +
                                   "') crashed while shutting down: " + describeSignal(signal));
    }
    previous_.library = std::move(current_.library);  // the one before it is closed here
    lastGoodState_ = state;
    current_ = std::move(next);

    status_.reloads++;
    status_.lastReloadMilliseconds = millisecondsSince(began);
    status_.lastStateBytes = state.size();
    status_.name = current_.api()->name;
    declarations_ = readDeclarations(*current_.api());
    ++generation_;
    status_.version = current_.api()->version;
    status_.lastError.clear();
    char milliseconds[32];
    std::snprintf(milliseconds, sizeof milliseconds, "%.1f ms", status_.lastReloadMilliseconds);
    log(PAPER_LOG_INFO, "plugin: reloaded " + status_.name + " " + oldVersion + " -> " + status_.version + ", " +
                            std::to_string(state.size()) + " bytes of state, " + milliseconds);
    return true;
}

void PluginHost::watch(bool enable) {
    if (!enable) {
        watch_.reset();
        status_.watchMethod = "off";
        return;
    }
    if (descriptor_.name.empty()) return;
    watch_ = std::make_unique<FileWatch>(descriptor_.libraryPath());
    status_.watchMethod = watch_->method();
}

bool PluginHost::reloadIfChanged() {
    if (!watch_) return false;
    if (watch_->poll()) {
        refusedChange_.clear();
        return reload();
    }
    // The watch waits for a whole library. One that stays broken after the quiet time
    // (removed, garbage) is refused here exactly as F5 refuses it, once per change: the
    // reload fails on the same file with the same words in the log and the status.
    const std::string& waiting = watch_->waitingFor();
    if (waiting.empty() || waiting == refusedChange_) return false;
    refusedChange_ = waiting;
    return reload();
}

template <class Fn>
bool PluginHost::guarded(const char* what, Fn&& fn) {
    if (!current_.instance) return false;
    const PaperPluginApi* api = current_.api();
    PaperPluginInstance* instance = current_.instance;
    int signal = callGuarded([&] { fn(*api, instance); });
    if (signal == 0) return true;
    rollBack(what, signal);
    return false;
}

void PluginHost::rollBack(const char* what, int signal) {
    std::string crashed = status_.name + " " + status_.version;
    // The crashed instance is abandoned, not destroyed: its state cannot be trusted, and
    // its library stays mapped in case its code is still referenced.
    abandon(current_.instance);
    current_.instance = nullptr;
    current_.library->abandon();
    crashed_.push_back(std::move(current_.library));
    std::string reason = "'" + crashed + "' crashed in " + what + " (" + describeSignal(signal) + ")";
    if (!previous_.library) {
        status_.loaded = false;
        fail(reason + "; no earlier library to go back to, so the plugin is stopped (fix it and rebuild to reload)");
        return;
    }
    current_.library = std::move(previous_.library);
    std::string error;
    if (!start(current_, &lastGoodState_, error)) {
        crashed_.push_back(std::move(current_.library));
        status_.loaded = false;
        fail(reason + "; going back to the previous library failed too: " + error);
        return;
    }
    status_.rollbacks++;
    status_.version = current_.api()->version;
    status_.name = current_.api()->name;
    declarations_ = readDeclarations(*current_.api());
    ++generation_;
    fail(reason + "; rolled back to " + status_.name + " " + status_.version + " with the state from before the reload");
}

void PluginHost::tick(double dt, const PaperInput& input) {
    guarded("tick", [&](const PaperPluginApi& api, PaperPluginInstance* instance) { api.tick(instance, dt, &input); });
}

void PluginHost::draw(DrawList& list, std::uint32_t layers) {
    drawTarget_ = &list;
    guarded("draw", [&](const PaperPluginApi& api, PaperPluginInstance* instance) { api.draw(instance, layers); });
    drawTarget_ = nullptr;
}

template <auto Member, class Result, class... Args>
Result PluginHost::call(Result otherwise, Args... args) {
    Result result = otherwise;
    guarded(functionName<Member>(), [&](const PaperPluginApi& api, PaperPluginInstance* instance) {
        result = (api.*Member)(instance, args...);
    });
    return result;
}

std::vector<double> PluginHost::stats() {
    std::vector<double> values(declarations_.stats.size(), 0.0);
    guarded("getStats", [&](const PaperPluginApi& api, PaperPluginInstance* instance) {
        api.getStats(instance, values.data(), int32_t(values.size()));
    });
    return loaded() ? values : std::vector<double>();
}

std::vector<ObjectEntry> PluginHost::objects(int kind) {
    std::vector<ObjectEntry> out;
    const int32_t count = call<&PaperPluginApi::objectCount>(int32_t(0), int32_t(kind));
    for (int32_t i = 0; i < count; ++i) {
        PaperObjectInfo info = {};
        if (call<&PaperPluginApi::getObject>(int32_t(1), int32_t(kind), i, &info) != 0) continue;
        // Copied at once: the next call may overwrite the plugin's strings.
        out.push_back({info.handle, info.name ? info.name : "", int(info.owner)});
    }
    return out;
}

std::vector<PropertyValue> PluginHost::properties(int kind, std::uint64_t handle) {
    std::vector<PropertyValue> out;
    const int32_t count = call<&PaperPluginApi::propertyCount>(int32_t(0), int32_t(kind), handle);
    for (int32_t i = 0; i < count; ++i) {
        PaperPropertyInfo info = {};
        if (call<&PaperPluginApi::getProperty>(int32_t(1), int32_t(kind), handle, i, &info) != 0) continue;
        auto text = [](const char* s) { return s ? std::string(s) : std::string(); };
        out.push_back({text(info.name), text(info.label), text(info.unit), int(info.type), int(info.flags),
                       info.minValue, info.maxValue, info.value, toVec(info.vector), text(info.text)});
    }
    return out;
}

bool PluginHost::setProperty(int kind, std::uint64_t handle, int index, double value) {
    return call<&PaperPluginApi::setProperty>(int32_t(1), int32_t(kind), handle, int32_t(index), value) == 0;
}

bool PluginHost::setProperty(int kind, std::uint64_t handle, std::string_view name, double value) {
    const std::vector<PropertyValue> list = properties(kind, handle);
    for (size_t i = 0; i < list.size(); ++i)
        if (list[i].name == name) return setProperty(kind, handle, int(i), value);
    return false;
}

bool PluginHost::runCommand(std::uint64_t handle, int command, double argument, std::string& error) {
    int32_t rc = 1;
    std::string message;
    bool called = guarded("runObjectCommand", [&](const PaperPluginApi& api, PaperPluginInstance* instance) {
        rc = callForReason(
            [&](char* buffer, size_t capacity) {
                return api.runObjectCommand(instance, handle, int32_t(command), argument, buffer, capacity);
            },
            message);
    });
    if (!called) error = "no plugin is running";
    else if (rc != 0) error = message.empty() ? "the plugin refused the command" : message;
    return called && rc == 0;
}

bool PluginHost::saveAsset(const std::string& asset, const std::string& path, std::string& error) {
    int32_t rc = 1;
    std::string message;
    bool called = guarded("saveAsset", [&](const PaperPluginApi& api, PaperPluginInstance* instance) {
        rc = callForReason(
            [&](char* buffer, size_t capacity) {
                return api.saveAsset(instance, asset.c_str(), path.empty() ? nullptr : path.c_str(), buffer, capacity);
            },
            message);
    });
    if (!called) error = "no plugin is running";
    else if (rc != 0) error = message.empty() ? "the plugin could not save '" + asset + "'" : message;
    return called && rc == 0;
}

bool PluginHost::checkAsset(const std::string& path, std::string& error) {
    const PaperPluginApi* api = current_.api();
    if (!api) {
        error = "no plugin is loaded";
        return false;
    }
    if (!api->checkAsset) return true;
    int32_t rc = 1;
    std::string message;
    int signal = callGuarded([&] {
        rc = callForReason([&](char* buffer, size_t capacity) { return api->checkAsset(&services_, path.c_str(), buffer, capacity); },
                           message);
    });
    if (signal != 0) {
        error = "the plugin crashed checking '" + path + "' (" + describeSignal(signal) + ")";
        return false;
    }
    if (rc != 0) error = message.empty() ? "the plugin cannot open '" + path + "'" : message;
    return rc == 0;
}

}  // namespace paper
