// SM90 GEMM benchmark (TMA + wgmma, warp-specialized, persistent) against cuBLAS, bf16 and
// f16 TN (A and B K-major), D column-major, f32 accumulation.
//
// Method (as bench/gemm.cu): random inputs (never zeros); per shape the output is checked
// against cuBLAS's (relative Frobenius norm over every element) and against an FP64
// reference on sampled elements; then warm-up (25 ms at least: the clocks come up), and tessera's
// and cuBLAS's launches alternate in pairs, each timed with CUDA events (bench/timing.hpp); the
// median of each, their ratio and the spread of the ratio over five runs of consecutive pairs
// ([lowest highest]) are printed. Pairs: at least --reps, and enough that each side is timed for
// --target-ms in all (default 30: ~1000 pairs of a 30 us decode kernel, --reps for large ones).
// --cold-l2: each timed kernel after a read of twice the L2's size (outside its events), so that
// neither side finds its operands cached (a decode layer's weights, ~50 MB at Llama-3 8B's qkv,
// about the L2's size, are otherwise partly served from what the other side's kernel left).
//
//   sm90_gemm_bench [--reps N] [--target-ms T] [--cold-l2] [--f16 | --tf32] [--layout TN|NT|NN|TT] [--cluster1] [--no-split] [--no-lead] [--mode-boxes]
//                   [--fused] [--beta B] [M N K ...]
//   (default: the table's shapes, TN)
//   --no-split: no workspace (no Stream-K kernel: whole tiles only); --no-lead: no busy kernel ahead
//   of each timed pair (then tessera's host-side launch work is timed, cuBLAS's hidden)
//   --fused: bf16 TN, D column-major, D = GELU(A B + bias[m]) in bf16, tessera's fused epilogue
//   (Activation::GELUTanh, Bias::PerRow) against cuBLASLt's CUBLASLT_EPILOGUE_GELU_BIAS (the tanh
//   GELU, bias along D's rows), beside both plain GEMMs (tessera, cublasGemmEx): the cost of
//   the fusion on each side.
//   --beta B: D = A B + B C, C a matrix of its own (beta != 0 through the TMA loads of C),
//   against cuBLAS with the same beta (its C in place: D)
//   --tf32: f32 inputs and output with allow_tf32 (TN only) against cuBLAS's TF32 mode
//   (cublasGemmEx, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32); default shapes 8192^3, 4096^3
//   --cluster1: the kernel without clusters (no B multicast), for comparison (a build with
//   -DTESSERA_SM90_BENCH_VARIANTS, as tools/device/run_hopper_gemm.sh makes); TN, or NT in bf16
//   --schedule coop|coop128|pp128|pp256|pp128x128|pp128x128c2 (same build, TN, bf16): that schedule and tile
//   (cooperative 128x256 / 128x128 in clusters of 2, ping-pong 64x128 / 64x256 without, ping-pong 128x128 per
//   consumer warpgroup without / with clusters of 2: not built by the library) instead of the dispatch's
//   choice. Each line names the schedule it ran.
//   --fp8 [--fast-accum] [--e5m2-b]: FP8 e4m3 inputs (B e5m2 with --e5m2-b), TN, per-tensor scales
//   (scale_a, scale_b device pointers), D bf16 column-major, through the device layer's entry
//   (device::run_sm90, what tessera::gemm calls on sm_90) against
//   cuBLASLt's FP8 matmul in the same process (CUDA_R_8F_E4M3, A/B_SCALE_POINTER, D bf16;
//   CUBLASLT_MATMUL_DESC_FAST_ACCUM off as torch._scaled_mm's default, on with --fast-accum:
//   tessera accumulates in the wgmma's registers over the whole K, which is cuBLASLt's fast
//   accumulation; its default promotes partial sums). Default shapes: 8192^3, 4096x7168x16384,
//   320x32576x7168, 512x4096x14336, 128x7168x16384, 64x7168x16384. Checked against cuBLASLt's
//   D (relative norm) with tessera's D poisoned (NaN) first.
//   --fp8 --scales rowwise|block: tessera with that scale mode (ScaleMode::Rowwise: scale_a[M],
//   scale_b[N]; ScaleMode::Block: A's scales per row and 128-k group, B's per 128 x 128 block,
//   the block-scaled kernel) against the same cuBLASLt per-tensor call: every scale of A is that
//   call's scale_a and every scale of B its scale_b, so the D's agree (block: up to the
//   promotion's rounding) and the ratio is the scale mode's cost over cuBLASLt's per-tensor GEMM.
//   (torch._scaled_mm's rowwise and blockwise scales on the same shapes: tools/device/scaled_mm_torch.py)
//   --fp8 ... --config NAME: the FP8 rows through that configuration of the kernel list (sm90_schedule's
//   name, e.g. "stream-k cooperative 128x64 no cluster", "stream-k_cooperative_128x128": underscores
//   stand for spaces) instead of the
//   rule's, as gemm_tune runs it; the line names what ran ("declined: ..." where a Stream-K kernel's plan
//   shares nothing and the rule's whole tiles ran).
//   --fp8 --out-e4m3 [--fast-accum]: e4m3 x e4m3 to an e4m3 D (row-major) with scale_d and amax_d
//   (GemmArguments) against cuBLASLt with D e4m3, D_SCALE_POINTER and AMAX_D_POINTER: D's and the
//   amax compared, both timed.
//   --grouped [--skew]: tessera::gemm_grouped (MoE expert layers: the contiguous form, A tokens x K
//   row-major sorted by expert, weights (E, N, K), D tokens x N row-major, bf16) against a loop of
//   tessera::gemm calls over the experts (one per expert with tokens), TFLOP/s of both (2 T N K
//   flops, T the tokens); shapes as E T K N quadruples, T tokens per expert (default: 8 2048 4096
//   14336, 64 512 2048 1536, 128 512 2048 1536). --skew: the same total tokens, a quarter of the
//   experts without any, expert 0 a third of all, the rest evenly. Checked: the two D's agree.
//   (torch._grouped_mm on the same shapes: tools/device/grouped_mm_torch.py)
//   --grouped --epilogue ACT (identity, relu, gelu, gelu_tanh, silu): the fused epilogue
//   act(x W_e^T + b_e), a bias per expert, timed against the plain grouped call (alternating;
//   fused/plain is its cost) and against the loop of tessera::gemm with the same epilogue.
//   --suite [--csv FILE]: bf16 TN at 40 shapes: four layers of Llama-3 8B/70B and Mixtral (Y = X W^T,
//   tokens x out x in, Y row-major as torch's linear writes it) at 64..8192 tokens, then the GEMM
//   issue's shapes; prints the geometric mean of the ratios and the lowest ratio with and without
//   512 rows of output; --csv writes one line per shape for bench/suite_chart.py; --tuned: each
//   shape again after tessera::gemm_tune (not written to the tuning cache file), a second column.
//   --tuned with shapes (M N K triples, 16-bit or tf32): gemm_tune first at each shape, printing
//   every configuration the list builds for it with its time, then the tuned choice timed.
//   --decode: the suite's rows with fewer than 512 rows of output only (the layers at 64, 128 and
//   256 tokens and the issue's 128 x 8192 x 8192: 13 shapes), the issue's decode bar (0.85).
//   --launch-once: each shape's tessera GEMM and cuBLAS call launched once and checked, nothing
//   timed: for a profiler, e.g. which kernel cuBLAS picks per suite shape (ncu's LaunchStats:
//   kernel name, grid, cluster), as tools/device/cublas_kernels.sh runs it
//   --tune-probe M N K ...: (bf16 TN) gemm_tune's rounds and the bench's pairs side by side on the
//   configurations gemm_tune times, with the order, the L2 and the predecessor switched
//   (bench_tune_probe; bench/notes/suite.md reads it)
//   --mode-boxes: (that build; TN, and NT in bf16) the TMA dims one per gmem mode instead of
//   divided modes: an MN-major 128 x 64 tile is 2 boxes of 64 x 64, not one (64, 64, 2) box
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "../kernels/device/sm90_dispatch.hpp"
#include "../kernels/device/sm90_schedule.hpp"  // --config: the configurations by name
#include "tessera/kernels/gemm.hpp"
#include "tessera/kernels/gemm_grouped.hpp"
#include "../tools/harness/cublaslt_gelu_bias.hpp"
#include "../tools/harness/harness.cuh"  // fill_random_fp8
#include "../tools/harness/sm90_gemm_check.hpp"
#include "timing.hpp"
#if defined(TESSERA_SM90_BENCH_VARIANTS)
#include "../kernels/device/sm90_gemm.cuh"  // --cluster1 and the grid: the kernel templates themselves
#endif

using namespace tessera;

