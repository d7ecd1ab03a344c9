// The ping-pong schedule's order (SM90): a CTA's work units j = 0, 1, 2, ... alternate between
// its two consumer warpgroups (unit j is warpgroup j % 2's), and unit j's mainloop starts only
// once unit j - 1's has finished, so the two warpgroups' wgmmas never share the tensor cores
// and each one's epilogue runs under the other's next mainloop.
// One barrier per warpgroup completes a phase per mainloop of that warpgroup (every thread of
// it arrives); unit j - 1 is its owner's ((j - 1) / 2)-th mainloop, so unit j waits for that
// phase's parity. The parity cannot alias: the owner of j - 1 cannot run a further mainloop
// before unit j's has finished, and it has finished its earlier ones (each waited for ours).
// Barrier: pipeline::DeviceMbarrier in the kernel, HostMbarrier in the host test.
#pragma once

#include <cstdint>

#include <tessera/config.hpp>

namespace tessera::kernels::sm90 {

template <class Barrier>
struct PingpongOrder {
  Barrier done[2];

  // Once, by one thread, before anyone waits (then a CTA barrier); `threads` arrive per mainloop.
  TESSERA_HOST_DEVICE void init(int threads) {
    done[0].init(threads);
    done[1].init(threads);
  }
  TESSERA_HOST_DEVICE static constexpr int owner(int64_t unit) { return int(unit & 1); }
  // Whether unit j's mainloop may start: unit j - 1's has finished (unit 0 starts at once).
  TESSERA_HOST_DEVICE bool may_start(int64_t j) const {
    return j == 0 || done[owner(j - 1)].try_wait(uint32_t((j - 1) >> 1) & 1u);
  }
  // Each thread of unit j's warpgroup, after the unit's mainloop (its accumulators final).
  TESSERA_HOST_DEVICE void finished(int64_t j) { done[owner(j)].arrive(); }
};

}  // namespace tessera::kernels::sm90
