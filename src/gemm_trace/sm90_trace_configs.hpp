// The SM90 configurations `gemm_trace --sm90 --config NAME` traces: each a shipped kernel type
// (kernels/device/sm90_kernel_list.hpp; its unit sm90_trace_<name>.cu static_asserts the
// tie) with the recording epilogue (kernels/collective/sm90_epilogue_recorded.cuh), run over a
// whole problem of several tiles on a grid of `clusters` clusters, so that each cluster walks
// several tiles (the epilogue under the next tile runs, ping-pong's consumers take turns,
// Stream-K shares tiles' k-iterations). Host and device code (plain C++): the table, the
// inputs that make each accumulator encode its (m, n), and the record counts a correct run
// writes, which the host test (tests/kernels/sm90_trace_configs_test.cpp) checks.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "tessera/atom/mma_sm90.hpp"
#include "tessera/atom/mma_sm90_8bit.hpp"
#include "tessera/tiled_mma.hpp"
#include "kernel/trace_policy.cuh"

namespace tessera::kernels::trace {

enum class Sm90Config : int { fp8_128x256, bf16_128x128, bf16_64x128_pingpong, stream_k, count };
enum class Sm90Input : int { BF16, E4M3 };

struct Sm90TraceConfig {
  Sm90Config id;
  const char* name;
  const char* description;  // one line, for --config list
  int m, n, k;              // the problem: D (M x N, column-major) = A (M x K) B^T (B: N x K), both K-major
  int bm, bn, bk;           // the shipped kernel's CTA tile
  int cluster_m;            // CTAs per cluster (along M)
  int clusters;             // the clusters the traced run gives the kernel (its grid, its Stream-K plan)
  int consumer_threads;     // threads of the TiledMma (its C map's threads)
  Sm90Input input;
  bool stream_k;            // more runs record the k-iterations of each tile (map tile.k)
  const char* kernel;       // the trace's `kernel` line
};

// Problems: multiples of the tile (no residue: a padded row's accumulator is 0, which reads
// as row or column 0), M and N up to 4096 (sm90_coordinate_inputs), several tiles per cluster. One cluster for the whole-tile kernels: it walks every tile, so the FP8 kernel
// stores each tile under its next one and the ping-pong consumers alternate; Stream-K on 4
// clusters over 7 cluster tiles of 24 k-tiles, which its heuristic splits into whole tiles and
// shared ones (the host test checks the plan has both).
inline constexpr Sm90TraceConfig sm90_trace_configs[] = {
    {Sm90Config::fp8_128x256, "fp8_128x256",
     "FP8 e4m3 x e4m3 -> bf16, 128x256x128, clusters of 2, epilogue under the next tile (Fp8<e4m3, e4m3, bf16>), 256x512x384",
     256, 512, 384, 128, 256, 128, 2, 1, 256, Sm90Input::E4M3, false,
     "sm90_fp8_e4m3_bf16 tile=128x256x128 mma=SM90_64x256x32_F32E4M3E4M3_SS atoms=2x1x1 cluster=2 order=EpilogueUnderNextTile<2> "
     "problem=256x512x384 clusters=1"},
    {Sm90Config::bf16_128x128, "bf16_128x128",
     "bf16 TN, 128x128x64 without a cluster, whole tiles (Solo<bf16>), 256x384x320", 256, 384, 320, 128, 128, 64, 1, 1, 256,
     Sm90Input::BF16, false,
     "sm90_bf16_solo tile=128x128x64 mma=SM90_64x128x16_F32BF16BF16_SS atoms=2x1x1 cluster=1 order=EpilogueAfterTile "
     "problem=256x384x320 clusters=1"},
    {Sm90Config::bf16_64x128_pingpong, "bf16_64x128_pingpong",
     "bf16 TN, ping-pong 64x128x64, no cluster (Pingpong<bf16>), 192x384x256", 192, 384, 256, 64, 128, 64, 1, 1, 128,
     Sm90Input::BF16, false,
     "sm90_bf16_pingpong tile=64x128x64 mma=SM90_64x128x16_F32BF16BF16_SS atoms=1x1x1 cluster=1 problem=192x384x256 clusters=1"},
    {Sm90Config::stream_k, "stream_k",
     "bf16 TN, 128x256x64 in clusters of 2 under Stream-K (Split<bf16, K, K>), 256x1792x1536 on 3 clusters: shared tiles fixed up",
     256, 1792, 1536, 128, 256, 64, 2, 3, 256, Sm90Input::BF16, true,
     "sm90_bf16_stream_k tile=128x256x64 mma=SM90_64x256x16_F32BF16BF16_SS atoms=2x1x1 cluster=2 scheduler=StreamK "
     "problem=256x1792x1536 clusters=3"},
};
static_assert(std::size(sm90_trace_configs) == std::size_t(Sm90Config::count), "one row per configuration");

// The TiledMma each configuration's kernel partitions its accumulators with (its unit
// static_asserts that the kernel's Mainloop::TiledMma is this type).
template <Sm90Config C>
struct Sm90ConfigMma;
template <>
struct Sm90ConfigMma<Sm90Config::fp8_128x256> {
  using type = decltype(make_tiled_mma(MMA_Atom<SM90_64xNx32_F32E4M3E4M3_SS<256>>{}, make_layout(make_shape(_2{}, _1{}, _1{}))));
};
template <>
struct Sm90ConfigMma<Sm90Config::bf16_128x128> {
  using type = decltype(make_tiled_mma(MMA_Atom<SM90_64xNx16_F32BF16BF16_SS<128>>{}, make_layout(make_shape(_2{}, _1{}, _1{}))));
};
template <>
struct Sm90ConfigMma<Sm90Config::bf16_64x128_pingpong> {
  using type = decltype(make_tiled_mma(MMA_Atom<SM90_64xNx16_F32BF16BF16_SS<128>>{}, make_layout(make_shape(_1{}, _1{}, _1{}))));
};
template <>
struct Sm90ConfigMma<Sm90Config::stream_k> {
  using type = decltype(make_tiled_mma(MMA_Atom<SM90_64xNx16_F32BF16BF16_SS<256>>{}, make_layout(make_shape(_2{}, _1{}, _1{}))));
};

constexpr const Sm90TraceConfig& sm90_trace_config(Sm90Config c) { return sm90_trace_configs[int(c)]; }

// The configuration named `name`, or null.
inline const Sm90TraceConfig* find_sm90_trace_config(std::string_view name) {
  for (const auto& c : sm90_trace_configs)
    if (name == c.name) return &c;
  return nullptr;
}
// "fp8_128x256, bf16_128x128, ..." for messages.
inline std::string sm90_trace_config_names() {
  std::string s;
  for (const auto& c : sm90_trace_configs) s += (s.empty() ? "" : ", ") + std::string(c.name);
  return s;
}

constexpr int tiles_m(const Sm90TraceConfig& c) { return c.m / c.bm; }
constexpr int tiles_of(const Sm90TraceConfig& c) { return (c.m / c.bm) * (c.n / c.bn); }
constexpr int k_tiles_of(const Sm90TraceConfig& c) { return c.k / c.bk; }
// What a correct run records: every accumulator of the problem once (mma.C); with stream_k,
// every (tile, k-iteration) once (tile.k).
constexpr std::int64_t mma_c_records(const Sm90TraceConfig& c) { return std::int64_t(c.m) * c.n; }
constexpr std::int64_t tile_k_records(const Sm90TraceConfig& c) { return c.stream_k ? std::int64_t(tiles_of(c)) * k_tiles_of(c) : 0; }

// The traced runs' inputs, as floats (each exact in the input type: the host test checks), A
// M x K and B N x K, both K-major.
struct Sm90TraceInputs {
  std::vector<float> a, b;
};

// Coordinates, one per run: C(m, n) = sum_k A(m, k) B(n, k) = m (rows) or n (columns), from
// base-16 digits (m = 16 m1 + m0, n = 256 n2 + 16 n1 + n0) times powers of 16: each factor a
// digit (an integer up to 15) or 1, 16, 256, exact in e4m3 (which holds the integers up to 16
// and their multiples by powers of 2, not m or n themselves) as in bf16; each sum below 2^12, so
// exact whatever precision the tensor cores keep while they accumulate (FP8's is reported near
// 14 bits: a code of both coordinates, m + 256 n, would need up to 19).
//   rows:    A  m0 (first k-tile)  m1 (middle)            B  1, 16
//   columns: A  1 (last)  16 (first)  256 (middle)        B  n0, n1, n2
// Term j of a run lies at column j of its k-tile, so the runs need the first, the middle and the
// last k-tiles: one a kernel skipped, took twice or added to another tile's accumulators gives
// another coordinate.
enum class Sm90Coordinate : int { Rows, Cols };
inline Sm90TraceInputs sm90_coordinate_inputs(const Sm90TraceConfig& c, Sm90Coordinate which) {
  if (c.m > 4096 || c.n > 4096) throw std::invalid_argument("the coordinate runs encode M and N up to 4096 (three base-16 digits)");
  if (c.bk < 5) throw std::invalid_argument("the coordinate runs need 5 columns in a k-tile");
  const int kt = k_tiles_of(c);
  const int first = 0, middle = (kt - 1) / 2, last = kt - 1;
  Sm90TraceInputs in{std::vector<float>(std::size_t(c.m) * c.k, 0.0f), std::vector<float>(std::size_t(c.n) * c.k, 0.0f)};
  auto put = [&](int j, int k_tile, auto a_of, auto b_of) {
    const std::size_t col = std::size_t(k_tile) * c.bk + j;
    for (int m = 0; m < c.m; ++m) in.a[std::size_t(m) * c.k + col] = float(a_of(m));
    for (int n = 0; n < c.n; ++n) in.b[std::size_t(n) * c.k + col] = float(b_of(n));
  };
  if (which == Sm90Coordinate::Rows) {
    put(0, first, [](int m) { return m % 16; }, [](int) { return 1; });
    put(1, middle, [](int m) { return m / 16 % 16; }, [](int) { return 16; });
    put(2, last, [](int m) { return m / 256; }, [](int) { return 256; });
  } else {
    put(2, last, [](int) { return 1; }, [](int n) { return n % 16; });
    put(3, first, [](int) { return 16; }, [](int n) { return n / 16 % 16; });
    put(4, middle, [](int) { return 256; }, [](int n) { return n / 256; });
  }
  return in;
}

// K-iterations (stream_k), 8 k-tiles a run: run r's accumulators hold sum over its k-tiles kt of
// 2^(kt - 8 r) (A(m, kt BK) = 1, B(n, kt BK) = 2^(kt - 8 r)), the mask of its k-tiles whose
// products reached (m, n), below 2^8 (exact as above).
constexpr int kKTilesPerRun = 8;
constexpr int k_iteration_runs(const Sm90TraceConfig& c) { return (k_tiles_of(c) + kKTilesPerRun - 1) / kKTilesPerRun; }
inline Sm90TraceInputs sm90_k_iteration_inputs(const Sm90TraceConfig& c, int run) {
  if (run < 0 || run >= k_iteration_runs(c)) throw std::invalid_argument("no such k-iteration run");
  Sm90TraceInputs in{std::vector<float>(std::size_t(c.m) * c.k, 0.0f), std::vector<float>(std::size_t(c.n) * c.k, 0.0f)};
  for (int t = run * kKTilesPerRun; t < k_tiles_of(c) && t < (run + 1) * kKTilesPerRun; ++t) {
    for (int m = 0; m < c.m; ++m) in.a[std::size_t(m) * c.k + std::size_t(t) * c.bk] = 1.0f;
    for (int n = 0; n < c.n; ++n) in.b[std::size_t(n) * c.k + std::size_t(t) * c.bk] = float(1 << (t - run * kKTilesPerRun));
  }
  return in;
}

// The rows run's records (row, -1) and the columns run's (-1, col) as one record each: the
// i-th record of a (map, thread, value) in the one paired with the i-th in the other, in the
// rows run's order; one without a partner keeps -1 (verify reports it). A (thread, value)
// recorded twice in both runs stays two records (a duplicate).
inline std::vector<int> pair_coordinate_runs(const std::vector<int>& rows, const std::vector<int>& cols) {
  auto key = [](const int* r) { return (std::uint64_t(std::uint32_t(r[0])) << 58) ^ (std::uint64_t(std::uint32_t(r[1])) << 32) ^ std::uint32_t(r[2]); };
  std::unordered_map<std::uint64_t, std::vector<int>> col_of;  // key -> its columns, in order
  for (std::size_t i = 0; i + 5 <= cols.size(); i += 5) col_of[key(&cols[i])].push_back(cols[i + 4]);
  std::unordered_map<std::uint64_t, std::size_t> taken;
  std::vector<int> out;
  out.reserve(std::max(rows.size(), cols.size()));
  for (std::size_t i = 0; i + 5 <= rows.size(); i += 5) {
    const int* r = &rows[i];
    const std::uint64_t k = key(r);
    const auto it = col_of.find(k);
    std::size_t& n = taken[k];
    const int col = it != col_of.end() && n < it->second.size() ? it->second[n] : -1;
    ++n;
    out.insert(out.end(), {r[0], r[1], r[2], r[3], col});
  }
  for (std::size_t i = 0; i + 5 <= cols.size(); i += 5) {  // columns no rows record took
    const int* r = &cols[i];
    const std::uint64_t k = key(r);
    std::size_t& n = taken[k];
    if (n < col_of[k].size()) {
      out.insert(out.end(), {r[0], r[1], r[2], -1, col_of[k][n]});
      ++n;
    }
  }
  return out;
}

// Device part, one per configuration (sm90_trace_<name>.cu, sm_90a): runs the kernel on the
// configuration's inputs (rows, columns, and with stream_k the k-iteration runs) and returns
// the records (5 ints each: the coordinate runs paired, then tile.k's). Throws std::runtime_error on a CUDA or kernel error or a buffer overflow.
std::vector<int> run_traced_sm90_fp8_128x256();
std::vector<int> run_traced_sm90_bf16_128x128();
std::vector<int> run_traced_sm90_bf16_64x128_pingpong();
std::vector<int> run_traced_sm90_stream_k();

}  // namespace tessera::kernels::trace
