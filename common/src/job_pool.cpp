#include "paper/job_pool.h"

#include <algorithm>
#include <chrono>

namespace paper {

namespace {

/// The pool worker the current thread is (0 for any other thread): a task run inline by
/// a worker keeps that worker's index, so per-worker scratch is never shared.
thread_local int tWorker = 0;

constexpr int kMaxRanges = 0xffff;
/// Ranges per worker: a few, so that a worker the system delays leaves its share to the
/// others, and few enough that taking one stays cheap next to running it.
constexpr int kRangesPerWorker = 16;
/// How long an idle worker watches for the next task before it sleeps. The step hands out
/// tasks a few hundred microseconds apart; waking a sleeping thread costs tens of them.
constexpr auto kSpinTime = std::chrono::microseconds(100);

std::uint64_t makeWord(std::uint32_t generation, int end, int next) {
    return (std::uint64_t(generation) << 32) | (std::uint64_t(end) << 16) | std::uint64_t(next);
}

/// One turn of a wait: a pause for the first few, then the core to whoever needs it.
void relax(int turn) {
#if defined(__x86_64__) || defined(__i386__)
    if (turn < 64) {
        __builtin_ia32_pause();
        return;
    }
#endif
    (void)turn;
    std::this_thread::yield();
}

}  // namespace

JobPool::JobPool(int workerCount) : workerCount_(std::clamp(workerCount, 1, kMaxWorkers)) {}

JobPool::~JobPool() {
    stop_.store(true);
    {
        std::lock_guard<std::mutex> lock(sleepMutex_);
        wake_.notify_all();
    }
    for (std::thread& t : threads_) t.join();
}

int JobPool::machineWorkers() {
    return std::clamp(int(std::thread::hardware_concurrency()), 1, kMaxWorkers);
}

std::int64_t JobPool::rangesRun(int worker) const {
    return worker >= 0 && worker < kMaxWorkers ? ranges_[worker].value.load(std::memory_order_relaxed) : 0;
}

bool JobPool::claimable(std::uint64_t word) {
    return (word & 0xffff) < ((word >> 16) & 0xffff);
}

void JobPool::start() {
    // Once, with the first task: a pool that is never used (a headless test, a commandlet)
    // costs no threads.
    started_ = true;
    threads_.reserve(size_t(workerCount_ - 1));
    for (int w = 1; w < workerCount_; ++w) threads_.emplace_back([this, w] { workerLoop(w); });
}

void* JobPool::enqueue(JobFn* fn, int itemCount, int minRange, void* context) {
    if (!fn || itemCount <= 0) return nullptr;
    minRange = std::max(minRange, 1);
    const int wanted = std::min({(itemCount + minRange - 1) / minRange, workerCount_ * kRangesPerWorker, kMaxRanges});
    // Not worth a hand-over, no thread to hand it to, or the pool is busy with another
    // thread's task (tasks do not queue: the caller would only wait): run it here.
    if (wanted <= 1 || workerCount_ == 1 || !enqueueMutex_.try_lock()) {
        fn(0, itemCount, tWorker, context);
        return nullptr;
    }
    if (!started_) start();
    task_.fn = fn;
    task_.context = context;
    task_.itemCount = itemCount;
    task_.rangeSize = (itemCount + wanted - 1) / wanted;
    task_.rangeCount = (itemCount + task_.rangeSize - 1) / task_.rangeSize;
    task_.done.store(0, std::memory_order_relaxed);
    ++generation_;
    claim_.store(makeWord(generation_, task_.rangeCount, 0));
    if (sleepers_.load() > 0) {
        std::lock_guard<std::mutex> lock(sleepMutex_);
        wake_.notify_all();
    }
    return &task_;
}

void JobPool::finish(void* handle) {
    if (handle != &task_) return;
    while (runOne(tWorker)) {
    }
    // The last ranges are the workers': short waits. Past a few spins, give the core away:
    // on a loaded machine the worker may be waiting for it.
    for (int i = 0; task_.done.load(std::memory_order_acquire) < task_.rangeCount; ++i) relax(i);
    enqueueMutex_.unlock();
}

bool JobPool::runOne(int worker) {
    // The caller takes ranges from the front (next + 1), the pool's threads from the back
    // (end − 1), so that task after task each core keeps to about the same part of the
    // arrays: a step's tasks run over the same bodies, trees and contacts.
    const bool front = worker == 0;
    constexpr std::uint64_t kOneRange = 1, kOneEnd = std::uint64_t(1) << 16;
    std::uint64_t word = claim_.load(std::memory_order_acquire);
    do {
        if (!claimable(word)) return false;
    } while (!claim_.compare_exchange_weak(word, front ? word + kOneRange : word - kOneEnd, std::memory_order_acq_rel,
                                           std::memory_order_acquire));
    // The compare-and-swap succeeded on a word with ranges left, so the task is still in
    // flight and task_ holds it until its last range is done (finish() waits for that).
    const int range = front ? int(word & 0xffff) : int((word >> 16) & 0xffff) - 1;
    const int begin = range * task_.rangeSize;
    const int end = std::min(begin + task_.rangeSize, task_.itemCount);
    task_.fn(begin, end, worker, task_.context);
    ranges_[worker].value.fetch_add(1, std::memory_order_relaxed);
    task_.done.fetch_add(1, std::memory_order_release);
    return true;
}

void JobPool::workerLoop(int worker) {
    tWorker = worker;
    while (!stop_.load(std::memory_order_relaxed)) {
        if (runOne(worker)) continue;
        const auto until = std::chrono::steady_clock::now() + kSpinTime;
        bool found = false;
        for (int i = 0; !found; ++i) {
            found = claimable(claim_.load(std::memory_order_relaxed)) || stop_.load(std::memory_order_relaxed);
            if (!found && (i & 63) == 63 && std::chrono::steady_clock::now() > until) break;
            relax(i);
        }
        if (found) continue;
        std::unique_lock<std::mutex> lock(sleepMutex_);
        sleepers_.fetch_add(1);
        // enqueue() publishes the task, then looks for sleepers: one counted here before it
        // published is woken, and one counted after sees the task in this test.
        wake_.wait(lock, [&] { return stop_.load() || claimable(claim_.load()); });
        sleepers_.fetch_sub(1);
    }
}

}  // namespace paper
