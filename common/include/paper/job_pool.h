// A small fixed pool of worker threads that runs range tasks: the engine's job service
// (PaperEngineServices::enqueueTask / finishTask) and the solver's tests and bench use it.
//
// Why std::thread and not a library (oneTBB): a physics step hands out a few dozen short
// loops per step and waits for each, one at a time. That needs only "split this range,
// run it on the workers and on me, tell me when it is done", with no allocation per task
// (a warmed step must not touch the heap) and the same worker indices every time. A fixed
// pool does exactly that in ~200 lines with no dependency to install or keep; TBB's task
// arena brings work stealing and nested parallelism the step does not use, and allocates
// task objects per parallel_for.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace paper {

/// Runs items [begin, end) of a task on worker `worker` (0 ≤ worker < workerCount; the
/// thread that enqueued the task is worker 0 while it waits in finish()).
using JobFn = void(int begin, int end, int worker, void* context);

class JobPool {
public:
    /// workerCount: the enqueuing thread plus workerCount − 1 threads of the pool (at least
    /// 1, at most kMaxWorkers). The threads start with the first task that needs them.
    explicit JobPool(int workerCount);
    ~JobPool();
    JobPool(const JobPool&) = delete;
    JobPool& operator=(const JobPool&) = delete;

    static constexpr int kMaxWorkers = 64;
    /// The machine's cores (std::thread::hardware_concurrency), at least 1.
    static int machineWorkers();

    int workerCount() const { return workerCount_; }
    /// Splits itemCount items into ranges of at least minRange items (at most a few per
    /// worker) and lets the pool start on them. Returns a handle for finish(), or null when
    /// the task already ran on the calling thread (one item range, one worker, or another
    /// thread's task in flight: the pool runs one task at a time).
    void* enqueue(JobFn* fn, int itemCount, int minRange, void* context);
    /// Runs ranges of the task on the calling thread (as worker 0) until none is left, then
    /// waits for the ranges the workers took.
    void finish(void* handle);

    /// Ranges run by each worker since the pool was made (tests: work was shared).
    std::int64_t rangesRun(int worker) const;

private:
    struct Task {
        JobFn* fn = nullptr;
        void* context = nullptr;
        int itemCount = 0, rangeSize = 1, rangeCount = 0;
        std::atomic<int> done{0};
    };
    void start();
    void workerLoop(int worker);
    /// Takes one range of the task in flight, if any is left, and runs it: worker 0 (the
    /// caller) from the front, the pool's threads from the back.
    bool runOne(int worker);
    static bool claimable(std::uint64_t word);

    int workerCount_ = 1;
    Task task_;
    /// The task in flight and the ranges left, in one word so that a worker takes a range
    /// with one compare-and-swap and can never take one of a task that has finished:
    /// generation (32 bits) | end of the ranges left (16) | next range from the front (16).
    std::atomic<std::uint64_t> claim_{0};
    std::uint32_t generation_ = 0;
    std::mutex enqueueMutex_;  ///< held from enqueue() to finish(): one task at a time
    std::mutex sleepMutex_;
    std::condition_variable wake_;
    std::atomic<int> sleepers_{0};
    std::atomic<bool> stop_{false};
    bool started_ = false;
    std::vector<std::thread> threads_;
    struct alignas(64) Counter {
        std::atomic<std::int64_t> value{0};
    };
    Counter ranges_[kMaxWorkers];
};

}  // namespace paper
