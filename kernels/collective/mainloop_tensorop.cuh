// Collective mainloop, SM80 style (runs on sm_80 and Hopper): F16/BF16 in, F32 accumulate.
//
//   gmem --cp.async (16 B, zero-filled residues)--> swizzled smem, Stages deep
//   smem --ldmatrix(.trans) x4--> registers --mma.sync m16n8k16--> f32 accumulators
//
// CTA tile BM x BN x BK, warps WM x WN, each warp a (BM/WM) x (BN/WN) tile made of
// 16x8 MMA atoms.  Default 128x256x32 with 2x4 warps (64x64 per warp): per k16 step a warp
// issues 8 ldmatrix.x4 for 32 mma, and a CTA loads 384 elements per 32768 MACs, which keeps
// the L2->SM traffic of an H100 under its bandwidth at mma.sync rates.
// Element-copy gmem -> smem tiled copies (Vec = false) replace the 16-byte copies (any
// alignment, any extent).
//
// The collective is CollectiveMma<MainloopSm80CpAsync<Stages, MinBlocks, Group>, TileShape,
// ElementA, MajorA, ElementB, MajorB, TiledMma, GmemTiledCopyA, SmemLayoutAtomA,
// SmemCopyAtomA, GmemTiledCopyB, SmemLayoutAtomB, SmemCopyAtomB, Trace>: the parts and their
// rules are sm80_collective_mma.hpp's (plain C++), CollectiveBuilder picks them; the tile
// shape, warps and copy paths above are the builder's choices, not this file's.
//
// Written with tessera's algorithms only: the operand tiles are local_tile of the operand
// tensors, every copy is copy / copy_if over a tiled copy's partitions, the fragments come
// from partition_fragment_A/B and retile_D, the math is gemm(tiled_mma, ...).  The swizzled
// smem partitions are folded (fold_partition_S/D, tessera/algorithm/swizzle_fold.hpp): a
// register per thread plus immediates, so the static layouts cost no address arithmetic in
// the loop.
#pragma once

#include <cstdint>
#include <type_traits>

#include "../kernel/problem.cuh"
#include "../kernel/trace_policy.cuh"
#include "tessera/algorithm.hpp"
#include "sm80_collective_mma.hpp"

