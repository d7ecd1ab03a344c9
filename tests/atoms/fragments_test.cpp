// Register fragments (owning tensors), partition_fragment_A/B/C, and partitions of
// swizzled tensors (retile: test_retile.cpp).
//
// What is checked, thread by thread and value by value:
//  - owning tensors: storage size = cosize, coordinate / 1-D access, slices are views into
//    the same storage, copies own their elements, constant evaluation;
//  - make_fragment_like: same shape, compact, mode 0 column-major, the other modes in the
//    source's stride order (post-conditions on a family of layouts, plus CuTe's answers);
//  - partition_fragment_X(tensor) has partition_X(tensor)'s shape, is a bijection onto its
//    registers, keeps one instruction's values (mode 0) in consecutive registers, and
//    element i of the fragment is the element i of the partition (copied through);
//  - partitions of a swizzled tensor are the swizzle applied to the unswizzled partition.
#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
#include <vector>

#include "fragment_checks.hpp"
#include "tessera/tiled_copy.hpp"

using namespace tessera;
using namespace tessera_test;

namespace {

// ---- owning tensors --------------------------------------------------------------

constexpr int constexpr_fragment_sum() {
  auto f = make_tensor<int>(make_layout(make_shape(_4{}, _2{}), LayoutRight{}));
  for (int m = 0; m < 4; ++m)
    for (int n = 0; n < 2; ++n) f(m, n) = 10 * m + n;
  auto col = f(_, 1);  // a view of column 1
  col(2) = 100;
  int s = 0;
  for (int i = 0; i < 8; ++i) s += f[i];
  return s + f(2, 1);
}
static_assert(constexpr_fragment_sum() == (0 + 1 + 10 + 11 + 20 + 100 + 30 + 31) + 100);

TEST_CASE("owning tensors hold cosize elements and slice into views", "[atoms][fragment]") {
  auto f = make_tensor<float>(make_layout(make_shape(_4{}, _8{})));
  static_assert(decltype(f)::owns_storage);
  static_assert(decltype(f)::engine_type::size() == 32);
  static_assert(!decltype(make_tensor(static_cast<float*>(nullptr), f.layout()))::owns_storage);
  for (int i = 0; i < 32; ++i) CHECK(f[i] == 0.f);  // value-initialised
  for (int m = 0; m < 4; ++m)
    for (int n = 0; n < 8; ++n) f(m, n) = float(m + 4 * n);
  for (int i = 0; i < 32; ++i) CHECK(f.data()[i] == float(i));  // column-major storage
  auto row = f(2, _);
  static_assert(!decltype(row)::owns_storage);
  row(5) = -1.f;
  CHECK(f(2, 5) == -1.f);
  CHECK(&row(3) == &f(2, 3));
  auto copy = f;  // owning: copies the elements
  copy(0, 0) = 7.f;
  CHECK(f(0, 0) == 0.f);
  CHECK(copy(0, 0) == 7.f);
  fill(f(_, 1), 3.f);
  for (int m = 0; m < 4; ++m) CHECK(f(m, 1) == 3.f);
  clear(f);
  for (int i = 0; i < 32; ++i) CHECK(f[i] == 0.f);
  auto const& cf = f;
  static_assert(std::is_same_v<decltype(cf(_, 0).data()), float const* const&>);

  // A shape gives the compact column-major layout; a broadcast mode shares storage.
  auto s = make_tensor<int>(make_shape(_3{}, _5{}));
  static_assert(decltype(s)::engine_type::size() == 15);
  auto b = make_tensor<int>(make_layout(make_shape(_4{}, _3{}), make_stride(_1{}, _0{})));
  static_assert(decltype(b)::engine_type::size() == 4);
  b(1, 2) = 9;
  CHECK(b(1, 0) == 9);
  CHECK(b(1, 1) == 9);
}

// ---- make_fragment_like ------------------------------------------------------------

// The rank of each stride among the given ones (ties by position), as make_ordered_layout
// orders them.
std::vector<int> stride_ranks(std::vector<int64_t> const& d) {
  std::vector<int> r(d.size());
  for (std::size_t i = 0; i < d.size(); ++i) {
    int k = 0;
    for (std::size_t j = 0; j < d.size(); ++j) k += d[j] < d[i] || (d[j] == d[i] && j < i);
    r[i] = k;
  }
  return r;
}

template <class L>
void check_fragment_layout(L const& src) {
  INFO("source " << to_string(src));
  auto f = make_fragment_like(src);
  INFO("fragment " << to_string(f));
  CHECK(equal(f.shape(), src.shape()));
  auto m0 = get<0>(f);
  auto s0 = get<0>(src);
  // mode 0: column-major over the modes whose source stride is not a static 0, which stay 0
  bool zeros = false;
  {
    auto fs = flatten_to_tuple(m0.shape());
    auto fd = flatten_to_tuple(m0.stride());
    auto sd = flatten_to_tuple(s0.stride());
    int64_t expect = 1;
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      ([&] {
        if constexpr (is_constant_v<0, std::remove_cvref_t<decltype(get<I>(sd))>>) {
          zeros = true;
          CHECK(int64_t(get<I>(fd)) == 0);
        } else {
          if (int64_t(get<I>(fs)) != 1) CHECK(int64_t(get<I>(fd)) == expect);
          expect *= int64_t(get<I>(fs));
        }
      }(), ...);
    }(seq_of<decltype(fs)>{});
    CHECK(int64_t(cosize(m0)) == expect);
  }
  // the fragment is compact: a bijection onto [0, cosize) when nothing is broadcast
  if (!zeros) CHECK(is_bijective(f));
  CHECK(is_compact(f));
  // the other modes' leaves: strides ordered like the source's, starting at cosize(mode 0)
  constexpr int R = decltype(f)::rank;
  if constexpr (R > 1) {
    auto fr = flatten_to_tuple(take<1, R>(f).stride());
    auto sr = flatten_to_tuple(take<1, R>(src).stride());
    auto fsh = flatten_to_tuple(take<1, R>(f).shape());
    std::vector<int64_t> fv, sv;
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      ((int64_t(get<I>(fsh)) != 1 ? (fv.push_back(int64_t(get<I>(fr))), sv.push_back(int64_t(get<I>(sr))), 0) : 0), ...);
    }(seq_of<decltype(fr)>{});
    if constexpr (is_static_v<decltype(sr)>) {
      CHECK(stride_ranks(fv) == stride_ranks(sv));
    } else {  // dynamic strides give no static order: column-major
      std::vector<int64_t> colmajor(fv.size());
      std::iota(colmajor.begin(), colmajor.end(), 0);
      CHECK(stride_ranks(fv) == stride_ranks(colmajor));
    }
    if (!fv.empty()) CHECK(*std::min_element(fv.begin(), fv.end()) == int64_t(cosize(m0)));
  }
}

