// Host checks (no GPU) of what the SM90 GEMM relies on:
//  - the epilogue's residue predicates: in the cooperative TiledMma (two wgmma 64x256 atoms
//    along M), every thread's value v sits at its value 0 plus thread 0's value v (the thread
//    and value parts of the C layout never carry), and the 256 threads x 128 values cover the
//    128 x 256 tile once;
//  - the persistent tile scheduler: every (m, n, l) tile exactly once, grouped raster.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <set>
#include <tuple>

#include "kernel/sm90_tile_scheduler.cuh"
#include "tessera/atom/mma_sm90.hpp"
#include "tessera/tensor.hpp"
#include "tessera/tiled_mma.hpp"

using namespace tessera;

TEST_CASE("sm90 epilogue: C coordinates are value 0's plus thread 0's constants, covering the tile once") {
  const auto tiled = make_tiled_mma(MMA_Atom<SM90_64xNx16_F32BF16BF16_SS<256>>{}, make_layout(make_shape(_2{}, _1{}, _1{})));
  const auto tile = make_shape(_128{}, _256{});
  const auto id = make_identity_tensor(tile);
  const auto c0 = tiled.get_slice(0).partition_C(id);
  REQUIRE(int(size(c0)) == 128);
  std::set<std::pair<int64_t, int64_t>> seen;
  int bad = 0;
  for (int t = 0; t < 256; ++t) {
    const auto ct = tiled.get_slice(t).partition_C(id);
    const auto base = ct(0);
    for (int v = 0; v < 128; ++v) {
      const auto x = ct(v), d = c0(v), z = c0(0);
      const int64_t m = int64_t(get<0>(x)), n = int64_t(get<1>(x));
      bad += m != int64_t(get<0>(base)) + int64_t(get<0>(d)) - int64_t(get<0>(z));
      bad += n != int64_t(get<1>(base)) + int64_t(get<1>(d)) - int64_t(get<1>(z));
      seen.insert({m, n});
    }
  }
  CHECK(bad == 0);
  CHECK(seen.size() == 128u * 256u);
  // Thread t of warpgroup w holds rows 64w .. 64w+63 (the mainloop's A rows for warpgroup w).
  for (int t = 0; t < 256; ++t) CHECK(int64_t(get<0>(tiled.get_slice(t).partition_C(id)(0))) / 64 == t / 128);
}

TEST_CASE("sm90 persistent scheduler: every tile once, grouped raster (generated)") {
  rc::prop("bijection onto (m, n, l)", [] {
    kernels::sm90::PersistentTileScheduler s;
    s.tiles_m = *rc::gen::inRange<int64_t>(1, 40);
    s.tiles_n = *rc::gen::inRange<int64_t>(1, 40);
    s.batch = *rc::gen::inRange<int64_t>(1, 4);
    s.group = *rc::gen::inRange<int64_t>(1, 10);
    std::set<std::tuple<int64_t, int64_t, int64_t>> seen;
    for (int64_t t = 0; t < s.tile_count(); ++t) {
      const auto x = s.tile(t);
      RC_ASSERT(x.m >= 0 && x.m < s.tiles_m && x.n >= 0 && x.n < s.tiles_n && x.l >= 0 && x.l < s.batch);
      seen.insert({x.m, x.n, x.l});
      // Inside a whole group, consecutive tiles go down M first.
      const int64_t g = s.group < s.tiles_m ? s.group : s.tiles_m;
      const int64_t r = t % (s.tiles_m * s.tiles_n);
      if (r < s.tiles_m / g * g * s.tiles_n && r % g != 0) {
        const auto prev = s.tile(t - 1);
        RC_ASSERT(prev.m + 1 == x.m && prev.n == x.n);
      }
    }
    RC_ASSERT(int64_t(seen.size()) == s.tile_count());
  });
}
