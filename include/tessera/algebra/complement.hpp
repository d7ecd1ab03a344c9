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

}  // namespace detail

template <class S, class D, class T>
TESSERA_HOST_DEVICE constexpr auto complement(Layout<S, D> const& l, T const& cotarget) {
  auto f = filter(l);
  return detail::complement_(f.shape(), f.stride(), shape(cotarget));
}
template <class S, class D>
TESSERA_HOST_DEVICE constexpr auto complement(Layout<S, D> const& l) {
  auto f = filter(l);
  return detail::complement_(f.shape(), f.stride(), cosize(f));
}

}  // namespace tessera
