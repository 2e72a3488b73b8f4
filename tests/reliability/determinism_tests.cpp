// Determinism: the SCENES pile stepped the same way gives the same bits in every run, in
// every build (default, clang, asan) and on every x86-64 CPU. The constant below is the
// state hash those builds agree on.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <string>

#include "build_world.h"
#include "pool_tasks.h"
#include "solver/world.h"

using namespace ragdoll;

namespace {

/// The "pile" of tests/scenes/SCENES.md: N stickmen, dt = 1/60 s, 4 substeps, gravity −10,
/// sleeping on; with `tasks`, the step split across its workers.
std::uint64_t pileHash(int stickmen, int steps, const TaskSystem& tasks = {}, bool boxes = false, int iterations = 1) {
    WorldDef def = defaultWorldDef();
    def.gravity = {0.0, -10.0};
    def.substeps = 4;
    def.iterations = iterations;
    def.enableSleep = true;
    def.tasks = tasks;
    World world(def);
    scenes::SceneSpec scene = scenes::makePile(stickmen);
    // Loose boxes on the ground: bodies outside every joint tree that several ragdolls'
    // contact rows push at once (solved one group after another, the rest as a task).
    for (int i = 0; boxes && i < 12; ++i) {
        scenes::BodySpec box;
        box.name = "box" + std::to_string(i);
        box.shape = scenes::ShapeKind::Box;
        box.p0 = {-55.0 + 1.1 * (45 + i), 0.2};  // under the stickmen of columns 45..56
        box.halfExtents = {0.5, 0.2};
        box.mass = 20.0;
        scene.bodies.push_back(box);
    }
    scenes::buildWorld(world, scene);
    for (int i = 0; i < steps; ++i) world.step(1.0 / 60.0);
    return world.stateHash();
}

/// The SCENES pile of 100 stickmen after 600 steps, whatever the build and thread count.
/// Last moved by two capsules' own manifold routine (collide.cpp, collideSegments: the same
/// manifolds but for their last bits and a few points' ids; 0xa35c4e66d68146eb before, and
/// 0x639e822604e6d332 before parallel edges whose ends line up met at two points, and
/// 0x3ffce1e7c0415aa4 before capsules kept their unit normals, capsuleShape; and
/// 0xb2da2b681a6650cc before still bodies slept sooner, kStillSpeed;
/// 0x3e6d6518ad6c15c8 before the trees' contact points were made a little soft, and
/// 0x6c6f015705ba73c8 before the sleeping islands' ids were counted past the highest
/// island root rather than the slot count).
constexpr std::uint64_t kPileHash = 0xd3669b96185543d2ull;

std::string hexHash(std::uint64_t hash) {
    char text[32];
    std::snprintf(text, sizeof text, "0x%016" PRIx64, hash);
    return text;
}

}  // namespace

TEST_CASE("the pile of 100 stickmen after 600 steps has the same state hash in every build", "[reliability][determinism]") {
    // The same bits whatever the compiler, optimisation and CPU: the solver uses no libm
    // function whose last bit may vary (see solver/trig.cpp) and contracts nothing into FMAs.
    // If a solver change moves kPileHash, the change altered the simulation: check that
    // it is meant to, then update the constant from the message below.
    const std::uint64_t hash = pileHash(100, 600);
    CAPTURE(hexHash(hash));
    REQUIRE(hash == kPileHash);
}

TEST_CASE("the state hash sees a one-bit change of any body's motion", "[reliability][determinism]") {
    WorldDef def = defaultWorldDef();
    World world(def);
    scenes::BuiltScene built = scenes::buildWorld(world, scenes::makePile(2));
    for (int i = 0; i < 10; ++i) world.step(1.0 / 60.0);
    const std::uint64_t before = world.stateHash();
    CHECK(world.stateHash() == before);  // reading it changes nothing
    BodyId limb = built.bodies.back();
    BodyState s = world.bodyState(limb);
    world.setVelocity(limb, s.linearVelocity, std::nextafter(s.angularVelocity, 1e300));
    CHECK(world.stateHash() != before);
}

