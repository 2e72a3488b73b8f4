// The lanes of body-by-body contacts (solver/contact_lanes.h): what makes running them on
// several threads safe and keeps the sweep's order, checked on the cut itself, without
// threads.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <vector>

#include "solver/constants.h"
#include "solver/contact_lanes.h"

using namespace ragdoll;

namespace {

/// Runs every item of a task on the calling thread, one at a time, and says which task
/// (a phase of ContactLanes::sweep) and which item (a lane) is running.
struct RecordingTasks {
    int phase = -1, item = -1;
    static void* enqueue(TaskFn* task, int itemCount, int, void* context, void* user) {
        auto* self = static_cast<RecordingTasks*>(user);
        ++self->phase;
        for (int i = 0; i < itemCount; ++i) {
            self->item = i;
            task(i, i + 1, 0, context);
        }
        self->item = -1;  // back on the calling thread: the crossing lane
        return nullptr;
    }
    static void finish(void*, void*) {}
    TaskSystem system() {
        TaskSystem t;
        t.workerCount = 2;
        t.enqueueTask = &enqueue;
        t.finishTask = &finish;
        t.userContext = this;
        return t;
    }
};

}  // namespace

TEST_CASE("lanes that run at once share no body that moves, and each keeps the contacts' order", "[solver][threads]") {
    // A wide scene: 3000 bodies along 200 m, each contact with a neighbour within 0.6 m, a
    // few with a body 30 m away (across slabs of 12.5 m), a fifth with the static ground.
    std::mt19937 random(7);
    std::uniform_real_distribution<double> along(-100.0, 100.0), near(-0.6, 0.6);
    std::vector<BodySim> sims(3001);
    sims[0].dynamic = false;  // the ground
    for (size_t i = 1; i < sims.size(); ++i) {
        sims[i].dynamic = true;
        sims[i].center = {along(random), 0.5};
    }
    std::vector<Contact> contacts;
    std::uniform_int_distribution<int> body(1, 3000);
    for (int k = 0; k < 6000; ++k) {
        Contact c;
        c.bodyA = body(random);
        if (k % 5 == 0) {
            c.bodyB = 0;  // on the ground
        } else {
            // A neighbour: the body whose centre is nearest a point near A (a plank every
            // 500 contacts reaches 30 m, past the next slab of 12.5 m).
            const double reach = k % 500 == 1 ? 30.0 : 0.0;
            const double target = sims[size_t(c.bodyA)].center.x + near(random) + reach;
            int best = c.bodyA == 1 ? 2 : 1;
            for (int i = 1; i <= 3000; ++i)
                if (i != c.bodyA && std::abs(sims[size_t(i)].center.x - target) < std::abs(sims[size_t(best)].center.x - target))
                    best = i;
            c.bodyB = best;
        }
        contacts.push_back(c);
    }
    std::vector<int> order(contacts.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = int(i);

    ContactLanes lanes;
    lanes.build(order, contacts, sims, TaskSystem{});
    CHECK(lanes.laneCount() == kMaxLanes);
    CHECK(lanes.crossingCount() > 0);  // the planks
    CHECK(lanes.crossingCount() < 20);

    RecordingTasks recorder;
    const TaskSystem tasks = recorder.system();
    // Per phase and body: the lane that moved it. Per contact: when it was solved.
    std::map<std::pair<int, int>, int> laneOfBody;
    std::vector<int> solvedAt(contacts.size(), -1);
    std::map<std::pair<int, int>, int> lastInLane;  // (phase, lane) → last contact solved there
    int time = 0, conflicts = 0, outOfOrder = 0;
    lanes.sweep(tasks, [&](int ci) {
        const Contact& c = contacts[size_t(ci)];
        solvedAt[size_t(ci)] = time++;
        if (recorder.item < 0) return;  // the crossing lane runs alone
        for (int b : {c.bodyA, c.bodyB}) {
            if (!sims[size_t(b)].dynamic) continue;
            auto [at, fresh] = laneOfBody.emplace(std::make_pair(recorder.phase, b), recorder.item);
            if (!fresh && at->second != recorder.item) ++conflicts;
        }
        const auto key = std::make_pair(recorder.phase, recorder.item);
        if (lastInLane.count(key) && lastInLane[key] > ci) ++outOfOrder;
        lastInLane[key] = ci;
    });
    CHECK(recorder.phase == 1);  // the even lanes, then the odd ones
    CHECK(conflicts == 0);
    CHECK(outOfOrder == 0);
    CHECK(std::count(solvedAt.begin(), solvedAt.end(), -1) == 0);  // every contact, once each
    CHECK(time == int(contacts.size()));
}

TEST_CASE("a scene with few contacts between bodies is one lane, swept in its order", "[solver][threads]") {
    std::vector<BodySim> sims(11);
    for (size_t i = 0; i < sims.size(); ++i) {
        sims[i].dynamic = i > 0;
        sims[i].center = {double(i), 0.0};
    }
    std::vector<Contact> contacts;
    for (int i = 1; i < 10; ++i) {
        Contact c;
        c.bodyA = i;
        c.bodyB = i % 3 == 0 ? 0 : i + 1;
        contacts.push_back(c);
    }
    const std::vector<int> order = {8, 0, 3, 5, 1, 2, 7, 4, 6};
    ContactLanes lanes;
    lanes.build(order, contacts, sims, TaskSystem{});
    CHECK(lanes.laneCount() == 1);
    CHECK(lanes.crossingCount() == 0);
    std::vector<int> swept;
    lanes.sweep(TaskSystem{}, [&](int ci) { swept.push_back(ci); });
    CHECK(swept == order);
}
