// gmem -> smem loader of one operand's MN x BK tiles, k-tile after k-tile.
//
// What a thread needs is derived once, in the constructor, from the tessera objects: its
// first copy's coordinate (the G2S tiled copy's partition at this thread), that
// coordinate's gmem address in k-tile 0 (local_tile of the operand tensor), the gmem
// offsets of the next copy and of the next k-tile (the operand layout at the copy step and
// at (0, BK): static for a K-major k step), and which copies' rows lie inside the operand.
// A load then costs a pointer add, a predicate and the smem offset (the stage layout) per
// copy.  Recomputing the addresses through local_tile on every k-tile cost ~30 integer
// instructions per copy (ncu on an H100, 4096^3 bf16: 5.4 instructions per HMMA, ALU pipe
// 30% busy; bench/RESULTS.md).  Host and device: tests/kernels/tile_loader_test.cpp runs
// it for every thread against local_tile.
#pragma once

#include <cstdint>

#include "tessera/kernels/partitions.hpp"

namespace tessera::kernels {

template <class T, class Copy, bool KMajor>
struct TileLoader {
  static constexpr int MN = Copy::Extent, BK = Copy::Depth, N = Copy::Copies, V = Copy::Vector;
  static_assert(N <= 32, "one residue bit per copy");

  TESSERA_HOST_DEVICE static constexpr auto make_gmem(const T* b, std::int64_t ld, std::int64_t extent_mn,
                                                      std::int64_t extent_k) {
    if constexpr (KMajor) return make_tensor(b, make_layout(make_shape(extent_mn, extent_k), make_stride(ld, _1{})));
    else return make_tensor(b, make_layout(make_shape(extent_mn, extent_k), make_stride(_1{}, ld)));
  }
  // Copy i is copy 0 moved by i Step, the same for every thread (copy_step_of).
  static constexpr TileCoord Step = copy_step_of<Copy>();
  using Gmem = decltype(make_gmem(nullptr, 0, 0, 0));
  // gmem offsets as the operand's layout gives them: a step along one mode is that mode's
  // stride times the step, static where the stride is (the k step of a K-major operand is BK,
  // the MN step of a Deep MN-major copy is Step.row).
  TESSERA_HOST_DEVICE static constexpr auto k_step_of(Gmem const& g) { return stride<1>(g.layout()) * C<BK>{}; }
  TESSERA_HOST_DEVICE static constexpr auto step_of(Gmem const& g) {
    if constexpr (Step.col == 0) return stride<0>(g.layout()) * C<Step.row>{};
    else if constexpr (Step.row == 0) return stride<1>(g.layout()) * C<Step.col>{};
    else return g.layout()(make_coord(C<Step.row>{}, C<Step.col>{}));
  }

  static constexpr std::uint32_t AllRows = N == 32 ? ~0u : (1u << N) - 1;
  const T* base;          // the operand's first element: the address masked copies name
  const T* next;          // copy 0's first element in the next k-tile to load
  decltype(step_of(Gmem{})) step;      // gmem offset from copy i to copy i+1
  decltype(k_step_of(Gmem{})) k_step;  // gmem offset from one k-tile to the next
  int res_k;              // k extent left from the next k-tile's first column on (K < 2^31: check_arguments)
  TileCoord first;        // copy 0's coordinate in the tile
  std::uint32_t row_ok;   // bit i: copy i's row lies inside the operand

  // thread: the thread index (threadIdx.x in the kernels; every index in the host test).
  // tile_k: the first k-tile to load (a split-K slice starts inside K; its end is extent_k).
  TESSERA_HOST_DEVICE TileLoader(const T* b, std::int64_t ld, std::int64_t extent_mn, std::int64_t extent_k,
                                 std::int64_t tile_mn, int thread, std::int64_t tile_k = 0)
      : base(b), res_k(int(extent_k - tile_k * BK)), row_ok(0) {
    const auto gmem = make_gmem(b, ld, extent_mn, extent_k);
    const auto tile = local_tile(gmem, make_shape(C<MN>{}, C<BK>{}), make_coord(tile_mn, tile_k));
    const auto coords = Copy::coords(thread);
    first = coords(0);
    next = &tile(first.row, first.col);
    step = step_of(gmem);
    k_step = k_step_of(gmem);
    const std::int64_t res_mn = extent_mn - tile_mn * MN;
#pragma unroll
    for (int i = 0; i < N; ++i) {
      const TileCoord c = coords(V * i);
      row_ok |= std::uint32_t(c.row < res_mn) << i;
    }
  }

