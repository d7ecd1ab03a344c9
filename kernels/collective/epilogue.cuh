// Collective epilogue: D = alpha * acc + beta * C through shared memory.
//
// The MMA fragments scatter a thread's values over rows g, g+8 and column pairs, so storing
// them directly writes 4-byte pieces all over the tile.  Instead each warp writes its
// fragments into an f32 staging tile laid out along D's contiguous mode, and then every
// thread moves whole 8-element vectors (16 bytes of f16/bf16) that are contiguous in D:
// a warp writes 512 contiguous bytes of a row (row-major D) or column (column-major D).
// The staging tile's rows are padded by 4 floats: rows stay 16-byte aligned for the vector
// reads, and the fragment writes of a warp spread over all 32 banks for column-major D.
#pragma once

#include <cstdint>

#include "../kernel/problem.cuh"

namespace tessera::kernels {

template <class T>
__device__ __forceinline__ float to_float(std::uint16_t bits);
template <class T>
__device__ __forceinline__ std::uint16_t from_float(float v);

struct bf16_tag {};
struct f16_tag {};

template <>
__device__ __forceinline__ float to_float<bf16_tag>(std::uint16_t bits) {
  return __uint_as_float(std::uint32_t(bits) << 16);
}
template <>
__device__ __forceinline__ std::uint16_t from_float<bf16_tag>(float v) {
  std::uint16_t r;
  asm("cvt.rn.bf16.f32 %0, %1;\n" : "=h"(r) : "f"(v));
  return r;
}
template <>
__device__ __forceinline__ float to_float<f16_tag>(std::uint16_t bits) {
  float f;
  asm("cvt.f32.f16 %0, %1;\n" : "=f"(f) : "h"(bits));
  return f;
}
template <>
__device__ __forceinline__ std::uint16_t from_float<f16_tag>(float v) {
  std::uint16_t r;
  asm("cvt.rn.f16.f32 %0, %1;\n" : "=h"(r) : "f"(v));
  return r;
}

template <int BM, int BN, int Threads, class Tag>
struct EpilogueSmem16 {
  static constexpr int pad = 4;
  static constexpr int smem_bytes = (BM > BN ? BM : BN) * ((BM > BN ? BN : BM) + pad) * 4;

  // Staging offset of tile element (m, n): rows along D's non-contiguous mode.
  __device__ static int stage_offset(bool d_row, int m, int n) {
    return d_row ? m * (BN + pad) + n : n * (BM + pad) + m;
  }

  template <class Mainloop>
  __device__ static void run(const Problem& p, const typename Mainloop::Accum& acc, std::uint16_t* D,
                             const std::uint16_t* C, std::int64_t m0, std::int64_t n0, float* stage) {
    const bool d_row = p.d.row;
#pragma unroll
    for (int mt = 0; mt < Mainloop::MT; ++mt)
#pragma unroll
      for (int nt = 0; nt < Mainloop::NT; ++nt)
#pragma unroll
        for (int r = 0; r < 4; ++r) {
          int m, n;
          Mainloop::acc_coord(mt, nt, r, m, n);
          stage[stage_offset(d_row, m, n)] = acc[mt][nt][r];
        }
    __syncthreads();

    // Contiguous mode of D: length `inner` (tile) and extent `inner_extent` (matrix).
    const int inner = d_row ? BN : BM;
    const std::int64_t inner0 = d_row ? n0 : m0, outer0 = d_row ? m0 : n0;
    const std::int64_t inner_extent = d_row ? p.n : p.m, outer_extent = d_row ? p.m : p.n;
    const bool use_c = p.beta != 0.0f;
    if (p.d_vector_ok) {
      constexpr int V = 8;
      for (int idx = threadIdx.x; idx < BM * BN / V; idx += Threads) {
        const int i = (idx % (inner / V)) * V, o = idx / (inner / V);
        const std::int64_t gi = inner0 + i, go = outer0 + o;
        if (gi >= inner_extent || go >= outer_extent) continue;  // extents are multiples of 8
        const float* s = stage + o * (inner + pad) + i;
        const float4 lo = *reinterpret_cast<const float4*>(s);
        const float4 hi = *reinterpret_cast<const float4*>(s + 4);
        float v[V] = {lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w};
        uint4 cv = {0, 0, 0, 0};
        if (use_c) cv = *reinterpret_cast<const uint4*>(C + go * p.c.ld + gi);
        const std::uint32_t cw[4] = {cv.x, cv.y, cv.z, cv.w};
        std::uint32_t out[4];
#pragma unroll
        for (int j = 0; j < V / 2; ++j) {
          float x0 = p.alpha * v[2 * j], x1 = p.alpha * v[2 * j + 1];
          if (use_c) {
            x0 += p.beta * to_float<Tag>(std::uint16_t(cw[j] & 0xffffu));
            x1 += p.beta * to_float<Tag>(std::uint16_t(cw[j] >> 16));
          }
          out[j] = std::uint32_t(from_float<Tag>(x0)) | (std::uint32_t(from_float<Tag>(x1)) << 16);
        }
        *reinterpret_cast<uint4*>(D + go * p.d.ld + gi) = uint4{out[0], out[1], out[2], out[3]};
      }
    } else {
      for (int idx = threadIdx.x; idx < BM * BN; idx += Threads) {
        const int i = idx % inner, o = idx / inner;
        const std::int64_t gi = inner0 + i, go = outer0 + o;
        if (gi >= inner_extent || go >= outer_extent) continue;
        float x = p.alpha * stage[o * (inner + pad) + i];
        if (use_c) x += p.beta * to_float<Tag>(C[go * p.c.ld + gi]);
        D[go * p.d.ld + gi] = from_float<Tag>(x);
      }
    }
  }
};

}  // namespace tessera::kernels
