// The SM90 collectives' and kernels' contracts on the host (no GPU; nvcc for the collectives'
// headers, no kernel compiled): each collective's can_implement, with the reason for every
// refusal, and its workspace size; the kernel's composition of them (the first refusal, the
// Stream-K workspace against the plan's definition and the Params it gives, the scheduler's
// arguments); the kernel list's traits and the dispatch's rule over it.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>
#include <string>

#include "device/sm90_kernel_list.hpp"
#include "device/sm90_schedule.hpp"
#include "kernel/sm90_gemm_tma_warpspecialized.cuh"
#include "kernel/sm90_gemm_tma_warpspecialized_pingpong.cuh"

using namespace tessera;
using namespace tessera::kernels;
namespace set = tessera::kernels::device::sm90_set;

namespace {
using WholeTN = set::Whole<bfloat16_t, set::K, set::K, bfloat16_t>;      // 128x256, clusters of 2, TMA-store epilogue
using SmallNT = set::Small<half_t, set::MN, set::MN>;                     // 128x128, MN-major operands
using SplitTN = set::Split<bfloat16_t, set::K, set::K>;                   // Stream-K
using FusedRelu = set::Fused<bfloat16_t, Activation::ReLU>;               // the ReLU TMA-store instance
using Tf32 = set::Tf32;                                                   // f32 as tf32, direct epilogue
using Pingpong = set::Pingpong<bfloat16_t>;                               // 64x128 ping-pong
using Fp8 = set::Fp8<float_e4m3_t, float_e4m3_t, bfloat16_t>;              // e4m3 x e4m3 -> bf16, 128x256x128
using Fp8Mixed = set::Fp8<float_e5m2_t, float_e4m3_t, bfloat16_t>;         // e5m2 x e4m3 -> bf16
using Fp8Quantized = set::Fp8Quantized<float_e4m3_t, float_e4m3_t>;        // e4m3 x e4m3 -> e4m3 + amax, the tree epilogue

alignas(16) unsigned char arena[1 << 12];

// An aligned problem in the kernels' orientation (D column-major) for inputs `e`: A (M x K)
// and B (K x N) with the majors a and b, D in `out`.
GemmArguments problem(int64_t m, int64_t n, int64_t k, Element e, Major a, Major b, Element out, int64_t batch = 1) {
  GemmArguments g;
  g.m = m, g.n = n, g.k = k, g.batch = batch;
  g.element = e;
  g.allow_tf32 = e == Element::F32;
  g.a = {arena, a, a == Major::Row ? k : m, m * k};
  g.b = {arena + 256, b, b == Major::Col ? k : n, k * n};
  g.c = {nullptr, Major::Col, m, m * n};
  g.d = arena + 512;
  g.ldd = m;
  g.batch_stride_d = m * n;
  if (out != e) g.epilogue.output = out;
  return g;
}
GemmArguments tn(int64_t m, int64_t n, int64_t k, Element e = Element::BF16) {
  return problem(m, n, k, e, Major::Row, Major::Col, e);
}
bool has(const GemmResult& r, GemmStatus s, const char* text) {
  return r.status == s && r.message.find(text) != std::string::npos;
}
template <class Collective>
GemmResult mainloop_verdict(const GemmArguments& g) {
  return Collective::can_implement(sm90::problem_shape_of(g), Collective::arguments_of(g));
}
}  // namespace

TEST_CASE("sm90 mainloop contract: what it takes and why it refuses the rest") {
  using M = WholeTN::Mainloop;
  CHECK(mainloop_verdict<M>(tn(1000, 1000, 1000)));
  CHECK(mainloop_verdict<SmallNT::Mainloop>(problem(512, 512, 64, Element::F16, Major::Col, Major::Row, Element::F16)));
  CHECK(has(mainloop_verdict<M>(tn(64, 64, 64, Element::F16)), GemmStatus::Unsupported, "built for bf16"));
  GemmArguments f32 = tn(64, 64, 64, Element::F32);
  CHECK(mainloop_verdict<Tf32::Mainloop>(f32));
  f32.allow_tf32 = false;
  CHECK(has(mainloop_verdict<Tf32::Mainloop>(f32), GemmStatus::Unsupported, "allow_tf32"));
  CHECK(has(mainloop_verdict<M>(problem(64, 64, 64, Element::BF16, Major::Col, Major::Col, Element::BF16)), GemmStatus::Unsupported,
            "other operand majors"));
  GemmArguments big = tn(int64_t(1) << 31, 64, 64);
  CHECK(has(mainloop_verdict<M>(big), GemmStatus::InvalidSize, "below 2^31"));
  CHECK(M::get_workspace_size(sm90::problem_shape_of(big), M::arguments_of(big)) == 0);

  rc::prop("TMA's 16 bytes: refused as misaligned exactly where a pointer, ld or batch stride is off them", [] {
    const int64_t m = *rc::gen::inRange<int64_t>(1, 3000), n = *rc::gen::inRange<int64_t>(1, 3000), k = *rc::gen::inRange<int64_t>(8, 3000);
    const int64_t batch = *rc::gen::inRange<int64_t>(1, 3);
    GemmArguments g = tn(m, n, k);
    g.batch = batch;
    g.a.ld = k + *rc::gen::inRange<int64_t>(0, 16);
    g.b.ld = k + *rc::gen::inRange<int64_t>(0, 16);
    g.a.batch_stride = *rc::gen::inRange<int64_t>(0, 1 << 20);
    const int offset = *rc::gen::element(0, 2, 8, 16);  // bytes: A's address off 16 unless 0 or 16
    g.a.ptr = arena + offset;
    const bool aligned = offset % 16 == 0 && g.a.ld % 8 == 0 && g.b.ld % 8 == 0 && (batch == 1 || g.a.batch_stride % 8 == 0) &&
                         (batch == 1 || g.b.batch_stride % 8 == 0);
    const GemmResult r = mainloop_verdict<M>(g);
    RC_ASSERT(bool(r) == aligned);
    if (!aligned) RC_ASSERT(has(r, GemmStatus::Misaligned, "16-byte aligned"));
  });
}

TEST_CASE("sm90 mainloop contract: the tensor maps' arrangement, divided where the problem's extents allow") {
  // K-major tiles: the divided arrangement is the per-mode one, always taken; batched problems
  // take the 3-mode plans.
  using M = WholeTN::Mainloop;
  for (int64_t m : {64, 1000, 4096})
    for (int64_t batch : {1, 3}) {
      GemmArguments g = tn(m, 520, 136);
      g.batch = batch;
      const auto b = M::bind(sm90::problem_shape_of(g), M::arguments_of(g));
      CHECK(b.status);
      CHECK(b.arrangement_a == sm90::tma_arrangement(batch > 1, true));
      CHECK(b.arrangement_b == sm90::tma_arrangement(batch > 1, true));
      // the per-mode boxes when the caller picks them (bench --mode-boxes)
      const auto p = M::bind<sm90::TmaBoxesPerMode>(sm90::problem_shape_of(g), M::arguments_of(g));
      CHECK((p.status && p.arrangement_a == sm90::tma_arrangement(batch > 1, false) && p.arrangement_b == sm90::tma_arrangement(batch > 1, false)));
    }
  // MN-major tiles of 64-row atoms: one divided box where M (N) is whole atoms, else per mode.
  using S = SmallNT::Mainloop;
  for (int64_t m : {64, 72, 128, 1000, 1024}) {
    const GemmArguments g = problem(m, 1024, 64, Element::F16, Major::Col, Major::Row, Element::F16);
    const auto b = S::bind(sm90::problem_shape_of(g), S::arguments_of(g));
    INFO("M = " << m);
    CHECK(b.status);
    CHECK(b.arrangement_a == (m % 64 == 0 ? sm90::TmaArrangement::divided : sm90::TmaArrangement::per_mode));
    CHECK(b.arrangement_b == sm90::TmaArrangement::divided);
  }
}

TEST_CASE("sm90 epilogue contracts: D's type, and the fused instance's TMA-storable D") {
  using Plain = WholeTN::Epilogue;
  using Fused = FusedRelu::Epilogue;
  using Direct = Tf32::Epilogue;
  static_assert(Plain::FusedAct == Activation::Identity && Fused::FusedAct == Activation::ReLU && Direct::FusedAct == Activation::Identity);
  GemmArguments g = tn(1024, 1024, 64);
  const auto shape = sm90::problem_shape_of(g);
  CHECK(Plain::can_implement(shape, Plain::arguments_of(g)));
  // the fused instance applies its own activation, whatever the problem says: it refuses another
  CHECK(has(Fused::can_implement(shape, Fused::arguments_of(g)), GemmStatus::Unsupported, "applies only relu, not identity"));
  g.epilogue.activation = Activation::ReLU;
  CHECK(Fused::can_implement(shape, Fused::arguments_of(g)));
  g.epilogue.activation = Activation::Identity;
  CHECK(Plain::get_workspace_size(shape, Plain::arguments_of(g)) == 0);
  CHECK(Fused::get_workspace_size(shape, Fused::arguments_of(g)) == 0);
  CHECK(Direct::get_workspace_size(shape, Direct::arguments_of(g)) == 0);
  // D in another type than the epilogue writes
  GemmArguments f32d = g;
  f32d.epilogue.output = Element::F32;
  CHECK(has(Plain::can_implement(shape, Plain::arguments_of(f32d)), GemmStatus::Unsupported, "writes D in bf16"));
  CHECK(has(Direct::can_implement(shape, Direct::arguments_of(g)), GemmStatus::Unsupported, "writes D in f32"));
  // What TMA cannot store: the plain instance takes it (its direct stores), the fused one refuses with the reason.
  GemmArguments row = g;
  row.c.major = Major::Row;
  row.epilogue.activation = Activation::ReLU;  // (the plain instance ignores it here: its direct stores apply it)
  CHECK(Plain::can_implement(shape, Plain::arguments_of(row)));
  CHECK(has(Fused::can_implement(shape, Fused::arguments_of(row)), GemmStatus::Unsupported, "column-major D"));
  GemmArguments beta = g;
  beta.beta = 0.5f;
  beta.c.ptr = arena + 1024;
  CHECK(Plain::can_implement(shape, Plain::arguments_of(beta)));
  beta.epilogue.activation = Activation::ReLU;
  CHECK(has(Fused::can_implement(shape, Fused::arguments_of(beta)), GemmStatus::Unsupported, "beta == 0 only"));
  GemmArguments odd = g;
  odd.ldd = 1028 + 3;
  CHECK(Plain::can_implement(shape, Plain::arguments_of(odd)));
  odd.epilogue.activation = Activation::ReLU;
  CHECK(has(Fused::can_implement(shape, Fused::arguments_of(odd)), GemmStatus::Unsupported, "16-byte aligned D"));
}

