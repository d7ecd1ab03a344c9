// Collective mainloop, SM90: TMA loads into a multi-stage shared-memory ring (mbarrier
// pipeline), wgmma (SS: both operands from shared memory through descriptors derived from
// the GMMA smem layouts) by the consumer warpgroups.
//
//   CollectiveMainloopSm90TmaWgmma<Policy, TileShape, Element, MajorA, MajorB, SwizzleBytes, ElementB>
//     Policy     MainloopTmaWarpSpecializedCooperative<Stages, ConsumerWarpgroups>
//     TileShape  tuple<C<BM>, C<BN>, C<BK>>: the CTA tile; consumer warpgroup w takes rows
//                64w .. 64w+63 of each 64 * ConsumerWarpgroups (the TiledMma's M repeats:
//                BM / (64 * ConsumerWarpgroups) of them, 2 for the cooperative 256-row tile and
//                ping-pong's 128) and all BN columns
//     Element    bfloat16_t or half_t (f32 accumulation); float: f32 words in gmem and smem,
//                multiplied as tf32 (wgmma m64nNk8, A and B K-major only); float_e4m3_t or
//                float_e5m2_t: FP8 (wgmma m64nNk32, A and B K-major only), A's type
//     ElementB   B's type (default: Element; FP8: the other 8-bit type may be B's)
// FP8 accumulates every k-block in the wgmma's f32 accumulators (no periodic promotion into
// a second set of registers: the per-tensor and rowwise scales are applied once, in the
// epilogue), but under a block-scaled policy (Policy::BlockScaled: DeepSeek-V3's scales,
// ScaleMode::Block, D row-major so that A is the caller's B): each 128-element k-tile
// accumulates into a fragment of its own (ScaleOut::Zero at its first k-block), which the
// consumers multiply by the k-tile's scales and add into the accumulators ("promotion" to f32
// registers every 128 k). Scales: A's one per 128 x 128 block (one per tile and k-tile: BM =
// 128), read by the consumers from global memory a k-tile ahead; B's one per row and k-tile,
// a vector of BN f32 that the producer's TMA copies into the stage beside A and B (each
// consumer thread needs BN/4 of them per k-tile: from shared memory, where the stage's
// barrier already orders them). Under Policy::Rows == ScaledRows::RowsOfA the roles turn (D
// row-major, not swapped: A the tokens with per-row scales, BM f32 in the stage; B the weight
// with its 128 x 128 blocks, one scalar per 128 columns and k-tile): a consumer thread then
// needs 2 row scales per k-tile and releases the stage before it promotes.
// Shared memory per operand: the GMMA layout atom tiled to (BM|BN, BK, Stages); one stage is
// what one tile's TMA copies fill (their boxes and expect-tx bytes: copy_sm90_tma.hpp).
#pragma once

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include <tessera/algorithm/copy_tma.hpp>
#include <tessera/algorithm/gemm.hpp>
#include <tessera/atom/tma_encode.hpp>
#include <tessera/atom/gmma_descriptor.hpp>
#include <tessera/atom/mma_sm90.hpp>
#include <tessera/atom/mma_sm90_8bit.hpp>
#include <tessera/pipeline/tma_pipeline.hpp>
#include <tessera/tiled_mma.hpp>

#include "../arch/named_barrier.cuh"
#include "../kernel/sm90_shared_storage.hpp"
#include "../kernel/stream_k_scheduler.hpp"
#include "sm90_block_promotion.hpp"
#include "sm90_block_scaled_turns.hpp"
#include "sm90_contract.hpp"
#include "sm90_dispatch_policy.cuh"
#include "sm90_tensor_map_type.hpp"
#include "sm90_tma_plan.hpp"

namespace tessera::kernels::sm90 {

namespace detail {
template <class ElementA, class ElementB, int N, GMMA::Major MA, GMMA::Major MB>
struct wgmma_for;
template <int N, GMMA::Major MA, GMMA::Major MB>
struct wgmma_for<bfloat16_t, bfloat16_t, N, MA, MB> { using type = SM90_64xNx16_F32BF16BF16_SS<N, MA, MB>; };
template <int N, GMMA::Major MA, GMMA::Major MB>
struct wgmma_for<half_t, half_t, N, MA, MB> { using type = SM90_64xNx16_F32F16F16_SS<N, MA, MB>; };
template <int N, GMMA::Major MA, GMMA::Major MB>
struct wgmma_for<float, float, N, MA, MB> { using type = SM90_64xNx8_F32TF32TF32_SS<N, MA, MB>; };
// 8-bit: K-major only (the atoms take no majors)
template <int N>
struct wgmma_for<float_e4m3_t, float_e4m3_t, N, GMMA::Major::K, GMMA::Major::K> { using type = SM90_64xNx32_F32E4M3E4M3_SS<N>; };
template <int N>
struct wgmma_for<float_e4m3_t, float_e5m2_t, N, GMMA::Major::K, GMMA::Major::K> { using type = SM90_64xNx32_F32E4M3E5M2_SS<N>; };
template <int N>
struct wgmma_for<float_e5m2_t, float_e4m3_t, N, GMMA::Major::K, GMMA::Major::K> { using type = SM90_64xNx32_F32E5M2E4M3_SS<N>; };
template <int N>
struct wgmma_for<float_e5m2_t, float_e5m2_t, N, GMMA::Major::K, GMMA::Major::K> { using type = SM90_64xNx32_F32E5M2E5M2_SS<N>; };

}  // namespace detail

// How the mainloop's tensor maps cut an operand tile (a type the caller of
// to_underlying_arguments picks; the library takes the default): TMA dims divided by the
// smem tile's structure where they apply (fewer, larger boxes), or one dim per gmem mode
// (bench --mode-boxes compares them).
struct TmaBoxesDivided {};
struct TmaBoxesPerMode {};

template <class Policy, class TileShape, class Element_, GMMA::Major MajorA_, GMMA::Major MajorB_, int SwizzleBytes = 128,
          class ElementB_ = Element_>
struct CollectiveMainloopSm90TmaWgmma {
  using Element = Element_;  // A's
  using ElementB = ElementB_;
  static_assert(sizeof_bits_v<ElementB> == sizeof_bits_v<Element>, "A and B have one width (their smem atoms and TMA plans are one)");
  static constexpr GMMA::Major MajorA = MajorA_, MajorB = MajorB_;
  static constexpr int BM = int(get<0>(TileShape{})), BN = int(get<1>(TileShape{})), BK = int(get<2>(TileShape{}));
  static constexpr int Stages = Policy::Stages;
  static constexpr int Bits = sizeof_bits_v<Element>;
  static constexpr int ConsumerWarpgroups = Policy::ConsumerWarpgroups;
  static constexpr int Policy_ProducerRegisters = Policy::ProducerRegisters;
  static constexpr int Policy_ConsumerRegisters = Policy::ConsumerRegisters;
  static constexpr bool BlockScaled = Policy::BlockScaled;
  static constexpr ConsumerIssue Issue = Policy::Issue;  // (block-scaled: whether the consumers issue in turns)
  static constexpr BlockPromotion Promotion = Policy::Promotion;  // (RowsOfA: whether a k-tile is promoted under the next)
  static_assert(!BlockScaled || (Bits == 8 && BK == 128 && (BM == 128 || Policy::Rows == ScaledRows::RowsOfA) && BM % 128 == 0),
                "block scales: FP8, BK = 128; BM = 128 (one scale block of A per tile and k-tile) unless A carries the row "
                "scales (RowsOfA: any multiple of 128 rows, promoted atom by atom past 64 per consumer warpgroup)");
  // Whose rows carry the per-row scales: B's (the tile's columns) or A's (the tile's rows; then
  // B carries the 128 x 128 blocks, BN / 128 of them per tile).
  static constexpr bool RowsOfA = Policy::Rows == ScaledRows::RowsOfA;
  static_assert(!RowsOfA || BN % scale_block == 0, "row scales of A: the tile's columns are whole 128-column blocks of B");
  // The tile's scaled rows: BN of B's, or BM of A's.
  static constexpr int scaled_rows = RowsOfA ? BM : BN;
  // A stage's row scales (block-scaled: scaled_rows f32, TMA-copied).
  static constexpr int stage_scale_bytes = BlockScaled ? scaled_rows * int(sizeof(float)) : 0;
  static_assert(BM % (64 * ConsumerWarpgroups) == 0, "each consumer warpgroup takes whole 64-row wgmma atoms of the CTA tile");
  static_assert(BN % 8 == 0 && BN <= 256, "one wgmma covers the CTA tile's N: a multiple of 8 up to 256");

