// AMD matrix instructions as tessera atoms: CDNA3 (MI300, gfx942) MFMA on a 64-lane wavefront,
// RDNA3 (gfx1100) and RDNA4 (gfx1200) WMMA on a 32-lane wavefront. The atom's thread mode is
// the wavefront's lanes (ThrID 64:1 or 32:1); `wave_size` says how many lanes a wavefront has,
// so drawings and analyses group threads by it, not by an NVIDIA warp's 32.
//
// Sources: AMD, "AMD Instinct MI300 Instruction Set Architecture" (CDNA3 ISA), chapter 7
// "Matrix Arithmetic Instructions" (the MFMA opcodes and their operand registers), and the
// AMD Matrix Instruction Calculator (ROCm/amd_matrix_instruction_calculator, `--architecture
// cdna3 --instruction ... --detail-instruction --matrix-layout`), whose tables give, for each
// element, its lane and register item:
//   v_mfma_*_32x32xK (one block): A[i][k] lane i + 32*(k / V), item k % V; B[k][j] lane
//     j + 32*(k / V), item k % V (V = K/2 values per lane: 1 f32, 4 f16/bf16, 8 i8/fp8);
//     D[i][j] lane j + 32*((i / 4) % 2), item 4*(i / 8) + i % 4
//   v_mfma_*_16x16xK (one block): A[i][k] lane i + 16*(k / V), item k % V; B the same with j;
//     D[i][j] lane j + 16*(i / 4), item i % 4      (V = K/4)
// RDNA3: "RDNA3 Instruction Set Architecture", section 7.9 "Wave Matrix Multiply Accumulate
// (WMMA)", and AMD GPUOpen, "How to accelerate AI applications on RDNA 3 using WMMA":
//   A[i][k] lane i and, duplicated, lane i + 16, item k (the whole row); B[k][j] lane j and
//   j + 16, item k; D[i][j] lane j + 16*(i % 2), item i / 2 (f32 and f16 results alike: an f16
//   result uses one half of each of the 8 registers)
// RDNA4: "RDNA4 Instruction Set Architecture", section 7.9 (WMMA), and the calculator's rdna4
//   tables: no duplicated lanes; each half-wave holds half of K, in blocks of one register pair:
//   16-bit A[i][k] lane i + 16*((k / 4) % 2), item k % 4 + 4*(k / 8); 8-bit A[i][k] lane
//   i + 16*(k / 8), item k % 8; B[k][j] the same with j; D[i][j] lane j + 16*(i / 8), item i % 8
// All in CuTe's convention: ALayout (lane, item) -> i + M*k, BLayout -> j + N*k, CLayout ->
// i + M*j, an item being the rank of the element's register (and half or byte) among its lane's;
// tests/atoms/vendor_atoms_test.cpp holds every element of every atom to the calculator's
// --register-layout tables. tessera issues none of these instructions (detail/foreign_mma.hpp).
#pragma once

#include "tessera/atom/detail/foreign_mma.hpp"
#include "tessera/atom/detail/mma_traits.hpp"
#include "tessera/atom/mma_atom.hpp"
#include "tessera/atom/numeric_narrow.hpp"

