// Device adapter of the SM90 GEMM (TMA + wgmma, warp-specialized, persistent):
//   GemmSm90<Kernel>::can_implement(args)   what this kernel takes (types, majors, alignment)
//   GemmSm90<Kernel> op; op.initialize(args) tensor maps, boxes, tile scheduler (host only)
//   op.run(stream)                          the launch, over min(tiles, SMs) CTAs
// The box geometry of each operand tile is derived once per kernel type (it depends on the
// smem tile alone) and rebound to each problem's tensors.
#pragma once

#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <type_traits>

#include <tessera/atom/tma_encode.hpp>
#include <tessera/kernels/gemm_arguments.hpp>

#include "../kernel/gemm_kernel.hpp"
#include "entry_cache.hpp"
#include "smem_opt_in.cuh"
#include "gemm_configuration.hpp"
#include "../kernel/sm90_gemm_tma_warpspecialized.cuh"
#include "../kernel/sm90_gemm_tma_warpspecialized_pingpong.cuh"
#include "sm90_epilogue_operands.hpp"
#include "sm90_schedule.hpp"

namespace tessera::kernels::sm90 {

// The kernels below are what the collective builders (collective/collective_builder.hpp) make
// of a tile, a cluster and the operands' element type and majors (TMA: 16-byte alignment, 8
// elements of 16 bits or 4 of f32), composed by gemm_kernel_t with a persistent tile
// scheduler (whole tiles, or split-K of the last wave).  Stages: the builder's automatic count (the smem left after the epilogue's staging).
template <GMMA::Major M>
using major_tag = std::conditional_t<M == GMMA::Major::K, KMajor, MNMajor>;
template <class Element, GMMA::Major MajorA, GMMA::Major MajorB, class Tile, int ClusterM,
          class Schedule = KernelTmaWarpSpecializedCooperative>
using Sm90Mainloop = CollectiveBuilder<arch::Sm90, OpClassTensorOp, Element, major_tag<MajorA>, 16 / sizeof(Element), Element,
                                       major_tag<MajorB>, 16 / sizeof(Element), float, Tile, tuple<C<ClusterM>, _1, _1>,
                                       StageCountAuto, Schedule>;
// Scheduler: WholeTileScheduler (whole tiles at compile time: no split-K meeting in the
// kernel) or SplitKTileScheduler (a kernel of its own, run only when the plan splits).
// FusedAct: the activation the TMA-store epilogue applies (Identity: plain; fused problems
// without a kernel of their activation take the direct stores).
template <class MainloopBuilder, class ElementD, class Scheduler = WholeTileScheduler, Activation FusedAct = Activation::Identity>
using Sm90Kernel = gemm_kernel_t<
    GemmProblemShape, typename MainloopBuilder::CollectiveOp,
    typename CollectiveEpilogueBuilder<MainloopBuilder, ElementD, 16 / sizeof(ElementD),
                                       std::conditional_t<FusedAct == Activation::Identity, EpilogueScheduleAuto,
                                                          EpilogueTmaStoreFused<FusedAct>>>::CollectiveOp,
    Scheduler>;

// The default configuration: 128x256x64 CTA tile, two consumer warpgroups of 64x256
// (wgmma m64n256k16), 4 stages of 48 KiB, 128B-swizzled operands, the epilogue through
// 2 x 16 KiB of shared memory and TMA stores (227 KiB in all).
// Clusters of 2 CTAs along M share each B tile through TMA multicast.
// ElementD: D's (and C's, and the bias's) element type, the inputs' or float.
template <class Element, GMMA::Major MajorA = GMMA::Major::K, GMMA::Major MajorB = GMMA::Major::K, int ClusterM = 2,
          class ElementD = Element, class Scheduler = WholeTileScheduler, Activation FusedAct = Activation::Identity>
using DefaultGemm = Sm90Kernel<Sm90Mainloop<Element, MajorA, MajorB, tuple<_128, _256, _64>, ClusterM>, ElementD, Scheduler, FusedAct>;

// D = act(alpha A B + bias) through the TMA-store epilogue, one kernel per activation
// (16-bit TN, D in the inputs' type; kernels/device/sm90_kernel_set.cuh says which are built).
template <class Element, Activation Act>
using FusedTmaGemm = DefaultGemm<Element, GMMA::Major::K, GMMA::Major::K, 2, Element, WholeTileScheduler, Act>;

// For problems whose 128x256 tiles would leave most SMs idle (1000^3: 32 CTAs on 132 SMs):
// 128x128x64 tiles (two consumer warpgroups of 64x128, wgmma m64n128k16), twice the CTAs,
// each with half the MMA work per k-tile; 6 stages of 32 KiB, staging 2 x 16 KiB.
template <class Element, GMMA::Major MajorA = GMMA::Major::K, GMMA::Major MajorB = GMMA::Major::K, int ClusterM = 2,
          class Scheduler = WholeTileScheduler>
using SmallTileGemm = Sm90Kernel<Sm90Mainloop<Element, MajorA, MajorB, tuple<_128, _128, _64>, ClusterM>, Element, Scheduler>;

// Ping-pong (kernel/sm90_gemm_tma_warpspecialized_pingpong.cuh): two consumer warpgroups,
// each with whole BM x BN tiles in turn, one's epilogue under the other's mainloop: the
// builders' KernelTmaWarpSpecializedPingpong. 64x128x64 (wgmma m64n128k16): 8 stages of
// 24 KiB and two staging slots of 16 KiB (224 KiB); 64x256x64: 4 stages of 40 KiB (the
// automatic count); 128x128x64 (the TiledMma's M repeat of 2: two m64n128k16 per k16 step
// and 128 accumulators per consumer thread): 6 stages of 32 KiB. No cluster by default: the
// dispatch takes ping-pong for small problems (about one tile per CTA), where B multicast saves
// little bandwidth and pairing CTAs adds latency (bench/notes/sm90_gemm.md). Whole tiles only
// (WholeTileScheduler). MajorA/MajorB: K-major by default (MN-major through the same plans).
template <class Element, int BN = 128, int ClusterM = 1, int BM = 64, GMMA::Major MajorA = GMMA::Major::K,
          GMMA::Major MajorB = GMMA::Major::K>
using PingpongGemm =
    Sm90Kernel<Sm90Mainloop<Element, MajorA, MajorB, tuple<C<BM>, C<BN>, _64>, ClusterM, KernelTmaWarpSpecializedPingpong>, Element>;

// f32 inputs with TF32 math: the same kernel on f32 words, wgmma m64nNk8 (A and B K-major
// only: the ISA transposes 16-bit types alone), BK = 32 (one 128-byte swizzle row of f32, so
// the 4 stages are 48 KiB each again), f32 output through the direct epilogue (the builder's
// default epilogue for tf32).
template <int ClusterM = 2>
using DefaultGemmTf32 = Sm90Kernel<Sm90Mainloop<float, GMMA::Major::K, GMMA::Major::K, tuple<_128, _256, _32>, ClusterM>, float>;

// Whether the dispatch takes SmallTileGemm or PingpongGemm: sm90::choose_schedule (sm90_schedule.hpp),
// the same rule as select_configuration (gemm_configuration.hpp).

// D row-major is computed as D^T = B^T A^T, column-major: the wgmma C fragment's stores are
// cheapest into a column-major D (a warp's store covers 4 columns x 16 bytes; row-major, 8
// rows x 8 bytes), and even with pairs packed into 32-bit stores the opposite choice is much
// slower (bench/notes/sm90_gemm.md). A (M x K) becomes
// B' of D^T and B (K x N) becomes A': the same storage read with the other roles (a row-major
// A is a K-major B', a column-major B a K-major A').
inline GemmArguments as_column_major_d(const GemmArguments& g) {
  if (g.c.major == Major::Col) return g;
  GemmArguments t = g;
  t.m = g.n;
  t.n = g.m;
  t.a = g.b;
  t.a.major = g.b.major == Major::Col ? Major::Row : Major::Col;
  t.b = g.a;
  t.b.major = g.a.major == Major::Row ? Major::Col : Major::Row;
  t.c.major = Major::Col;
  // bias[m] of D is bias[n] of D^T
  if (g.epilogue.bias == Bias::PerRow) t.epilogue.bias = Bias::PerColumn;
  if (g.epilogue.bias == Bias::PerColumn) t.epilogue.bias = Bias::PerRow;
  return t;
}

template <class Kernel>
struct GemmSm90 {
  // (the builders count the stages' and staging's bytes; this, the kernel's whole storage)
  static_assert(Kernel::smem_bytes <= arch::Sm90::smem_capacity, "GemmSm90: the kernel's shared storage exceeds a CTA's 227 KiB");
  using Mainloop = typename Kernel::Mainloop;
  using Element = typename Mainloop::Element;
  using ElementD = typename Kernel::Epilogue::ElementD;

