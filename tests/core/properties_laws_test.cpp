// Property tests of the algebra's defining laws on generated layouts with dynamic
// values (rapidcheck, 2000 cases each): composition in its three forms, the divide
// and product families, tile_to_shape, upcast/downcast, composed layouts, slicing
// and tensor partitions. Generators: gen.hpp (hierarchical shapes, stride 0,
// size-1 modes, non-compact strides; admissible right operands by construction).
#include <catch2/catch.hpp>
#include <rapidcheck/catch.h>
#include "gen.hpp"
#include <map>
#include <set>

using namespace tessera;
using namespace tessera_test;

namespace {
int64_t i64(auto const& x) { return int64_t(x); }
}  // namespace

TEST_CASE("composition(A, B) is A o B for every admissible B", "[core][property][composition]") {
  rc::prop("R(i) == A(B(i)) for all i; R keeps B's modes and their sizes", [] {
    any_layout([](auto A) {
      admissible_for(A, [&](auto B) {
        auto R = composition(A, B);
        RC_ASSERT(i64(size(R)) == i64(size(B)));
        if constexpr (is_tuple_v<decltype(B.shape())>) {  // an integer B is compatible with any shape of its size
          RC_ASSERT(rank_v<decltype(R.shape())> == rank_v<decltype(B.shape())>);
          RC_ASSERT(i64(size<0>(R)) == i64(size<0>(B)));
          RC_ASSERT(i64(size<1>(R)) == i64(size<1>(B)));
        }
        for (int64_t i = 0; i < size(B); ++i) RC_ASSERT(i64(R(i)) == i64(A(i64(B(i)))));
        // the same through B's hierarchical coordinates
        for (int64_t i = 0; i < size(B); ++i) RC_ASSERT(i64(R(idx2crd(i, B.shape()))) == i64(A(i64(B(i)))));
      });
    });
  });
  rc::prop("regression: a run-time stride of 0 in B (broadcast) gives R == 0, no division by zero", [] {
    any_layout([](auto A) {
      auto B = make_layout(make_shape(shape_value(), shape_value()), make_stride(int64_t(0), int64_t(0)));
      auto R = composition(A, B);
      for (int64_t i = 0; i < size(B); ++i) RC_ASSERT(i64(R(i)) == 0);
    });
  });
}

TEST_CASE("composition with a tiler composes mode by mode", "[core][property][composition]") {
  rc::prop("tiler of layouts: R(i, j) == A(B0(i), B1(j)); A's third mode is dropped", [] {
    auto A = make_layout(make_shape(make_shape(shape_value(4), shape_value(4)), shape_value(), shape_value()),
                         make_stride(make_stride(stride_value(), stride_value()), stride_value(), stride_value()));
    admissible_for(get<0>(A), [&](auto B0) {
      admissible_for(get<1>(A), [&](auto B1) {
        auto R = composition(A, make_tile(B0, B1));
        RC_ASSERT(rank_v<decltype(R.shape())> == 2);
        RC_ASSERT(i64(size<0>(R)) == i64(size(B0)));
        RC_ASSERT(i64(size<1>(R)) == i64(size(B1)));
        for (int64_t i = 0; i < size(B0); ++i)
          for (int64_t j = 0; j < size(B1); ++j) RC_ASSERT(i64(R(i, j)) == i64(A(i64(B0(i)), i64(B1(j)), 0)));
      });
    });
  });
  rc::prop("tiler of plain sizes: mode k composed with N_k:1 keeps A's first N_k elements of mode k", [] {
    auto A = make_layout(make_shape(make_shape(shape_value(4), shape_value(4)), shape_value()),
                         make_stride(make_stride(stride_value(), stride_value()), stride_value()));
    // N_k: a prefix of mode k's fine radix, so that N_k:1 is admissible
    auto prefix = [](auto const& mode) {
      auto r = fine_radix(flat_shape(mode));
      int len = *rc::gen::inRange(0, r.n + 1);
      int64_t n = 1;
      for (int k = 0; k < len; ++k) n *= r.size[k];
      return n;
    };
    int64_t n0 = prefix(get<0>(A)), n1 = prefix(get<1>(A));
    auto R = composition(A, make_shape(n0, n1));
    RC_ASSERT(i64(size<0>(R)) == n0);
    RC_ASSERT(i64(size<1>(R)) == n1);
    for (int64_t i = 0; i < n0; ++i)
      for (int64_t j = 0; j < n1; ++j) RC_ASSERT(i64(R(i, j)) == i64(A(i, j)));
  });
}

