// Device part of `gemm_trace --sm90 --config NAME`, shared by the configurations' units
// (sm90_trace_<name>.cu, sm_90a): a shipped kernel type with its epilogue wrapped in the
// recording one (the same mainloop, scheduler, cluster and epilogue order: recorded_kernel_t),
// run on the configuration's problem and grid, the records copied back.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "collective/sm90_epilogue_recorded.cuh"
#include "device/sm90_gemm.cuh"
#include "device/sm90_kernel_list.hpp"
#include "sm90_trace_configs.hpp"

namespace tessera::kernels::trace {

// The kernel with its epilogue recorded, every other part as shipped.
template <class Kernel>
struct recorded_kernel;
template <class M, class E, class S, class O>
struct recorded_kernel<sm90::GemmTmaWarpSpecialized<M, E, S, O>> {
  using type = sm90::GemmTmaWarpSpecialized<M, sm90::CollectiveEpilogueSm90Recorded<E>, S, O>;
};
template <class M, class E, class S>
struct recorded_kernel<sm90::GemmTmaWarpSpecializedPingpong<M, E, S>> {
  using type = sm90::GemmTmaWarpSpecializedPingpong<M, sm90::CollectiveEpilogueSm90Recorded<E>, S>;
};
template <class Kernel>
using recorded_kernel_t = typename recorded_kernel<Kernel>::type;

// Whether the library's kernel list ships Kernel (the traced type must be one it runs).
template <class Kernel>
constexpr bool shipped() {
  return device::sm90_set::find_kernel([](auto s) { return std::is_same_v<typename decltype(s)::Kernel, Kernel>; });
}

// The shape checks every unit makes: the shipped kernel's tile, cluster and TiledMma are the
// configuration's (whose maps the host writes from the table and Sm90ConfigMma).
template <Sm90Config Id, class Shipped>
constexpr bool matches_config() {
  constexpr const Sm90TraceConfig& c = sm90_trace_config(Id);
  using Ml = typename Shipped::Mainloop;
  return Ml::BM == c.bm && Ml::BN == c.bn && Ml::BK == c.bk && Shipped::ClusterM == c.cluster_m &&
         std::is_same_v<typename Ml::TiledMma, typename Sm90ConfigMma<Id>::type> &&
         int(sizeof(typename Ml::Accumulators) / sizeof(float)) * c.consumer_threads == c.bm * c.bn;
}

namespace detail {

inline void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

// Device memory released on every path.
struct DeviceBuffers {
  std::vector<void*> owned;
  template <class T>
  T* alloc(std::size_t count) {
    void* p = nullptr;
    check(cudaMalloc(&p, count * sizeof(T) > 0 ? count * sizeof(T) : 1), "cudaMalloc");
    owned.push_back(p);
    return static_cast<T*>(p);
  }
  ~DeviceBuffers() {
    for (void* p : owned) cudaFree(p);
  }
};

template <class Element>
std::vector<Element> converted(const std::vector<float>& v) {
  std::vector<Element> out;
  out.reserve(v.size());
  for (float x : v) out.push_back(Element(x));
  return out;
}

}  // namespace detail

// One launch of Kernel (recorded_kernel_t of a shipped type) on `in`, its records appended to
// `out`: `what` says what the accumulators encode (first_k_tile: a k-iteration run's first).
template <class Kernel, class Element>
void run_recorded(const Sm90TraceConfig& c, const Sm90TraceInputs& in, sm90::RecordedValues what, int first_k_tile,
                  std::vector<int>& out) {
  detail::DeviceBuffers mem;
  const auto ha = detail::converted<Element>(in.a), hb = detail::converted<Element>(in.b);
  Element* a = mem.alloc<Element>(ha.size());
  Element* b = mem.alloc<Element>(hb.size());
  bfloat16_t* d = mem.alloc<bfloat16_t>(std::size_t(c.m) * c.n);
  int* count = mem.alloc<int>(1);
  const std::int64_t expected = what == sm90::RecordedValues::KIterations ? tile_k_records(c) : mma_c_records(c);
  const int capacity = int(2 * expected + 1024);  // room to see what a wrong kernel writes too
  int* records = mem.alloc<int>(std::size_t(5) * capacity);
  detail::check(cudaMemcpy(a, ha.data(), ha.size() * sizeof(Element), cudaMemcpyHostToDevice), "copy A");
  detail::check(cudaMemcpy(b, hb.data(), hb.size() * sizeof(Element), cudaMemcpyHostToDevice), "copy B");
  detail::check(cudaMemset(count, 0, sizeof(int)), "memset");
  const Sink host_sink{count, capacity, records};
  Sink* sink = mem.alloc<Sink>(1);
  detail::check(cudaMemcpy(sink, &host_sink, sizeof(Sink), cudaMemcpyHostToDevice), "copy sink");

  GemmArguments g;  // D column-major: the kernel's M is the problem's M (no transpose)
  g.m = c.m, g.n = c.n, g.k = c.k;
  g.element = c.input == Sm90Input::E4M3 ? kernels::Element::E4M3 : kernels::Element::BF16;
  g.a = {a, Major::Row, c.k, 0};
  g.b = {b, Major::Col, c.k, 0};
  g.c = {nullptr, Major::Col, c.m, 0};
  g.d = d;
  g.ldd = c.m;
  typename Kernel::Arguments args = Kernel::arguments_of(g);
  args.epilogue.record = {sink, what, tiles_m(c), tiles_of(c), first_k_tile};
  using Op = sm90::GemmSm90<Kernel>;
  Op op;
  if (auto r = Op::can_implement(args); !r) throw std::runtime_error(std::string(c.name) + ": " + r.message);
  // The configuration's grid, not the GPU's: `clusters` clusters walk the tiles (and plan
  // Stream-K's sharing), on any sm_90 part.
  sm90::KernelHardwareInfo hw;
  hw.sm_count = c.clusters * c.cluster_m;
  hw.resident_clusters = c.clusters;
  const std::size_t ws_bytes = Kernel::get_workspace_size(args, hw);
  void* ws = ws_bytes > 0 ? mem.alloc<unsigned char>(ws_bytes) : nullptr;
  GemmResult status;
  op.params = Kernel::to_underlying_arguments(args, ws, ws_bytes, hw, status);
  if (!status) throw std::runtime_error(std::string(c.name) + ": " + status.message);
  op.grid = Kernel::grid_size(op.params, hw);
  if constexpr (Kernel::TwoEntries)  // the trace is of the packing entry (the epilogue under the next tile)
    if (Kernel::after_tile_launch(op.params))
      throw std::runtime_error(std::string(c.name) + ": the launch would run the kernel's after-tile entry");
  if (c.stream_k && !op.splits())
    throw std::runtime_error(std::string(c.name) + ": the Stream-K plan shares no tile (the trace would not see a fix-up)");
  if (auto r = op.run(); !r) throw std::runtime_error(std::string(c.name) + ": " + r.message);
  detail::check(cudaDeviceSynchronize(), c.name);
  int n = 0;
  detail::check(cudaMemcpy(&n, count, sizeof(int), cudaMemcpyDeviceToHost), "copy count");
  if (n > capacity) throw std::runtime_error("trace buffer overflow: " + std::to_string(n) + " records");
  const std::size_t at = out.size();
  out.resize(at + std::size_t(5) * n);
  detail::check(cudaMemcpy(out.data() + at, records, std::size_t(5) * n * sizeof(int), cudaMemcpyDeviceToHost), "copy records");
}

// The configuration's runs: rows and columns, paired; with stream_k, the k-iterations too.
template <Sm90Config Id, class Kernel, class Element>
std::vector<int> run_config() {
  const Sm90TraceConfig& c = sm90_trace_config(Id);
  std::vector<int> rows, cols;
  run_recorded<Kernel, Element>(c, sm90_coordinate_inputs(c, Sm90Coordinate::Rows), sm90::RecordedValues::Rows, 0, rows);
  run_recorded<Kernel, Element>(c, sm90_coordinate_inputs(c, Sm90Coordinate::Cols), sm90::RecordedValues::Cols, 0, cols);
  std::vector<int> out = pair_coordinate_runs(rows, cols);
  if (c.stream_k)
    for (int r = 0; r < k_iteration_runs(c); ++r)
      run_recorded<Kernel, Element>(c, sm90_k_iteration_inputs(c, r), sm90::RecordedValues::KIterations, r * kKTilesPerRun, out);
  return out;
}

}  // namespace tessera::kernels::trace
