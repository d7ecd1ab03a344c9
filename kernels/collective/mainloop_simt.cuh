// Collective mainloop, SIMT FP32, written with tessera's algorithms:
//   gmem -> smem   copy / copy_if of the G2S tiled copies (cp.async; at the matrix's edge
//                  the zero-filling atom, predicates from identity tensors), Stages deep
//   smem -> regs   copy of the S2R tiled copies (e.g. a 128-bit universal atom: LDS.128) into
//                  the TiledMma's fragments (partition_fragment_A/B, retile_D)
//   math           gemm(tiled_mma, tCrA, tCrB, tCrC): FFMA outer products
//
// The collective is CollectiveMma<MainloopSm80CpAsyncSimt<Stages>, TileShape, float, MajorA,
// float, MajorB, TiledMma, GmemTiledCopyA, SmemLayoutA, SmemCopyAtomA, GmemTiledCopyB,
// SmemLayoutB, SmemCopyAtomB, Trace>: the parts and their rules are simt_collective_mma.hpp's
// (plain C++); CollectiveBuilder picks them from SimtPartition
// (include/tessera/kernels/simt_partition.hpp): CTA tile 128 x 128 x BK, 256 threads; the
// TiledMma's permutation (16,4,2):(4,1,64) gives thread (tm, tn) the 8 x 8 outer product of
// rows {4tm..4tm+3, 64+4tm..64+4tm+3} and the same pattern of columns, so each k is 4 LDS.128
// (two for A, two for B) for 64 FFMA.  Both operands are stored MN-major in smem, rows padded
// to 132 floats, a stage's A rows then its B rows:
//   reads: a warp's 16 tm read 256 contiguous bytes of one k-row (2 wavefronts, the
//   minimum), the 2 tn of a warp read 2 float4 (broadcast);
//   writes of a K-major operand (transposed on the way): a warp covers 4 mn x 8 k, banks
//   (4k + mn) mod 32 with the 132-float row pitch are all distinct; MN-major operands write
//   32 consecutive floats of one row.
// Host and device: on the host (tests/kernels/gemm_simt_host_test.cpp) every thread of a
// CTA runs this code through tessera::host_warp, which emulates the atoms and the barrier.
#pragma once

#include <cstdint>

#include "tessera/algorithm.hpp"
#include "../kernel/problem.cuh"
#include "../kernel/trace_policy.cuh"
#include "simt_collective_mma.hpp"

