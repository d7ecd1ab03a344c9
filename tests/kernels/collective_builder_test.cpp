// The collective builders' choices for a table of (arch, element types, majors, alignments,
// tile), checked at compile time and again at run time (so a failure names the row), and the
// configuration tessera::gemm(args) runs (select_configuration) for arguments and devices.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <cstdint>
#include <string>
#include <type_traits>

#include "collective/collective_builder.hpp"
#include "collective/sm90_epilogue_staging.hpp"
#include "collective/sm90_epilogue_tree_fields.hpp"
#include "device/gemm_adapter.hpp"
#include "device/gemm_configuration.hpp"
#include "kernel/gemm_kernel.hpp"

using namespace tessera;
using namespace tessera::kernels;

namespace {

using _1x1 = tuple<_1, _1, _1>;
using _2x1 = tuple<_2, _1, _1>;

template <class Arch, class Op, class E, class MA, int AA, class MB, int AB, class Tile, class Cluster = _1x1,
          class Stages = StageCountAuto, class Schedule = ScheduleAuto>
using Build = CollectiveBuilder<Arch, Op, E, MA, AA, E, MB, AB, float, Tile, Cluster, Stages, Schedule>;

// ---- SM80 tensor op: warps of 64x64, vectorized exactly when both operands are 16-byte aligned,
// stages auto = min(163 KiB / stage bytes, 4).
using S80_default = Build<arch::Sm80, OpClassTensorOp, bfloat16_t, KMajor, 8, KMajor, 8, tuple<_128, _256, _32>>;
static_assert(std::is_same_v<S80_default::Shape, TensorOpShape<128, 256, 32, 2, 4, 4>> &&
              std::is_same_v<S80_default::DispatchPolicy, MainloopSm80CpAsync<4, 1, 8>>);
using S80_scalar = Build<arch::Sm80, OpClassTensorOp, half_t, MNMajor, 8, KMajor, 2, tuple<_128, _256, _32>>;
static_assert(std::is_same_v<S80_scalar::Shape, TensorOpShape<128, 256, 32, 2, 4, 4>> && !S80_scalar::Vectorized);

// The SM80 collective's parts, as the builder picks them: the partition's tiled MMA, smem ->
// register copies (ldmatrix x4, .trans for MN-major) and smem layouts (tile_to_shape of the
// atom, Stages deep, is the partition's layout type for type); the gmem -> smem copies are
// the partition's thread and value layouts with the zero-filling 16-byte cp.async and the
// schedule's L2 prefetch, or the partition's element copies.
template <class B, class MA, class MB, class P, int Stages>
constexpr bool collective_parts_match() {
  using Op = typename B::CollectiveOp;
  using Parts = CollectiveMmaSm80Parts<typename B::DispatchPolicy, tuple<C<B::BM>, C<B::BN>, C<B::BK>>, typename B::ElementA, MA,
                                       typename B::ElementA, MB, typename B::TiledMma, typename B::GmemTiledCopyA,
                                       typename B::SmemLayoutAtomA, typename B::SmemCopyAtomA, typename B::GmemTiledCopyB,
                                       typename B::SmemLayoutAtomB, typename B::SmemCopyAtomB>;
  static_assert(std::is_same_v<Op, CollectiveMma<typename B::DispatchPolicy, tuple<C<B::BM>, C<B::BN>, C<B::BK>>, typename B::ElementA,
                                                 MA, typename B::ElementA, MB, typename B::TiledMma, typename B::GmemTiledCopyA,
                                                 typename B::SmemLayoutAtomA, typename B::SmemCopyAtomA,
                                                 typename B::GmemTiledCopyB, typename B::SmemLayoutAtomB,
                                                 typename B::SmemCopyAtomB, trace::NoTrace>>);
  static_assert(std::is_same_v<typename B::Partition, P>);
  static_assert(std::is_same_v<typename Parts::TiledMma, typename P::TiledMma>);
  static_assert(std::is_same_v<typename Parts::S2RA, typename P::S2R_A> && std::is_same_v<typename Parts::S2RB, typename P::S2R_B>);
  static_assert(std::is_same_v<typename Parts::SmemLayoutA, typename P::template SmemLayoutA<Stages>> &&
                std::is_same_v<typename Parts::SmemLayoutB, typename P::template SmemLayoutB<Stages>>);
  static_assert(Parts::Threads == P::Threads && Parts::KK == P::BK / 16 && Parts::Vec == B::Vectorized);
  if constexpr (B::Vectorized) {
    static_assert(std::is_same_v<typename Parts::G2SOpA, SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<16, B::Policy::l2_prefetch>> &&
                  std::is_same_v<typename Parts::G2SA::TiledLayout_TV, typename P::G2S_A::Tiled::TiledLayout_TV> &&
                  std::is_same_v<typename Parts::G2SB::TiledLayout_TV, typename P::G2S_B::Tiled::TiledLayout_TV>);
  } else {
    static_assert(std::is_same_v<typename Parts::G2SA, typename P::G2S_A::Tiled> &&
                  std::is_same_v<typename Parts::G2SB, typename P::G2S_B::Tiled>);
  }
  static_assert(Parts::smem_bytes == Stages * (B::BM + B::BN) * B::BK * 2);
  return true;
}
static_assert(collective_parts_match<S80_default, KMajor, KMajor, TensorOpPartition<128, 256, 32, 2, 4, 256, true, true, true>, 4>());
static_assert(collective_parts_match<S80_scalar, MNMajor, KMajor,
                                     TensorOpPartition<128, 256, 32, 2, 4, 256, false, false, true, 1>, 4>());
using S80_nt_unswizzled = Build<arch::Sm80, OpClassTensorOp, half_t, MNMajor, 8, MNMajor, 8, tuple<_128, _128, _64>, _1x1,
                                StageCount<3>, KernelCpAsyncMultistage<2, 16, 256, false>>;
static_assert(std::is_same_v<S80_nt_unswizzled::DispatchPolicy, MainloopSm80CpAsync<3, 2, 16>>);
// The shape names the kernel (the instance TUs' symbols, bench --variants' names): explicit
// stage counts and schedule parameters land in it as given.
static_assert(std::is_same_v<S80_nt_unswizzled::Shape, TensorOpShape<128, 128, 64, 2, 2, 3, 2, 16, 256>>);
static_assert(collective_parts_match<S80_nt_unswizzled, MNMajor, MNMajor,
                                     TensorOpPartition<128, 128, 64, 2, 2, 128, false, false, false, 8, false>, 3>());

// A user composing the collective from their own parts, written from the atoms: the builder's
// default bf16 TN collective, type for type.
namespace user {
using Mma = decltype(make_tiled_mma(SM80_16x8x16_F32BF16BF16F32_TN{}, Layout<tuple<_2, _4, _1>, tuple<_1, _2, _0>>{},
                                    make_tuple(Layout<tuple<_16, _2, _4>, tuple<_1, _64, _16>>{},
                                               Layout<tuple<_8, _4, _8>, tuple<_1, _64, _8>>{}, Underscore{})));
// 16-byte zero-filling cp.async, 4 threads along a 32-element K row, 64 rows per pass.
using G2S = decltype(make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<16, 128>, bfloat16_t>{},
                                     Layout<tuple<_64, _4>, tuple<_4, _1>>{}, Layout<tuple<_1, _8>, tuple<_0, _1>>{}));
// (MN, 32) K-major rows of 64 bytes, the 16-byte chunks XORed with (row >> 1) & 3.
template <int MN>
using SmemAtom = decltype(composition(Swizzle<2, 3, 3>{}, Layout<tuple<C<MN>, _32>, tuple<_32, _1>>{}));
using Ldsm = Copy_Atom<SM75_U32x4_LDSM_N, bfloat16_t>;
using Collective = CollectiveMma<MainloopSm80CpAsync<4>, tuple<_128, _256, _32>, bfloat16_t, KMajor, bfloat16_t, KMajor, Mma, G2S,
                                 SmemAtom<128>, Ldsm, G2S, SmemAtom<256>, Ldsm, trace::NoTrace>;
}  // namespace user
static_assert(std::is_same_v<user::Collective, S80_default::CollectiveOp>);
using S80_256x128 = Build<arch::Sm80, OpClassTensorOp, half_t, KMajor, 8, MNMajor, 8, tuple<_256, _128, _64>>;
static_assert(S80_256x128::WM == 4 && S80_256x128::WN == 2 && S80_256x128::Stages == 3);  // 49152-byte stages: 163 KiB / 48 KiB
static_assert(std::is_same_v<CollectiveEpilogueBuilder<S80_default, bfloat16_t, 8>::CollectiveOp,
                             EpilogueSmem16<128, 256, 256, bf16_tag>>);

