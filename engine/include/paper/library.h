// A plugin's shared library, loaded from a private copy so a rebuilt file never collides
// with the loaded one (dlopen caches by path, and the linker rewrites the file in place).
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include "paper/plugin_api.h"

namespace paper {

/// True when the file is a complete ELF shared object: the magic bytes, and a section
/// header table that ends inside the file (a linker still writing fails this).
bool isCompleteElf(const std::filesystem::path& path, std::string& why);

/// Removes what hosts killed before closing their libraries left in `parent` (the temp
/// folder): in each folder named as a host names its own ("paperdoll…-<pid>") whose process
/// is gone, the library copies (`<stem>.<pid>.<n>.so`, tens of MB each), then the folder if
/// that emptied it. Anything else is left. Returns how many folders went.
int removeAbandonedCopies(const std::filesystem::path& parent);

/// Ends main with code. A library that crashed while loading stays half-loaded (never
/// unloaded), and the C library would run its finalizers at exit — code of a crashed plugin
/// run again, killing the process after it had reported and survived the crash — so when
/// one did, the process ends here (streams flushed) without them; else code is returned.
int finishProcess(int code);

/// The name (as linked, mangled) of the first symbol an ELF file's (64-bit, little-endian)
/// dynamic symbol table binds STB_GNU_UNIQUE; empty when there is none or the bytes are no
/// such file. What PluginLibrary::uniqueSymbol reports, demangled.
std::string uniqueSymbolIn(std::string_view elf);

class PluginLibrary {
public:
    /// Copies `source` into `copyFolder` under a unique name, dlopens the copy, finds the
    /// entry symbol and checks the ABI version, the table's size and its functions.
    /// Returns null with the reason on any failure, leaving nothing behind.
    static std::unique_ptr<PluginLibrary> open(const std::filesystem::path& source,
                                               const std::filesystem::path& copyFolder, std::string& error);
    ~PluginLibrary();
    PluginLibrary(const PluginLibrary&) = delete;
    PluginLibrary& operator=(const PluginLibrary&) = delete;

    const PaperPluginApi& api() const { return *api_; }
    const std::filesystem::path& source() const { return source_; }
    const std::filesystem::path& copy() const { return copy_; }
    /// A symbol the library defines with STB_GNU_UNIQUE binding (as the code spells it), or
    /// empty: glibc never unloads such a library, so a rebuild reloaded over it keeps the
    /// old one's statics (the host warns; plugin README, "What a reload needs").
    const std::string& uniqueSymbol() const { return uniqueSymbol_; }
    /// Its code crashed (an instance's call): never unloaded, and the process ends without
    /// running finalizers (finishProcess), whose code may find the statics the crash left
    /// half-made (a rolled-back plugin's unload at exit killed the player, exit 139).
    void abandon();

private:
    PluginLibrary() = default;
    void* handle_ = nullptr;
    bool abandoned_ = false;  ///< crashed (while loading, or an instance): never dlclose'd
    const PaperPluginApi* api_ = nullptr;
    std::filesystem::path source_, copy_;
    std::string uniqueSymbol_;
};

}  // namespace paper
