// A/B probe of the SM90 whole-tile kernel templates (128x256 cooperative, clusters of 2) for
// one tree: the same source compiles against two trees (main and a branch) so that one device
// call measures both (tools/device/run_sm90_nt_probe.sh). It needs only the kernel templates
// (kernels/device/sm90_gemm.cuh) and cuBLAS, not the library's instances: a build of a few
// minutes instead of the whole SM90 library.
//   sm90_nt_probe [--reps N] [--check] [--mode-boxes] [M N K ...]
//   default shapes 8192^3, 4096^3, 4096x11008x4096: bf16 TN, NT, NN, TT and tf32 TN at 8192^3,
//   each against cuBLAS (alternating, each timed with CUDA events after a lead-in kernel,
//   medians), checked against cuBLAS (relative Frobenius norm) and fp64 on sampled elements.
//   --check: small shapes instead (residues in M, N, K; M, N multiples of 64 but not of the
//   tile; batches), correctness only (compute-sanitizer runs this).
//   --mode-boxes: the branch's per-mode TMA dims for MN-major operands (ignored on main).
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
#include "../../tests/hopper/sm90_gemm_check.hpp"

using namespace tessera;
namespace s9 = tessera::kernels::sm90;

namespace {
bool g_divided = true;

__global__ void lead_in(long long ns) {
  const long long t0 = clock64();
  while (clock64() - t0 < ns) {}
}

template <class T>
__global__ void diff_norms(const T* x, const T* ref, int64_t n, double* acc) {
  double d = 0, r = 0;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x) {
    const double a = sm90_check::to_double(x[i]), b = sm90_check::to_double(ref[i]);
    d += a != a ? 1e30 : (a - b) * (a - b);
    r += b * b;
  }
  atomicAdd(&acc[0], d);
  atomicAdd(&acc[1], r);
}

template <class T>
double relative_difference(const T* x, const T* ref, int64_t n) {
  double* acc = nullptr;
  SM90_CUDA(cudaMalloc(&acc, 2 * sizeof(double)));
  SM90_CUDA(cudaMemset(acc, 0, 2 * sizeof(double)));
  diff_norms<<<1024, 256>>>(x, ref, n, acc);
  double h[2];
  SM90_CUDA(cudaMemcpy(h, acc, sizeof h, cudaMemcpyDeviceToHost));
  cudaFree(acc);
  return std::sqrt(h[0] / (h[1] > 0 ? h[1] : 1));
}

double median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : double(v[v.size() / 2]);
}

template <class T, GMMA::Major MA, GMMA::Major MB>
using Kernel = std::conditional_t<std::is_same_v<T, float>, s9::DefaultGemmTf32<2>, s9::DefaultGemm<T, MA, MB, 2>>;

// One shape and layout: correctness against cuBLAS and fp64 samples, then (reps > 0) timing.
// Gemm: the kernel (default: the whole-tile 128x256 one of the layout's majors); with a
// split-K kernel the workspace it asks for is given.
template <class T, GMMA::Major MA, GMMA::Major MB, class Gemm = Kernel<T, MA, MB>>
bool probe(cublasHandle_t h, int64_t m, int64_t n, int64_t k, int64_t l, const char* layout, int reps) {
  constexpr bool tf32 = std::is_same_v<T, float>;
  sm90_check::Problem<T> p(m, n, k, l, false, 1.0f, 0.0f, uint64_t(m * 31 + n * 7 + k + l), layout);
  auto op = std::make_shared<s9::GemmSm90<Gemm>>();
  if constexpr (requires { op->divided_boxes; }) op->divided_boxes = g_divided;
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
  int boxes_a = -1, boxes_b = -1;
  if constexpr (requires { op->boxes_a; }) boxes_a = op->boxes_a, boxes_b = op->boxes_b;
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
  const double vs_cublas = relative_difference(p.dd, ref, m * n * l);
  double vs_fp64 = 0;
  int64_t nans = 0;
  const bool ok = p.verify(vs_fp64, nans, 2000) && vs_cublas < sm90_check::tolerance<T, T>;
  double tm = 0, tc = 0;
  if (reps > 0) {
    for (int i = 0; i < 5; ++i) { mine(); cublas(); }
    cudaEvent_t ev[3];
    for (auto& e : ev) SM90_CUDA(cudaEventCreate(&e));
    std::vector<float> t_mine, t_cublas;
    for (int i = 0; i < reps; ++i) {
      lead_in<<<1, 1>>>(100000);
      SM90_CUDA(cudaEventRecord(ev[0]));
      mine();
      SM90_CUDA(cudaEventRecord(ev[1]));
      cublas();
      SM90_CUDA(cudaEventRecord(ev[2]));
      SM90_CUDA(cudaEventSynchronize(ev[2]));
      float a = 0, b = 0;
      SM90_CUDA(cudaEventElapsedTime(&a, ev[0], ev[1]));
      SM90_CUDA(cudaEventElapsedTime(&b, ev[1], ev[2]));
      t_mine.push_back(a);
      t_cublas.push_back(b);
    }
    for (auto& e : ev) cudaEventDestroy(e);
    tm = median(t_mine), tc = median(t_cublas);
  }
  SM90_CUDA(cudaGetLastError());
  cudaFree(ref);
  cudaFree(ws);
  const double flops = 2.0 * double(m) * double(n) * double(k) * double(l);
  std::printf("tile %dx%d c%d ", int(Gemm::Mainloop::BM), int(Gemm::Mainloop::BN), int(Gemm::Mainloop::ClusterM));
  if constexpr (Gemm::Scheduler::Splits) std::printf("split-K %s ", op->splits() ? "on" : "off");
  std::printf("%-4s %s %5lld x %5lld x %5lld x %lld boxes %d+%d  tessera %8.3f ms %6.1f TFLOP/s  cuBLAS %8.3f ms %6.1f TFLOP/s  ratio %.3f  "
              "err vs cuBLAS %.1e vs fp64 %.1e %s\n",
              tf32 ? "tf32" : "bf16", layout, (long long)m, (long long)n, (long long)k, (long long)l, boxes_a, boxes_b, tm,
              tm > 0 ? flops / tm * 1e-9 : 0.0, tc, tc > 0 ? flops / tc * 1e-9 : 0.0, tm > 0 ? tc / tm : 0.0, vs_cublas, vs_fp64,
              ok ? "ok" : "WRONG");
  return ok;
}

