// The plugin descriptor reader on arbitrary bytes: refused with a reason, or a descriptor
// whose required fields are there and whose library cannot name a file outside the
// descriptor's folder. This is every *.plugin a user brings: the player's and the editor's
// --plugin, and every descriptor in the folders they search (paper/descriptor.h).
#include <string_view>

#include "fuzz_target.h"
#include "paper/descriptor.h"

using namespace paper;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const std::filesystem::path path = "plugins/fuzz.plugin";
    const DescriptorResult loaded = loadPluginDescriptorFromText({reinterpret_cast<const char*>(data), size}, path);
    if (!loaded.descriptor) {
        FUZZ_CHECK(hasErrors(loaded.diagnostics));
        return 0;
    }
    gFuzzInputTaken = true;
    FUZZ_CHECK(!hasErrors(loaded.diagnostics));
    const PluginDescriptor& d = *loaded.descriptor;
    FUZZ_CHECK(!d.name.empty() && !d.version.empty() && !d.library.empty() && d.abiVersion > 0);
    FUZZ_CHECK(!d.friendlyName.empty());
    FUZZ_CHECK(d.libraryPath().parent_path() == path.parent_path());
    FUZZ_CHECK(d.libraryPath().filename() == "lib" + d.library + ".so");
    return 0;
}
