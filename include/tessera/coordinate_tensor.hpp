#pragma once
// The coordinate tensor of a shape: element c is the coordinate c itself, as
// make_identity_tensor's, but read without a division (CuTe's counting tensor, whose strides
// are the basis coordinates E<i>).
//
//   make_coordinate_tensor(shape)                  (rank R, flat: one mode per coordinate)
//   zipped_divide / logical_divide / local_tile /
//   composition                                    on it as on a tensor (the same algebra)
//   t(c)                                           the coordinate, a rank-R tuple
//   t(c with _)                                    the sliced coordinate tensor
//
// make_identity_tensor reads an element as idx2crd of a linear offset: a division per mode of a
// dynamic shape, for every element read. Here the layout's strides are the unit coordinates
// e_0 .. e_{R-1} of the shape's modes, each carried as a static integer "tag" 2^(20 i), so the
// layout algebra (divides, products, slicing) runs on it unchanged and keeps every stride a
// static multiple c e_i of one unit (tilers are static). An element's coordinate along mode i
// is then the layout evaluated with the strides of mode i read as their multiples c and the
// other modes' strides as 0: multiplies and adds, folded to constants where the coordinate is
// static. The extents only shape the modes (how many tiles a divide leaves); they never enter
// a coordinate, so they may be dynamic or any bound on the coordinates (a TMA tensor map's:
// every int32).
//
// Admissible: a flat shape of at most 3 modes; every tiler static (a stride that is not c e_i
// with 0 <= c < 2^20 is refused at compile time, naming the rule).
//
// A kernel's TMA producer takes its box origins from such a tensor: the problem's
// (M, K, L) coordinates, local_tile by the CTA tile, then by the part of the tile this CTA's
// copy brings (kernels/collective/sm90_mainloop_tma_wgmma.cuh).

#include <cstdint>

#include "tessera/layout.hpp"
#include "tessera/tensor.hpp"

namespace tessera {

namespace coordinate_detail {
inline constexpr int tag_bits = 20;
TESSERA_HOST_DEVICE constexpr int64_t unit(int i) { return int64_t(1) << (tag_bits * i); }
// The multiple of e_I that the static stride S is, or 0 where S is along another mode.
template <int I, int R, int64_t S> TESSERA_HOST_DEVICE constexpr int64_t along() {
  static_assert(S >= 0, "tessera::coordinate tensor: a stride is a non-negative multiple of one mode's unit");
  if constexpr (S == 0) {
    return 0;
  } else {
    constexpr int mode = [] {
      int m = 0;
      while (m + 1 < R && S >= unit(m + 1)) ++m;
      return m;
    }();
    static_assert(S % unit(mode) == 0 && S / unit(mode) < unit(1),
                  "tessera::coordinate tensor: every stride must be c e_i (0 <= c < 2^20) of one mode i: divide and tile it by static tilers only");
    return mode == I ? S / unit(mode) : 0;
  }
}
template <int I, int R, class D> TESSERA_HOST_DEVICE constexpr auto strides_along(D const& d) {
  return transform_leaf(d, [](auto s) {
    static_assert(is_static_v<decltype(s)>, "tessera::coordinate tensor: strides stay static (divide and tile it by static tilers)");
    return C<along<I, R, int64_t(decltype(s)::value)>()>{};
  });
}
}  // namespace coordinate_detail

// Origin: a rank-R tuple (the coordinate at the layout's offset 0); L: the layout over the
// unit tags.
template <int R, class Origin, class L>
struct CoordinateTensor {
  static_assert(R >= 1 && R <= 3, "tessera::coordinate tensor: 1 to 3 modes (their units are 2^20 apart in an int64)");
  Origin origin;
  L layout_;
  static constexpr int rank = L::rank;

  TESSERA_HOST_DEVICE constexpr L const& layout() const { return layout_; }
  TESSERA_HOST_DEVICE constexpr auto shape() const { return tessera::shape(layout_); }
  TESSERA_HOST_DEVICE constexpr auto size() const { return tessera::size(layout_); }

