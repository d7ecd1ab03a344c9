// The lead-in kernel of gemm_tune's timing (lead_in.hpp).
#include <cuda_runtime.h>

#include "lead_in.hpp"

namespace tessera::kernels::device {

namespace {
__device__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// (global time, not clock64 cycles: a cycle count lasts longer at the low clocks of a GPU just
// out of idle, a time span does not)
__global__ void lead_in_kernel(unsigned long long ns) {
  const unsigned long long t0 = global_ns();
  while (global_ns() - t0 < ns) {}
}
}  // namespace

bool launch_lead_in(CUstream_st* stream, double microseconds) {
  const double ns = microseconds > 0 ? microseconds * 1e3 : 0.0;
  lead_in_kernel<<<1, 1, 0, stream>>>((unsigned long long)ns);
  if (cudaGetLastError() != cudaSuccess) return false;
  return true;
}

}  // namespace tessera::kernels::device