#define CUBLAS_OK(x)                                                                     \
  do {                                                                                   \
    cublasStatus_t s_ = (x);                                                             \
    if (s_ != CUBLAS_STATUS_SUCCESS) {                                                   \
      std::printf("%s:%d: %s: cuBLAS status %d\n", __FILE__, __LINE__, #x, int(s_));     \
      std::exit(2);                                                                      \
    }                                                                                    \
  } while (0)

namespace {
int g_group = 0;         // --group G: raster group (cluster rows) for the template path
bool g_split = true;     // --no-split: no workspace, so no Stream-K kernel
bool g_lead = true;      // --no-lead: time from an idle GPU (host launch costs included)
double g_target_ms = 30; // --target-ms T: pairs enough for T ms of each side's kernels (0: --reps pairs)
bool g_cold_l2 = false;  // --cold-l2: each timed kernel after a read of twice the L2 (operands not cached)
constexpr int kSpreadRounds = 5;  // the runs of consecutive pairs whose ratios give the spread
float g_beta = 0.0f;     // --beta B: D = A B + B C (C a separate matrix; cuBLAS with the same beta, C in place)
bool g_tune = false;     // (the suite's --tuned column) gemm_tune before timing
bool g_divided = true;   // --mode-boxes: TMA dims one per gmem mode (MN-major tiles: a box per 64 rows)
bool g_launch_once = false;  // --launch-once: each shape's two GEMMs launched once, checked, not timed
std::string g_config;    // --config NAME: the FP8 rows through that configuration (sm90_schedule's name), not the rule's


#if defined(TESSERA_SM90_BENCH_VARIANTS)
std::string g_schedule;  // --schedule coop|coop128|pp128|pp256|pp128x128|pp128x128c2: that kernel template (TN)

// Gemm (a GemmSm90 instantiation) initialised once for g; run launches it.
template <class Gemm>
bool use_template(const kernels::GemmArguments& g, std::function<kernels::GemmResult()>& run, int& grid, std::string& schedule,
                  const char* name) {
  using Kernel = typename Gemm::Kernel;
  auto op = std::make_shared<Gemm>();
  typename Kernel::Arguments args = Kernel::arguments_of(g);
  args.scheduler.raster_group = g_group;  // (0: the library's)
  if (auto r = op->initialize(args, g.workspace, g.workspace_bytes); !r) {
    std::printf("initialize: %s\n", r.message.c_str());
    return false;
  }
  using Mainloop = typename Kernel::Mainloop;
  if (!g_divided) {
    // --mode-boxes: the mainloop's parameters again with one TMA dim per gmem mode (a type
    // the bench picks; the library takes the divided boxes).
    kernels::GemmResult status;
    op->params.mainloop = Mainloop::template to_underlying_arguments<kernels::sm90::TmaBoxesPerMode>(args.problem, args.mainloop, nullptr, status);
    if (!status) {
      std::printf("initialize: %s\n", status.message.c_str());
      return false;
    }
  }
  grid = op->grid;
  schedule = name;
  std::printf("group %2lld ", (long long)op->params.scheduler.raster.group);
  if constexpr (Kernel::Splits)
    std::printf("split %d/%lld ", op->params.scheduler.plan.split, (long long)op->params.scheduler.split_tiles());
  else
    std::printf("whole tiles ");
  std::printf("boxes %d+%d ", Mainloop::plan(0, op->params.mainloop.arrangement_a).boxes.count,
              Mainloop::plan(1, op->params.mainloop.arrangement_b).boxes.count);
  run = [op] { return op->run(); };
  return true;
}
#endif

using sm90_check::median;

// What one bench() call measured (the suite collects them).
struct Measured {
  double ratio = 0, tflops = 0, tflops_cublas = 0;
  double ratio_lo = 0, ratio_hi = 0;  // the lowest and highest ratio of kSpreadRounds runs of pairs
  int pairs = 0;
  std::string schedule;
  bool ok = false;
};

template <class T, int ClusterM = 2>
bool bench(cublasHandle_t h, int64_t m, int64_t n, int64_t k, int reps, const char* layout, Measured* out = nullptr) {
  sm90_check::Problem<T> p(m, n, k, 1, false, 1.0f, g_beta, uint64_t(m * 31 + n * 7 + k), layout);
  if (g_tune) {  // the configuration gemm_tune measures fastest runs from here on (this process)
    kernels::GemmTuneOptions o;
    o.record = false;
    o.reps = 10;
    const kernels::GemmTuneResult t = kernels::gemm_tune(p.args, o);
    if (!t) {
      std::printf("gemm_tune: %s\n", t.status.message.c_str());
      return false;
    }
    std::printf("tuned over %d rounds (", t.rounds);
    for (const auto& c : t.timings)
      std::printf("%s%s%s %.1f us [%.1f %.1f]", &c == &t.timings[0] ? "" : ", ", c.configuration.c_str(),
                  c.configuration == t.rule ? " (rule)" : "", c.microseconds, c.low_microseconds, c.high_microseconds);
    std::printf(") ");
  }
  // The workspace tessera::gemm_workspace_size asks for (the Stream-K kernel, where the
  // dispatch's wave model prefers it).
  void* ws = nullptr;
  const size_t ws_bytes = g_split ? kernels::device::sm90_workspace_size(p.args) : 0;
  if (ws_bytes > 0) SM90_CUDA(cudaMalloc(&ws, ws_bytes));
  p.args.workspace = ws;
  p.args.workspace_bytes = ws_bytes;
  T* ref = nullptr;
  SM90_CUDA(cudaMalloc(&ref, size_t(m * n) * sizeof(T)));
  constexpr bool tf32 = std::is_same_v<T, float>;
  const cudaDataType type = tf32 ? CUDA_R_32F : std::is_same_v<T, bfloat16_t> ? CUDA_R_16BF : CUDA_R_16F;
  const float one = 1.0f;
  // cuBLAS, column-major: D (M x N) = A^T (A stored K x M, ld K) * B (K x N, ld K).
  auto cublas = [&] {
    // A K-major is A^T of a K x M column-major matrix; B MN-major is B^T of an N x K one.
    CUBLAS_OK(cublasGemmEx(h, p.a_k ? CUBLAS_OP_T : CUBLAS_OP_N, p.b_k ? CUBLAS_OP_N : CUBLAS_OP_T, int(m), int(n), int(k), &one,
                           p.da, type, int(p.a_k ? k : m), p.db, type, int(p.b_k ? k : n), &g_beta, ref, type, int(m),
                           tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
  };
  // Default: tessera's device entry (what tessera::gemm runs on sm_90: argument checks and
  // tensor maps on every call; the schedule its rule picks). With TESSERA_SM90_BENCH_VARIANTS
  // (TN only): the kernel templates, initialised once: the default tile (also without
  // clusters) for shapes that take it, or the schedule --schedule names.
  std::function<kernels::GemmResult()> run = [&] { return kernels::device::run_sm90(p.args, nullptr); };
  int grid = -1;
  std::string schedule = kernels::device::sm90_schedule(p.args);
#if defined(TESSERA_SM90_BENCH_VARIANTS)
  // (TN, and NT in bf16: other layouts run through the device entry)
  const bool nt = std::is_same_v<T, bfloat16_t> && std::string(layout) == "NT";
  if (std::string(layout) == "TN" || nt) {
    namespace s9 = kernels::sm90;
    const kernels::GemmArguments g = s9::as_column_major_d(p.args);
    cudaDeviceProp prop{};
    SM90_CUDA(cudaGetDeviceProperties(&prop, 0));
    // (the default template runs where the rule's whole tiles are 128x256 with a column-major D;
    // elsewhere, the transposed runs included, the device entry)
    const s9::Sm90Config rule = s9::choose_config(p.args, prop.multiProcessorCount);
    const bool small_tiles = rule.schedule != s9::Schedule::Cooperative128x256 || rule.d != kernels::Major::Col;
    bool ok_setup = true;
    using Default = s9::GemmSm90<std::conditional_t<tf32, s9::DefaultGemmTf32<ClusterM>, s9::WholeTileGemm<T, GMMA::Major::K, GMMA::Major::K, ClusterM>>>;
    // (the default template is the whole-tile kernel: with a workspace the device entry runs
    // the Stream-K kernel, unless clusters are off)
    if (g_schedule.empty() ? !small_tiles && (ws_bytes == 0 || ClusterM == 1) : g_schedule == "coop") {
      if constexpr (std::is_same_v<T, bfloat16_t>) {
        using DefaultNT = s9::GemmSm90<s9::WholeTileGemm<T, GMMA::Major::MN, GMMA::Major::MN, ClusterM>>;
        ok_setup = nt ? use_template<DefaultNT>(g, run, grid, schedule, "cooperative 128x256")
                      : use_template<Default>(g, run, grid, schedule, "cooperative 128x256");
      } else {
        ok_setup = use_template<Default>(g, run, grid, schedule, "cooperative 128x256");
      }
    } else if (nt && !g_schedule.empty()) {
      ok_setup = false, std::printf("error: --schedule runs TN only\n");
    } else if (!g_schedule.empty()) {
      if constexpr (std::is_same_v<T, bfloat16_t> && ClusterM == 2) {  // (bf16 only: fewer kernels to build)
        if (g_schedule == "coop128") ok_setup = use_template<s9::GemmSm90<s9::SmallTileGemm<T>>>(g, run, grid, schedule, "cooperative 128x128");
        else if (g_schedule == "pp128") ok_setup = use_template<s9::GemmSm90<s9::PingpongGemm<T, 128>>>(g, run, grid, schedule, "ping-pong 64x128 c1");
        else if (g_schedule == "pp256") ok_setup = use_template<s9::GemmSm90<s9::PingpongGemm<T, 256>>>(g, run, grid, schedule, "ping-pong 64x256 c1");
        else if (g_schedule == "pp128x128") ok_setup = use_template<s9::GemmSm90<s9::PingpongGemm<T, 128, 1, 128>>>(g, run, grid, schedule, "ping-pong 128x128 c1");
        else if (g_schedule == "pp128x128c2") ok_setup = use_template<s9::GemmSm90<s9::PingpongGemm<T, 128, 2, 128>>>(g, run, grid, schedule, "ping-pong 128x128 c2");
        else ok_setup = false, std::printf("error: --schedule takes coop, coop128, pp128, pp256, pp128x128 or pp128x128c2\n");
      } else {
        ok_setup = false, std::printf("error: --schedule: bf16 with clusters of 2 only\n");
      }
    }
    if (!ok_setup) return false;
  }
  if (grid < 0 && ws_bytes > 0) std::printf("stream-K kernel (workspace %zu B) ", ws_bytes);
#else
  static_assert(ClusterM == 2, "--cluster1 needs TESSERA_SM90_BENCH_VARIANTS");
#endif
  std::printf("schedule %-19s ", schedule.c_str());
  auto mine = [&] {
    if (auto r = run(); !r) {
      std::printf("run: %s\n", r.message.c_str());
      std::exit(1);
    }
  };
  // (beta != 0: cuBLAS's C is ref, in place, holding C before the checked call; the timed
  // calls accumulate into it, which does not change their work)
  SM90_CUDA(cudaMemcpy(ref, p.dc, size_t(m * n) * sizeof(T), cudaMemcpyDeviceToDevice));
  cublas();
  mine();
  SM90_CUDA(cudaDeviceSynchronize());
  const double vs_cublas = sm90_check::relative_difference(p.dd, ref, m * n);
  double vs_fp64 = 0;
  int64_t nans = 0;
  const bool ok_ref = p.verify(vs_fp64, nans, 2000);
  const bool ok = ok_ref && vs_cublas < sm90_check::tolerance<T, T>;
  if (g_launch_once) {  // (for a profiler: one launch of each side per shape, cuBLAS's first)
    cudaFree(ref);
    cudaFree(ws);
    std::printf("%-4s %s %5lld x %5lld x %5lld launched once  err vs cuBLAS %.1e vs fp64 %.1e %s\n", std::is_same_v<T, bfloat16_t> ? "bf16" : "f16",
                layout, (long long)m, (long long)n, (long long)k, vs_cublas, vs_fp64, ok ? "ok" : "WRONG");
    if (out) *out = {0, 0, 0, 0, 0, 0, schedule, ok};
    return ok;
  }
  // Timing: warm-up, then alternating launches (each pair after the lead-in kernel unless --no-lead).
  const auto t = sm90_check::time_pairs(mine, cublas, reps, 5, g_lead, g_target_ms, g_cold_l2);
  SM90_CUDA(cudaGetLastError());
  cudaFree(ref);
  cudaFree(ws);
  const double tm = median(t.mine), tc = median(t.theirs), flops = 2.0 * double(m) * double(n) * double(k);
  const auto spread = sm90_check::ratio_spread(t, kSpreadRounds);
  if (grid > 0) std::printf("grid %4d ", grid);
  if (g_beta != 0.0f) std::printf("beta %g ", g_beta);
  std::printf("%-4s %s c%d %5lld x %5lld x %5lld  tessera %8.3f ms %6.1f TFLOP/s  cuBLAS %8.3f ms %6.1f TFLOP/s  ratio %.3f "
              "[%.3f %.3f] (%zu pairs)  err vs cuBLAS %.1e vs fp64 %.1e %s\n",
              tf32 ? "tf32" : std::is_same_v<T, bfloat16_t> ? "bf16" : "f16", layout, ClusterM, (long long)m, (long long)n, (long long)k, tm,
              flops / tm * 1e-9, tc, flops / tc * 1e-9, tc / tm, spread.lo, spread.hi, t.mine.size(), vs_cublas, vs_fp64, ok ? "ok" : "WRONG");
  if (out) *out = {tc / tm, flops / tm * 1e-9, flops / tc * 1e-9, spread.lo, spread.hi, int(t.mine.size()), schedule, ok};
  return ok;
}

// D = GELU_tanh(A B + bias[m]), bf16 TN, D column-major: tessera fused / plain, cuBLASLt
// GELU_BIAS / cublasGemmEx plain, alternating, medians.
bool bench_fused(cublasHandle_t h, cublasLtHandle_t lt, int64_t m, int64_t n, int64_t k, int reps) {
  using T = bfloat16_t;
  using kernels::Activation;
  using kernels::Bias;
  sm90_check::Problem<T> p(m, n, k, 1, false, 1.0f, 0.0f, uint64_t(m * 31 + n * 7 + k + 1), "TN");
  p.fuse(Activation::GELUTanh, Bias::PerRow);
  kernels::GemmArguments plain = p.args;
  plain.epilogue = {};
  T *ref = nullptr, *scratch = nullptr;
  SM90_CUDA(cudaMalloc(&ref, size_t(m * n) * sizeof(T)));
  SM90_CUDA(cudaMalloc(&scratch, size_t(m * n) * sizeof(T)));
  plain.d = scratch;
  const float one = 1.0f, zero = 0.0f;
  // cuBLASLt: D (M x N, column-major) = A^T (stored K x M) * B (K x N) with the GELU_BIAS epilogue.
  const sm90_check::LtGeluBias lt_gemm(lt, m, n, k, p.da, p.db, ref, p.dbias);
  if (!lt_gemm.error().empty()) {
    std::printf("%s\n", lt_gemm.error().c_str());
    return false;
  }
  auto lt_fused = [&] { CUBLAS_OK(lt_gemm.run()); };
  auto cublas_plain = [&] {
    CUBLAS_OK(cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, int(m), int(n), int(k), &one, p.da, CUDA_R_16BF, int(k), p.db, CUDA_R_16BF,
                           int(k), &zero, scratch, CUDA_R_16BF, int(m), CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
  };
  auto run = [&](const kernels::GemmArguments& g) {
    if (auto r = kernels::device::run_sm90(g, nullptr); !r) {
      std::printf("run (%s): %s\n", g.epilogue.activation == Activation::Identity ? "plain" : "fused", r.message.c_str());
      std::exit(1);
    }
  };
  auto fused = [&] { run(p.args); };
  auto mine_plain = [&] { run(plain); };
  lt_fused();
  if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess) std::printf("(cuBLASLt left an error: %s) ", cudaGetErrorString(e));
  fused();
  SM90_CUDA(cudaDeviceSynchronize());
  const double vs_lt = sm90_check::relative_difference(p.dd, ref, m * n);
  double vs_fp64 = 0;
  int64_t nans = 0;
  const bool ok = p.verify(vs_fp64, nans, 2000) && vs_lt < 1e-2;
  std::function<void()> fns[4] = {fused, mine_plain, lt_fused, cublas_plain};
  for (int i = 0; i < 5; ++i)
    for (auto& f : fns) f();
  cudaEvent_t ev[5];
  for (auto& e : ev) SM90_CUDA(cudaEventCreate(&e));
  std::vector<float> t[4];
  for (int i = 0; i < reps; ++i) {
    SM90_CUDA(cudaEventRecord(ev[0]));
    for (int f = 0; f < 4; ++f) {
      fns[f]();
      SM90_CUDA(cudaEventRecord(ev[f + 1]));
    }
    SM90_CUDA(cudaEventSynchronize(ev[4]));
    for (int f = 0; f < 4; ++f) {
      float ms = 0;
      SM90_CUDA(cudaEventElapsedTime(&ms, ev[f], ev[f + 1]));
      t[f].push_back(ms);
    }
  }
  SM90_CUDA(cudaGetLastError());
  for (auto& e : ev) cudaEventDestroy(e);
  const double flops = 2.0 * double(m) * double(n) * double(k);
  const double tf = median(t[0]), tp = median(t[1]), lf = median(t[2]), cp = median(t[3]);
  std::printf("bf16 TN fused gelu_tanh+bias[m] %5lld x %5lld x %5lld  tessera fused %8.3f ms %6.1f TFLOP/s (plain %8.3f ms, "
              "fusion +%.1f%%)  cuBLASLt GELU_BIAS %8.3f ms %6.1f TFLOP/s (cublasGemmEx %8.3f ms, fusion +%.1f%%)  ratio fused %.3f  "
              "err vs cuBLASLt %.1e vs fp64 %.1e %s\n",
              (long long)m, (long long)n, (long long)k, tf, flops / tf * 1e-9, tp, 100 * (tf / tp - 1), lf, flops / lf * 1e-9, cp,
              100 * (lf / cp - 1), lf / tf, vs_lt, vs_fp64, ok ? "ok" : "WRONG");
  cudaFree(ref);
  cudaFree(scratch);
  return ok;
}

// One value into an f32 buffer (the scale vectors and blocks).
__global__ void fill_f32(float* p, int64_t n, float v) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x) p[i] = v;
}

// NaN into a bf16 buffer (an unwritten element then fails the check).
__global__ void poison_bf16(bfloat16_t* p, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x)
    p[i] = bfloat16_t(__int_as_float(0x7fc00000));
}

// The FP8 benches' scalars (the scales, the amax values): each on a 256-byte line of its own
// (kScaleLine floats apart), as separate tensors' are (torch's scale tensors each start an
// allocation). Packed 4 bytes apart, every cuBLASLt FP8 call with scale pointers answered
// CUBLAS_STATUS_NOT_SUPPORTED on an H200 (tools/device/cublaslt_fp8_probe.cu's rows).
constexpr int64_t kScaleLine = 64;
// A device buffer of `count` such lines, line i holding values[i] (the rest 0).
float* scale_lines(std::initializer_list<float> values) {
  float* p = nullptr;
  std::vector<float> host(values.size() * kScaleLine, 0.0f);
  for (size_t i = 0; i < values.size(); ++i) host[i * kScaleLine] = values.begin()[i];
  SM90_CUDA(cudaMalloc(&p, host.size() * sizeof(float)));
  SM90_CUDA(cudaMemcpy(p, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice));
  return p;
}

// The FP8 benches' problem: e4m3 A (M, K) row-major and B (K, N) column-major (TN), D row-major
// as torch._scaled_mm writes it (the kernels run D^T: tokens along N), per-tensor scales on
// scale_lines' lines 0 (A) and 1 (B), D in `output`.
kernels::GemmArguments fp8_tn_arguments(int64_t m, int64_t n, int64_t k, const void* a, const void* b, void* d, const float* scales,
                                        kernels::Element output) {
  kernels::GemmArguments g;
  g.m = m, g.n = n, g.k = k;
  g.element = kernels::Element::E4M3;
  g.a = {a, kernels::Major::Row, k, 0};
  g.b = {b, kernels::Major::Col, k, 0};
  g.c = {nullptr, kernels::Major::Row, n, 0};
  g.d = d;
  g.ldd = n;
  g.scale_a = scales;
  g.scale_b = scales + kScaleLine;
  g.epilogue.output = output;
  return g;
}

// cuBLASLt's FP8 GEMM of the same row-major D (m x n) as the column-major D^T = B^T A: its A is
// our B (K x N, transposed), its B our A (K x M), its D (N x M): torch._scaled_mm's call. Per-
// tensor scale pointers (ours: cuBLASLt's A scale is our B's), and for an 8-bit D its scale and
// amax pointers.
// Forms: beta is 0, so C is never read, yet where C points and C's layout take part in whether a
// call runs. With its own C buffer (the first form) every candidate answered "not supported"
// (status 15) at the call on the H200 with the CUDA 13.0 toolkit's cuBLASLt, while
// torch._scaled_mm (C = D, D's layout) ran on the same GPU; cuBLASLt 13 requires a C equal to D
// to have D's layout, and a null C asks nothing of C. tools/device/cublaslt_fp8_probe.cu tries
// these and the other candidate causes one change at a time. The forms are tried in order, each
// with its own heuristic query and its candidates in order (the first alone may answer "not
// supported" at the call); the first that runs is kept and named (`form`, printed on the bench's
// line). None runs: chosen < 0, `refused` the last call's status, `found` the candidates tried.
struct LtFp8Gemm {
  enum class CPtr { Own, Null, D };
  struct Form {
    const char* name;
    CPtr c;
    cudaDataType_t c_type;
  };
  cublasLtHandle_t lt;
  const void *a, *b, *c = nullptr;
  void* d;
  cublasLtMatmulDesc_t op;
  cublasLtMatrixLayout_t la, lb, lc = nullptr, ld;
  cublasLtMatmulPreference_t pref;
  void* ws = nullptr;
  size_t ws_bytes = size_t(32) << 20;
  cublasLtMatmulHeuristicResult_t heur[16] = {};
  int found = 0, chosen = -1;
  const char* form = "none";
  cublasStatus_t refused = CUBLAS_STATUS_NOT_SUPPORTED;

  LtFp8Gemm(cublasLtHandle_t handle, int64_t m, int64_t n, int64_t k, const void* a_, const void* b_, const void* c_own, void* d_,
            cudaDataType_t type_b, cudaDataType_t type_cd, bool fast_accum, const float* scale_a, const float* scale_b,
            const float* scale_d = nullptr, float* amax_d = nullptr)
      : lt(handle), a(a_), b(b_), d(d_) {
    CUBLAS_OK(cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    const cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
    const int8_t fast = fast_accum ? 1 : 0;
    CUBLAS_OK(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta));
    CUBLAS_OK(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb));
    CUBLAS_OK(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fast, sizeof fast));
    CUBLAS_OK(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &scale_b, sizeof scale_b));
    CUBLAS_OK(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, &scale_a, sizeof scale_a));
    if (scale_d) CUBLAS_OK(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_D_SCALE_POINTER, &scale_d, sizeof scale_d));
    if (amax_d) CUBLAS_OK(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_AMAX_D_POINTER, &amax_d, sizeof amax_d));
    CUBLAS_OK(cublasLtMatrixLayoutCreate(&la, type_b, uint64_t(k), uint64_t(n), int64_t(k)));
    CUBLAS_OK(cublasLtMatrixLayoutCreate(&lb, CUDA_R_8F_E4M3, uint64_t(k), uint64_t(m), int64_t(k)));
    CUBLAS_OK(cublasLtMatrixLayoutCreate(&ld, type_cd, uint64_t(n), uint64_t(m), int64_t(n)));
    CUBLAS_OK(cublasLtMatmulPreferenceCreate(&pref));
    SM90_CUDA(cudaMalloc(&ws, ws_bytes));
    CUBLAS_OK(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws_bytes, sizeof ws_bytes));
    // (C 16-bit for an 8-bit D: cuBLASLt's FP8 type table has no C of D's 8-bit type; f16 is torch's)
    const bool d8 = type_cd == CUDA_R_8F_E4M3 || type_cd == CUDA_R_8F_E5M2;
    const std::vector<Form> forms =
        d8 ? std::vector<Form>{{"C own bf16", CPtr::Own, CUDA_R_16BF}, {"C null bf16", CPtr::Null, CUDA_R_16BF},
                               {"C null f16", CPtr::Null, CUDA_R_16F}, {"C = D, f16 layout", CPtr::D, CUDA_R_16F}}
           : std::vector<Form>{{"C own", CPtr::Own, type_cd}, {"C null", CPtr::Null, type_cd}, {"C = D", CPtr::D, type_cd}};
    for (const Form& f : forms) {
      CUBLAS_OK(cublasLtMatrixLayoutCreate(&lc, f.c_type, uint64_t(n), uint64_t(m), int64_t(n)));
      c = f.c == CPtr::Own ? c_own : f.c == CPtr::Null ? nullptr : d;
      // (a form the heuristic refuses outright is the next form's turn, not the bench's end)
      int here = 0;
      if (cublasLtMatmulAlgoGetHeuristic(lt, op, la, lb, lc, ld, pref, 16, heur, &here) != CUBLAS_STATUS_SUCCESS) here = 0;
      found += here;
      for (int i = 0; i < here && chosen < 0; ++i) {
        refused = call(i);
        if (refused == CUBLAS_STATUS_SUCCESS) chosen = i;
      }
      if (chosen >= 0) {
        form = f.name;
        break;
      }
      cublasLtMatrixLayoutDestroy(lc);
      lc = nullptr;
    }
  }
  cublasStatus_t call(int i) const {
    const float one = 1.0f, zero = 0.0f;
    return cublasLtMatmul(lt, op, &one, b, la, a, lb, &zero, c, lc, d, ld, &heur[i].algo, ws, ws_bytes, nullptr);
  }
  void run() const {
    if (chosen >= 0) CUBLAS_OK(call(chosen));
  }
  ~LtFp8Gemm() {
    cublasLtMatmulPreferenceDestroy(pref);
    for (auto l : {la, lb, lc, ld})
      if (l) cublasLtMatrixLayoutDestroy(l);
    cublasLtMatmulDescDestroy(op);
    cudaFree(ws);
  }
  LtFp8Gemm(LtFp8Gemm const&) = delete;
};

