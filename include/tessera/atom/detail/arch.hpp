// Device/host qualifiers for the instruction side of atoms, and what an instruction does
// when the target has no such instruction.
#pragma once

#include "tessera/config.hpp"

#if defined(__CUDACC__)
#define TESSERA_DEVICE __device__ __forceinline__
#else
#define TESSERA_DEVICE inline
#endif

#if !defined(__CUDA_ARCH__)
#include <cstdio>
#include <cstdlib>
#endif

namespace tessera::detail {

// An instruction issued where it does not exist is a programming error: stop loudly.
TESSERA_HOST_DEVICE inline void mma_unsupported([[maybe_unused]] const char* what) {
#if defined(__CUDA_ARCH__)
  __trap();
#else
  std::fprintf(stderr, "tessera: %s (instruction not available on this target)\n", what);
  std::abort();
#endif
}

}  // namespace tessera::detail
