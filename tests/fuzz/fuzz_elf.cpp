// The plugin host's scan of a library's dynamic symbols (paper::uniqueSymbolIn) on arbitrary
// bytes: every library a user brings with --plugin or in a plugins folder is read by it
// before it is loaded. It must never read outside the bytes; a symbol it names is one the
// bytes hold. Taken: an input in which it finds a STB_GNU_UNIQUE symbol
// (corpus/elf/unique.so, which tests/fuzz/make_elf_corpus.py writes).
#include <string>
#include <string_view>

#include "fuzz_target.h"
#include "paper/library.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    const std::string symbol = paper::uniqueSymbolIn(bytes);
    if (symbol.empty()) return 0;
    gFuzzInputTaken = true;
    // The mangled name it demangles is in the bytes (the readable one, when demangled, keeps
    // the mangled name in brackets after it).
    const std::size_t open = symbol.rfind(" (");
    const std::string mangled = open == std::string::npos ? symbol : symbol.substr(open + 2, symbol.size() - open - 3);
    FUZZ_CHECK(bytes.find(mangled) != std::string_view::npos);
    return 0;
}
