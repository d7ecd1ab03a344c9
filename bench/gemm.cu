// GEMM benchmark: each tessera kernel against cuBLAS, same process, same inputs.
//
// Method (see bench/RESULTS.md): inputs drawn at random (never zeros), several input sets
// rotated so that repeated launches do not run out of L2, warm-up launches first, then the
// median of many launches each timed with CUDA events, tessera's and cuBLAS's launches
// alternating so that both see the same clocks.  Every CUDA/cuBLAS status is checked.
// Each kernel's output is compared with cuBLAS's (relative Frobenius error) so a fast wrong
// kernel cannot look good.
//
//   gemm_bench [--quick] [--dtype f32|bf16|f16|all] [--reps N]
//   gemm_bench --profile [M N K]   each kernel configuration launched once (for ncu)
//   gemm_bench --variants          tuning table: every tile configuration on the target shapes
//                                  (a build with -DTESSERA_BUILD_TUNING_VARIANTS=ON)
//   gemm_bench --soak SECONDS      each kernel alone for SECONDS (sustained clocks), bf16 TN
//   --no-split                     no split-K workspace for the default path (A/B of split-K)
//   --layouts TN,NT,...            only these layouts (default: all four; TN,NN for --variants)
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "tessera/kernels/gemm_variants.hpp"
#include "tessera/kernels/gemm.hpp"
#include "../tools/harness/harness.cuh"

namespace tk = tessera::kernels;

