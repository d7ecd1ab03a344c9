// When the cooperative SM90 kernel's consumers run a tile's epilogue (plain C++: gemm_kernel_t
// and the kernel list name the kernel through this declaration):
//   EpilogueAfterTile           after the tile's mainloop, the tensor cores idle meanwhile
//                               (every shipped kernel)
//   EpilogueUnderNextTile<H>    the tile's values packed into 16-bit pairs (which frees the
//                               accumulators), the next tile's first H k-tiles of wgmmas
//                               issued, then the packed values staged and TMA-stored while
//                               those run (whole tiles, 16-bit D through TMA, beta == 0, no
//                               bias or activation; the kernel refuses other problems)
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
template <class Steps>
TESSERA_HOST_DEVICE inline void walk_epilogue_under_next_tile(Steps& s, int64_t u, int64_t step, int64_t units, int head) {
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
