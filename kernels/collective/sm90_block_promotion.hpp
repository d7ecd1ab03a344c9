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
// The loop is written once over an `ops` object, for the device (each call a piece of the
// mainloop) and for the host tests that play it out (hopper_sm90_block_promotion_test):
//   ops.issue(set, kt)          wait for k-tile kt's stage, issue its wgmmas into `set`, commit
//   ops.retire(in_flight)       warpgroup_wait<in_flight>: all but the newest in_flight groups retired
//   ops.promote(set, kt)        acc += set * k-tile kt's scales; release kt's stage
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

template <class Issue, class Retire, class Promote>
TESSERA_HOST_DEVICE constexpr void promote_under_next_k_tile(int k_tiles, Issue&& issue, Retire&& retire, Promote&& promote) {
  using Set0 = std::integral_constant<int, 0>;
  using Set1 = std::integral_constant<int, 1>;
  using Newest = std::integral_constant<int, 1>;
  using None = std::integral_constant<int, 0>;
  // Unrolled by two, so that each set is named at compile time: the iteration takes k-tiles kt
  // (set 0) and kt + 1 (set 1); the promotion of kt - 1 (set 1) waits under kt's wgmmas.
  for (int kt = 0; kt < k_tiles; kt += 2) {
    issue(Set0{}, kt);
    if (kt > 0) {
      retire(Newest{});  // kt - 1 retired, kt in flight
      promote(Set1{}, kt - 1);
    }
    if (kt + 1 < k_tiles) {
      issue(Set1{}, kt + 1);
      retire(Newest{});  // kt retired, kt + 1 in flight
      promote(Set0{}, kt);
    } else {
      retire(None{});  // kt, the last (an odd count)
      promote(Set0{}, kt);
    }
  }
  if (k_tiles > 0 && k_tiles % 2 == 0) {
    retire(None{});  // the last (an even count), in set 1
    promote(Set1{}, k_tiles - 1);
  }
}

}  // namespace tessera::kernels::sm90
