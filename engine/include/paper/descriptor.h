// Plugin descriptors (*.plugin, XML, like Unreal's .uplugin): what a plugin is and which
// library holds it. The engine finds plugins by their descriptors.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "paper/xml_reader.h"

namespace paper {

enum class LoadingPhase { Default, PreDefault, PostDefault };

struct PluginDescriptor {
    std::filesystem::path path;  ///< the .plugin file
    std::string name;            ///< identifier, e.g. "shapes"
    std::string friendlyName;
    std::string version;
    unsigned abiVersion = 0;
    std::string library;         ///< base name: "shapes" → libshapes.so beside the descriptor
    std::string buildTarget;     ///< the build system's target that builds the library, or empty
    LoadingPhase loadingPhase = LoadingPhase::Default;
    std::string description;

    /// The shared library the descriptor names.
    std::filesystem::path libraryPath() const;
};

struct DescriptorResult {
    std::optional<PluginDescriptor> descriptor;
    std::vector<Diagnostic> diagnostics;
};

DescriptorResult loadPluginDescriptor(const std::filesystem::path& path);
/// The same from a descriptor's text; path names it in diagnostics and places its library.
DescriptorResult loadPluginDescriptorFromText(std::string_view text, const std::filesystem::path& path);

/// Whether a and b are one descriptor reached two ways (a folder of links to a build's
/// plugins beside that build's own folder): the same file, naming the same library. Listed
/// twice, the editor's Plugins found showed two identical entries.
bool sameDescriptor(const PluginDescriptor& a, const PluginDescriptor& b);

/// Every *.plugin directly inside the given folders, sorted by loading phase then name;
/// descriptors that fail to load add their diagnostics and are skipped, and one reached a
/// second way (the same file naming the same library, through links) is listed once.
std::vector<PluginDescriptor> findPlugins(const std::vector<std::filesystem::path>& folders,
                                          std::vector<Diagnostic>& diagnostics);

const char* loadingPhaseName(LoadingPhase phase);

}  // namespace paper
