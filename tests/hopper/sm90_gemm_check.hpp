// The SM90 GEMM against an FP64 reference on fresh random inputs, poisoned output (shared by
// hopper_sm90_gemm_gpu_test and bench/sm90_gemm_bench). Host + CUDA runtime only.
#pragma once

#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <type_traits>
#include <vector>

#include <tessera/atom/numeric.hpp>
#include <tessera/kernels/gemm_arguments.hpp>

namespace sm90_check {

using tessera::kernels::GemmArguments;
using tessera::kernels::Major;

// An element's value (bf16/f16 storage, or f32 for the tf32 path).
template <class T>
__host__ __device__ inline double value(T x) {
  if constexpr (std::is_same_v<T, float>) return x;
  else return x.to_float();
}
// ||out - ref|| / ||ref|| accepted: 1e-2 for a 16-bit output; for f32 inputs multiplied as tf32
// (10-bit mantissa: each input off by at most 2^-10 relative, truncated or rounded), 2^-8,
// about 5x what tf32 products of random signs leave (6.9e-4 against FP64 on the H100).
template <class T>
constexpr double tolerance = std::is_same_v<T, float> ? 1.0 / 256 : 1e-2;

#define SM90_CUDA(x)                                                                        \
  do {                                                                                      \
    cudaError_t e_ = (x);                                                                   \
    if (e_ != cudaSuccess) {                                                                \
      std::printf("CUDA error %s at %s:%d: %s\n", cudaGetErrorString(e_), __FILE__, __LINE__, #x); \
      std::exit(2);                                                                         \
    }                                                                                       \
  } while (0)

template <class T>
struct Problem {
  int64_t m, n, k, l;
  bool d_row;
  float alpha, beta;
  bool a_k = true, b_k = true;  // A K-major: (M, K) row-major, else column-major; B K-major: K x N column-major, else row-major
  std::vector<T> a, b, c;  // C like D
  T *da = nullptr, *db = nullptr, *dc = nullptr, *dd = nullptr;
  GemmArguments args;

  // layout: "TN" (A and B K-major), "NT" (both MN-major), "NN" (A MN-major), "TT" (B MN-major)
  Problem(int64_t m_, int64_t n_, int64_t k_, int64_t l_, bool d_row_, float alpha_, float beta_, uint64_t seed,
          const char* layout = "TN")
      : m(m_), n(n_), k(k_), l(l_), d_row(d_row_), alpha(alpha_), beta(beta_), a_k(layout[0] == 'T'), b_k(layout[1] == 'N') {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    a.resize(size_t(m * k * l));
    b.resize(size_t(n * k * l));
    c.resize(size_t(m * n * l));
    for (auto& x : a) x = T(u(rng));
    for (auto& x : b) x = T(u(rng));
    for (auto& x : c) x = T(u(rng));
    SM90_CUDA(cudaMalloc(&da, a.size() * sizeof(T)));
    SM90_CUDA(cudaMalloc(&db, b.size() * sizeof(T)));
    SM90_CUDA(cudaMalloc(&dc, c.size() * sizeof(T)));
    SM90_CUDA(cudaMalloc(&dd, c.size() * sizeof(T)));
    SM90_CUDA(cudaMemcpy(da, a.data(), a.size() * sizeof(T), cudaMemcpyHostToDevice));
    SM90_CUDA(cudaMemcpy(db, b.data(), b.size() * sizeof(T), cudaMemcpyHostToDevice));
    SM90_CUDA(cudaMemcpy(dc, c.data(), c.size() * sizeof(T), cudaMemcpyHostToDevice));
    poison();
    args.m = m; args.n = n; args.k = k; args.batch = l;
    args.element = std::is_same_v<T, float>                ? tessera::kernels::Element::F32
                   : std::is_same_v<T, tessera::bfloat16_t> ? tessera::kernels::Element::BF16
                                                            : tessera::kernels::Element::F16;
    args.allow_tf32 = std::is_same_v<T, float>;
    args.a = {da, a_k ? Major::Row : Major::Col, a_k ? k : m, m * k};
    args.b = {db, b_k ? Major::Col : Major::Row, b_k ? k : n, n * k};
    args.c = {beta != 0 ? dc : nullptr, d_row ? Major::Row : Major::Col, d_row ? n : m, m * n};
    args.d = dd;
    args.ldd = d_row ? n : m;
    args.batch_stride_d = m * n;
    args.alpha = alpha;
    args.beta = beta;
  }
  ~Problem() { cudaFree(da); cudaFree(db); cudaFree(dc); cudaFree(dd); }
  void poison() { SM90_CUDA(cudaMemset(dd, 0xff, c.size() * sizeof(T))); }  // NaN in bf16, f16 and f32
  int64_t at_d(int64_t i, int64_t j, int64_t q) const { return q * m * n + (d_row ? i * n + j : i + j * m); }
  double ref(int64_t i, int64_t j, int64_t q) const {
    double s = 0;
    for (int64_t x = 0; x < k; ++x)
      s += value(a[size_t(q * m * k + (a_k ? i * k + x : i + x * m))]) * value(b[size_t(q * n * k + (b_k ? j * k + x : j + x * n))]);
    return alpha * s + (beta != 0 ? beta * value(c[size_t(at_d(i, j, q))]) : 0.0);
  }
  // ||out - ref|| / ||ref|| over every element (small problems) or `samples` random ones,
  // NaN (an unwritten or wrong element) fails.
  bool verify(double& rel, int64_t& nan_count, int64_t samples = 4096) const {
    std::vector<T> d(c.size());
    SM90_CUDA(cudaMemcpy(d.data(), dd, d.size() * sizeof(T), cudaMemcpyDeviceToHost));
    nan_count = 0;
    for (auto& x : d) nan_count += std::isnan(value(x));
    double num = 0, den = 0;
    auto visit = [&](int64_t i, int64_t j, int64_t q) {
      const double r = ref(i, j, q), o = value(d[size_t(at_d(i, j, q))]);
      num += (o - r) * (o - r);
      den += r * r;
    };
    if (m * n * k * l <= (int64_t(1) << 31)) {
      for (int64_t q = 0; q < l; ++q)
        for (int64_t j = 0; j < n; ++j)
          for (int64_t i = 0; i < m; ++i) visit(i, j, q);
    } else {
      std::mt19937_64 rng(12345);
      for (int64_t s = 0; s < samples; ++s) visit(int64_t(rng() % uint64_t(m)), int64_t(rng() % uint64_t(n)), int64_t(rng() % uint64_t(l)));
      // the four corners and the last row/column too: residues
      visit(m - 1, n - 1, l - 1); visit(0, n - 1, 0); visit(m - 1, 0, 0);
    }
    rel = std::sqrt(num / (den > 0 ? den : 1));
    return nan_count == 0 && rel < tolerance<T>;
  }
};

}  // namespace sm90_check
