// Definitions of the SM90 host entries (sm90_instance.hpp) and the macro that instantiates
// them, with the kernel, for one kernel type. Included only by kernels/device/sm90_instances_*.cu.
#pragma once

#include "sm90_gemm.cuh"
#include "sm90_instance.hpp"

namespace tessera::kernels::device::sm90_entry {

template <class Kernel>
GemmResult can_implement(const GemmArguments& g) {
  return sm90::GemmSm90<Kernel>::can_implement(g);
}
template <class Kernel>
std::size_t workspace_size(const GemmArguments& g) {
  return sm90::GemmSm90<Kernel>::workspace_size(g);
}
template <class Kernel>
GemmResult run(const GemmArguments& g, cudaStream_t stream, bool optional, bool* declined) {
  sm90::GemmSm90<Kernel> op;
  if (auto r = op.initialize(g); !r) return r;
  if (optional && (!op.runnable() || (Kernel::Scheduler::Splits && !op.splits()))) {
    if (declined != nullptr) *declined = true;
    return {};
  }
  return op.run(stream);
}

}  // namespace tessera::kernels::device::sm90_entry

#define TESSERA_SM90_INSTANCE(...)                                                                                             \
  template tessera::kernels::GemmResult tessera::kernels::device::sm90_entry::can_implement<__VA_ARGS__>(                      \
      const tessera::kernels::GemmArguments&);                                                                                 \
  template std::size_t tessera::kernels::device::sm90_entry::workspace_size<__VA_ARGS__>(const tessera::kernels::GemmArguments&); \
  template tessera::kernels::GemmResult tessera::kernels::device::sm90_entry::run<__VA_ARGS__>(                                \
      const tessera::kernels::GemmArguments&, cudaStream_t, bool, bool*)