TEST_CASE("make_fragment_like: compact, mode 0 column-major, rest in the source's order", "[atoms][fragment]") {
  // CuTe's answers.
  CHECK(to_string(make_fragment_like(make_layout(make_shape(make_shape(_2{}, _2{}), _4{}, _2{}),
                                                 make_stride(make_stride(_64{}, _1{}), _2{}, _16{})))) ==
        "((2,2),4,2):((1,2),4,16)");
  CHECK(to_string(make_fragment_like(make_layout(make_shape(_2{}, _4{}, _3{}), make_stride(_1{}, _12{}, _2{})))) ==
        "(2,4,3):(1,6,2)");
  CHECK(to_string(make_fragment_like(make_layout(make_shape(make_shape(_2{}, _2{}), _4{}), make_stride(make_stride(_0{}, _1{}), _8{})))) ==
        "((2,2),4):((0,1),2)");
  CHECK(to_string(make_fragment_like(make_layout(make_shape(_8{}), make_stride(_3{})))) == "(8):(1)");
  // Post-conditions on a family of source layouts (static and dynamic strides).
  check_fragment_layout(make_layout(make_shape(_4{}, _8{}), LayoutRight{}));
  check_fragment_layout(make_layout(make_shape(make_shape(_2{}, _2{}, _2{}), _2{}, _2{}), make_stride(make_stride(_1{}, _256{}, _8{}), _1024{}, _16{})));
  check_fragment_layout(make_layout(make_shape(make_shape(_2{}, _3{}), make_shape(_2{}, _2{}), _5{}),
                                    make_stride(make_stride(_7{}, _0{}), make_stride(_100{}, _1{}), _10{})));
  check_fragment_layout(make_layout(make_shape(_1{}, _4{}, make_shape(_2{}, _3{})), make_stride(_0{}, _6{}, make_stride(_3{}, _24{}))));
  check_fragment_layout(make_layout(make_shape(_8{}, _2{}, _2{}), make_stride(_1{}, _0{}, _8{})));
  check_fragment_layout(make_layout(make_shape(_8{}, _2{}, _2{}), make_stride(int64_t(3), int64_t(40), int64_t(5))));
  // dynamic strides of the other modes: column-major after mode 0
  CHECK(to_string(make_fragment_like(make_layout(make_shape(_4{}, _2{}, _3{}), make_stride(int64_t(1), int64_t(50), int64_t(4))))) ==
        "(4,2,3):(1,4,8)");
}

