// Persistent tile scheduler (SM90 kernels): a grid of about one CTA per SM walks the output
// tiles linear = blockIdx.x, blockIdx.x + gridDim.x, ...; a tile's l and its tile in the
// batch come from idx2crd over (tiles per batch, batch), its (m, n) from the grouped raster
// (tile_scheduler.cuh): `group` M-tiles run down one N column before the next column, so
// consecutive CTAs share B tiles and a group's A tiles stay in L2 across the columns.
#pragma once

#include <cstdint>

#include <tessera/int_tuple.hpp>

#include "tile_scheduler.cuh"

namespace tessera::kernels::sm90 {

// The raster group: 16 CTA tiles down M in each N column before the next column (bench
// --group: 8 and 16 best), counted in the raster's tiles, which are cluster tiles of
// ClusterM CTA tiles.
inline constexpr int raster_group_ctas = 16;
TESSERA_HOST_DEVICE constexpr int64_t raster_group(int cluster_m) { return raster_group_ctas / cluster_m; }

struct PersistentTileScheduler {
  int64_t tiles_m = 0, tiles_n = 0, batch = 1;  // cluster tiles (raster_of)
  int64_t group = raster_group(1);

  struct Tile {
    int64_t m, n, l;
  };

  TESSERA_HOST_DEVICE constexpr int64_t tile_count() const { return tiles_m * tiles_n * batch; }

  // Whether every count the raster divides fits 32 bits: tile() then divides in 32-bit words,
  // which a GPU does inline in a few instructions; a 64-bit division is a call to a software
  // routine, and tile() makes several of them, a visible share of a tile's time when its k-range
  // is short (bench/notes/sm90_gemm.md has the per-tile timeline).
  TESSERA_HOST_DEVICE constexpr bool fits_32bit() const {
    return tiles_m >= 0 && tiles_n >= 0 && batch >= 0 && group >= 1 && tile_count() <= INT32_MAX;
  }

  TESSERA_HOST_DEVICE constexpr Tile tile(int64_t linear) const {
    if (fits_32bit() && linear >= 0 && linear <= INT32_MAX) return tile_in<uint32_t>(linear);
    return tile_in<int64_t>(linear);
  }

  // The raster in words of type I (uint32_t where fits_32bit, else int64_t): the same map.
  template <class I>
  TESSERA_HOST_DEVICE constexpr Tile tile_in(int64_t linear) const {
    const I tm = I(tiles_m), tn = I(tiles_n);
    const auto lb = idx2crd(I(linear), make_shape(I(tm * tn), I(batch)));  // (tile in batch, l)
    const auto t = grouped_raster(I(get<0>(lb)), tm, tn, I(group));
    return {int64_t(t.m), int64_t(t.n), int64_t(get<1>(lb))};
  }
};

// The raster of an M x N problem, `batch` of them, in BM x BN CTA tiles with clusters of
// ClusterM x ClusterN CTAs: its tiles are the cluster tiles, BM * ClusterM x BN * ClusterN
// (cta_tile_of, stream_k_scheduler.hpp, maps a cluster tile and a rank to a CTA tile).
template <int BM, int BN, int ClusterM, int ClusterN = 1>
TESSERA_HOST_DEVICE constexpr PersistentTileScheduler raster_of(int64_t m, int64_t n, int64_t batch) {
  const auto tiles = output_tile_grid(m, n, C<BM * ClusterM>{}, C<BN * ClusterN>{});
  return {tiles.m, tiles.n, batch, raster_group(ClusterM)};
}

// What a caller may choose of the persistent schedulers' raster (their Arguments): the
// raster group, in cluster tiles down M per N column (0: raster_group(ClusterM)).
struct Sm90SchedulerArguments {
  int64_t raster_group = 0;
};

// How a persistent scheduler's pieces of one tile meet: not at all (whole tiles), split-K's
// arrival counters (the last slice to arrive reduces), or Stream-K's fix-up (the tile's last
// k-range reduces its peers' partials in a fixed order: sm90_stream_k_tile_scheduler.hpp).
enum class Reduction { None, SplitK, StreamK };

// The raster a scheduler runs for its arguments (their raster group where one is chosen) and
// the problem's k-tile count: what every persistent scheduler's to_underlying_arguments takes.
template <int BM, int BN, int ClusterM, int ClusterN = 1>
TESSERA_HOST_DEVICE constexpr PersistentTileScheduler raster_of(int64_t m, int64_t n, int64_t batch,
                                                                Sm90SchedulerArguments const& args) {
  PersistentTileScheduler r = raster_of<BM, BN, ClusterM, ClusterN>(m, n, batch);
  if (args.raster_group > 0) r.group = args.raster_group;
  return r;
}
template <int BK>
TESSERA_HOST_DEVICE constexpr int k_tile_count(int64_t k) {
  return int(ceil_div(k, int64_t(BK)));
}

// The persistent raster with whole tiles only: unit u is tile u with all its k-tiles, and
// `split` is 1 at compile time, so a kernel over this scheduler carries no split-K meeting.
// (A kernel that may split carries the split-K reduction, whose loads beside the live
// accumulators make ptxas spill them: a stack frame and spill stores in every such kernel.
// Whole-tile kernels leave the reduction out.)
struct WholeTileScheduler {
  static constexpr bool Splits = false;
  static constexpr Reduction reduction = Reduction::None;
  PersistentTileScheduler raster;
  int k_tiles = 0;

