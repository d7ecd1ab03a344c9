// Example 4b: run a small GEMM on the GPU with tessera's kernels, and check it on the host.
//
//   D (256x256, f16) = A (256x128, f16, K contiguous) * B (128x256, f16, K contiguous)
//
// tessera::gemm checks the arguments first (sizes, pointers, leading dims, alignment), then
// picks a kernel (here the tensor-core one whose partition example 4a checks) and launches
// it. Needs an sm_80+ GPU: without one it prints why and exits 77, which ctest reports as
// "skipped". Built only where CUDA is (it links tessera_kernels and the CUDA runtime).
#include <cmath>
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

#include <tessera/kernels/gemm.hpp>                 // tessera::gemm, GemmArguments
#include <tessera/atom/numeric.hpp> // half_t: f16 storage with float conversion

using tessera::half_t;
namespace tk = tessera::kernels;

int main() {
  const int M = 256, N = 256, K = 128;
  // Host operands: small integers times 1/8, exact in f16, so the check can be tight.
  std::vector<half_t> a(M * K), b(K * N), d(M * N);
  for (int m = 0; m < M; ++m)
    for (int k = 0; k < K; ++k) a[m * K + k] = half_t::from_float(float((m + 3 * k) % 7 - 3) / 8);
  for (int n = 0; n < N; ++n)
    for (int k = 0; k < K; ++k) b[n * K + k] = half_t::from_float(float((2 * n + k) % 5 - 2) / 8);

  tk::GemmArguments args;
  args.m = M, args.n = N, args.k = K;
  args.element = tk::Element::F16;
  args.a = {nullptr, tk::Major::Row, K, 0};  // A is M x K, row-major: K contiguous
  args.b = {nullptr, tk::Major::Col, K, 0};  // B is K x N, column-major: K contiguous
  args.c = {nullptr, tk::Major::Row, N, 0};  // no C (beta = 0); D shares C's major
  args.ldd = N;
  args.alpha = 1.0f, args.beta = 0.0f;

  // Ask first: no device (or an older one) is an answer, not a crash.
  args.a.ptr = a.data(), args.b.ptr = b.data(), args.d = d.data();  // placeholders for the check
  if (tk::GemmResult r = tk::can_implement(args); !r) {
    std::printf("skipped: %s: %s\n", tk::to_string(r.status), r.message.c_str());
    return r.status == tk::GemmStatus::NoDevice ? 77 : 1;
  }

  half_t *da = nullptr, *db = nullptr, *dd = nullptr;
  cudaMalloc(&da, a.size() * sizeof(half_t));
  cudaMalloc(&db, b.size() * sizeof(half_t));
  cudaMalloc(&dd, d.size() * sizeof(half_t));
  cudaMemcpy(da, a.data(), a.size() * sizeof(half_t), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), b.size() * sizeof(half_t), cudaMemcpyHostToDevice);
  args.a.ptr = da, args.b.ptr = db, args.d = dd;

  const tk::GemmResult r = tessera::gemm(args);
  cudaError_t e = cudaDeviceSynchronize();
  if (!r || e != cudaSuccess) {
    std::printf("error: %s %s\n", r ? "" : r.message.c_str(), cudaGetErrorString(e));
    return 1;
  }
  cudaMemcpy(d.data(), dd, d.size() * sizeof(half_t), cudaMemcpyDeviceToHost);
  cudaFree(da), cudaFree(db), cudaFree(dd);

  // Host reference in double; f16 output rounds to 11 significant bits.
  int bad = 0;
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      double ref = 0;
      for (int k = 0; k < K; ++k) ref += double(a[m * K + k].to_float()) * double(b[n * K + k].to_float());
      const double got = d[m * N + n].to_float();
      if (std::fabs(got - ref) > 1e-3 * std::fabs(ref) + 1e-3 && bad++ < 5)
        std::printf("D(%d,%d) = %g, expected %g\n", m, n, got, ref);
    }
  std::printf("%dx%dx%d f16 GEMM: %s (%d wrong elements)\n", M, N, K, bad ? "FAILED" : "correct", bad);
  return bad ? 1 : 0;
}
