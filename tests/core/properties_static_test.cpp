// Property tests where the static tier's compile-time decisions matter: layouts whose
// leaves are static (C<N>) or dynamic, picked at random among a few values (gen.hpp:
// mixed_layout, static_injective), so that merging, dropping size-1 and stride-0
// modes, and CuTe's static orderings in complement/inverses/max_common are checked
// on their defining post-conditions (2000 cases each).
#include <catch2/catch.hpp>
#include <rapidcheck/catch.h>
#include "gen.hpp"
#include <set>
#include <vector>

using namespace tessera;
using namespace tessera_test;

namespace {
int64_t i64(auto const& x) { return int64_t(x); }

template <class T> constexpr bool is_c1 = is_constant_v<1, T>;

// The structural post-conditions of a coalesced layout: depth <= 1; no static size-1
// mode (unless the whole layout is 1:0); no neighbours i, i+1 with static
// shape_i * stride_i == stride_{i+1} (they would merge).
template <class L> bool is_coalesced_form(L const& l) {
  if constexpr (depth_of<decltype(l.shape())>() > 1) {
    return false;
  } else if constexpr (!is_tuple_v<decltype(l.shape())>) {
    return !is_c1<decltype(l.shape())> || is_constant_v<0, decltype(l.stride())>;
  } else {
    using S = std::remove_cvref_t<decltype(l.shape())>;
    using D = std::remove_cvref_t<decltype(l.stride())>;
    return []<std::size_t... I>(std::index_sequence<I...>) {
      bool no_ones = (!is_c1<std::remove_cvref_t<decltype(get<I>(S{}))>> && ...);
      bool no_merge = true;
      auto pair = [&](auto i) {
        constexpr std::size_t k = decltype(i)::value;
        if constexpr (k + 1 < sizeof...(I)) {
          using Sk = std::remove_cvref_t<decltype(get<k>(std::declval<S>()))>;
          using Dk = std::remove_cvref_t<decltype(get<k>(std::declval<D>()))>;
          using Dn = std::remove_cvref_t<decltype(get<k + 1>(std::declval<D>()))>;
          if constexpr (is_static_v<Sk> && is_static_v<Dk> && is_static_v<Dn>)
            if (Sk::value * Dk::value == Dn::value) no_merge = false;
        }
      };
      (pair(C<int64_t(I)>{}), ...);
      return no_ones && no_merge;
    }(seq_of<S>{});
  }
}
// (shape, stride) of each leaf, in order
template <class L> std::vector<std::pair<int64_t, int64_t>> leaves(L const& l) {
  auto fs = flatten_to_tuple(l.shape());
  auto fd = flatten_to_tuple(l.stride());
  std::vector<std::pair<int64_t, int64_t>> v;
  [&]<std::size_t... I>(std::index_sequence<I...>) { (v.emplace_back(i64(get<I>(fs)), i64(get<I>(fd))), ...); }(seq_of<decltype(fs)>{});
  return v;
}
template <class L> std::set<int64_t> image(L const& l) {
  std::set<int64_t> s;
  for (int64_t i = 0; i < size(l); ++i) s.insert(i64(l(i)));
  return s;
}
}  // namespace

// (Each property below instantiates its body for every combination of leaf types:
// related post-conditions share one property to keep the compile time down.)
TEST_CASE("coalesce with static and dynamic leaves", "[core][property][coalesce]") {
  rc::prop("whole: same function and size, depth <= 1, no size-1 mode, no mergeable neighbours; "
           "by-mode profile: each mode coalesced on its own", [] {
    mixed_layout([](auto L) {
      auto R = coalesce(L);
      RC_ASSERT(i64(size(R)) == i64(size(L)));
      RC_ASSERT(is_functionally_equal(L, R));
      RC_ASSERT(is_coalesced_form(R));
      if constexpr (is_static_v<decltype(L)>) RC_ASSERT(is_static_v<decltype(R)>);
      auto P = coalesce(L, make_shape(_1{}, _1{}));
      RC_ASSERT(rank_v<decltype(P.shape())> == 2);
      RC_ASSERT(to_string(get<0>(P)) == to_string(coalesce(get<0>(L))));
      RC_ASSERT(to_string(get<1>(P)) == to_string(coalesce(get<1>(L))));
      RC_ASSERT(is_functionally_equal(L, P));
      RC_ASSERT(i64(size<0>(P)) == i64(size<0>(L)));
      RC_ASSERT(is_coalesced_form(get<0>(P)));
    });
  });
}

