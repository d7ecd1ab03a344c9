// Which SM90 kernel schedule and CTA tile the dispatch runs a problem with (host code without
// CUDA, so that CI tests the rule: hopper_sm90_schedule_test).
//
//   Cooperative128x256  two consumer warpgroups share a 128 x 256 tile (the default)
//   Cooperative128x128  the same with 128 x 128 tiles
//   Pingpong64x128      two consumer warpgroups each own 64 x 128 tiles, alternating
//
// The rule: the default tiles unless their CTAs (clusters of 2 along M) would fill at most
// half of the SMs; then smaller tiles, so that more CTAs share the work (each with less
// of it: per-CTA latency, not throughput, bounds such problems): 64 x 128 ping-pong where the
// kernel list (sm90_kernel_list.hpp) has one for the problem's types and majors (bf16 or
// f16, A and B K-major, D in the inputs' type), else 128 x 128 cooperative where it has one
// (D in the inputs' type), else the default.
// Not ping-pong for larger problems: a 64-row tile (64x128 or 64x256) loads 1.7-2x the operand
// bytes per MAC of the cooperative 128x256 tile and trails it at every shape from 2048^3 up;
// 128 x 128 tiles per consumer warpgroup (sm90::PingpongGemm<T, 128, 2, 128>, not built by the
// library) trail it too, with clusters or without, and trail 64x128 ping-pong on small
// problems (bench/notes/sm90_gemm.md has the comparisons).
// FP8 (e4m3/e5m2, no ping-pong kernel): the wave model's choice (select_sm90, data-parallel)
// between the FP8 whole-tile kernels the list has for the pair: the tile whose waves and padding
// waste least, which the CTA count alone does not see (320 x 32576 x 7168 with a row-major D:
// N = 320 fills 62 % of a 256-column tile and 83 % of a 128-column one).
// Stream-K (choose_stream_k): where the list has a Stream-K kernel for the problem's types and
// majors (sm90_kernel_list.hpp: Split, SmallSplit, Fp8StreamK), the wave model (gemm_selection.hpp,
// select_sm90) compares it with the rule's choice over whole tiles; the Stream-K kernel runs
// when the model predicts it more than the margin faster and the caller gives its workspace;
// never for FP8's rowwise scales (whole tiles: the Stream-K kernels' epilogue scales per tensor).
// g: the problem as the kernels see it (D column-major: as_column_major_d).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <tessera/kernels/gemm_arguments.hpp>

#include "../kernel/tile_scheduler.cuh"
#include "gemm_selection.hpp"
#include "sm90_kernel_list.hpp"

