// convert(src, dst): dst(i) = src(i) rounded to dst's element type, in the tensors' 1-D order
// (static sizes unroll with constant indices). f32 -> bf16 / f16 takes the hardware's
// conversion on the device, two values per instruction (cvt.rn.bf16x2.f32 / cvt.rn.f16x2.f32
// on the pairs (2j, 2j+1); an odd last value alone), and numeric.hpp's round-to-nearest-even
// on the host: the same rounding, bit for bit. Other types convert as transform does.
//
// Why an epilogue wants it: numeric.hpp's portable rounding is a dozen integer instructions
// per value, and its bit arithmetic makes the compiler carry f32 accumulators as integers
// across a mainloop; the moves back to float registers before each wgmma then read the
// accumulators of wgmmas in flight, and ptxas serializes the wgmmas (warning C7514).
#pragma once

#include <type_traits>

#include "tessera/algorithm/detail/atom_operands.hpp"

namespace tessera {

namespace detail {
template <class T> inline constexpr bool is_half_width_float_v = std::is_same_v<T, bfloat16_t> || std::is_same_v<T, half_t>;

// Two f32 values rounded to 16-bit floats (lo -> a, hi -> b).
template <class T>
TESSERA_HOST_DEVICE TESSERA_INLINE void round_pair(float lo, float hi, T& a, T& b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  uint32_t w;
  // (the first source operand goes to the upper half)
  if constexpr (std::is_same_v<T, bfloat16_t>) asm("cvt.rn.bf16x2.f32 %0, %1, %2;\n" : "=r"(w) : "f"(hi), "f"(lo));
  else asm("cvt.rn.f16x2.f32 %0, %1, %2;\n" : "=r"(w) : "f"(hi), "f"(lo));
  a = T::from_bits(uint16_t(w & 0xffffu));
  b = T::from_bits(uint16_t(w >> 16));
#else
  a = T(lo);
  b = T(hi);
#endif
}
}  // namespace detail

template <class STn, class DTn>
  requires(is_tensor_v<STn> && is_tensor_v<DTn>)
TESSERA_HOST_DEVICE TESSERA_INLINE constexpr void convert(STn const& src, DTn&& dst) {
  using S = detail::tensor_value_t<STn>;
  using D = detail::tensor_value_t<DTn>;
  constexpr bool pairs = std::is_same_v<S, float> && detail::is_half_width_float_v<D>;
  if constexpr (pairs && is_static_v<std::remove_cvref_t<decltype(size(src.layout()))>>) {
    constexpr int64_t n = decltype(size(src.layout()))::value;
    detail::static_for<n / 2>([&](auto j) {
      constexpr int64_t i = 2 * decltype(j)::value;
      detail::round_pair(src[C<i>{}], src[C<i + 1>{}], dst[C<i>{}], dst[C<i + 1>{}]);
    });
    if constexpr (n % 2 == 1) dst[C<n - 1>{}] = D(float(src[C<n - 1>{}]));
  } else {
    detail::for_each_index(size(src.layout()), [&](auto i) { dst[i] = detail::convert_to<D>(src[i]); });
  }
}

}  // namespace tessera
