// Which CTA computes what (kernels/kernel/tile_scheduler.cuh, split_k_rasterization.hpp), on the host: the grouped
// raster is a bijection onto the tiles in both index widths, and a split-K plan covers every tile's K
// exactly once with slices that fit the last wave.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "kernel/split_k_rasterization.hpp"
#include "kernel/split_plan.cuh"
#include "kernel/tile_scheduler.cuh"

using namespace tessera::kernels;

// The grouped raster (the SM80/SIMT kernels' and the SM90 scheduler's) in both index widths:
// every tile exactly once, the same map in 32 and 64 bits, down M within a group, the groups
// in order along M; groups taller than the tiles, of one row, and not dividing tiles_m.
template <class Index>
void check_raster(std::int64_t tm, std::int64_t tn, std::int64_t group) {
  INFO("tiles " << tm << " x " << tn << ", group " << group << ", " << sizeof(Index) * 8 << "-bit");
  std::vector<int> seen(std::size_t(tm * tn), 0);
  RasterTile<Index> prev{};
  for (std::int64_t r = 0; r < tm * tn; ++r) {
    const auto t = grouped_raster(Index(r), Index(tm), Index(tn), Index(group));
    const auto wide = grouped_raster(r, tm, tn, group);
    REQUIRE((std::int64_t(t.m) == wide.m && std::int64_t(t.n) == wide.n));
    REQUIRE((std::int64_t(t.m) < tm && std::int64_t(t.n) < tn));
    ++seen[std::size_t(std::int64_t(t.m) * tn + std::int64_t(t.n))];
    const std::int64_t rows = std::min(group, tm - std::int64_t(prev.m) / group * group);  // the previous tile's group
    if (r > 0 && (std::int64_t(prev.m) + 1) % group != 0 && std::int64_t(prev.m) + 1 < tm) {
      REQUIRE((t.m == prev.m + 1 && t.n == prev.n));  // down M inside a group
    } else if (r > 0 && std::int64_t(prev.n) + 1 < tn) {
      REQUIRE((std::int64_t(t.m) == std::int64_t(prev.m) + 1 - rows && t.n == prev.n + 1));  // the group's next column
    } else if (r > 0) {
      REQUIRE((std::int64_t(t.m) == std::int64_t(prev.m) + 1 && t.n == 0));  // the next group
    }
    prev = t;
  }
  for (int s : seen) REQUIRE(s == 1);
}

TEST_CASE("grouped raster: every tile once, the same map in both index widths", "[kernels]") {
  for (std::int64_t tm = 1; tm <= 40; ++tm)
    for (std::int64_t tn = 1; tn <= 24; ++tn)
      for (std::int64_t group : {1, 2, 3, 7, 8, 16, 64}) {
        check_raster<std::uint32_t>(tm, tn, group);
        check_raster<std::int64_t>(tm, tn, group);
      }
  // The SM80/SIMT scheduler is the raster with its static group.
  const GroupedRasterization<8> sched{37, 11};
  for (std::int64_t pid = 0; pid < sched.tile_count(); ++pid) {
    const auto t = sched.tile_of(pid);
    const auto t32 = sched.tile_of(std::uint32_t(pid));
    const auto r = grouped_raster(pid, std::int64_t(37), std::int64_t(11), std::int64_t(8));
    REQUIRE((t.m == r.m && t.n == r.n && std::int64_t(t32.m) == r.m && std::int64_t(t32.n) == r.n));
  }
}

