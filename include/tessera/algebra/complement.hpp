#pragma once
// complement(A, M): the layout B, ordered and coalesced, whose images are
// disjoint from A's and such that (A, B) covers [0, M) when the sizes divide.
// Without M, the codomain is cosize(A).
#include "filter.hpp"
#include "sort_detail.hpp"

namespace tessera {

namespace detail {

// Fold over the modes by increasing stride (static strides), building the result modes.
template <int I, int R, class S, class D, class RS, class RD>
TESSERA_HOST_DEVICE constexpr auto complement_fold(S const& shape, D const& stride, RS const& rshape, RD const& rstride) {
  if constexpr (I == R - 1) {
    return make_tuple(shape, stride, rshape, rstride);
  } else {
    constexpr int idx = static_order_v<D>.v[0];
    auto min_stride = get<idx>(stride);
    static_assert(!(is_static_v<decltype(min_stride)> && to_i64(decltype(min_stride){}) < 0),
                  "tessera::complement: a negative stride (CuTe's complement walks non-negative strides)");
    auto new_shape = min_stride / get<I>(rstride);
    auto new_stride = min_stride * get<idx>(shape);
    static_assert(!is_constant_v<0, decltype(new_shape)>,
                  "tessera::complement: the layout is not injective (a stride is smaller than the extent of the modes below it)");
    return complement_fold<I + 1, R>(remove<idx>(shape), remove<idx>(stride), append(rshape, new_shape), append(rstride, new_stride));
  }
}

// @pre shape/stride come from filter(): flat, no static size-1 or stride-0 modes.
template <class S, class D, class T>
TESSERA_HOST_DEVICE constexpr auto complement_(S const& shape, D const& stride, T const& cotarget) {
  if constexpr (is_constant_v<0, D>) {
    return make_layout(coalesce(cotarget));
  } else if constexpr (is_static_v<D>) {
    constexpr int R = rank_v<S>;
    auto st = complement_fold<0, R>(wrap(shape), wrap(stride), tuple<>{}, make_tuple(C<1>{}));
    auto shape_ = get<0>(st);
    auto stride_ = get<1>(st);
    auto result_stride = get<3>(st);
    auto new_shape = get<0>(stride_) / get<R - 1>(result_stride);
    if constexpr (is_static_v<decltype(new_shape)>) {
      static_assert(!is_constant_v<0, decltype(new_shape)>,
                    "tessera::complement: the layout is not injective (a stride is smaller than the extent of the modes below it)");
    } else {
      TESSERA_EXPECTS(to_i64(new_shape) != 0, "tessera::complement: the layout is not injective");
    }
    auto result_shape = append(get<2>(st), new_shape);
    auto new_stride = get<0>(stride_) * get<0>(shape_);
    auto rest_shape = coalesce(ceil_div(cotarget, new_stride));
    auto rest_stride = compact_col_major(rest_shape, new_stride);
    return coalesce(make_layout(make_shape(result_shape, rest_shape), make_stride(result_stride, rest_stride)));
  } else {
    // Dynamic strides: order the modes at run time (CuTe restricts this to rank 1), and
    // drop the modes that filter() could not see were size 1 or stride 0 (a run-time
    // stride 0 would otherwise give a mode of size 0).
    constexpr int R = rank_v<S>;
    auto sh = to_values(shape);
    auto sd = to_values(stride);
    auto order = stable_order<R>(sd);
    value_array<R> rs{}, rd{};
    int64_t cur = 1;
    int m = 0;
    for (int k = 0; k < R; ++k) {
      int64_t s = sh.v[order.v[k]], d = sd.v[order.v[k]];
      if (s == 1 || d == 0) continue;  // filtered at run time
      TESSERA_EXPECTS(d > 0, "tessera::complement: a negative stride");
      TESSERA_EXPECTS(d / cur != 0, "tessera::complement: the layout is not injective");
      rs.v[m] = d / cur;
      rd.v[m] = cur;
      cur = d * s;
      ++m;
    }
    for (int k = m; k < R; ++k) { rs.v[k] = 1; rd.v[k] = 0; }
    auto rest_shape = coalesce(ceil_div(cotarget, cur));
    auto rest_stride = compact_col_major(rest_shape, cur);
    return coalesce(make_layout(make_shape(to_tuple(rs), rest_shape), make_stride(to_tuple(rd), rest_stride)));
  }
}

// The static path: filter(l) and the walk by increasing stride on values.
// Modes `m` (flat, filtered, not 1:0); the result's first modes in r, error 1 when
// the layout is not injective, 2 for a negative stride; r.d[r.n] (one past) is the stride
// after the last mode.
template <std::size_t N> TESSERA_HOST_DEVICE constexpr flat_modes<N + 1> complement_values(flat_modes<N> const& m) {
  value_array<int(N)> strides{};
  for (int k = 0; k < int(N); ++k) strides.v[k] = k < m.n ? m.d[k] : INT64_MAX;  // unused slots sort last
  auto order = stable_order<int(N)>(strides);
  flat_modes<N + 1> r{};
  int64_t stride = 1;  // the stride of the next result mode
  for (int k = 0; k < m.n; ++k) {
    int const i = order.v[k];
    if (m.d[i] < 0) { r.error = 2; return r; }  // outside CuTe's complement (docs/notation.md)
    int64_t const shape = m.d[i] / stride;
    if (shape == 0) { r.error = 1; return r; }
    r.push(shape, stride);
    stride = m.d[i] * m.s[i];
  }
  r.d[r.n] = stride;
  return r;
}
// filter(l) as values: stride-0 modes become size 1, then coalesce.
template <class S, class D> TESSERA_HOST_DEVICE constexpr auto filter_values() {
  auto m = static_flat_modes<S, D>();
  for (int k = 0; k < m.n; ++k) if (m.d[k] == 0) m.s[k] = 1;
  return coalesce_values(m, false);
}
// What the static path needs, as static members: device code may use their values in
// constant expressions but not bind references to host variables.
template <class S, class D> struct static_complement_of {
  static constexpr auto filtered = filter_values<S, D>();
  static constexpr bool all_filtered = filtered.n == 1 && filtered.d[0] == 0;  // filter gave 1:0
  static constexpr auto modes = complement_values(filtered);
  static constexpr int64_t cosize = [] {  // cosize of the filtered layout
    int64_t hi = 0;
    for (int k = 0; k < filtered.n; ++k) hi += (filtered.s[k] - 1) * (filtered.d[k] < 0 ? -filtered.d[k] : filtered.d[k]);
    return hi + 1;
  }();
};

template <class S, class D, class T>
TESSERA_HOST_DEVICE constexpr auto static_complement(T const& cotarget) {
  using info = static_complement_of<S, D>;
  if constexpr (info::all_filtered) {
    return make_layout(coalesce(cotarget));
  } else {
    static_assert(info::modes.error != 2,
                  "tessera::complement: a negative stride (CuTe's complement walks non-negative strides; so does the "
                  "runtime tier, which refuses it)");
    static_assert(info::modes.error == 0,
                  "tessera::complement: the layout is not injective (a stride is smaller than the extent of the modes below it)");
    using first = flat_layout_t<info::modes>;
    auto new_stride = C<info::modes.d[info::modes.n]>{};
    auto rest_shape = coalesce(ceil_div(cotarget, new_stride));
    auto rest_stride = compact_col_major(rest_shape, new_stride);
    return coalesce(make_layout(make_shape(typename layout_parts<first>::shape{}, rest_shape),
                                make_stride(typename layout_parts<first>::stride{}, rest_stride)));
  }
}

}  // namespace detail

template <class S, class D, class T>
TESSERA_HOST_DEVICE constexpr auto complement(Layout<S, D> const& l, T const& cotarget) {
  if constexpr (detail::has_static_leaves_v<S, D>) {
    return detail::static_complement<S, D>(shape(cotarget));
  } else {
    auto f = filter(l);
    return detail::complement_(f.shape(), f.stride(), shape(cotarget));
  }
}
template <class S, class D>
TESSERA_HOST_DEVICE constexpr auto complement(Layout<S, D> const& l) {
  if constexpr (detail::has_static_leaves_v<S, D>) {
    return detail::static_complement<S, D>(C<detail::static_complement_of<S, D>::cosize>{});
  } else {
    auto f = filter(l);
    return detail::complement_(f.shape(), f.stride(), cosize(f));
  }
}

}  // namespace tessera
