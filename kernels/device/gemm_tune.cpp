// tessera::kernels::gemm_tune (gemm.hpp): host code over the CUDA runtime, in the kernels library.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "tessera/kernels/gemm.hpp"
#include "gemm_configuration.hpp"
#include "sm90_dispatch.hpp"
#include "tuned_configs.hpp"

namespace tessera::kernels {

namespace device {
namespace {
bool current_device(int& dev, cudaDeviceProp& prop) {
  if (cudaGetDevice(&dev) != cudaSuccess || cudaGetDeviceProperties(&prop, dev) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return true;
}
}  // namespace
}  // namespace device

namespace {

// Elements of D's storage that the arguments address: check_arguments' span of one batch (it
// has checked that every product fits) and the batches before the last.
std::int64_t d_extent(const GemmArguments& g) {
  std::int64_t span = 0;
  detail::matrix_span(g.m, g.n, g.c.major, g.ldd, span);
  return (g.batch - 1) * g.batch_stride_d + span;
}

// Device memory freed on every path out.
struct DeviceBuffer {
  void* p = nullptr;
  ~DeviceBuffer() {
    if (p) cudaFree(p);
  }
};

}  // namespace

GemmTuneResult gemm_tune(const GemmArguments& args, const GemmTuneOptions& options, CUstream_st* stream) {
  GemmTuneResult out;
  if (options.reps < 1) {
    out.status = {GemmStatus::InvalidSize, "GemmTuneOptions::reps must be at least 1 (got " + std::to_string(options.reps) + ")"};
    return out;
  }
  // (check_arguments, then the device and the sm90 kernel's own checks: what gemm() checks on
  // this path, without linking the other kernels)
  if (auto r = check_arguments(args); !r) {
    out.status = r;
    return out;
  }
  int dev = 0;
  cudaDeviceProp prop{};
  if (!device::current_device(dev, prop)) {
    out.status = {GemmStatus::NoDevice, "no CUDA device is available"};
    return out;
  }
  const GemmConfiguration sel = select_configuration(args, {prop.major, prop.multiProcessorCount});
  if (!sel.status || sel.kernel != GemmKernel::Sm90TmaWgmma || !device::sm90_can_implement(args)) {
    out.status = {GemmStatus::Unsupported, std::string("gemm_tune chooses among the sm90 TMA + wgmma configurations; on this device (") +
                                               prop.name + ") tessera::gemm runs these arguments on " +
                                               (sel.status ? to_string(sel.kernel) : std::string("no kernel")) +
                                               ", which has no configurations to choose from"};
    return out;
  }
  const GemmArguments cm = sm90::as_column_major_d(args);
  const std::vector<sm90::Sm90Config> configs = sm90::built_configs(cm);

  // Nothing of the caller's is written: D (and C where it is D, read in place) goes to a copy.
  GemmArguments g = args;
  const std::size_t d_bytes = std::size_t(d_extent(args)) * std::size_t(element_bytes(output_element(args)));
  DeviceBuffer d_copy, workspace;
  const bool in_place = args.beta != 0.0f && args.c.ptr == args.d;  // C read from D: the copy starts as D
  if (cudaMalloc(&d_copy.p, d_bytes) != cudaSuccess ||
      (in_place && cudaMemcpyAsync(d_copy.p, args.d, d_bytes, cudaMemcpyDeviceToDevice, stream) != cudaSuccess)) {
    cudaGetLastError();
    out.status = {GemmStatus::LaunchFailed, "gemm_tune: could not allocate or fill a copy of D (" + std::to_string(d_bytes) + " bytes)"};
    return out;
  }
  if (g.c.ptr == args.d) g.c.ptr = d_copy.p;
  g.d = d_copy.p;
  std::size_t ws_bytes = 0;
  for (const auto& c : configs) ws_bytes = std::max(ws_bytes, device::sm90_workspace_size(g, c));
  if (ws_bytes > 0 && cudaMalloc(&workspace.p, ws_bytes) != cudaSuccess) {
    cudaGetLastError();
    out.status = {GemmStatus::LaunchFailed, "gemm_tune: could not allocate the Stream-K workspace (" + std::to_string(ws_bytes) + " bytes)"};
    return out;
  }
  g.workspace = workspace.p;
  g.workspace_bytes = ws_bytes;

  // A Stream-K configuration whose plan on this device shares nothing runs as whole tiles: the
  // same kernel as its whole-tile twin, so it is not timed twice.
  std::vector<sm90::Sm90Config> timed;
  for (const auto& c : configs)
    if (!c.stream_k || device::sm90_workspace_size(g, c) > 0) timed.push_back(c);
  if (timed.empty()) {  // (sm90_can_implement found a kernel, so the list builds one: not expected)
    out.status = {GemmStatus::Unsupported, "gemm_tune: the sm90 kernel list builds no configuration for these arguments"};
    return out;
  }
  std::vector<cudaEvent_t> ev(2 * timed.size(), nullptr);
  auto destroy_events = [&] {
    for (cudaEvent_t e : ev)
      if (e) cudaEventDestroy(e);
  };
  for (cudaEvent_t& e : ev)
    if (cudaEventCreate(&e) != cudaSuccess) {
      cudaGetLastError();
      e = nullptr;
      destroy_events();
      out.status = {GemmStatus::LaunchFailed, "gemm_tune: could not create CUDA events"};
      return out;
    }
  std::vector<std::vector<float>> ms(timed.size());
  GemmResult failed;
  // Three rounds of warm-up, then `reps` rounds; a round launches every configuration once, in
  // turn (drift in clocks or temperature spreads over all of them), each between its own
  // events, and waits at its end only, so that the host enqueues ahead of the GPU.
  for (int round = -3; round < options.reps && failed; ++round) {
    for (std::size_t i = 0; i < timed.size() && failed; ++i) {
      cudaEventRecord(ev[2 * i], stream);
      if (auto r = device::run_sm90(g, stream, timed[i]); !r) {
        failed = r;
        failed.message = "gemm_tune: " + sm90::to_string(timed[i]) + ": " + r.message;
      }
      cudaEventRecord(ev[2 * i + 1], stream);
    }
    if (!failed) break;
    if (cudaEventSynchronize(ev.back()) != cudaSuccess) {
      failed = {GemmStatus::LaunchFailed, std::string("gemm_tune: ") + cudaGetErrorString(cudaGetLastError())};
      break;
    }
    if (round >= 0)
      for (std::size_t i = 0; i < timed.size(); ++i) {
        float t = 0;
        cudaEventElapsedTime(&t, ev[2 * i], ev[2 * i + 1]);
        ms[i].push_back(t);
      }
  }
  destroy_events();
  if (!failed) {
    out.status = failed;
    return out;
  }
  std::size_t best = 0;
  for (std::size_t i = 0; i < timed.size(); ++i) {
    auto& v = ms[i];
    std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
    out.timings.push_back({sm90::to_string(timed[i]), 1e3 * double(v[v.size() / 2])});
    if (out.timings[i].microseconds < out.timings[best].microseconds) best = i;
  }
  out.chosen = out.timings[best].configuration;
  out.microseconds = out.timings[best].microseconds;
  device::remember_sm90_config(cm, timed[best]);
  if (options.record) {
    const std::filesystem::path file = options.cache_file.empty() ? device::tuning_cache_file() : std::filesystem::path(options.cache_file);
    if (file.empty()) {
      out.note = "not written to a file: TESSERA_TUNING_CACHE is off (or no cache directory: set XDG_CACHE_HOME or HOME)";
    } else {
      TuningKey key{tuning_cache_tessera_version(), prop.name, sm90::shape_of(cm), tuning_epilogue_key(cm)};
      if (std::string e = write_tuning_record(file, record_of(key, timed[best], out.microseconds)); !e.empty())
        out.note = "not written to " + file.string() + ": " + e;
      else
        out.cache_file = file.string();
    }
  }
  return out;
}

}  // namespace tessera::kernels
