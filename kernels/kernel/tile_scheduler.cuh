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

  // The same map in 32-bit words, where every quantity fits (fits_32bit()): a GPU divides
  // 32-bit words inline in a few instructions; a 64-bit division is a call to a software
  // routine, three of them per CTA in tile_of.
  TESSERA_HOST_DEVICE bool fits_32bit() const {
    return tiles_m >= 0 && tiles_n >= 0 && tile_count() <= INT32_MAX && std::int64_t(Group) * tiles_n <= INT32_MAX;
  }
  TESSERA_HOST_DEVICE void tile_of_32bit(std::uint32_t pid, std::uint32_t& tm, std::uint32_t& tn) const {
    const std::uint32_t per_band = std::uint32_t(Group) * std::uint32_t(tiles_n);
    const std::uint32_t band = pid / per_band;
    const std::uint32_t first = band * Group;
    const std::uint32_t left = std::uint32_t(tiles_m) - first;
    const std::uint32_t rows = left < std::uint32_t(Group) ? left : std::uint32_t(Group);
    const std::uint32_t in_band = pid - band * per_band;
    tm = first + in_band % rows;
    tn = in_band / rows;
  }
};

}  // namespace tessera::kernels
