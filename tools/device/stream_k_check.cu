// The Stream-K schedule and fix-up on a GPU (kernels/kernel/stream_k_scheduler.hpp,
// stream_k_fixup.cuh): a persistent grid (one CTA per SM at most) walks the schedule of a
// problem with the real tile counts (the issue's shapes in 128x256 tiles, and generated ones),
// its "mainloop" sums floats whose sums depend on the order (per element, k-tiles in order from
// zero), the partial pieces meet through the workspace and flags, and C must equal, bit for bit,
// the host's reduction in the documented order; every CTA tile is stored once, no flag keeps the
// launch's tag, and every round gives the same bits. The workspace starts as 0xff bytes (never
// cleared: the flags count only with the launch's tag), round 1 replays round 0's tag (as a CUDA
// graph does), the later rounds draw fresh tags. No cluster launch: a cluster's CTAs are
// consecutive blocks (rank = block mod cluster size), which is all the protocol sees of them.
//   stream_k_check [rounds]      exit 0 when every case passes, 1 otherwise
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "device/launch_tag.hpp"
#include "kernel/stream_k_fixup.cuh"

using namespace tessera::kernels;

namespace {

constexpr int kThreads = 128, kElems = 8, kTileElems = kThreads * kElems;

#define CHECK_CUDA(x)                                                                        \
  do {                                                                                       \
    cudaError_t e_ = (x);                                                                    \
    if (e_ != cudaSuccess) {                                                                 \
      std::fprintf(stderr, "error: %s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
      std::exit(1);                                                                          \
    }                                                                                        \
  } while (0)

__host__ __device__ float exposing_value(std::int64_t m, std::int64_t n, std::int64_t l, std::int64_t k, std::int64_t e) {
  std::uint64_t h = std::uint64_t(m) * 0x9E3779B97F4A7C15ull ^ std::uint64_t(n) * 0xC2B2AE3D27D4EB4Full ^
                    std::uint64_t(l) * 0x165667B19E3779F9ull ^ std::uint64_t(k) * 0xD6E8FEB86659FD93ull ^ std::uint64_t(e);
  h ^= h >> 31, h *= 0xBF58476D1CE4E5B9ull, h ^= h >> 29;
  const int exponent = int(h % 25) - 12;
  const float mantissa = 1.0f + float((h >> 8) & 0x7FF) / 2048.0f;
  return ldexpf((h >> 40) & 1 ? -mantissa : mantissa, exponent);
}

struct Problem {
  std::int64_t tm, tn;  // CTA tiles of the problem
  StreamKScheduler s;
};

__global__ void __launch_bounds__(kThreads) run_schedule(StreamKScheduler s, std::int64_t tm, std::int64_t tn, float* c,
                                                         unsigned* stores, float* partials, std::uint64_t* flags,
                                                         std::uint64_t tag, unsigned* stalls) {
  const int cs = s.cluster.size(), rank = int(blockIdx.x) % cs;
  const int rm = rank % s.cluster.m, rn = rank / s.cluster.m;
  const std::int64_t cl = blockIdx.x / cs, gm = s.raster.tiles_m * s.cluster.m, gn = s.raster.tiles_n * s.cluster.n;
  const int t = threadIdx.x;
  const StreamKFixup<kThreads, kElems> fix{partials, flags, tag};
  auto sync = [] { __syncthreads(); };
  for (std::int64_t i = 0; i < s.steps(cl); ++i) {
    const StreamKWork w = s.work(cl, i);
    const auto ct = s.cta_tile(w, rm, rn);
    if (ct.m >= tm || ct.n >= tn) continue;  // a cluster overhanging the problem
    float acc[kElems];
#pragma unroll
    for (int e = 0; e < kElems; ++e) acc[e] = 0.0f;
    for (std::int64_t k = w.k_begin; k < w.k_end; ++k)
#pragma unroll
      for (int e = 0; e < kElems; ++e) acc[e] += exposing_value(ct.m, ct.n, ct.l, k, t * kElems + e);
    if (w.role == SegmentRole::Partial) {
      fix.write(s.slot(w.unit, rm, rn), acc, t, sync);
      continue;
    }
    if (w.role == SegmentRole::Owner && !fix.reduce(s, w, rm, rn, acc, t, sync, std::uint64_t(1) << 26)) {
      if (t == 0) atomicAdd(stalls, 1u);
      continue;
    }
    const std::int64_t cta = (ct.l * gn + ct.n) * gm + ct.m;
#pragma unroll
    for (int e = 0; e < kElems; ++e) c[cta * kTileElems + t * kElems + e] = acc[e];
    if (t == 0) atomicAdd(stores + cta, 1u);
  }
}

// The host's answer: each tile's pieces (from every cluster's steps), reduced in the documented order.
std::vector<float> expected(const Problem& p) {
  const auto& s = p.s;
  const std::int64_t gm = s.raster.tiles_m * s.cluster.m, gn = s.raster.tiles_n * s.cluster.n;
  std::vector<float> c(std::size_t(gm * gn * s.raster.batch * kTileElems), 0.0f);
  struct Piece {
    std::int64_t unit, kb, ke;
  };
  std::vector<std::vector<Piece>> pieces(std::size_t(s.tile_count()));
  for (std::int64_t cl = 0; cl < s.clusters; ++cl)
    for (std::int64_t i = 0; i < s.steps(cl); ++i) {
      const StreamKWork w = s.work(cl, i);
      pieces[std::size_t(w.tile)].push_back({w.unit, w.k_begin, w.k_end});
    }
  for (std::int64_t tile = 0; tile < s.tile_count(); ++tile) {
    auto& ps = pieces[std::size_t(tile)];
    std::sort(ps.begin(), ps.end(), [](const Piece& a, const Piece& b) { return a.kb < b.kb; });
    const auto t = s.raster.tile(tile);
    for (int rn = 0; rn < s.cluster.n; ++rn)
      for (int rm = 0; rm < s.cluster.m; ++rm) {
        const std::int64_t m = t.m * s.cluster.m + rm, n = t.n * s.cluster.n + rn;
        if (m >= p.tm || n >= p.tn) continue;
        for (std::int64_t e = 0; e < kTileElems; ++e) {
          float acc = 0.0f;
          for (std::size_t q = ps.size(); q-- > 0;) {  // the owner's piece, then down the k-ranges
            float piece = 0.0f;
            for (std::int64_t k = ps[q].kb; k < ps[q].ke; ++k) piece += exposing_value(m, n, t.l, k, e);
            acc = q + 1 == ps.size() ? piece : piece + acc;
          }
          c[std::size_t(((t.l * gn + n) * gm + m) * kTileElems + e)] = acc;
        }
      }
  }
  return c;
}

bool check(const Problem& p, const char* name, int rounds) {
  const auto& s = p.s;
  const std::int64_t gm = s.raster.tiles_m * s.cluster.m, gn = s.raster.tiles_n * s.cluster.n;
  const std::int64_t ctas = gm * gn * s.raster.batch;
  const StreamKWorkspace ws = stream_k_workspace(s, kTileElems);
  float *c = nullptr, *partials = nullptr;
  unsigned *stores = nullptr, *stalls = nullptr;
  std::uint64_t* flags = nullptr;
  CHECK_CUDA(cudaMalloc(&c, std::size_t(ctas * kTileElems) * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&stores, std::size_t(ctas) * sizeof(unsigned)));
  CHECK_CUDA(cudaMalloc(&stalls, sizeof(unsigned)));
  void* buffer = nullptr;
  CHECK_CUDA(cudaMalloc(&buffer, ws.bytes() + 16));
  CHECK_CUDA(cudaMemset(buffer, 0xFF, ws.bytes() + 16));  // garbage: no launch clears the flags
  partials = static_cast<float*>(buffer);
  flags = reinterpret_cast<std::uint64_t*>(static_cast<char*>(buffer) + ws.flags_offset());
  const std::vector<float> want = expected(p);
  std::vector<float> got(want.size()), first;
  std::vector<unsigned> st(static_cast<std::size_t>(ctas));
  std::vector<std::uint64_t> fl(static_cast<std::size_t>(ws.slots));
  std::uint64_t tag = tessera::kernels::device::next_launch_tag();
  bool ok = true;
  for (int r = 0; r < rounds && ok; ++r) {
    if (r >= 2) tag = tessera::kernels::device::next_launch_tag();  // (round 1: round 0's tag again)
    CHECK_CUDA(cudaMemset(c, 0xFF, std::size_t(ctas * kTileElems) * sizeof(float)));
    CHECK_CUDA(cudaMemset(stores, 0, std::size_t(ctas) * sizeof(unsigned)));
    CHECK_CUDA(cudaMemset(stalls, 0, sizeof(unsigned)));
    run_schedule<<<unsigned(s.clusters * s.cluster.size()), kThreads>>>(s, p.tm, p.tn, c, stores, partials, flags, tag, stalls);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaDeviceSynchronize());
    unsigned stalled = 0;
    CHECK_CUDA(cudaMemcpy(&stalled, stalls, sizeof stalled, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(got.data(), c, got.size() * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(st.data(), stores, st.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
    if (ws.slots) CHECK_CUDA(cudaMemcpy(fl.data(), flags, fl.size() * sizeof(std::uint64_t), cudaMemcpyDeviceToHost));
    std::int64_t bad_stores = 0, bad_bits = 0, raised = 0;
    for (std::int64_t l = 0; l < s.raster.batch; ++l)
      for (std::int64_t n = 0; n < gn; ++n)
        for (std::int64_t m = 0; m < gm; ++m) {
          const std::int64_t cta = (l * gn + n) * gm + m;
          const bool inside = m < p.tm && n < p.tn;
          bad_stores += st[std::size_t(cta)] != (inside ? 1u : 0u);
          if (inside)
            bad_bits += std::memcmp(&got[std::size_t(cta * kTileElems)], &want[std::size_t(cta * kTileElems)],
                                    kTileElems * sizeof(float)) != 0;
        }
    for (std::uint64_t f : fl) raised += f == tag;  // (a slot nobody wrote keeps its 0xff bytes)
    if (r == 0) first = got;
    const bool same = std::memcmp(first.data(), got.data(), got.size() * sizeof(float)) == 0;
    const bool pass = stalled == 0 && bad_stores == 0 && bad_bits == 0 && raised == 0 && same;
    std::printf("%-28s %s: %lld x %lld CTA tiles x %lld, %lld k-tiles, cluster %dx%d, %lld clusters: %s, dp %lld, units %lld, margin %lld; "
                "round %d: stalls %u, wrong stores %lld, tiles with wrong bits %lld, flags left with the tag %lld%s\n",
                name, pass ? "ok  " : "FAIL", (long long)p.tm, (long long)p.tn, (long long)s.raster.batch,
                (long long)s.k_tiles, s.cluster.m, s.cluster.n, (long long)s.clusters, to_string(s.plan.kind),
                (long long)s.plan.dp_tiles, (long long)s.plan.sk_units, (long long)s.plan.margin, r, stalled, (long long)bad_stores,
                (long long)bad_bits, (long long)raised, same ? "" : ", differs from round 0");
    ok = ok && pass;
  }
  cudaFree(c), cudaFree(stores), cudaFree(stalls), cudaFree(buffer);
  return ok;
}

Problem problem(std::int64_t tm, std::int64_t tn, std::int64_t batch, std::int64_t k, ClusterShape cl, int sms, std::int64_t min_unit = 8,
                std::int64_t tail_k_tiles = 0) {
  return {tm, tn, StreamKScheduler::of(tm, tn, batch, k, cl, persistent_clusters(sms, cl), min_unit, tail_k_tiles)};
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 3;
  int sms = 0;
  CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  cudaDeviceProp prop{};
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s, %d SMs\n", prop.name, sms);
  bool ok = true;
  // The issue's shapes in 128x256 CTA tiles (BK 64), 2x1 clusters as the kernel runs them, and
  // the clusters the selection rule prefers where it differs.
  ok &= check(problem(4, 16, 1, 224, {2, 1}, sms), "512x4096x14336", rounds);
  ok &= check(problem(24, 12, 1, 48, {2, 1}, sms), "3072^3", rounds);
  ok &= check(problem(1, 32, 1, 128, {1, 2}, sms), "128x8192x8192 (1x2)", rounds);
  ok &= check(problem(1, 32, 1, 128, {2, 1}, sms), "128x8192x8192 (2x1)", rounds);
  ok &= check(problem(8, 4, 1, 16, {2, 1}, sms), "1000^3", rounds);
  ok &= check(problem(32, 16, 1, 64, {2, 1}, sms), "4096^3", rounds);
  // Forced plans: units spanning many tiles, every SM a unit.
  ok &= check(problem(24, 12, 1, 48, {1, 1}, sms, 1), "3072^3 (min unit 1)", rounds);
  ok &= check(problem(9, 7, 3, 13, {1, 2}, sms, 1), "batched, odd", rounds);
  // Units of unequal length (plan margins): the decode kernel's shape and margin (6144 x 64 x
  // 4096 in 128x64x64 tiles), and margins on shapes with several units per tile and per unit.
  ok &= check(problem(48, 1, 1, 64, {1, 1}, sms, 8, 3), "decode 6144x64x4096 (margin)", rounds);
  ok &= check(problem(32, 1, 1, 224, {1, 1}, sms, 8, 3), "decode 4096x64x14336 (margin)", rounds);
  ok &= check(problem(24, 12, 1, 48, {2, 1}, sms, 1, 5), "3072^3 (margin 5)", rounds);
  // Generated problems on every cluster shape.
  std::mt19937_64 rng(12345), tails(6789);
  const ClusterShape shapes[] = {{1, 1}, {2, 1}, {1, 2}};
  for (int i = 0; i < 40; ++i) {
    const std::int64_t tm = 1 + rng() % 20, tn = 1 + rng() % 20, batch = 1 + rng() % 2, k = 1 + rng() % 64;
    const int min_unit = int(1 + rng() % 8), use = 1 + int(rng() % std::uint64_t(sms));
    if (persistent_clusters(use, shapes[i % 3]) < 1) continue;
    ok &= check(problem(tm, tn, batch, k, shapes[i % 3], use, min_unit), "generated", rounds);
    const std::int64_t tail = std::int64_t(tails() % 6);  // (its own stream: the cases above stay the same)
    ok &= check(problem(tm, tn, batch, k, shapes[i % 3], use, min_unit, tail), "generated (margin)", rounds);
  }
  std::printf("%s\n", ok ? "stream-K check: all cases pass" : "stream-K check: FAILURES");
  return ok ? 0 : 1;
}
