// GPU check (and, with --time, the A/B timing) of the cooperative SM90 kernel with the epilogue
// under the next tile for fused epilogues: the menu's act(alpha acc + bias) (OverlappedFusedGemm:
// GELU-tanh and SiLU, bias per row and per column) and an epilogue tree with a reduction
// (TreeTmaGemm with EpilogueUnderNextTile<2>): the issue's example
//   D = silu(acc * scale_a[m] * scale_b[n] + bias[n]), amax = max |D| (f32, before rounding)
// run as the column-major D^T that a row-major (torch) D is: the kernel's rows are the
// caller's columns, so scale_b and bias are the kernel's ColumnBroadcasts (2 registers per
// thread) and scale_a its RowBroadcast (64 at BN = 256).
// Each problem: the new order against FP64 with D poisoned (NaN) first, then bit for bit
// against the same epilogue after the tile (FusedTmaGemmAfterTile / TreeTmaGemm<...,
// EpilogueAfterTile>)
// on the same inputs with D poisoned again, the amax bit for bit too. Shapes: residues in M, N
// and K, one k-tile per tile (below the head's two), batches (menu), and many tiles per CTA.
// Refusals: beta != 0, the fused kernel given another activation. A bias on the plain kernel
// (its direct stores) runs after the tile in the same kernel: FP64 and bit for bit as above.
//   sm90_epilogue_order_fused_gpu_test [--small] | --time [--reps R] [M N K ...]
// --time (default 8192^3 then 4096^3): per shape, alternating in each repetition, plain after /
// plain under / GELU-tanh+bias[m] after / under / SiLU+bias[m] after / under / the tree after /
// under / cuBLASLt GELU_BIAS (its bias along M too): medians of CUDA-event times.
// Exit 0: all pass; 1: a failure (printed); 77: no sm_90 GPU.
#include <cublasLt.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "../../kernels/collective/sm90_epilogue_tree_tma.cuh"
#include "../../kernels/device/sm90_gemm.cuh"
#include "../../tools/harness/cublaslt_gelu_bias.hpp"
#include "../../tools/harness/sm90_gemm_check.hpp"

using namespace tessera;
namespace s9 = tessera::kernels::sm90;
using kernels::Activation;
using kernels::Bias;
using kernels::Major;
namespace tr = tessera::kernels::tree;

