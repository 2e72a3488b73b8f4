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
#include <string_view>
#include <vector>

#include "paper/math.h"
#include "paper/plugin_api.h"
#include "paper/descriptor.h"
#include "paper/file_watch.h"
#include "paper/image_store.h"
#include "paper/job_pool.h"
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

/// What a plugin declares in its table (plugin_api.h), with the strings copied: they stay
/// valid whatever library is loaded next.
struct PluginDeclarations {
    struct Action {
        std::string name, label;
        std::vector<std::string> keys;  ///< SDL key names
    };
    struct Stat {
        std::string name, label, unit;
        double displayScale = 1.0;
        int flags = 0;  ///< PAPER_STAT_*
    };
    struct Kind {
        std::string name, label, statsKey;  ///< statsKey empty: not in --stats-json
        int ownerKind = -1;
        int flags = 0;  ///< PAPER_KIND_*
    };
    struct Command {
        int kind = 0;
        std::string name, label, property;
        int argument = PAPER_ARGUMENT_NONE;
        double minValue = 0.0, maxValue = 0.0;
    };
    struct AssetType {
        std::string name, label, pattern;
    };
    std::vector<Action> actions;
    std::vector<Stat> stats;
    std::vector<Kind> kinds;
    std::vector<Command> commands;
    std::vector<AssetType> assetTypes;

    /// The index of the kind, command or action of that name, or -1.
    int kindNamed(std::string_view name) const;
    int commandNamed(int kind, std::string_view name) const;
    int actionNamed(std::string_view name) const;
    /// The kind flagged PAPER_KIND_SETTINGS, or -1.
    int settingsKind() const;
    /// The asset type whose pattern matches the file's name ("*.x.xml"), or -1.
    int assetTypeOf(const std::string& path) const;
};

PluginDeclarations readDeclarations(const PaperPluginApi& api);

/// Whether a file name matches an asset type's pattern, '*' standing for any run of
/// characters ("*.puppet.xml").
bool matchesPattern(std::string_view pattern, std::string_view name);

/// An object as the plugin reported it (strings copied).
struct ObjectEntry {
    std::uint64_t handle = 0;
    std::string name;
    int owner = -1;
};

/// A property as the plugin reported it (strings copied).
struct PropertyValue {
    std::string name, label, unit;
    int type = PAPER_PROPERTY_FLOAT;  ///< PaperPropertyType
    int flags = 0;                    ///< PAPER_PROPERTY_*
    double minValue = 0.0, maxValue = 0.0;
    double value = 0.0;
    Vec2 vector;
    std::string text;
};

/// The property of that name in a list, or null.
const PropertyValue* findProperty(const std::vector<PropertyValue>& properties, std::string_view name);
/// Whether an object's properties give it an outline a tool can draw and pick: "a", "b",
/// "radius" and "shape" (plugin_api.h's objects).
bool hasOutline(const std::vector<PropertyValue>& properties);
/// A property as a HUD line shows it: a string as it is ("fallen"), a flag by its label when
/// set ("leader"), a number or vector with its label and unit ("Speed 4.05 m/s").
std::string propertyText(const PropertyValue& property);

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
    /// The plugin's frame into list: the layers asked for (PAPER_DRAW_*).
    void draw(DrawList& list, std::uint32_t layers = PAPER_DRAW_ART);
    /// The last step's figures, one per declarations().stats (empty without an instance).
    std::vector<double> stats();

    /// What the loaded plugin declares (empty before the first load; a reload updates it).
    const PluginDeclarations& declarations() const { return declarations_; }
    /// Counts the libraries started (load, reload, rollback): when it changes, so may the
    /// declarations.
    int generation() const { return generation_; }
    /// "the plugin 'x' crashed during the run (rolled back 1 time; …)" when it crashed since it
    /// loaded (rolled back, stopped, or an old instance in destroy at a reload), else "": what
    /// fails a run that ends by itself.
    std::string crashedDuringRun() const;
    std::vector<ObjectEntry> objects(int kind);
    std::vector<PropertyValue> properties(int kind, std::uint64_t handle);
    bool setProperty(int kind, std::uint64_t handle, int index, double value);
    /// Sets the property of that name; false when there is none or the plugin refuses.
    bool setProperty(int kind, std::uint64_t handle, std::string_view name, double value);
    /// Runs a declared command on an object; false with the reason in error.
    bool runCommand(std::uint64_t handle, int command, double argument, std::string& error);
    /// Writes the asset opened from `asset` (a spawn's file) with its edits to path (empty:
    /// back to asset). False with the reason in error.
    bool saveAsset(const std::string& asset, const std::string& path, std::string& error);
    /// Whether the plugin can open the file as an asset (its checkAsset; a plugin without one
    /// accepts every file). False with every problem in error.
    bool checkAsset(const std::string& path, std::string& error);

    /// The instance's state blob now (empty if none, or if it could not be taken).
    std::vector<std::uint8_t> saveState();
    /// The same, false with why when the instance did not write the size it asked for (its
    /// saveState answered two sizes: the state cannot be trusted whole).
    bool saveState(std::vector<std::uint8_t>& blob, std::string& error);
    bool loadState(const std::vector<std::uint8_t>& blob);

    const PluginStatus& status() const { return status_; }
    /// The images plugins loaded (loadImage), for the renderer; kept across reloads.
    const ImageStore& images() const { return images_; }
    bool loaded() const { return current_.instance != nullptr; }
    const PluginDescriptor& descriptor() const { return descriptor_; }

    static PaperEngineServices makeServices(PluginHost* host);