TEST_CASE("sm90 kernel contract: the collectives' verdicts composed, the split-K workspace, the scheduler's arguments") {
  // The mainloop is asked first: a problem both refuse gets the mainloop's reason.
  GemmArguments both = problem(64, 64, 64, Element::BF16, Major::Col, Major::Col, Element::F32);
  CHECK(has(WholeTN::can_implement(WholeTN::arguments_of(both)), GemmStatus::Unsupported, "other operand majors"));
  GemmArguments f32d = tn(64, 64, 64);
  f32d.epilogue.output = Element::F32;
  CHECK(has(WholeTN::can_implement(WholeTN::arguments_of(f32d)), GemmStatus::Unsupported, "writes D in bf16"));
  CHECK(Pingpong::can_implement(Pingpong::arguments_of(tn(1000, 1000, 1000))));

  rc::prop("the Stream-K kernel's workspace is the plan's f32 slots and flags; whole-tile kernels need none", [] {
    const int64_t m = *rc::gen::inRange<int64_t>(1, 9000), n = *rc::gen::inRange<int64_t>(1, 9000), k = *rc::gen::inRange<int64_t>(8, 20000);
    const int clusters = *rc::gen::inRange(1, 80);
    const sm90::KernelHardwareInfo hw{2 * clusters, clusters};
    const GemmArguments g = tn(m, n, k);
    const int64_t tiles = ((m + 255) / 256) * ((n + 255) / 256);  // cluster tiles: 2 x 128 rows, 256 columns
    const int64_t k_tiles = (k + 63) / 64;
    // (a memory-bound problem's single partial wave is shared however full: memory_bound_problem)
    const StreamKPlan plan = plan_stream_k(tiles, k_tiles, clusters, kStreamKMinUnitKTiles, memory_bound_problem(m, n));
    // slots: a unit's CTA tiles (2 per cluster), 128 x 256 f32 each, then a 64-bit flag per slot
    const std::size_t slots = std::size_t(plan.sk_units) * 2;
    const std::size_t expected = slots == 0 ? 0 : (slots * 128 * 256 * 4 + 127) / 128 * 128 + slots * 8;  // (64-bit flags)
    RC_ASSERT(SplitTN::get_workspace_size(SplitTN::arguments_of(g), hw) == expected);
    RC_ASSERT(WholeTN::get_workspace_size(WholeTN::arguments_of(g), hw) == 0u);
    RC_ASSERT(Pingpong::get_workspace_size(Pingpong::arguments_of(g), hw) == 0u);
    // Params: the plan, its grid and the fix-up's workspace where the workspace holds it; whole
    // tiles on the resident clusters where it does not (none, or a byte short).
    // (status: the tensor maps need a driver, which a host without a GPU lacks; the plan does not)
    GemmResult status;
    const auto args = SplitTN::arguments_of(g);
    const auto none = SplitTN::to_underlying_arguments(args, nullptr, 0, hw, status);
    RC_ASSERT(!SplitTN::splits(none) && none.scheduler.schedule.plan.sk_units == 0 && none.scheduler.schedule.clusters == clusters);
    RC_ASSERT(SplitTN::grid_size(none, hw) == int(std::min<int64_t>(tiles, clusters)) * 2);
    if (expected > 0) {
      const auto p = SplitTN::to_underlying_arguments(args, arena, expected, hw, status);
      RC_ASSERT(SplitTN::splits(p) && p.scheduler.schedule.plan.sk_units == plan.sk_units &&
                p.scheduler.schedule.plan.dp_tiles == plan.dp_tiles && SplitTN::grid_size(p, hw) == 2 * clusters);
      RC_ASSERT(reinterpret_cast<unsigned char*>(p.fixup.partials) == arena &&
                reinterpret_cast<unsigned char*>(p.fixup.flags) == arena + (expected - slots * 8));
      const auto short_ws = SplitTN::to_underlying_arguments(args, arena, expected - 1, hw, status);
      RC_ASSERT(!SplitTN::splits(short_ws) && short_ws.scheduler.schedule.plan.sk_units == 0);
    }
  });

  // The scheduler: the raster of cluster tiles, its group as given (0: the library's).
  auto args = WholeTN::arguments_of(tn(1000, 3000, 200));
  auto sc = WholeTN::scheduler_of(args);
  CHECK((sc.raster.tiles_m == 4 && sc.raster.tiles_n == 12 && sc.raster.group == sm90::raster_group(2) && sc.k_tiles == 4));
  args.scheduler.raster_group = 3;
  CHECK(WholeTN::scheduler_of(args).raster.group == 3);
}

namespace {
// A cooperative 128 x 64 kernel in clusters of 2 along N (not listed: the builder's other cluster
// direction, which shares A).
using AlongN = sm90::AlongNGemm<bfloat16_t>;
}  // namespace

TEST_CASE("sm90 clusters along N: A's tile shared in parts, the raster of cluster tiles along N, each CTA's tile") {
  using M = AlongN::Mainloop;
  static_assert(M::ClusterM == 1 && M::ClusterN == 2 && M::ClusterSize == 2 && AlongN::ClusterSize == 2);
  // Each CTA copies half of A's 128 x 64 stage (multicast to both) and all of its own B tile;
  // every consumer warp of both CTAs frees a stage of either.
  static_assert(M::stage_a_bytes == 128 * 64 * 2 && M::stage_b_bytes == 64 * 64 * 2 && M::ConsumerArrivals == 4 * 2 * 2);
  static_assert(int(get<0>(M::tile_part_a)) == 64 && int(get<0>(M::tile_part_b)) == 64 && int(get<0>(M::tile_b)) == 64);
  static_assert(std::is_same_v<M::TmaOpA, SM90_TMA_LOAD_MULTICAST> && std::is_same_v<M::TmaOpB, SM90_TMA_LOAD>);
  for (int arrangement = 0; arrangement < sm90::tma_arrangement_count; ++arrangement) {
    const auto& a = M::plan(0, sm90::TmaArrangement(arrangement));
    const auto& b = M::plan(1, sm90::TmaArrangement(arrangement));
    if (a.boxes.ok()) CHECK(a.boxes.tx_bytes * 2 == uint32_t(M::stage_a_bytes));  // the two parts fill the stage
    if (b.boxes.ok()) CHECK(b.boxes.tx_bytes == uint32_t(M::stage_b_bytes));
  }
  // CTA r of cluster tile (m, n) runs tile (m, 2 n + r); its part of A starts r 64 rows in.
  static_assert(M::cta_tile_m(5, 1) == 5);
  static_assert(M::cta_tile_n(5, 0) == 10);
  static_assert(M::cta_tile_n(5, 1) == 11);
  // The raster: cluster tiles of 128 rows by 2 x 64 columns; the grid two CTAs per cluster.
  const auto args = AlongN::arguments_of(tn(1000, 1000, 1000));
  CHECK(AlongN::can_implement(args));
  const auto sc = AlongN::scheduler_of(args);
  CHECK((sc.raster.tiles_m == 8 && sc.raster.tiles_n == 8 && sc.k_tiles == 16));
  GemmResult status;
  const sm90::KernelHardwareInfo hw{132, 66};
  const auto p = AlongN::to_underlying_arguments(args, nullptr, 0, hw, status);
  CHECK(AlongN::grid_size(p, hw) == 2 * 64);
  CHECK((p.mainloop.part_offset[0] == 0u && p.mainloop.part_offset[1] == uint32_t(64 * 64 * 2)));
  CHECK(AlongN::get_workspace_size(args, hw) == 0u);
}

namespace {
// A listed kernel's epilogue order (the ping-pong kernel has none: each consumer warpgroup's
// epilogue runs under the other's mainloop).
template <class Kernel>
struct OrderOf {
  using type = sm90::EpilogueAfterTile;
};
template <class M, class E, class S, class O>
struct OrderOf<sm90::GemmTmaWarpSpecialized<M, E, S, O>> {
  using type = O;
};
// Whether a listed kernel is one the shipped order applies to: cooperative, whole tiles,
// 128x256, 16-bit inputs and D, no block scales.
// The whole-tile cooperative 128x256 kernels of 16-bit or FP8 (per-tensor) inputs with a 16-bit D.
constexpr bool whole_128x256_16bit_d(const set::KernelTraits& t) {
  auto bits16 = [](Element e) { return e == Element::BF16 || e == Element::F16; };
  auto bits8 = [](Element e) { return e == Element::E4M3 || e == Element::E5M2; };
  // (and the 256x128 tile, 128x256 turned: the same accumulators per consumer thread)
  return !t.pingpong && !t.stream_k && !t.block_scaled && ((t.bm == 128 && t.bn == 256) || (t.bm == 256 && t.bn == 128)) &&
         (bits16(t.element) || bits8(t.element)) && bits16(t.output);
}
}  // namespace

TEST_CASE("sm90 kernel list: the whole-tile 128x256 and 256x128 kernels of a 16-bit D stage their epilogue under the next tile's first 2 k-tiles") {
  static_assert(std::is_same_v<sm90::ShippedEpilogueOrder, sm90::EpilogueUnderNextTile<2>>);
  // every listed kernel: the shipped order exactly where it applies, after the tile elsewhere
  // (an f32 or e4m3 D, Stream-K, block scales, the other tiles, ping-pong)
  int under = 0, after = 0;
  set::find_kernel([&](auto shipped) {
    using Kernel = typename decltype(shipped)::Kernel;
    using Order = typename OrderOf<Kernel>::type;
    constexpr bool applies = whole_128x256_16bit_d(set::traits_of<Kernel>);
    static_assert(std::is_same_v<Order, std::conditional_t<applies, sm90::ShippedEpilogueOrder, sm90::EpilogueAfterTile>>,
                  "the shipped order on the whole-tile 128x256 kernels of a 16-bit D only");
    (applies ? under : after) += 1;
    return false;
  });
  // (every other listed kernel is after the tile: the static_assert above, per kernel; their
  // count follows the list, so it is not pinned here)
  // bf16 and f16: 4 majors with D in T (8), GELU tanh, ReLU, SiLU (6); FP8 e4m3 x e4m3 to bf16
  // and f16, e4m3 x e5m2 and e5m2 x e4m3 to bf16 (4); the bf16 256x128 kernel (1)
  CHECK(under == 19);
  CHECK(after > under);
  static_assert(std::is_same_v<WholeTN::EpilogueOrder, sm90::EpilogueUnderNextTile<2>> && WholeTN::HeadKTiles == 2 &&
                std::is_same_v<FusedRelu::EpilogueOrder, sm90::EpilogueUnderNextTile<2>> &&
                std::is_same_v<set::Whole<half_t, set::MN, set::MN, half_t>::EpilogueOrder, sm90::EpilogueUnderNextTile<2>> &&
                std::is_same_v<set::Whole<bfloat16_t, set::K, set::K, float>::EpilogueOrder, sm90::EpilogueAfterTile> &&
                std::is_same_v<SplitTN::EpilogueOrder, sm90::EpilogueAfterTile>);
  // the order changes neither the ring nor the shared memory: the A/B twins are the same kernel
  // but for it
  using After = sm90::SerialEpilogueGemm<bfloat16_t>;
  using FusedAfter = sm90::FusedTmaGemmAfterTile<bfloat16_t, Activation::ReLU>;
  static_assert(std::is_same_v<After::EpilogueOrder, sm90::EpilogueAfterTile> && std::is_same_v<After::Mainloop, WholeTN::Mainloop> &&
                std::is_same_v<After::Epilogue, WholeTN::Epilogue> && After::smem_bytes == WholeTN::smem_bytes &&
                WholeTN::Mainloop::Stages == 4 && WholeTN::HeadKTiles < WholeTN::Mainloop::Stages);
  static_assert(std::is_same_v<FusedAfter::EpilogueOrder, sm90::EpilogueAfterTile> && std::is_same_v<FusedAfter::Epilogue, FusedRelu::Epilogue> &&
                FusedAfter::smem_bytes == FusedRelu::smem_bytes);
  // the plain kernel takes what it does not pack (run after the tile in the same kernel); the
  // fused one takes only what it packs
  static_assert(!WholeTN::epilogue_packs_all && FusedRelu::epilogue_packs_all);
  // two entries (each consumer path allocated alone by ptxas) only where both paths run
  static_assert(WholeTN::TwoEntries && !FusedRelu::TwoEntries && !After::TwoEntries && !SplitTN::TwoEntries && !Pingpong::TwoEntries);
  const GemmArguments g = tn(1024, 1024, 256);
  const auto shape = sm90::problem_shape_of(g);
  using Plain = WholeTN::Epilogue;
  CHECK(Plain::packs(shape, Plain::arguments_of(g)));
  GemmArguments beta = g;
  beta.beta = 0.5f;
  beta.c.ptr = arena + 1024;
  GemmArguments biased = g;
  biased.epilogue.bias = Bias::PerRow;
  biased.epilogue.bias_ptr = arena + 2048;
  GemmArguments relu = g;
  relu.epilogue.activation = Activation::ReLU;
  GemmArguments odd = g;
  odd.ldd = 1024 + 3;
  for (const GemmArguments* x : {&beta, &biased, &relu, &odd}) {
    CHECK_FALSE(Plain::packs(shape, Plain::arguments_of(*x)));
    CHECK(WholeTN::can_implement(WholeTN::arguments_of(*x)));
    CHECK(After::can_implement(After::arguments_of(*x)));
  }
  // the launch's choice (the kernel's uniform branch): D's tensor map, no C, and on the plain
  // instance no bias or activation (those go to its direct stores)
  Plain::Params launch{};
  launch.use_tma = true;
  CHECK(Plain::packs(launch));
  Plain::Params with_c = launch, without_map = launch, with_bias = launch, with_act = launch;
  with_c.load_c = true;
  without_map.use_tma = false;
  static const bfloat16_t bias_vector[1] = {};
  with_bias.direct.bias = bias_vector;
  with_act.direct.activation = Activation::SiLU;
  for (const Plain::Params* x : {&with_c, &without_map, &with_bias, &with_act}) CHECK_FALSE(Plain::packs(*x));
  // the launch's entry: the second (after the tile) exactly where the epilogue does not pack
  WholeTN::Params kernel_launch{};
  kernel_launch.epilogue = launch;
  CHECK_FALSE(WholeTN::after_tile_launch(kernel_launch));
  for (const Plain::Params* x : {&with_c, &without_map, &with_bias, &with_act}) {
    kernel_launch.epilogue = *x;
    CHECK(WholeTN::after_tile_launch(kernel_launch));
  }
  FusedRelu::Epilogue::Params fused_launch{};
  fused_launch.use_tma = true;
  fused_launch.direct.activation = Activation::ReLU;
  CHECK(FusedRelu::Epilogue::packs(fused_launch));
  CHECK(FusedRelu::can_implement(FusedRelu::arguments_of(relu)));
  CHECK(has(FusedRelu::can_implement(FusedRelu::arguments_of(g)), GemmStatus::Unsupported, "applies only relu"));
  relu.beta = 0.5f;
  relu.c.ptr = arena + 1024;
  CHECK(has(FusedRelu::can_implement(FusedRelu::arguments_of(relu)), GemmStatus::Unsupported, "beta == 0 only"));
}

