// Device part of `gemm_trace --sm90 [--tf32]` (sm_90a): the SM90 kernel (TMA + wgmma,
// warp-specialized, persistent, clusters of 2) with the trace epilogue, on one CTA tile
// (bf16: 128 x 256 x 64; f32 as tf32: 128 x 256 x 32) whose inputs make each accumulator
// encode its own (m, n): every consumer thread records, for each of its accumulator registers,
// the coordinate it holds (collective/sm90_epilogue_trace.cuh).
#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "collective/sm90_epilogue_trace.cuh"
#include "device/sm90_gemm.cuh"
#include "trace_configs.hpp"

namespace tessera::kernels::trace {

namespace {

// The kernels tessera::gemm runs (sm90_gemm.cuh), with the trace epilogue.
template <class Element>
using Traced = sm90::GemmTmaWarpSpecialized<
    typename std::conditional_t<std::is_same_v<Element, float>, sm90::DefaultGemmTf32<>,
                                sm90::DefaultGemm<Element, GMMA::Major::K, GMMA::Major::K>>::Mainloop,
    sm90::CollectiveEpilogueSm90TraceC<Element>>;
static_assert(std::is_same_v<typename Traced<bfloat16_t>::Mainloop::TiledMma, Sm90TracedTiledMma<false>> &&
                  std::is_same_v<typename Traced<float>::Mainloop::TiledMma, Sm90TracedTiledMma<true>>,
              "gemm_trace must trace the configurations whose maps it writes");

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

template <class Element>
std::vector<int> run_sm90() {
  using Kernel = Traced<Element>;
  constexpr int BM = Kernel::Mainloop::BM, BN = Kernel::Mainloop::BN, BK = Kernel::Mainloop::BK;
  static_assert(BM <= kAccumulatorRowSpan && BN <= 256, "the coordinate code m + 256 n is exact for m, n < 256");
  // A (M x K) and B (N x K), both K-major: A(m, 0) = m, A(m, 1) = 1; B(n, 0) = 1, B(n, 1) = 256 n
  // (exact in bf16 and in tf32's 10-bit mantissa).
  std::vector<Element> ha(std::size_t(BM) * BK, Element(0.0f)), hb(std::size_t(BN) * BK, Element(0.0f));
  for (int m = 0; m < BM; ++m) {
    ha[std::size_t(m) * BK + 0] = Element(float(m));
    ha[std::size_t(m) * BK + 1] = Element(1.0f);
  }
  for (int n = 0; n < BN; ++n) {
    hb[std::size_t(n) * BK + 0] = Element(1.0f);
    hb[std::size_t(n) * BK + 1] = Element(float(kAccumulatorRowSpan * n));
  }
  constexpr int capacity = 1 << 20;
  Element *a = nullptr, *b = nullptr, *d = nullptr;
  int *count = nullptr, *records = nullptr;
  Sink* sink = nullptr;
  auto release = [&] { cudaFree(a); cudaFree(b); cudaFree(d); cudaFree(count); cudaFree(records); cudaFree(sink); };
  try {
    check(cudaMalloc(&a, ha.size() * sizeof(Element)), "cudaMalloc");
    check(cudaMalloc(&b, hb.size() * sizeof(Element)), "cudaMalloc");
    check(cudaMalloc(&d, std::size_t(BM) * BN * sizeof(Element)), "cudaMalloc");
    check(cudaMalloc(&count, sizeof(int)), "cudaMalloc");
    check(cudaMalloc(&records, std::size_t(5) * capacity * sizeof(int)), "cudaMalloc");
    check(cudaMalloc(&sink, sizeof(Sink)), "cudaMalloc");
    check(cudaMemcpy(a, ha.data(), ha.size() * sizeof(Element), cudaMemcpyHostToDevice), "copy A");
    check(cudaMemcpy(b, hb.data(), hb.size() * sizeof(Element), cudaMemcpyHostToDevice), "copy B");
    check(cudaMemset(count, 0, sizeof(int)), "memset");
    const Sink hs{count, capacity, records};
    check(cudaMemcpy(sink, &hs, sizeof(Sink), cudaMemcpyHostToDevice), "copy sink");

    GemmArguments g;  // D column-major: the kernel's M is the problem's M (no transpose)
    g.m = BM; g.n = BN; g.k = BK;
    g.element = std::is_same_v<Element, float> ? kernels::Element::F32 : kernels::Element::BF16;
    g.allow_tf32 = std::is_same_v<Element, float>;
    g.a = {a, Major::Row, BK, 0};
    g.b = {b, Major::Col, BK, 0};
    g.c = {nullptr, Major::Col, BM, 0};
    g.d = d;
    g.ldd = BM;
    // The kernel's own Arguments: tessera's host API's, and where the trace epilogue records.
    typename Kernel::Arguments args = Kernel::arguments_of(g);
    args.epilogue.sink = sink;
    sm90::GemmSm90<Kernel> op;
    if (auto r = op.initialize(args); !r) throw std::runtime_error("sm90 trace kernel: " + r.message);
    if (auto r = op.run(); !r) throw std::runtime_error("sm90 trace kernel: " + r.message);
    check(cudaDeviceSynchronize(), "traced sm90 kernel");
    int n = 0;
    check(cudaMemcpy(&n, count, sizeof(int), cudaMemcpyDeviceToHost), "copy count");
    if (n > capacity) throw std::runtime_error("trace buffer overflow: " + std::to_string(n) + " records");
    std::vector<int> out(std::size_t(5) * n);
    check(cudaMemcpy(out.data(), records, out.size() * sizeof(int), cudaMemcpyDeviceToHost), "copy records");
    release();
    return out;
  } catch (...) {
    release();
    throw;
  }
}

}  // namespace

std::string sm90_device_missing() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    cudaGetLastError();
    return "no CUDA device is available";
  }
  int dev = 0, major = 0;
  if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess) {
    cudaGetLastError();
    return "no CUDA device is available";
  }
  if (major != 9) return "the SM90 kernels need a compute capability 9.0 device (device " + std::to_string(dev) + " is " +
                         std::to_string(major) + ".x)";
  return {};
}

std::vector<int> run_traced_sm90(bool tf32) { return tf32 ? run_sm90<float>() : run_sm90<bfloat16_t>(); }

}  // namespace tessera::kernels::trace
