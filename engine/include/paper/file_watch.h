// Watches one file (a plugin library) for replacement. inotify on its folder, so renames
// over the file, out of it and rewrites in place are all seen, and a folder moved away and
// made anew is watched again; a file that is a link (to a build's output elsewhere) is
// followed, its target's folder watched too; if inotify is unavailable it polls
// the file's size and time. A change is reported once the file has been quiet for a while
// and is a complete ELF file: linkers write in many pieces, and a half-written library
// must never be loaded.
#pragma once

#include <chrono>
#include <filesystem>
#include <string>

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
    /// Follows the file's links to what they point at now and watches that file's folder
    /// instead of the last target's (none when the file is no link).
    void watchTarget();
    /// The file is a link whose target's folder is not watched (gone, or not there yet).
    bool targetUnwatched() const { return !target_.empty() && targetWatch_ < 0; }

    std::filesystem::path file_;
    int inotifyFd_ = -1;
    int watch_ = -1;  ///< the folder's watch descriptor: events of an old one are not the file's
    /// The folder was moved away or deleted (a build's clean output folder made anew): the
    /// watch is on the old one, so the file's own size and time are compared until a folder
    /// of that name can be watched again.
    bool folderGone_ = false;
    /// What the file's links lead to (empty when it is no link) and the watch on its folder:
    /// the same descriptor as watch_ when both are one folder.
    std::filesystem::path target_;
    int targetWatch_ = -1;
    bool pending_ = false;
    std::chrono::steady_clock::time_point lastActivity_{};
    Stamp last_;
    std::string waitingFor_;
};

}  // namespace paper
