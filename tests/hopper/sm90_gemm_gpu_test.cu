// GPU check of the SM90 GEMM (TMA + wgmma, warp-specialized, persistent; sm_90a) against an
// FP64 reference: fresh random inputs, poisoned (NaN) outputs, whole tiles and residues in M,
// N and K, M or N below one tile, batches, both D majors, alpha/beta; bf16 and f16; both
// tiles the dispatch picks (128x256, and 128x128 for small problems); Stream-K with the
// workspace sm90_workspace_size asks for (the Stream-K kernels, TN and NT: the dispatch's
// choice, and each Stream-K kernel run directly on the issue's shapes and residues, launched
// three times on a workspace of 0xff bytes that is never cleared, then captured in a CUDA graph
// replayed three times on a workspace earlier problems left, all for the same bits, its D
// against the whole-tile kernel's over every element) and
// the same problems without it (the whole-tile kernels), and that no other major asks for a
// workspace; and the fused epilogues: every activation x bias (none, per row, per column) x D
// in the inputs' type and f32 x both D majors, at a residue shape through the direct
// epilogue (ld not 16-byte aligned, beta != 0) and one through the TMA-store epilogue of the
// plain kernel; the fused TMA-store kernels (GELU tanh, ReLU, SiLU, 16-bit TN, 128x256 tiles)
// with every bias and D major, at residues, batched, and where TMA cannot store D (their
// direct loop); f32 as tf32 (allow_tf32, TN) with a tf32 tolerance.
// Through the device layer's entry (device::run_sm90, what tessera::gemm calls on sm_90),
// which runs small TN problems on the ping-pong kernel and a few waves of TN tiles on the
// 128x128 kernel without a cluster (sm90_schedule.hpp: checked that it does at such shapes);
// and those two kernels themselves (their entries) on problems with many tiles per CTA, where
// the ping-pong kernel's two consumer warpgroups alternate; the decode kernel (128x64 tiles, no
// cluster, Stream-K) forced and where the rule picks it; the 128x192 kernels (clusters of 2,
// whole tiles and Stream-K) forced and where the rule picks them, with a column-major D and
// with a row-major one (the row-major TMA-store epilogue: a column-major D's problem run
// transposed, a row-major D's as it is), and where the rule runs a problem transposed; the
// cooperative 128x64 tile in clusters of 2 along N (not listed: its adapter), `--along-n` alone.
// Exit 0: all pass; 1: a failure (printed); 77: no sm_90 GPU.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>
#include <array>

#include "../../kernels/device/sm90_dispatch.hpp"
#include "../../kernels/device/sm90_gemm.cuh"
#include "../../kernels/device/sm90_instance.hpp"
#include "../../kernels/device/sm90_kernel_list.hpp"
#include "../../kernels/device/sm90_schedule.hpp"
#include "../../tools/harness/sm90_gemm_check.hpp"

using namespace tessera;

// split: with the workspace sm90_workspace_size asks for, which must be some (the dispatch
// prefers a Stream-K kernel) when `split` is true; the launch runs twice (the second on the
// first's flags: nothing clears them, a flag counts only with its launch's tag) and the second
// result is checked.
// alias: C is D (beta != 0).
template <class T>
int check(int64_t m, int64_t n, int64_t k, int64_t l, bool d_row, float alpha, float beta, const char* layout = "TN",
          bool split = false, bool alias = false) {
  sm90_check::Problem<T> p(m, n, k, l, d_row, alpha, beta, uint64_t(m * 1000003 + n * 1009 + k + l), layout);
  if (alias) p.alias_c_to_d();
  void* ws = nullptr;
  const size_t ws_bytes = split ? kernels::device::sm90_workspace_size(p.args) : 0;
  if (split && ws_bytes == 0) {
    std::printf("%s %lld x %lld x %lld x %lld: FAIL (no Stream-K workspace asked for)\n", layout, (long long)m, (long long)n, (long long)k, (long long)l);
    return 1;
  }
  if (ws_bytes > 0) SM90_CUDA(cudaMalloc(&ws, ws_bytes));
  p.args.workspace = ws;
  p.args.workspace_bytes = ws_bytes;
  auto r = kernels::device::run_sm90(p.args, nullptr);
  if (split && r) {
    SM90_CUDA(cudaDeviceSynchronize());
    p.poison();
    r = kernels::device::run_sm90(p.args, nullptr);
  }
  const cudaError_t e = cudaDeviceSynchronize();
  cudaFree(ws);
  double rel = 0;
  int64_t nans = 0;
  const bool ok = r && e == cudaSuccess && p.verify(rel, nans);
  std::printf("%-4s %s%s %5lld x %5lld x %5lld x %lld D %s alpha %g beta %g%s: %s (rel %.2e, %lld NaN)%s%s\n",
              std::is_same_v<T, float> ? "tf32" : std::is_same_v<T, bfloat16_t> ? "bf16" : "f16", layout, split ? " stream-K" : "", (long long)m, (long long)n, (long long)k, (long long)l,
              d_row ? "row" : "col", alpha, beta, alias ? " C=D" : "", ok ? "ok" : "FAIL", rel, (long long)nans, r ? "" : " ", r ? "" : r.message.c_str());
  if (e != cudaSuccess) std::printf("  %s\n", cudaGetErrorString(e));
  return ok ? 0 : 1;
}

// A listed whole-tile kernel (bf16/f16 TN, D column-major) run through its entry on any shape:
// the ping-pong kernel (large shapes give each CTA many tiles, which its two consumer
// warpgroups take in turn) and the 128x128 kernel without a cluster.
template <class Kernel, class T>
int check_entry(const char* name, int64_t m, int64_t n, int64_t k, int64_t l, float alpha, float beta, bool alias = false) {
  sm90_check::Problem<T> p(m, n, k, l, false, alpha, beta, uint64_t(m * 7919 + n * 31 + k + l), "TN");
  if (alias) p.alias_c_to_d();
  const auto r = kernels::device::sm90_entry::run<Kernel>(kernels::sm90::as_column_major_d(p.args), nullptr, false, nullptr);
  const cudaError_t e = cudaDeviceSynchronize();
  double rel = 0;
  int64_t nans = 0;
  const bool ok = r && e == cudaSuccess && p.verify(rel, nans);
  std::printf("%-4s TN %s %5lld x %5lld x %5lld x %lld alpha %g beta %g%s: %s (rel %.2e, %lld NaN)%s%s\n",
              std::is_same_v<T, bfloat16_t> ? "bf16" : "f16", name, (long long)m, (long long)n, (long long)k, (long long)l, alpha, beta,
              alias ? " C=D" : "",
              ok ? "ok" : "FAIL", rel, (long long)nans, r ? "" : " ", r ? "" : r.message.c_str());
  if (e != cudaSuccess) std::printf("  %s\n", cudaGetErrorString(e));
  return ok ? 0 : 1;
}
template <class T>
int check_pingpong(int64_t m, int64_t n, int64_t k, int64_t l, float alpha, float beta, bool alias = false) {
  return check_entry<kernels::device::sm90_set::Pingpong<T>, T>("ping-pong", m, n, k, l, alpha, beta, alias);
}
template <class T>
int check_no_cluster(int64_t m, int64_t n, int64_t k, int64_t l, float alpha, float beta, bool alias = false) {
  return check_entry<kernels::device::sm90_set::Solo<T>, T>("128x128 no cluster", m, n, k, l, alpha, beta, alias);
}
template <class T>
int check_tall(int64_t m, int64_t n, int64_t k, int64_t l, float alpha, float beta, bool alias = false) {
  return check_entry<kernels::device::sm90_set::Tall<T>, T>("256x128", m, n, k, l, alpha, beta, alias);
}

