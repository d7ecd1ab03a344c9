// Kernel layer of the tensor-core GEMM: GemmTensorOpKernel<ProblemShape, CollectiveMainloop,
// CollectiveEpilogue, TileScheduler>.  The scheduler hands each CTA its work unit (a tile,
// or a K slice of a tile of the split last wave: SplitKRasterization), the mainloop
// accumulates its k-tiles, split slices meet (split_k.cuh), the epilogue stores the tile;
// batch on gridDim.z.  Its rules (gemm_kernel.hpp, kernel_detail::Sm80TensorOpKernelRules) are
// checked where it is composed, by gemm_kernel_t or by hand; its contract with the device
// adapter (Arguments, can_implement, workspace, Params) is its base, the collectives'
// contracts composed (sm80_kernel_contract.hpp).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <type_traits>

#include "../collective/epilogue.cuh"
#include "../collective/mainloop_tensorop.cuh"
#include "gemm_kernel.hpp"
#include "problem.cuh"
#include "split_k.cuh"
#include "split_k_rasterization.hpp"

namespace tessera::kernels {

// CollectiveMainloop: CollectiveMma<MainloopSm80CpAsync<Stages, MinBlocks, Group>, ...>
// (collective/sm80_collective_mma.hpp; built by CollectiveBuilder, or composed by a user from
// their own parts).  Unswizzled smem atoms give the bank-conflict baseline that bench
// --profile shows to ncu (never selected by the host API); its Trace policy
// (trace_policy.cuh) is NoTrace unless gemm_trace instantiates it.
// CollectiveEpilogue: EpilogueSmem16 of the mainloop's tile, threads and element type.
// TileScheduler: SplitKRasterization<Group> (the policy's band).
template <class ProblemShape_, class CollectiveMainloop, class CollectiveEpilogue, class TileScheduler_>
struct GemmTensorOpKernel
    : gemm_kernel_contract_t<ProblemShape_, CollectiveMainloop, CollectiveEpilogue, TileScheduler_> {  // (host: the contract)
  static_assert(kernel_detail::Sm80TensorOpKernelRules<ProblemShape_, CollectiveMainloop, CollectiveEpilogue, TileScheduler_>::value);
  static_assert(std::is_base_of_v<contract_of_t<CollectiveMainloop>, CollectiveMainloop> &&
                    std::is_base_of_v<contract_of_t<CollectiveEpilogue>, CollectiveEpilogue>,
                "GemmTensorOpKernel: its contract is its collectives'");
  using ProblemShape = ProblemShape_;
  using Mainloop = CollectiveMainloop;
  using Epilogue = CollectiveEpilogue;
  using TileScheduler = TileScheduler_;
  static constexpr int Threads = Mainloop::Threads;
  static constexpr int MinBlocks = Mainloop::MinBlocks;
  static constexpr int smem_bytes =
      Mainloop::smem_bytes > Epilogue::smem_bytes ? Mainloop::smem_bytes : Epilogue::smem_bytes;

  // The problem's scheduler: its tiles are the mainloop's, its split plan the problem's.
  __host__ __device__ static TileScheduler scheduler(const Problem& p) {
    return TileScheduler::template of<Mainloop::BM, Mainloop::BN, Mainloop::BK>(p);
  }

  // Before each launch: the split tiles' arrival counters start at zero.
  static GemmResult initialize_workspace(const Problem& p, cudaStream_t stream) {
    const std::size_t bytes = GemmTensorOpKernel::counters_bytes(p);
    if (bytes != 0 && cudaMemsetAsync(p.arrivals, 0, bytes, stream) != cudaSuccess) {
      const cudaError_t e = cudaGetLastError();
      return {GemmStatus::LaunchFailed, std::string("cudaMemsetAsync(split-K arrival counters): ") + cudaGetErrorString(e)};
    }
    return {};
  }

  __device__ __forceinline__ static void run(const Problem& p, unsigned char* smem) {
    const auto work = scheduler(p).work_of(blockIdx.x);
    const std::int64_t l = blockIdx.z;
    const auto* A = static_cast<const std::uint16_t*>(p.a.ptr) + l * p.a.batch_stride;
    const auto* B = static_cast<const std::uint16_t*>(p.b.ptr) + l * p.b.batch_stride;
    const auto* C = p.c.ptr ? static_cast<const std::uint16_t*>(p.c.ptr) + l * p.c.batch_stride : nullptr;
    auto* D = static_cast<std::uint16_t*>(const_cast<void*>(p.d.ptr)) + l * p.d.batch_stride;

    typename Mainloop::Accum acc;
    clear(acc);
    Mainloop::run(p, A, B, work.tm, work.tn, work.k_begin, work.k_end, reinterpret_cast<std::uint16_t*>(smem), acc);
    if (work.sliced && !split_k_meet<Threads>(p, acc, work.tile - p.split_k.whole, work.slice)) return;
    Epilogue::template run<Mainloop>(p, acc, D, C, work.tm, work.tn, reinterpret_cast<float*>(smem));
  }
};

template <class Kernel>
__global__ void __launch_bounds__(Kernel::Threads, Kernel::MinBlocks)
    gemm_tensorop_entry(const Problem p) {
  extern __shared__ __align__(128) unsigned char smem[];
  Kernel::run(p, smem);
}

}  // namespace tessera::kernels
