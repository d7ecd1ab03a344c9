#pragma once
// right_inverse(A): R with A(R(i)) == i for i < size(R) (the largest such compact prefix).
// left_inverse(A):  L with L(A(i)) == i for i < size(A) when A is injective.
// Both walk A's coalesced modes by increasing stride. Static strides follow CuTe;
// dynamic strides are ordered at run time (CuTe drops them from right_inverse and
// rejects them in left_inverse).
#include "coalesce.hpp"
#include "sort_detail.hpp"

namespace tessera {

namespace detail {
// The modes in CuTe's exchange-sort order of their strides (see exchange_order).
template <class S, class D, class F>
TESSERA_HOST_DEVICE constexpr auto static_sorted_fold(S const& shape, D const& stride, auto init, F&& f) {
  constexpr auto order = exchange_order_v<D>;
  return [&]<std::size_t... K>(std::index_sequence<K...>) {
    return fold(make_tuple(C<order.v[K]>{}...), init, f);
  }(seq_of<D>{});
}
// The static paths: the same walks on the values of coalesce(l), by increasing stride.
template <std::size_t N> struct sorted_modes {
  flat_modes<N> m;
  int64_t preprod[N > 0 ? N : 1];
  index_array<int(N)> order;
};
template <std::size_t N> TESSERA_HOST_DEVICE constexpr sorted_modes<N> sort_modes(flat_modes<N> const& m) {
  sorted_modes<N> r{m, {}, {}};
  value_array<int(N)> strides{};
  int64_t p = 1;
  for (int k = 0; k < int(N); ++k) {
    strides.v[k] = k < m.n ? m.d[k] : INT64_MAX;  // unused slots sort last
    if (k < m.n) { r.preprod[k] = p; p *= m.s[k]; }
  }
  r.order = stable_order<int(N)>(strides);
  return r;
}
template <std::size_t N> TESSERA_HOST_DEVICE constexpr flat_modes<N + 1> right_inverse_values(flat_modes<N> const& m) {
  auto const o = sort_modes(m);
  flat_modes<N + 1> r{};
  r.push(1, 0);
  int64_t cur = 1;
  for (int k = 0; k < m.n; ++k) {
    int const i = o.order.v[k];
    if (m.d[i] == cur) { r.push(m.s[i], o.preprod[i]); cur = m.s[i] * m.d[i]; }
  }
  return coalesce_values(r, false);
}
template <std::size_t N> TESSERA_HOST_DEVICE constexpr flat_modes<N + 1> left_inverse_values(flat_modes<N> const& m) {
  auto const o = sort_modes(m);
  flat_modes<N + 1> r{};  // shapes in s, strides in d: one behind until the end
  int64_t collected = 1;    // size of the shapes so far
  int c = 0;
  r.d[0] = 0;
  for (int k = 0; k < m.n; ++k) {
    int const i = o.order.v[k];
    if (m.d[i] == 0) continue;
    if (m.d[i] % collected != 0) { r.error = 1; return r; }
    r.s[c] = m.d[i] / collected;
    collected *= r.s[c];
    r.d[++c] = o.preprod[i];
  }
  r.s[c] = m.s[o.order.v[m.n - 1]];
  r.n = c + 1;
  auto out = coalesce_values(r, false);
  return out;
}
template <class S, class D> inline constexpr auto static_right_inverse_v = right_inverse_values(static_coalesced_v<S, D, false>);
template <class S, class D> inline constexpr auto static_left_inverse_v = left_inverse_values(static_coalesced_v<S, D, false>);
template <class S, class D>
TESSERA_HOST_DEVICE constexpr auto right_inverse_(Layout<S, D> const& l) {
  auto cl = coalesce(l);
  auto lshape = wrap(cl.shape());
  auto lstride = wrap(cl.stride());
  auto preprod = prefix_product(lshape);
  if constexpr (is_static_v<decltype(lstride)>) {
    auto r = detail::static_sorted_fold(lshape, lstride, make_tuple(make_tuple(C<1>{}), make_tuple(C<0>{}), C<1>{}),
      [&](auto const& init, auto i) {
        constexpr std::size_t k = decltype(i)::value;
        using Di = std::remove_cvref_t<decltype(get<k>(lstride))>;
        if constexpr (is_constant_v<Di::value, decltype(get<2>(init))>) {
          return make_tuple(append(get<0>(init), get<k>(lshape)), append(get<1>(init), get<k>(preprod)), get<k>(lshape) * get<k>(lstride));
        } else {
          return init;
        }
      });
    return coalesce(make_layout(get<0>(r), get<1>(r)));
  } else {
    constexpr int R = rank_v<decltype(lshape)>;
    auto sh = detail::to_values(lshape);
    auto sd = detail::to_values(lstride);
    auto pp = detail::to_values(preprod);
    auto order = detail::exchange_order<R>(sd);
    detail::value_array<R> rs{}, rd{};
    int64_t cur = 1;
    for (int k = 0; k < R; ++k) { rs.v[k] = 1; rd.v[k] = 0; }
    for (int k = 0, m = 0; k < R; ++k) {
      int i = order.v[k];
      if (sd.v[i] == cur && sh.v[i] != 1) { rs.v[m] = sh.v[i]; rd.v[m] = pp.v[i]; cur = sh.v[i] * sd.v[i]; ++m; }
    }
    return coalesce(make_layout(detail::to_tuple(rs), detail::to_tuple(rd)));
  }
}

template <class S, class D>
TESSERA_HOST_DEVICE constexpr auto left_inverse_(Layout<S, D> const& l) {
  auto cl = coalesce(l);
  auto lshape = wrap(cl.shape());
  auto lstride = wrap(cl.stride());
  auto preprod = prefix_product(lshape);
  if constexpr (is_static_v<decltype(lstride)>) {
    constexpr auto order = detail::exchange_order_v<decltype(lstride)>;
    auto r = detail::static_sorted_fold(lshape, lstride, make_tuple(tuple<>{}, make_tuple(C<0>{})),
      [&](auto const& init, auto i) {
        constexpr std::size_t k = decltype(i)::value;
        auto istride = get<k>(lstride);
        if constexpr (is_constant_v<0, decltype(istride)>) {
          return init;
        } else {
          static_assert(decltype(istride % size(get<0>(init)))::value == 0,
                        "tessera::left_inverse: divisibility condition violated (a stride is not a multiple of the extent below it; "
                        "the layout is not injective)");
          return make_tuple(append(get<0>(init), istride / size(get<0>(init))), append(get<1>(init), get<k>(preprod)));
        }
      });
    return coalesce(make_layout(append(get<0>(r), get<order.v[rank_v<decltype(lstride)> - 1]>(lshape)), get<1>(r)));
  } else {
    constexpr int R = rank_v<decltype(lshape)>;
    auto sh = detail::to_values(lshape);
    auto sd = detail::to_values(lstride);
    auto pp = detail::to_values(preprod);
    auto order = detail::stable_order<R>(sd);
    detail::value_array<R + 1> rs{}, rd{};
    int64_t cur = 1;
    int m = 0;
    rd.v[0] = 0;
    for (int k = 0; k < R; ++k) {
      int i = order.v[k];
      if (sd.v[i] == 0 || sh.v[i] == 1) continue;
      TESSERA_EXPECTS(sd.v[i] % cur == 0, "tessera::left_inverse: the layout is not injective");
      rs.v[m] = sd.v[i] / cur;
      rd.v[m + 1] = pp.v[i];
      cur *= rs.v[m];
      ++m;
    }
    // last mode: the extent of the largest-stride mode
    int last = -1;
    for (int k = 0; k < R; ++k) { int i = order.v[k]; if (sd.v[i] != 0 && sh.v[i] != 1) last = i; }
    rs.v[m] = last >= 0 ? sh.v[last] : 1;
    for (int k = m + 1; k < R + 1; ++k) { rs.v[k] = 1; rd.v[k] = 0; }
    return coalesce(make_layout(detail::to_tuple(rs), detail::to_tuple(rd)));
  }
}

}  // namespace detail

template <class S, class D>
TESSERA_HOST_DEVICE constexpr auto right_inverse(Layout<S, D> const& l) {
  if constexpr (detail::has_static_leaves_v<S, D>) {
    return detail::flat_layout_t<detail::static_right_inverse_v<S, D>>{};
  } else {
    return detail::right_inverse_(l);
  }
}
template <class S, class D>
TESSERA_HOST_DEVICE constexpr auto left_inverse(Layout<S, D> const& l) {
  if constexpr (detail::has_static_leaves_v<S, D>) {
    static_assert(detail::static_left_inverse_v<S, D>.error == 0,
                  "tessera::left_inverse: divisibility condition violated (a stride is not a multiple of the extent below it; "
                  "the layout is not injective)");
    return detail::flat_layout_t<detail::static_left_inverse_v<S, D>>{};
  } else {
    return detail::left_inverse_(l);
  }
}

}  // namespace tessera