namespace tessera::kernels {

// The cp.async multistage SIMT mainloop: CollectiveMma of MainloopSm80CpAsyncSimt (its
// parts, types and rules: simt_collective_mma.hpp).
template <int Stages_, class TileShape, class ElementA, class MajorA, class ElementB, class MajorB, class TiledMma_,
          class GmemTiledCopyA, class SmemLayoutA_, class SmemCopyAtomA, class GmemTiledCopyB, class SmemLayoutB_,
          class SmemCopyAtomB, class Trace_>
struct CollectiveMma<MainloopSm80CpAsyncSimt<Stages_>, TileShape, ElementA, MajorA, ElementB, MajorB, TiledMma_, GmemTiledCopyA,
                     SmemLayoutA_, SmemCopyAtomA, GmemTiledCopyB, SmemLayoutB_, SmemCopyAtomB, Trace_>
    : CollectiveMmaSimtParts<MainloopSm80CpAsyncSimt<Stages_>, TileShape, ElementA, MajorA, ElementB, MajorB, TiledMma_,
                             GmemTiledCopyA, SmemLayoutA_, SmemCopyAtomA, GmemTiledCopyB, SmemLayoutB_, SmemCopyAtomB> {
  using Parts = CollectiveMmaSimtParts<MainloopSm80CpAsyncSimt<Stages_>, TileShape, ElementA, MajorA, ElementB, MajorB, TiledMma_,
                                       GmemTiledCopyA, SmemLayoutA_, SmemCopyAtomA, GmemTiledCopyB, SmemLayoutB_, SmemCopyAtomB>;
  using Trace = Trace_;  // trace_policy.cuh
  using DispatchPolicy = MainloopSm80CpAsyncSimt<Stages_>;
  using Parts::BM, Parts::BN, Parts::BK, Parts::Stages, Parts::Threads, Parts::AKMajor, Parts::BKMajor, Parts::smem_offset_b,
      Parts::smem_floats, Parts::smem_bytes;
  using typename Parts::TiledMma, typename Parts::G2SA, typename Parts::G2SB, typename Parts::G2SAZfill,
      typename Parts::G2SBZfill, typename Parts::S2RA, typename Parts::S2RB, typename Parts::SmemLayoutA,
      typename Parts::SmemLayoutB, typename Parts::Accum;

  // An operand in gmem as a tensor (mn, k, batch): K-major (k contiguous) or MN-major.
  template <bool KMajor>
  TESSERA_HOST_DEVICE static auto operand(MatrixArg const& x, std::int64_t extent_mn, std::int64_t extent_k,
                                          std::int64_t batch) {
    auto shape = make_shape(extent_mn, extent_k, batch);
    auto const* ptr = static_cast<const float*>(x.ptr);
    if constexpr (KMajor) return make_tensor(ptr, make_layout(shape, make_stride(x.ld, _1{}, x.batch_stride)));
    else return make_tensor(ptr, make_layout(shape, make_stride(_1{}, x.ld, x.batch_stride)));
  }

  // The extent left from tile `tile` of size `tile_size` on, at most the tile (so 32 bits).
  template <class Extent, class TileSize>
  TESSERA_HOST_DEVICE static int residue(Extent extent, std::int64_t tile, TileSize tile_size) {
    const std::int64_t left = extent - tile * std::int64_t(tile_size);
    return int(left < std::int64_t(tile_size) ? left : std::int64_t(tile_size));
  }

  // The thread's accumulators: the TiledMma's C fragment of the CTA tile, (1, 8, 8).
  TESSERA_HOST_DEVICE static Accum make_accumulators(int tid) {
    return TiledMma{}.get_slice(tid).partition_fragment_C(make_identity_tensor(make_shape(C<BM>{}, C<BN>{})));
  }

  // tCrC += this CTA's row of A tiles times its column of B tiles.  mA (M, K), mB (N, K):
  // one batch of the operands; (tm, tn): the CTA's tile; tid: the thread; smem: smem_floats
  // (A's stages at 0, B's at smem_offset_b).
  template <class TA, class TB>
  TESSERA_HOST_DEVICE static void run(Problem const& p, TA const& mA, TB const& mB, std::int64_t tm, std::int64_t tn,
                                      int tid, float* smem, Accum& tCrC) {
    // The CTA's tiles, k-tile after k-tile: (BM, BK, k_tiles) and (BN, BK, k_tiles).
    auto gA = local_tile(mA, make_shape(C<BM>{}, C<BK>{}), make_coord(tm, _));
    auto gB = local_tile(mB, make_shape(C<BN>{}, C<BK>{}), make_coord(tn, _));
    auto sA = make_tensor(smem, SmemLayoutA{});                  // (BM, BK, Stages)
    auto sB = make_tensor(smem + smem_offset_b, SmemLayoutB{});  // (BN, BK, Stages)
    // What of the matrices lies from the tile's origin on (CuTe's residue), capped at the
    // tile (32-bit predicates): a tile is whole where it covers its extent; else its copies
    // are predicated.
    const int m_left = residue(size<0>(mA), tm, size<0>(gA)), n_left = residue(size<0>(mB), tn, size<0>(gB));
    const bool a_whole = m_left == BM, b_whole = n_left == BN;  // (the same for every thread)

    // gmem -> smem: the thread's copies of a k-tile and of a stage, (CPY, CPY_MN, CPY_K, .)
    auto g2s_a = G2SA{}.get_slice(tid);
    auto g2s_b = G2SB{}.get_slice(tid);
    auto tAgA = g2s_a.partition_S(gA);
    auto tAsA = g2s_a.partition_D(sA);
    auto tBgB = g2s_b.partition_S(gB);
    auto tBsB = g2s_b.partition_D(sB);
    // The same copies' coordinates in a tile (static: an identity tensor of the tile's shape).
    auto tAcA = g2s_a.partition_S(make_identity_tensor(make_shape(C<BM>{}, C<BK>{})));
    auto tBcB = g2s_b.partition_S(make_identity_tensor(make_shape(C<BN>{}, C<BK>{})));
    // Which copies' rows lie inside the matrix: once per CTA.
    auto tApA = make_copy_predicate(G2SAZfill{}, tAcA, [&](auto c) { return get<0>(c) < m_left; });
    auto tBpB = make_copy_predicate(G2SBZfill{}, tBcB, [&](auto c) { return get<0>(c) < n_left; });
    // A k-tile whole in K: predicated on the rows only where the tile crosses M (N).
    auto load_k_tile = [&](int k_tile, int stage) {
      if (a_whole) copy(G2SA{}, tAgA(_, _, _, k_tile), tAsA(_, _, _, stage));
      else copy_if(tApA, G2SAZfill{}, tAgA(_, _, _, k_tile), tAsA(_, _, _, stage));
      if (b_whole) copy(G2SB{}, tBgB(_, _, _, k_tile), tBsB(_, _, _, stage));
      else copy_if(tBpB, G2SBZfill{}, tBgB(_, _, _, k_tile), tBsB(_, _, _, stage));
    };
    // The last k-tile when K is not a multiple of BK: predicated on k too.  It is loaded
    // first, so that the loop's k-tiles are whole in K and keep no k coordinates live
    // (CuTe's mainloops take the K residue first for the same reason).
    const int k_tiles = int(size<2>(gA));
    const int k_last = residue(size<1>(mA), k_tiles - 1, size<1>(gA));
    const bool k_partial = k_last < BK;
    auto load_residue_k_tile = [&](int stage) {
      auto in_k = [&](auto c) { return get<1>(c) < k_last; };
      auto both = [](bool k_ok, bool mn_ok) { return k_ok && mn_ok; };
      auto pa = make_copy_predicate(G2SAZfill{}, tAcA, in_k);
      auto pb = make_copy_predicate(G2SBZfill{}, tBcB, in_k);
      transform(pa, tApA, pa, both);
      transform(pb, tBpB, pb, both);
      copy_if(pa, G2SAZfill{}, tAgA(_, _, _, k_tiles - 1), tAsA(_, _, _, stage));
      copy_if(pb, G2SBZfill{}, tBgB(_, _, _, k_tiles - 1), tBsB(_, _, _, stage));
    };
    // The order of the k-tiles: the partial one first.
    auto k_tile_at = [&](int i) { return k_partial ? (i == 0 ? k_tiles - 1 : i - 1) : i; };

    // smem -> registers: the MMA's fragments and the LDS.128 copies' view of them.
    TiledMma mma;
    auto thr_mma = mma.get_slice(tid);
    auto tCrA = thr_mma.partition_fragment_A(sA(_, _, 0));  // (1, 8, BK)
    auto tCrB = thr_mma.partition_fragment_B(sB(_, _, 0));  // (1, 8, BK)
    auto s2r_a = S2RA{}.get_slice(tid);
    auto s2r_b = S2RB{}.get_slice(tid);
    auto tXsA = s2r_a.partition_S(sA);  // (4, 2, BK, Stages)
    auto tXrA = s2r_a.retile_D(tCrA);   // (4, 2, BK)
    auto tXsB = s2r_b.partition_S(sB);
    auto tXrB = s2r_b.retile_D(tCrB);

#pragma unroll
    for (int s = 0; s < Stages - 1; ++s) {
      if (s == 0 && k_partial) load_residue_k_tile(0);
      else if (s < k_tiles) load_k_tile(k_tile_at(s), s);
      cp_async_fence();
    }
    for (int kt = 0; kt < k_tiles; ++kt) {
      cp_async_wait<Stages - 2>();
      sync_threads();
      if constexpr (Trace::enabled)
        if (kt == 0) trace_tile0(p, tAsA(_, _, _, 0), tBsB(_, _, _, 0), tid);
      const int next = kt + Stages - 1;
      if (next < k_tiles) load_k_tile(k_tile_at(next), next % Stages);
      cp_async_fence();
      const int stage = kt % Stages;
      tessera::detail::static_for<BK>([&](auto k) {
        copy(S2RA{}, tXsA(_, _, k, stage), tXrA(_, _, k));
        copy(S2RB{}, tXsB(_, _, k, stage), tXrB(_, _, k));
        if constexpr (Trace::enabled && decltype(k)::value == 0)
          if (kt == 0) trace_fragments(p, tXrA(_, _, k), tXrB(_, _, k), tCrA(_, _, k), tCrB(_, _, k), tid);
        gemm(mma, tCrA(_, _, k), tCrB(_, _, k), tCrC);
      });
    }
    cp_async_wait<0>();
    // (No barrier needed after the loop: the epilogue works from registers.)
  }

  // Trace hooks (instantiated only when Trace::enabled).  Inputs hold their coordinates
  // (trace_policy.cuh): A(m, k) = m * BK + k as a float, so a value's data names it.
  template <class SA, class SB>
  TESSERA_HOST_DEVICE static void trace_tile0(Problem const& p, SA const& tAsA, SB const& tBsB, int tid) {
    for (int v = 0; v < int(size(tAsA.layout())); ++v) {
      const auto code = trace::decode(std::uint32_t(tAsA[v]), BK);
      Trace::record(p.trace, trace::Map::g2s_a, tid, v, code.row, code.col);
    }
    for (int v = 0; v < int(size(tBsB.layout())); ++v) {
      const auto code = trace::decode(std::uint32_t(tBsB[v]), BK);
      Trace::record(p.trace, trace::Map::g2s_b, tid, v, code.row, code.col);
    }
  }
  // What the copies delivered (in each copy's value order) and what the MMA reads (in the
  // fragment's order): the same registers, numbered by each object.
  template <class XA, class XB, class FA, class FB>
  TESSERA_HOST_DEVICE static void trace_fragments(Problem const& p, XA const& xa, XB const& xb, FA const& fa, FB const& fb,
                                                  int tid) {
    auto rec = [&](auto const& t, trace::Map m) {
      for (int v = 0; v < int(size(t.layout())); ++v) {
        const auto code = trace::decode(std::uint32_t(t[v]), BK);
        Trace::record(p.trace, m, tid, v, code.row, code.col);
      }
    };
    rec(xa, trace::Map::s2r_a);
    rec(xb, trace::Map::s2r_b);
    rec(fa, trace::Map::mma_a);
    rec(fb, trace::Map::mma_b);
  }
};

// Epilogue for f32, straight from registers: D = alpha * acc + beta * C over the TiledMma's
// C partition of the CTA's tile of D (local_tile).  Values 4g..4g+3 of a thread along
// either mode are 4 consecutive rows (columns) -- the TiledMma's permutation -- so where D
// is column-major (row-major) and allows vectors, they go out as one 16-byte store: the
// fragments seen with D's contiguous mode first, copied with a 128-bit universal atom.
// Its contract (sm80_contract.hpp): D in f32, no fused epilogue; the 16-byte stores where D
// and C allow 4-float vectors (decided on the host: Problem::d_vector_ok).
template <class Mainloop>
struct EpilogueSimt : EpilogueSm80Contract<float, 4> {
  using TiledMma = typename Mainloop::TiledMma;
  using Vec = Copy_Atom<UniversalCopy<uint128_t>, float>;

