// The order of the block-scaled mainloop's promotion under BlockPromotion::UnderNextKTile
// (sm90_dispatch_policy.cuh): two sets of partial sums, so that the tensor cores run k-tile
// k+1's wgmmas while the warpgroup promotes k-tile k.
//
// Each k-tile's wgmmas write one set from zero (ScaleOut::Zero) as one committed group; wgmma
// groups retire in the order they were committed, so `wait<1>` (all but the newest group
// retired) after issuing k-tile k+1 means k-tile k is done and its set can be read while k+1's
// group runs. A set is written again only after its k-tile was promoted, so the two sets
// alternate: k-tile k (counted from the call's first) in set k mod 2. The last k-tile is
// drained with `wait<0>`. The products are the same and added into the accumulators in the same
// order (k-tile 0, 1, ...) as under BlockPromotion::AfterWait: the same sums, bit for bit.
//
// The loop is written once over three steps, for the device (each a piece of the mainloop) and
// for the host tests that play it out (hopper_sm90_block_promotion_test, the contract test's
// replay of the scale reads):
//   issue(set, kt)          wait for k-tile kt's stage, issue its wgmmas into `set`, commit
//   retire(in_flight)       warpgroup_wait<in_flight>: all but the newest in_flight groups retired
//   promote(set, kt)        acc += set * k-tile kt's scales; release kt's stage
// `set` and `in_flight` are std::integral_constant, so the device picks each set's registers and
// each wait's immediate at compile time (a set indexed at run time would live in local memory).
#pragma once

#include <type_traits>

#include <tessera/config.hpp>

namespace tessera::kernels::sm90 {

// The set k-tile kt of a call (counted from its first: a Stream-K step starts at set 0) lives in.
TESSERA_HOST_DEVICE constexpr int promotion_set(int kt) { return kt & 1; }

// The wgmma groups that may still run when a k-tile is promoted: the next k-tile's, except at
// the last k-tile (the drain: nothing left to overlap).
TESSERA_HOST_DEVICE constexpr int promotion_in_flight(int kt, int k_tiles) { return kt + 1 < k_tiles ? 1 : 0; }

// (force-inlined: out of line, the device's sets would be behind the steps' references, in local memory)
template <class Issue, class Retire, class Promote>
TESSERA_HOST_DEVICE TESSERA_INLINE constexpr void promote_under_next_k_tile(int k_tiles, Issue&& issue, Retire&& retire, Promote&& promote) {
  using Set0 = std::integral_constant<int, 0>;
  using Set1 = std::integral_constant<int, 1>;
  using Newest = std::integral_constant<int, 1>;
  using None = std::integral_constant<int, 0>;
  if (k_tiles <= 0) return;
  // The first k-tile issued ahead; then, unrolled by two so that each set is named at compile
  // time, k-tile kt (set 0, in flight) is promoted under kt + 1 (set 1) and kt + 1 under kt + 2
  // (set 0 again). The loop's body is straight-line: its waits sit on every path through it (a
  // wgmma wait inside a branch ptxas cannot prove uniform makes it insert waits of its own, which
  // serialize every wgmma of the kernel: C7518).
  issue(Set0{}, 0);
  int kt = 0;
  for (; kt + 2 < k_tiles; kt += 2) {
    issue(Set1{}, kt + 1);
    retire(Newest{});  // kt retired, kt + 1 in flight
    promote(Set0{}, kt);
    issue(Set0{}, kt + 2);
    retire(Newest{});  // kt + 1 retired, kt + 2 in flight
    promote(Set1{}, kt + 1);
  }
  // kt (set 0) in flight, and one or two k-tiles left: the drain
  if (kt + 1 < k_tiles) {
    issue(Set1{}, kt + 1);
    retire(Newest{});
    promote(Set0{}, kt);
    retire(None{});  // the last, in set 1 (an even count)
    promote(Set1{}, kt + 1);
  } else {
    retire(None{});  // the last, in set 0 (an odd count)
    promote(Set0{}, kt);
  }
}

}  // namespace tessera::kernels::sm90
