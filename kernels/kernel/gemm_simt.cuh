// Kernel layer of the SIMT FP32 GEMM: one CTA per 128x128 output tile (grouped
// rasterization), batch on gridDim.z.
#pragma once

#include <cstdint>

#include "../collective/mainloop_simt.cuh"
#include "problem.cuh"
#include "tile_scheduler.cuh"

namespace tessera::kernels {

template <class Shape, bool AKMajor, bool BKMajor, int Group = 8, class Trace = trace::NoTrace>
struct GemmSimtKernel {
  using Mainloop = MainloopSimt<Shape, AKMajor, BKMajor, Trace>;
  using Epilogue = EpilogueSimt<Mainloop>;
  using S = Shape;
  static constexpr int Threads = S::Threads;
  static constexpr int smem_bytes = Mainloop::smem_bytes;

  __host__ __device__ static GroupedRasterization<Group> scheduler(const Problem& p) {
    return {(p.m + S::BM - 1) / S::BM, (p.n + S::BN - 1) / S::BN};
  }

  __device__ static void run(const Problem& p, unsigned char* smem) {
    std::int64_t tm, tn;
    scheduler(p).tile_of(blockIdx.x, tm, tn);
    const std::int64_t l = blockIdx.z;
    const auto* A = static_cast<const float*>(p.a.ptr) + l * p.a.batch_stride;
    const auto* B = static_cast<const float*>(p.b.ptr) + l * p.b.batch_stride;
    const auto* C = p.c.ptr ? static_cast<const float*>(p.c.ptr) + l * p.c.batch_stride : nullptr;
    auto* D = static_cast<float*>(const_cast<void*>(p.d.ptr)) + l * p.d.batch_stride;
    typename Mainloop::Accum acc;
#pragma unroll
    for (int i = 0; i < S::TM; ++i)
#pragma unroll
      for (int j = 0; j < S::TN; ++j) acc[i][j] = 0.0f;
    Mainloop::run(p, A, B, tm, tn, reinterpret_cast<float*>(smem), acc);
    Epilogue::run(p, acc, D, C, tm * S::BM, tn * S::BN);
  }
};

template <class Kernel>
__global__ void __launch_bounds__(Kernel::Threads, 2) gemm_simt_entry(const Problem p) {
  extern __shared__ __align__(128) unsigned char smem[];
  Kernel::run(p, smem);
}

}  // namespace tessera::kernels
