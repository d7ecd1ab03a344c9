// SM90_CUDA(call): a CUDA runtime call that must succeed; on an error it prints the error, the
// place and the call, and exits with status 2. A header of its own (CUDA runtime and the C
// library only, C++17) so that standalone tools built without the include root, such as
// tools/device/cublaslt_fp8_probe.cu, share it with sm90_gemm_check.hpp.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#define SM90_CUDA(x)                                                                        \
  do {                                                                                      \
    cudaError_t e_ = (x);                                                                   \
    if (e_ != cudaSuccess) {                                                                \
      std::printf("CUDA error %s at %s:%d: %s\n", cudaGetErrorString(e_), __FILE__, __LINE__, #x); \
      std::exit(2);                                                                         \
    }                                                                                       \
  } while (0)