// The cooperative 128x64 tile in clusters of 2 along N (sm90::AlongNGemm: A's tile shared by
// multicast, each CTA copying half of it; not listed, so compiled here and run through its
// GemmSm90 adapter): residues in M and N, an odd count of N-tiles (the cluster's second CTA
// wholly past N: its B copies clipped to zeros, its stores dropped, its half of A still
// multicast), K below one k-tile, batches, alpha/beta, C = D, many tiles per CTA, f16.
template <class T>
int check_along_n(int64_t m, int64_t n, int64_t k, int64_t l, float alpha, float beta, bool alias = false) {
  using Kernel = kernels::sm90::AlongNGemm<T>;
  sm90_check::Problem<T> p(m, n, k, l, false, alpha, beta, uint64_t(m * 4099 + n * 53 + k * 7 + l), "TN");
  if (alias) p.alias_c_to_d();
  kernels::sm90::GemmSm90<Kernel> op;
  kernels::GemmResult r = op.initialize(kernels::sm90::as_column_major_d(p.args));
  if (r) r = op.run(nullptr);
  const cudaError_t e = cudaDeviceSynchronize();
  double rel = 0;
  int64_t nans = 0;
  const bool ok = r && e == cudaSuccess && p.verify(rel, nans);
  std::printf("%-4s TN 128x64 clusters along N %5lld x %5lld x %5lld x %lld alpha %g beta %g%s: %s (rel %.2e, %lld NaN)%s%s\n",
              std::is_same_v<T, bfloat16_t> ? "bf16" : "f16", (long long)m, (long long)n, (long long)k, (long long)l, alpha, beta,
              alias ? " C=D" : "", ok ? "ok" : "FAIL", rel, (long long)nans, r ? "" : " ", r ? "" : r.message.c_str());
  if (e != cudaSuccess) std::printf("  %s\n", cudaGetErrorString(e));
  return ok ? 0 : 1;
}
int check_along_n_all(bool small_only) {
  int fails = 0;
  fails += check_along_n<bfloat16_t>(129, 129, 72, 1, 1, 0);           // one cluster tile: 3 N-tiles, the 4th CTA past N
  fails += check_along_n<bfloat16_t>(1000, 1000, 1000, 1, 1, 0);       // 8 x 8 cluster tiles: one wave
  fails += check_along_n<half_t>(300, 200, 8, 2, 1, 0.5f);             // K below one k-tile, batches, beta
  if (small_only) return fails;
  fails += check_along_n<bfloat16_t>(1000, 64, 1000, 1, 1, 0);         // one N-tile: the cluster's second CTA idle
  fails += check_along_n<bfloat16_t>(777, 555, 328, 3, 2, -1, true);   // residues, batches, alpha/beta, C = D
  fails += check_along_n<bfloat16_t>(4096, 4096, 4096, 1, 1, 0);       // 1024 cluster tiles: many per CTA
  fails += check_along_n<half_t>(2048, 1000, 3000, 2, 1, 0.5f);        // residue N and K, batches
  return fails;
}

// A 128x192 kernel (sm90_set::Mid, or MidRow with a row-major D: clusters of 2, whole tiles)
// forced through its entry, either caller's D major, the problem in the kernel's orientation
// (its D's major: D^T = B^T A^T where the caller's D has the other, which keeps TN TN: the
// kernel's M and N swap).
template <class T, class Kernel = kernels::device::sm90_set::Mid<T>>
int check_mid(int64_t m, int64_t n, int64_t k, int64_t l, bool d_row, float alpha, float beta, bool alias = false) {
  constexpr kernels::Major kernel_d = kernels::device::sm90_set::traits_of<Kernel>.d_major;
  sm90_check::Problem<T> p(m, n, k, l, d_row, alpha, beta, uint64_t(m * 6151 + n * 37 + k * 11 + l), "TN");
  if (alias) p.alias_c_to_d();
  const auto r = kernels::device::sm90_entry::run<Kernel>(kernels::sm90::oriented(p.args, kernel_d), nullptr, false, nullptr);
  const cudaError_t e = cudaDeviceSynchronize();
  double rel = 0;
  int64_t nans = 0;
  const bool ok = r && e == cudaSuccess && p.verify(rel, nans);
  std::printf("%-4s TN 128x192%s %5lld x %5lld x %5lld x %lld D %s alpha %g beta %g%s: %s (rel %.2e, %lld NaN)%s%s\n",
              std::is_same_v<T, bfloat16_t> ? "bf16" : "f16", kernel_d == kernels::Major::Row ? " row-major D" : "", (long long)m,
              (long long)n, (long long)k, (long long)l, d_row ? "row" : "col",
              alpha, beta, alias ? " C=D" : "", ok ? "ok" : "FAIL", rel, (long long)nans, r ? "" : " ", r ? "" : r.message.c_str());
  if (e != cudaSuccess) std::printf("  %s\n", cudaGetErrorString(e));
  return ok ? 0 : 1;
}

template <class T, class TD>
std::vector<TD> output_of(const sm90_check::Problem<T, TD>& p);

// A Stream-K kernel (Kernel) run through its entry on g with the workspace it asks for, filled
// with 0xff first (nothing clears the flags: a flag counts only when it holds the launch's tag,
// stream_k_fixup.cuh), three launches on a poisoned D, each on the previous one's workspace:
// the first checked against FP64, the other two against the first's bits (the fix-up's fixed
// order). Then the same launch captured in a CUDA graph (its tag baked into the kernel node)
// on a workspace that earlier problems' launches left as they left it (other slot layouts,
// their tags), replayed three times: each replay's D bit-identical to the first launch's (the
// owners clear the flags they consumed, so a replay never finds its own tag set).
template <class T>
struct ThreeLaunches {
  kernels::GemmResult result;
  bool ok = true, same = true, shared = false;  // shared: the plan asked a workspace
  bool graph_same = true;                       // the graph's replays: D bit-identical to the first launch
  double rel = 0;
  int64_t nans = 0;
  std::vector<T> first;
};
// The workspace the graph replays run on, kept across the checks (grown as needed, new bytes
// 0xff): it holds what the previous problems' launches left.
struct ReusedWorkspace {
  void* ptr = nullptr;
  size_t bytes = 0;
  void* fit(size_t need) {
    if (need <= bytes) return ptr;
    void* grown = nullptr;
    SM90_CUDA(cudaMalloc(&grown, need));
    SM90_CUDA(cudaMemset(grown, 0xff, need));
    if (ptr != nullptr) SM90_CUDA(cudaMemcpy(grown, ptr, bytes, cudaMemcpyDeviceToDevice));
    cudaFree(ptr);
    ptr = grown, bytes = need;
    return ptr;
  }
};
inline ReusedWorkspace reused_workspace;

