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
// The kernels apply them to the f32 value before it is rounded to D's element type, by the
// branch-free formulas of epilogue::fast (see there: their error bounds); the host by the
// library's functions. No CUDA needed: the host tests check both against the formulas in double.
#pragma once

#include <cmath>
#include <cstdint>

#include "tessera/config.hpp"
#include "tessera/kernels/approx_math.hpp"

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

// The device evaluates GELU, GELU (tanh) and SiLU by the branch-free formulas of `fast` below
// (a few instructions each, no libdevice slow paths, no per-value constant loads); the host
// keeps the library's erff / tanhf / expf, which the host emulations and references use.
// The bound of all three: |fast(x) - f(x)| <= 4.5 eps |x| on the device (eps = 2^-23), the
// f32 library formulas' class (their bracket 1 + erf, 1 + tanh is rounded near 1: an absolute
// error of about |x| eps/2), and a few ulp of the value where it is not a tail's (x >= -2: at
// most 16 eps relative). Measured with the host fallbacks of ex2 and rcp over a dense sweep
// (tests/kernels/epilogue_ops_test.cpp, which holds them to 2 eps |x|): GELU 1.4, GELU (tanh)
// 1.2, SiLU 1.2 eps |x|; relative for x >= -2: 8.4, 3.9, 1.8 eps. The device's
// ex2.approx and rcp.approx add at most 3 ulp of the value (<= 3 eps |x|).
namespace fast {

// x * sigmoid(s) given t = -s log2(e): x / (1 + 2^t). 1 + 2^t >= 1, so the reciprocal never
// divides by 0; where 2^t overflows (s below about -88) it is 0 and the product is -0 or +0 (the
// limit); where 2^t underflows (s above about 88) the product is x. A NaN x or t stays NaN.
// Error: 2^t carries 2 ulp (ex2) plus ln 2 |dt| from t's own rounding; 1 + 2^t passes it on
// scaled by 2^t / (1 + 2^t) = 1 - sigmoid(s), the reciprocal adds 1 ulp and the product 1/2.
// So the relative error grows as 0.7 |t| ulp only where s < 0, where the value is about
// |x| 2^-t: the absolute error stays below a few eps |x|.
TESSERA_HOST_DEVICE TESSERA_INLINE float times_logistic(float x, float t) { return x * approx::rcp(1.0f + approx::exp2(t)); }

// SiLU: x sigmoid(x) = x / (1 + 2^(-x log2 e)). Relative error about (4 + |x|) ulp for x < 0
// (measured 7.8 eps at x = -12, where silu = -7e-5), 4 ulp for x >= 0. Limits: x -> +inf gives x; finite
// x below about -88 gives -0 (the exact value is below 2^-120); silu(-inf) = NaN (-inf * 0: the
// library formula x / (1 + expf(-x)) gives -inf / inf = NaN too); NaN stays NaN.
TESSERA_HOST_DEVICE TESSERA_INLINE float silu(float x) { return times_logistic(x, x * -approx::log2e); }

// GELU (tanh): x/2 (1 + tanh(u)) = x sigmoid(2u), u = sqrt(2/pi) (x + 0.044715 x^3), so
// t = -2u log2 e = x (k0 + k1 x^2): two multiplies and an FMA. Relative error about
// (5 + 0.7 t) ulp for x < 0 (t > 0; t = 5.4 at x = -2, 16 at x = -4 where the value is
// |x| 2^-16), 5 ulp for x >= 0. Limits: x -> +inf gives x (t -> -inf); finite x below about -10
// gives -0 (t past 128); x = -inf itself gives NaN (-inf * 0), as tanhf's formula
// 0.5 x (1 + tanh) does; NaN stays NaN.
TESSERA_HOST_DEVICE TESSERA_INLINE float gelu_tanh(float x) {
  constexpr float k0 = -2.0f * 0.79788456080286535588f * approx::log2e;  // -2 sqrt(2/pi) log2 e
  constexpr float k1 = k0 * 0.044715f;
  return times_logistic(x, x * (k0 + k1 * (x * x)));
}

// GELU (erf): x Phi(x), Phi the normal distribution, written as x sigmoid(g(x)) with
// g = logit(Phi) = ln(Phi(x) / Phi(-x)), an odd function (Phi(x) + Phi(-x) = 1, as the
// logistic). g(x) ~ x P(x^2) with P of degree 6, fitted on [0, 6] to minimise the error in Phi
// (|dPhi| = Phi(1 - Phi) |dg|): max |dPhi| = 2.9e-8 = 0.24 f32 eps (a weighted minimax fit of
// logit(Phi) computed in 40-digit arithmetic, Lawson iterations: tools/fit_gelu_logit.py prints
// these coefficients, P's times -log2 e, so that t = x P'(x^2) is the exponent of 2). x^2 is clamped at 36: past |x| = 6
// g grows linearly, Phi(x) < 1e-9 or > 1 - 1e-9, so the value is x to f32 for x > 6 and below
// |x| 2^-29 for x < -6 (the library formula gives -0 there: 1 + erff rounds to 0). The clamp
// also keeps x^2 = inf out of the polynomial (|x| = inf: t = -+inf); a NaN x stays NaN.
// Error: the fit's 0.24 eps |x|, t's rounding (its effect on Phi damped by Phi(1 - Phi)) and
// the ex2 / rcp bounds: 1.4 eps |x| measured on the host, 4.5 eps |x| on the device. For
// x in [-6, -2] the relative error is that of Phi's tail, |dg| (up to 5e-4 at x = -4, as the
// library formula's 1 + erff: its rounding near 1 gives 4.7e-4 there); x >= -2: <= 16 eps.
// gelu_exponent(x): the t of gelu(x) = x / (1 + 2^t), i.e. -g(x) log2 e = x P'(x^2).
TESSERA_HOST_DEVICE TESSERA_INLINE float gelu_exponent(float x) {
  const float s = x * x < 36.0f ? x * x : 36.0f;  // (a select: x * x is NaN only for a NaN x, which t keeps)
  float p = -5.067314123863298e-09f;
  p = p * s + 3.816336970885459e-07f;
  p = p * s + -1.1439859008532949e-05f;
  p = p * s + 0.00015958005678839982f;
  p = p * s + 9.404902812093496e-05f;
  p = p * s + -0.10483512282371521f;
  p = p * s + -2.3022093772888184f;
  return x * p;
}
TESSERA_HOST_DEVICE TESSERA_INLINE float gelu(float x) { return times_logistic(x, gelu_exponent(x)); }

}  // namespace fast

TESSERA_HOST_DEVICE inline float gelu(float x) {
#if defined(__CUDA_ARCH__)
  return fast::gelu(x);
#else
  constexpr float inv_sqrt2 = 0.70710678118654752440f;
  return 0.5f * x * (1.0f + ::erff(x * inv_sqrt2));
#endif
}

TESSERA_HOST_DEVICE inline float gelu_tanh(float x) {
#if defined(__CUDA_ARCH__)
  return fast::gelu_tanh(x);
#else
  constexpr float sqrt_2_over_pi = 0.79788456080286535588f;
  return 0.5f * x * (1.0f + ::tanhf(sqrt_2_over_pi * (x + 0.044715f * x * x * x)));
#endif
}

// x * sigmoid(x); for x below about -88 exp(-x) overflows to inf and the quotient is -0,
// which is the limit.
TESSERA_HOST_DEVICE inline float silu(float x) {
#if defined(__CUDA_ARCH__)
  return fast::silu(x);
#else
  return x / (1.0f + ::expf(-x));
#endif
}

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
