// The instruction side of tessera's copy atoms: register types and the inline PTX of
// ldmatrix (SM75), cp.async (SM80) and stmatrix (SM90).  Layout traits live in tessera/atom/copy_sm*.hpp.
#pragma once

#include <cstdint>

#include "tessera/atom/detail/arch.hpp"
#include "tessera/atom/numeric.hpp"

namespace tessera {

namespace detail {
#if defined(__CUDA_ARCH__)
// Shared-memory pointers are passed to PTX as 32-bit .shared addresses.
TESSERA_DEVICE uint32_t smem_u32(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
#endif
}  // namespace detail

// ---------------------------------------------------------------- ldmatrix (SM75+)
// Each op: SRegisters = the 128-bit row this thread addresses (only the address is used),
// DRegisters = the 32-bit registers the thread receives.
#define TESSERA_LDSM_OP(NAME, COUNT, PTX)                                                   \
  struct NAME {                                                                              \
    using SRegisters = uint128_t[1];                                                         \
    using DRegisters = uint32_t[COUNT];                                                      \
    static constexpr int num_matrices = COUNT;                                               \
    TESSERA_DEVICE static void copy(uint128_t const& smem_src, DRegisters& dst) {            \
      TESSERA_LDSM_ASM_##COUNT(PTX)                                                          \
    }                                                                                        \
  };

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 750
#define TESSERA_LDSM_ASM_1(PTX)                                                             \
  asm volatile(PTX " {%0}, [%1];\n" : "=r"(dst[0]) : "r"(detail::smem_u32(&smem_src)));
#define TESSERA_LDSM_ASM_2(PTX)                                                             \
  asm volatile(PTX " {%0, %1}, [%2];\n"                                                      \
               : "=r"(dst[0]), "=r"(dst[1])                                                  \
               : "r"(detail::smem_u32(&smem_src)));
#define TESSERA_LDSM_ASM_4(PTX)                                                             \
  asm volatile(PTX " {%0, %1, %2, %3}, [%4];\n"                                              \
               : "=r"(dst[0]), "=r"(dst[1]), "=r"(dst[2]), "=r"(dst[3])                      \
               : "r"(detail::smem_u32(&smem_src)));
#else
#define TESSERA_LDSM_ASM_1(PTX) detail::mma_unsupported(PTX " needs sm_75"); (void)smem_src; (void)dst;
#define TESSERA_LDSM_ASM_2(PTX) TESSERA_LDSM_ASM_1(PTX)
#define TESSERA_LDSM_ASM_4(PTX) TESSERA_LDSM_ASM_1(PTX)
#endif

TESSERA_LDSM_OP(SM75_U32x1_LDSM_N, 1, "ldmatrix.sync.aligned.m8n8.x1.shared.b16")
TESSERA_LDSM_OP(SM75_U32x2_LDSM_N, 2, "ldmatrix.sync.aligned.m8n8.x2.shared.b16")
TESSERA_LDSM_OP(SM75_U32x4_LDSM_N, 4, "ldmatrix.sync.aligned.m8n8.x4.shared.b16")
TESSERA_LDSM_OP(SM75_U16x2_LDSM_T, 1, "ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16")
TESSERA_LDSM_OP(SM75_U16x4_LDSM_T, 2, "ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16")
TESSERA_LDSM_OP(SM75_U16x8_LDSM_T, 4, "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16")

#undef TESSERA_LDSM_OP
#undef TESSERA_LDSM_ASM_1
#undef TESSERA_LDSM_ASM_2
#undef TESSERA_LDSM_ASM_4

// ---------------------------------------------------------------- stmatrix (SM90+)
// The inverse of ldmatrix: each op: SRegisters = the 32-bit registers the thread gives,
// DRegisters = the 128-bit row this thread addresses (only the address is used).
#define TESSERA_STSM_OP(NAME, COUNT, PTX)                                                   \
  struct NAME {                                                                              \
    using SRegisters = uint32_t[COUNT];                                                      \
    using DRegisters = uint128_t[1];                                                         \
    static constexpr int stored_matrices = COUNT;                                            \
    TESSERA_DEVICE static void copy(SRegisters const& src, uint128_t& smem_dst) {            \
      TESSERA_STSM_ASM_##COUNT(PTX)                                                          \
    }                                                                                        \
  };

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define TESSERA_STSM_ASM_1(PTX)                                                             \
  asm volatile(PTX " [%0], {%1};\n" ::"r"(detail::smem_u32(&smem_dst)), "r"(src[0]));
#define TESSERA_STSM_ASM_2(PTX)                                                             \
  asm volatile(PTX " [%0], {%1, %2};\n" ::"r"(detail::smem_u32(&smem_dst)), "r"(src[0]), "r"(src[1]));
#define TESSERA_STSM_ASM_4(PTX)                                                             \
  asm volatile(PTX " [%0], {%1, %2, %3, %4};\n" ::"r"(detail::smem_u32(&smem_dst)), "r"(src[0]), "r"(src[1]), \
               "r"(src[2]), "r"(src[3]));
#else
#define TESSERA_STSM_ASM_1(PTX) detail::mma_unsupported(PTX " needs sm_90"); (void)src; (void)smem_dst;
#define TESSERA_STSM_ASM_2(PTX) TESSERA_STSM_ASM_1(PTX)
#define TESSERA_STSM_ASM_4(PTX) TESSERA_STSM_ASM_1(PTX)
#endif

TESSERA_STSM_OP(SM90_U32x1_STSM_N, 1, "stmatrix.sync.aligned.m8n8.x1.shared.b16")
TESSERA_STSM_OP(SM90_U32x2_STSM_N, 2, "stmatrix.sync.aligned.m8n8.x2.shared.b16")
TESSERA_STSM_OP(SM90_U32x4_STSM_N, 4, "stmatrix.sync.aligned.m8n8.x4.shared.b16")
TESSERA_STSM_OP(SM90_U16x2_STSM_T, 1, "stmatrix.sync.aligned.m8n8.x1.trans.shared.b16")
TESSERA_STSM_OP(SM90_U16x4_STSM_T, 2, "stmatrix.sync.aligned.m8n8.x2.trans.shared.b16")
TESSERA_STSM_OP(SM90_U16x8_STSM_T, 4, "stmatrix.sync.aligned.m8n8.x4.trans.shared.b16")

#undef TESSERA_STSM_OP
#undef TESSERA_STSM_ASM_1
#undef TESSERA_STSM_ASM_2
#undef TESSERA_STSM_ASM_4

// ---------------------------------------------------------------- cp.async (SM80+)
// One thread copies Bytes from global to shared memory without staging in registers.
// CACHEALWAYS (.ca) caches in L1 and L2 (4, 8 or 16 bytes); CACHEGLOBAL (.cg) only in L2
// (16 bytes only, as the ISA requires).
template <int Bytes>
struct SM80_CP_ASYNC_CACHEALWAYS {
  static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16, "cp.async.ca copies 4, 8 or 16 bytes");
  using SRegisters = unsigned char[Bytes];
  using DRegisters = unsigned char[Bytes];
  TESSERA_DEVICE static void copy(SRegisters const& gmem_src, DRegisters& smem_dst) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(detail::smem_u32(&smem_dst)),
                 "l"(&gmem_src), "n"(Bytes));
#else
    detail::mma_unsupported("cp.async needs sm_80");
    (void)gmem_src; (void)smem_dst;
#endif
  }
};

template <int Bytes>
struct SM80_CP_ASYNC_CACHEGLOBAL {
  static_assert(Bytes == 16, "cp.async.cg copies exactly 16 bytes");
  using SRegisters = unsigned char[Bytes];
  using DRegisters = unsigned char[Bytes];
  TESSERA_DEVICE static void copy(SRegisters const& gmem_src, DRegisters& smem_dst) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.cg.shared.global [%0], [%1], %2;\n" ::"r"(detail::smem_u32(&smem_dst)),
                 "l"(&gmem_src), "n"(Bytes));
#else
    detail::mma_unsupported("cp.async needs sm_80");
    (void)gmem_src; (void)smem_dst;
#endif
  }
};

// Commit the cp.async issued so far as a group; wait until at most N groups are pending.
// (Host and device: on the host the cp.async atoms copy synchronously, so both are no-ops.)
TESSERA_HOST_DEVICE TESSERA_INLINE void cp_async_fence() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::);
#endif
}
template <int N>
TESSERA_HOST_DEVICE TESSERA_INLINE void cp_async_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if constexpr (N == 0) asm volatile("cp.async.wait_all;\n" ::);
  else asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
#endif
}

}  // namespace tessera