  // The TiledMma: ConsumerWarpgroups wgmma atoms along M (CuTe's order: (V, M, N) fragments).
  using Wgmma = typename detail::wgmma_for<Element, ElementB, BN, MajorA, MajorB>::type;
  static constexpr int AtomK = int(get<2>(typename MMA_Traits<Wgmma>::Shape_MNK{}));  // 16 (f16/bf16), 8 (tf32), 32 (8-bit)
  static_assert(BK % AtomK == 0, "BK is whole wgmma k-blocks");
  using TiledMma = decltype(make_tiled_mma(MMA_Atom<Wgmma>{}, make_layout(make_shape(C<ConsumerWarpgroups>{}, _1{}, _1{}))));
  // The TiledMma's M repeat over the CTA tile: a tile taller than the TiledMma's 64 *
  // ConsumerWarpgroups rows is covered AtomsM times (ping-pong 128 x BN per consumer: 2), and
  // each consumer thread holds AtomsM atoms' accumulators, the C fragment (V, AtomsM, 1) of
  // partition_C over the tile: value v of repeat i is register v + V i.
  static constexpr int AtomsM = BM / int(TiledMma::template tile_size_mnk<0>());
  static constexpr int AtomValues = int(sizeof(typename Wgmma::DRegisters) / sizeof(float));
  struct Accumulators {
    float v[AtomsM * AtomValues];
    __device__ __forceinline__ float& operator[](int i) { return v[i]; }
    __device__ __forceinline__ float const& operator[](int i) const { return v[i]; }
  };
  static_assert(AtomsM * AtomValues * int(TiledMma::num_threads()) == BM * BN, "one accumulator per element of the CTA tile");

  // Shared memory: one stage of each operand (what TMA fills), and the ring of them.
  // MN-major atoms walk K first: then a TMA box runs the whole BK (one box per 64 MN
  // elements) instead of ending at every 8-row atom.
  template <GMMA::Major MJ> using AtomOrder = std::conditional_t<MJ == GMMA::Major::K, tuple<_1, _2, _3>, tuple<_2, _1, _3>>;
  static constexpr auto smem_a =
      GMMA::make_smem_layout<Bits, MajorA, SwizzleBytes>(make_shape(C<BM>{}, C<BK>{}, C<Stages>{}), AtomOrder<MajorA>{});
  static constexpr auto smem_b =
      GMMA::make_smem_layout<Bits, MajorB, SwizzleBytes>(make_shape(C<BN>{}, C<BK>{}, C<Stages>{}), AtomOrder<MajorB>{});
  static constexpr auto stage_a = GMMA::make_smem_layout<Bits, MajorA, SwizzleBytes>(
      make_shape(C<BM>{}, C<BK>{}), take<0, 2>(AtomOrder<MajorA>{}));
  static constexpr auto stage_b = GMMA::make_smem_layout<Bits, MajorB, SwizzleBytes>(
      make_shape(C<BN>{}, C<BK>{}), take<0, 2>(AtomOrder<MajorB>{}));
  static constexpr int stage_a_bytes = int(cosize(stage_a.inner())) * Bits / 8;
  static constexpr int stage_b_bytes = int(cosize(stage_b.inner())) * Bits / 8;
  static_assert(int(cosize(smem_a.inner())) * Bits / 8 == Stages * stage_a_bytes, "stages lie one after another");
  static_assert(stage_a_bytes % 1024 == 0 && stage_b_bytes % 1024 == 0, "each stage starts on the swizzle's 1 KiB repeat");

  // A cluster along M shares B: CTA r loads part r of the B tile, (BN / ClusterM) x BK, multicast
  // to all. A cluster along N shares A the same way: part r of the A tile, (BM / ClusterN) x BK.
  static constexpr int ClusterM = Policy::ClusterM;
  static constexpr int ClusterN = Policy::ClusterN;
  static constexpr int ClusterSize = ClusterM * ClusterN;
  static_assert(ClusterM == 1 || ClusterN == 1, "a cluster runs along M or along N");
  static_assert(BN % (8 * ClusterM) == 0, "the B tile splits into whole 8-row parts");
  static_assert(BM % (8 * ClusterN) == 0, "the A tile splits into whole 8-row parts");
  static_assert(!BlockScaled || ClusterN == 1, "block scales: clusters along M (the scales' copies follow the CTA's A tile)");
  static constexpr auto part_a = GMMA::make_smem_layout<Bits, MajorA, SwizzleBytes>(
      make_shape(C<BM / ClusterN>{}, C<BK>{}), take<0, 2>(AtomOrder<MajorA>{}));
  static constexpr auto part_b = GMMA::make_smem_layout<Bits, MajorB, SwizzleBytes>(
      make_shape(C<BN / ClusterM>{}, C<BK>{}), take<0, 2>(AtomOrder<MajorB>{}));
  static constexpr int MaxBoxes = 4;
  using TmaOpA = std::conditional_t<ClusterN == 1, SM90_TMA_LOAD, SM90_TMA_LOAD_MULTICAST>;
  using TmaOpB = std::conditional_t<ClusterM == 1, SM90_TMA_LOAD, SM90_TMA_LOAD_MULTICAST>;
  // Each operand's TMA arrangements (part_a and part_b: this CTA's part of the operand's tile,
  // the whole tile where the cluster does not share it). The
  // device adapter picks one per operand (Params::arrangement_x) from plan() and the producer
  // issues the same plan's boxes with every box property an immediate (copy_static over
  // BoxesOf). The boxes are evaluated at compile time in device code only; the host derives
  // the plans at run time (plan(), once per kernel type): the host compiler's constant
  // evaluation of them is slow.
  using Plan = TmaPlan<MaxBoxes>;
  static constexpr bool KMajorA = MajorA == GMMA::Major::K, KMajorB = MajorB == GMMA::Major::K;
  template <int Operand>
  static constexpr Plan make_plan(TmaArrangement arrangement) {
    if constexpr (Operand == 0) return make_tma_plan<MaxBoxes, Bits>(part_a, KMajorA, BM / ClusterN, BK, arrangement);
    else return make_tma_plan<MaxBoxes, Bits>(part_b, KMajorB, BN / ClusterM, BK, arrangement);
  }
  template <int Operand, TmaArrangement Arrangement>
  using BoxesOf = std::conditional_t<
      Operand == 0, TmaPlanBoxes<MaxBoxes, Bits, std::remove_cvref_t<decltype(part_a)>, KMajorA, BM / ClusterN, BK, Arrangement>,
      TmaPlanBoxes<MaxBoxes, Bits, std::remove_cvref_t<decltype(part_b)>, KMajorB, BN / ClusterM, BK, Arrangement>>;
  static_assert(is_static_v<std::remove_cvref_t<decltype(part_a)>> && is_static_v<std::remove_cvref_t<decltype(part_b)>>,
                "the stage tiles are static (their types name them, as TmaPlanBoxes needs)");
  // (host) operand 0 (A) or 1 (B).
  static const Plan& plan(int operand, TmaArrangement arrangement) {
    static const Plan plans[2][4] = {
        {runtime_plan<0>(tma_arrangements[0]), runtime_plan<0>(tma_arrangements[1]), runtime_plan<0>(tma_arrangements[2]),
         runtime_plan<0>(tma_arrangements[3])},
        {runtime_plan<1>(tma_arrangements[0]), runtime_plan<1>(tma_arrangements[1]), runtime_plan<1>(tma_arrangements[2]),
         runtime_plan<1>(tma_arrangements[3])}};
    return plans[operand][int(arrangement)];
  }
  template <int Operand>
  static Plan runtime_plan(TmaArrangement arrangement) { return make_plan<Operand>(arrangement); }  // (not constexpr: derived at run time)
  using Pipeline = pipeline::TmaPipeline<Stages, pipeline::DeviceMbarrier>;
  using PipelineState = pipeline::PipelineState<Stages>;
  // Empty barriers count one arrival per consumer warp (each warp's lane 0 after its wgmma
  // wait) of every CTA in the cluster: each CTA's producer writes into all of their stages.
  static constexpr int ConsumerArrivals = GMMA::warpgroup_threads / 32 * ConsumerWarpgroups * ClusterSize;

