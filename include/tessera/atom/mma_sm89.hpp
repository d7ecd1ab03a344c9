// Ada (SM89) mma.sync on FP8: mma.sync.aligned.m16n8k32.row.col with .e4m3/.e5m2 operands and
// .f32 or .f16 accumulators (PTX ISA, "Warp-level Matrix Multiply-Accumulate Instructions",
// mma: "Matrix Fragments for mma.m16n8k32", the figures shared by .s8/.u8/.e4m3/.e5m2). The
// fragments are those of the 8-bit integer m16n8k32 (mma_sm80.hpp): each register packs four
// consecutive K elements, so the TV layouts are SM80_16x8x32_S32S8S8S32_TN's; CuTe's traits
// (cute/atom/mma_traits_sm89.hpp) are the same layouts. A header of its own: only the code that
// uses these atoms parses them.
#pragma once

#include "tessera/atom/detail/arch.hpp"
#include "tessera/atom/mma_sm80.hpp"

namespace tessera {

// SM89_16x8x32_<D><A><B><C>_TN: D = C = F32 (four f32 registers) or F16 (two registers of two
// halves); A four registers of 4 FP8 values, B two. Issued where __CUDA_ARCH__ >= 890 (f16
// accumulators need PTX ISA 8.7), elsewhere it stops as every tessera atom does.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
#define TESSERA_SM89_ISSUE(NAME, ...) __VA_ARGS__
#else
#define TESSERA_SM89_ISSUE(NAME, ...)                  \
  detail::mma_unsupported(#NAME " needs sm_89");       \
  (void)d; (void)a; (void)b; (void)c;
#endif
#define TESSERA_SM89_F32(NAME, TYPES)                                                                           \
  struct NAME {                                                                                                 \
    using DRegisters = float[4];                                                                                \
    using ARegisters = uint32_t[4];                                                                             \
    using BRegisters = uint32_t[2];                                                                             \
    using CRegisters = float[4];                                                                                \
    TESSERA_DEVICE static void fma(DRegisters& d, ARegisters const& a, BRegisters const& b, CRegisters const& c) { \
      TESSERA_SM89_ISSUE(NAME, asm volatile("mma.sync.aligned.m16n8k32.row.col.f32." TYPES ".f32 "                \
                                            "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};\n" \
                                            : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])                    \
                                            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), \
                                              "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));)                     \
    }                                                                                                           \
  };
#define TESSERA_SM89_F16(NAME, TYPES)                                                                           \
  struct NAME {                                                                                                 \
    using DRegisters = uint32_t[2];                                                                             \
    using ARegisters = uint32_t[4];                                                                             \
    using BRegisters = uint32_t[2];                                                                             \
    using CRegisters = uint32_t[2];                                                                             \
    TESSERA_DEVICE static void fma(DRegisters& d, ARegisters const& a, BRegisters const& b, CRegisters const& c) { \
      TESSERA_SM89_ISSUE(NAME, asm volatile("mma.sync.aligned.m16n8k32.row.col.f16." TYPES ".f16 "                \
                                            "{%0, %1}, {%2, %3, %4, %5}, {%6, %7}, {%8, %9};\n"                 \
                                            : "=r"(d[0]), "=r"(d[1])                                            \
                                            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), \
                                              "r"(c[0]), "r"(c[1]));)                                           \
    }                                                                                                           \
  };
TESSERA_SM89_F32(SM89_16x8x32_F32E4M3E4M3F32_TN, "e4m3.e4m3")
TESSERA_SM89_F32(SM89_16x8x32_F32E4M3E5M2F32_TN, "e4m3.e5m2")
TESSERA_SM89_F32(SM89_16x8x32_F32E5M2E4M3F32_TN, "e5m2.e4m3")
TESSERA_SM89_F32(SM89_16x8x32_F32E5M2E5M2F32_TN, "e5m2.e5m2")
TESSERA_SM89_F16(SM89_16x8x32_F16E4M3E4M3F16_TN, "e4m3.e4m3")
TESSERA_SM89_F16(SM89_16x8x32_F16E4M3E5M2F16_TN, "e4m3.e5m2")
TESSERA_SM89_F16(SM89_16x8x32_F16E5M2E4M3F16_TN, "e5m2.e4m3")
TESSERA_SM89_F16(SM89_16x8x32_F16E5M2E5M2F16_TN, "e5m2.e5m2")
#undef TESSERA_SM89_F16
#undef TESSERA_SM89_F32
#undef TESSERA_SM89_ISSUE

namespace sm89 {
template <class D, class A, class B>
using Traits_16x8x32_FP8 = sm80::Traits<D, A, B, D, 16, 8, 32, sm80::A_16x32_S8, sm80::B_32x8_S8>;
}  // namespace sm89

TESSERA_MMA_TRAITS(SM89_16x8x32_F32E4M3E4M3F32_TN, sm89::Traits_16x8x32_FP8<float, float_e4m3_t, float_e4m3_t>)
TESSERA_MMA_TRAITS(SM89_16x8x32_F32E4M3E5M2F32_TN, sm89::Traits_16x8x32_FP8<float, float_e4m3_t, float_e5m2_t>)
TESSERA_MMA_TRAITS(SM89_16x8x32_F32E5M2E4M3F32_TN, sm89::Traits_16x8x32_FP8<float, float_e5m2_t, float_e4m3_t>)
TESSERA_MMA_TRAITS(SM89_16x8x32_F32E5M2E5M2F32_TN, sm89::Traits_16x8x32_FP8<float, float_e5m2_t, float_e5m2_t>)
TESSERA_MMA_TRAITS(SM89_16x8x32_F16E4M3E4M3F16_TN, sm89::Traits_16x8x32_FP8<half_t, float_e4m3_t, float_e4m3_t>)
TESSERA_MMA_TRAITS(SM89_16x8x32_F16E4M3E5M2F16_TN, sm89::Traits_16x8x32_FP8<half_t, float_e4m3_t, float_e5m2_t>)
TESSERA_MMA_TRAITS(SM89_16x8x32_F16E5M2E4M3F16_TN, sm89::Traits_16x8x32_FP8<half_t, float_e5m2_t, float_e4m3_t>)
TESSERA_MMA_TRAITS(SM89_16x8x32_F16E5M2E5M2F16_TN, sm89::Traits_16x8x32_FP8<half_t, float_e5m2_t, float_e5m2_t>)

}  // namespace tessera
