// Which thread holds / moves which element: every index the kernels use comes from here,
// and everything here is a tessera object -- a TiledMMA, TiledCopies, a swizzled smem
// layout -- queried through its partition of an identity tensor of the CTA tile.
// Host and device: the host tests (tests/kernels/partition_trace_test.cpp) and the trace
// writer run exactly this code for every thread index of every configuration.
//
// The pattern, for any tiled object X (TiledMMA operand or TiledCopy side) and tile T:
//   id   = make_identity_tensor(T)                    element (r, c) "is" the coordinate (r, c)
//   part = X.get_slice(t).partition_*_layout(id)      thread t's values, as (layout, offset)
//   crd  = make_tensor(id.data() + offset, layout)(v) the coordinate of t's value v
// The same coordinate then addresses gmem (the operand's local_tile), smem (the swizzled
// smem layout) and the residue predicate (compared with the problem's extents), so no
// address is computed by hand.  Value numbers v are the 1-D (column-major) index into the
// partition's value modes, i.e. the value numbers of the TV layouts the trace declares.
#pragma once

#include <cstdint>
#include <type_traits>

#include "tessera/atom/copy.hpp"
#include "tessera/swizzle.hpp"
#include "tessera/tensor.hpp"
#include "tessera/tiled_copy.hpp"
#include "tessera/tiled_mma.hpp"

namespace tessera::kernels {

// Tile coordinate (row, col) of a thread's value: both modes of a rank-2 tile.
struct TileCoord {
  int row, col;
};

template <class Crd>
TESSERA_HOST_DEVICE constexpr TileCoord to_tile_coord(Crd const& c) {
  return {int(get<0>(c)), int(get<1>(c))};
}

// Thread t's values of a partitioned identity tensor: coord(v) = tile coordinate of value v.
template <class ValLayout, class Tile>
struct ThreadCoords {
  Tensor<IdentityIterator<Tile, int>, ValLayout> id;  // int offsets: tiles are small
  template <class V>
  TESSERA_HOST_DEVICE constexpr TileCoord operator()(V const& v) const { return to_tile_coord(id[v]); }
  static constexpr int size() { return int(decltype(tessera::size(ValLayout{}))::value); }
};

template <class Tile, class PartitionResult>
TESSERA_HOST_DEVICE constexpr auto thread_coords(PartitionResult const& p) {
  using L = std::remove_cvref_t<decltype(get<0>(p))>;
  IdentityIterator<Tile, int> it{Tile{}, int(get<1>(p))};
  return ThreadCoords<L, Tile>{make_tensor(it, get<0>(p))};
}

// The coordinates of a thread's values as its value 0's plus a delta that is the same for
// every thread: a TV layout maps (t, v) to a thread part plus a value part, and in the
// kernels' partitions the parts never carry into each other's mode (tests/kernels/
// partition_trace_test.cpp checks every thread).  Value v's coordinate then costs adds of
// constants, where decoding it from the identity tensor costs a 64-bit division by the tile's
// extent per value (~10 instructions; 128 accumulators made the tensor-core epilogue 2563
// instructions per warp, ncu 1000^3, bench/RESULTS.md).
template <int N>
struct ValueDeltas {
  TileCoord d[N];
};
template <class Coords>
TESSERA_HOST_DEVICE constexpr auto value_deltas(Coords const& c) {
  ValueDeltas<Coords::size()> r{};
  const TileCoord c0 = c(0);
  for (int v = 0; v < Coords::size(); ++v) {
    const TileCoord x = c(v);
    r.d[v] = {x.row - c0.row, x.col - c0.col};
  }
  return r;
}

// Source / destination coordinates of thread t in a TiledCopy over its whole tile `Tile`
// (the tile may be larger than the copy's own tile: the rest modes then count repeats).
template <class Tile, class TiledCopy_>
TESSERA_HOST_DEVICE constexpr auto copy_src_coords(TiledCopy_ const& tc, int t) {
  return thread_coords<Tile>(tc.get_slice(t).partition_S_layout(make_layout(Tile{})));
}
template <class Tile, class TiledCopy_>
TESSERA_HOST_DEVICE constexpr auto copy_dst_coords(TiledCopy_ const& tc, int t) {
  return thread_coords<Tile>(tc.get_slice(t).partition_D_layout(make_layout(Tile{})));
}
template <class Tile, class TiledMma_>
TESSERA_HOST_DEVICE constexpr auto mma_a_coords(TiledMma_ const& mma, int t) {
  return thread_coords<Tile>(mma.get_slice(t).partition_A_layout(make_layout(Tile{})));
}
template <class Tile, class TiledMma_>
TESSERA_HOST_DEVICE constexpr auto mma_b_coords(TiledMma_ const& mma, int t) {
  return thread_coords<Tile>(mma.get_slice(t).partition_B_layout(make_layout(Tile{})));
}
template <class Tile, class TiledMma_>
TESSERA_HOST_DEVICE constexpr auto mma_c_coords(TiledMma_ const& mma, int t) {
  return thread_coords<Tile>(mma.get_slice(t).partition_C_layout(make_layout(Tile{})));
}

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
  TESSERA_HOST_DEVICE static constexpr auto coords(int t) { return copy_src_coords<Tile>(Tiled{}, t); }
  static_assert(decltype(coords(0))::size() == Copies * V, "the tiled copy gives each thread Copies vectors");
};