  using SharedStorage = MainloopSharedStorage<stage_a_bytes, stage_b_bytes, Stages, stage_scale_bytes>;
  static_assert(stage_a_bytes == BM * BK * Bits / 8 && stage_b_bytes == BN * BK * Bits / 8,
                "the GMMA atoms tile a stage densely (the builder sizes the ring by the tiles' bytes)");

  // Kernel parameters: the tensor maps (64-byte aligned, passed in a __grid_constant__
  // parameter) and each operand's arrangement (its boxes are static: BoxesOf).
  struct Params {
    CUtensorMap map_a;
    CUtensorMap map_b;
    TmaArrangement arrangement_a = TmaArrangement::per_mode;  // plan(0, ·), BoxesOf<0, ·>
    TmaArrangement arrangement_b = TmaArrangement::per_mode;  // the same for part_b (the whole B tile without a cluster)
    // Where part r of the shared operand's tile starts in its stage (bytes): B's along M, A's
    // along N (0 without a cluster).
    uint32_t part_offset[ClusterSize] = {};
    int k_tiles = 0;
    // Block-scaled only: the row scales (B's: (N, ceil(K/128)); RowsOfA, A's: (M, ceil(K/128)))
    // with strides (1, ld), and the other operand's block scales (A's (ceil(M/128), ceil(K/128));
    // RowsOfA, B's (ceil(N/128), ceil(K/128))) row-major.
    struct BlockScales {
      CUtensorMap map_rows;
      const float* blocks = nullptr;
      int64_t blocks_ld = 0;
      int64_t block_rows = 0;  // ceil(M/128) (RowsOfA: ceil(N/128))
    };
    struct NoScales {};
    std::conditional_t<BlockScaled, BlockScales, NoScales> scales;
  };

  // ---- contract (host): what it reads, what it refuses, its kernel parameters.
  struct Arguments {
    kernels::Element element = element_enum_of<Element>();  // A's (checked against the build's)
    bool allow_tf32 = false;  // f32 inputs: multiplied as tf32 only with the caller's consent
    Operand a, b;             // A (M x K) and B (K x N): pointer, major, ld, batch stride (elements)
    kernels::Element element_b = element_enum_of<ElementB>();  // B's
    // FP8's scales as the mainloop sees them (block-scaled kernels only apply them): A's per
    // 128 x 128 block, B's per row and 128-k group (the caller's B and A: a row-major D swapped);
    // RowsOfA: A's per row and 128-k group, B's per 128 x 128 block (the caller's, unswapped).
    ScaleMode scale_mode = ScaleMode::PerTensor;
    const float* scale_a = nullptr;
    const float* scale_b = nullptr;
    int64_t ld_scale_b = 0;  // the row scales' distance between k-groups (B's; RowsOfA: A's)
  };
  static Arguments arguments_of(GemmArguments const& g) {
    // (block scales: the row scales' leading dimension as the library reads it, the caller's or
    // M rounded up to 4; a D^T view carries it from transposed(), a row-major D's is the caller's)
    return {g.element, g.allow_tf32, g.a, g.b, kernels::element_b(g), g.scale_mode, g.scale_a, g.scale_b,
            g.scale_mode == ScaleMode::Block ? block_scale_ld(g) : g.ld_scale_a};
  }

  // Block-scaled: the TMA arguments of the row scales, (rows, KB) with strides (1, ld), one box
  // of the tile's scaled_rows rows of one k-group per stage (rows past the extent come as zeros).
  // rows: N (B's rows), or M (RowsOfA).
  static tma::Arguments row_scale_arguments(int64_t n, int64_t k, int64_t ld) {
    const int64_t extent[2] = {n, (k + scale_block - 1) / scale_block}, stride[2] = {1, ld}, tile[1] = {scaled_rows};
    return tma::derive_arguments(32, 2, extent, stride, 1, tile, 0, 0, 0, [](const int64_t* c) { return c[0]; });
  }
  // A is K-major when row-major (M x K); B (K x N) is K-major when column-major.
  static constexpr Major a_major = KMajorA ? Major::Row : Major::Col;
  static constexpr Major b_major = KMajorB ? Major::Col : Major::Row;

  // Each operand's arrangement (Params::arrangement_x) and its plan rebound to the problem's
  // tensors, or the refusal: the divided arrangement where the problem takes it (Boxes =
  // TmaBoxesDivided), else the per-mode one.
  struct Binding {
    GemmResult status;
    TmaArrangement arrangement_a = TmaArrangement::per_mode, arrangement_b = TmaArrangement::per_mode;
    tma::Arguments a, b;
  };
  template <class Boxes = TmaBoxesDivided>
  static Binding bind(GemmProblemShape const& problem, Arguments const& args) {
    const int64_t m = problem_m(problem), n = problem_n(problem), k = problem_k(problem), l = problem_l(problem);
    const bool batched = l > 1;
    // The operands as (rows, K[, L]) tensors: A (M, K), B (N, K).
    const int64_t a_ext[3] = {m, k, l}, b_ext[3] = {n, k, l};
    const int64_t a_str[3] = {KMajorA ? args.a.ld : 1, KMajorA ? 1 : args.a.ld, args.a.batch_stride};
    const int64_t b_str[3] = {KMajorB ? args.b.ld : 1, KMajorB ? 1 : args.b.ld, args.b.batch_stride};
    const int modes = batched ? 3 : 2;
    const TmaArrangement divided = tma_arrangement(batched, true), per_mode = tma_arrangement(batched, false);
    // The arrangement chosen and its arguments rebound, or false where TMA cannot copy the tile.
    auto choose = [&](int operand, const int64_t* ext, const int64_t* str, tma::Arguments& bound, TmaArrangement& chosen) -> bool {
      if constexpr (std::is_same_v<Boxes, TmaBoxesDivided>) {
        const Plan& d = plan(operand, divided);
        if (d.boxes.ok()) {
          bound = tma::rebind_gmem(d.args, modes, ext, str);
          chosen = divided;
          if (bound.rule == tma::Rule::ok) return true;
        }
      }
      const Plan& p = plan(operand, per_mode);
      if (!p.boxes.ok()) return false;
      bound = tma::rebind_gmem(p.args, modes, ext, str);
      chosen = per_mode;
      return true;
    };
    Binding b;
    const bool ok_a = choose(0, a_ext, a_str, b.a, b.arrangement_a);
    const bool ok_b = choose(1, b_ext, b_str, b.b, b.arrangement_b);
    if (!ok_a || !ok_b)
      b.status = {GemmStatus::Unsupported, std::string("sm90 kernel: TMA cannot copy the operand tiles: ") +
                                               tma::to_string(plan(0, per_mode).boxes.rule) + " / " +
                                               tma::to_string(plan(1, per_mode).boxes.rule)};
    else if (b.a.rule != tma::Rule::ok || b.b.rule != tma::Rule::ok)
      b.status = {GemmStatus::Misaligned, std::string("sm90 kernel: ") + tma::to_string(b.a.rule != tma::Rule::ok ? b.a.rule : b.b.rule)};
    return b;
  }

