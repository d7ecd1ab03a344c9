// The SM90 GEMM inside tessera::gemm: bf16 and f16, every operand major (TN, NT, NN, TT),
// D in the inputs' type or f32; clusters of 2; 128x256 tiles or, for problems that would leave
// most SMs idle, 128x128 (D in the inputs' type); split-K of the last wave when the caller
// gives the workspace (sm90_workspace_size): 24 kernels; f32 with allow_tf32 as tf32, TN
// only: 1 kernel. The ping-pong kernels (bf16/f16 TN, 64x128: small problems) are built in
// sm90_instances_pingpong.cu beside this file; sm90_schedule.hpp's rule picks the schedule.
// Compiled for sm_90a only (wgmma, setmaxnreg): kernels/CMakeLists.txt and
// tools/device/run_gpu.sh build this file with -gencode=arch=compute_90a,code=sm_90a.
#include "sm90_gemm.cuh"
#include "sm90_dispatch.hpp"

namespace tessera::kernels::device {

namespace {
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
// The ping-pong kernels of the other TU behind GemmSm90's interface (what the callers below use).
struct PingpongOp {
  GemmArguments args{};
  static GemmResult can_implement(const GemmArguments& g) { return sm90_pingpong_can_implement(g); }
  static std::size_t workspace_size(const GemmArguments&) { return 0; }  // whole tiles only
  GemmResult initialize(const GemmArguments& g) {
    if (auto r = can_implement(g); !r) return r;
    args = g;
    return {};
  }
  GemmResult run(cudaStream_t stream) const { return sm90_pingpong_run(args, stream); }
};
// (Small tiles only for D in the inputs' type: 8 more kernels rather than 16; ping-pong only
// for TN: 2 more.)
template <class T, class D, GMMA::Major MA, GMMA::Major MB, class F>
GemmResult with_tile(const GemmArguments& g, F&& f) {
  if constexpr (std::is_same_v<T, D>) {
    const sm90::Schedule s = sm90::choose_schedule(g, multiprocessors());
    if constexpr (MA == GMMA::Major::K && MB == GMMA::Major::K)
      if (s == sm90::Schedule::Pingpong64x128) return f(PingpongOp{});
    if (s != sm90::Schedule::Cooperative128x256) return f(sm90::GemmSm90<sm90::SmallTileGemm<T, MA, MB>>{});
  }
  return f(sm90::GemmSm90<sm90::DefaultGemm<T, MA, MB, 2, D>>{});
}
// The instantiation for the arguments' element type, operand majors (A K-major when
// row-major; B K-major when column-major) and D's type: the inputs' or f32 (bf16 inputs with
// an f16 D and the reverse are not instantiated: 8 more kernels for a rare combination; the
// activation and the bias are run-time parameters of each).
template <class T, class D, class F>
GemmResult with_majors(const GemmArguments& g, F&& f) {
  constexpr auto K = GMMA::Major::K, MN = GMMA::Major::MN;
  const bool ak = g.a.major == Major::Row, bk = g.b.major == Major::Col;
  if (ak && bk) return with_tile<T, D, K, K>(g, f);
  if (ak) return with_tile<T, D, K, MN>(g, f);
  if (bk) return with_tile<T, D, MN, K>(g, f);
  return with_tile<T, D, MN, MN>(g, f);
}
template <class T, class F>
GemmResult with_output(const GemmArguments& g, F&& f) {
  const Element out = output_element(g);
  if (out == g.element) return with_majors<T, T>(g, f);
  if (out == Element::F32) return with_majors<T, float>(g, f);
  return {GemmStatus::Unsupported, std::string("the sm90 kernel writes D in its inputs' type (") + to_string(g.element) +
                                       ") or f32, not " + to_string(out)};
}
template <class F>
GemmResult with_sm90(const GemmArguments& g, F&& f) {
  if (g.element == Element::BF16) return with_output<bfloat16_t>(g, f);
  if (g.element == Element::F16) return with_output<half_t>(g, f);
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

std::size_t sm90_workspace_size(const GemmArguments& args) {
  const GemmArguments g = sm90::as_column_major_d(args);
  std::size_t bytes = 0;
  (void)with_sm90(g, [&](auto op) {
    bytes = decltype(op)::workspace_size(g);
    return GemmResult{};
  });
  return bytes;
}

const char* sm90_schedule(const GemmArguments& args) {
  const GemmArguments g = sm90::as_column_major_d(args);
  if (!sm90_can_implement(args)) return "none";
  return sm90::to_string(sm90::choose_schedule(g, multiprocessors()));
}

GemmResult run_sm90(const GemmArguments& args, cudaStream_t stream) {
  const GemmArguments g = sm90::as_column_major_d(args);
  return with_sm90(g, [&](auto op) {
    if (auto r = op.initialize(g); !r) return r;
    return op.run(stream);
  });
}

}  // namespace tessera::kernels::device
