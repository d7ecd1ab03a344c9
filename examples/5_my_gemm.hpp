// 5. A GEMM kernel of your own, written with tessera alone: the CTA's work.
//
// C (M,N) = alpha * A (M,K) * B (N,K)^T + beta * C, f16 in and out, f32 accumulation; A and
// B K-major ("TN"), C row-major.  One CTA computes a 128 x 128 tile of C with 4 warps:
//   tiled MMA     2 x 2 warps of mma.sync m16n8k16, each warp's tile repeated to 32x32x16
//   gmem -> smem  cp.async 16 B, 16 x 8 threads x 8 halves along K, 3 stages in flight
//   smem          Sw<3,3,3> over 8 x 64 K-major blocks (ldmatrix reads without conflicts)
//   smem -> regs  ldmatrix x4 in the MMA's fragment order (make_tiled_copy_A/B)
//   epilogue      alpha/beta in registers, 32-bit stores of two halves
//   edges         any M and N (N even) and K (a multiple of 8): a CTA whose tile crosses the
//                 matrix's edge predicates its copies on an identity tensor's coordinates
//                 (cp.async zero-fills what lies outside, so the MMAs add zeros there)
// Shared by the kernel (5_my_gemm.cu) and its host check (5_my_gemm_check.cpp, which runs
// this same function for every thread on the host: tessera emulates each instruction).
#pragma once

#include <tessera/algorithm.hpp>
#include <tessera/tessera.hpp>  // the static tier: layouts, tile_to_shape, swizzles, local_tile

namespace my_gemm {
using namespace tessera;
using T = half_t;

inline constexpr auto bM = _128{};
inline constexpr auto bN = _128{};
inline constexpr auto bK = _64{};
inline constexpr int Stages = 3;
inline constexpr int Threads = 128;

using TiledMma = decltype(make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, make_layout(make_shape(_2{}, _2{}, _1{})),
                                         make_tile(_32{}, _32{}, _16{})));
using G2S = decltype(make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<16>, T>{},
                                     make_layout(make_shape(_16{}, _8{}), LayoutRight{}), make_layout(make_shape(_1{}, _8{}))));
// The same copy for tiles across an edge: zero-filling, so what lies outside reads as 0.
using G2S_Zfill = decltype(make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<16>, T>{},
                                           make_layout(make_shape(_16{}, _8{}), LayoutRight{}),
                                           make_layout(make_shape(_1{}, _8{}))));
using S2RA = decltype(make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, T>{}, TiledMma{}));
using S2RB = decltype(make_tiled_copy_B(Copy_Atom<SM75_U32x4_LDSM_N, T>{}, TiledMma{}));
using Store = Copy_Atom<UniversalCopy<uint32_t>, T>;  // two halves of C per store

// (rows, K, stage) in smem: 8 x 64 K-major blocks tiled over the operand, swizzled.
TESSERA_HOST_DEVICE constexpr auto smem_layout() {
  auto block = make_layout(make_shape(_8{}, bK), make_stride(bK, _1{}));
  return composition(Swizzle<3, 3, 3>{}, tile_to_shape(block, make_shape(bM, bK, C<Stages>{})));
}
inline constexpr int smem_elements = 2 * int(decltype(cosize(smem_layout().inner()))::value);

// The CTA at tile (m_tile, n_tile); tid = thread index; smem = smem_elements halves.
// Tracing is a policy: NoTrace costs nothing; a recorder (5_my_gemm_trace.hpp) writes down
// what each thread held, for `tessera verify`.
struct NoTrace {
  static constexpr bool enabled = false;
};