// ---- partition_fragment_X -------------------------------------------------------------

template <Operand X, class TM, class Tile>
void check_fragments(TM const& tm, Tile const& tile) {
  auto tensor = tile.tensor();
  using Frag = decltype(fragment_of<X>(tm.get_slice(0), tensor));
  using Part = decltype(partition_of<X>(tm.get_slice(0), tensor));
  INFO("operand " << int(X) << " fragment " << to_string(Frag{}.layout()) << " partition " << to_string(Part{}.layout()));
  static_assert(Frag::owns_storage);
  static_assert(rank_v<decltype(Frag{}.shape())> == 3);
  CHECK(equal(Frag{}.shape(), Part{}.shape()));
  constexpr int n = int(decltype(size(Frag{}.layout()))::value);
  static_assert(Frag::engine_type::size() == std::size_t(n));
  constexpr int V = int(decltype(size<0>(Frag{}.layout()))::value);
  static_assert(V == int(decltype(size<1>(atom_tv<X, TM>()))::value));  // mode 0 = one atom's values
  const int n_thr = int(TM::num_threads());
  int bad = 0;
  for (int t = 0; t < n_thr; ++t) {
    auto thr = tm.get_slice(t);
    auto frag = fragment_of<X>(thr, tensor);
    auto part = partition_of<X>(thr, tensor);
    auto inv = fragment_inverse(frag);
    // one instruction's values in consecutive registers
    for (int r = 0; r < n / V; ++r)
      for (int v = 0; v < V; ++v) bad += frag.layout()(v + V * r) != frag.layout()(V * r) + v;
    // the thread's elements through the fragment: element i of the fragment is element i of
    // the partition, and each is held once
    auto held = make_fragment_like(part);
    static_assert(std::is_same_v<typename decltype(held)::engine_type::value_type, int>);
    for (int i = 0; i < n; ++i) held[i] = part[i];
    std::vector<int> seen;
    for (int i = 0; i < n; ++i) {
      bad += held[i] != part[i];
      seen.push_back(held.data()[held.layout()(i)]);
    }
    std::sort(seen.begin(), seen.end());
    bad += std::adjacent_find(seen.begin(), seen.end()) != seen.end();
    (void)inv;
  }
  CHECK(bad == 0);
}

}  // namespace

