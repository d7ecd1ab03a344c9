// axpby(alpha, x, beta, y): y(i) = alpha * x(i) + beta * y(i), element by element in the
// tensors' 1-D order, computed in the scalars' type and converted to y's element type
// (through float for half_t / bfloat16_t).  A beta of exactly zero does not read y (so y
// may hold garbage, e.g. an uninitialised output), as BLAS specifies.
#pragma once

#include "tessera/algorithm/detail/atom_operands.hpp"

namespace tessera {

template <class Alpha, class XTn, class Beta, class YTn>
  requires(is_tensor_v<XTn> && is_tensor_v<YTn>)
TESSERA_HOST_DEVICE TESSERA_INLINE constexpr void axpby(Alpha const& alpha, XTn const& x, Beta const& beta, YTn&& y) {
  using Y = detail::tensor_value_t<YTn>;
  using S = decltype(alpha * beta);
  if (beta == Beta(0)) {
    detail::for_each_index(size(x.layout()), [&](auto i) { y[i] = detail::convert_to<Y>(S(alpha) * detail::convert_to<S>(x[i])); });
  } else {
    detail::for_each_index(size(x.layout()), [&](auto i) {
      y[i] = detail::convert_to<Y>(S(alpha) * detail::convert_to<S>(x[i]) + S(beta) * detail::convert_to<S>(y[i]));
    });
  }
}

}  // namespace tessera
