// The collective builders: a default configuration from what a user knows about a GEMM.
//
//   using Mainloop = CollectiveBuilder<Arch, OpClass,
//                                      ElementA, MajorA, AlignA,        // element, KMajor|MNMajor, elements
//                                      ElementB, MajorB, AlignB,
//                                      ElementAccumulator, TileShape,   // tuple<C<BM>, C<BN>, C<BK>>
//                                      ClusterShape,                    // tuple<C<M>, C<N>, _1> (M or N is 1)
//                                      StageCount, Schedule>;           // StageCountAuto, ScheduleAuto
//   using Epilogue = CollectiveEpilogueBuilder<Mainloop, ElementD, AlignD, EpilogueScheduleAuto>;
//   Mainloop::CollectiveOp, Epilogue::CollectiveOp: the collectives tessera's kernels run;
//   gemm_kernel_t<GemmProblemShape, Mainloop::CollectiveOp, Epilogue::CollectiveOp, Scheduler>
//   (kernel/gemm_kernel.hpp): the kernel type composed of them.
//
// What each (arch, op class) builds and the rules it picks by:
//   Sm80 + OpClassSimt       CollectiveMma<MainloopSm80CpAsyncSimt<Stages>, ...> of the parts it
//                            picks (simt_collective_mma.hpp, SimtPartition): f32 FFMA,
//                            128x128xBK (BK 8 or 16), 256 threads.
//   Sm80 + OpClassTensorOp   CollectiveMma<MainloopSm80CpAsync<Stages, MinBlocks, Group>, ...> of
//                            the parts it picks (sm80_collective_mma.hpp): f16/bf16 mma.sync
//                            m16n8k16, warps of 64x64
//                            (BM/64 x BN/64 warps, at most 8), 16-byte cp.async when both
//                            operands' alignment is 16 bytes, else element copies.
//   Sm90 + OpClassTensorOp   CollectiveMainloopSm90TmaWgmma: TMA + wgmma, warp-specialized,
//                            cooperative (KernelTmaWarpSpecializedCooperative, the default: one
//                            consumer warpgroup per 64 rows of the tile, BM 64 or 128; BM 256,
//                            BN <= 128: two consumer warpgroups of two wgmma atoms along M each,
//                            128 x BN per warpgroup: each atom reads its own A and B, 1.2x the
//                            shared-memory bytes per MAC of a 64 x 256 warpgroup tile; measured
//                            level with 128 x 256 for FP8, bench/notes/fp8.md) or ping-pong
//                            (KernelTmaWarpSpecializedPingpong: BM = 64 or 128, two consumer
//                            warpgroups with a whole tile each, in turn (BM 128: two wgmma
//                            atoms along M per warpgroup); its epilogue a staging slot each:
//                            TMA stores, of plain values or of an epilogue tree's,
//                            16-bit or FP8 operands, whole tiles); the GMMA smem atoms' swizzle
//                            is the widest (128/64/32 B) that both operands' contiguous tile
//                            extents are whole multiples of; TF32 only K-major (the ISA).
// Stage counts: StageCount<N> as given; StageCountAuto fills the arch's shared memory per CTA
// minus what the default epilogue keeps beside the stages (StageCountAutoCarveout<Bytes>:
// minus Bytes), capped for the cp.async mainloops at kMaxAutoStagesCpAsync (a deeper ring
// only takes shared memory: the cp.async latency is hidden by then; bench/RESULTS.md).
// What cannot be built fails with a static_assert that names the rule (tests/kernels/misuse).
//
// This header is plain C++ (no CUDA): the collectives are named through declarations, so the
// host test checks every choice in CI; the .cuh that defines a collective completes the type.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "tessera/atom/detail/mma_ops.hpp"  // GMMA::Major
#include "tessera/atom/numeric.hpp"
#include "tessera/int_tuple.hpp"
#include "tessera/kernels/epilogue_ops.hpp"  // Activation
#include "tessera/kernels/gemm_arguments.hpp"  // Major (the kernel's D)
#include "tessera/kernels/simt_partition.hpp"  // the SIMT collective's parts
#include "tessera/kernels/tensorop_partition.hpp"  // the SM80 collective's parts
#include "simt_collective_mma.hpp"  // MainloopSm80CpAsyncSimt
#include "simt_shape.cuh"
#include "sm80_collective_mma.hpp"  // CollectiveMma, MainloopSm80CpAsync
#include "sm90_epilogue_tree_fields.hpp"  // the tree epilogues' declarations, TreeFromCaller
#include "../kernel/problem_shape.hpp"
#include "../kernel/sm90_shared_storage.hpp"
#include "sm90_dispatch_policy.cuh"
#include "tensorop_shape.cuh"

