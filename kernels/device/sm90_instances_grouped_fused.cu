// tessera::gemm_grouped's fused epilogue: the grouped SM90 kernels of sm90_kernel_list.hpp's
// GroupedFusedKernels (bf16, weights (G, N, K), one kernel per activation), D_g = act(alpha A_g
// B_g + bias_g). A unit of their own: five full kernels beside the plain three would double
// that unit's compile time, and a parallel build compiles the two side by side.
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

// The listed kernel for (element, B's major, activation), or Unsupported with the reason.
template <std::size_t... I>
GemmResult dispatch_grouped_fused(GemmGroupedArguments const& g, cudaStream_t stream, std::index_sequence<I...>) {
  GemmResult r{GemmStatus::Unsupported, std::string("gemm_grouped: no fused-epilogue kernel for ") + to_string(g.element) + ", activation " +
                                            to_string(g.activation) + " with B_g " +
                                            (g.b_major == Major::Col ? "column-major (weight (G, N, K))" : "row-major (weight (G, K, N))")};
  auto one = [&](auto listed) {
    using L = decltype(listed);
    using T = typename L::Element;
    if (sm90::element_enum_of<T>() != g.element || (L::major_weight == GMMA::Major::K) != (g.b_major == Major::Col) ||
        L::activation != g.activation)
      return false;
    r = run_grouped<GroupedKernel<T, L::major_weight, sm90::GroupedFused<L::activation>>>(g, stream);
    return true;
  };
  (one(std::tuple_element_t<I, device::sm90_set::GroupedFusedKernels>{}) || ...);
  return r;
}

}  // namespace

GemmResult gemm_grouped_fused(GemmGroupedArguments const& g, cudaStream_t stream) {
  return dispatch_grouped_fused(g, stream, std::make_index_sequence<std::tuple_size_v<device::sm90_set::GroupedFusedKernels>>{});
}

}  // namespace tessera::kernels
