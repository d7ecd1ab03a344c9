// Kernel layer of the SIMT FP32 GEMM, a type of (ProblemShape, CollectiveMainloop,
// CollectiveEpilogue, TileScheduler) (gemm_kernel_t in gemm_kernel.hpp composes it): one CTA
// per BM x BN output tile in the scheduler's order (GroupedRasterization<G>), batch on
// gridDim.z.  run_tile is the CTA's work on host and device (the host test runs it for every
// thread through tessera::host_warp).  Its contract with the device adapter is its base, the
// collectives' contracts composed (sm80_kernel_contract.hpp); it splits nothing, so its
// workspace needs no initialization.
#pragma once

#include <cstdint>
#include <type_traits>

#include "../collective/mainloop_simt.cuh"
#include "gemm_kernel.hpp"
#include "problem.cuh"
#include "tile_scheduler.cuh"

namespace tessera::kernels {

template <class ProblemShape_, class CollectiveMainloop, class CollectiveEpilogue, class TileScheduler_>
struct GemmSimtKernel
    : gemm_kernel_contract_t<ProblemShape_, CollectiveMainloop, CollectiveEpilogue, TileScheduler_> {  // (host: the contract)
  static_assert(std::is_base_of_v<contract_of_t<CollectiveMainloop>, CollectiveMainloop> &&
                    std::is_base_of_v<contract_of_t<CollectiveEpilogue>, CollectiveEpilogue>,
                "GemmSimtKernel: its contract is its collectives'");
  using ProblemShape = ProblemShape_;
  using Mainloop = CollectiveMainloop;
  using Epilogue = CollectiveEpilogue;
  using TileScheduler = TileScheduler_;
  static constexpr int Threads = Mainloop::Threads;
  static constexpr int smem_bytes = Mainloop::smem_bytes;

  // The scheduler over the problem's output tiles.
  TESSERA_HOST_DEVICE static TileScheduler scheduler(const Problem& p) {
    const auto tiles = output_tile_grid(p.m, p.n, C<Mainloop::BM>{}, C<Mainloop::BN>{});
    return {tiles.m, tiles.n};
  }

  // The CTA at output tile (tm, tn) of batch l; tid: the thread; smem: Mainloop::smem_bytes.
  TESSERA_HOST_DEVICE static void run_tile(const Problem& p, std::int64_t tm, std::int64_t tn, std::int64_t l, int tid,
                                           unsigned char* smem) {
    auto mA = Mainloop::template operand<Mainloop::AKMajor>(p.a, p.m, p.k, p.batch);
    auto mB = Mainloop::template operand<Mainloop::BKMajor>(p.b, p.n, p.k, p.batch);
    auto tCrC = Mainloop::make_accumulators(tid);
    clear(tCrC);
    Mainloop::run(p, mA(_, _, l), mB(_, _, l), tm, tn, tid, reinterpret_cast<float*>(smem), tCrC);
    Epilogue::run(p, tCrC, tm, tn, l, tid);
  }

#if defined(__CUDACC__)
  static GemmResult initialize_workspace(const Problem&, cudaStream_t) { return {}; }

  __device__ static void run(const Problem& p, unsigned char* smem) {
    const auto t = scheduler(p).tile_of(std::int64_t(blockIdx.x));
    run_tile(p, t.m, t.n, blockIdx.z, int(threadIdx.x), smem);
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
