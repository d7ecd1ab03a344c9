// 6. A Hopper GEMM of your own, written with tessera alone: the tile's pieces.
//
// D (M,N) = A (M,K) * B (N,K)^T, bf16 in and out, f32 accumulation; A and B K-major ("TN"),
// D row-major. A CTA computes 128 x 256 tiles of D with three warpgroups, in clusters of two
// CTAs that take the two 128-row tiles of one 256 x 256 cluster tile:
//   producer      warpgroup 0: one thread issues the TMA copies of each k-tile into a ring of
//                 4 smem stages (mbarrier full/empty pipeline): its own 128 x 64 of A, and its
//                 half of the shared 256 x 64 of B, multicast into both CTAs' stages (half the
//                 B bytes each CTA asks of L2); a stage is free once both CTAs' consumers
//                 released it
//   consumers     warpgroups 1, 2: rows 0-63 and 64-127 of the tile, one wgmma m64n256k16
//                 per 16 of K on descriptor fragments of the stage (partition_fragment_A/B)
//   smem          GMMA's K-major 128B-swizzle atom (8 x 64 bf16) tiled over (rows, K, stage)
//   epilogue      each consumer warp stages its 16 rows of the tile, 64 columns (a part) at a
//                 time, rounded to bf16, by stmatrix (the tiled copy C of the TiledMma) into
//                 one of two 2 KiB buffers (the 128B-swizzled K-major atom, 16 x 64); its lane
//                 0 stores the part by TMA, asynchronously: the last parts are written to
//                 global memory while the next tile's mainloop runs
//   edges         any M, N and K multiples of 8 (16-byte rows for TMA): TMA loads fill what
//                 lies past the matrix with zeros, and TMA stores clip there (a cluster's
//                 second tile past M still loads its half of B, and stores nothing)
// Shared by the kernel (6_my_hopper_gemm.cu) and its host check (6_my_hopper_gemm_check.cpp,
// which runs the consumers' functions below for every thread on host threads: gemm's wgmma
// is emulated there from the descriptors, and the producer's TMA boxes from their arguments).
#pragma once

#include <type_traits>
#include <utility>

#include <tessera/algorithm.hpp>
#include <tessera/algorithm/copy_tma.hpp>  // TMA atoms, their boxes, copy() through them
#include <tessera/atom/copy_sm90.hpp>      // stmatrix
#include <tessera/atom/mma_sm90.hpp>       // wgmma atoms
#include <tessera/atom/tma_coord.hpp>      // a TMA origin from a coordinate tensor
#include <tessera/pipeline/cluster.hpp>
#include <tessera/pipeline/tma_pipeline.hpp>
#include <tessera/tessera.hpp>

