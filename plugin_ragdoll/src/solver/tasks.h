// The world's optional task interface, in Box2D v3's manner (b2WorldDef's enqueueTask and
// finishTask): the world splits independent work into ranges of items and the host runs
// them on its threads. The solver owns no thread; without a task system (or with one
// worker) everything runs on the thread that calls step().
//
// Results do not depend on the worker count: every task writes only what its items own
// (a contact slot, a joint tree's bodies and scratch), and whatever items share is merged
// afterwards on the calling thread in item order.
#pragma once

namespace ragdoll {

/// Runs items [begin, end) of a task on worker `worker`, 0 ≤ worker < TaskSystem::workerCount.
/// Two ranges running at the same time have different workers.
using TaskFn = void(int begin, int end, int worker, void* taskContext);
/// Starts a task over itemCount items, in ranges of at least minRange items, and returns a
/// handle for finishTask, or null when the task already ran before returning.
using EnqueueTaskFn = void*(TaskFn* task, int itemCount, int minRange, void* taskContext, void* userContext);
/// Returns once every range of the task has run.
using FinishTaskFn = void(void* userTask, void* userContext);

struct TaskSystem {
    /// Threads the host runs a task's ranges on, the caller included; 1 runs everything on
    /// the calling thread (then the callbacks are not used).
    int workerCount = 1;
    EnqueueTaskFn* enqueueTask = nullptr;
    FinishTaskFn* finishTask = nullptr;
    void* userContext = nullptr;  ///< passed back to both callbacks
};

/// The most workers a world uses (more are ignored).
constexpr int kMaxWorkers = 64;

/// Runs fn(begin, end, worker) over [0, count): split among the task system's workers when
/// it has more than one, else in one call here. No allocation: fn is passed by address.
template <class Fn>
void runTask(const TaskSystem& tasks, int count, int minRange, const Fn& fn) {
    if (count <= 0) return;
    if (tasks.workerCount <= 1 || !tasks.enqueueTask || !tasks.finishTask || count <= minRange) {
        fn(0, count, 0);
        return;
    }
    TaskFn* trampoline = [](int begin, int end, int worker, void* context) {
        (*static_cast<const Fn*>(context))(begin, end, worker);
    };
    void* handle = tasks.enqueueTask(trampoline, count, minRange, const_cast<Fn*>(&fn), tasks.userContext);
    if (handle) tasks.finishTask(handle, tasks.userContext);
}

}  // namespace ragdoll
