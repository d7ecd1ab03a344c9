// 5. Your own GEMM kernel with tessera (the CTA's work is in 5_my_gemm.hpp): launch it,
// check it against a double-precision reference on sampled elements and against cuBLAS
// on all of C, and time it against cuBLAS (CUDA events, alternating launches, median).
//
//   5_my_gemm [M N K] [reps] [group]      (defaults 8192 8192 8192, 50, 8)
//   5_my_gemm --trace FILE                one CTA in trace mode (5_my_gemm_trace.hpp): FILE for
//                                         `tessera verify FILE`
//   Any M, N >= 1 with N even, K >= 8 a multiple of 8 (16-byte rows for cp.async); tiles that
//   cross an edge are predicated.  Exit 77 where there is no GPU.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <fstream>
#include <string>

#include "5_my_gemm_trace.hpp"

using my_gemm::T;

#define CHECK_CUDA(x)                                                                  \
  do {                                                                                 \
    cudaError_t e_ = (x);                                                              \
    if (e_ != cudaSuccess) {                                                           \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
      std::exit(1);                                                                    \
    }                                                                                  \
  } while (0)

// One CTA per 128 x 128 tile of C.  CTA index -> (m tile, n tile): `group` consecutive
// CTAs take consecutive M tiles of one N column, so the CTAs in flight share A and B tiles
// in L2:  index = (m_in, n, m_group) over the shape (group, N tiles, M tiles / group).
__global__ void __launch_bounds__(my_gemm::Threads)
    my_gemm_kernel(T const* A, T const* B, T* C, int M, int N, int K, float alpha, float beta, int group) {
  extern __shared__ __align__(1024) unsigned char smem[];
  using namespace tessera;
  const int m_tiles = ceil_div(M, int(my_gemm::bM)), n_tiles = ceil_div(N, int(my_gemm::bN));
  auto tiles = make_shape(group, n_tiles, ceil_div(m_tiles, group));
  auto crd = idx2crd(int(blockIdx.x), tiles);
  int m_tile = int(crd2idx(make_coord(get<0>(crd), get<2>(crd)), make_shape(get<0>(tiles), get<2>(tiles)),
                           make_stride(_1{}, get<0>(tiles))));
  if (m_tile >= m_tiles) return;  // the last group of M tiles may be partial
  my_gemm::gemm_cta(A, B, C, M, N, K, alpha, beta, m_tile, int(get<1>(crd)), int(threadIdx.x), reinterpret_cast<T*>(smem));
}

// Trace mode: one CTA, every thread recording what it held (both runs of 5_my_gemm_trace.hpp).
__global__ void __launch_bounds__(my_gemm::Threads) my_gemm_traced(T const* A, T const* B, T* C, my_gemm::Recorder rec) {
  extern __shared__ __align__(1024) unsigned char smem[];
  my_gemm::gemm_cta_tile<false>(A, B, C, int(my_gemm::bM), int(my_gemm::bN), int(my_gemm::bK), 1.f, 0.f, 0, 0, int(threadIdx.x),
                                reinterpret_cast<T*>(smem), rec);
}