// ---- SIMT: 128x128xBK, stages auto = min(half the smem / stage bytes, 4).
// The SIMT collective's parts, as the builder picks them: the partition's tiled MMA, gmem ->
// smem tiled copies (their zero-filling variants derived are the partition's), smem layouts
// (a stage's A rows then its B rows, 132-float pitch) and smem -> register copies (LDS.128).
template <class B, class MA, class MB, class P, int Stages>
constexpr bool simt_parts_match() {
  using Op = typename B::CollectiveOp;
  static_assert(std::is_same_v<Op, CollectiveMma<MainloopSm80CpAsyncSimt<Stages>, tuple<C<B::BM>, C<B::BN>, C<B::BK>>, float, MA,
                                                 float, MB, typename P::TiledMma,
                                                 typename P::template G2S<B::BM, std::is_same_v<MA, KMajor>>::Tiled,
                                                 typename P::template SmemLayoutA<Stages>, typename P::SmemCopyAtom,
                                                 typename P::template G2S<B::BN, std::is_same_v<MB, KMajor>>::Tiled,
                                                 typename P::template SmemLayoutB<Stages>, typename P::SmemCopyAtom,
                                                 trace::NoTrace>>);
  static_assert(std::is_same_v<typename B::Partition, P> && std::is_same_v<typename B::DispatchPolicy, MainloopSm80CpAsyncSimt<Stages>>);
  using Parts = CollectiveMmaSimtParts<typename B::DispatchPolicy, tuple<C<B::BM>, C<B::BN>, C<B::BK>>, float, MA, float, MB,
                                       typename B::TiledMma, typename B::GmemTiledCopyA, typename B::SmemLayoutA,
                                       typename B::SmemCopyAtomA, typename B::GmemTiledCopyB, typename B::SmemLayoutB,
                                       typename B::SmemCopyAtomB>;
  static_assert(std::is_same_v<typename Parts::G2SAZfill, typename P::template G2S_Zfill<B::BM, std::is_same_v<MA, KMajor>>> &&
                std::is_same_v<typename Parts::G2SBZfill, typename P::template G2S_Zfill<B::BN, std::is_same_v<MB, KMajor>>>);
  static_assert(std::is_same_v<typename Parts::S2RA, typename P::S2R_A> && std::is_same_v<typename Parts::S2RB, typename P::S2R_B>);
  static_assert(Parts::Threads == P::Threads && Parts::MmaM == 128 && Parts::MmaN == 128 && Parts::MmaK == 1);
  // A stage: both operands' BK rows of 132 floats; the last stage's B ends at its last row's 128th float.
  static_assert(Parts::smem_offset_b == B::BK * P::Pitch &&
                Parts::smem_bytes == ((2 * Stages - 1) * B::BK * P::Pitch + (B::BK - 1) * P::Pitch + B::BN) * 4);
  return true;
}
using Simt8 = Build<arch::Sm80, OpClassSimt, float, KMajor, 1, MNMajor, 1, tuple<_128, _128, _8>>;
static_assert(Simt8::Stages == 4 && std::is_same_v<Simt8::Shape, SimtShape<8, 4, false>> &&
              simt_parts_match<Simt8, KMajor, MNMajor, SimtPartition<false, 8>, 4>());
using Simt16 = Build<arch::Sm80, OpClassSimt, float, MNMajor, 1, KMajor, 1, tuple<_128, _128, _16>, _1x1, StageCount<3>,
                     KernelSimtWarpGrid8x4>;
static_assert(std::is_same_v<Simt16::Shape, SimtShape<16, 3, true>> && simt_parts_match<Simt16, MNMajor, KMajor, SimtPartition<true, 16>, 3>());

// A user composing the SIMT collective from their own parts, written from the atoms: the
// builder's 128x128x16 NT collective with 8x4-lane warps, type for type.
namespace user_simt {
// 16 x 16 threads as 8 (m) x 4 (n) lanes per warp, warps 2 x 4; each thread's 8 rows (and
// columns) are 4tm..4tm+3 and 64+4tm..64+4tm+3.
using Perm = Layout<tuple<_16, _4, _2>, tuple<_4, _1, _64>>;
using Mma = decltype(make_tiled_mma(UniversalFMA<float>{},
                                    Layout<tuple<tuple<_8, _2>, tuple<_4, _4>, _1>, tuple<tuple<_1, _32>, tuple<_8, _64>, _0>>{},
                                    make_tuple(Perm{}, Perm{}, Underscore{})));
// 4-byte cp.async: A MN-major (128 threads along M, 2 k-rows per pass), B K-major (16 threads
// along a 16-float K row, 16 rows per pass).
using G2SA = decltype(make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<4>, float>{}, Layout<tuple<_128, _2>, tuple<_1, _128>>{},
                                      Layout<tuple<_1, _1>, tuple<_1, _0>>{}));
using G2SB = decltype(make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<4>, float>{}, Layout<tuple<_16, _16>, tuple<_16, _1>>{},
                                      Layout<tuple<_1, _1>, tuple<_0, _1>>{}));
// MN-major rows of 132 floats; stage s at 2 * 16 * 132 s, B's rows after A's.
using Smem = Layout<tuple<_128, _16, _3>, tuple<_1, C<132>, C<2 * 16 * 132>>>;
using Lds128 = Copy_Atom<UniversalCopy<uint128_t>, float>;
using Collective = CollectiveMma<MainloopSm80CpAsyncSimt<3>, tuple<_128, _128, _16>, float, MNMajor, float, KMajor, Mma, G2SA, Smem,
                                 Lds128, G2SB, Smem, Lds128, trace::NoTrace>;
}  // namespace user_simt
static_assert(std::is_same_v<user_simt::Collective, Simt16::CollectiveOp>);
static_assert(SimtCollectiveOf<Simt16::CollectiveOp>::value && !SimtCollectiveOf<S80_default::CollectiveOp>::value &&
              SimtCollectiveOf<Simt16::CollectiveOp>::Parts::BK == 16 && !SimtCollectiveOf<Simt16::CollectiveOp>::Parts::AKMajor);

// ---- SM90: stages auto = the most whose kernel storage (stages, barriers, epilogue staging, paddings) fits 227 KiB.
using S90_bf16 = Build<arch::Sm90, OpClassTensorOp, bfloat16_t, KMajor, 8, KMajor, 8, tuple<_128, _256, _64>, _2x1>;
static_assert(std::is_same_v<S90_bf16::CollectiveOp,
                             kernels::sm90::CollectiveMainloopSm90TmaWgmma<kernels::sm90::MainloopTmaWarpSpecializedCooperative<4, 2, 2>,
                                                                  tuple<_128, _256, _64>, bfloat16_t, GMMA::Major::K, GMMA::Major::K, 128, bfloat16_t>>);
using S90_small = Build<arch::Sm90, OpClassTensorOp, half_t, MNMajor, 8, MNMajor, 8, tuple<_128, _128, _64>, _2x1>;
static_assert(S90_small::Stages == 6 && S90_small::SwizzleBytes == 128);
using S90_tf32 = Build<arch::Sm90, OpClassTensorOp, float, KMajor, 4, KMajor, 4, tuple<_128, _256, _32>, _2x1>;
static_assert(S90_tf32::Stages == 4 &&
              std::is_same_v<CollectiveEpilogueBuilder<S90_tf32, float, 4>::CollectiveOp, kernels::sm90::CollectiveEpilogueSm90Direct<float>>);
// An epilogue tree (EpilogueTree<Tree>): the tree epilogue of that tree, for any D type the SM90
// builder takes (the tree is only named here: its nodes are defined where the kernel is compiled).
struct SomeTree;
static_assert(std::is_same_v<CollectiveEpilogueBuilder<S90_bf16, bfloat16_t, 8, EpilogueTree<SomeTree>>::CollectiveOp,
                             kernels::sm90::CollectiveEpilogueSm90Tree<bfloat16_t, SomeTree>> &&
              std::is_same_v<CollectiveEpilogueBuilder<S90_small, float, 4, EpilogueTree<SomeTree>>::CollectiveOp,
                             kernels::sm90::CollectiveEpilogueSm90Tree<float, SomeTree>> &&
              CollectiveEpilogueBuilder<S90_bf16, bfloat16_t, 8, EpilogueTree<SomeTree>>::smem_bytes == 0);
// ... through TMA stores: the staging of the TMA-store epilogue (16 KiB per consumer warpgroup).
static_assert(std::is_same_v<CollectiveEpilogueBuilder<S90_bf16, bfloat16_t, 8, EpilogueTree<SomeTree, EpilogueTmaStore>>::CollectiveOp,
                             kernels::sm90::CollectiveEpilogueSm90TreeTmaStore<bfloat16_t, 128, 256, 2, SomeTree>> &&
              CollectiveEpilogueBuilder<S90_bf16, bfloat16_t, 8, EpilogueTree<SomeTree, EpilogueTmaStore>>::smem_bytes ==
                  2 * kernels::sm90::epilogue_staging_bytes);
