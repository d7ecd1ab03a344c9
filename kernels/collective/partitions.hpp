// Which thread holds / moves which element: every index the kernels use comes from here,
// and everything here comes from tessera layouts.  Host and device: the verifier and the
// host tests run exactly this code for every thread index.
//
// Tensor cores.  The tiled MMA is the mma.sync m16n8k16 atom repeated over WM x WN warps
// (warp index = wm + WM*wn), with permutations that give each warp one contiguous
// WarpM x WarpN block (rows a + 16*w + 32*i of the logical tile -> a + WarpM*w + 16*i):
//   C value v = r + 4*(mt + MT*nt)       (r: the atom's 4 accumulators)
//   A value v = h + 2*j + 8*mt           (j: register a0..a3, h: low/high half)
//   B value v = h + 2*j + 4*nt           (j: register b0/b1)
// get_layoutX_TV maps (thread, value) to the column-major index in the X tile of one k16
// step.  A layout is linear in its modes, so X_TV(t, v) = X_TV(t, 0) + X_TV(0, v): the
// thread part is computed once, the value part is a compile-time constant per register.
//
// ldmatrix rows.  An x4 ldmatrix hands lane l's 16-byte row address to row l%8 of 8x8
// matrix j = l/8, and returns matrix j in register j.  Non-transposed, row i of matrix j
// is what threads with groupID i hold in register j: the row starting at the value
// (thread 4i, value of register j, low half).  Transposed (.trans, MN-major smem), row i
// is the i-th k of the matrix: (thread i/2, value of register j, half i%2).  So each lane's
// smem coordinate is the TV map evaluated at that (thread, value) -- no index arithmetic
// of its own.
//
// Copies.  gmem -> smem copies are TV layouts too: (thread, copy) -> index mn + MN*k in an
// MN x BK tile, threads fastest along the operand's contiguous mode (coalesced), V elements
// per copy along it.
#pragma once

#include <cstdint>
#include <type_traits>

#include "tessera/tiled_mma.hpp"

namespace tessera::kernels {

// (thread, copy) -> mn + MN*k for an MN x BK tile moved by Threads threads, V per copy.
template <int MN, int BK, int Threads, int V, bool KMajor>
struct CopyPartition {
  static constexpr int Copies = MN * BK / V / Threads;
  static_assert(Copies * V * Threads == MN * BK, "threads x copies x vector must tile the operand tile");
  static constexpr int TR = KMajor ? BK / V : MN / V;  // threads along the contiguous mode
  static constexpr int RP = Threads / TR;              // rows (of the other mode) per pass
  static_assert(TR * RP == Threads, "threads must tile the contiguous mode");
  using Layout_TV = std::conditional_t<
      KMajor, Layout<tuple<tuple<C<TR>, C<RP>>, C<Copies>>, tuple<tuple<C<V * MN>, _1>, C<RP>>>,
      Layout<tuple<tuple<C<TR>, C<RP>>, C<Copies>>, tuple<tuple<C<V>, C<MN>>, C<RP * MN>>>>;
  // The copy's first element: (mn, k) in the tile.
  TESSERA_HOST_DEVICE static constexpr int thread_offset(int t) { return int(Layout_TV{}(t, _0{})); }
  template <class I>
  TESSERA_HOST_DEVICE static constexpr void coord(int thread_off, I i, int& mn, int& k) {
    const int idx = thread_off + int(Layout_TV{}(_0{}, i));
    mn = idx % MN;
    k = idx / MN;
  }
};

template <int BM_, int BN_, int WM, int WN, bool IsBF16>
struct TensorOpPartition {
  static constexpr int BM = BM_, BN = BN_;
  static constexpr int WarpM = BM / WM, WarpN = BN / WN, MT = WarpM / 16, NT = WarpN / 8;
  using Atom = std::conditional_t<IsBF16, SM80_16x8x16_F32BF16BF16F32_TN, SM80_16x8x16_F32F16F16F32_TN>;
  using PermM = Layout<tuple<_16, C<WM>, C<MT>>, tuple<_1, C<WarpM>, _16>>;
  using PermN = Layout<tuple<_8, C<WN>, C<NT>>, tuple<_1, C<WarpN>, _8>>;
  using TiledMma = decltype(make_tiled_mma(Atom{}, Layout<tuple<C<WM>, C<WN>, _1>, tuple<_1, C<WM>, _0>>{},
                                           make_tuple(PermM{}, PermN{}, Underscore{})));
  static_assert(TiledMma::template tile_size_mnk<0>() == BM && TiledMma::template tile_size_mnk<1>() == BN,
                "the tiled MMA must cover the CTA tile");
  using TV_A = decltype(TiledMma::get_layoutA_TV());  // (thread, value) -> m + BM*k
  using TV_B = decltype(TiledMma::get_layoutB_TV());  // (thread, value) -> n + BN*k
  using TV_C = decltype(TiledMma::get_layoutC_TV());  // (thread, value) -> m + BM*n

