// The SM90 GEMM's split-K scheduler (kernels/kernel/sm90_tile_scheduler.cuh), on the host:
// on generated problems (cluster tiles, batches, raster groups, k-tiles, resident clusters),
// the work units cover every output tile's every k-tile exactly once; the slices of a split
// tile are whole, adjacent, in K order and share one split-tile index (the workspace slot);
// only the last wave is split and its slices fit in one round of the persistent grid. The
// whole-tile scheduler: the same raster, every unit a whole tile.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

#include "kernel/sm90_tile_scheduler.cuh"

using tessera::kernels::sm90::SplitKTileScheduler;

namespace {
SplitKTileScheduler make(int64_t tm, int64_t tn, int64_t batch, int64_t group, int k_tiles, int slots) {
  SplitKTileScheduler s;
  s.raster.tiles_m = tm;
  s.raster.tiles_n = tn;
  s.raster.batch = batch;
  s.raster.group = group;
  s.k_tiles = k_tiles;
  s.plan = SplitKTileScheduler::plan_for(s.tile_count(), k_tiles, slots);
  return s;
}
}  // namespace

TEST_CASE("sm90 split-K scheduler: every tile and k-tile exactly once (generated)") {
  int split_cases = 0;
  rc::prop("units partition (tile, k-tile)", [&] {
    const int64_t tm = *rc::gen::inRange<int64_t>(1, 24), tn = *rc::gen::inRange<int64_t>(1, 24);
    const int64_t batch = *rc::gen::inRange<int64_t>(1, 4), group = *rc::gen::inRange<int64_t>(1, 10);
    const int k_tiles = *rc::gen::inRange(1, 200);
    const int slots = *rc::gen::element(1, 7, 16, 60, 66, 132);
    const auto s = make(tm, tn, batch, group, k_tiles, slots);
    const int64_t tiles = s.tile_count(), units = s.work_count();
    RC_ASSERT(s.plan.split >= 1);
    // (m, n, l) -> the k-tiles computed for it, and split tile -> (m, n, l) and slices.
    std::map<std::tuple<int64_t, int64_t, int64_t>, std::vector<int>> covered;
    std::map<int64_t, std::tuple<int64_t, int64_t, int64_t>> split_tile_of;
    std::vector<int> slices_seen(size_t(s.split_tiles() * s.plan.split), 0);
    const int64_t grid = units < slots ? units : slots;  // persistent clusters
    for (int64_t u = 0; u < units; ++u) {
      const auto w = s.work(u);
      RC_ASSERT(w.m >= 0 && w.m < tm && w.n >= 0 && w.n < tn && w.l >= 0 && w.l < batch);
      RC_ASSERT(0 <= w.k_begin && w.k_begin < w.k_end && w.k_end <= k_tiles);
      auto& ks = covered[{w.m, w.n, w.l}];
      ks.resize(size_t(k_tiles), 0);
      for (int k = w.k_begin; k < w.k_end; ++k) ++ks[size_t(k)];
      if (w.split == 1) {
        RC_ASSERT(w.k_begin == 0 && w.k_end == k_tiles);
        continue;
      }
      RC_ASSERT(w.split == s.plan.split);
      RC_ASSERT(w.k_end - w.k_begin >= SplitKTileScheduler::MinSliceKTiles);
      RC_ASSERT(0 <= w.split_tile && w.split_tile < s.split_tiles() && 0 <= w.slice && w.slice < w.split);
      ++slices_seen[size_t(w.split_tile * w.split + w.slice)];
      const auto [it, fresh] = split_tile_of.insert({w.split_tile, {w.m, w.n, w.l}});
      RC_ASSERT(it->second == std::make_tuple(w.m, w.n, w.l));  // one split tile, one output tile
      // Slices of a tile are adjacent units, in K order.
      if (w.slice > 0) {
        const auto prev = s.work(u - 1);
        RC_ASSERT(prev.split_tile == w.split_tile && prev.slice + 1 == w.slice && prev.k_end == w.k_begin);
      }
      // Split units all run in the persistent grid's last round.
      RC_ASSERT(u / grid == (units - 1) / grid);
    }
    RC_ASSERT(int64_t(covered.size()) == tiles);
    for (const auto& [tile, ks] : covered)
      for (int c : ks) RC_ASSERT(c == 1);
    for (int c : slices_seen) RC_ASSERT(c == 1);
    RC_ASSERT(int64_t(split_tile_of.size()) == s.split_tiles());
    if (s.plan.split > 1) {
      ++split_cases;
      RC_ASSERT(s.split_tiles() == tiles % slots);   // only the last, partial wave
      RC_ASSERT(s.split_tiles() * s.plan.split <= slots);  // its slices fit in one round
      // It pays: the k-tiles saved exceed the meeting's cost (SlotCostKTiles per f32 tile).
      const int64_t sp = s.plan.split, c = SplitKTileScheduler::SlotCostKTiles;
      RC_ASSERT(int64_t(k_tiles) * (sp - 1) > c * (sp + 1) * sp);
    } else if (tiles % slots != 0 && k_tiles >= 2 * SplitKTileScheduler::MinSliceKTiles && tiles % slots * 2 <= slots) {
      // Not split although 2 slices would fit: 2 slices would not pay.
      RC_ASSERT(int64_t(k_tiles) <= 6 * SplitKTileScheduler::SlotCostKTiles);
    }
  });
  CHECK(split_cases > 20);  // the split path is exercised, not vacuous
}