// Edge: the tile crosses the matrix's edge, so its copies are predicated.  Two instantiations,
// so that the predicates cost the whole tiles nothing, not even registers.
template <bool Edge, class Trace = NoTrace>
TESSERA_HOST_DEVICE TESSERA_INLINE void gemm_cta_tile(T const* A, T const* B, T* Cptr, int M, int N, int K, float alpha,
                                              float beta, int m_tile, int n_tile, int tid, T* smem, Trace trace = {}) {
  // Whole matrices, then this CTA's tiles: gA (bM, bK, k_tiles), gC (bM, bN).
  auto mA = make_tensor(A, make_layout(make_shape(M, K), make_stride(K, _1{})));
  auto mB = make_tensor(B, make_layout(make_shape(N, K), make_stride(K, _1{})));
  auto mC = make_tensor(Cptr, make_layout(make_shape(M, N), make_stride(N, _1{})));
  auto gA = local_tile(mA, make_shape(bM, bK), make_coord(m_tile, _));
  auto gB = local_tile(mB, make_shape(bN, bK), make_coord(n_tile, _));
  auto gC = local_tile(mC, make_shape(bM, bN), make_coord(m_tile, n_tile));
  // Coordinates inside one tile, (m, k) / (n, k) / (m, n): an identity tensor of the TILE's
  // shape, so they are static (no division at run time); the predicates below add the tile's
  // origin.  (local_tile of make_identity_tensor(make_shape(M, K)) gives the same coordinates,
  // counting past the edge, but computes them from dynamic shapes.)
  auto cA = make_identity_tensor(make_shape(bM, bK));
  auto cB = make_identity_tensor(make_shape(bN, bK));
  auto cC = make_identity_tensor(make_shape(bM, bN));
  const int m0 = m_tile * int(bM), n0 = n_tile * int(bN);
  auto sA = make_tensor(smem, smem_layout());
  auto sB = make_tensor(smem + smem_elements / 2, smem_layout());

  // gmem -> smem: this thread's cp.async sources and destinations (CPY, CPY_M, CPY_K, tile/stage)
  auto g2s = G2S{}.get_slice(tid);
  auto tAgA = g2s.partition_S(gA);
  auto tAsA = g2s.partition_D(sA);
  auto tBgB = g2s.partition_S(gB);
  auto tBsB = g2s.partition_D(sB);
  auto tAcA = g2s.partition_S(cA);
  auto tBcB = g2s.partition_S(cB);
  auto load_k_tile = [&](int k_tile, int stage) {
    if constexpr (!Edge) {
      copy(G2S{}, tAgA(_, _, _, k_tile), tAsA(_, _, _, stage));
      copy(G2S{}, tBgB(_, _, _, k_tile), tBsB(_, _, _, stage));
    } else {
      const int k0 = k_tile * int(bK);
      auto in_A = [&](auto c) { return m0 + int(get<0>(c)) < M && k0 + int(get<1>(c)) < K; };
      auto in_B = [&](auto c) { return n0 + int(get<0>(c)) < N && k0 + int(get<1>(c)) < K; };
      copy_if(make_copy_predicate(G2S_Zfill{}, tAcA, in_A), G2S_Zfill{}, tAgA(_, _, _, k_tile), tAsA(_, _, _, stage));
      copy_if(make_copy_predicate(G2S_Zfill{}, tBcB, in_B), G2S_Zfill{}, tBgB(_, _, _, k_tile), tBsB(_, _, _, stage));
    }
  };

  // The MMA's fragments, and the ldmatrix copies' view of them
  TiledMma mma;
  auto thr_mma = mma.get_slice(tid);
  auto tCrA = thr_mma.partition_fragment_A(sA(_, _, 0));  // (MMA, MMA_M, MMA_K)
  auto tCrB = thr_mma.partition_fragment_B(sB(_, _, 0));  // (MMA, MMA_N, MMA_K)
  auto tCrC = thr_mma.partition_fragment_C(gC);           // (MMA, MMA_M, MMA_N) f32
  clear(tCrC);
  auto s2r_a = S2RA{}.get_slice(tid);
  auto s2r_b = S2RB{}.get_slice(tid);
  auto tXsA = s2r_a.partition_S(sA);  // (CPY, CPY_M, CPY_K, stage)
  auto tXrA = s2r_a.retile_D(tCrA);   // (CPY, CPY_M, CPY_K)
  auto tXsB = s2r_b.partition_S(sB);
  auto tXrB = s2r_b.retile_D(tCrB);

  // Prologue: the first Stages-1 k-tiles in flight (with fewer k-tiles, the last one is
  // loaded again: the loop below never reads it twice).
  int k_tiles_left = int(size<3>(tAgA.layout()));
  int k_tile_next = 0;
  for (int s = 0; s < Stages - 1; ++s) {
    load_k_tile(k_tile_next, s);
    cp_async_fence();
    if (--k_tiles_left > 0) ++k_tile_next;
  }
  // read_stage: the stage whose data arrives next; load_stage: the one ldmatrix reads now.
  int read_stage = 0, write_stage = Stages - 1, load_stage = 0;
  constexpr int k_blocks = int(decltype(size<2>(tCrA.layout()))::value);
  // The first k-block of the first stage into registers.
  cp_async_wait<Stages - 2>();
  sync_threads();
  if constexpr (Trace::enabled) trace.smem(tid, tAsA(_, _, _, 0), tBsB(_, _, _, 0));
  copy(S2RA{}, tXsA(_, _, _0{}, load_stage), tXrA(_, _, _0{}));
  copy(S2RB{}, tXsB(_, _, _0{}, load_stage), tXrB(_, _, _0{}));

  // Mainloop: while the tensor cores run k-block kb, ldmatrix loads kb+1 and cp.async
  // fills the stage after next.
  for (int k_tile = 0; k_tiles_left > -(Stages - 1); ++k_tile) {
    detail::static_for<k_blocks>([&](auto kb_) {
      constexpr int kb = int(decltype(kb_)::value), next = (kb + 1) % k_blocks;
      if constexpr (kb == k_blocks - 1) {  // the next stage must have landed
        cp_async_wait<Stages - 2>();
        sync_threads();
        load_stage = read_stage;
      }
      copy(S2RA{}, tXsA(_, _, C<next>{}, load_stage), tXrA(_, _, C<next>{}));
      copy(S2RB{}, tXsB(_, _, C<next>{}, load_stage), tXrB(_, _, C<next>{}));
      if constexpr (kb == 0) {
        load_k_tile(k_tile_next, write_stage);
        cp_async_fence();
        if (--k_tiles_left > 0) ++k_tile_next;
        write_stage = read_stage;
        read_stage = read_stage == Stages - 1 ? 0 : read_stage + 1;
      }
      if constexpr (Trace::enabled)
        if (k_tile == 0) trace.fragments(tid, kb, tCrA(_, _, kb_), tCrB(_, _, kb_));
      gemm(mma, tCrA(_, _, kb_), tCrB(_, _, kb_), tCrC);
    });
  }
  cp_async_wait<0>();
  if constexpr (Trace::enabled) trace.accumulators_of(tid, tCrC);

  // Epilogue: D = alpha * acc + beta * C in registers, then 32-bit stores (at an edge, only
  // the elements inside C: N even keeps both halves of a store on one side).
  auto tCgC = thr_mma.partition_C(gC);
  auto tCrD = make_fragment_like<T>(tCgC);
  if constexpr (!Edge) {
    if (beta != 0.f) copy(tCgC, tCrD);
    axpby(alpha, tCrC, beta, tCrD);
    copy(Store{}, tCrD, tCgC);
  } else {
    auto tCcC = thr_mma.partition_C(cC);
    auto in_C = [&](auto c) { return m0 + int(get<0>(c)) < M && n0 + int(get<1>(c)) < N; };
    if (beta != 0.f) copy_if(make_copy_predicate(tCcC, in_C), tCgC, tCrD);
    axpby(alpha, tCrC, beta, tCrD);
    copy_if(make_copy_predicate(Store{}, tCcC, in_C), Store{}, tCrD, tCgC);
  }
}