namespace tessera::kernels {

// ---------------------------------------------------------------- the collectives built
// (declared here, defined in mainloop_*.cuh / epilogue.cuh / sm90_*.cuh; no default arguments
// here: those belong to the definitions)
namespace trace {
struct NoTrace;
}
template <class Mainloop>
struct EpilogueSimt;
struct bf16_tag;
struct f16_tag;
template <int BM, int BN, int Threads, class Tag>
struct EpilogueSmem16;
namespace sm90 {
template <class Policy, class TileShape, class Element, GMMA::Major MajorA, GMMA::Major MajorB, int SwizzleBytes, class ElementB>
struct CollectiveMainloopSm90TmaWgmma;
template <class ElementD>
struct CollectiveEpilogueSm90Direct;
template <class ElementD, int BM, int BN, int ConsumerWarpgroups, Activation FusedAct, int Slots, Major DMajor>
struct CollectiveEpilogueSm90TmaStore;
}  // namespace sm90

// ---------------------------------------------------------------- the builders' vocabulary
namespace arch {
// Shared memory one CTA may opt into (cudaDevAttrMaxSharedMemoryPerBlockOptin): sm_80 163 KiB,
// sm_90 227 KiB.  Sm80 builds run on every sm_80+ GPU, so they plan with sm_80's.
struct Sm80 {
  static constexpr int value = 80;
  static constexpr int smem_capacity = 163 * 1024;
};
struct Sm90 {
  static constexpr int value = 90;
  static constexpr int smem_capacity = 227 * 1024;
};
}  // namespace arch

struct OpClassSimt {};
struct OpClassTensorOp {};

// Which mode of an operand (MN, K) is contiguous in memory: A row-major and B column-major
// are K-major.
struct KMajor {};
struct MNMajor {};

template <int N>
struct StageCount {
  static_assert(N >= 2, "StageCount: a pipeline needs at least 2 stages to overlap copies with math");
  static constexpr int value = N;
};
struct StageCountAuto {};
template <int Bytes>
struct StageCountAutoCarveout {
  static_assert(Bytes >= 0, "StageCountAutoCarveout: the carve-out is a byte count");
  static constexpr int bytes = Bytes;
};
inline constexpr int kMaxAutoStagesCpAsync = 4;

// Mainloop schedules.  ScheduleAuto picks the first of each (arch, op class).
struct ScheduleAuto {};
// SM80 tensor op: cp.async multistage; MinBlocks CTAs per SM the registers are cut for, the
// rasterization band, cp.async's L2 prefetch bytes, swizzled (false: the bank-conflict
// baseline that bench --profile shows).
template <int MinBlocks = 1, int Group = 8, int L2Prefetch = 128, bool Swizzled = true>
struct KernelCpAsyncMultistage {
  static constexpr int min_blocks = MinBlocks, group = Group, l2_prefetch = L2Prefetch;
  static constexpr bool swizzled = Swizzled;
};
// SIMT: a warp's lanes as a flat 16x16 thread grid's rows (the default) or as 8 (m) x 4 (n).
struct KernelSimtThreadGrid16x16 {};
struct KernelSimtWarpGrid8x4 {};
// SM90: producer warpgroup + consumer warpgroups splitting the tile along M.
struct KernelTmaWarpSpecializedCooperative {};
// SM90, FP8 with DeepSeek-V3's block scales (ScaleMode::Block): cooperative, each 128-element
// k-tile's partial products promoted into the f32 accumulators times its scales (the mainloop's
// block-scaled branch); BM = BK = 128 (one 128-row scale block of A per tile and k-tile).
struct KernelTmaWarpSpecializedCooperativeFp8BlockScaled {};
// The same with the two consumer warpgroups issuing each k-tile's wgmmas in turns, so that one
// promotes while the other's wgmmas run (sm90::ConsumerIssue::Alternating).
struct KernelTmaWarpSpecializedCooperativeFp8BlockScaledAlternating {};
// The block-scaled mainloop with the tokens along the tile's M (DeepSeek-V3's orientation: A
// the activations with per-row scales, B the weight with 128 x 128 block scales, D row-major):
// a consumer thread's accumulators need 2 row scales per 64-row wgmma atom and one block scale
// per 128 columns (sm90::ScaledRows::RowsOfA); BM = BK = 128, BN a multiple of 128.
struct KernelTmaWarpSpecializedCooperativeFp8BlockScaledRowsOfA {};
// The same with two sets of partial sums: each k-tile promoted while the next k-tile's wgmmas
// run (sm90::BlockPromotion::UnderNextKTile); the same sums as the schedule above.
struct KernelTmaWarpSpecializedCooperativeFp8BlockScaledRowsOfAUnderNextKTile {};
// SM90: producer warpgroup + two consumer warpgroups, each with a whole 64-row tile, taking
// the CTA's tiles in turn (one's epilogue under the other's mainloop).
struct KernelTmaWarpSpecializedPingpong {};

// Epilogue schedules.
struct EpilogueScheduleAuto {};
struct EpilogueSmemStaged {};  // SM80: through a padded smem tile, vector stores
struct EpilogueSimtDirect {};  // SIMT: from the registers
struct EpilogueTmaStore {};    // SM90: staged in 128B-swizzled smem, TMA stores
// SM90: the same for a row-major kernel D (a row-major staging tile, stmatrix without .trans,
// row-major TMA boxes): the tile's N along D's contiguous mode. The dispatch runs a
// column-major D's problem transposed on such a kernel where its tile fits the other extent.
struct EpilogueTmaStoreRowMajor {};
// SM90: TMA stores of act(alpha acc + bias): one kernel per activation (the store loop of one
// activation per kernel keeps ptxas time and registers those of the plain kernel).
template <Activation Act>
struct EpilogueTmaStoreFused {};
struct EpilogueDirect {};      // SM90: from the registers
// SM90: D = an epilogue tree's value per element (tessera/kernels/epilogue_tree.hpp); the
// tree's sinks write beside D. One kernel type per tree. Stores: EpilogueDirect (from the
// registers, any D) or EpilogueTmaStore (staged in shared memory, TMA stores: a D that TMA can
// store, column-major and 16-byte aligned; the others are refused at run time; the ping-pong
// kernel's only stores: a staging slot per consumer, one's tree under the other's mainloop).
// Fields: where the tree's arguments come from (collective/sm90_epilogue_tree_fields.hpp): the
// caller's (sm90::TreeFromCaller), or a prebuilt tree's policy that fills them from
// tessera::gemm's fields.
template <class Tree, class Stores = EpilogueDirect, class Fields = sm90::TreeFromCaller>
struct EpilogueTree {};

// The problem shape the kernels take: GemmProblemShape (kernel/problem_shape.hpp).

namespace builder_detail {
// The SM80 gmem -> smem tiled copy over a GmemCopy's thread and value layouts: 16-byte
// zero-filling cp.async with the L2 prefetch hint, or the GmemCopy's element copies.
template <class G, class Element, bool Vectorized, int L2Prefetch>
struct Sm80GmemTiledCopy {
  using type = decltype(make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<16, L2Prefetch>, Element>{},
                                        typename G::ThrLayout{}, typename G::ValLayout{}));
};
template <class G, class Element, int L2Prefetch>
struct Sm80GmemTiledCopy<G, Element, false, L2Prefetch> {
  using type = typename G::Tiled;
};
template <class G, class Element, bool Vectorized, int L2Prefetch>
using sm80_gmem_tiled_copy = typename Sm80GmemTiledCopy<G, Element, Vectorized, L2Prefetch>::type;
template <class>
inline constexpr bool dependent_false = false;
template <class T>
inline constexpr bool is_16bit_float = std::is_same_v<T, half_t> || std::is_same_v<T, bfloat16_t>;
template <class T>
inline constexpr bool is_fp8 = std::is_same_v<T, float_e4m3_t> || std::is_same_v<T, float_e5m2_t>;
template <class T>
struct tag_of;
template <>
struct tag_of<bfloat16_t> { using type = bf16_tag; };
template <>
struct tag_of<half_t> { using type = f16_tag; };
template <class Major>
inline constexpr bool is_major = std::is_same_v<Major, KMajor> || std::is_same_v<Major, MNMajor>;
template <class Major>
inline constexpr GMMA::Major gmma_major = std::is_same_v<Major, KMajor> ? GMMA::Major::K : GMMA::Major::MN;

template <class TileShape, int I>
inline constexpr int extent = int(get<I>(TileShape{}));

// The most stages, from S down, whose shared storage Storage<stages> fits `Capacity` bytes
// (1 or 0 if none does).
template <template <int> class Storage, int Capacity, int S>
constexpr int most_stages_fitting() {
  if constexpr (S <= 1) return S;
  else if constexpr (sizeof(Storage<S>) <= std::size_t(Capacity)) return S;
  else return most_stages_fitting<Storage, Capacity, S - 1>();
}

// The stage count of a policy: given, or what fits `capacity` bytes after `reserved` at
// `stage_bytes` per stage, at most `cap`.
template <class Policy, int StageBytes, int Capacity, int Reserved, int Cap>
constexpr int stages() {
  if constexpr (std::is_same_v<Policy, StageCountAuto>) {
    const int fit = (Capacity - Reserved) / StageBytes;
    return fit < Cap ? fit : Cap;
  } else if constexpr (requires { Policy::bytes; }) {
    const int fit = (Capacity - Reserved - Policy::bytes) / StageBytes;
    return fit < Cap ? fit : Cap;
  } else {
    return Policy::value;
  }
}
template <class Policy>
inline constexpr bool is_stage_policy = std::is_same_v<Policy, StageCountAuto> || requires { Policy::bytes; } ||
                                        requires { Policy::value; };

// The widest GMMA swizzle (bytes) that a tile's contiguous extent (bytes) is a whole multiple
// of; 0 if not even 32 B.
constexpr int widest_swizzle(int contiguous_bytes) {
  for (int s = 128; s >= 32; s /= 2)
    if (contiguous_bytes % s == 0) return s;
  return 0;
}
constexpr int min_int(int a, int b) { return a < b ? a : b; }
// The activation an epilogue schedule fuses (Identity: none).
template <class Schedule>
struct fused_activation {
  static constexpr bool is_fused = false;
  static constexpr Activation value = Activation::Identity;
};
template <Activation Act>
struct fused_activation<EpilogueTmaStoreFused<Act>> {
  static constexpr bool is_fused = true;
  static constexpr Activation value = Act;
};
// The tree an epilogue schedule evaluates (void: none).
template <class Schedule>
struct epilogue_tree_of {
  using type = void;
};
template <class Tree, class Stores, class Fields>
struct epilogue_tree_of<EpilogueTree<Tree, Stores, Fields>> {
  using type = Tree;
  using stores = Stores;
  using fields = Fields;
};
}  // namespace builder_detail

