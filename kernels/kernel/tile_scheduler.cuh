// Which CTA computes which output tile: the grouped raster, one map for the SM80/SIMT
// kernels (GroupedRasterization, tiles of one batch along blockIdx.x, the batch on
// blockIdx.z) and the SM90 persistent scheduler (sm90_tile_scheduler.cuh).
// The raster swizzle: consecutive CTAs (which run at the same time) walk a group of `group`
// tile-rows column by column, so a wave touches `group` rows of A and a few columns of B
// instead of one row of A and every column of B: the operands a wave reads stay in L2.
#pragma once

#include <cstdint>

#include "tessera/config.hpp"
#include "tessera/int_tuple.hpp"

namespace tessera::kernels {

// The output tiles of an M x N problem in BM x BN tiles: how many along M and along N, the
// last of each partial. (A struct, not a tuple: the kernels compute it, and through the
// tuple nvcc folded the schedulers' checks of it less well.)
struct OutputTileGrid {
  std::int64_t m, n;
};
template <class BM, class BN>
TESSERA_HOST_DEVICE constexpr OutputTileGrid output_tile_grid(std::int64_t m, std::int64_t n, BM const& bm, BN const& bn) {
  return {ceil_div(m, bm), ceil_div(n, bn)};
}

template <class Index>
struct RasterTile {
  Index m, n;
};

// Tile `linear` of the grouped raster over tiles_m x tiles_n tiles: its coordinate in the
// shape (row in group, n, group) over the whole groups, then in (row, n) over the last,
// partial group's rows (group >= 1; a group taller than tiles_m is that partial group).
// Index: the words it divides in. uint32_t where the counts fit: a GPU divides 32-bit words
// inline in a few instructions, a 64-bit division is a call to a software routine. A group
// known at compile time folds its divisions into multiplications and shifts.
template <class Index>
TESSERA_HOST_DEVICE constexpr RasterTile<Index> grouped_raster(Index linear, Index tiles_m, Index tiles_n, Index group) {
  const Index whole_rows = tiles_m / group * group;  // M-tiles in whole groups
  if (linear < whole_rows * tiles_n) {
    const auto c = idx2crd(linear, make_shape(group, tiles_n, Index(tiles_m / group)));
    return {Index(get<2>(c) * group + get<0>(c)), Index(get<1>(c))};
  }
  const auto c = idx2crd(Index(linear - whole_rows * tiles_n), make_shape(Index(tiles_m - whole_rows), tiles_n));
  return {Index(whole_rows + get<0>(c)), Index(get<1>(c))};
}

template <int Group>
struct GroupedRasterization {
  std::int64_t tiles_m, tiles_n;

  TESSERA_HOST_DEVICE std::int64_t tile_count() const { return tiles_m * tiles_n; }

  // Tile (m, n) of linear CTA index `pid`, the raster in words of Index: uint32_t only where
  // fits_32bit().
  template <class Index>
  TESSERA_HOST_DEVICE RasterTile<Index> tile_of(Index pid) const {
    return grouped_raster(pid, Index(tiles_m), Index(tiles_n), Index(Group));
  }
  TESSERA_HOST_DEVICE bool fits_32bit() const { return tiles_m >= 0 && tiles_n >= 0 && tile_count() <= INT32_MAX; }
};

}  // namespace tessera::kernels
