// Grouped tile scheduler (SM90 persistent kernels): G independent problems (M_g, N_g, K_g),
// whose output tiles are walked as one concatenation. Linear tile t lies in group g where
//   first_g <= t < first_g + tiles_g,   first_g = sum_{h < g} tiles_h,
// tiles_g = ceil(M_g / (BM ClusterM)) * ceil(N_g / BN) cluster tiles (0 for an empty group:
// M_g or N_g <= 0), and inside the group it is tile t - first_g of the grouped raster
// (tile_scheduler.cuh), as the single-problem scheduler orders its tiles.
// (The grouped kernel's (M_g, N_g) are a group's (features, tokens): it runs D_g^T,
// sm90_grouped_problem.hpp.)
//
// The problem sizes live in device memory (MoE token counts are computed on the GPU), so the
// prefix sum is not computed on the host: every role of a persistent CTA keeps a Cursor (its
// group, the group's first linear tile and tile count) and advances it over the groups as its
// linear index grows (t, t + clusters, ...: increasing), reading each group's sizes once. A
// CTA thus reads every group's sizes at most once per role, and sees a new group exactly when
// its next tile lies in another group: where the kernel switches tensor maps. The walk ends
// when the cursor passes the last group: the host need not know the tile count.
#pragma once

#include <cstdint>

#include <tessera/config.hpp>
#include <tessera/kernels/gemm_grouped.hpp>

#include "tile_scheduler.cuh"

namespace tessera::kernels::sm90 {

struct GroupedTileScheduler {
  const GemmGroupShape* shapes = nullptr;  // G entries (device memory on the GPU)
  int64_t groups = 0;
  int64_t tile_m = 0, tile_n = 0, tile_k = 0;  // the cluster tile (BM * ClusterM, BN) and BK
  int64_t raster_group = 1;                    // cluster tiles down M per N column

  // Where a role stands in the concatenation: group `group` (-1: before the first) holds
  // linear tiles [first, first + tiles).
  // (32-bit words where they fit: the kernel's consumers keep a cursor beside their 128
  // accumulators. A group's tile counts along M and N are below 2^31 / 128.)
  struct Cursor {
    int32_t group = -1;
    int32_t tiles_m = 0, tiles_n = 0;
    int32_t k_tiles = 0;
    int64_t first = 0, tiles = 0;
  };
  struct Work {
    int64_t group;
    int64_t m, n;  // cluster tile in the group's raster
    int k_tiles;   // 0: K_g <= 0, nothing to load (D = beta C)
  };

  // Group g's tile grid (an empty group: no tiles).
  TESSERA_HOST_DEVICE static constexpr int64_t positive(int64_t x) { return x > 0 ? x : 0; }
  TESSERA_HOST_DEVICE void enter(Cursor& c, int64_t g) const {
    const GemmGroupShape s = shapes[g];
    c.group = int32_t(g);
    c.tiles_m = int32_t(ceil_div(positive(s.m), tile_m));
    c.tiles_n = int32_t(ceil_div(positive(s.n), tile_n));
    c.tiles = int64_t(c.tiles_m) * c.tiles_n;
    c.k_tiles = int32_t(ceil_div(positive(s.k), tile_k));
  }
  // A cursor from its group and that group's first tile alone, the rest read again from the
  // sizes: what a role keeps between tiles when registers are short (the kernel's consumers
  // beside their accumulators keep 3 words instead of the cursor's 8).
  TESSERA_HOST_DEVICE Cursor resume(int32_t group, int64_t first) const {
    Cursor c;
    if (group >= 0) enter(c, group);
    c.first = first;
    return c;
  }
  // Moves `c` forward to the group that holds linear tile t (t at or past the cursor's first
  // tile); false when t lies past the last group's tiles.
  TESSERA_HOST_DEVICE bool advance(Cursor& c, int64_t t) const {
    while (t >= c.first + c.tiles) {
      if (c.group + 1 >= groups) return false;
      c.first += c.tiles;
      enter(c, c.group + 1);
    }
    return true;
  }
  // Tile t's work (after advance(c, t) returned true).
  TESSERA_HOST_DEVICE Work work(Cursor const& c, int64_t t) const {
    const int64_t local = t - c.first;
    const int64_t rows = raster_group < 1 ? 1 : raster_group;
    if (c.tiles <= INT32_MAX && rows <= INT32_MAX) {
      const auto r = grouped_raster(uint32_t(local), uint32_t(c.tiles_m), uint32_t(c.tiles_n), uint32_t(rows));
      return {c.group, int64_t(r.m), int64_t(r.n), c.k_tiles};
    }
    const auto r = grouped_raster(local, int64_t(c.tiles_m), int64_t(c.tiles_n), rows);
    return {c.group, r.m, r.n, c.k_tiles};
  }
};

}  // namespace tessera::kernels::sm90