namespace my_hopper_gemm {
using namespace tessera;
using T = bfloat16_t;
using GMMA::Major;

inline constexpr auto bM = _128{};
inline constexpr auto bN = _256{};
inline constexpr auto bK = _64{};
inline constexpr int Stages = 4;
inline constexpr int Consumers = 2;  // warpgroups
inline constexpr int ClusterM = 2;   // CTAs per cluster, along M: they share the B tile
inline constexpr int Threads = GMMA::warpgroup_threads * (1 + Consumers);

// One stage of each operand (what one k-tile's TMA copies fill) and the ring of them.
// (Static layouts: their types are the layouts, StageA{} one of them, in host and device code.)
using StageA = decltype(GMMA::make_smem_layout<16, Major::K, 128>(make_shape(bM, bK)));
using StageB = decltype(GMMA::make_smem_layout<16, Major::K, 128>(make_shape(bN, bK)));
// A CTA's half of the B tile: the stage's rows r * 128 .. r * 128 + 127 lie at element r *
// part_b_elements of the stage (the host check asserts it), where the multicast copy writes them.
using PartB = decltype(GMMA::make_smem_layout<16, Major::K, 128>(make_shape(bN / C<ClusterM>{}, bK)));
using SmemA = decltype(GMMA::make_smem_layout<16, Major::K, 128>(make_shape(bM, bK, C<Stages>{})));
using SmemB = decltype(GMMA::make_smem_layout<16, Major::K, 128>(make_shape(bN, bK, C<Stages>{})));
inline constexpr int stage_a_elements = int(bM) * int(bK), stage_b_elements = int(bN) * int(bK);
inline constexpr int part_b_elements = stage_b_elements / ClusterM;
inline constexpr int smem_elements = Stages * (stage_a_elements + stage_b_elements);  // A's stages, then B's

// Consumer warpgroup w takes rows 64w..64w+63: the wgmma atom, two along M.
using TiledMma = decltype(make_tiled_mma(SM90_64xNx16_F32BF16BF16_SS<int(bN), Major::K, Major::K>{},
                                         make_layout(make_shape(C<Consumers>{}, _1{}, _1{}))));
using TmaA = TmaLoad<1>;           // one box per stage tile (make_tma_copy derives it; the host checks)
using TmaB = TmaLoadMulticast<1>;  // one box per part of B, into every CTA of the cluster
inline constexpr uint16_t cluster_mask = (1u << ClusterM) - 1u;
// The loads' boxes as compile-time constants, for copy_static: the producer then reads no
// box property between a stage's release and its copies (read from the kernel's parameters,
// that chain of loads sits on the critical path: a fifth of the speed). The boxes follow from
// the stage tile and which gmem mode is contiguous, not from the extents, so a representative
// K-major operand gives them; make_params and the host check compare them with each
// problem's own (same_boxes).
template <class Op, class Tile>
struct StaticBoxes {
  static constexpr tma::TileBoxes<1> value = [] {
    tma::Arguments a;
    const int64_t extent = int64_t(1) << 20;
    return make_tma_copy<Op, 1, 16>(a, make_layout(make_shape(extent, extent), make_stride(extent, _1{})), Tile{}).boxes;
  }();
};
using BoxesA = StaticBoxes<SM90_TMA_LOAD, StageA>;
using BoxesB = StaticBoxes<SM90_TMA_LOAD_MULTICAST, PartB>;
inline bool same_boxes(tma::TileBoxes<1> const& x, tma::TileBoxes<1> const& y) {
  bool same = x.ok() && y.ok() && x.rank == y.rank && x.count == y.count && x.tx_bytes == y.tx_bytes &&
              x.smem_offset_bytes[0] == y.smem_offset_bytes[0];
  for (int d = 0; d < tma::kMaxRank; ++d)
    same = same && x.mode_of_dim[d] == y.mode_of_dim[d] && x.shift[d] == y.shift[d] && x.mask[d] == y.mask[d] &&
           x.corner[0][d] == y.corner[0][d];
  return same;
}
using TmaD = TmaStore<1>;  // one box per part of a warp: (16, 64) of D

// The epilogue: a warp's part (16 rows, 64 columns), staged in one of two buffers per warp.
using StageD = decltype(GMMA::make_smem_layout<16, Major::K, 128>(make_shape(_16{}, _64{})));
inline constexpr int Parts = int(bN) / 64, Buffers = 2;
inline constexpr int consumer_warps = Consumers * GMMA::warpgroup_threads / 32;
inline constexpr int stage_d_elements = 16 * 64;
inline constexpr int staging_elements = Buffers * consumer_warps * stage_d_elements;
// The tile (bM, bN) as the staging buffers see it: rows (16, warp), columns (64, buffer,
// part / 2): part p of warp w at buffer p % 2, slab w -- parts 0 and 2 (1 and 3) share a buffer
// in turn. (The slabs, 2 KiB each, keep the swizzle's 1 KiB repeat.)
TESSERA_HOST_DEVICE constexpr auto staging_view(T* d) {
  constexpr auto L = StageD{}.inner();
  constexpr auto rows = make_layout(layout<0>(L), Layout<C<consumer_warps>, C<stage_d_elements>>{});
  constexpr auto cols = make_layout(layout<1>(L), Layout<tuple<_2, _2>, tuple<C<consumer_warps * stage_d_elements>, _0>>{});
  return make_tensor(d, make_composed_layout(StageD{}.outer(), _0{}, make_layout(rows, cols)));
}
// stmatrix x4 over the C fragment: instruction j holds values 8j..8j+7, 16 columns: part p
// is instructions 4p..4p+3 (the host check asserts it and that a warp writes its slab only).
using Stsm = decltype(make_tiled_copy_C(Copy_Atom<SM90_U32x4_STSM_N, T>{}, TiledMma{}));

// Tracing is a policy: NoTrace costs nothing; a recorder (6_my_hopper_gemm_trace.hpp) writes
// down what each consumer thread held, for `tessera verify`.
struct NoTrace {
  static constexpr bool enabled = false;
};

// Unit u of the persistent loop -> the cluster tile (cluster row, n tile) it computes; CTA r
// of the cluster takes M tile ClusterM * row + r. `group` consecutive units take consecutive
// cluster rows of one N column (A and B tiles shared in L2). Row -1: past the last (partial)
// group of rows, no tile.
TESSERA_HOST_DEVICE inline int cluster_rows(int M) { return ceil_div(M, int(bM) * ClusterM); }
TESSERA_HOST_DEVICE inline tuple<int, int> tile_of(int u, int rows, int n_tiles, int group) {
  auto tiles = make_shape(group, n_tiles, ceil_div(rows, group));
  auto c = idx2crd(u, tiles);
  const int m = int(get<0>(c)) + group * int(get<2>(c));
  return {m < rows ? m : -1, int(get<1>(c))};
}
TESSERA_HOST_DEVICE inline int tile_units(int M, int N, int group) {
  return group * ceil_div(N, int(bN)) * ceil_div(cluster_rows(M), group);
}

// The producer's TMA origins: element 0 of a tile of the operands' coordinate tensors (rows,
// K), unbounded (a tile past the edge keeps counting; TMA fills there with zeros). A's tile
// (m, k); part r of B's tile (n, k).
TESSERA_HOST_DEVICE inline tma::Coord a_origin(int m, int k) {
  return tma::coord_of(local_tile(tma::coordinate_tensor<2>(), make_shape(bM, bK), make_coord(m, k))(0, 0));
}
TESSERA_HOST_DEVICE inline tma::Coord b_origin(int n, int r, int k) {
  auto tile = local_tile(tma::coordinate_tensor<2>(), make_shape(bN, bK), make_coord(n, k));
  return tma::coord_of(local_tile(tile, make_shape(bN / C<ClusterM>{}, bK), make_coord(r, 0))(0, 0));
}

// A consumer thread (0..255) on stage `stage` of the ring: the wgmmas of one k-tile into its
// accumulators (partition_fragment_C(TiledMma{}, (bM, bN))). `a`, `b`: the rings in smem.
template <class Acc>
TESSERA_HOST_DEVICE TESSERA_INLINE void mma_k_tile(int thread, T* a, T* b, int stage, Acc& acc, GMMA::ScaleOut scale) {
  TiledMma mma;
  auto thr = mma.get_slice(thread);
  auto tCrA = thr.partition_fragment_A(make_tensor(a, SmemA{}));  // (1, 1, 4, Stages) descriptors
  auto tCrB = thr.partition_fragment_B(make_tensor(b, SmemB{}));  // (1, 1, 4, Stages)
  gemm(mma, tCrA(_, _, _, stage), tCrB(_, _, _, stage), acc, scale);  // 4 x wgmma m64n256k16
}

// Epilogue, part P of a consumer thread: its values 32P..32P+31 rounded to bf16 and staged
// by stmatrix (warp-collective) into buffer P % 2 of its warp. `d`: the staging buffers.
template <int64_t P, class Acc>
TESSERA_HOST_DEVICE TESSERA_INLINE void stage_part(int thread, Acc const& acc, T* d) {
  static_assert(std::is_same_v<decltype(coalesce(acc.layout())), Layout<_128, _1>>, "the C fragment's values in column order");
  auto frag = make_fragment_like<T>(acc);  // (only this part's values are written and read)
  convert(make_tensor(&acc(C<32 * P>{}), Layout<_32, _1>{}), make_tensor(&frag(C<32 * P>{}), Layout<_32, _1>{}));  // cvt.rn.bf16x2
  auto thr = Stsm{}.get_slice(thread);
  auto src = thr.retile_S(frag);                // ((8, 16), 1, 1): instruction j = values 8j..8j+7
  auto dst = thr.partition_D(staging_view(d));  // ((8, (4, 2, 2)), 1, 1): instruction j's 16-byte row
  [&]<int... I>(std::integer_sequence<int, I...>) {  // instructions 4P..4P+3
    (copy(Copy_Atom<SM90_U32x4_STSM_N, T>{}, src(make_coord(_, C<4 * P + I>{}), _0{}, _0{}),
          dst(make_coord(_, C<4 * P + I>{}), _0{}, _0{})),
     ...);
  }(std::make_integer_sequence<int, 4>{});
}
// Where part `part` of consumer warp `warp` goes in D: its TMA origin in the CTA's tile of D's
// coordinate tensor (unbounded: the store clips what lies past M or N), and its buffer's offset.
TESSERA_HOST_DEVICE inline tma::Coord d_origin(int m_tile, int n_tile, int warp, int part) {
  auto c = local_tile(tma::coordinate_tensor<2>(), make_shape(bM, bN), make_coord(m_tile, n_tile));
  return tma::coord_of(c(16 * warp, 64 * part));
}
TESSERA_HOST_DEVICE constexpr int d_offset(int warp, int part) {
  return (part % Buffers * consumer_warps + warp) * stage_d_elements;
}

}  // namespace my_hopper_gemm
