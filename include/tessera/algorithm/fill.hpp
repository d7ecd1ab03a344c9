// fill(tensor, v): every element of a tensor (an owning one, or a view such as a slice of
// one) set to v;  clear(tensor): to the value-initialised element (zero for numbers).
// Static sizes unroll with constant indices (register fragments stay in registers).
#pragma once

#include "tessera/algorithm/detail/static_for.hpp"
#include "tessera/tensor.hpp"

namespace tessera {

template <class Tn, class V>
  requires is_tensor_v<Tn>
TESSERA_HOST_DEVICE TESSERA_INLINE constexpr void fill(Tn&& t, V const& v) {
  detail::for_each_index(size(t.layout()), [&](auto i) { t[i] = v; });
}
template <class Tn>
  requires is_tensor_v<Tn>
TESSERA_HOST_DEVICE TESSERA_INLINE constexpr void clear(Tn&& t) {
  fill(t, std::remove_cvref_t<decltype(t[0])>{});
}

}  // namespace tessera
