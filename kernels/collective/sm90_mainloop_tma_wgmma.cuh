// Collective mainloop, SM90: TMA loads into a multi-stage shared-memory ring (mbarrier
// pipeline), wgmma (SS: both operands from shared memory through descriptors derived from
// the GMMA smem layouts) by the consumer warpgroups.
//
//   CollectiveMainloopSm90TmaWgmma<Policy, TileShape, Element, MajorA, MajorB, SwizzleBytes>
//     Policy     MainloopTmaWarpSpecializedCooperative<Stages, ConsumerWarpgroups>
//     TileShape  tuple<C<BM>, C<BN>, C<BK>>: the CTA tile; consumer warpgroup w takes rows
//                64w .. 64w+63 (BM = 64 * ConsumerWarpgroups) and all BN columns
//     Element    bfloat16_t or half_t (f32 accumulation); float: f32 words in gmem and smem,
//                multiplied as tf32 (wgmma m64nNk8, A and B K-major only)
// Shared memory per operand: the GMMA layout atom tiled to (BM|BN, BK, Stages); one stage is
// what one tile's TMA copies fill (their boxes and expect-tx bytes: copy_sm90_tma.hpp).
#pragma once

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include <tessera/algorithm/copy_tma.hpp>
#include <tessera/atom/tma_encode.hpp>
#include <tessera/atom/gmma_descriptor.hpp>
#include <tessera/atom/mma_sm90.hpp>
#include <tessera/pipeline/tma_pipeline.hpp>
#include <tessera/tiled_mma.hpp>

#include "../kernel/sm90_shared_storage.hpp"
#include "sm90_contract.hpp"
#include "sm90_dispatch_policy.cuh"
#include "sm90_tensor_map_type.hpp"
#include "sm90_tma_plan.hpp"

namespace tessera::kernels::sm90 {

namespace detail {
template <class Element, int N, GMMA::Major MA, GMMA::Major MB>
struct wgmma_for;
template <int N, GMMA::Major MA, GMMA::Major MB>
struct wgmma_for<bfloat16_t, N, MA, MB> { using type = SM90_64xNx16_F32BF16BF16_SS<N, MA, MB>; };
template <int N, GMMA::Major MA, GMMA::Major MB>
struct wgmma_for<half_t, N, MA, MB> { using type = SM90_64xNx16_F32F16F16_SS<N, MA, MB>; };
template <int N, GMMA::Major MA, GMMA::Major MB>
struct wgmma_for<float, N, MA, MB> { using type = SM90_64xNx8_F32TF32TF32_SS<N, MA, MB>; };

}  // namespace detail

// How the mainloop's tensor maps cut an operand tile (a type the caller of
// to_underlying_arguments picks; the library takes the default): TMA dims divided by the
// smem tile's structure where they apply (fewer, larger boxes), or one dim per gmem mode
// (bench --mode-boxes compares them).
struct TmaBoxesDivided {};
struct TmaBoxesPerMode {};

template <class Policy, class TileShape, class Element_, GMMA::Major MajorA_, GMMA::Major MajorB_, int SwizzleBytes = 128>
struct CollectiveMainloopSm90TmaWgmma {
  using Element = Element_;
  static constexpr GMMA::Major MajorA = MajorA_, MajorB = MajorB_;
  static constexpr int BM = int(get<0>(TileShape{})), BN = int(get<1>(TileShape{})), BK = int(get<2>(TileShape{}));
  static constexpr int Stages = Policy::Stages;
  static constexpr int Bits = sizeof_bits_v<Element>;
  static constexpr int ConsumerWarpgroups = Policy::ConsumerWarpgroups;
  static constexpr int Policy_ProducerRegisters = Policy::ProducerRegisters;
  static constexpr int Policy_ConsumerRegisters = Policy::ConsumerRegisters;
  static_assert(BM % (64 * ConsumerWarpgroups) == 0, "each consumer warpgroup takes whole 64-row wgmma atoms of the CTA tile");
  static_assert(BN % 8 == 0 && BN <= 256, "one wgmma covers the CTA tile's N: a multiple of 8 up to 256");