TEST_CASE("sm90 kernel list: each kernel's traits from its type, and the schedule rule over the list") {
  constexpr set::KernelTraits w = set::traits_of<WholeTN>, p = set::traits_of<Pingpong>, s = set::traits_of<SplitTN>,
                              f = set::traits_of<FusedRelu>, t = set::traits_of<Tf32>, nt = set::traits_of<SmallNT>;
  static_assert(w.element == Element::BF16 && w.output == Element::BF16 && w.a_k_major && w.b_k_major && w.bm == 128 && w.bn == 256 &&
                !w.pingpong && !w.stream_k && w.fused == Activation::Identity);
  static_assert(p.pingpong && p.bm == 64 && p.bn == 128 && !p.stream_k && s.stream_k && f.fused == Activation::ReLU);
  static_assert(t.element == Element::F32 && t.output == Element::F32 && !nt.a_k_major && !nt.b_k_major && nt.bn == 128);
  static_assert(set::has_fused_tma(Activation::GELUTanh) && set::has_fused_tma(Activation::SiLU) && !set::has_fused_tma(Activation::GELU) &&
                !set::has_fused_tma(Activation::Identity));
  static_assert(std::tuple_size_v<set::Kernels> == 68, "the shipped kernels (sm90_kernel_list.hpp's table)");
  // the 256x128 kernel: two m64 atoms along M per consumer warpgroup, clusters of 2, bf16 TN
  constexpr set::KernelTraits tall = set::traits_of<set::Tall<set::bf16>>;
  static_assert(tall.bm == 256 && tall.bn == 128 && tall.cluster_m == 2 && !tall.stream_k && !tall.pingpong && tall.a_k_major &&
                tall.b_k_major && tall.element == Element::BF16 && tall.output == Element::BF16);
  static_assert(set::Tall<set::bf16>::Mainloop::AtomsM == 2 && set::Tall<set::bf16>::Mainloop::ConsumerWarpgroups == 2 &&
                set::Tall<set::bf16>::Mainloop::Stages == 4);
  // the D major, read off the epilogue: row-major for the MidRow kernels and Fp8BlockRows only
  constexpr set::KernelTraits mr = set::traits_of<set::MidRowSplit<set::f16>>, mc = set::traits_of<set::MidSplit<set::f16>>;
  static_assert(mr.d_major == Major::Row && mc.d_major == Major::Col && w.d_major == Major::Col && mr.bn == 192 && mr.stream_k &&
                mr.cluster_m == 2 && mr.output == Element::F16);
  // the cluster, read off the mainloop's policy: 2 along M for the cooperative kernels, none for
  // ping-pong and the TN 128x128 kernel without a cluster
  constexpr set::KernelTraits solo = set::traits_of<set::Solo<set::bf16>>;
  static_assert(w.cluster_m == 2 && nt.cluster_m == 2 && p.cluster_m == 1 && solo.cluster_m == 1 && solo.bm == 128 &&
                solo.bn == 128 && !solo.pingpong && !solo.stream_k && solo.a_k_major && solo.b_k_major);
  static_assert(sm90::runs_schedule(solo, sm90::Schedule::Cooperative128x128NoCluster) &&
                !sm90::runs_schedule(solo, sm90::Schedule::Cooperative128x128) &&
                !sm90::runs_schedule(nt, sm90::Schedule::Cooperative128x128NoCluster));
  constexpr set::KernelTraits e = set::traits_of<Fp8>, x = set::traits_of<Fp8Mixed>;
  static_assert(e.element == Element::E4M3 && e.element_b == Element::E4M3 && e.output == Element::BF16 && e.a_k_major &&
                e.b_k_major && e.bm == 128 && e.bn == 256 && !e.stream_k && x.element == Element::E5M2 && x.element_b == Element::E4M3 &&
                w.element_b == Element::BF16);
  // Every listed kernel is found by its own traits, and the plain kernels of each schedule
  // exist where choose_schedule sends a problem.
  CHECK(sm90::schedule_built(sm90::Schedule::Pingpong64x128, tn(100, 100, 100)));
  CHECK(!sm90::schedule_built(sm90::Schedule::Pingpong64x128, tn(100, 100, 100, Element::F32)));
  CHECK(sm90::schedule_built(sm90::Schedule::Cooperative128x128,
                             problem(100, 100, 100, Element::F16, Major::Col, Major::Col, Element::F16)));
  CHECK(!sm90::schedule_built(sm90::Schedule::Cooperative128x128,
                              problem(100, 100, 100, Element::F16, Major::Col, Major::Col, Element::F32)));
  // 128x128 without a cluster: 16-bit TN with D in the inputs' type, whole tiles only
  for (const Element e : {Element::BF16, Element::F16}) {
    CHECK(sm90::schedule_built(sm90::Schedule::Cooperative128x128NoCluster, tn(100, 100, 100, e)));
    CHECK(!sm90::stream_k_built(sm90::Schedule::Cooperative128x128NoCluster, tn(100, 100, 100, e)));
    CHECK(!sm90::schedule_built(sm90::Schedule::Cooperative128x128NoCluster, problem(100, 100, 100, e, Major::Col, Major::Row, e)));
    CHECK(!sm90::schedule_built(sm90::Schedule::Cooperative128x128NoCluster, problem(100, 100, 100, e, Major::Row, Major::Col, Element::F32)));
  }
  // (TN 128x128 in clusters: a Stream-K kernel only, which runs whole tiles without a workspace;
  // the rule weighs it only under Stream-K)
  CHECK(!sm90::built(sm90::Schedule::Cooperative128x128, tn(100, 100, 100), false));
  CHECK(sm90::whole_tile_kernel(sm90::Schedule::Cooperative128x128, tn(100, 100, 100))->stream_k);
  CHECK(!sm90::whole_considered(sm90::Schedule::Cooperative128x128, tn(100, 100, 100)));
  // The decode kernel: 128x64 tiles, two consumer warpgroups, no cluster, Stream-K only, 16-bit
  // TN with D in the inputs' type
  constexpr set::KernelTraits dec = set::traits_of<set::Decode<set::bf16>>, dec16 = set::traits_of<set::Decode<set::f16>>;
  static_assert(dec.bm == 128 && dec.bn == 64 && dec.cluster_m == 1 && dec.stream_k && !dec.pingpong && dec.a_k_major &&
                dec.b_k_major && dec.element == Element::BF16 && dec.output == Element::BF16 && dec16.element == Element::F16 &&
                dec16.output == Element::F16 && dec.fused == Activation::Identity);
  static_assert(sm90::runs_schedule(dec, sm90::Schedule::Cooperative128x64NoCluster) &&
                !sm90::runs_schedule(dec, sm90::Schedule::Cooperative128x128NoCluster) &&
                !sm90::runs_schedule(solo, sm90::Schedule::Cooperative128x64NoCluster));
  for (const Element e : {Element::BF16, Element::F16}) {
    CHECK(sm90::stream_k_built(sm90::Schedule::Cooperative128x64NoCluster, tn(6144, 64, 4096, e)));
    CHECK(!sm90::built(sm90::Schedule::Cooperative128x64NoCluster, tn(6144, 64, 4096, e), false));
    CHECK(sm90::whole_tile_kernel(sm90::Schedule::Cooperative128x64NoCluster, tn(6144, 64, 4096, e))->stream_k);
    CHECK(!sm90::stream_k_built(sm90::Schedule::Cooperative128x64NoCluster, problem(6144, 64, 4096, e, Major::Col, Major::Row, e)));
    CHECK(!sm90::stream_k_built(sm90::Schedule::Cooperative128x64NoCluster, problem(6144, 64, 4096, e, Major::Row, Major::Col, Element::F32)));
  }
  // The 128x192 kernels: two consumer warpgroups of 64 x 192, clusters of 2, whole tiles and
  // Stream-K, 16-bit TN with D in the inputs' type
  constexpr set::KernelTraits mid = set::traits_of<set::Mid<set::bf16>>, mid_sk = set::traits_of<set::MidSplit<set::f16>>;
  static_assert(mid.bm == 128 && mid.bn == 192 && mid.cluster_m == 2 && !mid.stream_k && !mid.pingpong && mid.a_k_major &&
                mid.b_k_major && mid.element == Element::BF16 && mid.output == Element::BF16 && mid.fused == Activation::Identity);
  static_assert(mid_sk.bm == 128 && mid_sk.bn == 192 && mid_sk.cluster_m == 2 && mid_sk.stream_k && mid_sk.element == Element::F16 &&
                mid_sk.output == Element::F16);
  static_assert(sm90::runs_schedule(mid, sm90::Schedule::Cooperative128x192) && !sm90::runs_schedule(mid, sm90::Schedule::Cooperative128x256));
  for (const Element e : {Element::BF16, Element::F16}) {
    CHECK(sm90::schedule_built(sm90::Schedule::Cooperative128x192, tn(3072, 3072, 3072, e)));
    CHECK(sm90::stream_k_built(sm90::Schedule::Cooperative128x192, tn(3072, 3072, 3072, e)));
    CHECK(!sm90::schedule_built(sm90::Schedule::Cooperative128x192, problem(3072, 3072, 3072, e, Major::Col, Major::Row, e)));
    CHECK(!sm90::schedule_built(sm90::Schedule::Cooperative128x192, problem(3072, 3072, 3072, e, Major::Row, Major::Col, Element::F32)));
  }
  // gemm_tune's candidates for 16-bit TN: every whole-tile kernel (the column-major D's, then
  // the row-major D's, run on the problem transposed; TN 128x128 in clusters of 2 and 128x64:
  // their Stream-K kernels without a workspace), then the Stream-K ones (the 256x128 kernel:
  // bf16 only, whole tiles only)
  using Config = sm90::Sm90Config;
  CHECK(sm90::built_configs(tn(1000, 1000, 1024, Element::BF16)) ==
        std::vector<Config>{{sm90::Schedule::Cooperative128x256, false}, {sm90::Schedule::Cooperative256x128, false},
                            {sm90::Schedule::Cooperative128x192, false}, {sm90::Schedule::Cooperative128x128, false},
                            {sm90::Schedule::Cooperative128x128NoCluster, false}, {sm90::Schedule::Cooperative128x64NoCluster, false},
                            {sm90::Schedule::Pingpong64x128, false}, {sm90::Schedule::Cooperative128x192, false, Major::Row},
                            {sm90::Schedule::Cooperative128x256, true}, {sm90::Schedule::Cooperative128x192, true},
                            {sm90::Schedule::Cooperative128x128, true}, {sm90::Schedule::Cooperative128x64NoCluster, true},
                            {sm90::Schedule::Cooperative128x192, true, Major::Row}});
  for (const Element e : {Element::F16})
    CHECK(sm90::built_configs(tn(1000, 1000, 1024, e)) ==
          std::vector<Config>{{sm90::Schedule::Cooperative128x256, false}, {sm90::Schedule::Cooperative128x192, false},
                              {sm90::Schedule::Cooperative128x128, false}, {sm90::Schedule::Cooperative128x128NoCluster, false},
                              {sm90::Schedule::Cooperative128x64NoCluster, false}, {sm90::Schedule::Pingpong64x128, false},
                              {sm90::Schedule::Cooperative128x192, false, Major::Row},
                              {sm90::Schedule::Cooperative128x256, true}, {sm90::Schedule::Cooperative128x192, true},
                              {sm90::Schedule::Cooperative128x128, true}, {sm90::Schedule::Cooperative128x64NoCluster, true},
                              {sm90::Schedule::Cooperative128x192, true, Major::Row}});
  // the row-major D's kernels only where the list builds them (TN) and for plain problems
  CHECK(sm90::stream_k_built(sm90::Schedule::Cooperative128x192, sm90::as_row_major_d(tn(3072, 3072, 3072))));
  CHECK(!sm90::schedule_built(sm90::Schedule::Cooperative128x256, sm90::as_row_major_d(tn(3072, 3072, 3072))));
}

