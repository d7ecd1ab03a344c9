// Predicated cp.async with zero fill (SM80+): copy Bytes global -> shared, or, when the
// predicate is false, read nothing and write Bytes zeros (the instruction's src-size operand
// is 0).  A GEMM residue needs exactly this: an element outside the matrix contributes 0
// to the product and nothing outside the matrix is read.  Same layouts as cp.async
// (tessera/atom/copy_sm80.hpp); tessera::copy_if passes the predicate to the instruction
// (a false predicate still issues it, to write the zeros).
//   SM80_CP_ASYNC_CACHEALWAYS_ZFILL<Bytes>               .ca, 4, 8 or 16 bytes
//   SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<Bytes, L2Prefetch>   .cg, 16 bytes; L2Prefetch 0 (no hint),
//                                                        64, 128 or 256: the bytes L2 fetches
//                                                        around a miss (.L2::NB)
#pragma once

#include "tessera/atom/copy_atom.hpp"

namespace tessera {

template <int Bytes>
struct SM80_CP_ASYNC_CACHEALWAYS_ZFILL {
  static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16, "cp.async.ca copies 4, 8 or 16 bytes");
  static constexpr bool zero_fills = true;
  using SRegisters = unsigned char[Bytes];
  using DRegisters = unsigned char[Bytes];
  TESSERA_DEVICE static void copy(SRegisters const& gmem_src, DRegisters& smem_dst, bool pred) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(detail::smem_u32(&smem_dst)),
                 "l"(&gmem_src), "n"(Bytes), "r"(pred ? Bytes : 0));
#else
    detail::mma_unsupported("cp.async needs sm_80");
    (void)gmem_src; (void)smem_dst; (void)pred;
#endif
  }
};

template <int Bytes, int L2Prefetch = 0>
struct SM80_CP_ASYNC_CACHEGLOBAL_ZFILL {
  static_assert(Bytes == 16, "cp.async.cg copies exactly 16 bytes");
  static_assert(L2Prefetch == 0 || L2Prefetch == 64 || L2Prefetch == 128 || L2Prefetch == 256,
                "cp.async L2 prefetch hint: 0 (none), 64, 128 or 256 bytes");
  static constexpr bool zero_fills = true;
  using SRegisters = unsigned char[Bytes];
  using DRegisters = unsigned char[Bytes];
  TESSERA_DEVICE static void copy(SRegisters const& gmem_src, DRegisters& smem_dst, bool pred) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    // (The hint is part of the instruction's name: one string literal per size.)
#define TESSERA_CP_ASYNC_CG_ZFILL(HINT)                                                        \
  asm volatile("cp.async.cg.shared.global" HINT " [%0], [%1], %2, %3;\n" ::"r"(               \
                   detail::smem_u32(&smem_dst)),                                               \
               "l"(&gmem_src), "n"(Bytes), "r"(pred ? Bytes : 0))
    if constexpr (L2Prefetch == 256) TESSERA_CP_ASYNC_CG_ZFILL(".L2::256B");
    else if constexpr (L2Prefetch == 128) TESSERA_CP_ASYNC_CG_ZFILL(".L2::128B");
    else if constexpr (L2Prefetch == 64) TESSERA_CP_ASYNC_CG_ZFILL(".L2::64B");
    else TESSERA_CP_ASYNC_CG_ZFILL("");
#undef TESSERA_CP_ASYNC_CG_ZFILL
#else
    detail::mma_unsupported("cp.async needs sm_80");
    (void)gmem_src; (void)smem_dst; (void)pred;
#endif
  }
};

namespace sm80 {
// One thread, Bytes contiguous bytes, the same on both sides (bits).
template <int Bytes>
struct CpAsyncTraits {
  using ThrID = Layout<_1, _0>;
  using SrcLayout = Layout<tuple<_1, C<8 * Bytes>>, tuple<_0, _1>>;
  using DstLayout = Layout<tuple<_1, C<8 * Bytes>>, tuple<_0, _1>>;
  using RefLayout = SrcLayout;
};
}  // namespace sm80

template <int Bytes>
struct Copy_Traits<SM80_CP_ASYNC_CACHEALWAYS_ZFILL<Bytes>> : sm80::CpAsyncTraits<Bytes> {
  static constexpr const char* name = "SM80_CP_ASYNC_CACHEALWAYS_ZFILL";
};
template <int Bytes, int L2Prefetch>
struct Copy_Traits<SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<Bytes, L2Prefetch>> : sm80::CpAsyncTraits<Bytes> {
  static constexpr const char* name = "SM80_CP_ASYNC_CACHEGLOBAL_ZFILL";
};

}  // namespace tessera
