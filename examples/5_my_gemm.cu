// 5. Your own GEMM kernel with tessera (the CTA's work is in 5_my_gemm.hpp): launch it,
// check it against a double-precision reference on sampled elements and against cuBLAS
// on all of C, and time it against cuBLAS (CUDA events, alternating launches, median).
//
//   5_my_gemm [M N K] [reps] [group]      (defaults 8192 8192 8192, 50, 8)
//   5_my_gemm --trace FILE                one CTA in trace mode (5_my_gemm_trace.hpp): FILE for
//                                         `tessera verify FILE`
//   Any M, N >= 1 with N even, K >= 8 a multiple of 8 (16-byte rows for cp.async); tiles that
//   cross an edge are predicated.  Exit 77 where there is no GPU.
#include <cstdio>
#include <string>

#include "5_my_gemm_trace.hpp"
#include "example_host.hpp"

using my_gemm::T;

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

int main(int argc, char** argv) {
  int devices = 0;
  const bool gpu = cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0;
  if (argc >= 2 && std::string(argv[1]) == "--trace") {
    if (argc != 3) {
      std::fprintf(stderr, "usage: %s --trace FILE\n", argv[0]);
      return 1;
    }
    if (!gpu) {
      std::printf("no GPU: skipped\n");
      return 77;
    }
    const int smem_bytes = my_gemm::smem_elements * int(sizeof(T));
    EXAMPLE_CUDA(cudaFuncSetAttribute(my_gemm_traced, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_bytes));
    using namespace my_gemm;
    return examples::write_device_trace<T>(
        argv[2], std::size_t(int(bM) * int(bK)), std::size_t(int(bN) * int(bK)), std::size_t(int(bM) * int(bN)), 1 << 16, trace_inputs,
        [&](bool accumulators, T* A, T* B, T* C, int* count, int capacity, int* records) {
          my_gemm_traced<<<1, Threads, smem_bytes>>>(A, B, C, Recorder{{count, capacity, records}, accumulators});
        },
        write_trace);
  }
  int M = 8192, N = 8192, K = 8192, reps = 50, group = 8;
  if (argc >= 4) M = std::atoi(argv[1]), N = std::atoi(argv[2]), K = std::atoi(argv[3]);
  if (argc >= 5) reps = std::atoi(argv[4]);
  if (argc >= 6) group = std::atoi(argv[5]);
  if (M < 1 || N < 2 || N % 2 || K < 8 || K % 8 || reps < 1 || group < 1) {
    std::fprintf(stderr, "error: need M >= 1, N >= 2 even, K >= 8 a multiple of 8, reps >= 1, group >= 1 (got %d %d %d, %d, %d)\n", M,
                 N, K, reps, group);
    return 1;
  }
  if (!gpu) {
    std::printf("no GPU: skipped\n");
    return 77;
  }
  examples::TnProblem<T> problem(M, N, K);
  const int smem_bytes = my_gemm::smem_elements * int(sizeof(T));
  EXAMPLE_CUDA(cudaFuncSetAttribute(my_gemm_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_bytes));
  const int m_tiles = (M + 127) / 128, n_tiles = (N + 127) / 128;
  const int ctas = group * n_tiles * ((m_tiles + group - 1) / group);
  auto ours = [&] {
    my_gemm_kernel<<<ctas, my_gemm::Threads, smem_bytes>>>(problem.A, problem.B, problem.D, M, N, K, 1.f, 0.f, group);
  };
  cublasHandle_t handle;
  cublasCreate(&handle);
  auto theirs = [&] { problem.cublas(handle); };
  ours();
  theirs();
  EXAMPLE_CUDA(cudaGetLastError());
  EXAMPLE_CUDA(cudaDeviceSynchronize());
  const bool ok = problem.check(2e-3, "f16");  // f16 output: relative rounding 2^-11
  examples::time_against_cublas("my_gemm", ours, theirs, reps, 2.0 * M * N * K, "group " + std::to_string(group));
  cublasDestroy(handle);
  return ok ? 0 : 1;
}
