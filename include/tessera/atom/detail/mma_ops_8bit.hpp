// The instruction side of the Hopper 8-bit wgmma atoms (m64nNk32: .e4m3/.e5m2 with f16 or f32
// accumulators, .s8/.u8 with s32), built from the 16-bit atoms' machinery in mma_ops.hpp. A
// header of its own: their inline PTX (24 functions of 32 sizes each) doubles the text a
// translation unit that includes every atom parses, so only those that use them include it
// (through tessera/atom/mma_sm90_8bit.hpp).
#pragma once

#include "tessera/atom/detail/mma_ops.hpp"

namespace tessera {
namespace detail {
// 8-bit operands (k = 32): .e4m3/.e5m2 (f16 or f32 accumulators) take the two scale
// immediates, .s8/.u8 (s32 accumulators) none; neither has transpose immediates (A and B are
// K-major), so the cases are the tf32 ones at k32, and the integer ones end at the predicate.
#define TESSERA_WGMMA_SS_K32_CASE(TYPES, C, n, K, K1, K2, K3, K4, K5, K6, K7, K8)                  \
  if constexpr (N == n) {                                                                         \
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %" #K2 ", 0;\n"                                \
                 "wgmma.mma_async.sync.aligned.m64n" #n "k32." TYPES " "                          \
                 "{%0" TESSERA_WGMMA_REGS_##K(TESSERA_WGMMA_REG_NAME, ) "}, "                     \
                 "%" #K ", %" #K1 ", p, %" #K3 ", %" #K4 ";\n}\n"                                 \
                 : C(d[0]) TESSERA_WGMMA_REGS_##K(TESSERA_WGMMA_REG_OPERAND, C)                   \
                 : "l"(a[0]), "l"(b[0]), "r"(scale_d), "n"(SA), "n"(SB));                         \
  }
#define TESSERA_WGMMA_RS_K32_CASE(TYPES, C, n, K, K1, K2, K3, K4, K5, K6, K7, K8)                  \
  if constexpr (N == n) {                                                                         \
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %" #K5 ", 0;\n"                                \
                 "wgmma.mma_async.sync.aligned.m64n" #n "k32." TYPES " "                          \
                 "{%0" TESSERA_WGMMA_REGS_##K(TESSERA_WGMMA_REG_NAME, ) "}, "                     \
                 "{%" #K ", %" #K1 ", %" #K2 ", %" #K3 "}, %" #K4 ", p, %" #K6 ", %" #K7 ";\n}\n"    \
                 : C(d[0]) TESSERA_WGMMA_REGS_##K(TESSERA_WGMMA_REG_OPERAND, C)                   \
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b[0]), "r"(scale_d), "n"(SA),  \
                   "n"(SB));                                                                      \
  }
#define TESSERA_WGMMA_SS_K32_INT_CASE(TYPES, C, n, K, K1, K2, K3, K4, K5, K6, K7, K8)              \
  if constexpr (N == n) {                                                                         \
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %" #K2 ", 0;\n"                                \
                 "wgmma.mma_async.sync.aligned.m64n" #n "k32." TYPES " "                          \
                 "{%0" TESSERA_WGMMA_REGS_##K(TESSERA_WGMMA_REG_NAME, ) "}, "                     \
                 "%" #K ", %" #K1 ", p;\n}\n"                                                     \
                 : C(d[0]) TESSERA_WGMMA_REGS_##K(TESSERA_WGMMA_REG_OPERAND, C)                   \
                 : "l"(a[0]), "l"(b[0]), "r"(scale_d));                                           \
  }
#define TESSERA_WGMMA_RS_K32_INT_CASE(TYPES, C, n, K, K1, K2, K3, K4, K5, K6, K7, K8)              \
  if constexpr (N == n) {                                                                         \
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %" #K5 ", 0;\n"                                \
                 "wgmma.mma_async.sync.aligned.m64n" #n "k32." TYPES " "                          \
                 "{%0" TESSERA_WGMMA_REGS_##K(TESSERA_WGMMA_REG_NAME, ) "}, "                     \
                 "{%" #K ", %" #K1 ", %" #K2 ", %" #K3 "}, %" #K4 ", p;\n}\n"                     \
                 : C(d[0]) TESSERA_WGMMA_REGS_##K(TESSERA_WGMMA_REG_OPERAND, C)                   \
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b[0]), "r"(scale_d));          \
  }
// Each A/B type pair: f16 and f32 accumulators (e4m3/e5m2), or s32 (s8/u8); SS and RS.
#define TESSERA_WGMMA_FP8_FNS(AB, TYPES)                                                                       \
  TESSERA_WGMMA_FN(wgmma_F16##AB##_SS, TESSERA_WGMMA_ROWS_F16ACC, TESSERA_WGMMA_SS_K32_CASE, "f16." TYPES, "+r") \
  TESSERA_WGMMA_FN(wgmma_F16##AB##_RS, TESSERA_WGMMA_ROWS_F16ACC, TESSERA_WGMMA_RS_K32_CASE, "f16." TYPES, "+r") \
  TESSERA_WGMMA_FN(wgmma_F32##AB##_SS, TESSERA_WGMMA_ROWS_F32ACC, TESSERA_WGMMA_SS_K32_CASE, "f32." TYPES, "+f") \
  TESSERA_WGMMA_FN(wgmma_F32##AB##_RS, TESSERA_WGMMA_ROWS_F32ACC, TESSERA_WGMMA_RS_K32_CASE, "f32." TYPES, "+f")
TESSERA_WGMMA_FP8_FNS(E4M3E4M3, "e4m3.e4m3")
TESSERA_WGMMA_FP8_FNS(E4M3E5M2, "e4m3.e5m2")
TESSERA_WGMMA_FP8_FNS(E5M2E4M3, "e5m2.e4m3")
TESSERA_WGMMA_FP8_FNS(E5M2E5M2, "e5m2.e5m2")
#define TESSERA_WGMMA_INT8_FNS(AB, TYPES)                                                                          \
  TESSERA_WGMMA_FN(wgmma_S32##AB##_SS, TESSERA_WGMMA_ROWS_F32ACC, TESSERA_WGMMA_SS_K32_INT_CASE, "s32." TYPES, "+r") \
  TESSERA_WGMMA_FN(wgmma_S32##AB##_RS, TESSERA_WGMMA_ROWS_F32ACC, TESSERA_WGMMA_RS_K32_INT_CASE, "s32." TYPES, "+r")
TESSERA_WGMMA_INT8_FNS(S8S8, "s8.s8")
TESSERA_WGMMA_INT8_FNS(S8U8, "s8.u8")
TESSERA_WGMMA_INT8_FNS(U8S8, "u8.s8")
TESSERA_WGMMA_INT8_FNS(U8U8, "u8.u8")
#undef TESSERA_WGMMA_INT8_FNS
#undef TESSERA_WGMMA_FP8_FNS
#undef TESSERA_WGMMA_RS_K32_INT_CASE
#undef TESSERA_WGMMA_SS_K32_INT_CASE
#undef TESSERA_WGMMA_RS_K32_CASE
#undef TESSERA_WGMMA_SS_K32_CASE

}  // namespace detail

// SM90_64xNx32_<acc><A><B>_<SS|RS><N, MajorA, MajorB, ScaleA, ScaleB>: wgmma.mma_async m64nNk32
// on 8-bit operands: .e4m3/.e5m2 with f16 (F16, two per register) or f32 accumulators, .s8/.u8
// with s32 accumulators. A and B must be K-major (the ISA's transpose applies to 16-bit types
// only); integer wgmma has no operand negation and fewer sizes N.
#define TESSERA_WGMMA_8BIT_ATOM(NAME, FN, ACC, PER, A_REGISTERS, INTEGER)                               \
  template <int N, GMMA::Major MajorA = GMMA::Major::K, GMMA::Major MajorB = GMMA::Major::K,            \
            GMMA::ScaleIn ScaleA = GMMA::ScaleIn::One, GMMA::ScaleIn ScaleB = GMMA::ScaleIn::One>        \
  struct NAME {                                                                                        \
    static_assert(N % 8 == 0 && N >= 8 && N <= 256, "wgmma m64nNk32: N must be a multiple of 8 in [8, 256]"); \
    static_assert(!INTEGER || N <= 32 || N % 16 == 0,                                                  \
                  "wgmma m64nNk32 on .s8/.u8: N must be 8, 16, 24, 32 or a multiple of 16 up to 256");   \
    static_assert(MajorA == GMMA::Major::K && MajorB == GMMA::Major::K,                                \
                  "wgmma on 8-bit types (e4m3, e5m2, s8, u8) needs K-major A and B (the PTX ISA transposes 16-bit operands only)"); \
    static_assert(!INTEGER || (ScaleA == GMMA::ScaleIn::One && ScaleB == GMMA::ScaleIn::One),          \
                  "wgmma on .s8/.u8 cannot negate an operand (imm-scale-a/b exist for floating-point types only)"); \
    using DRegisters = ACC[N / PER];                                                                   \
    using ARegisters = A_REGISTERS;                                                                    \
    using BRegisters = uint64_t[1]; /* smem matrix descriptor */                                       \
    using CRegisters = ACC[N / PER];                                                                   \
    TESSERA_DEVICE static void fma(DRegisters& d, ARegisters const& a, BRegisters const& b,            \
                                   GMMA::ScaleOut scale_d = GMMA::ScaleOut::One) {                     \
      TESSERA_WGMMA_ISSUE(NAME, FN)                                                                    \
    }                                                                                                  \
  };                                                                                                   \
  TESSERA_WGMMA_IS_WGMMA(NAME)
#define TESSERA_WGMMA_FP8_ATOMS(AB)                                                                            \
  TESSERA_WGMMA_8BIT_ATOM(SM90_64xNx32_F16##AB##_SS, wgmma_F16##AB##_SS, uint32_t, 4, uint64_t[1], false)       \
  TESSERA_WGMMA_8BIT_ATOM(SM90_64xNx32_F16##AB##_RS, wgmma_F16##AB##_RS, uint32_t, 4, uint32_t[4], false)       \
  TESSERA_WGMMA_8BIT_ATOM(SM90_64xNx32_F32##AB##_SS, wgmma_F32##AB##_SS, float, 2, uint64_t[1], false)          \
  TESSERA_WGMMA_8BIT_ATOM(SM90_64xNx32_F32##AB##_RS, wgmma_F32##AB##_RS, float, 2, uint32_t[4], false)
TESSERA_WGMMA_FP8_ATOMS(E4M3E4M3)
TESSERA_WGMMA_FP8_ATOMS(E4M3E5M2)
TESSERA_WGMMA_FP8_ATOMS(E5M2E4M3)
TESSERA_WGMMA_FP8_ATOMS(E5M2E5M2)
#define TESSERA_WGMMA_INT8_ATOMS(AB)                                                                           \
  TESSERA_WGMMA_8BIT_ATOM(SM90_64xNx32_S32##AB##_SS, wgmma_S32##AB##_SS, int32_t, 2, uint64_t[1], true)         \
  TESSERA_WGMMA_8BIT_ATOM(SM90_64xNx32_S32##AB##_RS, wgmma_S32##AB##_RS, int32_t, 2, uint32_t[4], true)
TESSERA_WGMMA_INT8_ATOMS(S8S8)
TESSERA_WGMMA_INT8_ATOMS(S8U8)
TESSERA_WGMMA_INT8_ATOMS(U8S8)
TESSERA_WGMMA_INT8_ATOMS(U8U8)
#undef TESSERA_WGMMA_INT8_ATOMS
#undef TESSERA_WGMMA_FP8_ATOMS
#undef TESSERA_WGMMA_8BIT_ATOM
#undef TESSERA_WGMMA_ISSUE
#undef TESSERA_WGMMA_IS_WGMMA
#undef TESSERA_WGMMA_FN
#undef TESSERA_WGMMA_REG_OPERAND
#undef TESSERA_WGMMA_REG_NAME

}  // namespace tessera
