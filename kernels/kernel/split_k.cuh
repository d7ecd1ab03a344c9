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
#include "tessera/algorithm.hpp"

namespace tessera::kernels {

// acc: one thread's accumulators, a register tensor of floats whose size is a multiple of 4.
// The workspace slots are the layout (thread, j, slice, split tile) -> float4, column-major:
// float4 j (values 4j..4j+3 of the fragment) of every thread of one slice lies together, so a
// warp's stores of one j are 512 contiguous bytes.  Returns true in the CTA that must run
// the epilogue, with the tile's full sum in acc.
template <int Threads, class Acc>
__device__ __forceinline__ bool split_k_meet(const Problem& p, Acc& acc, std::int64_t split_tile, int slice) {
  constexpr int J = int(decltype(size(acc.layout()))::value) / 4;
  static_assert(J * 4 == int(decltype(size(acc.layout()))::value), "split-K moves the accumulators as float4");
  __shared__ unsigned last;
  const auto slots = make_layout(make_shape(C<Threads>{}, C<J>{}, p.split_k.split, split_tile + 1), LayoutLeft{});
  auto ws = make_tensor(reinterpret_cast<float4*>(p.partials), slots);
  const int t = threadIdx.x;
  // (4, J): the fragment as float4 words.
  auto words = make_tensor(acc.data(), composition(acc.layout(), make_layout(make_shape(_4{}, C<J>{}))));
  // This thread's J slots of one slice, (J):(Threads): one address and immediates (slots(t,
  // j, s, tile) per j became a 64-bit address per j, kept live across the slices' loop).
  auto mine = ws(t, _, slice, split_tile);
  tessera::detail::static_for_inlined<J>([&](auto j) {
    __stcg(&mine(j), make_float4(words(0, j), words(1, j), words(2, j), words(3, j)));
  });
  __threadfence();  // this thread's slot is visible device-wide before the CTA counts itself
  __syncthreads();
  if (threadIdx.x == 0) last = atomicAdd(&p.arrivals[split_tile], 1u) == unsigned(p.split_k.split - 1);
  __syncthreads();
  if (!last) return false;
  __threadfence();  // the other slices' slots, counted before us, are read after the count
  // The sum in slice order, whoever came last (own slot included, read back): one pass per
  // slice with all of its loads in flight at once.
  for (int s = 0; s < p.split_k.split; ++s) {
    auto theirs = ws(t, _, s, split_tile);
    tessera::detail::static_for_inlined<J>([&](auto j) {
      const float4 v = __ldcg(&theirs(j));
      if (s == 0) {
        words(0, j) = v.x; words(1, j) = v.y; words(2, j) = v.z; words(3, j) = v.w;
      } else {
        words(0, j) += v.x; words(1, j) += v.y; words(2, j) += v.z; words(3, j) += v.w;
      }
    });
  }
  return true;
}

}  // namespace tessera::kernels
