// Loops whose index is a compile-time constant in every iteration, so that a static layout
// evaluated at it folds to an immediate offset (and register fragments stay in registers).
#pragma once

#include <cstddef>
#include <utility>

#include "tessera/int_tuple.hpp"

namespace tessera::detail {

// f(C<0>{}), ..., f(C<N-1>{}).
template <int64_t N, class F>
TESSERA_HOST_DEVICE TESSERA_INLINE constexpr void static_for(F&& f) {
  [&]<std::size_t... I>(std::index_sequence<I...>) { (f(C<int64_t(I)>{}), ...); }(std::make_index_sequence<std::size_t(N)>{});
}
// static_for whose expansion is a force-inlined function rather than a lambda: nvcc may
// outline static_for's lambda in a large kernel, and a register tensor that f captures by
// reference (a GEMM's accumulators) then goes through the stack.  For such loops only: the
// other kernels keep static_for's code as it is.
template <class F, std::size_t... I>
TESSERA_HOST_DEVICE TESSERA_INLINE constexpr void static_for_each_inlined(F& f, std::index_sequence<I...>) {
  (f(C<int64_t(I)>{}), ...);
}
template <int64_t N, class F>
TESSERA_HOST_DEVICE TESSERA_INLINE constexpr void static_for_inlined(F&& f) {
  static_for_each_inlined(f, std::make_index_sequence<std::size_t(N)>{});
}
// f(i) for i in [0, n): unrolled with constant indices when n is static, a loop otherwise.
template <class N, class F>
TESSERA_HOST_DEVICE TESSERA_INLINE constexpr void for_each_index(N const& n, F&& f) {
  if constexpr (is_static_v<N>) {
    static_for<N::value>(f);
  } else {
    for (int64_t i = 0; i < int64_t(n); ++i) f(i);
  }
}

}  // namespace tessera::detail