// The decode tile (sm90::DecodeGemm): 128x64x64 without a cluster, two consumer warpgroups of
// 64x64 (m64n64k16); a stage is 16 KiB of A (weight) and 8 KiB of B (tokens), so 8 stages of
// 24 KiB fit beside the cooperative kernel's 2 x 16 KiB staging (192 + 32 KiB + barriers <= 227 KiB;
// a 9th would need 248 KiB), against 6 stages of 32 KiB at 128x128. Its TMA-store epilogue
// stages each warpgroup's 64 x 64 in half of its buffer, one part per tile.
using S90_decode = Build<arch::Sm90, OpClassTensorOp, bfloat16_t, KMajor, 8, KMajor, 8, tuple<_128, _64, _64>, _1x1>;
static_assert(S90_decode::StageBytesA == 16 * 1024 && S90_decode::StageBytesB == 8 * 1024 && S90_decode::Stages == 8 &&
              S90_decode::ConsumerWarpgroups == 2 && S90_decode::SwizzleBytes == 128 &&
              std::is_same_v<S90_decode::CollectiveOp,
                             kernels::sm90::CollectiveMainloopSm90TmaWgmma<kernels::sm90::MainloopTmaWarpSpecializedCooperative<8, 2, 1>,
                                                                           tuple<_128, _64, _64>, bfloat16_t, GMMA::Major::K,
                                                                           GMMA::Major::K, 128, bfloat16_t>>);
// A row-major kernel D (EpilogueTmaStoreRowMajor): the TMA-store epilogue with D's major Row,
// the staging's shared memory of the column-major one (sm90::MidTileGemm<..., Major::Row>).
using S90_mid = Build<arch::Sm90, OpClassTensorOp, bfloat16_t, KMajor, 8, KMajor, 8, tuple<_128, C<192>, _64>, _2x1>;
static_assert(std::is_same_v<CollectiveEpilogueBuilder<S90_mid, bfloat16_t, 8, EpilogueTmaStoreRowMajor>::CollectiveOp,
                             kernels::sm90::CollectiveEpilogueSm90TmaStore<bfloat16_t, 128, 192, 2, Activation::Identity, 1, Major::Row>> &&
              CollectiveEpilogueBuilder<S90_mid, bfloat16_t, 8, EpilogueTmaStoreRowMajor>::smem_bytes ==
                  CollectiveEpilogueBuilder<S90_mid, bfloat16_t, 8>::smem_bytes);
using S90_decode_epilogue = CollectiveEpilogueBuilder<S90_decode, bfloat16_t, 8>;
static_assert(std::is_same_v<S90_decode_epilogue::CollectiveOp,
                             kernels::sm90::CollectiveEpilogueSm90TmaStore<bfloat16_t, 128, 64, 2, Activation::Identity, 1, Major::Col>> &&
              S90_decode_epilogue::smem_bytes == 2 * kernels::sm90::epilogue_staging_bytes &&
              kernels::sm90::EpilogueStaging<16, 64, 2, 1>::Cols == 64 && kernels::sm90::EpilogueStaging<16, 64, 2, 1>::Parts == 1 &&
              kernels::sm90::EpilogueStaging<16, 64, 2, 1>::bytes == 8 * 1024);
static_assert(sizeof(S90_decode::StorageBesideDefaultEpilogue<8>) <= std::size_t(arch::Sm90::smem_capacity) &&
              sizeof(S90_decode::StorageBesideDefaultEpilogue<8>) >= 8 * 24 * 1024 + 2 * kernels::sm90::epilogue_staging_bytes);
// Narrow tiles get narrower swizzles: K-major BK = 16 bf16 is 32 bytes; MN-major BN = 32 is 64.
using S90_sw32 = Build<arch::Sm90, OpClassTensorOp, bfloat16_t, KMajor, 8, KMajor, 8, tuple<_64, _64, _16>>;
using S90_sw64 = Build<arch::Sm90, OpClassTensorOp, bfloat16_t, KMajor, 8, MNMajor, 8, tuple<_64, _32, _64>>;
static_assert(S90_sw32::SwizzleBytes == 32 && S90_sw64::SwizzleBytes == 64 && S90_sw32::ConsumerWarpgroups == 1);
// Ping-pong: 64-row tiles, one consumer warpgroup per tile and two staging slots (one per
// consumer): 8 stages of 24 KiB at 64x128x64, 4 of 40 KiB at 64x256x64 beside 2 x 16 KiB.
using S90_pp = Build<arch::Sm90, OpClassTensorOp, bfloat16_t, KMajor, 8, KMajor, 8, tuple<_64, _128, _64>, _1x1, StageCountAuto,
                     KernelTmaWarpSpecializedPingpong>;
using S90_pp256 = Build<arch::Sm90, OpClassTensorOp, half_t, KMajor, 8, KMajor, 8, tuple<_64, _256, _64>, _1x1, StageCountAuto,
                        KernelTmaWarpSpecializedPingpong>;
static_assert(std::is_same_v<S90_pp::CollectiveOp,
                             kernels::sm90::CollectiveMainloopSm90TmaWgmma<kernels::sm90::MainloopTmaWarpSpecializedPingpong<8, 1>,
                                                                           tuple<_64, _128, _64>, bfloat16_t, GMMA::Major::K,
                                                                           GMMA::Major::K, 128, bfloat16_t>> &&
              S90_pp::ConsumerWarpgroups == 1 && S90_pp::EpilogueSlots == 2 && S90_pp256::Stages == 4);
static_assert(std::is_same_v<CollectiveEpilogueBuilder<S90_pp, bfloat16_t, 8>::CollectiveOp,
                             kernels::sm90::CollectiveEpilogueSm90TmaStore<bfloat16_t, 64, 128, 1, Activation::Identity, 2, Major::Col>> &&
              CollectiveEpilogueBuilder<S90_pp, bfloat16_t, 8>::smem_bytes == 2 * kernels::sm90::epilogue_staging_bytes &&
              S90_bf16::EpilogueSlots == 1);
// An epilogue tree on ping-pong: through TMA stores, with the plain epilogue's two staging slots
// (one per consumer, so one stages its tree's values while the other's last stores still read
// its own), the same stages beside them (from the registers: refused, misuse/sm90_pingpong_tree_epilogue).
static_assert(std::is_same_v<CollectiveEpilogueBuilder<S90_pp, bfloat16_t, 8, EpilogueTree<SomeTree, EpilogueTmaStore>>::CollectiveOp,
                             kernels::sm90::CollectiveEpilogueSm90TreeTmaStore<bfloat16_t, 64, 128, 1, SomeTree, kernels::sm90::TreeFromCaller, 2>> &&
              CollectiveEpilogueBuilder<S90_pp, bfloat16_t, 8, EpilogueTree<SomeTree, EpilogueTmaStore>>::smem_bytes ==
                  2 * kernels::sm90::epilogue_staging_bytes &&
              std::is_same_v<CollectiveEpilogueBuilder<S90_pp256, half_t, 8, EpilogueTree<SomeTree, EpilogueTmaStore>>::CollectiveOp,
                             kernels::sm90::CollectiveEpilogueSm90TreeTmaStore<half_t, 64, 256, 1, SomeTree, kernels::sm90::TreeFromCaller, 2>>);
// The rest of what the shipped SM90 kernels are built with (device/sm90_gemm.cuh): an f32 D
// keeps the TMA-store epilogue (f32 staging) and the 4 stages; a fused activation is a
// parameter of the same epilogue; 128 x 128 tiles per ping-pong consumer in clusters of 2 fit
// 6 stages of 32 KiB beside two staging slots.
using S90_mn_f32d = Build<arch::Sm90, OpClassTensorOp, bfloat16_t, MNMajor, 8, KMajor, 8, tuple<_128, _256, _64>, _2x1>;
static_assert(std::is_same_v<S90_mn_f32d::CollectiveOp,
                             kernels::sm90::CollectiveMainloopSm90TmaWgmma<kernels::sm90::MainloopTmaWarpSpecializedCooperative<4, 2, 2>,
                                                                           tuple<_128, _256, _64>, bfloat16_t, GMMA::Major::MN,
                                                                           GMMA::Major::K, 128, bfloat16_t>> &&
              std::is_same_v<CollectiveEpilogueBuilder<S90_mn_f32d, float, 4>::CollectiveOp,
                             kernels::sm90::CollectiveEpilogueSm90TmaStore<float, 128, 256, 2, Activation::Identity, 1, Major::Col>>);
