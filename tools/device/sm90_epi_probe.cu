// A/B probe of the SM90 kernels the TMA-store epilogue serves, at the shapes bench/RESULTS.md
// tracks: the same source compiles against several trees
// (main and a branch, tools/device/run_sm90_epi_ab.sh) so that one device call times them all.
// It needs only the kernel templates (kernels/device/sm90_gemm.cuh) and cuBLAS, not the
// library's instances.
//   sm90_epi_probe [--reps N] [M N K ...]
//   default: bf16 TN, D column-major, the kernel the library's dispatch runs for each shape:
//   cooperative 128x256 c2 (whole tiles) at 4096^3, 8192x8192x1024, 8192^3; its split-K twin
//   with the workspace at 4096x11008x4096 (and the whole-tile kernel there); ping-pong 64x128
//   c1 at 1000^3. Each against cuBLAS (alternating, CUDA events after a lead-in kernel,
//   medians), checked against cuBLAS (relative Frobenius norm) and fp64 on sampled elements.
//   M N K ...: the cooperative 128x256 kernel at those shapes (--reps 0: one launch, for ncu).
//   --tiles [M N K ...]: the tile configuration chosen at compile time by TESSERA_PROBE_TILE
//   (ProbeTile below: cooperative and ping-pong tiles, clusters of 1 and 2, shipped or not) at
//   the shape suite's kinds of problems (default) or the given ones, against cuBLAS: one binary
//   per configuration (tools/device/run_gemm_tiles.sh builds them side by side), cuBLAS the
//   common anchor of their ratios.
//   --order [M N K ...] (a binary built with -DTESSERA_PROBE_ORDER=H, H = 1, 2, 3): the
//   cooperative 128x256 c2 kernel with the epilogue under the next tile's first H k-tiles
//   (OverlappedEpilogueGemm; H = 2 is the shipped order) against the same kernel with the
//   epilogue after the tile (SerialEpilogueGemm),
//   alternating in this process (time_pairs: lead-in, medians), bf16 TN, D column-major, at
//   4096^3, 8192x8192x1024, 6144x4096x4096, 14336x4096x4096, 8192^3 (default) or the given
//   shapes; each shape checked first: the new D bit for bit equal to the after-tile kernel's
//   and the after-tile one against fp64 samples (tools/device/run_sm90_epilogue_order.sh).
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "../../kernels/device/sm90_gemm.cuh"
#include "../../bench/timing.hpp"
#include "../harness/sm90_gemm_check.hpp"

using namespace tessera;
namespace s9 = tessera::kernels::sm90;

