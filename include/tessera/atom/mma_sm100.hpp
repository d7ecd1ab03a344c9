// Blackwell (SM100) tcgen05.mma atoms: their TV layouts and where the accumulator lives in
// tensor memory (PTX ISA, "TensorCore 5th Generation Family Instructions": tcgen05.mma,
// "Matrix Shape", "Tensor Memory", "Data path layout organization").
//
// One thread issues tcgen05.mma for a whole CTA (cta_group::1) or a CTA pair (cta_group::2),
// and no operand is in a thread's registers: A and B are read from shared memory (or A from
// tensor memory, the _TS atoms) and D is accumulated in tensor memory. So the atom's "threads"
// are CTAs, as in CuTe: ThrID is 1 (one CTA) or 2 (the pair, peer CTAs 0 and 1), and
//   cta_group::1  ALayout (1,(M,K)):(0,(1,M))      every element is the CTA's
//   cta_group::2  ALayout (2,(M/2,K)):(M/2,(1,M))  CTA c holds rows c*M/2 .. c*M/2 + M/2-1
// and the same for B (N, K) and C (M, N). K is 256 bits of A's element: 16 (f16, bf16),
// 8 (tf32), 32 (s8, u8).
//
// The accumulator is a layout over tensor memory (128 lanes x 512 columns of 32-bit cells,
// UMMA::TmemLayoutC): (m, n) of the CTA's M/cta_group x N tile -> lane + 128 * column.
//   M = 64,  cta_group::1: row m in lane (m % 16) + 32 * (m / 16), column n: the first 16
//                          lanes of each warp's 32-lane quarter
//   M = 128, cta_group::1: row m in lane m, column n
//   M = 128, cta_group::2: each CTA's 64 rows in lanes 0-63 for columns n < N/2 and in
//                          lanes 64-127 for the others, at column n - N/2
//   M = 256, cta_group::2: each CTA's 128 rows in lane m, column n
// One cell per element, f16 accumulators included (each in its own 32-bit cell).
#pragma once

#include "tessera/atom/detail/mma_ops_sm100.hpp"
#include "tessera/atom/mma_atom.hpp"