template <class Kernel, class T>
ThreeLaunches<T> launch_three_times(sm90_check::Problem<T>& p, kernels::GemmArguments g) {
  namespace entry = kernels::device::sm90_entry;
  ThreeLaunches<T> out;
  const size_t ws_bytes = entry::workspace_size<Kernel>(g);
  void* ws = nullptr;
  if (ws_bytes > 0) {
    SM90_CUDA(cudaMalloc(&ws, ws_bytes));
    SM90_CUDA(cudaMemset(ws, 0xff, ws_bytes));
  }
  g.workspace = ws;
  g.workspace_bytes = ws_bytes;
  out.shared = ws_bytes > 0;
  for (int launch = 0; launch < 3 && out.ok; ++launch) {
    p.poison();
    out.result = entry::run<Kernel>(g, nullptr, false, nullptr);
    const cudaError_t e = cudaDeviceSynchronize();
    if (!out.result || e != cudaSuccess) {
      if (e != cudaSuccess) std::printf("  %s\n", cudaGetErrorString(e));
      out.ok = false;
      break;
    }
    if (launch == 0) {
      out.ok = p.verify(out.rel, out.nans);
      out.first = output_of(p);
    } else {
      out.same = out.same && std::memcmp(output_of(p).data(), out.first.data(), out.first.size() * sizeof(T)) == 0;
    }
  }
  cudaFree(ws);
  if (!out.ok || ws_bytes == 0) return out;
  // The graph: captured once (the launches above filled the adapter's per-device caches),
  // replayed three times on the reused workspace.
  g.workspace = reused_workspace.fit(ws_bytes);
  cudaStream_t stream;
  SM90_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  SM90_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  out.result = entry::run<Kernel>(g, stream, false, nullptr);
  SM90_CUDA(cudaStreamEndCapture(stream, &graph));
  if (!out.result) {
    std::printf("  graph capture: %s\n", out.result.message.c_str());
    out.ok = false;
  } else {
    SM90_CUDA(cudaGraphInstantiate(&exec, graph, 0));
    for (int replay = 0; replay < 3; ++replay) {
      p.poison();
      SM90_CUDA(cudaGraphLaunch(exec, stream));
      SM90_CUDA(cudaStreamSynchronize(stream));
      out.graph_same = out.graph_same && std::memcmp(output_of(p).data(), out.first.data(), out.first.size() * sizeof(T)) == 0;
    }
    SM90_CUDA(cudaGraphExecDestroy(exec));
  }
  if (graph != nullptr) SM90_CUDA(cudaGraphDestroy(graph));
  SM90_CUDA(cudaStreamDestroy(stream));
  out.same = out.same && out.graph_same;
  return out;
}
// The decode kernel (sm90_set::Decode: 128x64 tiles, no cluster, Stream-K), forced through its
// entry on D column-major (the kernel's N the tokens) launched three times (launch_three_times; C again where C is D).
// expect_shared: the plan must share k-iterations (decode shapes on 132 SMs).
template <class T>
int check_decode(int64_t m, int64_t n, int64_t k, int64_t l, float alpha, float beta, bool alias = false, bool expect_shared = false) {
  using Kernel = kernels::device::sm90_set::Decode<T>;
  sm90_check::Problem<T> p(m, n, k, l, false, alpha, beta, uint64_t(m * 104729 + n * 13 + k * 5 + l), "TN");
  if (alias) p.alias_c_to_d();
  const ThreeLaunches<T> t = launch_three_times<Kernel>(p, kernels::sm90::as_column_major_d(p.args));
  const bool pass = t.ok && t.same && (t.shared || !expect_shared);
  std::printf("%-4s TN decode 128x64 %5lld x %5lld x %5lld x %lld alpha %g beta %g%s: %s (%s, rel %.2e, %lld NaN, %s)%s%s\n",
              std::is_same_v<T, bfloat16_t> ? "bf16" : "f16", (long long)m, (long long)n, (long long)k, (long long)l, alpha, beta,
              alias ? " C=D" : "", pass ? "ok" : "FAIL", t.shared ? "k-iterations shared" : "whole tiles (plan shares nothing)", t.rel,
              (long long)t.nans, t.same ? "3 launches and 3 graph replays bit-identical" : t.graph_same ? "launches DIFFER" : "graph replays DIFFER", t.result ? "" : " ",
              t.result ? "" : t.result.message.c_str());
  return pass ? 0 : 1;
}

// The dispatch's own choice on a problem (with the workspace it asks for, as the benchmark's
// suite runs it) must be `expected` (sm90_schedule's name: the rule's choice on 132 SMs, an
// H100 SXM's or H200's; on other GPUs only D is checked), and its D right.
template <class T>
int check_rule(const char* expected, int64_t m, int64_t n, int64_t k, int64_t l, bool d_row, float alpha, float beta) {
  sm90_check::Problem<T> p(m, n, k, l, d_row, alpha, beta, uint64_t(m * 17 + n * 101 + k * 7 + l), "TN");
  const size_t ws_bytes = kernels::device::sm90_workspace_size(p.args);
  void* ws = nullptr;
  if (ws_bytes > 0) SM90_CUDA(cudaMalloc(&ws, ws_bytes));
  p.args.workspace = ws;
  p.args.workspace_bytes = ws_bytes;
  const std::string runs = kernels::device::sm90_schedule(p.args);
  int sms = 0;
  SM90_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  if (sms != 132) expected = runs.c_str();
  const auto r = kernels::device::run_sm90(p.args, nullptr);
  const cudaError_t e = cudaDeviceSynchronize();
  cudaFree(ws);
  double rel = 0;
  int64_t nans = 0;
  const bool ok = runs == expected && r && e == cudaSuccess && p.verify(rel, nans);
  std::printf("%-4s TN rule %5lld x %5lld x %5lld x %lld D %s alpha %g beta %g: runs %s (expected %s): %s (rel %.2e, %lld NaN)%s%s\n",
              std::is_same_v<T, bfloat16_t> ? "bf16" : "f16", (long long)m, (long long)n, (long long)k, (long long)l, d_row ? "row" : "col",
              alpha, beta, runs.c_str(), expected, ok ? "ok" : "FAIL", rel, (long long)nans, r ? "" : " ", r ? "" : r.message.c_str());
  if (e != cudaSuccess) std::printf("  %s\n", cudaGetErrorString(e));
  return ok ? 0 : 1;
}

// D of a problem, copied to the host.
template <class T, class TD>
std::vector<TD> output_of(const sm90_check::Problem<T, TD>& p) {
  std::vector<TD> d(p.c.size());
  SM90_CUDA(cudaMemcpy(d.data(), p.dd, d.size() * sizeof(TD), cudaMemcpyDeviceToHost));
  return d;
}

// A schedule whose only listed kernel is a Stream-K one (128 x 64, no cluster) over whole tiles,
// through the dispatch with that configuration: D against FP64 (poisoned first), then again with
// a workspace the caller gives anyway (0xff bytes, more than the Stream-K plan would ask for),
// bit for bit: the dispatch launches that kernel without the workspace, so its plan is whole
// tiles either way (sm90_schedule.hpp, whole_tile_kernel).
template <class T>
int check_whole_of_stream_k(int64_t m, int64_t n, int64_t k, int64_t l, bool d_row, float beta) {
  namespace k9 = kernels::sm90;
  sm90_check::Problem<T> p(m, n, k, l, d_row, 1, beta, uint64_t(m * 5 + n * 11 + k * 13 + l), "TN");
  const k9::Sm90Config whole{k9::Schedule::Cooperative128x64NoCluster, false};
  p.poison();
  const auto r1 = kernels::device::run_sm90(p.args, nullptr, whole);
  SM90_CUDA(cudaDeviceSynchronize());
  double rel = 0;
  int64_t nans = 0;
  const bool ok1 = r1 && p.verify(rel, nans);
  const std::vector<T> first = output_of(p);
  const size_t ws_bytes = size_t(64) << 20;
  void* ws = nullptr;
  SM90_CUDA(cudaMalloc(&ws, ws_bytes));
  SM90_CUDA(cudaMemset(ws, 0xff, ws_bytes));
  p.args.workspace = ws;
  p.args.workspace_bytes = ws_bytes;
  p.poison();
  const auto r2 = kernels::device::run_sm90(p.args, nullptr, whole);
  SM90_CUDA(cudaDeviceSynchronize());
  cudaFree(ws);
  const std::vector<T> second = output_of(p);
  const bool same = r2 && second.size() == first.size() &&
                    std::memcmp(second.data(), first.data(), first.size() * sizeof(T)) == 0;
  const bool pass = ok1 && same;
  std::printf("%-4s TN 128x64 whole tiles (its Stream-K kernel) %5lld x %5lld x %5lld x %lld D %s beta %g: %s (rel %.2e, %lld NaN, "
              "%s)%s%s\n",
              std::is_same_v<T, bfloat16_t> ? "bf16" : "f16", (long long)m, (long long)n, (long long)k, (long long)l, d_row ? "row" : "col",
              beta, pass ? "ok" : "FAIL", rel, (long long)nans, same ? "the same bits with a workspace" : "DIFFERS with a workspace",
              r1 && r2 ? "" : " ", r1 ? (r2 ? "" : r2.message.c_str()) : r1.message.c_str());
  return pass ? 0 : 1;
}