TEST_CASE("divide family: laws with admissible tilers", "[core][property][divide]") {
  rc::prop("logical_divide(A, B) == A o (B, complement(B, size(A))): tile mode walks B, rest mode the tiles", [] {
    any_layout([](auto A) {
      admissible_for(A, [&](auto B) {
        auto D = logical_divide(A, B);
        auto E = composition(A, make_layout(B, complement(B, size(A))));
        RC_ASSERT(i64(size(D)) == i64(size(E)));
        RC_ASSERT(i64(size(D)) == i64(size(A)));  // B's runs divide A's domain
        RC_ASSERT(i64(size<0>(D)) == i64(size(B)));
        for (int64_t i = 0; i < size(D); ++i) RC_ASSERT(i64(D(i)) == i64(E(i)));
        for (int64_t i = 0; i < size<0>(D); ++i) RC_ASSERT(i64(D(i, 0)) == i64(A(i64(B(i)))));
        // (B, complement) is a bijection of A's domain: D has A's images, each as often
        std::map<int64_t, int> a, d;
        for (int64_t i = 0; i < size(A); ++i) { ++a[i64(A(i))]; ++d[i64(D(i))]; }
        RC_ASSERT(a == d);
      }, /*allow_broadcast=*/false);
    });
  });
  rc::prop("zipped, tiled and flat divide regroup logical_divide by a tiler of layouts", [] {
    auto A = make_layout(make_shape(make_shape(shape_value(4), shape_value(4)), shape_value(), shape_value(3)),
                         make_stride(make_stride(stride_value(), stride_value()), stride_value(), stride_value()));
    admissible_for(get<0>(A), [&](auto B0) {
      admissible_for(get<1>(A), [&](auto B1) {
        auto T = make_tile(B0, B1);
        auto Lg = logical_divide(A, T);
        auto Z = zipped_divide(A, T);
        auto Ti = tiled_divide(A, T);
        auto F = flat_divide(A, T);
        int64_t t0 = size<0, 0>(Lg), r0 = size<0, 1>(Lg), t1 = size<1, 0>(Lg), r1 = size<1, 1>(Lg), e = size<2>(A);
        RC_ASSERT(t0 == i64(size(B0)));
        RC_ASSERT(t1 == i64(size(B1)));
        RC_ASSERT(i64(size<0>(Z)) == t0 * t1);
        RC_ASSERT(rank_v<decltype(F.shape())> == 5);
        RC_ASSERT(rank_v<decltype(Ti.shape())> == 4);
        for (int64_t i0 = 0; i0 < t0; ++i0)
          for (int64_t i1 = 0; i1 < t1; ++i1)
            for (int64_t j0 = 0; j0 < r0; ++j0)
              for (int64_t j1 = 0; j1 < r1; ++j1)
                for (int64_t k = 0; k < e; ++k) {
                  int64_t v = Lg(make_coord(make_coord(i0, j0), make_coord(i1, j1), k));
                  RC_ASSERT(i64(Z(make_coord(make_coord(i0, i1), make_coord(j0, j1, k)))) == v);
                  RC_ASSERT(i64(Ti(make_coord(make_coord(i0, i1), j0, j1, k))) == v);
                  RC_ASSERT(i64(F(make_coord(i0, i1, j0, j1, k))) == v);
                }
      }, false);
    }, false);
  });
}

