// The grouped kernels' launch (tessera::gemm_grouped), shared by the units that compile them:
// the plain kernels' (sm90_instances_grouped.cu, which holds the entry and its dispatch) and the
// fused kernels' (sm90_instances_grouped_fused.cu): the prepare launch, then the persistent GEMM
// launch on the stream, no host synchronisation.
#pragma once

#include <cuda_runtime.h>

#include <string>

#include <tessera/kernels/gemm_grouped.hpp>

#include "../kernel/sm90_gemm_grouped.cuh"
#include "sm90_configs.hpp"
#include "sm90_gemm.cuh"

namespace tessera::kernels {

// DefaultGemm's mainloop (128x256x64, clusters of 2 along M) over each group's D_g^T: A' the
// weight (its major MA), B' the tokens (K-major); Fusion: the epilogue (sm90_gemm_grouped.cuh).
template <class T, GMMA::Major MA, class Fusion = sm90::GroupedPlain>
using GroupedKernel =
    sm90::GemmGroupedTmaWarpSpecialized<typename sm90::Sm90Mainloop<T, MA, GMMA::Major::K, tuple<_128, _256, _64>, 2>::CollectiveOp, T,
                                        Fusion>;

template <class Kernel>
GemmResult run_grouped(GemmGroupedArguments const& g, cudaStream_t stream) {
  using Adapter = sm90::GemmSm90<Kernel>;  // (its hardware queries and launch configuration)
  const auto entry = &sm90::gemm_sm90_entry<Kernel>;
  if (!Adapter::prepare_entry(entry))
    return {GemmStatus::LaunchFailed, "cudaFuncSetAttribute(MaxDynamicSharedMemorySize) failed for the grouped sm90 kernel"};
  const sm90::KernelHardwareInfo hw = Adapter::hardware_info(entry);
  typename Kernel::Params p{};
  typename Kernel::PrepareParams q{};
  if (auto r = Kernel::to_underlying_arguments(g, hw, p, q); !r) return r;
  const unsigned blocks = unsigned((g.groups + 127) / 128);
  sm90::gemm_grouped_prepare_entry<Kernel><<<blocks, 128, 0, stream>>>(q);
  if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess)
    return {GemmStatus::LaunchFailed, std::string("gemm_grouped: the prepare launch: ") + cudaGetErrorString(e)};
  // The persistent grid: every resident cluster (the tile count is on the device).
  cudaLaunchConfig_t cfg = Adapter::launch_config(dim3(unsigned(hw.resident_clusters * Kernel::ClusterM)), stream);
  cudaLaunchAttribute at[1];
  cfg.attrs = Adapter::cluster_attribute(at);
  cfg.numAttrs = 1;
  if (const cudaError_t e = cudaLaunchKernelEx(&cfg, entry, p); e != cudaSuccess) {
    cudaGetLastError();
    return {GemmStatus::LaunchFailed, std::string("gemm_grouped: the kernel launch: ") + cudaGetErrorString(e)};
  }
  return {};
}

// The fused epilogue's kernels (sm90_instances_grouped_fused.cu): the call's activation, bf16,
// weights (G, N, K); arguments already checked (check_grouped_arguments).
GemmResult gemm_grouped_fused(GemmGroupedArguments const& g, cudaStream_t stream);

}  // namespace tessera::kernels
