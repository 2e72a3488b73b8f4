// Finding plugins (the search path, a named descriptor first) and running a plugin's
// commandlets (`paperdoll <command> …`) without an instance or a window.
#include "paper/plugin_host.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <sstream>
#include <system_error>

#include "plugin/crash_guard.h"

namespace paper {

namespace fs = std::filesystem;

std::vector<fs::path> pluginSearchPath() {
    std::vector<fs::path> folders;
    if (const char* env = std::getenv("PAPERDOLL_PLUGIN_PATH")) {
        std::stringstream list(env);
        std::string folder;
        while (std::getline(list, folder, ':'))
            if (!folder.empty()) folders.emplace_back(folder);
    }
    std::error_code ec;
    fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) folders.push_back(exe.parent_path() / "plugins");
    return folders;
}

std::vector<PluginDescriptor> findPluginsNamedFirst(const std::string& namedDescriptor,
                                                    std::vector<Diagnostic>& diagnostics) {
    std::vector<PluginDescriptor> found = findPlugins(pluginSearchPath(), diagnostics);
    if (!namedDescriptor.empty()) {
        DescriptorResult r = loadPluginDescriptor(namedDescriptor);
        diagnostics.insert(diagnostics.end(), r.diagnostics.begin(), r.diagnostics.end());
        if (r.descriptor) {
            // The named descriptor is also in the search path's folders: listed once, first.
            std::erase_if(found, [&](const PluginDescriptor& d) { return sameDescriptor(d, *r.descriptor); });
            found.insert(found.begin(), *r.descriptor);
        }
    }
    return found;
}

std::optional<int> runCommandlet(const PluginDescriptor& descriptor, const std::filesystem::path& copyFolder,
                                 const std::vector<std::string>& args, std::string& error) {
    std::unique_ptr<PluginLibrary> library = PluginLibrary::open(descriptor.libraryPath(), copyFolder, error);
    if (!library) return std::nullopt;
    const PaperPluginApi& api = library->api();
    if (!api.runCommand || !api.commandlets) {
        error = "plugin '" + descriptor.name + "' runs no commands";
        return std::nullopt;
    }
    PaperEngineServices services = PluginHost::makeServices(nullptr);
    std::vector<const char*> argv;
    for (const std::string& a : args) argv.push_back(a.c_str());
    int32_t status = 1;
    std::fflush(stdout);
    if (int signal = callGuarded([&] { status = api.runCommand(&services, int32_t(argv.size()), argv.data()); })) {
        error = "plugin '" + descriptor.name + "' crashed running '" + args.front() + "': " + describeSignal(signal);
        return std::nullopt;
    }
    std::fflush(stdout);
    std::error_code ec;
    library.reset();
    fs::remove(copyFolder, ec);
    return status;
}

std::vector<std::string> pluginCommands(const PluginDescriptor& descriptor, const std::filesystem::path& copyFolder) {
    std::string error;
    std::unique_ptr<PluginLibrary> library = PluginLibrary::open(descriptor.libraryPath(), copyFolder, error);
    std::vector<std::string> commands;
    if (library && library->api().commandlets) {
        std::istringstream names(library->api().commandlets);
        std::string name;
        while (names >> name) commands.push_back(name);
    }
    library.reset();
    std::error_code ec;
    fs::remove(copyFolder, ec);
    return commands;
}

bool pluginRunsCommand(const PluginDescriptor& descriptor, const std::string& command,
                       const std::filesystem::path& copyFolder) {
    const std::vector<std::string> commands = pluginCommands(descriptor, copyFolder);
    return std::find(commands.begin(), commands.end(), command) != commands.end();
}

std::optional<PluginDeclarations> readPluginDeclarations(const PluginDescriptor& descriptor,
                                                         const std::filesystem::path& copyFolder, std::string& error) {
    std::unique_ptr<PluginLibrary> library = PluginLibrary::open(descriptor.libraryPath(), copyFolder, error);
    std::optional<PluginDeclarations> declarations;
    if (library) declarations = readDeclarations(library->api());
    library.reset();
    std::error_code ec;
    fs::remove(copyFolder, ec);
    return declarations;
}

}  // namespace paper
