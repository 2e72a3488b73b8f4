// The body-by-body contacts split into lanes along x, so that two threads can sweep them
// at once and the result does not depend on how many do.
//
// Gauss-Seidel over the contacts in the broadphase's order (along x) carries a push
// through a stack of bodies within one sweep, which is what lets a resting pile fall
// asleep; colouring the contacts (Box2D v3) breaks that (solver/NOTES.md, "Speed"), and
// islands do not split a pile (nearly all its contacts are one island). Lanes keep the
// order: the x range of the contacts is cut into slabs holding about as many contacts
// each, every body belongs to the slab of its centre, and a contact to the lane of the
// lower slab of its movable bodies. A lane's contacts touch bodies of its own slab and
// the next one only, so the even lanes can run together, then the odd ones; each lane
// sweeps its contacts in their order. A contact whose bodies are further apart (a body
// longer than a slab) waits for a last lane of its own, swept alone. The cut depends on
// the contacts only, never on the worker count, so every count gives the same bits.
#pragma once

#include <array>
#include <vector>

#include "solver/body.h"
#include "solver/contact.h"
#include "solver/tasks.h"

namespace ragdoll {

class ContactLanes {
public:
    /// Splits the given contacts (indices into `contacts`, in the order they are to be
    /// swept) into lanes by the centres of their bodies that can move (BodySim::dynamic).
    /// Once per step: the bodies keep their lane while they move within it.
    void build(const std::vector<int>& order, const std::vector<Contact>& contacts, const std::vector<BodySim>& sims,
               const TaskSystem& tasks);

    /// Calls solve(contactIndex) for every contact: the even lanes as one task, the odd
    /// ones as a second, then the contacts crossing lanes on the calling thread.
    template <class Fn>
    void sweep(const TaskSystem& tasks, const Fn& solve) const {
        auto lane = [&](int k) {
            for (int i = laneStart_[size_t(k)]; i < laneStart_[size_t(k) + 1]; ++i) solve(contacts_[size_t(i)]);
        };
        for (int parity = 0; parity < 2; ++parity)
            runTask(tasks, (laneCount_ - parity + 1) / 2, 1, [&](int begin, int end, int) {
                for (int k = begin; k < end; ++k) lane(2 * k + parity);
            });
        lane(laneCount_);
    }

    std::size_t memoryBytes() const {
        return (contacts_.capacity() + laneStart_.capacity() + laneOf_.capacity()) * sizeof(int) + places_.capacity() * sizeof(Vec2) +
               workerHistograms_.capacity() * sizeof(workerHistograms_[0]);
    }
    int laneCount() const { return laneCount_; }
    /// Contacts in the last lane, swept on the calling thread.
    int crossingCount() const { return laneStart_[size_t(laneCount_) + 1] - laneStart_[size_t(laneCount_)]; }

private:
    static constexpr int kBins = 256;
    static constexpr int kPlacesPerRange = 1024;  ///< contacts per range of build()'s task
    int binOf(double x) const;

    int laneCount_ = 0;
    std::vector<int> contacts_;   ///< contact indices, lane by lane, each lane in the given order
    std::vector<int> laneStart_{0, 0};  ///< per lane, and the crossing lane, where it starts in contacts_
    std::vector<int> laneOf_;     ///< per given contact, scratch
    std::vector<Vec2> places_;    ///< per given contact, scratch: its bodies' x (NaN: cannot move)
    double lowestX_ = 0.0, binWidth_ = 1.0;
    std::array<int, kBins> binSlab_{};  ///< the slab of each histogram bin of x
    std::vector<std::array<int, kBins>> workerHistograms_;  ///< per worker, scratch
};

}  // namespace ragdoll