// The staging shared memory of the SM90 epilogues, per CTA: TMA store keeps one staging buffer
// per consumer warpgroup and slot (ping-pong: a slot per consumer's tile) beside the
// mainloop's stages (sm90_epilogue_tma.cuh); direct keeps none.
template <class EpilogueSchedule>
constexpr int sm90_epilogue_smem_bytes(int consumer_warpgroups, int slots = 1) {
  return std::is_same_v<EpilogueSchedule, EpilogueTmaStore> ? consumer_warpgroups * slots * sm90::epilogue_staging_bytes : 0;
}
// The shared storage of an SM90 epilogue schedule with `buffers` staging buffers.
template <class EpilogueSchedule, int Buffers>
using Sm90EpilogueSharedStorage = std::conditional_t<std::is_same_v<EpilogueSchedule, EpilogueTmaStore>,
                                                     sm90::EpilogueTmaStoreSharedStorage<Buffers>, sm90::EpilogueNoSharedStorage>;
// The SM90 default epilogue for the inputs' type: TMA stores, but the direct epilogue for TF32
// (the configuration measured against cuBLAS FAST_TF32: bench/notes/sm90_gemm.md).
template <class ElementA>
using Sm90DefaultEpilogueSchedule = std::conditional_t<std::is_same_v<ElementA, float>, EpilogueDirect, EpilogueTmaStore>;

// ---------------------------------------------------------------- the mainloop builder
template <class Arch, class OpClass, class ElementA, class MajorA, int AlignA, class ElementB, class MajorB, int AlignB,
          class ElementAccumulator, class TileShape, class ClusterShape, class StageCountPolicy, class Schedule,
          class Enable = void>
struct CollectiveBuilder {
  static_assert(builder_detail::dependent_false<Arch>,
                "CollectiveBuilder: no collective for this (arch, op class): Sm80 + OpClassSimt (f32), Sm80 + "
                "OpClassTensorOp (f16/bf16) or Sm90 + OpClassTensorOp (f16/bf16/tf32)");
};

// Checks every builder shares.
template <class ElementA, class MajorA, int AlignA, class ElementB, class MajorB, int AlignB, class ElementAccumulator,
          class ClusterShape, class StageCountPolicy>
struct CommonBuilderRules {
  static_assert(builder_detail::is_major<MajorA> && builder_detail::is_major<MajorB>,
                "CollectiveBuilder: an operand major is KMajor or MNMajor");
  static_assert(AlignA >= 1 && AlignB >= 1, "CollectiveBuilder: alignments are counts of elements, at least 1");
  static_assert(std::is_same_v<ElementA, ElementB> || (builder_detail::is_fp8<ElementA> && builder_detail::is_fp8<ElementB>),
                "CollectiveBuilder: A and B have one element type (or two FP8 types: e4m3, e5m2)");
  static_assert(std::is_same_v<ElementAccumulator, float>, "CollectiveBuilder: the collectives accumulate in float");
  static_assert(builder_detail::is_stage_policy<StageCountPolicy>,
                "CollectiveBuilder: the stage count is StageCount<N>, StageCountAuto or StageCountAutoCarveout<Bytes>");
  static constexpr bool ok = true;
};

// SIMT: f32 FFMA, 128x128 CTA tile of 16x16 threads with 8x8 outer products; any alignment
// (4-byte cp.async per element).
template <class Arch, class MajorA, int AlignA, class MajorB, int AlignB, class ElementAccumulator, class TileShape,
          class ClusterShape, class StageCountPolicy, class Schedule>
