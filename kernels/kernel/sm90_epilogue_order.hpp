// When the cooperative SM90 kernel's consumers run a tile's epilogue (plain C++: gemm_kernel_t
// and the kernel list name the kernel through this declaration):
//   EpilogueAfterTile           after the tile's mainloop, the tensor cores idle meanwhile
//                               (the shipped kernels with an f32 D, Stream-K, ping-pong, FP8)
//   EpilogueUnderNextTile<H>    the tile's values packed into 16-bit pairs (which frees the
//                               accumulators), the next tile's first H k-tiles of wgmmas
//                               issued, then the packed values staged and TMA-stored while
//                               those run (whole tiles, 16-bit inputs and D, a TMA-store
//                               epilogue). Per launch: a problem the epilogue packs (D through
//                               TMA, beta == 0; the plain instance no bias or activation)
//                               under the next tile; the plain instance's others (C, its
//                               direct stores) after the tile (the kernel's second entry,
//                               gemm_sm90_entry_after_tile). H = 2 is the
//                               shipped order of the 16-bit whole-tile 128x256 kernels
//                               (ShippedEpilogueOrder, kernels/device/sm90_configs.hpp)
#pragma once

#include <cstdint>

#include <tessera/config.hpp>

namespace tessera::kernels::sm90 {

struct EpilogueAfterTile {};
template <int HeadKTiles>
struct EpilogueUnderNextTile {
  static_assert(HeadKTiles >= 1, "EpilogueUnderNextTile: at least one k-tile of the next tile runs under the epilogue");
  static constexpr int head_k_tiles = HeadKTiles;
};

// A consumer warpgroup's walk under EpilogueUnderNextTile: units u, u + step, ... below
// `units`, through the steps the kernel gives it (or a host test's recorder,
// hopper_sm90_epilogue_order_test):
//   s.take(u)        unit u's tile and k-tiles become the current ones
//   s.head(n)        the current tile's first min(n, k-tiles) k-tiles of wgmmas issued and
//                    left in flight (their stages held); returns what s.tail needs
//   s.tail(f)        its other k-tiles issued; every wgmma retired, every stage released
//   s.pack()         the (complete, retired) accumulators into packed 16-bit pairs, which
//                    now hold the current tile's values; the accumulators are free
//   s.store()        the packed tile staged and TMA-stored
//   s.settle()       nothing in flight before the walk ends (its wait: ptxas, not knowing
//                    that no head was issued on the last path, would place its own)
// The loop's back edge only follows s.tail's wait: no path from a head's wgmmas in flight to
// s.pack's reads of the accumulators (ptxas would serialize every wgmma of the kernel).
// Always inlined: beside the after-tile loop in one entry (the plain instance's problems it
// does not pack) the inliner left it a call, its accumulators in local memory (888-byte stack,
// C7520 serialized wgmmas: ptxas, nvcc 13.0, sm_90a).
template <class Steps>
TESSERA_HOST_DEVICE TESSERA_INLINE void walk_epilogue_under_next_tile(Steps& s, int64_t u, int64_t step, int64_t units, int head) {
  if (u >= units) return;
  s.take(u);
  s.tail(s.head(0));
  for (;;) {
    s.pack();
    u += step;
    const bool more = u < units;
    typename Steps::InFlight f{};
    if (more) {
      s.take(u);
      f = s.head(head);
    }
    s.store();
    if (!more) {
      s.settle();
      return;
    }
    s.tail(f);
  }
}

// (defined in sm90_gemm_tma_warpspecialized.cuh, whose Scheduler defaults to whole tiles)
template <class Mainloop, class Epilogue, class Scheduler, class EpilogueOrder = EpilogueAfterTile>
struct GemmTmaWarpSpecialized;

}  // namespace tessera::kernels::sm90