  // The TiledMma: ConsumerWarpgroups wgmma atoms along M (CuTe's order: (V, M, N) fragments).
  using Wgmma = typename detail::wgmma_for<Element, BN, MajorA, MajorB>::type;
  static constexpr int AtomK = int(get<2>(typename MMA_Traits<Wgmma>::Shape_MNK{}));  // 16 (f16/bf16), 8 (tf32)
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
    // repeat i's registers as the wgmma atom takes them
    __device__ __forceinline__ typename Wgmma::DRegisters& atom(int i) {
      return *reinterpret_cast<typename Wgmma::DRegisters*>(&v[i * AtomValues]);
    }
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

  // B in a cluster: CTA r loads part r of the B tile, (BN / ClusterM) x BK, multicast.
  static constexpr int ClusterM = Policy::ClusterM;
  static_assert(BN % (8 * ClusterM) == 0, "the B tile splits into whole 8-row parts");
  static constexpr auto part_b = GMMA::make_smem_layout<Bits, MajorB, SwizzleBytes>(
      make_shape(C<BN / ClusterM>{}, C<BK>{}), take<0, 2>(AtomOrder<MajorB>{}));
  static constexpr int MaxBoxes = 4;
  using TmaOpB = std::conditional_t<ClusterM == 1, SM90_TMA_LOAD, SM90_TMA_LOAD_MULTICAST>;
  // Each operand's TMA arrangements (stage_a, and part_b: this CTA's part of the B tile), by
  // arrangement = 2 * batched + divided. The device adapter picks one per operand
  // (Params::arrangement_x) from plan() and the producer issues the same plan's boxes with
  // every box property an immediate (copy_static over BoxesOf). The boxes are evaluated at
  // compile time in device code only; the host derives the plans at run time (plan(), once
  // per kernel type): the host compiler's constant evaluation of them is slow.
  using Plan = TmaPlan<MaxBoxes>;
  static constexpr bool KMajorA = MajorA == GMMA::Major::K, KMajorB = MajorB == GMMA::Major::K;
  template <int Operand>
  static constexpr Plan make_plan(int arrangement) {
    if constexpr (Operand == 0) return make_tma_plan<MaxBoxes, Bits>(stage_a, KMajorA, BM, BK, arrangement / 2 == 1, arrangement % 2 == 1);
    else return make_tma_plan<MaxBoxes, Bits>(part_b, KMajorB, BN / ClusterM, BK, arrangement / 2 == 1, arrangement % 2 == 1);
  }
  template <int Operand, int Arrangement>
  using BoxesOf = std::conditional_t<
      Operand == 0, TmaPlanBoxes<MaxBoxes, Bits, std::remove_cvref_t<decltype(stage_a)>, KMajorA, BM, BK, Arrangement>,
      TmaPlanBoxes<MaxBoxes, Bits, std::remove_cvref_t<decltype(part_b)>, KMajorB, BN / ClusterM, BK, Arrangement>>;
  static_assert(is_static_v<std::remove_cvref_t<decltype(stage_a)>> && is_static_v<std::remove_cvref_t<decltype(part_b)>>,
                "the stage tiles are static (their types name them, as TmaPlanBoxes needs)");
  // (host) operand 0 (A) or 1 (B), arrangement 0..3.
  static const Plan& plan(int operand, int arrangement) {
    static const Plan plans[2][4] = {{runtime_plan<0>(0), runtime_plan<0>(1), runtime_plan<0>(2), runtime_plan<0>(3)},
                                     {runtime_plan<1>(0), runtime_plan<1>(1), runtime_plan<1>(2), runtime_plan<1>(3)}};
    return plans[operand][arrangement];
  }
  template <int Operand>
  static Plan runtime_plan(int arrangement) { return make_plan<Operand>(arrangement); }  // (not constexpr: derived at run time)
  using Pipeline = pipeline::TmaPipeline<Stages, pipeline::DeviceMbarrier>;
  using PipelineState = pipeline::PipelineState<Stages>;
  // Empty barriers count one arrival per consumer warp (each warp's lane 0 after its wgmma
  // wait) of every CTA in the cluster: each CTA's producer writes into all of their stages.
  static constexpr int ConsumerArrivals = GMMA::warpgroup_threads / 32 * ConsumerWarpgroups * ClusterM;

  using SharedStorage = MainloopSharedStorage<stage_a_bytes, stage_b_bytes, Stages>;
  static_assert(stage_a_bytes == BM * BK * Bits / 8 && stage_b_bytes == BN * BK * Bits / 8,
                "the GMMA atoms tile a stage densely (the builder sizes the ring by the tiles' bytes)");

