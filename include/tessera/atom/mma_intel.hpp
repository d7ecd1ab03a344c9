// Intel Xe DPAS (dot product accumulate systolic) as tessera atoms: Xe-HPC (Data Center GPU
// Max, "xe-hpc", subgroup of 16 work-items) and Xe-HPG (Arc, "xe-hpg", subgroup of 8). The
// atom's thread mode is the subgroup's work-items (channels); `wave_size` is the subgroup size.
//
// Sources: Intel, "Intel Graphics ISA" for Xe-HPG and Xe-HPC (the DPAS instruction: systolic
// depth 8, repeat count 1-8, execution size 8 (HPG) or 16 (HPC)), and the SYCL extension
// sycl_ext_oneapi_matrix (joint_matrix), whose per-work-item element mapping for the Intel
// XMX combinations is the register one: with RC the repeat count (M), N the execution size,
// each dword of a row holding 32 / bits elements of K (K = 8 * 32 / bits: 16 for bf16/f16,
// 32 for s8):
//   C/D (M x N, RC registers): D[m][n] in work-item n, element m
//   B (K x N, VNNI-packed):    B[k][n] in work-item n, element k
//   A (M x K): row m is one register row across the subgroup, so work-item w holds E = K / N
//     consecutive elements A[m][E*w .. E*w + E-1], elements m*E + e (HPC bf16/f16: E = 1;
//     HPC s8 and HPG bf16/f16: E = 2; HPG s8: E = 4)
// In CuTe's convention: ALayout (w, (e, m)) -> m + M*(E*w + e), BLayout (n, k) -> n + N*k,
// CLayout (n, m) -> m + M*n. Intel's CUTLASS fork names the Xe-HPC bf16 atom
// XE_8x16x16_F32BF16BF16F32_TT (ThrID 16, ALayout (16,8):(8,1), CLayout (16,8):(8,1)); tessera
// issues no DPAS (detail/foreign_mma.hpp).
#pragma once

#include <type_traits>

#include "tessera/atom/detail/foreign_mma.hpp"
#include "tessera/atom/detail/mma_traits.hpp"
#include "tessera/atom/mma_atom.hpp"

namespace tessera {

namespace intel {
// DPAS with repeat count RC, execution size N, K elements of A per row, E = K / N per work-item.
template <class D, class A, class B, class Acc, int RC, int N, int K>
struct dpas_traits {
  static constexpr int E = K / N;
  static_assert(E * N == K && RC >= 1 && RC <= 8, "DPAS: repeat count 1-8, K a multiple of the execution size");
  using ValTypeD = D;
  using ValTypeA = A;
  using ValTypeB = B;
  using ValTypeC = Acc;
  using Shape_MNK = tuple<C<RC>, C<N>, C<K>>;
  using ThrID = Layout<C<N>, _1>;
  // E = 1 (one element of each row per work-item): (N, RC), CuTe's form of the same map.
  using ALayout = std::conditional_t<E == 1, Layout<tuple<C<N>, C<RC>>, tuple<C<RC>, _1>>,
                                     Layout<tuple<C<N>, tuple<C<E>, C<RC>>>, tuple<C<RC * E>, tuple<C<RC>, _1>>>>;
  using BLayout = Layout<tuple<C<N>, C<K>>, tuple<_1, C<N>>>;
  using CLayout = Layout<tuple<C<N>, C<RC>>, tuple<C<RC>, _1>>;
  static constexpr int wave_size = N;
};
}  // namespace intel

// INTEL_<XE_HPC|XE_HPG>_DPAS_<RC>x<N>x<K>_<D><A><B><C>, one template per combination over RC.
#define TESSERA_INTEL_DPAS(NAME, D, A, B, ACC, N, K)                                                   \
  template <int RC>                                                                                   \
  struct NAME {                                                                                       \
    template <class... Args>                                                                          \
    TESSERA_HOST_DEVICE static void fma(Args&&...) {                                                  \
      detail::mma_unsupported(#NAME ": DPAS is an Intel instruction: tessera draws its layouts");      \
    }                                                                                                 \
  };                                                                                                  \
  template <int RC>                                                                                   \
  struct MMA_Traits<NAME<RC>> : intel::dpas_traits<D, A, B, ACC, RC, N, K> {                           \
    static constexpr const char* name = #NAME;                                                        \
  };
TESSERA_INTEL_DPAS(INTEL_XE_HPC_DPAS_F32BF16BF16F32, float, bfloat16_t, bfloat16_t, float, 16, 16)
TESSERA_INTEL_DPAS(INTEL_XE_HPC_DPAS_F32F16F16F32, float, half_t, half_t, float, 16, 16)
TESSERA_INTEL_DPAS(INTEL_XE_HPC_DPAS_S32S8S8S32, int32_t, int8_t, int8_t, int32_t, 16, 32)
TESSERA_INTEL_DPAS(INTEL_XE_HPG_DPAS_F32BF16BF16F32, float, bfloat16_t, bfloat16_t, float, 8, 16)
TESSERA_INTEL_DPAS(INTEL_XE_HPG_DPAS_F32F16F16F32, float, half_t, half_t, float, 8, 16)
TESSERA_INTEL_DPAS(INTEL_XE_HPG_DPAS_S32S8S8S32, int32_t, int8_t, int8_t, int32_t, 8, 32)
#undef TESSERA_INTEL_DPAS

}  // namespace tessera