  // Accumulator r of atom (mt, nt) of thread t: (m, n) in the CTA tile.
  TESSERA_HOST_DEVICE static int c_thread(int t) { return int(TV_C{}(t, _0{})); }
  TESSERA_HOST_DEVICE static void c_coord(int c_thr, int mt, int nt, int r, int& m, int& n) {
    const int idx = c_thr + int(TV_C{}(_0{}, r + 4 * (mt + MT * nt)));
    m = idx % BM;
    n = idx / BM;
  }

  // ldmatrix x4 row address of lane t%32 for A atom row mt, k16 step 0: (m, k).
  TESSERA_HOST_DEVICE static void a_ldsm_row(int t, bool trans, int mt, int& m, int& k) {
    const int lane = t % 32, warp = t / 32, j = lane / 8, i = lane % 8;
    const int src = 32 * warp + (trans ? i / 2 : 4 * i);
    const int v = 2 * j + (trans ? i % 2 : 0) + 8 * mt;
    const int idx = int(TV_A{}(src, _0{})) + int(TV_A{}(_0{}, v));
    m = idx % BM;
    k = idx / BM;
  }
  // ldmatrix x4 row address of lane t%32 for B atoms (2np, 2np+1), k16 step 0: (n, k).
  // Registers 0,1 = b0,b1 of atom 2np; registers 2,3 = b0,b1 of atom 2np+1.
  TESSERA_HOST_DEVICE static void b_ldsm_row(int t, bool trans, int np, int& n, int& k) {
    const int lane = t % 32, warp = t / 32, j = lane / 8, i = lane % 8;
    const int src = 32 * warp + (trans ? i / 2 : 4 * i);
    const int v = 2 * (j % 2) + (trans ? i % 2 : 0) + 4 * (2 * np + j / 2);
    const int idx = int(TV_B{}(src, _0{})) + int(TV_B{}(_0{}, v));
    n = idx % BN;
    k = idx / BN;
  }
};

// SIMT: UniversalFMA over a 16 x 16 thread grid, each thread an 8 x 8 outer product of rows
// {4tm..4tm+3, 64+4tm..} (and the same columns) -- the permutation (16,4,2):(4,1,64) -- so a
// thread's 4 consecutive rows are one 16-byte smem read.  WarpGrid8x4 arranges a warp as
// 8 (m) x 4 (n) threads and the 8 warps as 2 x 4.
template <bool WarpGrid8x4>
struct SimtPartition {
  static constexpr int BM = 128, BN = 128;
  using Perm = Layout<tuple<_16, _4, _2>, tuple<_4, _1, _64>>;
  using ThreadGrid = std::conditional_t<WarpGrid8x4,
                                        Layout<tuple<tuple<_8, _2>, tuple<_4, _4>, _1>, tuple<tuple<_1, _32>, tuple<_8, _64>, _0>>,
                                        Layout<tuple<_16, _16, _1>, tuple<_1, _16, _0>>>;
  using TiledMma = decltype(make_tiled_mma(UniversalFMA<float>{}, ThreadGrid{}, make_tuple(Perm{}, Perm{}, Underscore{})));
  using TV_A = decltype(TiledMma::get_layoutA_TV());  // (thread, i) -> m   (one k)
  using TV_B = decltype(TiledMma::get_layoutB_TV());  // (thread, j) -> n
  using TV_C = decltype(TiledMma::get_layoutC_TV());  // (thread, i + 8j) -> m + 128 n
  // Row of the thread's i-th A value / column of its j-th B value.
  TESSERA_HOST_DEVICE static int a_row(int t, int i) { return int(TV_A{}(t, _0{})) + int(TV_A{}(_0{}, i)); }
  TESSERA_HOST_DEVICE static int b_col(int t, int j) { return int(TV_B{}(t, _0{})) + int(TV_B{}(_0{}, j)); }
  TESSERA_HOST_DEVICE static void c_coord(int t, int i, int j, int& m, int& n) {
    const int idx = int(TV_C{}(t, _0{})) + int(TV_C{}(_0{}, i + 8 * j));
    m = idx % BM;
    n = idx / BM;
  }
};

}  // namespace tessera::kernels