// A Stream-K kernel of the list (Kernel: set::Split / set::SmallSplit / ...) run directly through its
// entry, three times (launch_three_times), and D against the whole-tile kernel's (the dispatch without a workspace) over every
// element. Where the plan shares nothing (workspace 0) the kernel runs whole tiles itself. The
// problem (D column-major) in the kernel's orientation: transposed for a row-major D's kernel.
// expect_shared: the plan must share k-iterations on this GPU (the issue's Stream-K shapes).
template <class Kernel, class T>
int check_stream_k(int64_t m, int64_t n, int64_t k, int64_t l, const char* layout, float beta, bool expect_shared, bool alias = false) {
  sm90_check::Problem<T> p(m, n, k, l, false, 1, beta, uint64_t(m * 7 + n * 131 + k * 3 + l), layout);
  if (alias) p.alias_c_to_d();  // (C again in D before each launch: poison())
  // The whole-tile kernel's D (no workspace: the dispatch runs whole tiles).
  auto r = kernels::device::run_sm90(p.args, nullptr);
  SM90_CUDA(cudaDeviceSynchronize());
  const std::vector<T> whole = output_of(p);
  const ThreeLaunches<T> t =
      launch_three_times<Kernel>(p, kernels::sm90::oriented(p.args, kernels::device::sm90_set::traits_of<Kernel>.d_major));
  const std::vector<T>& first = t.first;
  const bool ok = bool(r) && t.ok, same = t.same, shared = t.shared;
  const double rel = t.rel;
  const int64_t nans = t.nans;
  if (r) r = t.result;
  // ||D - D_whole|| / ||D_whole|| over every element (different summation orders: not bit-equal).
  double num = 0, den = 0;
  for (size_t i = 0; ok && i < first.size(); ++i) {
    const double a = sm90_check::to_double(first[i]), b = sm90_check::to_double(whole[i]);
    num += (a - b) * (a - b);
    den += b * b;
  }
  const double rel_whole = std::sqrt(num / (den > 0 ? den : 1));
  const bool pass = ok && same && rel_whole < sm90_check::tolerance<T, T> && (shared || !expect_shared);
  const auto traits = kernels::device::sm90_set::traits_of<Kernel>;
  std::printf("%-4s %s stream-K %dx%d%s %5lld x %5lld x %5lld x %lld beta %g%s: %s (%s, rel %.2e, %lld NaN, vs whole tiles %.2e, %s)%s%s\n",
              std::is_same_v<T, bfloat16_t> ? "bf16" : "f16", layout, traits.bm, traits.bn,
              traits.d_major == kernels::Major::Row ? " row-major D" : "", (long long)m, (long long)n, (long long)k, (long long)l,
              beta, alias ? " C=D" : "", pass ? "ok" : "FAIL", shared ? "k-iterations shared" : "whole tiles (plan shares nothing)", rel, (long long)nans,
              rel_whole, same ? "3 launches and 3 graph replays bit-identical" : t.graph_same ? "launches DIFFER" : "graph replays DIFFER", r ? "" : " ", r ? "" : r.message.c_str());
  return pass ? 0 : 1;
}

// The Stream-K kernels on the issue's shapes (132 SMs: 512x4096x14336 and 3072^3 share
// k-iterations on the 128x256 kernels, run directly; the dispatch runs TN there on whole tiles,
// 128x128 without a cluster and 128x192; 4096^3 and 1000^3 run whole tiles) and residues in M,
// N, K with batches, both tiles, TN and NT, bf16 and f16, beta != 0; and the dispatch's own
// choice with the workspace it asks for at the issue's shapes.
int check_stream_k_all(bool small_only) {
  namespace set = kernels::device::sm90_set;
  using set::K;
  using set::MN;
  cudaDeviceProp prop{};
  SM90_CUDA(cudaGetDeviceProperties(&prop, 0));
  const bool h100 = prop.multiProcessorCount == 132;  // (the shapes' plans share on 132 SMs)
  int fails = 0;
  fails += check_stream_k<set::Split<bfloat16_t, K, K>, bfloat16_t>(1000, 1000, 4008, 1, "TN", 0, false);  // residues in M, N, K
  fails += check_stream_k<set::SmallSplit<bfloat16_t, MN, MN>, bfloat16_t>(1000, 1000, 4008, 3, "NT", 0.5f, false);  // batches, beta
  if (small_only) return fails;
  fails += check_stream_k<set::Split<bfloat16_t, K, K>, bfloat16_t>(3072, 3072, 3072, 1, "TN", 0, h100);
  fails += check_stream_k<set::Split<bfloat16_t, K, K>, bfloat16_t>(512, 4096, 14336, 1, "TN", 0, h100);
  fails += check_stream_k<set::Split<bfloat16_t, K, K>, bfloat16_t>(128, 8192, 8192, 1, "TN", 0, false);
  fails += check_stream_k<set::Split<bfloat16_t, K, K>, bfloat16_t>(1000, 1000, 1000, 1, "TN", 0, false);
  fails += check_stream_k<set::Split<bfloat16_t, K, K>, bfloat16_t>(4096, 4096, 4096, 1, "TN", 0, false);
  fails += check_stream_k<set::Split<bfloat16_t, K, K>, bfloat16_t>(1000, 1003, 1008, 3, "TN", 1, false);  // residues, batch 3, beta
  fails += check_stream_k<set::Split<bfloat16_t, K, K>, bfloat16_t>(1000, 1003, 4008, 1, "TN", -1, false);
  fails += check_stream_k<set::Split<half_t, K, K>, half_t>(3072, 3072, 3072, 1, "TN", 0.5f, h100);
  fails += check_stream_k<set::Split<bfloat16_t, MN, MN>, bfloat16_t>(3072, 3072, 3072, 1, "NT", 0, h100);
  fails += check_stream_k<set::Split<half_t, MN, MN>, half_t>(1000, 1000, 4008, 3, "NT", 0.5f, false);
  fails += check_stream_k<set::SmallSplit<bfloat16_t, MN, MN>, bfloat16_t>(128, 8192, 8192, 1, "NT", 0, false);
  fails += check_stream_k<set::SmallSplit<half_t, MN, MN>, half_t>(1000, 1000, 1000, 1, "NT", 0, false);
  fails += check_stream_k<set::SmallSplit<bfloat16_t, MN, MN>, bfloat16_t>(136, 264, 2000, 1, "NT", 0, false);  // one cluster tile row
  // The dispatch with the workspace it asks for (Stream-K where the wave model prefers it).
  for (const auto& [m, n, k] : {std::array<int64_t, 3>{512, 4096, 14336}, {3072, 3072, 3072}, {128, 8192, 8192}, {1000, 1000, 1000},
                                {4096, 4096, 4096}})
    for (const char* layout : {"TN", "NT"}) {
      const auto g = kernels::sm90::as_column_major_d(sm90_check::Problem<bfloat16_t>(8, 8, 8, 1, false, 1, 0, 1, layout).args);
      auto shape = g;
      shape.m = m, shape.n = n, shape.k = k;
      const auto sk = kernels::sm90::choose_config_stream_k(shape, prop.multiProcessorCount);
      std::printf("dispatch %s %lld x %lld x %lld: %s\n", layout, (long long)m, (long long)n, (long long)k,
                  sk ? kernels::sm90::to_string(*sk).c_str() : "whole tiles");
      fails += check<bfloat16_t>(m, n, k, 1, false, 1, 0, layout, bool(sk));
    }
  return fails;
}

const char* type_name(kernels::Element e) { return kernels::to_string(e); }

