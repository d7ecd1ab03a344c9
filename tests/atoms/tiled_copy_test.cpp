// TiledCopy: source/destination TV maps against explicit references, copies built from a
// TiledMMA deliver exactly the MMA's fragments, partitions agree with the maps, and the
// bank model applied to a tiled copy's addresses.
#include <catch2/catch.hpp>

#include <vector>

#include "tessera/analysis/smem_banks.hpp"
#include "tessera/tiled_copy.hpp"

using namespace tessera;

namespace {

template <class L>
std::vector<int> hits_of(L const& tv, int tile) {
  std::vector<int> h(tile, 0);
  for (int t = 0; t < int(size<0>(tv)); ++t)
    for (int v = 0; v < int(size<1>(tv)); ++v) {
      int64_t i = tv(t, v);
      REQUIRE(i >= 0);
      REQUIRE(i < tile);
      ++h[i];
    }
  return h;
}

// Partitions of the tile agree with the TV maps, thread by thread.
template <class TC>
void check_partitions_match_maps(TC const& tc) {
  auto tile = make_layout(typename TC::Tiler_MN{});
  auto s_tv = tc.get_layoutS_TV();
  auto d_tv = tc.get_layoutD_TV();
  int bad = 0;
  for (int t = 0; t < int(TC::num_threads()); ++t) {
    auto ps = tc.get_slice(t).partition_S_layout(tile);
    auto pd = tc.get_slice(t).partition_D_layout(tile);
    auto ls = get<0>(ps);
    auto ld = get<0>(pd);
    REQUIRE(int(size(ls.shape())) == int(size<1>(s_tv)));
    for (int v = 0; v < int(size(ls.shape())); ++v) bad += int64_t(get<1>(ps)) + ls(v) != s_tv(t, v);
    for (int v = 0; v < int(size(ld.shape())); ++v) bad += int64_t(get<1>(pd)) + ld(v) != d_tv(t, v);
  }
  CHECK(bad == 0);
}

}  // namespace

TEST_CASE("tiled UniversalCopy: 32x8 row-major threads, 1x8 values", "[atoms][tiled_copy]") {
  auto tc = make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>{},
                            make_layout(make_shape(_32{}, _8{}), LayoutRight{}), make_layout(make_shape(_1{}, _8{})));
  static_assert(decltype(size(tc))::value == 256);
  auto s = tc.get_layoutS_TV();
  REQUIRE(int(size<1>(s)) == 8);
  // Thread t = 8 * row + col-block: row t / 8, columns 8 * (t % 8) + v of the 32 x 64 tile.
  for (int t = 0; t < 256; ++t)
    for (int v = 0; v < 8; ++v) CHECK(s(t, v) == (t / 8) + 32 * (8 * (t % 8) + v));
  for (int h : hits_of(s, 32 * 64)) CHECK(h == 1);
  for (int h : hits_of(tc.get_layoutD_TV(), 32 * 64)) CHECK(h == 1);
  check_partitions_match_maps(tc);
}

TEST_CASE("tiled cp.async and column-major value blocks", "[atoms][tiled_copy]") {
  // 16 x 8 column-major threads, each 4 x 1 values of 8 bytes (uint64 copies of 2 floats).
  auto tc = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<8>, float>{}, make_layout(make_shape(_16{}, _8{})),
                            make_layout(make_shape(_2{}, _1{})));
  auto s = tc.get_layoutS_TV();
  REQUIRE(int(size<0>(s)) == 128);
  REQUIRE(int(size<1>(s)) == 2);
  // Thread t = m + 16 n: rows 2m, 2m+1 of column n of the 32 x 8 tile.
  for (int t = 0; t < 128; ++t)
    for (int v = 0; v < 2; ++v) CHECK(s(t, v) == (2 * (t % 16) + v) + 32 * (t / 16));
  for (int h : hits_of(s, 32 * 8)) CHECK(h == 1);
  check_partitions_match_maps(tc);
}

TEST_CASE("ldmatrix copies built from a TiledMMA deliver the MMA's fragments", "[atoms][tiled_copy]") {
  auto tm = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, make_layout(make_shape(_2{}, _2{}, _1{})));
  auto mma_a = tm.get_layoutA_TV();

  SECTION("A, K-major smem, ldmatrix x4") {
    auto tc = make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, tm);
    auto d = tc.get_layoutD_TV();
    auto s = tc.get_layoutS_TV();
    REQUIRE(int(size<1>(d)) == int(size<1>(mma_a)));
    for (int t = 0; t < 128; ++t)
      for (int v = 0; v < int(size<1>(d)); ++v) CHECK(d(t, v) == mma_a(t, v));
    // Each lane addresses one 16-byte row: 8 consecutive k of one m (tile 32 x 16).
    for (int t = 0; t < 128; ++t) {
      int64_t first = s(t, 0);
      for (int v = 1; v < 8; ++v) CHECK(s(t, v) == first + 32 * v);
    }
    // Every element of A is read once per N-atom (the MMA replicates A over N).
    for (int h : hits_of(s, 32 * 16)) CHECK(h == 2);
    check_partitions_match_maps(tc);
  }
  SECTION("B, N-major smem, ldmatrix x4 .trans, two N-atoms per thread") {
    auto tm2 = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, make_layout(make_shape(_2{}, _2{}, _1{})),
                              make_tile(_32{}, _32{}, _16{}));
    auto mma_b2 = tm2.get_layoutB_TV();
    auto tc = make_tiled_copy_B(Copy_Atom<SM75_U16x8_LDSM_T, half_t>{}, tm2);
    auto d = tc.get_layoutD_TV();
    auto s = tc.get_layoutS_TV();
    for (int t = 0; t < 128; ++t)
      for (int v = 0; v < int(size<1>(d)); ++v) CHECK(d(t, v) == mma_b2(t, v));
    // .trans: each lane's 16-byte row runs along n (tile 32 x 16 as (N, K)).
    for (int t = 0; t < 128; ++t) {
      int64_t first = s(t, 0);
      for (int v = 1; v < 8; ++v) CHECK(s(t, v) == first + v);
    }
    for (int h : hits_of(s, 32 * 16)) CHECK(h == 2);
    check_partitions_match_maps(tc);
  }
}

TEST_CASE("bank conflicts of a tiled ldmatrix copy over a row-major smem tile", "[atoms][tiled_copy][banks]") {
  // A 16 x 64 fp16 A tile, K-major rows of 128 bytes, read by ldmatrix x4 for a 16x8x16 MMA:
  // each phase reads 8 rows at the same column -> 8-way conflicts.
  auto tm = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{});
  auto tc = make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, tm);
  auto smem = make_layout(make_shape(_16{}, _64{}), LayoutRight{});  // (m, k) -> element offset
  int64_t addr[32];
  for (int t = 0; t < 32; ++t) {
    auto p = tc.get_slice(t).partition_S_layout(smem);
    addr[t] = 2 * (int64_t(get<1>(p)) + get<0>(p)(0));  // the row this lane addresses, in bytes
  }
  auto r = analysis::analyze_ldmatrix(addr, 4);
  REQUIRE(r.ok());
  CHECK(r.max_degree == 8);
  CHECK(r.wavefronts == 32);
}