TEST_CASE("partition_fragment_A/B/C: shapes and sizes", "[atoms][fragment][tiled_mma]") {
  // SM80 16x8x16 tiled 2x2x1 (tile 32x16x16) over a 64x32 A, 32x32 B, 64x32 C.
  auto tm = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, make_layout(make_shape(_2{}, _2{}, _1{})));
  IndexTile<64, 32, true> sA;   // K-major
  IndexTile<32, 32, true> sB;   // K-major
  IndexTile<64, 32, false> sC;  // M-major
  auto thr = tm.get_slice(37);
  auto fA = thr.partition_fragment_A(sA.tensor());
  auto fB = thr.partition_fragment_B(sB.tensor());
  auto fC = thr.partition_fragment_C(sC.tensor());
  static_assert(std::is_same_v<decltype(fA)::engine_type::value_type, half_t>);
  static_assert(std::is_same_v<decltype(fC)::engine_type::value_type, float>);
  // (V, M, K): 8 A values per atom, 64 / (16*2) M repeats, 32 / 16 K repeats; K-major
  // source: K repeats first.
  CHECK(to_string(fA.layout()) == "((2,2,2),2,2):((1,2,4),16,8)");
  CHECK(to_string(fB.layout()) == "((2,2),2,2):((1,2),8,4)");
  CHECK(to_string(fC.layout()) == "((2,2),2,2):((1,2),4,8)");
  // Without a tensor: the fragment of a tile shape (compact column-major source).
  CHECK(to_string(partition_fragment_C(tm, make_shape(_64{}, _32{})).layout()) == "((2,2),2,2):((1,2),4,8)");
  CHECK(to_string(partition_fragment_A(tm, make_shape(_64{}, _32{})).layout()) == "((2,2,2),2,2):((1,2,4),8,16)");
  CHECK(to_string(partition_fragment_B(tm, make_shape(_32{}, _32{})).layout()) == "((2,2),2,2):((1,2),4,8)");

  check_fragments<Operand::A>(tm, sA);
  check_fragments<Operand::B>(tm, sB);
  check_fragments<Operand::C>(tm, sC);
  check_fragments<Operand::A>(tm, IndexTile<32, 64, false>{});
}

TEST_CASE("partition_fragment for SM70, SM90 RS and SIMT atoms", "[atoms][fragment][tiled_mma]") {
  {  // SM70 8x8x4 quad-pairs, 2x2x1: A/B 4 values, C 8 values per thread.
    auto tm = make_tiled_mma(SM70_8x8x4_F32F16F16F32_TN{}, make_layout(make_shape(_2{}, _2{}, _1{})));
    auto fC = partition_fragment_C(tm, make_shape(_32{}, _32{}));
    CHECK(to_string(fC.shape()) == "((2,2,2),2,2)");
    CHECK(to_string(partition_fragment_A(tm, make_shape(_32{}, _8{})).shape()) == "(4,2,2)");
    check_fragments<Operand::A>(tm, IndexTile<32, 8, true>{});
    check_fragments<Operand::B>(tm, IndexTile<16, 8, false>{});
    check_fragments<Operand::C>(tm, IndexTile<32, 32, false>{});
  }
  {  // SM90 64x8x16, A from registers: 8 A values and 4 accumulators per thread per atom.
    auto tm = make_tiled_mma(SM90_64x8x16_F32F16F16_RS{}, make_layout(make_shape(_1{}, _2{}, _1{})));
    auto fA = partition_fragment_A(tm, make_shape(_64{}, _32{}));
    auto fC = partition_fragment_C(tm, make_shape(_64{}, _32{}));
    CHECK(to_string(fA.layout()) == "((2,2,2),1,2):((1,2,4),0,8)");
    CHECK(to_string(fC.layout()) == "((2,2,1),1,2):((1,2,0),0,4)");
    static_assert(decltype(fC)::engine_type::size() == 8);
    check_fragments<Operand::A>(tm, IndexTile<64, 32, true>{});
    check_fragments<Operand::C>(tm, IndexTile<64, 32, false>{});
    // B (and A of SS atoms) live in shared memory: no register fragment
    // (a static_assert; tests/atoms/misuse/fragment_of_smem_operand.cpp).
  }
  {  // SIMT: 16x8 threads of UniversalFMA, one value per atom.
    auto tm = make_tiled_mma(UniversalFMA<float>{}, make_layout(make_shape(_16{}, _8{}, _1{})));
    auto fA = partition_fragment_A(tm, make_shape(_64{}, _8{}));
    auto fC = partition_fragment_C(tm, make_shape(_64{}, _32{}));
    CHECK(to_string(fA.layout()) == "(1,4,8):(0,1,4)");
    CHECK(to_string(fC.layout()) == "(1,4,4):(0,1,4)");
    check_fragments<Operand::A>(tm, IndexTile<64, 8, false>{});
    check_fragments<Operand::B>(tm, IndexTile<32, 8, true>{});
    check_fragments<Operand::C>(tm, IndexTile<64, 32, false>{});
  }
}