  static GemmResult can_implement(GemmProblemShape const& problem, Arguments const& args) {
    constexpr kernels::Element built = element_enum_of<Element>(), built_b = element_enum_of<ElementB>();
    if (args.element != built || args.element_b != built_b)
      return {GemmStatus::Unsupported, std::string("the sm90 kernel was built for ") +
                                           (built == built_b ? std::string(to_string(built))
                                                             : std::string("A ") + to_string(built) + " and B " + to_string(built_b))};
    if (built == kernels::Element::F32 && !args.allow_tf32)
      return {GemmStatus::Unsupported, "the sm90 kernel multiplies f32 inputs as tf32 only: set allow_tf32 (else the SIMT kernel runs them in f32)"};
    if (args.a.major != a_major || args.b.major != b_major)
      return {GemmStatus::Unsupported, "the sm90 kernel was built for other operand majors"};
    // TMA: 16-byte aligned base addresses and strides (ld and batch strides whole 16 bytes).
    constexpr int64_t per16 = 16 / int64_t(sizeof(Element));
    auto aligned16 = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
    const bool batched = problem_l(problem) > 1;
    if (!aligned16(args.a.ptr) || !aligned16(args.b.ptr) || args.a.ld % per16 != 0 || args.b.ld % per16 != 0 ||
        (batched && (args.a.batch_stride % per16 != 0 || args.b.batch_stride % per16 != 0)))
      return {GemmStatus::Misaligned, "the sm90 kernel's TMA copies need 16-byte aligned A/B, leading dimensions and batch strides"};
    // TMA coordinates are 32-bit.
    constexpr int64_t limit = int64_t(1) << 31;
    if (problem_m(problem) >= limit || problem_n(problem) >= limit || problem_k(problem) >= limit || problem_l(problem) >= limit)
      return {GemmStatus::InvalidSize, "the sm90 kernel addresses M, N, K, L below 2^31"};
    if (BlockScaled != (args.scale_mode == ScaleMode::Block))
      return {GemmStatus::Unsupported, BlockScaled ? "this sm90 kernel applies block scales (scale_mode = block) only"
                                                   : "this sm90 kernel does not apply block scales (scale_mode = block)"};
    if constexpr (BlockScaled) {
      if (problem_l(problem) != 1) return {GemmStatus::Unsupported, "the block-scaled sm90 kernel runs one batch"};
      if (const tma::Arguments r = row_scale_arguments(scaled_extent(problem), problem_k(problem), args.ld_scale_b); r.rule != tma::Rule::ok)
        return {GemmStatus::Misaligned, std::string("the block-scaled sm90 kernel's TMA copies of the row scales: ") + tma::to_string(r.rule)};
    }
    return bind(problem, args).status;
  }
  static std::size_t get_workspace_size(GemmProblemShape const&, Arguments const&) { return 0; }
  // The extent of the operand whose rows carry the row scales (N, or M under RowsOfA) and of the
  // one that carries the 128 x 128 blocks.
  static int64_t scaled_extent(GemmProblemShape const& problem) { return RowsOfA ? problem_m(problem) : problem_n(problem); }
  static int64_t blocked_extent(GemmProblemShape const& problem) { return RowsOfA ? problem_n(problem) : problem_m(problem); }
  // Block-scaled: where the kernel's Params take each kind of scale from. The row scales (the
  // stage's TMA copy: (rows_extent, KB) with strides (1, rows_ld)) are the scaled operand's (B's
  // scale_b; RowsOfA, A's scale_a), the 128 x 128 blocks ((block_rows, blocks_ld) row-major) the
  // other one's: the roles follow the operands, not the field names.
  struct ScaleSources {
    const float* rows = nullptr;
    int64_t rows_extent = 0, rows_ld = 0;
    const float* blocks = nullptr;
    int64_t blocks_ld = 0, block_rows = 0;
  };
  static ScaleSources scale_sources(GemmProblemShape const& problem, Arguments const& args) {
    return {RowsOfA ? args.scale_a : args.scale_b,
            scaled_extent(problem),
            args.ld_scale_b,
            RowsOfA ? args.scale_b : args.scale_a,
            (problem_k(problem) + scale_block - 1) / scale_block,
            (blocked_extent(problem) + scale_block - 1) / scale_block};
  }
  // The element of the block scales that 128-row block b reads for k-group kb (blocks past the
  // extent read the last one's: a tile's padding that nobody stores).
  __host__ __device__ static constexpr int64_t block_scale_index(int64_t b, int64_t kb, int64_t block_rows, int64_t blocks_ld) {
    return (b < block_rows ? b : block_rows - 1) * blocks_ld + kb;
  }
  // The block-scaled k-loop's first 128-row block of the blocked operand for CTA tile (m, n)
  // (m counts the cluster's CTAs): A's 128-row block m (BM = 128), or B's first block of tile n.
  __host__ __device__ static constexpr int64_t block_scale_tile(int64_t m, int64_t n) { return RowsOfA ? n * (BN / scale_block) : m; }
  // The first row scale of a stage's copy for CTA tile (m, n): B's row n BN, or A's row m BM.
  __host__ __device__ static constexpr int32_t scaled_row0(int64_t m, int64_t n) { return int32_t(RowsOfA ? m * BM : n * BN); }

  // The tensor maps of A and B in the arrangements bind() chose, each CTA's part of the shared
  // tile, the k-tiles.
  template <class Boxes = TmaBoxesDivided>
  static Params to_underlying_arguments(GemmProblemShape const& problem, Arguments const& args, void* /*workspace*/, GemmResult& status) {
    Params ml{};
    const Binding b = bind<Boxes>(problem, args);
    if (!b.status) {
      status = b.status;
      return ml;
    }
    if (tma::encode_tensor_map(&ml.map_a, b.a, args.a.ptr, tensor_map_type_of<Element>()) != CUDA_SUCCESS ||
        tma::encode_tensor_map(&ml.map_b, b.b, args.b.ptr, tensor_map_type_of<ElementB>()) != CUDA_SUCCESS)
      status = {GemmStatus::LaunchFailed, "cuTensorMapEncodeTiled refused the operands' tensor maps"};
    ml.arrangement_a = b.arrangement_a;
    ml.arrangement_b = b.arrangement_b;
    // Part r of a shared tile starts at its first row's offset in the stage layout.
    for (int r = 0; r < ClusterSize; ++r)
      ml.part_offset[r] = uint32_t(int64_t(ClusterN > 1 ? stage_a(r * (BM / ClusterN), 0) : stage_b(r * (BN / ClusterM), 0)) * Bits / 8);
    ml.k_tiles = int((problem_k(problem) + BK - 1) / BK);
    if constexpr (BlockScaled) {
      const ScaleSources src = scale_sources(problem, args);
      const tma::Arguments rows = row_scale_arguments(src.rows_extent, problem_k(problem), src.rows_ld);
      if (tma::encode_tensor_map(&ml.scales.map_rows, rows, src.rows, CU_TENSOR_MAP_DATA_TYPE_FLOAT32) != CUDA_SUCCESS)
        status = {GemmStatus::LaunchFailed, "cuTensorMapEncodeTiled refused the row scales' tensor map"};
      ml.scales.blocks = src.blocks;
      ml.scales.blocks_ld = src.blocks_ld;
      ml.scales.block_rows = src.block_rows;
    }
    return ml;
  }

  __device__ static void init(SharedStorage& s) {
    s.pipe.init(ConsumerArrivals, uint32_t(stage_a_bytes + stage_b_bytes + stage_scale_bytes));
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
#endif
  }

  __device__ static void prefetch_tensor_maps(Params const& p) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("prefetch.tensormap [%0];\n" ::"l"(reinterpret_cast<uint64_t>(&p.map_a)) : "memory");
    asm volatile("prefetch.tensormap [%0];\n" ::"l"(reinterpret_cast<uint64_t>(&p.map_b)) : "memory");
    if constexpr (BlockScaled) asm volatile("prefetch.tensormap [%0];\n" ::"l"(reinterpret_cast<uint64_t>(&p.scales.map_rows)) : "memory");
#endif
  }

