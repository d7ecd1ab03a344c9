// Which CTA computes which output tile.
//
// Tiles of one batch are numbered along blockIdx.x; the batch index is blockIdx.z.
// Rasterization swizzle: consecutive CTAs (which run at the same time) walk a band of
// `Group` tile-rows column by column, so a wave touches Group rows of A and a few columns
// of B instead of one row of A and every column of B: the operands a wave reads stay in L2.
#pragma once

#include <cstdint>

#include "tessera/config.hpp"
#include "tessera/int_tuple.hpp"

namespace tessera::kernels {

template <int Group>
struct GroupedRasterization {
  std::int64_t tiles_m, tiles_n;

  TESSERA_HOST_DEVICE std::int64_t tile_count() const { return tiles_m * tiles_n; }

  // Tile (row, column) of linear CTA index `pid`.
  TESSERA_HOST_DEVICE void tile_of(std::int64_t pid, std::int64_t& tm, std::int64_t& tn) const {
    const std::int64_t per_band = Group * tiles_n;
    const std::int64_t band = pid / per_band;
    const std::int64_t first = band * Group;
    const std::int64_t rows = tiles_m - first < Group ? tiles_m - first : Group;
    const std::int64_t in_band = pid - band * per_band;
    tm = first + in_band % rows;
    tn = in_band / rows;
  }
};

// Split-K of the last wave.  T tiles on `slots` co-resident CTAs take ceil(T / slots) waves;
// the last one holds tail = T mod slots tiles (all T when T < slots) and leaves the rest of
// the GPU idle.  When `split` >= 2 slices of each tail tile fit in the slots, the tail tiles
// are cut along K into that many slices (a CTA each, at least min_k_tiles k-tiles deep) and
// the tail wave takes 1/split of the time.  CTA pid < whole computes tile pid; the others
// compute slice (pid - whole) % split of tile whole + (pid - whole) / split.
struct SplitPlan {
  std::int64_t whole;  // tiles computed whole: the first `whole` in the rasterized order
  int split;           // K slices of each remaining tile; 1 = no split

  TESSERA_HOST_DEVICE std::int64_t ctas(std::int64_t tiles) const { return whole + (tiles - whole) * split; }
  // The tile and slice CTA `pid` of a grid over `tiles` tiles computes: past the whole tiles,
  // the CTAs are the (slice, tile) coordinates of shape (split, split tiles), slices of one
  // tile adjacent.
  TESSERA_HOST_DEVICE void work_of(std::int64_t pid, std::int64_t tiles, std::int64_t& tile, int& slice) const {
    if (pid < whole) {
      tile = pid;
      slice = 0;
    } else {
      const auto c = idx2crd(pid - whole, make_shape(std::int64_t(split), tiles - whole));
      slice = int(get<0>(c));
      tile = whole + get<1>(c);
    }
  }
  // k-tiles [begin, end) of slice `slice` out of k_tiles: balanced, in order, covering all.
  TESSERA_HOST_DEVICE int k_begin(int slice, int k_tiles) const { return int(std::int64_t(slice) * k_tiles / split); }
};

TESSERA_HOST_DEVICE inline SplitPlan plan_split(std::int64_t tiles, int k_tiles, int slots, int max_split,
                                                int min_k_tiles) {
  if (tiles <= 0 || slots <= 0) return {tiles, 1};
  const std::int64_t tail = tiles % slots;
  if (tail == 0) return {tiles, 1};
  std::int64_t s = slots / tail;
  if (s > max_split) s = max_split;
  if (s > k_tiles / min_k_tiles) s = k_tiles / min_k_tiles;
  if (s < 2) return {tiles, 1};
  return {tiles - tail, int(s)};
}

}  // namespace tessera::kernels
