// The SFU's approximate functions, one instruction each on the device, shared by the kernels
// that trade the last ulps of a library function for its range checks and slow paths (the
// epilogue's activations, the attention softmax's exponentials). The host fallbacks are
// std::exp2 and a correctly rounded divide, so host emulations differ from the device by the
// bounds below, which their tests allow.
//   exp2(t)  ex2.approx.ftz.f32: relative error at most 2 ulp (the CUDA guide's exp2f bound,
//            which is this instruction); results below 2^-126 flushed to 0
//   rcp(d)   rcp.approx.ftz.f32: at most 1 ulp; subnormal results flushed to 0
#pragma once

#include <cmath>

#include "tessera/config.hpp"

namespace tessera::kernels::approx {

// log2(e): exp(x) = 2^(x log2 e), how the kernels reach exp through exp2's one instruction.
inline constexpr float log2e = 1.44269504088896340736f;

TESSERA_HOST_DEVICE TESSERA_INLINE float exp2(float t) {
#if defined(__CUDA_ARCH__)
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(t));
  return y;
#else
  return std::exp2(t);
#endif
}

TESSERA_HOST_DEVICE TESSERA_INLINE float rcp(float d) {
#if defined(__CUDA_ARCH__)
  float y;
  asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(d));
  return y;
#else
  return 1.0f / d;
#endif
}

}  // namespace tessera::kernels::approx
