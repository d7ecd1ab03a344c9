// Adapter: predicated cp.async with zero fill.
// tessera's SM80 cp.async atoms copy unconditionally; a GEMM residue needs "copy, or write
// zeros" (cp.async's src-size operand: 0 bytes read, the rest of the destination zeroed),
// so an out-of-bounds element contributes 0 to the product and nothing outside the matrix
// is read.  Kept here, clearly separate, until the atoms offer a predicated variant.
#pragma once

#include <cstdint>

namespace tessera::kernels::arch {

__device__ __forceinline__ std::uint32_t smem_addr(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

// 16 bytes, L2 only (.cg): operand tiles are re-read from L2 by other CTAs, not from L1.
// L2Prefetch: how many bytes around the line L2 fetches from DRAM on a miss.
template <int L2Prefetch = 128>
__device__ __forceinline__ void cp_async_16_zfill(void* smem, const void* gmem, bool pred) {
  static_assert(L2Prefetch == 64 || L2Prefetch == 128 || L2Prefetch == 256, "cp.async L2 prefetch: 64, 128 or 256 B");
  // (The hint is part of the instruction's name: one string literal per size.)
#define TESSERA_CP_ASYNC_CG_16(hint)                                                                        \
  asm volatile("cp.async.cg.shared.global" hint " [%0], [%1], 16, %2;\n" ::"r"(smem_addr(smem)), "l"(gmem), \
               "r"(pred ? 16 : 0))
  if constexpr (L2Prefetch == 256) TESSERA_CP_ASYNC_CG_16(".L2::256B");
  else if constexpr (L2Prefetch == 128) TESSERA_CP_ASYNC_CG_16(".L2::128B");
  else TESSERA_CP_ASYNC_CG_16(".L2::64B");
#undef TESSERA_CP_ASYNC_CG_16
}

// 4 bytes (.ca: the only caching mode for sub-16-byte cp.async).
__device__ __forceinline__ void cp_async_4_zfill(void* smem, const void* gmem, bool pred) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(smem_addr(smem)), "l"(gmem),
               "r"(pred ? 4 : 0));
}

__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }

template <int N>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}

}  // namespace tessera::kernels::arch
