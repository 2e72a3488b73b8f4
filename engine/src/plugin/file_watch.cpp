#include "paper/file_watch.h"

#include <sys/inotify.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <system_error>

#include "paper/file_checks.h"
#include "paper/library.h"

namespace paper {

namespace fs = std::filesystem;

namespace {
constexpr uint32_t kFolderEvents =
    IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_MODIFY | IN_DELETE | IN_MOVE_SELF | IN_DELETE_SELF;
}  // namespace

FileWatch::FileWatch(fs::path file) : file_(std::move(file)) {
    inotifyFd_ = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (inotifyFd_ >= 0 && !watchFolder()) {
        close(inotifyFd_);
        inotifyFd_ = -1;
    }
    if (inotifyFd_ >= 0) watchLinks();
    last_ = stamp();
}

void FileWatch::watchLinks() {
    std::string unreadable;  // a link that cannot be followed leaves the hops before it watched
    // As the links spell them: ".." after a linked folder is the system's to resolve, not the text's.
    const std::vector<fs::path> chain = linkChain(file_, unreadable);
    const bool same = chain.size() == hops_.size() &&
                      std::equal(chain.begin(), chain.end(), hops_.begin(), [](const fs::path& p, const Hop& h) { return p == h.path; });
    if (same && !linkUnwatched()) return;
    // A folder watched twice gives one descriptor (and inotify_add_watch with the same events
    // leaves it as it was): the new watches are made before the old ones no hop still shares
    // are removed, and watch_ is never removed here.
    std::vector<Hop> hops;
    for (const fs::path& path : chain) {
        const fs::path folder = path.parent_path().empty() ? fs::path(".") : path.parent_path();
        hops.push_back({path, inotify_add_watch(inotifyFd_, folder.c_str(), kFolderEvents)});
    }
    for (const Hop& old : hops_) {
        const bool kept = old.watch == watch_ ||
                          std::any_of(hops.begin(), hops.end(), [&](const Hop& h) { return h.watch == old.watch; });
        if (old.watch >= 0 && !kept) inotify_rm_watch(inotifyFd_, old.watch);
    }
    hops_ = std::move(hops);
}

bool FileWatch::linkUnwatched() const {
    return std::any_of(hops_.begin(), hops_.end(), [](const Hop& h) { return h.watch < 0; });
}

bool FileWatch::watchFolder() {
    const fs::path folder = file_.parent_path().empty() ? fs::path(".") : file_.parent_path();
    // A file renamed away (IN_MOVED_FROM) is a change as its removal is; the folder itself
    // moved or deleted (IN_MOVE_SELF, IN_DELETE_SELF) leaves the watch on what is no longer
    // the file's folder.
    const int watch = inotify_add_watch(inotifyFd_, folder.c_str(), kFolderEvents);
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
        const std::string name = file_.filename().string();
        bool linkChanged = false;
        for (;;) {
            ssize_t n = read(inotifyFd_, buffer, sizeof buffer);
            if (n <= 0) break;
            for (ssize_t offset = 0; offset < n;) {
                const auto* event = reinterpret_cast<const inotify_event*>(buffer + offset);
                const bool folderLeft = event->mask & (IN_MOVE_SELF | IN_DELETE_SELF);
                const bool file = event->wd == watch_ && ((event->len > 0 && name == event->name) || folderLeft);
                const bool hop = std::any_of(hops_.begin(), hops_.end(), [&](const Hop& h) {
                    return event->wd == h.watch && ((event->len > 0 && h.path.filename() == event->name) || folderLeft);
                });
                if (file || hop) {
                    pending_ = true;
                    lastActivity_ = now;
                    last_ = stamp();
                    // Any link on the way may point elsewhere now (a rebuild of the target
                    // itself follows it again to the same chain, which changes nothing).
                    linkChanged = true;
                    if (folderLeft) {
                        // What happens to the old folder now is not the file's.
                        inotify_rm_watch(inotifyFd_, event->wd);
                        if (event->wd == watch_) watch_ = -1, folderGone_ = true;
                        for (Hop& h : hops_)
                            if (h.watch == event->wd) h.watch = -1;
                    }
                }
                offset += ssize_t(sizeof(inotify_event) + event->len);
            }
        }
        if (folderGone_ && watchFolder()) {
            // Watched again: whatever came into the new folder before is a change, and a link
            // made in it anew is followed again.
            folderGone_ = false;
            pending_ = true;
            lastActivity_ = now;
            linkChanged = true;
        }
        // A link pointed elsewhere, or a folder on the chain is gone: follow it again.
        if (linkChanged || linkUnwatched()) watchLinks();
    }
    if (inotifyFd_ < 0 || folderGone_ || linkUnwatched()) {
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