TEST_CASE("the pile's state hash is the same whatever the number of threads", "[reliability][determinism][threads]") {
    // The step's tasks write only what their items own and everything shared is merged in
    // item order on the calling thread, so the bits cannot depend on who ran what: the hash
    // is kPileHash with 2 threads as with none, and tasks really ran on both.
    paper::JobPool pool(2);
    const std::uint64_t two = pileHash(100, 600, scenes::poolTasks(pool));
    CAPTURE(hexHash(two));
    CHECK(two == kPileHash);
    CHECK(pool.rangesRun(0) > 0);
    CHECK(pool.rangesRun(1) > 0);  // the pool's thread took ranges, not only the caller

    // With loose boxes several ragdolls push at once (their contact passes keep to group order).
    const std::uint64_t serial = pileHash(60, 300, {}, true);
    CAPTURE(hexHash(serial));
    CHECK(pileHash(60, 300, scenes::poolTasks(pool), true) == serial);
    paper::JobPool three(3);  // more threads than this machine may have cores: the same bits
    CHECK(pileHash(60, 300, scenes::poolTasks(three), true) == serial);

    // Two iterations a substep: the trees are solved after each sweep of the contacts.
    const std::uint64_t twice = pileHash(60, 300, {}, true, 2);
    CAPTURE(hexHash(twice));
    CHECK(twice != serial);
    CHECK(pileHash(60, 300, scenes::poolTasks(pool), true, 2) == twice);
}

TEST_CASE("contacts between ragdolls swept in lanes give the same bits whatever the number of threads",
          "[reliability][determinism][threads]") {
    // A pile of 200 stickmen has enough contacts between ragdolls to cut them into lanes
    // that two threads sweep at once (ContactLanes). Under it, a 100 m plank with crates on
    // it: one body whose contacts with the crates reach across many lanes, swept after them.
    auto run = [](const TaskSystem& tasks, bool plank, int& mostLanes, int& mostCrossing) {
        WorldDef def = defaultWorldDef();
        def.gravity = {0.0, -10.0};
        def.tasks = tasks;
        World world(def);
        scenes::SceneSpec scene = scenes::makePile(200);
        if (plank) {
            for (scenes::BodySpec& b : scene.bodies)
                if (!b.isStatic) b.p0.y += 0.7, b.p1.y += 0.7;
            scenes::BodySpec board;
            board.name = "plank";
            board.shape = scenes::ShapeKind::Box;
            board.p0 = {0.0, 0.2};
            board.halfExtents = {50.0, 0.2};
            board.mass = 1000.0;
            scene.bodies.push_back(board);
            for (int i = 0; i < 50; ++i) {
                scenes::BodySpec crate = board;
                crate.name = "crate" + std::to_string(i);
                crate.p0 = {-49.0 + 2.0 * i, 0.55};
                crate.halfExtents = {0.3, 0.15};
                crate.mass = 10.0;
                scene.bodies.push_back(crate);
            }
        }
        scenes::buildWorld(world, scene);
        mostLanes = mostCrossing = 0;
        for (int i = 0; i < 60; ++i) {
            world.step(1.0 / 60.0);
            mostLanes = std::max(mostLanes, world.stats().contactLanes);
            mostCrossing = std::max(mostCrossing, world.stats().crossingContacts);
        }
        return world.stateHash();
    };
    paper::JobPool two(2), three(3);
    for (bool plank : {false, true}) {
        CAPTURE(plank);
        int lanes = 0, crossing = 0, lanes2 = 0, crossing2 = 0, lanes3 = 0, crossing3 = 0;
        const std::uint64_t serial = run({}, plank, lanes, crossing);
        CAPTURE(hexHash(serial), lanes, crossing);
        CHECK(lanes >= 4);
        if (plank) CHECK(crossing >= 10);
        CHECK(run(scenes::poolTasks(two), plank, lanes2, crossing2) == serial);
        CHECK(run(scenes::poolTasks(three), plank, lanes3, crossing3) == serial);
        CHECK(lanes2 == lanes);
        CHECK(crossing3 == crossing);
    }
}

TEST_CASE("without both task callbacks the step runs on the calling thread", "[reliability][determinism][threads]") {
    // A host that offers workers but no callbacks (or drops one) gets the serial step.
    TaskSystem broken;
    broken.workerCount = 4;
    broken.enqueueTask = [](TaskFn*, int, int, void*, void*) -> void* { return nullptr; };  // no finishTask
    WorldDef def = defaultWorldDef();
    def.tasks = broken;
    World world(def);
    CHECK(world.def().tasks.workerCount == 1);
    // A host that runs every task itself before returning (enqueueTask returns null, as
    // Box2D v3 allows): the step goes on with the same bits.
    TaskSystem inline_;
    inline_.workerCount = 2;
    static int calls = 0;
    calls = 0;
    inline_.enqueueTask = [](TaskFn* task, int itemCount, int, void* taskContext, void*) -> void* {
        ++calls;
        task(0, itemCount / 2, 0, taskContext);
        task(itemCount / 2, itemCount, 1, taskContext);
        return nullptr;
    };
    inline_.finishTask = [](void*, void*) { FAIL("finishTask called for a task that had already run"); };
    CHECK(pileHash(30, 120, inline_) == pileHash(30, 120));
    CHECK(calls > 0);
}