  // One stage's copies of operand `Operand` (0: A, 1: B) in the arrangement the adapter
  // chose: a branch on a kernel parameter over the arrangements, then immediates only
  // (copy_static). An operand the cluster shares (A along N, B along M) goes to every CTA of the
  // cluster (multicast); otherwise to this CTA only.
  template <int Operand>
  __device__ __forceinline__ static void issue(TmaArrangement arrangement, void const* map, uint32_t bar, tma::Coord const& origin,
                                               uint32_t smem) {
    constexpr int sharers = Operand == 0 ? ClusterN : ClusterM;  // the CTAs the operand's tile is shared by
    using Op = std::conditional_t<Operand == 0, TmaOpA, TmaOpB>;
    auto one = [&]<TmaArrangement A>(std::integral_constant<TmaArrangement, A>) {
      constexpr auto boxes = BoxesOf<Operand, A>::value;
      if constexpr (boxes.ok()) {
        // every arrangement brings a whole stage, or this CTA's part of a shared one: what the barrier expects
        static_assert(boxes.tx_bytes * sharers == uint32_t(Operand == 0 ? stage_a_bytes : stage_b_bytes),
                      "the boxes of a stage tile bring the stage's bytes");
        if constexpr (sharers == 1) copy_static<BoxesOf<Operand, A>>(Op{}, map, bar, origin, smem);
        else copy_static<BoxesOf<Operand, A>>(Op{}, map, bar, origin, smem, uint16_t((1u << sharers) - 1u));
      }
    };
    [&]<int... I>(std::integer_sequence<int, I...>) {
      ((arrangement == TmaArrangement(I) ? one(std::integral_constant<TmaArrangement, TmaArrangement(I)>{}) : void()), ...);
    }(std::make_integer_sequence<int, tma_arrangement_count>{});
  }

  // The copies' smem tiles as (rows, BK) shapes: what their coordinate tensors are cut by.
  static constexpr auto tile_a = product_each(shape(stage_a));
  static constexpr auto tile_b = product_each(shape(stage_b));
  static constexpr auto tile_part_a = product_each(shape(part_a));
  static constexpr auto tile_part_b = product_each(shape(part_b));

  // CTA `rank`'s tile of cluster tile (m, n) (cta_tile_of, stream_k_scheduler.hpp): a cluster
  // along M takes ClusterM consecutive M-tiles of one N column, a cluster along N ClusterN
  // consecutive N-tiles of one M row. (Each mode on its own: a cluster spans one mode.)
  TESSERA_HOST_DEVICE static constexpr int64_t cta_tile_m(int64_t m, int rank) {
    return cta_tile_of(m, 0, ClusterShape{ClusterM, ClusterN}, rank).m;
  }
  TESSERA_HOST_DEVICE static constexpr int64_t cta_tile_n(int64_t n, int rank) {
    return cta_tile_of(0, n, ClusterShape{ClusterM, ClusterN}, rank).n;
  }
  // The coordinate tensors of CTA `rank`'s copies for cluster tile (m, n, l) (sm90_tma_plan.hpp):
  // A's tile or its part of the cluster's shared A tile, the same of B.
  template <class I>
  __device__ __forceinline__ static auto copy_coordinates_a(I const& m, I const& l, int rank) {
    constexpr auto tile = tile_a;
    constexpr auto copy = tile_part_a;
    return cta_copy_coordinates<ClusterM>(tile, copy, m, l, rank);
  }
  template <class I>
  __device__ __forceinline__ static auto copy_coordinates_b(I const& n, I const& l, int rank) {
    constexpr auto tile = tile_b;
    constexpr auto copy = tile_part_b;
    return cta_copy_coordinates<ClusterN>(tile, copy, n, l, rank);
  }

  // Producer (one thread): k-tiles k_begin .. k_end - 1 of one output tile into the ring.
  // `tAgA`, `tBgB`: this CTA's copies' coordinate tensors (rows, BK, k-tiles) of A and B (in a
  // cluster, its part of the shared tile; `rank` its place in the cluster): element (0, 0, k) is
  // where k-tile k's copy starts. `row0` (block-scaled): where the tile's row scales start
  // (scaled_row0).
  template <class CoordA, class CoordB>
  __device__ __forceinline__ static void load(Params const& p, SharedStorage& s, PipelineState& st, CoordA const& tAgA,
                                              CoordB const& tBgB, int rank, int k_begin, int k_end, int32_t row0 = 0) {
    load_through(p, &p.map_a, &p.map_b, s, st, tAgA, tBgB, rank, k_begin, k_end, row0);
  }
  // The same through other tensor maps of A and B (the grouped kernel's, rewritten per group
  // in global memory: arch/sm90_tensormap.cuh) with the boxes of p's arrangements.
  template <class CoordA, class CoordB>
  __device__ __forceinline__ static void load_through(Params const& p, void const* map_a, void const* map_b, SharedStorage& s,
                                                      PipelineState& st, CoordA const& tAgA, CoordB const& tBgB, int rank, int k_begin,
                                                      int k_end, int32_t row0 = 0) {
    uint32_t a0 = uint32_t(__cvta_generic_to_shared(s.a)), b0 = uint32_t(__cvta_generic_to_shared(s.b));
    if constexpr (ClusterN > 1) a0 += p.part_offset[rank];
    else b0 += p.part_offset[rank];
    const TmaArrangement arr_a = p.arrangement_a, arr_b = p.arrangement_b;
    for (int k = k_begin; k < k_end; ++k) {
      while (!s.pipe.producer_try_acquire(st)) {}
      s.pipe.producer_commit(st);  // expect the stage's bytes; the copies complete them
      const uint32_t bar = s.pipe.full_barrier(st).address();
      issue<0>(arr_a, map_a, bar, tma::coord_of(tAgA(_0{}, _0{}, k)), a0 + uint32_t(st.index * stage_a_bytes));
      issue<1>(arr_b, map_b, bar, tma::coord_of(tBgB(_0{}, _0{}, k)), b0 + uint32_t(st.index * stage_b_bytes));
      if constexpr (BlockScaled) {  // k-tile k is k-group k (BK = 128): its scales of the tile's scaled rows
        const int32_t at[2] = {row0, int32_t(k)};
        SM90_TMA_LOAD::copy(&p.scales.map_rows, bar, uint32_t(__cvta_generic_to_shared(s.scale)) + uint32_t(st.index * stage_scale_bytes),
                            2, at);
      }
      ++st;
    }
  }

  // The producer thread's whole role in a persistent kernel (the cooperative and the ping-pong
  // kernels call it): units first, first + step, ... of `scheduler`, each a cluster tile's
  // k-tiles (a K slice under split-K) into the ring, in the order the consumers take them.
  // CTA `rank` of the cluster loads its own tile of the cluster's A tiles and its part of the
  // B tile (sm90_tma_plan.hpp: the copies' partitions of the operands' coordinate tensors).
  template <class Scheduler>
  __device__ __forceinline__ static void produce(Params const& p, SharedStorage& s, Scheduler const& scheduler, int64_t first, int64_t step,
                                                 int rank) {
    PipelineState st;
    const int64_t units = scheduler.work_count();
    for (int64_t u = first; u < units; u += step) {
      const auto w = scheduler.work(u);
      const auto tAgA = copy_coordinates_a(int64_t(w.m), int64_t(w.l), rank);
      const auto tBgB = copy_coordinates_b(int64_t(w.n), int64_t(w.l), rank);
      load(p, s, st, tAgA, tBgB, rank, int(w.k_begin), int(w.k_end), scaled_row0(cta_tile_m(w.m, rank), cta_tile_n(w.n, rank)));
    }
  }

  // The producer thread's role over a walk of cluster steps (Stream-K: StreamKTileScheduler's
  // steps(cluster) and work(cluster, i), the sequence the consumers walk): each step's k-tiles
  // [k_begin, k_end) of its tile into the ring.
  template <class Scheduler>
  __device__ __forceinline__ static void produce_walk(Params const& p, SharedStorage& s, Scheduler const& scheduler, int64_t cluster,
                                                      int rank) {
    PipelineState st;
    const int64_t steps = scheduler.steps(cluster);
    for (int64_t i = 0; i < steps; ++i) {
      const auto w = scheduler.work(cluster, i);
      const auto tAgA = copy_coordinates_a(int64_t(w.m), int64_t(w.l), rank);
      const auto tBgB = copy_coordinates_b(int64_t(w.n), int64_t(w.l), rank);
      load(p, s, st, tAgA, tBgB, rank, int(w.k_begin), int(w.k_end), scaled_row0(cta_tile_m(w.m, rank), cta_tile_n(w.n, rank)));
    }
  }

