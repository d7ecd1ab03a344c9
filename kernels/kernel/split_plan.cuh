// SplitPlan: which CTAs compute whole output tiles and which compute K slices of the tiles
// of the last wave, and plan_split, which chooses it.
#pragma once

#include <cstdint>

#include "tessera/config.hpp"
#include "tessera/int_tuple.hpp"

namespace tessera::kernels {

// Split-K of the last wave.  T tiles on `slots` co-resident CTAs take ceil(T / slots) waves;
// the last one holds tail = T mod slots tiles (all T when T < slots) and leaves the rest of
// the GPU idle.  When `split` >= 2 slices of each tail tile fit in the slots, the tail tiles
// are cut along K into that many slices (a CTA each, at least min_k_tiles k-tiles deep) and
// the tail wave takes 1/split of the time.  CTA pid < whole computes tile pid; the others
// compute slice (pid - whole) % split of tile whole + (pid - whole) / split.
struct SplitPlan {
  std::int64_t whole;  // tiles computed whole: the first `whole` in the rasterized order
  int split;           // K slices of each remaining tile; 1 = no split

  TESSERA_HOST_DEVICE std::int64_t ctas(std::int64_t tiles) const { return whole + (tiles - whole) * split; }
  // The tile and slice CTA `pid` of a grid over `tiles` tiles computes: past the whole tiles,
  // the CTAs are the (slice, tile) coordinates of shape (split, split tiles), slices of one
  // tile adjacent.
  TESSERA_HOST_DEVICE void work_of(std::int64_t pid, std::int64_t tiles, std::int64_t& tile, int& slice) const {
    if (pid < whole) {
      tile = pid;
      slice = 0;
    } else {
      const auto c = idx2crd(pid - whole, make_shape(std::int64_t(split), tiles - whole));
      slice = int(get<0>(c));
      tile = whole + get<1>(c);
    }
  }
  // work_of and k_begin in 32-bit words, where every quantity fits (fits_32bit): the GPU
  // divides 32-bit words inline; a 64-bit division is a call to a software routine.
  TESSERA_HOST_DEVICE bool fits_32bit(std::int64_t tiles, int k_tiles) const {
    return split >= 1 && tiles >= 0 && ctas(tiles) <= INT32_MAX && k_tiles >= 0 &&
           std::int64_t(split) * k_tiles <= INT32_MAX;
  }
  TESSERA_HOST_DEVICE void work_of_32bit(std::uint32_t pid, std::uint32_t& tile, int& slice) const {
    const std::uint32_t w = std::uint32_t(whole);
    if (pid < w) {
      tile = pid;
      slice = 0;
    } else {
      // (split, split tiles) colexicographic, as idx2crd in work_of
      const std::uint32_t r = pid - w, s = std::uint32_t(split);
      slice = int(r % s);
      tile = w + r / s;
    }
  }
  TESSERA_HOST_DEVICE int k_begin_32bit(int slice, int k_tiles) const {
    return int(std::uint32_t(slice) * std::uint32_t(k_tiles) / std::uint32_t(split));
  }
  // k-tiles [begin, end) of slice `slice` out of k_tiles: balanced, in order, covering all.
  TESSERA_HOST_DEVICE int k_begin(int slice, int k_tiles) const { return int(std::int64_t(slice) * k_tiles / split); }
};

TESSERA_HOST_DEVICE inline SplitPlan plan_split(std::int64_t tiles, int k_tiles, int slots, int max_split,
                                                int min_k_tiles) {
  if (tiles <= 0 || slots <= 0) return {tiles, 1};
  const std::int64_t tail = tiles % slots;
  if (tail == 0) return {tiles, 1};
  std::int64_t s = slots / tail;
  if (s > max_split) s = max_split;
  if (s > k_tiles / min_k_tiles) s = k_tiles / min_k_tiles;
  if (s < 2) return {tiles, 1};
  return {tiles - tail, int(s)};
}

}  // namespace tessera::kernels