TEST_CASE("split-K plan: slices cover each tile's K once and fit the last wave", "[kernels]") {
  constexpr int max_split = 8, min_k = 4;
  int split_plans = 0;
  for (int slots : {1, 7, 66, 132, 264})
    for (std::int64_t tiles = 1; tiles <= 700; ++tiles)
      for (int k_tiles = 1; k_tiles <= 70; k_tiles += 3) {
        const SplitPlan plan = plan_split(tiles, k_tiles, slots, max_split, min_k);
        INFO("tiles " << tiles << ", k-tiles " << k_tiles << ", slots " << slots << ": whole " << plan.whole
                      << ", split " << plan.split);
        REQUIRE(plan.split >= 1);
        REQUIRE(plan.split <= max_split);
        if (plan.split == 1) {
          REQUIRE(plan.whole == tiles);
          continue;
        }
        ++split_plans;
        const std::int64_t tail = tiles - plan.whole;
        // Only the last, partial wave is split, and its slices fit in one wave.
        REQUIRE(tail == tiles % slots);
        REQUIRE(tail * plan.split <= slots);
        // Every tile is computed once whole or once per slice; every slice is deep enough
        // and the slices of a tile partition its k-tiles in order.
        std::vector<int> seen(std::size_t(tiles) * max_split, 0);
        for (std::int64_t pid = 0; pid < plan.ctas(tiles); ++pid) {
          std::int64_t tile;
          int slice;
          plan.work_of(pid, tiles, tile, slice);
          REQUIRE((tile >= 0 && tile < tiles && slice >= 0 && slice < plan.split));
          REQUIRE((tile >= plan.whole || slice == 0));
          ++seen[std::size_t(tile * max_split + slice)];
          REQUIRE(plan.fits_32bit(tiles, k_tiles));
          std::uint32_t tile32;
          int slice32;
          plan.work_of_32bit(std::uint32_t(pid), tile32, slice32);
          REQUIRE((std::int64_t(tile32) == tile && slice32 == slice));
        }
        for (std::int64_t t = 0; t < tiles; ++t)
          for (int s = 0; s < (t < plan.whole ? 1 : plan.split); ++s) REQUIRE(seen[std::size_t(t * max_split + s)] == 1);
        REQUIRE(plan.k_begin(0, k_tiles) == 0);
        REQUIRE(plan.k_begin(plan.split, k_tiles) == k_tiles);
        for (int s = 0; s < plan.split; ++s) REQUIRE(plan.k_begin(s + 1, k_tiles) - plan.k_begin(s, k_tiles) >= min_k);
        for (int s = 0; s <= plan.split; ++s) REQUIRE(plan.k_begin_32bit(s, k_tiles) == plan.k_begin(s, k_tiles));
      }
  REQUIRE(split_plans > 1000);  // the property is exercised, not vacuous
  // The shapes that motivated it, on a 132-SM H100 with one 128x256 CTA per SM.
  CHECK(plan_split(32 * 43, 128, 132, max_split, min_k).split == 2);  // 4096x11008x4096: 56-tile tail
  CHECK(plan_split(8 * 4, 32, 132, max_split, min_k).split == 4);     // 1000^3: 32 tiles
  CHECK(plan_split(64 * 32, 256, 132, max_split, min_k).split == 1);  // 8192^3: a 68-tile tail does not halve
}

// The 32-bit forms the kernel takes where the counts fit (the raster in 32-bit words,
// work_of_32bit, k_begin_32bit) agree with the 64-bit maps on large grids too, and say when
// they do not fit.
TEST_CASE("32-bit tile maps agree with the 64-bit ones wherever they fit", "[kernels]") {
  rc::prop("tile_of<uint32_t> == tile_of<int64_t>", [] {
    const auto tm = *rc::gen::inRange<std::int64_t>(1, 1 << 17), tn = *rc::gen::inRange<std::int64_t>(1, 1 << 17);
    const GroupedRasterization<8> sched{tm, tn};
    RC_PRE(sched.fits_32bit());
    // the last tile, the first of the last band, and arbitrary ones
    const std::int64_t last = sched.tile_count() - 1;
    for (std::int64_t pid : {last, (last / (8 * tn)) * 8 * tn, *rc::gen::inRange<std::int64_t>(0, last + 1)}) {
      const auto t = sched.tile_of(pid);
      const auto t32 = sched.tile_of(std::uint32_t(pid));
      RC_ASSERT(std::int64_t(t32.m) == t.m);
      RC_ASSERT(std::int64_t(t32.n) == t.n);
    }
  });
  rc::prop("work_of_32bit == work_of, k_begin_32bit == k_begin", [] {
    const auto tiles = *rc::gen::inRange<std::int64_t>(1, std::int64_t(1) << 28);
    const int split = *rc::gen::inRange(1, 17);
    const int k_tiles = *rc::gen::inRange(split, (1 << 26) + 1);
    const SplitPlan plan{*rc::gen::inRange<std::int64_t>(0, tiles + 1), split};
    RC_PRE(plan.fits_32bit(tiles, k_tiles));
    const std::int64_t pid = *rc::gen::inRange<std::int64_t>(0, plan.ctas(tiles));
    std::int64_t tile;
    int slice;
    plan.work_of(pid, tiles, tile, slice);
    std::uint32_t tile32;
    int slice32;
    plan.work_of_32bit(std::uint32_t(pid), tile32, slice32);
    RC_ASSERT(std::int64_t(tile32) == tile);
    RC_ASSERT(slice32 == slice);
    const int s = *rc::gen::inRange(0, split + 1);
    RC_ASSERT(plan.k_begin_32bit(s, k_tiles) == plan.k_begin(s, k_tiles));
  });
  // Where they do not fit, the kernel takes the 64-bit maps.
  CHECK(GroupedRasterization<8>{1 << 16, 1 << 15}.fits_32bit() == false);    // 2^31 tiles
  CHECK(GroupedRasterization<8>{(1 << 16) - 1, 1 << 15}.fits_32bit() == true);
  // (the raster forms no product past the tile count: a group of 8 rows over 2^28 columns fits)
  const GroupedRasterization<8> wide{1, std::int64_t(1) << 28};
  CHECK(wide.fits_32bit() == true);
  for (std::int64_t pid : {std::int64_t(0), (std::int64_t(1) << 28) - 1}) CHECK(std::int64_t(wide.tile_of(std::uint32_t(pid)).n) == pid);
  CHECK(SplitPlan{0, 8}.fits_32bit(std::int64_t(1) << 28, 4) == false);        // 2^31 CTAs
  CHECK(SplitPlan{0, 8}.fits_32bit(1000, 1 << 28) == false);                   // slice * k_tiles overflows
  CHECK(SplitPlan{0, 8}.fits_32bit(1000, (1 << 28) - 1) == true);
}