TEST_CASE("sm90 split-K scheduler: the benchmark's shapes on an H100 (66 clusters of 2, 128x256x64 tiles)") {
  // 1000^3: 4 x 4 cluster tiles, 16 k-tiles: 4 slices would fit, but the meeting costs more
  // than the 12 k-tiles they save (measured: 29 us against 21 us), so nothing is split.
  CHECK(make(4, 4, 1, 8, 16, 66).plan.split == 1);
  // 300 x 300 x 2048 x 2 (the GPU test): 8 cluster tiles, 32 k-tiles: 3 slices gain most.
  const auto small = make(2, 2, 2, 8, 32, 66);
  CHECK(small.plan.split == 3);
  CHECK(small.plan.whole == 0);
  CHECK(small.work_count() == 24);
  CHECK(small.work(4).k_begin == 10);
  CHECK(small.work(4).k_end == 21);
  // 4096 x 11008 x 4096: 16 x 43 = 688 cluster tiles, 10 whole rounds and a 28-tile tail in 2 slices.
  const auto wide = make(16, 43, 1, 8, 64, 66);
  CHECK(wide.plan.split == 2);
  CHECK(wide.split_tiles() == 28);
  CHECK(wide.work_count() == 660 + 56);
  // 8192^3 and 4096^3: tails of 34 and 62 of 66 are not split.
  CHECK(make(32, 32, 1, 8, 128, 66).plan.split == 1);
  CHECK(make(16, 16, 1, 8, 64, 66).plan.split == 1);
}

// The whole-tile scheduler (the kernels built without split-K code) walks the same raster as
// the split-K scheduler with nothing split: unit u is tile u with all k-tiles.
TEST_CASE("sm90 whole-tile scheduler: the split-K raster unsplit (generated)") {
  using tessera::kernels::sm90::WholeTileScheduler;
  static_assert(!WholeTileScheduler::Splits && SplitKTileScheduler::Splits && WholeTileScheduler::Work::split == 1);
  rc::prop("units = tiles, each with every k-tile, in raster order", [] {
    const int64_t tm = *rc::gen::inRange<int64_t>(1, 24), tn = *rc::gen::inRange<int64_t>(1, 24);
    const int64_t batch = *rc::gen::inRange<int64_t>(1, 4), group = *rc::gen::inRange<int64_t>(1, 10);
    const int k_tiles = *rc::gen::inRange(1, 200);
    WholeTileScheduler w;
    w.raster.tiles_m = tm;
    w.raster.tiles_n = tn;
    w.raster.batch = batch;
    w.raster.group = group;
    w.k_tiles = k_tiles;
    SplitKTileScheduler s = make(tm, tn, batch, group, k_tiles, 1);
    s.plan = {s.tile_count(), 1};  // nothing split
    RC_ASSERT(w.work_count() == tm * tn * batch && w.work_count() == s.work_count());
    std::map<std::tuple<int64_t, int64_t, int64_t>, int> seen;
    for (int64_t u = 0; u < w.work_count(); ++u) {
      const auto a = w.work(u);
      const auto b = s.work(u);
      RC_ASSERT(a.m == b.m && a.n == b.n && a.l == b.l && a.k_begin == 0 && a.k_end == k_tiles && b.split == 1);
      ++seen[{a.m, a.n, a.l}];
    }
    RC_ASSERT(int64_t(seen.size()) == w.work_count());
  });
}

