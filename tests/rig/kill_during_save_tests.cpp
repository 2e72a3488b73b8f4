// Nothing lost on disk: a process killed (SIGKILL) at any point of saveRig leaves the rig
// file either exactly as it was or exactly as saved, never a mix, never a truncated file;
// and what a killed save leaves beside it (its temporary file) is cleared by the next save.
//
// A child process saves a large rig (a few hundred KB, so the save takes long enough to be
// interrupted) over an older version of it; the parent kills the child after a random
// delay spread over the save's measured duration, or as soon as its temporary file
// appears, then reads what is on disk. A second
// test checks the clean-up itself: which temporary files a save removes, and which not.

#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "rig/rig_loader.h"
#include "rig/rig_saver.h"
#include "rig_test_support.h"

namespace fs = std::filesystem;
using namespace ragdoll;
using namespace rigtest;

namespace {

using Clock = std::chrono::steady_clock;

/// A rig of `limbs` two-bone limbs hanging off one torso, each bone with a visual, a body
/// and a limited joint: about 700 bytes of XML per limb.
std::string largeRigText(int limbs) {
    std::string text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                       "<!-- A centipede: many limbs, to make a save slow enough to interrupt. -->\n"
                       "<rig name=\"centipede\" format=\"1\" units=\"px\" scale=\"100\">\n"
                       "  <solver substeps=\"4\" iterations=\"1\" gravity=\"-980\"/>\n\n"
                       "  <bone name=\"torso\" x=\"0\" y=\"100\" angle=\"0\" length=\"400\"/>\n";
    std::string visuals = "  <visual bone=\"torso\" width=\"18\" color=\"#202020\"/>\n";
    std::string bodies = "  <body bone=\"torso\" shape=\"capsule\" mass=\"8\" linear_damping=\"0.05\" angular_damping=\"0.5\"/>\n";
    std::string joints;
    for (int i = 0; i < limbs; ++i) {
        std::string upper = "upper_leg." + std::to_string(i), lower = "lower_leg." + std::to_string(i);
        std::string x = std::to_string(i % 400);
        text += "  <bone name=\"" + upper + "\" parent=\"torso\" x=\"" + x + "\" angle=\"-90\" length=\"28\"/>\n";
        text += "  <bone name=\"" + lower + "\" parent=\"" + upper + "\" angle=\"0\" length=\"27\"/>\n";
        for (const std::string& bone : {upper, lower}) {
            visuals += "  <visual bone=\"" + bone + "\" width=\"8\" color=\"#404040\"/>\n";
            bodies += "  <body bone=\"" + bone + "\" mass=\"0.25\" linear_damping=\"0.05\" angular_damping=\"0.5\"/>\n";
        }
        joints += "  <joint name=\"hip_" + std::to_string(i) + "\" parent=\"torso\" child=\"" + upper +
                  "\" lower=\"-80\" upper=\"80\" stiffness=\"1\"/>\n";
        joints += "  <joint name=\"knee_" + std::to_string(i) + "\" parent=\"" + upper + "\" child=\"" + lower +
                  "\" lower=\"-140\" upper=\"0\" stiffness=\"1\"/>\n";
    }
    return text + "\n" + visuals + "\n" + bodies + "\n" + joints + "</rig>\n";
}

void writeFile(const fs::path& path, const std::string& text) {
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    file << text;
    REQUIRE(file.good());
}

/// The names in dir other than `keep`: what saves left behind.
std::vector<std::string> leftovers(const fs::path& dir, const std::string& keep) {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir))
        if (entry.path().filename() != keep) names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

/// Whether `now` holds a name that `before` does not: a temporary file of this save's own.
bool hasNewName(const std::vector<std::string>& now, const std::vector<std::string>& before) {
    return std::any_of(now.begin(), now.end(), [&](const std::string& name) {
        return std::find(before.begin(), before.end(), name) == before.end();
    });
}