namespace {
GemmArguments fp8(int64_t m, int64_t n, int64_t k, Element a = Element::E4M3, Element b = Element::E4M3, Element out = Element::BF16) {
  GemmArguments g = problem(m, n, k, a, Major::Row, Major::Col, out);
  if (b != a) g.element_b = b;
  return g;
}
// A block-scaled FP8 problem with the caller's D row-major (torch's layout), M x N x K, D's
// leading dimension N, the scales at the given pointers.
GemmArguments fp8_block_row_d(int64_t m, int64_t n, int64_t k, const float* scale_a = nullptr, const float* scale_b = nullptr) {
  GemmArguments g = fp8(m, n, k);
  g.c.major = Major::Row;
  g.ldd = n;
  g.scale_mode = ScaleMode::Block;
  g.scale_a = scale_a;
  g.scale_b = scale_b;
  return g;
}
}  // namespace

TEST_CASE("sm90 FP8: the mainloop's types, the kernel list's FP8 kernels, the schedule, D^T's operands") {
  // The mainloop takes the types it was built for, A's and B's each, and TMA's 16 bytes.
  using M = Fp8::Mainloop;
  static_assert(M::BK == 128 && M::AtomK == 32 && M::Stages == 4 && M::stage_a_bytes == 128 * 128 && M::stage_b_bytes == 256 * 128);
  CHECK(mainloop_verdict<M>(fp8(1000, 1000, 1000 + 24)));
  CHECK(mainloop_verdict<Fp8Mixed::Mainloop>(fp8(64, 7168, 512, Element::E5M2, Element::E4M3)));
  CHECK(has(mainloop_verdict<M>(fp8(64, 64, 64, Element::E4M3, Element::E5M2)), GemmStatus::Unsupported, "built for e4m3"));
  CHECK(has(mainloop_verdict<M>(tn(64, 64, 64)), GemmStatus::Unsupported, "built for e4m3"));
  CHECK(has(mainloop_verdict<Fp8Mixed::Mainloop>(fp8(64, 64, 64)), GemmStatus::Unsupported, "built for A e5m2 and B e4m3"));
  GemmArguments g = fp8(64, 64, 64);
  g.a.ld = 72;  // 72 bytes: off TMA's 16
  CHECK(has(mainloop_verdict<M>(g), GemmStatus::Misaligned, "16-byte aligned"));
  g.a.ld = 80;
  CHECK(mainloop_verdict<M>(g));
  // The epilogue writes the D it was built for.
  CHECK(Fp8::Epilogue::can_implement(sm90::problem_shape_of(g), Fp8::Epilogue::arguments_of(g)));
  CHECK(has(Fp8::Epilogue::can_implement(sm90::problem_shape_of(fp8(64, 64, 64, Element::E4M3, Element::E4M3, Element::F32)),
                                         Fp8::Epilogue::arguments_of(fp8(64, 64, 64, Element::E4M3, Element::E4M3, Element::F32))),
            GemmStatus::Unsupported, "writes D in bf16"));
  // The list: the plain 128x256 kernels for e4m3 x e4m3 to every D and the mixed pairs to bf16;
  // 128x128 for e4m3 x e4m3 to bf16 only, where small problems go (the others stay on 128x256).
  for (Element out : {Element::BF16, Element::F16, Element::F32})
    CHECK(sm90::schedule_built(sm90::Schedule::Cooperative128x256, fp8(100, 100, 128, Element::E4M3, Element::E4M3, out)));
  CHECK(sm90::schedule_built(sm90::Schedule::Cooperative128x256, fp8(100, 100, 128, Element::E4M3, Element::E5M2)));
  CHECK(sm90::schedule_built(sm90::Schedule::Cooperative128x256, fp8(100, 100, 128, Element::E5M2, Element::E4M3)));
  CHECK(!sm90::schedule_built(sm90::Schedule::Cooperative128x256, fp8(100, 100, 128, Element::E5M2, Element::E5M2)));
  CHECK(!sm90::schedule_built(sm90::Schedule::Cooperative128x256, fp8(100, 100, 128, Element::E4M3, Element::E5M2, Element::F32)));
  CHECK(sm90::choose_schedule(fp8(64, 7168, 512), 132) == sm90::Schedule::Cooperative128x128);
  CHECK(sm90::choose_schedule(fp8(64, 7168, 512, Element::E5M2, Element::E4M3), 132) == sm90::Schedule::Cooperative128x256);
  CHECK(sm90::choose_schedule(fp8(8192, 8192, 512), 132) == sm90::Schedule::Cooperative128x256);
  CHECK(!sm90::schedule_built(sm90::Schedule::Cooperative128x128, fp8(100, 100, 128, Element::E4M3, Element::E4M3, Element::F16)));
  static_assert(set::traits_of<set::Fp8Small<float_e4m3_t, float_e4m3_t, bfloat16_t>>.bn == 128 &&
                set::traits_of<set::Fp8Small<float_e4m3_t, float_e4m3_t, bfloat16_t>>.element == Element::E4M3);
  // Stream-K for e4m3 x e4m3 to bf16 (the list's FP8 Stream-K kernels, 128x256 and 128x128)
  // where few tiles meet a long K; whole tiles where they fill the GPU, and for the other
  // types (no Stream-K kernel of theirs).
  static_assert(set::traits_of<set::Fp8StreamK<float_e4m3_t, float_e4m3_t, bfloat16_t, 256>>.stream_k &&
                set::traits_of<set::Fp8StreamK<float_e4m3_t, float_e4m3_t, bfloat16_t, 128>>.bn == 128);
  // Few tokens, per-tensor: the decode tile under Stream-K only, 128 x 160 in clusters of 2 over
  // whole tiles; their tiles, clusters, schedulers and stage counts read off their types (8
  // stages of 24 KiB, 5 of 36 KiB). No per-tensor FP8 kernel runs 128 x 128 without a cluster.
  using Fp8Dec = set::Fp8Decode<float_e4m3_t, float_e4m3_t, bfloat16_t>;
  using Fp8Mid = set::Fp8Mid<float_e4m3_t, float_e4m3_t, bfloat16_t>;
  constexpr set::KernelTraits fd = set::traits_of<Fp8Dec>, fm = set::traits_of<Fp8Mid>;
  static_assert(fd.bm == 128 && fd.bn == 64 && fd.cluster_m == 1 && fd.stream_k && !fd.block_scaled && fd.element == Element::E4M3 &&
                fd.output == Element::BF16);
  static_assert(fm.bm == 128 && fm.bn == 160 && fm.cluster_m == 2 && !fm.stream_k && !fm.block_scaled && fm.d_major == Major::Col);
  static_assert(sm90::runs_schedule(fd, sm90::Schedule::Cooperative128x64NoCluster) &&
                sm90::runs_schedule(fm, sm90::Schedule::Cooperative128x160) && !sm90::runs_schedule(fm, sm90::Schedule::Cooperative128x128));
  static_assert(Fp8Dec::Mainloop::Stages == 8 && Fp8Mid::Mainloop::Stages == 5);
  CHECK(!sm90::stream_k_built(sm90::Schedule::Cooperative128x128NoCluster, fp8(128, 7168, 16384)));
  static_assert(Fp8Mid::Mainloop::stage_b_bytes == 160 * 128 && Fp8Dec::Mainloop::stage_b_bytes == 64 * 128);
  CHECK(sm90::stream_k_built(sm90::Schedule::Cooperative128x256, fp8(64, 7168, 16384)));
  CHECK(sm90::stream_k_built(sm90::Schedule::Cooperative128x128, fp8(64, 7168, 16384)));
  CHECK(!sm90::stream_k_built(sm90::Schedule::Cooperative128x256, fp8(64, 7168, 16384, Element::E4M3, Element::E5M2)));
  CHECK(!sm90::stream_k_built(sm90::Schedule::Cooperative128x256, fp8(64, 7168, 16384, Element::E4M3, Element::E4M3, Element::F16)));
  CHECK(sm90::choose_stream_k(fp8(7168, 64, 16384), 132).has_value());
  CHECK(sm90::choose_stream_k(fp8(7168, 128, 16384), 132).has_value());
  CHECK(sm90::choose_stream_k(fp8(2112, 4096, 7168), 132) == sm90::Schedule::Cooperative128x256);
  // FP8's whole tiles by the wave model: N = 320 fills 62 % of a 256-column tile, 83 % of a
  // 128-column one and two 160-column ones exactly (DeepGEMM's 320 x 32576 x 7168 as the kernel
  // runs it, D^T: the per-tensor 128 x 160 kernel); 128 x 128 tiles already fill the GPU at
  // 4096 x 512 x 14336 (no Stream-K).
  CHECK(sm90::choose_schedule(fp8(32576, 320, 7168), 132) == sm90::Schedule::Cooperative128x160);
  CHECK(sm90::choose_schedule(fp8(32576, 320, 7168, Element::E4M3, Element::E4M3, Element::F16), 132) ==
        sm90::Schedule::Cooperative128x256);  // (e4m3 to bf16 only: f16 has the 128 x 256 kernel alone)
  CHECK(sm90::choose_schedule(fp8(32576, 4096, 7168), 132) == sm90::Schedule::Cooperative128x256);
  CHECK(sm90::choose_schedule(fp8(4096, 512, 14336), 132) == sm90::Schedule::Cooperative128x128);
  CHECK(!sm90::choose_stream_k(fp8(4096, 512, 14336), 132));
  CHECK(!sm90::choose_stream_k(fp8(8192, 8192, 8192), 132));
  CHECK(!sm90::choose_stream_k(fp8(7168, 64, 16384, Element::E4M3, Element::E5M2), 132));
  CHECK(!sm90::choose_stream_k(fp8(7168, 64, 16384, Element::E4M3, Element::E4M3, Element::F32), 132));
  // D row-major runs as D^T = B^T A^T: the types and the scales go with their operands.
  alignas(4) static float scales[2] = {2.0f, 0.5f};
  g = fp8(64, 7168, 512, Element::E4M3, Element::E5M2);
  g.c.major = Major::Row;
  g.ldd = 7168;
  g.scale_a = &scales[0];
  g.scale_b = &scales[1];
  const GemmArguments t = sm90::as_column_major_d(g);
  CHECK((t.m == 7168 && t.n == 64 && t.element == Element::E5M2 && element_b(t) == Element::E4M3 && t.scale_a == &scales[1] &&
         t.scale_b == &scales[0] && t.a.ptr == g.b.ptr && t.a.major == Major::Row && t.b.major == Major::Col));
  CHECK(output_element(t) == Element::BF16);
  g.element_b.reset();  // one type: element_b stays unset
  CHECK(!sm90::as_column_major_d(g).element_b.has_value());
}