// FP8 TN: D (M x N, column-major, bf16) = scale_a scale_b A B, A (M x K) row-major e4m3, B (K x N)
// column-major e4m3 (e5m2: e5m2_b), through tessera::gemm and through cuBLASLt (A stored K x M,
// transposed: its TN form), launched alternately.
// mode: tessera's scale mode (per-tensor, or the same scales as vectors or blocks).
bool bench_fp8(cublasLtHandle_t lt, int64_t m, int64_t n, int64_t k, int reps, bool fast_accum, bool e5m2_b,
               kernels::ScaleMode mode = kernels::ScaleMode::PerTensor) {
  uint8_t *a = nullptr, *b = nullptr;
  bfloat16_t *d = nullptr, *ref = nullptr, *c = nullptr;  // c: cuBLASLt's C (beta = 0), apart from D
  float* scales = nullptr;
  SM90_CUDA(cudaMalloc(&a, size_t(m * k)));
  SM90_CUDA(cudaMalloc(&b, size_t(n * k)));
  SM90_CUDA(cudaMalloc(&d, size_t(m * n) * sizeof(bfloat16_t)));
  SM90_CUDA(cudaMalloc(&ref, size_t(m * n) * sizeof(bfloat16_t)));
  SM90_CUDA(cudaMalloc(&c, size_t(m * n) * sizeof(bfloat16_t)));
  SM90_CUDA(cudaMemset(c, 0, size_t(m * n) * sizeof(bfloat16_t)));
  const uint64_t seed = uint64_t(m * 31 + n * 7 + k + 1);
  kernels::harness::fill_random_fp8(a, nullptr, m * k, seed, false);
  kernels::harness::fill_random_fp8(b, nullptr, n * k, seed + 1, e5m2_b);
  const float host_scales[2] = {0.75f, 1.5f};
  scales = scale_lines({host_scales[0], host_scales[1]});
  poison_bf16<<<1024, 256>>>(d, m * n);
  SM90_CUDA(cudaGetLastError());

  kernels::GemmArguments g = fp8_tn_arguments(m, n, k, a, b, d, scales, kernels::Element::BF16);
  if (e5m2_b) g.element_b = kernels::Element::E5M2;
  // Rowwise or block: every scale of A host_scales[0], of B host_scales[1] (cuBLASLt's per-tensor pair).
  float *vec_a = nullptr, *vec_b = nullptr;
  if (mode != kernels::ScaleMode::PerTensor) {
    const int64_t groups = (k + 127) / 128;
    const int64_t na = mode == kernels::ScaleMode::Block ? (m + 3) / 4 * 4 * groups : m;
    const int64_t nb = mode == kernels::ScaleMode::Block ? (n + 127) / 128 * groups : n;
    SM90_CUDA(cudaMalloc(&vec_a, size_t(na) * sizeof(float)));
    SM90_CUDA(cudaMalloc(&vec_b, size_t(nb) * sizeof(float)));
    fill_f32<<<256, 256>>>(vec_a, na, host_scales[0]);
    fill_f32<<<256, 256>>>(vec_b, nb, host_scales[1]);
    SM90_CUDA(cudaGetLastError());
    g.scale_mode = mode;
    g.scale_a = vec_a;
    g.scale_b = vec_b;
  }
  // --config: the configuration of that name (gemm_tune's path: a Stream-K one declines without a
  // plan that shares k-iterations, and the whole tiles of the rule's schedule run).
  std::optional<kernels::sm90::Sm90Config> forced;
  if (!g_config.empty()) {
    for (const kernels::sm90::Schedule s : kernels::sm90::kSchedules)
      for (const bool sk : {false, true})
        for (const kernels::Major d : {kernels::Major::Col, kernels::Major::Row})  // (e.g. "cooperative 128x128 row-major D")
          if (kernels::sm90::to_string(kernels::sm90::Sm90Config{s, sk, d}) == g_config) forced = kernels::sm90::Sm90Config{s, sk, d};
    if (!forced) {
      std::printf("--config '%s' names no configuration (e.g. 'stream-k cooperative 128x64 no cluster')\n", g_config.c_str());
      return false;
    }
  }
  // The workspace the dispatch asks for (the FP8 Stream-K kernels, where it shares k-iterations).
  void* tws = nullptr;
  if (const size_t bytes = !g_split ? 0 : forced ? kernels::device::sm90_workspace_size(g, *forced) : kernels::device::sm90_workspace_size(g);
      bytes > 0) {
    SM90_CUDA(cudaMalloc(&tws, bytes));
    g.workspace = tws;
    g.workspace_bytes = bytes;
  }
  auto run_mine = [&] { return forced ? kernels::device::run_sm90(g, nullptr, *forced) : kernels::device::run_sm90(g, nullptr); };
  if (const auto r = run_mine(); !r) {
    std::printf("fp8 %lld x %lld x %lld: tessera refuses: %s\n", (long long)m, (long long)n, (long long)k, r.message.c_str());
    return false;
  }
  auto mine = [&] { (void)run_mine(); };
  // (what ran: the forced configuration where its kernel took the problem, else the rule's)
  const std::string ran = forced ? (g.workspace != nullptr || !forced->stream_k ? g_config : std::string("declined: ") + kernels::device::sm90_schedule(g))
                                 : std::string(kernels::device::sm90_schedule(g));

  const LtFp8Gemm blas(lt, m, n, k, a, b, c, ref, e5m2_b ? CUDA_R_8F_E5M2 : CUDA_R_8F_E4M3, CUDA_R_16BF, fast_accum, scales,
                       scales + kScaleLine);
  const int chosen = blas.chosen;
  auto theirs = [&] { blas.run(); };
  SM90_CUDA(cudaDeviceSynchronize());
  const double diff = chosen >= 0 ? sm90_check::relative_difference(d, ref, m * n) : 0.0;
  const bool ok = diff < 1e-2;
  if (chosen < 0)
    std::printf("cuBLASLt: none of %d FP8 algorithms runs %lld x %lld x %lld (status %d): tessera timed alone\n", blas.found,
                (long long)m, (long long)n, (long long)k, int(blas.refused));
  const auto t = sm90_check::time_pairs(mine, theirs, reps, 5, g_lead, g_target_ms, g_cold_l2);
  SM90_CUDA(cudaGetLastError());
  const double flops = 2.0 * double(m) * double(n) * double(k);
  const double tm = sm90_check::median(t.mine), tc = sm90_check::median(t.theirs);
  std::printf("fp8 e4m3 x %s TN -> bf16 row-major %5lld x %5lld x %5lld  tessera %s %8.3f ms %6.1f TFLOP/s (%s)  cuBLASLt%s per-tensor "
              "(%s) %8.3f ms %6.1f TFLOP/s  ratio %.3f  diff vs cuBLASLt %.1e %s\n",
              e5m2_b ? "e5m2" : "e4m3", (long long)m, (long long)n, (long long)k, kernels::to_string(mode), tm, flops / tm * 1e-9,
              ran.c_str(), fast_accum ? " fast-accum" : "", blas.form, tc, flops / tc * 1e-9, tc / tm, diff,
              chosen < 0 ? "unchecked" : ok ? "ok" : "WRONG");
  for (void* p : {(void*)a, (void*)b, (void*)d, (void*)ref, (void*)c, (void*)scales, tws, (void*)vec_a, (void*)vec_b}) cudaFree(p);
  return ok;
}