namespace tessera::kernels::sm90 {

enum class Schedule { Cooperative128x256, Cooperative128x128, Pingpong64x128 };

inline const char* to_string(Schedule s) {
  switch (s) {
    case Schedule::Cooperative128x256: return "cooperative 128x256";
    case Schedule::Cooperative128x128: return "cooperative 128x128";
    case Schedule::Pingpong64x128: return "ping-pong 64x128";
  }
  return "?";
}

// CTAs of BM x BN tiles in clusters of `cluster` CTAs along M (a cluster's tail CTAs count).
inline int64_t cluster_ctas(const GemmArguments& g, int64_t bm, int64_t bn, int64_t cluster) {
  const auto cluster_tiles = output_tile_grid(g.m, g.n, bm * cluster, bn);
  return cluster_tiles.m * cluster * cluster_tiles.n * g.batch;
}

// Whether a kernel of these traits runs schedule s (its tile and consumer arrangement).
constexpr bool runs_schedule(const device::sm90_set::KernelTraits& t, Schedule s) {
  switch (s) {
    case Schedule::Cooperative128x256: return !t.pingpong && t.bm == 128 && t.bn == 256;
    case Schedule::Cooperative128x128: return !t.pingpong && t.bm == 128 && t.bn == 128;
    case Schedule::Pingpong64x128: return t.pingpong && t.bm == 64 && t.bn == 128;
  }
  return false;
}

// Whether the list has a kernel without fused activation of schedule s for g, Stream-K or over
// whole tiles.
inline bool built(Schedule s, const GemmArguments& g, bool stream_k) {
  namespace set = device::sm90_set;
  return set::find_kernel([&](auto shipped) {
    constexpr set::KernelTraits t = set::traits_of<typename decltype(shipped)::Kernel>;
    return t.stream_k == stream_k && t.fused == Activation::Identity && runs_schedule(t, s) && set::takes_types(t, g);
  });
}
// Whether the list has a plain kernel (whole tiles, no fused activation) of schedule s for g.
inline bool schedule_built(Schedule s, const GemmArguments& g) { return built(s, g, false); }

inline Schedule choose_fp8_schedule(const GemmArguments& g, int sms);

inline Schedule choose_schedule(const GemmArguments& g, int sms) {
  if (is_fp8(g.element)) return choose_fp8_schedule(g, sms);
  if (2 * cluster_ctas(g, 128, 256, 2) > sms) return Schedule::Cooperative128x256;
  if (schedule_built(Schedule::Pingpong64x128, g)) return Schedule::Pingpong64x128;
  if (schedule_built(Schedule::Cooperative128x128, g)) return Schedule::Cooperative128x128;
  return Schedule::Cooperative128x256;
}

// Whether the list has a Stream-K kernel (no fused activation) of schedule s for g.
inline bool stream_k_built(Schedule s, const GemmArguments& g) { return built(s, g, true); }

// The wave model's candidate (gemm_selection.hpp) for schedule s's kernels: their tile, cluster
// (2 along M for the cooperative ones, none for ping-pong) and rate.
inline Candidate candidate_of(Schedule s, Element element, Schedulers schedulers) {
  const bool tf32 = element == Element::F32;
  const int bm = s == Schedule::Pingpong64x128 ? 64 : 128, bn = s == Schedule::Cooperative128x256 ? 256 : 128;
  const int bk = tf32 ? 32 : is_fp8(element) ? 128 : 64, cluster_m = s == Schedule::Pingpong64x128 ? 1 : 2;
  Candidate c = kSm90Default;
  for (const Candidate& k : kSm90Candidates)
    if (k.tile_m == bm && k.tile_n == bn && k.tile_k == bk && k.cluster.m == cluster_m && k.cluster.n == 1) c = k;
  c.schedulers = schedulers;
  return c;
}

// FP8's whole tiles: select_sm90 over the data-parallel candidates of the FP8 whole-tile kernels
// built for g's pair and D (the larger tile first: near-ties keep it); the default tile where
// none is built (then nothing runs g: can_implement says why) or there are no SMs to model.
inline Schedule choose_fp8_schedule(const GemmArguments& g, int sms) {
  std::array<Candidate, 2> candidates{};
  std::size_t n = 0;
  for (const Schedule s : {Schedule::Cooperative128x256, Schedule::Cooperative128x128})
    if (schedule_built(s, g)) candidates[n++] = candidate_of(s, g.element, Schedulers::DataParallel);
  if (n == 0 || sms < 1) return Schedule::Cooperative128x256;
  const Sm90Choice choice = select_sm90(shape_of(g), sms, std::span<const Candidate>(candidates.data(), n));
  return choice.tile_n == 128 ? Schedule::Cooperative128x128 : Schedule::Cooperative128x256;
}

// The schedule of the Stream-K kernel to run g with, where the list has one and the wave model
// predicts it faster than choose_schedule's whole tiles (select_sm90 over that candidate, data-
// parallel, then the Stream-K kernels' candidates: larger tiles first, each replacing the choice
// only past the margin); none where whole tiles are predicted as fast.
// Whether choose_stream_k weighs schedule s's Stream-K kernel for g: one is built for g, and for
// the 16-bit TN 128x128 ones (built for decode: 64 and 128 tokens) g's smaller output extent is
// at most kDecodeExtent: at 256 tokens through Llama-3 8B's down projection they ran at 0.72 of
// cuBLAS where the ping-pong kernel's whole tiles run 0.88, which the wave model does not see.
inline constexpr std::int64_t kDecodeExtent = 128;
inline bool stream_k_considered(Schedule s, const GemmArguments& g) {
  if (!stream_k_built(s, g)) return false;
  const bool tn16 = !is_fp8(g.element) && g.a.major == Major::Row && g.b.major == Major::Col;
  return !(s == Schedule::Cooperative128x128 && tn16 && std::min(g.m, g.n) > kDecodeExtent);
}

inline std::optional<Schedule> choose_stream_k(const GemmArguments& g, int sms) {
  // (the Stream-K kernels' epilogue applies FP8's per-tensor scales only; block scales are the
  // mainloop's)
  if (g.scale_mode == ScaleMode::Rowwise) return std::nullopt;
  const Schedule whole = choose_schedule(g, sms);
  std::array<Candidate, 3> candidates{};
  std::size_t n = 0;
  candidates[n++] = candidate_of(whole, g.element, Schedulers::DataParallel);
  for (const Schedule s : {Schedule::Cooperative128x256, Schedule::Cooperative128x128})
    if (stream_k_considered(s, g)) candidates[n++] = candidate_of(s, g.element, Schedulers::StreamK);
  if (n == 1 || sms < 1) return std::nullopt;
  const Sm90Choice choice = select_sm90(shape_of(g), sms, std::span<const Candidate>(candidates.data(), n));
  if (choice.tile_m == 0 || choice.scheduler == Decomposition::DataParallel) return std::nullopt;
  return choice.tile_n == 256 ? Schedule::Cooperative128x256 : Schedule::Cooperative128x128;
}

// A configuration the dispatch runs: a schedule's kernel over whole tiles, or its Stream-K kernel.
// What the tuning cache records for a problem (gemm_tune), named as sm90_schedule names it.
struct Sm90Config {
  Schedule schedule = Schedule::Cooperative128x256;
  bool stream_k = false;
  friend constexpr bool operator==(const Sm90Config&, const Sm90Config&) = default;
};

inline std::string to_string(const Sm90Config& c) { return std::string(c.stream_k ? "stream-k " : "") + to_string(c.schedule); }

// The configuration whose kernel has this tile, cluster and scheduler (a tuning record's or
// select_sm90's choice); none where no schedule has them.
inline std::optional<Sm90Config> config_of(int tile_m, int tile_n, ClusterShape cluster, Decomposition scheduler) {
  if (scheduler == Decomposition::SplitK) return std::nullopt;
  const bool stream_k = scheduler == Decomposition::StreamK;
  if (tile_m == 128 && tile_n == 256 && cluster.m == 2 && cluster.n == 1) return Sm90Config{Schedule::Cooperative128x256, stream_k};
  if (tile_m == 128 && tile_n == 128 && cluster.m == 2 && cluster.n == 1) return Sm90Config{Schedule::Cooperative128x128, stream_k};
  if (tile_m == 64 && tile_n == 128 && cluster.m == 1 && cluster.n == 1 && !stream_k) return Sm90Config{Schedule::Pingpong64x128, false};
  return std::nullopt;
}

// Every configuration the list builds for g's types and majors, whole tiles before Stream-K,
// larger tiles first: the candidates gemm_tune times. With a fused activation whole tiles only
// (the dispatch runs no Stream-K kernel then; a schedule without the activation's TMA-store
// kernel applies it in its plain kernel's epilogue). A Stream-K kernel need not have a
// whole-tile twin: without its workspace the rule's whole tiles run.
inline std::vector<Sm90Config> built_configs(const GemmArguments& g) {
  std::vector<Sm90Config> out;
  for (const bool stream_k : {false, true}) {
    // (no Stream-K with a fused activation, nor for FP8's rowwise scales: choose_stream_k)
    if (stream_k && (g.epilogue.activation != Activation::Identity || g.scale_mode == ScaleMode::Rowwise)) break;
    for (const Schedule s : {Schedule::Cooperative128x256, Schedule::Cooperative128x128, Schedule::Pingpong64x128})
      if (stream_k ? stream_k_built(s, g) : schedule_built(s, g)) out.push_back({s, stream_k});
  }
  return out;
}

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
  // (FP8 pairs: the types and scales go with their operands; their product is the same)
  t.element = element_b(g);
  t.element_b = g.element != element_b(g) ? std::optional<Element>(g.element) : std::nullopt;
  t.scale_a = g.scale_b;
  t.scale_b = g.scale_a;
  // (block scales: A's row scales' leading dimension counts the caller's M, now N)
  if (g.scale_mode == ScaleMode::Block) t.ld_scale_a = block_scale_ld(g);
  t.c.major = Major::Col;
  // bias[m] of D is bias[n] of D^T
  if (g.epilogue.bias == Bias::PerRow) t.epilogue.bias = Bias::PerColumn;
  if (g.epilogue.bias == Bias::PerColumn) t.epilogue.bias = Bias::PerRow;
  return t;
}

}  // namespace tessera::kernels::sm90