namespace {
// The cooperative 256 x 128 FP8 tile (probe variant c256; not in the kernel list): the builder's
// BM 256, two consumer warpgroups of 128 x 128 (the TiledMma's M repeat of 2), clusters of 2 along M.
using Coop256 = sm90::Sm90Kernel<CollectiveBuilder<arch::Sm90, OpClassTensorOp, float_e4m3_t, KMajor, 16, float_e4m3_t, KMajor, 16, float,
                                                   tuple<_256, _128, _128>, tuple<_2, _1, _1>, StageCountAuto,
                                                   KernelTmaWarpSpecializedCooperative>,
                                 bfloat16_t>;
}  // namespace

TEST_CASE("sm90 FP8 cooperative 256 x 128: two warpgroups of two M repeats, its storage, contracts and raster") {
  using M = Coop256::Mainloop;
  using E = Coop256::Epilogue;
  // The mainloop's TiledMma is two m64n128k32 atoms along M (one per warpgroup), repeated twice
  // over the 256 rows: 2 x 64 f32 per consumer thread, as d256's one m64n256k32.
  static_assert(std::is_same_v<M::TiledMma, decltype(make_tiled_mma(MMA_Atom<SM90_64xNx32_F32E4M3E4M3_SS<128>>{},
                                                                    make_layout(make_shape(_2{}, _1{}, _1{}))))>);
  static_assert(M::ConsumerWarpgroups == 2 && M::AtomsM == 2 && M::AtomValues == 64 && sizeof(M::Accumulators) == 128 * sizeof(float));
  static_assert(M::Stages == 4 && M::stage_a_bytes == 256 * 128 && M::stage_b_bytes == 128 * 128 && M::ClusterM == 2 &&
                M::ConsumerArrivals == 4 * 2 * 2);
  // The epilogue: a 16 KiB buffer per warpgroup, each warpgroup's two repeats staged in turn.
  static_assert(E::AtomsM == 2 && E::Buffers == 2 && E::Parts == 1);
  static_assert(Coop256::Threads == 384 && Coop256::smem_bytes <= arch::Sm90::smem_capacity &&
                Coop256::smem_bytes >= 4 * 48 * 1024 + 2 * sm90::epilogue_staging_bytes);
  const GemmArguments g = fp8(7168, 4096, 16384);  // the kernel's view of 4096 tokens x 7168 outputs: D^T column-major
  CHECK(Coop256::can_implement(Coop256::arguments_of(g)));
  CHECK(has(Coop256::can_implement(Coop256::arguments_of(fp8(256, 128, 128, Element::E5M2, Element::E4M3))), GemmStatus::Unsupported,
            "built for e4m3"));
  // The raster: cluster tiles of 2 x 256 rows by 128 columns (D^T: the weight's 7168 rows, 4096 tokens), 128 k-tiles.
  const auto sc = Coop256::scheduler_of(Coop256::arguments_of(g));
  CHECK((sc.raster.tiles_m == 14 && sc.raster.tiles_n == 32 && sc.k_tiles == 128));
}

TEST_CASE("sm90 FP8 scale modes: rowwise on the FP8 kernels, block on the block-scaled one, D^T's scales") {
  using Block = set::Fp8Block;
  constexpr set::KernelTraits b = set::traits_of<Block>;
  static_assert(b.block_scaled && b.bm == 128 && b.bn == 128 && !b.stream_k && b.element == Element::E4M3 &&
                b.element_b == Element::E4M3 && b.output == Element::BF16 && !set::traits_of<Fp8>.block_scaled);
  static_assert(Block::Mainloop::BlockScaled && !Fp8::Mainloop::BlockScaled && Block::Mainloop::BK == 128 &&
                Block::Mainloop::stage_scale_bytes == 128 * 4 && Fp8::Mainloop::stage_scale_bytes == 0);
  // (the per-tensor kernels' shared storage carries no scale ring)
  static_assert(sizeof(Fp8::Mainloop::SharedStorage) ==
                sizeof(sm90::MainloopSharedStorage<Fp8::Mainloop::stage_a_bytes, Fp8::Mainloop::stage_b_bytes, Fp8::Mainloop::Stages>));
  alignas(16) static float scales[2] = {2.0f, 0.5f};
  // Rowwise runs on the per-tensor whole-tile kernels (the same schedules); never Stream-K, whose
  // kernels scale per tensor only (decode's shape would take Stream-K per tensor).
  GemmArguments g = fp8(7168, 64, 16384);
  g.scale_mode = ScaleMode::Rowwise;
  g.scale_a = &scales[0];
  g.scale_b = &scales[1];
  CHECK(check_arguments(g));
  CHECK(!sm90::choose_stream_k(g, 132).has_value());
  CHECK(sm90::choose_stream_k(fp8(7168, 64, 16384), 132).has_value());
  CHECK(sm90::choose_schedule(g, 132) == sm90::choose_schedule(fp8(7168, 64, 16384), 132));
  CHECK(sm90::schedule_built(sm90::Schedule::Cooperative128x256, g));
  CHECK(!sm90::schedule_built(sm90::Schedule::Cooperative128x256, [&] {
    GemmArguments t = g;
    t.scale_mode = ScaleMode::Block;
    return t;
  }()));
  // Block: the caller's D row-major (64 x 7168 x 16384, decode) runs as D^T: the kernel's A is
  // the caller's B (its 128 x 128 blocks), its B the caller's A (row scales, leading dimension
  // the caller's M rounded up to 4), on the block-scaled 128 x 128 tiles; its Stream-K kernel
  // where few tiles meet a long K (7168 / 128 = 56 tiles on 132 SMs), whole tiles at 4096 rows.
  g = fp8_block_row_d(64, 7168, 16384, &scales[0], &scales[1]);
  g.m = 62;
  CHECK(check_arguments(g));
  const GemmArguments t = sm90::as_column_major_d(g);
  CHECK((t.m == 7168 && t.n == 62 && t.scale_a == &scales[1] && t.scale_b == &scales[0] && t.ld_scale_a == 64 &&
         t.scale_mode == ScaleMode::Block));
  // The kernels check the transposed problem in their view (D column-major, the row scales in
  // scale_b over N); read as a caller's, the same arguments are a column-major D, refused. The
  // caller's row-major D is the view of the kernel with the tokens along its M (Fp8BlockRows).
  CHECK(check_arguments(t, ArgumentsView::Kernel));
  CHECK(has(check_arguments(t), GemmStatus::Unsupported, "needs a row-major D"));
  CHECK(check_arguments(g, ArgumentsView::Kernel));
  {
    GemmArguments short_ld = t;
    short_ld.ld_scale_a = 60;  // below the caller's M (62), now N
    CHECK(has(check_arguments(short_ld, ArgumentsView::Kernel), GemmStatus::InvalidLeadingDim, "smaller than M = 62"));
  }
  CHECK(sm90::choose_schedule(t, 132) == sm90::Schedule::Cooperative128x128);
  // (62 tokens: one 64-column tile, the block-scaled decode kernel; 128 tokens: the 128 x 128 one)
  CHECK(sm90::choose_stream_k(t, 132) == sm90::Schedule::Cooperative128x64NoCluster);
  static_assert(set::traits_of<set::Fp8BlockStreamK>.block_scaled && set::traits_of<set::Fp8BlockStreamK>.stream_k);
  {
    GemmArguments big = g;
    big.m = 4096;
    big.ld_scale_a = 0;
    CHECK(!sm90::choose_stream_k(sm90::as_column_major_d(big), 132));
    big.m = 128;
    CHECK(sm90::choose_stream_k(sm90::as_column_major_d(big), 132) == sm90::Schedule::Cooperative128x128);
  }
  CHECK(sm90::schedule_built(sm90::Schedule::Cooperative128x128, t));
  CHECK(!sm90::schedule_built(sm90::Schedule::Cooperative128x256, t));
  // The mainloops' own refusals (no device needed): each kernel applies its kind of scales only.
  const auto shape = sm90::problem_shape_of(t);
  auto args = Block::Mainloop::arguments_of(t);
  CHECK(args.ld_scale_b == 64);
  auto per_tensor = Fp8::Mainloop::arguments_of(t);
  const GemmResult r = Fp8::Mainloop::can_implement(shape, per_tensor);
  CHECK(r.status == GemmStatus::Unsupported);
  CHECK(r.message.find("does not apply block scales") != std::string::npos);
  args.scale_mode = ScaleMode::Rowwise;
  CHECK(Block::Mainloop::can_implement(shape, args).message.find("block scales (scale_mode = block) only") != std::string::npos);
  // The row scales' TMA copy: (N, KB) f32 with strides (1, ld), one box of 128 rows per stage.
  const tma::Arguments rows = Block::Mainloop::row_scale_arguments(62, 16384, 64);
  CHECK((rows.rule == tma::Rule::ok && rows.rank == 2 && rows.box_dim[0] == 128 && rows.box_dim[1] == 1 &&
         rows.global_dim[0] == 62 && rows.global_dim[1] == 128 && rows.global_stride_bytes[1] == 256 && rows.box_bytes == 512));
  CHECK(Block::Mainloop::row_scale_arguments(62, 16384, 62).rule == tma::Rule::global_stride_alignment);
}

