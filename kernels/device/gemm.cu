// Device layer: argument checks, configuration choice, launch.
#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "../gemm.hpp"
#include "../kernel/gemm_simt.cuh"
#include "../kernel/gemm_tensorop.cuh"

namespace tessera::kernels {

namespace {

// 128x256x32 CTA tile, 2x4 warps of 64x64, 4 stages (96 KiB of operand stages).
using TensorOpTile = TensorOpShape<128, 256, 32, 2, 4, 4>;

Problem to_problem(const GemmArguments& g) {
  Problem p;
  p.m = g.m; p.n = g.n; p.k = g.k; p.batch = g.batch;
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

GemmResult launch_error(const char* what) {
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

template <bool AK, bool BK>
GemmResult launch_simt(const Problem& p, cudaStream_t s) {
  using K = GemmSimtKernel<AK, BK>;
  return launch<K>(gemm_simt_entry<K>, p, s);
}

template <bool BF16, bool AK, bool BK, bool Vec>
GemmResult launch_tensorop(const Problem& p, cudaStream_t s) {
  using K = GemmTensorOpKernel<TensorOpTile, BF16, AK, BK, Vec>;
  return launch<K>(gemm_tensorop_entry<K>, p, s);
}

template <bool BF16, bool Vec>
GemmResult dispatch_tensorop(const Problem& p, cudaStream_t s) {
  if (p.a.row) return p.b.row ? launch_tensorop<BF16, true, false, Vec>(p, s) : launch_tensorop<BF16, true, true, Vec>(p, s);
  return p.b.row ? launch_tensorop<BF16, false, false, Vec>(p, s) : launch_tensorop<BF16, false, true, Vec>(p, s);
}

}  // namespace

GemmResult can_implement(const GemmArguments& args) {
  if (auto r = check_arguments(args); !r) return r;
  int dev = 0;
  if (cudaGetDevice(&dev) != cudaSuccess) {
    cudaGetLastError();
    return {GemmStatus::NoDevice, "no CUDA device is available"};
  }
  int major = 0;
  if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess || major < 8)
    return {GemmStatus::Unsupported, "the kernels need compute capability 8.0 or newer (cp.async, mma.sync bf16)"};
  return {};
}

GemmResult gemm(const GemmArguments& args, CUstream_st* stream) {
  if (auto r = check_arguments(args); !r) return r;
  return gemm(args, select_kernel(args), stream);
}

GemmResult gemm(const GemmArguments& args, GemmKernel kernel, CUstream_st* stream) {
  if (auto r = check_arguments(args); !r) return r;
  const bool is_f32 = args.element == Element::F32;
  if (is_f32 != (kernel == GemmKernel::SimtF32))
    return {GemmStatus::Unsupported, std::string(to_string(kernel)) + " does not take " + to_string(args.element) + " inputs"};
  if (kernel == GemmKernel::TensorOpVec8 && select_kernel(args) != GemmKernel::TensorOpVec8)
    return {GemmStatus::Misaligned, std::string(to_string(kernel)) +
                                        " needs 16-byte aligned A/B pointers and leading dimensions, batch strides "
                                        "and contiguous extents that are multiples of 8"};
  const Problem p = to_problem(args);
  switch (kernel) {
    case GemmKernel::SimtF32:
      if (p.a.row) return p.b.row ? launch_simt<true, false>(p, stream) : launch_simt<true, true>(p, stream);
      return p.b.row ? launch_simt<false, false>(p, stream) : launch_simt<false, true>(p, stream);
    case GemmKernel::TensorOpVec8:
      return args.element == Element::BF16 ? dispatch_tensorop<true, true>(p, stream)
                                           : dispatch_tensorop<false, true>(p, stream);
    case GemmKernel::TensorOpScalar:
      return args.element == Element::BF16 ? dispatch_tensorop<true, false>(p, stream)
                                           : dispatch_tensorop<false, false>(p, stream);
  }
  return {GemmStatus::Unsupported, "unknown kernel configuration"};
}

}  // namespace tessera::kernels