namespace {
template <class T, GMMA::Major MA, GMMA::Major MB>
using Kernel = std::conditional_t<std::is_same_v<T, float>, s9::DefaultGemmTf32<2>, s9::WholeTileGemm<T, MA, MB, 2>>;

// One shape and layout: correctness against cuBLAS and fp64 samples, then (reps > 0) timing.
// Gemm: the kernel (default: the whole-tile 128x256 one of the layout's majors); with a
// split-K kernel the workspace it asks for is given.
template <class T, GMMA::Major MA, GMMA::Major MB, class Gemm = Kernel<T, MA, MB>>
bool probe(cublasHandle_t h, int64_t m, int64_t n, int64_t k, int64_t l, const char* layout, int reps) {
  constexpr bool tf32 = std::is_same_v<T, float>;
  sm90_check::Problem<T> p(m, n, k, l, false, 1.0f, 0.0f, uint64_t(m * 31 + n * 7 + k + l), layout);
  auto op = std::make_shared<s9::GemmSm90<Gemm>>();
  kernels::GemmArguments g = s9::as_column_major_d(p.args);
  void* ws = nullptr;
  if constexpr (Gemm::Scheduler::Splits) {
    g.workspace_bytes = s9::GemmSm90<Gemm>::workspace_size(g);
    if (g.workspace_bytes > 0) SM90_CUDA(cudaMalloc(&ws, g.workspace_bytes));
    g.workspace = ws;
  }
  if (auto r = op->initialize(g); !r) {
    std::printf("%s %lldx%lldx%lld: initialize: %s\n", layout, (long long)m, (long long)n, (long long)k, r.message.c_str());
    return false;
  }
  auto mine = [&] {
    if (auto r = op->run(); !r) {
      std::printf("run: %s\n", r.message.c_str());
      std::exit(1);
    }
  };
  T* ref = nullptr;
  SM90_CUDA(cudaMalloc(&ref, size_t(m * n * l) * sizeof(T)));
  const cudaDataType type = tf32 ? CUDA_R_32F : std::is_same_v<T, bfloat16_t> ? CUDA_R_16BF : CUDA_R_16F;
  const float one = 1.0f, zero = 0.0f;
  auto cublas = [&] {
    if (cublasGemmStridedBatchedEx(h, p.a_k ? CUBLAS_OP_T : CUBLAS_OP_N, p.b_k ? CUBLAS_OP_N : CUBLAS_OP_T, int(m), int(n), int(k), &one,
                                   p.da, type, int(p.a_k ? k : m), m * k, p.db, type, int(p.b_k ? k : n), n * k, &zero, ref, type,
                                   int(m), m * n, int(l), tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F,
                                   CUBLAS_GEMM_DEFAULT) != CUBLAS_STATUS_SUCCESS) {
      std::printf("cuBLAS failed\n");
      std::exit(2);
    }
  };
  cublas();
  mine();
  SM90_CUDA(cudaDeviceSynchronize());
  const double vs_cublas = sm90_check::relative_difference(p.dd, ref, m * n * l);
  double vs_fp64 = 0;
  int64_t nans = 0;
  const bool ok = p.verify(vs_fp64, nans, 2000) && vs_cublas < sm90_check::tolerance<T, T>;
  double tm = 0, tc = 0;
  if (reps > 0) {
    const auto t = sm90_check::time_pairs(mine, cublas, reps);
    tm = sm90_check::median(t.mine), tc = sm90_check::median(t.theirs);
  }
  SM90_CUDA(cudaGetLastError());
  cudaFree(ref);
  cudaFree(ws);
  const double flops = 2.0 * double(m) * double(n) * double(k) * double(l);
  std::printf("tile %dx%d c%d%s ", int(Gemm::Mainloop::BM), int(Gemm::Mainloop::BN), int(Gemm::ClusterSize),
              Gemm::Mainloop::ClusterN > 1 ? " along N" : "");
  if constexpr (Gemm::Scheduler::Splits) std::printf("split-K %s ", op->splits() ? "on" : "off");
  std::printf("%-4s %s %5lld x %5lld x %5lld x %lld  tessera %8.1f us %6.1f TFLOP/s  cuBLAS %8.1f us %6.1f TFLOP/s  ratio %.3f  "
              "err vs cuBLAS %.1e vs fp64 %.1e %s\n",
              tf32 ? "tf32" : "bf16", layout, (long long)m, (long long)n, (long long)k, (long long)l, tm * 1e3,
              tm > 0 ? flops / tm * 1e-9 : 0.0, tc * 1e3, tc > 0 ? flops / tc * 1e-9 : 0.0, tm > 0 ? tc / tm : 0.0, vs_cublas, vs_fp64,
              ok ? "ok" : "WRONG");
  return ok;
}

#ifdef TESSERA_PROBE_ORDER
// --order: the epilogue under the next tile against the epilogue after the tile, one shape.
bool probe_order(int64_t m, int64_t n, int64_t k, int reps) {
  using Old = s9::SerialEpilogueGemm<bfloat16_t>;
  using New = s9::OverlappedEpilogueGemm<bfloat16_t, TESSERA_PROBE_ORDER>;
  sm90_check::Problem<bfloat16_t> p(m, n, k, 1, false, 1.0f, 0.0f, uint64_t(m * 31 + n * 7 + k), "TN");
  const kernels::GemmArguments g = s9::as_column_major_d(p.args);
  s9::GemmSm90<Old> old_op;
  s9::GemmSm90<New> new_op;
  if (auto r = old_op.initialize(g); !r) return std::printf("old: %s\n", r.message.c_str()), false;
  if (auto r = new_op.initialize(g); !r) return std::printf("new: %s\n", r.message.c_str()), false;
  auto run = [](auto& op) {
    if (auto r = op.run(); !r) {
      std::printf("run: %s\n", r.message.c_str());
      std::exit(1);
    }
  };
  const size_t elems = size_t(m * n);
  std::vector<uint16_t> d_new(elems), d_old(elems);
  run(new_op);
  SM90_CUDA(cudaDeviceSynchronize());
  SM90_CUDA(cudaMemcpy(d_new.data(), p.dd, elems * 2, cudaMemcpyDeviceToHost));
  p.poison();
  run(old_op);
  SM90_CUDA(cudaDeviceSynchronize());
  SM90_CUDA(cudaMemcpy(d_old.data(), p.dd, elems * 2, cudaMemcpyDeviceToHost));
  int64_t differ = 0;
  for (size_t i = 0; i < elems; ++i) differ += d_new[i] != d_old[i];
  double vs_fp64 = 0;
  int64_t nans = 0;
  const bool ok = differ == 0 && p.verify(vs_fp64, nans, 2000);
  double tn = 0, to = 0;
  if (reps > 0) {
    const auto t = sm90_check::time_pairs([&] { run(new_op); }, [&] { run(old_op); }, reps);
    tn = sm90_check::median(t.mine), to = sm90_check::median(t.theirs);
  }
  const double flops = 2.0 * double(m) * double(n) * double(k);
  const int64_t tiles = (m + 127) / 128 * ((n + 255) / 256);
  std::printf("head %d bf16 TN %5lld x %5lld x %5lld  epilogue after %8.1f us %6.1f TFLOP/s  under next tile %8.1f us %6.1f TFLOP/s  "
              "speedup %.3f  (%.2f us per tile-round of %lld tiles)  differ %lld fp64 %.1e %s\n",
              TESSERA_PROBE_ORDER, (long long)m, (long long)n, (long long)k, to * 1e3, to > 0 ? flops / to * 1e-9 : 0.0, tn * 1e3,
              tn > 0 ? flops / tn * 1e-9 : 0.0, tn > 0 ? to / tn : 0.0,
              tiles > 0 ? (to - tn) * 1e3 / (double(tiles) / double(s9::GemmSm90<New>::hardware_info(&s9::gemm_sm90_entry<New>).resident_clusters * 2)) : 0.0,
              (long long)tiles, (long long)differ, vs_fp64, ok ? "ok" : "WRONG");
  return ok;
}
#endif

// The configurations --tiles compares (bf16 TN, D bf16, whole tiles).
template <int Index>
struct ProbeTile;
template <class Tile, int ClusterM, class Schedule = kernels::KernelTmaWarpSpecializedCooperative>
using TileKernel = s9::Sm90Kernel<s9::Sm90Mainloop<bfloat16_t, GMMA::Major::K, GMMA::Major::K, Tile, ClusterM, Schedule>, bfloat16_t>;
template <int BM, int BN, int ClusterM>
using PingpongTile = TileKernel<tuple<C<BM>, C<BN>, _64>, ClusterM, kernels::KernelTmaWarpSpecializedPingpong>;
template <> struct ProbeTile<0> { using type = s9::WholeTileGemm<bfloat16_t>; static constexpr const char* name = "cooperative 128x256 c2 (shipped)"; };
template <> struct ProbeTile<1> { using type = TileKernel<tuple<_128, _256, _64>, 1>; static constexpr const char* name = "cooperative 128x256 c1"; };
template <> struct ProbeTile<2> { using type = s9::SmallTileGemm<bfloat16_t>; static constexpr const char* name = "cooperative 128x128 c2"; };
template <> struct ProbeTile<3> { using type = TileKernel<tuple<_128, _128, _64>, 1>; static constexpr const char* name = "cooperative 128x128 c1"; };
template <> struct ProbeTile<4> { using type = PingpongTile<128, 128, 1>; static constexpr const char* name = "ping-pong 128x128 c1"; };
template <> struct ProbeTile<5> { using type = PingpongTile<128, 128, 2>; static constexpr const char* name = "ping-pong 128x128 c2"; };
template <> struct ProbeTile<6> { using type = PingpongTile<64, 256, 1>; static constexpr const char* name = "ping-pong 64x256 c1"; };
template <> struct ProbeTile<7> { using type = s9::PingpongGemm<bfloat16_t, 128>; static constexpr const char* name = "ping-pong 64x128 c1 (shipped)"; };
// The small tiles for about one wave of tiles (1000^3: cuBLAS runs 128x64 in clusters of 2 on 128
// CTAs): both consumer warpgroups on one 128x64 tile, or each on its own 64x64 tile in turns.
template <> struct ProbeTile<8> { using type = TileKernel<tuple<_128, _64, _64>, 1>; static constexpr const char* name = "cooperative 128x64 c1"; };
template <> struct ProbeTile<9> { using type = TileKernel<tuple<_128, _64, _64>, 2>; static constexpr const char* name = "cooperative 128x64 c2"; };
template <> struct ProbeTile<10> { using type = PingpongTile<64, 64, 1>; static constexpr const char* name = "ping-pong 64x64 c1"; };
// The 64 x 128 ping-pong tile in clusters of 2 along M: the pair shares B's 128 rows (16 KiB a
// k-tile, 8 KiB each by multicast), so each CTA moves 16 KiB from L2 per k-tile where the 128 x 64
// tile moves 24: the probe of whether those bytes set the small tiles' pace (they do not alone:
// the pair waits on its peer at each k-tile; bench/notes/sm90_tiles.md, "What limits the small
// tiles").
template <> struct ProbeTile<11> { using type = PingpongTile<64, 128, 2>; static constexpr const char* name = "ping-pong 64x128 c2"; };
// The 128 x 64 cooperative tile in clusters of 2 along N, the arrangement cuBLAS runs at 1000^3
// (its pair shares the 128-row operand, A, by multicast: 8 KiB of A and 8 of B per CTA and
// k-tile, both consumer warpgroups busy on one tile): whether those bytes set the pace without
// the ping-pong pair's idle warpgroup.
template <> struct ProbeTile<12> { using type = s9::AlongNGemm<bfloat16_t>; static constexpr const char* name = "cooperative 128x64 c2 along N"; };
inline constexpr int probe_tiles = 13;

}  // namespace