struct CollectiveBuilder<Arch, OpClassSimt, float, MajorA, AlignA, float, MajorB, AlignB, ElementAccumulator, TileShape,
                         ClusterShape, StageCountPolicy, Schedule, std::enable_if_t<(Arch::value >= 80)>> {
  static_assert(CommonBuilderRules<float, MajorA, AlignA, float, MajorB, AlignB, ElementAccumulator, ClusterShape,
                                   StageCountPolicy>::ok);
  static constexpr int BM = builder_detail::extent<TileShape, 0>, BN = builder_detail::extent<TileShape, 1>,
                       BK = builder_detail::extent<TileShape, 2>;
  static_assert(BM == 128 && BN == 128 && (BK == 8 || BK == 16),
                "CollectiveBuilder (SIMT): the tile is 128x128x8 or 128x128x16 (16x16 threads of 8x8 outer products)");
  static_assert(builder_detail::extent<ClusterShape, 0> * builder_detail::extent<ClusterShape, 1> == 1,
                "CollectiveBuilder (SIMT): no clusters before sm_90");
  static_assert(std::is_same_v<Schedule, ScheduleAuto> || std::is_same_v<Schedule, KernelSimtThreadGrid16x16> ||
                    std::is_same_v<Schedule, KernelSimtWarpGrid8x4>,
                "CollectiveBuilder (SIMT): the schedule is KernelSimtThreadGrid16x16 or KernelSimtWarpGrid8x4");
  static constexpr bool WarpGrid8x4 = std::is_same_v<Schedule, KernelSimtWarpGrid8x4>;
  static constexpr int Threads = 256;
  // The SIMT kernel runs 2 CTAs per SM (its launch bounds): each plans with half the smem.
  // A stage: both operands' (128 + 4 pad) x BK floats.
  static constexpr int stage_bytes = 2 * (128 + 4) * BK * 4;
  static constexpr int Stages =
      builder_detail::stages<StageCountPolicy, stage_bytes, Arch::smem_capacity / 2, 0, kMaxAutoStagesCpAsync>();
  static_assert(Stages >= 2, "CollectiveBuilder (SIMT): at least 2 stages must fit in shared memory");
  static constexpr bool Vectorized = false;
  static constexpr int SwizzleBytes = 0;
  using Shape = SimtShape<BK, Stages, WarpGrid8x4>;
  // The collective's parts (SimtPartition): the tiled MMA (UniversalFMA over 16x16 threads or
  // 8x4-lane warps, 8x8 outer products), each operand's gmem -> smem tiled copy (4-byte
  // cp.async, threads along its contiguous mode), smem layout (MN-major rows padded to 132
  // floats, a stage's A rows then its B rows) and smem -> register copy atom (LDS.128).
  using Partition = SimtPartition<WarpGrid8x4, BK>;
  using DispatchPolicy = MainloopSm80CpAsyncSimt<Stages>;
  using TiledMma = typename Partition::TiledMma;
  using GmemTiledCopyA = typename Partition::template G2S<BM, std::is_same_v<MajorA, KMajor>>::Tiled;
  using GmemTiledCopyB = typename Partition::template G2S<BN, std::is_same_v<MajorB, KMajor>>::Tiled;
  using SmemLayoutA = typename Partition::template SmemLayoutA<Stages>;
  using SmemLayoutB = typename Partition::template SmemLayoutB<Stages>;
  using SmemCopyAtomA = typename Partition::SmemCopyAtom;
  using SmemCopyAtomB = typename Partition::SmemCopyAtom;
  using CollectiveOp = CollectiveMma<DispatchPolicy, tuple<C<BM>, C<BN>, C<BK>>, float, MajorA, float, MajorB, TiledMma,
                                     GmemTiledCopyA, SmemLayoutA, SmemCopyAtomA, GmemTiledCopyB, SmemLayoutB, SmemCopyAtomB,
                                     trace::NoTrace>;
  using ElementA = float;
  using ArchTag = Arch;
  using OperatorClass = OpClassSimt;
};

// SM80 tensor op: f16/bf16 mma.sync, cp.async multistage.
template <class Arch, class Element, class MajorA, int AlignA, class MajorB, int AlignB, class ElementAccumulator,
          class TileShape, class ClusterShape, class StageCountPolicy, class Schedule>