  // A stage is free once every consumer warp of the cluster is done with it.
  __device__ __forceinline__ static void release(SharedStorage& s, PipelineState const& st) {
    if constexpr (ClusterSize == 1) s.pipe.consumer_release(st);
    else s.pipe.consumer_release_cluster(st, ClusterSize);
  }

  // Consumer warpgroup `wg`: accumulates k_tiles k-tiles into acc (overwritten). One
  // group of wgmmas stays in flight: a stage is released once the wgmmas that read it retired.
  // The wgmma operands are the TiledMma's partitions of the smem ring (descriptor fragments
  // (1, AtomsM, BK / AtomK, Stages) of A and (1, 1, BK / AtomK, Stages) of B: this warpgroup's
  // 64-row blocks wg + ConsumerWarpgroups i), the accumulators its C fragment over the CTA
  // tile, and gemm issues one wgmma per (k-block, M repeat).
  __device__ __forceinline__ static void mma(Params const&, SharedStorage& s, PipelineState& st, int wg, Accumulators& acc,
                                             int k_tiles) {
    // (local copies: nvcc does not take the static constexpr members' addresses in device code)
    constexpr auto ring_a = smem_a;
    constexpr auto ring_b = smem_b;
    const auto thr = TiledMma{}.get_slice(wg * GMMA::warpgroup_threads + int(threadIdx.x) % GMMA::warpgroup_threads);
    const auto tCrA = thr.partition_fragment_A(make_tensor(reinterpret_cast<Element*>(s.a), ring_a));
    const auto tCrB = thr.partition_fragment_B(make_tensor(reinterpret_cast<ElementB*>(s.b), ring_b));
    auto tCrC = make_tensor(&acc.v[0], partition_fragment_C(TiledMma{}, make_shape(C<BM>{}, C<BN>{})).layout());
    static_assert(decltype(size(tCrC.layout()))::value == AtomsM * AtomValues, "the C fragment is the thread's accumulators");
    const bool lane0 = (threadIdx.x % 32) == 0;
    PipelineState prev = st;
    GMMA::warpgroup_fence_operand(acc.v);
    for (int kt = 0; kt < k_tiles; ++kt) {
      while (!s.pipe.consumer_try_wait(st)) {}
      GMMA::warpgroup_fence_operand(acc.v);
      GMMA::warpgroup_arrive();
      gemm(TiledMma{}, tCrA(_, _, _, st.index), tCrB(_, _, _, st.index), tCrC, kt == 0 ? GMMA::ScaleOut::Zero : GMMA::ScaleOut::One);
      GMMA::warpgroup_commit_batch();
      GMMA::warpgroup_wait<1>();  // the previous k-tile's wgmmas have retired: release its stage
      GMMA::warpgroup_fence_operand(acc.v);
      if (kt > 0 && lane0) release(s, prev);
      prev = st;
      ++st;
    }
    GMMA::warpgroup_wait<0>();
    GMMA::warpgroup_fence_operand(acc.v);
    if (k_tiles > 0 && lane0) release(s, prev);
  }

  // The same mainloop in two calls, for the cooperative kernel's epilogue under the next tile
  // (EpilogueUnderNextTile): mma_head issues the wgmmas of the first `head` k-tiles (at most
  // k_tiles) and returns with them in flight, their stages held; the caller stages the
  // previous tile meanwhile (no accumulator is touched: they belong to the wgmmas); mma_tail
  // issues the rest as mma() does, each k-tile's wait then releasing every stage whose wgmmas
  // retired, and ends with all retired and released. The wgmmas, their order and scale-outs
  // are mma()'s: the same sums.
  struct InFlight {
    PipelineState oldest;  // the first stage not released
    int issued = 0;        // k-tiles issued (their stages held)
  };
  template <class Thr>
  __device__ __forceinline__ static void issue_k_tile(SharedStorage& s, PipelineState const& st, Thr const& thr, Accumulators& acc, bool first) {
    constexpr auto ring_a = smem_a;
    constexpr auto ring_b = smem_b;
    const auto tCrA = thr.partition_fragment_A(make_tensor(reinterpret_cast<Element*>(s.a), ring_a));
    const auto tCrB = thr.partition_fragment_B(make_tensor(reinterpret_cast<ElementB*>(s.b), ring_b));
    auto tCrC = make_tensor(&acc.v[0], partition_fragment_C(TiledMma{}, make_shape(C<BM>{}, C<BN>{})).layout());
    while (!s.pipe.consumer_try_wait(st)) {}
    GMMA::warpgroup_fence_operand(acc.v);
    GMMA::warpgroup_arrive();
    gemm(TiledMma{}, tCrA(_, _, _, st.index), tCrB(_, _, _, st.index), tCrC, first ? GMMA::ScaleOut::Zero : GMMA::ScaleOut::One);
    GMMA::warpgroup_commit_batch();
  }
  __device__ __forceinline__ static InFlight mma_head(SharedStorage& s, PipelineState& st, int wg, Accumulators& acc, int k_tiles,
                                                      int head) {
    static_assert(!BlockScaled, "the block-scaled mainloop waits for each k-tile (its promotion)");
    const auto thr = TiledMma{}.get_slice(wg * GMMA::warpgroup_threads + int(threadIdx.x) % GMMA::warpgroup_threads);
    InFlight f{st, 0};
    GMMA::warpgroup_fence_operand(acc.v);
    for (; f.issued < head && f.issued < k_tiles; ++f.issued) {
      issue_k_tile(s, st, thr, acc, f.issued == 0);
      ++st;
    }
    GMMA::warpgroup_fence_operand(acc.v);
    return f;
  }
  __device__ __forceinline__ static void mma_tail(SharedStorage& s, PipelineState& st, int wg, Accumulators& acc, int k_tiles, InFlight f) {
    const auto thr = TiledMma{}.get_slice(wg * GMMA::warpgroup_threads + int(threadIdx.x) % GMMA::warpgroup_threads);
    const bool lane0 = (threadIdx.x % 32) == 0;
    int held = f.issued;
    GMMA::warpgroup_fence_operand(acc.v);
    for (int kt = f.issued; kt < k_tiles; ++kt) {
      issue_k_tile(s, st, thr, acc, kt == 0);
      GMMA::warpgroup_wait<1>();  // all but this k-tile's wgmmas have retired: release their stages
      GMMA::warpgroup_fence_operand(acc.v);
      for (; held > 0; --held, ++f.oldest)
        if (lane0) release(s, f.oldest);
      held = 1;
      ++st;
    }
    GMMA::warpgroup_wait<0>();
    GMMA::warpgroup_fence_operand(acc.v);
    for (; held > 0; --held, ++f.oldest)
      if (lane0) release(s, f.oldest);
  }

