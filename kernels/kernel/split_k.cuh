// Split-K meeting point: the K slices of one output tile add up their f32 accumulators.
//
// Every slice stores its accumulators in its own slot of the workspace, then counts itself
// in the tile's arrival counter; the slice that arrives last adds all slots in slice order
// and goes on to the epilogue, the others are done.  Nobody waits for anybody, so no
// co-residency is assumed, and the sum's order does not depend on which slice came last:
// results are deterministic.
#pragma once

#include <cstdint>

#include "problem.cuh"
#include "tessera/layout.hpp"

namespace tessera::kernels {

// Accum: float[MT][NT][4], one thread's accumulators.  The workspace slots are the layout
// (thread, j, slice, split tile) -> float4, column-major: float4 j = (mt, nt) of every
// thread of one slice lies together, so a warp's stores of one j are 512 contiguous bytes.
// Returns true in the CTA that must run the epilogue, with the tile's full sum in acc.
template <int Threads, int MT, int NT>
__device__ bool split_k_meet(const Problem& p, float (&acc)[MT][NT][4], std::int64_t split_tile, int slice) {
  __shared__ unsigned last;
  const auto slots = make_layout(make_shape(C<Threads>{}, C<MT * NT>{}, p.split_k.split, split_tile + 1), LayoutLeft{});
  float4* ws = reinterpret_cast<float4*>(p.partials);
  const int t = threadIdx.x;
#pragma unroll
  for (int mt = 0; mt < MT; ++mt)
#pragma unroll
    for (int nt = 0; nt < NT; ++nt) {
      const float* a = acc[mt][nt];
      __stcg(ws + slots(t, mt * NT + nt, slice, split_tile), make_float4(a[0], a[1], a[2], a[3]));
    }
  __threadfence();  // this thread's slot is visible device-wide before the CTA counts itself
  __syncthreads();
  if (threadIdx.x == 0) last = atomicAdd(&p.arrivals[split_tile], 1u) == unsigned(p.split_k.split - 1);
  __syncthreads();
  if (!last) return false;
  __threadfence();  // the other slices' slots, counted before us, are read after the count
  // The sum in slice order, whoever came last (own slot included, read back): one pass per
  // slice with all of its loads in flight at once.
  for (int s = 0; s < p.split_k.split; ++s) {
#pragma unroll
    for (int mt = 0; mt < MT; ++mt)
#pragma unroll
      for (int nt = 0; nt < NT; ++nt) {
        const float4 v = __ldcg(ws + slots(t, mt * NT + nt, s, split_tile));
        float* a = acc[mt][nt];
        if (s == 0) {
          a[0] = v.x; a[1] = v.y; a[2] = v.z; a[3] = v.w;
        } else {
          a[0] += v.x; a[1] += v.y; a[2] += v.z; a[3] += v.w;
        }
      }
  }
  return true;
}

}  // namespace tessera::kernels