// A fused epilogue: inputs T, D (and C, bias) TD.
template <class T, class TD>
int check_fused(int64_t m, int64_t n, int64_t k, int64_t l, bool d_row, float alpha, float beta, kernels::Activation act,
                kernels::Bias bias, const char* layout = "TN") {
  sm90_check::Problem<T, TD> p(m, n, k, l, d_row, alpha, beta, uint64_t(m * 1000003 + n * 1009 + k + l + 17 * int(act) + int(bias)),
                               layout);
  p.fuse(act, bias, uint64_t(m + 3 * n + int(act)));
  auto r = kernels::device::run_sm90(p.args, nullptr);
  // Where the dispatch takes a fused TMA-store kernel, that kernel itself must run the problem
  // (not decline it): its entry, called directly, on the same problem once more.
  int tma = -1;  // -1: not a fused TMA-store problem; 1: the kernel ran it; 0: it declined
  if constexpr (std::is_same_v<T, TD> && !std::is_same_v<T, float>) {
    namespace set = kernels::device::sm90_set;
    using kernels::Activation;
    const auto g = kernels::sm90::as_column_major_d(p.args);
    bool declined = false;
    auto direct = [&](auto kernel) {
      using K = typename decltype(kernel)::type;
      if (!r) return;
      SM90_CUDA(cudaDeviceSynchronize());
      p.poison();
      r = kernels::device::sm90_entry::run<K>(g, nullptr, true, &declined);
      tma = declined ? 0 : 1;
      if (declined) r = kernels::device::run_sm90(p.args, nullptr);
    };
    const bool tn = g.a.major == kernels::Major::Row && g.b.major == kernels::Major::Col;
    cudaDeviceProp prop{};
    SM90_CUDA(cudaGetDeviceProperties(&prop, 0));
    if (tn && set::has_fused_tma(act) && kernels::sm90::choose_schedule(g, prop.multiProcessorCount) == kernels::sm90::Schedule::Cooperative128x256) {
      if (act == Activation::GELUTanh) direct(std::type_identity<set::Fused<T, Activation::GELUTanh>>{});
      if (act == Activation::ReLU) direct(std::type_identity<set::Fused<T, Activation::ReLU>>{});
      if (act == Activation::SiLU) direct(std::type_identity<set::Fused<T, Activation::SiLU>>{});
    }
  }
  const cudaError_t e = cudaDeviceSynchronize();
  double rel = 0;
  int64_t nans = 0;
  // A TMA-storable D (beta 0) must be the fused kernel's; one that TMA cannot store its decline.
  const bool tma_ok = tma < 0 || (tma == 1) == (beta == 0.0f && m % 8 == 0 && n % 8 == 0);
  const bool ok = r && e == cudaSuccess && p.verify(rel, nans) && tma_ok;
  std::printf("%-4s->%-4s %s %4lld x %4lld x %4lld x %lld D %s alpha %g beta %g bias %-10s %-9s%s: %s (rel %.2e, %lld NaN)%s%s\n",
              type_name(p.args.element), type_name(kernels::output_element(p.args)), layout, (long long)m, (long long)n, (long long)k,
              (long long)l, d_row ? "row" : "col", alpha, beta, kernels::to_string(bias), kernels::to_string(act),
              tma == 1 ? " [fused TMA kernel]" : tma == 0 ? " [declined by the fused TMA kernel]" : "", ok ? "ok" : "FAIL", rel,
              (long long)nans, r ? "" : " ", r ? "" : r.message.c_str());
  if (e != cudaSuccess) std::printf("  %s\n", cudaGetErrorString(e));
  return ok ? 0 : 1;
}

// Every activation x bias x D type x D major at two residue shapes: 129 x 257 (ld not a
// multiple of 8: the direct epilogue; with beta != 0) and 136 x 264 (the TMA-store epilogue,
// beta = 0; f32 D: two TMA boxes per store).
template <class T>
int check_fusions(bool small_only) {
  using kernels::Activation;
  using kernels::Bias;
  int fails = 0;
  for (Activation act : {Activation::Identity, Activation::ReLU, Activation::GELU, Activation::GELUTanh, Activation::SiLU})
    for (Bias bias : {Bias::None, Bias::PerRow, Bias::PerColumn})
      for (bool d_row : {false, true}) {
        // (--small: each activation and bias once per D type and path, for compute-sanitizer)
        if (small_only && (d_row != (int(act) % 2 == 1) || (bias == Bias::None && act != Activation::Identity))) continue;
        fails += check_fused<T, T>(129, 257, 72, 1, d_row, 0.75f, -0.5f, act, bias);
        fails += check_fused<T, T>(136, 264, 72, 1, d_row, 1.0f, 0.0f, act, bias);
        fails += check_fused<T, float>(129, 257, 72, 1, d_row, 0.75f, -0.5f, act, bias);
        fails += check_fused<T, float>(136, 264, 72, 1, d_row, 1.0f, 0.0f, act, bias);
      }
  return fails;
}

// The fused TMA-store kernels: problems large enough for 128x256 tiles (the dispatch sends
// smaller ones to 128x128 tiles and the direct epilogue). 1032 x 2056: residues of 8 rows and
// columns, D TMA-stored; 1031 x 2055 with beta != 0: D not 16-byte aligned, the instance's
// direct loop for its activation.
template <class T>
int check_fused_tma(bool small_only) {
  using kernels::Activation;
  using kernels::Bias;
  int fails = 0;
  for (Activation act : {Activation::GELUTanh, Activation::ReLU, Activation::SiLU})
    for (Bias bias : {Bias::None, Bias::PerRow, Bias::PerColumn})
      for (bool d_row : {false, true}) {
        // (--small: one bias and D major per activation, for compute-sanitizer)
        if (small_only && (int(bias) != int(act) % 3 || d_row != (int(act) % 2 == 0))) continue;
        fails += check_fused<T, T>(1032, 2056, 72, 1, d_row, 1.0f, 0.0f, act, bias);
        if (!small_only) fails += check_fused<T, T>(1031, 2055, 72, 1, d_row, 0.75f, -0.5f, act, bias);
      }
  if (!small_only) fails += check_fused<T, T>(1032, 1032, 136, 2, false, 2.0f, 0.0f, Activation::GELUTanh, Bias::PerColumn);
  return fails;
}

// beta != 0 through the TMA loads of C (D column-major, M multiple of 8: C's ld whole 16
// bytes): every kernel the dispatch picks (cooperative 128x256 for the larger problems,
// 128x128 and ping-pong for small ones, split-K slices, the ping-pong kernel's turns), all
// four majors, residues in M and N (1032 x 2056: 8 rows and columns past whole tiles),
// batches, C aliasing D, f16, an f32 D (two TMA boxes per part).
template <class T>
int check_beta_tma(bool small_only) {
  int fails = 0;
  fails += check<T>(1032, 2056, 136, 1, false, 1, 0.5f);                       // TN, 128x256
  fails += check<T>(1032, 2056, 136, 1, false, -1, 1, "TN", false, true);      // C = D
  fails += check<T>(136, 264, 72, 1, false, 1, -1);                            // ping-pong (dispatch)
  fails += check_pingpong<T>(2048, 1024, 200, 2, 1, 0.5f, true);               // turns, batches, C = D
  fails += check_no_cluster<T>(1032, 2056, 136, 1, 1, 0.5f, true);             // 128x128 without a cluster, C = D
  if (small_only) return fails;
  fails += check<T>(1032, 2056, 136, 1, false, 2, -0.5f, "NT");                // NT, 128x256
  fails += check<T>(1032, 2056, 136, 1, false, 1, 1, "NT", false, true);       // NT, C = D
  fails += check<T>(136, 264, 72, 1, false, 1, 0.5f, "NT");                    // 128x128
  fails += check<T>(1032, 2056, 136, 1, false, 1, 0.5f, "NN");
  fails += check<T>(1032, 2056, 136, 1, false, 1, 0.5f, "TT");
  fails += check<T>(776, 1032, 200, 3, false, 1, 0.5f);                        // batches
  fails += check<T>(776, 1032, 200, 3, false, 1, -1, "TN", false, true);       // batches, C = D
  fails += check<T>(4096, 4096, 1024, 1, false, 1, 1, "TN", false, true);      // many tiles per CTA, C = D
  fails += check<T>(1000, 1000, 8000, 1, false, 1, 0.5f, "NT", true);          // split-K: C in the last slice's epilogue
  fails += check<T>(3072, 1536, 4096, 1, false, 1, 1, "NT", true, true);       // split-K of the tail, C = D
  fails += check_pingpong<T>(4000, 3000, 1000, 1, 2, -1);
  fails += check_fused<T, float>(1032, 2056, 136, 1, false, 1, 0.5f, kernels::Activation::Identity, kernels::Bias::None);  // f32 D
  return fails;
}

