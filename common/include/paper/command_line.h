// Command-line arguments as every program here reads them.
#pragma once

#include <string>

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

}  // namespace paper
