#pragma once
// Tensor = iterator (a raw pointer, or an identity iterator that yields
// coordinates) + layout (Layout or ComposedLayout): t(c) == iter[layout(c)].
#include "composed_layout.hpp"

namespace tessera {

// Yields the coordinate (in `shape`) of a linear offset: the iterator of an identity tensor.
template <class Shape, class Base = C<0>>
struct IdentityIterator {
  Shape shape;
  Base base;
  template <class I> TESSERA_HOST_DEVICE constexpr auto operator[](I const& i) const { return idx2crd(base + i, shape); }
  TESSERA_HOST_DEVICE constexpr auto operator*() const { return idx2crd(base, shape); }
};
template <class S, class B, class I>
TESSERA_HOST_DEVICE constexpr auto operator+(IdentityIterator<S, B> const& it, I const& i) {
  return IdentityIterator<S, decltype(it.base + i)>{it.shape, it.base + i};
}

template <class Iterator, class L>
struct Tensor {
  Iterator iter_;
  L layout_;

  TESSERA_HOST_DEVICE constexpr Iterator const& data() const { return iter_; }
  TESSERA_HOST_DEVICE constexpr L const& layout() const { return layout_; }
  TESSERA_HOST_DEVICE constexpr auto shape() const { return tessera::shape(layout_); }
  TESSERA_HOST_DEVICE constexpr auto size() const { return tessera::size(layout_); }
  static constexpr int rank = L::rank;

  // t(c): the element at coordinate c; with _ in c, the sliced sub-tensor.
  template <class Crd> TESSERA_HOST_DEVICE constexpr decltype(auto) operator()(Crd const& crd) const {
    if constexpr (has_underscore_v<Crd>) {
      if constexpr (is_composed_layout_v<L>) {
        auto sub = layout_(crd);  // the offset stays inside the swizzle
        return Tensor<Iterator, decltype(sub)>{iter_, sub};
      } else {
        auto so = slice_and_offset(crd, layout_);
        return Tensor<decltype(iter_ + get<1>(so)), std::remove_cvref_t<decltype(get<0>(so))>>{iter_ + get<1>(so), get<0>(so)};
      }
    } else {
      return iter_[layout_(crd)];
    }
  }
  template <class C0, class C1, class... Cs>
  TESSERA_HOST_DEVICE constexpr decltype(auto) operator()(C0 const& c0, C1 const& c1, Cs const&... cs) const { return (*this)(make_coord(c0, c1, cs...)); }
  template <class I> TESSERA_HOST_DEVICE constexpr decltype(auto) operator[](I const& i) const { return iter_[layout_(i)]; }
};

template <class T> struct is_tensor : std::false_type {};
template <class I, class L> struct is_tensor<Tensor<I, L>> : std::true_type {};
template <class T> inline constexpr bool is_tensor_v = is_tensor<std::remove_cvref_t<T>>::value;

template <class It, class L>
TESSERA_HOST_DEVICE constexpr auto make_tensor(It const& it, L const& layout) {
  if constexpr (is_layout_v<L> || is_composed_layout_v<L>) return Tensor<It, L>{it, layout};
  else return make_tensor(it, make_layout(layout));  // a shape: compact column-major
}
// The identity tensor: its element at c is c itself (as a hierarchical coordinate of shape).
template <class S> TESSERA_HOST_DEVICE constexpr auto make_identity_tensor(S const& shape) {
  return make_tensor(IdentityIterator<S>{shape, C<0>{}}, make_layout(shape));
}

template <int... I, class It, class L> TESSERA_HOST_DEVICE constexpr auto size(Tensor<It, L> const& t) { return size<I...>(t.layout()); }
template <int... I, class It, class L> TESSERA_HOST_DEVICE constexpr auto shape(Tensor<It, L> const& t) { return shape<I...>(t.layout()); }
template <int... I, class It, class L> TESSERA_HOST_DEVICE constexpr auto rank(Tensor<It, L> const& t) { return rank<I...>(t.layout()); }
template <class It, class L> TESSERA_HOST_DEVICE constexpr auto layout(Tensor<It, L> const& t) { return t.layout(); }

template <class It, class L, class T> TESSERA_HOST_DEVICE constexpr auto zipped_divide(Tensor<It, L> const& t, T const& tiler) {
  return make_tensor(t.data(), zipped_divide(t.layout(), tiler));
}
template <class It, class L, class T> TESSERA_HOST_DEVICE constexpr auto logical_divide(Tensor<It, L> const& t, T const& tiler) {
  return make_tensor(t.data(), logical_divide(t.layout(), tiler));
}

// inner_partition / local_tile: the tile of `tensor` at tile coordinate `coord`
// (coord may hold _ to keep whole modes of tiles).
template <class It, class L, class T, class Crd>
TESSERA_HOST_DEVICE constexpr auto local_tile(Tensor<It, L> const& t, T const& tiler, Crd const& coord) {
  auto tiled = zipped_divide(t, tiler);
  constexpr int R0 = rank_v<decltype(shape<0>(tiled.layout()))>;
  if constexpr (is_tuple_v<Crd>) {
    constexpr int R1 = rank_v<decltype(shape<1>(tiled.layout()))>;
    return tiled(make_coord(repeat<R0>(_), append<R1>(coord, _)));
  } else {
    return tiled(make_coord(repeat<R0>(_), coord));
  }
}
template <class It, class L, class T, class Crd>
TESSERA_HOST_DEVICE constexpr auto inner_partition(Tensor<It, L> const& t, T const& tiler, Crd const& coord) {
  return local_tile(t, tiler, coord);
}
// outer_partition: from every tile, the element at `coord` within the tile.
template <class It, class L, class T, class Crd>
TESSERA_HOST_DEVICE constexpr auto outer_partition(Tensor<It, L> const& t, T const& tiler, Crd const& coord) {
  auto tiled = zipped_divide(t, tiler);
  constexpr int R1 = rank_v<decltype(shape<1>(tiled.layout()))>;
  if constexpr (is_tuple_v<Crd>) {
    constexpr int R0 = rank_v<decltype(shape<0>(tiled.layout()))>;
    return tiled(make_coord(append<R0>(coord, _), repeat<R1>(_)));
  } else {
    return tiled(make_coord(coord, repeat<R1>(_)));
  }
}
// local_partition(tensor, threads, i): the elements thread i owns when the
// thread layout is tiled over the tensor (thread i sits at threads' coordinate of i).
template <class It, class L, class TS, class TD, class I>
TESSERA_HOST_DEVICE constexpr auto local_partition(Tensor<It, L> const& t, Layout<TS, TD> const& threads, I const& idx) {
  static_assert(is_integral_v<I>, "tessera::local_partition: the thread index must be an integer");
  return outer_partition(t, product_each(threads.shape()), threads.get_flat_coord(idx));
}

}  // namespace tessera
