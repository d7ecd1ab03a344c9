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
#include <type_traits>

#include "../arch/vector_store.cuh"
#include "../kernel/problem.cuh"
#include "tessera/kernels/partitions.hpp"
#include "../kernel/trace_policy.cuh"

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
  // Staging tile (m, n) -> offset: rows along D's non-contiguous mode, padded.
  using StageRow = Layout<tuple<C<BM>, C<BN>>, tuple<C<BN + pad>, _1>>;  // D row-major
  using StageCol = Layout<tuple<C<BM>, C<BN>>, tuple<_1, C<BM + pad>>>;  // D column-major
  static constexpr int smem_bytes =
      4 * (int(cosize(StageRow{})) > int(cosize(StageCol{})) ? int(cosize(StageRow{})) : int(cosize(StageCol{})));

  template <class Mainloop>
  __device__ static void run(const Problem& p, const typename Mainloop::Accum& acc, std::uint16_t* D,
                             const std::uint16_t* C, std::int64_t m0, std::int64_t n0, float* stage) {
    if (p.d.row) run_major<Mainloop, true>(p, acc, D, C, m0, n0, stage);
    else run_major<Mainloop, false>(p, acc, D, C, m0, n0, stage);
  }

  template <class Mainloop, bool DRow>
  __device__ static void run_major(const Problem& p, const typename Mainloop::Accum& acc, std::uint16_t* D,
                                   const std::uint16_t* C, std::int64_t m0, std::int64_t n0, float* stage) {
    using Stage = std::conditional_t<DRow, StageRow, StageCol>;
    // Accumulator acc[mt][nt][r] is C fragment value r + 4 (mt + MT nt) of the TiledMMA, at
    // the thread's value 0 plus a constant (value_deltas): one staging pointer, immediate
    // offsets.
    const TileCoord c0 = Mainloop::acc_coords()(0);
    constexpr auto delta = Mainloop::Partition::c_deltas();
#pragma unroll
    for (int mt = 0; mt < Mainloop::MT; ++mt)
#pragma unroll
      for (int nt = 0; nt < Mainloop::NT; ++nt)
#pragma unroll
        for (int r = 0; r < 4; ++r) {
          const TileCoord d = delta.d[r + 4 * (mt + Mainloop::MT * nt)];
          const TileCoord x = {c0.row + d.row, c0.col + d.col};
          stage[Stage{}(x.row, x.col)] = acc[mt][nt][r];
          if constexpr (Mainloop::Trace::enabled)
            Mainloop::Trace::record(p.trace, trace::Map::mma_c, threadIdx.x, r + 4 * (mt + Mainloop::MT * nt), x.row, x.col);
        }
    __syncthreads();

    // D and C as layouts over the whole matrix: (M,N):(ld,1) or (M,N):(1,ld).
    auto matrix = [&](std::int64_t ld) {
      return make_layout(make_shape(p.m, p.n), make_stride(DRow ? ld : std::int64_t(1), DRow ? std::int64_t(1) : ld));
    };
    const auto d_layout = matrix(p.d.ld);
    const auto c_layout = matrix(p.c.ld);
    const bool use_c = p.beta != 0.0f;
    if (p.d_vector_ok) {
      // Threads fastest along D's contiguous mode, 8 elements (16 bytes) per copy.  The
      // contiguous extent is a multiple of 8, so a vector is all inside or all outside.
      using Out = EpilogueCopy<BM, BN, Threads, 8, DRow>;
      const TileCoord o0 = Out::coords(threadIdx.x)(0);
      constexpr TileCoord step = copy_step_of<Out>();
#pragma unroll 4
      for (int i = 0; i < Out::Copies; ++i) {
        const int m = o0.row + i * step.row, n = o0.col + i * step.col;
        const std::int64_t gm = m0 + m, gn = n0 + n;
        if (gm >= p.m || gn >= p.n) continue;
        const float* s = stage + Stage{}(m, n);  // 8 consecutive floats of the staging row
        const float4 lo = *reinterpret_cast<const float4*>(s);
        const float4 hi = *reinterpret_cast<const float4*>(s + 4);
        const float v[8] = {lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w};
        uint4 cv = {0, 0, 0, 0};
        if (use_c) cv = *reinterpret_cast<const uint4*>(C + c_layout(gm, gn));
        const std::uint32_t cw[4] = {cv.x, cv.y, cv.z, cv.w};
        std::uint32_t out[4];
#pragma unroll
        for (int j = 0; j < 4; ++j) {
          float x0 = p.alpha * v[2 * j], x1 = p.alpha * v[2 * j + 1];
          if (use_c) {
            x0 += p.beta * to_float<Tag>(std::uint16_t(cw[j] & 0xffffu));
            x1 += p.beta * to_float<Tag>(std::uint16_t(cw[j] >> 16));
          }
          out[j] = std::uint32_t(from_float<Tag>(x0)) | (std::uint32_t(from_float<Tag>(x1)) << 16);
        }
        arch::st_global_16(D + d_layout(gm, gn), out[0], out[1], out[2], out[3]);
      }
    } else {
      using Out = EpilogueCopy<BM, BN, Threads, 1, DRow>;
      const TileCoord o0 = Out::coords(threadIdx.x)(0);
      constexpr TileCoord step = copy_step_of<Out>();
#pragma unroll 4
      for (int i = 0; i < Out::Copies; ++i) {
        const int m = o0.row + i * step.row, n = o0.col + i * step.col;
        const std::int64_t gm = m0 + m, gn = n0 + n;
        if (gm >= p.m || gn >= p.n) continue;
        float x = p.alpha * stage[Stage{}(m, n)];
        if (use_c) x += p.beta * to_float<Tag>(C[c_layout(gm, gn)]);
        D[d_layout(gm, gn)] = from_float<Tag>(x);
      }
    }
  }
};

}  // namespace tessera::kernels
