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
#include <cstdint>
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
  int thread = 0;         // index within the launch
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
      this_lane() = Lane{warps[std::size_t(t / warp_size)].get(), &block, t % warp_size, t};
      body(t);
      this_lane() = Lane{};
    });
  for (auto& th : threads) th.join();
}

// Shared memory as the host sees it: instructions that name shared memory by a 32-bit
// address (wgmma descriptors: the low 18 bits of the shared window) find it in the buffer set
// here, where the address of a host pointer p is its value modulo 2^18 (as
// GMMA::DescriptorIterator computes it on the host). At most 2^18 bytes, best allocated on a
// 2^18-byte boundary (std::aligned_alloc): its addresses then run from 0 as on the device,
// and an operand's descriptor never wraps its 14-bit start-address field (debug builds
// check); at least on the swizzle's repeat (1 KiB), so that swizzles on addresses agree.
struct SharedMemory {
  unsigned char const* base = nullptr;
  std::size_t bytes = 0;
};
inline SharedMemory& shared_memory() {
  static SharedMemory window;
  return window;
}
inline void set_shared_memory(void const* base, std::size_t bytes) {
  if (bytes > (std::size_t(1) << 18)) {
    std::fprintf(stderr, "tessera: host shared memory of %zu bytes is more than the 2^18-byte shared window\n", bytes);
    std::abort();
  }
  shared_memory() = SharedMemory{static_cast<unsigned char const*>(base), bytes};
}
// The host byte at shared-window address `address` (18 bits); stops loudly outside the buffer.
inline unsigned char const* shared_byte(uint32_t address, std::size_t size) {
  SharedMemory const& w = shared_memory();
  const uint32_t base_address = uint32_t(reinterpret_cast<std::uintptr_t>(w.base) & 0x3FFFFu);
  const std::size_t offset = std::size_t((address - base_address) & 0x3FFFFu);
  if (w.base == nullptr || offset + size > w.bytes) {
    std::fprintf(stderr, "tessera: shared address 0x%05x lies outside the host's shared memory (host_warp::set_shared_memory)\n",
                 unsigned(address));
    std::abort();
  }
  return w.base + offset;
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
