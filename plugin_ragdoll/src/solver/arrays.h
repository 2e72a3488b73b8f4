// The solver's arrays are reused from step to step: a warmed step allocates nothing.
#pragma once

#include <algorithm>
#include <cstddef>
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

}  // namespace ragdoll
