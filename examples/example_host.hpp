// The host side the GPU examples share (5_my_gemm.cu, 6_my_hopper_gemm.cu), so that each
// example's file is its kernel and its launch:
//   EXAMPLE_CUDA(call)            a CUDA call that exits with the file, line and error on failure
//   TnProblem<T> p(M, N, K)       A (M,K) and B (N,K) row-major ("TN") in 16-bit floats, small
//                                 integers / 8 (exact; the f32 sums too), on the device with D
//                                 and cuBLAS's D
//   p.cublas(handle)              cuBLAS's D (row-major D = column-major D^T = B^T-as-stored x A)
//   p.check(tolerance, label)     all of D against cuBLAS's, 2,000 sampled elements against an
//                                 FP64 reference; prints the worst relative errors
//   time_against_cublas(...)      warm-up, then `reps` alternating launches each bracketed by
//                                 events; prints the medians and their ratio
//   write_device_trace(...)       a kernel's trace mode: two runs on one tile's inputs, their
//                                 records written whole or not at all (`tessera verify FILE`)
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <tessera/atom/numeric.hpp>

#define EXAMPLE_CUDA(x)                                                                \
  do {                                                                                 \
    cudaError_t e_ = (x);                                                              \
    if (e_ != cudaSuccess) {                                                           \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
      std::exit(1);                                                                    \
    }                                                                                  \
  } while (0)

namespace examples {

template <class T>
struct TnProblem {
  static constexpr cudaDataType_t type = std::is_same_v<T, tessera::bfloat16_t> ? CUDA_R_16BF : CUDA_R_16F;
  int M, N, K;
  std::vector<T> hA, hB;
  T *A = nullptr, *B = nullptr, *D = nullptr, *Dref = nullptr;

  TnProblem(int m, int n, int k) : M(m), N(n), K(k), hA(std::size_t(m) * k), hB(std::size_t(n) * k) {
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> d(-8, 8);
    for (auto& x : hA) x = T::from_float(float(d(rng)) / 8.f);
    for (auto& x : hB) x = T::from_float(float(d(rng)) / 8.f);
    EXAMPLE_CUDA(cudaMalloc(&A, hA.size() * sizeof(T)));
    EXAMPLE_CUDA(cudaMalloc(&B, hB.size() * sizeof(T)));
    EXAMPLE_CUDA(cudaMalloc(&D, std::size_t(M) * N * sizeof(T)));
    EXAMPLE_CUDA(cudaMalloc(&Dref, std::size_t(M) * N * sizeof(T)));
    EXAMPLE_CUDA(cudaMemcpy(A, hA.data(), hA.size() * sizeof(T), cudaMemcpyHostToDevice));
    EXAMPLE_CUDA(cudaMemcpy(B, hB.data(), hB.size() * sizeof(T), cudaMemcpyHostToDevice));
  }
  ~TnProblem() { cudaFree(A), cudaFree(B), cudaFree(D), cudaFree(Dref); }
  TnProblem(TnProblem const&) = delete;

  void cublas(cublasHandle_t handle, float alpha = 1.f, float beta = 0.f) const {
    cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, N, M, K, &alpha, B, type, K, A, type, K, &beta, Dref, type, N, CUBLAS_COMPUTE_32F,
                 CUBLAS_GEMM_DEFAULT);
  }

  // (after both have run) true when both worst relative errors are below `tolerance`.
  bool check(double tolerance, const char* label) const {
    std::vector<T> hD(std::size_t(M) * N), hRef(std::size_t(M) * N);
    EXAMPLE_CUDA(cudaMemcpy(hD.data(), D, hD.size() * sizeof(T), cudaMemcpyDeviceToHost));
    EXAMPLE_CUDA(cudaMemcpy(hRef.data(), Dref, hRef.size() * sizeof(T), cudaMemcpyDeviceToHost));
    std::mt19937 rng(11);
    std::uniform_int_distribution<int> pm(0, M - 1), pn(0, N - 1);
    double worst_ref = 0, worst_blas = 0;
    for (int s = 0; s < 2000; ++s) {
      const int m = pm(rng), n = pn(rng);
      double want = 0;
      for (int k = 0; k < K; ++k) want += double(hA[std::size_t(m) * K + k].to_float()) * hB[std::size_t(n) * K + k].to_float();
      worst_ref = std::max(worst_ref, std::abs(hD[std::size_t(m) * N + n].to_float() - want) / std::max(1.0, std::abs(want)));
    }
    for (std::size_t i = 0; i < hD.size(); ++i) {
      const double a = hD[i].to_float(), b = hRef[i].to_float();
      worst_blas = std::max(worst_blas, std::abs(a - b) / std::max(1.0, std::abs(b)));
    }
    const bool ok = worst_ref < tolerance && worst_blas < tolerance;
    cudaDeviceProp prop;
    EXAMPLE_CUDA(cudaGetDeviceProperties(&prop, 0));
    std::printf("device: %s\n%dx%dx%d %s TN, f32 accumulate: max rel error vs double %.2e, vs cuBLAS %.2e: %s\n", prop.name, M, N, K,
                label, worst_ref, worst_blas, ok ? "ok" : "WRONG");
    return ok;
  }
};

