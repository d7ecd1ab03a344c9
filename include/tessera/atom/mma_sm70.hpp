// Volta mma.sync.m8n8k4: a warp runs four independent 8x8x4 MMAs, one per quad-pair
// (lanes 4q..4q+3 and 4q+16..4q+19).  The atom is one quad-pair: 8 threads whose atom
// index t maps to lane (t % 4) + 16 * (t / 4).
#pragma once

#include <type_traits>

#include "tessera/atom/detail/mma_traits.hpp"
#include "tessera/atom/mma_atom.hpp"

namespace tessera {

namespace sm70 {
using ThrID = Layout<tuple<_4, _2>, tuple<_1, _16>>;
// Atom thread t holds a full K-row (T) or M/N-column (N) of its operand:
using K_Major = Layout<tuple<_8, _4>, tuple<_1, _8>>;                         // row t, cols 0..3
using MN_Major = Layout<tuple<tuple<_4, _2>, _4>, tuple<tuple<_8, _4>, _1>>;  // col t%4, rows 4*(t/4)+v
// C with f16 accumulators: thread t holds row t.  With f32 accumulators the ISA spreads
// each thread over rows (t&1) + 2*(v&2 ? 1:0) + 4*(t/4) and cols (v&1) + (t&2) + (v&4).
using C_F16 = Layout<tuple<_8, _8>, tuple<_1, _8>>;
using C_F32 = Layout<tuple<tuple<_2, _2, _2>, tuple<_2, _2, _2>>,
                     tuple<tuple<_1, _16, _4>, tuple<_8, _2, _32>>>;
// The atom's traits: f16 A and B; D and C of type DC (C's layout follows it).
template <class DC, class A_Layout, class B_Layout>
using Traits = detail::mma_traits<DC, half_t, half_t, DC, tuple<_8, _8, _4>, ThrID, A_Layout, B_Layout,
                                  std::conditional_t<std::is_same_v<DC, half_t>, C_F16, C_F32>>;
}  // namespace sm70

// Suffix: A then B, T = K-major (.row A / .col B), N = M/N-major.
TESSERA_MMA_TRAITS(SM70_8x8x4_F16F16F16F16_TN, sm70::Traits<half_t, sm70::K_Major, sm70::K_Major>)
TESSERA_MMA_TRAITS(SM70_8x8x4_F16F16F16F16_NT, sm70::Traits<half_t, sm70::MN_Major, sm70::MN_Major>)
TESSERA_MMA_TRAITS(SM70_8x8x4_F16F16F16F16_NN, sm70::Traits<half_t, sm70::MN_Major, sm70::K_Major>)
TESSERA_MMA_TRAITS(SM70_8x8x4_F16F16F16F16_TT, sm70::Traits<half_t, sm70::K_Major, sm70::MN_Major>)
TESSERA_MMA_TRAITS(SM70_8x8x4_F32F16F16F32_TN, sm70::Traits<float, sm70::K_Major, sm70::K_Major>)
TESSERA_MMA_TRAITS(SM70_8x8x4_F32F16F16F32_NT, sm70::Traits<float, sm70::MN_Major, sm70::MN_Major>)
TESSERA_MMA_TRAITS(SM70_8x8x4_F32F16F16F32_NN, sm70::Traits<float, sm70::MN_Major, sm70::K_Major>)
TESSERA_MMA_TRAITS(SM70_8x8x4_F32F16F16F32_TT, sm70::Traits<float, sm70::K_Major, sm70::MN_Major>)

}  // namespace tessera