static_assert(std::is_same_v<CollectiveEpilogueBuilder<S90_bf16, bfloat16_t, 8, EpilogueTmaStoreFused<Activation::GELUTanh>>::CollectiveOp,
                             kernels::sm90::CollectiveEpilogueSm90TmaStore<bfloat16_t, 128, 256, 2, Activation::GELUTanh, 1, Major::Col>>);
// FP8: A and B may be two 8-bit types, K-major; BK = 128 one-byte elements is one 128-byte
// swizzle row, so 128x256x128 stages are 48 KiB as 16-bit 128x256x64 ones (4 stages), and D
// is bf16, f16 or f32 (sm90::Fp8Gemm).
using S90_fp8 = CollectiveBuilder<arch::Sm90, OpClassTensorOp, float_e4m3_t, KMajor, 16, float_e5m2_t, KMajor, 16, float,
                                  tuple<_128, _256, _128>, _2x1, StageCountAuto, ScheduleAuto>;
static_assert(std::is_same_v<S90_fp8::CollectiveOp,
                             kernels::sm90::CollectiveMainloopSm90TmaWgmma<kernels::sm90::MainloopTmaWarpSpecializedCooperative<4, 2, 2>,
                                                                           tuple<_128, _256, _128>, float_e4m3_t, GMMA::Major::K,
                                                                           GMMA::Major::K, 128, float_e5m2_t>> &&
              S90_fp8::Stages == 4 && S90_fp8::SwizzleBytes == 128 && S90_fp8::StageBytesA == 128 * 128 &&
              std::is_same_v<CollectiveEpilogueBuilder<S90_fp8, bfloat16_t, 8>::CollectiveOp,
                             kernels::sm90::CollectiveEpilogueSm90TmaStore<bfloat16_t, 128, 256, 2, Activation::Identity, 1, Major::Col>> &&
              std::is_same_v<CollectiveEpilogueBuilder<S90_fp8, half_t, 8>::CollectiveOp,
                             kernels::sm90::CollectiveEpilogueSm90TmaStore<half_t, 128, 256, 2, Activation::Identity, 1, Major::Col>>);
// FP8 on ping-pong (sm90::Fp8PingpongGemm): a consumer's whole 64 x 256 tile, 8 KiB of A and
// 32 KiB of B per stage (4 stages, as 16-bit 64x256x64), or 128 x 128 (two atoms along M, 6
// stages of 32 KiB); the TMA-store epilogue with a slot per consumer, D bf16; the ping-pong kernel.
using S90_fp8_pp = CollectiveBuilder<arch::Sm90, OpClassTensorOp, float_e4m3_t, KMajor, 16, float_e4m3_t, KMajor, 16, float,
                                     tuple<_64, _256, _128>, _2x1, StageCountAuto, KernelTmaWarpSpecializedPingpong>;
using S90_fp8_pp128 = CollectiveBuilder<arch::Sm90, OpClassTensorOp, float_e5m2_t, KMajor, 16, float_e4m3_t, KMajor, 16, float,
                                        tuple<_128, _128, _128>, _2x1, StageCountAuto, KernelTmaWarpSpecializedPingpong>;
static_assert(std::is_same_v<S90_fp8_pp::CollectiveOp,
                             kernels::sm90::CollectiveMainloopSm90TmaWgmma<kernels::sm90::MainloopTmaWarpSpecializedPingpong<4, 2>,
                                                                           tuple<_64, _256, _128>, float_e4m3_t, GMMA::Major::K,
                                                                           GMMA::Major::K, 128, float_e4m3_t>> &&
              S90_fp8_pp::Stages == 4 && S90_fp8_pp::StageBytesA == 8 * 1024 && S90_fp8_pp::StageBytesB == 32 * 1024 &&
              S90_fp8_pp::ConsumerWarpgroups == 1 && S90_fp8_pp::EpilogueSlots == 2 && S90_fp8_pp128::Stages == 6 &&
              S90_fp8_pp128::ConsumerWarpgroups == 1 &&
              std::is_same_v<CollectiveEpilogueBuilder<S90_fp8_pp, bfloat16_t, 8>::CollectiveOp,
                             kernels::sm90::CollectiveEpilogueSm90TmaStore<bfloat16_t, 64, 256, 1, Activation::Identity, 2, Major::Col>>);
static_assert(std::is_same_v<gemm_kernel_t<GemmProblemShape, S90_fp8_pp::CollectiveOp,
                                           CollectiveEpilogueBuilder<S90_fp8_pp, bfloat16_t, 8>::CollectiveOp,
                                           kernels::sm90::WholeTileScheduler>,
                             kernels::sm90::GemmTmaWarpSpecializedPingpong<
                                 S90_fp8_pp::CollectiveOp, CollectiveEpilogueBuilder<S90_fp8_pp, bfloat16_t, 8>::CollectiveOp,
                                 kernels::sm90::WholeTileScheduler>>);
// The cooperative 256-row tile (cuBLASLt's 256x128 for FP8): two consumer warpgroups of
// 128 x 128, each the TiledMma's M repeat of 2 (rows 64 w and 128 + 64 w), 128 accumulators
// per consumer thread as 64 x 256's. FP8 256x128x128 and 16-bit 256x128x64 stages are both
// 32 + 16 KiB: 4 stages (192 KiB) beside the two 16 KiB staging buffers; a 5th would need
// 272 KiB. Each warpgroup stages its two 64 x 128 repeats in turn through its own buffer.
using S90_fp8_c256 = CollectiveBuilder<arch::Sm90, OpClassTensorOp, float_e4m3_t, KMajor, 16, float_e4m3_t, KMajor, 16, float,
                                       tuple<_256, _128, _128>, _2x1, StageCountAuto, KernelTmaWarpSpecializedCooperative>;
using S90_bf16_c256 = Build<arch::Sm90, OpClassTensorOp, bfloat16_t, KMajor, 8, KMajor, 8, tuple<_256, _128, _64>, _2x1>;
static_assert(std::is_same_v<S90_fp8_c256::CollectiveOp,
                             kernels::sm90::CollectiveMainloopSm90TmaWgmma<kernels::sm90::MainloopTmaWarpSpecializedCooperative<4, 2, 2>,
                                                                           tuple<_256, _128, _128>, float_e4m3_t, GMMA::Major::K,
                                                                           GMMA::Major::K, 128, float_e4m3_t>> &&
              S90_fp8_c256::ConsumerWarpgroups == 2 && S90_fp8_c256::EpilogueSlots == 1 && S90_fp8_c256::Stages == 4 &&
              S90_fp8_c256::StageBytesA == 32 * 1024 && S90_fp8_c256::StageBytesB == 16 * 1024 && S90_fp8_c256::SwizzleBytes == 128 &&
              sizeof(S90_fp8_c256::StorageBesideDefaultEpilogue<4>) <= std::size_t(arch::Sm90::smem_capacity) &&
              sizeof(S90_fp8_c256::StorageBesideDefaultEpilogue<5>) > std::size_t(arch::Sm90::smem_capacity));
static_assert(std::is_same_v<CollectiveEpilogueBuilder<S90_fp8_c256, bfloat16_t, 8>::CollectiveOp,
                             kernels::sm90::CollectiveEpilogueSm90TmaStore<bfloat16_t, 256, 128, 2, Activation::Identity, 1, Major::Col>> &&
              CollectiveEpilogueBuilder<S90_fp8_c256, bfloat16_t, 8>::smem_bytes == 2 * kernels::sm90::epilogue_staging_bytes);
static_assert(std::is_same_v<S90_bf16_c256::CollectiveOp,
                             kernels::sm90::CollectiveMainloopSm90TmaWgmma<kernels::sm90::MainloopTmaWarpSpecializedCooperative<4, 2, 2>,
                                                                           tuple<_256, _128, _64>, bfloat16_t, GMMA::Major::K,
                                                                           GMMA::Major::K, 128, bfloat16_t>> &&
              S90_bf16_c256::ConsumerWarpgroups == 2 && S90_bf16_c256::Stages == 4 &&
              std::is_same_v<CollectiveEpilogueBuilder<S90_bf16_c256, bfloat16_t, 8>::CollectiveOp,
                             kernels::sm90::CollectiveEpilogueSm90TmaStore<bfloat16_t, 256, 128, 2, Activation::Identity, 1, Major::Col>>);
static_assert(std::is_same_v<gemm_kernel_t<GemmProblemShape, S90_fp8_c256::CollectiveOp,
                                           CollectiveEpilogueBuilder<S90_fp8_c256, bfloat16_t, 8>::CollectiveOp,
                                           kernels::sm90::WholeTileScheduler>,
                             kernels::sm90::GemmTmaWarpSpecialized<
                                 S90_fp8_c256::CollectiveOp, CollectiveEpilogueBuilder<S90_fp8_c256, bfloat16_t, 8>::CollectiveOp,
                                 kernels::sm90::WholeTileScheduler>>);
