// Command-line arguments as every program here reads them.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
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

/// args[i] read as an option: its name, and its value when the option asks for one — after
/// its '=', else the next argument (i moves past it) unless there is none or it is empty or
/// another option (`--stats-json --headless` forgot the file name).
class OptionArgument {
public:
    OptionArgument(const std::vector<std::string>& args, size_t& i) : args_(args), i_(i), typed_(splitOption(args[i])) {}
    const std::string& name() const { return typed_.name; }
    /// False when there is no value.
    bool value(std::string& out) {
        asked_ = true;
        if (typed_.hasValue) {
            out = typed_.value;
            return !out.empty();
        }
        if (i_ + 1 >= args_.size() || args_[i_ + 1].empty() || args_[i_ + 1].starts_with("--")) return false;
        out = args_[++i_];
        return true;
    }
    /// "--headless takes no value, got '--headless=1'" for a value the option never asked
    /// for, else empty.
    std::string unusedValue() const {
        return typed_.hasValue && !asked_ ? typed_.name + " takes no value, got '" + args_[i_] + "'" : std::string();
    }

private:
    const std::vector<std::string>& args_;
    size_t& i_;
    TypedOption typed_;
    bool asked_ = false;
};

/// The arguments of a command line as typed, each under its option's name (a value after its
/// option goes with it): an option that answers alone (--version) names the first one it
/// would otherwise ignore without a word (`--version extra`).
class TypedArguments {
public:
    void add(const std::string& name, const std::string& typed) { seen_.emplace_back(name, typed); }
    /// The first argument, as typed, whose option is not one of `allowed`; empty when none.
    std::string firstBesides(std::initializer_list<std::string_view> allowed) const {
        for (const auto& [name, typed] : seen_) {
            bool isAllowed = false;
            for (std::string_view a : allowed) isAllowed = isAllowed || name == a;
            if (!isAllowed) return typed;
        }
        return {};
    }

private:
    std::vector<std::pair<std::string, std::string>> seen_;  ///< (name, as typed), in order
};

}  // namespace paper
