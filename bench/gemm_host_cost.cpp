// The host work of one tessera::gemm call, piece by piece, against cuBLAS's: what the CPU
// spends before a kernel is queued, which at small shapes is a visible share of a call (the
// Python binding, python/src/gemm_cuda.cpp, makes these calls in this order).
//
// Launches are timed while the stream is held by a host function that waits on a flag, so
// every launch only queues: the time is the host's, never the GPU's. Each figure is the
// median over --rounds rounds of the mean over --calls calls, in microseconds per call.
//
//   gemm_host_cost [M N K] [--calls N] [--rounds R]     bf16 TN, D column-major (default 1000^3)
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "tessera/kernels/gemm.hpp"

namespace tk = tessera::kernels;

namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(2);
  }
}

// Holds `stream` until release(): a host function that waits on the flag, queued first.
struct StreamHold {
  cudaStream_t stream;
  std::atomic<bool> go{false};
  explicit StreamHold(cudaStream_t s) : stream(s) {
    check(cudaLaunchHostFunc(
              stream, [](void* p) { while (!static_cast<std::atomic<bool>*>(p)->load()) std::this_thread::yield(); }, &go),
          "cudaLaunchHostFunc");
  }
  void release() {
    go = true;
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  }
};

// Median over rounds of the mean host time of `calls` calls of f, in microseconds. `queues`:
// f queues work on `stream`, which is held during each round (and released after it).
double us_per_call(const std::function<void()>& f, int calls, int rounds, cudaStream_t stream, bool queues) {
  std::vector<double> r;
  for (int i = 0; i < rounds; ++i) {
    StreamHold* hold = queues ? new StreamHold(stream) : nullptr;
    const auto t0 = std::chrono::steady_clock::now();
    for (int c = 0; c < calls; ++c) f();
    const auto t1 = std::chrono::steady_clock::now();
    if (hold) hold->release(), delete hold;
    r.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / calls);
  }
  std::sort(r.begin(), r.end());
  return r[r.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  long long M = 1000, N = 1000, K = 1000;
  int calls = 200, rounds = 21, positional = 0;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--calls") && i + 1 < argc) calls = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--rounds") && i + 1 < argc) rounds = std::atoi(argv[++i]);
    else if (positional < 3 && std::atoll(argv[i]) > 0) (positional == 0 ? M : positional == 1 ? N : K) = std::atoll(argv[i]), ++positional;
    else {
      std::fprintf(stderr, "usage: %s [M N K] [--calls N] [--rounds R]\n", argv[0]);
      return 1;
    }
  }
  if (calls < 1 || calls > 500 || rounds < 1) {
    std::fprintf(stderr, "error: --calls must be in 1..500 (launches queue behind a held stream) and --rounds >= 1\n");
    return 1;
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "no CUDA device: nothing to time\n");
    return 77;
  }
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  cudaStream_t stream;
  check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
  __nv_bfloat16 *A, *B, *D;
  check(cudaMalloc(&A, M * K * 2), "cudaMalloc A");
  check(cudaMalloc(&B, K * N * 2), "cudaMalloc B");
  check(cudaMalloc(&D, M * N * 2), "cudaMalloc D");
  check(cudaMemset(A, 0, M * K * 2), "cudaMemset");
  check(cudaMemset(B, 0, K * N * 2), "cudaMemset");

  tk::GemmArguments g;  // bf16 TN (A row-major M x K, B column-major K x N), D column-major
  g.m = M, g.n = N, g.k = K, g.batch = 1;
  g.element = tk::Element::BF16;
  g.a.ptr = A, g.a.major = tk::Major::Row, g.a.ld = K;
  g.b.ptr = B, g.b.major = tk::Major::Col, g.b.ld = K;
  g.c.major = tk::Major::Col, g.c.ld = M;
  g.d = D, g.ldd = M;
  g.alpha = 1.0f, g.beta = 0.0f;
  if (tk::GemmResult r = tk::gemm(g, stream); !r) {
    std::fprintf(stderr, "tessera::gemm refused: %s: %s\n", tk::to_string(r.status), r.message.c_str());
    return 2;
  }
  const std::size_t ws_bytes = tk::gemm_workspace_size(g);
  void* ws = nullptr;
  if (ws_bytes) check(cudaMalloc(&ws, ws_bytes), "cudaMalloc workspace");
  cudaMemPool_t pool;
  check(cudaDeviceGetDefaultMemPool(&pool, 0), "cudaDeviceGetDefaultMemPool");
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS || cublasSetStream(handle, stream) != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "cublasCreate failed\n");
    return 2;
  }
  const float alpha = 1.0f, beta = 0.0f;
  auto blas = [&] {
    cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, int(M), int(N), int(K), &alpha, A, CUDA_R_16BF, int(K), B, CUDA_R_16BF,
                 int(K), &beta, D, CUDA_R_16BF, int(M), CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  };
  blas();
  check(cudaStreamSynchronize(stream), "warm-up");

  volatile long long sink = 0;
  struct Piece {
    const char* name;
    std::function<void()> f;
    bool queues;
  };
  tk::GemmArguments with_ws = g;
  with_ws.workspace = ws, with_ws.workspace_bytes = ws_bytes;
  const std::vector<Piece> pieces = {
      {"check_arguments", [&] { sink = sink + bool(tk::check_arguments(g)); }, false},
      {"can_implement", [&] { sink = sink + bool(tk::can_implement(g)); }, false},
      {"gemm_workspace_size", [&] { sink = sink + (long long)tk::gemm_workspace_size(g); }, false},
      {"cudaGetDevice + 2 cudaDeviceGetAttribute",
       [&] {
         int dev = 0, a = 0, b = 0;
         cudaGetDevice(&dev);
         cudaDeviceGetAttribute(&a, cudaDevAttrComputeCapabilityMajor, dev);
         cudaDeviceGetAttribute(&b, cudaDevAttrMultiProcessorCount, dev);
         sink = sink + a + b;
       },
       false},
      {"cudaPointerGetAttributes x3",
       [&] {
         cudaPointerAttributes at;
         for (void* p : {(void*)A, (void*)B, (void*)D}) {
           cudaPointerGetAttributes(&at, p);
           sink = sink + at.device;
         }
       },
       false},
      {"cudaMallocFromPoolAsync + cudaFreeAsync (workspace)",
       [&] {
         void* p = nullptr;
         if (ws_bytes && cudaMallocFromPoolAsync(&p, ws_bytes, pool, stream) == cudaSuccess) cudaFreeAsync(p, stream);
       },
       true},
      {"tessera::gemm (no workspace)", [&] { tk::gemm(g, stream); }, true},
      {"tessera::gemm (workspace given)", [&] { tk::gemm(with_ws, stream); }, true},
      {"cublasGemmEx", blas, true},
  };
  std::printf("host work per call, %lldx%lldx%lld bf16 TN, %s; median of %d rounds of %d calls (us)\n", M, N, K, prop.name,
              rounds, calls);
  for (const Piece& p : pieces) std::printf("  %-52s %8.2f\n", p.name, us_per_call(p.f, calls, rounds, stream, p.queues));
  std::printf("  (workspace: %zu bytes)\n", ws_bytes);
  cublasDestroy(handle);
  return 0;
}
