#include "module/declarations.h"

#include <iterator>

#include "scene/scene_input.h"

namespace ragdoll {

// In Action's order: bit i of the engine's PaperInput is Action(i), so the glue copies the masks.
const PaperActionDesc kActions[] = {
    {"walk_left", "walk left", "Left"},
    {"walk_right", "walk right", "Right"},
    {"run", "run", "Left Shift|Right Shift"},
    {"jump", "jump", "Space"},
    {"toggle_ragdoll", "ragdoll", "R"},
    {"hit_left", "hit from the left", "1"},
    {"hit_right", "hit from the right", "2"},
    {"hit_above", "hit from above", "3"},
    {"blend_down", "blend down", "B"},
    {"blend_up", "blend up", "N"},
    {"get_up", "get up", "G"},
    {"net_role", "net role", "Tab"},
};
const std::int32_t kActionCount = std::int32_t(std::size(kActions));
static_assert(std::size(kActions) == std::size_t(Action::Count), "declare every Action, in order");

const PaperStatDesc kStats[kStatCount] = {
    {"bodies", "bodies", "", 1.0, PAPER_STAT_INTEGER | PAPER_STAT_HUD},
    {"joints", "joints", "", 1.0, PAPER_STAT_INTEGER},
    // Found for awake bodies only: a sleeping island keeps none, so a doll lying asleep reads 0.
    {"contacts", "awake contacts", "", 1.0, PAPER_STAT_INTEGER | PAPER_STAT_HUD},
    {"awake_bodies", "awake", "", 1.0, PAPER_STAT_INTEGER | PAPER_STAT_HUD},
    // The plugin's whole step: the world's and the characters' work around it.
    {"step_ms", "step time", "ms", 1.0, PAPER_STAT_HUD | PAPER_STAT_PLOT},
    // The characters' joints (the mouse's soft grab joint stretches on purpose).
    {"max_stretch_m", "stretch", "mm", 1000.0, PAPER_STAT_HUD | PAPER_STAT_PLOT},
    {"max_limit_violation_deg", "limit error", "\xC2\xB0", 1.0, PAPER_STAT_HUD | PAPER_STAT_PLOT},
    // The largest since the level was loaded.
    {"run_max_stretch_m", "max stretch", "mm", 1000.0, PAPER_STAT_HUD},
    {"run_max_limit_violation_deg", "max limit error", "\xC2\xB0", 1.0, PAPER_STAT_HUD},
    // How deep any drawn part reaches into terrain or props.
    {"max_visual_depth_m", "drawn depth", "mm", 1000.0, 0},
    {"run_max_visual_depth_m", "max drawn depth", "mm", 1000.0, 0},
    // The last step's time by stage (the solver's WorldStats::profile, then the characters').
    {"step_collide_ms", "collide", "ms", 1.0, 0},
    {"step_integrate_ms", "integrate", "ms", 1.0, 0},
    {"step_body_contacts_ms", "body contacts", "ms", 1.0, 0},
    {"step_joint_trees_ms", "joint trees", "ms", 1.0, 0},
    {"step_tree_contacts_ms", "tree contacts", "ms", 1.0, 0},
    {"step_velocities_ms", "velocities", "ms", 1.0, 0},
    {"step_finish_ms", "finish", "ms", 1.0, 0},
    {"step_characters_ms", "characters", "ms", 1.0, 0},
};

const PaperObjectKindDesc kKinds[kKindCount] = {
    {"settings", "Settings", nullptr, -1, PAPER_KIND_SETTINGS},
    {"character", "Character", "characters", -1, 0},
    {"joint", "Joint", nullptr, kCharacter, 0},
    {"body", "Body", nullptr, kCharacter, 0},
    {"prop", "Prop", "props", -1, 0},
};

const PaperCommandDesc kCommands[kCommandCount] = {
    {kCharacter, "blend_weight", "Blend weight", PAPER_ARGUMENT_FLOAT, 0.0, 1.0, "blend_weight"},
    {kCharacter, "toggle_ragdoll", "Ragdoll", PAPER_ARGUMENT_NONE, 0.0, 0.0, nullptr},
    {kCharacter, "hit_left", "Hit from left", PAPER_ARGUMENT_NONE, 0.0, 0.0, nullptr},
    {kCharacter, "hit_right", "right", PAPER_ARGUMENT_NONE, 0.0, 0.0, nullptr},
    {kCharacter, "hit_above", "above", PAPER_ARGUMENT_NONE, 0.0, 0.0, nullptr},
    {kCharacter, "get_up", "Get up", PAPER_ARGUMENT_NONE, 0.0, 0.0, nullptr},
};

const PaperAssetTypeDesc kAssetTypes[1] = {{"rig", "Rig", "*.rig.xml"}};

}  // namespace ragdoll
