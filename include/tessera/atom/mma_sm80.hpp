// Turing/Ampere mma.sync: one warp, lane = 4 * groupID + threadID_in_group.  Thread modes
// are (threadID_in_group, groupID) = (4, 8).
#pragma once

#include "tessera/atom/detail/mma_traits.hpp"
#include "tessera/atom/mma_atom.hpp"

namespace tessera {

namespace sm80 {
using ThrID = Layout<_32, _1>;
// 16x8 accumulators (every m16n8kX shape): c_i at row g + 8*(i/2), col 2*t + i%2.
using C_16x8 = Layout<tuple<tuple<_4, _8>, tuple<_2, _2>>, tuple<tuple<_32, _1>, tuple<_16, _8>>>;
// f16/bf16 operands, K = 8:  A a_i at (g + 8*(i/2), 2*t + i%2);  B b_i at (k = 2*t + i, n = g).
using A_16x8_F16 = Layout<tuple<tuple<_4, _8>, tuple<_2, _2>>, tuple<tuple<_32, _1>, tuple<_16, _8>>>;
using B_8x8_F16 = Layout<tuple<tuple<_4, _8>, _2>, tuple<tuple<_16, _1>, _8>>;
// f16/bf16 operands, K = 16: A a_i at (g + 8*((i/2)%2), 2*t + i%2 + 8*(i/4)); B b_i at
// (k = 2*t + i%2 + 8*(i/2), n = g).
using A_16x16_F16 = Layout<tuple<tuple<_4, _8>, tuple<_2, _2, _2>>, tuple<tuple<_32, _1>, tuple<_16, _8, _128>>>;
using B_16x8_F16 = Layout<tuple<tuple<_4, _8>, tuple<_2, _2>>, tuple<tuple<_16, _1>, tuple<_8, _64>>>;
// tf32, K = 8: A a_i at (g + 8*(i%2), t + 4*(i/2)); B b_i at (k = t + 4*i, n = g).
using A_16x8_TF32 = Layout<tuple<tuple<_4, _8>, tuple<_2, _2>>, tuple<tuple<_16, _1>, tuple<_8, _64>>>;
using B_8x8_TF32 = Layout<tuple<tuple<_4, _8>, _2>, tuple<tuple<_8, _1>, _32>>;
// f64 m8n8k4: A (g, t), B (k = t, n = g), C c_i at (g, 2*t + i).
using AB_8x4_F64 = Layout<tuple<tuple<_4, _8>, _1>, tuple<tuple<_8, _1>, _0>>;
using C_8x8_F64 = Layout<tuple<tuple<_4, _8>, _2>, tuple<tuple<_16, _1>, _8>>;
// s8 m16n8k32: A a_i at (g + 8*((i/4)%2), 4*t + i%4 + 16*(i/8)); B b_i at
// (k = 4*t + i%4 + 16*(i/4), n = g).
using A_16x32_S8 = Layout<tuple<tuple<_4, _8>, tuple<_4, _2, _2>>, tuple<tuple<_64, _1>, tuple<_16, _8, _256>>>;
using B_32x8_S8 = Layout<tuple<tuple<_4, _8>, tuple<_4, _2>>, tuple<tuple<_32, _1>, tuple<_8, _128>>>;

// Traits of one warp-wide atom of shape (M,N,K) over 16x8 or 8x8 accumulators.
// (The accumulator type is Acc, not C: a parameter named C would hide tessera::C.)
template <class D, class A, class B, class Acc, int M, int N, int K, class A_Layout, class B_Layout,
          class C_Layout = C_16x8>
using Traits = detail::mma_traits<D, A, B, Acc, tuple<tessera::C<M>, tessera::C<N>, tessera::C<K>>, ThrID, A_Layout,
                                  B_Layout, C_Layout>;
// m16n8k8 and m16n8k16 with 16-bit A and B (f16 or bf16): the layouts depend only on K.
template <class D, class AB, class Acc>
using Traits_16x8x8_16b = Traits<D, AB, AB, Acc, 16, 8, 8, A_16x8_F16, B_8x8_F16>;
template <class D, class AB, class Acc>
using Traits_16x8x16_16b = Traits<D, AB, AB, Acc, 16, 8, 16, A_16x16_F16, B_16x8_F16>;
}  // namespace sm80

TESSERA_MMA_TRAITS(SM75_16x8x8_F32F16F16F32_TN, sm80::Traits_16x8x8_16b<float, half_t, float>)
TESSERA_MMA_TRAITS(SM80_16x8x8_F16F16F16F16_TN, sm80::Traits_16x8x8_16b<half_t, half_t, half_t>)
TESSERA_MMA_TRAITS(SM80_16x8x8_F32F16F16F32_TN, sm80::Traits_16x8x8_16b<float, half_t, float>)
TESSERA_MMA_TRAITS(SM80_16x8x8_F32BF16BF16F32_TN, sm80::Traits_16x8x8_16b<float, bfloat16_t, float>)
TESSERA_MMA_TRAITS(SM80_16x8x16_F16F16F16F16_TN, sm80::Traits_16x8x16_16b<half_t, half_t, half_t>)
TESSERA_MMA_TRAITS(SM80_16x8x16_F32F16F16F32_TN, sm80::Traits_16x8x16_16b<float, half_t, float>)
TESSERA_MMA_TRAITS(SM80_16x8x16_F32BF16BF16F32_TN, sm80::Traits_16x8x16_16b<float, bfloat16_t, float>)
TESSERA_MMA_TRAITS(SM80_16x8x8_F32TF32TF32F32_TN,
                   sm80::Traits<float, tfloat32_t, tfloat32_t, float, 16, 8, 8, sm80::A_16x8_TF32, sm80::B_8x8_TF32>)
TESSERA_MMA_TRAITS(SM80_8x8x4_F64F64F64F64_TN, sm80::Traits<double, double, double, double, 8, 8, 4, sm80::AB_8x4_F64,
                                                            sm80::AB_8x4_F64, sm80::C_8x8_F64>)
TESSERA_MMA_TRAITS(SM80_16x8x32_S32S8S8S32_TN,
                   sm80::Traits<int32_t, int8_t, int8_t, int32_t, 16, 8, 32, sm80::A_16x32_S8, sm80::B_32x8_S8>)

}  // namespace tessera