// An e4m3 D of FP8 inputs: through a tree epilogue with direct stores only (the builder's
// static_assert refuses the TMA-store schedules for it), here the prebuilt quantized-output tree
// with the GEMM's fields (sm90::Fp8QuantizedGemm).
using QuantizedTree = kernels::tree::QuantizedOutputAmax<float_e4m3_t>;
static_assert(std::is_same_v<CollectiveEpilogueBuilder<S90_fp8, float_e4m3_t, 16,
                                                       EpilogueTree<QuantizedTree, EpilogueDirect,
                                                                    kernels::sm90::QuantizedOutputFields<float_e4m3_t>>>::CollectiveOp,
                             kernels::sm90::CollectiveEpilogueSm90Tree<float_e4m3_t, QuantizedTree,
                                                                       kernels::sm90::QuantizedOutputFields<float_e4m3_t>>>);
using S90_pp128 = Build<arch::Sm90, OpClassTensorOp, bfloat16_t, KMajor, 8, KMajor, 8, tuple<_128, _128, _64>, _2x1, StageCountAuto,
                        KernelTmaWarpSpecializedPingpong>;
static_assert(std::is_same_v<S90_pp128::CollectiveOp,
                             kernels::sm90::CollectiveMainloopSm90TmaWgmma<kernels::sm90::MainloopTmaWarpSpecializedPingpong<6, 2>,
                                                                           tuple<_128, _128, _64>, bfloat16_t, GMMA::Major::K,
                                                                           GMMA::Major::K, 128, bfloat16_t>> &&
              std::is_same_v<CollectiveEpilogueBuilder<S90_pp128, bfloat16_t, 8>::CollectiveOp,
                             kernels::sm90::CollectiveEpilogueSm90TmaStore<bfloat16_t, 128, 128, 1, Activation::Identity, 2, Major::Col>>);

// ---- the kernel type of (problem shape, mainloop, epilogue, scheduler)
// The SM80 kernel is the kernel of exactly the four types it is given.
static_assert(std::is_same_v<gemm_kernel_t<GemmProblemShape, S80_default::CollectiveOp,
                                           CollectiveEpilogueBuilder<S80_default, bfloat16_t, 8>::CollectiveOp,
                                           SplitKRasterization<8>>,
                             GemmTensorOpKernel<GemmProblemShape, S80_default::CollectiveOp,
                                                EpilogueSmem16<128, 256, 256, bf16_tag>, SplitKRasterization<8>>>);
static_assert(std::is_same_v<gemm_kernel_t<GemmProblemShape, user::Collective,
                                           CollectiveEpilogueBuilder<S80_default, bfloat16_t, 8>::CollectiveOp,
                                           SplitKRasterization<8>>,
                             GemmTensorOpKernel<GemmProblemShape, user::Collective, EpilogueSmem16<128, 256, 256, bf16_tag>,
                                                SplitKRasterization<8>>>);
// The contracts the collectives keep (collective/sm80_contract.hpp), read off their types:
// the element, the majors and the copies' vector width of the mainloop, D's type and vector
// stores of the epilogue; the kernel's composes them (kernel/sm80_kernel_contract.hpp).
static_assert([] {
  using M = contract_of_t<S80_default::CollectiveOp>;
  using E = contract_of_t<CollectiveEpilogueBuilder<S80_default, bfloat16_t, 8>::CollectiveOp>;
  using K = gemm_kernel_contract_t<GemmProblemShape, S80_default::CollectiveOp, CollectiveEpilogueBuilder<S80_default, bfloat16_t, 8>::CollectiveOp,
                                   SplitKRasterization<8>>;
  return std::is_same_v<M::Elem, bfloat16_t> && M::AKMajor && M::BKMajor && M::Vector == 8 && M::BM == 128 && M::BN == 256 &&
         M::BK == 32 && std::is_same_v<E, EpilogueSm80Contract<bfloat16_t, 8>> &&
         std::is_same_v<K, GemmKernelSm80Contract<M, E, SplitKRasterization<8>>> && K::Splits;
}());
static_assert([] {
  using M = contract_of_t<Simt16::CollectiveOp>;
  using K = gemm_kernel_contract_t<GemmProblemShape, Simt16::CollectiveOp, CollectiveEpilogueBuilder<Simt16, float, 1>::CollectiveOp,
                                   GroupedRasterization<8>>;
  return std::is_same_v<M::Elem, float> && !M::AKMajor && M::BKMajor && M::BM == 128 && M::BN == 128 && M::BK == 16 &&
         std::is_same_v<contract_of_t<CollectiveEpilogueBuilder<Simt16, float, 1>::CollectiveOp>, EpilogueSm80Contract<float, 4>> &&
         !K::Splits;
}());
static_assert(std::is_same_v<gemm_kernel_t<GemmProblemShape, Simt16::CollectiveOp, CollectiveEpilogueBuilder<Simt16, float, 1>::CollectiveOp,
                                           GroupedRasterization<8>>,
                             GemmSimtKernel<GemmProblemShape, Simt16::CollectiveOp, EpilogueSimt<Simt16::CollectiveOp>,
                                            GroupedRasterization<8>>>);
// The user's SIMT collective composes the same kernel; the scheduler is the one given.
static_assert(std::is_same_v<gemm_kernel_t<GemmProblemShape, user_simt::Collective, EpilogueSimt<user_simt::Collective>,
                                           GroupedRasterization<4>>,
                             GemmSimtKernel<GemmProblemShape, Simt16::CollectiveOp, EpilogueSimt<Simt16::CollectiveOp>,
                                            GroupedRasterization<4>>>);
// The split-K scheduler composes the cooperative kernel over it (a kernel of its own).
static_assert(std::is_same_v<gemm_kernel_t<GemmProblemShape, S90_small::CollectiveOp,
                                           CollectiveEpilogueBuilder<S90_small, half_t, 8>::CollectiveOp,
                                           kernels::sm90::SplitKTileScheduler>,
                             kernels::sm90::GemmTmaWarpSpecialized<
                                 S90_small::CollectiveOp, CollectiveEpilogueBuilder<S90_small, half_t, 8>::CollectiveOp,
                                 kernels::sm90::SplitKTileScheduler>>);
// The ping-pong policy composes the ping-pong kernel; the cooperative one the cooperative.
static_assert(std::is_same_v<gemm_kernel_t<GemmProblemShape, S90_pp::CollectiveOp,
                                           CollectiveEpilogueBuilder<S90_pp, bfloat16_t, 8>::CollectiveOp,
                                           kernels::sm90::WholeTileScheduler>,
                             kernels::sm90::GemmTmaWarpSpecializedPingpong<
                                 S90_pp::CollectiveOp, CollectiveEpilogueBuilder<S90_pp, bfloat16_t, 8>::CollectiveOp,
                                 kernels::sm90::WholeTileScheduler>>);
static_assert(std::is_same_v<gemm_kernel_t<GemmProblemShape, S90_bf16::CollectiveOp,
                                           CollectiveEpilogueBuilder<S90_bf16, bfloat16_t, 8>::CollectiveOp,
                                           kernels::sm90::WholeTileScheduler>,
                             kernels::sm90::GemmTmaWarpSpecialized<
                                 S90_bf16::CollectiveOp, CollectiveEpilogueBuilder<S90_bf16, bfloat16_t, 8>::CollectiveOp,
                                 kernels::sm90::WholeTileScheduler>>);

// The same collectives under another trace policy (gemm_trace builds them with trace::Recorder).
struct SomeTrace;
static_assert(std::is_same_v<traced_t<S80_default::CollectiveOp, SomeTrace>,
                             CollectiveMma<MainloopSm80CpAsync<4>, tuple<_128, _256, _32>, bfloat16_t, KMajor, bfloat16_t, KMajor,
                                           user::Mma, user::G2S, user::SmemAtom<128>, user::Ldsm, user::G2S,
                                           user::SmemAtom<256>, user::Ldsm, SomeTrace>>);
using user_simt_traced = CollectiveMma<MainloopSm80CpAsyncSimt<3>, tuple<_128, _128, _16>, float, MNMajor, float, KMajor,
                                       user_simt::Mma, user_simt::G2SA, user_simt::Smem, user_simt::Lds128, user_simt::G2SB,
                                       user_simt::Smem, user_simt::Lds128, SomeTrace>;
static_assert(std::is_same_v<traced_t<Simt16::CollectiveOp, SomeTrace>, user_simt_traced> &&
              std::is_same_v<traced_t<CollectiveEpilogueBuilder<Simt16, float, 1>::CollectiveOp, SomeTrace>,
                             EpilogueSimt<user_simt_traced>>);
