// Persistent tile scheduler (SM90 kernels): a grid of about one CTA per SM walks the output
// tiles linear = blockIdx.x, blockIdx.x + gridDim.x, ...; a tile's (m, n, l) comes from the
// raster's shape through idx2crd. Grouped raster for L2 reuse: `group` M-tiles run down one
// N column before the next column, so consecutive CTAs share B tiles and a group's A tiles
// stay in L2 across the columns. The last, partial group is rastered the same way with
// fewer rows.
#pragma once

#include <cstdint>

#include <tessera/int_tuple.hpp>

namespace tessera::kernels::sm90 {

struct PersistentTileScheduler {
  int64_t tiles_m = 0, tiles_n = 0, batch = 1;
  int64_t group = 8;

  struct Tile {
    int64_t m, n, l;
  };

  TESSERA_HOST_DEVICE constexpr int64_t tile_count() const { return tiles_m * tiles_n * batch; }

  TESSERA_HOST_DEVICE constexpr Tile tile(int64_t linear) const {
    const int64_t per_batch = tiles_m * tiles_n;
    const auto lb = idx2crd(linear, make_shape(per_batch, batch));  // (tile in batch, l)
    const int64_t r = get<0>(lb);
    const int64_t g = group < tiles_m ? group : tiles_m;
    const int64_t full_rows = tiles_m / g * g;  // M-tiles in whole groups
    if (r < full_rows * tiles_n) {
      const auto c = idx2crd(r, make_shape(g, tiles_n, tiles_m / g));  // (row in group, n, group)
      return {get<2>(c) * g + get<0>(c), get<1>(c), get<1>(lb)};
    }
    const auto c = idx2crd(r - full_rows * tiles_n, make_shape(tiles_m - full_rows, tiles_n));
    return {full_rows + get<0>(c), get<1>(c), get<1>(lb)};
  }
};

// The persistent raster with whole tiles only: unit u is tile u with all its k-tiles, and
// `split` is 1 at compile time, so a kernel over this scheduler carries no split-K meeting.
// (Sharing one instantiation with the split-K reduction cost every kernel a 296-424 byte
// stack and 412-536 bytes of spill stores, the accumulators stored around the reduction's
// loads; without it: 64 bytes and none. bench/notes/sm90_gemm.md, session 9.)
struct WholeTileScheduler {
  static constexpr bool Splits = false;
  PersistentTileScheduler raster;
  int k_tiles = 0;

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
  PersistentTileScheduler raster;
  SplitPlan plan{0, 1};
  int k_tiles = 0;

  struct Work {
    int64_t m, n, l;
    int k_begin, k_end;  // k-tiles of this unit
    int slice, split;    // split == 1: a whole tile
    int64_t split_tile;  // which split tile (0 .. split_tiles - 1) when split > 1
  };

  // The plan for `slots` persistent clusters. A split saves k_tiles (1 - 1/split) k-tiles of
  // the tail's time and costs its meeting: each slice writes an f32 tile and the last reads
  // `split` of them, latency-bound at about SlotCostKTiles k-tiles' time per f32 tile (H100,
  // run 37: 1000^3 in 4 slices of 4 k-tiles took 29 us against 21 us unsplit; 4096 x 11008 x
  // 4096's 28-tile tail in 2 slices of 32 gained 7 us). The split with the largest gain,
  // none when no split gains.
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
    plan.work_of(unit, tile_count(), tile, slice);
    const auto t = raster.tile(tile);
    const bool whole = tile < plan.whole;
    const int split = whole ? 1 : plan.split;
    const int kb = whole ? 0 : plan.k_begin(slice, k_tiles), ke = whole ? k_tiles : plan.k_begin(slice + 1, k_tiles);
    return {t.m, t.n, t.l, kb, ke, slice, split, whole ? 0 : tile - plan.whole};
  }
};

}  // namespace tessera::kernels::sm90
