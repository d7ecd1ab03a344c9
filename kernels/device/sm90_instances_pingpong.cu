// The SM90 ping-pong kernels inside tessera::gemm: bf16 and f16, A and B K-major, D
// column-major in the inputs' type, 64x128x64 tiles, no cluster (2 kernels), which
// sm90_instances.cu's dispatch runs for small problems (sm90_schedule.hpp). A translation
// unit of its own so that a parallel build (CI's two cores) compiles it beside
// sm90_instances.cu. Built for sm_90a only, as that one.
#include "sm90_gemm.cuh"
#include "sm90_dispatch.hpp"

namespace tessera::kernels::device {

namespace {
template <class F>
GemmResult with_pingpong(const GemmArguments& g, F&& f) {
  if (g.element == Element::BF16) return f(sm90::GemmSm90<sm90::PingpongGemm<bfloat16_t>>{});
  if (g.element == Element::F16) return f(sm90::GemmSm90<sm90::PingpongGemm<half_t>>{});
  return {GemmStatus::Unsupported, "the sm90 ping-pong kernel takes bf16 or f16"};
}
}  // namespace

GemmResult sm90_pingpong_can_implement(const GemmArguments& g) {
  return with_pingpong(g, [&](auto op) { return decltype(op)::can_implement(g); });
}

GemmResult sm90_pingpong_run(const GemmArguments& g, cudaStream_t stream) {
  return with_pingpong(g, [&](auto op) {
    if (auto r = op.initialize(g); !r) return r;
    return op.run(stream);
  });
}

}  // namespace tessera::kernels::device
