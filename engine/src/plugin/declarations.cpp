// What a plugin declares in its table, copied into engine-owned strings, and the lookups
// tools make over it.
#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "paper/plugin_host.h"

namespace paper {

namespace {

std::string text(const char* s) { return s ? std::string(s) : std::string(); }

/// "Left Shift|Right Shift" → {"Left Shift", "Right Shift"}.
std::vector<std::string> splitKeys(const std::string& keys) {
    std::vector<std::string> out;
    size_t start = 0;
    while (start <= keys.size()) {
        size_t end = keys.find('|', start);
        if (end == std::string::npos) end = keys.size();
        if (end > start) out.push_back(keys.substr(start, end - start));
        start = end + 1;
    }
    return out;
}

}  // namespace

bool matchesPattern(std::string_view pattern, std::string_view name) {
    if (pattern.empty()) return name.empty();
    if (pattern[0] == '*') {
        for (size_t skip = 0; skip <= name.size(); ++skip)
            if (matchesPattern(pattern.substr(1), name.substr(skip))) return true;
        return false;
    }
    return !name.empty() && pattern[0] == name[0] && matchesPattern(pattern.substr(1), name.substr(1));
}

PluginDeclarations readDeclarations(const PaperPluginApi& api) {
    PluginDeclarations d;
    for (int32_t i = 0; i < api.actionCount; ++i)
        d.actions.push_back({text(api.actions[i].name), text(api.actions[i].label), splitKeys(text(api.actions[i].keys))});
    for (int32_t i = 0; i < api.statCount; ++i) {
        const PaperStatDesc& s = api.stats[i];
        d.stats.push_back({text(s.name), text(s.label), text(s.unit), s.displayScale, int(s.flags)});
    }
    for (int32_t i = 0; i < api.kindCount; ++i) {
        const PaperObjectKindDesc& k = api.kinds[i];
        d.kinds.push_back({text(k.name), text(k.label), text(k.statsKey), int(k.ownerKind), int(k.flags)});
    }
    for (int32_t i = 0; i < api.commandCount; ++i) {
        const PaperCommandDesc& c = api.commands[i];
        d.commands.push_back({int(c.kind), text(c.name), text(c.label), text(c.property), int(c.argument), c.minValue, c.maxValue});
    }
    for (int32_t i = 0; i < api.assetTypeCount; ++i) {
        const PaperAssetTypeDesc& a = api.assetTypes[i];
        d.assetTypes.push_back({text(a.name), text(a.label), text(a.pattern)});
    }
    return d;
}

int PluginDeclarations::kindNamed(std::string_view name) const {
    for (size_t i = 0; i < kinds.size(); ++i)
        if (kinds[i].name == name) return int(i);
    return -1;
}

int PluginDeclarations::commandNamed(int kind, std::string_view name) const {
    for (size_t i = 0; i < commands.size(); ++i)
        if (commands[i].kind == kind && commands[i].name == name) return int(i);
    return -1;
}

int PluginDeclarations::actionNamed(std::string_view name) const {
    for (size_t i = 0; i < actions.size(); ++i)
        if (actions[i].name == name) return int(i);
    return -1;
}

int PluginDeclarations::settingsKind() const {
    for (size_t i = 0; i < kinds.size(); ++i)
        if (kinds[i].flags & PAPER_KIND_SETTINGS) return int(i);
    return -1;
}

int PluginDeclarations::assetTypeOf(const std::string& path) const {
    const std::string name = std::filesystem::path(path).filename().string();
    for (size_t i = 0; i < assetTypes.size(); ++i)
        if (matchesPattern(assetTypes[i].pattern, name)) return int(i);
    return -1;
}

std::string propertyText(const PropertyValue& p) {
    char number[64];
    switch (p.type) {
    case PAPER_PROPERTY_STRING: return p.text;
    case PAPER_PROPERTY_BOOL: return p.value != 0.0 ? p.label : "";
    case PAPER_PROPERTY_INT: std::snprintf(number, sizeof number, "%.0f", p.value); break;
    case PAPER_PROPERTY_VEC2: std::snprintf(number, sizeof number, "(%.3g, %.3g)", p.vector.x, p.vector.y); break;
    default: std::snprintf(number, sizeof number, "%.3g", p.value); break;
    }
    return p.label + " " + number + (p.unit.empty() ? "" : " " + p.unit);
}

const PropertyValue* findProperty(const std::vector<PropertyValue>& properties, std::string_view name) {
    auto it = std::find_if(properties.begin(), properties.end(), [&](const PropertyValue& p) { return p.name == name; });
    return it == properties.end() ? nullptr : &*it;
}

bool hasOutline(const std::vector<PropertyValue>& properties) {
    for (const char* name : {"a", "b", "radius", "shape"})
        if (!findProperty(properties, name)) return false;
    return true;
}

}  // namespace paper