  using Scheduler = typename Kernel::Scheduler;

  typename Kernel::Params params{};
  int grid = 0;
  int64_t batch = 1;
  std::size_t arrival_bytes = 0;  // split-K counters to zero before each launch
  bool split_allowed = true;      // (bench: --no-split)
  bool divided_boxes = true;      // TMA dims divided by the smem tile's structure (bench: --mode-boxes)
  int boxes_a = 0, boxes_b = 0;   // TMA copies per k-tile chosen by initialize (A, this CTA's B part)

  // Split-K workspace of a plan: one f32 accumulator tile per slice of every split tile and
  // CTA of its cluster, then one arrival counter per split tile and CTA.
  static std::size_t partials_bytes(const SplitPlan& plan, int64_t tiles) {
    return std::size_t(tiles - plan.whole) * std::size_t(plan.split) * Kernel::ClusterM * Mainloop::BM * Mainloop::BN * sizeof(float);
  }
  static std::size_t workspace_bytes(const SplitPlan& plan, int64_t tiles) {
    if (plan.split < 2) return 0;
    return partials_bytes(plan, tiles) + std::size_t(tiles - plan.whole) * Kernel::ClusterM * sizeof(unsigned);
  }

  // As many clusters as can be resident at once (an SM holds one CTA; a cluster's CTAs
  // share a GPC, so odd SMs may stay idle).
  // Every use of the entry takes its address once and passes it on (Entry), so that the stub
  // the driver is asked about is the stub launched: each TU that instantiates the kernel has
  // its own stub and device module, and an inline function may run as another TU's copy
  // (entry_cache.hpp).
  using Entry = decltype(&gemm_sm90_entry<Kernel>);
  // Opts the entry in to its dynamic shared memory, once per stub and device.
  static bool prepare_entry(Entry entry) {
    int dev = 0;
    if (cudaGetDevice(&dev) != cudaSuccess) {
      cudaGetLastError();
      return false;
    }
    return kernels::device::opt_in_dynamic_smem(entry, dev, Kernel::smem_bytes);
  }
  // As many clusters as can be resident at once (an SM holds one CTA; a cluster's CTAs
  // share a GPC, so odd SMs may stay idle).
  static int resident_clusters(Entry entry) {
    int dev = 0, sms = 0;
    if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess) {
      cudaGetLastError();
      return 1;
    }
    using kernels::device::EntryCache;
    const int clusters = kernels::device::entry_cache().get(reinterpret_cast<const void*>(entry), dev, EntryCache::Fact::ResidentClusters, [&] {
      int c = 0;
      cudaLaunchConfig_t cfg = launch_config(dim3(unsigned(sms / Kernel::ClusterM * Kernel::ClusterM)), nullptr);
      cudaLaunchAttribute at[1];
      cfg.attrs = cluster_attribute(at);
      cfg.numAttrs = 1;
      if (!prepare_entry(entry) || cudaOccupancyMaxActiveClusters(&c, entry, &cfg) != cudaSuccess || c <= 0) {
        cudaGetLastError();
        c = sms / Kernel::ClusterM;
      }
      return c > 0 ? c : 1;
    });
    return clusters > 0 ? clusters : 1;
  }