int write_device_trace(const std::string& path) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no GPU: skipped\n");
    return 77;
  }
  constexpr int capacity = 1 << 16;
  const int smem_bytes = my_gemm::smem_elements * int(sizeof(T));
  CHECK_CUDA(cudaFuncSetAttribute(my_gemm_traced, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_bytes));
  T *A, *B, *C;
  int *count, *records;
  CHECK_CUDA(cudaMalloc(&A, sizeof(T) * int(my_gemm::bM) * int(my_gemm::bK)));
  CHECK_CUDA(cudaMalloc(&B, sizeof(T) * int(my_gemm::bN) * int(my_gemm::bK)));
  CHECK_CUDA(cudaMalloc(&C, sizeof(T) * int(my_gemm::bM) * int(my_gemm::bN)));
  CHECK_CUDA(cudaMalloc(&count, sizeof(int)));
  CHECK_CUDA(cudaMalloc(&records, sizeof(int) * 5 * capacity));
  CHECK_CUDA(cudaMemset(count, 0, sizeof(int)));
  std::vector<T> hA, hB;
  for (bool accumulators : {false, true}) {
    my_gemm::trace_inputs(accumulators, hA, hB);
    CHECK_CUDA(cudaMemcpy(A, hA.data(), hA.size() * sizeof(T), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(B, hB.data(), hB.size() * sizeof(T), cudaMemcpyHostToDevice));
    my_gemm_traced<<<1, my_gemm::Threads, smem_bytes>>>(A, B, C, my_gemm::Recorder{count, capacity, records, accumulators});
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaDeviceSynchronize());
  }
  int n = 0;
  CHECK_CUDA(cudaMemcpy(&n, count, sizeof(int), cudaMemcpyDeviceToHost));
  if (n > capacity) {
    std::fprintf(stderr, "error: %d trace records, more than the buffer's %d\n", n, capacity);
    return 1;
  }
  std::vector<int> h(std::size_t(5) * n);
  CHECK_CUDA(cudaMemcpy(h.data(), records, h.size() * sizeof(int), cudaMemcpyDeviceToHost));
  cudaFree(A), cudaFree(B), cudaFree(C), cudaFree(count), cudaFree(records);
  // Whole file or nothing: a sibling, then a rename.
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary);
    my_gemm::write_trace(f, h);
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

