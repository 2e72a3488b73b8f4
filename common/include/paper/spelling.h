// Names a user typed, and the names they most likely meant: for "did you mean" hints.
#pragma once

#include <algorithm>
#include <filesystem>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace paper {

/// How many letters to add, drop, change or swap with the next to make one word the other
/// (the optimal string alignment distance: 'wlak' is one from 'walk', 'haed' one from 'head').
inline size_t editDistance(std::string_view a, std::string_view b) {
    std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
    for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
    for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
    for (size_t i = 1; i <= a.size(); ++i)
        for (size_t j = 1; j <= b.size(); ++j) {
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[a.size()][b.size()];
}

/// Whether `typed` is a slip away from `meant`: one in a name of up to 5 letters, two in a
/// longer one ('get_up_frnot'), so 'wave' is no 'daze'.
inline bool isSlipOf(std::string_view typed, std::string_view meant) {
    return typed != meant && editDistance(typed, meant) <= (meant.size() > 5 ? 2u : 1u);
}

/// "; did you mean 'NAME'?" for the name in `names` nearest to what was typed, when one is a
/// slip away ('--frame' for '--frames', 'chek' for 'check'); else "".
template <typename Names>
std::string didYouMean(std::string_view typed, const Names& names) {
    std::string_view nearest;
    for (std::string_view name : names)
        if (isSlipOf(typed, name) && (nearest.empty() || editDistance(typed, name) < editDistance(typed, nearest)))
            nearest = name;
    return nearest.empty() ? "" : "; did you mean '" + std::string(nearest) + "'?";
}
inline std::string didYouMean(std::string_view typed, std::initializer_list<std::string_view> names) {
    return didYouMean<std::initializer_list<std::string_view>>(typed, names);
}

/// For a file that was not found, what the user most likely meant: "; did you mean
/// 'walk.anim.xml'?" when its folder holds a file a slip away from the name typed
/// ('wlk.anim.xml'), "; the folder 'my/animz' does not exist" when the folder is missing,
/// else "". Reads the folder once, at most its first 10,000 entries.
inline std::string didYouMeanFile(const std::string& path) {
    namespace fs = std::filesystem;
    const fs::path missing(path);
    const fs::path folder = missing.has_parent_path() ? missing.parent_path() : fs::path(".");
    std::error_code error;
    if (!fs::is_directory(folder, error)) {
        if (fs::exists(folder, error)) return "; '" + folder.string() + "' is not a folder";
        return "; the folder '" + folder.string() + "' does not exist";
    }
    const std::string typed = missing.filename().string();
    std::string nearest;
    size_t best = 0;
    int looked = 0;
    for (fs::directory_iterator it(folder, error), end; !error && it != end && looked < 10000; it.increment(error), ++looked) {
        const std::string name = it->path().filename().string();
        if (!isSlipOf(typed, name) || !it->is_regular_file(error)) continue;
        const size_t d = editDistance(typed, name);
        if (nearest.empty() || d < best || (d == best && name < nearest)) {
            nearest = name;
            best = d;
        }
    }
    return nearest.empty() ? "" : "; did you mean '" + nearest + "'?";
}

}  // namespace paper