struct CollectiveBuilder<Arch, OpClassTensorOp, Element, MajorA, AlignA, Element, MajorB, AlignB, ElementAccumulator, TileShape,
                         ClusterShape, StageCountPolicy, Schedule,
                         std::enable_if_t<(Arch::value >= 80 && Arch::value < 90)>> {
  static_assert(CommonBuilderRules<Element, MajorA, AlignA, Element, MajorB, AlignB, ElementAccumulator, ClusterShape,
                                   StageCountPolicy>::ok);
  static_assert(builder_detail::is_16bit_float<Element>,
                "CollectiveBuilder (SM80 tensor op): f16 or bf16 operands (f32 runs on OpClassSimt)");
  static constexpr int BM = builder_detail::extent<TileShape, 0>, BN = builder_detail::extent<TileShape, 1>,
                       BK = builder_detail::extent<TileShape, 2>;
  static_assert(BM % 64 == 0 && BN % 64 == 0,
                "CollectiveBuilder (SM80 tensor op): BM and BN are multiples of 64 (warps of 64x64)");
  static_assert(BK % 32 == 0, "CollectiveBuilder (SM80 tensor op): BK is a multiple of 32 (k16 steps in pairs)");
  static constexpr int WM = BM / 64, WN = BN / 64;
  static_assert(WM * WN <= 8, "CollectiveBuilder (SM80 tensor op): at most 8 warps (a 64x64 tile each) per CTA");
  static_assert(builder_detail::extent<ClusterShape, 0> * builder_detail::extent<ClusterShape, 1> == 1,
                "CollectiveBuilder (SM80 tensor op): no clusters before sm_90");
  using Policy = std::conditional_t<std::is_same_v<Schedule, ScheduleAuto>, KernelCpAsyncMultistage<>, Schedule>;
  static_assert(requires { Policy::l2_prefetch; },
                "CollectiveBuilder (SM80 tensor op): the schedule is KernelCpAsyncMultistage<...>");
  static constexpr int Threads = 32 * WM * WN;
  // 16-byte cp.async needs both operands 16-byte aligned; otherwise element copies.
  static constexpr bool Vectorized = AlignA * 2 % 16 == 0 && AlignB * 2 % 16 == 0;
  // The epilogue stages through the stages' smem afterwards (max, not sum): nothing reserved.
  static constexpr int stage_bytes = (BM + BN) * BK * 2;
  static constexpr int Stages = builder_detail::stages<StageCountPolicy, stage_bytes,
                                                       Arch::smem_capacity / Policy::min_blocks, 0, kMaxAutoStagesCpAsync>();
  static_assert(Stages >= 2, "CollectiveBuilder (SM80 tensor op): at least 2 stages must fit in shared memory");
  // Explicit counts may plan for the largest GPU the collective runs on (an H100's 227 KiB).
  static_assert(Stages * stage_bytes <= arch::Sm90::smem_capacity / Policy::min_blocks,
                "CollectiveBuilder (SM80 tensor op): the stages exceed the shared memory of a CTA");
  static constexpr int SwizzleBytes = Policy::swizzled ? 128 : 0;
  using Shape = TensorOpShape<BM, BN, BK, WM, WN, Stages, Policy::min_blocks, Policy::group, Policy::l2_prefetch>;
  // The collective's parts: the tiled MMA (m16n8k16 over WM x WN warps of 64x64), each
  // operand's gmem -> smem tiled copy (16-byte zero-filling cp.async with the schedule's L2
  // prefetch, or element copies), smem layout atom (swizzled unless the schedule says not)
  // and smem -> register copy atom (ldmatrix x4, .trans for MN-major smem).
  using Partition = TensorOpPartition<BM, BN, BK, WM, WN, Threads, std::is_same_v<Element, bfloat16_t>,
                                      std::is_same_v<MajorA, KMajor>, std::is_same_v<MajorB, KMajor>, Vectorized ? 8 : 1,
                                      Policy::swizzled>;
  using DispatchPolicy = MainloopSm80CpAsync<Stages, Policy::min_blocks, Policy::group>;
  using TiledMma = typename Partition::TiledMma;
  using GmemTiledCopyA = builder_detail::sm80_gmem_tiled_copy<typename Partition::G2S_A, Element, Vectorized, Policy::l2_prefetch>;
  using GmemTiledCopyB = builder_detail::sm80_gmem_tiled_copy<typename Partition::G2S_B, Element, Vectorized, Policy::l2_prefetch>;
  using SmemLayoutAtomA = typename Partition::SmemLayoutAtomA;
  using SmemLayoutAtomB = typename Partition::SmemLayoutAtomB;
  using SmemCopyAtomA = Copy_Atom<typename Partition::LdsmA, Element>;
  using SmemCopyAtomB = Copy_Atom<typename Partition::LdsmB, Element>;
  using CollectiveOp = CollectiveMma<DispatchPolicy, tuple<C<BM>, C<BN>, C<BK>>, Element, MajorA, Element, MajorB, TiledMma,
                                     GmemTiledCopyA, SmemLayoutAtomA, SmemCopyAtomA, GmemTiledCopyB, SmemLayoutAtomB,
                                     SmemCopyAtomB, trace::NoTrace>;
  using ElementA = Element;
  using ArchTag = Arch;
  using OperatorClass = OpClassTensorOp;
};

// SM90 tensor op: TMA + wgmma, warp-specialized, cooperative or ping-pong. FP8: A and B may be
// different 8-bit types (e4m3, e5m2), each K-major.
template <class Arch, class Element, class MajorA, int AlignA, class ElementB_, class MajorB, int AlignB, class ElementAccumulator,
          class TileShape, class ClusterShape, class StageCountPolicy, class Schedule>
