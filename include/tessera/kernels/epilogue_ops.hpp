// The element-wise part of a GEMM epilogue, as host + device functions of f32:
//
//   D(m, n) = act(alpha * acc(m, n) + beta * C(m, n) + bias)      bias = bias[m] or bias[n]
//
// The activations are PyTorch's definitions (torch.nn.functional), so a fused GEMM gives what
// `act(x @ w.T + b)` gives there:
//   ReLU      max(x, 0)                          (NaN stays NaN, as torch.relu)
//   GELU      x/2 (1 + erf(x / sqrt 2))          torch's default, approximate='none'
//   GELUTanh  x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))   approximate='tanh' (and cuBLASLt's
//             CUBLASLT_EPILOGUE_GELU)
//   SiLU      x / (1 + exp(-x))                  (torch.nn.SiLU, "swish")
// The kernels apply them to the f32 value before it is rounded to D's element type.
// No CUDA needed: the host tests check them against the formulas in double.
#pragma once

#include <cmath>
#include <cstdint>

#include "tessera/config.hpp"

namespace tessera::kernels {

enum class Activation : std::uint8_t { Identity, ReLU, GELU, GELUTanh, SiLU };

// Which mode of D the bias vector runs along: PerRow adds bias[m] to row m (length M),
// PerColumn adds bias[n] to column n (length N; nn.Linear's bias when D = x W^T).
enum class Bias : std::uint8_t { None, PerRow, PerColumn };

inline const char* to_string(Activation a) {
  switch (a) {
    case Activation::Identity: return "identity";
    case Activation::ReLU: return "relu";
    case Activation::GELU: return "gelu";
    case Activation::GELUTanh: return "gelu_tanh";
    case Activation::SiLU: return "silu";
  }
  return "unknown activation";
}
inline const char* to_string(Bias b) {
  return b == Bias::None ? "none" : b == Bias::PerRow ? "per-row" : "per-column";
}

namespace epilogue {

TESSERA_HOST_DEVICE inline float relu(float x) { return x < 0.0f ? 0.0f : x; }

TESSERA_HOST_DEVICE inline float gelu(float x) {
  constexpr float inv_sqrt2 = 0.70710678118654752440f;
  return 0.5f * x * (1.0f + ::erff(x * inv_sqrt2));
}

TESSERA_HOST_DEVICE inline float gelu_tanh(float x) {
  constexpr float sqrt_2_over_pi = 0.79788456080286535588f;
  return 0.5f * x * (1.0f + ::tanhf(sqrt_2_over_pi * (x + 0.044715f * x * x * x)));
}

// x * sigmoid(x); for x below about -88 exp(-x) overflows to inf and the quotient is -0,
// which is the limit.
TESSERA_HOST_DEVICE inline float silu(float x) { return x / (1.0f + ::expf(-x)); }

template <Activation A>
TESSERA_HOST_DEVICE inline float activate(float x) {
  if constexpr (A == Activation::ReLU) return relu(x);
  else if constexpr (A == Activation::GELU) return gelu(x);
  else if constexpr (A == Activation::GELUTanh) return gelu_tanh(x);
  else if constexpr (A == Activation::SiLU) return silu(x);
  else return x;
}

TESSERA_HOST_DEVICE inline float activate(Activation a, float x) {
  switch (a) {
    case Activation::ReLU: return relu(x);
    case Activation::GELU: return gelu(x);
    case Activation::GELUTanh: return gelu_tanh(x);
    case Activation::SiLU: return silu(x);
    default: return x;
  }
}

// The bias element for D(m, n): the broadcast of a vector along one mode.
TESSERA_HOST_DEVICE inline std::int64_t bias_index(Bias b, std::int64_t m, std::int64_t n) {
  return b == Bias::PerRow ? m : n;
}

// One output value before rounding: act(alpha * acc + beta * c + bias). c and bias are 0
// where C is not read or there is no bias (the kernels skip the terms; adding 0 is the same
// value except for -0: act(-0 + 0) = act(+0), which no activation tells apart beyond the sign).
template <Activation A>
TESSERA_HOST_DEVICE inline float value(float alpha, float acc, float beta, float c, float bias) {
  return activate<A>(alpha * acc + beta * c + bias);
}

}  // namespace epilogue
}  // namespace tessera::kernels