  // The workspace split-K of the last wave would use for `g` (0: no split).
  static std::size_t workspace_size(const GemmArguments& g) {
    if (!Scheduler::Splits || !can_implement(g)) return 0;
    const Entry entry = &gemm_sm90_entry<Kernel>;
    if (!prepare_entry(entry)) return 0;
    const int64_t tiles = raster_of(g).tile_count();
    if constexpr (Scheduler::Splits) return workspace_bytes(Scheduler::plan_for(tiles, k_tiles_of(g), resident_clusters(entry)), tiles);
    else return 0;
  }
  // The problem's cluster tiles in the scheduler's raster, and its k-tiles.
  static PersistentTileScheduler raster_of(const GemmArguments& g) {
    return sm90::raster_of<Mainloop::BM, Mainloop::BN, Mainloop::ClusterM>(g.m, g.n, g.batch);
  }
  static int k_tiles_of(const GemmArguments& g) { return int(ceil_div(g.k, C<Mainloop::BK>{})); }
  // The device adapters' common name (device::GemmAdapter<Kernel> of the SIMT and SM80 kernels).
  static std::size_t get_workspace_size(const GemmArguments& g) { return workspace_size(g); }
  // Whether the launch runs split-K slices (the plan splits and the workspace holds it).
  bool splits() const { return arrival_bytes > 0; }
  // A fused TMA-store kernel has no direct epilogue: it runs only where TMA stores D.
  bool runnable() const {
    if constexpr (requires { Kernel::Epilogue::FusedAct; }) {
      if constexpr (Kernel::Epilogue::FusedAct != Activation::Identity) return params.epilogue.use_tma;
    }
    return true;
  }

