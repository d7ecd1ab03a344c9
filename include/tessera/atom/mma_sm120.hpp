// Blackwell GeForce/workstation (SM120) mma.sync on FP8/FP6/FP4 and its block-scaled forms
// (PTX ISA, "Warp-level Matrix Multiply-Accumulate Instructions", mma: .kind::f8f6f4,
// .kind::mxf8f6f4 and .kind::mxf4nvf4 with .block_scale; "Matrix Fragments for mma.m16n8k32
// with .kind::f8f6f4" and "... mma.m16n8k64 with .kind::mxf4nvf4"; the scale-factor operands
// "Matrix fragments for the scale matrices"). Named as CuTe's cute/arch/mma_sm120.hpp names them:
//   SM120_16x8x32_TN<A, B, C>                                  .kind::f8f6f4, C float or half_t
//   SM120::BLOCKSCALED::SM120_16x8x32_TN_VS<A, B, C, SF, VS>    .kind::mxf8f6f4, SF ue8m0, VS 32
//   SM120::BLOCKSCALED::SM120_16x8x64_TN_VS<A, B, C, SF, VS>    .kind::mxf4nvf4 (e2m1), SF ue8m0
//                                                              (VS 32 or 16) or ue4m3 (VS 16)
// m16n8k32: every operand type (e4m3, e5m2, e3m2, e2m3, e2m1) sits in an 8-bit container, so the
// fragments are the 8-bit m16n8k32 ones (SM80_16x8x32_S32S8S8S32_TN's layouts, as CuTe's
// traits). m16n8k64 packs two e2m1 per byte: A (T32,V32), B (T32,V16).
// Scale factors as layouts, (thread, value) -> m + M*k (SFA, (M,K)) and n + N*k (SFB, (N,K)):
// a thread's scale register holds one factor per VS consecutive K of its row (column), read
// by the threads the ISA's thread-id selector names (selector 0 here, as CuTe's traits): SFA
// row m by the lanes 4*(m%8) + m/8 and, repeated (stride 0), 4*(m%8) + m/8 + 2; SFB column n
// by the lanes 4n..4n+3. The value mode runs over all K elements: factor k / VS.
// The inline PTX of these atoms is not part of tessera yet: fma stops (detail/foreign_mma.hpp).
#pragma once

#include "tessera/atom/detail/foreign_mma.hpp"
#include "tessera/atom/mma_sm80.hpp"
#include "tessera/atom/numeric_narrow.hpp"

namespace tessera {

template <class A, class B, class C>
struct SM120_16x8x32_TN {
  template <class... Args>
  TESSERA_HOST_DEVICE static void fma(Args&&...) {
    detail::mma_unsupported("SM120_16x8x32_TN: mma.sync.kind::f8f6f4 is described, not issued, by tessera");
  }
};
namespace SM120::BLOCKSCALED {
template <class A, class B, class C, class SF, int VS>
struct SM120_16x8x32_TN_VS {
  template <class... Args>
  TESSERA_HOST_DEVICE static void fma(Args&&...) {
    detail::mma_unsupported("SM120_16x8x32_TN_VS: mma.sync.kind::mxf8f6f4 is described, not issued, by tessera");
  }
};
template <class A, class B, class C, class SF, int VS>
struct SM120_16x8x64_TN_VS {
  template <class... Args>
  TESSERA_HOST_DEVICE static void fma(Args&&...) {
    detail::mma_unsupported("SM120_16x8x64_TN_VS: mma.sync.kind::mxf4nvf4 is described, not issued, by tessera");
  }
};
}  // namespace SM120::BLOCKSCALED

namespace sm120 {
// m16n8k64 (two e2m1 per byte): A a_i at (g + 8*((i/8)%2), 8*t + i%8 + 32*(i/16)); B b_i at
// (k = 8*t + i%8 + 32*(i/8), n = g).
using A_16x64_F4 = Layout<tuple<tuple<_4, _8>, tuple<_8, _2, _2>>, tuple<tuple<_128, _1>, tuple<_16, _8, _512>>>;
using B_64x8_F4 = Layout<tuple<tuple<_4, _8>, tuple<_8, _2>>, tuple<tuple<_64, _1>, tuple<_8, _256>>>;
template <int K>
using SFA_16xK = Layout<tuple<tuple<_2, _2, _8>, C<K>>, tuple<tuple<_8, _0, _1>, _16>>;
template <int K>
using SFB_8xK = Layout<tuple<tuple<_4, _8>, C<K>>, tuple<tuple<_0, _1>, _8>>;

template <class SF, int VS, int K>
struct scale_factors {
  using ValTypeSF = SF;
  static constexpr int SFVecSize = VS;
  using SFALayout = SFA_16xK<K>;
  using SFBLayout = SFB_8xK<K>;
};
}  // namespace sm120

template <class A, class B, class Acc>
struct MMA_Traits<SM120_16x8x32_TN<A, B, Acc>>
    : sm80::Traits<Acc, A, B, Acc, 16, 8, 32, sm80::A_16x32_S8, sm80::B_32x8_S8> {
  static constexpr const char* name = "SM120_16x8x32_TN";
};
template <class A, class B, class Acc, class SF, int VS>
struct MMA_Traits<SM120::BLOCKSCALED::SM120_16x8x32_TN_VS<A, B, Acc, SF, VS>>
    : sm80::Traits<Acc, A, B, Acc, 16, 8, 32, sm80::A_16x32_S8, sm80::B_32x8_S8>, sm120::scale_factors<SF, VS, 32> {
  static_assert(VS == 32, "mma.sync.kind::mxf8f6f4 scales blocks of 32 K elements (.scale_vec::1X)");
  static constexpr const char* name = "SM120_16x8x32_TN_VS";
};
template <class A, class B, class Acc, class SF, int VS>
struct MMA_Traits<SM120::BLOCKSCALED::SM120_16x8x64_TN_VS<A, B, Acc, SF, VS>>
    : sm80::Traits<Acc, A, B, Acc, 16, 8, 64, sm120::A_16x64_F4, sm120::B_64x8_F4>, sm120::scale_factors<SF, VS, 64> {
  static_assert(VS == 16 || VS == 32, "mma.sync.kind::mxf4nvf4 scales blocks of 32 (.scale_vec::2X) or 16 (.scale_vec::4X) K elements");
  static constexpr const char* name = "SM120_16x8x64_TN_VS";
};

}  // namespace tessera
