// Paths looked at before a program acts on them: whether two paths name one file (a command
// that reads some files and writes others must not write over what it reads), where a file
// another file names is, which file a write through symbolic links edits, and whether a
// file can be written where it is asked for (said before a run, not after it).
#pragma once

#include <algorithm>
#include <cctype>
#include <iterator>
#include <filesystem>
#include <initializer_list>
#include <string>
#include <system_error>
#include <vector>

#include "paper/spelling.h"

namespace paper {

/// True when a and b are one file (through links, "..", or another spelling), or, while b
/// does not exist yet, when both spell the same place.
inline bool sameFile(const std::string& a, const std::string& b) {
    namespace fs = std::filesystem;
    std::error_code status;
    if (fs::exists(a, status) && fs::exists(b, status) && fs::equivalent(a, b, status)) return true;
    const fs::path ca = fs::weakly_canonical(a, status), cb = fs::weakly_canonical(b, status);
    return !status && ca == cb;
}

/// A file a file names relative to its folder ("../anims/walk.anim.xml" in a rig), as a path
/// to open: written short ("rigs/../anims/x" as "anims/x") when that is the same file, else
/// as joined, so that ".." after a symbolic link to a folder goes where the system takes it
/// (shortened as text, a linked rigs/ folder's clips were looked for beside the link).
inline std::string pathBeside(const std::filesystem::path& folder, const std::string& file) {
    namespace fs = std::filesystem;
    const fs::path joined = folder / file, shortest = joined.lexically_normal();
    std::error_code status;
    if (fs::exists(joined, status) && !fs::equivalent(joined, shortest, status)) return joined.string();
    return shortest.string();
}

/// Every path path's symbolic links lead through, hop by hop, ending at the file they name
/// (which may not exist yet); empty when path is no link. When a link cannot be read or the
/// chain goes round in a loop (40 hops, as the kernel allows), the hops up to there, and why.
inline std::vector<std::filesystem::path> linkChain(const std::filesystem::path& path, std::string& why) {
    namespace fs = std::filesystem;
    constexpr size_t kMaxLinkHops = 40;
    std::vector<fs::path> chain;
    fs::path file = path;
    std::error_code status;
    while (fs::is_symlink(file, status)) {
        if (chain.size() == kMaxLinkHops) {
            why = "'" + path.filename().string() + "' is a symbolic link that leads round in a loop";
            break;
        }
        const fs::path link = fs::read_symlink(file, status);
        if (status) {
            why = "'" + path.filename().string() + "' is a symbolic link that cannot be followed: " + status.message();
            break;
        }
        file = link.is_absolute() ? link : file.parent_path() / link;
        chain.push_back(file);
    }
    return chain;
}

/// The file a write to path edits: path itself, or through symbolic links the file they
/// name, so that writing it keeps a link a link (a file renamed over the link would replace
/// it). Empty with why when a link cannot be followed (linkChain).
inline std::filesystem::path linkedFile(const std::filesystem::path& path, std::string& why) {
    std::string failed;
    const std::vector<std::filesystem::path> chain = linkChain(path, failed);
    if (!failed.empty()) return why = failed, std::filesystem::path();
    return chain.empty() ? path : chain.back();
}

/// Why a path cannot be opened as a file the user named, or empty when it is a regular file.
inline std::string notAFile(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    switch (fs::status(path, ec).type()) {
    case fs::file_type::regular: return {};
    case fs::file_type::not_found: return "no such file" + didYouMeanFile(path);
    case fs::file_type::directory: return "it is a directory, not a file";
    default: return "not a regular file";
    }
}

/// Why a file could not be written at path, as far as can be told before writing it: "it is
/// a directory", "'nodir' does not exist", "'notes.txt' is not a folder"; "" when nothing
/// stands in its way.
inline std::string cannotWrite(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code status;
    if (fs::is_directory(path, status)) return "it is a directory";
    const fs::path folder = fs::path(path).parent_path();
    if (folder.empty() || fs::is_directory(folder, status)) return "";
    return "'" + folder.string() + (fs::exists(folder, status) ? "' is not a folder" : "' does not exist");
}

/// path's extension in lower case (".png" for "Shot.PNG").
inline std::string lowerExtension(const std::string& path) {
    std::string extension = std::filesystem::path(path).extension().string();
    for (char& c : extension) c = char(std::tolower(static_cast<unsigned char>(c)));
    return extension;
}

/// Why a screenshot cannot be written under path's name: it is written as PNG, so a name
/// ending as another kind of image (shot.jpg) would hold PNG data under it; "" for any other
/// name (shot.png, frame.001, a device).
inline std::string notPngName(const std::string& path) {
    static constexpr const char* kOtherImages[] = {".jpg", ".jpeg", ".bmp", ".gif", ".tga", ".webp", ".tif",
                                                   ".tiff", ".ppm", ".exr", ".avif", ".heic", ".svg"};
    if (std::find(std::begin(kOtherImages), std::end(kOtherImages), lowerExtension(path)) == std::end(kOtherImages)) return "";
    return "a screenshot is written as PNG: name it '" +
           std::filesystem::path(path).replace_extension(".png").filename().string() + "'";
}

/// Why a file a run writes (a screenshot, its stats, a trace) may not take path's name: one
/// ending in .xml is named as the levels, rigs and clips a run reads, and one ending in .png
/// other than a screenshot as their art, which it would write over (a typo lost a rig so,
/// its text replaced by a screenshot); "" for any other name. `ending` is the output's own
/// (".png", ".json", ".csv"), for the name suggested.
inline std::string namedLikeContent(const std::string& path, const std::string& ending) {
    const std::string extension = lowerExtension(path);
    const char* kind = extension == ".xml"                    ? "levels, rigs and clips"
                       : extension == ".png" && ending != ".png" ? "the art of rigs"
                                                               : nullptr;
    if (!kind) return "";
    return std::string("it ends in ") + extension + ", as " + kind + " do, which this would write over: name it '" +
           std::filesystem::path(path).replace_extension(ending).filename().string() + "'";
}

/// Why an output of a run may not take path's name: a screenshot (`ending` ".png") named as
/// another kind of image (notPngName), or any output named as what runs read
/// (namedLikeContent); "" when neither.
inline std::string badOutputName(const std::string& path, const std::string& ending) {
    if (ending == ".png")
        if (std::string problem = notPngName(path); !problem.empty()) return problem;
    return namedLikeContent(path, ending);
}

/// A file a run reads, and what messages call it ("the level").
struct RunInput {
    const char* what;
    const std::string& path;
};

/// Why a run's output cannot be written at path, said before the run: cannotWrite, one of
/// the run's inputs (written over, it would be lost to it), or badOutputName; "" when none.
inline std::string cannotWriteOutput(const std::string& path, const std::string& ending,
                                     std::initializer_list<RunInput> inputs) {
    if (std::string problem = cannotWrite(path); !problem.empty()) return problem;
    for (const RunInput& input : inputs)
        if (!input.path.empty() && sameFile(path, input.path)) return std::string("it is ") + input.what + " this run reads";
    return badOutputName(path, ending);
}

}  // namespace paper
