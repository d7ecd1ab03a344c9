// A thread's value coordinates as value 0's plus per-value constants.
#pragma once

#include "tessera/kernels/thread_coords.hpp"

namespace tessera::kernels {

// The coordinates of a thread's values as its value 0's plus a delta that is the same for
// every thread: a TV layout maps (t, v) to a thread part plus a value part, and in the
// kernels' partitions the parts never carry into each other's mode (tests/kernels/
// partition_trace_test.cpp checks every thread).  Value v's coordinate then costs adds of
// constants, where decoding it from the identity tensor costs a 64-bit division by the tile's
// extent per value (~10 instructions; 128 accumulators made the tensor-core epilogue 2563
// instructions per warp, ncu 1000^3, bench/RESULTS.md).
template <int N>
struct ValueDeltas {
  TileCoord d[N];
};
template <class Coords>
TESSERA_HOST_DEVICE constexpr auto value_deltas(Coords const& c) {
  ValueDeltas<Coords::size()> r{};
  const TileCoord c0 = c(0);
  for (int v = 0; v < Coords::size(); ++v) {
    const TileCoord x = c(v);
    r.d[v] = {x.row - c0.row, x.col - c0.col};
  }
  return r;
}

}  // namespace tessera::kernels