namespace tessera {

namespace UMMA {
// Tensor memory: 128 lanes (data paths) x 512 columns of 32-bit cells per CTA.
inline constexpr int tmem_lanes = 128;
inline constexpr int tmem_columns = 512;

template <int CtaGroup, int M, int N>
struct tmem_accumulator;
template <int N>
struct tmem_accumulator<1, 64, N> {
  using type = Layout<tuple<tuple<_16, _4>, C<N>>, tuple<tuple<_1, _32>, _128>>;
};
template <int N>
struct tmem_accumulator<1, 128, N> {
  using type = Layout<tuple<_128, C<N>>, tuple<_1, _128>>;
};
template <int N>
struct tmem_accumulator<2, 128, N> {
  using type = Layout<tuple<_64, tuple<C<N / 2>, _2>>, tuple<_1, tuple<_128, _64>>>;
};
template <int N>
struct tmem_accumulator<2, 256, N> {
  using type = Layout<tuple<_128, C<N>>, tuple<_1, _128>>;
};
// (m, n) of one CTA's accumulator tile -> lane + 128 * column.
template <int CtaGroup, int M, int N>
using TmemLayoutC = typename tmem_accumulator<CtaGroup, M, N>::type;

// The TV layouts of an atom of cta_group CtaGroup with its (M, N, K).
template <int CtaGroup, int M, int N, int K>
struct tv_layouts;
template <int M, int N, int K>
struct tv_layouts<1, M, N, K> {
  using ThrID = Layout<_1, _0>;
  using ALayout = Layout<tuple<_1, tuple<C<M>, C<K>>>, tuple<_0, tuple<_1, C<M>>>>;
  using BLayout = Layout<tuple<_1, tuple<C<N>, C<K>>>, tuple<_0, tuple<_1, C<N>>>>;
  using CLayout = Layout<tuple<_1, tuple<C<M>, C<N>>>, tuple<_0, tuple<_1, C<M>>>>;
};
template <int M, int N, int K>
struct tv_layouts<2, M, N, K> {
  using ThrID = Layout<_2, _1>;
  using ALayout = Layout<tuple<_2, tuple<C<M / 2>, C<K>>>, tuple<C<M / 2>, tuple<_1, C<M>>>>;
  using BLayout = Layout<tuple<_2, tuple<C<N / 2>, C<K>>>, tuple<C<N / 2>, tuple<_1, C<N>>>>;
  using CLayout = Layout<tuple<_2, tuple<C<M / 2>, C<N>>>, tuple<C<M / 2>, tuple<_1, C<M>>>>;
};
}  // namespace UMMA

#define TESSERA_SM100_TRAITS(OP)                                                                                 \
  template <class A, class B, class D, int M, int N, UMMA::Major MajorA, UMMA::Major MajorB, UMMA::ScaleIn NegA, \
            UMMA::ScaleIn NegB>                                                                                  \
  struct MMA_Traits<OP<A, B, D, M, N, MajorA, MajorB, NegA, NegB>>                                               \
      : UMMA::tv_layouts<OP<A, B, D, M, N, MajorA, MajorB, NegA, NegB>::cta_group, M, N,                        \
                         OP<A, B, D, M, N, MajorA, MajorB, NegA, NegB>::k> {                                     \
    static constexpr const char* name = #OP;                                                                     \
    static constexpr int cta_group = OP<A, B, D, M, N, MajorA, MajorB, NegA, NegB>::cta_group;                   \
    using ValTypeD = D;                                                                                          \
    using ValTypeA = A;                                                                                          \
    using ValTypeB = B;                                                                                          \
    using ValTypeC = D;                                                                                          \
    using Shape_MNK = tuple<C<M>, C<N>, C<OP<A, B, D, M, N, MajorA, MajorB, NegA, NegB>::k>>;                    \
    using TmemLayoutC = UMMA::TmemLayoutC<cta_group, M, N>;                                                      \
    static constexpr UMMA::Major major_A = MajorA;                                                               \
    static constexpr UMMA::Major major_B = MajorB;                                                               \
    static constexpr UMMA::InstrDescriptor idesc = UMMA::make_instr_desc<A, B, D, M, N, MajorA, MajorB, NegA, NegB>(); \
  };

TESSERA_SM100_TRAITS(SM100_MMA_F16BF16_SS)
TESSERA_SM100_TRAITS(SM100_MMA_F16BF16_TS)
TESSERA_SM100_TRAITS(SM100_MMA_F16BF16_2x1SM_SS)
TESSERA_SM100_TRAITS(SM100_MMA_F16BF16_2x1SM_TS)
TESSERA_SM100_TRAITS(SM100_MMA_TF32_SS)
TESSERA_SM100_TRAITS(SM100_MMA_TF32_TS)
TESSERA_SM100_TRAITS(SM100_MMA_TF32_2x1SM_SS)
TESSERA_SM100_TRAITS(SM100_MMA_TF32_2x1SM_TS)
TESSERA_SM100_TRAITS(SM100_MMA_S8_SS)
TESSERA_SM100_TRAITS(SM100_MMA_S8_TS)
TESSERA_SM100_TRAITS(SM100_MMA_S8_2x1SM_SS)
TESSERA_SM100_TRAITS(SM100_MMA_S8_2x1SM_TS)
TESSERA_SM100_TRAITS(SM100_MMA_F8F6F4_SS)
TESSERA_SM100_TRAITS(SM100_MMA_F8F6F4_TS)
TESSERA_SM100_TRAITS(SM100_MMA_F8F6F4_2x1SM_SS)
TESSERA_SM100_TRAITS(SM100_MMA_F8F6F4_2x1SM_TS)

#undef TESSERA_SM100_TRAITS

// Block-scaled atoms: the scale factors' layouts.
namespace UMMA {
// Where scale factors are stored in global and shared memory, a 128 x 4 block of them at a time
// (CUTLASS's Sm1xxBlockScaledConfig, whose TMA loads and tcgen05.cp copies assume it): for K-major
// operands ((32,4),(VS,4)) -> offset, row m = m0 + 32 m1 and K element k = v + VS s of the block
// at 16 m0 + 4 m1 + s. Four scale factors of one row are one 32-bit word, and the 512 bytes are
// the 32 lanes x 16 bytes that one tcgen05.cp .32x128b.warpx4 moves into tensor memory.
template <int VS>
using SfKMajorAtom = Layout<tuple<tuple<_32, _4>, tuple<C<VS>, _4>>, tuple<tuple<_16, _4>, tuple<_0, _1>>>;
template <int VS>
using SfMNMajorAtom = Layout<tuple<tuple<C<VS>, _4>, tuple<_32, _4>>, tuple<tuple<_0, _1>, tuple<_16, _4>>>;

// Where one MMA's scale factors sit in tensor memory (PTX ISA, "Block Scaling for tcgen05.mma",
// the scale factors' tensor-memory layout), cta_group::1: ((mn, copy), (v, s)) -> lane +
// 128 * byte, bytes counted along a lane (a 32-bit column is 4 bytes). Row mn = m0 + 32 m1 of A
// (column of B) keeps its NSF = K/VS scale factors in byte s + 4 m1 of lane m0, and the same in
// lanes m0 + 32, + 64, + 96 (copy 1-3: each 32-lane quarter holds them all); v, the element
// within the block, does not move it. MN is M for A and N rounded up to 128 for B (CuTe's
// tmem_sf_frg with the 4x1 data path).
template <int MN, int VS, int NSF>
using TmemLayoutSF = Layout<tuple<tuple<tuple<_32, C<MN / 32>>, _4>, tuple<C<VS>, C<NSF>>>,
                            tuple<tuple<tuple<_1, _512>, _32>, tuple<_0, _128>>>;

// CTA pair, M = 128 (the mxf4 kinds only), SFB: CuTe's 2x2 data path. Each CTA's 64 rows of D sit
// in lanes 0-63 for columns n < N/2 and in lanes 64-127 for the others, so a column's factors go
// where its half is computed: column n = n0 + 32 n1 + MN/2 h (h the half) keeps them in byte
// s + 4 n1 of lane n0 + 64 h, and the same in lane n0 + 64 h + 32 (copy 1; two copies, not four).
template <int MN, int VS, int NSF>
using TmemLayoutSF2x2 = Layout<tuple<tuple<tuple<tuple<_32, C<MN / 64>>, _2>, _2>, tuple<C<VS>, C<NSF>>>,
                               tuple<tuple<tuple<tuple<_1, _512>, _64>, _32>, tuple<_0, _128>>>;

// One CTA's scale factors of one MMA (CuTe's traits' FrgTypeSFA / FrgTypeSFB). MN is the rows of
// A the CTA holds, M / cta_group (the tile's M over the pair, as CUTLASS's block-scaled collective
// sizes them), and N rounded up to 128 for B: each CTA of a pair holds all of B's columns' factors.
// cta_group::2 with M = 256 uses the 4x1 data path, as one CTA does; with M = 128, B's follow
// TmemLayoutSF2x2 (A's keep the 4x1 form, 64 rows).
template <int CtaGroup, int M, int N, int K, int VS>
struct tmem_scale_factors {
  static_assert(CtaGroup == 1 || CtaGroup == 2, "tcgen05.mma is cta_group::1 or ::2");
  static constexpr int sfa_rows = M / CtaGroup, sfb_cols = (N + 127) / 128 * 128;
  using TmemLayoutSFA = TmemLayoutSF<sfa_rows, VS, K / VS>;
  using TmemLayoutSFB = std::conditional_t<CtaGroup == 2 && M == 128, TmemLayoutSF2x2<sfb_cols, VS, K / VS>,
                                           TmemLayoutSF<sfb_cols, VS, K / VS>>;
};

// The traits of a block-scaled atom beyond the TV layouts. SFALayout / SFBLayout say which CTA
// supplies the scale factor of A's element (m, k) (B's (n, k)), as SM120's traits do over the
// elements' coordinates (the factor is the one of block k / VS): the CTA that holds row m, so
// they are ALayout and BLayout (CuTe's tcgen05 traits define none).
template <class Op, class A, class B, class D, class SF, int M, int N, int K, int VS>
struct block_scaled_traits : tv_layouts<Op::cta_group, M, N, K>, tmem_scale_factors<Op::cta_group, M, N, K, VS> {
  static constexpr int cta_group = Op::cta_group;
  using ValTypeD = D;
  using ValTypeA = A;
  using ValTypeB = B;
  using ValTypeC = D;
  using ValTypeSF = SF;
  using ValTypeSFA = SF;
  using ValTypeSFB = SF;
  static constexpr int SFVecSize = VS;
  using Shape_MNK = tuple<C<M>, C<N>, C<K>>;
  using TmemLayoutC = UMMA::TmemLayoutC<cta_group, M, N>;
  using SFALayout = typename tv_layouts<cta_group, M, N, K>::ALayout;
  using SFBLayout = typename tv_layouts<cta_group, M, N, K>::BLayout;
  using SfAtom = SfKMajorAtom<VS>;
};
}  // namespace UMMA

#define TESSERA_SM100_BS_TRAITS(OP, PACKED_F4, K, VS_PARAM, VS)                                                    \
  template <class A, class B, class D, class SF, int M, int N VS_PARAM, UMMA::Major MajorA, UMMA::Major MajorB,   \
            UMMA::ScaleIn NegA, UMMA::ScaleIn NegB>                                                               \
  struct MMA_Traits<OP<A, B, D, SF, M, N, VS MajorA, MajorB, NegA, NegB>>                                         \
      : UMMA::block_scaled_traits<OP<A, B, D, SF, M, N, VS MajorA, MajorB, NegA, NegB>, A, B, D, SF, M, N, K,      \
                                  OP<A, B, D, SF, M, N, VS MajorA, MajorB, NegA, NegB>::sf_vec> {                  \
    static constexpr const char* name = #OP;                                                                      \
    static constexpr UMMA::Major major_A = MajorA;                                                                \
    static constexpr UMMA::Major major_B = MajorB;                                                                \
    static constexpr UMMA::InstrDescriptorBlockScaled idesc =                                                     \
        UMMA::make_instr_desc_block_scaled<A, B, SF, M, N, MajorA, MajorB, PACKED_F4, NegA, NegB>();              \
  };
#define TESSERA_COMMA ,
TESSERA_SM100_BS_TRAITS(SM100_MMA_MXF8F6F4_SS, false, 32, , )
TESSERA_SM100_BS_TRAITS(SM100_MMA_MXF8F6F4_2x1SM_SS, false, 32, , )
TESSERA_SM100_BS_TRAITS(SM100_MMA_MXF4_SS, true, 64, TESSERA_COMMA int VS, VS TESSERA_COMMA)
TESSERA_SM100_BS_TRAITS(SM100_MMA_MXF4_2x1SM_SS, true, 64, TESSERA_COMMA int VS, VS TESSERA_COMMA)
#undef TESSERA_COMMA
#undef TESSERA_SM100_BS_TRAITS

}  // namespace tessera
