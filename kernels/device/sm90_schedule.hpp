// Which SM90 kernel configuration the dispatch runs a problem with (host code without CUDA, so
// that CI tests the rule: hopper_sm90_schedule_test).
//
// A schedule names a kernel's tile, cluster and consumer arrangement:
//   Cooperative128x256           two consumer warpgroups share a 128 x 256 tile, clusters of 2
//                                along M (the default)
//   Cooperative256x128           the same with 256 x 128 tiles (16-bit TN; 128 x 128 per
//                                warpgroup): 128 x 256's grid with the extents exchanged
//   Cooperative128x192           the same with 128 x 192 tiles (16-bit TN): a tile count between
//                                the two below and above, for shapes neither fills (3072^3)
//   Cooperative128x160           the same with 128 x 160 tiles (per-tensor FP8): a few hundred
//                                tokens as the kernel's N (320 = two tiles of 160, no padding)
//   Cooperative128x128           the same with 128 x 128 tiles
//   Cooperative128x128NoCluster  128 x 128 tiles without a cluster (16-bit TN)
//   Pingpong64x128               two consumer warpgroups each own 64 x 128 tiles, alternating,
//                                without a cluster (16-bit TN)
//   Cooperative128x64NoCluster   two consumer warpgroups share a 128 x 64 tile, without a
//                                cluster (16-bit TN and FP8, per-tensor or block-scaled: decode
//                                under Stream-K; over whole tiles where M fits one tile)
// and a configuration (Sm90Config) adds the tile scheduler: whole tiles or Stream-K. A schedule
// whose only listed kernel is a Stream-K one (128 x 64; TN 128 x 128 in clusters of 2) runs whole
// tiles too: that kernel launched without a workspace plans whole tiles (its scheduler's
// data-parallel plan, kernel/sm90_stream_k_tile_scheduler.hpp), with the same mainloop, epilogue
// and refusals as a whole-tile instance, so no second instance is compiled for it.
//
// The rule (choose_schedule): the wave model's choice (gemm_selection.hpp, select_sm90) among
// the whole-tile kernels the list (sm90_kernel_list.hpp) builds for the problem's types, majors
// and D, walked in the order above, so that near-ties keep the larger tile and the cluster.
// The model weighs what the CTA count alone does not see: waves and padding (320 x 32576 x 7168
// in FP8 with a row-major D: N = 320 fills 62 % of a 256-column tile and 83 % of a 128-column
// one), and the tiles' measured rates (16-bit TN: bench/notes/sm90_tiles.md, where the 128 x 128
// tile without a cluster runs 3072^3 at 0.81 of cuBLAS against 0.71 for 128 x 256 and 512
// tokens through a 14336-deep weight at 0.945 against 0.55).
// Not ping-pong for larger problems: a 64-row tile (64x128 or 64x256) loads 1.7-2x the operand
// bytes per MAC of the cooperative 128x256 tile and trails it at every shape from 2048^3 up;
// 128 x 128 tiles per consumer warpgroup (sm90::PingpongGemm<T, 128, 2, 128>, not built by the
// library) win one shape of the tiles' table by less than Stream-K 128x256 does there.
// Stream-K (choose_stream_k): where the list has a Stream-K kernel for the problem's types and
// majors (sm90_kernel_list.hpp: Split, SmallSplit, Decode, Fp8StreamK, Fp8Decode,
// Fp8BlockStreamK, Fp8BlockDecode), the wave model compares it with
// the rule's choice over whole tiles; the Stream-K kernel runs when the model predicts it more
// than the margin faster and the caller gives its workspace; never for FP8's rowwise scales
// (whole tiles: the Stream-K kernels' epilogue scales per tensor).
// Orientation (choose_config, choose_config_stream_k): the kernels write D column-major
// (as_column_major_d: a row-major D runs as D^T = B^T A^T) unless the list builds a kernel with
// a row-major D (the MidRow kernels) for the problem: then the problem transposed the other way
// (as_row_major_d: a column-major D runs as D^T row-major, its BN along the caller's M) is a
// candidate too, each orientation's kernels weighed by the wave model on the extents that
// orientation gives them, walked after the column-major ones, so that the transposed run
// replaces the choice only past the margin. cuBLAS runs the suite's layers that way (its tile's
// flexible N extent along the weight's rows: bench/notes/sm90_tiles.md); the model predicts
// 6144 x 512 x 4096 at 0.96 of cuBLAS with 128x192 along M where 128x256 along N ran 0.76.
// Only plain problems (no bias, no activation) whose row-major D TMA can store are run
// transposed: the row-major kernels' fused problems would take the direct stores.
// g: the problem as the kernels see it (D column-major: as_column_major_d; or row-major, the
// view of the kernels built with a row-major D: as_row_major_d).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <tessera/kernels/gemm_arguments.hpp>