// A GmemCopy's copies are evenly spaced in the tile: copy i is copy 0 moved by i times this
// coordinate, the same for every thread (the tiled copy repeats its thread tile along one
// mode; tests/kernels/tile_loader_test.cpp checks every thread).
template <class Copy>
TESSERA_HOST_DEVICE constexpr TileCoord copy_step_of() {
  if constexpr (Copy::Copies == 1) return {0, 0};
  else {
    const auto c = Copy::coords(0);
    const TileCoord c1 = c(int(Copy::Vector)), c0 = c(0);
    return {c1.row - c0.row, c1.col - c0.col};
  }
}

// Shared-memory operand tile (mn, k) -> element offset of one stage, 16-bit elements,
// Swizzle<B,3,S> o (row-major tile): the swizzle XORs row bits into the 16-byte chunk bits,
// so every 16-byte vector stays contiguous (cp.async and ldmatrix rows stay legal).
//
// Why these swizzles (8 accesses of 16 bytes per phase; conflict-free iff the 8 rows of a
// phase land in 8 different 16-byte bank groups of a 128-byte line; figures from the bank
// model, tests/kernels/partition_trace_test.cpp "bank model"):
//  * K-major, BK = 32: a row (one m) is 64 bytes, two rows per 128-byte line.  ldmatrix
//    reads 8 consecutive rows at one k-chunk c: unswizzled they hit groups {c, 4+c} four
//    times each -- 4 wavefronts per 8x8 matrix instead of 1, 16 per ldmatrix.x4.
//    Swizzle<2,3,3> (chunk ^= (row >> 1) & 3): 1 wavefront per matrix, 4 per x4 (ideal).
//  * K-major, BK = 64: a row is a whole line: 8-way unswizzled; Swizzle<3,3,3>: ideal.
//  * MN-major: a row is one k, MN elements (>= 128 bytes).  ldmatrix.trans reads 8
//    consecutive k at one mn-chunk: unswizzled all 8 sit in one group (8-way, 32 per x4);
//    Swizzle<3,3,log2(MN)-3> (chunk ^= k & 7): ideal.
//  cp.async writes (2 rows x 4 chunks, or 8 chunks of one row, per phase) stay ideal under
//  the same swizzles.
constexpr int log2_exact(int v) { return v <= 1 ? 0 : 1 + log2_exact(v / 2); }
// The bits set in d, 2d, ..., (n-1)d.
constexpr std::int64_t repeat_bits(std::int64_t d, int n) {
  std::int64_t bits = 0;
  for (int i = 1; i < n; ++i) bits |= i * d;
  return bits;
}

