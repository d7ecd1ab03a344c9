// Property tests of the algebra's defining post-conditions on generated layouts.
#include <catch2/catch.hpp>
#include <rapidcheck/catch.h>
#include "gen.hpp"
#include <set>
#include <vector>
#include <algorithm>

using namespace tessera;
using namespace tessera_test;

template <class L> std::vector<int64_t> images(L const& l) {
  std::vector<int64_t> v;
  for (int64_t i = 0; i < int64_t(size(l)); ++i) v.push_back(l(i));
  return v;
}

TEST_CASE("composition is functional composition on admissible pairs", "[core][property]") {
  rc::prop("composition(A, B)(i) == A(B(i)) where B(i) is in A's domain; R compatible with B", [] {
    pow2_layout([](auto A) {
      pow2_disjoint_layout([&](auto B) {
        auto R = composition(A, B);
        RC_ASSERT(bool(compatible(B.shape(), R.shape())) || int64_t(size(R)) == int64_t(size(B)));
        RC_ASSERT(int64_t(size(R)) == int64_t(size(B)));
        for (int64_t i = 0; i < size(B); ++i)
          if (B(i) < size(A)) RC_ASSERT(int64_t(R(i)) == int64_t(A(int64_t(B(i)))));
      });
    });
  });
  rc::prop("composition with a tiler composes mode by mode", [] {
    int64_t a = pow2(3), b = pow2(3);
    auto A = make_layout(make_shape(a, b), make_stride(stride_value(), stride_value()));
    int64_t ta = *rc::gen::element<int64_t>(1, 2) , tb = pow2(1);
    auto T = make_tile(make_layout(a / (a >= 2 ? 2 : 1), ta), make_layout(tb <= b ? tb : b, int64_t(1)));
    auto R = composition(A, T);
    for (int64_t i = 0; i < size<0>(R); ++i)
      for (int64_t j = 0; j < size<1>(R); ++j)
        if (get<0>(T)(i) < a && get<1>(T)(j) < b) RC_ASSERT(int64_t(R(i, j)) == int64_t(A(get<0>(T)(i), get<1>(T)(j))));
  });
}

TEST_CASE("complement fills the gaps of an injective layout", "[core][property]") {
  rc::prop("images disjoint from A's, (A, complement) is a bijection onto [0, M), ordered strides", [] {
    int64_t cur = 1;
    injective_layout([&](auto A) {
      int64_t M = cur * *rc::gen::inRange<int64_t>(1, 4);
      auto Cm = complement(A, M);
      auto a = images(A), c = images(Cm);
      std::set<int64_t> sa(a.begin(), a.end());
      for (int64_t i = 1; i < int64_t(c.size()); ++i) RC_ASSERT(sa.count(c[i]) == 0u);  // c[0] == 0 == A(0)
      auto AC = make_layout(A, Cm);
      RC_ASSERT(int64_t(size(AC)) == M);
      RC_ASSERT(is_injective(AC));
      RC_ASSERT(is_surjective(AC, M));
      for (int64_t i = 1; i < int64_t(c.size()); ++i) RC_ASSERT(c[i] > c[i - 1]);  // ordered
    }, &cur);
  });
}

TEST_CASE("right_inverse and left_inverse", "[core][property]") {
  rc::prop("A(right_inverse(A)(i)) == i", [] {
    any_layout([](auto A) {
      auto R = right_inverse(A);
      for (int64_t i = 0; i < size(R); ++i) RC_ASSERT(int64_t(A(int64_t(R(i)))) == i);
    });
  });
  rc::prop("right_inverse of a bijection has its full size", [] {
    int64_t cur = 1;
    injective_layout([&](auto A) {
      auto B = make_layout(A.shape(), compact_row_major(A.shape()));
      RC_ASSERT(int64_t(size(right_inverse(B))) == int64_t(size(B)));
      (void)cur;
    }, &cur);
  });
  rc::prop("left_inverse(A)(A(i)) == i for injective A", [] {
    injective_layout([](auto A) {
      auto L = left_inverse(A);
      for (int64_t i = 0; i < size(A); ++i) RC_ASSERT(int64_t(L(int64_t(A(i)))) == i);
    });
  });
}

