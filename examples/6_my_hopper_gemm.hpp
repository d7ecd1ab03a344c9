// 6. A Hopper GEMM of your own, written with tessera alone: the tile's pieces.
//
// D (M,N) = A (M,K) * B (N,K)^T, bf16 in and out, f32 accumulation; A and B K-major ("TN"),
// D row-major. A CTA computes 128 x 256 tiles of D with three warpgroups:
//   producer      warpgroup 0: one thread issues the TMA copies of each k-tile (128 x 64 of A,
//                 256 x 64 of B) into a ring of 4 smem stages (mbarrier full/empty pipeline)
//   consumers     warpgroups 1, 2: rows 0-63 and 64-127 of the tile, one wgmma m64n256k16
//                 per 16 of K on descriptor fragments of the stage (partition_fragment_A/B)
//   smem          GMMA's K-major 128B-swizzle atom (8 x 64 bf16) tiled over (rows, K, stage)
//   epilogue      the f32 accumulators rounded to bf16, 32-bit stores of two columns
//   edges         any M and N (N even), K a multiple of 8 (16-byte rows for TMA): TMA fills
//                 what lies past the matrix with zeros, the epilogue predicates its stores
// Shared by the kernel (6_my_hopper_gemm.cu) and its host check (6_my_hopper_gemm_check.cpp,
// which runs the consumers' functions below for every thread on host threads: gemm's wgmma
// is emulated there from the descriptors, and the producer's TMA boxes from their arguments).
#pragma once

#include <tessera/algorithm.hpp>
#include <tessera/algorithm/copy_tma.hpp>  // TMA atoms, their boxes, copy() through them
#include <tessera/atom/mma_sm90.hpp>       // wgmma atoms
#include <tessera/atom/tma_coord.hpp>      // a TMA origin from a coordinate tensor
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
inline constexpr int Threads = GMMA::warpgroup_threads * (1 + Consumers);

// One stage of each operand (what one k-tile's TMA copies fill) and the ring of them.
// (Static layouts: their types are the layouts, StageA{} one of them, in host and device code.)
using StageA = decltype(GMMA::make_smem_layout<16, Major::K, 128>(make_shape(bM, bK)));
using StageB = decltype(GMMA::make_smem_layout<16, Major::K, 128>(make_shape(bN, bK)));
using SmemA = decltype(GMMA::make_smem_layout<16, Major::K, 128>(make_shape(bM, bK, C<Stages>{})));
using SmemB = decltype(GMMA::make_smem_layout<16, Major::K, 128>(make_shape(bN, bK, C<Stages>{})));
inline constexpr int stage_a_elements = int(bM) * int(bK), stage_b_elements = int(bN) * int(bK);
inline constexpr int smem_elements = Stages * (stage_a_elements + stage_b_elements);  // A's stages, then B's

// Consumer warpgroup w takes rows 64w..64w+63: the wgmma atom, two along M.
using TiledMma = decltype(make_tiled_mma(SM90_64xNx16_F32BF16BF16_SS<int(bN), Major::K, Major::K>{},
                                         make_layout(make_shape(C<Consumers>{}, _1{}, _1{}))));
using TmaA = TmaLoad<1>;  // one box per stage tile (make_tma_copy derives it; the host checks)
using TmaB = TmaLoad<1>;
using Store = Copy_Atom<UniversalCopy<uint32_t>, T>;  // two bf16 of D per store

// Tracing is a policy: NoTrace costs nothing; a recorder (6_my_hopper_gemm_trace.hpp) writes
// down what each consumer thread held, for `tessera verify`.
struct NoTrace {
  static constexpr bool enabled = false;
};

// Tile u of the persistent loop -> (m tile, n tile); `group` consecutive units take
// consecutive M tiles of one N column (A and B tiles shared in L2). m = -1: past the last
// (partial) group of M tiles, no tile.
TESSERA_HOST_DEVICE inline tuple<int, int> tile_of(int u, int m_tiles, int n_tiles, int group) {
  auto tiles = make_shape(group, n_tiles, ceil_div(m_tiles, group));
  auto c = idx2crd(u, tiles);
  const int m = int(get<0>(c)) + group * int(get<2>(c));
  return {m < m_tiles ? m : -1, int(get<1>(c))};
}
TESSERA_HOST_DEVICE inline int tile_units(int M, int N, int group) {
  return group * ceil_div(N, int(bN)) * ceil_div(ceil_div(M, int(bM)), group);
}

// The producer's TMA origin of k-tile k of row tile `tile` of an operand (rows, K): element 0
// of that tile of the operand's coordinate tensor.
template <class Rows>
TESSERA_HOST_DEVICE inline tma::Coord tma_origin(int rows, int K, Rows tile_rows, int tile, int k) {
  auto c = local_tile(make_identity_tensor(make_shape(rows, K)), make_shape(tile_rows, bK), make_coord(tile, k));
  return tma::coord_of(c(0, 0));
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

// Epilogue: the tile's accumulators rounded to bf16 and stored (predicated across an edge).
template <class Acc>
TESSERA_HOST_DEVICE TESSERA_INLINE void store_tile(int thread, Acc const& acc, T* D, int M, int N, int m_tile, int n_tile) {
  auto mD = make_tensor(D, make_layout(make_shape(M, N), make_stride(N, _1{})));
  auto gD = local_tile(mD, make_shape(bM, bN), make_coord(m_tile, n_tile));
  auto thr = TiledMma{}.get_slice(thread);
  auto tCgD = thr.partition_C(gD);  // ((2,2,32),1,1): pairs of columns
  auto tCrD = make_fragment_like<T>(tCgD);
  convert(acc, tCrD);  // f32 -> bf16, cvt.rn.bf16x2 on the GPU
  const int m0 = m_tile * int(bM), n0 = n_tile * int(bN);
  if (m0 + int(bM) <= M && n0 + int(bN) <= N) {
    copy(Store{}, tCrD, tCgD);
  } else {
    auto tCcD = thr.partition_C(make_identity_tensor(make_shape(bM, bN)));
    auto inside = [&](auto c) { return m0 + int(get<0>(c)) < M && n0 + int(get<1>(c)) < N; };
    copy_if(make_copy_predicate(Store{}, tCcD, inside), Store{}, tCrD, tCgD);
  }
}

}  // namespace my_hopper_gemm
