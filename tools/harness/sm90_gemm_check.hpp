// The SM90 GEMM against an FP64 reference on fresh random inputs, poisoned output (shared by
// the SM90 GPU tests, bench/sm90_gemm_bench and the device probes). Host + CUDA runtime only.
// Problem<T, TD>: inputs T, C and D (and the bias) TD; fuse() adds a bias vector and an
// activation, which the reference applies in double from the definitions (not from
// epilogue_ops.hpp, which the kernel uses).
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
#include "activation_reference.hpp"
#include "cuda_check.hpp"  // SM90_CUDA

namespace sm90_check {

using tessera::kernels::Activation;
using tessera::kernels::Bias;
using tessera::kernels::GemmArguments;
using tessera::kernels::Major;

// An element's value (bf16/f16 storage, or f32 for the tf32 path), host and device.
template <class X>
__host__ __device__ inline double to_double(X x) {
  if constexpr (std::is_same_v<X, float>) return double(x);
  else return double(x.to_float());
}

inline double activate_ref(Activation a, double x) { return tessera::kernels::reference::activate(a, x); }
// ||out - ref|| / ||ref|| accepted: 1e-2 for a 16-bit output, 1e-4 for an f32 D of 16-bit inputs
// (only the accumulation's rounding: a D rounded to 16 bits somewhere fails); for f32 inputs
// multiplied as tf32 (10-bit mantissa: each input off by at most 2^-10 relative), 2^-8, about
// 5x what tf32 products of random signs leave (6.9e-4 against FP64 on the H100).
template <class T, class TD>
constexpr double tolerance = std::is_same_v<T, float> ? 1.0 / 256 : std::is_same_v<TD, float> ? 1e-4 : 1e-2;

template <class T, class TD = T>
struct Problem {
  int64_t m, n, k, l;
  bool d_row;
  float alpha, beta;
  bool a_k = true, b_k = true;  // A K-major: (M, K) row-major, else column-major; B K-major: K x N column-major, else row-major
  std::vector<T> a, b;
  std::vector<TD> c, bias;  // C like D
  T *da = nullptr, *db = nullptr;
  TD *dc = nullptr, *dd = nullptr, *dbias = nullptr;
  Activation act = Activation::Identity;
  Bias bias_mode = Bias::None;
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
    for (auto& x : c) x = TD(u(rng));
    SM90_CUDA(cudaMalloc(&da, a.size() * sizeof(T)));
    SM90_CUDA(cudaMalloc(&db, b.size() * sizeof(T)));
    SM90_CUDA(cudaMalloc(&dc, c.size() * sizeof(TD)));
    SM90_CUDA(cudaMalloc(&dd, c.size() * sizeof(TD)));
    SM90_CUDA(cudaMemcpy(da, a.data(), a.size() * sizeof(T), cudaMemcpyHostToDevice));
    SM90_CUDA(cudaMemcpy(db, b.data(), b.size() * sizeof(T), cudaMemcpyHostToDevice));
    SM90_CUDA(cudaMemcpy(dc, c.data(), c.size() * sizeof(TD), cudaMemcpyHostToDevice));
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
    if constexpr (std::is_same_v<TD, float>) args.epilogue.output = tessera::kernels::Element::F32;
  }
  ~Problem() { cudaFree(da); cudaFree(db); cudaFree(dc); cudaFree(dd); cudaFree(dbias); }
  // NaN in bf16, f16 and f32; where C is D (alias_c_to_d), C again instead.
  void poison() {
    if (c_is_d) SM90_CUDA(cudaMemcpy(dd, c.data(), c.size() * sizeof(TD), cudaMemcpyHostToDevice));
    else SM90_CUDA(cudaMemset(dd, 0xff, c.size() * sizeof(TD)));
  }
  // C aliases D (same pointer, strides and major): D holds C before each launch (beta != 0).
  bool c_is_d = false;
  void alias_c_to_d() {
    c_is_d = true;
    args.c.ptr = dd;
    poison();
  }
  // The fused epilogue: a random bias vector (length M per row, N per column; one for all
  // batches) and an activation.
  void fuse(Activation a, Bias b, uint64_t seed = 7) {
    act = a;
    bias_mode = b;
    args.epilogue.activation = a;
    args.epilogue.bias = b;
    args.epilogue.bias_ptr = nullptr;
    if (b == Bias::None) return;
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    bias.resize(size_t(b == Bias::PerRow ? m : n));
    for (auto& x : bias) x = TD(u(rng));
    cudaFree(dbias);
    SM90_CUDA(cudaMalloc(&dbias, bias.size() * sizeof(TD)));
    SM90_CUDA(cudaMemcpy(dbias, bias.data(), bias.size() * sizeof(TD), cudaMemcpyHostToDevice));
    args.epilogue.bias_ptr = dbias;
  }
  int64_t at_d(int64_t i, int64_t j, int64_t q) const { return q * m * n + (d_row ? i * n + j : i + j * m); }
  double ref(int64_t i, int64_t j, int64_t q) const {
    double s = 0;
    for (int64_t x = 0; x < k; ++x)
      s += to_double(a[size_t(q * m * k + (a_k ? i * k + x : i + x * m))]) *
           to_double(b[size_t(q * n * k + (b_k ? j * k + x : j + x * n))]);
    const double bias_term = bias_mode == Bias::None ? 0.0 : to_double(bias[size_t(bias_mode == Bias::PerRow ? i : j)]);
    return activate_ref(act, alpha * s + (beta != 0 ? beta * to_double(c[size_t(at_d(i, j, q))]) : 0.0) + bias_term);
  }
  // ||out - ref|| / ||ref|| over every element (small problems) or `samples` random ones,
  // NaN (an unwritten or wrong element) fails.
  bool verify(double& rel, int64_t& nan_count, int64_t samples = 4096) const {
    std::vector<TD> d(c.size());
    SM90_CUDA(cudaMemcpy(d.data(), dd, d.size() * sizeof(TD), cudaMemcpyDeviceToHost));
    nan_count = 0;
    for (auto& x : d) nan_count += std::isnan(to_double(x));
    double num = 0, den = 0;
    auto visit = [&](int64_t i, int64_t j, int64_t q) {
      const double r = ref(i, j, q), o = to_double(d[size_t(at_d(i, j, q))]);
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
    return nan_count == 0 && rel < tolerance<T, TD>;
  }
};

// ||x - ref|| / ||ref|| over n device elements, on the GPU (an unwritten NaN counts as a huge
// error): the bench's and the probes' check of a whole output against cuBLAS's.
template <class T>
__global__ void diff_norms(const T* x, const T* ref, int64_t n, double* acc) {
  double d = 0, r = 0;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x) {
    const double a = to_double(x[i]), b = to_double(ref[i]);
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

}  // namespace sm90_check
