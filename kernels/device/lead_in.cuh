// The lead-in kernel itself: one thread that spins for a span of the GPU's global timer. gemm_tune
// launches it through launch_lead_in (lead_in.hpp, compiled once in lead_in.cu); the benchmarks and
// device probes, which do not link the library's host objects, launch it from this header, so
// both time behind the same kernel.
#pragma once

namespace tessera::kernels::device {

namespace lead_in_detail {
__device__ inline unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
}  // namespace lead_in_detail

// (global time, not clock64 cycles: a cycle count lasts longer at the low clocks of a GPU just
// out of idle, a time span does not; a template, so one copy per program however many TUs
// include this)
template <int = 0>
__global__ void lead_in_kernel(unsigned long long ns) {
  const unsigned long long t0 = lead_in_detail::global_ns();
  while (lead_in_detail::global_ns() - t0 < ns) {}
}

}  // namespace tessera::kernels::device
