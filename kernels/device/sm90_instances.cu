// The SM90 GEMM inside tessera::gemm: bf16 and f16, every operand major (TN, NT, NN, TT),
// clusters of 2; f32 with allow_tf32 as tf32, TN only.
// Compiled for sm_90a only (wgmma, setmaxnreg): kernels/CMakeLists.txt and
// tools/device/run_gpu.sh build this file with -gencode=arch=compute_90a,code=sm_90a.
#include "sm90_gemm.cuh"
#include "sm90_dispatch.hpp"

namespace tessera::kernels::device {

namespace {
// The instantiation for the arguments' element type and operand majors (A K-major when
// row-major; B K-major when column-major).
template <class T, class F>
GemmResult with_majors(const GemmArguments& g, F&& f) {
  constexpr auto K = GMMA::Major::K, MN = GMMA::Major::MN;
  const bool ak = g.a.major == Major::Row, bk = g.b.major == Major::Col;
  if (ak && bk) return f(sm90::GemmSm90<sm90::DefaultGemm<T, K, K>>{});
  if (ak) return f(sm90::GemmSm90<sm90::DefaultGemm<T, K, MN>>{});
  if (bk) return f(sm90::GemmSm90<sm90::DefaultGemm<T, MN, K>>{});
  return f(sm90::GemmSm90<sm90::DefaultGemm<T, MN, MN>>{});
}
template <class F>
GemmResult with_sm90(const GemmArguments& g, F&& f) {
  if (g.element == Element::BF16) return with_majors<bfloat16_t>(g, f);
  if (g.element == Element::F16) return with_majors<half_t>(g, f);
  if (g.element == Element::F32) {
    // tf32 wgmma reads K-major operands only (the ISA transposes 16-bit types alone).
    if (g.a.major != Major::Row || g.b.major != Major::Col)
      return {GemmStatus::Unsupported,
              "the sm90 kernel takes f32 (as tf32) only with A row-major and B column-major (TN: both K-major, as tf32 "
              "wgmma reads them); the SIMT kernel runs the other majors"};
    return f(sm90::GemmSm90<sm90::DefaultGemmTf32<>>{});
  }
  return {GemmStatus::Unsupported, "the sm90 kernel takes bf16, f16, or f32 with allow_tf32"};
}

}  // namespace

GemmResult sm90_can_implement(const GemmArguments& args) {
  const GemmArguments g = sm90::as_column_major_d(args);
  return with_sm90(g, [&](auto op) { return decltype(op)::can_implement(g); });
}

GemmResult run_sm90(const GemmArguments& args, cudaStream_t stream) {
  const GemmArguments g = sm90::as_column_major_d(args);
  return with_sm90(g, [&](auto op) {
    if (auto r = op.initialize(g); !r) return r;
    return op.run(stream);
  });
}

}  // namespace tessera::kernels::device
