#pragma once
// coalesce: the same function on [0, size) with as few modes as possible.
// Only modes whose merge is statically known to be valid are merged
// (s_i * d_i == d_{i+1}); static size-1 modes are dropped; all-size-1 gives 1:0.
#include "../layout.hpp"
#include "static_leaves.hpp"

namespace tessera {

template <class S, class D> struct is_static<Layout<S, D>> : std::bool_constant<is_static_v<S> && is_static_v<D>> {};

namespace detail {
// Walk the flat modes from the back, keeping (new_shape, new_stride) as the result so far.
template <int I, class OS, class OD, class NS, class ND>
TESSERA_HOST_DEVICE constexpr auto bw_coalesce(OS const& os, OD const& od, NS const& ns, ND const& nd) {
  if constexpr (I == -1) {
    if constexpr (is_constant_v<1, NS>) return Layout<C<1>, C<0>>{};
    else return make_layout(ns, nd);
  } else if constexpr (is_constant_v<1, decltype(get<I>(os))>) {
    return bw_coalesce<I - 1>(os, od, ns, nd);  // size-1 mode: skip
  } else if constexpr (is_constant_v<1, NS>) {
    return bw_coalesce<I - 1>(os, od, get<I>(os), get<I>(od));  // replace the size-1 start
  } else if constexpr (is_constant_v<1, decltype(get<I>(os) * get<I>(od) == get<0>(nd))>) {
    return bw_coalesce<I - 1>(os, od, replace_front(ns, get<I>(os) * get<0>(ns)), replace_front(nd, get<I>(od)));
  } else {
    return bw_coalesce<I - 1>(os, od, prepend(ns, get<I>(os)), prepend(nd, get<I>(od)));
  }
}
// bw_coalesce on the values of static modes (the same walk, as a loop). keep_end: the
// start of coalesce_x (a trailing size-1 mode starts as size 2, keeping its stride).
template <std::size_t N>
TESSERA_HOST_DEVICE constexpr flat_modes<N> coalesce_values(flat_modes<N> const& in, bool keep_end) {
  flat_modes<N> back{};  // the result so far, back to front: back.s[back.n - 1] is its front
  int const R = in.n;
  back.push(keep_end && in.s[R - 1] == 1 ? 2 : in.s[R - 1], in.d[R - 1]);
  for (int i = R - 2; i >= 0; --i) {
    if (in.s[i] == 1) continue;  // size-1 mode: skip
    if (back.n == 1 && back.s[0] == 1) { back.s[0] = in.s[i]; back.d[0] = in.d[i]; }  // replace the size-1 start
    else if (in.s[i] * in.d[i] == back.d[back.n - 1]) { back.s[back.n - 1] *= in.s[i]; back.d[back.n - 1] = in.d[i]; }
    else back.push(in.s[i], in.d[i]);
  }
  flat_modes<N> out{};
  if (back.n == 1 && back.s[0] == 1) { out.push(1, 0); return out; }
  for (int k = back.n - 1; k >= 0; --k) out.push(back.s[k], back.d[k]);
  return out;
}
template <class S, class D, bool KeepEnd>
inline constexpr auto static_coalesced_v = coalesce_values(static_flat_modes<S, D>(), KeepEnd);
template <class S, class D> inline constexpr bool has_static_leaves_v =
    is_static_v<S> && is_static_v<D> && (static_leaves<S>::count > 0);

template <class T> TESSERA_HOST_DEVICE constexpr auto unwrap1(T const& t) {
  if constexpr (is_tuple_v<T> && rank_v<T> == 1) return get<0>(t); else return t;
}
template <class L> TESSERA_HOST_DEVICE constexpr auto unwrap_layout(L const& l) {
  return make_layout(unwrap1(l.shape()), unwrap1(l.stride()));
}

// coalesce_x: like coalesce but also keeps the function outside the domain
// (a trailing static size-1 mode keeps its stride); composition starts from it.
template <class S, class D> TESSERA_HOST_DEVICE constexpr auto coalesce_x(Layout<S, D> const& l) {
  if constexpr (has_static_leaves_v<S, D>) {
    return flat_layout_t<static_coalesced_v<S, D, true>>{};
  } else {
    auto fs = flatten_to_tuple(l.shape());
    auto fd = flatten_to_tuple(l.stride());
    constexpr int R = rank_v<decltype(fs)>;
    if constexpr (is_constant_v<1, decltype(get<R - 1>(fs))>)
      return unwrap_layout(bw_coalesce<R - 2>(fs, fd, C<2>{}, get<R - 1>(fd)));
    else
      return unwrap_layout(bw_coalesce<R - 2>(fs, fd, get<R - 1>(fs), get<R - 1>(fd)));
  }
}
}  // namespace detail

template <class S, class D> TESSERA_HOST_DEVICE constexpr auto coalesce(Layout<S, D> const& l) {
  if constexpr (detail::has_static_leaves_v<S, D>) {
    return detail::flat_layout_t<detail::static_coalesced_v<S, D, false>>{};
  } else {
    auto fs = flatten_to_tuple(l.shape());
    auto fd = flatten_to_tuple(l.stride());
    constexpr int R = rank_v<decltype(fs)>;
    return detail::unwrap_layout(detail::bw_coalesce<R - 2>(fs, fd, get<R - 1>(fs), get<R - 1>(fd)));
  }
}

// coalesce(layout, profile): coalesce each mode at the leaves of the profile;
// modes past the profile are kept as they are.
template <class S, class D, class P> TESSERA_HOST_DEVICE constexpr auto coalesce(Layout<S, D> const& l, P const& profile) {
  if constexpr (is_tuple_v<P>) {
    static_assert(rank_v<P> <= rank_v<S>, "tessera::coalesce: profile has more modes than the layout");
    return transform_layout(l, profile, [](auto const& m, auto const& p) { return coalesce(m, p); });
  } else {
    return coalesce(l);
  }
}

// coalesce(shape): multiply neighbouring leaves of the same kind (static or dynamic).
template <class T> requires(!is_layout_v<T>) TESSERA_HOST_DEVICE constexpr auto coalesce(T const& shape) {
  auto f = flatten_to_tuple(shape);
  auto r = fold(take<1, rank_v<decltype(f)>>(f), make_tuple(get<0>(f)), [](auto const& init, auto const& a) {
    if constexpr (is_static_v<decltype(back(init))> == is_static_v<decltype(a)>) return replace_back(init, back(init) * a);
    else return append(init, a);
  });
  return unwrap(r);
}

}  // namespace tessera