template <int MN, int BK, bool KMajor, bool Swizzled = true>
struct OperandSmem {
  static_assert(!KMajor || BK == 32 || BK == 64, "K-major swizzles are derived for 64-byte (BK = 32) and 128-byte (BK = 64) rows");
  static_assert(KMajor || MN % 64 == 0, "MN-major tiles need rows of at least 128 bytes");
  using Plain = std::conditional_t<KMajor, Layout<tuple<C<MN>, C<BK>>, tuple<C<BK>, _1>>,
                                   Layout<tuple<C<MN>, C<BK>>, tuple<_1, C<MN>>>>;
  using Sw = std::conditional_t<!Swizzled, Swizzle<0, 4, 0>,
                                std::conditional_t<KMajor, std::conditional_t<BK == 32, Swizzle<2, 3, 3>, Swizzle<3, 3, 3>>,
                                                   Swizzle<3, 3, log2_exact(MN) - 3>>>;
  using Layout_ = decltype(composition(Sw{}, Plain{}));
  static constexpr int size = MN * BK, Depth = BK;
  TESSERA_HOST_DEVICE static constexpr std::int64_t offset(TileCoord c) {
    return std::int64_t(Layout_{}(make_coord(c.row, c.col)));
  }
  // offset(r + DR, c + DC) - offset(r, c) when it is the same for every (r, c): the plain
  // layout is linear, and a plain step whose lowest set bit lies above every bit the
  // swizzle reads or writes passes through the swizzle unchanged.  Lets the kernels step
  // from one copy (or k16 step) to the next by a constant instead of re-evaluating the
  // swizzle; tests/kernels/tile_loader_test.cpp checks it against offset() everywhere.
  template <int DR, int DC>
  static constexpr std::int64_t plain_step = DR >= 0 && DC >= 0 ? std::int64_t(decltype(Plain{}(make_coord(C<(DR > 0 ? DR : 0)>{}, C<(DC > 0 ? DC : 0)>{})))::value) : 0;
  template <int DR, int DC>
  static constexpr bool uniform_step =
      DR >= 0 && DC >= 0 && (plain_step<DR, DC> == 0 || (plain_step<DR, DC> & -plain_step<DR, DC>) > (Sw::yyy_msk | Sw::zzz_msk));
  // The weaker claim for steps that are not uniform: a plain step d that misses the bits the
  // swizzle reads (yyy) moves any coordinate whose plain offset x has d's bits clear by an
  // XOR, sw(x + d) = sw(x ^ d) = sw(x) ^ d.  (The K-major k16 step: the ldmatrix sources of
  // step 0 sit in columns 0..15, so for the later steps offset = step-0 offset ^ 16 kk.)
  template <int DR, int DC>
  static constexpr bool xor_step = DR >= 0 && DC >= 0 && (plain_step<DR, DC> & Sw::yyy_msk) == 0;
  // Every coordinate before the step (rows < dr where dr > 0, columns < dc where dc > 0) has a
  // plain offset with `bits` clear.
  static constexpr bool first_step_clear(int dr, int dc, std::int64_t bits) {
    for (int r = 0; r < (dr > 0 ? dr : MN); ++r)
      for (int c = 0; c < (dc > 0 ? dc : BK); ++c)
        if (((r * plain_step<1, 0> + c * plain_step<0, 1>) & bits) != 0) return false;
    return true;
  }
  // Repeats of a step: plain offsets x + i d, i < N, d a power of two, from an x that has the
  // bits of every i d clear pass through the swizzle unchanged when no i d has a bit the
  // swizzle reads or writes: x + i d = x | i d, and sw(x | i d) = sw(x) | i d.  The claim is
  // for x before the first step (a thread's copy 0 lies there), which first_step_clear checks
  // coordinate by coordinate.  (Deep MN-major copies: d = 64 elements, the 128-byte line bits
  // above the swizzled chunk and below the k row.)
  template <int DR, int DC, int N>
  static constexpr bool repeat_step = DR >= 0 && DC >= 0 && plain_step<DR, DC> > 0 &&
                                      (plain_step<DR, DC> & (plain_step<DR, DC> - 1)) == 0 &&
                                      (repeat_bits(plain_step<DR, DC>, N) & (Sw::yyy_msk | Sw::zzz_msk)) == 0 &&
                                      first_step_clear(DR, DC, repeat_bits(plain_step<DR, DC>, N));
};

