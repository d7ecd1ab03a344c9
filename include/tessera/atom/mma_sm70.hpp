// Volta mma.sync.m8n8k4: a warp runs four independent 8x8x4 MMAs, one per quad-pair
// (lanes 4q..4q+3 and 4q+16..4q+19).  The atom is one quad-pair: 8 threads whose atom
// index t maps to lane (t % 4) + 16 * (t / 4).
#pragma once

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
}  // namespace sm70

#define TESSERA_SM70_TRAITS(NAME, D, Cc, A_LAYOUT, B_LAYOUT, C_LAYOUT) \
  template <>                                                          \
  struct MMA_Traits<NAME> {                                            \
    static constexpr const char* name = #NAME;                         \
    using ValTypeD = D;                                                \
    using ValTypeA = half_t;                                           \
    using ValTypeB = half_t;                                           \
    using ValTypeC = Cc;                                               \
    using Shape_MNK = tuple<_8, _8, _4>;                               \
    using ThrID = sm70::ThrID;                                         \
    using ALayout = A_LAYOUT;                                          \
    using BLayout = B_LAYOUT;                                          \
    using CLayout = C_LAYOUT;                                          \
  };

// Suffix: A then B, T = K-major (.row A / .col B), N = M/N-major.
TESSERA_SM70_TRAITS(SM70_8x8x4_F16F16F16F16_TN, half_t, half_t, sm70::K_Major, sm70::K_Major, sm70::C_F16)
TESSERA_SM70_TRAITS(SM70_8x8x4_F16F16F16F16_NT, half_t, half_t, sm70::MN_Major, sm70::MN_Major, sm70::C_F16)
TESSERA_SM70_TRAITS(SM70_8x8x4_F16F16F16F16_NN, half_t, half_t, sm70::MN_Major, sm70::K_Major, sm70::C_F16)
TESSERA_SM70_TRAITS(SM70_8x8x4_F16F16F16F16_TT, half_t, half_t, sm70::K_Major, sm70::MN_Major, sm70::C_F16)
TESSERA_SM70_TRAITS(SM70_8x8x4_F32F16F16F32_TN, float, float, sm70::K_Major, sm70::K_Major, sm70::C_F32)
TESSERA_SM70_TRAITS(SM70_8x8x4_F32F16F16F32_NT, float, float, sm70::MN_Major, sm70::MN_Major, sm70::C_F32)
TESSERA_SM70_TRAITS(SM70_8x8x4_F32F16F16F32_NN, float, float, sm70::MN_Major, sm70::K_Major, sm70::C_F32)
TESSERA_SM70_TRAITS(SM70_8x8x4_F32F16F16F32_TT, float, float, sm70::K_Major, sm70::MN_Major, sm70::C_F32)

#undef TESSERA_SM70_TRAITS

}  // namespace tessera
