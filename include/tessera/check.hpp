#pragma once
// Properties of layouts as functions, constexpr so that static layouts can be
// checked with static_assert. Static layouts use a bitmap of the codomain;
// dynamic ones compare images pairwise (no heap), fine for test-sized layouts.
#include "algebra/composition.hpp"

namespace tessera {

namespace detail {
template <int64_t N> struct bitmap { bool v[N > 0 ? N : 1]; };

template <class L> TESSERA_HOST_DEVICE constexpr bool nonnegative_images(L const& l) {
  auto f = to_flat_function(l);
  for (int k = 0; k < int(sizeof(f.stride) / sizeof(f.stride[0])); ++k) if (f.stride[k] < 0) return false;
  return true;
}
}  // namespace detail

// No two coordinates map to the same offset.
template <class S, class D> TESSERA_HOST_DEVICE constexpr bool is_injective(Layout<S, D> const& l) {
  auto f = detail::to_flat_function(l);
  int64_t n = to_i64(size(l));
  if constexpr (is_static_v<Layout<S, D>>) {
    if (!detail::nonnegative_images(l)) {
      for (int64_t i = 0; i < n; ++i) for (int64_t j = i + 1; j < n; ++j) if (f(i) == f(j)) return false;
      return true;
    }
    constexpr int64_t M = decltype(cosize(l))::value;
    detail::bitmap<M> seen{};
    for (int64_t i = 0; i < n; ++i) { int64_t x = f(i); if (seen.v[x]) return false; seen.v[x] = true; }
    return true;
  } else {
    for (int64_t i = 0; i < n; ++i) for (int64_t j = i + 1; j < n; ++j) if (f(i) == f(j)) return false;
    return true;
  }
}

// Every offset in [0, codomain) is an image.
template <class S, class D, class M> TESSERA_HOST_DEVICE constexpr bool is_surjective(Layout<S, D> const& l, M const& codomain) {
  auto f = detail::to_flat_function(l);
  int64_t n = to_i64(size(l)), m = to_i64(codomain);
  if constexpr (is_static_v<Layout<S, D>> && is_static_v<M>) {
    detail::bitmap<M::value> hit{};
    int64_t count = 0;
    for (int64_t i = 0; i < n; ++i) { int64_t x = f(i); if (0 <= x && x < m && !hit.v[x]) { hit.v[x] = true; ++count; } }
    return count == m;
  } else {
    for (int64_t x = 0; x < m; ++x) {
      bool found = false;
      for (int64_t i = 0; i < n && !found; ++i) found = f(i) == x;
      if (!found) return false;
    }
    return true;
  }
}
template <class S, class D> TESSERA_HOST_DEVICE constexpr bool is_surjective(Layout<S, D> const& l) { return is_surjective(l, size(l)); }

// A bijection of [0, size) onto [0, size).
template <class S, class D> TESSERA_HOST_DEVICE constexpr bool is_bijective(Layout<S, D> const& l) {
  return to_i64(cosize(l)) == to_i64(size(l)) && is_injective(l) && is_surjective(l, size(l));
}
// Compact: the offsets are dense storage. filter(L) -- L without its stride-0 and
// size-1 modes -- is a bijection onto [0, cosize(L)): every offset below the cosize is
// used, and two coordinates share an offset only when they differ in stride-0 modes.
// So broadcasting along a stride-0 mode is allowed ((4,8):(0,1) is compact: every
// element is stored once and read four times), aliasing is not ((2,2):(1,1) covers
// [0,3) but stores two different coordinates at offset 1, so writes would collide),
// and neither are holes (4:2). The same rule as `tessera info` and the testing kit's
// IsCompact matcher. Negative strides reach offsets below 0: never compact.
template <class S, class D> TESSERA_HOST_DEVICE constexpr bool is_compact(Layout<S, D> const& l) {
  auto f = detail::to_flat_function(l);
  constexpr int N = int(sizeof(f.shape) / sizeof(f.shape[0]));
  int64_t n = 1;  // size of filter(L): a stride-0 mode contributes nothing, so drop it
  for (int k = 0; k < N; ++k) {
    if (f.stride[k] == 0) f.shape[k] = 1;
    n *= f.shape[k];
  }
  int64_t const m = to_i64(cosize(l));
  if (n != m) return false;  // a bijection onto [0, m) has exactly m elements
  if constexpr (is_static_v<Layout<S, D>>) {
    detail::bitmap<decltype(cosize(l))::value> seen{};
    for (int64_t i = 0; i < n; ++i) {
      int64_t x = f(i);
      if (x < 0 || x >= m || seen.v[x]) return false;
      seen.v[x] = true;
    }
    return true;
  } else {
    for (int64_t i = 0; i < n; ++i) {
      int64_t x = f(i);
      if (x < 0 || x >= m) return false;
      for (int64_t j = i + 1; j < n; ++j) if (f(j) == x) return false;
    }
    return true;
  }
}
// Same function on [0, size) (the shapes may differ).
template <class S0, class D0, class S1, class D1>
TESSERA_HOST_DEVICE constexpr bool is_functionally_equal(Layout<S0, D0> const& a, Layout<S1, D1> const& b) {
  if (to_i64(size(a)) != to_i64(size(b))) return false;
  auto fa = detail::to_flat_function(a);
  auto fb = detail::to_flat_function(b);
  for (int64_t i = 0; i < to_i64(size(a)); ++i) if (fa(i) != fb(i)) return false;
  return true;
}
// composition(a, b) is admissible (rule 1 of docs/notation.md): its mode-by-mode result R
// is a o b, i.e. R has b's size and R(i) == a(b(i)) for every i in [0, size(b)), a read
// past its size as CuTe reads it (its last mode continued; CuTe's post-condition). Checks
// every index: O(size(b)) evaluations. Safe on any operands (R is computed without traps,
// see composition.hpp), so it is the check to run before composing dynamic layouts from
// outside; debug builds of composition() assert it. CuTe's stride and shape divisibility
// rules (2 and 3) are checked at compile time for static operands only, by composition().
template <class S0, class D0, class S1, class D1>
TESSERA_HOST_DEVICE constexpr bool is_admissible_composition(Layout<S0, D0> const& a, Layout<S1, D1> const& b) {
  return detail::composition_is_exact(a, b, detail::composition_unchecked(a, b), -1);
}
// With a tiler: every mode of the tiler against the matching mode of a (_ always is;
// an integer N means N:1).
template <class S0, class D0, class T> requires(!is_layout_v<T>)
TESSERA_HOST_DEVICE constexpr bool is_admissible_composition(Layout<S0, D0> const& a, T const& tiler) {
  if constexpr (is_tuple_v<T>) {
    if constexpr (rank_v<T> > rank_v<S0>) {
      return false;
    } else {
      auto w = make_layout(wrap(a.shape()), wrap(a.stride()));
      return [&]<std::size_t... I>(std::index_sequence<I...>) {
        return (is_admissible_composition(get<I>(w), get<I>(tiler)) && ...);
      }(std::make_index_sequence<rank_v<T>>{});
    }
  } else if constexpr (is_underscore_v<T>) {
    return true;
  } else {
    return is_admissible_composition(a, make_layout(tiler, C<1>{}));
  }
}

}  // namespace tessera
