// f32 <-> bf16 / f16 (and f32 -> e4m3) in the epilogue with the hardware's conversions (cvt.rn): numeric.hpp's
// portable round-to-nearest-even is many integer instructions with branches per value, which
// a 128-value epilogue between mainloops cannot afford (it triples the f16 kernel's code).
// Same rounding: IEEE round to nearest even.
#pragma once

#include <cstdint>

#include <tessera/atom/numeric.hpp>

namespace tessera::kernels::arch {

template <class T>
__device__ __forceinline__ T from_f32(float x) {
  if constexpr (std::is_same_v<T, bfloat16_t> || std::is_same_v<T, half_t>) {
#if defined(__CUDA_ARCH__)
    uint16_t b;
    if constexpr (std::is_same_v<T, bfloat16_t>) asm("cvt.rn.bf16.f32 %0, %1;\n" : "=h"(b) : "f"(x));
    else asm("cvt.rn.f16.f32 %0, %1;\n" : "=h"(b) : "f"(x));
    return T::from_bits(b);
#else
    return T(x);
#endif
  } else if constexpr (std::is_same_v<T, float_e4m3_t>) {
    // (e4m3 D: the only f32 -> e4m3 conversion of the ISA saturates; values past +-448 clamp
    // there, where numeric.hpp's IEEE-style conversion gives NaN: the quantized-output tree
    // clamps before the rounding, so both agree on every value it stores)
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
    uint16_t b;
    asm("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;\n" : "=h"(b) : "f"(0.0f), "f"(x));  // (x in the low byte)
    return T::from_bits(uint8_t(b & 0xffu));
#else
    return T(x);
#endif
  } else {
    return T(x);
  }
}

// Two values in one instruction (cvt.rn.bf16x2.f32 / cvt.rn.f16x2.f32: the epilogue's
// 16-bit staging converts its values in pairs), the same rounding as from_f32.
template <class T>
__device__ __forceinline__ void from_f32x2(float lo, float hi, T& a, T& b) {
#if defined(__CUDA_ARCH__)
  if constexpr (std::is_same_v<T, bfloat16_t> || std::is_same_v<T, half_t>) {
    uint32_t w;
    // (the first source goes to the upper half)
    if constexpr (std::is_same_v<T, bfloat16_t>) asm("cvt.rn.bf16x2.f32 %0, %1, %2;\n" : "=r"(w) : "f"(hi), "f"(lo));
    else asm("cvt.rn.f16x2.f32 %0, %1, %2;\n" : "=r"(w) : "f"(hi), "f"(lo));
    a = T::from_bits(uint16_t(w & 0xffffu));
    b = T::from_bits(uint16_t(w >> 16));
  } else
#endif
  {
    a = from_f32<T>(lo);
    b = from_f32<T>(hi);
  }
}

template <class T>
__device__ __forceinline__ float to_f32(T x) {
  if constexpr (std::is_same_v<T, half_t>) {
#if defined(__CUDA_ARCH__)
    float f;
    asm("cvt.f32.f16 %0, %1;\n" : "=f"(f) : "h"(x.bits));
    return f;
#else
    return x.to_float();
#endif
  } else {
    return float(x);
  }
}

}  // namespace tessera::kernels::arch
