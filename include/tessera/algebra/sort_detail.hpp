#pragma once
// Helpers to order the modes of a flat layout by stride: at compile time for
// static strides, at run time (fixed rank, int64 values) for dynamic ones.
#include "../int_tuple.hpp"

namespace tessera::detail {

template <int N> struct index_array { int v[N > 0 ? N : 1]; };
template <int N> struct value_array { int64_t v[N > 0 ? N : 1]; };

template <class T> TESSERA_HOST_DEVICE constexpr auto to_values(T const& t) {
  value_array<rank_v<T>> a{};
  [&]<std::size_t... I>(std::index_sequence<I...>) { ((a.v[I] = to_i64(get<I>(t))), ...); }(seq_of<T>{});
  return a;
}

// Stable order of the indices of t by value (selection by smallest value, ties by position).
template <int N> TESSERA_HOST_DEVICE constexpr index_array<N> stable_order(value_array<N> const& a) {
  index_array<N> o{};
  for (int i = 0; i < N; ++i) o.v[i] = i;
  for (int i = 1; i < N; ++i) {  // insertion sort: stable
    int x = o.v[i], j = i - 1;
    while (j >= 0 && a.v[o.v[j]] > a.v[x]) { o.v[j + 1] = o.v[j]; --j; }
    o.v[j + 1] = x;
  }
  return o;
}
// CuTe's order for right_inverse: an exchange sort (for each i, swap in any later j with a
// smaller value). It is not stable: of equal strides a later one may come first, and which
// mode right_inverse follows then decides the answer (CuTe's choice, kept to the letter).
template <int N> TESSERA_HOST_DEVICE constexpr index_array<N> exchange_order(value_array<N> const& a) {
  index_array<N> o{};
  for (int i = 0; i < N; ++i) o.v[i] = i;
  for (int i = 0; i < N; ++i)
    for (int j = i + 1; j < N; ++j)
      if (a.v[o.v[j]] < a.v[o.v[i]]) { int t = o.v[i]; o.v[i] = o.v[j]; o.v[j] = t; }
  return o;
}
template <class T> inline constexpr auto exchange_order_v = exchange_order<rank_v<T>>(to_values(T{}));

// The same for a tuple of static integers, as a type-level constant.
template <class T> inline constexpr auto static_order_v = stable_order<rank_v<T>>(to_values(T{}));

// tuple of N int64 values from an array
template <int N> TESSERA_HOST_DEVICE constexpr auto to_tuple(value_array<N> const& a) {
  return [&]<std::size_t... I>(std::index_sequence<I...>) { return make_tuple(a.v[I]...); }(std::make_index_sequence<N>{});
}

}  // namespace tessera::detail
