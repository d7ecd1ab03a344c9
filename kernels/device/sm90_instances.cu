// The SM90 GEMM inside tessera::gemm: bf16 and f16, every operand major (TN, NT, NN, TT),
// clusters of 2, 128x256 tiles or, for problems that would leave most SMs idle, 128x128;
// split-K of the last wave when the caller gives the workspace (sm90_workspace_size).
// Compiled for sm_90a only (wgmma, setmaxnreg): kernels/CMakeLists.txt and
// tools/device/run_gpu.sh build this file with -gencode=arch=compute_90a,code=sm_90a.
#include "sm90_gemm.cuh"
#include "sm90_dispatch.hpp"

namespace tessera::kernels::device {

namespace {
// The instantiation for the arguments' element type and operand majors (A K-major when
// row-major; B K-major when column-major).
// The tile by shape: 128x128 when 128x256 tiles would leave most SMs idle.
int multiprocessors() {
  static const int sms = [] {
    int dev = 0, n = 0;
    if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess) {
      cudaGetLastError();
      return 0;
    }
    return n;
  }();
  return sms;
}
template <class T, GMMA::Major MA, GMMA::Major MB, class F>
GemmResult with_tile(const GemmArguments& g, F&& f) {
  if (sm90::prefers_small_tiles(g, multiprocessors())) return f(sm90::GemmSm90<sm90::SmallTileGemm<T, MA, MB>>{});
  return f(sm90::GemmSm90<sm90::DefaultGemm<T, MA, MB>>{});
}
template <class T, class F>
GemmResult with_majors(const GemmArguments& g, F&& f) {
  constexpr auto K = GMMA::Major::K, MN = GMMA::Major::MN;
  const bool ak = g.a.major == Major::Row, bk = g.b.major == Major::Col;
  if (ak && bk) return with_tile<T, K, K>(g, f);
  if (ak) return with_tile<T, K, MN>(g, f);
  if (bk) return with_tile<T, MN, K>(g, f);
  return with_tile<T, MN, MN>(g, f);
}
template <class F>
GemmResult with_sm90(const GemmArguments& g, F&& f) {
  if (g.element == Element::BF16) return with_majors<bfloat16_t>(g, f);
  if (g.element == Element::F16) return with_majors<half_t>(g, f);
  return {GemmStatus::Unsupported, "the sm90 kernel takes bf16 or f16 inputs"};
}

}  // namespace

GemmResult sm90_can_implement(const GemmArguments& args) {
  const GemmArguments g = sm90::as_column_major_d(args);
  return with_sm90(g, [&](auto op) { return decltype(op)::can_implement(g); });
}

std::size_t sm90_workspace_size(const GemmArguments& args) {
  const GemmArguments g = sm90::as_column_major_d(args);
  std::size_t bytes = 0;
  (void)with_sm90(g, [&](auto op) {
    bytes = decltype(op)::workspace_size(g);
    return GemmResult{};
  });
  return bytes;
}

GemmResult run_sm90(const GemmArguments& args, cudaStream_t stream) {
  const GemmArguments g = sm90::as_column_major_d(args);
  return with_sm90(g, [&](auto op) {
    if (auto r = op.initialize(g); !r) return r;
    return op.run(stream);
  });
}

}  // namespace tessera::kernels::device
