// Tensor maps rewritten on the device (sm_90a, PTX ISA 8.3: tensormap.replace): a CUtensorMap
// the host encoded once (cuTensorMapEncodeTiled) is copied into global memory and given
// another tensor's global address, dims and strides there, for problems whose tensors only the
// device knows (the grouped GEMM's groups). Box, swizzle, element type and rank stay the
// template's.
//
// The rewrite is a generic-proxy write; the TMA unit reads tensor maps through the tensormap
// proxy. So the writer publishes with tensormap_release() (fence.proxy.tensormap::generic
// .release.gpu) and a user, before its first TMA copy through the rewritten map, runs
// tensormap_acquire(map) (fence.proxy.tensormap::generic.acquire.gpu on the map's 128 bytes).
// Across a kernel boundary (written by one kernel, used by the next in stream order) the
// user's acquire is still what the PTX memory model asks for.
//
// Units: dims in elements; tensormap.replace's global_stride `ord` i is the map's
// globalStrides[i], the stride of dim i + 1, in bytes (a multiple of 16), as
// cuTensorMapEncodeTiled takes them (tma::Arguments::global_stride_bytes[i + 1]).
//
// The replacements name the map by its global address (.global state space: the generic
// address converted, global_of); the fences and the prefetch take generic addresses.
//
// No host stand-in: a CUtensorMap's bit layout is not documented; on the host the driver
// encodes maps (tma_encode.hpp). Off sm_90a these compile to nothing.
#pragma once

#include <cstdint>

namespace tessera::kernels::arch {

__device__ __forceinline__ uint64_t global_of(const void* p) { return uint64_t(__cvta_generic_to_global(p)); }

// 128 bytes of a tensor map from `from` (e.g. a kernel parameter) to `to` (global memory,
// 64-byte aligned): the template the replacements then edit.
__device__ __forceinline__ void tensormap_copy(void* to, const void* from) {
  const uint4* s = static_cast<const uint4*>(from);
  uint4* d = static_cast<uint4*>(to);
#pragma unroll
  for (int i = 0; i < 8; ++i) d[i] = s[i];
}

__device__ __forceinline__ void tensormap_replace_global_address(void* map, const void* address) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("tensormap.replace.tile.global_address.global.b1024.b64 [%0], %1;\n" ::"l"(global_of(map)), "l"(address) : "memory");
#endif
}

// Dim `Dim`'s extent (elements, 1 .. 2^32).
template <int Dim>
__device__ __forceinline__ void tensormap_replace_global_dim(void* map, uint32_t extent) {
  static_assert(Dim >= 0 && Dim < 5, "a tensor map has at most 5 dims");
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("tensormap.replace.tile.global_dim.global.b1024.b32 [%0], %1, %2;\n" ::"l"(global_of(map)), "n"(Dim), "r"(extent) : "memory");
#endif
}

// The stride of dim Dim (>= 1) in bytes: tensormap.replace's ord Dim - 1.
template <int Dim>
__device__ __forceinline__ void tensormap_replace_global_stride(void* map, uint64_t bytes) {
  static_assert(Dim >= 1 && Dim < 5, "dims 1 .. 4 have strides (dim 0 is contiguous)");
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("tensormap.replace.tile.global_stride.global.b1024.b64 [%0], %1, %2;\n" ::"l"(global_of(map)), "n"(Dim - 1), "l"(bytes) : "memory");
#endif
}

// Run-time dim: the immediates' switch (the rewrite of a map of `rank` dims from its arrays).
__device__ __forceinline__ void tensormap_replace_dims_strides(void* map, int rank, const int64_t* dims, const int64_t* stride_bytes) {
  if (rank > 0) tensormap_replace_global_dim<0>(map, uint32_t(dims[0]));
  if (rank > 1) tensormap_replace_global_dim<1>(map, uint32_t(dims[1])), tensormap_replace_global_stride<1>(map, uint64_t(stride_bytes[1]));
  if (rank > 2) tensormap_replace_global_dim<2>(map, uint32_t(dims[2])), tensormap_replace_global_stride<2>(map, uint64_t(stride_bytes[2]));
  if (rank > 3) tensormap_replace_global_dim<3>(map, uint32_t(dims[3])), tensormap_replace_global_stride<3>(map, uint64_t(stride_bytes[3]));
  if (rank > 4) tensormap_replace_global_dim<4>(map, uint32_t(dims[4])), tensormap_replace_global_stride<4>(map, uint64_t(stride_bytes[4]));
}

// The writer's publication of its rewritten maps (after its last replacement).
__device__ __forceinline__ void tensormap_release() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("fence.proxy.tensormap::generic.release.gpu;\n" ::: "memory");
#endif
}

// A user's acquire of one rewritten map, before its first TMA copy through it.
__device__ __forceinline__ void tensormap_acquire(const void* map) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;\n" ::"l"(map) : "memory");
#endif
}

__device__ __forceinline__ void tensormap_prefetch(const void* map) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("prefetch.tensormap [%0];\n" ::"l"(reinterpret_cast<uint64_t>(map)) : "memory");
#endif
}

}  // namespace tessera::kernels::arch