TEST_CASE("divide family", "[core][property]") {
  rc::prop("logical_divide(A, B) == composition(A, make_layout(B, complement(B, size(A)))) on the domain", [] {
    int64_t n0 = pow2(3), n1 = pow2(2);
    auto A = make_layout(make_shape(n0, n1), make_stride(stride_value(), stride_value()));
    int64_t t = pow2(2);
    if (t > n0 * n1) t = n0 * n1;
    auto B = make_layout(t, int64_t(*rc::gen::element<int64_t>(1, 2)) <= (n0 * n1) / t ? int64_t(1) : int64_t(1));
    auto D = logical_divide(A, B);
    auto E = composition(A, make_layout(B, complement(B, size(A))));
    RC_ASSERT(int64_t(size(D)) == int64_t(size(E)));
    for (int64_t i = 0; i < size(D); ++i) RC_ASSERT(int64_t(D(i)) == int64_t(E(i)));
    // the tile mode walks B, the rest mode walks the tiles
    for (int64_t i = 0; i < size<0>(D); ++i) RC_ASSERT(int64_t(D(i, 0)) == int64_t(A(int64_t(B(i)))));
  });
  rc::prop("zipped, tiled and flat divide are regroupings of logical_divide", [] {
    int64_t m = pow2(3), n = pow2(3), tm = pow2(1), tn = pow2(1);
    if (tm > m) tm = m;
    if (tn > n) tn = n;
    auto A = make_layout(make_shape(m, n), make_stride(stride_value(), stride_value()));
    auto T = make_shape(tm, tn);
    auto Lg = logical_divide(A, T);
    auto Z = zipped_divide(A, T);
    auto Ti = tiled_divide(A, T);
    auto F = flat_divide(A, T);
    for (int64_t i0 = 0; i0 < tm; ++i0)
      for (int64_t i1 = 0; i1 < tn; ++i1)
        for (int64_t r0 = 0; r0 < m / tm; ++r0)
          for (int64_t r1 = 0; r1 < n / tn; ++r1) {
            int64_t v = Lg(make_coord(make_coord(i0, r0), make_coord(i1, r1)));
            RC_ASSERT(int64_t(Z(make_coord(make_coord(i0, i1), make_coord(r0, r1)))) == v);
            RC_ASSERT(int64_t(Ti(make_coord(make_coord(i0, i1), r0, r1))) == v);
            RC_ASSERT(int64_t(F(make_coord(i0, i1, r0, r1))) == v);
          }
  });
}

TEST_CASE("product family", "[core][property]") {
  rc::prop("logical_product law and the block/tiler structure of blocked and raked products", [] {
    int64_t a0 = shape_value(4), a1 = shape_value(4), b0 = shape_value(4), b1 = shape_value(4);
    auto A = make_layout(make_shape(a0, a1));                       // compact block
    auto B = make_layout(make_shape(b0, b1), LayoutRight{});         // compact tiler
    auto P = logical_product(A, B);
    auto Q = make_layout(A, composition(complement(A, size(A) * cosize(B)), B));
    RC_ASSERT(is_functionally_equal(P, Q));
    RC_ASSERT(is_bijective(P));
    auto Bl = blocked_product(A, B);
    auto Ra = raked_product(A, B);
    for (int64_t i0 = 0; i0 < a0; ++i0)
      for (int64_t i1 = 0; i1 < a1; ++i1)
        for (int64_t j0 = 0; j0 < b0; ++j0)
          for (int64_t j1 = 0; j1 < b1; ++j1) {
            int64_t want = int64_t(A(i0, i1)) + a0 * a1 * int64_t(B(j0, j1));
            RC_ASSERT(int64_t(Bl(make_coord(make_coord(i0, j0), make_coord(i1, j1)))) == want);
            RC_ASSERT(int64_t(Ra(make_coord(make_coord(j0, i0), make_coord(j1, i1)))) == want);
          }
    auto Z = zipped_product(A, make_shape(b0, b1));
    auto T = tiled_product(A, make_shape(b0, b1));
    for (int64_t i = 0; i < size<0>(Z); ++i)
      for (int64_t r0 = 0; r0 < b0; ++r0)
        for (int64_t r1 = 0; r1 < b1; ++r1)
          RC_ASSERT(int64_t(Z(i, make_coord(r0, r1))) == int64_t(T(make_coord(i, r0, r1))));
  });
}

