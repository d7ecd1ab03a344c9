// A gmem <-> smem tiled copy of an MN x BK operand tile.
#pragma once

#include <type_traits>

#include "tessera/atom/copy.hpp"
#include "tessera/tiled_copy.hpp"
#include "tessera/kernels/thread_coords.hpp"

namespace tessera::kernels {

// gmem -> smem copy of an MN x BK operand tile by Threads threads, V elements per copy,
// threads fastest along the operand's contiguous mode (coalesced):
//   K-major:  threads (MN/.., BK/V) row-major, values (1, V)
//   MN-major: threads (MN/V, ..) column-major, values (V, 1)
//   MN-major, Deep: threads (Threads/BK, BK) column-major, values (V, 1): the threads span
//             all BK columns, so a thread's copies repeat along MN, a static gmem step (one
//             pointer and immediate offsets), where a k repeat steps by a run-time multiple of
//             the leading dimension -- 64-bit address arithmetic per copy and per k-tile
//             (13 more instructions per k-tile in the 128x256x32 NT loop, ncu: 11% more
//             instructions than TN, bench/RESULTS.md).  Only where Threads/BK >= 8: every
//             k row of a warp's copy is then a whole 128-byte line of 16-byte vectors.
template <class Atom, int MN, int BK, int Threads, int V, bool KMajor, bool DeepMN = false>
struct GmemCopy {
  static constexpr bool Deep =
      !KMajor && DeepMN && Threads % BK == 0 && Threads / BK >= 8 && MN % (Threads / BK * V) == 0;
  static constexpr int TR = KMajor ? BK / V : Deep ? Threads / BK : MN / V;  // threads along the contiguous mode
  static constexpr int RP = Threads / TR;              // along the other mode, per pass
  static_assert(TR * RP == Threads && (KMajor ? MN : BK) % RP == 0, "threads x vectors must tile the operand tile");
  using ThrLayout = std::conditional_t<KMajor, Layout<tuple<C<RP>, C<TR>>, tuple<C<TR>, _1>>,
                                       Layout<tuple<C<TR>, C<RP>>, tuple<_1, C<TR>>>>;
  using ValLayout = std::conditional_t<KMajor, Layout<tuple<_1, C<V>>, tuple<_0, _1>>, Layout<tuple<C<V>, _1>, tuple<_1, _0>>>;
  using Tiled = decltype(make_tiled_copy(Atom{}, ThrLayout{}, ValLayout{}));
  using Tile = tuple<C<MN>, C<BK>>;
  static constexpr int Copies = MN * BK / V / Threads;  // vectors per thread
  static constexpr int Extent = MN, Depth = BK, Vector = V, ThreadCount = Threads;
  // Thread t's elements of the tile: value v = element e of vector i is v = e + V*i.
  // (The class checks the count on the copy's TV layout: a thread's partition by a run-time
  // thread index is derived only where a caller asks for its coordinates, and checked there.)
  TESSERA_HOST_DEVICE static constexpr auto coords(int t) {
    auto c = copy_src_coords<Tile>(Tiled{}, t);
    static_assert(decltype(c)::size() == Copies * V, "the tiled copy gives each thread Copies vectors");
    return c;
  }
  static_assert(copy_values_per_thread<Tile, Tiled> == Copies * V, "the tiled copy gives each thread Copies vectors");
};

// Epilogue: staging tile (BM x BN f32) -> D, V elements per copy along D's contiguous mode
// (n for row-major D, m for column-major D), threads fastest along it: coalesced stores.
template <int BM, int BN, int Threads, int V, bool DRow>
using EpilogueCopy = GmemCopy<std::conditional_t<V == 8, Copy_Atom<UniversalCopy<uint128_t>, std::uint16_t>,
                                                 Copy_Atom<UniversalCopy<std::uint16_t>, std::uint16_t>>,
                              BM, BN, Threads, V, DRow>;

}  // namespace tessera::kernels
