// Host-side harness shared by the GPU test (tests/kernels/gemm_gpu_test.cu) and the benchmark
// (bench/gemm.cu): a checked CUDA call, and device-filled random inputs. Not part of the
// kernels or of the installed API (tools/check_layers.py: the part "harness").
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include <tessera/atom/numeric.hpp>

// Any CUDA runtime error ends the program (exit 2) with the call and where it was made.
#define TESSERA_CUDA_CHECK(x)                                                                \
  do {                                                                                       \
    cudaError_t e_ = (x);                                                                    \
    if (e_ != cudaSuccess) {                                                                 \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      std::exit(2);                                                                          \
    }                                                                                        \
  } while (0)

namespace tessera::kernels::harness {

// Element i of stream `seed`, uniform in [-1, 1): splitmix64 of (i, seed), so every launch
// shape fills the same values and a seed names a whole input.
__device__ __forceinline__ double hash_uniform(std::uint64_t i, std::uint64_t seed) {
  std::uint64_t z = i * 0x9E3779B97F4A7C15ull + seed;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return double(z >> 11) * (1.0 / 9007199254740992.0) * 2.0 - 1.0;
}

template <class T>
__global__ void fill_random_kernel(T* p, std::int64_t n, std::uint64_t seed) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x)
    p[i] = T(float(hash_uniform(std::uint64_t(i), seed)));
}

// p[0, n) = stream `seed` (asynchronous on the default stream).
template <class T>
void fill_random(T* p, std::int64_t n, std::uint64_t seed) {
  fill_random_kernel<<<1024, 256>>>(p, n, seed);
  TESSERA_CUDA_CHECK(cudaGetLastError());
}

// FP8 inputs: p[0, n) = stream `seed` times `range`, rounded to Fp8 (float_e4m3_t or
// float_e5m2_t), as bytes; decoded[i] (when not null) = the exact value byte p[i] encodes, what
// the tensor cores multiply (an FP8 value is exact in f32).
template <class Fp8>
__global__ void fill_random_fp8_kernel(std::uint8_t* p, float* decoded, std::int64_t n, std::uint64_t seed, float range) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    const std::uint8_t b = Fp8(float(hash_uniform(std::uint64_t(i), seed)) * range).bits;
    p[i] = b;
    if (decoded != nullptr) decoded[i] = Fp8::from_bits(b).to_float();
  }
}
inline void fill_random_fp8(std::uint8_t* p, float* decoded, std::int64_t n, std::uint64_t seed, bool e5m2, float range = 4.0f) {
  if (e5m2) fill_random_fp8_kernel<float_e5m2_t><<<1024, 256>>>(p, decoded, n, seed, range);
  else fill_random_fp8_kernel<float_e4m3_t><<<1024, 256>>>(p, decoded, n, seed, range);
  TESSERA_CUDA_CHECK(cudaGetLastError());
}

}  // namespace tessera::kernels::harness
