// Device part of gemm_trace: the GEMM kernels instantiated with the Recorder trace policy
// (kernel/trace_policy.cuh), run on one CTA tile whose inputs carry their coordinates.
#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "device/launch.cuh"
#include "trace_configs.hpp"

namespace tessera::kernels::trace {

namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

template <class T>
struct DeviceBuffer {
  T* p = nullptr;
  explicit DeviceBuffer(std::size_t n) { check(cudaMalloc(&p, n * sizeof(T)), "cudaMalloc"); }
  ~DeviceBuffer() { cudaFree(p); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
};

// Operand X (MN x K, element (mn, k) = mn * bk + k), stored K-major or MN-major.
template <class T>
std::vector<T> coded_operand(int mn_extent, int k_extent, int bk, bool kmajor) {
  std::vector<T> h(std::size_t(mn_extent) * std::size_t(k_extent));
  for (int mn = 0; mn < mn_extent; ++mn)
    for (int k = 0; k < k_extent; ++k) {
      const std::size_t at = kmajor ? std::size_t(mn) * k_extent + k : std::size_t(k) * mn_extent + mn;
      if constexpr (std::is_same_v<T, float>) h[at] = float(mn * bk + k);
      else h[at] = T(mn * bk + k);  // raw 16-bit codes: the copies and ldmatrix move bits
    }
  return h;
}

template <class Kernel, class Elem, class Entry>
std::vector<int> run(Entry entry, int bm, int bn, int bk, bool a_kmajor, bool b_kmajor) {
  constexpr int capacity = 1 << 20;
  const auto ha = coded_operand<Elem>(bm, bk, bk, a_kmajor);
  const auto hb = coded_operand<Elem>(bn, bk, bk, b_kmajor);
  DeviceBuffer<Elem> a(ha.size()), b(hb.size()), d(std::size_t(bm) * bn);
  DeviceBuffer<int> count(1), records(std::size_t(5) * capacity);
  DeviceBuffer<Sink> sink(1);
  check(cudaMemcpy(a.p, ha.data(), ha.size() * sizeof(Elem), cudaMemcpyHostToDevice), "copy A");
  check(cudaMemcpy(b.p, hb.data(), hb.size() * sizeof(Elem), cudaMemcpyHostToDevice), "copy B");
  check(cudaMemset(count.p, 0, sizeof(int)), "memset");
  const Sink hs{count.p, capacity, records.p};
  check(cudaMemcpy(sink.p, &hs, sizeof(Sink), cudaMemcpyHostToDevice), "copy sink");

  Problem p{};
  p.m = bm; p.n = bn; p.k = bk; p.batch = 1;
  // A row-major = K-major; B "row" = its second mode (N) contiguous = MN-major.
  p.a = {a.p, a_kmajor ? bk : bm, 0, a_kmajor};
  p.b = {b.p, b_kmajor ? bk : bn, 0, !b_kmajor};
  p.c = {nullptr, bn, 0, true};
  p.d = {d.p, bn, 0, true};
  p.alpha = 1.0f;
  p.beta = 0.0f;
  p.d_vector_ok = true;
  p.trace = sink.p;
  if (auto r = device::launch<Kernel>(entry, p, nullptr, Kernel::grid_size(p)); !r) throw std::runtime_error(r.message);
  check(cudaDeviceSynchronize(), "traced kernel");
  int n = 0;
  check(cudaMemcpy(&n, count.p, sizeof(int), cudaMemcpyDeviceToHost), "copy count");
  if (n > capacity) throw std::runtime_error("trace buffer overflow: " + std::to_string(n) + " records");
  std::vector<int> out(std::size_t(5) * n);
  check(cudaMemcpy(out.data(), records.p, out.size() * sizeof(int), cudaMemcpyDeviceToHost), "copy records");
  return out;
}

// The library's default configurations, built by the collective builders as tessera::gemm
// builds them (device/launch.cuh), under the Recorder policy (traced_t).
template <bool AK, bool BK>
using TracedTensorOp =
    CollectiveBuilder<arch::Sm80, OpClassTensorOp, bfloat16_t, device::major_tag<AK>, 8, bfloat16_t, device::major_tag<BK>, 8,
                      float, tuple<_128, _256, _32>, tuple<_1, _1, _1>, StageCountAuto, ScheduleAuto>;
template <bool AK, bool BK>
using TracedSimt = CollectiveBuilder<arch::Sm80, OpClassSimt, float, device::major_tag<AK>, 1, float, device::major_tag<BK>, 1,
                                     float, tuple<_128, _128, _8>, tuple<_1, _1, _1>, StageCount<3>, ScheduleAuto>;
template <class B, class ElementD, int AlignD, class Scheduler = GroupedRasterization<8>>
using TracedKernel = gemm_kernel_t<GemmProblemShape, traced_t<typename B::CollectiveOp, Recorder>,
                                   traced_t<typename CollectiveEpilogueBuilder<B, ElementD, AlignD>::CollectiveOp, Recorder>,
                                   Scheduler>;

template <bool AK, bool BK>
std::vector<int> run_tensorop() {
  using K = TracedKernel<TracedTensorOp<AK, BK>, bfloat16_t, 8, SplitKRasterization<8>>;
  using M = typename K::Mainloop;
  static_assert(std::is_same_v<K, GemmTensorOpKernel<GemmProblemShape, M, typename K::Epilogue, SplitKRasterization<8>>> && std::is_same_v<typename M::Trace, Recorder> &&
                std::is_same_v<typename M::DispatchPolicy, MainloopSm80CpAsync<4, 1, 8>>);
  static_assert(std::is_same_v<typename TracedTensorOp<AK, BK>::Partition, TensorOpTraced<AK, BK>> &&
                    std::is_same_v<typename M::TiledMma, typename TensorOpTraced<AK, BK>::TiledMma> &&
                    std::is_same_v<typename M::S2RA, typename TensorOpTraced<AK, BK>::S2R_A> &&
                    std::is_same_v<typename M::S2RB, typename TensorOpTraced<AK, BK>::S2R_B> &&
                    std::is_same_v<typename M::SmemLayoutA, typename TensorOpTraced<AK, BK>::template SmemLayoutA<4>> &&
                    std::is_same_v<typename M::SmemLayoutB, typename TensorOpTraced<AK, BK>::template SmemLayoutB<4>>,
                "gemm_trace must trace the configuration whose maps it writes");
  return run<K, std::uint16_t>(gemm_tensorop_entry<K>, 128, 256, 32, AK, BK);
}
template <bool AK, bool BK>
std::vector<int> run_simt() {
  using K = TracedKernel<TracedSimt<AK, BK>, float, 1>;
  using M = typename K::Mainloop;
  static_assert(std::is_same_v<K, GemmSimtKernel<GemmProblemShape, M, EpilogueSimt<M>, GroupedRasterization<8>>> &&
                std::is_same_v<typename M::Trace, Recorder> && std::is_same_v<typename M::DispatchPolicy, MainloopSm80CpAsyncSimt<3>>);
  static_assert(std::is_same_v<typename TracedSimt<AK, BK>::Partition, SimtTraced> &&
                    std::is_same_v<typename M::TiledMma, typename SimtTraced::TiledMma> &&
                    std::is_same_v<typename M::G2SA, typename SimtTraced::template G2S<128, AK>::Tiled> &&
                    std::is_same_v<typename M::G2SB, typename SimtTraced::template G2S<128, BK>::Tiled> &&
                    std::is_same_v<typename M::S2RA, typename SimtTraced::S2R_A> &&
                    std::is_same_v<typename M::S2RB, typename SimtTraced::S2R_B>,
                "gemm_trace must trace the configuration whose maps it writes");
  return run<K, float>(gemm_simt_entry<K>, 128, 128, 8, AK, BK);
}

}  // namespace

std::vector<int> run_traced_kernel(const TraceRun& r) {
  if (r.sm90) return run_traced_sm90(r.tf32);
  if (r.simt) {
    if (r.a_kmajor) return r.b_kmajor ? run_simt<true, true>() : run_simt<true, false>();
    return r.b_kmajor ? run_simt<false, true>() : run_simt<false, false>();
  }
  if (r.a_kmajor) return r.b_kmajor ? run_tensorop<true, true>() : run_tensorop<true, false>();
  return r.b_kmajor ? run_tensorop<false, true>() : run_tensorop<false, false>();
}

}  // namespace tessera::kernels::trace
