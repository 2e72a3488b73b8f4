// Watches one file (a plugin library) for replacement. inotify on its folder, so renames
// over the file, out of it and rewrites in place are all seen, and a folder moved away and
// made anew is watched again; a file that is a link (to a build's output elsewhere) is
// followed, the folder of every link on the way and of its target watched too (a versioned
// library's libx.so -> libx.so.1 -> libx.so.1.2); if inotify is unavailable it polls
// the file's size and time. A change is reported once the file has been quiet for a while
// and is a complete ELF file: linkers write in many pieces, and a half-written library
// must never be loaded.
#pragma once

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace paper {

class FileWatch {
public:
    /// Quiet time after the last event before a change counts (linkers write in bursts).
    static constexpr std::chrono::milliseconds kQuietTime{250};

    explicit FileWatch(std::filesystem::path file);
    ~FileWatch();
    FileWatch(const FileWatch&) = delete;
    FileWatch& operator=(const FileWatch&) = delete;

    /// True once per completed change of the file. Cheap; call every frame.
    bool poll();
    /// "inotify" or "polling".
    const char* method() const { return inotifyFd_ >= 0 ? "inotify" : "polling"; }
    const std::filesystem::path& file() const { return file_; }
    /// Why the last change is still waiting (e.g. the file is incomplete), or empty.
    const std::string& waitingFor() const { return waitingFor_; }

private:
    struct Stamp {
        std::uintmax_t size = 0;
        std::filesystem::file_time_type time{};
        bool exists = false;
        bool operator==(const Stamp&) const = default;
    };
    Stamp stamp() const;
    /// Watches the file's folder (again); false while there is no such folder.
    bool watchFolder();
    /// Follows the file's links to what they point at now and watches the folders of every
    /// link on the way and of the file at the end instead of the last chain's (none when the
    /// file is no link).
    void watchLinks();
    /// The file is a link and a folder on its chain is not watched (gone, or not there yet).
    bool linkUnwatched() const;

    std::filesystem::path file_;
    int inotifyFd_ = -1;
    int watch_ = -1;  ///< the folder's watch descriptor: events of an old one are not the file's
    /// The folder was moved away or deleted (a build's clean output folder made anew): the
    /// watch is on the old one, so the file's own size and time are compared until a folder
    /// of that name can be watched again.
    bool folderGone_ = false;
    /// A link the file leads through, or what its links lead to at the end, and the watch on
    /// its folder: the same descriptor as watch_, or as another hop's, when they share a
    /// folder.
    struct Hop {
        std::filesystem::path path;
        int watch = -1;
    };
    std::vector<Hop> hops_;  ///< in the order they are followed; empty when the file is no link
    bool pending_ = false;
    std::chrono::steady_clock::time_point lastActivity_{};
    Stamp last_;
    std::string waitingFor_;
};

}  // namespace paper
