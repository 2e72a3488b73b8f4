#include "paper/library.h"

#include <cxxabi.h>
#include <dlfcn.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>

#include "plugin/crash_guard.h"

namespace paper {

namespace fs = std::filesystem;

namespace {

/// What is wrong with a table's declarations (plugin_api.h), or empty: every array as long
/// as its count says with every name set, at most 64 actions (PaperInput's bits), and every
/// kind a command or an owner names declared.
std::string declarationProblem(const PaperPluginApi& api) {
    auto listed = [](const void* array, int32_t count) { return count >= 0 && (count == 0 || array != nullptr); };
    if (!listed(api.actions, api.actionCount) || !listed(api.stats, api.statCount) || !listed(api.kinds, api.kindCount) ||
        !listed(api.commands, api.commandCount) || !listed(api.assetTypes, api.assetTypeCount))
        return "a list with a negative count or no array";
    if (api.actionCount > 64) return std::to_string(api.actionCount) + " input actions; PaperInput has room for 64";
    for (int32_t i = 0; i < api.actionCount; ++i)
        if (!api.actions[i].name || !api.actions[i].label || !api.actions[i].keys) return "action " + std::to_string(i) + " without a name, label or keys";
    for (int32_t i = 0; i < api.statCount; ++i)
        if (!api.stats[i].name || !api.stats[i].label || !api.stats[i].unit) return "stat " + std::to_string(i) + " without a name, label or unit";
    for (int32_t i = 0; i < api.kindCount; ++i) {
        const PaperObjectKindDesc& k = api.kinds[i];
        if (!k.name || !k.label) return "object kind " + std::to_string(i) + " without a name or label";
        if (k.ownerKind < -1 || k.ownerKind >= api.kindCount) return "object kind '" + std::string(k.name) + "' owned by an undeclared kind";
    }
    for (int32_t i = 0; i < api.commandCount; ++i) {
        const PaperCommandDesc& c = api.commands[i];
        if (!c.name || !c.label) return "command " + std::to_string(i) + " without a name or label";
        if (c.kind < 0 || c.kind >= api.kindCount) return "command '" + std::string(c.name) + "' for an undeclared kind";
    }
    // A name is what scripts, key bindings and --stats-json find a declaration by: one of
    // each (two figures of one name wrote one JSON key, the second over the first).
    auto repeated = [](auto names, int32_t count) -> std::string {
        for (int32_t i = 0; i < count; ++i)
            for (int32_t j = 0; j < i; ++j)
                if (names(i) && names(j) && std::strcmp(names(i), names(j)) == 0) return names(i);
        return {};
    };
    const struct {
        const char* what;
        std::string name;
    } repeats[] = {
        {"action", repeated([&](int32_t i) { return api.actions[i].name; }, api.actionCount)},
        {"figure", repeated([&](int32_t i) { return api.stats[i].name; }, api.statCount)},
        {"object kind", repeated([&](int32_t i) { return api.kinds[i].name; }, api.kindCount)},
        {"stats key", repeated([&](int32_t i) { return api.kinds[i].statsKey; }, api.kindCount)},
        {"asset type", repeated([&](int32_t i) { return api.assetTypes[i].name; }, api.assetTypeCount)},
    };
    for (const auto& r : repeats)
        if (!r.name.empty()) return "two " + std::string(r.what) + "s named '" + r.name + "'";
    for (int32_t i = 0; i < api.actionCount; ++i)
        if (std::strpbrk(api.actions[i].name, " \t") || !*api.actions[i].name)
            return "action '" + std::string(api.actions[i].name) + "', a name scripts cannot write (empty or with a space)";
    for (int32_t i = 0; i < api.kindCount; ++i)
        if (api.kinds[i].ownerKind == i) return "object kind '" + std::string(api.kinds[i].name) + "' owned by itself";
    // One JSON key each: a kind's list must not overwrite a figure in --stats-json.
    for (int32_t i = 0; i < api.kindCount; ++i)
        for (int32_t j = 0; api.kinds[i].statsKey && j < api.statCount; ++j)
            if (std::strcmp(api.kinds[i].statsKey, api.stats[j].name) == 0)
                return "the stats key '" + std::string(api.stats[j].name) + "' twice (a figure and the kind '" +
                       api.kinds[i].name + "')";
    for (int32_t i = 0; i < api.assetTypeCount; ++i)
        if (!api.assetTypes[i].name || !api.assetTypes[i].label || !api.assetTypes[i].pattern)
            return "asset type " + std::to_string(i) + " without a name, label or pattern";
    return {};
}

}  // namespace

namespace {

/// The ELF machine this engine is built for (e_machine).
#if defined(__x86_64__)
constexpr unsigned kOurMachine = 62;
#elif defined(__aarch64__)
constexpr unsigned kOurMachine = 183;
#else
#error "a 64-bit little-endian x86-64 or AArch64 build is what the plugin loader checks libraries against"
#endif

/// A library's machine in words: "x86-64", "32-bit x86", "big-endian 64-bit PowerPC".
std::string machineName(bool sixtyFourBit, bool bigEndian, unsigned machine) {
    std::string name;
    switch (machine) {
    case 3: name = "x86"; break;
    case 8: name = "MIPS"; break;
    case 20: case 21: name = "PowerPC"; break;
    case 40: name = "ARM"; break;
    case 62: name = "x86-64"; break;
    case 183: name = "AArch64"; break;
    case 243: name = "RISC-V"; break;
    default: name = "machine " + std::to_string(machine); break;
    }
    if (!sixtyFourBit) name = "32-bit " + name;
    else if (machine != 62 && machine != 183) name = "64-bit " + name;
    return bigEndian ? "big-endian " + name : name;
}

}  // namespace

bool isCompleteElf(const fs::path& path, std::string& why) {
    std::error_code ec;
    std::uintmax_t size = fs::file_size(path, ec);
    if (ec) {
        why = "cannot read '" + path.string() + "': " + ec.message();
        return false;
    }
    unsigned char header[64] = {};
    std::ifstream file(path, std::ios::binary);
    if (!file) {
        // Said as what it is (a file we may not read), not as a size.
        why = "cannot read '" + path.string() + "': " + std::strerror(errno);
        return false;
    }
    if (size < sizeof header || !file.read(reinterpret_cast<char*>(header), sizeof header)) {
        why = "'" + path.string() + "' is " + std::to_string(size) +
              " bytes, too short to be a shared library (not one, or a build still writing it)";
        return false;
    }
    if (std::memcmp(header, "\x7f" "ELF", 4) != 0) {
        why = "'" + path.string() + "' is not an ELF shared library";
        return false;
    }
    // A library for another machine: dlopen's own words named the private copy, "No such
    // file or directory", for an AArch64 build.
    const bool bigEndian = header[5] == 2;
    const unsigned machine = bigEndian ? unsigned(header[0x12]) << 8 | header[0x13] : unsigned(header[0x13]) << 8 | header[0x12];
    if (header[4] != 2 /* 64-bit */ || bigEndian || machine != kOurMachine) {
        why = "'" + path.string() + "' is a library for " + machineName(header[4] == 2, bigEndian, machine) +
              "; this engine runs on " + machineName(true, false, kOurMachine);
        return false;
    }
    std::uint64_t sectionTable = 0;
    std::uint16_t entrySize = 0, entries = 0;
    std::memcpy(&sectionTable, header + 0x28, sizeof sectionTable);
    std::memcpy(&entrySize, header + 0x3A, sizeof entrySize);
    std::memcpy(&entries, header + 0x3C, sizeof entries);
    if (sectionTable + std::uint64_t(entrySize) * entries > size) {
        why = "'" + path.string() + "' is incomplete (its section table ends past the end of the file)";
        return false;
    }
    return true;
}

int removeAbandonedCopies(const fs::path& parent) {
    int removed = 0;
    std::error_code ec;
    for (fs::directory_iterator it(parent, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        const std::size_t dash = name.rfind('-');
        if (!name.starts_with("paperdoll") || dash == std::string::npos || dash + 1 == name.size() ||
            name.find_first_not_of("0123456789", dash + 1) != std::string::npos)
            continue;
        std::error_code ignored;
        if (!it->is_directory(ignored)) continue;
        const std::string pid = name.substr(dash + 1);
        const long owner = pid.size() <= 9 ? std::stol(pid) : 0;
        if (owner <= 0 || owner == long(getpid()) || ::kill(pid_t(owner), 0) == 0 || errno != ESRCH) continue;
        for (fs::directory_iterator file(it->path(), ignored), last; !ignored && file != last; file.increment(ignored)) {
            const std::string copy = file->path().filename().string();
            if (copy.ends_with(".so") && copy.find("." + pid + ".") != std::string::npos) fs::remove(file->path(), ignored);
        }
        if (fs::remove(it->path(), ignored)) ++removed;  // only when that emptied it
    }
    return removed;
}

namespace {
std::atomic<bool> gAbandonedLibrary{false};
}

int finishProcess(int code) {
    if (!gAbandonedLibrary) return code;
    std::fflush(nullptr);
    std::_Exit(code);
}

namespace {

/// The loader's message with each C++ symbol it names (`_ZN6shapes…Ev`) written as the
/// code spells it, the mangled name after it: "undefined symbol: shapes::missing()
/// (_ZN6shapes7missingEv)".
std::string readableSymbols(const std::string& text) {
    std::string out;
    std::size_t from = 0;
    for (std::size_t at; (at = text.find("_Z", from)) != std::string::npos;) {
        const bool wordStart = at == 0 || text[at - 1] == ' ' || text[at - 1] == ':';
        const std::size_t end = std::min(text.find_first_of(" \t\n,;()", at), text.size());
        out.append(text, from, at - from);
        const std::string mangled = text.substr(at, end - at);
        int status = -1;
        char* name = wordStart ? abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status) : nullptr;
        out += status == 0 && name ? std::string(name) + " (" + mangled + ")" : mangled;
        std::free(name);
        from = end;
    }
    return out + text.substr(from);
}

}  // namespace

std::string uniqueSymbolIn(std::string_view elf) {
    constexpr std::uint32_t kDynamicSymbols = 11;  // SHT_DYNSYM
    constexpr unsigned kGnuUnique = 10;            // STB_GNU_UNIQUE
    auto read = [&](std::uint64_t at, auto& value) {
        if (at > elf.size() || elf.size() - at < sizeof value) return false;
        std::memcpy(&value, elf.data() + at, sizeof value);
        return true;
    };
    if (!elf.starts_with("\x7f" "ELF") || elf.size() < 6 || elf[4] != 2 /* 64-bit */ || elf[5] != 1 /* little endian */)
        return {};
    std::uint64_t sections = 0;
    std::uint16_t sectionSize = 0, sectionCount = 0;
    if (!read(0x28, sections) || !read(0x3A, sectionSize) || !read(0x3C, sectionCount) || sectionSize < 64) return {};
    for (std::uint16_t s = 0; s < sectionCount; ++s) {
        const std::uint64_t header = sections + std::uint64_t(s) * sectionSize;
        std::uint32_t type = 0, link = 0;
        std::uint64_t offset = 0, size = 0, stringsOffset = 0;
        if (!read(header + 4, type) || type != kDynamicSymbols || !read(header + 0x18, offset) || !read(header + 0x20, size) ||
            !read(header + 0x28, link) || !read(sections + std::uint64_t(link) * sectionSize + 0x18, stringsOffset))
            continue;
        for (std::uint64_t symbol = offset; symbol + 24 <= offset + size; symbol += 24) {
            std::uint32_t name = 0;
            std::uint8_t info = 0;
            std::uint16_t sectionIndex = 0;
            if (!read(symbol, name) || !read(symbol + 4, info) || !read(symbol + 6, sectionIndex)) break;
            if ((info >> 4) != kGnuUnique || sectionIndex == 0 || stringsOffset >= elf.size() ||
                name >= elf.size() - stringsOffset)
                continue;
            const std::string_view rest = elf.substr(stringsOffset + name);
            return std::string(rest.substr(0, rest.find('\0')));
        }
    }
    return {};
}

std::unique_ptr<PluginLibrary> PluginLibrary::open(const fs::path& source, const fs::path& copyFolder, std::string& error) {
    if (!isCompleteElf(source, error)) return nullptr;
    // Unique per process and load, so dlopen never hands back an old mapping.
    static std::atomic<unsigned> counter{0};
    std::error_code ec;
    fs::create_directories(copyFolder, ec);
    fs::path copy = copyFolder / (source.stem().string() + "." + std::to_string(getpid()) + "." +
                                  std::to_string(counter++) + ".so");
    if (!fs::copy_file(source, copy, fs::copy_options::overwrite_existing, ec)) {
        error = "cannot copy '" + source.string() + "' to '" + copy.string() + "': " + ec.message();
        return nullptr;
    }
    std::unique_ptr<PluginLibrary> library(new PluginLibrary());
    library->source_ = source;
    library->copy_ = copy;  // from here on, the destructor cleans up
    {
        std::ifstream file(source, std::ios::binary);
        const std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
        if (const std::string symbol = uniqueSymbolIn(bytes); !symbol.empty()) library->uniqueSymbol_ = readableSymbols(symbol);
    }

    // Loading runs the library's own start-up code (its global constructors): a crash
    // there is a crash of the plugin, refused like any other, the running one kept. The
    // half-loaded library is never unloaded (the loader may be mid-way through it): a
    // crashed plugin's memory is leaked, as after any crash (crash_guard.h).
    void* handle = nullptr;
    if (const int signal = callGuarded([&] { handle = dlopen(copy.c_str(), RTLD_NOW | RTLD_LOCAL); })) {
        error = "'" + source.string() + "' crashed while loading, in its start-up code (" + describeSignal(signal) +
                "): a global constructor of the plugin, most likely";
        library->abandoned_ = true;
        gAbandonedLibrary = true;
        return nullptr;
    }
    library->handle_ = handle;
    if (!library->handle_) {
        const char* why = dlerror();
        error = "cannot load '" + source.string() + "': " + (why ? readableSymbols(why) : "dlopen failed");
        return nullptr;
    }
    dlerror();
    auto entry = reinterpret_cast<PaperGetPluginApiFn>(dlsym(library->handle_, PAPER_PLUGIN_ENTRY_SYMBOL));
    if (!entry) {
        error = "'" + source.string() + "' does not export the entry symbol '" PAPER_PLUGIN_ENTRY_SYMBOL "'";
        return nullptr;
    }
    const PaperPluginApi* api = nullptr;
    if (const int signal = callGuarded([&] { api = entry(PAPER_PLUGIN_ABI_VERSION); })) {
        error = "'" + source.string() + "' crashed in " PAPER_PLUGIN_ENTRY_SYMBOL " (" + describeSignal(signal) + ")";
        library->abandoned_ = true;
        gAbandonedLibrary = true;
        return nullptr;
    }
    if (!api) {
        error = "'" + source.string() + "' has no table for the engine's ABI version " +
                std::to_string(PAPER_PLUGIN_ABI_VERSION);
        return nullptr;
    }
    if (api->abiVersion != PAPER_PLUGIN_ABI_VERSION || api->structSize != sizeof(PaperPluginApi)) {
        error = "ABI mismatch: the engine speaks version " + std::to_string(PAPER_PLUGIN_ABI_VERSION) + " (table " +
                std::to_string(sizeof(PaperPluginApi)) + " bytes), '" + source.string() + "' version " +
                std::to_string(api->abiVersion) + " (table " + std::to_string(api->structSize) +
                " bytes); rebuild the plugin against this engine";
        return nullptr;
    }
    // Every required entry of the table, named when it is missing (plugin_api.h's list).
    const char* missing = nullptr;
#define PAPER_CHECK_FUNCTION(required, returns, name, parameters) \
    if (required && !missing && !api->name) missing = #name;
    PAPER_PLUGIN_FUNCTIONS(PAPER_CHECK_FUNCTION)
#undef PAPER_CHECK_FUNCTION
    if (missing) {
        error = "'" + source.string() + "' has an incomplete function table: its '" + missing + "' is null";
        return nullptr;
    }
    if ((api->commandlets == nullptr) != (api->runCommand == nullptr)) {
        error = "'" + source.string() + "' lists commandlets without a runCommand function, or the other way round";
        return nullptr;
    }
    if (std::string why = declarationProblem(*api); !why.empty()) {
        error = "'" + source.string() + "' declares " + why;
        return nullptr;
    }
    if (!api->name || !api->version) {
        error = "'" + source.string() + "' does not say its name and version";
        return nullptr;
    }
    library->api_ = api;
    return library;
}

void PluginLibrary::abandon() {
    abandoned_ = true;
    gAbandonedLibrary = true;
}

PluginLibrary::~PluginLibrary() {
    if (handle_ && !abandoned_) dlclose(handle_);
    std::error_code ec;
    if (!copy_.empty()) fs::remove(copy_, ec);
}

}  // namespace paper