// Tiles across an edge in a function of their own (not inlined on the GPU): its predicates
// and their registers stay out of the whole tiles' code, which keeps every value in
// registers (inlined, the kernel took a 1648-byte stack frame and ran at 0.34x, not 0.46x).
#if defined(__CUDACC__)
__noinline__
#endif
TESSERA_HOST_DEVICE inline void gemm_cta_edge(T const* A, T const* B, T* Cptr, int M, int N, int K, float alpha, float beta,
                                              int m_tile, int n_tile, int tid, T* smem) {
  gemm_cta_tile<true>(A, B, Cptr, M, N, K, alpha, beta, m_tile, n_tile, tid, smem);
}

// The CTA's work: whole tiles without predicates, tiles across an edge with them (the
// choice is the same for every thread of the CTA).
TESSERA_HOST_DEVICE TESSERA_INLINE void gemm_cta(T const* A, T const* B, T* Cptr, int M, int N, int K, float alpha, float beta,
                                         int m_tile, int n_tile, int tid, T* smem) {
  const bool edge = (m_tile + 1) * int(bM) > M || (n_tile + 1) * int(bN) > N || K % int(bK) != 0;
  if (edge) gemm_cta_edge(A, B, Cptr, M, N, K, alpha, beta, m_tile, n_tile, tid, smem);
  else gemm_cta_tile<false>(A, B, Cptr, M, N, K, alpha, beta, m_tile, n_tile, tid, smem);
}

}  // namespace my_gemm
