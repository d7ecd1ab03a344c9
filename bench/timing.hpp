// The timing of the SM90 benchmark and the device probes (tools/device): tessera's kernel and
// a reference launched in alternating pairs, each timed with CUDA events, their medians and the
// spread of their ratio.
// Host + CUDA runtime only; the tests never time anything.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <vector>

#include "../kernels/device/lead_in.cuh"
#include "../kernels/device/timing_policy.hpp"
#include "../tools/harness/sm90_gemm_check.hpp"  // SM90_CUDA

namespace sm90_check {

// The lead-in (kernels/device/lead_in.cuh, gemm_tune's): it keeps the GPU busy for kLeadInNs while
// the host enqueues a timed pair: without it the first event of a pair is recorded on an idle GPU
// and tessera's host-side work (argument checks, tensor maps, the launch itself) is timed, while
// cuBLAS's, enqueued while tessera's kernel runs, is hidden.
constexpr unsigned long long kLeadInNs = 50000;

// Reads `n` 16-byte words (a buffer twice the L2's size) so that the next kernel finds none of
// its operands in the L2, as a layer's weights are found in inference; clean lines, so no
// write-back lands in the timed kernel. (`sink` is written only if the sum is a value random
// data never gives, so the loads are kept.)
template <int = 0>
__global__ void l2_flush(const int4* p, size_t n, int* sink) {
  int acc = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    const int4 v = p[i];
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0x7fffffff) *sink = acc;
}

