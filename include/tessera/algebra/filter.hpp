#pragma once
// filter: drop stride-0 and size-1 modes, then coalesce.
#include "coalesce.hpp"

namespace tessera {

// filter_zeros: modes with a static 0 stride get size 1.
template <class S, class D> TESSERA_HOST_DEVICE constexpr auto filter_zeros(Layout<S, D> const& l) {
  auto s = transform_leaf(l.stride(), l.shape(), [](auto const& d, auto const& s) {
    if constexpr (is_constant_v<0, decltype(d)>) return C<1>{}; else return s;
  });
  return make_layout(s, l.stride());
}

template <class S, class D> TESSERA_HOST_DEVICE constexpr auto filter(Layout<S, D> const& l) { return coalesce(filter_zeros(l)); }

template <class S, class D, class P> TESSERA_HOST_DEVICE constexpr auto filter(Layout<S, D> const& l, P const& profile) {
  if constexpr (is_tuple_v<P>) {
    static_assert(rank_v<P> <= rank_v<S>, "tessera::filter: profile has more modes than the layout");
    return transform_layout(l, profile, [](auto const& m, auto const& p) { return filter(m, p); });
  } else {
    return filter(l);
  }
}

}  // namespace tessera