static_assert(std::is_same_v<gemm_kernel_t<GemmProblemShape, traced_t<Simt16::CollectiveOp, SomeTrace>,
                                           traced_t<CollectiveEpilogueBuilder<Simt16, float, 1>::CollectiveOp, SomeTrace>,
                                           GroupedRasterization<8>>,
                             GemmSimtKernel<GemmProblemShape, user_simt_traced, EpilogueSimt<user_simt_traced>,
                                            GroupedRasterization<8>>>);

// One row of the table as run-time values.
struct Row {
  const char* name;
  int stages, bm, bn, bk, swizzle;
  bool vectorized;
};
template <class B>
Row row(const char* name) {
  return {name, B::Stages, B::BM, B::BN, B::BK, B::SwizzleBytes, B::Vectorized};
}

alignas(16) unsigned char storage[1 << 16];

GemmArguments args(std::int64_t m, std::int64_t n, std::int64_t k, Element e, Major a = Major::Row, Major b = Major::Col,
                   Major d = Major::Col) {
  GemmArguments g;
  g.m = m; g.n = n; g.k = k;
  g.element = e;
  g.a = {storage, a, a == Major::Row ? k : m, 0};
  g.b = {storage + 1024, b, b == Major::Col ? k : n, 0};
  g.c = {nullptr, d, d == Major::Col ? m : n, 0};
  g.d = storage + 2048;
  g.ldd = d == Major::Col ? m : n;
  return g;
}

}  // namespace

TEST_CASE("the builders' choices, row by row") {
  struct Expect {
    Row got;
    int stages, bm, bn, bk, swizzle;
    bool vectorized;
  };
  const Expect table[] = {
      {row<S80_default>("sm80 bf16 TN align 8 128x256x32"), 4, 128, 256, 32, 128, true},
      {row<S80_scalar>("sm80 f16 NT align 8/2 128x256x32"), 4, 128, 256, 32, 128, false},
      {row<S80_256x128>("sm80 f16 TT 256x128x64"), 3, 256, 128, 64, 128, true},
      {row<Simt8>("simt f32 128x128x8 auto"), 4, 128, 128, 8, 0, false},
      {row<Simt16>("simt f32 128x128x16 3 stages"), 3, 128, 128, 16, 0, false},
      {row<S90_bf16>("sm90 bf16 TN 128x256x64 cluster 2"), 4, 128, 256, 64, 128, true},
      {row<S90_small>("sm90 f16 MN/MN 128x128x64"), 6, 128, 128, 64, 128, true},
      {row<S90_tf32>("sm90 tf32 TN 128x256x32"), 4, 128, 256, 32, 128, true},
      {row<S90_sw32>("sm90 bf16 64x64x16"), 52, 64, 64, 16, 32, true},
      {row<S90_sw64>("sm90 bf16 K/MN 64x32x64"), 17, 64, 32, 64, 64, true},
      {row<S90_pp>("sm90 bf16 TN 64x128x64 ping-pong"), 8, 64, 128, 64, 128, true},
      {row<S90_pp256>("sm90 f16 TN 64x256x64 ping-pong"), 4, 64, 256, 64, 128, true},
  };
  for (const auto& e : table) {
    INFO(e.got.name);
    CHECK(e.got.stages == e.stages);
    CHECK(e.got.bm == e.bm);
    CHECK(e.got.bn == e.bn);
    CHECK(e.got.bk == e.bk);
    CHECK(e.got.swizzle == e.swizzle);
    CHECK(e.got.vectorized == e.vectorized);
  }
}

TEST_CASE("the SM90 automatic stage count fills shared memory beside the epilogue") {
  // The kernel's whole storage (stages, barriers, staging, its own fields, paddings) fits with
  // the chosen stages; with one more it would not.
  auto check = [](auto b) {
    using B = decltype(b);
    CHECK(sizeof(typename B::template StorageBesideDefaultEpilogue<B::Stages>) <= std::size_t(arch::Sm90::smem_capacity));
    CHECK(sizeof(typename B::template StorageBesideDefaultEpilogue<B::Stages + 1>) > std::size_t(arch::Sm90::smem_capacity));
  };
  check(S90_bf16{});
  check(S90_fp8_pp{});
  check(S90_fp8_pp128{});
  check(S90_small{});
  check(S90_tf32{});
  check(S90_sw64{});
  check(S90_pp{});
  check(S90_pp256{});
  check(S90_decode{});
  // What a stage costs beside its tiles: the pipeline's two barriers, inside the padding of the
  // ring to the staging's 1 KiB alignment while they fit there.
  static_assert(sizeof(S90_bf16::StorageBesideDefaultEpilogue<4>) == 4 * 48 * 1024 + 1024 + 2 * kernels::sm90::epilogue_staging_bytes + 1024 + 1024);
}

