#pragma once
// mbarrier: the shared-memory barrier Hopper's TMA completes on (PTX "mbarrier").
//
// A barrier runs through phases 0, 1, 2, ... A phase completes when its pending arrival
// count reaches 0 and its transaction count (bytes announced by expect_tx, taken away as
// asynchronous copies land: complete_tx) is 0; then the next phase starts with the arrival
// count reset. try_wait(parity) is true once the phase of that parity, the current one or
// the one before it, has completed: i.e. when the current phase's parity differs.
//
// DeviceMbarrier issues the PTX (sm_90); HostMbarrier is the same state machine in plain C++,
// for tests of pipeline logic on the host.
#include <cstdint>

#include "tessera/atom/detail/arch.hpp"
#include "tessera/config.hpp"

namespace tessera::pipeline {

struct HostMbarrier {
  int expected = 0;       // arrivals per phase
  int pending = 0;        // arrivals still missing in the current phase
  int64_t tx = 0;         // transaction bytes still missing in the current phase
  uint32_t phase = 0;     // number of completed phases

  void init(int arrivals) { expected = pending = arrivals; tx = 0; phase = 0; }
  void arrive() { --pending; settle(); }
  void arrive_expect_tx(uint32_t bytes) { tx += bytes; arrive(); }
  void expect_tx(uint32_t bytes) { tx += bytes; }
  void complete_tx(uint32_t bytes) { tx -= int64_t(bytes); settle(); }  // what a TMA copy does as it lands
  bool try_wait(uint32_t parity) const { return (phase & 1u) != (parity & 1u); }

 private:
  void settle() {
    if (pending == 0 && tx == 0) { ++phase; pending = expected; }
  }
};

// Its storage is seen by host code too (the builders size shared memory by it); its
// instructions by CUDA code only.
struct DeviceMbarrier {
  uint64_t storage;  // lives in shared memory
#if defined(__CUDACC__)
  TESSERA_DEVICE uint32_t address() const { return uint32_t(__cvta_generic_to_shared(&storage)); }
  TESSERA_DEVICE void init(int arrivals) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(address()), "r"(arrivals) : "memory");
#endif
  }
  TESSERA_DEVICE void arrive() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("mbarrier.arrive.release.cta.shared::cta.b64 _, [%0];\n" ::"r"(address()) : "memory");
#endif
  }
  TESSERA_DEVICE void arrive_expect_tx(uint32_t bytes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [%0], %1;\n" ::"r"(address()), "r"(bytes)
                 : "memory");
#endif
  }
  // Arrive on the barrier at this one's offset in CTA `cta_rank` of the cluster (itself
  // included): consumers free a stage that other CTAs' multicast copies write.
  TESSERA_DEVICE void arrive_cluster(uint32_t cta_rank) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    uint32_t remote = 0;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;\n" : "=r"(remote) : "r"(address()), "r"(cta_rank));
    // The default semantics (release at CTA scope), not .release.cluster: that one compiles to
    // MEMBAR.ALL.GPU before every arrival, and a consumer that releases a stage has nothing
    // to publish (its wgmmas only read the stage): a GPU-wide fence per stage and warp would
    // cost a clustered kernel more than its multicast saves.
    asm volatile("mbarrier.arrive.shared::cluster.b64 _, [%0];\n" ::"r"(remote) : "memory");
#else
    (void)cta_rank;
#endif
  }
  TESSERA_DEVICE void expect_tx(uint32_t bytes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;\n" ::"r"(address()), "r"(bytes) : "memory");
#endif
  }
  TESSERA_DEVICE bool try_wait(uint32_t parity) const {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    uint32_t done = 0;
    asm volatile(
        "{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}\n"
        : "=r"(done)
        : "r"(address()), "r"(parity)
        : "memory");
    return done != 0;
#else
    (void)parity;
    return true;
#endif
  }
#endif
};

// Makes barrier initialisations (mbarrier.init by one thread) visible to the async proxy
// (TMA's complete_tx) and to the cluster, before the CTA barrier that publishes them.
TESSERA_DEVICE void fence_barrier_init() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
#endif
}

}  // namespace tessera::pipeline