int main(int argc, char** argv) {
  int reps = 30;
  bool tiles = false;
  std::vector<int64_t> dims;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--reps" && i + 1 < argc) reps = std::atoi(argv[++i]);
    else if (a == "--tiles") tiles = true;
    else if (a == "--order") continue;  // (what an order binary runs: TESSERA_PROBE_ORDER)
    else dims.push_back(std::atoll(argv[i]));
  }
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) return 2;
  constexpr auto KM = GMMA::Major::K;
#ifndef TESSERA_PROBE_TILE
  using Split = s9::DefaultGemm<bfloat16_t, KM, KM, 2, bfloat16_t, s9::SplitKTileScheduler>;
  using Pingpong = s9::PingpongGemm<bfloat16_t, 128>;
#endif
  bool ok = true;
#if defined(TESSERA_PROBE_ORDER)
  // (an order binary: the kernel with the epilogue after the tile and the one under the next tile)
  static_assert(TESSERA_PROBE_ORDER >= 1 && TESSERA_PROBE_ORDER <= 3, "TESSERA_PROBE_ORDER: the head's k-tiles, 1 to 3");
  const std::vector<int64_t> order_shapes = {4096, 4096, 4096, 8192, 8192, 1024, 6144, 4096, 4096, 14336, 4096, 4096, 8192, 8192, 8192};
  const std::vector<int64_t>& shapes = dims.empty() ? order_shapes : dims;
  (void)tiles;
  for (size_t i = 0; i + 2 < shapes.size(); i += 3) ok &= probe_order(shapes[i], shapes[i + 1], shapes[i + 2], reps);