TEST_CASE("select_configuration: what tessera::gemm runs, by arguments and device") {
  const DeviceInfo h100{9, 132}, a100{8, 108};
  SECTION("bf16 TN 8192^3 on an H100: SM90 128x256x64, 4 stages, clusters of 2") {
    const auto c = select_configuration(args(8192, 8192, 8192, Element::BF16), h100);
    REQUIRE(c.status);
    CHECK(c.kernel == GemmKernel::Sm90TmaWgmma);
    CHECK((c.tile_m == 128 && c.tile_n == 256 && c.tile_k == 64 && c.stages == 4 && c.cluster_m == 2));
    CHECK(!c.swap_ab);
  }
  SECTION("1000^3 on an H100 (32 CTAs of 128x256 on 132 SMs): TN ping-pong 64x128, 8 stages, "
          "no cluster; NT 128x128 cooperative, 6 stages") {
    auto c = select_configuration(args(1000, 1000, 1000, Element::F16), h100);
    CHECK(c.kernel == GemmKernel::Sm90TmaWgmma);
    CHECK(c.schedule == tessera::kernels::sm90::Schedule::Pingpong64x128);
    CHECK((c.tile_m == 64 && c.tile_n == 128 && c.stages == 8 && c.cluster_m == 1));
    c = select_configuration(args(1000, 1000, 1000, Element::F16, Major::Col, Major::Row), h100);
    CHECK(c.schedule == tessera::kernels::sm90::Schedule::Cooperative128x128);
    CHECK((c.tile_m == 128 && c.tile_n == 128 && c.stages == 6 && c.cluster_m == 2));
  }
  SECTION("with a workspace, the Stream-K kernel where the wave model prefers it (its tile may be another)") {
    alignas(16) static unsigned char scratch[16];
    // 256 tokens through a 10240 x 8192 weight, with a bias (the kernels with a row-major D take
    // plain problems only; D^T: 10240 x 256): whole tiles of 128x256 (40 of 66 clusters busy);
    // with a workspace, Stream-K 128x256 (bench/notes/suite.md: 0.82 against 0.70)
    auto g = args(256, 10240, 8192, Element::BF16, Major::Row, Major::Col, Major::Row);
    alignas(16) static unsigned char bias[16];
    g.epilogue.bias = Bias::PerColumn;
    g.epilogue.bias_ptr = bias;
    auto c = select_configuration(g, h100);
    CHECK((c.schedule == tessera::kernels::sm90::Schedule::Cooperative128x256 && c.decomposition == Decomposition::DataParallel));
    CHECK(c.swap_ab);
    g.workspace = scratch;
    g.workspace_bytes = sizeof scratch;
    c = select_configuration(g, h100);
    CHECK((c.schedule == tessera::kernels::sm90::Schedule::Cooperative128x256 && c.decomposition == Decomposition::StreamK));
    CHECK((c.tile_m == 128 && c.tile_n == 256 && c.cluster_m == 2));
    // without the bias the kernel with a row-major D runs it as it is (no swap): 128x192 tiles
    // along the weight's rows (2 x 54 tiles), workspace or not (tools/predict_tiles.cpp: 0.89 of
    // cuBLAS predicted, against 0.78 measured on Stream-K 128x256)
    g.epilogue.bias = Bias::None;
    g.epilogue.bias_ptr = nullptr;
    c = select_configuration(g, h100);
    CHECK((c.schedule == tessera::kernels::sm90::Schedule::Cooperative128x192 && c.decomposition == Decomposition::DataParallel));
    CHECK(!c.swap_ab);
    g.workspace = nullptr;
    c = select_configuration(g, h100);
    CHECK((c.schedule == tessera::kernels::sm90::Schedule::Cooperative128x192 && c.decomposition == Decomposition::DataParallel));
    CHECK(!c.swap_ab);
    g.workspace = scratch;
    // 512 x 4096 x 14336: one wave of 128x128 tiles without a cluster, workspace or not
    g = args(512, 4096, 14336, Element::BF16);
    g.workspace = scratch;
    g.workspace_bytes = sizeof scratch;
    c = select_configuration(g, h100);
    CHECK((c.schedule == tessera::kernels::sm90::Schedule::Cooperative128x128NoCluster && c.decomposition == Decomposition::DataParallel));
    CHECK((c.tile_m == 128 && c.tile_n == 128 && c.stages == 6 && c.cluster_m == 1));
    // 3072^3 TN: whole 128x192 tiles in clusters of 2 (192 cluster tiles, 2.9 waves), 4 stages of
    // 40 KiB beside the two 16 KiB staging buffers
    g = args(3072, 3072, 3072, Element::BF16);
    g.workspace = scratch;
    c = select_configuration(g, h100);
    CHECK((c.schedule == tessera::kernels::sm90::Schedule::Cooperative128x192 && c.decomposition == Decomposition::DataParallel));
    CHECK((c.tile_m == 128 && c.tile_n == 192 && c.tile_k == 64 && c.stages == 4 && c.cluster_m == 2));
    g = args(4096, 4096, 4096, Element::BF16);
    g.workspace = scratch;
    CHECK(select_configuration(g, h100).decomposition == Decomposition::DataParallel);  // 58 of 66 in the last wave
    g = args(3072, 3072, 3072, Element::BF16, Major::Col, Major::Col);                    // NN: no Stream-K kernel
    g.workspace = scratch;
    CHECK(select_configuration(g, h100).decomposition == Decomposition::DataParallel);
  }
  SECTION("D row-major runs as D^T = B^T A^T (column-major D), with the same tile rule") {
    auto g = args(1000, 4096, 1000, Element::BF16, Major::Row, Major::Col, Major::Row);
    auto c = select_configuration(g, h100);
    CHECK(c.swap_ab);
    CHECK(c.tile_n == 256);  // (as run: 4096 x 1000) 32 x 4 tiles of 128x256 in clusters of 2: one wave of 64 clusters
    g = args(1000, 300, 1000, Element::BF16, Major::Row, Major::Col, Major::Row);
    c = select_configuration(g, h100);
    CHECK(c.swap_ab);
    CHECK(c.tile_n == 128);  // (as run: 300 x 1000) 16 CTAs of 128x256 on 132 SMs; 40 ping-pong 64x128 tiles
  }
  SECTION("D in f32 from bf16 keeps 128x256 (the small tiles are built for D in the inputs' type)") {
    auto g = args(1000, 1000, 1000, Element::BF16);
    g.epilogue.output = Element::F32;
    const auto c = select_configuration(g, h100);
    CHECK(c.kernel == GemmKernel::Sm90TmaWgmma);
    CHECK(c.tile_n == 256);
    CHECK(c.element_d == Element::F32);
  }
  SECTION("f32: tf32 on the H100 only when allowed and TN; else SIMT") {
    auto g = args(4096, 4096, 4096, Element::F32);
    CHECK(select_configuration(g, h100).kernel == GemmKernel::SimtF32);
    g.allow_tf32 = true;
    auto c = select_configuration(g, h100);
    CHECK(c.kernel == GemmKernel::Sm90TmaWgmma);
    CHECK((c.tile_k == 32 && c.stages == 4));
    g = args(4096, 4096, 4096, Element::F32, Major::Col, Major::Col);
    g.allow_tf32 = true;
    c = select_configuration(g, h100);
    CHECK(c.kernel == GemmKernel::SimtF32);
    CHECK((c.tile_m == 128 && c.tile_n == 128 && c.tile_k == 8 && c.stages == 3));
  }
  SECTION("the A100 runs the SM80 kernels: vectorized when aligned, element copies when not") {
    auto g = args(4096, 4096, 4096, Element::BF16);
    auto c = select_configuration(g, a100);
    CHECK(c.kernel == GemmKernel::TensorOpVec8);
    CHECK((c.tile_m == 128 && c.tile_n == 256 && c.tile_k == 32 && c.stages == 4 && c.vectorized));
    g.a.ptr = storage + 2;
    c = select_configuration(g, a100);
    CHECK(c.kernel == GemmKernel::TensorOpScalar);
    CHECK(!c.vectorized);
    // ... and so does the H100 where TMA cannot address the operands.
    CHECK(select_configuration(g, h100).kernel == GemmKernel::TensorOpScalar);
  }
  SECTION("FP8 runs on sm_90 only: 128x256x128, 4 stages, clusters of 2, D in bf16 unless said; refused elsewhere") {
    auto g = args(8192, 8192, 8192, Element::E4M3);
    auto c = select_configuration(g, h100);
    REQUIRE(c.status);
    CHECK(c.kernel == GemmKernel::Sm90TmaWgmma);
    CHECK((c.tile_m == 128 && c.tile_n == 256 && c.tile_k == 128 && c.stages == 4 && c.cluster_m == 2));
    CHECK(c.element_d == Element::BF16);
    // small problems: 128x128x128 (6 stages of 32 KiB) for e4m3 x e4m3 to bf16, the one built
    g = args(64, 7168, 512, Element::E4M3);
    c = select_configuration(g, h100);
    CHECK((c.schedule == tessera::kernels::sm90::Schedule::Cooperative128x128 && c.tile_n == 128 && c.tile_k == 128 &&
           c.stages == 6));
    g.epilogue.output = Element::F32;
    CHECK(select_configuration(g, h100).tile_n == 256);
    // mixed types, D row-major (the kernel sees e4m3 x e5m2): no small kernel either
    g = args(64, 7168, 512, Element::E5M2, Major::Row, Major::Col, Major::Row);
    g.element_b = Element::E4M3;
    c = select_configuration(g, h100);
    REQUIRE(c.status);
    CHECK((c.tile_n == 256 && c.tile_k == 128 && c.swap_ab && c.element_d == Element::BF16));
    c = select_configuration(g, a100);
    CHECK(c.status.status == GemmStatus::Unsupported);
    CHECK(c.status.message.find("e5m2 inputs run on the sm90 TMA + wgmma kernel only") != std::string::npos);
    CHECK(c.status.message.find("compute capability 9.0") != std::string::npos);
    // FP8 pairs the list builds no kernel for: refused on the H100 too, with what the list has
    // (not a configuration that the dispatch would then refuse)
    g = args(4096, 4096, 4096, Element::E5M2);
    c = select_configuration(g, h100);
    CHECK(c.status.status == GemmStatus::Unsupported);
    CHECK(c.status.message.find("no sm90 kernel takes e5m2 inputs") != std::string::npos);
    g = args(4096, 4096, 4096, Element::E4M3);
    g.element_b = Element::E5M2;
    g.epilogue.output = Element::F16;
    c = select_configuration(g, h100);
    CHECK(c.status.status == GemmStatus::Unsupported);
    CHECK(c.status.message.find("the sm90 kernels for e4m3 x e5m2 inputs write D in bf16, not f16") != std::string::npos);
    g.epilogue.output = Element::BF16;
    CHECK(select_configuration(g, h100).status);
    // few tokens, D row-major (Y = X W^T, run as D^T), with a workspace: the per-tensor decode tile
    // (128x64x128, 8 stages of 24 KiB, no cluster, Stream-K) at 64 tokens, 128x128x128 in clusters
    // of 2 under Stream-K (6 stages) at 128, whole 128x160x128 tiles in clusters of 2 (5 stages of
    // 36 KiB) at 320
    struct FewTokens {
      std::int64_t tokens, out, k;
      int tile_n, stages, cluster_m;
      Decomposition decomposition;
    };
    for (const FewTokens& f : {FewTokens{64, 7168, 16384, 64, 8, 1, Decomposition::StreamK},
                               FewTokens{128, 7168, 16384, 128, 6, 2, Decomposition::StreamK},
                               FewTokens{320, 32576, 7168, 160, 5, 2, Decomposition::DataParallel}}) {
      INFO(f.tokens << " tokens");
      g = args(f.tokens, f.out, f.k, Element::E4M3, Major::Row, Major::Col, Major::Row);
      g.workspace = storage + 4096;
      c = select_configuration(g, h100);
      REQUIRE(c.status);
      CHECK((c.tile_m == 128 && c.tile_n == f.tile_n && c.tile_k == 128 && c.stages == f.stages && c.cluster_m == f.cluster_m &&
             c.decomposition == f.decomposition && c.swap_ab));
    }
    // an e4m3 D (scale_d, amax_d): the quantized-output kernel, 128x256x128 at every size (the one built)
    g = args(64, 7168, 512, Element::E4M3);
    g.epilogue.output = Element::E4M3;
    c = select_configuration(g, h100);
    REQUIRE(c.status);
    CHECK((c.kernel == GemmKernel::Sm90TmaWgmma && c.tile_n == 256 && c.tile_k == 128 && c.element_d == Element::E4M3));
    CHECK(select_configuration(g, a100).status.status == GemmStatus::Unsupported);
  }
  SECTION("a 256-row tile where the wave model picks it: bf16 TN only") {
    // (a generated case that found the consistency property below unaware of this tile)
    const DeviceInfo small{9, 82};
    for (const Major d : {Major::Row, Major::Col}) {
      INFO("D " << (d == Major::Row ? "row" : "col") << "-major");
      auto g = args(1793, 6401, 1856, Element::BF16, Major::Row, Major::Col, d);
      auto c = select_configuration(g, small);
      REQUIRE(c.status);
      CHECK((c.tile_m == 256 && c.tile_n == 128 && c.cluster_m == 2 && c.element_d == Element::BF16));
      g = args(1793, 6401, 1856, Element::F16, Major::Row, Major::Col, d);
      c = select_configuration(g, small);
      REQUIRE(c.status);
      CHECK(c.tile_m != 256);  // (built for bf16 only)
    }
  }
  SECTION("a fused epilogue off sm_90 runs nowhere, and says why") {
    auto g = args(256, 256, 256, Element::F16);
    g.epilogue.activation = Activation::ReLU;
    const auto c = select_configuration(g, a100);
    CHECK(c.status.status == GemmStatus::Unsupported);
    CHECK(c.status.message.find("compute capability 9.0") != std::string::npos);
    CHECK(select_configuration(g, h100).kernel == GemmKernel::Sm90TmaWgmma);
  }
}