namespace {

using T = bfloat16_t;
constexpr int Head = 2;
using Under = s9::EpilogueUnderNextTile<Head>;

// The issue's tree in the kernel's frame (see the top).
using Product = tr::Compute<tr::multiplies, tr::Accumulator, tr::RowBroadcast<float>>;
using Scaled = tr::Compute<tr::multiplies, Product, tr::ColumnBroadcast<float>>;
using Pre = tr::Compute<tr::plus, Scaled, tr::ColumnBroadcast<T>>;
using Activated = tr::Compute<tr::silu, Pre>;
using IssueTree = tr::ScalarReduction<tr::absolute_maximum, Activated>;
using TreeAfter = s9::TreeTmaGemm<T, IssueTree>;
using TreeUnder = s9::TreeTmaGemm<T, IssueTree, Under>;

template <class Kernel, class Args>
kernels::GemmResult launch(Args const& args) {
  s9::GemmSm90<Kernel> op;
  if (auto r = op.initialize(args); !r) return r;
  if (auto r = op.run(); !r) return r;
  if (cudaDeviceSynchronize() != cudaSuccess) return {kernels::GemmStatus::LaunchFailed, cudaGetErrorString(cudaGetLastError())};
  return {};
}
std::vector<T> output(const sm90_check::Problem<T>& p) {
  std::vector<T> d(p.c.size());
  SM90_CUDA(cudaMemcpy(d.data(), p.dd, d.size() * sizeof(T), cudaMemcpyDeviceToHost));
  return d;
}
int64_t differ(std::vector<T> const& a, std::vector<T> const& b) {
  int64_t n = 0;
  for (size_t i = 0; i < a.size(); ++i) n += std::memcmp(&a[i], &b[i], sizeof(T)) != 0;
  return n;
}

// One problem through the kernel with the epilogue under the next tile (New) against FP64, then
// through its twin with the epilogue after the tile (Old) on the same arguments with D poisoned
// again: ok when New verifies, both launch and the two outputs agree bit for bit.
struct TwinResult {
  bool ok = false;
  double rel = 0;
  int64_t nans = 0, differing = 0;
  size_t size = 0;
  std::string new_note, old_note;  // "" or " new: <why>" / " old: <why>" (the launch failures)
};
template <class New, class Old>
TwinResult compare_with_twin(sm90_check::Problem<T>& p, kernels::GemmArguments const& args) {
  TwinResult t;
  const auto r_new = launch<New>(args);
  const bool near = r_new && p.verify(t.rel, t.nans);
  const std::vector<T> mine = output(p);
  p.poison();
  const auto r_old = launch<Old>(args);
  t.differing = differ(mine, output(p));
  t.size = mine.size();
  t.ok = near && r_old && t.differing == 0;
  if (!r_new) t.new_note = " new: " + r_new.message;
  if (!r_old) t.old_note = " old: " + r_old.message;
  return t;
}

// act(alpha acc + bias) on the menu's fused kernel, both orders. odd_bias: the bias vector one
// element past a 4-byte boundary (the pack's bias then loads element by element: PackedBias).
template <Activation A>
int check_fused(int64_t m, int64_t n, int64_t k, int64_t l, Bias bias, bool odd_bias = false) {
  using New = s9::OverlappedFusedGemm<T, A, Head>;
  using Old = s9::FusedTmaGemmAfterTile<T, A>;
  sm90_check::Problem<T> p(m, n, k, l, false, 0.75f, 0.0f, uint64_t(m * 7001 + n * 13 + k * 3 + l), "TN");
  p.fuse(A, bias, uint64_t(m + n));
  std::unique_ptr<T, decltype(&cudaFree)> shifted(nullptr, &cudaFree);
  if (odd_bias) {
    T* q = nullptr;
    SM90_CUDA(cudaMalloc(&q, (p.bias.size() + 1) * sizeof(T)));
    shifted.reset(q);
    SM90_CUDA(cudaMemcpy(q + 1, p.bias.data(), p.bias.size() * sizeof(T), cudaMemcpyHostToDevice));
    p.args.epilogue.bias_ptr = q + 1;
  }
  const TwinResult t = compare_with_twin<New, Old>(p, s9::as_column_major_d(p.args));
  std::printf("fused %s + %sbias per %s %5lld x %5lld x %5lld x %lld: %s (rel %.2e, %lld NaN, %lld of %zu differ from the epilogue after "
              "the tile)%s%s\n",
              to_string(A), odd_bias ? "odd-aligned " : "", bias == Bias::PerRow ? "row" : "column", (long long)m, (long long)n, (long long)k, (long long)l,
              t.ok ? "ok" : "FAIL", t.rel, (long long)t.nans, (long long)t.differing, t.size, t.new_note.c_str(), t.old_note.c_str());
  return t.ok ? 0 : 1;
}

// The tree's vectors on the device (kernel frame: sa along N, sb and bias along M) and amax.
struct TreeInputs {
  std::vector<float> sa, sb;
  std::vector<T> bias;
  float *dsa = nullptr, *dsb = nullptr, *damax = nullptr;
  T* dbias = nullptr;
  TreeInputs(int64_t m, int64_t n, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<float> s(0.5f, 1.5f), b(-1.0f, 1.0f);
    for (int64_t j = 0; j < n; ++j) sa.push_back(s(rng));
    for (int64_t i = 0; i < m; ++i) sb.push_back(s(rng)), bias.push_back(T(b(rng)));
    SM90_CUDA(cudaMalloc(&dsa, sa.size() * sizeof(float)));
    SM90_CUDA(cudaMalloc(&dsb, sb.size() * sizeof(float)));
    SM90_CUDA(cudaMalloc(&dbias, bias.size() * sizeof(T)));
    SM90_CUDA(cudaMalloc(&damax, sizeof(float)));
    SM90_CUDA(cudaMemcpy(dsa, sa.data(), sa.size() * sizeof(float), cudaMemcpyHostToDevice));
    SM90_CUDA(cudaMemcpy(dsb, sb.data(), sb.size() * sizeof(float), cudaMemcpyHostToDevice));
    SM90_CUDA(cudaMemcpy(dbias, bias.data(), bias.size() * sizeof(T), cudaMemcpyHostToDevice));
  }
  ~TreeInputs() { cudaFree(dsa), cudaFree(dsb), cudaFree(dbias), cudaFree(damax); }
  template <class Kernel>
  typename Kernel::Arguments arguments(kernels::GemmArguments const& g) const {
    auto a = Kernel::arguments_of(g);
    const typename Product::Arguments product(tr::Accumulator::Arguments{}, typename tr::RowBroadcast<float>::Arguments{dsa, 0});
    const typename Scaled::Arguments scaled(product, typename tr::ColumnBroadcast<float>::Arguments{dsb, 0});
    const typename Pre::Arguments pre(scaled, typename tr::ColumnBroadcast<T>::Arguments{dbias, 0});
    a.epilogue.tree = typename IssueTree::Arguments(damax, 0, typename Activated::Arguments(pre));
    return a;
  }
  float amax() const {
    float x = 0;
    SM90_CUDA(cudaMemcpy(&x, damax, sizeof x, cudaMemcpyDeviceToHost));
    return x;
  }
  void reset() const { SM90_CUDA(cudaMemset(damax, 0, sizeof(float))); }
};

int check_tree(int64_t m, int64_t n, int64_t k) {
  sm90_check::Problem<T> p(m, n, k, 1, false, 1.0f, 0.0f, uint64_t(m * 31 + n * 17 + k), "TN");
  TreeInputs in(m, n, uint64_t(m + 3 * n));
  in.reset();
  p.poison();
  const auto r_new = launch<TreeUnder>(in.arguments<TreeUnder>(s9::as_column_major_d(p.args)));
  const std::vector<T> mine = output(p);
  const float amax_new = in.amax();
  in.reset();
  p.poison();
  const auto r_old = launch<TreeAfter>(in.arguments<TreeAfter>(s9::as_column_major_d(p.args)));
  const std::vector<T> theirs = output(p);
  const float amax_old = in.amax();
  // FP64 at every element of small problems, at 20000 sampled ones of large ones (the dot
  // products are the host's cost); the amax against the largest |D| stored (bf16-rounded).
  const int64_t total = m * n;
  const int64_t samples = std::min<int64_t>(total, 20000);
  std::mt19937_64 rng{uint64_t(total)};
  int64_t bad = 0;
  double num = 0, den = 0;
  for (int64_t s = 0; s < samples; ++s) {
    const int64_t e = samples == total ? s : int64_t(rng() % uint64_t(total));
    const int64_t i = e % m, j = e / m;
    const double want = sm90_check::activate_ref(Activation::SiLU, p.ref(i, j, 0) * in.sa[size_t(j)] * in.sb[size_t(i)] +
                                                                        double(in.bias[size_t(i)].to_float()));
    const double got = mine[size_t(p.at_d(i, j, 0))].to_float();
    if (!(std::fabs(got - want) <= std::ldexp(std::fabs(want), -7) + 1e-3)) ++bad;
    num += (got - want) * (got - want);
    den += want * want;
  }
  float stored = 0;
  for (auto const& x : mine) stored = std::max(stored, std::fabs(x.to_float()));  // (NaN: never larger, caught by the samples)
  const double rel = std::sqrt(num / (den > 0 ? den : 1));
  const bool amax_ok = std::fabs(double(amax_new) - stored) <= std::ldexp(double(stored), -7) && std::memcmp(&amax_new, &amax_old, 4) == 0;
  const int64_t off = differ(mine, theirs);
  const bool ok = r_new && r_old && bad == 0 && rel < 1e-2 && amax_ok && off == 0;
  std::printf("tree silu(acc sa sb + bias) + amax %5lld x %5lld x %5lld: %s (rel %.2e, %lld of %lld off, amax %.6g after-order %.6g "
              "max|D| %.6g, %lld of %lld differ from the epilogue after the tile)%s%s%s%s\n",
              (long long)m, (long long)n, (long long)k, ok ? "ok" : "FAIL", rel, (long long)bad, (long long)samples, amax_new, amax_old,
              stored, (long long)off, (long long)total, r_new ? "" : " new: ", r_new ? "" : r_new.message.c_str(),
              r_old ? "" : " old: ", r_old ? "" : r_old.message.c_str());
  return ok ? 0 : 1;
}

// A bias on the plain kernel (no activation): not packed, its direct stores after the tile in
// the kernel with the epilogue under the next tile, against FP64 and bit for bit against the
// kernel with the epilogue after the tile.
int check_plain_bias(int64_t m, int64_t n, int64_t k) {
  using New = s9::OverlappedEpilogueGemm<T, Head>;
  using Old = s9::SerialEpilogueGemm<T>;
  sm90_check::Problem<T> p(m, n, k, 1, false, 1.0f, 0.0f, uint64_t(m * 5 + n * 3 + k), "TN");
  p.fuse(Activation::Identity, Bias::PerRow, uint64_t(m + k));
  const TwinResult t = compare_with_twin<New, Old>(p, s9::as_column_major_d(p.args));
  std::printf("plain + bias per row %5lld x %5lld x %5lld (after the tile in the kernel under the next tile): %s (rel %.2e, %lld NaN, "
              "%lld of %zu differ)%s%s\n",
              (long long)m, (long long)n, (long long)k, t.ok ? "ok" : "FAIL", t.rel, (long long)t.nans, (long long)t.differing, t.size,
              t.new_note.c_str(), t.old_note.c_str());
  return t.ok ? 0 : 1;
}

template <class Kernel>
int refuses(const char* what, sm90_check::Problem<T>& p) {
  const auto r = s9::GemmSm90<Kernel>::can_implement(s9::as_column_major_d(p.args));
  const bool ok = !r && r.status == kernels::GemmStatus::Unsupported;
  std::printf("refuses %s: %s (%s)\n", what, ok ? "ok" : "FAIL", r ? "admitted" : r.message.c_str());
  return ok ? 0 : 1;
}

// ---- --time
struct Timed {
  std::string name;
  std::function<void()> run;
  std::vector<float> ms;
};
void time_round_robin(std::vector<Timed>& ks, int reps) {
  cudaEvent_t a, b;
  SM90_CUDA(cudaEventCreate(&a));
  SM90_CUDA(cudaEventCreate(&b));
  for (auto& k : ks) k.run(), k.run();  // warm-up
  SM90_CUDA(cudaDeviceSynchronize());
  for (int r = 0; r < reps; ++r)
    for (auto& k : ks) {
      SM90_CUDA(cudaEventRecord(a));
      k.run();
      SM90_CUDA(cudaEventRecord(b));
      SM90_CUDA(cudaEventSynchronize(b));
      float t = 0;
      SM90_CUDA(cudaEventElapsedTime(&t, a, b));
      k.ms.push_back(t);
    }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
}
float median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0f : v[v.size() / 2];
}
template <class Kernel, class Args>
Timed timed(std::string name, Args const& args, std::vector<std::shared_ptr<void>>& keep) {
  auto op = std::make_shared<s9::GemmSm90<Kernel>>();
  if (auto r = op->initialize(args); !r) {
    std::printf("%s: initialize: %s\n", name.c_str(), r.message.c_str());
    return {name, [] {}, {}};
  }
  keep.push_back(op);
  return {name, [op] {
            if (auto r = op->run(); !r) std::printf("run: %s\n", r.message.c_str()), std::exit(1);
          }, {}};
}
int time_shape(int64_t m, int64_t n, int64_t k, int reps, cublasLtHandle_t lt) {
  std::vector<std::shared_ptr<void>> keep;
  // One problem's operands for every kernel (they all write its D): the plain arguments, then
  // with the bias per row (cuBLASLt's) and each activation.
  sm90_check::Problem<T> p(m, n, k, 1, false, 1.0f, 0.0f, 11, "TN");
  const kernels::GemmArguments plain = s9::as_column_major_d(p.args);
  p.fuse(Activation::GELUTanh, Bias::PerRow);
  const kernels::GemmArguments gelu = s9::as_column_major_d(p.args);
  kernels::GemmArguments silu = gelu;
  silu.epilogue.activation = Activation::SiLU;
  TreeInputs in(m, n, 15);
  in.reset();
  std::vector<Timed> ks;
  ks.push_back(timed<s9::SerialEpilogueGemm<T>>("plain after", plain, keep));
  ks.push_back(timed<s9::OverlappedEpilogueGemm<T, Head>>("plain under", plain, keep));
  ks.push_back(timed<s9::FusedTmaGemmAfterTile<T, Activation::GELUTanh>>("gelu_tanh+bias after", gelu, keep));
  ks.push_back(timed<s9::OverlappedFusedGemm<T, Activation::GELUTanh, Head>>("gelu_tanh+bias under", gelu, keep));
  ks.push_back(timed<s9::FusedTmaGemmAfterTile<T, Activation::SiLU>>("silu+bias after", silu, keep));
  ks.push_back(timed<s9::OverlappedFusedGemm<T, Activation::SiLU, Head>>("silu+bias under", silu, keep));
  ks.push_back(timed<TreeAfter>("tree+amax after", in.arguments<TreeAfter>(plain), keep));
  ks.push_back(timed<TreeUnder>("tree+amax under", in.arguments<TreeUnder>(plain), keep));
  auto cublas = std::make_shared<sm90_check::LtGeluBias>(lt, m, n, k, p.da, p.db, p.dc, p.dbias);
  if (!cublas->error().empty()) std::printf("cuBLASLt: %s\n", cublas->error().c_str());
  else ks.push_back({"cuBLASLt GELU_BIAS", [cublas] { cublas->run(); }, {}});
  time_round_robin(ks, reps);
  const double flops = 2.0 * double(m) * double(n) * double(k);
  const float plain_after = median(ks[0].ms);
  const float lt_ms = ks.back().name[0] == 'c' ? median(ks.back().ms) : 0.0f;
  for (auto& x : ks) {
    const float t = median(x.ms);
    std::printf("time %lldx%lldx%lld %-22s %9.1f us %6.1f TFLOP/s  vs plain after %.3f  vs cuBLASLt GELU_BIAS %.3f\n", (long long)m,
                (long long)n, (long long)k, x.name.c_str(), t * 1e3, t > 0 ? flops / t * 1e-9 : 0.0, plain_after > 0 ? t / plain_after : 0.0,
                t > 0 ? lt_ms / t : 0.0);
  }
  SM90_CUDA(cudaGetLastError());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  int dev = 0, major = 0;
  if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess ||
      major != 9) {
    std::printf("skipped: no sm_90 GPU\n");
    return 77;
  }
  const std::string first = argc > 1 ? argv[1] : "";
  if (first == "--time") {
    int reps = 20, at = 2;
    if (argc > 3 && std::string(argv[2]) == "--reps") reps = std::atoi(argv[3]), at = 4;
    std::vector<int64_t> shapes;
    for (int i = at; i < argc; ++i) shapes.push_back(std::atoll(argv[i]));
    if (shapes.empty()) shapes = {8192, 8192, 8192, 4096, 4096, 4096};
    cublasLtHandle_t lt;
    if (cublasLtCreate(&lt) != CUBLAS_STATUS_SUCCESS) return std::printf("cublasLtCreate failed\n"), 1;
    for (size_t i = 0; i + 2 < shapes.size(); i += 3) time_shape(shapes[i], shapes[i + 1], shapes[i + 2], reps, lt);
    cublasLtDestroy(lt);
    return 0;
  }
  const bool small_only = first == "--small";  // (compute-sanitizer)
  int fails = 0;
  fails += check_fused<Activation::GELUTanh>(136, 264, 72, 1, Bias::PerRow);  // one cluster tile; residues in M, N, K
  fails += check_fused<Activation::SiLU>(136, 264, 72, 1, Bias::PerColumn);
  fails += check_fused<Activation::GELUTanh>(1024, 2048, 64, 2, Bias::PerColumn);  // one k-tile per tile, batches
  fails += check_fused<Activation::SiLU>(2056, 1032, 200, 3, Bias::PerRow);         // residue tiles of every batch
  fails += check_fused<Activation::GELUTanh>(1032, 776, 72, 1, Bias::PerColumn, true);  // the bias element by element
  fails += check_fused<Activation::SiLU>(1032, 776, 72, 1, Bias::PerRow, true);
  fails += check_tree(136, 264, 72);
  fails += check_tree(1000, 2000, 64);
  if (!small_only) {
    // Many tiles per CTA (132 SMs: 66 clusters): stores under heads, each CTA's last after its loop
    fails += check_fused<Activation::GELUTanh>(4096, 4096, 1024, 1, Bias::PerRow);
    fails += check_fused<Activation::SiLU>(4096, 4096, 1000, 1, Bias::PerColumn);
    fails += check_fused<Activation::GELUTanh>(3000, 2992, 1000, 2, Bias::PerColumn);
    fails += check_fused<Activation::SiLU>(8192, 8192, 128, 1, Bias::PerRow);  // 16 tiles per CTA, two k-tiles each
    fails += check_tree(4096, 4096, 1024);
    fails += check_tree(3000, 2992, 1000);
    fails += check_tree(8192, 8192, 128);
  }
  {
    sm90_check::Problem<T> beta(256, 256, 64, 1, false, 1, 0.5f, 3);
    beta.fuse(Activation::GELUTanh, Bias::PerRow);
    fails += refuses<s9::OverlappedFusedGemm<T, Activation::GELUTanh, Head>>("beta != 0 (fused)", beta);
    sm90_check::Problem<T> other(256, 256, 64, 1, false, 1, 0, 4);
    other.fuse(Activation::SiLU, Bias::PerRow);
    fails += refuses<s9::OverlappedFusedGemm<T, Activation::GELUTanh, Head>>("another activation", other);
  }
  fails += check_plain_bias(264, 136, 200);  // the plain kernel's direct stores, after the tile
  std::printf("%s\n", fails == 0 ? "all passed" : "FAILED");
  return fails == 0 ? 0 : 1;
}
