// Which SM90 kernel schedule and CTA tile the dispatch runs a problem with (host code without
// CUDA, so that CI tests the rule: hopper_sm90_schedule_test).
//
//   Cooperative128x256  two consumer warpgroups share a 128 x 256 tile (the default)
//   Cooperative128x128  the same with 128 x 128 tiles
//   Pingpong64x128      two consumer warpgroups each own 64 x 128 tiles, alternating
//
// The rule: the default tiles unless their CTAs (clusters of 2 along M) would fill at most
// half of the SMs; then smaller tiles, so that more CTAs share the work (each with less
// of it: per-CTA latency, not throughput, bounds such problems): 64 x 128 ping-pong where it
// is instantiated (bf16 or f16, A and B K-major, D in the inputs' type), else 128 x 128
// cooperative (D in the inputs' type), else the default.
// Not ping-pong for larger problems: a 64-row tile (64x128 or 64x256) loads 1.7-2x the operand
// bytes per MAC of the cooperative 128x256 tile and trails it at every shape from 2048^3 up;
// 128 x 128 tiles per consumer warpgroup (sm90::PingpongGemm<T, 128, 2, 128>, not built by the
// library) trail it too, with clusters or without, and trail 64x128 ping-pong on small
// problems (bench/notes/sm90_gemm.md has the comparisons).
// g: the problem as the kernels see it (D column-major: as_column_major_d).
#pragma once

#include <cstdint>

#include <tessera/kernels/gemm_arguments.hpp>

#include "../kernel/tile_scheduler.cuh"

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

inline Schedule choose_schedule(const GemmArguments& g, int sms) {
  if (g.element == Element::F32) return Schedule::Cooperative128x256;  // tf32: one kernel
  if (2 * cluster_ctas(g, 128, 256, 2) > sms) return Schedule::Cooperative128x256;
  if (output_element(g) != g.element) return Schedule::Cooperative128x256;  // small tiles: D in the inputs' type only
  const bool tn = g.a.major == Major::Row && g.b.major == Major::Col;      // A and B K-major
  return tn ? Schedule::Pingpong64x128 : Schedule::Cooperative128x128;
}

}  // namespace tessera::kernels::sm90