bool all_layouts(cublasHandle_t h, int64_t m, int64_t n, int64_t k, int64_t l, int reps) {
  constexpr auto KM = GMMA::Major::K, MN = GMMA::Major::MN;
  bool ok = true;
  ok &= probe<bfloat16_t, KM, KM>(h, m, n, k, l, "TN", reps);
  ok &= probe<bfloat16_t, MN, MN>(h, m, n, k, l, "NT", reps);
  ok &= probe<bfloat16_t, MN, KM>(h, m, n, k, l, "NN", reps);
  ok &= probe<bfloat16_t, KM, MN>(h, m, n, k, l, "TT", reps);
  return ok;
}
}  // namespace

int main(int argc, char** argv) {
  int reps = 20;
  bool check = false;
  std::vector<int64_t> dims;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--reps" && i + 1 < argc) reps = std::atoi(argv[++i]);
    else if (a == "--check") check = true;
    else if (a == "--mode-boxes") g_divided = false;
    else dims.push_back(std::atoll(argv[i]));
  }
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) return 2;
  bool ok = true;
  if (check) {
    // (M, N, K, batch): residues past M, N, K; M, N multiples of 64 but not of the tile; batches
    // (MN-major operands need 16-byte aligned leading dimensions: odd M, N only with TN)
    const int64_t cases[][4] = {{320, 448, 200, 2}, {576, 320, 136, 3}, {704, 1088, 264, 2}, {1000, 1000, 1000, 1}};
    for (auto const& c : cases) ok &= all_layouts(h, c[0], c[1], c[2], c[3], 0);
    constexpr auto KM = GMMA::Major::K, MN = GMMA::Major::MN;
    ok &= probe<bfloat16_t, KM, KM>(h, 129, 257, 72, 1, "TN", 0);
    ok &= probe<float, KM, KM>(h, 1000, 1000, 1000, 1, "TN", 0);
    // The other kernels over the same mainloop producer: ping-pong (64x128, no cluster),
    // 128x128 tiles, split-K slices (workspace; residue k-tile; batches).
    ok &= probe<bfloat16_t, KM, KM, s9::PingpongGemm<bfloat16_t, 128>>(h, 129, 257, 72, 1, "TN", 0);
    ok &= probe<bfloat16_t, KM, KM, s9::PingpongGemm<bfloat16_t, 128>>(h, 2048, 1024, 200, 2, "TN", 0);
    ok &= probe<bfloat16_t, KM, KM, s9::SmallTileGemm<bfloat16_t>>(h, 1000, 1000, 1000, 1, "TN", 0);
    ok &= probe<bfloat16_t, MN, MN, s9::DefaultGemm<bfloat16_t, MN, MN, 2, bfloat16_t, s9::SplitKTileScheduler>>(h, 136, 264, 2000, 1, "NT", 0);
    ok &= probe<bfloat16_t, KM, KM, s9::DefaultGemm<bfloat16_t, KM, KM, 2, bfloat16_t, s9::SplitKTileScheduler>>(h, 1000, 1000, 4000, 2, "TN", 0);
  } else {
    if (dims.empty()) dims = {8192, 8192, 8192, 4096, 4096, 4096, 4096, 11008, 4096};
    for (size_t i = 0; i + 2 < dims.size(); i += 3) ok &= all_layouts(h, dims[i], dims[i + 1], dims[i + 2], 1, reps);
    ok &= probe<float, GMMA::Major::K, GMMA::Major::K>(h, 8192, 8192, 8192, 1, "TN", reps);
  }
  cublasDestroy(h);
  std::printf("probe %s\n", ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
