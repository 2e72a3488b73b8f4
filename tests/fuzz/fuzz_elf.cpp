// The plugin host's scan of a library's dynamic symbols (paper::uniqueSymbolIn) on arbitrary
// bytes: every library a user brings with --plugin or in a plugins folder is read by it
// before it is loaded. It must never read outside the bytes; a symbol it names is one the
// bytes hold, whole. Taken: an input in which it finds a STB_GNU_UNIQUE symbol
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
    // A name the bytes hold, whole: up to a NUL or their end.
    FUZZ_CHECK(symbol.find('\0') == std::string::npos);
    FUZZ_CHECK(bytes.find(symbol) != std::string_view::npos);
    return 0;
}