// The SM80 kernel's scheduler (SplitKRasterization): the work units of a grid's CTAs are the
// rasterized tiles and the plan's slices, and the k-ranges of a tile's units partition
// [0, k_tiles) in order: every (tile, k-tile) is computed exactly once.
namespace {
void check_work_units(const SplitKRasterization<8>& sched) {
  const std::int64_t tiles = sched.tile_count();
  // per tile: the k-ranges its units cover, by slice
  std::vector<std::vector<std::pair<int, int>>> ranges(static_cast<std::size_t>(tiles));
  for (std::int64_t pid = 0; pid < sched.ctas(); ++pid) {
    const auto w = sched.work_of(pid);
    RC_ASSERT((w.tile >= 0 && w.tile < tiles));
    const auto t = sched.raster.tile_of(w.tile);
    RC_ASSERT((w.tm == t.m && w.tn == t.n));
    RC_ASSERT(w.sliced == (w.tile >= sched.plan.whole));
    RC_ASSERT((w.sliced || (w.slice == 0 && w.k_begin == 0 && w.k_end == sched.k_tiles)));
    auto& r = ranges[std::size_t(w.tile)];
    if (r.size() <= std::size_t(w.slice)) r.resize(std::size_t(w.slice) + 1, {-1, -1});
    RC_ASSERT(r[std::size_t(w.slice)].first == -1);  // each (tile, slice) once
    r[std::size_t(w.slice)] = {w.k_begin, w.k_end};
  }
  for (std::int64_t t = 0; t < tiles; ++t) {
    const auto& r = ranges[std::size_t(t)];
    RC_ASSERT(r.size() == std::size_t(t < sched.plan.whole ? 1 : sched.plan.split));
    int k = 0;
    for (const auto& [b, e] : r) {
      RC_ASSERT(b == k);
      RC_ASSERT(e > b);
      k = e;
    }
    RC_ASSERT(k == sched.k_tiles);
  }
}
}  // namespace

TEST_CASE("SplitKRasterization: each (tile, k-tile) is computed once", "[kernels]") {
  rc::prop("the plan's work units partition the tiles' K", [] {
    Problem p{};
    p.m = *rc::gen::inRange<std::int64_t>(1, 3000);
    p.n = *rc::gen::inRange<std::int64_t>(1, 3000);
    p.k = *rc::gen::inRange<std::int64_t>(1, 5000);
    p.batch = 1;
    const int slots = *rc::gen::inRange(1, 300);
    const std::int64_t tiles = ((p.m + 127) / 128) * ((p.n + 255) / 256);
    const int k_tiles = int((p.k + 31) / 32);
    p.split_k = plan_last_wave_split(tiles, k_tiles, 1, slots);
    const auto sched = SplitKRasterization<8>::of<128, 256, 32>(p);
    RC_ASSERT(sched.tile_count() == tiles);
    RC_ASSERT(sched.k_tiles == k_tiles);
    RC_ASSERT(sched.ctas() == p.split_k.ctas(tiles));
    RC_ASSERT(sched.raster.fits_32bit());  // (the 32-bit path; the 64-bit one below)
    check_work_units(sched);
  });
  // The default plan (Problem::split_k): every tile whole.
  Problem p{};
  p.m = 1000, p.n = 1000, p.k = 1000, p.batch = 1;
  const auto whole = SplitKRasterization<8>::of<128, 256, 32>(p);
  CHECK(whole.ctas() == 8 * 4);
  for (std::int64_t pid = 0; pid < whole.ctas(); ++pid) CHECK(!whole.work_of(pid).sliced);
  // Counts past 32 bits (slice * k_tiles >= 2^31): the 64-bit maps give the same units.
  const SplitPlan wide_plan{9, 3};
  const SplitKRasterization<8> wide{{3, 5}, wide_plan, 1 << 30};
  REQUIRE(!wide.plan.fits_32bit(wide.tile_count(), wide.k_tiles));
  check_work_units(wide);
  CHECK(wide.work_of(9).k_begin == 0);
  CHECK(wide.work_of(10).k_begin == (1 << 30) / 3);
  CHECK(wide.work_of(11).k_end == 1 << 30);
}
