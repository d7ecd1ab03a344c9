// Hopper wgmma.mma_async m64nNk32 on 8-bit types: .e4m3/.e5m2 with f16 or f32 accumulators,
// .s8/.u8 with s32 (the operand and accumulator layouts of mma_sm90.hpp's atoms, k = 32; A and
// B K-major). Not part of tessera/atom/mma.hpp: their inline PTX doubles the text every
// translation unit that includes all atoms parses, so code that uses them includes this header.
#pragma once

#include "tessera/atom/detail/mma_ops_8bit.hpp"
#include "tessera/atom/mma_sm90.hpp"

namespace tessera {

namespace GMMA {
// 8-bit types (e4m3, e5m2, s8, u8), k = 32. A from registers: each warp holds its 16x32 slice
// like mma.m16n8k32's A, a_i at (16w + g + 8*((i/4)%2), 4t + i%4 + 16*(i/8)).
using A_64x32_RS = Layout<tuple<tuple<_4, _8, _4>, tuple<_4, _2, _2>>,
                          tuple<tuple<_256, _1, _16>, tuple<_64, _8, _1024>>>;
using A_64x32_SS = Layout<tuple<_128, tuple<_64, _32>>, tuple<_0, tuple<_1, _64>>>;
template <int N>
using B_Nx32_SS = Layout<tuple<_128, tuple<C<N>, _32>>, tuple<_0, tuple<_1, C<N>>>>;
}  // namespace GMMA

// 8-bit operands, k = 32 (K-major A and B only: the atoms refuse MN-major ones).
#define TESSERA_SM90_TRAITS_8BIT(ACC, AB, D, A, B)                                                                        \
  TESSERA_SM90_TRAITS(SM90_64xNx32_##ACC##AB##_SS, "SM90_64xNx32_" #ACC #AB "_SS", D, A, B, GMMA::A_64x32_SS, 32, GMMA::B_Nx32_SS) \
  TESSERA_SM90_TRAITS(SM90_64xNx32_##ACC##AB##_RS, "SM90_64xNx32_" #ACC #AB "_RS", D, A, B, GMMA::A_64x32_RS, 32, GMMA::B_Nx32_SS)
TESSERA_SM90_TRAITS_8BIT(F16, E4M3E4M3, half_t, float_e4m3_t, float_e4m3_t)
TESSERA_SM90_TRAITS_8BIT(F16, E4M3E5M2, half_t, float_e4m3_t, float_e5m2_t)
TESSERA_SM90_TRAITS_8BIT(F16, E5M2E4M3, half_t, float_e5m2_t, float_e4m3_t)
TESSERA_SM90_TRAITS_8BIT(F16, E5M2E5M2, half_t, float_e5m2_t, float_e5m2_t)
TESSERA_SM90_TRAITS_8BIT(F32, E4M3E4M3, float, float_e4m3_t, float_e4m3_t)
TESSERA_SM90_TRAITS_8BIT(F32, E4M3E5M2, float, float_e4m3_t, float_e5m2_t)
TESSERA_SM90_TRAITS_8BIT(F32, E5M2E4M3, float, float_e5m2_t, float_e4m3_t)
TESSERA_SM90_TRAITS_8BIT(F32, E5M2E5M2, float, float_e5m2_t, float_e5m2_t)
TESSERA_SM90_TRAITS_8BIT(S32, S8S8, int32_t, int8_t, int8_t)
TESSERA_SM90_TRAITS_8BIT(S32, S8U8, int32_t, int8_t, uint8_t)
TESSERA_SM90_TRAITS_8BIT(S32, U8S8, int32_t, uint8_t, int8_t)
TESSERA_SM90_TRAITS_8BIT(S32, U8U8, int32_t, uint8_t, uint8_t)
#undef TESSERA_SM90_TRAITS_8BIT
#undef TESSERA_SM90_TRAITS

// The 8-bit atoms under CuTe's names, which end in _TN (both operands K-major):
// SM90_64x128x32_F32E4M3E4M3_SS_TN = SM90_64xNx32_F32E4M3E4M3_SS<128>, ...
#define TESSERA_SM90_ALIASES_8BIT(ACC, AB, N)                                    \
  using SM90_64x##N##x32_##ACC##AB##_SS_TN = SM90_64xNx32_##ACC##AB##_SS<N>;     \
  using SM90_64x##N##x32_##ACC##AB##_RS_TN = SM90_64xNx32_##ACC##AB##_RS<N>;
#define TESSERA_SM90_ALIASES_FP8(N)                                                                                      \
  TESSERA_SM90_ALIASES_8BIT(F16, E4M3E4M3, N) TESSERA_SM90_ALIASES_8BIT(F16, E4M3E5M2, N)                                \
  TESSERA_SM90_ALIASES_8BIT(F16, E5M2E4M3, N) TESSERA_SM90_ALIASES_8BIT(F16, E5M2E5M2, N)                                \
  TESSERA_SM90_ALIASES_8BIT(F32, E4M3E4M3, N) TESSERA_SM90_ALIASES_8BIT(F32, E4M3E5M2, N)                                \
  TESSERA_SM90_ALIASES_8BIT(F32, E5M2E4M3, N) TESSERA_SM90_ALIASES_8BIT(F32, E5M2E5M2, N)
#define TESSERA_SM90_ALIASES_INT8(N)                                                                                     \
  TESSERA_SM90_ALIASES_8BIT(S32, S8S8, N) TESSERA_SM90_ALIASES_8BIT(S32, S8U8, N)                                        \
  TESSERA_SM90_ALIASES_8BIT(S32, U8S8, N) TESSERA_SM90_ALIASES_8BIT(S32, U8U8, N)
TESSERA_SM90_ALIASES_FP8(8)   TESSERA_SM90_ALIASES_FP8(16)  TESSERA_SM90_ALIASES_FP8(24)  TESSERA_SM90_ALIASES_FP8(32)
TESSERA_SM90_ALIASES_FP8(40)  TESSERA_SM90_ALIASES_FP8(48)  TESSERA_SM90_ALIASES_FP8(56)  TESSERA_SM90_ALIASES_FP8(64)
TESSERA_SM90_ALIASES_FP8(72)  TESSERA_SM90_ALIASES_FP8(80)  TESSERA_SM90_ALIASES_FP8(88)  TESSERA_SM90_ALIASES_FP8(96)
TESSERA_SM90_ALIASES_FP8(104) TESSERA_SM90_ALIASES_FP8(112) TESSERA_SM90_ALIASES_FP8(120) TESSERA_SM90_ALIASES_FP8(128)
TESSERA_SM90_ALIASES_FP8(136) TESSERA_SM90_ALIASES_FP8(144) TESSERA_SM90_ALIASES_FP8(152) TESSERA_SM90_ALIASES_FP8(160)
TESSERA_SM90_ALIASES_FP8(168) TESSERA_SM90_ALIASES_FP8(176) TESSERA_SM90_ALIASES_FP8(184) TESSERA_SM90_ALIASES_FP8(192)
TESSERA_SM90_ALIASES_FP8(200) TESSERA_SM90_ALIASES_FP8(208) TESSERA_SM90_ALIASES_FP8(216) TESSERA_SM90_ALIASES_FP8(224)
TESSERA_SM90_ALIASES_FP8(232) TESSERA_SM90_ALIASES_FP8(240) TESSERA_SM90_ALIASES_FP8(248) TESSERA_SM90_ALIASES_FP8(256)
// .s8/.u8: N = 8, 16, 24, 32, then multiples of 16 (the ISA's shapes).
TESSERA_SM90_ALIASES_INT8(8)   TESSERA_SM90_ALIASES_INT8(16)  TESSERA_SM90_ALIASES_INT8(24)  TESSERA_SM90_ALIASES_INT8(32)
TESSERA_SM90_ALIASES_INT8(48)  TESSERA_SM90_ALIASES_INT8(64)  TESSERA_SM90_ALIASES_INT8(80)  TESSERA_SM90_ALIASES_INT8(96)
TESSERA_SM90_ALIASES_INT8(112) TESSERA_SM90_ALIASES_INT8(128) TESSERA_SM90_ALIASES_INT8(144) TESSERA_SM90_ALIASES_INT8(160)
TESSERA_SM90_ALIASES_INT8(176) TESSERA_SM90_ALIASES_INT8(192) TESSERA_SM90_ALIASES_INT8(208) TESSERA_SM90_ALIASES_INT8(224)
TESSERA_SM90_ALIASES_INT8(240) TESSERA_SM90_ALIASES_INT8(256)
#undef TESSERA_SM90_ALIASES_INT8
#undef TESSERA_SM90_ALIASES_FP8
#undef TESSERA_SM90_ALIASES_8BIT

}  // namespace tessera
