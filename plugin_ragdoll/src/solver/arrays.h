// The solver's arrays are reused from step to step: a warmed step allocates nothing.
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <vector>

namespace ragdoll {

/// Resizes v to n, growing its capacity at least twofold when it must grow, so an array
/// resized every step stops allocating once it has held its largest size. (resize alone
/// grows to twice the current size, which after a smaller step may be barely enough.)
template <class T>
void resizeWithHeadroom(std::vector<T>& v, std::size_t n) {
    if (n > v.capacity()) v.reserve(std::max(n, 2 * v.capacity()));
    v.resize(n);
}

/// Free slots of a pool kept as a min-heap (World's bodies and joints): the lowest is taken
/// first, whatever order the slots were freed in.
inline int takeLowestSlot(std::vector<int>& freeSlots) {
    std::pop_heap(freeSlots.begin(), freeSlots.end(), std::greater<int>());
    const int slot = freeSlots.back();
    freeSlots.pop_back();
    return slot;
}
inline void releaseSlot(std::vector<int>& freeSlots, int slot) {
    freeSlots.push_back(slot);
    std::push_heap(freeSlots.begin(), freeSlots.end(), std::greater<int>());
}

/// Counting sort: each item i of 0..count-1 with a bucket b = bucketOf(i) in
/// [0, bucketCount) goes to `sorted` as valueOf(i), bucket by bucket and in item order
/// within one (a negative bucket leaves the item out); bucket b's items are
/// sorted[start[b] .. start[b + 1]). Reused arrays: no allocation once warmed.
template <class BucketOf, class ValueOf>
void sortIntoBuckets(int count, int bucketCount, const BucketOf& bucketOf, const ValueOf& valueOf, std::vector<int>& start,
                     std::vector<int>& sorted) {
    start.assign(std::size_t(bucketCount) + 1, 0);
    for (int i = 0; i < count; ++i)
        if (const int b = bucketOf(i); b >= 0) ++start[std::size_t(b) + 1];
    for (int b = 0; b < bucketCount; ++b) start[std::size_t(b) + 1] += start[std::size_t(b)];
    sorted.resize(std::size_t(start[std::size_t(bucketCount)]));
    for (int i = 0; i < count; ++i)
        if (const int b = bucketOf(i); b >= 0) sorted[std::size_t(start[std::size_t(b)]++)] = valueOf(i);
    for (int b = bucketCount; b > 0; --b) start[std::size_t(b)] = start[std::size_t(b) - 1];
    start[0] = 0;
}

}  // namespace ragdoll