// Tensor cores.  The tiled MMA is the mma.sync m16n8k16 atom repeated over WM x WN warps
// (warp index = wm + WM*wn), with permutations that give each warp one contiguous
// WarpM x WarpN block (rows a + 16*w + 32*i of the logical tile -> a + WarpM*w + 16*i).
// Fragment value numbers (the TiledMMA's partitions):  A v = h + 2j + 8 mt (register j of
// M-atom mt, half h), B v = h + 2j + 4 nt, C v = r + 4 (mt + MT nt).
// smem -> registers: make_tiled_copy_A/B with ldmatrix x4 (.trans for MN-major smem), whose
// destination TV layout IS the MMA's: issue i fills values 8i..8i+7, i.e. A atom mt = i,
// B atoms nt = 2i, 2i+1.
template <int BM_, int BN_, int BK_, int WM, int WN, int Threads_, bool IsBF16, bool AKMajor, bool BKMajor, int V = 8,
          bool Swizzled = true>
struct TensorOpPartition {
  static constexpr int BM = BM_, BN = BN_, BK = BK_, Threads = Threads_;
  static constexpr int WarpM = BM / WM, WarpN = BN / WN, MT = WarpM / 16, NT = WarpN / 8;
  static_assert(Threads == 32 * WM * WN, "one warp per MMA atom position");
  static_assert(NT % 2 == 0, "ldmatrix x4 loads B for two N-atoms");
  using Elem = std::conditional_t<IsBF16, bfloat16_t, half_t>;
  using Op = std::conditional_t<IsBF16, SM80_16x8x16_F32BF16BF16F32_TN, SM80_16x8x16_F32F16F16F32_TN>;
  using PermM = Layout<tuple<_16, C<WM>, C<MT>>, tuple<_1, C<WarpM>, _16>>;
  using PermN = Layout<tuple<_8, C<WN>, C<NT>>, tuple<_1, C<WarpN>, _8>>;
  using TiledMma = decltype(make_tiled_mma(Op{}, Layout<tuple<C<WM>, C<WN>, _1>, tuple<_1, C<WM>, _0>>{},
                                           make_tuple(PermM{}, PermN{}, Underscore{})));
  static_assert(TiledMma::template tile_size_mnk<0>() == BM && TiledMma::template tile_size_mnk<1>() == BN,
                "the tiled MMA must cover the CTA tile");
  using TileA = tuple<C<BM>, _16>;  // one k16 step of the MMA
  using TileB = tuple<C<BN>, _16>;
  using TileC = tuple<C<BM>, C<BN>>;

  using LdsmA = std::conditional_t<AKMajor, SM75_U32x4_LDSM_N, SM75_U16x8_LDSM_T>;
  using LdsmB = std::conditional_t<BKMajor, SM75_U32x4_LDSM_N, SM75_U16x8_LDSM_T>;
  using S2R_A = decltype(make_tiled_copy_A(Copy_Atom<LdsmA, Elem>{}, TiledMma{}));
  using S2R_B = decltype(make_tiled_copy_B(Copy_Atom<LdsmB, Elem>{}, TiledMma{}));
  static constexpr int LdsmPerStepA = MT, LdsmPerStepB = NT / 2;

