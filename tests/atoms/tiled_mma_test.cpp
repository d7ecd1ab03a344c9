// TiledMMA: the TV maps of the whole tile against an explicit reference built from the
// atom's layouts and the definition of atom layout / permutation, coverage (C exactly
// once, A replicated over N-atoms, B over M-atoms), and partitions agreeing with the maps.
#include <catch2/catch.hpp>

#include <map>
#include <vector>

#include "tessera/tiled_mma.hpp"

using namespace tessera;

namespace {

struct Coord4 { int v, m, n, k; };

// Thread index -> (v, m, n, k) by brute-force search of the thread layout (independent of
// right_inverse).
template <class TM>
std::vector<Coord4> thread_coords() {
  auto vmnk = TM::get_thr_layout_vmnk();
  int V = int(size<0>(vmnk)), M = int(size<1>(vmnk)), N = int(size<2>(vmnk)), K = int(size<3>(vmnk));
  int n_thr = V * M * N * K;
  std::vector<Coord4> out(n_thr, Coord4{-1, -1, -1, -1});
  std::vector<int> seen(n_thr, 0);
  for (int k = 0; k < K; ++k)
    for (int n = 0; n < N; ++n)
      for (int m = 0; m < M; ++m)
        for (int v = 0; v < V; ++v) {
          int t = int(vmnk(v, m, n, k));
          REQUIRE(t >= 0);
          REQUIRE(t < n_thr);
          out[t] = {v, m, n, k};
          ++seen[t];
        }
  for (int s : seen) REQUIRE(s == 1);  // the thread layout is a bijection onto [0, #threads)
  return out;
}

// Evaluate a permutation entry (`_` = identity) at i.  A tile larger than the permutation is
// tiled by it: the permutation acts within each of its tiles.
template <class P> int64_t perm_at(P const& p, int64_t i) {
  if constexpr (is_underscore_v<P>) return i;
  else if constexpr (is_layout_v<P>) {
    const int64_t n = int64_t(size(p));
    return p(i % n) + n * (i / n);
  } else return i;
}

// Reference map for operand (I0, I1) of (M,N,K): thread t, value v -> tile index.
// Value v = fv + FrgV * (r0 + R0 * r1); atom-local (a0, a1) from the atom's TV layout;
// tile coordinate x_j = Perm_j(a_j + Atom_j * (thr_j + Thr_j * r_j)).
template <class TM, int I0, int I1, class AtomTV, class Perm>
void check_operand(AtomTV const& atom_tv, Perm const& perm, std::vector<int64_t> const& tv_map_flat,
                   int n_val, int tile0, int tile1, int replication) {
  auto shape = typename TM::AtomShape_MNK{};
  const int atom0 = int(get<I0>(shape)), atom1 = int(get<I1>(shape));
  auto vmnk = TM::get_thr_layout_vmnk();
  const int thr0 = int(size<I0 + 1>(vmnk)), thr1 = int(size<I1 + 1>(vmnk));
  const int frg = int(size<1>(atom_tv));
  const int R0 = tile0 / (atom0 * thr0), R1 = tile1 / (atom1 * thr1);
  REQUIRE(n_val == frg * R0 * R1);
  auto coords = thread_coords<TM>();
  std::vector<int> hits(tile0 * tile1, 0);
  int bad = 0;
  for (int t = 0; t < int(coords.size()); ++t) {
    Coord4 c = coords[t];
    int th[3] = {c.m, c.n, c.k};
    for (int r1 = 0; r1 < R1; ++r1)
      for (int r0 = 0; r0 < R0; ++r0)
        for (int fv = 0; fv < frg; ++fv) {
          int64_t a = atom_tv(c.v, fv);
          int64_t a0 = a % atom0, a1 = a / atom0;
          int64_t x0 = perm_at(get<I0>(perm), a0 + atom0 * (th[I0] + thr0 * r0));
          int64_t x1 = perm_at(get<I1>(perm), a1 + atom1 * (th[I1] + thr1 * r1));
          int64_t want = x0 + tile0 * x1;
          int v = fv + frg * (r0 + R0 * r1);
          int64_t got = tv_map_flat[size_t(t) * n_val + v];
          if (got != want && bad++ < 5)
            UNSCOPED_INFO("t=" << t << " v=" << v << " map gives " << got << ", reference " << want);
          if (want >= 0 && want < tile0 * tile1) ++hits[want];
        }
  }
  CHECK(bad == 0);
  for (int h : hits) CHECK(h == replication);
}

template <class L>
std::vector<int64_t> flatten_tv(L const& tv) {
  std::vector<int64_t> out;
  int nt = int(size<0>(tv)), nv = int(size<1>(tv));
  for (int t = 0; t < nt; ++t)
    for (int v = 0; v < nv; ++v) out.push_back(tv(t, v));
  return out;
}

template <class TM>
void check_tiled_mma(TM const& tm) {
  auto vmnk = TM::get_thr_layout_vmnk();
  const int AM = int(size<1>(vmnk)), AN = int(size<2>(vmnk)), AK = int(size<3>(vmnk));
  const int TM_ = int(TM::template tile_size_mnk<0>());
  const int TN_ = int(TM::template tile_size_mnk<1>());
  const int TK_ = int(TM::template tile_size_mnk<2>());
  const int n_thr = int(TM::num_threads());
  INFO(TM::AtomType::name() << " tile " << TM_ << "x" << TN_ << "x" << TK_ << " atoms " << AM << "x" << AN << "x" << AK);

  auto perm = decltype(tiled_mma_permutation(tm)){};
  auto c_tv = TM::get_layoutC_TV();
  auto a_tv = TM::get_layoutA_TV();
  auto b_tv = TM::get_layoutB_TV();
  REQUIRE(int(size<0>(c_tv)) == n_thr);
  REQUIRE(int(size<0>(a_tv)) == n_thr);
  REQUIRE(int(size<0>(b_tv)) == n_thr);
  // C: each (m,n) exactly once per K-atom (threads of different K-atoms hold the same C).
  check_operand<TM, 0, 1>(typename TM::AtomLayoutC_TV{}, perm, flatten_tv(c_tv), int(size<1>(c_tv)), TM_, TN_, AK);
  // A is replicated over the N-atoms, B over the M-atoms.
  // Atom-level replication: an SS operand gives every thread the whole tile.
  auto rep = [](auto atom_tv, int e0, int e1) {
    return int(size(typename TM::AtomThrID{}.shape())) * int(size<1>(atom_tv)) / (e0 * e1);
  };
  auto shp = typename TM::AtomShape_MNK{};
  check_operand<TM, 0, 2>(typename TM::AtomLayoutA_TV{}, perm, flatten_tv(a_tv), int(size<1>(a_tv)), TM_, TK_,
                          AN * rep(typename TM::AtomLayoutA_TV{}, int(get<0>(shp)), int(get<2>(shp))));
  check_operand<TM, 1, 2>(typename TM::AtomLayoutB_TV{}, perm, flatten_tv(b_tv), int(size<1>(b_tv)), TN_, TK_,
                          AM * rep(typename TM::AtomLayoutB_TV{}, int(get<1>(shp)), int(get<2>(shp))));

  // Partitions of the tile agree with the TV maps, thread by thread.
  auto refC = make_layout(make_shape(TM::template tile_size_mnk<0>(), TM::template tile_size_mnk<1>()));
  auto refA = make_layout(make_shape(TM::template tile_size_mnk<0>(), TM::template tile_size_mnk<2>()));
  int bad = 0;
  for (int t = 0; t < n_thr; ++t) {
    auto thr = tm.get_slice(t);
    auto pc = thr.partition_C_layout(refC);
    auto lc = get<0>(pc);
    int64_t oc = get<1>(pc);
    for (int v = 0; v < int(size(lc.shape())); ++v) bad += (oc + lc(v)) != c_tv(t, v);
    auto pa = thr.partition_A_layout(refA);
    auto la = get<0>(pa);
    int64_t oa = get<1>(pa);
    for (int v = 0; v < int(size(la.shape())); ++v) bad += (oa + la(v)) != a_tv(t, v);
  }
  CHECK(bad == 0);

  // A C of 2 x 3 tiles: every element exactly once per K-atom over all threads.
  auto big = make_layout(make_shape(2 * TM::template tile_size_mnk<0>(), 3 * TM::template tile_size_mnk<1>()));
  std::vector<int> hits(size_t(6 * TM_ * TN_), 0);
  for (int t = 0; t < n_thr; ++t) {
    auto p = tm.get_slice(t).partition_C_layout(big);
    auto l = get<0>(p);
    int64_t o = get<1>(p);
    REQUIRE(int(size(l.shape())) == 6 * int(size<1>(c_tv)));
    for (int v = 0; v < int(size(l.shape())); ++v) ++hits[size_t(o + l(v))];
  }
  for (int h : hits) CHECK(h == AK);

  // The maps over a tile of 2 x 3 tiled-MMA tiles (get_layoutX_TV(tile)): the reference with
  // repeats, and thread by thread the fragment order of partition_X over that tile.
  auto bigA = make_shape(2 * TM::template tile_size_mnk<0>(), 3 * TM::template tile_size_mnk<2>());
  auto bigB = make_shape(3 * TM::template tile_size_mnk<1>(), 2 * TM::template tile_size_mnk<2>());
  auto bigC = make_shape(2 * TM::template tile_size_mnk<0>(), 3 * TM::template tile_size_mnk<1>());
  auto c_big = TM::get_layoutC_TV(bigC);
  auto a_big = TM::get_layoutA_TV(bigA);
  auto b_big = TM::get_layoutB_TV(bigB);
  REQUIRE(int(size<1>(c_big)) == 6 * int(size<1>(c_tv)));
  check_operand<TM, 0, 1>(typename TM::AtomLayoutC_TV{}, perm, flatten_tv(c_big), int(size<1>(c_big)), 2 * TM_, 3 * TN_, AK);
  check_operand<TM, 0, 2>(typename TM::AtomLayoutA_TV{}, perm, flatten_tv(a_big), int(size<1>(a_big)), 2 * TM_, 3 * TK_,
                          AN * rep(typename TM::AtomLayoutA_TV{}, int(get<0>(shp)), int(get<2>(shp))));
  check_operand<TM, 1, 2>(typename TM::AtomLayoutB_TV{}, perm, flatten_tv(b_big), int(size<1>(b_big)), 3 * TN_, 2 * TK_,
                          AM * rep(typename TM::AtomLayoutB_TV{}, int(get<1>(shp)), int(get<2>(shp))));
  bad = 0;
  for (int t = 0; t < n_thr; ++t) {
    auto thr = tm.get_slice(t);
    auto check_partition = [&](auto const& p, auto const& tv) {
      auto l = get<0>(p);
      int64_t o = get<1>(p);
      for (int v = 0; v < int(size(l.shape())); ++v) bad += (o + l(v)) != tv(t, v);
    };
    check_partition(thr.partition_A_layout(make_layout(bigA)), a_big);
    check_partition(thr.partition_B_layout(make_layout(bigB)), b_big);
    check_partition(thr.partition_C_layout(make_layout(bigC)), c_big);
  }
  CHECK(bad == 0);
}

}  // namespace

