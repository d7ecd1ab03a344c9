// The online softmax of the attention mainloop, one row at a time (host and device: the host
// test replays it over tiles against a direct softmax in double).
//
// Per row of S, over the K/V tiles j = 0, 1, ...:
//   m_j = max(m_{j-1}, max_n S_jn)                  running max of the scaled logits
//   P_jn = exp2(S_jn * c - m_j * c)                 c = scale * log2(e): exp(x) = 2^(x log2 e)
//   l_j = l_{j-1} * exp2((m_{j-1} - m_j) c) + sum_n P_jn
//   O_j = O_{j-1} * exp2((m_{j-1} - m_j) c) + P_j V_j
// and at the end O / l, LSE = m * scale + log(l). Rows with no unmasked column (m = -inf)
// keep P = 0 (the exponent is taken from 0 instead of -inf: no inf - inf) and give O = 0,
// LSE = -inf.
#pragma once

#include <cmath>

#include "tessera/config.hpp"
#include "tessera/kernels/approx_math.hpp"

namespace tessera::kernels::sm90::attention {

// 2^x by the SFU's one instruction (approx::exp2: relative error about 2^-22, results below
// 2^-126 flushed to 0, far below what a 16-bit P keeps); exp2f would add a range check and two
// scalings around it, three instructions more per element of S.
TESSERA_HOST_DEVICE inline float fast_exp2(float x) { return approx::exp2(x); }

struct RowSoftmax {
  float max = -INFINITY;  // running max of the (unscaled) logits seen so far
  float sum = 0.f;        // running sum of the exponentials, relative to `max`

  // A new tile's row max (already reduced over the row's lanes): the factor by which the row's
  // O accumulators and sum are rescaled, and the new max. `c` = scale * log2(e).
  TESSERA_HOST_DEVICE float update_max(float tile_max, float c) {
    const float m = tile_max > max ? tile_max : max;
    const float factor = max == -INFINITY ? (m == -INFINITY ? 1.f : 0.f) : fast_exp2((max - m) * c);
    max = m;
    sum *= factor;
    return factor;
  }
  // exp2(s c - max c) with max = -inf read as 0 (a fully masked row so far: P = 0).
  TESSERA_HOST_DEVICE float probability(float s, float c) const {
    const float m = max == -INFINITY ? 0.f : max * c;
    return fast_exp2(s * c - m);
  }
  // The row's O multiplier at the end, and its log-sum-exp (natural log, of scaled logits).
  TESSERA_HOST_DEVICE float inverse_sum() const { return sum > 0.f ? 1.f / sum : 0.f; }
  TESSERA_HOST_DEVICE float lse(float scale) const {
    return sum > 0.f ? max * scale + logf_(sum) : -INFINITY;
  }

 private:
  TESSERA_HOST_DEVICE static float logf_(float x) {
#if defined(__CUDA_ARCH__)
    return __logf(x);
#else
    return std::log(x);
#endif
  }
};

}  // namespace tessera::kernels::sm90::attention