struct CollectiveBuilder<Arch, OpClassTensorOp, Element, MajorA, AlignA, ElementB_, MajorB, AlignB, ElementAccumulator, TileShape,
                         ClusterShape, StageCountPolicy, Schedule, std::enable_if_t<(Arch::value >= 90)>> {
  static_assert(CommonBuilderRules<Element, MajorA, AlignA, ElementB_, MajorB, AlignB, ElementAccumulator, ClusterShape,
                                   StageCountPolicy>::ok);
  static_assert(builder_detail::is_16bit_float<Element> || std::is_same_v<Element, float> || builder_detail::is_fp8<Element>,
                "CollectiveBuilder (SM90 tensor op): f16, bf16, f32 multiplied as tf32, or FP8 (e4m3, e5m2)");
  static_assert(!std::is_same_v<Element, float> || (std::is_same_v<MajorA, KMajor> && std::is_same_v<MajorB, KMajor>),
                "CollectiveBuilder (SM90 tensor op): tf32 wgmma reads K-major A and B only (the ISA transposes 16-bit "
                "types alone)");
  static_assert(!builder_detail::is_fp8<Element> || (std::is_same_v<MajorA, KMajor> && std::is_same_v<MajorB, KMajor>),
                "CollectiveBuilder (SM90 tensor op): 8-bit wgmma reads K-major A and B only (the ISA transposes 16-bit "
                "types alone)");
  static constexpr int Bytes = int(sizeof(Element));
  static_assert(AlignA * Bytes % 16 == 0 && AlignB * Bytes % 16 == 0,
                "CollectiveBuilder (SM90 tensor op): TMA needs 16-byte aligned operands (AlignA/AlignB * element "
                "bytes a multiple of 16)");
  static_assert(std::is_same_v<Schedule, ScheduleAuto> || std::is_same_v<Schedule, KernelTmaWarpSpecializedCooperative> ||
                    std::is_same_v<Schedule, KernelTmaWarpSpecializedPingpong> ||
                    std::is_same_v<Schedule, KernelTmaWarpSpecializedCooperativeFp8BlockScaled> ||
                    std::is_same_v<Schedule, KernelTmaWarpSpecializedCooperativeFp8BlockScaledAlternating> ||
                    std::is_same_v<Schedule, KernelTmaWarpSpecializedCooperativeFp8BlockScaledRowsOfA> ||
                    std::is_same_v<Schedule, KernelTmaWarpSpecializedCooperativeFp8BlockScaledRowsOfAUnderNextKTile>,
                "CollectiveBuilder (SM90 tensor op): the schedule is KernelTmaWarpSpecializedCooperative, "
                "KernelTmaWarpSpecializedPingpong or KernelTmaWarpSpecializedCooperativeFp8BlockScaled(Alternating, RowsOfA, "
                "RowsOfAUnderNextKTile)");
  static constexpr bool Pingpong = std::is_same_v<Schedule, KernelTmaWarpSpecializedPingpong>;
  static constexpr bool Alternating = std::is_same_v<Schedule, KernelTmaWarpSpecializedCooperativeFp8BlockScaledAlternating>;
  static constexpr bool UnderNextKTile = std::is_same_v<Schedule, KernelTmaWarpSpecializedCooperativeFp8BlockScaledRowsOfAUnderNextKTile>;
  static constexpr bool RowsOfA = std::is_same_v<Schedule, KernelTmaWarpSpecializedCooperativeFp8BlockScaledRowsOfA> || UnderNextKTile;
  static constexpr bool BlockScaled =
      std::is_same_v<Schedule, KernelTmaWarpSpecializedCooperativeFp8BlockScaled> || Alternating || RowsOfA;
  static constexpr int BM = builder_detail::extent<TileShape, 0>, BN = builder_detail::extent<TileShape, 1>,
                       BK = builder_detail::extent<TileShape, 2>;
  static_assert(!BlockScaled || builder_detail::is_fp8<Element>,
                "CollectiveBuilder (SM90 tensor op, block-scaled): FP8 operands (the scales dequantize 8-bit floats)");
  static_assert(!BlockScaled || (BK == 128 && (BM == 128 || (RowsOfA && !UnderNextKTile && BM == 256))),
                "CollectiveBuilder (SM90 tensor op, block-scaled): BM = BK = 128 (a tile's rows and k-tile lie in one 128 x 128 "
                "scale block), or BM 256 with the row scales of A (...RowsOfA: promoted atom by atom, two partial fragments "
                "would not fit)");
  static_assert(!RowsOfA || BN % 128 == 0,
                "CollectiveBuilder (SM90 tensor op, block-scaled, row scales of A): BN a multiple of 128 (each accumulator "
                "column's 128-column block of B is static)");
  static_assert(Pingpong || BM == 64 || BM == 128 || BM == 256,
                "CollectiveBuilder (SM90 tensor op, cooperative): BM is 64, 128 (a consumer warpgroup per 64 rows) or 256 (two "
                "consumer warpgroups of two wgmma atoms along M each)");
  // BM 256: a consumer thread holds 2 atoms' accumulators, 2 BN / 2 f32 (BN 128: 128, as a
  // 64 x 256 warpgroup tile's); more would not fit beside the operands' registers.
  static_assert(Pingpong || BM != 256 || BN <= 128,
                "CollectiveBuilder (SM90 tensor op, cooperative 256-row tile): BN at most 128 (each consumer warpgroup's "
                "128 x BN accumulators: 128 f32 per thread at BN 128)");
  static_assert(!Pingpong || BM == 64 || BM == 128,
                "CollectiveBuilder (SM90 tensor op, ping-pong): BM is 64 or 128 (each consumer warpgroup owns a whole tile: "
                "one or two wgmma atoms along M)");
  // (FP8: K-major as above, BK = 128 one swizzle row; the kernel applies the per-tensor or
  // rowwise scales in each consumer's epilogue, as the cooperative kernel does)
  static_assert(!Pingpong || builder_detail::is_16bit_float<Element> || builder_detail::is_fp8<Element>,
                "CollectiveBuilder (SM90 tensor op, ping-pong): f16, bf16 or FP8 operands (its epilogue is the TMA-store one, "
                "a staging slot per consumer; tf32 runs cooperative)");
  static_assert(BN % 8 == 0 && BN <= 256, "CollectiveBuilder (SM90 tensor op): one wgmma spans BN: a multiple of 8 up to 256");
  static_assert(BK * Bytes % 32 == 0, "CollectiveBuilder (SM90 tensor op): a BK row is whole 32-byte swizzle rows");
  // Per tile: ping-pong one (BM 128: the TiledMma's M repeat of 2); cooperative one per 64 rows
  // up to two (BM 256: two warpgroups, each the TiledMma's M repeat of 2, rows 64 w and 128 + 64 w).
  static constexpr int ConsumerWarpgroups = Pingpong ? 1 : builder_detail::min_int(BM / 64, 2);
  // The TMA-store epilogue's staging sets: ping-pong's two consumers store different tiles at once.
  static constexpr int EpilogueSlots = Pingpong ? 2 : 1;
  // Clusters along M share B by multicast, clusters along N share A (cooperative kernels on
  // whole-tile schedulers: Stream-K's and split-K's workspace slots count CTAs along M).
  static constexpr int ClusterM = builder_detail::extent<ClusterShape, 0>;
  static constexpr int ClusterN = builder_detail::extent<ClusterShape, 1>;
  static_assert(builder_detail::extent<ClusterShape, 2> == 1 && (ClusterM == 1 || ClusterN == 1),
                "CollectiveBuilder (SM90 tensor op): clusters along M (they share B by multicast) or along N (they share A)");
  static_assert(ClusterM == 1 || ClusterM == 2 || ClusterM == 4, "CollectiveBuilder (SM90 tensor op): clusters of 1, 2 or 4 CTAs");
  static_assert(ClusterN == 1 || ClusterN == 2 || ClusterN == 4, "CollectiveBuilder (SM90 tensor op): clusters of 1, 2 or 4 CTAs");
  static_assert(ClusterN == 1 || !Pingpong, "CollectiveBuilder (SM90 tensor op, ping-pong): clusters along M only");
  static_assert(BN % (8 * ClusterM) == 0, "CollectiveBuilder (SM90 tensor op): the B tile splits into whole 8-row parts per cluster CTA");
  static_assert(BM % (8 * ClusterN) == 0, "CollectiveBuilder (SM90 tensor op): the A tile splits into whole 8-row parts per cluster CTA");
  // Swizzle: each operand's smem atom is contiguous along K (K-major: BK elements) or MN
  // (MN-major: the tile's BM or BN); one swizzle for both, the widest that divides both.
  static constexpr int contiguous_a = (std::is_same_v<MajorA, KMajor> ? BK : BM) * Bytes;
  static constexpr int contiguous_b = (std::is_same_v<MajorB, KMajor> ? BK : BN) * Bytes;
  static constexpr int SwizzleBytes = builder_detail::min_int(builder_detail::widest_swizzle(contiguous_a),
                                                              builder_detail::widest_swizzle(contiguous_b));
  static_assert(SwizzleBytes >= 32, "CollectiveBuilder (SM90 tensor op): no GMMA swizzle (32/64/128 B) tiles the operands");
  static constexpr bool Vectorized = true;  // TMA
  // The kernel's shared storage with `S` stages and an epilogue's storage, as the kernel
  // declares it (kernel/sm90_shared_storage.hpp): the stage count is the most stages whose
  // whole storage fits (StageCountAuto: beside the default epilogue's staging;
  // StageCountAutoCarveout<Bytes>: beside Bytes).
  static constexpr int StageBytesA = BM * BK * Bytes, StageBytesB = BN * BK * Bytes;
  // the k-tile's row scales: of B's rows (BN f32), or of A's (RowsOfA: BM f32)
  static constexpr int StageBytesScale = BlockScaled ? (RowsOfA ? BM : BN) * int(sizeof(float)) : 0;
  template <class EpilogueStorage, int S>
  using KernelStorage = std::conditional_t<
      Pingpong, sm90::PingpongSharedStorage<sm90::MainloopSharedStorage<StageBytesA, StageBytesB, S>, EpilogueStorage>,
      sm90::CooperativeSharedStorage<sm90::MainloopSharedStorage<StageBytesA, StageBytesB, S, StageBytesScale>, EpilogueStorage>>;
  template <int S>
  using StorageBesideDefaultEpilogue =
      KernelStorage<Sm90EpilogueSharedStorage<Sm90DefaultEpilogueSchedule<Element>, ConsumerWarpgroups * EpilogueSlots>, S>;
  template <int S>
  using StorageWithoutEpilogue = KernelStorage<sm90::EpilogueNoSharedStorage, S>;
  static constexpr int stage_count() {
    constexpr int capacity = Arch::smem_capacity, tiles = StageBytesA + StageBytesB + StageBytesScale;
    if constexpr (std::is_same_v<StageCountPolicy, StageCountAuto>) {
      return builder_detail::most_stages_fitting<StorageBesideDefaultEpilogue, capacity, capacity / tiles>();
    } else if constexpr (requires { StageCountPolicy::bytes; }) {
      constexpr int left = capacity - StageCountPolicy::bytes;
      return builder_detail::most_stages_fitting<StorageWithoutEpilogue, left, left / tiles>();
    } else {
      return StageCountPolicy::value;
    }
  }
  static constexpr int Stages = stage_count();
  static_assert(Stages >= 2, "CollectiveBuilder (SM90 tensor op): at least 2 stages must fit in shared memory");
  static_assert(sizeof(StorageWithoutEpilogue<Stages>) <= std::size_t(Arch::smem_capacity),
                "CollectiveBuilder (SM90 tensor op): the stages exceed the shared memory of a CTA");
  using Policy = std::conditional_t<Pingpong, sm90::MainloopTmaWarpSpecializedPingpong<Stages, ClusterM>,
                                    sm90::MainloopTmaWarpSpecializedCooperative<
                                        Stages, ConsumerWarpgroups, ClusterM, BlockScaled,
                                        Alternating ? sm90::ConsumerIssue::Alternating : sm90::ConsumerIssue::Together,
                                        RowsOfA ? sm90::ScaledRows::RowsOfA : sm90::ScaledRows::RowsOfB,
                                        UnderNextKTile ? sm90::BlockPromotion::UnderNextKTile : sm90::BlockPromotion::AfterWait,
                                        ClusterN>>;
  using CollectiveOp = sm90::CollectiveMainloopSm90TmaWgmma<Policy, tuple<C<BM>, C<BN>, C<BK>>, Element,
                                                            builder_detail::gmma_major<MajorA>,
                                                            builder_detail::gmma_major<MajorB>, SwizzleBytes, ElementB_>;
  using ElementA = Element;
  using ElementB = ElementB_;
  using ArchTag = Arch;
  using OperatorClass = OpClassTensorOp;
};

