// One kernel type instantiated in two TUs, each launching its copy with 64 KiB of dynamic
// shared memory, alternately: every launch must succeed and compute (a cache of the opt-in keyed
// by type, not by entry, lets the second copy launch without it and fail: entry_cache.hpp).
// Exits 77 (skipped) without a GPU.
#include <cstdio>
#include <vector>

#include "big_smem_kernel.cuh"

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no GPU: skipped\n");
    return 77;
  }
  using namespace entry_cache_gpu;
  int* out = nullptr;
  if (cudaMalloc(&out, kThreads * sizeof(int)) != cudaSuccess) return 1;
  int failures = 0;
  const char* order = "abba";
  for (int i = 0; order[i]; ++i) {
    const int value = 1000 * (i + 1);
    const cudaError_t launched = order[i] == 'a' ? run_in_tu_a(out, value) : run_in_tu_b(out, value);
    const cudaError_t done = cudaDeviceSynchronize();
    std::vector<int> host(kThreads);
    cudaMemcpy(host.data(), out, kThreads * sizeof(int), cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (int t = 0; t < kThreads; ++t) wrong += host[std::size_t(t)] != value + kSmemBytes / 4 - 1 - t;
    const bool ok = launched == cudaSuccess && done == cudaSuccess && wrong == 0;
    std::printf("launch %d from TU %c: %s (%s, %d wrong)\n", i, order[i], ok ? "ok" : "FAILED",
                cudaGetErrorString(launched != cudaSuccess ? launched : done), wrong);
    failures += !ok;
  }
  cudaFree(out);
  std::printf("%s\n", failures ? "FAILED" : "all launches ok");
  return failures ? 1 : 0;
}