// A compact block: the shape of any structure, modes in column- or row-major order.
template <class F> void compact_block(F&& f) {
  with_structure(1 + *rc::gen::inRange(0, num_structures - 1), [] { return shape_value(4); }, [](int) { return int64_t(0); },
                 [&](auto L) {
                   if constexpr (is_tuple_v<decltype(L.shape())>) {
                     if (*rc::gen::arbitrary<bool>()) f(make_layout(L.shape()));
                     else f(make_layout(L.shape(), LayoutRight{}));
                   }
                 });
}

TEST_CASE("product family: laws on any tiler", "[core][property][product]") {
  rc::prop("logical_product(A, B)(i, j) == A(i) + size(A) * B(j) for a compact block A and any B", [] {
    compact_block([](auto A) {
      any_layout([&](auto B) {
        auto P = logical_product(A, B);
        auto Q = make_layout(A, composition(complement(A, size(A) * cosize(B)), B));
        RC_ASSERT(i64(size(P)) == i64(size(A)) * i64(size(B)));
        for (int64_t i = 0; i < size(P); ++i) RC_ASSERT(i64(P(i)) == i64(Q(i)));
        for (int64_t i = 0; i < size(A); ++i)
          for (int64_t j = 0; j < size(B); ++j) RC_ASSERT(i64(P(i, j)) == i64(A(i)) + i64(size(A)) * i64(B(j)));
        RC_ASSERT(is_injective(P) == is_injective(B));
      });
    });
  });
  rc::prop("blocked_product: mode k is (block_k, tiler_k); raked_product: (tiler_k, block_k)", [] {
    compact_block([](auto A) {
      int k = *rc::gen::inRange(1, num_structures);
      with_structure(k, [] { return shape_value(3); }, [](int) { return stride_value(); }, [&](auto B) {
        if constexpr (is_tuple_v<decltype(B.shape())> && rank_v<decltype(A.shape())> == rank_v<decltype(B.shape())>) {
          auto Bl = blocked_product(A, B);
          auto Ra = raked_product(A, B);
          int64_t a0 = size<0>(A), b0 = size<0>(B);
          RC_ASSERT(i64(size<0>(Bl)) == a0 * b0);
          for (int64_t i = 0; i < size(A); ++i)
            for (int64_t j = 0; j < size(B); ++j) {
              auto ca = idx2crd(i, product_each(A.shape()));
              auto cb = idx2crd(j, product_each(B.shape()));
              int64_t want = i64(A(i)) + i64(size(A)) * i64(B(j));
              if constexpr (rank_v<decltype(A.shape())> == 2) {
                int64_t x0 = get<0>(ca), x1 = get<1>(ca), y0 = get<0>(cb), y1 = get<1>(cb);
                RC_ASSERT(i64(Bl(x0 + a0 * y0, x1 + i64(size<1>(A)) * y1)) == want);
                RC_ASSERT(i64(Ra(y0 + b0 * x0, y1 + i64(size<1>(B)) * x1)) == want);
              } else {
                int64_t x0 = get<0>(ca), x1 = get<1>(ca), x2 = get<2>(ca), y0 = get<0>(cb), y1 = get<1>(cb), y2 = get<2>(cb);
                RC_ASSERT(i64(Bl(x0 + a0 * y0, x1 + i64(size<1>(A)) * y1, x2 + i64(size<2>(A)) * y2)) == want);
                RC_ASSERT(i64(Ra(y0 + b0 * x0, y1 + i64(size<1>(B)) * x1, y2 + i64(size<2>(B)) * x2)) == want);
              }
            }
        }
      });
    });
  });
  rc::prop("zipped, tiled and flat product regroup logical_product by a tiler", [] {
    // each mode of the block compact on its own (the product works mode by mode): its
    // complement is a single stride, so every tiler mode is admissible
    compact_block([](auto A0) {
    if constexpr (rank_v<decltype(A0.shape())> == 2) {
    auto A = make_layout(make_layout(shape<0>(A0)), make_layout(shape<1>(A0)));
    auto T = make_tile(make_layout(shape_value(3), stride_value()), make_layout(make_shape(shape_value(2), shape_value(2))));
    auto Lg = logical_product(A, T);
    auto Z = zipped_product(A, T);
    auto Ti = tiled_product(A, T);
    auto F = flat_product(A, T);
    int64_t a0 = size<0>(A), a1 = size<1>(A), r0 = size<0, 1>(Lg), r1 = size<1, 1>(Lg);
    RC_ASSERT(i64(size<0>(Lg)) == a0 * i64(size(get<0>(T))));
    for (int64_t i0 = 0; i0 < a0; ++i0)
      for (int64_t i1 = 0; i1 < a1; ++i1)
        for (int64_t j0 = 0; j0 < r0; ++j0)
          for (int64_t j1 = 0; j1 < r1; ++j1) {
            int64_t v = Lg(make_coord(make_coord(i0, j0), make_coord(i1, j1)));
            RC_ASSERT(i64(Z(make_coord(make_coord(i0, i1), make_coord(j0, j1)))) == v);
            RC_ASSERT(i64(Ti(make_coord(make_coord(i0, i1), j0, j1))) == v);
            RC_ASSERT(i64(F(make_coord(i0, i1, j0, j1))) == v);
          }
    }
    });
  });
}

