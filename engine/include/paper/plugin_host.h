// The engine's side of a loaded plugin: its library and instance, the level it was given,
// hot reload that loses nothing, and rollback when a reloaded plugin crashes.
//
// Reload, in order (README.md in this folder): load the new library from a private
// copy and check its ABI; ask the old instance for its state blob; create the new instance,
// give it the level and the blob; only then destroy the old instance. Any failure on the
// way leaves the old instance in charge and records why. The old library stays mapped
// until the next successful reload, so a crash in the new one can roll back to it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "paper/math.h"
#include "paper/plugin_api.h"
#include "paper/descriptor.h"
#include "paper/file_watch.h"
#include "paper/library.h"
#include "paper/level.h"

namespace paper {

class DrawList;

struct PluginStatus {
    bool loaded = false;
    std::string name, version, file;
    int reloads = 0;                  ///< successful reloads
    int rollbacks = 0;                ///< crashes recovered by going back to the previous library
    double lastReloadMilliseconds = 0.0;
    std::size_t lastStateBytes = 0;
    std::string lastError;            ///< empty when the last operation succeeded
    const char* watchMethod = "off";  ///< "inotify", "polling" or "off"
};

/// A character as the plugin reported it, with its strings copied: the plugin's own stay
/// valid only until its next call.
struct CharacterStatus {
    std::string name;     ///< the level's spawn name
    std::string mode;     ///< "animated", "blend", "ragdoll" or "getting_up"
    std::string netRole;  ///< "standalone", "host" or "proxy"
    std::string clip;     ///< the clip playing, or empty
    float blendWeight = 0.0f;  ///< 0 = keyframed .. 1 = physics
    Vec2 position;        ///< feet (root), world metres
    int bodies = 0;       ///< bodies the character owns right now
};

class PluginHost {
public:
    using LogFn = std::function<void(PaperLogLevel, const std::string&)>;

    /// copyFolder: where private copies of libraries go (created, emptied at destruction).
    PluginHost(std::filesystem::path copyFolder, LogFn log);
    ~PluginHost();
    PluginHost(const PluginHost&) = delete;
    PluginHost& operator=(const PluginHost&) = delete;

    /// Loads the descriptor's library and starts an instance. False with status().lastError.
    bool load(const PluginDescriptor& descriptor);
    /// Builds the level in the plugin; remembered, so reloads rebuild it too.
    bool setLevel(const Level& level);
    /// Swaps in the library file as it is now. False (old instance kept) with the reason.
    bool reload();
    /// Starts watching the library file; reloadIfChanged() then reloads after a rebuild.
    void watch(bool enable);
    /// Reloads when the watched file has changed and is complete; true if it reloaded. A file
    /// that stays incomplete (garbage) or removed is reported as F5 would report it, once.
    bool reloadIfChanged();

    void tick(double dt, const PaperInput& input);
    void draw(DrawList& list);
    PaperPhysicsStats stats();

    std::vector<PaperPropertyInfo> properties();
    bool setProperty(int index, double value);
    std::vector<PaperJointInfo> joints();
    bool setJointLimits(std::uint64_t handle, double lower, double upper);
    /// Every character's bodies, simulated or not (picking, outlines, the inspector).
    std::vector<PaperBodyInfo> bodies();
    /// The props as the plugin simulates them (names valid until the next call into it).
    std::vector<PaperPropInfo> props();
    /// The inspector's properties of one joint or body (PaperObjectKind + its handle).
    std::vector<PaperPropertyInfo> objectProperties(PaperObjectKind kind, std::uint64_t handle);
    bool setObjectProperty(PaperObjectKind kind, std::uint64_t handle, int index, double value);
    /// Every character the plugin simulates (empty without a running instance).
    std::vector<CharacterStatus> characters();
    bool setBlendWeight(int character, float weight);
    /// The character's rig with its edited limits and properties, to path (empty: its own file). False with
    /// the reason in error.
    bool saveRig(int character, const std::string& path, std::string& error);

    /// The instance's state blob now (empty if none).
    std::vector<std::uint8_t> saveState();
    bool loadState(const std::vector<std::uint8_t>& blob);

    const PluginStatus& status() const { return status_; }
    bool loaded() const { return current_.instance != nullptr; }
    const PluginDescriptor& descriptor() const { return descriptor_; }

    static PaperEngineServices makeServices(PluginHost* host);

private:
    struct Generation {
        std::unique_ptr<PluginLibrary> library;
        PaperPluginInstance* instance = nullptr;
        const PaperPluginApi* api() const { return library ? &library->api() : nullptr; }
    };

    /// Creates an instance of `library`, gives it the level and (if not empty) the state.
    bool start(Generation& generation, const std::vector<std::uint8_t>& state, std::string& error);
    /// Runs a call into the current instance under the crash guard; on a crash, rolls back.
    template <class Fn>
    bool guarded(const char* what, Fn&& fn);
    void rollBack(const char* what, int signal);
    void fail(const std::string& error);
    void log(PaperLogLevel level, const std::string& message) { if (log_) log_(level, message); }

    std::filesystem::path copyFolder_;
    LogFn log_;
    PaperEngineServices services_;
    PluginDescriptor descriptor_;
    Generation current_;
    Generation previous_;                    ///< the last library that ran well, for rollback
    std::vector<std::uint8_t> lastGoodState_;  ///< its state when it handed over
    std::vector<std::unique_ptr<PluginLibrary>> crashed_;  ///< kept mapped: their code may be on a stack
    std::unique_ptr<FileWatch> watch_;
    std::string refusedChange_;  ///< the watch's last complaint already reported as a failed reload

    // The level, kept in the C shapes the plugin reads.
    std::vector<std::vector<PaperVec2>> terrainPoints_;
    std::vector<PaperTerrainPiece> terrain_;
    std::vector<PaperProp> props_;
    std::vector<std::string> spawnStrings_;
    std::vector<std::string> propNames_;
    std::vector<PaperSpawn> spawns_;
    bool hasLevel_ = false;

    DrawList* drawTarget_ = nullptr;  ///< set only while the plugin draws
    PluginStatus status_;
};

/// The folders the engine looks in for *.plugin files: $PAPERDOLL_PLUGIN_PATH (colon
/// separated), then plugins/ beside the executable.
std::vector<std::filesystem::path> pluginSearchPath();

/// Every plugin on the search path, with the descriptor a user named (--plugin FILE; empty
/// for none) first; problems with any of them are appended to diagnostics.
std::vector<PluginDescriptor> findPluginsNamedFirst(const std::string& namedDescriptor,
                                                    std::vector<Diagnostic>& diagnostics);

/// Whether the plugin lists `command` among its commandlets.
bool pluginRunsCommand(const PluginDescriptor& descriptor, const std::string& command,
                       const std::filesystem::path& copyFolder);
/// Runs a commandlet (`paperdoll rig check …`): args[0] is the command. Returns its exit
/// status, or nullopt with the reason when the plugin could not run it.
std::optional<int> runCommandlet(const PluginDescriptor& descriptor, const std::filesystem::path& copyFolder,
                                 const std::vector<std::string>& args, std::string& error);

}  // namespace paper
