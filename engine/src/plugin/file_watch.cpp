#include "paper/file_watch.h"

#include <sys/inotify.h>
#include <unistd.h>

#include <cstring>
#include <system_error>

#include "paper/library.h"

namespace paper {

namespace fs = std::filesystem;

FileWatch::FileWatch(fs::path file) : file_(std::move(file)) {
    inotifyFd_ = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (inotifyFd_ >= 0 && !watchFolder()) {
        close(inotifyFd_);
        inotifyFd_ = -1;
    }
    last_ = stamp();
}

bool FileWatch::watchFolder() {
    const fs::path folder = file_.parent_path().empty() ? fs::path(".") : file_.parent_path();
    // A file renamed away (IN_MOVED_FROM) is a change as its removal is; the folder itself
    // moved or deleted (IN_MOVE_SELF, IN_DELETE_SELF) leaves the watch on what is no longer
    // the file's folder.
    const int watch = inotify_add_watch(inotifyFd_, folder.c_str(),
                                        IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_MODIFY |
                                            IN_DELETE | IN_MOVE_SELF | IN_DELETE_SELF);
    if (watch < 0) return false;
    watch_ = watch;
    return true;
}

FileWatch::~FileWatch() {
    if (inotifyFd_ >= 0) close(inotifyFd_);
}

FileWatch::Stamp FileWatch::stamp() const {
    Stamp s;
    std::error_code ec;
    s.exists = fs::is_regular_file(file_, ec);
    if (s.exists) {
        s.size = fs::file_size(file_, ec);
        s.time = fs::last_write_time(file_, ec);
    }
    return s;
}

bool FileWatch::poll() {
    auto now = std::chrono::steady_clock::now();
    if (inotifyFd_ >= 0) {
        alignas(inotify_event) char buffer[4096];
        std::string name = file_.filename().string();
        for (;;) {
            ssize_t n = read(inotifyFd_, buffer, sizeof buffer);
            if (n <= 0) break;
            for (ssize_t offset = 0; offset < n;) {
                const auto* event = reinterpret_cast<const inotify_event*>(buffer + offset);
                if (event->wd == watch_ &&
                    ((event->len > 0 && name == event->name) || (event->mask & (IN_MOVE_SELF | IN_DELETE_SELF)))) {
                    pending_ = true;
                    lastActivity_ = now;
                    last_ = stamp();
                    if (event->mask & (IN_MOVE_SELF | IN_DELETE_SELF)) {
                        // What happens to the old folder now is not the file's.
                        inotify_rm_watch(inotifyFd_, watch_);
                        watch_ = -1;
                        folderGone_ = true;
                    }
                }
                offset += ssize_t(sizeof(inotify_event) + event->len);
            }
        }
        if (folderGone_ && watchFolder()) {
            // Watched again: whatever came into the new folder before is a change.
            folderGone_ = false;
            pending_ = true;
            lastActivity_ = now;
        }
    }
    if (inotifyFd_ < 0 || folderGone_) {
        Stamp s = stamp();
        if (!(s == last_)) {
            last_ = s;
            pending_ = true;
            lastActivity_ = now;
        }
    }
    if (!pending_ || now - lastActivity_ < kQuietTime) return false;

    // Quiet long enough; the size must also hold still and the file be whole.
    Stamp s = stamp();
    if (!(s == last_)) {
        last_ = s;
        lastActivity_ = now;
        return false;
    }
    if (!s.exists) {
        waitingFor_ = "'" + file_.string() + "' was removed; waiting for it to come back";
        return false;
    }
    std::string why;
    if (!isCompleteElf(file_, why)) {
        waitingFor_ = why;
        lastActivity_ = now;  // look again after another quiet period
        return false;
    }
    waitingFor_.clear();
    pending_ = false;
    return true;
}

}  // namespace paper