TEST_CASE("sm90 FP8 128x256: a 16-bit D's epilogue under the next tile, rowwise scales after the tile") {
  using Fp8F32 = set::Fp8<float_e4m3_t, float_e4m3_t, float>;
  using Fp8Serial = sm90::Fp8Gemm<float_e4m3_t, float_e4m3_t, bfloat16_t>;
  static_assert(std::is_same_v<Fp8::EpilogueOrder, sm90::EpilogueUnderNextTile<2>> &&
                std::is_same_v<Fp8Mixed::EpilogueOrder, sm90::EpilogueUnderNextTile<2>> &&
                std::is_same_v<set::Fp8<float_e4m3_t, float_e4m3_t, half_t>::EpilogueOrder, sm90::EpilogueUnderNextTile<2>> &&
                std::is_same_v<Fp8F32::EpilogueOrder, sm90::EpilogueAfterTile> &&
                std::is_same_v<set::Fp8Small<float_e4m3_t, float_e4m3_t, bfloat16_t>::EpilogueOrder, sm90::EpilogueAfterTile>);
  // the order changes neither the mainloop nor the epilogue nor the shared memory
  static_assert(std::is_same_v<Fp8Serial::Mainloop, Fp8::Mainloop> && std::is_same_v<Fp8Serial::Epilogue, Fp8::Epilogue> &&
                Fp8Serial::smem_bytes == Fp8::smem_bytes && Fp8::HeadKTiles < Fp8::Mainloop::Stages);
  static_assert(Fp8::TwoEntries && !Fp8::epilogue_packs_all && !Fp8Serial::TwoEntries);
  alignas(16) static float scales[2] = {2.0f, 0.5f};
  GemmArguments per_tensor = fp8(4096, 7168, 16384);
  per_tensor.scale_a = &scales[0];
  per_tensor.scale_b = &scales[1];
  GemmArguments rowwise = per_tensor;
  rowwise.scale_mode = ScaleMode::Rowwise;
  const auto shape = sm90::problem_shape_of(per_tensor);
  using E = Fp8::Epilogue;
  // per-tensor scales are packed (applied before the pack); rowwise ones are not, and the
  // kernel takes both (rowwise through its second entry), as the after-tile twin does
  CHECK(E::packs(shape, E::arguments_of(per_tensor)));
  CHECK_FALSE(E::packs(shape, E::arguments_of(rowwise)));
  for (const GemmArguments* x : {&per_tensor, &rowwise}) {
    CHECK(Fp8::can_implement(Fp8::arguments_of(*x)));
    CHECK(Fp8Serial::can_implement(Fp8Serial::arguments_of(*x)));
  }
  // the launch's entry: the second exactly where the scales are vectors
  Fp8::Params launch{};
  launch.epilogue.use_tma = true;
  launch.epilogue.direct.scale_a = &scales[0];
  launch.epilogue.direct.scale_b = &scales[1];
  CHECK(E::packs(launch.epilogue));
  CHECK_FALSE(Fp8::after_tile_launch(launch));
  launch.epilogue.direct.scale_vectors = true;
  CHECK_FALSE(E::packs(launch.epilogue));
  CHECK(Fp8::after_tile_launch(launch));
  // Stream-K still refuses rowwise (its epilogue pass scales per tensor only)
  using Fp8Sk = set::Fp8StreamK<float_e4m3_t, float_e4m3_t, bfloat16_t, 256>;
  CHECK(has(Fp8Sk::can_implement(Fp8Sk::arguments_of(rowwise)), GemmStatus::Unsupported, "per-tensor FP8 scales only"));
}

TEST_CASE("sm90 block-scaled FP8 decode kernel: the 128 x 64 tile of the block-scaled mainloop") {
  // The same mainloop and promotion as the 128 x 128 kernel (A' the weight's 128 x 128 blocks, one
  // scalar per tile and k-tile; B' the tokens, a vector of BN column scales per k-tile, TMA-copied
  // beside the stage), with BN = 64, no cluster, Stream-K.
  using Dec = set::Fp8BlockDecode;
  using M = Dec::Mainloop;
  constexpr set::KernelTraits d = set::traits_of<Dec>;
  static_assert(d.block_scaled && d.stream_k && d.bm == 128 && d.bn == 64 && d.cluster_m == 1 && !d.pingpong &&
                d.element == Element::E4M3 && d.element_b == Element::E4M3 && d.output == Element::BF16 && d.a_k_major && d.b_k_major);
  static_assert(sm90::runs_schedule(d, sm90::Schedule::Cooperative128x64NoCluster));
  static_assert(M::BlockScaled && M::BK == 128 && M::ClusterM == 1 && M::stage_scale_bytes == 64 * 4);
  // per stage 16 KiB of weight, 8 KiB of tokens and their 256 B of scales; 32 accumulators and
  // 32 partial sums per consumer thread (wgmma m64n64k32)
  static_assert(M::stage_a_bytes == 16384 && M::stage_b_bytes == 8192 && M::AtomsM * M::AtomValues == 32);
  // seven stages of 24.25 KiB beside the staging (the 16-bit decode kernel's 24 KiB stages fit eight)
  static_assert(M::Stages == 7 && set::Decode<set::bf16>::Mainloop::Stages == 8);
  // The dispatch runs it for 62 tokens through 7168 x 16384 (D^T: N = 62, the row scales over N).
  alignas(16) static float scales[2] = {2.0f, 0.5f};
  GemmArguments g = fp8_block_row_d(62, 7168, 16384, &scales[0], &scales[1]);
  const GemmArguments t = sm90::as_column_major_d(g);
  REQUIRE(check_arguments(t, ArgumentsView::Kernel));
  const auto shape = sm90::problem_shape_of(t);
  const auto args = M::arguments_of(t);
  CHECK((args.scale_a == &scales[1] && args.scale_b == &scales[0] && args.ld_scale_b == 64 && args.scale_mode == ScaleMode::Block));
  // The tokens' scales by TMA: (N, KB) f32 with strides (1, ld), one box of 64 tokens per stage.
  const tma::Arguments rows = M::row_scale_arguments(62, 16384, 64);
  CHECK((rows.rule == tma::Rule::ok && rows.rank == 2 && rows.box_dim[0] == 64 && rows.box_dim[1] == 1 && rows.global_dim[0] == 62 &&
         rows.global_dim[1] == 128 && rows.global_stride_bytes[1] == 256 && rows.box_bytes == 256));
  // Its refusals, with reasons: another scale mode, a leading dimension TMA cannot step, batches.
  auto rowwise = args;
  rowwise.scale_mode = ScaleMode::Rowwise;
  CHECK(M::can_implement(shape, rowwise).message.find("block scales (scale_mode = block) only") != std::string::npos);
  auto odd_ld = args;
  odd_ld.ld_scale_b = 62;
  const GemmResult r = M::can_implement(shape, odd_ld);
  CHECK(r.status == GemmStatus::Misaligned);
  CHECK(r.message.find("row scales") != std::string::npos);
  const GemmResult batched = M::can_implement(sm90::problem_shape_of([&] {
                                                GemmArguments b = t;
                                                b.batch = 2;
                                                return b;
                                              }()),
                                              args);
  CHECK(batched.status == GemmStatus::Unsupported);
  CHECK(batched.message.find("one batch") != std::string::npos);
}

TEST_CASE("sm90 block-scaled FP8 for many tokens: the 128 x 192 kernel, its turns and its promotion's columns") {
  using Wide = set::Fp8BlockWide;
  using M = Wide::Mainloop;
  constexpr set::KernelTraits w = set::traits_of<Wide>;
  static_assert(w.block_scaled && !w.stream_k && w.bm == 128 && w.bn == 192 && w.cluster_m == 2 && !w.pingpong &&
                w.element == Element::E4M3 && w.element_b == Element::E4M3 && w.output == Element::BF16 && w.a_k_major && w.b_k_major);
  static_assert(sm90::runs_schedule(w, sm90::Schedule::Cooperative128x192));
  // The same mainloop as the 128 x 128 kernel's but for its consumers' turns.
  static_assert(M::BlockScaled && M::Issue == sm90::ConsumerIssue::Alternating &&
                set::Fp8Block::Mainloop::Issue == sm90::ConsumerIssue::Together && M::ConsumerWarpgroups == 2);
  // per stage 16 KiB of weight, 24 KiB of tokens (12 KiB per cluster CTA, multicast) and 768 B of
  // their scales; four stages; 96 accumulators and 96 partial sums per consumer thread
  // (wgmma m64n192k32)
  static_assert(M::BK == 128 && M::stage_a_bytes == 16384 && M::stage_b_bytes == 24576 && M::stage_scale_bytes == 192 * 4 &&
                M::Stages == 4 && M::AtomsM * M::AtomValues == 96 && M::ClusterM == 2);
  // The tokens' scales by TMA: one box of 192 rows per stage (rows past N zero-filled).
  const tma::Arguments rows = M::row_scale_arguments(1000, 16384, 1000);
  CHECK((rows.rule == tma::Rule::ok && rows.rank == 2 && rows.box_dim[0] == 192 && rows.box_dim[1] == 1 && rows.global_dim[0] == 1000 &&
         rows.global_dim[1] == 128 && rows.box_bytes == 768));
  // The promotion reads value i's column scale at this thread's first column plus value i's
  // column for thread 0 (a constant offset): the C partition of the 128 x 192 tile over the 256
  // consumer threads covers each element once, and each thread's columns are thread 0's shifted.
  const auto tile = make_shape(C<128>{}, C<192>{});
  const auto id = make_identity_tensor(tile);
  const auto c0 = typename M::TiledMma{}.get_slice(0).partition_C(id);
  std::vector<int> seen(128 * 192, 0);
  bool shifted = true;
  for (int t = 0; t < 256; ++t) {
    const auto c = typename M::TiledMma{}.get_slice(t).partition_C(id);
    const int col0 = int(get<1>(c(0)));
    for (int i = 0; i < 96; ++i) {
      const int r = int(get<0>(c(i))), col = int(get<1>(c(i)));
      REQUIRE((r >= 0 && r < 128 && col >= 0 && col < 192));
      ++seen[size_t(r * 192 + col)];
      shifted = shifted && col == col0 + int(get<1>(c0(i)));
    }
  }
  CHECK(shifted);
  CHECK(std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; }));
  // The rule runs it at 4096 tokens through 7168 x 16384 (D^T: the tokens along its 192 columns).
  alignas(16) static float scales[2] = {2.0f, 0.5f};
  GemmArguments g = fp8_block_row_d(4096, 7168, 16384, &scales[0], &scales[1]);
  const GemmArguments t = sm90::as_column_major_d(g);
  REQUIRE(check_arguments(t, ArgumentsView::Kernel));
  CHECK(sm90::choose_schedule(t, 132) == sm90::Schedule::Cooperative128x192);
  CHECK(!sm90::choose_stream_k(t, 132));
  CHECK(M::can_implement(sm90::problem_shape_of(t), M::arguments_of(t)));
}