namespace tessera {
// The permutation a TiledMMA was built with (test helper).
template <class A, class L, class P>
P tiled_mma_permutation(TiledMMA<A, L, P> const&) { return {}; }
}  // namespace tessera

TEST_CASE("SM80 16x8x16 tiled 2x2x1, 1x4x1 and 2x1x2", "[atoms][tiled_mma]") {
  check_tiled_mma(make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, make_layout(make_shape(_2{}, _2{}, _1{}))));
  check_tiled_mma(make_tiled_mma(SM80_16x8x16_F32BF16BF16F32_TN{}, make_layout(make_shape(_1{}, _4{}, _1{}))));
  check_tiled_mma(make_tiled_mma(SM80_16x8x8_F16F16F16F16_TN{}, make_layout(make_shape(_2{}, _1{}, _2{}))));
}

TEST_CASE("tiled MMA with value tiles and permutations", "[atoms][tiled_mma]") {
  // 2x2 atoms over a 64x32x16 tile: each thread holds 2x2 atoms' worth of values.
  check_tiled_mma(make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, make_layout(make_shape(_2{}, _2{}, _1{})),
                                 make_tile(_64{}, _32{}, _16{})));
  // CuTe's usual N permutation: interleave two 8-wide atoms so each thread owns 4
  // consecutive columns (ldmatrix-friendly).
  check_tiled_mma(make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, make_layout(make_shape(_2{}, _2{}, _1{})),
                                 make_tile(_32{}, make_layout(make_shape(_8{}, _2{}, _2{}), make_stride(_1{}, _16{}, _8{})), _16{})));
  // An M permutation of the rows.
  check_tiled_mma(make_tiled_mma(SM80_16x8x8_F32TF32TF32F32_TN{}, make_layout(make_shape(_2{}, _1{}, _1{})),
                                 make_tile(make_layout(make_shape(_2{}, _16{}), make_stride(_16{}, _1{})), _, _)));
}

