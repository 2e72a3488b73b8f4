// A warmed-up step must not touch the heap. Its own executable, because counting needs
// a replaced global operator new, which AddressSanitizer also replaces (so this suite is
// not built in the asan preset; the default preset runs it).
#include <catch2/catch.hpp>

#include <atomic>
#include <cstdlib>
#include <new>

#include "build_world.h"
#include "pool_tasks.h"
#include "solver/world.h"

static std::atomic<long> gAllocations{0};

void* operator new(std::size_t size) {
    ++gAllocations;
    if (void* p = std::malloc(size ? size : 1)) return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t size) { return operator new(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

using namespace ragdoll;

TEST_CASE("a warmed-up step makes no heap allocation", "[solver][memory]") {
    paper::JobPool pool(2);  // its threads start with the first task, in the warm-up
    for (int threads : {1, 2})
    for (JointSolver solver : {JointSolver::Direct, JointSolver::Iterative}) {
        WorldDef def = defaultWorldDef();
        def.gravity = {0.0, -10.0};
        def.jointSolver = solver;
        // Two threads: handing out tasks allocates nothing either (counted on every thread).
        if (threads == 2) def.tasks = scenes::poolTasks(pool);
        World world(def);
        scenes::buildWorld(world, scenes::makePile(30));
        for (int i = 0; i < 120; ++i) world.step(1.0 / 60.0);  // warm up: buffers reach their size
        long before = gAllocations.load();
        for (int i = 0; i < 30; ++i) world.step(1.0 / 60.0);  // still awake: the pile sleeps soon after
        long allocations = gAllocations.load() - before;  // before Catch allocates for its messages
        CAPTURE(int(solver), threads);
        CHECK(allocations == 0);
        CHECK(world.stats().awakeBodies > 0);  // it was really stepping, not asleep
    }
}