  // The coordinate (without _), or the slice at it (with _): origin + the layout along each mode.
  template <class Crd> TESSERA_HOST_DEVICE constexpr auto operator()(Crd const& crd) const {
    if constexpr (has_underscore_v<Crd>) {
      auto sub = slice(crd, layout_);
      auto o = offset_of(detail::zero_underscores(crd));
      return CoordinateTensor<R, decltype(o), decltype(sub)>{o, sub};
    } else {
      return offset_of(crd);
    }
  }
  template <class C0, class C1, class... Cs>
  TESSERA_HOST_DEVICE constexpr auto operator()(C0 const& c0, C1 const& c1, Cs const&... cs) const {
    return (*this)(make_coord(c0, c1, cs...));
  }

 private:
  template <class Crd> TESSERA_HOST_DEVICE constexpr auto offset_of(Crd const& crd) const {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return make_tuple((get<I>(origin) + crd2idx(crd, layout_.shape(), coordinate_detail::strides_along<int(I), R>(layout_.stride())))...);
    }(std::make_index_sequence<std::size_t(R)>{});
  }
};
template <class T> inline constexpr bool is_coordinate_tensor_v = false;
template <int R, class O, class L> inline constexpr bool is_coordinate_tensor_v<CoordinateTensor<R, O, L>> = true;

template <class S> TESSERA_HOST_DEVICE constexpr auto make_coordinate_tensor(S const& shape) {
  static_assert(is_tuple_v<S> && depth_of<S>() == 1, "tessera::make_coordinate_tensor: a flat shape, one mode per coordinate");
  constexpr int R = int(rank_v<S>);
  auto stride = [&]<std::size_t... I>(std::index_sequence<I...>) {
    return make_stride(C<coordinate_detail::unit(int(I))>{}...);
  }(std::make_index_sequence<std::size_t(R)>{});
  auto layout = make_layout(shape, stride);
  auto origin = repeat<R>(C<0>{});
  return CoordinateTensor<R, decltype(origin), decltype(layout)>{origin, layout};
}

template <int... I, int R, class O, class L> TESSERA_HOST_DEVICE constexpr auto shape(CoordinateTensor<R, O, L> const& t) {
  return shape<I...>(t.layout());
}
template <int... I, int R, class O, class L> TESSERA_HOST_DEVICE constexpr auto size(CoordinateTensor<R, O, L> const& t) {
  return size<I...>(t.layout());
}
template <int R, class O, class L> TESSERA_HOST_DEVICE constexpr auto layout(CoordinateTensor<R, O, L> const& t) { return t.layout(); }

template <int R, class O, class L, class T>
TESSERA_HOST_DEVICE constexpr auto zipped_divide(CoordinateTensor<R, O, L> const& t, T const& tiler) {
  auto l = zipped_divide(t.layout(), tiler);
  return CoordinateTensor<R, O, decltype(l)>{t.origin, l};
}
template <int R, class O, class L, class T>
TESSERA_HOST_DEVICE constexpr auto logical_divide(CoordinateTensor<R, O, L> const& t, T const& tiler) {
  auto l = logical_divide(t.layout(), tiler);
  return CoordinateTensor<R, O, decltype(l)>{t.origin, l};
}
// The coordinates seen through a tiler (a tuple of layouts composes mode by mode): e.g. a
// tile's rows regrouped as (64, warpgroups, repeats).
template <int R, class O, class L, class T>
TESSERA_HOST_DEVICE constexpr auto composition(CoordinateTensor<R, O, L> const& t, T const& tiler) {
  auto l = composition(t.layout(), tiler);
  return CoordinateTensor<R, O, decltype(l)>{t.origin, l};
}
// The tile at tile coordinate `coord` (with _ to keep whole modes of tiles), as local_tile of a
// tensor: ((tile), (rest)) sliced at (_, coord).
template <int R, class O, class L, class T, class Crd>
TESSERA_HOST_DEVICE constexpr auto local_tile(CoordinateTensor<R, O, L> const& t, T const& tiler, Crd const& coord) {
  auto tiled = zipped_divide(t, tiler);
  constexpr int R0 = rank_v<decltype(shape<0>(tiled.layout()))>;
  if constexpr (is_tuple_v<Crd>) {
    constexpr int R1 = rank_v<decltype(shape<1>(tiled.layout()))>;
    return tiled(make_coord(repeat<R0>(_), append<R1>(coord, _)));
  } else {
    return tiled(make_coord(repeat<R0>(_), coord));
  }
}

}  // namespace tessera