  TESSERA_HOST_DEVICE static void run(Problem const& p, typename Mainloop::Accum const& tCrC, std::int64_t tm,
                                      std::int64_t tn, std::int64_t l, int tid) {
    if (p.d.row) run_major<true>(p, tCrC, tm, tn, l, tid);
    else run_major<false>(p, tCrC, tm, tn, l, tid);
  }

  // D and C (M, N, batch), n contiguous (DRow) or m contiguous.
  template <bool DRow, class T>
  TESSERA_HOST_DEVICE static auto matrix(T* ptr, Problem const& p, MatrixArg const& x) {
    auto shape = make_shape(p.m, p.n, p.batch);
    if constexpr (DRow) return make_tensor(ptr, make_layout(shape, make_stride(x.ld, _1{}, x.batch_stride)));
    else return make_tensor(ptr, make_layout(shape, make_stride(_1{}, x.ld, x.batch_stride)));
  }
  // A partition seen with D's contiguous mode first: (V, N, M) for row-major D.
  template <bool DRow, class Tn>
  TESSERA_HOST_DEVICE static auto contiguous_first(Tn&& t) {
    if constexpr (DRow) return make_tensor(t.data(), select<0, 2, 1>(t.layout()));
    else return make_tensor(t.data(), t.layout());
  }

