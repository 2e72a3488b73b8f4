#include "solver/contact_lanes.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "solver/arrays.h"
#include "solver/constants.h"

namespace ragdoll {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}  // namespace

int ContactLanes::binOf(double x) const {
    return int(std::clamp(std::floor((x - lowestX_) / binWidth_), 0.0, double(kBins - 1)));
}

void ContactLanes::build(const std::vector<int>& order, const std::vector<Contact>& contacts,
                         const std::vector<BodySim>& sims, const TaskSystem& tasks) {
    const int count = int(order.size());
    // Each contact's bodies' x, read once (NaN for a body that cannot move, which belongs
    // to no slab), and where the contact is counted: at a body of it that can move. As a
    // task (each worker's extremes merged after: the same whoever ran what).
    places_.resize(size_t(count));
    auto placeOf = [&](int k) { return std::isnan(places_[size_t(k)].x) ? places_[size_t(k)].y : places_[size_t(k)].x; };
    std::array<double, kMaxWorkers> workerLowest, workerHighest;
    workerLowest.fill(kInfinity);
    workerHighest.fill(-kInfinity);
    runTask(tasks, count, kPlacesPerRange, [&](int begin, int end, int worker) {
        double low = workerLowest[size_t(worker)], high = workerHighest[size_t(worker)];
        for (int k = begin; k < end; ++k) {
            const Contact& c = contacts[size_t(order[size_t(k)])];
            const BodySim& a = sims[size_t(c.bodyA)];
            const BodySim& b = sims[size_t(c.bodyB)];
            places_[size_t(k)] = {a.dynamic ? a.center.x : kNaN, b.dynamic ? b.center.x : kNaN};
            low = std::min(low, placeOf(k));
            high = std::max(high, placeOf(k));
        }
        workerLowest[size_t(worker)] = low;
        workerHighest[size_t(worker)] = high;
    });
    const double lowest = *std::min_element(workerLowest.begin(), workerLowest.end());
    const double highest = *std::max_element(workerHighest.begin(), workerHighest.end());
    // As many slabs as keep kLaneContacts in each, and each at least kLaneWidth wide; a
    // small scene is one lane, swept as it always was.
    int slabs = std::clamp(count / kLaneContacts, 1, kMaxLanes);
    if (count > 0) slabs = std::min(slabs, std::max(1, int((highest - lowest) / kLaneWidth)));
    lowestX_ = count > 0 ? lowest : 0.0;
    binWidth_ = count > 0 && highest > lowest ? (highest - lowest) / kBins * (1.0 + 1e-9) : 1.0;

    // Slabs cut where the running count of contacts passes each share (the contacts'
    // histogram along x, each worker's summed after), but never narrower than kLaneWidth.
    const int workers = std::clamp(tasks.workerCount, 1, kMaxWorkers);
    workerHistograms_.resize(size_t(workers));
    for (std::array<int, kBins>& h : workerHistograms_) h.fill(0);
    runTask(tasks, count, kPlacesPerRange, [&](int begin, int end, int worker) {
        std::array<int, kBins>& h = workerHistograms_[size_t(worker)];
        for (int k = begin; k < end; ++k) ++h[size_t(binOf(placeOf(k)))];
    });
    std::array<int, kBins> histogram{};
    for (const std::array<int, kBins>& h : workerHistograms_)
        for (int bin = 0; bin < kBins; ++bin) histogram[size_t(bin)] += h[size_t(bin)];
    int slab = 0, seen = 0, slabFirstBin = 0;
    for (int bin = 0; bin < kBins; ++bin) {
        binSlab_[size_t(bin)] = slab;
        seen += histogram[size_t(bin)];
        const bool wideEnough = (bin + 1 - slabFirstBin) * binWidth_ >= kLaneWidth;
        if (slab + 1 < slabs && wideEnough && seen * std::int64_t(slabs) >= std::int64_t(count) * (slab + 1)) {
            ++slab;
            slabFirstBin = bin + 1;
        }
    }
    laneCount_ = slab + 1;

    // Each contact to the lane of its lower slab, or to the crossing lane (laneCount_);
    // then a counting sort keeps the given order within each lane.
    laneOf_.resize(size_t(count));
    runTask(tasks, count, kPlacesPerRange, [&](int begin, int end, int) {
        for (int k = begin; k < end; ++k) {
            const Vec2 place = places_[size_t(k)];
            const int slabA = std::isnan(place.x) ? -1 : binSlab_[size_t(binOf(place.x))];
            const int slabB = std::isnan(place.y) ? -1 : binSlab_[size_t(binOf(place.y))];
            const int lower = slabA < 0 ? slabB : slabB < 0 ? slabA : std::min(slabA, slabB);
            const int lane = std::abs(slabA - slabB) <= 1 || slabA < 0 || slabB < 0 ? lower : laneCount_;
            laneOf_[size_t(k)] = lane;
        }
    });
    sortIntoBuckets(
        count, laneCount_ + 1, [&](int k) { return laneOf_[size_t(k)]; }, [&](int k) { return order[size_t(k)]; }, laneStart_,
        contacts_);
}

}  // namespace ragdoll
