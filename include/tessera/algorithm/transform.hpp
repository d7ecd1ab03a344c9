// transform(tensor, f): t(i) = f(t(i)) in place;  transform(src, dst, f): dst(i) = f(src(i));
// transform(a, b, dst, f): dst(i) = f(a(i), b(i)).  In the tensors' 1-D order; static sizes
// unroll with constant indices.  The result is converted to dst's element type (through
// float for half_t / bfloat16_t / tfloat32_t): e.g. an fp32 accumulator fragment into an
// fp16 output fragment with transform(acc, out, [](float x) { return x; }).
#pragma once

#include "tessera/algorithm/detail/atom_operands.hpp"

namespace tessera {

template <class Tn, class F>
  requires is_tensor_v<Tn>
TESSERA_HOST_DEVICE TESSERA_INLINE constexpr void transform(Tn&& t, F&& f) {
  using V = detail::tensor_value_t<Tn>;
  detail::for_each_index(size(t.layout()), [&](auto i) { t[i] = detail::convert_to<V>(f(t[i])); });
}
template <class STn, class DTn, class F>
  requires(is_tensor_v<STn> && is_tensor_v<DTn>)
TESSERA_HOST_DEVICE TESSERA_INLINE constexpr void transform(STn const& src, DTn&& dst, F&& f) {
  using V = detail::tensor_value_t<DTn>;
  detail::for_each_index(size(src.layout()), [&](auto i) { dst[i] = detail::convert_to<V>(f(src[i])); });
}
template <class ATn, class BTn, class DTn, class F>
  requires(is_tensor_v<ATn> && is_tensor_v<BTn> && is_tensor_v<DTn>)
TESSERA_HOST_DEVICE TESSERA_INLINE constexpr void transform(ATn const& a, BTn const& b, DTn&& dst, F&& f) {
  using V = detail::tensor_value_t<DTn>;
  detail::for_each_index(size(a.layout()), [&](auto i) { dst[i] = detail::convert_to<V>(f(a[i], b[i])); });
}

}  // namespace tessera
