// A solver task system (solver/tasks.h) backed by a job pool of its own, for the tests and
// the bench (the engine's plugins get the engine's pool through the services table).
#pragma once

#include <paper/job_pool.h>

#include "solver/tasks.h"

namespace scenes {

/// The pool's workers as a world's task system; the pool must outlive the world's steps.
inline ragdoll::TaskSystem poolTasks(paper::JobPool& pool) {
    ragdoll::TaskSystem tasks;
    tasks.workerCount = pool.workerCount();
    tasks.enqueueTask = [](ragdoll::TaskFn* task, int itemCount, int minRange, void* taskContext, void* user) -> void* {
        return static_cast<paper::JobPool*>(user)->enqueue(task, itemCount, minRange, taskContext);
    };
    tasks.finishTask = [](void* handle, void* user) { static_cast<paper::JobPool*>(user)->finish(handle); };
    tasks.userContext = &pool;
    return tasks;
}

}  // namespace scenes
