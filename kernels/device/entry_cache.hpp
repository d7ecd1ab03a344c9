// EntryCache: what the device layer asks the driver once per kernel entry and device (the
// dynamic shared-memory opt-in, the CTAs or clusters one SM or GPU holds), kept for later
// launches, keyed by the entry's host stub address, not by the kernel's type.
//
// Why the address: nvcc 13 gives every translation unit its own static host stub for a
// __global__ template (-static-global-template-stub, default true) and its own device module,
// so one kernel type instantiated in two TUs (the library's and a user's or the bench's) is two
// kernels to the runtime. A cache keyed by type (a function-local static in an inline template)
// is one object across those TUs: the first TU's cudaFuncSetAttribute would answer for the
// second's kernel too, whose launch above 48 KiB of dynamic smem then fails with "invalid
// argument" (kernels_entry_cache_gpu_test launches two such copies through the device layer's
// opt-in, smem_opt_in.cuh).
//
// Host-only C++ (no CUDA headers): the GPU-free test drives it with any addresses.
#pragma once

#include <cstddef>
#include <map>
#include <mutex>
#include <tuple>

namespace tessera::kernels::device {

class EntryCache {
 public:
  // What `ask` is: the fact a value stands for (one entry has several).
  enum class Fact : int { SmemOptIn = 0, CtasPerSm = 1, ResidentClusters = 2 };

  // The value of `fact` for (entry, device): the cached one, else ask() (called without the
  // lock held, so it may call the driver), kept when it succeeded (>= 0; a negative answer is
  // an error that the next call asks again).
  template <class Ask>
  int get(const void* entry, int device, Fact fact, Ask&& ask) {
    const Key key{entry, device, int(fact)};
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (auto it = values_.find(key); it != values_.end()) return it->second;
    }
    const int value = ask();
    if (value >= 0) {
      std::lock_guard<std::mutex> lock(mutex_);
      values_.emplace(key, value);  // (a racing first call asked the same thing: either answer)
    }
    return value;
  }

  std::size_t size() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return values_.size();
  }

 private:
  using Key = std::tuple<const void*, int, int>;
  mutable std::mutex mutex_;
  std::map<Key, int> values_;
};

// The process's cache (an inline function's static: one object in the whole program, which
// is what a cache keyed by address needs).
inline EntryCache& entry_cache() {
  static EntryCache cache;
  return cache;
}

}  // namespace tessera::kernels::device
