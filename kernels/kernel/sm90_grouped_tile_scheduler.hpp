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
// prefix sum is not computed on the host: the walking thread of a persistent CTA keeps a Cursor
// (its group, the group's first linear tile and tile count) and advances it over the groups as
// its linear index grows (t, t + clusters, ...: increasing), reading each group's sizes once. A
// CTA thus reads every group's sizes at most once, and sees a new group exactly when its next
// tile lies in another group: where the kernel switches tensor maps. The walk ends
// when the cursor passes the last group: the host need not know the tile count.
//
// The kernel walks once per CTA: its producer thread, which hands each tile (GroupedTile: the
// group, the cluster tile, its k-tiles) to the consumer warps through a shared-memory ring, so
// that the consumers never read the sizes or divide between their tiles. With many small
// groups (64 experts of 12 tiles on 66 clusters) a step of the walk crosses about 5 groups:
// advance() reads the next `lookahead` groups' sizes at once (independent loads, one memory
// latency where a group at a time waited for each in turn), and a group's tile counts divide
// in 32-bit words (a 64-bit division is a software routine on the GPU).
#pragma once

#include <cstdint>

#include <tessera/config.hpp>
#include <tessera/kernels/gemm_grouped.hpp>

#include "tile_scheduler.cuh"

namespace tessera::kernels::sm90 {

// One tile of the walk as the producer hands it to the consumers (HandoffRing's word): the
// group, the cluster tile (m, n) in the group's raster, its k-tiles (0: K_g <= 0, D = beta C);
// group < 0 ends the walk. (32-bit: a group's tile counts along M and N are below 2^31 / 128,
// and TMA's coordinates are 32-bit.)
struct GroupedTile {
  int32_t group = -1;
  int32_t m = 0, n = 0;
  int32_t k_tiles = 0;
  TESSERA_HOST_DEVICE static constexpr GroupedTile end() { return {}; }
  TESSERA_HOST_DEVICE constexpr bool done() const { return group < 0; }
};

struct GroupedTileScheduler {
  // Groups whose sizes advance() reads at once when the walk leaves a group (3 words each in
  // the producer thread, which runs on the producer warpgroup's 40 registers).
  static constexpr int lookahead = 3;

  const GemmGroupShape* shapes = nullptr;  // G entries (device memory on the GPU)
  int64_t groups = 0;
  int64_t tile_m = 0, tile_n = 0, tile_k = 0;  // the cluster tile (BM * ClusterM, BN) and BK
  int64_t raster_group = 1;                    // cluster tiles down M per N column

  // Where a role stands in the concatenation: group `group` (-1: before the first) holds
  // linear tiles [first, first + tiles).
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

  // ceil(x / d) of a size (negative: 0) in 32-bit words: x < 2^31 and 1 <= d < 2^31, so x + d - 1
  // fits 32 unsigned bits.
  TESSERA_HOST_DEVICE static constexpr int32_t tiles_of(int32_t x, int64_t d) {
    return x <= 0 ? 0 : int32_t((uint32_t(x) + uint32_t(d) - 1u) / uint32_t(d));
  }
  // Group g's tile grid from its sizes (an empty group: no tiles).
  TESSERA_HOST_DEVICE void enter(Cursor& c, int64_t g, GemmGroupShape const& s) const {
    c.group = int32_t(g);
    c.tiles_m = tiles_of(s.m, tile_m);
    c.tiles_n = tiles_of(s.n, tile_n);
    c.tiles = int64_t(c.tiles_m) * c.tiles_n;
    c.k_tiles = tiles_of(s.k, tile_k);
  }
  // Moves `c` forward to the group that holds linear tile t (t at or past the cursor's first
  // tile); false when t lies past the last group's tiles. The sizes of up to `lookahead`
  // groups after the cursor's are read together (only groups that exist), then entered in
  // order.
  TESSERA_HOST_DEVICE bool advance(Cursor& c, int64_t t) const {
    while (t >= c.first + c.tiles) {
      const int64_t next = int64_t(c.group) + 1;
      if (next >= groups) return false;
      GemmGroupShape ahead[lookahead];
#pragma unroll
      for (int i = 0; i < lookahead; ++i)
        if (next + i < groups) ahead[i] = shapes[next + i];
#pragma unroll
      for (int i = 0; i < lookahead; ++i) {
        if (next + i >= groups) return false;
        c.first += c.tiles;
        enter(c, next + i, ahead[i]);
        if (t < c.first + c.tiles) return true;
      }
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
  // The producer's step: tile t as the word it hands to the consumers, or the end.
  TESSERA_HOST_DEVICE GroupedTile next(Cursor& c, int64_t t) const {
    if (!advance(c, t)) return GroupedTile::end();
    const Work w = work(c, t);
    return {int32_t(w.group), int32_t(w.m), int32_t(w.n), w.k_tiles};
  }
};

}  // namespace tessera::kernels::sm90
