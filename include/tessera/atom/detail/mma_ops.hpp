// The instruction side of tessera's MMA atoms: register types and the inline PTX of each
// mma.sync / wgmma.  Layout traits (which thread holds which element) live in
// tessera/atom/mma_sm*.hpp.  Each fma() issues its instruction only where the target
// architecture has it; elsewhere it traps (device) or aborts (host), never computes garbage.
#pragma once

#include <cstdint>
#include <type_traits>

#include "tessera/atom/detail/arch.hpp"

namespace tessera {

// ---------------------------------------------------------------- mma.sync
// TESSERA_MMA_SYNC(NAME, ARCH, SHAPE_AND_TYPES, D, #D, A, #A, B, #B, C, #C) defines the atom NAME:
// mma.sync.aligned.SHAPE_AND_TYPES with #X registers of element tag X (u32, s32, f32, f64) per
// operand, issued where __CUDA_ARCH__ >= ARCH * 10.
#define TESSERA_MMA_SYNC_TYPE_u32 uint32_t
#define TESSERA_MMA_SYNC_TYPE_s32 int32_t
#define TESSERA_MMA_SYNC_TYPE_f32 float
#define TESSERA_MMA_SYNC_TYPE_f64 double
#define TESSERA_MMA_SYNC_CONSTRAINT_u32 "r"
#define TESSERA_MMA_SYNC_CONSTRAINT_s32 "r"
#define TESSERA_MMA_SYNC_CONSTRAINT_f32 "f"
#define TESSERA_MMA_SYNC_CONSTRAINT_f64 "d"
// c(x[0]), ..., c(x[n-1])
#define TESSERA_MMA_SYNC_LIST_1(c, x) c(x[0])
#define TESSERA_MMA_SYNC_LIST_2(c, x) c(x[0]), c(x[1])
#define TESSERA_MMA_SYNC_LIST_4(c, x) TESSERA_MMA_SYNC_LIST_2(c, x), c(x[2]), c(x[3])
#define TESSERA_MMA_SYNC_LIST_8(c, x) TESSERA_MMA_SYNC_LIST_4(c, x), c(x[4]), c(x[5]), c(x[6]), c(x[7])
// The operands of each register count #D_#A_#B_#C, numbered in that order.
#define TESSERA_MMA_SYNC_OPERANDS_2_1_1_2 "{%0, %1}, {%2}, {%3}, {%4, %5}"
#define TESSERA_MMA_SYNC_OPERANDS_2_2_1_2 "{%0, %1}, {%2, %3}, {%4}, {%5, %6}"
#define TESSERA_MMA_SYNC_OPERANDS_2_4_2_2 "{%0, %1}, {%2, %3, %4, %5}, {%6, %7}, {%8, %9}"
#define TESSERA_MMA_SYNC_OPERANDS_4_2_1_4 "{%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10}"
#define TESSERA_MMA_SYNC_OPERANDS_4_2_2_4 "{%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11}"
#define TESSERA_MMA_SYNC_OPERANDS_4_4_2_4 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13}"
#define TESSERA_MMA_SYNC_OPERANDS_8_2_2_8 \
  "{%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9}, {%10, %11}, {%12, %13, %14, %15, %16, %17, %18, %19}"
// TESSERA_MMA_SYNC_ISSUE_<ARCH>(NAME, statement): the statement where the target has sm_<ARCH>.
#define TESSERA_MMA_SYNC_UNSUPPORTED(NAME, ARCH)          \
  detail::mma_unsupported(#NAME " needs sm_" #ARCH);      \
  (void)d; (void)a; (void)b; (void)c;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
#define TESSERA_MMA_SYNC_ISSUE_70(NAME, ...) __VA_ARGS__
#else
#define TESSERA_MMA_SYNC_ISSUE_70(NAME, ...) TESSERA_MMA_SYNC_UNSUPPORTED(NAME, 70)
#endif
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 750
#define TESSERA_MMA_SYNC_ISSUE_75(NAME, ...) __VA_ARGS__
#else
#define TESSERA_MMA_SYNC_ISSUE_75(NAME, ...) TESSERA_MMA_SYNC_UNSUPPORTED(NAME, 75)
#endif
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define TESSERA_MMA_SYNC_ISSUE_80(NAME, ...) __VA_ARGS__
#else
#define TESSERA_MMA_SYNC_ISSUE_80(NAME, ...) TESSERA_MMA_SYNC_UNSUPPORTED(NAME, 80)
#endif
#define TESSERA_MMA_SYNC(NAME, ARCH, SHAPE_AND_TYPES, D, ND, A, NA, B, NB, C, NC)                        \
  struct NAME {                                                                                         \
    using DRegisters = TESSERA_MMA_SYNC_TYPE_##D[ND];                                                    \
    using ARegisters = TESSERA_MMA_SYNC_TYPE_##A[NA];                                                    \
    using BRegisters = TESSERA_MMA_SYNC_TYPE_##B[NB];                                                    \
    using CRegisters = TESSERA_MMA_SYNC_TYPE_##C[NC];                                                    \
    TESSERA_DEVICE static void fma(DRegisters& d, ARegisters const& a, BRegisters const& b,             \
                                   CRegisters const& c) {                                               \
      TESSERA_MMA_SYNC_ISSUE_##ARCH(                                                                     \
          NAME, asm volatile("mma.sync.aligned." SHAPE_AND_TYPES " "                                     \
                             TESSERA_MMA_SYNC_OPERANDS_##ND##_##NA##_##NB##_##NC ";\n"                   \
                             : TESSERA_MMA_SYNC_LIST_##ND("=" TESSERA_MMA_SYNC_CONSTRAINT_##D, d)        \
                             : TESSERA_MMA_SYNC_LIST_##NA(TESSERA_MMA_SYNC_CONSTRAINT_##A, a),           \
                               TESSERA_MMA_SYNC_LIST_##NB(TESSERA_MMA_SYNC_CONSTRAINT_##B, b),           \
                               TESSERA_MMA_SYNC_LIST_##NC(TESSERA_MMA_SYNC_CONSTRAINT_##C, c));)         \
    }                                                                                                   \
  };

// mma.sync.m8n8k4.row.col f16 x f16 + f16 (quad-pair MMA, Volta)
TESSERA_MMA_SYNC(SM70_8x8x4_F16F16F16F16_TN, 70, "m8n8k4.row.col.f16.f16.f16.f16", u32, 4, u32, 2, u32, 2, u32, 4)
// mma.sync.m8n8k4.row.col f16 x f16 + f32 (quad-pair MMA, Volta)
TESSERA_MMA_SYNC(SM70_8x8x4_F32F16F16F32_TN, 70, "m8n8k4.row.col.f32.f16.f16.f32", f32, 8, u32, 2, u32, 2, f32, 8)
// mma.sync.m8n8k4.col.row f16 x f16 + f16 (quad-pair MMA, Volta)
TESSERA_MMA_SYNC(SM70_8x8x4_F16F16F16F16_NT, 70, "m8n8k4.col.row.f16.f16.f16.f16", u32, 4, u32, 2, u32, 2, u32, 4)
// mma.sync.m8n8k4.col.row f16 x f16 + f32 (quad-pair MMA, Volta)
TESSERA_MMA_SYNC(SM70_8x8x4_F32F16F16F32_NT, 70, "m8n8k4.col.row.f32.f16.f16.f32", f32, 8, u32, 2, u32, 2, f32, 8)
// mma.sync.m8n8k4.col.col f16 x f16 + f16 (quad-pair MMA, Volta)
TESSERA_MMA_SYNC(SM70_8x8x4_F16F16F16F16_NN, 70, "m8n8k4.col.col.f16.f16.f16.f16", u32, 4, u32, 2, u32, 2, u32, 4)
// mma.sync.m8n8k4.col.col f16 x f16 + f32 (quad-pair MMA, Volta)
TESSERA_MMA_SYNC(SM70_8x8x4_F32F16F16F32_NN, 70, "m8n8k4.col.col.f32.f16.f16.f32", f32, 8, u32, 2, u32, 2, f32, 8)
// mma.sync.m8n8k4.row.row f16 x f16 + f16 (quad-pair MMA, Volta)
TESSERA_MMA_SYNC(SM70_8x8x4_F16F16F16F16_TT, 70, "m8n8k4.row.row.f16.f16.f16.f16", u32, 4, u32, 2, u32, 2, u32, 4)
// mma.sync.m8n8k4.row.row f16 x f16 + f32 (quad-pair MMA, Volta)
TESSERA_MMA_SYNC(SM70_8x8x4_F32F16F16F32_TT, 70, "m8n8k4.row.row.f32.f16.f16.f32", f32, 8, u32, 2, u32, 2, f32, 8)
// mma.sync.m16n8k8 f16 x f16 + f32 (Turing)
TESSERA_MMA_SYNC(SM75_16x8x8_F32F16F16F32_TN, 75, "m16n8k8.row.col.f32.f16.f16.f32", f32, 4, u32, 2, u32, 1, f32, 4)
// mma.sync.m16n8k8 f16 x f16 + f16
TESSERA_MMA_SYNC(SM80_16x8x8_F16F16F16F16_TN, 80, "m16n8k8.row.col.f16.f16.f16.f16", u32, 2, u32, 2, u32, 1, u32, 2)
// mma.sync.m16n8k8 f16 x f16 + f32
TESSERA_MMA_SYNC(SM80_16x8x8_F32F16F16F32_TN, 80, "m16n8k8.row.col.f32.f16.f16.f32", f32, 4, u32, 2, u32, 1, f32, 4)
// mma.sync.m16n8k8 bf16 x bf16 + f32
TESSERA_MMA_SYNC(SM80_16x8x8_F32BF16BF16F32_TN, 80, "m16n8k8.row.col.f32.bf16.bf16.f32", f32, 4, u32, 2, u32, 1, f32, 4)
// mma.sync.m16n8k16 f16 x f16 + f16
TESSERA_MMA_SYNC(SM80_16x8x16_F16F16F16F16_TN, 80, "m16n8k16.row.col.f16.f16.f16.f16", u32, 2, u32, 4, u32, 2, u32, 2)
// mma.sync.m16n8k16 f16 x f16 + f32
TESSERA_MMA_SYNC(SM80_16x8x16_F32F16F16F32_TN, 80, "m16n8k16.row.col.f32.f16.f16.f32", f32, 4, u32, 4, u32, 2, f32, 4)
// mma.sync.m16n8k16 bf16 x bf16 + f32
TESSERA_MMA_SYNC(SM80_16x8x16_F32BF16BF16F32_TN, 80, "m16n8k16.row.col.f32.bf16.bf16.f32", f32, 4, u32, 4, u32, 2, f32, 4)
// mma.sync.m16n8k8 tf32 x tf32 + f32
TESSERA_MMA_SYNC(SM80_16x8x8_F32TF32TF32F32_TN, 80, "m16n8k8.row.col.f32.tf32.tf32.f32", f32, 4, u32, 4, u32, 2, f32, 4)
// mma.sync.m8n8k4 f64 x f64 + f64
TESSERA_MMA_SYNC(SM80_8x8x4_F64F64F64F64_TN, 80, "m8n8k4.row.col.f64.f64.f64.f64", f64, 2, f64, 1, f64, 1, f64, 2)
// mma.sync.m16n8k32 s8 x s8 + s32 (wrapping)
TESSERA_MMA_SYNC(SM80_16x8x32_S32S8S8S32_TN, 80, "m16n8k32.row.col.s32.s8.s8.s32", s32, 4, u32, 4, u32, 2, s32, 4)
#undef TESSERA_MMA_SYNC
#undef TESSERA_MMA_SYNC_CONSTRAINT_f32
#undef TESSERA_MMA_SYNC_CONSTRAINT_f64
#undef TESSERA_MMA_SYNC_CONSTRAINT_s32
#undef TESSERA_MMA_SYNC_CONSTRAINT_u32
#undef TESSERA_MMA_SYNC_ISSUE_70
#undef TESSERA_MMA_SYNC_ISSUE_75
#undef TESSERA_MMA_SYNC_ISSUE_80
#undef TESSERA_MMA_SYNC_LIST_1
#undef TESSERA_MMA_SYNC_LIST_2
#undef TESSERA_MMA_SYNC_LIST_4
#undef TESSERA_MMA_SYNC_LIST_8
#undef TESSERA_MMA_SYNC_OPERANDS_2_1_1_2
#undef TESSERA_MMA_SYNC_OPERANDS_2_2_1_2
#undef TESSERA_MMA_SYNC_OPERANDS_2_4_2_2
#undef TESSERA_MMA_SYNC_OPERANDS_4_2_1_4
#undef TESSERA_MMA_SYNC_OPERANDS_4_2_2_4
#undef TESSERA_MMA_SYNC_OPERANDS_4_4_2_4
#undef TESSERA_MMA_SYNC_OPERANDS_8_2_2_8
#undef TESSERA_MMA_SYNC_TYPE_f32
#undef TESSERA_MMA_SYNC_TYPE_f64
#undef TESSERA_MMA_SYNC_TYPE_s32
#undef TESSERA_MMA_SYNC_TYPE_u32
#undef TESSERA_MMA_SYNC_UNSUPPORTED

// ---------------------------------------------------------------- SM90 wgmma
namespace GMMA {
// A warpgroup: the four consecutive warps (128 threads, the first a multiple of 4) that issue
// one wgmma together.
inline constexpr int warpgroup_threads = 128;
enum class Major : int { K = 0, MN = 1 };          // operand's contiguous mode in smem
enum class ScaleOut : int { Zero = 0, One = 1 };   // D = A*B (Zero) or A*B + D (One)
enum class ScaleIn : int { Neg = -1, One = 1 };    // negate an input operand

// Ordering around wgmma: fence register/smem operands before the first wgmma, commit the
// issued wgmmas as a group, wait until at most N groups are in flight.
TESSERA_DEVICE void warpgroup_arrive() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#endif
}
TESSERA_DEVICE void warpgroup_commit_batch() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
#endif
}
template <int N>
TESSERA_DEVICE void warpgroup_wait() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
#endif
}
// Pins accumulator registers in place around wgmma issue and wait: without it the compiler
// may move ordinary reads or writes of them between a wgmma and its wait, and ptxas then
// serializes the wgmmas (warning C7514).
template <class T, int N>
TESSERA_DEVICE void warpgroup_fence_operand(T (&regs)[N]) {
#if defined(__CUDA_ARCH__)
#pragma unroll
  for (int i = 0; i < N; ++i) {
    if constexpr (sizeof(T) == 4 && std::is_floating_point_v<T>) asm volatile("" : "+f"(regs[i])::"memory");
    else asm volatile("" : "+r"(regs[i])::"memory");
  }
#else
  (void)regs;
#endif
}
// setmaxnreg: a warpgroup gives registers back to the CTA's pool (dealloc) or takes them
// (alloc), so a producer warpgroup that only issues TMA copies leaves its share to the
// consumers' accumulators. Every warp of the warpgroup executes it; it takes effect under a
// register cap at entry (__launch_bounds__(threads, 1)). Registers: a multiple of 8 in [24, 256].
template <int Registers>
TESSERA_DEVICE void warpgroup_reg_dealloc() {
  static_assert(Registers % 8 == 0 && Registers >= 24 && Registers <= 256, "setmaxnreg: a multiple of 8 in [24, 256]");
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(Registers));
#endif
}
template <int Registers>
TESSERA_DEVICE void warpgroup_reg_alloc() {
  static_assert(Registers % 8 == 0 && Registers >= 24 && Registers <= 256, "setmaxnreg: a multiple of 8 in [24, 256]");
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(Registers));
#endif
}
}  // namespace GMMA