TEST_CASE("tile_to_shape repeats the block to the target shape", "[core][property][product]") {
  rc::prop("shape is the target; R(i0 + b0*k0, i1 + b1*k1) == block(i0, i1) + size(block) * order(k0, k1)", [] {
    compact_block([](auto blk) {
      if constexpr (rank_v<decltype(blk.shape())> == 2) {
        int64_t b0 = size<0>(blk), b1 = size<1>(blk), m0 = shape_value(3), m1 = shape_value(3);
        bool right = *rc::gen::arbitrary<bool>();
        auto check = [&](auto R, auto order) {
          RC_ASSERT(i64(size<0>(R)) == b0 * m0);
          RC_ASSERT(i64(size<1>(R)) == b1 * m1);
          // (current CuTe keeps the blocked product's nesting: a mode may have depth 2; the law
          // below is pointwise)
          for (int64_t i0 = 0; i0 < b0; ++i0)
            for (int64_t i1 = 0; i1 < b1; ++i1)
              for (int64_t k0 = 0; k0 < m0; ++k0)
                for (int64_t k1 = 0; k1 < m1; ++k1)
                  RC_ASSERT(i64(R(i0 + b0 * k0, i1 + b1 * k1)) == i64(blk(i0, i1)) + i64(size(blk)) * i64(order(k0, k1)));
        };
        if (right) check(tile_to_shape(blk, make_shape(b0 * m0, b1 * m1), LayoutRight{}), make_layout(make_shape(m0, m1), LayoutRight{}));
        else check(tile_to_shape(blk, make_shape(b0 * m0, b1 * m1)), make_layout(make_shape(m0, m1)));
      }
    });
  });
}