// ---------------------------------------------------------------- the epilogue builder
// From the mainloop's builder (the epilogue reads its accumulator partition), D's element
// type and alignment (elements), and a schedule.
template <class MainloopBuilder, class ElementD, int AlignD, class EpilogueSchedule = EpilogueScheduleAuto,
          class Enable = void>
struct CollectiveEpilogueBuilder {
  static_assert(builder_detail::dependent_false<MainloopBuilder>,
                "CollectiveEpilogueBuilder: the first argument is a CollectiveBuilder<...>");
};

template <class MB, class ElementD, int AlignD, class EpilogueSchedule>
struct CollectiveEpilogueBuilder<MB, ElementD, AlignD, EpilogueSchedule,
                                 std::enable_if_t<std::is_same_v<typename MB::OperatorClass, OpClassSimt>>> {
  static_assert(std::is_same_v<ElementD, float>, "CollectiveEpilogueBuilder (SIMT): D is f32");
  static_assert(std::is_same_v<EpilogueSchedule, EpilogueScheduleAuto> || std::is_same_v<EpilogueSchedule, EpilogueSimtDirect>,
                "CollectiveEpilogueBuilder (SIMT): the schedule is EpilogueSimtDirect");
  static constexpr int smem_bytes = 0;
  using CollectiveOp = EpilogueSimt<typename MB::CollectiveOp>;
};

template <class MB, class ElementD, int AlignD, class EpilogueSchedule>
struct CollectiveEpilogueBuilder<
    MB, ElementD, AlignD, EpilogueSchedule,
    std::enable_if_t<std::is_same_v<typename MB::OperatorClass, OpClassTensorOp> && (MB::ArchTag::value < 90)>> {
  static_assert(std::is_same_v<ElementD, typename MB::ElementA>,
                "CollectiveEpilogueBuilder (SM80 tensor op): D has the inputs' type (fused epilogues run on sm90)");
  static_assert(std::is_same_v<EpilogueSchedule, EpilogueScheduleAuto> || std::is_same_v<EpilogueSchedule, EpilogueSmemStaged>,
                "CollectiveEpilogueBuilder (SM80 tensor op): the schedule is EpilogueSmemStaged");
  // Staged in the mainloop's smem after the k-loop: f32 (BM, BN + 4) or (BM + 4, BN).
  static constexpr int smem_bytes = 4 * (MB::BM * (MB::BN + 4) > (MB::BM + 4) * MB::BN ? MB::BM * (MB::BN + 4)
                                                                                       : (MB::BM + 4) * MB::BN);
  static_assert(smem_bytes <= MB::ArchTag::smem_capacity,
                "CollectiveEpilogueBuilder (SM80 tensor op): the staging tile exceeds the shared memory of a CTA");
  using CollectiveOp = EpilogueSmem16<MB::BM, MB::BN, MB::Threads, typename builder_detail::tag_of<ElementD>::type>;
};

