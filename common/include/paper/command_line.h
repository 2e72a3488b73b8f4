// Command-line arguments as every program here reads them.
#pragma once

#include <string>
#include <vector>

namespace paper {

/// An option as typed: "--frames=10" (GNU style) is the name "--frames" with the value "10";
/// "--frames" alone has no value of its own (it takes the next argument, if any).
struct TypedOption {
    std::string name, value;
    bool hasValue = false;
};

inline TypedOption splitOption(const std::string& arg) {
    TypedOption o;
    const size_t eq = arg.starts_with("--") ? arg.find('=') : std::string::npos;
    o.name = arg.substr(0, eq);
    if (eq != std::string::npos) {
        o.value = arg.substr(eq + 1);
        o.hasValue = true;
    }
    return o;
}

/// The value of the option args[i] (split as `typed`): after its '=', else the next argument
/// (i moves past it) unless there is none or it is empty or another option (`--stats-json
/// --headless` forgot the file name). False when there is no value.
inline bool optionValue(const std::vector<std::string>& args, size_t& i, const TypedOption& typed, std::string& out) {
    if (typed.hasValue) {
        out = typed.value;
        return !out.empty();
    }
    if (i + 1 >= args.size() || args[i + 1].empty() || args[i + 1].starts_with("--")) return false;
    out = args[++i];
    return true;
}

}  // namespace paper