TEST_CASE("upcast and downcast", "[core][property][upcast]") {
  rc::prop("upcast<N>(L)(i, r) == L(i*N, r) / N and downcast<N>(upcast<N>(L)) == L", [] {
    // a contiguous first mode (static stride 1) and other strides that are multiples of N
    constexpr int64_t N = 4;
    int64_t s0 = N * shape_value(3);
    auto L = make_layout(make_shape(s0, make_shape(shape_value(), shape_value())),
                         make_stride(_1{}, make_stride(N * stride_value(), N * stride_value())));
    auto U = upcast<N>(L);
    RC_ASSERT(i64(size<0>(U)) == s0 / N);
    for (int64_t i = 0; i < s0 / N; ++i)
      for (int64_t r = 0; r < size<1>(L); ++r) RC_ASSERT(i64(U(i, r)) * N == i64(L(i * N, r)));
    auto D = downcast<N>(U);
    RC_ASSERT(to_string(D) == to_string(L));
    // downcast of a layout of vectors: element e of vector v sits at N*L(v) + e
    auto V = downcast<N>(make_layout(make_shape(shape_value(), shape_value()), make_stride(_1{}, stride_value())));
    (void)V;
  });
  rc::prop("downcast<N>(L)(i, r) == N * L(i / N, r) + i % N for a contiguous first mode", [] {
    constexpr int64_t N = 2;
    auto L = make_layout(make_shape(shape_value(), shape_value()), make_stride(_1{}, stride_value()));
    auto D = downcast<N>(L);
    RC_ASSERT(i64(size<0>(D)) == N * i64(size<0>(L)));
    for (int64_t i = 0; i < size<0>(D); ++i)
      for (int64_t r = 0; r < size<1>(L); ++r) RC_ASSERT(i64(D(i, r)) == N * i64(L(i / N, r)) + i % N);
  });
}

TEST_CASE("composed layouts evaluate the swizzle after the layout", "[core][property][swizzle]") {
  rc::prop("(Sw o off o L)(c) == Sw(off + L(c)); size and cosize from L; images in cosize(L)'s swizzle blocks", [] {
    any_layout([](auto L) {
      int64_t off = 8 * *rc::gen::inRange<int64_t>(0, 4);
      auto S = composition(Swizzle<2, 1, 3>{}, L);
      auto SO = make_composed_layout(Swizzle<2, 1, 3>{}, off, L);
      RC_ASSERT(i64(size(S)) == i64(size(L)));
      RC_ASSERT(i64(cosize(S)) == i64(cosize(L)));  // CuTe: the swizzle and the offset do not count
      // The swizzle permutes offsets within aligned blocks of its size: a buffer of cosize(L)
      // rounded up to that block holds every image.
      const int64_t block = Swizzle<2, 1, 3>::size(), buffer = (i64(cosize(L)) + block - 1) / block * block;
      std::set<int64_t> li, si;
      for (int64_t i = 0; i < size(L); ++i) {
        RC_ASSERT(i64(S(i)) == i64(Swizzle<2, 1, 3>{}(i64(L(i)))));
        RC_ASSERT(i64(SO(i)) == i64(Swizzle<2, 1, 3>{}(off + i64(L(i)))));
        RC_ASSERT(i64(S(i)) < buffer);
        li.insert(i64(L(i)));
        si.insert(i64(S(i)));
      }
      RC_ASSERT(li.size() == si.size());  // a bijection of offsets keeps distinct images distinct
      // slicing a composed layout keeps the offset inside the swizzle
      if constexpr (rank_v<decltype(L.shape())> >= 2) {
        auto col = S(append<rank_v<decltype(L.shape())>>(make_coord(_), int64_t(0)));
        for (int64_t i = 0; i < size<0>(L); ++i) RC_ASSERT(i64(col(i)) == i64(S(i)));
      }
    });
  });
  rc::prop("Swizzle is a bijection of [0, size) onto itself", [] {
    auto check = [](auto sw) {
      std::set<int64_t> img;
      for (int64_t x = 0; x < sw.size(); ++x) img.insert(i64(sw(x)));
      RC_ASSERT(int64_t(img.size()) == i64(sw.size()));
      RC_ASSERT(*img.rbegin() == i64(sw.size()) - 1);
    };
    switch (*rc::gen::inRange(0, 4)) {
      case 0: check(Swizzle<1, 0, 1>{}); break;
      case 1: check(Swizzle<2, 1, 3>{}); break;
      case 2: check(Swizzle<2, 2, -2>{}); break;
      default: check(Swizzle<3, 3, 3>{}); break;
    }
  });
}

