#pragma once
// The divide family: split a layout into tiles (tiler) and the rest.
//   logical_divide(A, B) = composition(A, make_layout(B, complement(B, shape(coalesce(A)))))
//   zipped_divide: ((tile modes), (rest modes)); tiled_divide: ((tile), rest...);
//   flat_divide: (tile..., rest...).
#include "composition.hpp"
#include "complement.hpp"

namespace tessera {

template <class LS, class LD, class TS, class TD>
TESSERA_HOST_DEVICE constexpr auto logical_divide(Layout<LS, LD> const& l, Layout<TS, TD> const& tiler) {
  return composition(l, make_layout(tiler, complement(tiler, shape(coalesce(l)))));
}
template <class LS, class LD, class T>
TESSERA_HOST_DEVICE constexpr auto logical_divide(Layout<LS, LD> const& l, T const& tiler) {
  if constexpr (is_tuple_v<T>) {
    static_assert(rank_v<T> <= rank_v<LS>, "tessera::logical_divide: the tiler has more modes than the layout");
    return transform_layout(l, tiler, [](auto const& m, auto const& t) { return logical_divide(m, t); });
  } else if constexpr (is_underscore_v<T>) {
    return l;
  } else {
    static_assert(is_integral_v<T>, "tessera::logical_divide: the tiler must be a layout, a tuple or an integer");
    return logical_divide(l, make_layout(tiler));
  }
}

// zip2_by(t, guide): t is rank 2 at the guide's leaves; gather the first parts
// together and the second parts (then t's modes past the guide) together.
template <class T, class G> TESSERA_HOST_DEVICE constexpr auto zip2_by(T const& t, G const& guide) {
  if constexpr (is_tuple_v<G>) {
    constexpr int TR = rank_v<T>, GR = rank_v<G>;
    static_assert(TR >= GR, "tessera::zip2_by: mismatched ranks");
    return [&]<std::size_t... I, std::size_t... J>(std::index_sequence<I...>, std::index_sequence<J...>) {
      auto split = make_tuple(zip2_by(get<I>(t), get<I>(guide))...);
      return make_tuple(make_tuple(get<0>(get<I>(split))...), make_tuple(get<1>(get<I>(split))..., get<GR + J>(t)...));
    }(std::make_index_sequence<GR>{}, std::make_index_sequence<TR - GR>{});
  } else {
    static_assert(rank_v<T> == 2, "tessera::zip2_by: expected a rank-2 tuple");
    return t;
  }
}
template <class S, class D, class G> TESSERA_HOST_DEVICE constexpr auto tile_unzip(Layout<S, D> const& l, G const& guide) {
  return make_layout(zip2_by(l.shape(), guide), zip2_by(l.stride(), guide));
}

template <class LS, class LD, class T>
TESSERA_HOST_DEVICE constexpr auto zipped_divide(Layout<LS, LD> const& l, T const& tiler) {
  return tile_unzip(logical_divide(l, tiler), tiler);
}
template <class LS, class LD, class T>
TESSERA_HOST_DEVICE constexpr auto tiled_divide(Layout<LS, LD> const& l, T const& tiler) {
  auto r = zipped_divide(l, tiler);
  return r(_, repeat<rank_v<decltype(shape<1>(r))>>(_));
}
template <class LS, class LD, class T>
TESSERA_HOST_DEVICE constexpr auto flat_divide(Layout<LS, LD> const& l, T const& tiler) {
  auto r = zipped_divide(l, tiler);
  return r(repeat<rank_v<decltype(shape<0>(r))>>(_), repeat<rank_v<decltype(shape<1>(r))>>(_));
}

}  // namespace tessera