#elif defined(TESSERA_PROBE_TILE)
  // (a tile binary: only its configuration is compiled)
  static_assert(TESSERA_PROBE_TILE >= 0 && TESSERA_PROBE_TILE < probe_tiles, "TESSERA_PROBE_TILE: a ProbeTile index");
  using Gemm = typename ProbeTile<TESSERA_PROBE_TILE>::type;
  std::printf("%s: bf16 TN, D column-major, whole tiles; resident clusters %d (of %d CTAs each)\n", ProbeTile<TESSERA_PROBE_TILE>::name,
              int(s9::GemmSm90<Gemm>::hardware_info(&s9::gemm_sm90_entry<Gemm>).resident_clusters), int(Gemm::ClusterSize));
  // (M, N, K as the kernel runs them: a layer's D^T has M = the weight's rows, N = tokens)
  const std::vector<int64_t> suite = {8192, 8192, 8192, 4096, 4096, 4096, 3072, 3072, 3072, 8192, 8192, 1024,
                                      14336, 2048, 4096, 6144, 512, 4096, 4096, 512, 14336, 10240, 1024, 8192,
                                      1000, 1000, 1000};
  const std::vector<int64_t>& shapes = dims.empty() ? suite : dims;
  for (size_t i = 0; i + 2 < shapes.size(); i += 3) ok &= probe<bfloat16_t, KM, KM, Gemm>(h, shapes[i], shapes[i + 1], shapes[i + 2], 1, "TN", reps);
  (void)tiles;
