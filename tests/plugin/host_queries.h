// A plugin as tests read it through the engine's host: by the names it declares (figures,
// kinds, objects, properties), as the player and the editor do.
#pragma once

#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "paper/library.h"
#include "paper/plugin_host.h"

namespace test {

/// The ragdoll plugin as the build puts it beside the player.
inline paper::PluginDescriptor ragdollDescriptor() {
    paper::DescriptorResult d = paper::loadPluginDescriptor(std::filesystem::path(RAGDOLL_PLUGIN_DIR) / "ragdoll.plugin");
    REQUIRE(d.descriptor);
    return *d.descriptor;
}

/// The figure called name from the last step.
inline double statOf(paper::PluginHost& host, const std::string& name) {
    const std::vector<paper::PluginDeclarations::Stat>& stats = host.declarations().stats;
    const std::vector<double> values = host.stats();
    for (size_t i = 0; i < stats.size(); ++i)
        if (stats[i].name == name) return i < values.size() ? values[i] : std::nan("");
    FAIL("no stat " << name);
    return 0.0;
}

inline int kindOf(paper::PluginHost& host, const char* name) {
    const int kind = host.declarations().kindNamed(name);
    REQUIRE(kind >= 0);
    return kind;
}

/// The object of that kind and name (the first), or a failed test.
inline paper::ObjectEntry objectOf(paper::PluginHost& host, const char* kind, const std::string& name) {
    for (const paper::ObjectEntry& o : host.objects(kindOf(host, kind)))
        if (o.name == name) return o;
    FAIL("no " << kind << " " << name);
    return {};
}

inline paper::PropertyValue propertyOf(paper::PluginHost& host, const char* kind, std::uint64_t handle, const char* name) {
    const std::vector<paper::PropertyValue> all = host.properties(kindOf(host, kind), handle);
    const paper::PropertyValue* p = paper::findProperty(all, name);
    if (!p) FAIL("no property " << name);
    return p ? *p : paper::PropertyValue{};
}

inline double valueOf(paper::PluginHost& host, const char* kind, std::uint64_t handle, const char* name) {
    return propertyOf(host, kind, handle, name).value;
}

}  // namespace test
