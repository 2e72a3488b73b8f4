// Runs a fuzz target over files and folders of inputs once each (the ctest corpus replay,
// for builds without libFuzzer). Arguments starting with '-' are libFuzzer's and ignored,
// so the same command line works for both builds, except -must_take=FOLDER: every input
// under FOLDER must be taken by the target (gFuzzInputTaken), or the replay fails naming it.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz_target.h"

namespace fs = std::filesystem;

int main(int argc, char** argv) {
    std::vector<fs::path> inputs, mustTake;
    const std::string mustTakeFlag = "-must_take=";
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg.rfind(mustTakeFlag, 0) == 0) {
            mustTake.push_back(fs::weakly_canonical(arg.substr(mustTakeFlag.size())));
            continue;
        }
        if (arg.rfind('-', 0) == 0) continue;
        std::error_code ec;
        if (fs::is_directory(arg, ec)) {
            for (const fs::directory_entry& e : fs::recursive_directory_iterator(arg))
                if (e.is_regular_file()) inputs.push_back(e.path());
        } else if (fs::is_regular_file(arg, ec)) {
            inputs.push_back(arg);
        } else {
            std::fprintf(stderr, "%s: no such file or folder\n", arg.c_str());
            return 2;
        }
    }
    if (inputs.empty()) {
        std::fprintf(stderr, "usage: %s FILE|FOLDER...  (runs each input once)\n", argv[0]);
        return 2;
    }
    std::sort(inputs.begin(), inputs.end());
    auto under = [](const fs::path& path, const fs::path& folder) {
        const fs::path relative = fs::weakly_canonical(path).lexically_relative(folder);
        return !relative.empty() && *relative.begin() != "..";
    };
    int taken = 0, refusedThatMustNot = 0;
    for (const fs::path& path : inputs) {
        std::ifstream in(path, std::ios::binary);
        const std::vector<char> bytes{std::istreambuf_iterator<char>(in), {}};
        gFuzzInputTaken = false;
        LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
        taken += gFuzzInputTaken;
        if (!gFuzzInputTaken && std::any_of(mustTake.begin(), mustTake.end(), [&](const fs::path& f) { return under(path, f); })) {
            std::fprintf(stderr, "%s: refused, but every input in its folder must be taken\n", path.string().c_str());
            ++refusedThatMustNot;
        }
    }
    std::printf("%zu inputs ran without a finding: %d taken, %zu refused\n", inputs.size(), taken, inputs.size() - size_t(taken));
    return refusedThatMustNot == 0 ? 0 : 1;
}
