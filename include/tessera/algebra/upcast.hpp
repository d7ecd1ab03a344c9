#pragma once
// upcast<N>: view a layout of elements as a layout of N-element vectors
// (stride-1 modes shrink by N, other strides are divided by N);
// downcast<N>: the reverse (stride-1 modes grow by N, other strides times N).
#include "../layout.hpp"

namespace tessera {

template <int N, class S, class D>
TESSERA_HOST_DEVICE constexpr auto upcast(S const& shape, D const& stride) {
  if constexpr (is_tuple_v<S>) {
    return transform_layout(shape, stride, [](auto const& s, auto const& d) { return upcast<N>(s, d); });
  } else if constexpr (is_constant_v<0, D>) {
    return make_layout(shape, stride);
  } else if constexpr (is_static_v<D>) {
    static_assert(D::value % N == 0 || N % D::value == 0, "tessera::upcast: stride and N do not divide each other");
    return make_layout(ceil_div(shape, ceil_div(C<N>{}, abs(stride))), signum(stride) * ceil_div(abs(stride), C<N>{}));
  } else {
    return make_layout(shape, safe_div(stride, C<N>{}));
  }
}
template <int N, class S, class D> TESSERA_HOST_DEVICE constexpr auto upcast(Layout<S, D> const& l) { return upcast<N>(l.shape(), l.stride()); }

template <int N, class S, class D>
TESSERA_HOST_DEVICE constexpr auto downcast(S const& shape, D const& stride) {
  if constexpr (is_tuple_v<S>) {
    return transform_layout(shape, stride, [](auto const& s, auto const& d) { return downcast<N>(s, d); });
  } else if constexpr (is_constant_v<1, D> || is_constant_v<-1, D>) {
    return make_layout(shape * C<N>{}, stride);
  } else {
    return make_layout(shape, stride * C<N>{});
  }
}
template <int N, class S, class D> TESSERA_HOST_DEVICE constexpr auto downcast(Layout<S, D> const& l) { return downcast<N>(l.shape(), l.stride()); }

}  // namespace tessera