  // gmem -> smem: 16-byte cp.async (V = 8), or element copies for unaligned operands.
  // MN-major 16-byte copies run Deep (GmemCopy): static copy steps.  The element copies keep
  // threads along MN: 8 threads of 2 bytes per k would read 16 bytes of a line.
  template <int MN, bool KMajor>
  using G2S = GmemCopy<std::conditional_t<V == 8, Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<16>, Elem>,
                                          Copy_Atom<UniversalCopy<std::uint16_t>, Elem>>,
                       MN, BK, Threads, V, KMajor, V == 8>;
  using G2S_A = G2S<BM, AKMajor>;
  using G2S_B = G2S<BN, BKMajor>;
  using SmemA = OperandSmem<BM, BK, AKMajor, Swizzled>;
  using SmemB = OperandSmem<BN, BK, BKMajor, Swizzled>;

  TESSERA_HOST_DEVICE static constexpr auto a_coords(int t) { return mma_a_coords<TileA>(TiledMma{}, t); }
  TESSERA_HOST_DEVICE static constexpr auto b_coords(int t) { return mma_b_coords<TileB>(TiledMma{}, t); }
  TESSERA_HOST_DEVICE static constexpr auto c_coords(int t) { return mma_c_coords<TileC>(TiledMma{}, t); }
  TESSERA_HOST_DEVICE static constexpr auto c_deltas() { return value_deltas(c_coords(0)); }
  // ldmatrix source rows: issue i's row address is the source value 8i.
  TESSERA_HOST_DEVICE static constexpr auto ldsm_a_src(int t) { return copy_src_coords<TileA>(S2R_A{}, t); }
  TESSERA_HOST_DEVICE static constexpr auto ldsm_b_src(int t) { return copy_src_coords<TileB>(S2R_B{}, t); }
  TESSERA_HOST_DEVICE static constexpr auto ldsm_a_dst(int t) { return copy_dst_coords<TileA>(S2R_A{}, t); }
  TESSERA_HOST_DEVICE static constexpr auto ldsm_b_dst(int t) { return copy_dst_coords<TileB>(S2R_B{}, t); }
  static_assert(decltype(ldsm_a_src(0))::size() == 8 * LdsmPerStepA, "one ldmatrix x4 per A atom and k16 step");
  static_assert(decltype(ldsm_b_src(0))::size() == 8 * LdsmPerStepB, "one ldmatrix x4 per two B atoms and k16 step");
  static_assert(decltype(a_coords(0))::size() == 8 * MT && decltype(b_coords(0))::size() == 4 * NT &&
                    decltype(c_coords(0))::size() == 4 * MT * NT,
                "fragment sizes of the m16n8k16 atom");
};

// The host API's tensor-core configuration, the one kernels/device/gemm.cu launches for
// aligned F16/BF16 operands (bench/RESULTS.md compares the others): 128x256x32 CTA tile,
// 2x4 warps of 64x64, 4 stages.  Code that checks or draws "the kernel's" partition names
// DefaultTensorOpPartition<...>, so it cannot drift from what runs.
struct DefaultTensorOpTile {
  static constexpr int BM = 128, BN = 256, BK = 32, WM = 2, WN = 4, Stages = 4;
};
template <bool IsBF16, bool AKMajor = true, bool BKMajor = true>
using DefaultTensorOpPartition =
    TensorOpPartition<DefaultTensorOpTile::BM, DefaultTensorOpTile::BN, DefaultTensorOpTile::BK, DefaultTensorOpTile::WM,
                      DefaultTensorOpTile::WN, 32 * DefaultTensorOpTile::WM * DefaultTensorOpTile::WN, IsBF16, AKMajor,
                      BKMajor>;

// Epilogue: staging tile (BM x BN f32) -> D, V elements per copy along D's contiguous mode
// (n for row-major D, m for column-major D), threads fastest along it: coalesced stores.
template <int BM, int BN, int Threads, int V, bool DRow>
using EpilogueCopy = GmemCopy<std::conditional_t<V == 8, Copy_Atom<UniversalCopy<uint128_t>, std::uint16_t>,
                                                 Copy_Atom<UniversalCopy<std::uint16_t>, std::uint16_t>>,
                              BM, BN, Threads, V, DRow>;