// A seed of the property below (m = n = 65, k = 2392, 16-bit TN, 2 SMs, no workspace): the rule
// runs the 128 x 64 tile over whole tiles, whose list kernel is the Stream-K one launched without a
// workspace; the property had asked for a whole-tile kernel's traits.
TEST_CASE("select_configuration: whole 128 x 64 tiles run the Stream-K kernel without a workspace") {
  namespace set = tessera::kernels::device::sm90_set;
  for (const Element e : {Element::F16, Element::BF16}) {
    const auto g = args(65, 65, 2392, e);
    const auto c = select_configuration(g, DeviceInfo{9, 2});
    INFO("element " << int(e));
    REQUIRE(c.kernel == GemmKernel::Sm90TmaWgmma);
    CHECK(c.decomposition == Decomposition::DataParallel);
    CHECK((c.tile_m == 128 && c.tile_n == 64 && c.cluster_m == 1));
    const auto whole = tessera::kernels::sm90::whole_tile_kernel(c.schedule, tessera::kernels::sm90::oriented(g, c.swap_ab ? Major::Row : Major::Col));
    REQUIRE(whole.has_value());
    CHECK(whole->stream_k);
    CHECK((whole->bm == c.tile_m && whole->bn == c.tile_n && whole->bk == c.tile_k && whole->stages == c.stages));
    CHECK(!set::find_traits([&](const set::KernelTraits& t) {
             return !t.stream_k && t.fused == Activation::Identity && t.bm == 128 && t.bn == 64 && t.cluster_m == 1 &&
                    set::takes_types(t, tessera::kernels::sm90::oriented(g, c.swap_ab ? Major::Row : Major::Col));
           }).has_value());
  }
}

TEST_CASE("select_configuration's choices are consistent over generated arguments") {
  rc::prop("every configuration fits its arch's shared memory and keeps its kernel's preconditions", [] {
    const auto e = *rc::gen::element(Element::F32, Element::F16, Element::BF16);
    const auto m = *rc::gen::inRange<std::int64_t>(1, 20000), n = *rc::gen::inRange<std::int64_t>(1, 20000),
               k = *rc::gen::inRange<std::int64_t>(1, 20000);
    const auto ma = *rc::gen::element(Major::Row, Major::Col), mb = *rc::gen::element(Major::Row, Major::Col),
               md = *rc::gen::element(Major::Row, Major::Col);
    auto g = args(m, n, k, e, ma, mb, md);
    g.allow_tf32 = *rc::gen::arbitrary<bool>();
    const int offset = *rc::gen::element(0, 2, 4, 8, 16);
    g.a.ptr = storage + offset;
    if (*rc::gen::arbitrary<bool>()) {  // (a workspace: where the wave model prefers it, Stream-K)
      g.workspace = storage + (1 << 15);
      g.workspace_bytes = 1 << 15;
    }
    const DeviceInfo dev{*rc::gen::element(8, 9), *rc::gen::inRange(1, 200)};
    RC_PRE(bool(check_arguments(g)));
    const auto c = select_configuration(g, dev);
    RC_ASSERT(bool(c.status));  // nothing fused here: something always runs
    const int bytes = c.kernel == GemmKernel::Sm90TmaWgmma ? element_bytes(e) : c.kernel == GemmKernel::SimtF32 ? 4 : 2;
    const int stage = (c.tile_m + c.tile_n) * c.tile_k * bytes;
    if (c.kernel == GemmKernel::Sm90TmaWgmma) {
      RC_ASSERT(dev.cc_major == 9);
      RC_ASSERT(offset % 16 == 0);  // TMA: 16-byte aligned A
      RC_ASSERT(c.stages * stage + (e == Element::F32 ? 0 : 2 * kernels::sm90::epilogue_staging_bytes) <= arch::Sm90::smem_capacity);
      if (e == Element::F32) RC_ASSERT((g.allow_tf32 && ma == Major::Row && mb == Major::Col));
      // the schedule the dispatch runs (sm90_schedule.hpp), with its tile and cluster
      // (and its orientation: D^T where the kernel's D major is not the caller's)
      if (c.decomposition == Decomposition::DataParallel) {
        const auto config = tessera::kernels::sm90::choose_config(g, dev.multiprocessors);
        RC_ASSERT(c.schedule == config.schedule);
        RC_ASSERT(c.swap_ab == (md != config.d));
        // a column-major D's kernel runs a row-major D swapped, as before
        if (config.d == Major::Col) RC_ASSERT(c.swap_ab == (md == Major::Row));
      } else {
        RC_ASSERT(bool(g.workspace));
        const auto config = tessera::kernels::sm90::choose_config_stream_k(g, dev.multiprocessors);
        RC_ASSERT(config.has_value());
        RC_ASSERT(c.schedule == config->schedule);
        RC_ASSERT(c.swap_ab == (md != config->d));
      }
      RC_ASSERT((c.tile_m == c.schedule.bm && c.tile_n == c.schedule.bn && c.cluster_m == c.schedule.cluster_m));
      // a kernel of the list with this tile, k-tile, stages, cluster and decomposition reads g's
      // types in the orientation swap_ab names (D^T where it is set): for whole tiles the one
      // the dispatch launches (sm90_schedule.hpp's whole_tile_kernel: the whole-tile kernel, or
      // a Stream-K kernel launched without a workspace), for Stream-K a Stream-K kernel
      const Major kernel_d = c.swap_ab ? (md == Major::Row ? Major::Col : Major::Row) : md;
      const GemmArguments run = tessera::kernels::sm90::oriented(g, kernel_d);
      namespace set = tessera::kernels::device::sm90_set;
      const auto runs_choice = [&](const set::KernelTraits& t) {
        return set::takes_types(t, run) && t.fused == Activation::Identity && t.bm == c.tile_m && t.bn == c.tile_n &&
               t.bk == c.tile_k && t.stages == c.stages && t.cluster_m == c.cluster_m;
      };
      if (c.decomposition == Decomposition::DataParallel) {
        const auto whole = tessera::kernels::sm90::whole_tile_kernel(c.schedule, run);
        RC_ASSERT(whole.has_value());
        RC_ASSERT(runs_choice(*whole));
      } else {
        RC_ASSERT(set::find_traits([&](const set::KernelTraits& t) { return runs_choice(t) && t.stream_k; }).has_value());
      }
      // ping-pong only where it is built: 16-bit TN, D in the inputs' type, 64x128 tiles
      if (c.schedule == tessera::kernels::sm90::Schedule::Pingpong64x128)
        RC_ASSERT((e != Element::F32 && ma == Major::Row && mb == Major::Col && c.element_d == e && c.tile_m == 64 &&
                   c.tile_n == 128 && c.cluster_m == 1));
      // 256-row tiles only where built: bf16 TN, D in bf16, clusters of 2 (TN either way round)
      else if (c.schedule == tessera::kernels::sm90::Schedule::Cooperative256x128)
        RC_ASSERT((e == Element::BF16 && ma == Major::Row && mb == Major::Col && c.element_d == e && c.tile_m == 256 &&
                   c.tile_n == 128 && c.cluster_m == 2));
      else
        RC_ASSERT(c.tile_m == 128);
    } else {
      RC_ASSERT(c.kernel == select_kernel(g));
      RC_ASSERT((c.kernel == GemmKernel::SimtF32) == (e == Element::F32));
      RC_ASSERT(c.stages * stage <= arch::Sm80::smem_capacity);
      if (c.vectorized) RC_ASSERT(offset % 16 == 0);
    }
  });
}
