// tessera::kernels::gemm_tune (gemm.hpp): host code over the CUDA runtime, in the kernels library.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>
#include <cstdlib>
#include <vector>

#include "tessera/kernels/gemm.hpp"
#include "gemm_configuration.hpp"
#include "lead_in.hpp"
#include "sm90_dispatch.hpp"
#include "timing_policy.hpp"
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
  if (options.reps < 1 || options.reps > timing::kMaxRounds) {
    out.status = {GemmStatus::InvalidSize, "GemmTuneOptions::reps must lie in [1, " + std::to_string(timing::kMaxRounds) + "] (got " +
                                               std::to_string(options.reps) + ")"};
    return out;
  }
  if (!(options.min_ms >= 0) || !std::isfinite(options.min_ms)) {
    out.status = {GemmStatus::InvalidSize, "GemmTuneOptions::min_ms must be a finite number >= 0 (got " + std::to_string(options.min_ms) + ")"};
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
  // (both orientations: the kernels with a row-major D run the problem transposed the other way)
  const std::vector<sm90::Sm90Config> configs = sm90::built_configs(args);

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
  // The configuration the dispatch's rule runs with a workspace (the margin keeps it unless a
  // candidate is faster beyond the rounds' spread); a Stream-K choice that shares nothing here
  // is its whole-tile twin, as above.
  std::optional<std::size_t> rule;
  {
    const int sms = prop.multiProcessorCount;
    const auto sk = sm90::choose_config_stream_k(args, sms);
    sm90::Sm90Config r = sk ? *sk : sm90::choose_config(args, sms);
    if (r.stream_k && device::sm90_workspace_size(g, r) == 0) r.stream_k = false;
    if (auto it = std::find(timed.begin(), timed.end(), r); it != timed.end()) rule = std::size_t(it - timed.begin());
  }
  const std::size_t n = timed.size();
  std::vector<cudaEvent_t> ev(2 * n, nullptr);
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
  // A round launches every configuration once, in timing::balanced_order (each at every position
  // and behind every other equally often: no configuration always finds the L2 one neighbour
  // leaves), each after a lead-in kernel (lead_in.hpp) and between its own events, and waits at
  // its end.
  // `ms[i]` gets configuration i's time in each kept round.
  using clock = std::chrono::steady_clock;
  std::vector<std::vector<double>> ms(n);
  GemmResult failed;
  double lead_us = 20, host_us = 0;  // the lead-in; the longest host enqueue of one launch in a round
  auto run_round = [&](long long round, bool keep) {
    std::size_t last = 0;
    for (std::size_t pos = 0; pos < n && failed; ++pos) {
      const std::size_t i = timing::balanced_order(n, round, pos);
      if (!device::launch_lead_in(stream, lead_us)) {
        failed = {GemmStatus::LaunchFailed, "gemm_tune: could not launch the lead-in kernel"};
        break;
      }
      const auto h0 = clock::now();
      cudaEventRecord(ev[2 * i], stream);
      if (auto r = device::run_sm90(g, stream, timed[i]); !r) {
        failed = r;
        failed.message = "gemm_tune: " + sm90::to_string(timed[i]) + ": " + r.message;
      }
      cudaEventRecord(ev[2 * i + 1], stream);
      host_us = std::max(host_us, 1e-3 * double(std::chrono::duration_cast<std::chrono::nanoseconds>(clock::now() - h0).count()));
      last = i;
    }
    if (!failed) return;
    if (cudaEventSynchronize(ev[2 * last + 1]) != cudaSuccess) {
      failed = {GemmStatus::LaunchFailed, std::string("gemm_tune: ") + cudaGetErrorString(cudaGetLastError())};
      return;
    }
    if (keep)
      for (std::size_t i = 0; i < n; ++i) {
        float t = 0;
        cudaEventElapsedTime(&t, ev[2 * i], ev[2 * i + 1]);
        ms[i].push_back(double(t));
      }
  };
  // Warm-up: three rounds at least and timing::kWarmupMs of wall time (the clocks come up);
  // its last round gives the estimate that sets the number of rounds.
  const auto w0 = clock::now();
  int warm = 0;
  double estimate_ms = 0;  // one launch, averaged over the configurations
  while (failed && (warm < 3 || std::chrono::duration<double, std::milli>(clock::now() - w0).count() < timing::kWarmupMs)) {
    host_us = 0;
    run_round(warm, false);
    ++warm;
    // (the lead-in covers twice the slowest host enqueue of the last round, not of the first,
    // whose first launches load modules: the start event is reached only once the launch is
    // queued)
    lead_us = std::clamp(2 * host_us, 20.0, 500.0);
  }
  if (failed) {
    estimate_ms = 0;
    for (std::size_t i = 0; i < n; ++i) {
      float t = 0;
      cudaEventElapsedTime(&t, ev[2 * i], ev[2 * i + 1]);
      estimate_ms += double(t) / double(n);
    }
  }
  // (whole periods of the balanced order, so every neighbour counts equally in the medians)
  const int rounds = timing::whole_periods(timing::rounds_for(estimate_ms, options.min_ms, options.reps), n);
  for (int round = 0; round < rounds && failed; ++round) run_round(round, true);
  destroy_events();
  if (!failed) {
    out.status = failed;
    return out;
  }
  const timing::TuneChoice choice = timing::choose_with_margin(ms, rule);
  for (std::size_t i = 0; i < n; ++i) {
    const timing::Spread s = timing::spread_of(ms[i]);
    out.timings.push_back({sm90::to_string(timed[i]), 1e3 * s.median, 1e3 * s.q1, 1e3 * s.q3});
  }
  const std::size_t best = choice.index;
  out.rounds = rounds;
  if (rule) out.rule = out.timings[*rule].configuration;
  out.chosen = out.timings[best].configuration;
  out.microseconds = out.timings[best].microseconds;
  device::remember_sm90_config(cm, timed[best]);
  if (options.record) {
    const std::filesystem::path file = options.cache_file.empty() ? device::tuning_cache_file() : std::filesystem::path(options.cache_file);
    if (file.empty()) {
      out.note = "not written to a file: TESSERA_TUNING_CACHE is off (or no cache directory: set XDG_CACHE_HOME or HOME)";
    } else {
      TuningKey key{tuning_cache_tessera_version(), prop.name, tuning_problem(cm)};
      if (std::string e = write_tuning_record(file, record_of(key, timed[best], out.microseconds)); !e.empty())
        out.note = "not written to " + file.string() + ": " + e;
      else
        out.cache_file = file.string();
    }
  }
  return out;
}

}  // namespace tessera::kernels