// --fp8 --out-e4m3: FP8 TN to an e4m3 D (row-major, as torch._scaled_mm with a float8 out_dtype)
// with D's scale and amax: tessera::gemm's quantized-output kernel (scale_d, amax_d; amax reset by
// the library) against cuBLASLt with D CUDA_R_8F_E4M3, C 16-bit or null (beta = 0: LtFp8Gemm's
// forms), D_SCALE_POINTER and AMAX_D_POINTER (each call's own amax: cuBLASLt sets it). Both D's
// decoded and compared (relative norm), and the two amax values.
bool bench_fp8_out(cublasLtHandle_t lt, int64_t m, int64_t n, int64_t k, int reps, bool fast_accum) {
  uint8_t *a = nullptr, *b = nullptr, *d = nullptr, *ref = nullptr;
  bfloat16_t* c = nullptr;
  float* scales = nullptr;  // scale_a, scale_b, scale_d, tessera's amax, cuBLASLt's amax
  SM90_CUDA(cudaMalloc(&a, size_t(m * k)));
  SM90_CUDA(cudaMalloc(&b, size_t(n * k)));
  SM90_CUDA(cudaMalloc(&d, size_t(m * n)));
  SM90_CUDA(cudaMalloc(&ref, size_t(m * n)));
  SM90_CUDA(cudaMalloc(&c, size_t(m * n) * sizeof(bfloat16_t)));
  SM90_CUDA(cudaMemset(c, 0, size_t(m * n) * sizeof(bfloat16_t)));
  SM90_CUDA(cudaMemset(d, 0x7f, size_t(m * n)));  // e4m3's NaN: every element must be written
  const uint64_t seed = uint64_t(m * 31 + n * 7 + k + 1);
  kernels::harness::fill_random_fp8(a, nullptr, m * k, seed, false);
  kernels::harness::fill_random_fp8(b, nullptr, n * k, seed + 1, false);
  // scale_d: D's values (|z| up to a few hundred at these K) into e4m3's range, some saturated
  scales = scale_lines({0.75f, 1.5f, 448.0f / (4.0f * std::sqrt(float(k))), 0.0f, 0.0f});

  kernels::GemmArguments g = fp8_tn_arguments(m, n, k, a, b, d, scales, kernels::Element::E4M3);
  g.scale_d = scales + 2 * kScaleLine;
  g.amax_d = scales + 3 * kScaleLine;
  if (const auto r = kernels::device::run_sm90(g, nullptr); !r) {
    std::printf("fp8 -> e4m3 %lld x %lld x %lld: tessera refuses: %s\n", (long long)m, (long long)n, (long long)k, r.message.c_str());
    return false;
  }
  auto mine = [&] { (void)kernels::device::run_sm90(g, nullptr); };

  // (cuBLASLt's own amax on line 4: each call's, cuBLASLt sets it)
  const LtFp8Gemm blas(lt, m, n, k, a, b, c, ref, CUDA_R_8F_E4M3, CUDA_R_8F_E4M3, fast_accum, scales, scales + kScaleLine,
                       scales + 2 * kScaleLine, scales + 4 * kScaleLine);
  const int chosen = blas.chosen;
  auto theirs = [&] { blas.run(); };
  SM90_CUDA(cudaDeviceSynchronize());
  // Both D's decoded on the host; both amax values
  std::vector<uint8_t> hd(size_t(m * n)), hr(size_t(m * n));
  float amaxes[2] = {0, 0};
  SM90_CUDA(cudaMemcpy(hd.data(), d, hd.size(), cudaMemcpyDeviceToHost));
  SM90_CUDA(cudaMemcpy(hr.data(), ref, hr.size(), cudaMemcpyDeviceToHost));
  SM90_CUDA(cudaMemcpy(&amaxes[0], scales + 3 * kScaleLine, sizeof(float), cudaMemcpyDeviceToHost));
  SM90_CUDA(cudaMemcpy(&amaxes[1], scales + 4 * kScaleLine, sizeof(float), cudaMemcpyDeviceToHost));
  double num = 0, den = 0;
  int64_t unwritten = 0, differ = 0;
  for (size_t i = 0; i < hd.size(); ++i) {
    unwritten += (hd[i] & 0x7f) == 0x7f;
    differ += hd[i] != hr[i];
    const double x = float_e4m3_t::from_bits(hd[i]).to_float(), y = float_e4m3_t::from_bits(hr[i]).to_float();
    num += (x - y) * (x - y), den += y * y;
  }
  const double diff = den > 0 ? std::sqrt(num / den) : std::sqrt(num);
  const double amax_diff = std::fabs(double(amaxes[0]) - double(amaxes[1])) / std::max(1e-30, double(std::fabs(amaxes[1])));
  const bool ok = unwritten == 0 && (chosen < 0 || (diff < 5e-2 && amax_diff < 1e-3));
  if (chosen < 0)
    std::printf("cuBLASLt: none of %d FP8-to-e4m3 algorithms runs %lld x %lld x %lld (status %d): tessera timed alone\n",
                blas.found, (long long)m, (long long)n, (long long)k, int(blas.refused));
  const auto t = sm90_check::time_pairs(mine, theirs, reps, 5, g_lead, g_target_ms, g_cold_l2);
  SM90_CUDA(cudaGetLastError());
  const double flops = 2.0 * double(m) * double(n) * double(k);
  const double tm = sm90_check::median(t.mine), tc = sm90_check::median(t.theirs);
  if (chosen < 0)  // (no anchor: tessera's time and amax alone)
    std::printf("fp8 e4m3 x e4m3 TN -> e4m3 + amax row-major %5lld x %5lld x %5lld  tessera %8.3f ms %6.1f TFLOP/s (%s)  amax %.6g  "
                "%lld elements unwritten\n",
                (long long)m, (long long)n, (long long)k, tm, flops / tm * 1e-9, kernels::device::sm90_schedule(g), double(amaxes[0]),
                (long long)unwritten);
  else
    std::printf("fp8 e4m3 x e4m3 TN -> e4m3 + amax row-major %5lld x %5lld x %5lld  tessera %8.3f ms %6.1f TFLOP/s (%s)  cuBLASLt%s "
                "(%s) %8.3f ms %6.1f TFLOP/s  ratio %.3f  D diff %.1e (%lld bytes differ) amax %.6g vs %.6g  %s\n",
                (long long)m, (long long)n, (long long)k, tm, flops / tm * 1e-9, kernels::device::sm90_schedule(g),
                fast_accum ? " fast-accum" : "", blas.form, tc, flops / tc * 1e-9, tc / tm, diff, (long long)differ, double(amaxes[0]),
                double(amaxes[1]), ok ? "ok" : "WRONG");
  for (void* p : {(void*)a, (void*)b, (void*)d, (void*)ref, (void*)c, (void*)scales}) cudaFree(p);
  return ok;
}