template <class MB, class ElementD, int AlignD, class EpilogueSchedule>
struct CollectiveEpilogueBuilder<
    MB, ElementD, AlignD, EpilogueSchedule,
    std::enable_if_t<std::is_same_v<typename MB::OperatorClass, OpClassTensorOp> && (MB::ArchTag::value >= 90)>> {
  using Requested = std::conditional_t<std::is_same_v<EpilogueSchedule, EpilogueScheduleAuto>,
                                       Sm90DefaultEpilogueSchedule<typename MB::ElementA>, EpilogueSchedule>;
  static constexpr Activation fused = builder_detail::fused_activation<Requested>::value;
  // A fused TMA-store schedule is the TMA-store epilogue with its activation; a tree's stores
  // are its Stores schedule's (EpilogueDirect: no staging; EpilogueTmaStore: the TMA-store
  // staging, a slot per consumer on the ping-pong kernel).
  using Tree = typename builder_detail::epilogue_tree_of<Requested>::type;
  static constexpr bool tree = !std::is_void_v<Tree>;
  using TreeStores = typename builder_detail::epilogue_tree_of<std::conditional_t<tree, Requested, EpilogueTree<void>>>::stores;
  using TreeFields = typename builder_detail::epilogue_tree_of<std::conditional_t<tree, Requested, EpilogueTree<void>>>::fields;
  static_assert(std::is_same_v<TreeStores, EpilogueDirect> || std::is_same_v<TreeStores, EpilogueTmaStore>,
                "CollectiveEpilogueBuilder (SM90): an epilogue tree's stores are EpilogueDirect or EpilogueTmaStore");
  static_assert(!tree || !MB::Pingpong || std::is_same_v<TreeStores, EpilogueTmaStore>,
                "CollectiveEpilogueBuilder (SM90, ping-pong): an epilogue tree's stores are EpilogueTmaStore (a staging slot "
                "per consumer warpgroup, stored under the other's mainloop)");
  static constexpr Major d_major = std::is_same_v<Requested, EpilogueTmaStoreRowMajor> ? Major::Row : Major::Col;
  using Schedule = std::conditional_t<builder_detail::fused_activation<Requested>::is_fused || d_major == Major::Row,
                                      EpilogueTmaStore, std::conditional_t<tree, TreeStores, Requested>>;
  static_assert(std::is_same_v<Schedule, EpilogueTmaStore> || std::is_same_v<Schedule, EpilogueDirect>,
                "CollectiveEpilogueBuilder (SM90): the schedule is EpilogueTmaStore, EpilogueTmaStoreRowMajor, "
                "EpilogueTmaStoreFused<Act>, EpilogueDirect or EpilogueTree<Tree>");
  static_assert(d_major == Major::Col || (MB::BN % (1024 / (8 * int(sizeof(ElementD)))) == 0 && !MB::Pingpong),
                "CollectiveEpilogueBuilder (SM90): a row-major staging tile holds whole 128-byte rows (BN a multiple of 64 "
                "16-bit or 32 f32 elements), on the cooperative kernel");
  static_assert(std::is_same_v<ElementD, typename MB::ElementA> || std::is_same_v<ElementD, float> ||
                    (builder_detail::is_fp8<typename MB::ElementA> &&
                     (builder_detail::is_16bit_float<ElementD> || std::is_same_v<ElementD, float_e4m3_t>)),
                "CollectiveEpilogueBuilder (SM90): D in the inputs' type or f32 (FP8 inputs: bf16, f16, f32 or e4m3)");
  static_assert(!builder_detail::is_fp8<ElementD> ||
                    (std::is_same_v<ElementD, float_e4m3_t> && tree && std::is_same_v<TreeStores, EpilogueDirect>),
                "CollectiveEpilogueBuilder (SM90): an FP8 D is e4m3, written by an epilogue tree with direct stores "
                "(EpilogueTree<Tree, EpilogueDirect, ...>: the TMA staging holds 16- and 32-bit D only)");
  static_assert(!std::is_same_v<Schedule, EpilogueTmaStore> || AlignD * int(sizeof(ElementD)) % 16 == 0,
                "CollectiveEpilogueBuilder (SM90): TMA stores need a 16-byte aligned D (AlignD * element bytes a "
                "multiple of 16)");
  static_assert(!MB::Pingpong || std::is_same_v<Schedule, EpilogueTmaStore>,
                "CollectiveEpilogueBuilder (SM90, ping-pong): the epilogue is EpilogueTmaStore (a staging slot per "
                "consumer warpgroup, stored under the other's mainloop)");
  static constexpr int smem_bytes = sm90_epilogue_smem_bytes<Schedule>(MB::ConsumerWarpgroups, MB::EpilogueSlots);
  static_assert(sizeof(typename MB::template KernelStorage<Sm90EpilogueSharedStorage<Schedule, MB::ConsumerWarpgroups * MB::EpilogueSlots>,
                                                           MB::Stages>) <= std::size_t(MB::ArchTag::smem_capacity),
                "CollectiveEpilogueBuilder (SM90): the mainloop's stages and the epilogue's staging exceed the shared "
                "memory of a CTA (use StageCountAutoCarveout or fewer stages)");
  using CollectiveOp = std::conditional_t<
      tree,
      std::conditional_t<std::is_same_v<TreeStores, EpilogueTmaStore>,
                         sm90::CollectiveEpilogueSm90TreeTmaStore<ElementD, MB::BM, MB::BN, MB::ConsumerWarpgroups, Tree, TreeFields,
                                                                                  MB::EpilogueSlots>,
                         sm90::CollectiveEpilogueSm90Tree<ElementD, Tree, TreeFields>>,
      std::conditional_t<std::is_same_v<Schedule, EpilogueTmaStore>,
                         sm90::CollectiveEpilogueSm90TmaStore<ElementD, MB::BM, MB::BN, MB::ConsumerWarpgroups, fused, MB::EpilogueSlots,
                                                              d_major>,
                         sm90::CollectiveEpilogueSm90Direct<ElementD>>>;
};

}  // namespace tessera::kernels
