// The SM90 kernels' host entries, one set per kernel type, declared here and defined only in
// the translation units that instantiate them (kernels/device/sm90_instances_*.cu, through
// sm90_instance.cuh): the dispatch (sm90_instances.cu) names kernel types without compiling
// any kernel, and the kernels are spread over TUs that a parallel build compiles side by side.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "tessera/kernels/gemm_arguments.hpp"

namespace tessera::kernels::device::sm90_entry {

template <class Kernel>
GemmResult can_implement(const GemmArguments& g);
// The workspace the kernel would use for g (Stream-K's partials and flags; 0 for kernels over
// whole tiles, and where the plan shares nothing).
template <class Kernel>
std::size_t workspace_size(const GemmArguments& g);
// Runs g. With optional (the dispatch's first choice, a Stream-K or a fused TMA-store kernel):
// launches only where that kernel is what the problem should run (a Stream-K kernel: its plan
// shares k-iterations and the workspace holds it; a fused one: TMA stores D), else sets
// *declined and launches nothing (the dispatch then runs the plain whole-tile kernel).
template <class Kernel>
GemmResult run(const GemmArguments& g, cudaStream_t stream, bool optional, bool* declined);

// One kernel's entries, as the dispatch passes them around.
struct Entries {
  GemmResult (*can_implement)(const GemmArguments&) = nullptr;
  std::size_t (*workspace_size)(const GemmArguments&) = nullptr;
  GemmResult (*run)(const GemmArguments&, cudaStream_t, bool, bool*) = nullptr;
  constexpr explicit operator bool() const { return run != nullptr; }
};
template <class Kernel>
constexpr Entries entries() {
  return {&can_implement<Kernel>, &workspace_size<Kernel>, &run<Kernel>};
}

}  // namespace tessera::kernels::device::sm90_entry