int main(int argc, char** argv) {
  if (argc >= 2 && std::string(argv[1]) == "--trace") {
    if (argc != 3) {
      std::fprintf(stderr, "usage: %s --trace FILE\n", argv[0]);
      return 1;
    }
    return write_device_trace(argv[2]);
  }
  int M = 8192, N = 8192, K = 8192, reps = 50, group = 8;
  if (argc >= 4) M = std::atoi(argv[1]), N = std::atoi(argv[2]), K = std::atoi(argv[3]);
  if (argc >= 5) reps = std::atoi(argv[4]);
  if (argc >= 6) group = std::atoi(argv[5]);
  if (M < 1 || N < 2 || N % 2 || K < 8 || K % 8 || group < 1) {
    std::fprintf(stderr, "error: need M >= 1, N >= 2 even, K >= 8 a multiple of 8, group >= 1 (got %d %d %d, group %d)\n",
                 M, N, K, group);
    return 1;
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no GPU: skipped\n");
    return 77;
  }
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));

  // Inputs: small integers / 8 (exact in f16); products summed in f32.
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> d(-8, 8);
  std::vector<T> hA(size_t(M) * K), hB(size_t(N) * K);
  for (auto& x : hA) x = T::from_float(d(rng) / 8.f);
  for (auto& x : hB) x = T::from_float(d(rng) / 8.f);
  T *A, *B, *C, *Cref;
  CHECK_CUDA(cudaMalloc(&A, hA.size() * sizeof(T)));
  CHECK_CUDA(cudaMalloc(&B, hB.size() * sizeof(T)));
  CHECK_CUDA(cudaMalloc(&C, size_t(M) * N * sizeof(T)));
  CHECK_CUDA(cudaMalloc(&Cref, size_t(M) * N * sizeof(T)));
  CHECK_CUDA(cudaMemcpy(A, hA.data(), hA.size() * sizeof(T), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(B, hB.data(), hB.size() * sizeof(T), cudaMemcpyHostToDevice));

  const int smem_bytes = my_gemm::smem_elements * int(sizeof(T));
  CHECK_CUDA(cudaFuncSetAttribute(my_gemm_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_bytes));
  const int m_tiles = (M + 127) / 128, n_tiles = (N + 127) / 128;
  const int ctas = group * n_tiles * ((m_tiles + group - 1) / group);
  const float alpha = 1.f, beta = 0.f;
  auto ours = [&] {
    my_gemm_kernel<<<ctas, my_gemm::Threads, smem_bytes>>>(A, B, C, M, N, K, alpha, beta, group);
  };
  cublasHandle_t handle;
  cublasCreate(&handle);
  // Row-major C (M,N) = A (M,K) B (N,K)^T is column-major C^T (N,M) = B^T-as-stored x A.
  auto theirs = [&] {
    cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, N, M, K, &alpha, B, CUDA_R_16F, K, A, CUDA_R_16F, K, &beta, Cref,
                 CUDA_R_16F, N, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  };
  ours();
  theirs();
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());

  // Correctness: 2000 sampled elements against a double reference; all of C against cuBLAS.
  std::vector<T> hC(size_t(M) * N), hRef(size_t(M) * N);
  CHECK_CUDA(cudaMemcpy(hC.data(), C, hC.size() * sizeof(T), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(hRef.data(), Cref, hRef.size() * sizeof(T), cudaMemcpyDeviceToHost));
  double worst_ref = 0, worst_blas = 0;
  std::uniform_int_distribution<int> pm(0, M - 1), pn(0, N - 1);
  for (int s = 0; s < 2000; ++s) {
    int m = pm(rng), n = pn(rng);
    double want = 0;
    for (int k = 0; k < K; ++k) want += double(hA[size_t(m) * K + k].to_float()) * hB[size_t(n) * K + k].to_float();
    double got = hC[size_t(m) * N + n].to_float();
    worst_ref = std::max(worst_ref, std::abs(got - want) / std::max(1.0, std::abs(want)));
  }
  for (size_t i = 0; i < hC.size(); ++i) {
    double a = hC[i].to_float(), b = hRef[i].to_float();
    worst_blas = std::max(worst_blas, std::abs(a - b) / std::max(1.0, std::abs(b)));
  }
  const bool ok = worst_ref < 2e-3 && worst_blas < 2e-3;  // f16 output: relative rounding 2^-11
  std::printf("device: %s\n%dx%dx%d f16 TN, f32 accumulate: max rel error vs double %.2e, vs cuBLAS %.2e: %s\n",
              prop.name, M, N, K, worst_ref, worst_blas, ok ? "ok" : "WRONG");

  // Timing: warm-up, then alternating launches, each bracketed by events; medians.
  std::vector<cudaEvent_t> ev(3 * reps);
  for (auto& e : ev) CHECK_CUDA(cudaEventCreate(&e));
  for (int i = 0; i < 10; ++i) ours(), theirs();
  for (int i = 0; i < reps; ++i) {
    CHECK_CUDA(cudaEventRecord(ev[3 * i]));
    ours();
    CHECK_CUDA(cudaEventRecord(ev[3 * i + 1]));
    theirs();
    CHECK_CUDA(cudaEventRecord(ev[3 * i + 2]));
  }
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<float> t_ours(reps), t_blas(reps);
  for (int i = 0; i < reps; ++i) {
    CHECK_CUDA(cudaEventElapsedTime(&t_ours[i], ev[3 * i], ev[3 * i + 1]));
    CHECK_CUDA(cudaEventElapsedTime(&t_blas[i], ev[3 * i + 1], ev[3 * i + 2]));
  }
  std::sort(t_ours.begin(), t_ours.end());
  std::sort(t_blas.begin(), t_blas.end());
  const double flop = 2.0 * M * N * K, mo = t_ours[reps / 2], mb = t_blas[reps / 2];
  std::printf("median of %d: my_gemm %.3f ms %.1f TFLOP/s | cuBLAS %.3f ms %.1f TFLOP/s | ratio %.3f (group %d)\n", reps, mo,
              flop / mo * 1e-9, mb, flop / mb * 1e-9, mb / mo, group);
  for (auto& e : ev) cudaEventDestroy(e);
  cublasDestroy(handle);
  cudaFree(A), cudaFree(B), cudaFree(C), cudaFree(Cref);
  return ok ? 0 : 1;
}