// A buffer of twice the L2's size and l2_flush over it, where `on` (nothing otherwise): what
// the timings below launch before a timed kernel for a cold L2.
class L2Flusher {
 public:
  explicit L2Flusher(bool on) {
    if (!on) return;
    int dev = 0, l2 = 0;
    SM90_CUDA(cudaGetDevice(&dev));
    SM90_CUDA(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
    words_ = 2 * size_t(l2) / sizeof(int4);
    SM90_CUDA(cudaMalloc(&buffer_, words_ * sizeof(int4)));
    SM90_CUDA(cudaMalloc(&sink_, sizeof(int)));
    SM90_CUDA(cudaMemset(buffer_, 0x5a, words_ * sizeof(int4)));
  }
  L2Flusher(const L2Flusher&) = delete;
  L2Flusher& operator=(const L2Flusher&) = delete;
  ~L2Flusher() {
    cudaFree(buffer_);
    cudaFree(sink_);
  }
  void operator()() const {
    if (buffer_) l2_flush<<<264, 512>>>(buffer_, words_, sink_);
  }

 private:
  int4* buffer_ = nullptr;
  int* sink_ = nullptr;
  size_t words_ = 0;
};

// The timing of the bench and the probes (the policy: kernels/device/timing_policy.hpp):
// - warm-up: at least `warmup` untimed pairs and timing::kWarmupMs of wall time, so that a GPU
//   just out of idle host work (allocation, the reference check) runs at its working clock;
// - then pairs (mine, theirs), each after the lead-in (50 us, unless `lead` is false:
//   then from an idle GPU, host launch costs included), each kernel between its own CUDA events;
//   odd pairs launch theirs first, so neither side always follows the other (the L2 and the
//   clocks it leaves);
// - at least `reps` pairs and, where `target_ms` > 0, enough that each side is timed for
//   `target_ms` in all (timing::rounds_for over a first pair timed after the warm-up), at most
//   timing::kMaxRounds;
// - `cold_l2`: before each timed kernel (outside its events) a read of twice the L2's size, so
//   both sides start from an L2 without their operands (the default: warm, each kernel finding
//   what the previous one left).
// The two series in ms, in launch order (pair i of mine goes with pair i of theirs).
struct PairTimes {
  std::vector<float> mine, theirs;
};
template <class Mine, class Theirs>
PairTimes time_pairs(Mine&& mine, Theirs&& theirs, int reps, int warmup = 5, bool lead = true, double target_ms = 0,
                     bool cold_l2 = false) {
  namespace timing = tessera::kernels::timing;
  using clock = std::chrono::steady_clock;
  const auto w0 = clock::now();
  for (int i = 0; i < warmup || std::chrono::duration<double, std::milli>(clock::now() - w0).count() < timing::kWarmupMs; ++i) {
    mine();
    theirs();
    SM90_CUDA(cudaDeviceSynchronize());  // (the wall time then counts GPU work, not enqueues)
  }
  const L2Flusher flush_l2(cold_l2);
  cudaEvent_t ev[4];
  for (auto& e : ev) SM90_CUDA(cudaEventCreate(&e));
  // One pair: the first kernel between ev[0] and ev[1], the second between ev[2] and ev[3]
  // (after a lead-in, if any; the flushes, if any, outside the events).
  auto pair = [&](bool mine_first, float& t_mine, float& t_theirs) {
    if (lead) tessera::kernels::device::lead_in_kernel<><<<1, 1>>>(kLeadInNs);
    flush_l2();
    SM90_CUDA(cudaEventRecord(ev[0]));
    mine_first ? mine() : theirs();
    SM90_CUDA(cudaEventRecord(ev[1]));
    flush_l2();
    SM90_CUDA(cudaEventRecord(ev[2]));
    mine_first ? theirs() : mine();
    SM90_CUDA(cudaEventRecord(ev[3]));
    SM90_CUDA(cudaEventSynchronize(ev[3]));
    float a = 0, b = 0;
    SM90_CUDA(cudaEventElapsedTime(&a, ev[0], ev[1]));
    SM90_CUDA(cudaEventElapsedTime(&b, ev[2], ev[3]));
    t_mine = mine_first ? a : b;
    t_theirs = mine_first ? b : a;
  };
  int n = std::max(reps, 1);
  if (target_ms > 0) {
    float a = 0, b = 0;
    pair(true, a, b);
    n = timing::rounds_for(double(std::min(a, b)), target_ms, n);
  }
  PairTimes t;
  t.mine.resize(std::size_t(n));
  t.theirs.resize(std::size_t(n));
  for (int i = 0; i < n; ++i) pair(i % 2 == 0, t.mine[std::size_t(i)], t.theirs[std::size_t(i)]);
  for (auto& e : ev) cudaEventDestroy(e);
  return t;
}

// gemm_tune's timing outside the library, with its factors switchable, for the probe that sets
// it beside the pairs (sm90_gemm_bench --tune-probe): rounds that launch every kernel of `ks`
// once, each after the lead-in (kLeadInNs) and between its own events, in the order `order`
// gives (timing::round_robin: gemm_tune's rotation before the balanced order; or
// timing::balanced_order), a wait at each round's end; `self_before`: each timed launch follows
// an untimed launch of the same kernel (ahead of its lead-in), so it finds what it leaves itself
// and no neighbour's L2; `cold_l2`: before each timed launch (outside its events, after the
// lead-in) a read of twice the L2's size. Warm-up as time_pairs'; then `rounds` rounds. ms[i]: kernel
// i's time in each round.
inline std::vector<std::vector<double>> time_rounds(const std::vector<std::function<void()>>& ks,
                                                    std::size_t (*order)(std::size_t, long long, std::size_t), int rounds,
                                                    bool self_before, bool cold_l2) {
  namespace timing = tessera::kernels::timing;
  using clock = std::chrono::steady_clock;
  const std::size_t n = ks.size();
  const L2Flusher flush_l2(cold_l2);
  std::vector<cudaEvent_t> ev(2 * n);
  for (auto& e : ev) SM90_CUDA(cudaEventCreate(&e));
  std::vector<std::vector<double>> ms(n);
  auto round = [&](long long r, bool keep) {
    for (std::size_t pos = 0; pos < n; ++pos) {
      const std::size_t i = order(n, r, pos);
      if (self_before) ks[i]();
      tessera::kernels::device::lead_in_kernel<><<<1, 1>>>(kLeadInNs);
      flush_l2();
      SM90_CUDA(cudaEventRecord(ev[2 * i]));
      ks[i]();
      SM90_CUDA(cudaEventRecord(ev[2 * i + 1]));
    }
    SM90_CUDA(cudaDeviceSynchronize());
    if (keep)
      for (std::size_t i = 0; i < n; ++i) {
        float t = 0;
        SM90_CUDA(cudaEventElapsedTime(&t, ev[2 * i], ev[2 * i + 1]));
        ms[i].push_back(double(t));
      }
  };
  const auto w0 = clock::now();
  for (long long w = 0; w < 3 || std::chrono::duration<double, std::milli>(clock::now() - w0).count() < timing::kWarmupMs; ++w) round(w, false);
  for (int r = 0; r < rounds; ++r) round(r, true);
  for (auto& e : ev) cudaEventDestroy(e);
  return ms;
}

// The ratio theirs / mine of the two series' medians, and the lowest and highest of the same
// ratio over `rounds` consecutive runs of pairs (what a shorter measurement could have said):
// a difference between two rows within both rows' spread is noise.
inline tessera::kernels::timing::RatioSpread ratio_spread(const PairTimes& t, int rounds = 5) {
  return tessera::kernels::timing::ratio_spread(std::vector<double>(t.mine.begin(), t.mine.end()),
                                                std::vector<double>(t.theirs.begin(), t.theirs.end()), rounds);
}

// The median (of an even count, the mean of the middle two); 0 for none.
inline double median(std::vector<float> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (double(v[v.size() / 2 - 1]) + double(v[v.size() / 2]));
}

}  // namespace sm90_check