  using Arguments = Sm90SchedulerArguments;
  // The raster of an M x N x K problem, `l` of them, in BM x BN x BK tiles, clusters of
  // ClusterM x ClusterN CTAs (one of them 1).
  template <int BM, int BN, int BK, int ClusterM, int ClusterN = 1>
  static WholeTileScheduler to_underlying_arguments(int64_t m, int64_t n, int64_t k, int64_t l, Arguments const& args) {
    WholeTileScheduler s;
    s.raster = raster_of<BM, BN, ClusterM, ClusterN>(m, n, l, args);
    s.k_tiles = k_tile_count<BK>(k);
    return s;
  }

  struct Work {
    int64_t m, n, l;
    int k_begin, k_end;
    static constexpr int split = 1;
  };

  TESSERA_HOST_DEVICE constexpr int64_t tile_count() const { return raster.tile_count(); }
  TESSERA_HOST_DEVICE constexpr int64_t work_count() const { return raster.tile_count(); }
  TESSERA_HOST_DEVICE constexpr Work work(int64_t unit) const {
    const auto t = raster.tile(unit);
    return {t.m, t.n, t.l, 0, k_tiles};
  }
};

}  // namespace tessera::kernels::sm90

#include "split_plan.cuh"

namespace tessera::kernels::sm90 {

// Persistent raster plus split-K of the last wave (SplitPlan): the work units are the
// raster's tiles, except that the tiles of the last, partial wave are cut along K into
// `split` slices, one unit each, so that they fill the grid. Units [0, whole) are whole
// tiles (all k-tiles); unit whole + q is slice q % split of tile whole + q / split, slices
// of one tile adjacent. With the grid = `slots` persistent clusters, whole is a multiple of
// slots: every slice runs in the last round, all of them on resident clusters.
// A slice's k-tiles are [k_begin, k_end) (SplitPlan::k_begin: balanced, in order).
struct SplitKTileScheduler {
  static constexpr bool Splits = true;
  static constexpr Reduction reduction = Reduction::SplitK;
  PersistentTileScheduler raster;
  SplitPlan plan{0, 1};
  int k_tiles = 0;

  using Arguments = Sm90SchedulerArguments;
  // Unsplit (the kernel sets the plan where its workspace holds the split: plan_for).
  template <int BM, int BN, int BK, int ClusterM, int ClusterN = 1>
  static SplitKTileScheduler to_underlying_arguments(int64_t m, int64_t n, int64_t k, int64_t l, Arguments const& args) {
    static_assert(ClusterN == 1, "split-K: clusters along M only (its workspace counts a tile's CTAs along M)");
    SplitKTileScheduler s;
    s.raster = raster_of<BM, BN, ClusterM>(m, n, l, args);
    s.k_tiles = k_tile_count<BK>(k);
    s.plan = {s.raster.tile_count(), 1};
    return s;
  }

  struct Work {
    int64_t m, n, l;
    int k_begin, k_end;  // k-tiles of this unit
    int slice, split;    // split == 1: a whole tile
    int64_t split_tile;  // which split tile (0 .. split_tiles - 1) when split > 1
  };

  // The plan for `slots` persistent clusters. A split saves k_tiles (1 - 1/split) k-tiles of
  // the tail's time and costs its meeting: each slice writes an f32 tile and the last reads
  // `split` of them, latency-bound at about SlotCostKTiles k-tiles' time per f32 tile (a
  // constant fitted to timings of split and unsplit tails: bench/notes/sm90_gemm.md). The
  // split with the largest gain, none when no split gains.
  static constexpr int MaxSplit = 8, MinSliceKTiles = 4, SlotCostKTiles = 5;
  TESSERA_HOST_DEVICE static SplitPlan plan_for(int64_t tiles, int k_tiles, int slots) {
    const SplitPlan most = plan_split(tiles, k_tiles, slots, MaxSplit, MinSliceKTiles);
    int best = 1;
    int64_t best_gain = 0;  // in k-tiles, times split (exact integers)
    for (int s = 2; s <= most.split; ++s) {
      const int64_t gain = int64_t(k_tiles) * (s - 1) - int64_t(SlotCostKTiles) * (s + 1) * s;
      if (gain * best > best_gain * s) best = s, best_gain = gain;
    }
    return best == 1 ? SplitPlan{tiles, 1} : plan_split(tiles, k_tiles, slots, best, MinSliceKTiles);
  }

  TESSERA_HOST_DEVICE constexpr int64_t tile_count() const { return raster.tile_count(); }
  TESSERA_HOST_DEVICE constexpr int64_t split_tiles() const { return plan.split > 1 ? tile_count() - plan.whole : 0; }
  TESSERA_HOST_DEVICE int64_t work_count() const { return plan.ctas(tile_count()); }

  TESSERA_HOST_DEVICE Work work(int64_t unit) const {
    int64_t tile = 0;
    int slice = 0;
    // (32-bit words where the counts fit, as PersistentTileScheduler::tile)
    const bool narrow = raster.fits_32bit() && plan.fits_32bit(tile_count(), k_tiles) && unit >= 0 && unit <= INT32_MAX;
    if (narrow) {
      uint32_t t32 = 0;
      plan.work_of_32bit(uint32_t(unit), t32, slice);
      tile = t32;
    } else {
      plan.work_of(unit, tile_count(), tile, slice);
    }
    const auto t = raster.tile(tile);
    const bool whole = tile < plan.whole;
    const int split = whole ? 1 : plan.split;
    const int kb = whole ? 0 : narrow ? plan.k_begin_32bit(slice, k_tiles) : plan.k_begin(slice, k_tiles);
    const int ke = whole ? k_tiles : narrow ? plan.k_begin_32bit(slice + 1, k_tiles) : plan.k_begin(slice + 1, k_tiles);
    return {t.m, t.n, t.l, kb, ke, slice, split, whole ? 0 : tile - plan.whole};
  }
};

}  // namespace tessera::kernels::sm90