  // The RowsOfA k-loop under BlockPromotion::UnderNextKTile (promote_under_next_k_tile's order):
  // two sets of partial sums, k-tile kt in set kt mod 2. Issuing k-tile kt also starts the load
  // of its Blocks block scales (global memory: they have the next k-tile's issue and a wait to
  // arrive), kept beside the set. k-tiles are promoted in the order they were issued, so the
  // promotion's stage is the oldest one held (`held`): after the wait that retires k-tile kt
  // (kt + 1 in flight) it reads the stage's 2 AtomsM row scales, releases the stage (nothing
  // else of it is read), then adds set * scale into the accumulators: the products and their
  // order are AfterWait's. (The loop's state is kept small beside the 3 x 64 sums: a set carries
  // its block scales only.) ptxas 13.0, sm_90a: 0 spills, no wgmma serialized, the next k-tile's
  // wgmmas issued before each wait_group 1 (bench/notes/fp8.md).
  template <class T>
  __device__ __forceinline__ static T& set_of(std::integral_constant<int, 0>, T& s0, T&) { return s0; }
  template <class T>
  __device__ __forceinline__ static T& set_of(std::integral_constant<int, 1>, T&, T& s1) { return s1; }
  template <class FragA, class FragB, class Coord0, int Blocks>
  __device__ __forceinline__ static void mma_rows_under_next_k_tile(SharedStorage& s, PipelineState& st, FragA const& tCrA, FragB const& tCrB,
                                                                    Coord0 const& tCc0, Accumulators& acc, int k_tiles, int row0,
                                                                    const float* (&blocks)[Blocks]) {
    constexpr auto tile = make_shape(C<BM>{}, C<BN>{});
    constexpr int n = AtomsM * AtomValues;
    const bool lane0 = (threadIdx.x % 32) == 0;
    struct BlockScales {
      float v[Blocks];
    };
    Accumulators part0, part1;
    auto tP0 = make_tensor(&part0.v[0], partition_fragment_C(TiledMma{}, tile).layout());
    auto tP1 = make_tensor(&part1.v[0], partition_fragment_C(TiledMma{}, tile).layout());
    BlockScales sb0, sb1;
    // (defined before the first wgmma, which reads its set's registers as operands under
    // ScaleOut::Zero too: left undefined, ptxas spilled around them; 128 moves per call)
#pragma unroll
    for (int i = 0; i < n; ++i) part0[i] = part1[i] = 0.0f;
    GMMA::warpgroup_fence_operand(part0.v);
    GMMA::warpgroup_fence_operand(part1.v);
    PipelineState held = st;  // the oldest stage not released: the next promotion's
    auto issue = [&](auto set, int kt) {
      Accumulators& part = set_of(set, part0, part1);
      auto& tP = set_of(set, tP0, tP1);
      BlockScales& sb = set_of(set, sb0, sb1);
      while (!s.pipe.consumer_try_wait(st)) {}
      GMMA::warpgroup_fence_operand(part.v);
      GMMA::warpgroup_arrive();
      gemm(TiledMma{}, tCrA(_, _, _, st.index), tCrB(_, _, _, st.index), tP, GMMA::ScaleOut::Zero);
      GMMA::warpgroup_commit_batch();
#pragma unroll
      for (int j = 0; j < Blocks; ++j) sb.v[j] = __ldg(blocks[j] + kt);
      ++st;
    };
    auto retire = [](auto in_flight) { GMMA::warpgroup_wait<decltype(in_flight)::value>(); };
    auto promote = [&](auto set, int) {
      Accumulators& part = set_of(set, part0, part1);
      BlockScales& sb = set_of(set, sb0, sb1);
      GMMA::warpgroup_fence_operand(part.v);
      // value i's scale: the stage's row row0 + thread 0's row of value i, times its column's
      // block scale (the repeated rows and blocks fold to 2 AtomsM loads and 2 AtomsM Blocks multiplies)
      const float* rows = reinterpret_cast<const float*>(s.scale + held.index * stage_scale_bytes) + row0;
      float scale[n];
#pragma unroll
      for (int i = 0; i < n; ++i) scale[i] = rows[int(get<0>(tCc0(i)))] * sb.v[int(get<1>(tCc0(i))) / scale_block];
      __syncwarp();
      if (lane0) release(s, held);
      ++held;
#pragma unroll
      for (int i = 0; i < n; ++i) acc[i] += part[i] * scale[i];
    };
    promote_under_next_k_tile(k_tiles, issue, retire, promote);
  }

  // The RowsOfA loops' block scales of B, one per 128 columns: k-tile kt's (loaded a k-tile
  // ahead) into sb, and the next k-tile's loads started, so they have this k-tile's wgmmas and
  // wait to arrive.
  template <int Blocks>
  __device__ __forceinline__ static void take_block_scales(float (&sb)[Blocks], float (&block_next)[Blocks], const float* (&blocks)[Blocks],
                                                           int kt, int k_tiles) {
#pragma unroll
    for (int j = 0; j < Blocks; ++j) sb[j] = block_next[j];
    if (kt + 1 < k_tiles) {
#pragma unroll
      for (int j = 0; j < Blocks; ++j) block_next[j] = __ldg(blocks[j] + kt + 1);
    }
  }

  // The RowsOfA k-loop of a consumer warpgroup that holds AtomsM > 1 wgmma atoms along M (the
  // 256-row tile: 128 x BN per warpgroup). One atom's partial sums at a time: per k-tile, atom
  // i's BK / AtomK wgmmas write AtomValues partial sums (ScaleOut::Zero at the first k-block),
  // which are waited for and promoted into atom i's accumulators (values i AtomValues ..) before
  // atom i + 1's are issued; the stage is released after the last atom's wait, its row scales
  // read before the first atom's wgmmas (under them). A thread holds AtomsM AtomValues
  // accumulators and AtomValues partial sums (128 + 64 at 128 columns, inside the consumers' 232
  // registers, where a partial fragment per atom would not be; ptxas 13.0 for sm_90a still keeps
  // 32 accumulators in local memory beside the kernel's other state, so no listed kernel runs
  // this loop: bench/notes/fp8.md); each accumulator gets the same
  // products in the same order as the one-atom loop's. The other consumer warpgroup's wgmmas run
  // while this one waits and promotes.
  template <class FragA, class FragB, class Coord0, int Blocks>
  __device__ __forceinline__ static void mma_rows_atom_by_atom(SharedStorage& s, PipelineState& st, FragA const& tCrA, FragB const& tCrB,
                                                               Coord0 const& tCc0, Accumulators& acc, int k_tiles, int row0,
                                                               const float* (&blocks)[Blocks]) {
    static_assert(Promotion == BlockPromotion::AfterWait, "atom by atom: one partial fragment (two would not fit beside 2 atoms' sums)");
    constexpr int KBlocks = BK / AtomK;
    const bool lane0 = (threadIdx.x % 32) == 0;
    // one atom's C fragment: the TiledMma's tile without the M repeat, (V, 1, 1)
    float part[AtomValues];
    auto tP = make_tensor(&part[0], partition_fragment_C(TiledMma{}, make_shape(C<BM / AtomsM>{}, C<BN>{})).layout());
    static_assert(decltype(size(tP.layout()))::value == AtomValues, "one atom's partial sums");
    auto tPv = tP(_, 0, 0);
    float block_next[Blocks];
#pragma unroll
    for (int j = 0; j < Blocks; ++j) block_next[j] = k_tiles > 0 ? __ldg(blocks[j]) : 0.0f;
    for (int kt = 0; kt < k_tiles; ++kt) {
      while (!s.pipe.consumer_try_wait(st)) {}
      float sb[Blocks];
      take_block_scales(sb, block_next, blocks, kt, k_tiles);
      const float* rows = reinterpret_cast<const float*>(s.scale + st.index * stage_scale_bytes) + row0;
      tessera::detail::static_for_inlined<AtomsM>([&](auto atom) {
        constexpr int i = decltype(atom)::value;
        // each value's scale from its coordinates (the atom's repeated rows and blocks fold to
        // 2 loads and 2 Blocks multiplies), read before the stage can be released
        float scale[AtomValues];
#pragma unroll
        for (int v = 0; v < AtomValues; ++v) {
          const auto c = tCc0(i * AtomValues + v);
          scale[v] = rows[int(get<0>(c))] * sb[int(get<1>(c)) / scale_block];
        }
        GMMA::warpgroup_fence_operand(tP);
        GMMA::warpgroup_arrive();
        tessera::detail::static_for_inlined<KBlocks>([&](auto k) {
          gemm(TiledMma{}, tCrA(_, atom, k, st.index), tCrB(_, _0{}, k, st.index), tPv,
               decltype(k)::value == 0 ? GMMA::ScaleOut::Zero : GMMA::ScaleOut::One);
        });
        GMMA::warpgroup_commit_batch();
        GMMA::warpgroup_wait<0>();
        GMMA::warpgroup_fence_operand(tP);
        if constexpr (i == AtomsM - 1) {
          __syncwarp();
          if (lane0) release(s, st);
        }
#pragma unroll
        for (int v = 0; v < AtomValues; ++v) acc[i * AtomValues + v] += part[v] * scale[v];
      });
      ++st;
    }
  }

