// Which tile, cluster and tile scheduler an SM90 GEMM should run: select_sm90, a pure function
// of the problem (M, N, K, batch, majors, element types) and the SM count, over a table of
// candidate configurations (by default the ones below; the dispatch passes the kernels it
// ships). Host code without CUDA, tested on the host (kernels_gemm_selection_test); the tuning
// cache (tuning_cache.hpp) overrides it per device with measured winners.
//
// The rule: predict each candidate's time with a wave model and take the fastest.
//   - A candidate is a CTA tile BM x BN x BK with a relative MAC rate (how fast a full wave of
//     it runs against the 128x256 tile: smaller tiles move more operand bytes per MAC), a
//     cluster shape, and a scheduler: data-parallel, or the Stream-K heuristic's plan
//     (stream_k_scheduler.hpp: whole waves data-parallel, the last one or two shared).
//   - Its time is the critical path of the persistent grid (P = SMs / cluster size clusters):
//     the slowest cluster's k-tiles (its data-parallel tiles and its unit's iterations), each
//     BM BN BK / (128 256 64) / rate long, plus its fix-up: a partial written, or its peers'
//     partials read, at kSlotCostKTiles 128x256 k-tile times per 128x256 f32 tile.
//   - Its efficiency is the problem's MACs over what the SMs could do in that time at the
//     128x256 tile's rate: wave quantization (tiles / (waves x SMs)), tile padding, fix-up
//     and the tile's rate in one figure. The table is walked in order (larger tiles first,
//     2x1 clusters first, data-parallel before Stream-K) and a candidate replaces the choice
//     only when it predicts more than kSelectionMargin higher efficiency: the model is coarse,
//     so near-ties keep the earlier, simpler kernel.
// The 16-bit constants are fitted (tools/fit_sm90_tiles.cpp) to H200 measurements of every
// shipped TN configuration at nine shapes from one to 32 waves (bench/notes/sm90_tiles.md) and
// to the suite's Stream-K and decode measurements (bench/notes/suite.md): with the workspace
// the Stream-K kernels need, the fitted rule chooses at each of those shapes a configuration
// within 0.012 of the best measured one. Predicted efficiency / measured ratio to cuBLAS (the
// chosen one first):
//   8192^3              128x256 c2 0.970 / 1.007; 128x128 c1 0.873 / 0.718
//   4096^3              128x256 c2 0.970 / 0.936; 128x128 c1 0.873 / 0.894
//   3072^3              128x128 c1 0.785 / 0.810; 128x256 c2 0.727 / 0.710, Stream-K 0.799 / 0.77
//   8192 x 8192 x 1024  128x256 c2 0.970 / 0.915; 128x128 c1 0.873 / 0.885
//   14336 x 2048 x 4096 128x256 c2 0.970 / 0.961; 128x128 c1 0.873 / 0.771
//   6144 x 512 x 4096   128x256 c2 0.727 / 0.813; 128x128 c1 0.655 / 0.825; ping-pong 0.562 / 0.787
//   4096 x 512 x 14336  128x128 c1 0.873 / 0.945; Stream-K 128x256 0.734 / 0.81
//   10240 x 1024 x 8192 Stream-K 128x256 0.921 / 0.89; 128x256 c2 0.808 / 0.828; 128x128 c1 0.873 / 0.751
//   1000^3              ping-pong 64x128 0.524 / 0.748; 128x128 c1 0.406 / 0.742
// The predictions and measurements differ by a factor per shape (cuBLAS's own efficiency, and
// what the wave model leaves out: L2 reuse, the epilogue), so only a row's order matters.
// What the fit says:
//   - a Stream-K partial costs 13 k-tiles (its store, the flag wait, the reduction with the
//     accumulators live), not the split-K fit's 5: at one to five waves whole 128x128 tiles
//     without a cluster beat Stream-K 128x256 (3072^3, 512 tokens through a 14336-deep weight);
//   - without a cluster the 128x128 tile's rate is 0.90 (no CTA waits for a peer at each
//     k-tile; 0.945 against 0.841 in clusters of 2 at one wave of 4096 x 512 x 14336): a rate
//     of the candidate, not a cluster term of the model, since each shipped 16-bit TN tile has
//     one cluster;
//   - the ping-pong 64x128 tile's rate is 0.58: it wins only where it has SMs no larger tile
//     fills (small problems, decode).
// What it misses: without a workspace 10240 x 1024 x 8192 takes the 128x128 tiles (0.751
// against 128x256's 0.828): past L2 a 128-column tile reads the weight from DRAM twice as often.
// The refit (docs/scheduling.md, "The rule against every candidate"): gemm_tune's time of every
// built configuration at each of the suite's 27 rows with at least 512 tokens (189 points, two
// H200 runs; tools/wave_tail.cpp, least squares on relative error with the partials' cost free)
// gives 128x192 0.96, 128x128 in clusters of 2 0.81, without a cluster 0.91, ping-pong 0.58 and
// a partial 14 k-tiles: each within 0.04 of the earlier constants, and the ones used below. The
// clustered 128x128 tile's lower rate is what moves a suite row: 128 tokens through Llama-3
// 70B's qkv weight now runs whole 128x128 tiles without a cluster (measured 0.98 of cuBLAS in
// pairs, against 0.86 for the clustered Stream-K kernel the rule took). The decode tile keeps
// 0.58: the fit's 0.52 comes from 7 points whose order the paired timing contradicts.
// Still missed (the model has no term for it): re-reads of the larger operand. At 128 x 8192 x
// 8192 the ping-pong tile's 128 CTAs (two 64-row tiles along M, each reading all of B) ran 51 us
// against 49 us for 64 tiles of 128x128, where the MAC rate model predicts ping-pong 22 % faster;
// 128 tiles of 128 x 64 (one along M) run it in 43 us. sm90_schedule.hpp weighs that tile there
// by a gate of its own (whole_considered), not by a term of this model.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "tessera/kernels/gemm_arguments.hpp"
#include "../kernel/stream_k_scheduler.hpp"