// The raster and the split-K work in 32-bit words (what the kernels run wherever the counts
// fit: no 64-bit division per unit) are the same maps as in 64-bit words; past 2^31 tiles the
// 64-bit words are used.
TEST_CASE("sm90 schedulers: the 32-bit words give the 64-bit map (generated)") {
  using tessera::kernels::sm90::PersistentTileScheduler;
  rc::prop("tile_in<uint32_t> == tile_in<int64_t>; work() == its 64-bit recomputation", [] {
    PersistentTileScheduler r;
    r.tiles_m = *rc::gen::inRange<int64_t>(1, 70000);
    r.tiles_n = *rc::gen::inRange<int64_t>(1, 70000);
    r.batch = *rc::gen::inRange<int64_t>(1, 5);
    r.group = *rc::gen::inRange<int64_t>(1, 17);
    const int64_t tiles = r.tile_count();
    RC_ASSERT(r.fits_32bit() == (tiles <= INT32_MAX));
    const auto units = *rc::gen::container<std::vector<int64_t>>(16, rc::gen::inRange<int64_t>(0, tiles));
    for (int64_t u : {int64_t(0), tiles - 1}) {
      const auto w = r.tile_in<int64_t>(u);
      RC_ASSERT(w.m >= 0 && w.m < r.tiles_m && w.n >= 0 && w.n < r.tiles_n && w.l >= 0 && w.l < r.batch);
    }
    for (int64_t u : units) {
      const auto wide = r.tile_in<int64_t>(u), chosen = r.tile(u);
      RC_ASSERT(chosen.m == wide.m && chosen.n == wide.n && chosen.l == wide.l);
      if (r.fits_32bit()) {
        const auto narrow = r.tile_in<uint32_t>(u);
        RC_ASSERT(narrow.m == wide.m && narrow.n == wide.n && narrow.l == wide.l);
      }
    }
    // Split-K of the last wave on the same raster.
    SplitKTileScheduler s;
    s.raster = r;
    s.k_tiles = *rc::gen::inRange(1, 5000);
    const int slots = *rc::gen::element(66, 132, 1024, 100000);
    s.plan = SplitKTileScheduler::plan_for(tiles, s.k_tiles, slots);
    const int64_t work = s.work_count();
    const auto picks = *rc::gen::container<std::vector<int64_t>>(16, rc::gen::inRange<int64_t>(0, work));
    for (int64_t u : picks) {
      const auto w = s.work(u);
      int64_t tile = 0;
      int slice = 0;
      s.plan.work_of(u, tiles, tile, slice);
      const auto t = r.tile_in<int64_t>(tile);
      const bool whole = tile < s.plan.whole;
      RC_ASSERT(w.m == t.m && w.n == t.n && w.l == t.l);
      RC_ASSERT(w.split == (whole ? 1 : s.plan.split));
      RC_ASSERT(w.k_begin == (whole ? 0 : s.plan.k_begin(slice, s.k_tiles)));
      RC_ASSERT(w.k_end == (whole ? s.k_tiles : s.plan.k_begin(slice + 1, s.k_tiles)));
    }
  });
}
