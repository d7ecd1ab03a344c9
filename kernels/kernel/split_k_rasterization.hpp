// The SM80 tensor-op kernel's tile scheduler: grouped rasterization of the output tiles
// (GroupedRasterization<Group>, tile_scheduler.cuh) with the last wave split along K
// (SplitPlan, split_plan.cuh).  A CTA asks it for its work unit: which tile (m, n), which K
// slice of it and which k-tiles [k_begin, k_end); the kernel body does no scheduling of its own.
//
// The plan is chosen on the host (plan_last_wave_split, from the slots the GPU holds) and travels in the
// Problem (Problem::split_k); the default plan computes every tile whole.  Plain C++ with
// TESSERA_HOST_DEVICE: the host tests walk every CTA of a grid.
#pragma once

#include <cstddef>
#include <cstdint>

#include "problem.cuh"
#include "split_plan.cuh"
#include "tile_scheduler.cuh"

namespace tessera::kernels {

template <int Group_>
struct SplitKRasterization {
  static constexpr int Group = Group_;
  static constexpr bool Splits = true;  // partial tiles meet in a workspace (split_k.cuh)

  GroupedRasterization<Group> raster;
  // The problem's plan, by reference: in a kernel it stays in the parameter space (read as
  // constant operands, not copied into registers up front).
  const SplitPlan& plan;
  int k_tiles;  // ceil(K / BK)

  // What one CTA computes: output tile (tm, tn) = `tile` in rasterized order, over k-tiles
  // [k_begin, k_end); slice `slice` of split tile `tile - plan.whole` when sliced.
  struct WorkUnit {
    std::int64_t tile, tm, tn;
    int slice, k_begin, k_end;
    bool sliced;
  };

  // The scheduler of a problem tiled BM x BN x BK, under the problem's plan (a view of `p`).
  template <int BM, int BN, int BK>
  TESSERA_HOST_DEVICE static SplitKRasterization of(const Problem& p) {
    const auto tiles = output_tile_grid(p.m, p.n, C<BM>{}, C<BN>{});
    return {{tiles.m, tiles.n}, p.split_k, int(ceil_div(p.k, C<BK>{}))};
  }

  TESSERA_HOST_DEVICE std::int64_t tile_count() const { return raster.tile_count(); }
  // The grid's x extent: whole tiles, then a CTA per slice of each split tile.
  TESSERA_HOST_DEVICE std::int64_t ctas() const { return plan.ctas(tile_count()); }

  // CTA pid's work.  (In 32-bit words wherever the counts fit: three or more 64-bit
  // divisions per CTA otherwise, each a call, which short-K problems feel.)
  TESSERA_HOST_DEVICE TESSERA_INLINE WorkUnit work_of(std::int64_t pid) const {
    WorkUnit w;
    if (raster.fits_32bit() && plan.fits_32bit(raster.tile_count(), k_tiles)) {
      std::uint32_t t32;
      plan.work_of_32bit(std::uint32_t(pid), t32, w.slice);
      const auto t = raster.tile_of(t32);
      w.tile = t32, w.tm = t.m, w.tn = t.n;
      const bool sliced = t32 >= std::uint32_t(plan.whole);
      w.k_begin = sliced ? plan.k_begin_32bit(w.slice, k_tiles) : 0;
      w.k_end = sliced ? plan.k_begin_32bit(w.slice + 1, k_tiles) : k_tiles;
    } else {
      plan.work_of(pid, raster.tile_count(), w.tile, w.slice);
      const auto t = raster.tile_of(w.tile);
      w.tm = t.m, w.tn = t.n;
      const bool sliced = w.tile >= plan.whole;
      w.k_begin = sliced ? plan.k_begin(w.slice, k_tiles) : 0;
      w.k_end = sliced ? plan.k_begin(w.slice + 1, k_tiles) : k_tiles;
    }
    w.sliced = w.tile >= plan.whole;
    return w;
  }
};

// Host: the plan for `slots` co-resident CTAs (SMs x CTAs per SM): at most 8 slices, each at
// least 4 k-tiles deep.  Batched problems are not split (the batch is gridDim.z; the slices
// meet per tile).
inline constexpr int kMaxSplit = 8, kMinSliceKTiles = 4;
inline SplitPlan plan_last_wave_split(std::int64_t tiles, int k_tiles, std::int64_t batch, int slots) {
  if (batch != 1 || slots <= 0) return {tiles, 1};
  return plan_split(tiles, k_tiles, slots, kMaxSplit, kMinSliceKTiles);
}
// Workspace a plan needs: an f32 accumulator tile (tile_elems floats) per slice of every
// split tile (the partials), then one arrival counter per split tile; 0 when nothing splits.
inline std::size_t split_partials_bytes(const SplitPlan& plan, std::int64_t tiles, std::int64_t tile_elems) {
  return std::size_t(tiles - plan.whole) * std::size_t(plan.split) * std::size_t(tile_elems) * sizeof(float);
}
inline std::size_t split_workspace_bytes(const SplitPlan& plan, std::int64_t tiles, std::int64_t tile_elems) {
  if (plan.split < 2) return 0;
  return split_partials_bytes(plan, tiles, tile_elems) + std::size_t(tiles - plan.whole) * sizeof(unsigned);
}

template <class Scheduler>
inline constexpr bool is_split_k_rasterization = false;
template <int Group>
inline constexpr bool is_split_k_rasterization<SplitKRasterization<Group>> = true;

}  // namespace tessera::kernels
