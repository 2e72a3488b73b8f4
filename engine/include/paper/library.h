// A plugin's shared library, loaded from a private copy so a rebuilt file never collides
// with the loaded one (dlopen caches by path, and the linker rewrites the file in place).
#pragma once

#include <filesystem>
#include <memory>
#include <string>

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

private:
    PluginLibrary() = default;
    void* handle_ = nullptr;
    const PaperPluginApi* api_ = nullptr;
    std::filesystem::path source_, copy_;
};

}  // namespace paper