#else
  if (tiles) {
    std::printf("--tiles: build with -DTESSERA_PROBE_TILE=0..%d (tools/device/run_gemm_tiles.sh)\n", probe_tiles - 1);
    ok = false;
  } else if (dims.empty()) {
    ok &= probe<bfloat16_t, KM, KM>(h, 4096, 4096, 4096, 1, "TN", reps);
    ok &= probe<bfloat16_t, KM, KM>(h, 8192, 8192, 1024, 1, "TN", reps);
    ok &= probe<bfloat16_t, KM, KM>(h, 8192, 8192, 8192, 1, "TN", reps);
    ok &= probe<bfloat16_t, KM, KM, Split>(h, 4096, 11008, 4096, 1, "TN", reps);
    ok &= probe<bfloat16_t, KM, KM>(h, 4096, 11008, 4096, 1, "TN", reps);
    ok &= probe<bfloat16_t, KM, KM, Pingpong>(h, 1000, 1000, 1000, 1, "TN", reps);
    // (correctness only: residues in M, N, K and batches through the same kernels)
    ok &= probe<bfloat16_t, KM, KM>(h, 129, 257, 72, 1, "TN", 0);
    ok &= probe<bfloat16_t, KM, KM>(h, 704, 1088, 264, 2, "TN", 0);
    ok &= probe<bfloat16_t, KM, KM, Split>(h, 1000, 1000, 4000, 2, "TN", 0);
    ok &= probe<bfloat16_t, KM, KM, Pingpong>(h, 2048, 1024, 200, 2, "TN", 0);
  } else {
    for (size_t i = 0; i + 2 < dims.size(); i += 3) ok &= probe<bfloat16_t, KM, KM>(h, dims[i], dims[i + 1], dims[i + 2], 1, "TN", reps);
  }
#endif
  cublasDestroy(h);
  std::printf("probe %s\n", ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