TEST_CASE("sm90 block-scaled FP8 with the tokens along M: the row-major kernel, its scale indexing and the rule") {
  using Rows = set::Fp8BlockRows;
  using M = Rows::Mainloop;
  constexpr set::KernelTraits r = set::traits_of<Rows>;
  static_assert(r.block_scaled && !r.stream_k && r.bm == 128 && r.bn == 128 && r.cluster_m == 2 && !r.pingpong &&
                r.d_major == Major::Row && r.element == Element::E4M3 && r.element_b == Element::E4M3 && r.output == Element::BF16 &&
                r.a_k_major && r.b_k_major);
  static_assert(sm90::runs_schedule(r, sm90::Schedule::Cooperative128x128));
  // A's row scales in the stage (128 f32: the tile's tokens), consumers together, 64 accumulators
  // and 64 partial sums per consumer thread, each k-tile promoted under the next one's wgmmas.
  static_assert(M::Promotion == sm90::BlockPromotion::UnderNextKTile);
  static_assert(M::BlockScaled && M::RowsOfA && !set::Fp8Block::Mainloop::RowsOfA && M::Issue == sm90::ConsumerIssue::Together &&
                M::stage_scale_bytes == 128 * 4 && M::AtomsM * M::AtomValues == 64 && M::ClusterM == 2);
  // The blocked operand's first 128-row block of CTA tile (m, n) is B's n (BN = 128: one block
  // per tile); the stage's row scales start at A's row 128 m (m counting the cluster's CTAs).
  static_assert(M::block_scale_tile(5, 3) == 3 && M::scaled_row0(5, 3) == 640 && set::Fp8Block::Mainloop::block_scale_tile(5, 3) == 5 &&
                set::Fp8Block::Mainloop::scaled_row0(5, 3) == 384);
  // The promotion's indexing, read off the C partition of the 128 x 128 tile: value i's row is
  // this thread's first row plus thread 0's row of value i, its 128-column block of B thread 0's
  // block of value i, and a thread's 64 values lie in 2 rows (its 2 row scales per k-tile); the
  // 256 consumer threads cover each element once.
  const auto tile = make_shape(C<128>{}, C<128>{});
  const auto id = make_identity_tensor(tile);
  const auto c0 = typename M::TiledMma{}.get_slice(0).partition_C(id);
  std::vector<int> seen(128 * 128, 0);
  bool shifted = true, same_block = true, two_rows = true;
  for (int t = 0; t < 256; ++t) {
    const auto c = typename M::TiledMma{}.get_slice(t).partition_C(id);
    const int row0 = int(get<0>(c(0)));
    std::vector<int> rows;
    for (int i = 0; i < 64; ++i) {
      const int row = int(get<0>(c(i))), col = int(get<1>(c(i)));
      REQUIRE((row >= 0 && row < 128 && col >= 0 && col < 128));
      ++seen[size_t(row * 128 + col)];
      shifted = shifted && row == row0 + int(get<0>(c0(i)));
      same_block = same_block && col / 128 == int(get<1>(c0(i))) / 128;
      if (std::find(rows.begin(), rows.end(), row) == rows.end()) rows.push_back(row);
    }
    two_rows = two_rows && rows.size() == 2;
  }
  CHECK(shifted);
  CHECK(same_block);
  CHECK(two_rows);
  CHECK(std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; }));
  // Its arguments: the caller's problem unswapped (D row-major): A's row scales (M, KB) by TMA
  // with the caller's ld_scale_a, B's blocks (ceil(N/128), KB).
  alignas(16) static float scales[2] = {2.0f, 0.5f};
  GemmArguments g = fp8_block_row_d(4096, 7168, 16384, &scales[0], &scales[1]);
  REQUIRE(check_arguments(g));
  REQUIRE(check_arguments(g, ArgumentsView::Kernel));  // (the kernels' view of a row-major D: the caller's)
  const auto args = M::arguments_of(g);
  CHECK((args.scale_a == &scales[0] && args.scale_b == &scales[1] && args.ld_scale_b == 4096));
  CHECK(M::can_implement(sm90::problem_shape_of(g), args));
  {
    GemmArguments padded = g;
    padded.ld_scale_a = 4100;  // the caller's, kept
    CHECK(M::arguments_of(padded).ld_scale_b == 4100);
    padded.m = 62;
    padded.ld_scale_a = 0;  // M rounded up to 4
    CHECK(M::arguments_of(padded).ld_scale_b == 64);
  }
  const tma::Arguments rows = M::row_scale_arguments(1000, 16384, 1000);
  CHECK((rows.rule == tma::Rule::ok && rows.box_dim[0] == 128 && rows.global_dim[0] == 1000 && rows.global_dim[1] == 128 &&
         rows.box_bytes == 512));
  {
    GemmArguments short_ld = g;
    short_ld.ld_scale_a = 4092;  // below M
    CHECK(has(check_arguments(short_ld, ArgumentsView::Kernel), GemmStatus::InvalidLeadingDim, "smaller than M = 4096"));
    GemmArguments odd_ld = g;
    odd_ld.m = 1001;
    odd_ld.ld_scale_a = 1001;  // not whole 16 bytes: TMA cannot stride it
    CHECK(has(check_arguments(odd_ld, ArgumentsView::Kernel), GemmStatus::Misaligned, "not a multiple of 4"));
    GemmArguments batched = g;
    batched.batch = 2;
    CHECK(!check_arguments(batched, ArgumentsView::Kernel));
  }
  // The dispatch: past kBlockRowsMinTokens tokens this kernel on whole tiles in the caller's
  // orientation, never a Stream-K kernel of the D^T orientation; at 256 tokens and fewer the D^T
  // kernels' rule (the decode tile, the Stream-K 128 x 128 kernel).
  const sm90::Sm90Config row_config{sm90::Schedule::Cooperative128x128, false, Major::Row};
  CHECK(sm90::choose_config(g, 132) == row_config);
  CHECK(sm90::choose_config(sm90::as_column_major_d(g), 132) == row_config);  // (either orientation given)
  CHECK(!sm90::choose_config_stream_k(g, 132));
  CHECK(sm90::to_string(row_config) == "cooperative 128x128 row-major D");
  const std::vector<sm90::Sm90Config> built = sm90::built_configs(g);
  CHECK(std::find(built.begin(), built.end(), row_config) != built.end());
  for (const int64_t tokens : {1, 64, 128, 256}) {
    GemmArguments few = g;
    few.m = tokens;
    few.ld_scale_a = 0;
    INFO(tokens << " tokens");
    CHECK(sm90::choose_config(few, 132).d == Major::Col);
  }
  for (const int64_t tokens : {257, 320, 2048, 8192}) {
    GemmArguments many = g;
    many.m = tokens;
    many.ld_scale_a = 0;
    INFO(tokens << " tokens");
    CHECK(sm90::choose_config(many, 132) == row_config);
    CHECK(!sm90::choose_config_stream_k(many, 132));
  }
  // Per-tensor FP8 with a row-major D does not take it (it applies block scales only).
  GemmArguments per_tensor = g;
  per_tensor.scale_mode = ScaleMode::PerTensor;
  CHECK(!sm90::schedule_built(sm90::Schedule::Cooperative128x128, per_tensor));
}

namespace {
// The caller's block scales on the host (docs/gemm.md): sa[kb ld + m] per token and k-group,
// sb[(n / 128) KB + kb] per 128 x 128 block of the weight; every value distinct, sa's positive
// and sb's negative, so that a scale read from the wrong array or place cannot match.
struct HostBlockScales {
  std::vector<float> sa, sb;
  int64_t ld = 0, kb = 0;
  explicit HostBlockScales(const GemmArguments& caller)
      : ld(block_scale_ld(caller)), kb((caller.k + scale_block - 1) / scale_block) {
    sa.resize(size_t(ld * kb));
    sb.resize(size_t((caller.n + scale_block - 1) / scale_block * kb));
    for (size_t i = 0; i < sa.size(); ++i) sa[i] = float(1 + i);
    for (size_t i = 0; i < sb.size(); ++i) sb[i] = -float(1 + i);
  }
};

// The block-scaled promotion of `Kernel` emulated on the host with the mainloop's own pieces:
// the kernel's view of the caller's problem (D^T, or the caller's for RowsOfA), arguments_of,
// scale_sources (what the Params are built from), scaled_row0 (where the stage's TMA box of row
// scales starts; zeros past the extent, as TMA fills them), block_scale_tile and
// block_scale_index (the block scale's ldg), and the C partition as mma_block_scaled indexes it
// (RowsOfA: the stage's row row0 + thread 0's row of value i, the block of thread 0's column;
// else the stage's row col0 + thread 0's column of value i, the tile's one block). For every CTA
// tile, consumer thread, value and k-group whose element lies in D, the pair of scales the
// promotion multiplies is checked against the caller's sa and sb of that element of D. Returns
// how many pairs differ (a pointer read past the caller's arrays counts as differing).
using RowsAfterWait = sm90::Fp8BlockRowsGemm<sm90::WholeTileScheduler, 2, KernelTmaWarpSpecializedCooperativeFp8BlockScaledRowsOfA>;
using RowsUnderNextKTile =
    sm90::Fp8BlockRowsGemm<sm90::WholeTileScheduler, 2, KernelTmaWarpSpecializedCooperativeFp8BlockScaledRowsOfAUnderNextKTile>;
static_assert(RowsAfterWait::Mainloop::Promotion == sm90::BlockPromotion::AfterWait &&
              RowsUnderNextKTile::Mainloop::Promotion == sm90::BlockPromotion::UnderNextKTile);
// The 256-row tile of the tokens (not listed: its k-loop spills on sm_90a, bench/notes/fp8.md):
// two consumer warpgroups of two m64 atoms each, promoted atom by atom.
using Rows256 = sm90::Sm90Kernel<CollectiveBuilder<arch::Sm90, OpClassTensorOp, float_e4m3_t, KMajor, 16, float_e4m3_t, KMajor, 16, float,
                                                   tuple<_256, _128, _128>, tuple<_2, _1, _1>, StageCountAuto,
                                                   KernelTmaWarpSpecializedCooperativeFp8BlockScaledRowsOfA>,
                                 bfloat16_t, sm90::WholeTileScheduler, Activation::Identity, kernels::Major::Row>;
static_assert(Rows256::Mainloop::RowsOfA && Rows256::Mainloop::AtomsM == 2 && Rows256::Mainloop::ConsumerWarpgroups == 2);

template <class Kernel>
int64_t promotion_mismatches(const GemmArguments& caller, const HostBlockScales& h) {
  using M = typename Kernel::Mainloop;
  GemmArguments c = caller;
  c.scale_a = h.sa.data();
  c.scale_b = h.sb.data();
  const GemmArguments g = M::RowsOfA ? c : sm90::as_column_major_d(c);
  const auto problem = sm90::problem_shape_of(g);
  const auto src = M::scale_sources(problem, M::arguments_of(g));
  const auto read = [&](const float* base, int64_t i) {
    for (const std::vector<float>* v : {&h.sa, &h.sb})
      if (base == v->data()) return i >= 0 && i < int64_t(v->size()) ? (*v)[size_t(i)] : NAN;
    return NAN;
  };
  const int64_t m = g.m, n = g.n;
  const auto id = make_identity_tensor(make_shape(C<M::BM>{}, C<M::BN>{}));
  const auto c0 = typename M::TiledMma{}.get_slice(0).partition_C(id);
  constexpr int values = M::AtomsM * M::AtomValues;
  int64_t bad = 0;
  for (int64_t tm = 0; tm < (m + M::BM - 1) / M::BM; ++tm)
    for (int64_t tn = 0; tn < (n + M::BN - 1) / M::BN; ++tn) {
      const int64_t block0 = M::block_scale_tile(tm, tn);
      const int64_t first = M::scaled_row0(tm, tn);
      for (int t = 0; t < M::ConsumerWarpgroups * 128; ++t) {
        const auto ct = typename M::TiledMma{}.get_slice(t).partition_C(id);
        const int row0 = int(get<0>(ct(0))), col0 = int(get<1>(ct(0)));
        for (int i = 0; i < values; ++i) {
          const int64_t row = tm * M::BM + int64_t(get<0>(ct(i))), col = tn * M::BN + int64_t(get<1>(ct(i)));
          if (row >= m || col >= n) continue;  // (padding: not stored)
          const int64_t r = first + (M::RowsOfA ? row0 + int(get<0>(c0(i))) : col0 + int(get<1>(c0(i))));
          const int64_t b = M::RowsOfA ? block0 + int(get<1>(c0(i))) / scale_block : block0;
          // the caller's element of D: the kernel's (row, col), or (col, row) for D^T
          const int64_t token = M::RowsOfA ? row : col, output = M::RowsOfA ? col : row;
          const auto agrees = [&](int64_t q, float rs, float bs) {
            return rs == h.sa[size_t(q * h.ld + token)] && bs == h.sb[size_t((output / scale_block) * h.kb + q)];
          };
          if constexpr (M::Promotion == sm90::BlockPromotion::UnderNextKTile) {
            // The loop itself (promote_under_next_k_tile) over the k-groups cut into steps that
            // start anywhere (Stream-K) or one whole step: issue(set, kt) starts the block scale's
            // load at the step's first block scale plus kt and fills the next stage with the
            // step's k-group k_begin + kt (the producer's order); promote(set, kt) reads the
            // oldest stage held and multiplies the set's block scale. Every k-group promoted once.
            for (const int64_t cut : {h.kb, int64_t(1), int64_t(2), int64_t(3), (h.kb + 1) / 2}) {
              std::vector<int> promoted(size_t(h.kb), 0);
              for (int64_t k_begin = 0; k_begin < h.kb; k_begin += cut) {
                const int k_tiles = int(std::min(cut, h.kb - k_begin));
                const float* first = src.blocks + M::block_scale_index(b, k_begin, src.block_rows, src.blocks_ld);
                std::vector<int64_t> stages;  // the k-group each filled stage holds, in order
                size_t held = 0;
                float set_block[2] = {NAN, NAN};
                sm90::promote_under_next_k_tile(
                    k_tiles,
                    [&](auto set, int kt) {
                      const int64_t i = first - src.blocks + kt;  // the device's blocks[j] + kt
                      set_block[decltype(set)::value] = read(src.blocks, i);
                      stages.push_back(k_begin + kt);
                    },
                    [](auto) {},
                    [&](auto set, int kt) {
                      const int64_t q = stages[held++];
                      const float rs = r < src.rows_extent ? read(src.rows, q * src.rows_ld + r) : 0.0f;
                      if (q != k_begin + kt || !agrees(q, rs, set_block[decltype(set)::value])) ++bad;
                      ++promoted[size_t(q)];
                    });
              }
              for (int c : promoted) bad += c != 1;
            }
          } else {
            for (int64_t q = 0; q < h.kb; ++q) {
              const float rs = r < src.rows_extent ? read(src.rows, q * src.rows_ld + r) : 0.0f;
              const float bs = read(src.blocks, M::block_scale_index(b, q, src.block_rows, src.blocks_ld));
              if (!agrees(q, rs, bs)) ++bad;
            }
          }
        }
      }
    }
  return bad;
}
}  // namespace

