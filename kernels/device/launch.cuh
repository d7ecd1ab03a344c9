// Device layer internals: the kernel types of a tile configuration (configs.cuh) for the
// layout (majors), element type and copy path the arguments need, run through the device
// adapter (gemm_adapter.cuh).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "tessera/kernels/gemm.hpp"
#include "../kernel/gemm_kernel.hpp"
#include "gemm_adapter.cuh"

namespace tessera::kernels::device {

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
                               SplitKRasterization<Shape::Group>>;
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

// The kernel of a configuration for the arguments' majors: f(Kernel{}) with the kernel as a
// type tag (A row-major = K-major; B column-major = K-major).
template <template <bool, bool> class KernelOf, class F>
decltype(auto) with_majors(const GemmArguments& args, F&& f) {
  const bool a_k = args.a.major == Major::Row, b_k = args.b.major == Major::Col;
  if (a_k) return b_k ? f(std::type_identity<KernelOf<true, true>>{}) : f(std::type_identity<KernelOf<true, false>>{});
  return b_k ? f(std::type_identity<KernelOf<false, true>>{}) : f(std::type_identity<KernelOf<false, false>>{});
}
template <class Shape, bool BF16, bool Vec, bool Swizzled>
struct TensorOpKernels {
  template <bool AK, bool BK>
  using Of = typename TensorOpBuild<Shape, BF16, AK, BK, Vec, Swizzled>::Kernel;
};
template <class Shape>
struct SimtKernels {
  template <bool AK, bool BK>
  using Of = typename SimtBuild<Shape, AK, BK>::Kernel;
};

// Initializes the adapter of a kernel and runs it.
template <class Kernel>
GemmResult run_adapter(const GemmArguments& args, cudaStream_t stream) {
  GemmAdapter<Kernel> op;
  if (auto r = op.initialize(args); !r) return r;
  return op.run(stream);
}

template <class Shape, bool BF16, bool Vec, bool Swizzled = true>
std::size_t tensorop_workspace_size(const GemmArguments& args) {
  return with_majors<TensorOpKernels<Shape, BF16, Vec, Swizzled>::template Of>(
      args, [&](auto k) { return GemmAdapter<typename decltype(k)::type>::get_workspace_size(args); });
}

template <class Shape>
GemmResult run_simt(const GemmArguments& args, cudaStream_t s) {
  return with_majors<SimtKernels<Shape>::template Of>(args, [&](auto k) { return run_adapter<typename decltype(k)::type>(args, s); });
}

template <class Shape, bool BF16, bool Vec, bool Swizzled = true>
GemmResult run_tensorop(const GemmArguments& args, cudaStream_t s) {
  return with_majors<TensorOpKernels<Shape, BF16, Vec, Swizzled>::template Of>(
      args, [&](auto k) { return run_adapter<typename decltype(k)::type>(args, s); });
}

}  // namespace tessera::kernels::device
