#pragma once
// Execution-space and inlining markers shared by every header of the static tier.
#if defined(__CUDACC__)
#define TESSERA_HOST_DEVICE __host__ __device__
#define TESSERA_INLINE __forceinline__
#else
#define TESSERA_HOST_DEVICE
#define TESSERA_INLINE inline
#endif

// Namespace-scope constants usable from device code (nvcc rejects constexpr class
// objects there unless they live in device memory).
#if defined(__CUDA_ARCH__)
#define TESSERA_INLINE_CONSTANT static const __device__
#else
#define TESSERA_INLINE_CONSTANT static constexpr
#endif

// Run-time preconditions on dynamic values: checked in debug host builds only.
#if !defined(NDEBUG) && !defined(__CUDA_ARCH__)
#include <cassert>
#define TESSERA_EXPECTS(cond, msg) assert((cond) && msg)
#else
#define TESSERA_EXPECTS(cond, msg) ((void)0)
#endif