namespace detail {

// ---- wgmma: the 32 sizes N = 8, 16, ..., 256 of each variant, from one template each
// An asm statement names its operands by number: the K accumulators (d) are %0..%K-1 and
// the operands after them (A, B, scale-d, immediates) are %K, %K+1, ...  The preprocessor
// cannot add, so the numbers are tabulated: TESSERA_WGMMA_REGS_K(X, c) expands X(c, i) for
// i = 1..K-1 (accumulator 0 is written out: it takes no separator).
#define TESSERA_WGMMA_REGS_2(X, c) X(c, 1)
#define TESSERA_WGMMA_REGS_4(X, c) TESSERA_WGMMA_REGS_2(X, c) X(c, 2) X(c, 3)
#define TESSERA_WGMMA_REGS_6(X, c) TESSERA_WGMMA_REGS_4(X, c) X(c, 4) X(c, 5)
#define TESSERA_WGMMA_REGS_8(X, c) TESSERA_WGMMA_REGS_6(X, c) X(c, 6) X(c, 7)
#define TESSERA_WGMMA_REGS_10(X, c) TESSERA_WGMMA_REGS_8(X, c) X(c, 8) X(c, 9)
#define TESSERA_WGMMA_REGS_12(X, c) TESSERA_WGMMA_REGS_10(X, c) X(c, 10) X(c, 11)
#define TESSERA_WGMMA_REGS_14(X, c) TESSERA_WGMMA_REGS_12(X, c) X(c, 12) X(c, 13)
#define TESSERA_WGMMA_REGS_16(X, c) TESSERA_WGMMA_REGS_14(X, c) X(c, 14) X(c, 15)
#define TESSERA_WGMMA_REGS_18(X, c) TESSERA_WGMMA_REGS_16(X, c) X(c, 16) X(c, 17)
#define TESSERA_WGMMA_REGS_20(X, c) TESSERA_WGMMA_REGS_18(X, c) X(c, 18) X(c, 19)
#define TESSERA_WGMMA_REGS_22(X, c) TESSERA_WGMMA_REGS_20(X, c) X(c, 20) X(c, 21)
#define TESSERA_WGMMA_REGS_24(X, c) TESSERA_WGMMA_REGS_22(X, c) X(c, 22) X(c, 23)
#define TESSERA_WGMMA_REGS_26(X, c) TESSERA_WGMMA_REGS_24(X, c) X(c, 24) X(c, 25)
#define TESSERA_WGMMA_REGS_28(X, c) TESSERA_WGMMA_REGS_26(X, c) X(c, 26) X(c, 27)
#define TESSERA_WGMMA_REGS_30(X, c) TESSERA_WGMMA_REGS_28(X, c) X(c, 28) X(c, 29)
#define TESSERA_WGMMA_REGS_32(X, c) TESSERA_WGMMA_REGS_30(X, c) X(c, 30) X(c, 31)
#define TESSERA_WGMMA_REGS_34(X, c) TESSERA_WGMMA_REGS_32(X, c) X(c, 32) X(c, 33)
#define TESSERA_WGMMA_REGS_36(X, c) TESSERA_WGMMA_REGS_34(X, c) X(c, 34) X(c, 35)
#define TESSERA_WGMMA_REGS_38(X, c) TESSERA_WGMMA_REGS_36(X, c) X(c, 36) X(c, 37)
#define TESSERA_WGMMA_REGS_40(X, c) TESSERA_WGMMA_REGS_38(X, c) X(c, 38) X(c, 39)
#define TESSERA_WGMMA_REGS_42(X, c) TESSERA_WGMMA_REGS_40(X, c) X(c, 40) X(c, 41)
#define TESSERA_WGMMA_REGS_44(X, c) TESSERA_WGMMA_REGS_42(X, c) X(c, 42) X(c, 43)
#define TESSERA_WGMMA_REGS_46(X, c) TESSERA_WGMMA_REGS_44(X, c) X(c, 44) X(c, 45)
#define TESSERA_WGMMA_REGS_48(X, c) TESSERA_WGMMA_REGS_46(X, c) X(c, 46) X(c, 47)
#define TESSERA_WGMMA_REGS_50(X, c) TESSERA_WGMMA_REGS_48(X, c) X(c, 48) X(c, 49)
#define TESSERA_WGMMA_REGS_52(X, c) TESSERA_WGMMA_REGS_50(X, c) X(c, 50) X(c, 51)
#define TESSERA_WGMMA_REGS_54(X, c) TESSERA_WGMMA_REGS_52(X, c) X(c, 52) X(c, 53)
#define TESSERA_WGMMA_REGS_56(X, c) TESSERA_WGMMA_REGS_54(X, c) X(c, 54) X(c, 55)
#define TESSERA_WGMMA_REGS_58(X, c) TESSERA_WGMMA_REGS_56(X, c) X(c, 56) X(c, 57)
#define TESSERA_WGMMA_REGS_60(X, c) TESSERA_WGMMA_REGS_58(X, c) X(c, 58) X(c, 59)
#define TESSERA_WGMMA_REGS_62(X, c) TESSERA_WGMMA_REGS_60(X, c) X(c, 60) X(c, 61)
#define TESSERA_WGMMA_REGS_64(X, c) TESSERA_WGMMA_REGS_62(X, c) X(c, 62) X(c, 63)
#define TESSERA_WGMMA_REGS_66(X, c) TESSERA_WGMMA_REGS_64(X, c) X(c, 64) X(c, 65)
#define TESSERA_WGMMA_REGS_68(X, c) TESSERA_WGMMA_REGS_66(X, c) X(c, 66) X(c, 67)
#define TESSERA_WGMMA_REGS_70(X, c) TESSERA_WGMMA_REGS_68(X, c) X(c, 68) X(c, 69)
#define TESSERA_WGMMA_REGS_72(X, c) TESSERA_WGMMA_REGS_70(X, c) X(c, 70) X(c, 71)
#define TESSERA_WGMMA_REGS_74(X, c) TESSERA_WGMMA_REGS_72(X, c) X(c, 72) X(c, 73)
#define TESSERA_WGMMA_REGS_76(X, c) TESSERA_WGMMA_REGS_74(X, c) X(c, 74) X(c, 75)
#define TESSERA_WGMMA_REGS_78(X, c) TESSERA_WGMMA_REGS_76(X, c) X(c, 76) X(c, 77)
#define TESSERA_WGMMA_REGS_80(X, c) TESSERA_WGMMA_REGS_78(X, c) X(c, 78) X(c, 79)
#define TESSERA_WGMMA_REGS_82(X, c) TESSERA_WGMMA_REGS_80(X, c) X(c, 80) X(c, 81)
#define TESSERA_WGMMA_REGS_84(X, c) TESSERA_WGMMA_REGS_82(X, c) X(c, 82) X(c, 83)
#define TESSERA_WGMMA_REGS_86(X, c) TESSERA_WGMMA_REGS_84(X, c) X(c, 84) X(c, 85)
#define TESSERA_WGMMA_REGS_88(X, c) TESSERA_WGMMA_REGS_86(X, c) X(c, 86) X(c, 87)
#define TESSERA_WGMMA_REGS_90(X, c) TESSERA_WGMMA_REGS_88(X, c) X(c, 88) X(c, 89)
#define TESSERA_WGMMA_REGS_92(X, c) TESSERA_WGMMA_REGS_90(X, c) X(c, 90) X(c, 91)
#define TESSERA_WGMMA_REGS_94(X, c) TESSERA_WGMMA_REGS_92(X, c) X(c, 92) X(c, 93)
#define TESSERA_WGMMA_REGS_96(X, c) TESSERA_WGMMA_REGS_94(X, c) X(c, 94) X(c, 95)
#define TESSERA_WGMMA_REGS_98(X, c) TESSERA_WGMMA_REGS_96(X, c) X(c, 96) X(c, 97)
#define TESSERA_WGMMA_REGS_100(X, c) TESSERA_WGMMA_REGS_98(X, c) X(c, 98) X(c, 99)
#define TESSERA_WGMMA_REGS_102(X, c) TESSERA_WGMMA_REGS_100(X, c) X(c, 100) X(c, 101)
#define TESSERA_WGMMA_REGS_104(X, c) TESSERA_WGMMA_REGS_102(X, c) X(c, 102) X(c, 103)
#define TESSERA_WGMMA_REGS_106(X, c) TESSERA_WGMMA_REGS_104(X, c) X(c, 104) X(c, 105)
#define TESSERA_WGMMA_REGS_108(X, c) TESSERA_WGMMA_REGS_106(X, c) X(c, 106) X(c, 107)
#define TESSERA_WGMMA_REGS_110(X, c) TESSERA_WGMMA_REGS_108(X, c) X(c, 108) X(c, 109)
#define TESSERA_WGMMA_REGS_112(X, c) TESSERA_WGMMA_REGS_110(X, c) X(c, 110) X(c, 111)
#define TESSERA_WGMMA_REGS_114(X, c) TESSERA_WGMMA_REGS_112(X, c) X(c, 112) X(c, 113)
#define TESSERA_WGMMA_REGS_116(X, c) TESSERA_WGMMA_REGS_114(X, c) X(c, 114) X(c, 115)
#define TESSERA_WGMMA_REGS_118(X, c) TESSERA_WGMMA_REGS_116(X, c) X(c, 116) X(c, 117)
#define TESSERA_WGMMA_REGS_120(X, c) TESSERA_WGMMA_REGS_118(X, c) X(c, 118) X(c, 119)
#define TESSERA_WGMMA_REGS_122(X, c) TESSERA_WGMMA_REGS_120(X, c) X(c, 120) X(c, 121)
#define TESSERA_WGMMA_REGS_124(X, c) TESSERA_WGMMA_REGS_122(X, c) X(c, 122) X(c, 123)
#define TESSERA_WGMMA_REGS_126(X, c) TESSERA_WGMMA_REGS_124(X, c) X(c, 124) X(c, 125)
#define TESSERA_WGMMA_REGS_128(X, c) TESSERA_WGMMA_REGS_126(X, c) X(c, 126) X(c, 127)

// f16 accumulators: K = N/4 registers (two halves each):
// X(args, N, K, K+1, ..., K+8) for each N.
#define TESSERA_WGMMA_ROWS_F16ACC(X, ...) \
  X(__VA_ARGS__, 8, 2, 3, 4, 5, 6, 7, 8, 9, 10) \
  X(__VA_ARGS__, 16, 4, 5, 6, 7, 8, 9, 10, 11, 12) \
  X(__VA_ARGS__, 24, 6, 7, 8, 9, 10, 11, 12, 13, 14) \
  X(__VA_ARGS__, 32, 8, 9, 10, 11, 12, 13, 14, 15, 16) \
  X(__VA_ARGS__, 40, 10, 11, 12, 13, 14, 15, 16, 17, 18) \
  X(__VA_ARGS__, 48, 12, 13, 14, 15, 16, 17, 18, 19, 20) \
  X(__VA_ARGS__, 56, 14, 15, 16, 17, 18, 19, 20, 21, 22) \
  X(__VA_ARGS__, 64, 16, 17, 18, 19, 20, 21, 22, 23, 24) \
  X(__VA_ARGS__, 72, 18, 19, 20, 21, 22, 23, 24, 25, 26) \
  X(__VA_ARGS__, 80, 20, 21, 22, 23, 24, 25, 26, 27, 28) \
  X(__VA_ARGS__, 88, 22, 23, 24, 25, 26, 27, 28, 29, 30) \
  X(__VA_ARGS__, 96, 24, 25, 26, 27, 28, 29, 30, 31, 32) \
  X(__VA_ARGS__, 104, 26, 27, 28, 29, 30, 31, 32, 33, 34) \
  X(__VA_ARGS__, 112, 28, 29, 30, 31, 32, 33, 34, 35, 36) \
  X(__VA_ARGS__, 120, 30, 31, 32, 33, 34, 35, 36, 37, 38) \
  X(__VA_ARGS__, 128, 32, 33, 34, 35, 36, 37, 38, 39, 40) \
  X(__VA_ARGS__, 136, 34, 35, 36, 37, 38, 39, 40, 41, 42) \
  X(__VA_ARGS__, 144, 36, 37, 38, 39, 40, 41, 42, 43, 44) \
  X(__VA_ARGS__, 152, 38, 39, 40, 41, 42, 43, 44, 45, 46) \
  X(__VA_ARGS__, 160, 40, 41, 42, 43, 44, 45, 46, 47, 48) \
  X(__VA_ARGS__, 168, 42, 43, 44, 45, 46, 47, 48, 49, 50) \
  X(__VA_ARGS__, 176, 44, 45, 46, 47, 48, 49, 50, 51, 52) \
  X(__VA_ARGS__, 184, 46, 47, 48, 49, 50, 51, 52, 53, 54) \
  X(__VA_ARGS__, 192, 48, 49, 50, 51, 52, 53, 54, 55, 56) \
  X(__VA_ARGS__, 200, 50, 51, 52, 53, 54, 55, 56, 57, 58) \
  X(__VA_ARGS__, 208, 52, 53, 54, 55, 56, 57, 58, 59, 60) \
  X(__VA_ARGS__, 216, 54, 55, 56, 57, 58, 59, 60, 61, 62) \
  X(__VA_ARGS__, 224, 56, 57, 58, 59, 60, 61, 62, 63, 64) \
  X(__VA_ARGS__, 232, 58, 59, 60, 61, 62, 63, 64, 65, 66) \
  X(__VA_ARGS__, 240, 60, 61, 62, 63, 64, 65, 66, 67, 68) \
  X(__VA_ARGS__, 248, 62, 63, 64, 65, 66, 67, 68, 69, 70) \
  X(__VA_ARGS__, 256, 64, 65, 66, 67, 68, 69, 70, 71, 72)

// f32 accumulators: K = N/2 registers:
// X(args, N, K, K+1, ..., K+8) for each N.
#define TESSERA_WGMMA_ROWS_F32ACC(X, ...) \
  X(__VA_ARGS__, 8, 4, 5, 6, 7, 8, 9, 10, 11, 12) \
  X(__VA_ARGS__, 16, 8, 9, 10, 11, 12, 13, 14, 15, 16) \
  X(__VA_ARGS__, 24, 12, 13, 14, 15, 16, 17, 18, 19, 20) \
  X(__VA_ARGS__, 32, 16, 17, 18, 19, 20, 21, 22, 23, 24) \
  X(__VA_ARGS__, 40, 20, 21, 22, 23, 24, 25, 26, 27, 28) \
  X(__VA_ARGS__, 48, 24, 25, 26, 27, 28, 29, 30, 31, 32) \
  X(__VA_ARGS__, 56, 28, 29, 30, 31, 32, 33, 34, 35, 36) \
  X(__VA_ARGS__, 64, 32, 33, 34, 35, 36, 37, 38, 39, 40) \
  X(__VA_ARGS__, 72, 36, 37, 38, 39, 40, 41, 42, 43, 44) \
  X(__VA_ARGS__, 80, 40, 41, 42, 43, 44, 45, 46, 47, 48) \
  X(__VA_ARGS__, 88, 44, 45, 46, 47, 48, 49, 50, 51, 52) \
  X(__VA_ARGS__, 96, 48, 49, 50, 51, 52, 53, 54, 55, 56) \
  X(__VA_ARGS__, 104, 52, 53, 54, 55, 56, 57, 58, 59, 60) \
  X(__VA_ARGS__, 112, 56, 57, 58, 59, 60, 61, 62, 63, 64) \
  X(__VA_ARGS__, 120, 60, 61, 62, 63, 64, 65, 66, 67, 68) \
  X(__VA_ARGS__, 128, 64, 65, 66, 67, 68, 69, 70, 71, 72) \
  X(__VA_ARGS__, 136, 68, 69, 70, 71, 72, 73, 74, 75, 76) \
  X(__VA_ARGS__, 144, 72, 73, 74, 75, 76, 77, 78, 79, 80) \
  X(__VA_ARGS__, 152, 76, 77, 78, 79, 80, 81, 82, 83, 84) \
  X(__VA_ARGS__, 160, 80, 81, 82, 83, 84, 85, 86, 87, 88) \
  X(__VA_ARGS__, 168, 84, 85, 86, 87, 88, 89, 90, 91, 92) \
  X(__VA_ARGS__, 176, 88, 89, 90, 91, 92, 93, 94, 95, 96) \
  X(__VA_ARGS__, 184, 92, 93, 94, 95, 96, 97, 98, 99, 100) \
  X(__VA_ARGS__, 192, 96, 97, 98, 99, 100, 101, 102, 103, 104) \
  X(__VA_ARGS__, 200, 100, 101, 102, 103, 104, 105, 106, 107, 108) \
  X(__VA_ARGS__, 208, 104, 105, 106, 107, 108, 109, 110, 111, 112) \
  X(__VA_ARGS__, 216, 108, 109, 110, 111, 112, 113, 114, 115, 116) \
  X(__VA_ARGS__, 224, 112, 113, 114, 115, 116, 117, 118, 119, 120) \
  X(__VA_ARGS__, 232, 116, 117, 118, 119, 120, 121, 122, 123, 124) \
  X(__VA_ARGS__, 240, 120, 121, 122, 123, 124, 125, 126, 127, 128) \
  X(__VA_ARGS__, 248, 124, 125, 126, 127, 128, 129, 130, 131, 132) \
  X(__VA_ARGS__, 256, 128, 129, 130, 131, 132, 133, 134, 135, 136)

#define TESSERA_WGMMA_REG_NAME(c, i) ", %" #i
#define TESSERA_WGMMA_REG_OPERAND(c, i) , c(d[i])

// One `if constexpr (N == n)` case, A and B from shared memory (descriptors). Operands:
// d..., a-desc, b-desc, scale_d (sets predicate p), ScaleA, ScaleB, MajorA, MajorB.
#define TESSERA_WGMMA_SS_CASE(TYPES, C, n, K, K1, K2, K3, K4, K5, K6, K7, K8)                      \
  if constexpr (N == n) {                                                                         \
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %" #K2 ", 0;\n"                                \
                 "wgmma.mma_async.sync.aligned.m64n" #n "k16." TYPES " "                          \
                 "{%0" TESSERA_WGMMA_REGS_##K(TESSERA_WGMMA_REG_NAME, ) "}, "                     \
                 "%" #K ", %" #K1 ", p, %" #K3 ", %" #K4 ", %" #K5 ", %" #K6 ";\n}\n"             \
                 : C(d[0]) TESSERA_WGMMA_REGS_##K(TESSERA_WGMMA_REG_OPERAND, C)                   \
                 : "l"(a[0]), "l"(b[0]), "r"(scale_d), "n"(SA), "n"(SB), "n"(TA), "n"(TB));      \
  }
// The same with A from four 32-bit registers (A is K-major there: no MajorA operand).
#define TESSERA_WGMMA_RS_CASE(TYPES, C, n, K, K1, K2, K3, K4, K5, K6, K7, K8)                      \
  if constexpr (N == n) {                                                                         \
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %" #K5 ", 0;\n"                                \
                 "wgmma.mma_async.sync.aligned.m64n" #n "k16." TYPES " "                          \
                 "{%0" TESSERA_WGMMA_REGS_##K(TESSERA_WGMMA_REG_NAME, ) "}, "                     \
                 "{%" #K ", %" #K1 ", %" #K2 ", %" #K3 "}, %" #K4 ", p, %" #K6 ", %" #K7 ", %" #K8 \
                 ";\n}\n"                                                                         \
                 : C(d[0]) TESSERA_WGMMA_REGS_##K(TESSERA_WGMMA_REG_OPERAND, C)                   \
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b[0]), "r"(scale_d), "n"(SA),  \
                   "n"(SB), "n"(TB));                                                             \
  }

// detail::wgmma_<types>_<SS|RS><N, ScaleA, ScaleB, MajorA, MajorB>(d, a, b, scale_d) issues
// the instruction for one N (the atom below checks N).
#define TESSERA_WGMMA_FN(NAME, ROWS, CASE, TYPES, C)                            \
  template <int N, int SA, int SB, int TA, int TB, class D, class A, class B> \
  TESSERA_DEVICE void NAME(D& d, A const& a, B const& b, int scale_d) {        \
    ROWS(CASE, TYPES, C)                                                       \
  }
TESSERA_WGMMA_FN(wgmma_F16F16F16_SS, TESSERA_WGMMA_ROWS_F16ACC, TESSERA_WGMMA_SS_CASE, "f16.f16.f16", "+r")
TESSERA_WGMMA_FN(wgmma_F16F16F16_RS, TESSERA_WGMMA_ROWS_F16ACC, TESSERA_WGMMA_RS_CASE, "f16.f16.f16", "+r")
TESSERA_WGMMA_FN(wgmma_F32F16F16_SS, TESSERA_WGMMA_ROWS_F32ACC, TESSERA_WGMMA_SS_CASE, "f32.f16.f16", "+f")
TESSERA_WGMMA_FN(wgmma_F32F16F16_RS, TESSERA_WGMMA_ROWS_F32ACC, TESSERA_WGMMA_RS_CASE, "f32.f16.f16", "+f")
TESSERA_WGMMA_FN(wgmma_F32BF16BF16_SS, TESSERA_WGMMA_ROWS_F32ACC, TESSERA_WGMMA_SS_CASE, "f32.bf16.bf16", "+f")
TESSERA_WGMMA_FN(wgmma_F32BF16BF16_RS, TESSERA_WGMMA_ROWS_F32ACC, TESSERA_WGMMA_RS_CASE, "f32.bf16.bf16", "+f")

// tf32 (k = 8): the ISA gives 32-bit operands no transpose immediates (A and B K-major), so
// the cases end with the two scale immediates.
#define TESSERA_WGMMA_SS_K8_CASE(TYPES, C, n, K, K1, K2, K3, K4, K5, K6, K7, K8)                   \
  if constexpr (N == n) {                                                                         \
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %" #K2 ", 0;\n"                                \
                 "wgmma.mma_async.sync.aligned.m64n" #n "k8." TYPES " "                           \
                 "{%0" TESSERA_WGMMA_REGS_##K(TESSERA_WGMMA_REG_NAME, ) "}, "                     \
                 "%" #K ", %" #K1 ", p, %" #K3 ", %" #K4 ";\n}\n"                                 \
                 : C(d[0]) TESSERA_WGMMA_REGS_##K(TESSERA_WGMMA_REG_OPERAND, C)                   \
                 : "l"(a[0]), "l"(b[0]), "r"(scale_d), "n"(SA), "n"(SB));                         \
  }
#define TESSERA_WGMMA_RS_K8_CASE(TYPES, C, n, K, K1, K2, K3, K4, K5, K6, K7, K8)                   \
  if constexpr (N == n) {                                                                         \
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %" #K5 ", 0;\n"                                \
                 "wgmma.mma_async.sync.aligned.m64n" #n "k8." TYPES " "                           \
                 "{%0" TESSERA_WGMMA_REGS_##K(TESSERA_WGMMA_REG_NAME, ) "}, "                     \
                 "{%" #K ", %" #K1 ", %" #K2 ", %" #K3 "}, %" #K4 ", p, %" #K6 ", %" #K7 ";\n}\n"    \
                 : C(d[0]) TESSERA_WGMMA_REGS_##K(TESSERA_WGMMA_REG_OPERAND, C)                   \
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b[0]), "r"(scale_d), "n"(SA),  \
                   "n"(SB));                                                                      \
  }
TESSERA_WGMMA_FN(wgmma_F32TF32TF32_SS, TESSERA_WGMMA_ROWS_F32ACC, TESSERA_WGMMA_SS_K8_CASE, "f32.tf32.tf32", "+f")
TESSERA_WGMMA_FN(wgmma_F32TF32TF32_RS, TESSERA_WGMMA_ROWS_F32ACC, TESSERA_WGMMA_RS_K8_CASE, "f32.tf32.tf32", "+f")
#undef TESSERA_WGMMA_RS_K8_CASE
#undef TESSERA_WGMMA_SS_K8_CASE
#undef TESSERA_WGMMA_RS_CASE
#undef TESSERA_WGMMA_SS_CASE
// (TESSERA_WGMMA_FN, _REG_NAME, _REG_OPERAND, _ISSUE and _IS_WGMMA stay defined for the 8-bit
// atoms, detail/mma_ops_8bit.hpp, which undefines them.)

}  // namespace detail