TEST_CASE("max_common_vector is a common contiguous prefix", "[core][property]") {
  rc::prop("a(R(i)) == i and b(R(i)) == i for i < size(max_common_layout)", [] {
    int64_t m = pow2(3), n = pow2(3);
    auto a = make_layout(make_shape(m, n));
    bool col = *rc::gen::arbitrary<bool>();
    auto b = make_layout(make_shape(m, n), col ? make_stride(int64_t(1), m) : make_stride(n, int64_t(1)));
    auto R = max_common_layout(a, b);
    for (int64_t i = 0; i < size(R); ++i) {
      RC_ASSERT(int64_t(a(int64_t(R(i)))) == i);
      RC_ASSERT(int64_t(b(int64_t(R(i)))) == i);
    }
  });
}

// A at any integer x as CuTe's crd2idx reads it: its flat leaves, the last one continued
// without bound (past size(A)), C++'s truncating division (below 0).
template <class L> int64_t read_as_cute(L const& l, int64_t x) {
  auto const f = detail::to_flat_function(l);  // the leaves, in order
  constexpr int n = sizeof(f.shape) / sizeof(f.shape[0]);
  int64_t off = 0;
  for (int k = 0; k + 1 < n; ++k) off += (x % f.shape[k]) * f.stride[k], x /= f.shape[k];
  return off + x * f.stride[n - 1];
}
// The definition of an admissible composition (docs/notation.md, rule 1), by brute force: R
// (CuTe's mode-by-mode layout, what composition() returns) has B's size and R(i) == A(B(i))
// at every index of B, A read past its size as CuTe reads it (CuTe's post-condition).
template <class A, class B, class R> bool admissible_by_definition(A const& a, B const& b, R const& r) {
  if (int64_t(size(r)) != int64_t(size(b))) return false;
  if (int64_t(size(b)) > 0 && int64_t(size(a)) == 0) return false;  // an empty A: nothing to compose with
  for (int64_t i = 0; i < int64_t(size(b)); ++i)
    if (int64_t(r(i)) != read_as_cute(a, int64_t(b(i)))) return false;
  return true;
}

TEST_CASE("is_admissible_composition on dynamic operands", "[core][property][composition][admissible]") {
  rc::prop("is_admissible_composition(A, B) exactly when composition(A, B) is A o B (brute force); "
           "R is a well-formed layout either way (no trap, non-negative shapes)", [] {
    any_layout([](auto A) {
      auto with_b = [&](auto B) {
        auto R = detail::composition_unchecked(A, B);  // composition() in release builds
        bool ok = is_admissible_composition(A, B);
        RC_TAG(ok ? "admissible" : "inadmissible");
        RC_ASSERT(ok == admissible_by_definition(A, B, R));
        transform_leaf(R.shape(), [](auto const& s) { RC_ASSERT(int64_t(s) >= 0); return 0; });
        if (ok) {
          for (int64_t i = 0; i < size(B); ++i)
            RC_ASSERT(int64_t(composition(A, B)(i)) == read_as_cute(A, int64_t(B(i))));
        }
      };
      // any B (mostly inadmissible against a random A) or one admissible by construction
      if (*rc::gen::arbitrary<bool>()) any_layout(with_b);
      else admissible_for(A, with_b);
    });
  });
  rc::prop("with a tiler: admissible exactly when every mode is", [] {
    int64_t a = shape_value(), b = shape_value();
    auto A = make_layout(make_shape(make_shape(a, 2), b), make_stride(make_stride(stride_value(), stride_value()), stride_value()));
    auto T = make_tile(make_layout(shape_value(4), stride_value()), make_layout(shape_value(4), stride_value()));
    bool ok = is_admissible_composition(A, T);
    RC_TAG(ok ? "admissible" : "inadmissible");
    RC_ASSERT(ok == (is_admissible_composition(get<0>(A), get<0>(T)) && is_admissible_composition(get<1>(A), get<1>(T))));
    RC_ASSERT(is_admissible_composition(A, make_tile(_, get<1>(T))) == is_admissible_composition(get<1>(A), get<1>(T)));
  });
}
