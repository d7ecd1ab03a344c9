// The lead-in kernel of gemm_tune's timing (lead_in.hpp).
#include <cuda_runtime.h>

#include "lead_in.cuh"
#include "lead_in.hpp"

namespace tessera::kernels::device {

bool launch_lead_in(CUstream_st* stream, double microseconds) {
  const double ns = microseconds > 0 ? microseconds * 1e3 : 0.0;
  lead_in_kernel<><<<1, 1, 0, stream>>>((unsigned long long)ns);
  if (cudaGetLastError() != cudaSuccess) return false;
  return true;
}

}  // namespace tessera::kernels::device