  // Copy i's coordinate in the tile.
  TESSERA_HOST_DEVICE TESSERA_INLINE TileCoord at(int i) const { return {first.row + i * Step.row, first.col + i * Step.col}; }

  // Loads the next k-tile: issue(smem destination, gmem source, predicate) per copy.  A
  // copy is all inside or all outside in k: vectors run along k only for K-major operands,
  // whose K the vector path requires to be a multiple of V (select_kernel checks).
  // smem_offset(TileCoord) -> offset of the coordinate in a stage (evaluated here, not kept:
  // registers are the tensor-core kernel's scarcest resource).
#ifdef __CUDACC__
#pragma nv_exec_check_disable
#endif
  template <class SmemOffset, class Issue>
  TESSERA_HOST_DEVICE TESSERA_INLINE void load(T* stage, SmemOffset&& smem_offset, Issue&& issue) {
    load_copies<false>(stage, [&](int i) { return smem_offset(at(i)); }, issue);
  }
  // The same through a stage layout type Smem (OperandSmem): where the copy step passes
  // through its swizzle unchanged (Smem::uniform_step, or repeat_step for N copies from copy
  // 0), copy i's offset is copy 0's plus i constant steps -- one swizzle evaluation per k-tile
  // instead of one per copy, and immediate smem offsets.
  // Full = true: the caller knows the tile is whole (tile_inside and full_tiles_left() > 0), so
  // the copies go out without predicate or branch.
#ifdef __CUDACC__
#pragma nv_exec_check_disable
#endif
  template <class Smem, bool Full = false, class Issue>
  TESSERA_HOST_DEVICE TESSERA_INLINE void load_through(T* stage, Issue&& issue) {
    if constexpr (Smem::template uniform_step<Step.row, Step.col> || Smem::template repeat_step<Step.row, Step.col, N>) {
      const std::int64_t off0 = Smem::offset(first);
      load_copies<Full>(stage, [&](int i) { return off0 + i * Smem::template plain_step<Step.row, Step.col>; },
                        issue);
    } else {
      load_copies<Full>(stage, [&](int i) { return Smem::offset(at(i)); }, issue);
    }
  }

  // The CTA's tile tile_mn lies inside the operand's MN extent, so every thread's copies do
  // (row_ok == AllRows): the same answer for every thread of the CTA.
  TESSERA_HOST_DEVICE static bool tile_inside(std::int64_t extent_mn, std::int64_t tile_mn) {
    return (tile_mn + 1) * MN <= extent_mn;
  }
  // k-tiles from the next on that are whole (k residue >= BK): the same for every thread.
  TESSERA_HOST_DEVICE int full_tiles_left() const { return res_k > 0 ? res_k / BK : 0; }

 private:
#ifdef __CUDACC__
#pragma nv_exec_check_disable
#endif
  template <bool Full, class OffsetOf, class Issue>
  TESSERA_HOST_DEVICE TESSERA_INLINE void load_copies(T* stage, OffsetOf&& offset_of, Issue&& issue) {
    const T* src = next;
    if (Full || (res_k >= BK && row_ok == AllRows)) {
      // Interior tile (every tile of a large problem but the last row / column of tiles):
      // no predicate, no masked address -- the copies are all the loop issues.
#pragma unroll
      for (int i = 0; i < N; ++i, src += step) issue(stage + offset_of(i), src, true);
    } else if (res_k >= BK) {
#pragma unroll
      for (int i = 0; i < N; ++i, src += step) {
        const bool pred = (row_ok >> i) & 1u;
        issue(stage + offset_of(i), pred ? src : base, pred);
      }
    } else {  // the last, partial k-tile: the column decides too
#pragma unroll
      for (int i = 0; i < N; ++i, src += step) {
        const bool pred = ((row_ok >> i) & 1u) && at(i).col < res_k;
        issue(stage + offset_of(i), pred ? src : base, pred);
      }
    }
    next += k_step;
    res_k -= BK;
  }
};

}  // namespace tessera::kernels
