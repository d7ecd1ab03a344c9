#pragma once
// Static IntTuples as plain values and back, for the compile-time fast paths of the
// algebra: when every leaf is a static C<N>, an operation on flat modes (coalesce, the
// composition walk, complement, the inverses) is computed once as a constexpr loop
// over int64 arrays, and only its answer becomes a type. The generic paths recurse
// through tuples, instantiating a function (and a tuple type) per step; the loop
// instantiates one variable template per operation and operands.
#include "../layout.hpp"

namespace tessera::detail {

// Up to N modes of a flat layout: shapes, strides and how many there are.
template <std::size_t N> struct flat_modes {
  int64_t s[N > 0 ? N : 1]{};
  int64_t d[N > 0 ? N : 1]{};
  int n = 0;
  int error = 0;  // which rule a static input broke (each caller names its own)
  TESSERA_HOST_DEVICE constexpr void push(int64_t shape, int64_t stride) { s[n] = shape; d[n] = stride; ++n; }
  // as a function of a 1-D index (colexicographic; the last mode takes the rest)
  TESSERA_HOST_DEVICE constexpr int64_t operator()(int64_t i) const {
    int64_t off = 0;
    for (int k = 0; k + 1 < n; ++k) { off += (i % s[k]) * d[k]; i /= s[k]; }
    return off + i * d[n - 1];
  }
  TESSERA_HOST_DEVICE constexpr int64_t size() const {
    int64_t z = 1;
    for (int k = 0; k < n; ++k) z *= s[k];
    return z;
  }
};

// The leaves of a static IntTuple T, colexicographic (as flatten_to_tuple orders them).
template <class T> struct static_leaves {
  static constexpr std::size_t count = 1;
  TESSERA_HOST_DEVICE static constexpr void put(int64_t* out) { *out = T::value; }
};
template <class... Ts> struct static_leaves<tuple<Ts...>> {
  static constexpr std::size_t count = (std::size_t(0) + ... + static_leaves<Ts>::count);
  TESSERA_HOST_DEVICE static constexpr void put(int64_t* out) {
    ((static_leaves<Ts>::put(out), out += static_leaves<Ts>::count), ...);
  }
};

// The flat modes of a static layout (shape S, stride D congruent).
template <class S, class D> TESSERA_HOST_DEVICE constexpr auto static_flat_modes() {
  constexpr std::size_t N = static_leaves<S>::count;
  flat_modes<N> m{};
  static_leaves<S>::put(m.s);
  static_leaves<D>::put(m.d);
  m.n = int(N);
  return m;
}

// The layout type of the first M.n modes of M: one mode is a pair of integers, more
// are flat tuples. `Modes` is a reference to a constexpr flat_modes.
// (A function, not a class template with a defaulted index_sequence parameter: that
// crashes nvcc 13's front end.)
template <auto const& Modes, std::size_t... I>
TESSERA_HOST_DEVICE constexpr auto flat_layout_type(std::index_sequence<I...>) {
  if constexpr (sizeof...(I) == 1) return make_layout(C<Modes.s[0]>{}, C<Modes.d[0]>{});
  else return make_layout(tuple<C<Modes.s[I]>...>{}, tuple<C<Modes.d[I]>...>{});
}
template <auto const& Modes>
using flat_layout_t = decltype(flat_layout_type<Modes>(std::make_index_sequence<std::size_t(Modes.n)>{}));

template <class L> struct layout_parts;
template <class S, class D> struct layout_parts<Layout<S, D>> { using shape = S; using stride = D; };

}  // namespace tessera::detail
