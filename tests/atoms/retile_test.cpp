// retile_S / retile_D: a fragment made for an MMA, seen in a tiled copy's value order,
// checked register by register against the MMA's and the copy's partitions.
#include <catch2/catch.hpp>

#include <vector>

#include "fragment_checks.hpp"
#include "tessera/tiled_copy.hpp"

using namespace tessera;
using namespace tessera_test;

namespace {

// Thread t of a tiled copy made for operand X of `tm`: copy value j of retile(fragment) is
// register r = fragment index i; the MMA reads register i as the element partition_X gives
// at i, and the copy moves, as its value j, the element partition_D (registers are the
// destination) or partition_S (registers are the source) gives at j.  Both must agree, and
// retile must visit each register exactly once.
template <Operand X, bool RegistersAreDst, class TM, class TC, class Tile>
void check_retile(TM const& tm, TC const& tc, Tile const& tile) {
  auto id = tile.tensor();  // element = its column-major index in the tile
  const int n_thr = int(TM::num_threads());
  REQUIRE(int(TC::num_threads()) == n_thr);
  auto retiled = [&](auto const& cthr, auto& frag) {
    if constexpr (RegistersAreDst) return cthr.retile_D(frag); else return cthr.retile_S(frag);
  };
  auto copy_side = [&](auto const& cthr) {
    if constexpr (RegistersAreDst) return cthr.partition_D(id); else return cthr.partition_S(id);
  };
  using Frag = decltype(fragment_of<X>(tm.get_slice(0), id));
  using Ret = decltype(retiled(tc.get_slice(0), std::declval<Frag&>()));
  using Cpy = decltype(copy_side(tc.get_slice(0)));
  INFO("fragment " << to_string(Frag{}.layout()) << " retiled " << to_string(Ret{}.layout()) << " copy side "
                   << to_string(Cpy{}.layout()));
  // The copy's partition shape, mode by mode: (values, rest...) -- what copy() iterates.
  constexpr int R = rank_v<decltype(Cpy{}.shape())>;
  static_assert(rank_v<decltype(Ret{}.shape())> == R);
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    ([&] { CHECK(int64_t(size<I>(Ret{}.layout())) == int64_t(size<I>(Cpy{}.layout()))); }(), ...);
  }(std::make_index_sequence<R>{});
  CHECK(int64_t(size<0>(Ret{}.layout())) == int64_t(TC::num_values()));
  CHECK(int64_t(size<0, 0>(Ret{}.layout())) == int64_t(TC::atom_num_val()));  // one instruction's values first

  const int n = int(size(Frag{}.layout()));
  int bad_perm = 0, bad_land = 0;
  for (int t = 0; t < n_thr; ++t) {
    auto thr = tm.get_slice(t);
    auto cthr = tc.get_slice(t);
    auto frag = fragment_of<X>(thr, id);
    auto part = partition_of<X>(thr, id);
    auto rf = retiled(cthr, frag);
    auto cp = copy_side(cthr);
    auto inv = fragment_inverse(frag);
    std::vector<int> hits(size_t(n), 0);
    for (int j = 0; j < n; ++j) {
      const int64_t slot = &rf[j] - frag.data();
      REQUIRE(slot >= 0);
      REQUIRE(slot < n);
      ++hits[size_t(slot)];
      const int i = inv[size_t(slot)];
      if (part[i] != cp[j] && bad_land++ < 5)
        UNSCOPED_INFO("t=" << t << " copy value " << j << " moves element " << cp[j] << " but its register " << slot
                           << " is the MMA's value " << i << ", element " << part[i]);
    }
    for (int h : hits) bad_perm += h != 1;
  }
  CHECK(bad_perm == 0);
  CHECK(bad_land == 0);
}

}  // namespace

TEST_CASE("retile: ldmatrix and universal copies deliver the SM80 2x2x1 fragments", "[atoms][fragment][retile]") {
  auto tm = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, make_layout(make_shape(_2{}, _2{}, _1{})));
  check_retile<Operand::A, true>(tm, make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, tm), IndexTile<64, 32, true>{});
  check_retile<Operand::B, true>(tm, make_tiled_copy_B(Copy_Atom<SM75_U32x2_LDSM_N, half_t>{}, tm), IndexTile<32, 32, true>{});
  check_retile<Operand::B, true>(tm, make_tiled_copy_B(Copy_Atom<SM75_U16x4_LDSM_T, half_t>{}, tm), IndexTile<32, 32, false>{});
  // Epilogue: accumulators are the copy's source.
  check_retile<Operand::C, false>(tm, make_tiled_copy_C(Copy_Atom<UniversalCopy<uint64_t>, float>{}, tm), IndexTile<64, 32, false>{});

  // One known layout: the A fragment regrouped as (8 values of one ldmatrix x4, 1), M, K.
  auto tc = make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, tm);
  IndexTile<64, 32, true> sA;
  auto frag = tm.get_slice(5).partition_fragment_A(sA.tensor());
  CHECK(to_string(frag.layout()) == "((2,2,2),2,2):((1,2,4),16,8)");
  CHECK(to_string(tc.get_slice(5).retile_D(frag).layout()) == "((8,1),2,2):((1,0),16,8)");
}

