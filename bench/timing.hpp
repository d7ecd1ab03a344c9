// The timing of the SM90 benchmark and the device probes (tools/device): tessera's kernel and
// a reference launched in alternating pairs, each timed with CUDA events, and their medians.
// Host + CUDA runtime only; the tests never time anything.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "../tools/harness/sm90_gemm_check.hpp"  // SM90_CUDA

namespace sm90_check {

// A kernel that keeps the GPU busy for `cycles` while the host enqueues a timed pair: without
// it the first event of a pair is recorded on an idle GPU and tessera's host-side work (argument
// checks, tensor maps, the launch itself) is timed, while cuBLAS's, enqueued while tessera's
// kernel runs, is hidden. (A template: one copy per program however many TUs include this.)
template <int = 0>
__global__ void lead_in(long long cycles) {
  const long long t0 = clock64();
  while (clock64() - t0 < cycles) {}
}

// The timing of the bench and the probes: `warmup` untimed pairs, then `reps` pairs (mine,
// theirs) launched alternately, each pair after lead_in (~50 us at 1.98 GHz, unless `lead` is
// false: then from an idle GPU, host launch costs included), each timed with CUDA events: the
// two series in ms.
struct PairTimes {
  std::vector<float> mine, theirs;
};
template <class Mine, class Theirs>
PairTimes time_pairs(Mine&& mine, Theirs&& theirs, int reps, int warmup = 5, bool lead = true) {
  for (int i = 0; i < warmup; ++i) {
    mine();
    theirs();
  }
  cudaEvent_t ev[3];
  for (auto& e : ev) SM90_CUDA(cudaEventCreate(&e));
  PairTimes t;
  for (int i = 0; i < reps; ++i) {
    if (lead) lead_in<<<1, 1>>>(100000);
    SM90_CUDA(cudaEventRecord(ev[0]));
    mine();
    SM90_CUDA(cudaEventRecord(ev[1]));
    theirs();
    SM90_CUDA(cudaEventRecord(ev[2]));
    SM90_CUDA(cudaEventSynchronize(ev[2]));
    float a = 0, b = 0;
    SM90_CUDA(cudaEventElapsedTime(&a, ev[0], ev[1]));
    SM90_CUDA(cudaEventElapsedTime(&b, ev[1], ev[2]));
    t.mine.push_back(a);
    t.theirs.push_back(b);
  }
  for (auto& e : ev) cudaEventDestroy(e);
  return t;
}

// The median (of an even count, the mean of the middle two); 0 for none.
inline double median(std::vector<float> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (double(v[v.size() / 2 - 1]) + double(v[v.size() / 2]));
}

}  // namespace sm90_check
