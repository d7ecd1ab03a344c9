// Host emulation of warp-collective instructions (ldmatrix, mma.sync).
//
// A warp-collective instruction gives lane l data that other lanes address or hold, so one
// host thread cannot emulate it alone.  host_warp::launch(n, body) runs body(thread index)
// on n host threads, grouped into warps of 32 lanes; at a collective instruction every lane
// of the warp publishes pointers to its operands, waits for the whole warp, computes its own
// results from what the other lanes published (as the atom's TV layouts say), and waits
// again so that no lane reuses its operands while another still reads them.  Like the
// hardware's .sync.aligned, every lane of a warp must reach the same collectives in the
// same order.  Outside launch() a collective has no warp to talk to: it stops loudly.
//
// Host only: this is test machinery for the algorithms' host paths (tessera/algorithm/copy.hpp,
// gemm.hpp), not part of the device code path.
#pragma once

#include "tessera/config.hpp"

#if !defined(__CUDA_ARCH__)
#include <array>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace tessera::host_warp {

inline constexpr int warp_size = 32;
inline constexpr int max_operands = 4;

// One warp's meeting point: a reusable barrier and each lane's published operands.
class Warp {
 public:
  explicit Warp(int lanes) : lanes_(lanes) {}
  int lanes() const { return lanes_; }
  // Every lane of the warp arrives before any leaves.
  void sync() {
    std::unique_lock<std::mutex> lock(mutex_);
    const long gen = generation_;
    if (++arrived_ == lanes_) {
      arrived_ = 0;
      ++generation_;
      cv_.notify_all();
    } else {
      cv_.wait(lock, [&] { return generation_ != gen; });
    }
  }
  using Operands = std::array<void const*, max_operands>;
  std::array<Operands, warp_size> published{};

 private:
  int lanes_;
  std::mutex mutex_;
  std::condition_variable cv_;
  int arrived_ = 0;
  long generation_ = 0;
};

struct Lane {
  Warp* warp = nullptr;
  Warp* block = nullptr;  // every thread of the launch (sync_block)
  int lane = 0;           // index within the warp
};
inline Lane& this_lane() {
  thread_local Lane lane;
  return lane;
}

// Run body(thread index) for thread indices [0, num_threads), warps of 32 lanes.
template <class Body>
void launch(int num_threads, Body const& body) {
  Warp block(num_threads);
  std::vector<std::unique_ptr<Warp>> warps;
  for (int w = 0; w * warp_size < num_threads; ++w)
    warps.push_back(std::make_unique<Warp>(std::min(warp_size, num_threads - w * warp_size)));
  std::vector<std::thread> threads;
  threads.reserve(std::size_t(num_threads));
  for (int t = 0; t < num_threads; ++t)
    threads.emplace_back([&, t] {
      this_lane() = Lane{warps[std::size_t(t / warp_size)].get(), &block, t % warp_size};
      body(t);
      this_lane() = Lane{};
    });
  for (auto& th : threads) th.join();
}

// A barrier over every thread of the launch (the host's __syncthreads).
inline void sync_block() {
  Lane& me = this_lane();
  if (me.block == nullptr) {
    std::fprintf(stderr, "tessera: sync_threads on the host runs only inside tessera::host_warp::launch\n");
    std::abort();
  }
  me.block->sync();
}

// One collective instruction on the calling lane: publish `mine`, then compute(lane,
// published operands of every lane of the warp) once all lanes have published.
template <class Compute>
void collective(char const* what, Warp::Operands const& mine, Compute&& compute) {
  Lane& me = this_lane();
  if (me.warp == nullptr) {
    std::fprintf(stderr,
                 "tessera: %s is warp-collective; on the host it runs only inside "
                 "tessera::host_warp::launch (every lane of the warp at once)\n",
                 what);
    std::abort();
  }
  me.warp->published[std::size_t(me.lane)] = mine;
  me.warp->sync();
  compute(me.lane, me.warp->published);
  me.warp->sync();
}

}  // namespace tessera::host_warp
#endif

namespace tessera {
// __syncthreads() on the device; on the host, the barrier of host_warp::launch's threads.
TESSERA_HOST_DEVICE inline void sync_threads() {
#if defined(__CUDA_ARCH__)
  __syncthreads();
#else
  host_warp::sync_block();
#endif
}
}  // namespace tessera