  // Kernel parameters: the tensor maps (64-byte aligned, passed in a __grid_constant__
  // parameter) and each operand's arrangement (its boxes are static: BoxesOf).
  struct Params {
    CUtensorMap map_a;
    CUtensorMap map_b;
    int arrangement_a = 0;        // 2 * batched + divided (plan(0, ·), BoxesOf<0, ·>)
    int arrangement_b = 0;        // the same for part_b (the whole B tile without a cluster)
    uint32_t part_b_offset[ClusterM] = {};  // where part r starts in a stage of B (bytes)
    int k_tiles = 0;
  };

  // ---- contract (host): what it reads, what it refuses, its kernel parameters.
  struct Arguments {
    kernels::Element element = element_enum_of<Element>();  // A's and B's (checked against the build's)
    bool allow_tf32 = false;  // f32 inputs: multiplied as tf32 only with the caller's consent
    Operand a, b;             // A (M x K) and B (K x N): pointer, major, ld, batch stride (elements)
  };
  static Arguments arguments_of(GemmArguments const& g) { return {g.element, g.allow_tf32, g.a, g.b}; }
  // A is K-major when row-major (M x K); B (K x N) is K-major when column-major.
  static constexpr Major a_major = KMajorA ? Major::Row : Major::Col;
  static constexpr Major b_major = KMajorB ? Major::Col : Major::Row;

  // Each operand's arrangement (Params::arrangement_x) and its plan rebound to the problem's
  // tensors, or the refusal: the divided arrangement where the problem takes it (Boxes =
  // TmaBoxesDivided), else the per-mode one.
  struct Binding {
    GemmResult status;
    int arrangement_a = -1, arrangement_b = -1;
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
    auto choose = [&](int operand, const int64_t* ext, const int64_t* str, tma::Arguments& bound) -> int {
      if constexpr (std::is_same_v<Boxes, TmaBoxesDivided>) {
        const Plan& d = plan(operand, 2 * int(batched) + 1);
        if (d.boxes.ok()) {
          bound = tma::rebind_gmem(d.args, modes, ext, str);
          if (bound.rule == tma::Rule::ok) return 2 * int(batched) + 1;
        }
      }
      const Plan& p = plan(operand, 2 * int(batched));
      if (!p.boxes.ok()) return -1;
      bound = tma::rebind_gmem(p.args, modes, ext, str);
      return 2 * int(batched);
    };
    Binding b;
    b.arrangement_a = choose(0, a_ext, a_str, b.a);
    b.arrangement_b = choose(1, b_ext, b_str, b.b);
    if (b.arrangement_a < 0 || b.arrangement_b < 0)
      b.status = {GemmStatus::Unsupported, std::string("sm90 kernel: TMA cannot copy the operand tiles: ") +
                                               tma::to_string(plan(0, 2 * int(batched)).boxes.rule) + " / " +
                                               tma::to_string(plan(1, 2 * int(batched)).boxes.rule)};
    else if (b.a.rule != tma::Rule::ok || b.b.rule != tma::Rule::ok)
      b.status = {GemmStatus::Misaligned, std::string("sm90 kernel: ") + tma::to_string(b.a.rule != tma::Rule::ok ? b.a.rule : b.b.rule)};
    return b;
  }

  static GemmResult can_implement(GemmProblemShape const& problem, Arguments const& args) {
    constexpr kernels::Element built = element_enum_of<Element>();
    if (args.element != built) return {GemmStatus::Unsupported, std::string("the sm90 kernel was built for ") + to_string(built)};
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
    return bind(problem, args).status;
  }
  static std::size_t get_workspace_size(GemmProblemShape const&, Arguments const&) { return 0; }

