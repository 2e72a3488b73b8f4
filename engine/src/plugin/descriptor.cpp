#include "paper/descriptor.h"

#include <tinyxml2.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <iterator>
#include <system_error>

#include "paper/file_checks.h"
#include "paper/spelling.h"

namespace paper {

namespace fs = std::filesystem;

fs::path PluginDescriptor::libraryPath() const { return path.parent_path() / ("lib" + library + ".so"); }

const char* loadingPhaseName(LoadingPhase phase) {
    switch (phase) {
    case LoadingPhase::PreDefault: return "pre_default";
    case LoadingPhase::PostDefault: return "post_default";
    case LoadingPhase::Default: break;
    }
    return "default";
}

DescriptorResult loadPluginDescriptor(const fs::path& path) {
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) {
        DescriptorResult result;
        result.diagnostics.push_back(
            Diagnostic{Severity::Error, path.string(), 0, fs::exists(path, ec) ? "not a file" : "no such file"});
        return result;
    }
    std::ifstream in(path, std::ios::binary);
    std::string text;
    if (in.is_open()) text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (!in.is_open() || in.bad()) {
        DescriptorResult result;
        result.diagnostics.push_back(Diagnostic{Severity::Error, path.string(), 0, "the file could not be read"});
        return result;
    }
    return loadPluginDescriptorFromText(text, path);
}

DescriptorResult loadPluginDescriptorFromText(std::string_view text, const fs::path& path) {
    DescriptorResult result;
    std::string file = path.string();
    auto error = [&](int line, std::string message) {
        result.diagnostics.push_back(Diagnostic{Severity::Error, file, line, std::move(message)});
    };
    // A plugin's library given where its descriptor goes (the likeliest slip), or any other
    // file that is plainly no XML, says so: the parser's words would be about broken text.
    if (text.starts_with("\x7f" "ELF")) {
        error(0, "it is a shared library, not a plugin descriptor: give the *.plugin file that names it "
                 "(beside it, e.g. " + (path.parent_path() / "NAME.plugin").string() + ")");
        return result;
    }
    if (std::optional<std::string> kind = notTextFile(text, "a descriptor is XML text")) {
        error(0, "not a plugin descriptor (" + *kind + ")");
        return result;
    }
    tinyxml2::XMLDocument doc;
    if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
        error(0, "file is empty; expected a <plugin> element");
        return result;
    }
    if (doc.Parse(text.data(), text.size()) != tinyxml2::XML_SUCCESS) {
        error(doc.ErrorLineNum(), "malformed XML: " + describeXmlError(doc));
        return result;
    }
    const tinyxml2::XMLElement* root = doc.RootElement();
    if (!root || std::string_view(root->Name()) != "plugin") {
        error(root ? root->GetLineNum() : 0, "the root element must be <plugin>");
        return result;
    }
    int line = root->GetLineNum();
    // A misspelt attribute (libary="x") is said as such, not only as the one then missing.
    static constexpr std::string_view kKnown[] = {"name", "version", "library", "abi_version", "friendly_name",
                                                  "build_target", "loading_phase"};
    for (const tinyxml2::XMLAttribute* a = root->FirstAttribute(); a; a = a->Next())
        if (std::find(std::begin(kKnown), std::end(kKnown), std::string_view(a->Name())) == std::end(kKnown))
            result.diagnostics.push_back({Severity::Warning, file, line,
                                          "plugin: unknown attribute '" + std::string(a->Name()) + "' ignored" +
                                              paper::didYouMean(a->Name(), kKnown)});
    PluginDescriptor d;
    d.path = path;
    auto required = [&](const char* attribute, std::string& out) {
        const char* value = root->Attribute(attribute);
        if (!value || !*value)
            error(line, std::string("plugin: missing required attribute '") + attribute + "'");
        else
            out = value;
    };
    required("name", d.name);
    required("version", d.version);
    required("library", d.library);
    // The base name: the loader adds "lib" and ".so". Written whole, it looked for
    // liblibwalk.so.so and said only that it could not read that.
    if (d.library.size() > 6 && d.library.starts_with("lib") && d.library.ends_with(".so"))
        error(line, "plugin: library '" + d.library + "' is the file's name; give its base name, library=\"" +
                        d.library.substr(3, d.library.size() - 6) + "\" (the loader reads lib" +
                        d.library.substr(3, d.library.size() - 6) + ".so beside the descriptor)");
    std::string abi;
    required("abi_version", abi);
    if (const char* friendly = root->Attribute("friendly_name")) d.friendlyName = friendly;
    if (const char* target = root->Attribute("build_target")) d.buildTarget = target;
    if (d.friendlyName.empty()) d.friendlyName = d.name;
    if (!abi.empty()) {
        auto [end, status] = std::from_chars(abi.data(), abi.data() + abi.size(), d.abiVersion);
        if (status != std::errc() || end != abi.data() + abi.size() || d.abiVersion == 0)
            error(line, "plugin: attribute 'abi_version' must be a positive whole number, got '" + abi + "'");
    }
    if (d.library.find('/') != std::string::npos || d.library.find("..") != std::string::npos)
        error(line, "plugin: attribute 'library' is a base name (e.g. \"shapes\" for libshapes.so), got '" + d.library + "'");
    if (const char* phase = root->Attribute("loading_phase")) {
        std::string_view p(phase);
        if (p == "default") d.loadingPhase = LoadingPhase::Default;
        else if (p == "pre_default") d.loadingPhase = LoadingPhase::PreDefault;
        else if (p == "post_default") d.loadingPhase = LoadingPhase::PostDefault;
        else error(line, "plugin: attribute 'loading_phase' has unknown value '" + std::string(p) +
                             "' (supported: pre_default, default, post_default)");
    }
    if (const tinyxml2::XMLElement* description = root->FirstChildElement("description"))
        if (const char* text = description->GetText()) d.description = text;
    if (!hasErrors(result.diagnostics)) result.descriptor = std::move(d);
    return result;
}