// --grouped's tokens per expert: T each, or (skew) a quarter of the experts without tokens, expert
// 0 a third of all, the rest evenly; the same total either way.
std::vector<int> grouped_counts(int64_t experts, int64_t tokens_per, bool skew) {
  const int64_t total = experts * tokens_per;
  std::vector<int> counts(static_cast<size_t>(experts), static_cast<int>(tokens_per));
  if (skew) {
    int64_t left = total - total / 3, takers = 0;
    for (int64_t e = 1; e < experts; ++e) takers += e % 4 != 3;
    counts[0] = int(total / 3);
    for (int64_t e = 1; e < experts; ++e) {
      counts[size_t(e)] = e % 4 == 3 || takers == 0 ? 0 : int(left / takers);
    }
    int64_t sum = 0;
    for (int c : counts) sum += c;
    counts[0] += int(total - sum);  // the division's remainder
  }
  return counts;
}

// The relative difference ||x - y|| / ||y|| of two bf16 device arrays of n elements.
double bf16_difference(const bfloat16_t* x, const bfloat16_t* y, int64_t n) {
  std::vector<bfloat16_t> h1(static_cast<size_t>(n)), h2(h1.size());
  SM90_CUDA(cudaMemcpy(h1.data(), x, h1.size() * sizeof(bfloat16_t), cudaMemcpyDeviceToHost));
  SM90_CUDA(cudaMemcpy(h2.data(), y, h2.size() * sizeof(bfloat16_t), cudaMemcpyDeviceToHost));
  double num = 0, den = 0;
  for (size_t i = 0; i < h1.size(); ++i) {
    const double a = double(float(h1[i])), b = double(float(h2[i]));
    num += (a - b) * (a - b), den += b * b;
  }
  return den > 0 ? std::sqrt(num / den) : std::sqrt(num);
}

