// Where the shipped content/ folder is, so `paperdoll` works from any directory.
#pragma once

#include <filesystem>
#include <optional>

namespace paper {

/// $PAPERDOLL_CONTENT if set, else ./content, else the first content/ folder found
/// walking up from the executable's directory. Each candidate must hold levels/.
std::optional<std::filesystem::path> findContentDir();

}  // namespace paper