  // Block-scaled consumer warpgroup `wg`: k-tiles k_begin .. k_begin + k_tiles - 1 of the tile
  // whose rows are A's 128-row scale block `block_m` (RowsOfA: whose columns start at B's
  // 128-row block `block_m`: block_scale_tile), k-tile k being k-group k (a Stream-K step
  // starts anywhere; its promoted partial sums add up in the fix-up as any partials). Each
  // k-tile's wgmmas write `part` (ScaleOut::Zero: the k-tile's sum alone, k-blocks past K
  // zero-filled by TMA), waited for at once (the promotion reads it), then
  // acc += part * sa(block_m, k) * sb(n, k) per accumulator, n its column:
  // this thread's column 0 plus what the value's column is to thread 0 (the C partition over
  // the tile's identity tensor; the wgmma C layout's thread and value parts never carry into
  // each other), so each row scale is a shared-memory load at a constant offset. The stage
  // is released once its row scales are read (the warp's lanes synchronized first).
  // Policy::Issue == ConsumerIssue::Alternating: the two consumer warpgroups issue their k-tiles'
  // wgmmas in turns (0, 1, 0, 1, ...: block_scaled_turns), so the tensor cores run one
  // warpgroup's k-tile while the other promotes the k-tile before it.
  __device__ __forceinline__ static void mma_block_scaled(Params const& p, SharedStorage& s, PipelineState& st, int wg,
                                                          Accumulators& acc, int k_tiles, int64_t block_m, int64_t k_begin = 0) {
    static_assert(BlockScaled, "the block-scaled mainloop");
    constexpr auto ring_a = smem_a;
    constexpr auto ring_b = smem_b;
    constexpr auto tile = make_shape(C<BM>{}, C<BN>{});
    const int thread = wg * GMMA::warpgroup_threads + int(threadIdx.x) % GMMA::warpgroup_threads;
    const auto thr = TiledMma{}.get_slice(thread);
    const auto tCrA = thr.partition_fragment_A(make_tensor(reinterpret_cast<Element*>(s.a), ring_a));
    const auto tCrB = thr.partition_fragment_B(make_tensor(reinterpret_cast<ElementB*>(s.b), ring_b));
    Accumulators part;
    auto tCrP = make_tensor(&part.v[0], partition_fragment_C(TiledMma{}, tile).layout());
    const auto tCc = thr.partition_C(make_identity_tensor(tile));
    const auto tCc0 = TiledMma{}.get_slice(0).partition_C(make_identity_tensor(tile));
    constexpr int n = AtomsM * AtomValues;
    static_assert(decltype(size(tCc0))::value == n, "the C fragment is the thread's accumulators");
#pragma unroll
    for (int i = 0; i < n; ++i) acc[i] = 0.0f;
    const bool lane0 = (threadIdx.x % 32) == 0;
    if constexpr (RowsOfA) {
      // The tokens along M: value i's row is this thread's row 0 plus its row to thread 0, its
      // 128-column block of B its column's to thread 0 over 128 (a thread's first column lies
      // within its 8-column n-block: the wgmma C layout's thread and value parts never carry
      // into each other; hopper_sm90_block_rows_test checks both for every thread). So per
      // k-tile a thread reads 2 row scales per 64-row atom from the stage and one block scale
      // per 128 columns from global memory (a k-tile ahead), multiplies them into
      // 2 AtomsM Blocks products, releases the stage (nothing else of it is read after the
      // wait) and promotes: one FFMA per accumulator.
      constexpr int Blocks = BN / scale_block;
      const int row0 = int(get<0>(tCc(0)));
      // (B's blocks past N: a tile that straddles N reads the last block's scales for its padding)
      const float* blocks[Blocks];
#pragma unroll
      for (int j = 0; j < Blocks; ++j) {
        blocks[j] = p.scales.blocks + block_scale_index(block_m + j, k_begin, p.scales.block_rows, p.scales.blocks_ld);
      }
      if constexpr (AtomsM > 1) {
        mma_rows_atom_by_atom(s, st, tCrA, tCrB, tCc0, acc, k_tiles, row0, blocks);
        return;
      } else if constexpr (Promotion == BlockPromotion::UnderNextKTile) {
        mma_rows_under_next_k_tile(s, st, tCrA, tCrB, tCc0, acc, k_tiles, row0, blocks);
        return;
      }
      float block_next[Blocks];
#pragma unroll
      for (int j = 0; j < Blocks; ++j) block_next[j] = k_tiles > 0 ? __ldg(blocks[j]) : 0.0f;
      for (int kt = 0; kt < k_tiles; ++kt) {
        while (!s.pipe.consumer_try_wait(st)) {}
        GMMA::warpgroup_fence_operand(part.v);
        GMMA::warpgroup_arrive();
        gemm(TiledMma{}, tCrA(_, _, _, st.index), tCrB(_, _, _, st.index), tCrP, GMMA::ScaleOut::Zero);
        GMMA::warpgroup_commit_batch();
        float sb[Blocks];
        take_block_scales(sb, block_next, blocks, kt, k_tiles);
        // the row scales' products, under the wgmmas (the stage's full barrier ordered them);
        // the repeated rows and blocks fold to 2 AtomsM loads and 2 AtomsM Blocks multiplies
        const float* rows = reinterpret_cast<const float*>(s.scale + st.index * stage_scale_bytes) + row0;
        float scale[n];
#pragma unroll
        for (int i = 0; i < n; ++i) scale[i] = rows[int(get<0>(tCc0(i)))] * sb[int(get<1>(tCc0(i))) / scale_block];
        GMMA::warpgroup_wait<0>();
        GMMA::warpgroup_fence_operand(part.v);
        __syncwarp();
        if (lane0) release(s, st);
#pragma unroll
        for (int i = 0; i < n; ++i) acc[i] += part[i] * scale[i];
        ++st;
      }
      return;
    }
    const int col0 = int(get<1>(tCc(0)));
    // (a cluster's tail CTA past M computes a tile nobody stores: it reads the last block's scales)
    const float* blocks = p.scales.blocks + block_scale_index(block_m, k_begin, p.scales.block_rows, p.scales.blocks_ld);
    float block_next = k_tiles > 0 ? __ldg(blocks) : 0.0f;
    constexpr bool alternating = Issue == ConsumerIssue::Alternating;
    using Turns = block_scaled_turns<ConsumerWarpgroups>;
    if constexpr (alternating)
      if (k_tiles > 0 && Turns::primes(wg)) arch::named_barrier_arrive<arch::NamedBarrier::ConsumerTurn, Turns::threads>(Turns::first());
    for (int kt = 0; kt < k_tiles; ++kt) {
      while (!s.pipe.consumer_try_wait(st)) {}
      if constexpr (alternating) arch::named_barrier_sync<arch::NamedBarrier::ConsumerTurn, Turns::threads>(Turns::waits_at(wg));
      GMMA::warpgroup_fence_operand(part.v);
      GMMA::warpgroup_arrive();
      gemm(TiledMma{}, tCrA(_, _, _, st.index), tCrB(_, _, _, st.index), tCrP, GMMA::ScaleOut::Zero);
      GMMA::warpgroup_commit_batch();
      if constexpr (alternating)
        if (Turns::passes(wg, kt, k_tiles))
          arch::named_barrier_arrive<arch::NamedBarrier::ConsumerTurn, Turns::threads>(Turns::passes_to(wg));
      const float sa = block_next;
      if (kt + 1 < k_tiles) block_next = __ldg(blocks + kt + 1);  // the next k-tile's, under this one's wgmmas
      const float* rows = reinterpret_cast<const float*>(s.scale + st.index * stage_scale_bytes) + col0;
      GMMA::warpgroup_wait<0>();
      GMMA::warpgroup_fence_operand(part.v);
#pragma unroll
      for (int i = 0; i < n; ++i) acc[i] += part[i] * (sa * rows[int(get<1>(tCc0(i)))]);
      __syncwarp();
      if (lane0) release(s, st);
      ++st;
    }
  }
};

}  // namespace tessera::kernels::sm90
