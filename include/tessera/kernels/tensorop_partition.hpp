// The tensor-core GEMM's partition: tiled MMA, gmem -> smem and smem -> register tiled copies,
// smem layouts, and each thread's coordinates in them.
#pragma once

#include <type_traits>

#include "tessera/atom/copy.hpp"
#include "tessera/tiled_copy.hpp"
#include "tessera/tiled_mma.hpp"
#include "tessera/kernels/gmem_copy.hpp"
#include "tessera/kernels/operand_smem.hpp"
#include "tessera/kernels/thread_coords.hpp"

namespace tessera::kernels {

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
  // The smem layout atoms (Swizzle o (MN, BK) tile) that the collective tiles Stages deep:
  // tile_to_shape_coalesced(atom, (MN, BK, Stages)) is smem_layout below, type for type (the
  // host test checks it; CuTe 3.7's tile_to_shape: one flat mode per target mode).  The atom spans the whole (MN, BK) tile: tiling a smaller one (8 rows) gives
  // the same offsets but a hierarchical shape, another type, other code.
  using SmemLayoutAtomA = typename SmemA::Layout_;
  using SmemLayoutAtomB = typename SmemB::Layout_;
  // The smem operand tiles of the mainloop, Stages deep: (MN, BK, stage) -> element offset,
  // the swizzle over the whole offset (a stage is a multiple of the swizzle's period).
  // Swizzled = false: Swizzle<0,..> (composition returns the plain layout).
  template <int MN, bool KMajor, int Stages>
  TESSERA_HOST_DEVICE static constexpr auto smem_layout() {
    using Sw = typename OperandSmem<MN, BK, KMajor, Swizzled>::Sw;
    using Plain = typename OperandSmem<MN, BK, KMajor, Swizzled>::Plain;
    return composition(Sw{}, tile_to_shape_coalesced(Plain{}, make_shape(C<MN>{}, C<BK>{}, C<Stages>{})));
  }
  template <int Stages> using SmemLayoutA = decltype(smem_layout<BM, AKMajor, Stages>());
  template <int Stages> using SmemLayoutB = decltype(smem_layout<BN, BKMajor, Stages>());

  // Each function asserts the size of what it returns.  The class asserts the same counts on
  // types it has anyway (the ldmatrix copies' TV layouts are the MMA's A and B maps, over
  // TileA and TileB), so that a thread's partition by a run-time thread index (a chain of
  // divides and compositions per function) is derived only where a caller asks for it.
  TESSERA_HOST_DEVICE static constexpr auto a_coords(int t) {
    auto c = mma_a_coords<TileA>(TiledMma{}, t);
    static_assert(decltype(c)::size() == 8 * MT, "fragment sizes of the m16n8k16 atom");
    return c;
  }
  TESSERA_HOST_DEVICE static constexpr auto b_coords(int t) {
    auto c = mma_b_coords<TileB>(TiledMma{}, t);
    static_assert(decltype(c)::size() == 4 * NT, "fragment sizes of the m16n8k16 atom");
    return c;
  }
  TESSERA_HOST_DEVICE static constexpr auto c_coords(int t) {
    auto c = mma_c_coords<TileC>(TiledMma{}, t);
    static_assert(decltype(c)::size() == 4 * MT * NT, "fragment sizes of the m16n8k16 atom");
    return c;
  }
  // ldmatrix source rows: issue i's row address is the source value 8i.
  TESSERA_HOST_DEVICE static constexpr auto ldsm_a_src(int t) {
    auto c = copy_src_coords<TileA>(S2R_A{}, t);
    static_assert(decltype(c)::size() == 8 * LdsmPerStepA, "one ldmatrix x4 per A atom and k16 step");
    return c;
  }
  TESSERA_HOST_DEVICE static constexpr auto ldsm_b_src(int t) {
    auto c = copy_src_coords<TileB>(S2R_B{}, t);
    static_assert(decltype(c)::size() == 8 * LdsmPerStepB, "one ldmatrix x4 per two B atoms and k16 step");
    return c;
  }
  TESSERA_HOST_DEVICE static constexpr auto ldsm_a_dst(int t) { return copy_dst_coords<TileA>(S2R_A{}, t); }
  TESSERA_HOST_DEVICE static constexpr auto ldsm_b_dst(int t) { return copy_dst_coords<TileB>(S2R_B{}, t); }
  static_assert(copy_values_per_thread<TileA, S2R_A> == 8 * LdsmPerStepA, "one ldmatrix x4 per A atom and k16 step");
  static_assert(copy_values_per_thread<TileB, S2R_B> == 8 * LdsmPerStepB, "one ldmatrix x4 per two B atoms and k16 step");
  static_assert(tv_values_per_thread<typename S2R_A::TiledLayout_TV> == 8 * MT &&
                    tv_values_per_thread<typename S2R_B::TiledLayout_TV> == 4 * NT,
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

}  // namespace tessera::kernels
