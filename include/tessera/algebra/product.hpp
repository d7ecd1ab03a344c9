#pragma once
// The product family: repeat a block according to a tiler.
//   logical_product(A, B) = make_layout(A, composition(complement(A, size(A)*cosize(B)), B))
//   zipped/tiled/flat_product regroup it like the divides; blocked_product and
//   raked_product interleave block and tiler mode by mode (block-major / tiler-major).
#include "composition.hpp"
#include "complement.hpp"
#include "divide.hpp"

namespace tessera {

template <class LS, class LD, class TS, class TD>
TESSERA_HOST_DEVICE constexpr auto logical_product(Layout<LS, LD> const& block, Layout<TS, TD> const& tiler) {
  return make_layout(block, composition(complement(block, size(block) * cosize(tiler)), tiler));
}
template <class LS, class LD, class T>
TESSERA_HOST_DEVICE constexpr auto logical_product(Layout<LS, LD> const& block, T const& tiler) {
  if constexpr (is_tuple_v<T>) {
    static_assert(rank_v<T> <= rank_v<LS>, "tessera::logical_product: the tiler has more modes than the block");
    return transform_layout(block, tiler, [](auto const& m, auto const& t) { return logical_product(m, t); });
  } else if constexpr (is_underscore_v<T>) {
    return block;
  } else {
    static_assert(is_integral_v<T>, "tessera::logical_product: the tiler must be a layout, a tuple or an integer");
    return logical_product(block, make_layout(tiler));
  }
}

template <class LS, class LD, class T>
TESSERA_HOST_DEVICE constexpr auto zipped_product(Layout<LS, LD> const& block, T const& tiler) {
  return tile_unzip(logical_product(block, tiler), tiler);
}
template <class LS, class LD, class T>
TESSERA_HOST_DEVICE constexpr auto tiled_product(Layout<LS, LD> const& block, T const& tiler) {
  auto r = zipped_product(block, tiler);
  return r(_, repeat<rank_v<decltype(shape<1>(r))>>(_));
}
template <class LS, class LD, class T>
TESSERA_HOST_DEVICE constexpr auto flat_product(Layout<LS, LD> const& block, T const& tiler) {
  auto r = zipped_product(block, tiler);
  return r(repeat<rank_v<decltype(shape<0>(r))>>(_), repeat<rank_v<decltype(shape<1>(r))>>(_));
}

// blocked_product: mode i of the result is (block_i, tiler_i): blocks laid out by the tiler.
template <class LS, class LD, class TS, class TD>
TESSERA_HOST_DEVICE constexpr auto blocked_product(Layout<LS, LD> const& block, Layout<TS, TD> const& tiler) {
  constexpr int R = rank_v<LS> > rank_v<TS> ? rank_v<LS> : rank_v<TS>;
  auto r = logical_product(append<R>(block), append<R>(tiler));
  return zip(get<0>(r), get<1>(r));
}
// raked_product: mode i of the result is (tiler_i, block_i): the block's elements are interleaved.
template <class LS, class LD, class TS, class TD>
TESSERA_HOST_DEVICE constexpr auto raked_product(Layout<LS, LD> const& block, Layout<TS, TD> const& tiler) {
  constexpr int R = rank_v<LS> > rank_v<TS> ? rank_v<LS> : rank_v<TS>;
  auto r = logical_product(append<R>(block), append<R>(tiler));
  return zip(get<1>(r), get<0>(r));
}

}  // namespace tessera
