// Hopper wgmma.mma_async m64nNk16 (f16/bf16) and m64nNk8 (tf32): a warpgroup of 128
// threads; warp w owns rows 16w..16w+15 of the 64 x N accumulator.  Operands in shared memory (SS: A and B; RS: B
// only) are read by the warpgroup as a whole, so their TV layouts map every thread to
// the whole tile (thread stride 0): no element belongs to one thread.
#pragma once

#include "tessera/atom/mma_atom.hpp"

namespace tessera {

namespace GMMA {  // (the wgmma TV layouts; tessera::kernels::sm90 is the SM90 kernels')
using ThrID = Layout<C<warpgroup_threads>, _1>;
// Accumulator d_i at (16w + g + 8*((i/2)%2), 8*(i/4) + 2*t + i%2); thread = (t, g, w).
template <int N>
using C_64xN = Layout<tuple<tuple<_4, _8, _4>, tuple<_2, _2, C<N / 8>>>,
                      tuple<tuple<_128, _1, _16>, tuple<_64, _8, _512>>>;
// A from registers: each warp holds its 16x16 slice like mma.m16n8k16's A.
using A_64x16_RS = Layout<tuple<tuple<_4, _8, _4>, tuple<_2, _2, _2>>,
                          tuple<tuple<_128, _1, _16>, tuple<_64, _8, _512>>>;
// Operands from shared memory: (thread, element) -> the element, for every thread.
using A_64x16_SS = Layout<tuple<_128, tuple<_64, _16>>, tuple<_0, tuple<_1, _64>>>;
template <int N>
using B_Nx16_SS = Layout<tuple<_128, tuple<C<N>, _16>>, tuple<_0, tuple<_1, C<N>>>>;
// tf32, k = 8. A from registers: each warp holds its 16x8 slice like mma.m16n8k8.tf32's A,
// a_i at (16w + g + 8*(i%2), t + 4*(i/2)).
using A_64x8_RS = Layout<tuple<tuple<_4, _8, _4>, tuple<_2, _2>>, tuple<tuple<_64, _1, _16>, tuple<_8, _256>>>;
using A_64x8_SS = Layout<tuple<_128, tuple<_64, _8>>, tuple<_0, tuple<_1, _64>>>;
template <int N>
using B_Nx8_SS = Layout<tuple<_128, tuple<C<N>, _8>>, tuple<_0, tuple<_1, C<N>>>>;
}  // namespace GMMA

// K: 16 for f16/bf16, 8 for tf32 (whose atoms take K-major A and B only).
#define TESSERA_SM90_TRAITS(OP, NAME, D, A, B, A_LAYOUT, K, B_LAYOUT)                          \
  template <int N, GMMA::Major MajorA, GMMA::Major MajorB, GMMA::ScaleIn SA, GMMA::ScaleIn SB> \
  struct MMA_Traits<OP<N, MajorA, MajorB, SA, SB>> {                                            \
    static constexpr const char* name = NAME;                                                   \
    using ValTypeD = D;                                                                         \
    using ValTypeA = A;                                                                         \
    using ValTypeB = B;                                                                         \
    using ValTypeC = D;                                                                         \
    using Shape_MNK = tuple<_64, C<N>, C<K>>;                                                   \
    using ThrID = GMMA::ThrID;                                                                  \
    using ALayout = A_LAYOUT;                                                                   \
    using BLayout = B_LAYOUT<N>;                                                                \
    using CLayout = GMMA::C_64xN<N>;                                                            \
    /* how the operands in shared memory are stored: their descriptors' major */                \
    static constexpr GMMA::Major major_A = MajorA;                                              \
    static constexpr GMMA::Major major_B = MajorB;                                              \
  };

TESSERA_SM90_TRAITS(SM90_64xNx16_F16F16F16_SS, "SM90_64xNx16_F16F16F16_SS", half_t, half_t, half_t, GMMA::A_64x16_SS, 16, GMMA::B_Nx16_SS)
TESSERA_SM90_TRAITS(SM90_64xNx16_F16F16F16_RS, "SM90_64xNx16_F16F16F16_RS", half_t, half_t, half_t, GMMA::A_64x16_RS, 16, GMMA::B_Nx16_SS)
TESSERA_SM90_TRAITS(SM90_64xNx16_F32F16F16_SS, "SM90_64xNx16_F32F16F16_SS", float, half_t, half_t, GMMA::A_64x16_SS, 16, GMMA::B_Nx16_SS)
TESSERA_SM90_TRAITS(SM90_64xNx16_F32F16F16_RS, "SM90_64xNx16_F32F16F16_RS", float, half_t, half_t, GMMA::A_64x16_RS, 16, GMMA::B_Nx16_SS)
TESSERA_SM90_TRAITS(SM90_64xNx16_F32BF16BF16_SS, "SM90_64xNx16_F32BF16BF16_SS", float, bfloat16_t, bfloat16_t, GMMA::A_64x16_SS, 16, GMMA::B_Nx16_SS)
TESSERA_SM90_TRAITS(SM90_64xNx16_F32BF16BF16_RS, "SM90_64xNx16_F32BF16BF16_RS", float, bfloat16_t, bfloat16_t, GMMA::A_64x16_RS, 16, GMMA::B_Nx16_SS)
TESSERA_SM90_TRAITS(SM90_64xNx8_F32TF32TF32_SS, "SM90_64xNx8_F32TF32TF32_SS", float, tfloat32_t, tfloat32_t, GMMA::A_64x8_SS, 8, GMMA::B_Nx8_SS)
TESSERA_SM90_TRAITS(SM90_64xNx8_F32TF32TF32_RS, "SM90_64xNx8_F32TF32TF32_RS", float, tfloat32_t, tfloat32_t, GMMA::A_64x8_RS, 8, GMMA::B_Nx8_SS)

// (TESSERA_SM90_TRAITS stays defined for the 8-bit atoms, mma_sm90_8bit.hpp, which undefines it.)

// Aliases with N spelled out, as CuTe users know them: SM90_64x128x16_F32BF16BF16_SS ...
#define TESSERA_SM90_ALIASES(N)                                                   \
  using SM90_64x##N##x16_F16F16F16_SS = SM90_64xNx16_F16F16F16_SS<N>;             \
  using SM90_64x##N##x16_F16F16F16_RS = SM90_64xNx16_F16F16F16_RS<N>;             \
  using SM90_64x##N##x16_F32F16F16_SS = SM90_64xNx16_F32F16F16_SS<N>;             \
  using SM90_64x##N##x16_F32F16F16_RS = SM90_64xNx16_F32F16F16_RS<N>;             \
  using SM90_64x##N##x16_F32BF16BF16_SS = SM90_64xNx16_F32BF16BF16_SS<N>;         \
  using SM90_64x##N##x16_F32BF16BF16_RS = SM90_64xNx16_F32BF16BF16_RS<N>;         \
  using SM90_64x##N##x8_F32TF32TF32_SS = SM90_64xNx8_F32TF32TF32_SS<N>;           \
  using SM90_64x##N##x8_F32TF32TF32_RS = SM90_64xNx8_F32TF32TF32_RS<N>;
TESSERA_SM90_ALIASES(8)   TESSERA_SM90_ALIASES(16)  TESSERA_SM90_ALIASES(24)  TESSERA_SM90_ALIASES(32)
TESSERA_SM90_ALIASES(40)  TESSERA_SM90_ALIASES(48)  TESSERA_SM90_ALIASES(56)  TESSERA_SM90_ALIASES(64)
TESSERA_SM90_ALIASES(72)  TESSERA_SM90_ALIASES(80)  TESSERA_SM90_ALIASES(88)  TESSERA_SM90_ALIASES(96)
TESSERA_SM90_ALIASES(104) TESSERA_SM90_ALIASES(112) TESSERA_SM90_ALIASES(120) TESSERA_SM90_ALIASES(128)
TESSERA_SM90_ALIASES(136) TESSERA_SM90_ALIASES(144) TESSERA_SM90_ALIASES(152) TESSERA_SM90_ALIASES(160)
TESSERA_SM90_ALIASES(168) TESSERA_SM90_ALIASES(176) TESSERA_SM90_ALIASES(184) TESSERA_SM90_ALIASES(192)
TESSERA_SM90_ALIASES(200) TESSERA_SM90_ALIASES(208) TESSERA_SM90_ALIASES(216) TESSERA_SM90_ALIASES(224)
TESSERA_SM90_ALIASES(232) TESSERA_SM90_ALIASES(240) TESSERA_SM90_ALIASES(248) TESSERA_SM90_ALIASES(256)
#undef TESSERA_SM90_ALIASES

}  // namespace tessera