  template <class T>
  static constexpr kernels::Element element_enum_of() {
    return std::is_same_v<T, float> ? kernels::Element::F32
                                    : std::is_same_v<T, bfloat16_t> ? kernels::Element::BF16 : kernels::Element::F16;
  }
  static constexpr kernels::Element element_enum() { return element_enum_of<Element>(); }
  static constexpr CUtensorMapDataType tensor_map_type_of(kernels::Element e) {
    return e == kernels::Element::F32 ? CU_TENSOR_MAP_DATA_TYPE_FLOAT32
                                      : e == kernels::Element::BF16 ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 : CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  }
  static constexpr CUtensorMapDataType tensor_map_type() { return tensor_map_type_of(element_enum()); }
  static constexpr int64_t per16 = 16 / int64_t(sizeof(Element));  // elements in 16 bytes
  // The direct epilogue's parameters (the TMA-store epilogue keeps them for its fallback).
  auto& direct_params() {
    if constexpr (requires { params.epilogue.direct; }) return params.epilogue.direct;
    else return params.epilogue;
  }
  // A is K-major when row-major (M x K); B (K x N) is K-major when column-major.
  static constexpr Major a_major() { return Mainloop::MajorA == GMMA::Major::K ? Major::Row : Major::Col; }
  static constexpr Major b_major() { return Mainloop::MajorB == GMMA::Major::K ? Major::Col : Major::Row; }