// --grouped: one MoE expert layer, E experts, T tokens per expert on average (grouped_counts),
// through tessera::gemm_grouped (the contiguous form) against a loop of tessera::gemm over the
// experts with tokens. --epilogue ACT: the fused epilogue act(x W_e^T + bias_e) (bias (E, N)),
// timed against the plain grouped kernel (the same call without activation and bias, alternating:
// the fused epilogue's cost) and against the loop of tessera::gemm with the same epilogue.
bool bench_grouped(int64_t experts, int64_t tokens_per, int64_t k, int64_t n, bool skew, int reps,
                   std::optional<kernels::Activation> epilogue) {
  const int64_t total = experts * tokens_per;
  const std::vector<int> counts = grouped_counts(experts, tokens_per, skew);
  std::vector<int32_t> offs(static_cast<size_t>(experts));
  int64_t run = 0;
  for (int64_t e = 0; e < experts; ++e) offs[size_t(e)] = int32_t(run += counts[size_t(e)]);
  bfloat16_t *a = nullptr, *b = nullptr, *d = nullptr, *d_loop = nullptr, *bias = nullptr, *d_fused = nullptr;
  int32_t* d_offs = nullptr;
  SM90_CUDA(cudaMalloc(&a, size_t(total * k) * sizeof(bfloat16_t)));
  SM90_CUDA(cudaMalloc(&b, size_t(experts * n * k) * sizeof(bfloat16_t)));
  SM90_CUDA(cudaMalloc(&d, size_t(total * n) * sizeof(bfloat16_t)));
  SM90_CUDA(cudaMalloc(&d_loop, size_t(total * n) * sizeof(bfloat16_t)));
  SM90_CUDA(cudaMalloc(&d_offs, size_t(experts) * sizeof(int32_t)));
  SM90_CUDA(cudaMemcpy(d_offs, offs.data(), offs.size() * sizeof(int32_t), cudaMemcpyHostToDevice));
  kernels::harness::fill_random(a, total * k, 11);
  kernels::harness::fill_random(b, experts * n * k, 12);
  if (epilogue) {
    SM90_CUDA(cudaMalloc(&bias, size_t(experts * n) * sizeof(bfloat16_t)));
    SM90_CUDA(cudaMalloc(&d_fused, size_t(total * n) * sizeof(bfloat16_t)));
    kernels::harness::fill_random(bias, experts * n, 13);
  }
  kernels::GemmGroupedArguments g;
  g.groups = experts;
  g.element = kernels::Element::BF16;
  g.b_major = kernels::Major::Col;  // weights (E, N, K)
  g.form = kernels::GroupedForm::Contiguous;
  g.contiguous.tokens = total, g.contiguous.n = n, g.contiguous.k = k;
  g.contiguous.offs = d_offs, g.contiguous.a = a, g.contiguous.b = b, g.contiguous.d = d;
  g.workspace_bytes = kernels::gemm_grouped_workspace_size(g);
  SM90_CUDA(cudaMalloc(&g.workspace, g.workspace_bytes));
  std::vector<kernels::GemmArguments> loop;
  for (int64_t e = 0, begin = 0; e < experts; begin += counts[size_t(e)], ++e) {
    if (counts[size_t(e)] == 0) continue;
    kernels::GemmArguments x;
    x.m = counts[size_t(e)], x.n = n, x.k = k;
    x.element = kernels::Element::BF16;
    x.a = {a + begin * k, kernels::Major::Row, k, 0};
    x.b = {b + e * n * k, kernels::Major::Col, k, 0};
    x.c = {nullptr, kernels::Major::Row, n, 0};
    x.d = d_loop + begin * n;
    x.ldd = n;
    if (epilogue) {
      x.epilogue.activation = *epilogue;
      x.epilogue.bias = kernels::Bias::PerColumn;
      x.epilogue.bias_ptr = bias + e * n;
    }
    loop.push_back(x);
  }
  // The fused call: the plain call's operands, its own D.
  kernels::GemmGroupedArguments f = g;
  if (epilogue) {
    f.activation = *epilogue;
    f.bias = kernels::Bias::PerColumn;
    f.contiguous.bias = bias;
    f.contiguous.d = d_fused;
  }
  kernels::GemmResult r = kernels::gemm_grouped(g);
  if (r && epilogue) r = kernels::gemm_grouped(f);
  for (auto const& x : loop)
    if (r) r = kernels::gemm(x);
  SM90_CUDA(cudaDeviceSynchronize());
  bool ok = bool(r);
  double diff = 0;
  if (ok) {
    // (the loop's D: the fused epilogue's where one is asked for)
    diff = bf16_difference(epilogue ? d_fused : d, d_loop, total * n);
    ok = diff < 5e-3 && std::isfinite(diff);  // (the same k order: last-bit differences at most)
  }
  if (ok && epilogue) {
    // The fused epilogue's cost: fused and plain grouped calls alternating, then the fused call
    // against the loop of tessera::gemm with the same epilogue.
    const auto fp = sm90_check::time_pairs([&] { kernels::gemm_grouped(f); }, [&] { kernels::gemm_grouped(g); }, reps, 5, g_lead);
    const auto fl = sm90_check::time_pairs([&] { kernels::gemm_grouped(f); },
                                           [&] {
                                             for (auto const& x : loop) kernels::gemm(x);
                                           },
                                           reps, 5, g_lead);
    const double t_fused = median(fp.mine), t_plain = median(fp.theirs), t_fused2 = median(fl.mine), t_loop = median(fl.theirs);
    const double flops = 2.0 * double(total) * double(n) * double(k);
    std::printf("grouped %-7s E=%-4lld T/E=%-5lld K=%-5lld N=%-6lld epilogue %-9s+bias  fused %8.3f ms %7.1f TFLOP/s  plain %8.3f ms  "
                "fused/plain %.3f  loop of %zu fused gemm %8.3f ms  loop/fused %.2f  D vs loop %.1e\n",
                skew ? "skewed" : "uniform", (long long)experts, (long long)tokens_per, (long long)k, (long long)n,
                kernels::to_string(*epilogue), t_fused, t_fused > 0 ? flops / t_fused * 1e-9 : 0.0, t_plain,
                t_plain > 0 ? t_fused / t_plain : 0.0, loop.size(), t_loop, t_fused2 > 0 ? t_loop / t_fused2 : 0.0, diff);
    for (void* p : {(void*)a, (void*)b, (void*)d, (void*)d_loop, (void*)d_offs, g.workspace, (void*)bias, (void*)d_fused})
      SM90_CUDA(cudaFree(p));
    return ok;
  }
  double t_grouped = 0, t_loop = 0;
  if (ok) {
    const auto t = sm90_check::time_pairs([&] { kernels::gemm_grouped(g); },
                                          [&] {
                                            for (auto const& x : loop) kernels::gemm(x);
                                          },
                                          reps, 5, g_lead);
    t_grouped = median(t.mine), t_loop = median(t.theirs);
  }
  const double flops = 2.0 * double(total) * double(n) * double(k);
  int empty = 0;
  for (int c : counts) empty += c == 0;
  std::printf("grouped %-7s E=%-4lld T/E=%-5lld K=%-5lld N=%-6lld (empty %d, largest %d)  gemm_grouped %8.3f ms %7.1f TFLOP/s  "
              "loop of %zu gemm %8.3f ms %7.1f TFLOP/s  ratio %.2f  D vs loop %.1e%s%s\n",
              skew ? "skewed" : "uniform", (long long)experts, (long long)tokens_per, (long long)k, (long long)n, empty,
              *std::max_element(counts.begin(), counts.end()), t_grouped, t_grouped > 0 ? flops / t_grouped * 1e-9 : 0.0, loop.size(), t_loop,
              t_loop > 0 ? flops / t_loop * 1e-9 : 0.0, t_grouped > 0 ? t_loop / t_grouped : 0.0, diff, r ? "" : "  status: ",
              r ? "" : r.message.c_str());
  if (!ok && epilogue)
    std::printf("grouped E=%lld T/E=%lld K=%lld N=%lld epilogue %s+bias: FAILED  D vs loop %.1e%s%s\n", (long long)experts,
                (long long)tokens_per, (long long)k, (long long)n, kernels::to_string(*epilogue), diff, r ? "" : "  status: ",
                r ? "" : r.message.c_str());
  for (void* p : {(void*)a, (void*)b, (void*)d, (void*)d_loop, (void*)d_offs, g.workspace, (void*)bias, (void*)d_fused}) SM90_CUDA(cudaFree(p));
  return ok;
}

// The suite: the layers of inference models, Y (tokens x out) = X (tokens x in) W^T with X and W
// row-major (K-major) and Y row-major, as torch.nn.functional.linear runs them, at token counts
// from decode to prefill; then the shapes the GEMM issue names (D column-major, as the default
// table). Y row-major is D^T column-major: bench(out, tokens, in).
struct SuiteLayer {
  const char* name;
  int64_t out, in;
};
constexpr SuiteLayer kSuiteLayers[] = {
    {"llama3-8b.qkv", 6144, 4096},     // 32 query heads + 2 x 8 kv heads of 128
    {"llama3-8b.down", 4096, 14336},   // also mixtral-8x7b's expert w2
    {"mixtral.w1", 14336, 4096},       // also llama3-8b's gate / up projection
    {"llama3-70b.qkv", 10240, 8192},   // 64 query heads + 2 x 8 kv heads of 128
};
constexpr int64_t kSuiteTokens[] = {64, 128, 256, 512, 1024, 2048, 4096, 8192};
constexpr int64_t kSuiteIssueShapes[][3] = {{8192, 8192, 8192}, {4096, 11008, 4096}, {4096, 4096, 4096}, {8192, 8192, 1024},
                                            {3072, 3072, 3072}, {1000, 1000, 1000},  {512, 4096, 14336}, {128, 8192, 8192}};

double geometric_mean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += std::log(x);
  return v.empty() ? 0.0 : std::exp(s / double(v.size()));
}

