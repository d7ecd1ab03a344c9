// The SM90 GEMM inside tessera::gemm: bf16 and f16, A and B K-major (TN), clusters of 2.
// Compiled for sm_90a only (wgmma, setmaxnreg): kernels/CMakeLists.txt and
// tools/device/run_gpu.sh build this file with -gencode=arch=compute_90a,code=sm_90a.
#include "sm90_gemm.cuh"
#include "sm90_dispatch.hpp"

namespace tessera::kernels::device {

namespace {
template <class F>
GemmResult with_sm90(const GemmArguments& g, F&& f) {
  if (g.element == Element::BF16) return f(sm90::GemmSm90<sm90::DefaultGemm<bfloat16_t>>{});
  if (g.element == Element::F16) return f(sm90::GemmSm90<sm90::DefaultGemm<half_t>>{});
  return {GemmStatus::Unsupported, "the sm90 kernel takes bf16 or f16 inputs"};
}
}  // namespace

GemmResult sm90_can_implement(const GemmArguments& g) {
  return with_sm90(g, [&](auto op) { return decltype(op)::can_implement(g); });
}

GemmResult run_sm90(const GemmArguments& g, cudaStream_t stream) {
  return with_sm90(g, [&](auto op) {
    if (auto r = op.initialize(g); !r) return r;
    return op.run(stream);
  });
}

}  // namespace tessera::kernels::device
