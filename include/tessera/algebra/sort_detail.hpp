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
// The same for a tuple of static integers, as a type-level constant.
template <class T> inline constexpr auto static_order_v = stable_order<rank_v<T>>(to_values(T{}));

// tuple of N int64 values from an array
template <int N> TESSERA_HOST_DEVICE constexpr auto to_tuple(value_array<N> const& a) {
  return [&]<std::size_t... I>(std::index_sequence<I...>) { return make_tuple(a.v[I]...); }(std::make_index_sequence<N>{});
}

}  // namespace tessera::detail