// --tune-probe M N K (bf16 TN, D column-major as the suite's rows run): gemm_tune's timing and
// the pairs' side by side in one process, on the configurations gemm_tune times (the kernel list's,
// Stream-K ones only where their plan shares k-iterations; one workspace, the largest any asks
// for, as gemm_tune gives). Rounds as gemm_tune times them (sm90_check::time_rounds: each launch
// after the lead-in, between its own events), four ways:
//   rotated     gemm_tune's former order (timing::round_robin: each behind the same neighbour)
//   balanced    gemm_tune's order (timing::balanced_order: behind every other equally often)
//   self        rotated, each timed launch after an untimed one of itself (no neighbour's L2)
//   cold        balanced, the L2 flushed before each timed launch (outside its events)
// then the rule's configuration against the rotated rounds' fastest other (or second fastest)
// in the bench's pairs, warm and cold L2 (the pairs' medians also split by position: first in a
// pair, right after the lead-in, or second, right after the other GEMM).
bool bench_tune_probe(int64_t m, int64_t n, int64_t k, int reps) {
  namespace s9 = kernels::sm90;
  namespace timing = kernels::timing;
  sm90_check::Problem<bfloat16_t> p(m, n, k, 1, false, 1.0f, 0.0f, uint64_t(m * 31 + n * 7 + k), "TN");
  cudaDeviceProp prop{};
  SM90_CUDA(cudaGetDeviceProperties(&prop, 0));
  kernels::GemmArguments g = p.args;
  const std::vector<s9::Sm90Config> all = s9::built_configs(g);
  size_t ws_bytes = 0;
  for (const auto& c : all) ws_bytes = std::max(ws_bytes, kernels::device::sm90_workspace_size(g, c));
  void* ws = nullptr;
  if (ws_bytes > 0) SM90_CUDA(cudaMalloc(&ws, ws_bytes));
  g.workspace = ws;
  g.workspace_bytes = ws_bytes;
  std::vector<s9::Sm90Config> cs;
  for (const auto& c : all)
    if (!c.stream_k || kernels::device::sm90_workspace_size(g, c) > 0) cs.push_back(c);
  if (cs.size() < 2) {
    std::printf("tune-probe %lld x %lld x %lld: fewer than two configurations to compare\n", (long long)m, (long long)n, (long long)k);
    cudaFree(ws);
    return false;
  }
  std::vector<std::function<void()>> ks;
  for (const auto& c : cs)
    ks.push_back([&g, c] {
      if (auto r = kernels::device::run_sm90(g, nullptr, c); !r) {
        std::printf("run %s: %s\n", s9::to_string(c).c_str(), r.message.c_str());
        std::exit(1);
      }
    });
  const auto sk = s9::choose_config_stream_k(p.args, prop.multiProcessorCount);
  s9::Sm90Config rule_config = sk ? *sk : s9::choose_config(p.args, prop.multiProcessorCount);
  if (rule_config.stream_k && kernels::device::sm90_workspace_size(g, rule_config) == 0) rule_config.stream_k = false;
  const auto rule_it = std::find(cs.begin(), cs.end(), rule_config);
  if (rule_it == cs.end()) {
    std::printf("tune-probe: the rule's %s is not among the timed configurations\n", s9::to_string(rule_config).c_str());
    cudaFree(ws);
    return false;
  }
  const std::size_t rule = std::size_t(rule_it - cs.begin());
  // rounds: enough for g_target_ms of each configuration (one round's mean launch as the estimate)
  const auto first = sm90_check::time_rounds(ks, timing::round_robin, 1, false, false);
  double est = 0;
  for (const auto& v : first) est += v[0] / double(cs.size());
  const int rounds = timing::whole_periods(timing::rounds_for(est, g_target_ms, reps), cs.size());
  struct Way {
    const char* name;
    std::size_t (*order)(std::size_t, long long, std::size_t);
    bool self, cold;
    std::vector<std::vector<double>> ms;
  };
  std::vector<Way> ways = {{"rotated", timing::round_robin, false, false, {}},
                           {"balanced", timing::balanced_order, false, false, {}},
                           {"self", timing::round_robin, true, false, {}},
                           {"cold", timing::balanced_order, false, true, {}}};
  for (auto& w : ways) w.ms = sm90_check::time_rounds(ks, w.order, rounds, w.self, w.cold);
  std::printf("tune-probe bf16 TN %lld x %lld x %lld: %zu configurations, %d rounds each way; median [q1 q3] us\n", (long long)m,
              (long long)n, (long long)k, cs.size(), rounds);
  for (std::size_t i = 0; i < cs.size(); ++i) {
    std::printf("  %-44s", (s9::to_string(cs[i]) + (i == rule ? " (rule)" : "")).c_str());
    for (const auto& w : ways) {
      const timing::Spread s = timing::spread_of(w.ms[i]);
      std::printf("  %s %6.1f [%6.1f %6.1f]", w.name, 1e3 * s.median, 1e3 * s.q1, 1e3 * s.q3);
    }
    std::printf("\n");
  }
  for (const auto& w : ways) {
    const timing::TuneChoice c = timing::choose_with_margin(w.ms, rule);
    std::printf("  %-8s fastest %s, chosen %s\n", w.name, s9::to_string(cs[c.fastest]).c_str(), s9::to_string(cs[c.index]).c_str());
  }
  // the rule against the rotated rounds' fastest other configuration, in pairs
  std::size_t other = rule == 0 ? 1 : 0;
  for (std::size_t i = 0; i < cs.size(); ++i)
    if (i != rule && timing::quantile(ways[0].ms[i], 0.5) < timing::quantile(ways[0].ms[other], 0.5)) other = i;
  for (const bool cold : {false, true}) {
    const auto t = sm90_check::time_pairs(ks[rule], ks[other], reps, 5, g_lead, g_target_ms, cold);
    std::vector<float> rule_first, rule_second, other_first, other_second;  // (even pairs: the rule's first)
    for (std::size_t i = 0; i < t.mine.size(); ++i) {
      (i % 2 == 0 ? rule_first : rule_second).push_back(t.mine[i]);
      (i % 2 == 0 ? other_second : other_first).push_back(t.theirs[i]);
    }
    std::printf("  pairs %s L2 (%zu): rule %s %.1f us (first %.1f, second %.1f), %s %.1f us (first %.1f, second %.1f), other / rule %.3f\n",
                cold ? "cold" : "warm", t.mine.size(), s9::to_string(cs[rule]).c_str(), 1e3 * median(t.mine), 1e3 * median(rule_first),
                1e3 * median(rule_second), s9::to_string(cs[other]).c_str(), 1e3 * median(t.theirs), 1e3 * median(other_first),
                1e3 * median(other_second), median(t.theirs) / median(t.mine));
  }
  cudaFree(ws);
  return true;
}