private:
    /// Calls the plugin's function Member on the current instance under the crash guard;
    /// `otherwise` when there is no instance or it crashed.
    template <auto Member, class Result, class... Args>
    Result call(Result otherwise, Args... args);

    struct Generation {
        std::unique_ptr<PluginLibrary> library;
        PaperPluginInstance* instance = nullptr;
        const PaperPluginApi* api() const { return library ? &library->api() : nullptr; }
    };

    /// Creates an instance of `library`, gives it the level and (at a reload or rollback,
    /// when given, empty or not) the state.
    bool start(Generation& generation, const std::vector<std::uint8_t>* state, std::string& error);
    /// Logs a warning when the library can never be unloaded (PluginLibrary::uniqueSymbol).
    void warnIfNeverUnloaded(const PluginLibrary& library);
    /// Runs a call into the current instance under the crash guard; on a crash, rolls back.
    template <class Fn>
    bool guarded(const char* what, Fn&& fn);
    void rollBack(const char* what, int signal);
    void fail(const std::string& error);
    void log(PaperLogLevel level, const std::string& message) { if (log_) log_(level, message); }

    std::filesystem::path copyFolder_;
    LogFn log_;
    paper::JobPool jobs_;  ///< the job service's threads (one per core, started when first used)
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
    std::string levelPath_;  ///< the level's file, for the plugin's placement warnings
    std::vector<PaperSpawn> spawns_;
    bool hasLevel_ = false;

    PluginDeclarations declarations_;
    int generation_ = 0;
    int destroyCrashes_ = 0;  ///< old instances that crashed in destroy at a reload (the reload went on)
    ImageStore images_;
    DrawList* drawTarget_ = nullptr;  ///< set only while the plugin draws
    std::vector<Vec2> triangleScratch_;  ///< drawTriangles' converted positions and uvs, reused
    PluginStatus status_;
};

/// The folders the engine looks in for *.plugin files: $PAPERDOLL_PLUGIN_PATH (colon
/// separated), then plugins/ beside the executable.
std::vector<std::filesystem::path> pluginSearchPath();

/// Every plugin on the search path, with the descriptor a user named (--plugin FILE; empty
/// for none) first; problems with any of them are appended to diagnostics.
std::vector<PluginDescriptor> findPluginsNamedFirst(const std::string& namedDescriptor,
                                                    std::vector<Diagnostic>& diagnostics);

/// The commandlets the plugin lists (`paperdoll <command> …`); none when it cannot be loaded.
std::vector<std::string> pluginCommands(const PluginDescriptor& descriptor, const std::filesystem::path& copyFolder);
/// Whether the plugin lists `command` among its commandlets.
bool pluginRunsCommand(const PluginDescriptor& descriptor, const std::string& command,
                       const std::filesystem::path& copyFolder);
/// What the descriptor's library declares (its actions, kinds, asset types…), read without
/// starting an instance; nullopt with the reason when it cannot be loaded.
std::optional<PluginDeclarations> readPluginDeclarations(const PluginDescriptor& descriptor,
                                                         const std::filesystem::path& copyFolder, std::string& error);
/// Runs a commandlet (`paperdoll <command> …`): args[0] is the command. Returns its exit
/// status, or nullopt with the reason when the plugin could not run it.
std::optional<int> runCommandlet(const PluginDescriptor& descriptor, const std::filesystem::path& copyFolder,
                                 const std::vector<std::string>& args, std::string& error);

}  // namespace paper