#include "../collective/sm90_epilogue_operands.hpp"
#include "../kernel/tile_scheduler.cuh"
#include "gemm_selection.hpp"
#include "sm90_kernel_list.hpp"

namespace tessera::kernels::sm90 {

// How a kernel's consumer warpgroups share its tiles.
enum class Consumers {
  Cooperative,  // both on each tile (BM / 64 rows each)
  Pingpong,     // each on whole tiles in turn, one's epilogue under the other's mainloop
};

struct Schedule {
  Consumers consumers = Consumers::Cooperative;
  int bm = 128, bn = 256;
  int cluster_m = 2;  // CTAs per cluster along M

  static const Schedule Cooperative128x256, Cooperative256x128, Cooperative128x192, Cooperative128x160, Cooperative128x128,
      Cooperative128x128NoCluster, Pingpong64x128, Cooperative128x64NoCluster;
  friend constexpr bool operator==(const Schedule&, const Schedule&) = default;
};
inline constexpr Schedule Schedule::Cooperative128x256{Consumers::Cooperative, 128, 256, 2};
inline constexpr Schedule Schedule::Cooperative256x128{Consumers::Cooperative, 256, 128, 2};
inline constexpr Schedule Schedule::Cooperative128x192{Consumers::Cooperative, 128, 192, 2};
inline constexpr Schedule Schedule::Cooperative128x160{Consumers::Cooperative, 128, 160, 2};
inline constexpr Schedule Schedule::Cooperative128x128{Consumers::Cooperative, 128, 128, 2};
inline constexpr Schedule Schedule::Cooperative128x128NoCluster{Consumers::Cooperative, 128, 128, 1};
inline constexpr Schedule Schedule::Pingpong64x128{Consumers::Pingpong, 64, 128, 1};
inline constexpr Schedule Schedule::Cooperative128x64NoCluster{Consumers::Cooperative, 128, 64, 1};

// The schedules of the kernel list, in the order the rule walks them (larger tiles first,
// clusters first: near-ties keep the earlier).
// (256 x 128 right after 128 x 256: the same tile area and rate, so that at a tie the default
// keeps the problem; 128 x 64 before ping-pong 64 x 128: the same operand bytes per MAC and
// rate, so the model ties them wherever their tile counts agree, and where 128 x 64 is weighed
// over whole tiles (M in one tile: whole_considered) its one tile along M reads each row of B
// once where ping-pong's two read it twice)
inline constexpr std::array<Schedule, 8> kSchedules = {Schedule::Cooperative128x256,          Schedule::Cooperative256x128,
                                                       Schedule::Cooperative128x192,
                                                       Schedule::Cooperative128x160,          Schedule::Cooperative128x128,
                                                       Schedule::Cooperative128x128NoCluster, Schedule::Cooperative128x64NoCluster,
                                                       Schedule::Pingpong64x128};

inline const char* to_string(Schedule s) {
  if (s == Schedule::Cooperative128x256) return "cooperative 128x256";
  if (s == Schedule::Cooperative256x128) return "cooperative 256x128";
  if (s == Schedule::Cooperative128x192) return "cooperative 128x192";
  if (s == Schedule::Cooperative128x160) return "cooperative 128x160";
  if (s == Schedule::Cooperative128x128) return "cooperative 128x128";
  if (s == Schedule::Cooperative128x128NoCluster) return "cooperative 128x128 no cluster";
  if (s == Schedule::Pingpong64x128) return "ping-pong 64x128";
  if (s == Schedule::Cooperative128x64NoCluster) return "cooperative 128x64 no cluster";
  return "?";
}

// CTAs of BM x BN tiles in clusters of `cluster` CTAs along M (a cluster's tail CTAs count).
inline int64_t cluster_ctas(const GemmArguments& g, int64_t bm, int64_t bn, int64_t cluster) {
  const auto cluster_tiles = output_tile_grid(g.m, g.n, bm * cluster, bn);
  return cluster_tiles.m * cluster * cluster_tiles.n * g.batch;
}

// Whether a kernel of these traits runs schedule s (its tile, cluster and consumer arrangement).
constexpr bool runs_schedule(const device::sm90_set::KernelTraits& t, Schedule s) {
  return t.pingpong == (s.consumers == Consumers::Pingpong) && t.bm == s.bm && t.bn == s.bn && t.cluster_m == s.cluster_m;
}

// The list's kernel without fused activation of schedule s for g (g in the kernels'
// orientation), Stream-K or over whole tiles: its traits, none where the list has no such kernel.
inline std::optional<device::sm90_set::KernelTraits> plain_kernel(Schedule s, const GemmArguments& g, bool stream_k) {
  namespace set = device::sm90_set;
  return set::find_traits([&](const set::KernelTraits& t) {
    return t.stream_k == stream_k && t.fused == Activation::Identity && runs_schedule(t, s) && set::takes_types(t, g);
  });
}
// Whether the list has that kernel.
inline bool built(Schedule s, const GemmArguments& g, bool stream_k) { return plain_kernel(s, g, stream_k).has_value(); }
// The list's plain kernel that runs schedule s over whole tiles for g: its whole-tile kernel, or
// else its Stream-K kernel, which plans whole tiles when launched without a workspace (the
// dispatch launches it so: device/sm90_instances.cu). Its traits say which (stream_k).
inline std::optional<device::sm90_set::KernelTraits> whole_tile_kernel(Schedule s, const GemmArguments& g) {
  if (auto whole = plain_kernel(s, g, false)) return whole;
  return plain_kernel(s, g, true);
}
// Whether the list runs schedule s over whole tiles for g (plain: no fused activation).
inline bool schedule_built(Schedule s, const GemmArguments& g) { return whole_tile_kernel(s, g).has_value(); }

// Whether the list has a Stream-K kernel (no fused activation) of schedule s for g.
inline bool stream_k_built(Schedule s, const GemmArguments& g) { return built(s, g, true); }

// Whether the rule weighs schedule s's whole-tile kernel for g (g in the kernels' orientation):
// one is built, and for the 128 x 160 tile (per-tensor FP8) g's N, the tokens of Y = X W^T run as
// D^T, is at most kMidTileMaxTokens. Its gain is the tokens' padding (320 tokens: two tiles of
// 160 pad nothing, 128-column tiles pad to 384, 256-column ones to 512); past four of its tiles
// of tokens the tiles' padding differs little, and the choice would rest on wave quantization at
// its assumed rate (gemm_selection.hpp) where the 128 x 256 and 128 x 128 kernels were measured.
// The 128 x 64 tile over whole tiles (its Stream-K kernel without a workspace) where g's M fits
// its one tile but not ping-pong's (64 < M <= 128; 16-bit TN): each row of B is then read by one
// CTA, where ping-pong's two 64-row tiles read it twice and 128 x 128 tiles fill half as many
// SMs (at M <= 64 ping-pong's one tile reads B once too, and 128 x 64 would compute as many
// padding rows as rows: not measured, not weighed); the wave
// model, which sees neither the re-reads nor DRAM, ties it with ping-pong (the same tiles, the
// same rate) and kSchedules' order keeps it. Measured on an H200 (bf16 TN, D column-major, whole
// tiles, each against cuBLAS in one process; bench/notes/sm90_tiles.md, "M in one tile"): 128 x
// 8192 x 8192 0.93 of cuBLAS (ping-pong 0.78, 128 x 128 without a cluster 0.80), 128 x 6144 x
// 4096 0.89 (0.79, 0.77); where 128 x 128 tiles fill a wave (128 x 14336 x 4096) the model keeps
// them (0.95; 128 x 64 0.85); with half a wave of either (128 x 4096 x 14336) it loses, 0.59
// against ping-pong's 0.67 (there the Stream-K kernels, given a workspace, are weighed as
// before). Where M takes several tiles its tiles re-read B as any other tile
// with fewer columns does (8192 x 128 x 8192: 0.78 against ping-pong's 0.94), and FP8's 128 x 64
// kernels over whole tiles are not measured: the rule runs them there only when told (a forced
// configuration or a tuning record).
inline constexpr std::int64_t kMidTileMaxTokens = 640;
inline bool whole_considered(Schedule s, const GemmArguments& g) {
  const auto kernel = whole_tile_kernel(s, g);
  if (!kernel) return false;
  if (s == Schedule::Cooperative128x160) return g.n <= kMidTileMaxTokens;
  if (kernel->stream_k)  // (whole tiles of a Stream-K kernel)
    return s == Schedule::Cooperative128x64NoCluster && !is_fp8(g.element) && g.m > Schedule::Pingpong64x128.bm &&
           g.m <= Schedule::Cooperative128x64NoCluster.bm;
  return true;
}

// The wave model's candidate (gemm_selection.hpp) for schedule s's kernels with inputs of
// `element`: their tile (BK: one 128-byte swizzle row of the element), cluster and rate.
inline Candidate candidate_of(Schedule s, Element element, Schedulers schedulers) {
  const int bk = element == Element::F32 ? 32 : is_fp8(element) ? 128 : 64;
  Candidate c = kSm90Default;
  for (const Candidate& k : kSm90Candidates)
    if (k.tile_m == s.bm && k.tile_n == s.bn && k.tile_k == bk && k.cluster.m == s.cluster_m && k.cluster.n == 1) c = k;
  c.schedulers = schedulers;
  return c;
}

// The shape the kernel runs for g in g's own orientation (its D major, as given: no swap).
inline GemmShape kernel_shape(const GemmArguments& g) {
  return {g.m, g.n, g.k, g.batch, g.element, output_element(g), g.a.major, g.b.major, operand_rows_off_sectors(g)};
}

// select_sm90 over the first n candidates: the index of the one it chooses (tile, cluster and
// scheduler), none where no candidate takes g's shape (g in the kernels' orientation).
template <std::size_t N>
std::optional<std::size_t> select_index(const GemmArguments& g, int sms, const std::array<Candidate, N>& candidates, std::size_t n) {
  const Sm90Choice choice = select_sm90(kernel_shape(g), sms, std::span<const Candidate>(candidates.data(), n));
  const bool whole = choice.scheduler == Decomposition::DataParallel;
  for (std::size_t i = 0; i < n; ++i)
    if (candidates[i].tile_m == choice.tile_m && candidates[i].tile_n == choice.tile_n &&
        candidates[i].cluster.m == choice.cluster.m && whole == (candidates[i].schedulers == Schedulers::DataParallel))
      return i;
  return std::nullopt;
}

// The whole-tile schedule: select_sm90 over the data-parallel candidates of the whole-tile
// kernels built and considered for g (whole_considered; kSchedules' order); the default where
// none is built (then nothing runs g: can_implement says why) or there are no SMs to model.
inline Schedule choose_schedule(const GemmArguments& g, int sms) {
  std::array<Candidate, kSchedules.size()> candidates{};
  std::array<Schedule, kSchedules.size()> schedules{};
  std::size_t n = 0;
  for (const Schedule s : kSchedules)
    if (whole_considered(s, g)) schedules[n] = s, candidates[n++] = candidate_of(s, g.element, Schedulers::DataParallel);
  if (n == 0 || sms < 1) return Schedule::Cooperative128x256;
  return schedules[select_index(g, sms, candidates, n).value_or(0)];  // (none takes g: the first)
}

// Whether choose_stream_k weighs schedule s's Stream-K kernel for g: one is built for g, and for
// the 16-bit TN 128x128 ones (built for decode: 64 and 128 tokens) g's smaller output extent is
// at most kDecodeExtent: at 256 tokens through Llama-3 8B's down projection they ran at 0.72 of
// cuBLAS where the ping-pong kernel's whole tiles run 0.88, which the wave model does not see.
// That gate is lifted where operand rows start off 32-byte sectors (operand_rows_off_sectors):
// there the ping-pong and no-cluster tiles it protected run 1.4-1.8x longer (gemm_selection.hpp,
// kOffSectorRate) and the clustered Stream-K 128x128 kernel was the fastest listed one at
// 1000 x 1000 x 4008 (27.6 us; ping-pong 36.4, H200, bench/notes/sm90_tiles.md).
// The 128 x 64 decode kernel only where g's N (the tokens of Y = X W^T run as D^T) is at most
// kDecodeTileExtent, one tile along N: each further tile along N re-reads the weight (through L2
// at best), which the model's MAC rate does not see. At 128 tokens through Llama-3 8B's down
// projection it ran 0.70 of cuBLAS where the 128x128 Stream-K kernel ran 0.81 (one process,
// bench/notes/suite.md, "The decode kernel and the method above"); at 64 tokens it is the fastest kernel at every suite layer.
// The same gate for the block-scaled FP8 decode kernel (Fp8BlockDecode: 128 x 64 x 128, the
// tokens' scales promoted per column of the tile): at most 64 tokens, where the wave model, with
// its tile's rate assumed (gemm_selection.hpp), predicts it faster than the clustered 128 x 128
// Stream-K kernel, whose tile is half padding there; past one tile of tokens the 128 x 128
// kernel runs, as for 16 bits (bench/notes/fp8.md: the prediction for 64 and 128 tokens).
// Per-tensor FP8 (Fp8Decode): the decode tile by the same gate. (A 128 x 128 Stream-K tile
// without a cluster for 65 to 128 tokens ran no faster than the clustered one on an H200:
// 673.5 against 682.3 TFLOP/s at 128 x 7168 x 16384, bench/notes/fp8.md; it is not built.)
inline constexpr std::int64_t kDecodeExtent = 128;
inline constexpr std::int64_t kDecodeTileExtent = 64;
inline bool stream_k_considered(Schedule s, const GemmArguments& g) {
  if (!stream_k_built(s, g)) return false;
  const bool tn16 = !is_fp8(g.element) && g.a.major == Major::Row && g.b.major == Major::Col;
  // (FP8 is TN; its rowwise scales never reach here: choose_stream_k)
  if (s == Schedule::Cooperative128x64NoCluster) return (tn16 || is_fp8(g.element)) && g.n <= kDecodeTileExtent;
  return !(s == Schedule::Cooperative128x128 && tn16 && std::min(g.m, g.n) > kDecodeExtent && !operand_rows_off_sectors(g));
}

// The schedule of the Stream-K kernel to run g with, where the list has one and the wave model
// predicts it faster than choose_schedule's whole tiles (select_sm90 over that candidate, data-
// parallel, then the Stream-K kernels' candidates: larger tiles first, each replacing the choice
// only past the margin); none where whole tiles are predicted as fast.
inline std::optional<Schedule> choose_stream_k(const GemmArguments& g, int sms) {
  // (none for FP8's rowwise scales, which no Stream-K kernel takes: sm90_set::takes_types)
  std::array<Candidate, kSchedules.size() + 1> candidates{};
  std::array<Schedule, kSchedules.size() + 1> schedules{};
  std::size_t n = 0;
  schedules[n] = choose_schedule(g, sms), candidates[n] = candidate_of(schedules[n], g.element, Schedulers::DataParallel), ++n;
  for (const Schedule s : kSchedules)
    if (stream_k_considered(s, g)) schedules[n] = s, candidates[n++] = candidate_of(s, g.element, Schedulers::StreamK);
  if (n == 1 || sms < 1) return std::nullopt;
  const std::optional<std::size_t> i = select_index(g, sms, candidates, n);
  if (!i || *i == 0) return std::nullopt;  // (whole tiles predicted as fast)
  return schedules[*i];
}

// D row-major is computed as D^T = B^T A^T, column-major: the wgmma C fragment's stores are
// cheapest into a column-major D (a warp's store covers 4 columns x 16 bytes; row-major, 8
// rows x 8 bytes), and even with pairs packed into 32-bit stores the opposite choice is much
// slower (bench/notes/sm90_gemm.md); the row-major TMA-store epilogue stages a row-major D
// instead (the kernels built with one: as_row_major_d). A (M x K) becomes
// B' of D^T and B (K x N) becomes A': the same storage read with the other roles (a row-major
// A is a K-major B', a column-major B a K-major A'). transposed(g): that exchange, either way
// (M, N, lds and strides exactly the transpose's; transposed(transposed(g)) is g's meaning).
inline GemmArguments transposed(const GemmArguments& g) {
  GemmArguments t = g;
  t.m = g.n;
  t.n = g.m;
  t.a = g.b;
  t.a.major = g.b.major == Major::Col ? Major::Row : Major::Col;
  t.b = g.a;
  t.b.major = g.a.major == Major::Row ? Major::Col : Major::Row;
  // (FP8 pairs: the types and scales go with their operands; their product is the same)
  t.element = element_b(g);
  t.element_b = g.element != element_b(g) ? std::optional<Element>(g.element) : std::nullopt;
  t.scale_a = g.scale_b;
  t.scale_b = g.scale_a;
  // (block scales: A's row scales' leading dimension counts the caller's M, now N)
  if (g.scale_mode == ScaleMode::Block) t.ld_scale_a = block_scale_ld(g);
  t.c.major = g.c.major == Major::Col ? Major::Row : Major::Col;
  // bias[m] of D is bias[n] of D^T
  if (g.epilogue.bias == Bias::PerRow) t.epilogue.bias = Bias::PerColumn;
  if (g.epilogue.bias == Bias::PerColumn) t.epilogue.bias = Bias::PerRow;
  return t;
}
inline GemmArguments as_column_major_d(const GemmArguments& g) { return g.c.major == Major::Col ? g : transposed(g); }
inline GemmArguments as_row_major_d(const GemmArguments& g) { return g.c.major == Major::Row ? g : transposed(g); }
// g in the orientation whose kernel D has major d.
inline GemmArguments oriented(const GemmArguments& g, Major d) { return d == Major::Col ? as_column_major_d(g) : as_row_major_d(g); }

// Whether the dispatch weighs the kernels built with a row-major D for g (any orientation):
// plain problems (the row-major kernels stage alpha acc + beta C; a bias or activation would
// take their direct stores) whose row-major D (and C) TMA stores (and loads).
inline bool row_major_considered(const GemmArguments& g) {
  if (g.epilogue.activation != Activation::Identity || g.epilogue.bias != Bias::None) return false;
  const GemmArguments r = as_row_major_d(g);
  return bool(sm90_epilogue_operands(r, element_bytes(output_element(r)), false, Major::Row).status);
}

// A configuration the dispatch runs: a schedule's kernel over whole tiles, or its Stream-K
// kernel, with a column-major D (the default: a row-major D's problem transposed) or a
// row-major one (d: the kernel's D major; a column-major D's problem transposed).
// What the tuning cache records for a problem (gemm_tune), named as sm90_schedule names it.
struct Sm90Config {
  Schedule schedule = Schedule::Cooperative128x256;
  bool stream_k = false;
  Major d = Major::Col;
  friend constexpr bool operator==(const Sm90Config&, const Sm90Config&) = default;
};

inline std::string to_string(const Sm90Config& c) {
  return std::string(c.stream_k ? "stream-k " : "") + to_string(c.schedule) + (c.d == Major::Row ? " row-major D" : "");
}

// The configuration whose kernel has this tile, cluster, scheduler and D major (a tuning
// record's or select_sm90's choice); none where no schedule has them.
// (A tile and cluster name one schedule of kSchedules: the list builds no ping-pong 128x128.)
inline std::optional<Sm90Config> config_of(int tile_m, int tile_n, ClusterShape cluster, Decomposition scheduler,
                                           Major d = Major::Col) {
  if (scheduler == Decomposition::SplitK || cluster.n != 1) return std::nullopt;
  const bool stream_k = scheduler == Decomposition::StreamK;
  for (const Schedule s : kSchedules)
    if (s.bm == tile_m && s.bn == tile_n && s.cluster_m == cluster.m) {
      // (no Stream-K kernel without a cluster but the decode tiles': 128 x 64)
      if (stream_k && s.cluster_m == 1 && s != Schedule::Cooperative128x64NoCluster) return std::nullopt;
      return Sm90Config{s, stream_k, d};
    }
  return std::nullopt;
}

// Whether the list has configuration c's kernel for g (any orientation: c's): a tuning record or
// a forced configuration runs only what this says (no Stream-K one for FP8's rowwise scales:
// sm90_set::takes_types).
inline bool config_built(const Sm90Config& c, const GemmArguments& g) {
  if (c.d == Major::Row && !row_major_considered(g)) return false;
  const GemmArguments o = oriented(g, c.d);
  return c.stream_k ? stream_k_built(c.schedule, o) : schedule_built(c.schedule, o);
}

// Every configuration the list builds for g's types and majors (g in any orientation), whole
// tiles before Stream-K, the column-major D's before the row-major one's, larger tiles first:
// the candidates gemm_tune times. With a fused activation whole tiles only (the dispatch runs
// no Stream-K kernel then; a schedule without the activation's TMA-store kernel applies it in
// its plain kernel's epilogue). A Stream-K kernel need not have a whole-tile twin: without its
// workspace the rule's whole tiles run.
inline std::vector<Sm90Config> built_configs(const GemmArguments& g) {
  std::vector<Sm90Config> out;
  for (const bool stream_k : {false, true}) {
    // (no Stream-K with a fused activation; none for FP8's rowwise scales: sm90_set::takes_types)
    if (stream_k && g.epilogue.activation != Activation::Identity) break;
    for (const Major d : {Major::Col, Major::Row})
      for (const Schedule s : kSchedules)
        if (config_built({s, stream_k, d}, g)) out.push_back({s, stream_k, d});
  }
  return out;
}

namespace schedule_detail {
// The wave model's walk over configurations each on its own orientation's shape: a candidate
// replaces the choice only past the margin (select_sm90's rule, candidate by candidate).
// Returns the index of the chosen one, none where no candidate takes its shape.
inline std::optional<std::size_t> walk(std::span<const Sm90Config> configs, const GemmArguments& g, int sms) {
  std::optional<std::size_t> best;
  double best_efficiency = 0;
  for (std::size_t i = 0; i < configs.size(); ++i) {
    const GemmArguments o = oriented(g, configs[i].d);
    const Candidate c =
        candidate_of(configs[i].schedule, o.element, configs[i].stream_k ? Schedulers::StreamK : Schedulers::DataParallel);
    const Sm90Choice p = select_sm90(kernel_shape(o), sms, std::span<const Candidate>(&c, 1));
    if (p.tile_m == 0) continue;  // (a Stream-K plan that shares nothing: the whole-tile one)
    if (!best || p.efficiency > best_efficiency * (1 + kSelectionMargin)) best = i, best_efficiency = p.efficiency;
  }
  return best;
}
}  // namespace schedule_detail

// Block scales at many tokens: the kernel with the tokens along its tile's M (sm90_kernel_list.hpp:
// Fp8BlockRows, D row-major, 128 x 128 in clusters of 2) past kBlockRowsMinTokens tokens (the
// row-major D's rows), whatever the wave model says of the D^T kernels' tiles: their promotion
// scales every accumulator column by its own token's scale, and at 4096 x 7168 x 16384 they ran
// 760-800 TFLOP/s on every tile (128 x 128 and 128 x 192, in turns or together) where the same
// 128 x 192 k-loop promoted by one scalar per k-tile ran 1053 (bench/notes/fp8.md, the probe);
// the model's rates are the per-tensor tiles' and do not see that. At 256 tokens and fewer the
// D^T kernels keep their rule (the decode tile, the Stream-K 128 x 128 kernel measured at 64 and
// 128 tokens). g: the problem in any orientation.
inline constexpr std::int64_t kBlockRowsMinTokens = 256;
inline std::optional<Sm90Config> block_rows_config(const GemmArguments& g) {
  if (g.scale_mode != ScaleMode::Block) return std::nullopt;
  const Sm90Config rows{Schedule::Cooperative128x128, false, Major::Row};
  if (!row_major_considered(g) || !schedule_built(rows.schedule, as_row_major_d(g))) return std::nullopt;
  if (as_row_major_d(g).m <= kBlockRowsMinTokens) return std::nullopt;
  return rows;
}

// The whole-tile configuration, orientation included: choose_schedule's walk over the
// column-major D's built (and considered) whole-tile kernels, then the row-major D's (where
// considered) on the transposed extents, each replacing the choice only past the margin; the column-major
// default where none is built (then nothing runs g: can_implement says why).
inline Sm90Config choose_config(const GemmArguments& g, int sms) {
  if (const std::optional<Sm90Config> rows = block_rows_config(g)) return *rows;
  std::vector<Sm90Config> configs;
  for (const Major d : {Major::Col, Major::Row})
    for (const Schedule s : kSchedules)
      if (config_built({s, false, d}, g) && whole_considered(s, oriented(g, d))) configs.push_back({s, false, d});
  if (configs.empty() || sms < 1) return {};
  return configs[schedule_detail::walk(configs, g, sms).value_or(0)];  // (none takes g: the first)
}

// The Stream-K configuration to run g with, orientation included, where the list has one that
// the wave model predicts faster than choose_config's whole tiles: choose_stream_k's walk (the
// whole-tile choice, then each orientation's considered Stream-K kernels, column-major first).
inline std::optional<Sm90Config> choose_config_stream_k(const GemmArguments& g, int sms) {
  if (block_rows_config(g)) return std::nullopt;  // (block scales at many tokens: whole tiles of the row-major kernel)
  std::vector<Sm90Config> configs{choose_config(g, sms)};
  for (const Major d : {Major::Col, Major::Row}) {
    if (d == Major::Row && !row_major_considered(g)) continue;
    const GemmArguments o = oriented(g, d);
    for (const Schedule s : kSchedules)
      if (stream_k_considered(s, o)) configs.push_back({s, true, d});
  }
  if (configs.size() == 1 || sms < 1) return std::nullopt;
  const std::optional<std::size_t> i = schedule_detail::walk(configs, g, sms);
  if (!i || *i == 0) return std::nullopt;  // (whole tiles predicted as fast)
  return configs[*i];
}

}  // namespace tessera::kernels::sm90