TEST_CASE("retile: permuted and value-tiled MMAs (several value blocks per tile)", "[atoms][fragment][retile]") {
  // CuTe's usual N permutation: each thread's B values of two N-atoms form one ldmatrix x4.
  auto tp = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, make_layout(make_shape(_2{}, _2{}, _1{})),
                           make_tile(_32{}, make_layout(make_shape(_8{}, _2{}, _2{}), make_stride(_1{}, _16{}, _8{})), _16{}));
  check_retile<Operand::B, true>(tp, make_tiled_copy_B(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, tp), IndexTile<64, 32, true>{});
  check_retile<Operand::A, true>(tp, make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, tp), IndexTile<64, 32, true>{});
  // A 64x32x16 value tile over 2x2 atoms: two M-atoms (A) / two N-atoms (B) per thread per
  // tile, so the copy's values come in blocks the fragment's rest modes address.
  auto tv = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, make_layout(make_shape(_2{}, _2{}, _1{})),
                           make_tile(_64{}, _32{}, _16{}));
  check_retile<Operand::A, true>(tv, make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, tv), IndexTile<128, 32, true>{});
  check_retile<Operand::B, true>(tv, make_tiled_copy_B(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, tv), IndexTile<64, 32, true>{});
  check_retile<Operand::C, false>(tv, make_tiled_copy_C(Copy_Atom<UniversalCopy<uint64_t>, float>{}, tv), IndexTile<128, 64, false>{});
}

TEST_CASE("retile: SM70, SM90 RS and SIMT", "[atoms][fragment][retile]") {
  auto t70 = make_tiled_mma(SM70_8x8x4_F32F16F16F32_TN{}, make_layout(make_shape(_2{}, _2{}, _1{})));
  check_retile<Operand::A, true>(t70, make_tiled_copy_A(Copy_Atom<UniversalCopy<uint64_t>, half_t>{}, t70), IndexTile<32, 8, true>{});
  check_retile<Operand::C, false>(t70, make_tiled_copy_C(Copy_Atom<UniversalCopy<uint64_t>, float>{}, t70), IndexTile<32, 32, false>{});
  auto t90 = make_tiled_mma(SM90_64x8x16_F32F16F16_RS{}, make_layout(make_shape(_1{}, _2{}, _1{})));
  check_retile<Operand::A, true>(t90, make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, t90), IndexTile<64, 32, true>{});
  check_retile<Operand::C, false>(t90, make_tiled_copy_C(Copy_Atom<UniversalCopy<uint64_t>, float>{}, t90), IndexTile<64, 32, false>{});
  auto simt = make_tiled_mma(UniversalFMA<float>{}, make_layout(make_shape(_16{}, _8{}, _1{})));
  check_retile<Operand::A, true>(simt, make_tiled_copy_A(Copy_Atom<UniversalCopy<float>, float>{}, simt), IndexTile<64, 8, false>{});
  check_retile<Operand::C, false>(simt, make_tiled_copy_C(Copy_Atom<UniversalCopy<float>, float>{}, simt), IndexTile<64, 32, false>{});
}

TEST_CASE("retile of a copy's own fragment is the identity", "[atoms][fragment][retile]") {
  // A gmem -> register copy: 16x8 threads, 2x4 values (two 64-bit vectors) each.
  auto tc = make_tiled_copy(Copy_Atom<UniversalCopy<uint64_t>, half_t>{}, make_layout(make_shape(_16{}, _8{}), LayoutRight{}),
                            make_layout(make_shape(_2{}, _4{}), LayoutRight{}));
  IndexTile<64, 64, true> g;
  for (int t = 0; t < 128; ++t) {
    auto cthr = tc.get_slice(t);
    auto frag = make_fragment_like(cthr.partition_D(g.tensor()));
    auto rf = cthr.retile_D(frag);
    REQUIRE(size(rf.layout()) == size(frag.layout()));
    int bad = 0;
    for (int j = 0; j < int(size(frag.layout())); ++j) bad += &rf[j] != &frag[j];
    CHECK(bad == 0);
  }
}