  static GemmResult can_implement(const GemmArguments& g) {
    if (auto r = check_arguments(g); !r) return r;
    if (g.element != element_enum())
      return {GemmStatus::Unsupported, std::string("the sm90 kernel was built for ") + to_string(element_enum())};
    if (output_element(g) != element_enum_of<ElementD>())
      return {GemmStatus::Unsupported, std::string("this sm90 kernel writes D in ") + to_string(element_enum_of<ElementD>())};
    if (g.element == kernels::Element::F32 && !g.allow_tf32)
      return {GemmStatus::Unsupported, "the sm90 kernel multiplies f32 inputs as tf32 only: set allow_tf32 (else the SIMT kernel runs them in f32)"};
    if (g.a.major != a_major() || g.b.major != b_major())
      return {GemmStatus::Unsupported, "the sm90 kernel was built for other operand majors"};
    auto aligned16 = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
    // TMA: 16-byte aligned base addresses and strides (ld and batch strides whole 16 bytes).
    if (!aligned16(g.a.ptr) || !aligned16(g.b.ptr) || g.a.ld % per16 != 0 || g.b.ld % per16 != 0 ||
        (g.batch > 1 && (g.a.batch_stride % per16 != 0 || g.b.batch_stride % per16 != 0)))
      return {GemmStatus::Misaligned, "the sm90 kernel's TMA copies need 16-byte aligned A/B, leading dimensions and batch strides"};
    // TMA coordinates are 32-bit.
    if (g.m >= (int64_t(1) << 31) || g.n >= (int64_t(1) << 31) || g.k >= (int64_t(1) << 31) || g.batch >= (int64_t(1) << 31))
      return {GemmStatus::InvalidSize, "the sm90 kernel addresses M, N, K, L below 2^31"};
    int dev = 0, major = 0;
    if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess) {
      cudaGetLastError();
      return {GemmStatus::NoDevice, "no CUDA device is available"};
    }
    if (major != 9) return {GemmStatus::Unsupported, "the sm90 kernel needs compute capability 9.0 (wgmma, TMA)"};
    return {};
  }

  GemmResult initialize(const GemmArguments& g) {
    if (auto r = can_implement(g); !r) return r;
    const bool batched = g.batch > 1;
    // Per operand: the TMA dims divided by the tile's structure first (fewer, larger boxes),
    // the per-mode dims where the problem's extent is not a multiple of a divided mode's
    // inner parts (an MN-major operand whose M or N is not a multiple of 64) or where the
    // divided arrangement does not apply. The arrangements are the mainloop's plans (the
    // producer's boxes are the same plans evaluated at compile time), rebound here.
    using Plan = typename Mainloop::Plan;
    constexpr bool ak = Mainloop::KMajorA, bk = Mainloop::KMajorB;
    // The operands as (rows, K[, L]) tensors: A (M, K), B (N, K).
    const int64_t a_ext[3] = {g.m, g.k, g.batch}, b_ext[3] = {g.n, g.k, g.batch};
    const int64_t a_str[3] = {ak ? g.a.ld : 1, ak ? 1 : g.a.ld, g.a.batch_stride};
    const int64_t b_str[3] = {bk ? g.b.ld : 1, bk ? 1 : g.b.ld, g.b.batch_stride};
    const int modes = batched ? 3 : 2;
    // The arrangement chosen and its arguments rebound, or false where TMA cannot copy the tile.
    auto choose = [&](int operand, const int64_t* ext, const int64_t* str, tma::Arguments& bound, TmaArrangement& chosen) -> bool {
      const TmaArrangement divided = tma_arrangement(batched, true), per_mode = tma_arrangement(batched, false);
      const Plan& d = Mainloop::plan(operand, divided);
      if (divided_boxes && d.boxes.ok()) {
        bound = tma::rebind_gmem(d.args, modes, ext, str);
        chosen = divided;
        if (bound.rule == tma::Rule::ok) return true;
      }
      const Plan& p = Mainloop::plan(operand, per_mode);
      if (!p.boxes.ok()) return false;
      bound = tma::rebind_gmem(p.args, modes, ext, str);
      chosen = per_mode;
      return true;
    };
    tma::Arguments aa, ba;
    TmaArrangement arr_a{}, arr_b{};
    if (!choose(0, a_ext, a_str, aa, arr_a) || !choose(1, b_ext, b_str, ba, arr_b))
      return {GemmStatus::Unsupported, std::string("sm90 kernel: TMA cannot copy the operand tiles: ") +
                                           tma::to_string(Mainloop::plan(0, tma_arrangement(batched, false)).boxes.rule) + " / " +
                                           tma::to_string(Mainloop::plan(1, tma_arrangement(batched, false)).boxes.rule)};
    if (aa.rule != tma::Rule::ok || ba.rule != tma::Rule::ok)
      return {GemmStatus::Misaligned, std::string("sm90 kernel: ") + tma::to_string(aa.rule != tma::Rule::ok ? aa.rule : ba.rule)};
    auto& ml = params.mainloop;
    const CUtensorMapDataType type = tensor_map_type();
    if (tma::encode_tensor_map(&ml.map_a, aa, g.a.ptr, type) != CUDA_SUCCESS ||
        tma::encode_tensor_map(&ml.map_b, ba, g.b.ptr, type) != CUDA_SUCCESS)
      return {GemmStatus::LaunchFailed, "cuTensorMapEncodeTiled refused the operands' tensor maps"};
    ml.arrangement_a = arr_a;
    ml.arrangement_b = arr_b;
    boxes_a = Mainloop::plan(0, arr_a).boxes.count;
    boxes_b = Mainloop::plan(1, arr_b).boxes.count;
    // Part r of the B tile starts at its first row's offset in the stage layout.
    for (int r = 0; r < Mainloop::ClusterM; ++r)
      ml.part_b_offset[r] = uint32_t(int64_t(Mainloop::stage_b(r * (Mainloop::BN / Mainloop::ClusterM), 0)) * Mainloop::Bits / 8);
    ml.k_tiles = k_tiles_of(g);
    auto& ep = direct_params();
    const bool d_row = g.c.major == Major::Row;  // C and D share a major
    ep.d = static_cast<ElementD*>(g.d);
    ep.d_stride_m = d_row ? g.ldd : 1;
    ep.d_stride_n = d_row ? 1 : g.ldd;
    ep.d_batch_stride = g.batch_stride_d;
    ep.c = g.beta != 0.0f ? static_cast<const ElementD*>(g.c.ptr) : nullptr;
    ep.c_stride_m = d_row ? g.c.ld : 1;
    ep.c_stride_n = d_row ? 1 : g.c.ld;
    ep.c_batch_stride = g.c.batch_stride;
    ep.m = g.m;
    ep.n = g.n;
    ep.alpha = g.alpha;
    ep.beta = g.beta;
    ep.bias = g.epilogue.bias != Bias::None ? static_cast<const ElementD*>(g.epilogue.bias_ptr) : nullptr;
    ep.bias_along_m = g.epilogue.bias == Bias::PerRow;
    ep.activation = g.epilogue.activation;
    if constexpr (requires { params.epilogue.use_tma; }) setup_tma_store(g);
    auto& sc = params.scheduler;
    sc.raster = raster_of(g);
    sc.k_tiles = ml.k_tiles;
    const Entry entry = &gemm_sm90_entry<Kernel>;
    if (!prepare_entry(entry))
      return {GemmStatus::LaunchFailed, "cudaFuncSetAttribute(MaxDynamicSharedMemorySize) failed for the sm90 kernel"};
    const int slots = resident_clusters(entry);
    const int64_t tiles = sc.tile_count();
    // Split-K of the last wave when it pays and the caller's workspace holds it.
    params.partials = nullptr;
    params.arrivals = nullptr;
    arrival_bytes = 0;
    if constexpr (Scheduler::Splits) {
      sc.plan = {tiles, 1};
      if (g.workspace != nullptr && split_allowed) {
        const SplitPlan plan = Scheduler::plan_for(tiles, ml.k_tiles, slots);
        const std::size_t need = workspace_bytes(plan, tiles);
        if (need > 0 && need <= g.workspace_bytes) {
          sc.plan = plan;
          params.partials = static_cast<float4*>(g.workspace);
          params.arrivals = reinterpret_cast<unsigned*>(static_cast<unsigned char*>(g.workspace) + partials_bytes(plan, tiles));
          arrival_bytes = need - partials_bytes(plan, tiles);
        }
      }
    }
    const int64_t units = sc.work_count();
    grid = int(units < slots ? units : slots) * Kernel::ClusterM;
    batch = g.batch;
    return {};
  }

  // The TMA-store epilogue where it applies (sm90_epilogue_operands.hpp: D column-major, D
  // and, for beta != 0, C 16-byte aligned with ld and batch stride multiples of 16 bytes; C
  // through TMA loads on the plain instance only); the direct epilogue elsewhere.
  void setup_tma_store(const GemmArguments& g) {
    using Epi = typename Kernel::Epilogue;
    auto& e = params.epilogue;
    e.use_tma = false;
    e.load_c = false;
    const bool batched = g.batch > 1;
    const Sm90EpilogueOperands ops = sm90_epilogue_operands(g, int(sizeof(ElementD)), Epi::FusedAct != Activation::Identity);
    if (!ops.status) return;
    struct Proto {
      tma::Arguments a;
      TmaStore<Epi::MaxBoxes> t;
    };
    auto make_proto = [](bool batched_) {
      Proto p;
      const int64_t rows = 1024, cols = 1024;
      if (batched_)
        (void)make_tma_copy<SM90_TMA_STORE, Epi::MaxBoxes, Epi::Bits>(
            p.a, make_layout(make_shape(rows, cols, int64_t(2)), make_stride(int64_t(1), rows, rows * cols)), Epi::staging);
      else
        (void)make_tma_copy<SM90_TMA_STORE, Epi::MaxBoxes, Epi::Bits>(
            p.a, make_layout(make_shape(rows, cols), make_stride(int64_t(1), rows)), Epi::staging);
      p.t.boxes = tma::make_tile_boxes<Epi::MaxBoxes>(p.a, Epi::staging);
      return p;
    };
    static const Proto proto2 = make_proto(false), proto3 = make_proto(true);
    const Proto& proto = batched ? proto3 : proto2;
    if (!proto.t.boxes.ok()) return;
    const tma::Arguments a = tma::rebind_gmem(proto.a, ops.modes, ops.extent, ops.d_stride);
    if (a.rule != tma::Rule::ok) return;
    const CUtensorMapDataType type = tensor_map_type_of(element_enum_of<ElementD>());
    if (tma::encode_tensor_map(&e.map_d, a, g.d, type) != CUDA_SUCCESS) return;
    if (ops.load_c) {
      // C: D's box geometry over C's strides (TMA loads fill what lies past M and N with 0).
      const tma::Arguments c = tma::rebind_gmem(proto.a, ops.modes, ops.extent, ops.c_stride);
      if (c.rule != tma::Rule::ok || tma::encode_tensor_map(&e.map_c, c, g.c.ptr, type) != CUDA_SUCCESS) return;
    }
    e.tma_d = proto.t;
    e.use_tma = true;
    e.load_c = ops.load_c;
  }

  static cudaLaunchConfig_t launch_config(dim3 grid_dim, cudaStream_t stream) {
    cudaLaunchConfig_t cfg{};
    cfg.gridDim = grid_dim;
    cfg.blockDim = dim3(Kernel::Threads);
    cfg.dynamicSmemBytes = Kernel::smem_bytes;
    cfg.stream = stream;
    return cfg;
  }
  static cudaLaunchAttribute* cluster_attribute(cudaLaunchAttribute* at) {
    at[0].id = cudaLaunchAttributeClusterDimension;
    at[0].val.clusterDim.x = Kernel::ClusterM;
    at[0].val.clusterDim.y = 1;
    at[0].val.clusterDim.z = 1;
    return at;
  }

  GemmResult run(cudaStream_t stream = nullptr) const {
    if (!runnable())
      return {GemmStatus::Unsupported, "the fused TMA-store sm90 kernel needs a D that TMA can store (beta 0, 16-byte aligned)"};
    if (arrival_bytes > 0 && cudaMemsetAsync(params.arrivals, 0, arrival_bytes, stream) != cudaSuccess)
      return {GemmStatus::LaunchFailed, std::string("sm90 split-K counters: ") + cudaGetErrorString(cudaGetLastError())};
    // (again here: the copy of initialize that ran may be another TU's, which opted in its stub)
    const Entry entry = &gemm_sm90_entry<Kernel>;
    if (!prepare_entry(entry))
      return {GemmStatus::LaunchFailed, "cudaFuncSetAttribute(MaxDynamicSharedMemorySize) failed for the sm90 kernel"};
    cudaLaunchConfig_t cfg = launch_config(dim3(unsigned(grid)), stream);
    cudaLaunchAttribute at[1];
    cfg.attrs = cluster_attribute(at);
    cfg.numAttrs = 1;
    // (the launch's own status: cudaPeekAtLastError would also report an error left by an
    // earlier, unrelated call, e.g. inside another library)
    if (const cudaError_t e = cudaLaunchKernelEx(&cfg, entry, params); e != cudaSuccess) {
      cudaGetLastError();
      return {GemmStatus::LaunchFailed, std::string("sm90 kernel launch: ") + cudaGetErrorString(e)};
    }
    return {};
  }
};

}  // namespace tessera::kernels::sm90