// wgmma atoms accumulate in place: fma(d, a, b, scale_d), D both input and output, scale_d
// choosing D = A*B (ScaleOut::Zero) or D = A*B + D (One). gemm issues them that way.
// (is_instruction_v: tessera's own wgmma atoms, the instructions themselves, which gemm
// emulates on the host; a stand-in a test defines is issued as it is.)
namespace GMMA {
template <class Op> inline constexpr bool is_wgmma_v = false;
template <class Op> inline constexpr bool is_instruction_v = false;
}
#define TESSERA_WGMMA_IS_WGMMA(NAME)                                                   \
  namespace GMMA {                                                                     \
  template <int N, Major MA, Major MB, ScaleIn SA, ScaleIn SB>                         \
  inline constexpr bool is_wgmma_v<NAME<N, MA, MB, SA, SB>> = true;                    \
  template <int N, Major MA, Major MB, ScaleIn SA, ScaleIn SB>                         \
  inline constexpr bool is_instruction_v<NAME<N, MA, MB, SA, SB>> = true;              \
  }

// SM90_64xNx16_<types>_<SS|RS><N, MajorA, MajorB, ScaleA, ScaleB>: wgmma.mma_async m64nNk16
// with B from shared memory (descriptor), A from shared memory (SS) or registers (RS).
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define TESSERA_WGMMA_ISSUE(NAME, FN) \
  detail::FN<N, int(ScaleA), int(ScaleB), int(MajorA), int(MajorB)>(d, a, b, int(scale_d));
