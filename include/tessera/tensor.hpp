#pragma once
// Tensor = engine + layout (Layout or ComposedLayout): t(c) == data()[layout(c)].
// The engine is an iterator (a raw pointer, or an identity iterator that yields
// coordinates: the tensor is a view) or an ArrayEngine (the tensor owns its elements,
// e.g. a register fragment; data() is then a pointer to them).  Slicing any tensor
// gives a view; for a swizzled (composed) layout the slice's offset stays inside the
// swizzle, since the swizzle acts on the whole offset.
#include "composed_layout.hpp"
#include "tensor_engine.hpp"

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

template <class Engine, class L>
struct Tensor {
  Engine iter_;
  L layout_;

  using engine_type = Engine;
  using layout_type = L;
  static constexpr bool owns_storage = owns_storage_v<Engine>;
  static constexpr int rank = L::rank;

  // The iterator: the engine itself for views, a pointer to the elements when owning.
  TESSERA_HOST_DEVICE constexpr decltype(auto) data() const {
    if constexpr (owns_storage) return iter_.begin(); else return (iter_);
  }
  TESSERA_HOST_DEVICE constexpr decltype(auto) data() {
    if constexpr (owns_storage) return iter_.begin(); else return static_cast<Engine const&>(iter_);
  }
  TESSERA_HOST_DEVICE constexpr L const& layout() const { return layout_; }
  TESSERA_HOST_DEVICE constexpr auto shape() const { return tessera::shape(layout_); }
  TESSERA_HOST_DEVICE constexpr auto size() const { return tessera::size(layout_); }

  // t(c): the element at coordinate c; with _ in c, the sliced sub-tensor (a view).
  template <class Crd> TESSERA_HOST_DEVICE constexpr decltype(auto) operator()(Crd const& crd) const { return at(*this, crd); }
  template <class Crd> TESSERA_HOST_DEVICE constexpr decltype(auto) operator()(Crd const& crd) { return at(*this, crd); }
  template <class C0, class C1, class... Cs>
  TESSERA_HOST_DEVICE constexpr decltype(auto) operator()(C0 const& c0, C1 const& c1, Cs const&... cs) const { return at(*this, make_coord(c0, c1, cs...)); }
  template <class C0, class C1, class... Cs>
  TESSERA_HOST_DEVICE constexpr decltype(auto) operator()(C0 const& c0, C1 const& c1, Cs const&... cs) { return at(*this, make_coord(c0, c1, cs...)); }
  template <class I> TESSERA_HOST_DEVICE constexpr decltype(auto) operator[](I const& i) const { return data()[layout_(i)]; }
  template <class I> TESSERA_HOST_DEVICE constexpr decltype(auto) operator[](I const& i) { return data()[layout_(i)]; }

 private:
  template <class Self, class Crd> TESSERA_HOST_DEVICE static constexpr decltype(auto) at(Self& self, Crd const& crd) {
    if constexpr (has_underscore_v<Crd>) {
      using It = std::remove_cvref_t<decltype(self.data())>;
      if constexpr (is_composed_layout_v<L>) {
        auto sub = self.layout_(crd);  // the offset stays inside the swizzle
        return Tensor<It, decltype(sub)>{self.data(), sub};
      } else {
        auto so = slice_and_offset(crd, self.layout_);
        return Tensor<decltype(self.data() + get<1>(so)), std::remove_cvref_t<decltype(get<0>(so))>>{self.data() + get<1>(so), get<0>(so)};
      }
    } else {
      return self.data()[self.layout_(crd)];
    }
  }
};

template <class T> struct is_tensor : std::false_type {};
template <class I, class L> struct is_tensor<Tensor<I, L>> : std::true_type {};
template <class T> inline constexpr bool is_tensor_v = is_tensor<std::remove_cvref_t<T>>::value;

template <class It, class L>
TESSERA_HOST_DEVICE constexpr auto make_tensor(It const& it, L const& layout) {
  if constexpr (is_layout_v<L> || is_composed_layout_v<L>) return Tensor<It, L>{it, layout};
  else return make_tensor(it, make_layout(layout));  // a shape: compact column-major
}
// An array (e.g. __shared__ T smem[N]) is viewed through a pointer to its first element.
template <class T, std::size_t N, class L>
TESSERA_HOST_DEVICE constexpr auto make_tensor(T (&array)[N], L const& layout) {
  return make_tensor(static_cast<T*>(array), layout);
}
// The identity tensor: its element at c is c itself (as a hierarchical coordinate of shape).
// Its elements are idx2crd of a linear offset; dividing it into tiles (zipped_divide,
// logical_divide, local_tile) first rounds its shape up to whole tiles, so the last tile of a
// matrix the tile does not divide reads coordinates past the edge (m >= M) rather than
// wrapping into the next mode: local_tile(make_identity_tensor(shape(mA)), tile, crd) gives
// the coordinates a predicate at the edge needs (tessera/algorithm/copy_predicate.hpp).
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

// An identity tensor cut into tiles keeps counting past its edge: the divide sees the shape
// rounded up to whole tiles (the same tiles: ceil_div of either), so the last tile's
// coordinates past M read (M, k), (M+1, k), ... instead of wrapping into the next mode as
// idx2crd of the exact shape would.  That is what predicates at an edge compare against.
// Flat shapes cut by a tuple of integers (CuTe's usual tiler); anything else divides as is.
namespace detail {
template <class S, class T> TESSERA_HOST_DEVICE constexpr auto round_up_to_tiles(S const& s, T const& tiler) {
  if constexpr (!is_tuple_v<S> && !is_tuple_v<T> && !is_layout_v<T>) {
    return ceil_div(s, tiler) * tiler;
  } else if constexpr (is_tuple_v<S> && is_tuple_v<T> && depth_of<S>() == 1 && depth_of<T>() == 1 && rank_v<T> <= rank_v<S>) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return make_tuple([&] {
        if constexpr (I < std::size_t(rank_v<T>)) return ceil_div(get<I>(s), get<I>(tiler)) * get<I>(tiler);
        else return get<I>(s);
      }()...);
    }(seq_of<S>{});
  } else {
    return s;
  }
}
template <class S, class L> inline constexpr bool is_whole_identity_v = std::is_same_v<L, decltype(make_layout(std::declval<S const&>()))>;
}  // namespace detail
template <class S, class L, class T>
  requires detail::is_whole_identity_v<S, L>
TESSERA_HOST_DEVICE constexpr auto zipped_divide(Tensor<IdentityIterator<S, C<0>>, L> const& t, T const& tiler) {
  auto s = detail::round_up_to_tiles(t.data().shape, tiler);
  return make_tensor(IdentityIterator<decltype(s)>{s, C<0>{}}, zipped_divide(make_layout(s), tiler));
}
template <class S, class L, class T>
  requires detail::is_whole_identity_v<S, L>
TESSERA_HOST_DEVICE constexpr auto logical_divide(Tensor<IdentityIterator<S, C<0>>, L> const& t, T const& tiler) {
  auto s = detail::round_up_to_tiles(t.data().shape, tiler);
  return make_tensor(IdentityIterator<decltype(s)>{s, C<0>{}}, logical_divide(make_layout(s), tiler));
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
