// A kernel template that needs the dynamic shared-memory opt-in (64 KiB > 48 KiB), and the
// device layer's way of launching it (kernels/device/smem_opt_in.cuh: the opt-in once per
// stub and device, then launch). Included by two TUs: each has its own stub and device module of
// fill_through_smem<0> (nvcc 13: -static-global-template-stub), as the library's and a user's
// copies of one GEMM kernel type are.
#pragma once

#include <cuda_runtime.h>

#include "device/smem_opt_in.cuh"

namespace entry_cache_gpu {

inline constexpr int kSmemBytes = 64 * 1024, kThreads = 256;

template <int Tag>
__global__ void fill_through_smem(int* out, int value) {
  extern __shared__ int smem[];
  for (int i = threadIdx.x; i < kSmemBytes / 4; i += blockDim.x) smem[i] = value + i;
  __syncthreads();
  out[threadIdx.x] = smem[kSmemBytes / 4 - 1 - threadIdx.x];
}

// `entry` is the caller's TU's stub: the launch and the opt-in name the same one.
template <class Entry>
cudaError_t launch_prepared(Entry entry, int* out, int value) {
  int dev = 0;
  if (cudaError_t e = cudaGetDevice(&dev); e != cudaSuccess) return e;
#if defined(ENTRY_CACHE_GPU_BY_TYPE)
  // The old way, for the record (builds with -DENTRY_CACHE_GPU_BY_TYPE): one flag per type,
  // shared by the TUs; the second TU's launch then fails with "invalid argument".
  static const bool opted = cudaFuncSetAttribute(entry, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes) == cudaSuccess;
  if (!opted) return cudaErrorInvalidValue;
#else
  // The device layer's opt-in (the SM80/SIMT and SM90 adapters call the same function).
  if (!tessera::kernels::device::opt_in_dynamic_smem(entry, dev, kSmemBytes)) return cudaErrorInvalidValue;
#endif
  entry<<<1, kThreads, kSmemBytes>>>(out, value);
  return cudaGetLastError();
}

cudaError_t run_in_tu_a(int* out, int value);
cudaError_t run_in_tu_b(int* out, int value);

}  // namespace entry_cache_gpu
