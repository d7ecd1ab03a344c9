// Device layer internals: Problem from GemmArguments, and launching a kernel configuration
// for the layout (majors) and copy path the arguments need.
#pragma once

#include <cuda_runtime.h>

#include <atomic>
#include <cstdint>
#include <string>

#include "tessera/kernels/gemm.hpp"
#include "../kernel/gemm_kernel.hpp"
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
  p.partials = static_cast<float*>(g.workspace);  // split-K is decided at launch (launch_split)
  p.workspace_bytes = g.workspace ? g.workspace_bytes : 0;
  return p;
}

inline GemmResult launch_error(const char* what) {
  cudaError_t e = cudaGetLastError();
  return {GemmStatus::LaunchFailed, std::string(what) + ": " + cudaGetErrorString(e)};
}

// Once per kernel and device: raise the kernel's dynamic shared-memory limit (opting in
// above 48 KiB is per kernel) and count the CTAs of it one SM holds; -1 if either failed.
// Both are driver calls whose answer never changes, and on every launch they showed in the
// time of small problems.
template <class Kernel, class Entry>
int prepare_kernel(Entry entry) {
  constexpr int kDevices = 64;
  static std::atomic<int> ctas_per_sm[kDevices];  // 0: not yet asked
  int dev = 0;
  if (cudaGetDevice(&dev) != cudaSuccess) return -1;
  if (dev >= 0 && dev < kDevices)
    if (const int known = ctas_per_sm[dev].load(std::memory_order_relaxed); known != 0) return known;
  int per_sm = 0;
  if (cudaFuncSetAttribute(entry, cudaFuncAttributeMaxDynamicSharedMemorySize, Kernel::smem_bytes) != cudaSuccess ||
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, entry, Kernel::Threads, Kernel::smem_bytes) !=
          cudaSuccess ||
      per_sm <= 0)
    return -1;  // not cached: the caller reports the error now, a later call asks again
  if (dev >= 0 && dev < kDevices) ctas_per_sm[dev].store(per_sm, std::memory_order_relaxed);
  return per_sm;
}

// ctas: the grid's x extent; the tile count unless split-K adds slices.
template <class Kernel, class Entry>
GemmResult launch(Entry entry, const Problem& p, cudaStream_t stream, std::int64_t ctas = -1) {
  const auto sched = Kernel::scheduler(p);
  if (ctas < 0) ctas = sched.tile_count();
  if (ctas > 0x7fffffffLL)
    return {GemmStatus::InvalidSize, "too many output tiles for one grid: " + std::to_string(ctas)};
  if (prepare_kernel<Kernel>(entry) < 0)
    return launch_error("cudaFuncSetAttribute(MaxDynamicSharedMemorySize) / occupancy query");
  dim3 grid(unsigned(ctas), 1, unsigned(p.batch));
  entry<<<grid, Kernel::Threads, Kernel::smem_bytes, stream>>>(p);
  if (cudaPeekAtLastError() != cudaSuccess) return launch_error("kernel launch");
  return {};
}