namespace tessera::kernels::sm90 {

// What the rule reads of a problem, as the kernel runs it (D column-major: a row-major D runs as
// D^T = B^T A^T, M and N swapped; see shape_of).
struct GemmShape {
  std::int64_t m = 0, n = 0, k = 0, batch = 1;
  Element element = Element::BF16;  // A and B
  Element output = Element::BF16;   // C and D
  Major a = Major::Row, b = Major::Col;
  // Whether a row of A or B may start off a 32-byte sector (operand_rows_off_sectors): the
  // kernels without a cluster run their k-loops slower then (kOffSectorRate).
  bool rows_off_sectors = false;
  friend constexpr bool operator==(const GemmShape&, const GemmShape&) = default;
};

// Whether a row of A or B (along its contiguous mode) may start off a 32-byte sector: its
// leading dimension in bytes, or with batches its batch stride in bytes, is not a multiple of 32.
// (TMA needs multiples of 16, so "off" means 16 mod 32: e.g. K-major bf16 rows of K = 1000,
// 2,000 bytes.) Each 128-byte row of a TMA box then touches five sectors on two cache lines
// instead of four on one. Pointers are taken as the allocator gives them (256-byte aligned):
// the rule is a function of the problem's shape and strides, as its tuning records are.
// ld 0 (unset, as in host tests that build a shape only) counts as on sectors.
inline bool operand_rows_off_sectors(const GemmArguments& g) {
  const auto off = [&](const Operand& o, Element e) {
    const std::int64_t bytes = element_bytes(e);  // (remainders first: no product can overflow)
    return (o.ld % 32 * bytes) % 32 != 0 || (g.batch > 1 && (o.batch_stride % 32 * bytes) % 32 != 0);
  };
  return off(g.a, g.element) || off(g.b, element_b(g));
}

// (Swapped, the kernel's A is B^T and its B is A^T: each operand's contiguous mode stays the
// same mode of the data, which is the other mode of the transpose, so TN stays TN.)
inline GemmShape shape_of(const GemmArguments& g) {
  const auto flip = [](Major m) { return m == Major::Row ? Major::Col : Major::Row; };
  const bool off = operand_rows_off_sectors(g);  // (the same operands either way)
  if (g.c.major != Major::Row) return {g.m, g.n, g.k, g.batch, g.element, output_element(g), g.a.major, g.b.major, off};
  return {g.n, g.m, g.k, g.batch, g.element, output_element(g), flip(g.b.major), flip(g.a.major), off};
}

// Which problems a candidate's kernel takes (the builders' rules, as sm90_schedule.hpp states them).
enum class Takes {
  Any16Bit,        // bf16/f16 inputs, any majors, D in the inputs' type or f32
  Same16Bit,       // bf16/f16 inputs, any majors, D in the inputs' type
  Tn16BitSame,     // bf16/f16, A and B K-major, D in the inputs' type (ping-pong)
  Tf32Tn,          // f32 inputs as tf32, A and B K-major, f32 D
  Fp8Tn,           // e4m3/e5m2 inputs, A and B K-major (the ISA's only form), D in bf16, f16 or f32
};

// Which schedulers a candidate's kernels run (the dispatch passes the kernels it ships: a tile
// whose kernel runs whole tiles only, or one whose Stream-K kernel is considered).
enum class Schedulers { Both, DataParallel, StreamK };

struct Candidate {
  int tile_m, tile_n, tile_k;
  ClusterShape cluster;
  double rate;  // a full wave's MAC rate relative to the 128x256 tile's
  Takes takes;
  Schedulers schedulers = Schedulers::Both;
};

// Rates: 1 for 128x256; 0.91 for 128x128 without a cluster and 0.58 for the ping-pong 64x128
// (16-bit TN: fitted, above); 0.58 for the decode tile 128x64 (no cluster; Stream-K in this
// table: the dispatch weighs its whole tiles only where M fits one tile, sm90_schedule.hpp's
// whole_considered, with this rate), an assumption until measured: it loads the ping-pong tile's
// operand bytes per MAC ((128 + 64) x 64 x 2 B per 128 x 64 x 64 MACs, 1/21 B, twice the
// 128x256 tile's), and where it is chosen (N <= 64) the weight's DRAM bytes bound both; 0.81 for
// 128x128 in clusters of 2 (1.5x the L2 bytes per MAC; first taken at 0.85, the favourable end of
// a measured 15-27 % gap; refit above). 0.96 for 128x192 in clusters of 2 (refit above; first
// assumed 0.94 from its operand bytes per MAC, 1.11x 128x256's, between the clustered rates).
// FP8's wgmma does
// twice the 16-bit MACs per cycle, so its tiles' rates are twice theirs (a 128x256x128 k-tile
// takes a 128x256x64 16-bit k-tile's time): every time stays in the 16-bit tile's unit.
// The FP8 decode tile 128x64x128 (no cluster, Stream-K only: the block-scaled decode kernel,
// sm90::Fp8BlockScaledGemm with BN = 64, and the per-tensor one, sm90::Fp8Gemm with BN = 64;
// the dispatch weighs each for its own scale mode) at 1.16, twice the 16-bit decode tile's 0.58
// by the same rule: an assumption, not a measurement (the per-tensor kernel, without the
// promotion, should run faster than the block-scaled one; one rate serves both). It keeps the
// 16-bit tiles' relation: at 64 tokens a k-tile of it costs 0.73 of the clustered 128x128 tile's, which computes 64 padding columns;
// at 128 tokens two of its tiles cost 1.47 of one 128x128 tile, which the larger tiles' Stream-K
// fix-ups nearly even out in the model (as at 16 bits, where the measurement went to 128x128:
// sm90_schedule.hpp's gate keeps the decode tiles to one tile of tokens).
// The FP8 128x192x128 tile in clusters of 2 (built only as the block-scaled kernel for many
// tokens, sm90::Fp8BlockWideGemm, whose consumer warpgroups issue in turns) at 1.92, twice the
// 16-bit 128x192 tile's 0.96: an assumption, not a measurement. It assumes that the turns hide
// the promotion, so that the tile runs at the rate of its operand bytes as every FP8 tile here
// is modelled; the block-scaled 128 x 128 kernel shares its tile's 1.7 with the per-tensor one,
// though it measured 796 TFLOP/s at 4096 x 7168 x 16384 where per-tensor 128 x 256 ran 1490
// (bench/notes/fp8.md): where the turns hide the promotion the 128 x 192 tile wins by more
// than the model says, where they do not the rule picks it by a small margin only.
// The FP8 128x128x128 tile keeps 1.7, twice the 16-bit tile's earlier 0.85: the refit saw 16-bit
// kernels only, and no FP8 suite times every candidate to refit it against.
// The per-tensor FP8 128x160x128 tile in clusters of 2 (sm90::Fp8Gemm with BN = 160, whole
// tiles: a few hundred tokens) at 1.83: an assumption until measured, interpolated between the
// FP8 128x192 tile's 1.92 and the clustered 128x128 tile's 1.7 linearly in operand bytes per MAC
// ((128 + 160) / (128 x 160) lies 0.4 of the way from 128x192's (128 + 192) / (128 x 192) to
// 128x128's 2 / 128): the rule the 16-bit rates follow, 128x192 between 128x256 and 128x128.
// Assumptions of the model, which measurements in the tuning cache override.
inline constexpr std::array<Candidate, 17> kSm90Candidates = {{
    {128, 256, 64, {2, 1}, 1.0, Takes::Any16Bit},
    {128, 256, 64, {1, 2}, 1.0, Takes::Any16Bit},
    {128, 256, 64, {1, 1}, 1.0, Takes::Any16Bit},
    {256, 128, 64, {2, 1}, 1.0, Takes::Tn16BitSame},
    {128, 192, 64, {2, 1}, 0.96, Takes::Tn16BitSame},
    {128, 128, 64, {2, 1}, 0.81, Takes::Same16Bit},
    {128, 128, 64, {1, 2}, 0.81, Takes::Same16Bit},
    {128, 128, 64, {1, 1}, 0.91, Takes::Same16Bit},
    {64, 128, 64, {1, 1}, 0.58, Takes::Tn16BitSame},
    {128, 64, 64, {1, 1}, 0.58, Takes::Tn16BitSame, Schedulers::StreamK},
    {128, 256, 32, {2, 1}, 1.0, Takes::Tf32Tn},
    {128, 256, 32, {1, 1}, 1.0, Takes::Tf32Tn},
    {128, 256, 128, {2, 1}, 2.0, Takes::Fp8Tn},
    {128, 192, 128, {2, 1}, 1.92, Takes::Fp8Tn},
    {128, 160, 128, {2, 1}, 1.83, Takes::Fp8Tn},
    {128, 128, 128, {2, 1}, 1.7, Takes::Fp8Tn},
    {128, 64, 128, {1, 1}, 1.16, Takes::Fp8Tn, Schedulers::StreamK},
}};

// The highest rate of a candidate that takes inputs of `element`: 2 for FP8, else 1 (the bound
// of a choice's efficiency, which is measured against the 16-bit 128x256 tile).
inline double peak_rate(Element element) { return is_fp8(element) ? 2.0 : 1.0; }

// The default tile, the one every other candidate is measured against: 128x256x64 in 2x1
// clusters, whole tiles.
inline constexpr Candidate kSm90Default = kSm90Candidates[0];

// 128x256 k-tile times per 128x256 f32 partial moved (fitted, above; the split-K scheduler's
// fit of its own fix-up found 5: bench/notes/sm90_gemm.md)
inline constexpr double kSlotCostKTiles = 14.0;
inline constexpr double kSelectionMargin = 0.02;

// Rows off sectors (GemmShape::rows_off_sectors): a candidate without a cluster runs its
// k-tiles at kOffSectorRate of its rate where its tiles take at least kOffSectorMinKTiles
// k-tiles. Its one CTA issues every row of both operands' boxes, and a 128-byte row that starts
// mid-sector reads five sectors on two lines; a CTA of a cluster issues a share of the shared
// operand's rows and pays 1-7 %, which the rule leaves out. Fitted to H200 times of the
// no-cluster kernels at rows off sectors against the same kernel at aligned rows
// (bench/notes/sm90_tiles.md, "Which listed kernels pay"): 128x64 1.42x (1000 x 1000 x 16008),
// 1.52x (2048 x 2048 x 2008), 1.48x (3072 x 3072 x 3080), 1.83x (128 x 8192 x 8200); 128x128
// 1.55x and ping-pong 64x128 1.69x (3072 x 3072 x 3080), ping-pong 1.62x (1000 x 1000 x 16008):
// a geometric mean of 1.58, i.e. 0.63 of the rate. The floor: at 16 k-tiles (1000^3) the
// loss was 1.26x, the tile's start and its epilogue being a larger part of its time, which
// the model (k-tiles only) does not hold; a factor there would move 1000^3 off ping-pong
// (14.2 us) to the clustered 128 x 128 tiles (15.1 us), so below the floor nothing changes.
inline constexpr double kOffSectorRate = 0.63;
inline constexpr std::int64_t kOffSectorMinKTiles = 32;

// The model's constants as one value, so that a fit (tools/fit_sm90_tiles.cpp) can vary them.
struct WaveModel {
  double slot_cost_k_tiles = kSlotCostKTiles;
  double margin = kSelectionMargin;
  double off_sector_rate = kOffSectorRate;
  std::int64_t off_sector_min_k_tiles = kOffSectorMinKTiles;
};
inline constexpr WaveModel kWaveModel{};

inline bool candidate_takes(const Candidate& c, const GemmShape& s) {
  const bool b16 = s.element == Element::BF16 || s.element == Element::F16;
  const bool tn = s.a == Major::Row && s.b == Major::Col;
  switch (c.takes) {
    case Takes::Any16Bit: return b16 && (s.output == s.element || s.output == Element::F32);
    case Takes::Same16Bit: return b16 && s.output == s.element;
    case Takes::Tn16BitSame: return b16 && tn && s.output == s.element;
    case Takes::Tf32Tn: return s.element == Element::F32 && tn && s.output == Element::F32;
    case Takes::Fp8Tn:
      return is_fp8(s.element) && tn && (s.output == Element::BF16 || s.output == Element::F16 || s.output == Element::F32);
  }
  return false;
}

// A configuration: what a kernel instance is named by, and what the model predicts for it.
struct Sm90Choice {
  int tile_m = 0, tile_n = 0, tile_k = 0;
  ClusterShape cluster;
  Decomposition scheduler = Decomposition::DataParallel;
  StreamKPlan plan;           // over cluster tiles, for `clusters` persistent clusters
  std::int64_t clusters = 0;  // P
  double predicted_time = 0;  // in 128x256x64 k-tile times at rate 1
  double efficiency = 0;      // the problem's MACs / (SMs x time x a 128x256x64 k-tile's MACs)
};

// The scheduler a candidate runs on `shape` with `sms` SMs: the heuristic's plan, or whole
// tiles when stream_k is false.
inline StreamKScheduler scheduler_for(const Candidate& c, const GemmShape& s, int sms, bool stream_k) {
  const std::int64_t tm = ceil_div(s.m, std::int64_t(c.tile_m)), tn = ceil_div(s.n, std::int64_t(c.tile_n));
  const std::int64_t kt = ceil_div(s.k, std::int64_t(c.tile_k));
  const std::int64_t clusters = persistent_clusters(sms, c.cluster);
  auto sched = StreamKScheduler::with_plan(tm, tn, s.batch, kt, c.cluster, clusters, {});
  sched.plan = stream_k ? plan_stream_k(sched.tile_count(), kt, clusters, kStreamKMinUnitKTiles, memory_bound_problem(s.m, s.n))
                        : StreamKPlan{Decomposition::DataParallel, sched.tile_count(), 0};
  return sched;
}

// The model's prediction for candidate c under a scheduler (requires clusters >= 1).
inline Sm90Choice predict(const Candidate& c, const GemmShape& s, int sms, const StreamKScheduler& sched,
                          const WaveModel& model = kWaveModel) {
  const bool off_sectors =
      s.rows_off_sectors && c.cluster.m * c.cluster.n == 1 && sched.k_tiles >= model.off_sector_min_k_tiles;
  const double rate = c.rate * (off_sectors ? model.off_sector_rate : 1.0);
  const double tile_cost = double(c.tile_m) * c.tile_n * c.tile_k / (128.0 * 256.0 * 64.0) / rate;
  const double slot_cost = model.slot_cost_k_tiles * double(c.tile_m) * c.tile_n / (128.0 * 256.0);
  double worst = 0;
  for (std::int64_t cl = 0; cl < sched.clusters; ++cl) {
    double t = double(sched.dp_steps(cl) * sched.k_tiles) * tile_cost;
    if (cl < sched.plan.sk_units) {
      t += double(sched.unit_begin(cl + 1) - sched.unit_begin(cl)) * tile_cost;
      if (sched.work(cl, sched.dp_steps(cl)).role == SegmentRole::Partial) t += slot_cost;
      const StreamKWork last = sched.work(cl, sched.steps(cl) - 1);
      if (last.role == SegmentRole::Owner) t += double(last.unit - last.first_peer) * slot_cost;
    }
    worst = t > worst ? t : worst;
  }
  Sm90Choice out{c.tile_m, c.tile_n, c.tile_k, c.cluster, sched.plan.kind, sched.plan, sched.clusters, worst, 0};
  const double macs = double(s.m) * double(s.n) * double(s.k) * double(s.batch);
  out.efficiency = worst > 0 ? macs / (double(sms) * worst * 128.0 * 256.0 * 64.0) : 0;
  return out;
}

// The rule. Returns a choice with tile_m == 0 when no candidate takes the problem (or sms < 1).
inline Sm90Choice select_sm90(const GemmShape& s, int sms, std::span<const Candidate> candidates = kSm90Candidates,
                              const WaveModel& model = kWaveModel) {
  Sm90Choice best;
  if (s.m <= 0 || s.n <= 0 || s.k <= 0 || s.batch <= 0) return best;
  for (const Candidate& c : candidates) {
    if (!candidate_takes(c, s) || persistent_clusters(sms, c.cluster) < 1) continue;
    for (const bool stream_k : {false, true}) {
      if (c.schedulers == (stream_k ? Schedulers::DataParallel : Schedulers::StreamK)) continue;
      const StreamKScheduler sched = scheduler_for(c, s, sms, stream_k);
      if (stream_k && sched.plan.kind == Decomposition::DataParallel) continue;  // the same as the first
      const Sm90Choice p = predict(c, s, sms, sched, model);
      if (best.tile_m == 0 || p.efficiency > best.efficiency * (1 + model.margin)) best = p;
    }
  }
  return best;
}

}  // namespace tessera::kernels::sm90
