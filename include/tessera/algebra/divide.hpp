#pragma once
// The divide family: split a layout into tiles (tiler) and the rest.
//   logical_divide(A, B) = composition(A, make_layout(B, complement(B, shape(coalesce(A)))))
//   zipped_divide: ((tile modes), (rest modes)); tiled_divide: ((tile), rest...);
//   flat_divide: (tile..., rest...).
#include "composition.hpp"
#include "complement.hpp"

namespace tessera {

namespace detail {
// The divide's admissibility rule (docs/notation.md): (tile, rest) may run past size(A);
// CuTe then reads A there with its last mode continued without bound (A_ext), composing
// the tile and the rest each on its own. The result must be A_ext o (tile, rest) at every
// coordinate: a tile offset plus a rest offset must not carry in A's other modes. When A's
// last mode has size 1 (nothing to continue), continuing its last mode of size > 1 instead
// also admits (CuTe's walk keeps a part that fits inside that mode linear in it).
// flat_modes evaluates with its last mode unbounded: it is A_ext.
template <std::size_t N>
TESSERA_HOST_DEVICE constexpr flat_modes<N> without_unit_tail(flat_modes<N> a) {
  while (a.n > 1 && a.s[a.n - 1] == 1) --a.n;
  return a;
}
template <std::size_t NA, std::size_t NB, std::size_t NR>
TESSERA_HOST_DEVICE constexpr bool divide_is_consistent(flat_modes<NA> const& a, flat_modes<NB> const& b,
                                                        flat_modes<NR> const& r) {
  int64_t n = b.size();
  if (r.size() != n) return false;
  if (n > composition_check_limit) n = composition_check_limit;
  auto const a_skip = without_unit_tail(a);
  bool own = true, skipped = a_skip.n < a.n && a_skip.s[a_skip.n - 1] != 1;
  for (int64_t i = 0; i < n && (own || skipped); ++i) {
    int64_t const bi = b(i), ri = r(i);
    if (ri != a(bi)) own = false;
    if (skipped && ri != a_skip(bi)) skipped = false;
  }
  return own || skipped;
}
template <class A, class B, class R> inline constexpr bool static_divide_consistent_v = [] {
  using AP = layout_parts<A>;
  using BP = layout_parts<B>;
  using RP = layout_parts<R>;
  return divide_is_consistent(static_flat_modes<typename AP::shape, typename AP::stride>(),
                              static_flat_modes<typename BP::shape, typename BP::stride>(),
                              static_flat_modes<typename RP::shape, typename RP::stride>());
}();
template <class L> TESSERA_HOST_DEVICE constexpr auto dynamic_flat_modes(L const& l) {
  auto f = to_flat_function(l);
  constexpr int N = sizeof(f.shape) / sizeof(f.shape[0]);
  flat_modes<std::size_t(N)> m{};
  for (int k = 0; k < N; ++k) m.push(f.shape[k], f.stride[k]);
  return m;
}
}  // namespace detail

template <class LS, class LD, class TS, class TD>
TESSERA_HOST_DEVICE constexpr auto logical_divide(Layout<LS, LD> const& l, Layout<TS, TD> const& tiler) {
  auto tile_rest = make_layout(tiler, complement(tiler, shape(coalesce(l))));
  // CuTe's walk (its divisibility rules as static_asserts); rule 1 is the divide's own, below.
  auto result = detail::composition_unchecked(l, tile_rest);
#ifndef TESSERA_DEBUG_SKIP_COMPOSITION_CHECK
  if constexpr (is_static_v<Layout<LS, LD>> && is_static_v<Layout<TS, TD>>) {
    static_assert(detail::static_divide_consistent_v<Layout<LS, LD>, decltype(tile_rest), decltype(result)>,
                  "tessera::logical_divide: inadmissible divide: the tile and the rest (its complement) carry "
                  "into each other in A's mixed radix, so the result would leave A's domain inconsistently "
                  "(it must equal A o (tile, rest) with A's last mode, or if it has size 1 its last mode of size > 1, "
                  "continued without bound: docs/notation.md, logical divide)");
  } else {
    TESSERA_EXPECTS(detail::divide_is_consistent(detail::dynamic_flat_modes(l), detail::dynamic_flat_modes(tile_rest),
                                                 detail::dynamic_flat_modes(result)),
                    "tessera::logical_divide: inadmissible divide (the result leaves A's domain inconsistently)");
  }
#endif
  return result;
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