// SIMT: UniversalFMA over a 16 x 16 thread grid, each thread an 8 x 8 outer product of rows
// {4tm..4tm+3, 64+4tm..} (and the same columns) -- the permutation (16,4,2):(4,1,64) -- so a
// thread's 4 consecutive rows are one 16-byte smem read.  WarpGrid8x4 arranges a warp as
// 8 (m) x 4 (n) threads and the 8 warps as 2 x 4.
// smem -> registers: make_tiled_copy_A/B with a 128-bit UniversalCopy atom: its destination
// TV is the MMA's, each atom moves 4 consecutive values (LDS.128).
template <bool WarpGrid8x4, int BK_ = 8>
struct SimtPartition {
  static constexpr int BM = 128, BN = 128, BK = BK_, Threads = 256;
  using Perm = Layout<tuple<_16, _4, _2>, tuple<_4, _1, _64>>;
  using ThreadGrid = std::conditional_t<WarpGrid8x4,
                                        Layout<tuple<tuple<_8, _2>, tuple<_4, _4>, _1>, tuple<tuple<_1, _32>, tuple<_8, _64>, _0>>,
                                        Layout<tuple<_16, _16, _1>, tuple<_1, _16, _0>>>;
  using TiledMma = decltype(make_tiled_mma(UniversalFMA<float>{}, ThreadGrid{}, make_tuple(Perm{}, Perm{}, Underscore{})));
  using TileA = tuple<C<BM>, _1>;  // one k
  using TileB = tuple<C<BN>, _1>;
  using TileC = tuple<C<BM>, C<BN>>;
  using S2R_A = decltype(make_tiled_copy_A(Copy_Atom<UniversalCopy<uint128_t>, float>{}, TiledMma{}));
  using S2R_B = decltype(make_tiled_copy_B(Copy_Atom<UniversalCopy<uint128_t>, float>{}, TiledMma{}));
  template <int MN, bool KMajor>
  using G2S = GmemCopy<Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<4>, float>, MN, BK, Threads, 1, KMajor>;

  TESSERA_HOST_DEVICE static constexpr auto a_coords(int t) { return mma_a_coords<TileA>(TiledMma{}, t); }
  TESSERA_HOST_DEVICE static constexpr auto b_coords(int t) { return mma_b_coords<TileB>(TiledMma{}, t); }
  TESSERA_HOST_DEVICE static constexpr auto c_coords(int t) { return mma_c_coords<TileC>(TiledMma{}, t); }
  TESSERA_HOST_DEVICE static constexpr auto c_deltas() { return value_deltas(c_coords(0)); }
  TESSERA_HOST_DEVICE static constexpr auto lds_a_src(int t) { return copy_src_coords<TileA>(S2R_A{}, t); }
  TESSERA_HOST_DEVICE static constexpr auto lds_b_src(int t) { return copy_src_coords<TileB>(S2R_B{}, t); }
  TESSERA_HOST_DEVICE static constexpr auto lds_a_dst(int t) { return copy_dst_coords<TileA>(S2R_A{}, t); }
  TESSERA_HOST_DEVICE static constexpr auto lds_b_dst(int t) { return copy_dst_coords<TileB>(S2R_B{}, t); }
  static_assert(decltype(a_coords(0))::size() == 8 && decltype(c_coords(0))::size() == 64, "8 x 8 per thread");
  static_assert(decltype(lds_a_src(0))::size() == 8, "two 16-byte reads of A per k");
};

// The host API's SIMT configuration (kernels/device/gemm.cu): 128x128x8, 3 stages, flat
// 16x16 thread grid.
struct DefaultSimtTile {
  static constexpr int BK = 8, Stages = 3;
  static constexpr bool WarpGrid8x4 = false;
};
using DefaultSimtPartition = SimtPartition<DefaultSimtTile::WarpGrid8x4, DefaultSimtTile::BK>;

}  // namespace tessera::kernels