TEST_CASE("slicing agrees with evaluation on every structure", "[core][property][layout]") {
  rc::prop("slice_and_offset: sub(i) + offset == L at the full coordinate, for each mode sliced", [] {
    with_structure(1 + *rc::gen::inRange(0, num_structures - 1), [] { return shape_value(); }, [](int) { return stride_value(); }, [](auto L) {
      constexpr int R = rank_v<decltype(L.shape())>;
      if constexpr (R >= 2) {
      int64_t j = *rc::gen::inRange<int64_t>(0, size<R - 1>(L));
      int64_t i = *rc::gen::inRange<int64_t>(0, size<0>(L));
      auto c_first = append<R>(make_coord(_), j);     // (_, j[, j])
      auto c_last = prepend<R>(make_coord(_), i);     // ([i,] i, _)
      auto so = slice_and_offset(c_first, L);
      auto so2 = slice_and_offset(c_last, L);
      RC_ASSERT(i64(size(get<0>(so))) == i64(size<0>(L)));
      RC_ASSERT(to_string(L(c_first)) == to_string(get<0>(so)));
      for (int64_t x = 0; x < size<0>(L); ++x)
        RC_ASSERT(i64(get<0>(so)(x)) + i64(get<1>(so)) == i64(L(transform(c_first, [&](auto const& e) {
                    if constexpr (is_underscore_v<decltype(e)>) return x; else return int64_t(e); }))));
      for (int64_t y = 0; y < size<R - 1>(L); ++y)
        RC_ASSERT(i64(get<0>(so2)(y)) + i64(get<1>(so2)) == i64(L(transform(c_last, [&](auto const& e) {
                    if constexpr (is_underscore_v<decltype(e)>) return y; else return int64_t(e); }))));
      }
    });
  });
  rc::prop("hierarchical slice: L((_, b), c) of ((a,b),c) is the first sub-mode, offset at (0, b, c)", [] {
    auto L = make_layout(make_shape(make_shape(shape_value(), shape_value()), shape_value()),
                         make_stride(make_stride(stride_value(), stride_value()), stride_value()));
    int64_t b = *rc::gen::inRange<int64_t>(0, size<0, 1>(L)), c = *rc::gen::inRange<int64_t>(0, size<1>(L));
    auto so = slice_and_offset(make_coord(make_coord(_, b), c), L);
    for (int64_t a = 0; a < size<0, 0>(L); ++a)
      RC_ASSERT(i64(get<0>(so)(a)) + i64(get<1>(so)) == i64(L(make_coord(make_coord(a, b), c))));
  });
}

TEST_CASE("an identity tensor's tiles count past the edge of a shape they do not divide", "[core][property][tensor]") {
  rc::prop("local_tile(identity(M, N), (tm, tn), (bm, bn))(i, j) == (bm*tm + i, bn*tn + j), also past M and N", [] {
    int64_t tm = shape_value(5), tn = shape_value(5);
    int64_t m = *rc::gen::inRange<int64_t>(1, 4 * tm + 1), n = *rc::gen::inRange<int64_t>(1, 4 * tn + 1);
    auto id = make_identity_tensor(make_shape(m, n));
    const int64_t tiles_m = (m + tm - 1) / tm, tiles_n = (n + tn - 1) / tn;
    int64_t bm = *rc::gen::inRange<int64_t>(0, tiles_m), bn = *rc::gen::inRange<int64_t>(0, tiles_n);
    auto tile = local_tile(id, make_shape(tm, tn), make_coord(bm, bn));
    RC_ASSERT(i64(size<0>(tile)) == tm);
    RC_ASSERT(i64(size<1>(tile)) == tn);
    for (int64_t i = 0; i < tm; ++i)
      for (int64_t j = 0; j < tn; ++j) {
        auto crd = tile(i, j);
        RC_ASSERT(i64(get<0>(crd)) == bm * tm + i);
        RC_ASSERT(i64(get<1>(crd)) == bn * tn + j);
      }
    // The k-tiles mode kept whole (coord with _), as a mainloop walks it.
    auto row = local_tile(id, make_shape(tm, tn), make_coord(bm, _));
    RC_ASSERT(i64(size<2>(row)) == tiles_n);
    int64_t kt = *rc::gen::inRange<int64_t>(0, tiles_n);
    for (int64_t j = 0; j < tn; ++j) RC_ASSERT(i64(get<1>(row(tm - 1, j, kt))) == kt * tn + j);
    // Static tiles of a static shape: the last tile of 5 by 4 reads rows 4..7.
    auto s = local_tile(make_identity_tensor(make_shape(_5{}, _3{})), make_shape(_4{}, _3{}), make_coord(_1{}, _0{}));
    RC_ASSERT(i64(get<0>(s(_3{}, _2{}))) == 7);
    RC_ASSERT(i64(get<1>(s(_3{}, _2{}))) == 2);
  });
}