// `name` against cuBLAS: 10 warm-up pairs, then `reps` pairs (each launch between two events);
// the medians, their TFLOP/s for `flop`, the ratio cuBLAS / ours, and `note` after it.
template <class Ours, class Theirs>
void time_against_cublas(const char* name, Ours ours, Theirs theirs, int reps, double flop, std::string const& note) {
  std::vector<cudaEvent_t> ev(std::size_t(3) * reps);
  for (auto& e : ev) EXAMPLE_CUDA(cudaEventCreate(&e));
  for (int i = 0; i < 10; ++i) ours(), theirs();
  for (int i = 0; i < reps; ++i) {
    EXAMPLE_CUDA(cudaEventRecord(ev[3 * i]));
    ours();
    EXAMPLE_CUDA(cudaEventRecord(ev[3 * i + 1]));
    theirs();
    EXAMPLE_CUDA(cudaEventRecord(ev[3 * i + 2]));
  }
  EXAMPLE_CUDA(cudaDeviceSynchronize());
  std::vector<float> t_ours(reps), t_blas(reps);
  for (int i = 0; i < reps; ++i) {
    EXAMPLE_CUDA(cudaEventElapsedTime(&t_ours[i], ev[3 * i], ev[3 * i + 1]));
    EXAMPLE_CUDA(cudaEventElapsedTime(&t_blas[i], ev[3 * i + 1], ev[3 * i + 2]));
  }
  for (auto& e : ev) cudaEventDestroy(e);
  std::sort(t_ours.begin(), t_ours.end());
  std::sort(t_blas.begin(), t_blas.end());
  const double mo = t_ours[reps / 2], mb = t_blas[reps / 2];
  std::printf("median of %d: %s %.3f ms %.1f TFLOP/s | cuBLAS %.3f ms %.1f TFLOP/s | ratio %.3f (%s)\n", reps, name, mo,
              flop / mo * 1e-9, mb, flop / mb * 1e-9, mb / mo, note.c_str());
}

// A kernel's trace mode: device buffers for one tile's A, B and D and for the records (5 ints
// each), two runs (inputs(accumulators, hA, hB) fills the inputs; launch(accumulators, A, B, D,
// count, capacity, records) runs the traced kernel), then the records through write(os,
// records) into `path`: a sibling file renamed over it, so the file is whole or absent.
template <class T, class Inputs, class Launch, class Write>
int write_device_trace(std::string const& path, std::size_t a_elements, std::size_t b_elements, std::size_t d_elements, int capacity,
                       Inputs inputs, Launch launch, Write write) {
  T *A, *B, *D;
  int *count, *records;
  EXAMPLE_CUDA(cudaMalloc(&A, sizeof(T) * a_elements));
  EXAMPLE_CUDA(cudaMalloc(&B, sizeof(T) * b_elements));
  EXAMPLE_CUDA(cudaMalloc(&D, sizeof(T) * d_elements));
  EXAMPLE_CUDA(cudaMalloc(&count, sizeof(int)));
  EXAMPLE_CUDA(cudaMalloc(&records, sizeof(int) * 5 * std::size_t(capacity)));
  EXAMPLE_CUDA(cudaMemset(count, 0, sizeof(int)));
  std::vector<T> hA, hB;
  for (bool accumulators : {false, true}) {
    inputs(accumulators, hA, hB);
    EXAMPLE_CUDA(cudaMemcpy(A, hA.data(), hA.size() * sizeof(T), cudaMemcpyHostToDevice));
    EXAMPLE_CUDA(cudaMemcpy(B, hB.data(), hB.size() * sizeof(T), cudaMemcpyHostToDevice));
    launch(accumulators, A, B, D, count, capacity, records);
    EXAMPLE_CUDA(cudaGetLastError());
    EXAMPLE_CUDA(cudaDeviceSynchronize());
  }
  int n = 0;
  EXAMPLE_CUDA(cudaMemcpy(&n, count, sizeof(int), cudaMemcpyDeviceToHost));
  if (n > capacity) {
    std::fprintf(stderr, "error: %d trace records, more than the buffer's %d\n", n, capacity);
    return 1;
  }
  std::vector<int> h(std::size_t(5) * n);
  EXAMPLE_CUDA(cudaMemcpy(h.data(), records, h.size() * sizeof(int), cudaMemcpyDeviceToHost));
  cudaFree(A), cudaFree(B), cudaFree(D), cudaFree(count), cudaFree(records);
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary);
    write(f, h);
    if (!f.flush()) {
      std::fprintf(stderr, "error: cannot write '%s'\n", tmp.c_str());
      std::remove(tmp.c_str());
      return 1;
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::fprintf(stderr, "error: cannot write '%s'\n", path.c_str());
    std::remove(tmp.c_str());
    return 1;
  }
  std::printf("%d records written to %s: check them with `tessera verify %s`\n", n, path.c_str(), path.c_str());
  return 0;
}

}  // namespace examples