TEST_CASE("filter and right_inverse with static and dynamic leaves", "[core][property][filter][inverse]") {
  rc::prop("filter: same image set, no static stride-0 or size-1 mode, size = product of the kept shapes; "
           "A(right_inverse(A)(i)) == i", [] {
    mixed_layout([](auto L) {
      auto R = right_inverse(L);
      for (int64_t i = 0; i < size(R); ++i) RC_ASSERT(i64(L(i64(R(i)))) == i);
      auto F = filter(L);
      RC_ASSERT(image(F) == image(L));
      RC_ASSERT(is_coalesced_form(F));
      int64_t kept = 1;
      transform_leaf(L.shape(), L.stride(), [&](auto const& s, auto const& d) {
        if constexpr (!is_constant_v<0, std::remove_cvref_t<decltype(d)>>) kept *= i64(s);
        return 0;
      });
      RC_ASSERT(i64(size(F)) == kept);
      transform_leaf(F.stride(), [&](auto const& d) {
        RC_ASSERT(!(is_constant_v<0, std::remove_cvref_t<decltype(d)>> && i64(size(F)) > 1));
        return 0;
      });
    });
  });
}

TEST_CASE("complement and left_inverse of static injective layouts", "[core][property][complement]") {
  rc::prop("disjoint images, (A, complement(A, M)) injective and onto [0, M) rounded up to A's extent, ordered and coalesced", [] {
    static_injective([](auto A) {
      int64_t ext = 1;  // the extent of A's chain: max stride*shape over its non-size-1 modes
      transform_leaf(A.shape(), A.stride(), [&](auto const& s, auto const& d) { if (i64(s) > 1) ext = std::max(ext, i64(s) * i64(d)); return 0; });
      int64_t M = ext * *rc::gen::inRange<int64_t>(1, 4) + (*rc::gen::arbitrary<bool>() ? 0 : *rc::gen::inRange<int64_t>(1, 3));
      auto check = [&](auto Cm, int64_t m) {
        auto a = image(A), c = image(Cm);
        for (int64_t x : c) RC_ASSERT(x == 0 || a.count(x) == 0u);
        auto AC = make_layout(A, Cm);
        int64_t want = (m + ext - 1) / ext * ext;
        RC_ASSERT(i64(size(AC)) == want);
        RC_ASSERT(is_injective(AC));
        RC_ASSERT(is_surjective(AC, want));
        RC_ASSERT(is_coalesced_form(Cm));
        int64_t prev = -1;  // ordered: strides of the non-size-1 modes increase
        for (auto [s, d] : leaves(Cm))
          if (s > 1) { RC_ASSERT(d > prev); prev = d; }
      };
      check(complement(A, M), M);  // dynamic codomain
      check(complement(A), ext);   // codomain cosize(A): A's extent
      RC_ASSERT(to_string(complement(A)) == to_string(complement(A, cosize(filter(A)))));
      // a static codomain keeps the result static
      auto Cs = complement(A, C<2 * decltype(cosize(A))::value>{});
      RC_ASSERT(is_static_v<decltype(Cs)>);
      check(Cs, 2 * i64(cosize(A)));
    });
  });
  rc::prop("left_inverse(A)(A(i)) == i; right_inverse of a bijection has its full size", [] {
    static_injective([](auto A) {
      auto L = left_inverse(A);
      RC_ASSERT(is_static_v<decltype(L)>);
      for (int64_t i = 0; i < size(A); ++i) RC_ASSERT(i64(L(i64(A(i)))) == i);
      auto B = make_layout(A, complement(A));  // a bijection onto [0, size(B))
      RC_ASSERT(is_bijective(B));
      auto R = right_inverse(B);
      RC_ASSERT(i64(size(R)) == i64(size(B)));
      for (int64_t i = 0; i < size(B); ++i) RC_ASSERT(i64(B(i64(R(i)))) == i);
    });
  });
}