namespace tessera::kernels {

// An operand (MN, K) in gmem: (ld, 1) for K-major, (1, ld) for MN-major.
template <bool KMajor, class T>
TESSERA_HOST_DEVICE TESSERA_INLINE auto operand_tensor(T const* ptr, std::int64_t mn, std::int64_t k, std::int64_t ld) {
  if constexpr (KMajor) return make_tensor(ptr, make_layout(make_shape(mn, k), make_stride(ld, _1{})));
  else return make_tensor(ptr, make_layout(make_shape(mn, k), make_stride(_1{}, ld)));
}

// The cp.async multistage mainloop: CollectiveMma of MainloopSm80CpAsync (its parts, types
// and rules: sm80_collective_mma.hpp).
template <int Stages_, int MinBlocks_, int Group_, class TileShape, class ElementA, class MajorA, class ElementB, class MajorB,
          class TiledMma_, class GmemTiledCopyA, class SmemLayoutAtomA, class SmemCopyAtomA, class GmemTiledCopyB,
          class SmemLayoutAtomB, class SmemCopyAtomB, class Trace_>
struct CollectiveMma<MainloopSm80CpAsync<Stages_, MinBlocks_, Group_>, TileShape, ElementA, MajorA, ElementB, MajorB, TiledMma_,
                     GmemTiledCopyA, SmemLayoutAtomA, SmemCopyAtomA, GmemTiledCopyB, SmemLayoutAtomB, SmemCopyAtomB, Trace_>
    : CollectiveMmaSm80Parts<MainloopSm80CpAsync<Stages_, MinBlocks_, Group_>, TileShape, ElementA, MajorA, ElementB, MajorB,
                             TiledMma_, GmemTiledCopyA, SmemLayoutAtomA, SmemCopyAtomA, GmemTiledCopyB, SmemLayoutAtomB,
                             SmemCopyAtomB> {
  using Parts = CollectiveMmaSm80Parts<MainloopSm80CpAsync<Stages_, MinBlocks_, Group_>, TileShape, ElementA, MajorA, ElementB,
                                       MajorB, TiledMma_, GmemTiledCopyA, SmemLayoutAtomA, SmemCopyAtomA, GmemTiledCopyB,
                                       SmemLayoutAtomB, SmemCopyAtomB>;
  using Trace = Trace_;  // trace_policy.cuh
  using DispatchPolicy = MainloopSm80CpAsync<Stages_, MinBlocks_, Group_>;
  using Parts::BM, Parts::BN, Parts::BK, Parts::Stages, Parts::Threads, Parts::KK, Parts::MmaK, Parts::Vec, Parts::AKMajor,
      Parts::BKMajor, Parts::smem_elems_a;
  using typename Parts::Elem, typename Parts::TiledMma, typename Parts::G2SA, typename Parts::G2SB, typename Parts::S2RA,
      typename Parts::S2RB, typename Parts::SmemLayoutA, typename Parts::SmemLayoutB, typename Parts::Accum;

  // acc += A(tile tm, k) * B(k, tile tn) over the k of k-tiles [kt_begin, kt_end).
  __device__ __forceinline__ static void run(const Problem& p, const std::uint16_t* A_, const std::uint16_t* B_, std::int64_t tm,
                             std::int64_t tn, int kt_begin, int kt_end, std::uint16_t* smem, Accum& acc) {
    const int tid = threadIdx.x;
    auto tile_a = make_shape(C<BM>{}, C<BK>{});
    auto tile_b = make_shape(C<BN>{}, C<BK>{});
    // The CTA's operand tiles, (MN, BK, k-tile), and the smem stages, (MN, BK, stage).
    auto gA = local_tile(operand_tensor<AKMajor>(reinterpret_cast<Elem const*>(A_), p.m, p.k, p.a.ld), tile_a,
                         make_coord(tm, _));
    auto gB = local_tile(operand_tensor<BKMajor>(reinterpret_cast<Elem const*>(B_), p.n, p.k, p.b.ld), tile_b,
                         make_coord(tn, _));
    auto sA = make_tensor(reinterpret_cast<Elem*>(smem), SmemLayoutA{});
    auto sB = make_tensor(reinterpret_cast<Elem*>(smem) + smem_elems_a, SmemLayoutB{});

    // gmem -> smem: this thread's copies (CPY, CPY_MN, CPY_K, k-tile | stage), and their
    // coordinates in the tile for the predicates at the matrix's edge.
    auto g2s_a = G2SA{}.get_slice(tid);
    auto g2s_b = G2SB{}.get_slice(tid);
    auto tAgA = g2s_a.partition_S(gA);
    auto tBgB = g2s_b.partition_S(gB);
    auto tAsA = fold_partition_D(g2s_a, sA);
    auto tBsB = fold_partition_D(g2s_b, sB);
    auto tAcA = g2s_a.partition_S(make_identity_tensor(tile_a));
    auto tBcB = g2s_b.partition_S(make_identity_tensor(tile_b));
    const std::int64_t res_m = p.m - tm * BM, res_n = p.n - tn * BN;  // extents from the tile's origin on
    // Loads k-tile kt (of the slice) into `stage`.  Whole: known to lie inside A and B.
    auto load_tile = [&](int kt, auto stage, auto whole) {
      const int k_tile = kt_begin + kt;
      if constexpr (decltype(whole)::value) {
        copy(G2SA{}, tAgA(_, _, _, k_tile), tAsA(_, _, _, stage));
        copy(G2SB{}, tBgB(_, _, _, k_tile), tBsB(_, _, _, stage));
      } else {
        const std::int64_t res_k = p.k - std::int64_t(k_tile) * BK;
        auto in_a = [&](auto c) { return get<0>(c) < res_m && get<1>(c) < res_k; };
        auto in_b = [&](auto c) { return get<0>(c) < res_n && get<1>(c) < res_k; };
        if constexpr (Vec) {
          // (A 16-byte copy runs along K only for K-major operands, whose K the vector path
          // requires to be a multiple of 8: a copy is all inside or all outside.)
          copy_if(make_copy_predicate(G2SA{}, tAcA, in_a), G2SA{}, tAgA(_, _, _, k_tile), tAsA(_, _, _, stage));
          copy_if(make_copy_predicate(G2SB{}, tBcB, in_b), G2SB{}, tBgB(_, _, _, k_tile), tBsB(_, _, _, stage));
        } else {
          // Element copies: what lies outside is written as zero, the rest copied.
          auto dst_a = tAsA(_, _, _, stage);
          auto dst_b = tBsB(_, _, _, stage);
          clear(dst_a);
          clear(dst_b);
          copy_if(make_copy_predicate(tAcA, in_a), tAgA(_, _, _, k_tile), dst_a);
          copy_if(make_copy_predicate(tBcB, in_b), tBgB(_, _, _, k_tile), dst_b);
        }
      }
    };

    // The whole k-tiles of the main loop, in order: running views of the next one (a pointer
    // step per k-tile; indexing the k-tile mode cost a multiply and three 64-bit operations
    // per copy).
    auto gA_next = tAgA(_, _, _, kt_begin);
    auto gB_next = tBgB(_, _, _, kt_begin);
    auto load_next_whole = [&](auto stage) {
      copy(G2SA{}, gA_next, tAsA(_, _, _, stage));
      copy(G2SB{}, gB_next, tBsB(_, _, _, stage));
      gA_next = make_tensor(gA_next.data() + stride<3>(tAgA.layout()), gA_next.layout());
      gB_next = make_tensor(gB_next.data() + stride<3>(tBgB.layout()), gB_next.layout());
    };

    // smem -> registers: ldmatrix in the MMA's fragment order.  The fragments hold two k16
    // blocks, double-buffered: while the MMAs of block kk run, the ldmatrix of block kk+1
    // is in flight -- across k-tiles too: the last block of a tile waits for the next stage
    // and loads its first block before its own MMAs.
    TiledMma mma;
    auto thr_mma = mma.get_slice(tid);
    auto two_blocks_a = make_identity_tensor(make_shape(C<BM>{}, C<2 * MmaK>{}));
    auto two_blocks_b = make_identity_tensor(make_shape(C<BN>{}, C<2 * MmaK>{}));
    auto tCrA = thr_mma.partition_fragment_A(two_blocks_a);  // (MMA, MMA_M, buffer)
    auto tCrB = thr_mma.partition_fragment_B(two_blocks_b);  // (MMA, MMA_N, buffer)
    auto s2r_a = S2RA{}.get_slice(tid);
    auto s2r_b = S2RB{}.get_slice(tid);
    auto tXsA = fold_partition_S(s2r_a, sA);  // (CPY, CPY_M, k-block, stage)
    auto tXsB = fold_partition_S(s2r_b, sB);
    auto tXrA = s2r_a.retile_D(tCrA);         // (CPY, CPY_M, buffer)
    auto tXrB = s2r_b.retile_D(tCrB);
    auto load_frags = [&](auto buf, auto stage, auto kk) {
      copy(S2RA{}, tXsA(_, _, kk, stage), tXrA(_, _, buf));
      copy(S2RB{}, tXsB(_, _, kk, stage), tXrB(_, _, buf));
    };

    const int k_tiles = kt_end - kt_begin;
    // A CTA whose copies all lie inside A and B (every CTA but the last row and column of
    // tiles) loads whole tiles until the last partial one, without predicates.
    // (The same for every thread, so the barriers inside stay uniform.)
    const bool inside = res_m >= BM && res_n >= BN;
    const std::int64_t k_lim = std::int64_t(kt_end) * BK < p.k ? std::int64_t(kt_end) * BK : p.k;
    // Prologue: Stages-1 tiles in flight.
    const bool whole_prologue = Vec && inside && k_tiles >= Stages - 1 &&
                                std::int64_t(kt_begin + Stages - 1) * BK <= k_lim;
    if (whole_prologue) {
      tessera::detail::static_for<Stages - 1>([&](auto s) {
        load_tile(int(s), s, std::true_type{});
        cp_async_fence();
      });
    } else {
      tessera::detail::static_for<Stages - 1>([&](auto s) {
        if (int(s) < k_tiles) load_tile(int(s), s, std::false_type{});
        cp_async_fence();
      });
    }
    cp_async_wait<Stages - 2>();
    __syncthreads();  // tile 0 visible
    if constexpr (Trace::enabled) trace_tile0(p, tAsA(_, _, _, _0{}), tBsB(_, _, _, _0{}));
    load_frags(_0{}, _0{}, _0{});
    if constexpr (Trace::enabled) trace_fragments(p, tCrA(_, _, _0{}), tCrB(_, _, _0{}));

    // K-tile kt, read from stage s; s_next: the stage of tile kt + 1; s_write: the stage tile
    // kt - 1 was read from, which tile kt + Stages - 1 is written into.
    auto k_tile = [&](int kt, auto s, auto s_next, auto s_write, auto whole) {
      tessera::detail::static_for<KK>([&](auto kk_) {
        constexpr int kk = int(decltype(kk_)::value);
        if constexpr (kk == KK - 1) {
          // Tile kt+1 must have landed; after this barrier every warp is done reading
          // stage s_write, which the copies issued at kk == 0 of tile kt+1 overwrite.
          cp_async_wait<Stages - 2>();
          __syncthreads();
          load_frags(C<(kk + 1) % 2>{}, s_next, _0{});
        } else {
          load_frags(C<(kk + 1) % 2>{}, s, C<kk + 1>{});
        }
        if constexpr (kk == 0) {
          if constexpr (decltype(whole)::value) load_next_whole(s_write);
          else if (kt + Stages - 1 < k_tiles) load_tile(kt + Stages - 1, s_write, std::false_type{});
          cp_async_fence();
        }
        gemm(mma, tCrA(_, _, C<kk % 2>{}), tCrB(_, _, C<kk % 2>{}), acc);
      });
    };
    if constexpr (Vec) {
      // Unrolled by Stages so that every stage index is a constant: ldmatrix and cp.async
      // then address smem as a per-thread register plus an immediate.
      //
      // The inside CTAs' whole k-tiles run a body without a branch, so the copies' address arithmetic can be scheduled between the
      // MMAs instead of in a block of its own while the warp's tensor pipe waits.
      // Whole k-tiles of the slice from tile Stages-1 (the first the loop loads) on.
      const std::int64_t left = k_lim - std::int64_t(kt_begin + Stages - 1) * BK;
      const int whole = inside && left > 0 ? int(left / BK) : 0;
      // Tiles kt < kt_whole load tile kt + Stages - 1 < (Stages - 1) + whole: whole tiles.
      const int kt_whole = whole / Stages * Stages;
      if (kt_whole > 0) {
        gA_next = tAgA(_, _, _, kt_begin + Stages - 1);
        gB_next = tBgB(_, _, _, kt_begin + Stages - 1);
      }
      int kt0 = 0;
      for (; kt0 < kt_whole; kt0 += Stages) {
        tessera::detail::static_for<Stages>([&](auto s) {
          constexpr int S = int(decltype(s)::value);
          k_tile(kt0 + S, s, C<(S + 1) % Stages>{}, C<(S + Stages - 1) % Stages>{}, std::true_type{});
        });
      }
      for (; kt0 < k_tiles; kt0 += Stages) {
        tessera::detail::static_for<Stages>([&](auto s) {
          constexpr int S = int(decltype(s)::value);
          if (kt0 + S < k_tiles)
            k_tile(kt0 + S, s, C<(S + 1) % Stages>{}, C<(S + Stages - 1) % Stages>{}, std::false_type{});
        });
      }
    } else {
      // The element-copy path keeps a run-time stage: its copies are many (one per element)
      // and, unrolled Stages times, they no longer fit in registers beside the accumulators.
      int s = 0;
      for (int kt = 0; kt < k_tiles; ++kt) {
        const int s_next = s + 1 == Stages ? 0 : s + 1;
        const int s_write = s == 0 ? Stages - 1 : s - 1;
        k_tile(kt, s, s_next, s_write, std::false_type{});
        s = s_next;
      }
    }
    cp_async_wait<0>();
    __syncthreads();  // smem is reused by the epilogue
  }

  // Trace hooks (trace_policy.cuh; instantiated only when Trace::enabled): the inputs hold
  // their own coordinates (A(m,k) = m*BK + k of tile 0, B likewise), so what landed in smem
  // and what ldmatrix delivered can be decoded.  Records: copy.gA->sA / copy.gB->sB for
  // every value of thread t's copies (read back at the smem address it wrote: the value
  // order of its partition), copy.sA->rA / copy.sB->rB and mma.A / mma.B for the fragment
  // registers of k16 step 0 (ldmatrix's destination IS the MMA's operand).
  template <class SA, class SB>
  __device__ static void trace_tile0(const Problem& p, SA const& sa, SB const& sb) {
#pragma unroll 1
    for (int v = 0; v < int(size(sa.layout())); ++v) {
      const auto code = trace::decode(sa[v].bits, BK);
      Trace::record(p.trace, trace::Map::g2s_a, threadIdx.x, v, code.row, code.col);
    }
#pragma unroll 1
    for (int v = 0; v < int(size(sb.layout())); ++v) {
      const auto code = trace::decode(sb[v].bits, BK);
      Trace::record(p.trace, trace::Map::g2s_b, threadIdx.x, v, code.row, code.col);
    }
  }
  template <class RA, class RB>
  __device__ static void trace_fragments(const Problem& p, RA const& ra, RB const& rb) {
    tessera::detail::for_each_index(size(ra.layout()), [&](auto v) {
      const auto code = trace::decode(ra[v].bits, BK);
      Trace::record(p.trace, trace::Map::s2r_a, threadIdx.x, int(v), code.row, code.col);
      Trace::record(p.trace, trace::Map::mma_a, threadIdx.x, int(v), code.row, code.col);
    });
    tessera::detail::for_each_index(size(rb.layout()), [&](auto v) {
      const auto code = trace::decode(rb[v].bits, BK);
      Trace::record(p.trace, trace::Map::s2r_b, threadIdx.x, int(v), code.row, code.col);
      Trace::record(p.trace, trace::Map::mma_b, threadIdx.x, int(v), code.row, code.col);
    });
  }
};

}  // namespace tessera::kernels
