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

}  // namespace tessera::kernels::sm90
