// The SIMT (FFMA) GEMM's partition: tiled MMA of UniversalFMA, tiled copies, the smem
// stage layout, and each thread's coordinates (for the host partition checks).
#pragma once

#include <type_traits>

#include "tessera/atom/copy.hpp"
#include "tessera/atom/copy_sm80_zfill.hpp"
#include "tessera/tiled_copy.hpp"
#include "tessera/tiled_mma.hpp"
#include "tessera/kernels/gmem_copy.hpp"
#include "tessera/kernels/thread_coords.hpp"

namespace tessera::kernels {

// SIMT: UniversalFMA over a 16 x 16 thread grid, each thread an 8 x 8 outer product of rows
// {4tm..4tm+3, 64+4tm..} (and the same columns) -- the permutation (16,4,2):(4,1,64) -- so a
// thread's 4 consecutive rows are one 16-byte smem read.  WarpGrid8x4 arranges a warp as
// 8 (m) x 4 (n) threads and the 8 warps as 2 x 4.
// smem -> registers: make_tiled_copy_A/B with a 128-bit UniversalCopy atom: its destination
// TV is the MMA's, each atom moves 4 consecutive values (LDS.128).
template <bool WarpGrid8x4, int BK_ = 8>
struct SimtPartition {
  static constexpr int BM = 128, BN = 128, BK = BK_, Threads = 256;
  static_assert(BM == BN, "A and B tiles are one size: their smem rows share the pitch");
  using Perm = Layout<tuple<_16, _4, _2>, tuple<_4, _1, _64>>;
  using ThreadGrid = std::conditional_t<WarpGrid8x4,
                                        Layout<tuple<tuple<_8, _2>, tuple<_4, _4>, _1>, tuple<tuple<_1, _32>, tuple<_8, _64>, _0>>,
                                        Layout<tuple<_16, _16, _1>, tuple<_1, _16, _0>>>;
  using TiledMma = decltype(make_tiled_mma(UniversalFMA<float>{}, ThreadGrid{}, make_tuple(Perm{}, Perm{}, Underscore{})));
  using TileA = tuple<C<BM>, _1>;  // one k
  using TileB = tuple<C<BN>, _1>;
  using TileC = tuple<C<BM>, C<BN>>;
  using SmemCopyAtom = Copy_Atom<UniversalCopy<uint128_t>, float>;  // LDS.128
  using S2R_A = decltype(make_tiled_copy_A(SmemCopyAtom{}, TiledMma{}));
  using S2R_B = decltype(make_tiled_copy_B(SmemCopyAtom{}, TiledMma{}));
  // gmem -> smem: cp.async of 4 bytes; G2S_Zfill is the same tiled copy with the zero-filling
  // atom, for tiles across the matrix's edge (copy_if with make_copy_predicate).
  template <int MN, bool KMajor>
  using G2S = GmemCopy<Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<4>, float>, MN, BK, Threads, 1, KMajor>;
  template <int MN, bool KMajor>
  using G2S_Zfill = typename GmemCopy<Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS_ZFILL<4>, float>, MN, BK, Threads, 1, KMajor>::Tiled;
  // smem: both operands MN-major, k-rows padded to Pitch floats (a K-major operand's
  // transposing 4-byte writes hit 32 distinct banks: (4k + mn) mod 32), a stage holds A's
  // BK rows then B's: (mn, k, stage) -> float offset, B's from BK * Pitch on.
  static constexpr int Pitch = BM + 4;
  template <int Stages>
  using SmemLayoutA = Layout<tuple<C<BM>, C<BK>, C<Stages>>, tuple<_1, C<Pitch>, C<2 * BK * Pitch>>>;
  template <int Stages>
  using SmemLayoutB = Layout<tuple<C<BN>, C<BK>, C<Stages>>, tuple<_1, C<Pitch>, C<2 * BK * Pitch>>>;

  // Each function asserts the size of what it returns; the class asserts the same counts on
  // the copies' TV layouts (the MMA's A and B maps over TileA and TileB), so that a thread's
  // partition by a run-time thread index is derived only where a caller asks for it.
  TESSERA_HOST_DEVICE static constexpr auto a_coords(int t) {
    auto c = mma_a_coords<TileA>(TiledMma{}, t);
    static_assert(decltype(c)::size() == 8, "8 x 8 per thread");
    return c;
  }
  TESSERA_HOST_DEVICE static constexpr auto b_coords(int t) { return mma_b_coords<TileB>(TiledMma{}, t); }
  TESSERA_HOST_DEVICE static constexpr auto c_coords(int t) {
    auto c = mma_c_coords<TileC>(TiledMma{}, t);
    static_assert(decltype(c)::size() == 64, "8 x 8 per thread");
    return c;
  }
  TESSERA_HOST_DEVICE static constexpr auto lds_a_src(int t) {
    auto c = copy_src_coords<TileA>(S2R_A{}, t);
    static_assert(decltype(c)::size() == 8, "two 16-byte reads of A per k");
    return c;
  }
  TESSERA_HOST_DEVICE static constexpr auto lds_b_src(int t) { return copy_src_coords<TileB>(S2R_B{}, t); }
  TESSERA_HOST_DEVICE static constexpr auto lds_a_dst(int t) { return copy_dst_coords<TileA>(S2R_A{}, t); }
  TESSERA_HOST_DEVICE static constexpr auto lds_b_dst(int t) { return copy_dst_coords<TileB>(S2R_B{}, t); }
  static_assert(tv_values_per_thread<typename S2R_A::TiledLayout_TV> == 8 &&
                    tv_values_per_thread<typename S2R_B::TiledLayout_TV> == 8,
                "8 x 8 per thread");
  static_assert(copy_values_per_thread<TileA, S2R_A> == 8, "two 16-byte reads of A per k");
};

// The host API's SIMT configuration (kernels/device/gemm.cu): 128x128x8, 3 stages, flat
// 16x16 thread grid.
struct DefaultSimtTile {
  static constexpr int BK = 8, Stages = 3;
  static constexpr bool WarpGrid8x4 = false;
};
using DefaultSimtPartition = SimtPartition<DefaultSimtTile::WarpGrid8x4, DefaultSimtTile::BK>;

}  // namespace tessera::kernels
