// The turns of the block-scaled mainloop's alternating issue (ConsumerIssue::Alternating,
// sm90_dispatch_policy.cuh): the two consumer warpgroups of a cooperative tile issue each
// k-tile's wgmmas in the order 0, 1, 0, 1, ..., so that the tensor cores, which run wgmmas in
// the order they were issued, run one warpgroup's k-tile while the other waits for its own and
// promotes it. Two named barriers (arch::NamedBarrier::ConsumerTurn + t, t = 0, 1: warpgroup t's
// turn), each of 2 x 128 threads: the warpgroup whose turn it is waits there (bar.sync), the
// other arrives (bar.arrive) once it has issued, handing the turn on.
// Per call of the mainloop (one tile, or one Stream-K step, with the same k-tile count in both
// warpgroups) each barrier completes exactly as many phases as it is waited at: warpgroup 1
// hands warpgroup 0 its first turn, and does not hand on the turn after its last k-tile. So no
// arrival is left pending between calls (an arrival past a barrier's waits would complete a
// later call's turn early, breaking the order, or count twice in one phase), and a call with no
// k-tiles touches neither barrier. Host code, so that CI plays the hand-offs out
// (hopper_sm90_pingpong_order_test).
#pragma once

#include <tessera/config.hpp>

namespace tessera::kernels::sm90 {

template <int ConsumerWarpgroups>
struct block_scaled_turns {
  static_assert(ConsumerWarpgroups == 2, "alternating issue: two consumer warpgroups take turns");
  // Each turn barrier's thread count: the waiting warpgroup and the one that hands the turn on.
  static constexpr int threads = 2 * 128;
  // The barrier (offset from ConsumerTurn) that warpgroup wg waits at for its turn.
  TESSERA_HOST_DEVICE static constexpr int waits_at(int wg) { return wg; }
  // The barrier that warpgroup wg arrives at to hand the turn on: the other's.
  TESSERA_HOST_DEVICE static constexpr int passes_to(int wg) { return 1 - wg; }
  // Warpgroup 0 takes a call's first turn, which warpgroup 1 gives it at the call's start.
  TESSERA_HOST_DEVICE static constexpr int first() { return 0; }
  TESSERA_HOST_DEVICE static constexpr bool primes(int wg) { return wg == 1; }
  // Whether warpgroup wg hands the turn on after k-tile kt of k_tiles: after every k-tile but
  // warpgroup 1's last (the next call's start gives warpgroup 0 its turn).
  TESSERA_HOST_DEVICE static constexpr bool passes(int wg, int kt, int k_tiles) { return !(wg == 1 && kt == k_tiles - 1); }
};

}  // namespace tessera::kernels::sm90