// ---- partitions of swizzled tensors ------------------------------------------------------

TEST_CASE("partitions of a swizzled tensor are the swizzle of the plain partitions", "[atoms][tiled_mma][tiled_copy][swizzle]") {
  using Sw = Swizzle<3, 3, 3>;
  auto inner = make_layout(make_shape(_64{}, _64{}), LayoutRight{});
  std::vector<half_t> smem(64 * 64);
  half_t* base = smem.data();
  auto plain = make_tensor(base, inner);
  auto swz = make_tensor(base, composition(Sw{}, inner));
  auto tm = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, make_layout(make_shape(_2{}, _2{}, _1{})));
  auto tc = make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, tm);
  // A sub-tile: the swizzled view keeps the tile's offset inside the swizzle.
  auto plain_tile = local_tile(plain, make_shape(_32{}, _32{}), make_coord(1, 1));
  auto swz_tile = local_tile(swz, make_shape(_32{}, _32{}), make_coord(1, 1));
  auto offset = [&](half_t const* p) { return int64_t(p - base); };
  int bad = 0, n = 0;
  for (int t = 0; t < 128; ++t) {
    auto thr = tm.get_slice(t);
    auto cthr = tc.get_slice(t);
    auto compare = [&](auto const& sw_part, auto const& plain_part) {
      static_assert(is_composed_layout_v<std::remove_cvref_t<decltype(sw_part.layout())>>);
      REQUIRE(equal(sw_part.shape(), plain_part.shape()));
      for (int i = 0; i < int(size(plain_part.layout())); ++i, ++n)
        bad += offset(&sw_part[i]) != Sw{}(offset(&plain_part[i]));
    };
    compare(thr.partition_A(swz), thr.partition_A(plain));
    compare(thr.partition_B(swz), thr.partition_B(plain));
    compare(thr.partition_C(swz), thr.partition_C(plain));
    compare(thr.partition_A(swz_tile), thr.partition_A(plain_tile));
    compare(cthr.partition_S(swz), cthr.partition_S(plain));
    compare(cthr.partition_S(swz_tile), cthr.partition_S(plain_tile));
    compare(local_partition(swz, make_layout(make_shape(_16{}, _8{})), t), local_partition(plain, make_layout(make_shape(_16{}, _8{})), t));
    compare(local_partition(swz_tile, make_layout(make_shape(_8{}, _16{}), LayoutRight{}), t),
            local_partition(plain_tile, make_layout(make_shape(_8{}, _16{}), LayoutRight{}), t));
    // fragments only need the shape: the same registers for both
    CHECK(thr.partition_fragment_A(swz).layout() == thr.partition_fragment_A(plain).layout());
  }
  CHECK(n > 0);
  CHECK(bad == 0);
}