// Two static layouts of the same shape with their modes in orders p and q.
template <class F> void static_permutations(F&& f) {
  auto perm = [](auto g) {
    switch (*rc::gen::inRange(0, 6)) {
      case 0: g(make_step(_0{}, _1{}, _2{})); break;
      case 1: g(make_step(_0{}, _2{}, _1{})); break;
      case 2: g(make_step(_1{}, _0{}, _2{})); break;
      case 3: g(make_step(_1{}, _2{}, _0{})); break;
      case 4: g(make_step(_2{}, _0{}, _1{})); break;
      default: g(make_step(_2{}, _1{}, _0{})); break;
    }
  };
  auto with_shape = [&](auto S) {
    perm([&](auto p) { perm([&](auto q) { f(make_ordered_layout(S, p), make_ordered_layout(S, q)); }); });
  };
  if (*rc::gen::arbitrary<bool>()) with_shape(make_shape(_2{}, _3{}, _2{}));
  else with_shape(make_shape(_4{}, _2{}, _2{}));
}

TEST_CASE("max_common_vector and max_common_layout of static permutations", "[core][property][max_common]") {
  rc::prop("a(R(i)) == i == b(R(i)) for i < N = max_common_vector, and N is maximal", [] {
    static_permutations([](auto a, auto b) {
      auto R = max_common_layout(a, b);
      auto N = max_common_vector(a, b);
      RC_ASSERT(is_static_v<decltype(N)>);
      RC_ASSERT(i64(size(R)) == i64(N));
      for (int64_t i = 0; i < N; ++i) {
        RC_ASSERT(i64(a(i64(R(i)))) == i);
        RC_ASSERT(i64(b(i64(R(i)))) == i);
      }
      if (i64(N) < i64(size(a))) {
        int64_t x = 0;
        while (i64(b(x)) != i64(N)) ++x;  // b is a bijection: x = b^-1(N)
        RC_ASSERT(i64(a(x)) != i64(N));
      }
      if (to_string(a) == to_string(b)) RC_ASSERT(i64(N) == i64(size(a)));
    });
  });
}

TEST_CASE("tile_to_shape with static and dynamic leaves", "[core][property][tile_to_shape]") {
  rc::prop("rank and mode sizes of the target; the same function as blocked_product mode by mode (CuTe 4.7's "
           "form); tile_to_shape_coalesced (CuTe 3.7's) the same function with each mode coalesced; static inputs "
           "give a static result", [] {
    // block (s0,s1) static, column- or row-major; the repetition (m0,m1) static or dynamic
    pick<1, 2, 4>([&](auto s0) { pick<2, 3>([&](auto s1) { pick<0, 1>([&](auto row) { pick<0, 1, 2>([&](auto rep) {
      auto blk = conditional_return<decltype(row)::value == 1>(make_layout(make_shape(s0, s1), LayoutRight{}),
                                                               make_layout(make_shape(s0, s1)));
      auto check = [&](auto m0, auto m1) {
        auto target = make_shape(s0 * m0, s1 * m1);
        auto R = tile_to_shape(blk, target);
        auto P = blocked_product(blk, make_layout(make_shape(m0, m1)));
        RC_ASSERT(rank_v<decltype(R.shape())> == 2);
        RC_ASSERT(i64(size<0>(R)) == i64(get<0>(target)));
        RC_ASSERT(i64(size<1>(R)) == i64(get<1>(target)));
        auto Rc = tile_to_shape_coalesced(blk, target);
        RC_ASSERT(is_coalesced_form(get<0>(Rc)));
        RC_ASSERT(is_coalesced_form(get<1>(Rc)));
        for (int64_t x0 = 0; x0 < size<0>(R); ++x0)
          for (int64_t x1 = 0; x1 < size<1>(R); ++x1) {
            RC_ASSERT(i64(R(x0, x1)) == i64(P(x0, x1)));
            RC_ASSERT(i64(Rc(x0, x1)) == i64(P(x0, x1)));
          }
        if constexpr (is_static_v<decltype(target)>) RC_ASSERT(is_static_v<decltype(R)>);
      };
      if constexpr (decltype(rep)::value == 0) check(C<3>{}, C<2>{});
      else if constexpr (decltype(rep)::value == 1) check(C<1>{}, C<4>{});
      else check(shape_value(4), shape_value(4));
    }); }); }); });
  });
}
