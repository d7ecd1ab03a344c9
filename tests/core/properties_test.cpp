// Property tests (rapidcheck, RC_PARAMS from ctest): int tuples, layouts, coalesce,
// filter, slicing, swizzle, tensors.
#include <catch2/catch.hpp>
#include <rapidcheck/catch.h>
#include "gen.hpp"
#include <set>

using namespace tessera;
using namespace tessera_test;

TEST_CASE("idx2crd and crd2idx are inverse on every structure", "[core][property]") {
  rc::prop("crd2idx(idx2crd(i, S), S, col-major(S)) == i and the coordinate is in range", [] {
    any_layout([](auto L) {
      auto S = L.shape();
      auto D = compact_col_major(S);
      int64_t n = size(S);
      for (int64_t i = 0; i < n; ++i) {
        auto c = idx2crd(i, S);
        RC_ASSERT(int64_t(crd2idx(c, S, D)) == i);
        RC_ASSERT(int64_t(L(c)) == int64_t(L(i)));  // hierarchical coordinate == 1-D index
      }
    });
  });
}

TEST_CASE("compact strides enumerate [0, size) in column- and row-major order", "[core][property]") {
  rc::prop("make_layout(S) and make_layout(S, LayoutRight) are bijections of [0, size)", [] {
    any_layout([](auto L) {
      auto left = make_layout(L.shape());
      auto right = make_layout(L.shape(), LayoutRight{});
      RC_ASSERT(is_bijective(left));
      RC_ASSERT(is_bijective(right));
      for (int64_t i = 0; i < size(left); ++i) RC_ASSERT(int64_t(left(i)) == i);
    });
  });
}

TEST_CASE("coalesce keeps the function and the size, and flattens", "[core][property]") {
  rc::prop("coalesce(L)(i) == L(i), size equal, depth <= 1", [] {
    any_layout([](auto L) {
      auto R = coalesce(L);
      RC_ASSERT(int64_t(size(R)) == int64_t(size(L)));
      RC_ASSERT(depth(R) <= 1);
      RC_ASSERT(is_functionally_equal(L, R));
    });
  });
  rc::prop("coalesce by mode keeps the function and each mode's size", [] {
    auto a = shape_value(), b = shape_value(), c = shape_value();
    auto L = make_layout(make_shape(make_shape(a, b), c), make_stride(make_stride(stride_value(), stride_value()), stride_value()));
    auto R = coalesce(L, make_shape(_1{}, _1{}));
    RC_ASSERT(int64_t(size<0>(R)) == a * b);
    RC_ASSERT(is_functionally_equal(L, R));
  });
}

TEST_CASE("filter keeps the image set without stride-0 and size-1 modes", "[core][property]") {
  rc::prop("images of filter(L) == images of L (static zero strides)", [] {
    // stride 0 must be static to be filtered: put a static 0 in the middle mode
    auto a = shape_value(), b = shape_value(), c = shape_value();
    auto L = make_layout(make_shape(a, b, c), make_stride(stride_value(), _0{}, stride_value()));
    auto F = filter(L);
    std::set<int64_t> x, y;
    for (int64_t i = 0; i < size(L); ++i) x.insert(L(i));
    for (int64_t i = 0; i < size(F); ++i) y.insert(F(i));
    RC_ASSERT(x == y);
    RC_ASSERT(int64_t(size(F)) == a * c);
  });
}

TEST_CASE("slicing agrees with evaluation", "[core][property]") {
  rc::prop("L(_, j)(i) + offset == L(i, j) and L(i, _)(j) + offset == L(i, j)", [] {
    auto a = shape_value(), b = shape_value(), c = shape_value();
    auto L = make_layout(make_shape(a, make_shape(b, c)), make_stride(stride_value(), make_stride(stride_value(), stride_value())));
    int64_t j = *rc::gen::inRange<int64_t>(0, b * c);
    int64_t i = *rc::gen::inRange<int64_t>(0, a);
    auto so = slice_and_offset(make_coord(_, j), L);
    RC_ASSERT(int64_t(get<0>(so)(i)) + int64_t(get<1>(so)) == int64_t(L(i, j)));
    auto so2 = slice_and_offset(make_coord(i, _), L);
    RC_ASSERT(int64_t(get<0>(so2)(j)) + int64_t(get<1>(so2)) == int64_t(L(i, j)));
    RC_ASSERT(size(L(_, j)) == a);
  });
}

template <int B, int M, int S> void check_swizzle(int64_t x) {
  Swizzle<B, M, S> sw;
  RC_ASSERT(int64_t(sw(sw(x))) == x);  // involution, hence a bijection
  int64_t blk = sw.size();
  RC_ASSERT(int64_t(sw(x)) / blk == x / blk);  // stays in its aligned block
}
TEST_CASE("swizzles are involutions that stay in their block", "[core][property]") {
  rc::prop("Sw(Sw(x)) == x for several B,M,S", [] {
    int64_t x = *rc::gen::inRange<int64_t>(0, 1 << 14);
    check_swizzle<3, 3, 3>(x);
    check_swizzle<2, 4, 3>(x);
    check_swizzle<1, 0, 1>(x);
    check_swizzle<2, 1, -2>(x);
    check_swizzle<3, 4, -4>(x);
  });
}

TEST_CASE("identity tensor tiles and partitions cover the domain once", "[core][property]") {
  rc::prop("local_tile and local_partition of an identity tensor", [] {
    int64_t tm = pow2(2), tn = pow2(2), m = tm * pow2(2), n = tn * pow2(2);
    auto id = make_identity_tensor(make_shape(m, n));
    int64_t bm = *rc::gen::inRange<int64_t>(0, m / tm), bn = *rc::gen::inRange<int64_t>(0, n / tn);
    auto tile = local_tile(id, make_shape(tm, tn), make_coord(bm, bn));
    for (int64_t i = 0; i < tm; ++i)
      for (int64_t j = 0; j < tn; ++j) {
        auto c = tile(i, j);
        RC_ASSERT(int64_t(get<0>(c)) == bm * tm + i);
        RC_ASSERT(int64_t(get<1>(c)) == bn * tn + j);
      }
    auto thr = make_layout(make_shape(tm, tn), LayoutRight{});
    std::set<std::pair<int64_t, int64_t>> seen;
    for (int64_t t = 0; t < tm * tn; ++t) {
      auto p = local_partition(id, thr, t);
      for (int64_t i = 0; i < size(p); ++i) {
        auto c = p(i);
        seen.insert({int64_t(get<0>(c)), int64_t(get<1>(c))});
      }
    }
    RC_ASSERT(int64_t(seen.size()) == m * n);
  });
}
