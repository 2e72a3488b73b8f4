// A small Spine figure written by the tests themselves (JSON, atlas and page PNG): a helper
// root and hip, a torso, a head, two arms bent 10 degrees at the elbow, two straight legs,
// each a region attachment. Tests change the JSON (a mesh, animations, typos; keys kept in the order Spine writes them) before
// writing it, and find lines in the written text.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "test_png.h"

namespace spinetest {

/// The figure's skeleton: bones, slots, the default skin; no animations.
inline nlohmann::ordered_json botSkeleton() {
    using json = nlohmann::ordered_json;
    json bot;
    bot["skeleton"] = {{"spine", "4.1.24"}};
    bot["bones"] = json::array({
        {{"name", "root"}},
        {{"name", "hip"}, {"parent", "root"}, {"y", 95}},
        {{"name", "torso"}, {"parent", "hip"}, {"length", 55}, {"rotation", 90}},
        {{"name", "head"}, {"parent", "torso"}, {"length", 28}, {"x", 55}},
        {{"name", "upper_arm_l"}, {"parent", "torso"}, {"length", 30}, {"x", 50}, {"rotation", 180}},
        {{"name", "forearm_l"}, {"parent", "upper_arm_l"}, {"length", 28}, {"x", 30}, {"rotation", 10}},
        {{"name", "upper_arm_r"}, {"parent", "torso"}, {"length", 30}, {"x", 50}, {"rotation", 180}},
        {{"name", "forearm_r"}, {"parent", "upper_arm_r"}, {"length", 28}, {"x", 30}, {"rotation", 10}},
        {{"name", "thigh_l"}, {"parent", "hip"}, {"length", 48}, {"rotation", -90}},
        {{"name", "shin_l"}, {"parent", "thigh_l"}, {"length", 44}, {"x", 48}},
        {{"name", "thigh_r"}, {"parent", "hip"}, {"length", 48}, {"rotation", -90}},
        {{"name", "shin_r"}, {"parent", "thigh_r"}, {"length", 44}, {"x", 48}},
    });
    bot["slots"] = json::array({
        {{"name", "arm_l"}, {"bone", "upper_arm_l"}, {"attachment", "limb"}},
        {{"name", "farm_l"}, {"bone", "forearm_l"}, {"attachment", "limb"}},
        {{"name", "arm_r"}, {"bone", "upper_arm_r"}, {"attachment", "limb"}},
        {{"name", "farm_r"}, {"bone", "forearm_r"}, {"attachment", "limb"}},
        {{"name", "leg_l"}, {"bone", "thigh_l"}, {"attachment", "limb"}},
        {{"name", "sh_l"}, {"bone", "shin_l"}, {"attachment", "limb"}},
        {{"name", "leg_r"}, {"bone", "thigh_r"}, {"attachment", "limb"}},
        {{"name", "sh_r"}, {"bone", "shin_r"}, {"attachment", "limb"}},
        {{"name", "torso"}, {"bone", "torso"}, {"attachment", "torso"}},
        {{"name", "head"}, {"bone", "head"}, {"attachment", "head"}},
    });
    json attachments = {
        {"arm_l", {{"limb", {{"x", 15}, {"width", 32}, {"height", 9}}}}},
        {"farm_l", {{"limb", {{"x", 14}, {"width", 30}, {"height", 8}}}}},
        {"arm_r", {{"limb", {{"x", 15}, {"width", 32}, {"height", 9}}}}},
        {"farm_r", {{"limb", {{"x", 14}, {"width", 30}, {"height", 8}}}}},
        {"leg_l", {{"limb", {{"x", 24}, {"width", 50}, {"height", 12}}}}},
        {"sh_l", {{"limb", {{"x", 22}, {"width", 46}, {"height", 10}}}}},
        {"leg_r", {{"limb", {{"x", 24}, {"width", 50}, {"height", 12}}}}},
        {"sh_r", {{"limb", {{"x", 22}, {"width", 46}, {"height", 10}}}}},
        {"torso", {{"torso", {{"x", 27.5}, {"rotation", -90}, {"width", 22}, {"height", 60}}}}},
        {"head", {{"head", {{"x", 14}, {"rotation", -90}, {"width", 28}, {"height", 28}}}}},
    };
    bot["skins"] = json::array({{{"name", "default"}, {"attachments", attachments}}});
    return bot;
}

/// The right arm as one mesh on slot arm_r (bone upper_arm_r) instead of two regions: six
/// vertices along the arm, the shoulder's two all on upper_arm_r (bone 6), the elbow's two
/// half on it and half on forearm_r (bone 7), the hand's two all on forearm_r. The forearm
/// keeps no region of its own.
inline void giveBotArmMesh(nlohmann::ordered_json& bot) {
    using json = nlohmann::ordered_json;
    json& slots = bot["slots"];
    for (size_t i = 0; i < slots.size(); ++i)
        if (slots[i]["name"] == "farm_r") {
            slots.erase(i);
            break;
        }
    for (json& slot : slots)
        if (slot["name"] == "arm_r") slot["attachment"] = "armmesh";
    json& skin = bot["skins"][0]["attachments"];
    skin.erase("farm_r");
    skin["arm_r"] = {{"armmesh",
                      {{"type", "mesh"},
                       {"uvs", {0, 0, 0, 1, 0.5, 0, 0.5, 1, 1, 0, 1, 1}},
                       {"triangles", {0, 1, 2, 2, 1, 3, 2, 3, 4, 4, 3, 5}},
                       {"vertices", {1, 6, 0, 5, 1,                    //
                                     1, 6, 0, -5, 1,                   //
                                     2, 6, 30, 5, 0.5, 7, 0, 5, 0.5,   //
                                     2, 6, 30, -5, 0.5, 7, 0, -5, 0.5, //
                                     1, 7, 28, 5, 1,                   //
                                     1, 7, 28, -5, 1}},
                       {"hull", 6},
                       {"width", 58},
                       {"height", 10}}}};
}

/// The figure's JSON text as written: two-space indents, one key or array item a line.
inline std::string botText(const nlohmann::ordered_json& bot) { return bot.dump(2); }

/// The 1-based line of the first occurrence of `text` at or after the first of `after`.
inline int lineOf(const std::string& file, const std::string& text, const std::string& after = "") {
    const size_t from = after.empty() ? 0 : file.find(after);
    const size_t at = from == std::string::npos ? std::string::npos : file.find(text, from);
    if (at == std::string::npos) return -1;
    int line = 1;
    for (size_t i = 0; i < at; ++i) line += file[i] == '\n';
    return line;
}

/// Writes NAME.json (the figure), NAME.atlas and bot.png (grey, 256 x 128) into folder;
/// returns the JSON's path.
inline std::filesystem::path writeBot(const std::filesystem::path& folder, const nlohmann::ordered_json& bot,
                                      const std::string& name = "bot") {
    std::ofstream(folder / (name + ".json"), std::ios::binary) << botText(bot);
    std::ofstream(folder / (name + ".atlas"), std::ios::binary) << "bot.png\n"
                                                                   "size: 256,128\n"
                                                                   "filter: Linear,Linear\n"
                                                                   "torso\n  bounds: 0,0,32,64\n"
                                                                   "head\n  bounds: 96,0,32,32\n"
                                                                   "limb\n  bounds: 32,0,64,16\n"
                                                                   "armmesh\n  bounds: 32,64,128,16\n";
    testpng::writeGrey(folder / "bot.png", 256, 128);
    return folder / (name + ".json");
}

}  // namespace spinetest
