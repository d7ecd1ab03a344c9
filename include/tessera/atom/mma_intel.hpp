// Intel Xe DPAS (dot product accumulate systolic) as tessera atoms: Xe-HPC (Data Center GPU
// Max, "xe-hpc", subgroup of 16 work-items) and Xe-HPG (Arc, "xe-hpg", subgroup of 8). The
// atom's thread mode is the subgroup's work-items (channels); `wave_size` is the subgroup size.
//
// Sources: Intel, "Intel Graphics ISA" for Xe-HPG and Xe-HPC (the DPAS instruction: systolic
// depth 8 dwords, repeat count 1-8, execution size 8 (HPG) or 16 (HPC); A (src2) M x K row-major,
// B (src1) K x N in VNNI form (a dword holds BV = 32 / bits consecutive K of one column), C/D
// M x N row-major, each in consecutive registers), and the SIMT view of those registers that
// SYCL code and Intel's CuTe fork (intel/sycl-tla, cute/atom/mma_traits_xe.hpp, XE_DPAS_TT) take:
// element v of work-item t is element v * SG + t of the register block (SG the subgroup size).
// So, with K = 256 / bits (16 for bf16/f16, 32 for s8), RC the repeat count (M) and N = SG:
//   A[m][k] at m*K + k:                              work-item k % SG, element m * K/SG + k / SG
//   B[k][n] at (k / BV) * N*BV + n*BV + k % BV:      work-item (n*BV + k % BV) % SG, ...
//   C[m][n] at m*N + n:                              work-item n, element m
// In CuTe's convention (A: m + M*k, B: n + N*k, C: m + M*n):
//   ALayout (SG, (K/SG, RC)):(RC, (SG*RC, 1))   ((SG, RC):(RC, 1) when K = SG, (SG, K/SG):(1, SG)
//                                               when RC = 1)
//   BLayout ((BV, SG/BV), (BV, K/BV)):((SG, 1), (SG/BV, SG*BV))
//   CLayout (SG, RC):(RC, 1)
// which are sycl-tla's XE_DPAS_TT<RC, D, A, B, C> layouts for SG = 16 (Xe-HPC); Xe-HPG's are the
// same register view with SG = 8. tessera issues no DPAS (detail/foreign_mma.hpp).
#pragma once

#include <type_traits>

#include "tessera/atom/detail/foreign_mma.hpp"
#include "tessera/atom/detail/mma_traits.hpp"
#include "tessera/atom/mma_atom.hpp"

namespace tessera {

namespace intel {
// DPAS with repeat count RC and execution size (= subgroup size) N on `Bits`-bit A and B.
template <class D, class A, class B, class Acc, int RC, int N, int Bits>
struct dpas_traits {
  static constexpr int K = 256 / Bits;   // systolic depth 8 x one dword of K
  static constexpr int BV = 32 / Bits;   // K per dword of B (VNNI)
  static constexpr int E = K / N;        // elements of each row of A per work-item
  static_assert(E * N == K && N % BV == 0 && RC >= 1 && RC <= 8,
                "DPAS: repeat count 1-8, K a multiple of the subgroup size");
  using ValTypeD = D;
  using ValTypeA = A;
  using ValTypeB = B;
  using ValTypeC = Acc;
  using Shape_MNK = tuple<C<RC>, C<N>, C<K>>;
  using ThrID = Layout<C<N>, _1>;
  // (CuTe's coalesced forms: a mode of size 1 dropped.)
  using ALayout = std::conditional_t<
      RC == 1, Layout<tuple<C<N>, C<E>>, tuple<_1, C<E == 1 ? 0 : N>>>,
      std::conditional_t<E == 1, Layout<tuple<C<N>, C<RC>>, tuple<C<RC>, _1>>,
                         Layout<tuple<C<N>, tuple<C<E>, C<RC>>>, tuple<C<RC>, tuple<C<N * RC>, _1>>>>>;
  using BLayout = Layout<tuple<tuple<C<BV>, C<N / BV>>, tuple<C<BV>, C<K / BV>>>,
                         tuple<tuple<C<N>, _1>, tuple<C<N / BV>, C<N * BV>>>>;
  using CLayout = Layout<tuple<C<N>, C<RC>>, tuple<C<RC>, _1>>;
  static constexpr int wave_size = N;
};
}  // namespace intel

// INTEL_<XE_HPC|XE_HPG>_DPAS_<RC>x<N>x<K>_<D><A><B><C>, one template per combination over RC.
#define TESSERA_INTEL_DPAS(NAME, D, A, B, ACC, N, BITS)                                                   \
  template <int RC>                                                                                   \
  struct NAME {                                                                                       \
    template <class... Args>                                                                          \
    TESSERA_HOST_DEVICE static void fma(Args&&...) {                                                  \
      detail::mma_unsupported(#NAME ": DPAS is an Intel instruction: tessera draws its layouts");      \
    }                                                                                                 \
  };                                                                                                  \
  template <int RC>                                                                                   \
  struct MMA_Traits<NAME<RC>> : intel::dpas_traits<D, A, B, ACC, RC, N, BITS> {                           \
    static constexpr const char* name = #NAME;                                                        \
  };
TESSERA_INTEL_DPAS(INTEL_XE_HPC_DPAS_F32BF16BF16F32, float, bfloat16_t, bfloat16_t, float, 16, 16)
TESSERA_INTEL_DPAS(INTEL_XE_HPC_DPAS_F32F16F16F32, float, half_t, half_t, float, 16, 16)
TESSERA_INTEL_DPAS(INTEL_XE_HPC_DPAS_S32S8S8S32, int32_t, int8_t, int8_t, int32_t, 16, 8)
TESSERA_INTEL_DPAS(INTEL_XE_HPG_DPAS_F32BF16BF16F32, float, bfloat16_t, bfloat16_t, float, 8, 16)
TESSERA_INTEL_DPAS(INTEL_XE_HPG_DPAS_F32F16F16F32, float, half_t, half_t, float, 8, 16)
TESSERA_INTEL_DPAS(INTEL_XE_HPG_DPAS_S32S8S8S32, int32_t, int8_t, int8_t, int32_t, 8, 8)
#undef TESSERA_INTEL_DPAS

}  // namespace tessera