// Split-K of the last wave (SplitPlan) for a tensor-core kernel on the current device: slots
// are the SMs times the CTAs of the kernel one SM holds.  Batched problems are not split.
// Any CUDA error here only means "no split".
inline constexpr int kMaxSplit = 8, kMinSliceKTiles = 4;
template <class Kernel, class Entry>
SplitPlan split_plan(Entry entry, const Problem& p) {
  const std::int64_t tiles = Kernel::scheduler(p).tile_count();
  int dev = 0, sms = 0, per_sm = 0;
  if (p.batch != 1 || (per_sm = prepare_kernel<Kernel>(entry)) <= 0 || cudaGetDevice(&dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess) {
    cudaGetLastError();
    return {tiles, 1};
  }
  const int k_tiles = int((p.k + Kernel::Mainloop::BK - 1) / Kernel::Mainloop::BK);
  return plan_split(tiles, k_tiles, sms * per_sm, kMaxSplit, kMinSliceKTiles);
}
// Workspace the plan needs: an f32 accumulator tile per slice of every split tile (the
// partials), then one arrival counter per split tile.
template <class Kernel>
std::size_t split_partials_bytes(const SplitPlan& plan, std::int64_t tiles) {
  return std::size_t(tiles - plan.whole) * std::size_t(plan.split) * Kernel::Mainloop::BM * Kernel::Mainloop::BN *
         sizeof(float);
}
template <class Kernel>
std::size_t split_workspace_bytes(const SplitPlan& plan, std::int64_t tiles) {
  if (plan.split < 2) return 0;
  return split_partials_bytes<Kernel>(plan, tiles) + std::size_t(tiles - plan.whole) * sizeof(unsigned);
}

// Launches a tensor-core kernel, split when the plan says so and the workspace holds it.
template <class Kernel, class Entry>
GemmResult launch_split(Entry entry, const Problem& p, cudaStream_t stream) {
  const std::int64_t tiles = Kernel::scheduler(p).tile_count();
  const SplitPlan plan = p.partials ? split_plan<Kernel>(entry, p) : SplitPlan{tiles, 1};
  const std::size_t need = split_workspace_bytes<Kernel>(plan, tiles);
  if (need == 0 || need > p.workspace_bytes) return launch<Kernel>(entry, p, stream);
  Problem q = p;
  q.split_k = plan;
  q.arrivals = reinterpret_cast<unsigned*>(reinterpret_cast<unsigned char*>(p.partials) +
                                           split_partials_bytes<Kernel>(plan, tiles));
  if (cudaMemsetAsync(q.arrivals, 0, need - split_partials_bytes<Kernel>(plan, tiles), stream) != cudaSuccess)
    return launch_error("cudaMemsetAsync(split-K arrival counters)");
  return launch<Kernel>(entry, q, stream, plan.ctas(tiles));
}

// The kernels a tile configuration (configs.cuh) runs, built by the collective builders
// (collective/collective_builder.hpp) and composed by gemm_kernel_t (kernel/gemm_kernel.hpp):
// the configuration's tile, stages and schedule, the operands' majors, and an alignment of 8
// elements (Vec: 16-byte cp.async) or 1 (element copies).
template <bool KMajorOperand>
using major_tag = std::conditional_t<KMajorOperand, KMajor, MNMajor>;
template <class Shape, bool BF16, bool AK, bool BK, bool Vec, bool Swizzled = true>
struct TensorOpBuild {
  using Element = std::conditional_t<BF16, bfloat16_t, half_t>;
  static constexpr int Align = Vec ? 8 : 1;
  using Mainloop = CollectiveBuilder<arch::Sm80, OpClassTensorOp, Element, major_tag<AK>, Align, Element, major_tag<BK>, Align,
                                     float, tuple<C<Shape::BM>, C<Shape::BN>, C<Shape::BK>>, tuple<_1, _1, _1>,
                                     StageCount<Shape::Stages>,
                                     KernelCpAsyncMultistage<Shape::MinBlocks, Shape::Group, Shape::L2Prefetch, Swizzled>>;
  static_assert(std::is_same_v<typename Mainloop::Shape, Shape>, "a configuration is a shape the builder builds");
  static_assert(Mainloop::Vectorized == Vec, "16-byte copies exactly when the alignment allows them");
  using Epilogue = CollectiveEpilogueBuilder<Mainloop, Element, Align>;
  using Kernel = gemm_kernel_t<GemmProblemShape, typename Mainloop::CollectiveOp, typename Epilogue::CollectiveOp,
                               GroupedRasterization<Shape::Group>>;
};
template <class Shape, bool AK, bool BK>
struct SimtBuild {
  using Mainloop = CollectiveBuilder<arch::Sm80, OpClassSimt, float, major_tag<AK>, 1, float, major_tag<BK>, 1, float,
                                     tuple<C<Shape::BM>, C<Shape::BN>, C<Shape::BK>>, tuple<_1, _1, _1>,
                                     StageCount<Shape::Stages>,
                                     std::conditional_t<Shape::WarpGrid8x4, KernelSimtWarpGrid8x4, KernelSimtThreadGrid16x16>>;
  static_assert(std::is_same_v<typename Mainloop::Shape, Shape>, "a configuration is a shape the builder builds");
  using Epilogue = CollectiveEpilogueBuilder<Mainloop, float, 1>;
  using Kernel = gemm_kernel_t<GemmProblemShape, typename Mainloop::CollectiveOp, typename Epilogue::CollectiveOp,
                               GroupedRasterization<8>>;
};

template <class Shape, bool BF16, bool Vec, bool Swizzled = true>
std::size_t tensorop_workspace_size(const Problem& p) {
  using K = typename TensorOpBuild<Shape, BF16, true, true, Vec, Swizzled>::Kernel;  // every major: same tiles, same occupancy
  return split_workspace_bytes<K>(split_plan<K>(gemm_tensorop_entry<K>, p), K::scheduler(p).tile_count());
}

template <class Shape>
GemmResult run_simt(const Problem& p, cudaStream_t s) {
  auto go = [&](auto a_k, auto b_k) {
    using K = typename SimtBuild<Shape, decltype(a_k)::value, decltype(b_k)::value>::Kernel;
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
    using K = typename TensorOpBuild<Shape, BF16, decltype(a_k)::value, decltype(b_k)::value, Vec, Swizzled>::Kernel;
    return launch_split<K>(gemm_tensorop_entry<K>, p, s);
  };
  using T = std::true_type;
  using F = std::false_type;
  if (p.a.row) return p.b.row ? go(T{}, F{}) : go(T{}, T{});
  return p.b.row ? go(F{}, F{}) : go(F{}, T{});
}

}  // namespace tessera::kernels::device