TEST_CASE("tiled MMA for other atoms", "[atoms][tiled_mma]") {
  check_tiled_mma(make_tiled_mma(SM70_8x8x4_F32F16F16F32_TN{}, make_layout(make_shape(_2{}, _2{}, _1{}))));
  check_tiled_mma(make_tiled_mma(SM70_8x8x4_F16F16F16F16_NT{}, make_layout(make_shape(_2{}, _2{}, _1{}))));
  check_tiled_mma(make_tiled_mma(SM80_8x8x4_F64F64F64F64_TN{}, make_layout(make_shape(_1{}, _2{}, _1{}))));
  check_tiled_mma(make_tiled_mma(SM80_16x8x32_S32S8S8S32_TN{}, make_layout(make_shape(_2{}, _2{}, _1{}))));
  check_tiled_mma(make_tiled_mma(UniversalFMA<float>{}, make_layout(make_shape(_16{}, _8{}, _1{}))));
  check_tiled_mma(make_tiled_mma(UniversalFMA<float>{}, make_layout(make_shape(_16{}, _8{}, _1{}), LayoutRight{})));
  check_tiled_mma(make_tiled_mma(SM90_64xNx16_F32BF16BF16_RS<8>{}, make_layout(make_shape(_1{}, _2{}, _1{}))));
}

TEST_CASE("tiled MMA sizes and a known TV map", "[atoms][tiled_mma]") {
  auto tm = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, make_layout(make_shape(_2{}, _2{}, _1{})));
  static_assert(decltype(size(tm))::value == 128);
  static_assert(decltype(tm.tile_size_mnk<0>())::value == 32);
  static_assert(decltype(tm.tile_size_mnk<1>())::value == 16);
  static_assert(decltype(tm.tile_size_mnk<2>())::value == 16);
  CHECK(to_string(tm.get_thr_layout_vmnk()) == "(32,2,2,1):(1,32,64,0)");
  CHECK(to_string(tm.get_layoutC_TV()) == "((4,8,2,2),((2,2),(1,1))):((64,1,16,256),((32,8),(0,0)))");
}