TEST_CASE("local_partition gives every element of a tile to exactly one thread", "[core][property][tensor]") {
  rc::prop("pointer tensor: each element is owned once; identity tensor: local_tile is the tile's coordinates", [] {
    int64_t tm = shape_value(4), tn = shape_value(4);
    int64_t m = tm * shape_value(3), n = tn * shape_value(3);
      std::vector<int> data(size_t(m * n));
    bool row_major = *rc::gen::arbitrary<bool>();
    // both orders as one type: the strides are dynamic
    auto g = make_tensor(data.data(), make_layout(make_shape(m, n), row_major ? make_stride(n, int64_t(1)) : make_stride(int64_t(1), m)));
    int64_t bm = *rc::gen::inRange<int64_t>(0, m / tm), bn = *rc::gen::inRange<int64_t>(0, n / tn);
    auto tile = local_tile(g, make_shape(tm, tn), make_coord(bm, bn));
    RC_ASSERT(i64(size(tile)) == tm * tn);
    for (int64_t i = 0; i < tm; ++i)
      for (int64_t j = 0; j < tn; ++j) RC_ASSERT(&tile(i, j) == &g(bm * tm + i, bn * tn + j));
    // threads: a (thr_m, thr_n) grid dividing the tile, in either order
    int64_t thr_m = tm, thr_n = tn;
    if (*rc::gen::arbitrary<bool>() && tm % 2 == 0) thr_m = tm / 2;
    auto threads = make_layout(make_shape(thr_m, thr_n), *rc::gen::arbitrary<bool>() ? make_stride(int64_t(1), thr_m) : make_stride(thr_n, int64_t(1)));
    std::map<int*, int> seen;
    int64_t total = 0;
    for (int64_t t = 0; t < size(threads); ++t) {
      auto p = local_partition(tile, threads, t);
      for (int64_t i = 0; i < size(p); ++i) { ++seen[&p(i)]; ++total; }
    }
    RC_ASSERT(total == tm * tn);
    RC_ASSERT(int64_t(seen.size()) == tm * tn);
    for (auto const& [ptr, count] : seen) {
      RC_ASSERT(count == 1);
      int64_t off = ptr - data.data();
      int64_t r = row_major ? off / n : off % m, c = row_major ? off % n : off / m;
      RC_ASSERT(r / tm == bm);
      RC_ASSERT(c / tn == bn);
    }
    // identity tensor: the tile's coordinates
    auto id = make_identity_tensor(make_shape(m, n));
    auto idt = local_tile(id, make_shape(tm, tn), make_coord(bm, bn));
    for (int64_t i = 0; i < tm; ++i)
      for (int64_t j = 0; j < tn; ++j) {
        auto crd = idt(i, j);
        RC_ASSERT(i64(get<0>(crd)) == bm * tm + i);
        RC_ASSERT(i64(get<1>(crd)) == bn * tn + j);
      }
  });
}