  template <bool DRow>
  TESSERA_HOST_DEVICE static void run_major(Problem const& p, typename Mainloop::Accum const& tCrC, std::int64_t tm,
                                            std::int64_t tn, std::int64_t l, int tid) {
    constexpr auto tile = make_shape(C<Mainloop::BM>{}, C<Mainloop::BN>{});
    auto mD = matrix<DRow>(static_cast<float*>(const_cast<void*>(p.d.ptr)), p, p.d);
    auto gD = local_tile(mD(_, _, l), tile, make_coord(tm, tn));
    auto thr_mma = TiledMma{}.get_slice(tid);
    auto tCgD = thr_mma.partition_C(gD);  // (1, 8, 8)
    const bool use_c = p.beta != 0.0f;
    const int m_left = Mainloop::residue(size<0>(mD), tm, size<0>(gD)), n_left = Mainloop::residue(size<1>(mD), tn, size<1>(gD));
    auto tCcD = thr_mma.partition_C(make_identity_tensor(tile));  // the values' coordinates in the tile
    // The coordinates the stores use, so the verifier checks them.
    if constexpr (Mainloop::Trace::enabled)
      for (int v = 0; v < int(size(tCcD.layout())); ++v)
        Mainloop::Trace::record(p.trace, trace::Map::mma_c, tid, v, int(get<0>(tCcD[v])), int(get<1>(tCcD[v])));
    auto gC = [&] {
      return local_tile(matrix<DRow>(static_cast<const float*>(p.c.ptr), p, p.c)(_, _, l), tile, make_coord(tm, tn));
    };
    // One line of values along D's contiguous mode at a time (8 values, two vectors): the
    // accumulators die as their results are stored, no second 64-value fragment is live.
    auto acc = contiguous_first<DRow>(tCrC);
    auto dst = contiguous_first<DRow>(tCgD);
    // C's partition, built once (read only where beta != 0: a null C is never dereferenced).
    auto src = contiguous_first<DRow>(thr_mma.partition_C(gC()));
    constexpr int lines = int(decltype(size<2>(acc.layout()))::value);
    if (p.d_vector_ok && m_left == Mainloop::BM && n_left == Mainloop::BN) {
      tessera::detail::static_for<lines>([&](auto j) {
        auto r = make_fragment_like(acc(_, _, j));
        if (use_c) copy(Vec{}, src(_, _, j), r);
        axpby(p.alpha, acc(_, _, j), p.beta, r);
        copy(Vec{}, r, dst(_, _, j));
      });
    } else {
      auto coords = contiguous_first<DRow>(tCcD);
      auto inside = [&](auto c) { return get<0>(c) < m_left && get<1>(c) < n_left; };
      tessera::detail::static_for<lines>([&](auto j) {
        auto pred = make_copy_predicate(coords(_, _, j), inside);
        auto r = make_fragment_like(acc(_, _, j));
        if (use_c) copy_if(pred, src(_, _, j), r);
        axpby(p.alpha, acc(_, _, j), p.beta, r);
        copy_if(pred, r, dst(_, _, j));
      });
    }
  }
};

}  // namespace tessera::kernels