// Runs the suite (bf16 TN), prints each line as bench() does and a summary against the issue's
// bars, and writes a CSV (name,tokens_or_m,out_or_n,in_or_k,ratio,tflops,tflops_cublas,schedule,
// ratio_tuned,schedule_tuned, then the spreads: ratio_lo,ratio_hi,ratio_tuned_lo,ratio_tuned_hi
// and the pairs timed) that bench/suite_chart.py draws.
bool bench_suite(cublasHandle_t h, int reps, const std::string& csv_path, bool tuned, bool decode_only) {
  struct Row {
    std::string name;
    int64_t m, n, k;  // as named: tokens x out x in for layers, M x N x K for the issue's shapes
    bool small;       // fewer than 512 rows of output (tokens, or M)
    Measured r, t;    // the rule's choice; gemm_tune's (with --tuned)
  };
  // Each shape as the rule picks, then (--tuned) after gemm_tune, whose choice the dispatch
  // takes from then on in this process.
  auto measure = [&](Row& row, int64_t m, int64_t n, int64_t k) {
    bool ok = bench<bfloat16_t>(h, m, n, k, reps, "TN", &row.r);
    if (tuned) {
      std::printf("    ");
      g_tune = true;
      ok &= bench<bfloat16_t>(h, m, n, k, reps, "TN", &row.t);
      g_tune = false;
    }
    return ok;
  };
  std::vector<Row> rows;
  bool ok = true;
  std::printf("suite timing: at least %d pairs and %.0f ms of each side's kernels per row, %s L2, ratio [lowest highest] of %d runs "
              "of pairs\n", reps, g_target_ms, g_cold_l2 ? "cold" : "warm", kSpreadRounds);
  for (const SuiteLayer& l : kSuiteLayers)
    for (const int64_t t : kSuiteTokens) {
      if (decode_only && t >= 512) continue;
      Row row{l.name, t, l.out, l.in, t < 512, {}, {}};
      std::printf("[%s tokens %lld] ", l.name, (long long)t);
      ok &= measure(row, l.out, t, l.in);
      rows.push_back(row);
    }
  for (const auto& s : kSuiteIssueShapes) {
    if (decode_only && s[0] >= 512) continue;
    Row row{"issue", s[0], s[1], s[2], s[0] < 512, {}, {}};
    std::printf("[issue shape] ");
    ok &= measure(row, s[0], s[1], s[2]);
    rows.push_back(row);
  }
  auto summary = [&](const char* what, Measured Row::*which) {
    std::vector<double> all;
    double min_large = 1e9, min_small = 1e9, widest = 0;
    std::string widest_at;
    for (const Row& r : rows) {
      const double x = (r.*which).ratio;
      all.push_back(x);
      if (const double w = (r.*which).ratio_hi - (r.*which).ratio_lo; w > widest)
        widest = w, widest_at = r.name + " " + std::to_string(r.m) + "x" + std::to_string(r.n) + "x" + std::to_string(r.k);
      double& lowest = r.small ? min_small : min_large;
      lowest = std::min(lowest, x);
    }
    // (--decode: no row with 512 rows or more; its lowest is reported as 0)
    if (min_large > 1e8) min_large = 0;
    std::printf("suite (%s): %zu shapes, geometric mean of cuBLAS time / tessera time %.3f (bar 0.97), lowest with >= 512 rows "
                "%.3f (bar 0.92), lowest with < 512 rows %.3f (bar 0.85)\n",
                what, rows.size(), geometric_mean(all), min_large, min_small);
    std::printf("suite (%s): widest spread of a row's ratio over %d runs of pairs %.3f (%s)\n", what, kSpreadRounds, widest,
                widest_at.c_str());
  };
  if (g_launch_once) return ok;  // (nothing timed: no ratios to summarise)
  summary("rule", &Row::r);
  if (tuned) summary("tuned", &Row::t);
  if (!csv_path.empty()) {
    FILE* f = std::fopen(csv_path.c_str(), "w");
    if (!f) {
      std::printf("error: cannot write %s\n", csv_path.c_str());
      return false;
    }
    // (new columns go last: readers of the first ten keep working)
    std::fprintf(f, "name,m,n,k,ratio,tflops,tflops_cublas,schedule,ratio_tuned,schedule_tuned,ratio_lo,ratio_hi,ratio_tuned_lo,"
                    "ratio_tuned_hi,pairs,pairs_tuned\n");
    for (const Row& r : rows) {
      std::fprintf(f, "%s,%lld,%lld,%lld,%.4f,%.1f,%.1f,%s,", r.name.c_str(), (long long)r.m, (long long)r.n, (long long)r.k, r.r.ratio,
                   r.r.tflops, r.r.tflops_cublas, r.r.schedule.c_str());
      if (tuned) std::fprintf(f, "%.4f,%s,", r.t.ratio, r.t.schedule.c_str());
      else std::fprintf(f, ",,");
      std::fprintf(f, "%.4f,%.4f,", r.r.ratio_lo, r.r.ratio_hi);
      if (tuned) std::fprintf(f, "%.4f,%.4f,%d,%d\n", r.t.ratio_lo, r.t.ratio_hi, r.r.pairs, r.t.pairs);
      else std::fprintf(f, ",,%d,\n", r.r.pairs);
    }
    std::fclose(f);
  }
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  int reps = 30;
  bool out_e4m3 = false;
  bool f16 = false, tf32 = false, cluster1 = false, fused = false, fp8 = false, fast_accum = false, e5m2_b = false, grouped = false,
       skew = false, suite = false, tuned = false, decode = false, tune_probe = false;
  std::string layout = "TN", csv;
  std::optional<kernels::Activation> epilogue;  // --grouped --epilogue ACT
  kernels::ScaleMode scale_mode = kernels::ScaleMode::PerTensor;
  std::vector<int64_t> dims;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--reps" && i + 1 < argc) reps = std::atoi(argv[++i]);
    else if (a == "--f16") f16 = true;
    else if (a == "--tf32") tf32 = true;
    else if (a == "--cluster1") cluster1 = true;
    else if (a == "--fused") fused = true;
    else if (a == "--fp8") fp8 = true;
    else if (a == "--grouped") grouped = true;
    else if (a == "--skew") skew = true;
    else if (a == "--epilogue" && i + 1 < argc) {
      const std::string v = argv[++i];
      using A = kernels::Activation;
      for (A act : {A::Identity, A::ReLU, A::GELU, A::GELUTanh, A::SiLU})
        if (v == kernels::to_string(act)) epilogue = act;
      if (!epilogue) {
        std::printf("error: --epilogue takes identity, relu, gelu, gelu_tanh or silu (with a bias: act(x W^T + b))\n");
        return 1;
      }
    }
    else if (a == "--suite") suite = true;
    else if (a == "--decode") suite = decode = true;
    else if (a == "--tuned") tuned = true;
    else if (a == "--tune-probe") tune_probe = true;
    else if (a == "--csv" && i + 1 < argc) csv = argv[++i];
    else if (a == "--fast-accum") fast_accum = true;
    else if (a == "--out-e4m3") out_e4m3 = true;
    else if (a == "--e5m2-b") e5m2_b = true;
    else if (a == "--layout" && i + 1 < argc) layout = argv[++i];
    else if (a == "--scales" && i + 1 < argc) {
      const std::string v = argv[++i];
      if (v == "rowwise") scale_mode = kernels::ScaleMode::Rowwise;
      else if (v == "block") scale_mode = kernels::ScaleMode::Block;
      else if (v != "tensor") {
        std::printf("error: --scales takes tensor, rowwise or block\n");
        return 1;
      }
    }
    else if (a == "--group" && i + 1 < argc) g_group = std::atoi(argv[++i]);
    else if (a == "--no-split") g_split = false;
    else if (a == "--config" && i + 1 < argc) {
      g_config = argv[++i];
      std::replace(g_config.begin(), g_config.end(), '_', ' ');  // (underscores for spaces: one shell word)
    }
    else if (a == "--no-lead") g_lead = false;
    else if (a == "--launch-once") g_launch_once = true;
    else if (a == "--cold-l2") g_cold_l2 = true;
    else if (a == "--target-ms" && i + 1 < argc) {
      char* end = nullptr;
      g_target_ms = std::strtod(argv[++i], &end);
      if (end == argv[i] || *end != '\0' || !(g_target_ms >= 0) || !std::isfinite(g_target_ms)) {
        std::printf("error: --target-ms takes a number of milliseconds >= 0 (got '%s')\n", argv[i]);
        return 1;
      }
    }
    else if (a == "--beta" && i + 1 < argc) g_beta = float(std::atof(argv[++i]));
#if defined(TESSERA_SM90_BENCH_VARIANTS)
    else if (a == "--schedule" && i + 1 < argc) g_schedule = argv[++i];
#endif
    else if (a == "--mode-boxes") g_divided = false;
    else dims.push_back(std::atoll(argv[i]));
  }
  if (reps < 1) {
    std::printf("error: --reps takes a number of pairs >= 1\n");
    return 1;
  }
  if (layout.size() != 2 || (layout[0] != 'T' && layout[0] != 'N') || (layout[1] != 'T' && layout[1] != 'N')) {
    std::printf("error: --layout takes TN, NT, NN or TT\n");
    return 1;
  }
  if (tf32 && (f16 || layout != "TN")) {
    std::printf("error: --tf32 runs f32 inputs, TN only (tf32 wgmma reads K-major operands)\n");
    return 1;
  }
  if (epilogue && !grouped) {
    std::printf("error: --epilogue goes with --grouped (tessera::gemm's fused epilogue: --fused)\n");
    return 1;
  }
  if (grouped) {
    if (dims.empty()) dims = {8, 2048, 4096, 14336, 64, 512, 2048, 1536, 128, 512, 2048, 1536};
    if (dims.size() % 4 != 0) {
      std::printf("error: --grouped shapes come as E T K N quadruples (experts, tokens per expert, K, N)\n");
      return 1;
    }
    cudaDeviceProp prop{};
    SM90_CUDA(cudaGetDeviceProperties(&prop, 0));
    std::printf("device: %s, %d SMs\n", prop.name, prop.multiProcessorCount);
    bool ok = true;
    for (size_t i = 0; i < dims.size(); i += 4) ok &= bench_grouped(dims[i], dims[i + 1], dims[i + 2], dims[i + 3], skew, reps, epilogue);
    return ok ? 0 : 1;
  }
  if (suite && (f16 || tf32 || fp8 || fused || cluster1 || layout != "TN" || !dims.empty())) {
    std::printf("error: --suite runs its own shapes, bf16 TN (only --reps, --target-ms, --cold-l2, --csv, --tuned, --no-split and --no-lead apply)\n");
    return 1;
  }
  if (dims.empty() && tf32) dims = {8192, 8192, 8192, 4096, 4096, 4096};
  if (dims.empty() && fp8)
    dims = {8192, 8192, 8192, 4096, 7168, 16384, 320, 32576, 7168, 512, 4096, 14336, 128, 7168, 16384, 64, 7168, 16384};
  if (scale_mode != kernels::ScaleMode::PerTensor && (!fp8 || (scale_mode == kernels::ScaleMode::Block && e5m2_b))) {
    std::printf("error: --scales goes with --fp8 (block: e4m3 x e4m3)\n");
    return 1;
  }
  if (out_e4m3 && (!fp8 || e5m2_b || scale_mode != kernels::ScaleMode::PerTensor)) {
    std::printf("error: --out-e4m3 goes with --fp8 (e4m3 x e4m3, per-tensor scales)\n");
    return 1;
  }
  if (fp8 && (f16 || tf32 || fused || layout != "TN")) {
    std::printf("error: --fp8 runs e4m3 (x e5m2) inputs, TN only (8-bit wgmma reads K-major operands)\n");
    return 1;
  }
  if (dims.empty() && !suite) dims = {8192, 8192, 8192, 4096, 11008, 4096, 4096, 4096, 4096, 8192, 8192, 1024, 1000, 1000, 1000};
  if (dims.size() % 3 != 0) {
    std::printf("error: shapes come as M N K triples\n");
    return 1;
  }
  cudaDeviceProp prop{};
  SM90_CUDA(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s, %d SMs\n", prop.name, prop.multiProcessorCount);
  cublasHandle_t h;
  CUBLAS_OK(cublasCreate(&h));
  bool ok = true;
  if (suite) {
    ok = bench_suite(h, reps, csv, tuned, decode);
    cublasDestroy(h);
    return ok ? 0 : 1;
  }
  if (tune_probe) {
    if (f16 || tf32 || fp8 || fused || layout != "TN") {
      std::printf("error: --tune-probe runs bf16 TN\n");
      return 1;
    }
    for (size_t i = 0; i < dims.size(); i += 3) ok &= bench_tune_probe(dims[i], dims[i + 1], dims[i + 2], reps);
    cublasDestroy(h);
    return ok ? 0 : 1;
  }
  if (fp8) {
    cublasLtHandle_t lt;
    CUBLAS_OK(cublasLtCreate(&lt));
    for (size_t i = 0; i < dims.size(); i += 3)
      ok &= out_e4m3 ? bench_fp8_out(lt, dims[i], dims[i + 1], dims[i + 2], reps, fast_accum)
                     : bench_fp8(lt, dims[i], dims[i + 1], dims[i + 2], reps, fast_accum, e5m2_b, scale_mode);
    cublasLtDestroy(lt);
    cublasDestroy(h);
    return ok ? 0 : 1;
  }
  if (fused) {
    cublasLtHandle_t lt;
    CUBLAS_OK(cublasLtCreate(&lt));
    for (size_t i = 0; i < dims.size(); i += 3) ok &= bench_fused(h, lt, dims[i], dims[i + 1], dims[i + 2], reps);
    cublasLtDestroy(lt);
    cublasDestroy(h);
    return ok ? 0 : 1;
  }
  g_tune = tuned;  // (each shape: gemm_tune's timing of every built configuration, then its choice)
  for (size_t i = 0; i < dims.size(); i += 3) {
    const int64_t m = dims[i], n = dims[i + 1], k = dims[i + 2];
#if defined(TESSERA_SM90_BENCH_VARIANTS)
    if (cluster1 && layout != "TN" && (layout != "NT" || f16 || tf32)) {
      std::printf("error: --cluster1 runs TN, and NT in bf16\n");
      return 1;
    }
    if (cluster1) ok &= tf32  ? bench<float, 1>(h, m, n, k, reps, "TN")
                        : f16 ? bench<half_t, 1>(h, m, n, k, reps, "TN")
                              : bench<bfloat16_t, 1>(h, m, n, k, reps, layout.c_str());
    else
#else
    if (cluster1) {
      std::printf("error: --cluster1 needs a build with -DTESSERA_SM90_BENCH_VARIANTS\n");
      return 1;
    }
#endif
    ok &= tf32  ? bench<float>(h, m, n, k, reps, layout.c_str())
          : f16 ? bench<half_t>(h, m, n, k, reps, layout.c_str())
                : bench<bfloat16_t>(h, m, n, k, reps, layout.c_str());
  }
  cublasDestroy(h);
  return ok ? 0 : 1;
}
