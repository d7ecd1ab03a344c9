// Device layer internals: Problem from GemmArguments, and launching a kernel configuration
// for the layout (majors) and copy path the arguments need.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "../gemm.hpp"
#include "../kernel/gemm_simt.cuh"
#include "../kernel/gemm_tensorop.cuh"

namespace tessera::kernels::device {

inline Problem to_problem(const GemmArguments& g) {
  Problem p;
  p.m = g.m; p.n = g.n; p.k = g.k; p.batch = g.batch;
  p.trace = nullptr;
  p.a = {g.a.ptr, g.a.ld, g.a.batch_stride, g.a.major == Major::Row};
  p.b = {g.b.ptr, g.b.ld, g.b.batch_stride, g.b.major == Major::Row};
  p.c = {g.beta != 0.0f ? g.c.ptr : nullptr, g.c.ld, g.c.batch_stride, g.c.major == Major::Row};
  p.d = {g.d, g.ldd, g.batch_stride_d, g.c.major == Major::Row};
  p.alpha = g.alpha;
  p.beta = g.beta;
  // Vector epilogue: 16-byte aligned C/D pointers, leading dimensions, batch strides, and a
  // contiguous extent that 16-byte vectors tile exactly.
  const int v = 16 / element_bytes(g.element);
  auto aligned = [](const void* ptr) { return reinterpret_cast<std::uintptr_t>(ptr) % 16 == 0; };
  const std::int64_t contiguous = p.d.row ? g.n : g.m;
  bool ok = aligned(g.d) && g.ldd % v == 0 && contiguous % v == 0 && (g.batch == 1 || g.batch_stride_d % v == 0);
  if (p.c.ptr) ok = ok && aligned(p.c.ptr) && g.c.ld % v == 0 && (g.batch == 1 || g.c.batch_stride % v == 0);
  p.d_vector_ok = ok;
  return p;
}

inline GemmResult launch_error(const char* what) {
  cudaError_t e = cudaGetLastError();
  return {GemmStatus::LaunchFailed, std::string(what) + ": " + cudaGetErrorString(e)};
}

template <class Kernel, class Entry>
GemmResult launch(Entry entry, const Problem& p, cudaStream_t stream) {
  const auto sched = Kernel::scheduler(p);
  if (sched.tile_count() > 0x7fffffffLL)
    return {GemmStatus::InvalidSize, "too many output tiles for one grid: " + std::to_string(sched.tile_count())};
  // Opting in above 48 KiB is per kernel; cheap enough to repeat on every launch.
  if (cudaFuncSetAttribute(entry, cudaFuncAttributeMaxDynamicSharedMemorySize, Kernel::smem_bytes) != cudaSuccess)
    return launch_error("cudaFuncSetAttribute(MaxDynamicSharedMemorySize)");
  dim3 grid(unsigned(sched.tile_count()), 1, unsigned(p.batch));
  entry<<<grid, Kernel::Threads, Kernel::smem_bytes, stream>>>(p);
  if (cudaPeekAtLastError() != cudaSuccess) return launch_error("kernel launch");
  return {};
}

template <class Shape>
GemmResult run_simt(const Problem& p, cudaStream_t s) {
  auto go = [&](auto a_k, auto b_k) {
    using K = GemmSimtKernel<Shape, decltype(a_k)::value, decltype(b_k)::value>;
    return launch<K>(gemm_simt_entry<K>, p, s);
  };
  using T = std::true_type;
  using F = std::false_type;
  // A row-major = K-major; B column-major = K-major.
  if (p.a.row) return p.b.row ? go(T{}, F{}) : go(T{}, T{});
  return p.b.row ? go(F{}, F{}) : go(F{}, T{});
}

template <class Shape, bool BF16, bool Vec, bool Swizzled = true>
GemmResult run_tensorop(const Problem& p, cudaStream_t s) {
  auto go = [&](auto a_k, auto b_k) {
    using K = GemmTensorOpKernel<Shape, BF16, decltype(a_k)::value, decltype(b_k)::value, Vec, Swizzled>;
    return launch<K>(gemm_tensorop_entry<K>, p, s);
  };
  using T = std::true_type;
  using F = std::false_type;
  if (p.a.row) return p.b.row ? go(T{}, F{}) : go(T{}, T{});
  return p.b.row ? go(F{}, F{}) : go(F{}, T{});
}

}  // namespace tessera::kernels::device
