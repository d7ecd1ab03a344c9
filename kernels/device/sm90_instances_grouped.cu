// tessera::gemm_grouped: the grouped SM90 kernels (sm90_kernel_list.hpp's GroupedKernels) and
// their host entry: the arguments' checks, an sm_90 device, the kernel for the element type
// and B's major (a fused epilogue: sm90_instances_grouped_fused.cu's kernel of its activation),
// then the prepare launch and the persistent GEMM launch on the stream (sm90_grouped_launch.cuh). Each
// group runs as D_g^T = B_g^T A_g^T (kernel/sm90_grouped_problem.hpp): the mainloop's A' is the
// weight (its major: MA), its B' the tokens (K-major).
// sm_90a only (kernels/CMakeLists.txt).
#include <cuda_runtime.h>

#include <string>
#include <tuple>
#include <utility>

#include <tessera/kernels/gemm_grouped.hpp>

#include "sm90_grouped_launch.cuh"
#include "sm90_kernel_list.hpp"

namespace tessera::kernels {

namespace {

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
  if (grouped_fused(args)) return gemm_grouped_fused(args, stream);
  return dispatch_grouped(args, stream, std::make_index_sequence<std::tuple_size_v<device::sm90_set::GroupedKernels>>{});
}

}  // namespace tessera::kernels