TEST_CASE("sm90 block-scaled FP8: every kernel's promotion reads each element's documented scales (host emulation)") {
  // The caller's problems (D row-major, the library's block-scale layout): tokens not a multiple
  // of 128 (a tile straddling M) and of 4 (ld_scale_a M rounded up) or padded, outputs not a
  // multiple of 128 (a block of B straddling N: the kernels' padding), K not a multiple of 128.
  struct Shape {
    int64_t tokens, outputs, k, ld_scale_a;
  };
  for (const Shape sh : {Shape{300, 392, 304, 0}, Shape{62, 392, 304, 0}, Shape{385, 260, 400, 392}, Shape{1, 256, 128, 0}}) {
    GemmArguments g = fp8_block_row_d(sh.tokens, sh.outputs, sh.k);
    g.c.ld = g.ldd;
    g.ld_scale_a = sh.ld_scale_a;
    const HostBlockScales h(g);
    INFO("M = " << sh.tokens << ", N = " << sh.outputs << ", K = " << sh.k << ", ld_scale_a = " << sh.ld_scale_a);
    CHECK(promotion_mismatches<set::Fp8Block>(g, h) == 0);
    CHECK(promotion_mismatches<set::Fp8BlockStreamK>(g, h) == 0);
    CHECK(promotion_mismatches<set::Fp8BlockDecode>(g, h) == 0);
    CHECK(promotion_mismatches<set::Fp8BlockWide>(g, h) == 0);
    CHECK(promotion_mismatches<set::Fp8BlockRows>(g, h) == 0);
    // both promotions of the rows kernel, whichever the list ships (the loop under the next
    // k-tile replayed over whole and Stream-K steps)
    CHECK(promotion_mismatches<RowsAfterWait>(g, h) == 0);
    CHECK(promotion_mismatches<RowsUnderNextKTile>(g, h) == 0);
    CHECK(promotion_mismatches<Rows256>(g, h) == 0);
  }
  // The atom-by-atom loop reads each value's row scale at row0 + thread 0's row of the value, and
  // its loads fold to two per atom: every thread's values of each atom lie in two rows, r and
  // r + 8, and each lies at the thread's row 0 plus thread 0's row of it.
  {
    using M = Rows256::Mainloop;
    const auto id = make_identity_tensor(make_shape(C<M::BM>{}, C<M::BN>{}));
    const auto c0 = typename M::TiledMma{}.get_slice(0).partition_C(id);
    int64_t off = 0;
    for (int t = 0; t < M::ConsumerWarpgroups * 128; ++t) {
      const auto ct = typename M::TiledMma{}.get_slice(t).partition_C(id);
      for (int a = 0; a < M::AtomsM; ++a) {
        const int r = int(get<0>(c0(a * M::AtomValues)));
        for (int v = 0; v < M::AtomValues; ++v) {
          const int rv = int(get<0>(c0(a * M::AtomValues + v)));
          // (and the thread's own row is its row 0 plus thread 0's: what row0 + r reads)
          off += (rv != r && rv != r + 8) + (int(get<0>(ct(a * M::AtomValues + v))) != int(get<0>(ct(0))) + rv);
        }
      }
    }
    CHECK(off == 0);
  }
  // The sources by operand: the tokens-along-M kernel's row scales are the caller's scale_a over
  // M (its own A's), its blocks scale_b; the D^T kernels' row scales are their B's (the caller's
  // scale_a again, over their N), their blocks their A's (the caller's scale_b).
  alignas(16) static float scales[2] = {2.0f, 0.5f};
  GemmArguments g = fp8_block_row_d(4096, 7168, 16384, &scales[0], &scales[1]);
  g.c.ld = g.ldd;
  using R = set::Fp8BlockRows::Mainloop;
  const auto rows = R::scale_sources(sm90::problem_shape_of(g), R::arguments_of(g));
  CHECK((rows.rows == &scales[0] && rows.rows_extent == 4096 && rows.rows_ld == 4096 && rows.blocks == &scales[1] &&
         rows.block_rows == 56 && rows.blocks_ld == 128));
  using B = set::Fp8Block::Mainloop;
  const GemmArguments t = sm90::as_column_major_d(g);
  const auto cols = B::scale_sources(sm90::problem_shape_of(t), B::arguments_of(t));
  CHECK((cols.rows == &scales[0] && cols.rows_extent == 4096 && cols.rows_ld == 4096 && cols.blocks == &scales[1] &&
         cols.block_rows == 56 && cols.blocks_ld == 128));
}

TEST_CASE("sm90 FP8 to e4m3: the quantized-output kernel's traits, dispatch, and its tree from the GEMM's fields") {
  constexpr set::KernelTraits q = set::traits_of<Fp8Quantized>;
  static_assert(q.element == Element::E4M3 && q.element_b == Element::E4M3 && q.output == Element::E4M3 && q.a_k_major && q.b_k_major &&
                q.bm == 128 && q.bn == 256 && !q.stream_k && !q.pingpong && q.fused == Activation::Identity && !q.block_scaled);
  // Fp8's mainloop, so the accumulators are those of the bf16/f16/f32-D kernel of the same tile
  static_assert(std::is_same_v<Fp8Quantized::Mainloop, set::Fp8<float_e4m3_t, float_e4m3_t, float>::Mainloop>);
  using E = Fp8Quantized::Epilogue;
  static_assert(std::is_same_v<E, sm90::CollectiveEpilogueSm90Tree<float_e4m3_t, tree::QuantizedOutputAmax<float_e4m3_t>,
                                                                   sm90::QuantizedOutputFields<float_e4m3_t>>>);
  // The dispatch: 128x256 whole tiles for every shape (the one kernel), no Stream-K; nothing for
  // the mixed pairs to e4m3 (dispatch's refusal lists what is built)
  const auto e4 = [](int64_t m, int64_t n, int64_t k, Element b = Element::E4M3) {
    GemmArguments g = fp8(m, n, k, Element::E4M3, b);
    g.epilogue.output = Element::E4M3;  // (said: unset, an FP8 D is bf16)
    return g;
  };
  CHECK(sm90::schedule_built(sm90::Schedule::Cooperative128x256, e4(100, 100, 128)));
  CHECK(!sm90::schedule_built(sm90::Schedule::Cooperative128x128, e4(100, 100, 128)));
  CHECK(sm90::choose_schedule(e4(64, 7168, 512), 132) == sm90::Schedule::Cooperative128x256);
  CHECK(!sm90::stream_k_built(sm90::Schedule::Cooperative128x256, e4(64, 7168, 16384)));
  CHECK(!sm90::choose_stream_k(e4(7168, 64, 16384), 132));
  CHECK(!sm90::schedule_built(sm90::Schedule::Cooperative128x256, e4(100, 100, 128, Element::E5M2)));
  CHECK(sm90::built_configs(e4(1000, 1000, 1024)) == std::vector<sm90::Sm90Config>{{sm90::Schedule::Cooperative128x256, false}});

  // The tree's arguments come from the GEMM's fields: evaluated on the host over host scalars,
  // an element's value is e4m3's clamp(scale_d (alpha (acc sa sb) + beta C)), the amax max |z|.
  static float sa = 2.0f, sb = 3.0f, sd = 4.0f, amax = -1.0f;
  static float_e4m3_t c[64 * 64];
  for (int i = 0; i < 64 * 64; ++i) c[i] = float_e4m3_t::from_float(float(i % 8));
  GemmArguments g = e4(64, 64, 64);
  g.alpha = 0.5f;
  g.scale_a = &sa;
  g.scale_b = &sb;
  g.scale_d = &sd;
  g.amax_d = &amax;
  const GemmProblemShape shape = sm90::problem_shape_of(g);
  auto a = E::arguments_of(g);
  REQUIRE(E::can_implement(shape, a));
  GemmResult status;
  auto p = E::to_underlying_arguments(shape, a, nullptr, status);
  CHECK(p.reset == &amax);  // set to 0 before each launch (E::initialize, in the launch's stream)
  using Q = tree::QuantizedOutputAmax<float_e4m3_t>;
  const tree::TreeShape ts{64, 64, 1};
  auto at = [&](int64_t m, int64_t n, float acc) {
    const tree::TreeCoord x{m, n, 0};
    const tree::TileFrame<1, 1> f = tree::element_frame(ts, x);
    Q::State<1, 1> st{};
    Q::begin_tile(p.tree, st, f);
    const float v = Q::visit(p.tree, st, x, acc);
    Q::end_tile(p.tree, st, f);
    return v;
  };
  amax = 0.0f;
  CHECK(at(0, 0, 10.0f) == 120.0f);  // 4 * (0.5 * (10 * 6))
  CHECK(amax == 30.0f);
  CHECK(at(1, 2, -1000.0f) == -448.0f);  // saturated
  CHECK(amax == 3000.0f);
  // beta: C (e4m3, D's major: column-major here, ld 64) times beta
  g.beta = 0.25f;
  g.c = {c, Major::Col, 64, 0};
  a = E::arguments_of(g);
  REQUIRE(E::can_implement(shape, a));
  p = E::to_underlying_arguments(shape, a, nullptr, status);
  CHECK(at(3, 1, 10.0f) == 4.0f * (30.0f + 0.25f * c[3 + 64 * 1].to_float()));
  // no amax: nothing to reset, nothing written
  g.amax_d = nullptr;
  CHECK(E::to_underlying_arguments(shape, E::arguments_of(g), nullptr, status).reset == nullptr);

  // What the quantized-output epilogue refuses (check_arguments refuses these first; the
  // epilogue's own reasons are for its direct callers)
  g = e4(64, 64, 64);
  g.epilogue.activation = Activation::ReLU;
  CHECK(has(E::can_implement(shape, E::arguments_of(g)), GemmStatus::Unsupported, "no bias or activation"));
  g = e4(64, 64, 64);
  g.scale_mode = ScaleMode::Rowwise;
  CHECK(has(E::can_implement(shape, E::arguments_of(g)), GemmStatus::Unsupported, "per-tensor scales only"));
  CHECK(has(E::can_implement(shape, E::arguments_of(fp8(64, 64, 64))), GemmStatus::Unsupported, "writes D in e4m3"));
  // a tree of the caller's takes none of the menu's fields, scale_d and amax_d included
  using Caller = sm90::CollectiveEpilogueSm90Tree<bfloat16_t, tree::Accumulator>;
  GemmArguments h = fp8(64, 64, 64);
  CHECK(Caller::can_implement(shape, Caller::arguments_of(h)));
  h.amax_d = &amax;
  CHECK(has(Caller::can_implement(shape, Caller::arguments_of(h)), GemmStatus::Unsupported, "nodes of the tree"));
  CHECK(Caller::to_underlying_arguments(shape, Caller::arguments_of(fp8(64, 64, 64)), nullptr, status).reset == nullptr);
}