  // The tensor maps of A and B in the arrangements bind() chose, each CTA's part of the B
  // tile, the k-tiles.
  template <class Boxes = TmaBoxesDivided>
  static Params to_underlying_arguments(GemmProblemShape const& problem, Arguments const& args, void* /*workspace*/, GemmResult& status) {
    Params ml{};
    const Binding b = bind<Boxes>(problem, args);
    if (!b.status) {
      status = b.status;
      return ml;
    }
    constexpr CUtensorMapDataType type = tensor_map_type_of<Element>();
    if (tma::encode_tensor_map(&ml.map_a, b.a, args.a.ptr, type) != CUDA_SUCCESS ||
        tma::encode_tensor_map(&ml.map_b, b.b, args.b.ptr, type) != CUDA_SUCCESS)
      status = {GemmStatus::LaunchFailed, "cuTensorMapEncodeTiled refused the operands' tensor maps"};
    ml.arrangement_a = b.arrangement_a;
    ml.arrangement_b = b.arrangement_b;
    // Part r of the B tile starts at its first row's offset in the stage layout.
    for (int r = 0; r < ClusterM; ++r) ml.part_b_offset[r] = uint32_t(int64_t(stage_b(r * (BN / ClusterM), 0)) * Bits / 8);
    ml.k_tiles = int((problem_k(problem) + BK - 1) / BK);
    return ml;
  }

  // One wgmma's operand tile at `crd` of a divided smem layout, with its offset: a swizzled
  // layout's slice keeps it, a plain Layout's goes as slice_and_offset.
  template <class Divided, class Crd>
  __device__ static constexpr auto operand_tile(Divided const& divided, Crd const& crd) {
    if constexpr (is_composed_layout_v<Divided>) return divided(crd);
    else return slice_and_offset(crd, divided);
  }

  __device__ static void init(SharedStorage& s) {
    s.pipe.init(ConsumerArrivals, uint32_t(stage_a_bytes + stage_b_bytes));
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
#endif
  }

  __device__ static void prefetch_tensor_maps(Params const& p) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("prefetch.tensormap [%0];\n" ::"l"(reinterpret_cast<uint64_t>(&p.map_a)) : "memory");
    asm volatile("prefetch.tensormap [%0];\n" ::"l"(reinterpret_cast<uint64_t>(&p.map_b)) : "memory");
#endif
  }

  // One stage's copies of operand `Operand` (0: A, 1: B) in the arrangement the adapter
  // chose: a branch on a kernel parameter, then immediates only (copy_static).
  template <int Operand, class Op, class... Mask>
  __device__ __forceinline__ static void issue(int arrangement, void const* map, uint32_t bar, tma::Coord const& origin, uint32_t smem,
                                               Mask... mask) {
    auto one = [&]<int A>(std::integral_constant<int, A>) {
      constexpr auto boxes = BoxesOf<Operand, A>::value;
      if constexpr (boxes.ok()) {
        // every arrangement brings a whole stage (A), or this CTA's part of one (B): what the barrier expects
        static_assert(boxes.tx_bytes * (Operand == 0 ? 1 : ClusterM) == uint32_t(Operand == 0 ? stage_a_bytes : stage_b_bytes),
                      "the boxes of a stage tile bring the stage's bytes");
        copy_static<BoxesOf<Operand, A>>(Op{}, map, bar, origin, smem, mask...);
      }
    };
    switch (arrangement) {
      case 0: one(std::integral_constant<int, 0>{}); break;
      case 1: one(std::integral_constant<int, 1>{}); break;
      case 2: one(std::integral_constant<int, 2>{}); break;
      default: one(std::integral_constant<int, 3>{}); break;
    }
  }

  // Producer (one thread): the k-tiles of one output tile into the ring. `origin_a` / `origin_b`
  // are the tile's gmem origins per mode ((M, K, L) and (N, K, L)); K advances by BK.
  // In a cluster, origin_b is this CTA's part of the B tile (the tile's origin plus
  // rank * BN / ClusterM rows) and `rank` its place in the cluster.
  // k_tiles: how many k-tiles from the origins' K (a tile's slice under split-K).
  __device__ __forceinline__ static void load(Params const& p, SharedStorage& s, PipelineState& st, tma::Coord origin_a, tma::Coord origin_b,
                                              int rank, int k_tiles) {
    const uint32_t a0 = uint32_t(__cvta_generic_to_shared(s.a));
    const uint32_t b0 = uint32_t(__cvta_generic_to_shared(s.b)) + p.part_b_offset[rank];
    const int arr_a = p.arrangement_a, arr_b = p.arrangement_b;
    for (int kt = 0; kt < k_tiles; ++kt) {
      while (!s.pipe.producer_try_acquire(st)) {}
      s.pipe.producer_commit(st);  // expect the stage's bytes; the copies complete them
      const uint32_t bar = s.pipe.full_barrier(st).address();
      issue<0, SM90_TMA_LOAD>(arr_a, &p.map_a, bar, origin_a, a0 + uint32_t(st.index * stage_a_bytes));
      if constexpr (ClusterM == 1)
        issue<1, TmaOpB>(arr_b, &p.map_b, bar, origin_b, b0 + uint32_t(st.index * stage_b_bytes));
      else
        issue<1, TmaOpB>(arr_b, &p.map_b, bar, origin_b, b0 + uint32_t(st.index * stage_b_bytes), uint16_t((1u << ClusterM) - 1u));
      origin_a.c[1] += BK;
      origin_b.c[1] += BK;
      ++st;
    }
  }