#else
#define TESSERA_WGMMA_ISSUE(NAME, FN)               \
  detail::mma_unsupported(#NAME " needs sm_90a");   \
  (void)d; (void)a; (void)b; (void)scale_d;
#endif
#define TESSERA_WGMMA_ATOM(NAME, FN, ACC, PER, A_REGISTERS, A_FROM_REGISTERS)                          \
  template <int N, GMMA::Major MajorA = GMMA::Major::K, GMMA::Major MajorB = GMMA::Major::K,            \
            GMMA::ScaleIn ScaleA = GMMA::ScaleIn::One, GMMA::ScaleIn ScaleB = GMMA::ScaleIn::One>        \
  struct NAME {                                                                                        \
    static_assert(N % 8 == 0 && N >= 8 && N <= 256, "wgmma m64nNk16: N must be a multiple of 8 in [8, 256]"); \
    static_assert(!A_FROM_REGISTERS || MajorA == GMMA::Major::K, "wgmma with A from registers needs K-major A"); \
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
TESSERA_WGMMA_ATOM(SM90_64xNx16_F16F16F16_SS, wgmma_F16F16F16_SS, uint32_t, 4, uint64_t[1], false)
TESSERA_WGMMA_ATOM(SM90_64xNx16_F16F16F16_RS, wgmma_F16F16F16_RS, uint32_t, 4, uint32_t[4], true)
TESSERA_WGMMA_ATOM(SM90_64xNx16_F32F16F16_SS, wgmma_F32F16F16_SS, float, 2, uint64_t[1], false)
TESSERA_WGMMA_ATOM(SM90_64xNx16_F32F16F16_RS, wgmma_F32F16F16_RS, float, 2, uint32_t[4], true)
TESSERA_WGMMA_ATOM(SM90_64xNx16_F32BF16BF16_SS, wgmma_F32BF16BF16_SS, float, 2, uint64_t[1], false)
TESSERA_WGMMA_ATOM(SM90_64xNx16_F32BF16BF16_RS, wgmma_F32BF16BF16_RS, float, 2, uint32_t[4], true)
#undef TESSERA_WGMMA_ATOM

// SM90_64xNx8_F32TF32TF32_<SS|RS><N, MajorA, MajorB, ScaleA, ScaleB>: wgmma.mma_async m64nNk8
// on tf32 operands (32-bit words whose low 13 mantissa bits the tensor core ignores), f32
// accumulators. A and B must be K-major: the ISA's transpose applies to 16-bit types only.
#define TESSERA_WGMMA_TF32_ATOM(NAME, FN, A_REGISTERS)                                                 \
  template <int N, GMMA::Major MajorA = GMMA::Major::K, GMMA::Major MajorB = GMMA::Major::K,            \
            GMMA::ScaleIn ScaleA = GMMA::ScaleIn::One, GMMA::ScaleIn ScaleB = GMMA::ScaleIn::One>        \
  struct NAME {                                                                                        \
    static_assert(N % 8 == 0 && N >= 8 && N <= 256, "wgmma m64nNk8: N must be a multiple of 8 in [8, 256]"); \
    static_assert(MajorA == GMMA::Major::K && MajorB == GMMA::Major::K,                                \
                  "wgmma on tf32 needs K-major A and B (the PTX ISA transposes 16-bit operands only)");  \
    using DRegisters = float[N / 2];                                                                   \
    using ARegisters = A_REGISTERS;                                                                    \
    using BRegisters = uint64_t[1]; /* smem matrix descriptor */                                       \
    using CRegisters = float[N / 2];                                                                   \
    TESSERA_DEVICE static void fma(DRegisters& d, ARegisters const& a, BRegisters const& b,            \
                                   GMMA::ScaleOut scale_d = GMMA::ScaleOut::One) {                     \
      TESSERA_WGMMA_ISSUE(NAME, FN)                                                                    \
    }                                                                                                  \
  };                                                                                                   \
  TESSERA_WGMMA_IS_WGMMA(NAME)
TESSERA_WGMMA_TF32_ATOM(SM90_64xNx8_F32TF32TF32_SS, wgmma_F32TF32TF32_SS, uint64_t[1])
TESSERA_WGMMA_TF32_ATOM(SM90_64xNx8_F32TF32TF32_RS, wgmma_F32TF32TF32_RS, uint32_t[4])
#undef TESSERA_WGMMA_TF32_ATOM

}  // namespace tessera