namespace tessera {

namespace amd {
template <int M, int N, int K, class Thr, class A_, class B_, class C_, int Wave>
struct shape_layouts {
  using Shape_MNK = tuple<C<M>, C<N>, C<K>>;
  using ThrID = Thr;
  using ALayout = A_;
  using BLayout = B_;
  using CLayout = C_;
  static constexpr int wave_size = Wave;
};
// CDNA3 MFMA, one block, V values of A and B per lane.
template <int V>
using mfma_32x32 = shape_layouts<32, 32, 2 * V, Layout<_64, _1>,
                                 Layout<tuple<tuple<_32, _2>, C<V>>, tuple<tuple<_1, C<32 * V>>, _32>>,
                                 Layout<tuple<tuple<_32, _2>, C<V>>, tuple<tuple<_1, C<32 * V>>, _32>>,
                                 Layout<tuple<tuple<_32, _2>, tuple<_4, _4>>, tuple<tuple<_32, _4>, tuple<_1, _8>>>, 64>;
template <int V>
using mfma_16x16 = shape_layouts<16, 16, 4 * V, Layout<_64, _1>,
                                 Layout<tuple<tuple<_16, _4>, C<V>>, tuple<tuple<_1, C<16 * V>>, _16>>,
                                 Layout<tuple<tuple<_16, _4>, C<V>>, tuple<tuple<_1, C<16 * V>>, _16>>,
                                 Layout<tuple<tuple<_16, _4>, _4>, tuple<tuple<_16, _4>, _1>>, 64>;
// RDNA3 WMMA 16x16x16: lanes 16-31 repeat lanes 0-15 for A and B (stride 0).
using wmma_rdna3 = shape_layouts<16, 16, 16, Layout<_32, _1>,
                                 Layout<tuple<tuple<_16, _2>, _16>, tuple<tuple<_1, _0>, _16>>,
                                 Layout<tuple<tuple<_16, _2>, _16>, tuple<tuple<_1, _0>, _16>>,
                                 Layout<tuple<tuple<_16, _2>, _8>, tuple<tuple<_16, _1>, _2>>, 32>;
// RDNA4 WMMA 16x16x16: each half-wave holds 8 of K (A, B) and 8 of the rows (D). 16-bit
// operands alternate half-waves every 4 of K (two registers), 8-bit ones every 8 (two registers).
using RDNA4_D = Layout<tuple<tuple<_16, _2>, _8>, tuple<tuple<_16, _8>, _1>>;
using RDNA4_AB_16b = Layout<tuple<tuple<_16, _2>, tuple<_4, _2>>, tuple<tuple<_1, _64>, tuple<_16, _128>>>;
using RDNA4_AB_8b = Layout<tuple<tuple<_16, _2>, _8>, tuple<tuple<_1, _128>, _16>>;
using wmma_rdna4_16b = shape_layouts<16, 16, 16, Layout<_32, _1>, RDNA4_AB_16b, RDNA4_AB_16b, RDNA4_D, 32>;
using wmma_rdna4_8b = shape_layouts<16, 16, 16, Layout<_32, _1>, RDNA4_AB_8b, RDNA4_AB_8b, RDNA4_D, 32>;

template <class D, class A, class B, class Acc, class Shape>
struct traits : Shape {
  using ValTypeD = D;
  using ValTypeA = A;
  using ValTypeB = B;
  using ValTypeC = Acc;
};
}  // namespace amd

// AMD_<ARCH>_<MFMA|WMMA>_<M>x<N>x<K>_<D><A><B><C>: the instruction's shape and types, CuTe's
// SM80_... order. FP8E4M3FNUZ / FP8E5M2FNUZ: CDNA3's fp8 / bf8.
#define TESSERA_AMD_ATOM(NAME, INSTRUCTION, D, A, B, ACC, SHAPE)                          \
  TESSERA_DESCRIBED_MMA(NAME, INSTRUCTION " is an AMD instruction: tessera draws its layouts") \
  template <> struct MMA_Traits<NAME> : amd::traits<D, A, B, ACC, SHAPE> {                  \
    static constexpr const char* name = #NAME;                                              \
    static constexpr const char* instruction = INSTRUCTION;                                 \
  };
// CDNA3 (gfx942)
TESSERA_AMD_ATOM(AMD_CDNA3_MFMA_32x32x2_F32F32F32F32, "v_mfma_f32_32x32x2_f32", float, float, float, float, amd::mfma_32x32<1>)
TESSERA_AMD_ATOM(AMD_CDNA3_MFMA_16x16x4_F32F32F32F32, "v_mfma_f32_16x16x4_f32", float, float, float, float, amd::mfma_16x16<1>)
TESSERA_AMD_ATOM(AMD_CDNA3_MFMA_32x32x8_F32F16F16F32, "v_mfma_f32_32x32x8_f16", float, half_t, half_t, float, amd::mfma_32x32<4>)
TESSERA_AMD_ATOM(AMD_CDNA3_MFMA_16x16x16_F32F16F16F32, "v_mfma_f32_16x16x16_f16", float, half_t, half_t, float, amd::mfma_16x16<4>)
TESSERA_AMD_ATOM(AMD_CDNA3_MFMA_32x32x8_F32BF16BF16F32, "v_mfma_f32_32x32x8_bf16", float, bfloat16_t, bfloat16_t, float, amd::mfma_32x32<4>)
TESSERA_AMD_ATOM(AMD_CDNA3_MFMA_16x16x16_F32BF16BF16F32, "v_mfma_f32_16x16x16_bf16", float, bfloat16_t, bfloat16_t, float, amd::mfma_16x16<4>)
TESSERA_AMD_ATOM(AMD_CDNA3_MFMA_32x32x16_S32S8S8S32, "v_mfma_i32_32x32x16_i8", int32_t, int8_t, int8_t, int32_t, amd::mfma_32x32<8>)
TESSERA_AMD_ATOM(AMD_CDNA3_MFMA_16x16x32_S32S8S8S32, "v_mfma_i32_16x16x32_i8", int32_t, int8_t, int8_t, int32_t, amd::mfma_16x16<8>)
#define TESSERA_AMD_FP8(AB, ISA_AB, A, B)                                                                          \
  TESSERA_AMD_ATOM(AMD_CDNA3_MFMA_32x32x16_F32##AB##F32, "v_mfma_f32_32x32x16_" ISA_AB, float, A, B, float, amd::mfma_32x32<8>) \
  TESSERA_AMD_ATOM(AMD_CDNA3_MFMA_16x16x32_F32##AB##F32, "v_mfma_f32_16x16x32_" ISA_AB, float, A, B, float, amd::mfma_16x16<8>)
TESSERA_AMD_FP8(FP8FP8, "fp8_fp8", float_e4m3fnuz_t, float_e4m3fnuz_t)
TESSERA_AMD_FP8(FP8BF8, "fp8_bf8", float_e4m3fnuz_t, float_e5m2fnuz_t)
TESSERA_AMD_FP8(BF8FP8, "bf8_fp8", float_e5m2fnuz_t, float_e4m3fnuz_t)
TESSERA_AMD_FP8(BF8BF8, "bf8_bf8", float_e5m2fnuz_t, float_e5m2fnuz_t)
#undef TESSERA_AMD_FP8
// RDNA3 (gfx1100)
TESSERA_AMD_ATOM(AMD_RDNA3_WMMA_16x16x16_F32F16F16F32, "v_wmma_f32_16x16x16_f16", float, half_t, half_t, float, amd::wmma_rdna3)
TESSERA_AMD_ATOM(AMD_RDNA3_WMMA_16x16x16_F32BF16BF16F32, "v_wmma_f32_16x16x16_bf16", float, bfloat16_t, bfloat16_t, float, amd::wmma_rdna3)
TESSERA_AMD_ATOM(AMD_RDNA3_WMMA_16x16x16_F16F16F16F16, "v_wmma_f16_16x16x16_f16", half_t, half_t, half_t, half_t, amd::wmma_rdna3)
TESSERA_AMD_ATOM(AMD_RDNA3_WMMA_16x16x16_S32S8S8S32, "v_wmma_i32_16x16x16_iu8", int32_t, int8_t, int8_t, int32_t, amd::wmma_rdna3)
// RDNA4 (gfx1200): fp8 / bf8 are OCP's e4m3 / e5m2 here.
TESSERA_AMD_ATOM(AMD_RDNA4_WMMA_16x16x16_F32F16F16F32, "v_wmma_f32_16x16x16_f16", float, half_t, half_t, float, amd::wmma_rdna4_16b)
TESSERA_AMD_ATOM(AMD_RDNA4_WMMA_16x16x16_F32BF16BF16F32, "v_wmma_f32_16x16x16_bf16", float, bfloat16_t, bfloat16_t, float, amd::wmma_rdna4_16b)
TESSERA_AMD_ATOM(AMD_RDNA4_WMMA_16x16x16_F16F16F16F16, "v_wmma_f16_16x16x16_f16", half_t, half_t, half_t, half_t, amd::wmma_rdna4_16b)
TESSERA_AMD_ATOM(AMD_RDNA4_WMMA_16x16x16_S32S8S8S32, "v_wmma_i32_16x16x16_iu8", int32_t, int8_t, int8_t, int32_t, amd::wmma_rdna4_8b)
TESSERA_AMD_ATOM(AMD_RDNA4_WMMA_16x16x16_F32E4M3E4M3F32, "v_wmma_f32_16x16x16_fp8_fp8", float, float_e4m3_t, float_e4m3_t, float, amd::wmma_rdna4_8b)
TESSERA_AMD_ATOM(AMD_RDNA4_WMMA_16x16x16_F32E4M3E5M2F32, "v_wmma_f32_16x16x16_fp8_bf8", float, float_e4m3_t, float_e5m2_t, float, amd::wmma_rdna4_8b)
TESSERA_AMD_ATOM(AMD_RDNA4_WMMA_16x16x16_F32E5M2E4M3F32, "v_wmma_f32_16x16x16_bf8_fp8", float, float_e5m2_t, float_e4m3_t, float, amd::wmma_rdna4_8b)
TESSERA_AMD_ATOM(AMD_RDNA4_WMMA_16x16x16_F32E5M2E5M2F32, "v_wmma_f32_16x16x16_bf8_bf8", float, float_e5m2_t, float_e5m2_t, float, amd::wmma_rdna4_8b)
#undef TESSERA_AMD_ATOM

}  // namespace tessera
