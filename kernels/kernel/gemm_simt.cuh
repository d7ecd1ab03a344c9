// Kernel layer of the SIMT FP32 GEMM: one CTA per 128x128 output tile (grouped
// rasterization), batch on gridDim.z.  run_tile is the CTA's work on host and device (the
// host test runs it for every thread through tessera::host_warp).
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

  TESSERA_HOST_DEVICE static GroupedRasterization<Group> scheduler(const Problem& p) {
    return {(p.m + S::BM - 1) / S::BM, (p.n + S::BN - 1) / S::BN};
  }

  // The CTA at output tile (tm, tn) of batch l; tid: the thread; smem: Mainloop::smem_bytes.
  TESSERA_HOST_DEVICE static void run_tile(const Problem& p, std::int64_t tm, std::int64_t tn, std::int64_t l, int tid,
                                           unsigned char* smem) {
    auto mA = Mainloop::template operand<AKMajor>(p.a, p.m, p.k, p.batch);
    auto mB = Mainloop::template operand<BKMajor>(p.b, p.n, p.k, p.batch);
    auto tCrC = Mainloop::make_accumulators(tid);
    clear(tCrC);
    Mainloop::run(p, mA(_, _, l), mB(_, _, l), tm, tn, tid, reinterpret_cast<float*>(smem), tCrC);
    Epilogue::run(p, tCrC, tm, tn, l, tid);
  }

#if defined(__CUDACC__)
  __device__ static void run(const Problem& p, unsigned char* smem) {
    std::int64_t tm, tn;
    scheduler(p).tile_of(blockIdx.x, tm, tn);
    run_tile(p, tm, tn, blockIdx.z, int(threadIdx.x), smem);
  }
#endif
};

#if defined(__CUDACC__)
template <class Kernel>
__global__ void __launch_bounds__(Kernel::Threads, 2) gemm_simt_entry(const Problem p) {
  extern __shared__ __align__(128) unsigned char smem[];
  Kernel::run(p, smem);
}
#endif

}  // namespace tessera::kernels