bool sameDescriptor(const PluginDescriptor& a, const PluginDescriptor& b) {
    // One file through links, naming one library file (or one place, while it is not built).
    return sameFile(a.path.string(), b.path.string()) && sameFile(a.libraryPath().string(), b.libraryPath().string());
}

std::vector<PluginDescriptor> findPlugins(const std::vector<fs::path>& folders, std::vector<Diagnostic>& diagnostics) {
    std::vector<PluginDescriptor> found;
    std::vector<fs::path> scanned;
    for (const fs::path& folder : folders) {
        std::error_code ec;
        if (!fs::is_directory(folder, ec)) continue;
        // One folder named twice (build/plugins in the path and beside the executable) is
        // read once: its descriptors were warned about as describing their plugins twice.
        if (std::any_of(scanned.begin(), scanned.end(), [&](const fs::path& seen) { return fs::equivalent(seen, folder, ec); }))
            continue;
        scanned.push_back(folder);
        std::vector<fs::path> files;
        for (const fs::directory_entry& entry : fs::directory_iterator(folder, ec))
            if (entry.path().extension() == ".plugin") files.push_back(entry.path());
        std::sort(files.begin(), files.end());
        for (const fs::path& file : files) {
            DescriptorResult r = loadPluginDescriptor(file);
            diagnostics.insert(diagnostics.end(), r.diagnostics.begin(), r.diagnostics.end());
            if (r.descriptor && std::none_of(found.begin(), found.end(), [&](const PluginDescriptor& d) {
                    return sameDescriptor(d, *r.descriptor);
                }))
                found.push_back(std::move(*r.descriptor));
        }
    }
    // By phase, and within a phase as found: the search path's folders in order, each
    // folder's files by name (sorted by the plugins' names instead, a plugin in
    // $PAPERDOLL_PLUGIN_PATH lost its place to the one beside the executable).
    std::stable_sort(found.begin(), found.end(), [](const PluginDescriptor& a, const PluginDescriptor& b) {
        auto rank = [](LoadingPhase p) { return p == LoadingPhase::PreDefault ? 0 : p == LoadingPhase::Default ? 1 : 2; };
        return rank(a.loadingPhase) < rank(b.loadingPhase);
    });
    for (size_t i = 0; i < found.size(); ++i)
        for (size_t j = 0; j < i; ++j)
            if (found[j].name == found[i].name) {
                diagnostics.push_back({Severity::Warning, found[i].path.string(), 0,
                                       "plugin '" + found[i].name + "' is described by " + found[j].path.string() +
                                           " too, which comes first"});
                break;
            }
    return found;
}

}  // namespace paper