#define CUBLAS_CHECK(x)                                                                    \
  do {                                                                                     \
    cublasStatus_t s_ = (x);                                                               \
    if (s_ != CUBLAS_STATUS_SUCCESS) {                                                     \
      std::fprintf(stderr, "%s:%d: %s: cuBLAS status %d\n", __FILE__, __LINE__, #x, int(s_)); \
      std::exit(2);                                                                        \
    }                                                                                      \
  } while (0)

namespace {

struct Shape {
  std::int64_t m, n, k;
};

bool g_split = true;  // --no-split: run the default path without a workspace

template <class T>
__global__ void diff_norms(const T* x, const T* ref, std::int64_t n, double* acc) {
  double d = 0, r = 0;
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    double a = double(float(x[i])), b = double(float(ref[i]));
    d += (a - b) * (a - b);
    r += b * b;
  }
  atomicAdd(&acc[0], d);
  atomicAdd(&acc[1], r);
}

template <class T>
double rel_error(const T* x, const T* ref, std::int64_t n) {
  double* acc;
  TESSERA_CUDA_CHECK(cudaMalloc(&acc, 2 * sizeof(double)));
  TESSERA_CUDA_CHECK(cudaMemset(acc, 0, 2 * sizeof(double)));
  diff_norms<<<1024, 256>>>(x, ref, n, acc);
  TESSERA_CUDA_CHECK(cudaGetLastError());
  double h[2];
  TESSERA_CUDA_CHECK(cudaMemcpy(h, acc, sizeof h, cudaMemcpyDeviceToHost));
  TESSERA_CUDA_CHECK(cudaFree(acc));
  return h[1] > 0 ? std::sqrt(h[0] / h[1]) : (h[0] == 0 ? 0.0 : INFINITY);
}

template <class T> constexpr cudaDataType_t cuda_type();
template <> constexpr cudaDataType_t cuda_type<float>() { return CUDA_R_32F; }
template <> constexpr cudaDataType_t cuda_type<__half>() { return CUDA_R_16F; }
template <> constexpr cudaDataType_t cuda_type<__nv_bfloat16>() { return CUDA_R_16BF; }
template <class T> constexpr tk::Element element();
template <> constexpr tk::Element element<float>() { return tk::Element::F32; }
template <> constexpr tk::Element element<__half>() { return tk::Element::F16; }
template <> constexpr tk::Element element<__nv_bfloat16>() { return tk::Element::BF16; }

// Medians of `reps` launches of f and of g, each bracketed by events, after `warmup` launches
// of each.  The launches alternate (f, g, f, g, ...) so both see the same clocks: an H100
// under sustained load drifts by several percent within a second (cuBLAS alone moved 10%
// between consecutive table rows when timed in separate blocks), which would otherwise
// land in the ratio.
template <class F, class G>
std::pair<float, float> median_ms_interleaved(F&& f, G&& g, int warmup, int reps) {
  for (int i = 0; i < warmup; ++i) { f(i); g(i); }
  std::vector<cudaEvent_t> ev(4 * reps);
  for (auto& e : ev) TESSERA_CUDA_CHECK(cudaEventCreate(&e));
  for (int i = 0; i < reps; ++i) {
    TESSERA_CUDA_CHECK(cudaEventRecord(ev[4 * i]));
    f(warmup + i);
    TESSERA_CUDA_CHECK(cudaEventRecord(ev[4 * i + 1]));
    g(warmup + i);
    TESSERA_CUDA_CHECK(cudaEventRecord(ev[4 * i + 2]));
  }
  TESSERA_CUDA_CHECK(cudaEventSynchronize(ev[4 * (reps - 1) + 2]));
  std::vector<float> tf(reps), tg(reps);
  for (int i = 0; i < reps; ++i) {
    TESSERA_CUDA_CHECK(cudaEventElapsedTime(&tf[i], ev[4 * i], ev[4 * i + 1]));
    TESSERA_CUDA_CHECK(cudaEventElapsedTime(&tg[i], ev[4 * i + 1], ev[4 * i + 2]));
  }
  for (auto& e : ev) TESSERA_CUDA_CHECK(cudaEventDestroy(e));
  std::sort(tf.begin(), tf.end());
  std::sort(tg.begin(), tg.end());
  return {tf[reps / 2], tg[reps / 2]};
}

// Launches f back to back for `seconds` (batches of 10 timed with events) and returns the
// sustained TFLOP/s.  Printed with the wall-clock interval so that a power/clock log taken
// beside the run (nvidia-smi) can be matched to it.
template <class F>
double soak_tflops(F&& f, double seconds, double flop, const char* who) {
  cudaEvent_t e0, e1;
  TESSERA_CUDA_CHECK(cudaEventCreate(&e0));
  TESSERA_CUDA_CHECK(cudaEventCreate(&e1));
  const auto wall0 = std::chrono::system_clock::now();
  TESSERA_CUDA_CHECK(cudaEventRecord(e0));
  double ms = 0;
  long launches = 0;
  for (int i = 0; ms < 1e3 * seconds; ) {
    for (int j = 0; j < 10; ++j, ++i) f(i);
    launches += 10;
    TESSERA_CUDA_CHECK(cudaEventRecord(e1));
    TESSERA_CUDA_CHECK(cudaEventSynchronize(e1));
    float t;
    TESSERA_CUDA_CHECK(cudaEventElapsedTime(&t, e0, e1));
    ms = t;
  }
  const auto wall1 = std::chrono::system_clock::now();
  auto stamp = [](std::chrono::system_clock::time_point tp) {
    return std::chrono::duration<double>(tp.time_since_epoch()).count();
  };
  const double tflops = flop * double(launches) / (ms * 1e-3) / 1e12;
  std::printf("soak %-7s %ld launches in %.3f s: %.2f TFLOP/s (wall %.3f .. %.3f)\n", who, launches, ms * 1e-3,
              tflops, stamp(wall0), stamp(wall1));
  std::fflush(stdout);
  TESSERA_CUDA_CHECK(cudaEventDestroy(e0));
  TESSERA_CUDA_CHECK(cudaEventDestroy(e1));
  return tflops;
}

struct Row {
  std::string shape, layout, dtype, kernel;
  double ours, cublas, err;
};

// Layout letters in BLAS convention (column-major base): A 'N' = MxK column-major,
// A 'T' = row-major; B 'N' = KxN column-major, B 'T' = row-major.  D is column-major
// (ldd = M) so the same buffers go to cuBLAS unchanged.
template <class T>
void bench_one(cublasHandle_t handle, Shape s, char ta, char tb, int reps, std::vector<Row>& rows,
               bool profile = false, int variant = -1, double soak = 0) {
  const std::int64_t M = s.m, N = s.n, K = s.k;
  const std::int64_t sizeA = M * K, sizeB = K * N, sizeD = M * N;
  const std::int64_t set_bytes = (sizeA + sizeB) * sizeof(T) + sizeD * sizeof(T);
  // Enough sets that one pass over them is >= 4x a 50 MB L2.
  const int nsets = int(std::clamp<std::int64_t>((200ll << 20) / set_bytes + 1, 1, 32));
  std::vector<T*> A(nsets), B(nsets), D(nsets);
  T* Dref;
  for (int i = 0; i < nsets; ++i) {
    TESSERA_CUDA_CHECK(cudaMalloc(&A[i], sizeA * sizeof(T)));
    TESSERA_CUDA_CHECK(cudaMalloc(&B[i], sizeB * sizeof(T)));
    TESSERA_CUDA_CHECK(cudaMalloc(&D[i], sizeD * sizeof(T)));
    tk::harness::fill_random(A[i], sizeA, 1000 + 3 * i);
    tk::harness::fill_random(B[i], sizeB, 1001 + 3 * i);
    tk::harness::fill_random(D[i], sizeD, 1002 + 3 * i);
  }
  TESSERA_CUDA_CHECK(cudaMalloc(&Dref, sizeD * sizeof(T)));

  tk::GemmArguments g;
  g.m = M; g.n = N; g.k = K; g.batch = 1;
  g.element = element<T>();
  g.a.major = ta == 'N' ? tk::Major::Col : tk::Major::Row;
  g.a.ld = ta == 'N' ? M : K;
  g.b.major = tb == 'N' ? tk::Major::Col : tk::Major::Row;
  g.b.ld = tb == 'N' ? K : N;
  g.c.major = tk::Major::Col;
  g.c.ld = M;
  g.ldd = M;
  g.alpha = 1.0f;
  g.beta = 0.0f;
  const tk::GemmKernel kernel = [&] {
    g.a.ptr = A[0]; g.b.ptr = B[0]; g.d = D[0];
    return tk::select_kernel(g);
  }();
  // The library's default path gets the split-K workspace it asks for (cuBLAS keeps its own),
  // unless --no-split.
  if (variant < 0 && g_split && (g.workspace_bytes = tk::gemm_workspace_size(g, kernel)) > 0)
    TESSERA_CUDA_CHECK(cudaMalloc(&g.workspace, g.workspace_bytes));

  auto ours = [&](int i) {
    g.a.ptr = A[i % nsets]; g.b.ptr = B[i % nsets]; g.d = D[i % nsets];
    auto r = variant < 0 ? tk::gemm(g, kernel)
             : element<T>() == tk::Element::F32 ? tk::gemm_simt_variant(g, variant)
                                                 : tk::gemm_tensorop_variant(g, variant);
    if (!r) {
      std::fprintf(stderr, "tessera gemm failed: %s: %s\n", tk::to_string(r.status), r.message.c_str());
      std::exit(2);
    }
  };
  const float alpha = 1.0f, beta = 0.0f;
  auto theirs = [&](int i, T* out) {
    CUBLAS_CHECK(cublasGemmEx(handle, ta == 'N' ? CUBLAS_OP_N : CUBLAS_OP_T,
                              tb == 'N' ? CUBLAS_OP_N : CUBLAS_OP_T, int(M), int(N), int(K), &alpha,
                              A[i % nsets], cuda_type<T>(), int(g.a.ld), B[i % nsets], cuda_type<T>(),
                              int(g.b.ld), &beta, out, cuda_type<T>(), int(M), CUBLAS_COMPUTE_32F,
                              CUBLAS_GEMM_DEFAULT));
  };

  if (profile) {  // one launch of each configuration, nothing else for ncu to see
    ours(0);
    TESSERA_CUDA_CHECK(cudaDeviceSynchronize());
    std::printf("profiled %s %c%c %s\n", variant < 0 ? tk::to_string(kernel) : tk::tensorop_variant_name(variant), ta,
                tb, tk::to_string(element<T>()));
    for (int i = 0; i < nsets; ++i) {
      TESSERA_CUDA_CHECK(cudaFree(A[i])); TESSERA_CUDA_CHECK(cudaFree(B[i])); TESSERA_CUDA_CHECK(cudaFree(D[i]));
    }
    TESSERA_CUDA_CHECK(cudaFree(Dref));
    if (g.workspace) TESSERA_CUDA_CHECK(cudaFree(g.workspace));
    return;
  }
  // Correctness against cuBLAS on set 0 first.
  ours(0);
  theirs(0, Dref);
  TESSERA_CUDA_CHECK(cudaDeviceSynchronize());
  const double err = rel_error(D[0], Dref, sizeD);

  const double flop = 2.0 * double(M) * double(N) * double(K);
  if (soak > 0) {  // each alone, back to back, under its own sustained power draw
    soak_tflops(ours, soak, flop, "tessera");
    soak_tflops([&](int i) { theirs(i, D[i % nsets]); }, soak, flop, "cuBLAS");
  }
  const int warm = 5;
  const auto [t_ours, t_blas] = median_ms_interleaved(ours, [&](int i) { theirs(i, D[i % nsets]); }, warm, reps);
  TESSERA_CUDA_CHECK(cudaDeviceSynchronize());
  char shape[64];
  std::snprintf(shape, sizeof shape, "%lldx%lldx%lld", (long long)M, (long long)N, (long long)K);
  const std::string kname = variant < 0 ? std::string(tk::to_string(kernel)) + (g.workspace ? "+splitK" : "")
                            : element<T>() == tk::Element::F32 ? tk::simt_variant_name(variant)
                                                                : tk::tensorop_variant_name(variant);
  rows.push_back({shape, std::string{ta, tb}, tk::to_string(element<T>()), kname,
                  flop / (t_ours * 1e-3) / 1e12, flop / (t_blas * 1e-3) / 1e12, err});
  const Row& r = rows.back();
  std::printf("%-20s %-3s %-5s %-28s %9.2f %9.2f %7.3f %9.2e\n", r.shape.c_str(), r.layout.c_str(),
              r.dtype.c_str(), r.kernel.c_str(), r.ours, r.cublas, r.ours / r.cublas, r.err);
  std::fflush(stdout);

  for (int i = 0; i < nsets; ++i) {
    TESSERA_CUDA_CHECK(cudaFree(A[i]));
    TESSERA_CUDA_CHECK(cudaFree(B[i]));
    TESSERA_CUDA_CHECK(cudaFree(D[i]));
  }
  TESSERA_CUDA_CHECK(cudaFree(Dref));
  if (g.workspace) TESSERA_CUDA_CHECK(cudaFree(g.workspace));
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false, profile = false, variants = false;
  double soak = 0;
  Shape profile_shape{2048, 2048, 2048};
  std::string dtype = "all";
  std::string only_layouts;  // e.g. "NT,TT": only these (all four, or TN,NN for --variants, unless given)
  int reps = 30;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--quick")) quick = true;
    else if (!std::strcmp(argv[i], "--dtype") && i + 1 < argc) dtype = argv[++i];
    else if (!std::strcmp(argv[i], "--reps") && i + 1 < argc) reps = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--variants")) variants = true;
    else if (!std::strcmp(argv[i], "--soak") && i + 1 < argc) soak = std::atof(argv[++i]);
    else if (!std::strcmp(argv[i], "--no-split")) g_split = false;
    else if (!std::strcmp(argv[i], "--layouts") && i + 1 < argc) only_layouts = argv[++i];
    else if (!std::strcmp(argv[i], "--profile")) {
      profile = true;
      if (i + 3 < argc) {
        profile_shape = {std::atoll(argv[i + 1]), std::atoll(argv[i + 2]), std::atoll(argv[i + 3])};
        i += 3;
      }
    }
    else {
      std::fprintf(stderr, "usage: %s [--quick] [--dtype f32|bf16|f16|all] [--reps N] | --profile [M N K] | --variants"
                           " | --soak SECONDS  [--no-split] [--layouts TN,NT,NN,TT]\n", argv[0]);
      return 1;
    }
  }
  int ndev = 0;
  if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
    std::fprintf(stderr, "no CUDA device\n");
    return 1;
  }
  cudaDeviceProp prop;
  TESSERA_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s, %d SMs, L2 %d MB, sm_%d%d\n", prop.name, prop.multiProcessorCount,
              prop.l2CacheSize >> 20, prop.major, prop.minor);
  cublasHandle_t handle;
  CUBLAS_CHECK(cublasCreate(&handle));
  // Plain FP32 for SGEMM (no TF32): the SIMT kernel is compared with true FP32 cuBLAS.
  CUBLAS_CHECK(cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH));

  std::vector<Shape> shapes = {{4096, 4096, 4096}, {8192, 8192, 8192}, {4096, 11008, 4096},
                               {1000, 1000, 1000}, {8192, 8192, 1024}};
  if (quick) shapes = {{4096, 4096, 4096}, {1000, 1000, 1000}};
  std::vector<const char*> layouts;
  for (const char* l : {"TN", "NT", "NN", "TT"})
    if (only_layouts.empty() ? !variants || l[1] == 'N' : only_layouts.find(l) != std::string::npos)
      layouts.push_back(l);
  if (soak > 0) {  // sustained rates, bf16 TN at 8192^3 and 4096x11008x4096
    std::printf("%-20s %-3s %-5s %-28s %9s %9s %7s %9s\n", "shape MxNxK", "lay", "type", "kernel", "TFLOP/s",
                "cuBLAS", "ratio", "relerr");
    std::vector<Row> rows;
    for (const Shape& s : {Shape{8192, 8192, 8192}, Shape{4096, 11008, 4096}})
      bench_one<__nv_bfloat16>(handle, s, 'T', 'N', reps, rows, false, -1, soak);
    CUBLAS_CHECK(cublasDestroy(handle));
    return 0;
  }
  if (variants && !tk::tuning_variants_built()) {
    std::fprintf(stderr, "error: --variants: this build has no tuning variants "
                         "(configure with -DTESSERA_BUILD_TUNING_VARIANTS=ON)\n");
    return 1;
  }
  if (variants) {
    std::printf("%-20s %-3s %-5s %-28s %9s %9s %7s %9s\n", "shape MxNxK", "lay", "type", "variant",
                "TFLOP/s", "cuBLAS", "ratio", "relerr");
    std::vector<Row> rows;
    const Shape tc_shapes[] = {{8192, 8192, 8192}, {4096, 11008, 4096}, {8192, 8192, 1024}};
    for (const Shape& s : tc_shapes)
      for (const char* l : layouts)
        if (dtype == "all" || dtype == "bf16")
          for (int v = 0; v < tk::tensorop_variant_count() - 1; ++v)  // the last is the unswizzled baseline
            bench_one<__nv_bfloat16>(handle, s, l[0], l[1], reps, rows, false, v);
    const Shape simt_shapes[] = {{8192, 8192, 8192}, {4096, 4096, 4096}};
    for (const Shape& s : simt_shapes)
      for (const char* l : layouts)
        if (dtype == "all" || dtype == "f32")
          for (int v = 0; v < tk::simt_variant_count(); ++v)
            bench_one<float>(handle, s, l[0], l[1], std::max(5, reps / 3), rows, false, v);
    CUBLAS_CHECK(cublasDestroy(handle));
    return 0;
  }
  if (profile) {
    std::vector<Row> none;
    for (const char* l : layouts) {
      bench_one<__nv_bfloat16>(handle, profile_shape, l[0], l[1], 1, none, true);
      bench_one<float>(handle, profile_shape, l[0], l[1], 1, none, true);
      // The same tensor-core kernel on unswizzled smem: the bank-conflict baseline (a tuning variant).
      if (tk::tuning_variants_built())
        bench_one<__nv_bfloat16>(handle, profile_shape, l[0], l[1], 1, none, true, tk::tensorop_variant_count() - 1);
    }
    CUBLAS_CHECK(cublasDestroy(handle));
    return 0;
  }

  std::printf("%-20s %-3s %-5s %-28s %9s %9s %7s %9s\n", "shape MxNxK", "lay", "type", "kernel",
              "TFLOP/s", "cuBLAS", "ratio", "relerr");
  std::vector<Row> rows;
  for (const Shape& s : shapes)
    for (const char* l : layouts) {
      if (dtype == "all" || dtype == "bf16") bench_one<__nv_bfloat16>(handle, s, l[0], l[1], reps, rows);
      if (dtype == "all" || dtype == "f16") bench_one<__half>(handle, s, l[0], l[1], reps, rows);
      // FP32 SGEMM takes ~25 ms at 8192^3: fewer repetitions keep the run short.
      if (dtype == "all" || dtype == "f32") bench_one<float>(handle, s, l[0], l[1], std::max(5, reps / 3), rows);
    }
  CUBLAS_CHECK(cublasDestroy(handle));

  std::printf("\nsummary (ratio = tessera / cuBLAS, median of timed launches)\n");
  std::printf("| shape | layout | type | kernel | tessera TFLOP/s | cuBLAS TFLOP/s | ratio | rel. err vs cuBLAS |\n");
  std::printf("|---|---|---|---|---|---|---|---|\n");
  for (const Row& r : rows)
    std::printf("| %s | %s | %s | %s | %.1f | %.1f | %.3f | %.1e |\n", r.shape.c_str(), r.layout.c_str(),
                r.dtype.c_str(), r.kernel.c_str(), r.ours, r.cublas, r.ours / r.cublas, r.err);
  return 0;
}
