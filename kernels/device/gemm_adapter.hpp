// The host logic of the device adapter (gemm_adapter.cuh), plain C++ so that CI checks it
// without a GPU. Generic over the kernel's contract (kernel/sm80_kernel_contract.hpp: a
// GemmTensorOpKernel or GemmSimtKernel, or its gemm_kernel_contract_t): the arguments' checks
// every kernel shares (check_arguments), then the kernel's contract and nothing of its
// collectives.
#pragma once

#include <cstddef>
#include <cstdint>

#include "tessera/kernels/gemm_arguments.hpp"
#include "../kernel/gemm_kernel.hpp"
#include "../kernel/problem.cuh"

namespace tessera::kernels::device {

// Whether the kernel computes these arguments, and why not.
template <class Kernel>
GemmResult adapter_can_implement(const GemmArguments& g) {
  if (auto r = check_arguments(g); !r) return r;
  return Kernel::can_implement(Kernel::arguments_of(g));
}

// The workspace the kernel would use for `g` on a GPU of `hw` (0: it takes no workspace, or
// refuses the arguments).
template <class Kernel>
std::size_t adapter_workspace_size(const GemmArguments& g, const Sm80HardwareInfo& hw) {
  if (!adapter_can_implement<Kernel>(g)) return 0;
  return Kernel::get_workspace_size(Kernel::arguments_of(g), hw);
}

// The launch the adapter prepares: the kernel's Params (the Problem) and its grid's x extent.
struct AdapterLaunch {
  Problem params{};
  std::int64_t ctas = 0;
};
// (Arguments adapter_can_implement admitted.)
template <class Kernel>
GemmResult adapter_initialize_admitted(const GemmArguments& g, const Sm80HardwareInfo& hw, AdapterLaunch& launch) {
  GemmResult status;
  launch.params = Kernel::to_underlying_arguments(Kernel::arguments_of(g), g.workspace, g.workspace != nullptr ? g.workspace_bytes : 0,
                                                  hw, status);
  if (!status) return status;
  launch.ctas = Kernel::grid_size(launch.params);
  return {};
}

}  // namespace tessera::kernels::device
