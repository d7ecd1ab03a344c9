// tessera::gemm_grouped: the grouped SM90 kernels (sm90_kernel_list.hpp's GroupedKernels) and
// their host entry: the arguments' checks, an sm_90 device, the kernel for the element type
// and B's major, then the prepare launch and the persistent GEMM launch on the stream. Each
// group runs as D_g^T = B_g^T A_g^T (kernel/sm90_grouped_problem.hpp): the mainloop's A' is the
// weight (its major: MA), its B' the tokens (K-major).
// sm_90a only (kernels/CMakeLists.txt).
#include <cuda_runtime.h>

#include <string>
#include <tuple>
#include <utility>

#include <tessera/kernels/gemm_grouped.hpp>

#include "../kernel/sm90_gemm_grouped.cuh"
#include "sm90_configs.hpp"
#include "sm90_gemm.cuh"
#include "sm90_kernel_list.hpp"

namespace tessera::kernels {

namespace {

template <class T, GMMA::Major MA>
using GroupedKernel =
    sm90::GemmGroupedTmaWarpSpecialized<typename sm90::Sm90Mainloop<T, MA, GMMA::Major::K, tuple<_128, _256, _64>, 2>::CollectiveOp, T>;

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

// The listed kernel for (element, B's major), or Unsupported.
template <std::size_t... I>
GemmResult dispatch_grouped(GemmGroupedArguments const& g, cudaStream_t stream, std::index_sequence<I...>) {
  GemmResult r{GemmStatus::Unsupported, std::string("gemm_grouped: no kernel for ") + to_string(g.element) + " with B_g " +
                                            (g.b_major == Major::Col ? "column-major (weight (G, N, K))" : "row-major (weight (G, K, N))")};
  auto one = [&](auto listed) {
    using L = decltype(listed);
    using T = typename L::Element;
    // (a weight (G, N, K), B_g column-major, is A' K-major)
    if (sm90::element_enum_of<T>() != g.element || (L::major_weight == GMMA::Major::K) != (g.b_major == Major::Col)) return false;
    r = run_grouped<GroupedKernel<T, L::major_weight>>(g, stream);
    return true;
  };
  (one(std::tuple_element_t<I, device::sm90_set::GroupedKernels>{}) || ...);
  return r;
}

}  // namespace

GemmResult gemm_grouped(GemmGroupedArguments const& args, CUstream_st* stream) {
  if (auto r = check_grouped_arguments(args); !r) return r;
  int dev = 0, major = 0;
  if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess) {
    cudaGetLastError();
    return {GemmStatus::NoDevice, "no CUDA device is available"};
  }
  if (major != 9) return {GemmStatus::Unsupported, "gemm_grouped runs on sm_90 GPUs (TMA, wgmma, tensormap.replace)"};
  return dispatch_grouped(args, stream, std::make_index_sequence<std::tuple_size_v<device::sm90_set::GroupedKernels>>{});
}

}  // namespace tessera::kernels
