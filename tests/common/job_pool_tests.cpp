// The job pool behind the engine's job service (common/include/paper/job_pool.h).
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "paper/job_pool.h"

using paper::JobPool;

namespace {

struct Marks {
    std::vector<std::atomic<int>> runs;  ///< per item: how often it ran
    std::vector<int> worker;             ///< per item: the worker that ran it
    std::atomic<int> ranges{0};          ///< calls, one per range
    explicit Marks(int n) : runs(size_t(n)), worker(size_t(n), -1) {}
};

void mark(int begin, int end, int worker, void* context) {
    auto* marks = static_cast<Marks*>(context);
    marks->ranges.fetch_add(1);
    for (int i = begin; i < end; ++i) {
        marks->runs[size_t(i)].fetch_add(1);
        marks->worker[size_t(i)] = worker;
    }
}

}  // namespace

TEST_CASE("the job pool runs every item of a task once, on its workers", "[common][jobs]") {
    JobPool pool(2);
    CHECK(pool.workerCount() == 2);
    long ranges = 0;
    for (int task = 0; task < 200; ++task) {
        Marks marks(1000);
        void* handle = pool.enqueue(&mark, 1000, 16, &marks);
        REQUIRE(handle != nullptr);
        pool.finish(handle);
        ranges += marks.ranges.load();
        REQUIRE(marks.ranges.load() > 1);  // split, in ranges of at least 16 items
        REQUIRE(marks.ranges.load() <= 1000 / 16 + 1);
        for (int i = 0; i < 1000; ++i) {
            REQUIRE(marks.runs[size_t(i)].load() == 1);
            REQUIRE((marks.worker[size_t(i)] == 0 || marks.worker[size_t(i)] == 1));
        }
    }
    CHECK(pool.rangesRun(0) + pool.rangesRun(1) == ranges);  // each range counted on the worker that ran it

    // Two ranges that each wait for the other to begin: they end only if they run at once,
    // on two workers (the caller in finish() and the pool's thread). A pool that ran them
    // one after another would wait out the limit and fail, however loaded the machine.
    struct Meeting {
        std::atomic<int> arrived{0};
        std::atomic<int> met{0};
        int workers[2] = {-1, -1};
    } meeting;
    void* handle = pool.enqueue(
        [](int begin, int, int worker, void* context) {
            auto* m = static_cast<Meeting*>(context);
            m->workers[begin] = worker;
            m->arrived.fetch_add(1);
            const auto limit = std::chrono::steady_clock::now() + std::chrono::seconds(20);
            while (m->arrived.load() < 2 && std::chrono::steady_clock::now() < limit) std::this_thread::yield();
            if (m->arrived.load() == 2) m->met.fetch_add(1);
        },
        2, 1, &meeting);
    REQUIRE(handle != nullptr);
    pool.finish(handle);
    CHECK(meeting.met.load() == 2);
    CHECK(meeting.workers[0] != meeting.workers[1]);
    CHECK(pool.rangesRun(1) > 0);
}

TEST_CASE("the caller takes a task's ranges from the front and the pool's thread from the back", "[common][jobs]") {
    // So that task after task each core works on about the same part of the arrays (a step's
    // tasks run over the same bodies, trees and contacts): taken in one order by whoever came
    // first, the ranges moved between the cores, and the N=1000 pile's step on two threads
    // was 4% longer. The caller's first range and the pool's thread's first range wait for
    // each other, so that both go on taking ranges from then on however loaded the machine
    // (a caller descheduled for a while only leaves the other more); each range runs 50 µs.
    JobPool pool(2);
    struct Run {
        std::vector<int> worker = std::vector<int>(64, -1);
        std::atomic<bool> poolStarted{false}, callerStarted{false};
    } run;
    void* handle = pool.enqueue(
        [](int begin, int end, int worker, void* context) {
            auto* r = static_cast<Run*>(context);
            std::atomic<bool>& mine = worker == 0 ? r->callerStarted : r->poolStarted;
            std::atomic<bool>& other = worker == 0 ? r->poolStarted : r->callerStarted;
            const bool first = !mine.exchange(true);
            const auto limit = std::chrono::steady_clock::now() + std::chrono::seconds(20);
            while (first && !other.load() && std::chrono::steady_clock::now() < limit) std::this_thread::yield();
            const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(50);
            while (std::chrono::steady_clock::now() < until) {
            }
            for (int i = begin; i < end; ++i) r->worker[size_t(i)] = worker;
        },
        64, 1, &run);
    REQUIRE(handle != nullptr);
    pool.finish(handle);
    REQUIRE(run.poolStarted.load());
    int callers = 0;
    while (callers < 64 && run.worker[size_t(callers)] == 0) ++callers;
    CAPTURE(run.worker);
    CHECK(callers > 0);
    CHECK(callers < 64);
    for (int i = callers; i < 64; ++i) CHECK(run.worker[size_t(i)] == 1);  // the rest, from the back
}

TEST_CASE("a task too small to split, or a pool of one, runs on the calling thread at once", "[common][jobs]") {
    JobPool pool(4);
    Marks small(10);
    CHECK(pool.enqueue(&mark, 10, 16, &small) == nullptr);  // one range: done before returning
    for (int i = 0; i < 10; ++i) CHECK(small.runs[size_t(i)].load() == 1);
    CHECK(pool.rangesRun(1) == 0);  // and no thread was started for it

    JobPool one(1);
    Marks all(500);
    CHECK(one.enqueue(&mark, 500, 1, &all) == nullptr);
    for (int i = 0; i < 500; ++i) CHECK(all.worker[size_t(i)] == 0);
    CHECK(one.enqueue(&mark, 0, 1, &all) == nullptr);  // nothing to do
    one.finish(nullptr);                               // a null handle is a no-op
}