/// Returns once the child's save has made its temporary file beside the rig (a name in
/// dir that is not in `before`), or once the child has exited (left to the caller to reap).
void waitForOwnTemporary(const fs::path& dir, const std::string& keep, const std::vector<std::string>& before,
                         pid_t child) {
    for (;;) {
        if (hasNewName(leftovers(dir, keep), before)) return;
        siginfo_t info{};
        if (::waitid(P_PID, id_t(child), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == child) return;
        std::this_thread::sleep_for(std::chrono::microseconds(20));
    }
}

struct TempDir {
    fs::path path;
    TempDir() {
        path = fs::temp_directory_path() / ("rig_kill_test_" + std::to_string(::getpid()));
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~TempDir() {
        std::error_code ignored;
        fs::remove_all(path, ignored);
    }
};

}  // namespace

TEST_CASE("a save killed at any point leaves the old file or the new one, whole", "[rig][saver][atomic][kill]") {
    constexpr int kLimbs = 600;
    constexpr int kIterations = 200;
    TempDir dir;
    const std::string fileName = "centipede.rig.xml";
    const fs::path path = dir.path / fileName;

    // The old file: the rig as written by hand. The new one: every knee's range changed,
    // which the saver patches in place all through the file.
    const std::string oldText = largeRigText(kLimbs);
    writeFile(path, oldText);
    RigLoadResult loaded = loadRigFile(path.string());
    INFO(describe(loaded.diagnostics));
    REQUIRE(loaded.rig);
    REQUIRE(loaded.rig->joints.size() == size_t(2 * kLimbs));
    RigDefinition edited = *loaded.rig;
    for (RigJoint& joint : edited.joints)
        if (joint.name.starts_with("knee")) joint.lower = -130.0 * kDegree;
    RigTextResult expected = rigToText(edited);
    INFO(describe(expected.diagnostics));
    REQUIRE(expected.ok);
    const std::string newText = expected.text;
    REQUIRE(newText != oldText);
    REQUIRE(oldText.size() > 300'000);
    REQUIRE(newText.size() > 300'000);

    // How long a whole save takes here, as the parent sees it: from fork to the child's
    // exit (the median of a few, over the old file each time).
    auto forkSave = [&] {
        std::fflush(nullptr);  // nothing buffered is written twice by the child
        pid_t child = ::fork();
        REQUIRE(child >= 0);
        if (child == 0) {
            // Only the save, then out without running the test process's exit handlers.
            RigSaveResult saved = saveRig(edited, path.string());
            ::_exit(saved.ok ? 0 : 1);
        }
        return child;
    };
    std::vector<double> seconds;
    for (int i = 0; i < 5; ++i) {
        writeFile(path, oldText);
        Clock::time_point start = Clock::now();
        pid_t child = forkSave();
        int status = 0;
        REQUIRE(::waitpid(child, &status, 0) == child);
        seconds.push_back(std::chrono::duration<double>(Clock::now() - start).count());
        REQUIRE(WIFEXITED(status));
        REQUIRE(WEXITSTATUS(status) == 0);
        REQUIRE(readFile(path) == newText);
    }
    std::sort(seconds.begin(), seconds.end());
    const double saveSeconds = seconds[seconds.size() / 2];
    REQUIRE(leftovers(dir.path, fileName).empty());

    // Delays from nothing to a little past a whole save, so kills land before, during and
    // after the write and the rename (a few runs finish first).
    std::mt19937 random(20261130);
    std::uniform_real_distribution<double> delay(0.0, 1.5 * saveSeconds);
    int sawOld = 0, sawNew = 0, killed = 0, finished = 0, killedAfterRename = 0;
    size_t mostLeft = 0;  // temporary files beside the rig after a kill, at most
    int killedMidWrite = 0;  // kills that left a temporary file of their own: during the write
    for (int i = 0; i < kIterations; ++i) {
        writeFile(path, oldText);
        const std::vector<std::string> before = leftovers(dir.path, fileName);
        const double wait = delay(random);  // drawn every run: the others keep the delays they had
        pid_t child = forkSave();
        // Every fourth run is killed as soon as its temporary file appears, while it writes,
        // syncs and renames it: a save spends most of its time making the text, and random
        // delays alone landed in that window in 7 to 11 runs of 200 on some builds and in
        // none under the sanitizers.
        if (i % 4 == 3) waitForOwnTemporary(dir.path, fileName, before, child);
        else std::this_thread::sleep_for(std::chrono::duration<double>(wait));
        ::kill(child, SIGKILL);
        int status = 0;
        REQUIRE(::waitpid(child, &status, 0) == child);
        if (WIFSIGNALED(status)) {
            REQUIRE(WTERMSIG(status) == SIGKILL);
            ++killed;
        } else {
            REQUIRE(WIFEXITED(status));
            REQUIRE(WEXITSTATUS(status) == 0);
            ++finished;
        }

        const std::string onDisk = readFile(path);
        CAPTURE(i, onDisk.size(), oldText.size(), newText.size());
        bool isOld = onDisk == oldText, isNew = onDisk == newText;
        REQUIRE((isOld || isNew));
        if (isOld) ++sawOld;
        if (isNew) ++sawNew;
        if (isNew && WIFSIGNALED(status)) ++killedAfterRename;
        RigLoadResult reloaded = loadRigFile(path.string());
        INFO(describe(reloaded.diagnostics));
        REQUIRE(reloaded.rig);
        CHECK(reloaded.rig->joints.size() == size_t(2 * kLimbs));

        // A killed save may leave its temporary file (nothing runs after SIGKILL), hidden
        // and named after the rig; a later save that gets that far clears it.
        std::vector<std::string> left = leftovers(dir.path, fileName);
        for (const std::string& name : left) {
            CAPTURE(name);
            CHECK(name.starts_with("." + fileName + ".tmp-"));
        }
        mostLeft = std::max(mostLeft, left.size());
        if (hasNewName(left, before)) ++killedMidWrite;
    }
    std::printf("kill during save: %d limbs, %zu bytes old, %zu bytes new, a save takes %.1f ms; %d runs: "
                "%d killed, %d finished first; the file was the old one %d times, the new one %d times (%d of them "
                "killed after the rename); %d kills landed during the write; at most %zu temporary files beside it\n",
                kLimbs, oldText.size(), newText.size(), 1000.0 * saveSeconds, kIterations, killed, finished, sawOld,
                sawNew, killedAfterRename, killedMidWrite, mostLeft);
    // Both outcomes, and kills that landed, or the delays did not cover the save and
    // nothing was tested.
    CHECK(sawOld > 0);
    CHECK(sawNew > 0);
    CHECK(killed > 0);
    CHECK(killedMidWrite > 0);

    // Whatever the last kill left, a save that runs to the end leaves nothing behind.
    REQUIRE(saveRig(edited, path.string()).ok);
    CHECK(readFile(path) == newText);
    CHECK(leftovers(dir.path, fileName).empty());
}

TEST_CASE("a save removes the temporary files killed saves left, not one a save in progress holds",
          "[rig][saver][atomic]") {
    TempDir dir;
    const fs::path path = dir.path / "stickman.rig.xml";
    writeFile(path, readFile(contentRig("stickman.rig.xml")));
    RigLoadResult loaded = loadRigFile(path.string());
    REQUIRE(loaded.rig);
    RigDefinition edited = *loaded.rig;
    edited.bodies[0].mass = 9.0;

    // Two left by killed saves (nobody holds their lock), one of a save in progress here (its
    // lock held, as saveRig holds it until the rename), and files that only look alike.
    const fs::path stale1 = dir.path / ".stickman.rig.xml.tmp-0badf00d";
    const fs::path stale2 = dir.path / ".stickman.rig.xml.tmp-12345678";
    const fs::path inProgress = dir.path / ".stickman.rig.xml.tmp-cafe0001";
    const fs::path otherRig = dir.path / ".other.rig.xml.tmp-0badf00d";
    const fs::path notOurs = dir.path / "stickman.rig.xml.tmp-0badf00d";
    for (const fs::path& p : {stale1, stale2, inProgress, otherRig, notOurs}) writeFile(p, "<rig");
    int held = ::open(inProgress.c_str(), O_RDONLY | O_CLOEXEC);
    REQUIRE(held >= 0);
    REQUIRE(::flock(held, LOCK_EX | LOCK_NB) == 0);

    // The lock is per open file: a second descriptor in this process cannot take it either,
    // exactly as another process cannot.
    RigSaveResult saved = saveRig(edited, path.string());
    INFO(describe(saved.diagnostics));
    REQUIRE(saved.ok);
    CHECK_FALSE(fs::exists(stale1));
    CHECK_FALSE(fs::exists(stale2));
    CHECK(fs::exists(inProgress));
    CHECK(fs::exists(otherRig));
    CHECK(fs::exists(notOurs));
    ::close(held);

    // Once its holder is gone, it is stale too.
    REQUIRE(saveRig(edited, path.string()).ok);
    CHECK_FALSE(fs::exists(inProgress));
    CHECK(leftovers(dir.path, "stickman.rig.xml") ==
          std::vector<std::string>{".other.rig.xml.tmp-0badf00d", "stickman.rig.xml.tmp-0badf00d"});
}
