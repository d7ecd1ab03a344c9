#pragma once
// max_common_layout(a, b): R with a(R(i)) == i and b(R(i)) == i for the largest
// contiguous static prefix; max_common_vector(a, b) = its size.
// Both read the first mode of coalesce(a o right_inverse(b)); that composition may be
// inadmissible as a whole, so for static inputs the claimed prefix is verified and
// the answer falls back to 1 when it does not hold.
#include "composition.hpp"
#include "inverse.hpp"

namespace tessera {

namespace detail {
template <class A, class B, class R>
TESSERA_HOST_DEVICE constexpr bool common_prefix_holds(A const& a, B const& b, R const& r) {
  auto fa = to_flat_function(a);
  auto fb = to_flat_function(b);
  auto fr = to_flat_function(r);
  int64_t n = to_i64(size(r));
  for (int64_t i = 0; i < n; ++i) {
    int64_t x = fr(i);
    if (fa(x) != i || fb(x) != i) return false;
  }
  return true;
}
template <class SA, class DA, class SB, class DB>
TESSERA_HOST_DEVICE constexpr auto max_common_(Layout<SA, DA> const& a, Layout<SB, DB> const& b) {
  auto inv_b = right_inverse(b);
  auto common = coalesce(composition_unchecked(a, inv_b));
  if constexpr (is_static_v<decltype(shape<0>(common))> && is_constant_v<1, decltype(stride<0>(common))>) {
    auto r = composition_unchecked(inv_b, layout<0>(common));
    if constexpr (is_static_v<Layout<SA, DA>> && is_static_v<Layout<SB, DB>>) {
      if constexpr (common_prefix_holds(Layout<SA, DA>{}, Layout<SB, DB>{}, decltype(r){})) return make_tuple(r, shape<0>(common));
      else return make_tuple(Layout<C<1>, C<0>>{}, C<1>{});
    } else {
      return make_tuple(r, shape<0>(common));
    }
  } else {
    return make_tuple(Layout<C<1>, C<0>>{}, C<1>{});
  }
}
}  // namespace detail

template <class SA, class DA, class SB, class DB>
TESSERA_HOST_DEVICE constexpr auto max_common_layout(Layout<SA, DA> const& a, Layout<SB, DB> const& b) {
  return get<0>(detail::max_common_(a, b));
}
template <class SA, class DA, class SB, class DB>
TESSERA_HOST_DEVICE constexpr auto max_common_vector(Layout<SA, DA> const& a, Layout<SB, DB> const& b) {
  return get<1>(detail::max_common_(a, b));
}

}  // namespace tessera