int main(int argc, char** argv) {
  int dev = 0, major = 0;
  if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess ||
      major != 9) {
    std::printf("skipped: no sm_90 GPU\n");
    return 77;
  }
  const bool small_only = argc > 1 && std::string(argv[1]) == "--small";  // (compute-sanitizer)
  int fails = 0;
  if (argc > 1 && std::string(argv[1]) == "--along-n") {  // (the clusters along N alone)
    fails = check_along_n_all(argc > 2 && std::string(argv[2]) == "--small");
    std::printf("%s: %d failing check(s)\n", fails ? "FAILED" : "PASSED", fails);
    return fails ? 1 : 0;
  }
  fails += check_along_n_all(small_only);
  fails += check<bfloat16_t>(128, 256, 64, 1, false, 1, 0);     // one tile, one k-tile
  fails += check<bfloat16_t>(129, 257, 72, 1, false, 1, 0);     // residues in M, N, K
  fails += check<bfloat16_t>(200, 300, 40, 1, true, 1, 0);      // the same, D row-major
  fails += check<bfloat16_t>(136, 264, 72, 1, false, 1, 0, "NT");  // both MN-major, residues
  fails += check_tall<bfloat16_t>(300, 260, 200, 2, 1, 0.5f);      // the 256x128 kernel: residues, a cluster's tail, beta
  // (small TN problems run the ping-pong kernel, which does not split K: the split-K cases
  // take MN-major operands, whose small problems run the cooperative 128x128 kernel)
  // (K = 32008: where the rule takes the Stream-K kernel, hopper_sm90_schedule_test checks it)
  fails += check<bfloat16_t>(136, 264, 32008, 1, false, 1, 0, "NT", true);  // one tile in K slices, residue k-tile
  fails += check_pingpong<bfloat16_t>(129, 257, 72, 1, 1, 0);   // one CTA, residues in M, N, K
  fails += check_pingpong<bfloat16_t>(2048, 1024, 200, 2, 1, 0);  // 256 tiles x 2 batches: turns, residue k-tile
  fails += check_no_cluster<bfloat16_t>(129, 257, 72, 1, 1, 0);   // one CTA per tile, residues in M, N, K
  fails += check_no_cluster<half_t>(300, 200, 8, 2, 1, 0.5f);     // K below one k-tile, batches, beta
  fails += check_decode<bfloat16_t>(129, 65, 72, 2, 1, 0.5f);     // decode kernel: residues in M, N (two N tiles), K, batches, beta
  // MN-major with M and N multiples of 64 (not of the tile): one TMA box per operand tile
  // (divided dims; 4-D with the batch), zero-filled past M, N and K
  fails += check<bfloat16_t>(320, 448, 200, 2, false, 1, 0, "NT");
  if (!small_only) {
    fails += check<bfloat16_t>(256, 512, 1024, 1, true, 1, 0);
    fails += check<bfloat16_t>(1000, 1000, 1000, 1, false, 1, 0);
    fails += check<bfloat16_t>(100, 3000, 512, 1, false, 1, 0);   // M below one tile
    fails += check<bfloat16_t>(3000, 40, 256, 1, true, 1, 0);     // N below one tile
    fails += check<bfloat16_t>(777, 555, 328, 3, false, 2, -1);   // batched, alpha/beta
    fails += check<bfloat16_t>(512, 768, 8, 1, true, 1, 0.5f);    // K below one k-tile
    fails += check<bfloat16_t>(4096, 4096, 4096, 1, false, 1, 0); // many tiles per CTA (sampled)
    fails += check<half_t>(1000, 1000, 1000, 1, false, 1, 0);
    fails += check<half_t>(129, 257, 72, 2, true, -1, 1);
    // MN-major operands (M, N multiples of 8: TMA strides are 16-byte multiples)
    for (const char* layout : {"NT", "NN", "TT"}) {
      fails += check<bfloat16_t>(136, 264, 72, 1, false, 1, 0, layout);
      fails += check<bfloat16_t>(1000, 1000, 1000, 2, true, 1, 0.5f, layout);
      fails += check<bfloat16_t>(2048, 2048, 2048, 1, false, 1, 0, layout);
    }
    fails += check<half_t>(1000, 1000, 1000, 1, false, 1, 0, "NT");
    fails += check<bfloat16_t>(576, 320, 136, 3, true, 1, 0.5f, "NN");   // divided dims, batched, D row-major
    fails += check<bfloat16_t>(704, 1088, 264, 2, false, 2, -1, "TT");
    // Split-K of the last wave (workspace given): slices of every tile, or of the tail only
    // (3072 x 1536 TN, 3000 x 1504 NT: whole tiles first), batches, D row-major (direct
    // epilogue), alpha/beta. The shapes are ones where the rule takes Stream-K (checked on the
    // host: hopper_sm90_schedule_test, "the GPU test's Stream-K shapes").
    fails += check<bfloat16_t>(1000, 1000, 4000, 1, false, 1, 0);  // (TN at this size: ping-pong, long K, no split)
    fails += check<bfloat16_t>(1000, 1000, 8008, 1, false, 1, 0, "NT", true);
    fails += check<bfloat16_t>(304, 296, 8192, 2, true, 2, -1, "NT", true);  // (small TN problems: ping-pong, no split)
    fails += check<half_t>(1000, 1000, 6000, 1, true, 1, 0.5f, "NT", true);
    fails += check<bfloat16_t>(3072, 1536, 4096, 1, false, 1, 0, "TN", true);  // (Stream-K 128x192; whole tiles 128x192)
    fails += check<bfloat16_t>(3000, 1504, 4000, 1, false, 1, 0, "NT", true);  // 128x256 tiles, NT (N: 16-byte rows)
    // The same problems unsplit (no workspace: the whole-tile kernels).
    fails += check<half_t>(1000, 1000, 4000, 1, true, 1, 0.5f, "NT");
    fails += check<bfloat16_t>(4096, 11008, 4096, 1, false, 1, 0, "TN");
    // No split-K kernel for NN, TT or an f32 D: no workspace asked for.
    {
      int asked = 0;
      for (const char* layout : {"NN", "TT"}) {
        sm90_check::Problem<bfloat16_t> q(1000, 1000, 4000, 1, false, 1, 0, 7, layout);
        asked += kernels::device::sm90_workspace_size(q.args) != 0;
      }
      sm90_check::Problem<bfloat16_t, float> q(1000, 1000, 4000, 1, false, 1, 0, 7);
      asked += kernels::device::sm90_workspace_size(q.args) != 0;
      std::printf("no split-K workspace for NN, TT, f32 D: %s\n", asked ? "FAIL" : "ok");
      fails += asked != 0;
    }
    fails += check<half_t>(1000, 1000, 4000, 1, true, 1, 0.5f, "NN");
    // The ping-pong kernel with many tiles per CTA (the consumers alternate): whole tiles,
    // residues, batches, alpha/beta (the direct epilogue), K below one k-tile, f16.
    fails += check_pingpong<bfloat16_t>(4096, 4096, 512, 1, 1, 0);
    fails += check_pingpong<bfloat16_t>(4000, 3000, 1000, 1, 1, 0);
    fails += check_pingpong<bfloat16_t>(1000, 1000, 1000, 3, 2, -1);
    fails += check_pingpong<bfloat16_t>(777, 555, 328, 4, 1, 0);
    fails += check_pingpong<bfloat16_t>(2048, 2048, 8, 1, 1, 0.5f);
    fails += check_pingpong<half_t>(3000, 2000, 1000, 1, 1, 0);
    fails += check_pingpong<half_t>(4096, 4096, 4096, 1, 1, 0);
    // The TN 128x128 kernel without a cluster, forced: many tiles per CTA, residues, batches,
    // alpha/beta, C = D, f16; then where the rule picks it (sm90_schedule.hpp: 1 to 5 waves of
    // 128x128 tiles), through the dispatch with the workspace it asks for (none: no Stream-K).
    fails += check_no_cluster<bfloat16_t>(4096, 4096, 512, 1, 1, 0);
    fails += check_no_cluster<bfloat16_t>(1000, 1000, 1000, 3, 2, -1);
    fails += check_no_cluster<bfloat16_t>(777, 555, 328, 4, 1, 0.5f, true);
    fails += check_no_cluster<half_t>(3000, 2000, 1000, 1, 1, 0);
    // The 256x128 kernel (two m64 atoms per consumer warpgroup, clusters of 2, the epilogue
    // under the next tile), forced: many tiles per CTA (the packed epilogue under the next tile's
    // k-tiles), residues in M, N and K (M = 300: the second 256-row tile mostly past M, and
    // its cluster's peer), batches, alpha/beta (the second entry: after the tile), C = D, a D
    // TMA cannot store (M = 777: the direct stores), one tile with K below one k-tile; then
    // where the rule picks it (hopper_sm90_schedule_test holds these to the host rule).
    fails += check_tall<bfloat16_t>(4096, 4224, 4096, 1, 1, 0);
    fails += check_tall<bfloat16_t>(300, 1000, 1000, 3, 1, 0);
    fails += check_tall<bfloat16_t>(3001, 2999, 3000, 1, 2, -1);
    fails += check_tall<bfloat16_t>(777, 555, 328, 4, 1, 0.5f, true);
    fails += check_tall<bfloat16_t>(256, 128, 8, 1, 1, 0);
    fails += check_rule<bfloat16_t>("cooperative 256x128", 4096, 4224, 4096, 1, false, 1, 0);
    // (640 tokens through Llama-3 8B's qkv weight as torch runs it: D row-major, D^T 6144 x 640)
    fails += check_rule<bfloat16_t>("cooperative 256x128", 640, 6144, 4096, 1, true, 1, 0);
    // (3072^3 and its residues: the 128x192 tiles, below)
    fails += check_rule<half_t>("cooperative 128x128 no cluster", 4000, 500, 14000, 1, false, 1, 0);          // residues, long K
    // 512 tokens through Llama-3 8B's down projection as torch runs it (D row-major: D^T is 4096 x 512)
    fails += check_rule<bfloat16_t>("cooperative 128x128 no cluster", 512, 4096, 14336, 1, true, 1, 0);
    fails += check_rule<bfloat16_t>("stream-k cooperative 128x256", 10240, 1024, 8192, 1, false, 1, 0);
    fails += check_rule<bfloat16_t>("cooperative 128x256", 8192, 8192, 1024, 1, false, 1, 0);
    fails += check<bfloat16_t>(1000, 1000, 1000, 2, true, 1, 0.5f);  // through the dispatch: ping-pong, D row-major, beta
    // The decode kernel (128x64 tiles, no cluster, Stream-K), forced: the suite's decode shapes
    // (k-iterations shared on 132 SMs), N below one tile, residues in M, N and K, a D whose
    // leading dimension TMA cannot store (M = 777: the direct epilogue), batches, alpha/beta,
    // C = D, K below one k-tile, f16; then where the rule picks it, through the dispatch.
    {
      int sms = 0;
      SM90_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
      const bool h100 = sms == 132;
      fails += check_decode<bfloat16_t>(6144, 64, 4096, 1, 1, 0, false, h100);    // Llama-3 8B qkv, 64 tokens
      fails += check_decode<bfloat16_t>(4096, 64, 14336, 1, 1, 0, false, h100);   // Llama-3 8B down, 64 tokens
      fails += check_decode<bfloat16_t>(10240, 64, 8192, 1, 1, 0.5f, true, h100); // Llama-3 70B qkv, C = D
      fails += check_decode<bfloat16_t>(6144, 48, 4096, 1, 1, 0);                 // N below one tile
      fails += check_decode<bfloat16_t>(1000, 37, 1000, 1, 2, -1);                // residues in M, N, K; alpha, beta
      fails += check_decode<bfloat16_t>(777, 100, 328, 3, 1, 0.5f, true);         // direct epilogue, batches, C = D
      fails += check_decode<bfloat16_t>(512, 64, 8, 2, 1, 0);                     // K below one k-tile
      fails += check_decode<bfloat16_t>(4096, 256, 2048, 1, 1, 0);                // four N tiles, many tiles per SM
      fails += check_decode<half_t>(4096, 128, 14336, 1, 1, 0.5f, false, h100);   // f16, two N tiles, beta
      fails += check_decode<half_t>(300, 20, 8008, 2, 1, 0.5f, true);             // f16, few tiles, long K, C = D
      fails += check_rule<bfloat16_t>("stream-k cooperative 128x64 no cluster", 6144, 64, 4096, 1, false, 1, 0);
      // (128 tokens: two tiles along N re-read the weight; the 128x128 Stream-K kernel runs it)
      fails += check_rule<bfloat16_t>("stream-k cooperative 128x128", 4096, 128, 14336, 1, false, 1, 0);
      fails += check_rule<half_t>("stream-k cooperative 128x64 no cluster", 14336, 64, 4096, 1, false, 1, 0);
      // 64 tokens through Llama-3 8B's qkv projection as torch runs it (D row-major: D^T is 6144 x 64)
      fails += check_rule<bfloat16_t>("stream-k cooperative 128x64 no cluster", 64, 6144, 4096, 1, true, 1, 0);
      fails += check_rule<bfloat16_t>("stream-k cooperative 128x64 no cluster", 60, 10240, 8192, 1, true, 1, 0.5f);  // residue tokens, beta
      // Its whole tiles (the same kernel without a workspace), forced: one tile along M, residues
      // in M, N and K, beta, batches, a row-major D (transposed: M = 100), M in several tiles and a
      // D TMA cannot store (M = 777: the direct epilogue), f16; then where the rule picks them
      // (M in one 128-row tile, more than ping-pong's 64), through the dispatch.
      fails += check_whole_of_stream_k<bfloat16_t>(128, 8192, 8192, 1, false, 0);
      fails += check_whole_of_stream_k<bfloat16_t>(100, 3000, 1000, 2, false, 0.5f);
      fails += check_whole_of_stream_k<bfloat16_t>(6000, 100, 2000, 1, true, 0);
      fails += check_whole_of_stream_k<half_t>(777, 555, 328, 3, false, 0.5f);
      fails += check_rule<bfloat16_t>("cooperative 128x64 no cluster", 128, 8192, 8192, 1, false, 1, 0);
      fails += check_rule<half_t>("cooperative 128x64 no cluster", 100, 6144, 4096, 1, false, 1, 0.5f);
      fails += check_rule<bfloat16_t>("cooperative 128x64 no cluster", 6144, 120, 4096, 1, true, 1, 0);
    }
    // The 128x192 kernels (clusters of 2, 16-bit TN), forced: whole tiles at the shape the rule
    // takes them for, residues in M, N and K (N = 2999: 15 tiles and 119 columns), batches,
    // both D majors, alpha/beta, C = D, a D TMA cannot store (M = 777: the direct epilogue), one
    // CTA tile with K below one k-tile, f16; under Stream-K with the workspace it asks for
    // (0xff-filled), three launches bit-identical, against the whole-tile kernel's D; then
    // where the rule picks them, through the dispatch.
    {
      namespace set = kernels::device::sm90_set;
      int sms = 0;
      SM90_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
      const bool h100 = sms == 132;
      fails += check_mid<bfloat16_t>(3072, 3072, 3072, 1, false, 1, 0);
      fails += check_mid<bfloat16_t>(3001, 2999, 3000, 1, false, 1, 0.5f);
      fails += check_mid<bfloat16_t>(1000, 1000, 1000, 3, true, 2, -1);
      fails += check_mid<bfloat16_t>(777, 555, 328, 4, false, 1, 0.5f, true);
      fails += check_mid<bfloat16_t>(100, 150, 8, 2, false, 1, 0);
      fails += check_mid<half_t>(4096, 4096, 4096, 1, true, 1, 0);
      fails += check_mid<half_t>(1000, 3000, 2000, 2, false, 1, 0.5f, true);
      fails += check_stream_k<set::MidSplit<bfloat16_t>, bfloat16_t>(3072, 1536, 4096, 1, "TN", 0, h100);
      fails += check_stream_k<set::MidSplit<bfloat16_t>, bfloat16_t>(1000, 1003, 4008, 3, "TN", 0.5f, false);  // residues, batches, beta
      fails += check_stream_k<set::MidSplit<half_t>, half_t>(4096, 256, 14336, 1, "TN", 0, h100);
      fails += check_stream_k<set::MidSplit<half_t>, half_t>(300, 200, 8008, 2, "TN", -1, false);  // few tiles, long K, beta
      fails += check_rule<bfloat16_t>("cooperative 128x192", 3072, 3072, 3072, 1, false, 1, 0);
      fails += check_rule<bfloat16_t>("cooperative 128x192", 3001, 2999, 3000, 1, false, 1, 0.5f);  // residues
      fails += check_rule<half_t>("cooperative 128x192", 3072, 3072, 3072, 1, true, 1, 0.5f);
      // With a row-major D (MidRow, MidRowSplit), forced: a column-major D's problem transposed
      // (6144 x 512 x 4096: 512 tokens through Llama-3 8B's qkv weight, the suite's layer), a
      // row-major D as it is, residues in M, N and K, batches, alpha/beta, C = D, a D whose ld
      // TMA cannot store (777 and 1001 rows: the direct stores), one CTA tile with K below one
      // k-tile, f16; under Stream-K with a 0xff workspace, three launches bit-identical,
      // against the whole-tile D; then where the rule runs a problem transposed, through the
      // dispatch (hopper_sm90_schedule_test holds these lines to the host rule).
      fails += check_mid<bfloat16_t, set::MidRow<bfloat16_t>>(6144, 512, 4096, 1, false, 1, 0);
      fails += check_mid<bfloat16_t, set::MidRow<bfloat16_t>>(3001, 2999, 3000, 1, false, 1, 0.5f);  // (ld 3001: direct stores)
      fails += check_mid<bfloat16_t, set::MidRow<bfloat16_t>>(3000, 2999, 3000, 1, false, 1, 0.5f);  // residue N, K (46 k-tiles + 56); ld 3000, N 2999: direct stores (a TMA store writes whole 16 bytes of a row)
      fails += check_mid<bfloat16_t, set::MidRow<bfloat16_t>>(1000, 1000, 1000, 3, true, 2, -1);     // row-major D as it is, batches
      fails += check_mid<bfloat16_t, set::MidRow<bfloat16_t>>(1000, 1003, 1000, 2, false, 1, 0.5f, true);  // C = D, batches
      fails += check_mid<bfloat16_t, set::MidRow<bfloat16_t>>(777, 555, 328, 4, false, 1, 0.5f, true);     // direct stores, C = D
      fails += check_mid<bfloat16_t, set::MidRow<bfloat16_t>>(104, 150, 8, 2, false, 1, 0);                // one tile, K < k-tile
      fails += check_mid<half_t, set::MidRow<half_t>>(4096, 4096, 4096, 1, false, 1, 0);
      fails += check_mid<half_t, set::MidRow<half_t>>(1000, 3000, 2000, 2, true, 1, 0.5f, true);
      fails += check_stream_k<set::MidRowSplit<bfloat16_t>, bfloat16_t>(4096, 256, 14336, 1, "TN", 0, h100);
      fails += check_stream_k<set::MidRowSplit<bfloat16_t>, bfloat16_t>(1000, 1003, 4008, 3, "TN", 0.5f, false);  // residues, batches, beta
      fails += check_stream_k<set::MidRowSplit<bfloat16_t>, bfloat16_t>(1001, 1003, 4008, 1, "TN", 1, false);     // direct stores
      fails += check_stream_k<set::MidRowSplit<bfloat16_t>, bfloat16_t>(2048, 512, 8192, 2, "TN", 0.5f, false, true);  // C = D
      fails += check_stream_k<set::MidRowSplit<half_t>, half_t>(10240, 256, 8192, 1, "TN", 0, false);
      fails += check_stream_k<set::MidRowSplit<half_t>, half_t>(304, 200, 8008, 2, "TN", -1, false);  // few tiles, long K, beta
      fails += check_rule<bfloat16_t>("cooperative 128x192 row-major D", 6144, 512, 4096, 1, false, 1, 0);
      fails += check_rule<half_t>("cooperative 128x192 row-major D", 6144, 1000, 4096, 1, false, 1, 0.5f);  // residue tokens, beta
      fails += check_rule<bfloat16_t>("cooperative 128x192 row-major D", 10240, 256, 8192, 1, false, 1, 0);
      fails += check_rule<bfloat16_t>("stream-k cooperative 128x192 row-major D", 4096, 256, 14336, 1, false, 1, 0);
      // 512 tokens through Llama-3 8B's qkv projection as torch runs it (D row-major): as it is
      fails += check_rule<bfloat16_t>("cooperative 128x192 row-major D", 512, 6144, 4096, 1, true, 1, 0);
    }
    // f32 inputs as tf32 (TN only): residues (K a multiple of 4: 16-byte TMA strides), both D
    // majors, batches, alpha/beta, many tiles per CTA.
    fails += check<float>(1000, 1000, 1000, 1, false, 1, 0);
    fails += check<float>(777, 555, 332, 3, true, 2, -1);
    fails += check<float>(100, 3000, 36, 1, false, 1, 0.5f);
    fails += check<float>(4096, 4096, 4096, 1, true, 1, 0);
  }
  // Stream-K kernels.
  fails += check_stream_k_all(small_only);
  // beta != 0 through TMA loads of C.
  fails += check_beta_tma<bfloat16_t>(small_only);
  if (!small_only) fails += check_beta_tma<half_t>(false);
  // Fused epilogues.
  fails += check_fusions<bfloat16_t>(small_only);
  fails += check_fused_tma<bfloat16_t>(small_only);
  if (!small_only) fails += check_fused_tma<half_t>(false);
  {
    using kernels::Activation;
    using kernels::Bias;
    // f16 inputs; batches share the bias; MN-major operands; many tiles per CTA
    fails += check_fused<half_t, half_t>(136, 264, 72, 2, false, 1, 0, Activation::GELU, Bias::PerRow);
    fails += check_fused<half_t, float>(129, 257, 72, 2, true, 1, 0.5f, Activation::SiLU, Bias::PerColumn);
    if (!small_only) {
      fails += check_fusions<half_t>(false);
      fails += check_fused<bfloat16_t, bfloat16_t>(776, 560, 328, 3, false, 2, 0, Activation::ReLU, Bias::PerColumn, "NT");  // (MN-major: M, N multiples of 8 for TMA)
      fails += check_fused<bfloat16_t, float>(1000, 1000, 1000, 1, true, 1, 0, Activation::GELUTanh, Bias::PerRow, "NN");
      fails += check_fused<bfloat16_t, bfloat16_t>(4096, 4096, 1024, 1, false, 1, 0, Activation::GELU, Bias::PerColumn);
      fails += check_fused<bfloat16_t, float>(4096, 4096, 1024, 1, true, 1, 0, Activation::SiLU, Bias::PerRow, "TT");
    }
    // Not instantiated: a 16-bit D of the other 16-bit type; refused with the reason.
    sm90_check::Problem<bfloat16_t> p(64, 64, 64, 1, false, 1, 0, 1);
    auto g = p.args;
    g.epilogue.output = kernels::Element::F16;
    const auto r = kernels::device::sm90_can_implement(g);
    const bool refused = r.status == kernels::GemmStatus::Unsupported && r.message.find("f32") != std::string::npos;
    std::printf("refusal (bf16 inputs, f16 D): %s (%s)\n", refused ? "ok" : "FAIL", r.message.c_str());
    fails += !refused;
  }
  fails += check<float>(129, 257, 68, 1, false, 1, 0);  // one CTA tile and residues in M, N, K
  // What the kernel does not take is refused, not run: f32, misaligned leading dimensions
  // (an MN-major A with M = 60).
  {
    sm90_check::Problem<bfloat16_t> p(64, 64, 64, 1, false, 1, 0, 1);
    auto g = p.args;
    g.a.major = kernels::Major::Col;
    g.m = 60;
    g.a.ld = 60;
    const bool refused_major = kernels::device::sm90_can_implement(g).status == kernels::GemmStatus::Misaligned;
    g = p.args;
    g.k = 60;
    g.a.ld = 60;
    const bool refused_ld = kernels::device::sm90_can_implement(g).status == kernels::GemmStatus::Misaligned;
    g = p.args;
    g.element = kernels::Element::F32;
    const bool refused_f32 = !kernels::device::sm90_can_implement(g);  // f32 without allow_tf32
    // f32 as tf32: MN-major operands (the ISA's tf32 wgmma is K-major only) and a K that
    // leaves rows off 16 bytes.
    sm90_check::Problem<float> q(64, 64, 64, 1, false, 1, 0, 2, "NT");
    const auto nt = kernels::device::sm90_can_implement(q.args);
    const bool refused_tf32_nt = nt.status == kernels::GemmStatus::Unsupported && nt.message.find("K-major") != std::string::npos;
    sm90_check::Problem<float> r(64, 64, 66, 1, false, 1, 0, 3);
    const bool refused_tf32_ld = kernels::device::sm90_can_implement(r.args).status == kernels::GemmStatus::Misaligned;
    const bool ok = refused_major && refused_ld && refused_f32 && refused_tf32_nt && refused_tf32_ld;
    std::printf("refusals (MN-major A with M = 60, K-major A with K = 60, f32 without allow_tf32, tf32 NT, tf32 K = 66): %s\n",
                ok ? "ok" : "FAIL");
    if (!refused_tf32_nt) std::printf("  tf32 NT: %s\n", nt.message.c_str());
    fails += !ok;
  }
  std::printf("%s: %d failing check(s)\n", fails ? "FAILED" : "PASSED", fails);
  return fails ? 1 : 0;
}