  // The producer thread's whole role in a persistent kernel (the cooperative and the ping-pong
  // kernels call it): units first, first + step, ... of `scheduler`, each a cluster tile's
  // k-tiles (a K slice under split-K) into the ring, in the order the consumers take them.
  // CTA `rank` of the cluster loads the rank-th M-tile of A and part `rank` of the B tile.
  template <class Scheduler>
  __device__ __forceinline__ static void produce(Params const& p, SharedStorage& s, Scheduler const& scheduler, int64_t first, int64_t step,
                                                 int rank) {
    PipelineState st;
    const int64_t units = scheduler.work_count();
    for (int64_t u = first; u < units; u += step) {
      const auto w = scheduler.work(u);
      const int64_t m = w.m * ClusterM + rank;
      const int32_t k0 = int32_t(w.k_begin) * BK;
      const tma::Coord a{{int32_t(m * BM), k0, int32_t(w.l)}};
      const tma::Coord b{{int32_t(w.n * BN + rank * (BN / ClusterM)), k0, int32_t(w.l)}};
      load(p, s, st, a, b, rank, w.k_end - w.k_begin);
    }
  }

  // A stage is free once every consumer warp of the cluster is done with it.
  __device__ __forceinline__ static void release(SharedStorage& s, PipelineState const& st) {
    if constexpr (ClusterM == 1) {
      s.pipe.consumer_release(st);
    } else {
#pragma unroll
      for (int r = 0; r < ClusterM; ++r) s.pipe.empty[st.index].arrive_cluster(uint32_t(r));
    }
  }

  // Consumer warpgroup `wg`: accumulates k_tiles k-tiles into acc (overwritten). One
  // group of wgmmas stays in flight: a stage is released once the wgmmas that read it retired.
  __device__ __forceinline__ static void mma(Params const&, SharedStorage& s, PipelineState& st, int wg, Accumulators& acc,
                                             int k_tiles) {
    const uint32_t a0 = uint32_t(__cvta_generic_to_shared(s.a)), b0 = uint32_t(__cvta_generic_to_shared(s.b));
    // Operand tiles of one wgmma: (64, AtomK) of A at this warpgroup's rows of M repeat i (64-row
    // block wg + ConsumerWarpgroups i: the TiledMma's atoms, then its repeats), (BN, AtomK) of B.
    constexpr auto div_a = logical_divide(smem_a, make_shape(_64{}, C<AtomK>{}));
    constexpr auto div_b = logical_divide(smem_b, make_shape(C<BN>{}, C<AtomK>{}));
    const bool lane0 = (threadIdx.x % 32) == 0;
    PipelineState prev = st;
    GMMA::warpgroup_fence_operand(acc.v);
    for (int kt = 0; kt < k_tiles; ++kt) {
      while (!s.pipe.consumer_try_wait(st)) {}
      GMMA::warpgroup_fence_operand(acc.v);
      GMMA::warpgroup_arrive();
#pragma unroll
      for (int kb = 0; kb < BK / AtomK; ++kb) {
        const uint64_t db[1] = {
            GMMA::make_gmma_descriptor<MajorB, Bits>(operand_tile(div_b, make_coord(make_coord(_, 0), make_coord(_, kb), st.index)), b0).desc};
#pragma unroll
        for (int i = 0; i < AtomsM; ++i) {
          const uint64_t da[1] = {GMMA::make_gmma_descriptor<MajorA, Bits>(
              operand_tile(div_a, make_coord(make_coord(_, wg + ConsumerWarpgroups * i), make_coord(_, kb), st.index)), a0).desc};
          Wgmma::fma(acc.atom(i), da, db, kt == 0 && kb == 0 ? GMMA::ScaleOut::Zero : GMMA::ScaleOut::One);
        }
      }
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
};

}  // namespace tessera::kernels::sm90
