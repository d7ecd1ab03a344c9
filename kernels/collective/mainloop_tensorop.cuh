// Collective mainloop, SM80 style (runs on sm_80 and Hopper): F16/BF16 in, F32 accumulate.
//
//   gmem --cp.async (16 B, zero-filled residues)--> swizzled smem, Stages deep
//   smem --ldmatrix(.trans) x4--> registers --mma.sync m16n8k16--> f32 accumulators
//
// CTA tile BM x BN x BK, warps WM x WN, each warp a (BM/WM) x (BN/WN) tile made of
// 16x8 MMA atoms.  Default 128x256x32 with 2x4 warps (64x64 per warp): per k16 step a warp
// issues 8 ldmatrix.x4 for 32 mma, and a CTA loads 384 elements per 32768 MACs, which keeps
// the L2->SM traffic of an H100 under its bandwidth at mma.sync rates.
// Vec = false replaces the 16-byte copies by element copies (any alignment, any extent).
#pragma once

#include <cstdint>
#include <type_traits>

#include "../arch/copy_zfill.cuh"
#include "../kernel/problem.cuh"
#include "tessera/kernels/tensorop_partition.hpp"
#include "tensorop_shape.cuh"
#include "tile_loader.hpp"
#include "../kernel/trace_policy.cuh"

namespace tessera::kernels {

// Every k16 step kk > 0 of a BK-deep stage is an XOR step of Smem (OperandSmem::xor_step).
template <class Smem, int BK = Smem::Depth>
constexpr bool xor_steps() {
  if constexpr (BK <= 16) return BK == 16;
  else return Smem::template xor_step<0, BK - 16> && xor_steps<Smem, BK - 16>();
}

// A lane's ldmatrix byte offsets for k16 step kk and issue i, from the KKN steps kept: all
// of them, or step 0 when later steps add (uniform_step) or XOR (xor_step) 16 kk columns.
template <class Smem, int KKN, int N>
struct StepOffsets {
  std::uint32_t off[KKN][N];
  __device__ std::uint32_t operator()(int kk, int i) const {
    constexpr std::uint32_t step = sizeof(std::uint16_t) * Smem::template plain_step<0, 16>;
    if constexpr (KKN > 1) return off[kk][i];
    else if constexpr (Smem::template uniform_step<0, 16>) return off[0][i] + kk * step;
    else return off[0][i] ^ (kk * step);
  }
};

template <class Shape, bool IsBF16, bool AKMajor, bool BKMajor, bool Vec, bool Swizzled = true,
          class Trace_ = trace::NoTrace>
struct MainloopTensorOp {
  using Trace = Trace_;  // trace_policy.cuh
  static constexpr int BM = Shape::BM, BN = Shape::BN, BK = Shape::BK, Stages = Shape::Stages;
  static constexpr int MT = Shape::MT, NT = Shape::NT;
  using Partition = TensorOpPartition<BM, BN, BK, Shape::WM, Shape::WN, Shape::Threads, IsBF16, AKMajor, BKMajor,
                                      Vec ? 8 : 1, Swizzled>;
  static_assert(Partition::MT == MT && Partition::NT == NT, "partition and tile shape disagree");
  using SmemA = typename Partition::SmemA;
  using SmemB = typename Partition::SmemB;
  using Mma = typename Partition::Op;           // the atom's instruction (mma.sync m16n8k16)
  using LdsmA = typename Partition::LdsmA;      // the atoms' instructions (ldmatrix x4)
  using LdsmB = typename Partition::LdsmB;
  static constexpr int stage_elems = SmemA::size + SmemB::size;
  static constexpr int smem_bytes = Stages * stage_elems * 2;

  // Accumulators: C fragment value r + 4 (mt + MT nt) of the TiledMMA is acc[mt][nt][r].
  using Accum = float[MT][NT][4];

  // acc += A(tile tm, k) * B(k, tile tn) over the k of k-tiles [kt_begin, kt_end).
  __device__ static void run(const Problem& p, const std::uint16_t* A, const std::uint16_t* B,
                             std::int64_t tm, std::int64_t tn, int kt_begin, int kt_end, std::uint16_t* smem,
                             Accum& acc) {
    const std::int64_t k_end = std::int64_t(kt_end) * BK < p.k ? std::int64_t(kt_end) * BK : p.k;
    // gmem -> smem: the G2S tiled copies' coordinates, addressed in gmem (local_tile) and
    // in the swizzled stage; residues zero-filled (cp.async reads 0 bytes) or zero-written.
    TileLoader<std::uint16_t, typename Partition::G2S_A, AKMajor> load_a(
        A, p.a.ld, p.m, k_end, tm, threadIdx.x, kt_begin);
    TileLoader<std::uint16_t, typename Partition::G2S_B, BKMajor> load_b(
        B, p.b.ld, p.n, k_end, tn, threadIdx.x, kt_begin);
    auto issue = [](std::uint16_t* dst, const std::uint16_t* src, bool pred) {
      if constexpr (Vec) arch::cp_async_16_zfill<Shape::L2Prefetch>(dst, src, pred);
      else *dst = pred ? *src : std::uint16_t(0);
    };
    auto stage_a = [&](int s) { return smem + s * stage_elems; };
    auto stage_b = [&](int s) { return smem + s * stage_elems + SmemA::size; };

    const int k_tiles = kt_end - kt_begin;
    // Prologue: Stages-1 tiles in flight.
#pragma unroll
    for (int s = 0; s < Stages - 1; ++s) {
      if (s < k_tiles) {
        load_a.template load_through<SmemA>(stage_a(s), issue);
        load_b.template load_through<SmemB>(stage_b(s), issue);
      }
      arch::cp_async_commit();
    }

    // Each lane's ldmatrix row offsets in a stage, per k16 step kk and issue i: the source
    // partition of the S2R tiled copies (issue i at source value 8i; step kk adds 16 to the
    // k coordinate) through the swizzled stage layout, in bytes.  Evaluated once: in the
    // loop the swizzle cost a handful of integer instructions per ldmatrix.  Only step 0 is
    // kept where a later step is step 0's offset plus a constant (MN-major tiles: the step
    // moves whole swizzle periods) or XOR a constant (K-major: it flips a bit the swizzle
    // does not read, and step 0's sources sit in columns 0..15) -- registers are what this
    // kernel runs out of; tile_loader_test checks both claims at every lane.
    constexpr int KK = BK / 16;
    constexpr int Bytes = sizeof(std::uint16_t);
    // (Issue i's source is the lane's value 0 plus a constant: value_deltas.)
    auto ldsm_offsets = [&](auto smem, auto src, auto delta) {
      using Smem = decltype(smem);
      constexpr int N = decltype(src)::size() / 8;
      constexpr bool one_step = Smem::template uniform_step<0, 16> || xor_steps<Smem>();
      StepOffsets<Smem, one_step ? 1 : KK, N> steps;
      const TileCoord c0 = src(0);
#pragma unroll
      for (int kk = 0; kk < (one_step ? 1 : KK); ++kk)
#pragma unroll
        for (int i = 0; i < N; ++i) {
          const TileCoord c = {c0.row + delta.d[8 * i].row, c0.col + delta.d[8 * i].col};
          steps.off[kk][i] = std::uint32_t(Bytes * Smem::offset({c.row, c.col + 16 * kk}));
        }
      return steps;
    };
    constexpr auto delta_a = value_deltas(Partition::ldsm_a_src(0));
    constexpr auto delta_b = value_deltas(Partition::ldsm_b_src(0));
    const auto off_a = ldsm_offsets(SmemA{}, Partition::ldsm_a_src(threadIdx.x), delta_a);
    const auto off_b = ldsm_offsets(SmemB{}, Partition::ldsm_b_src(threadIdx.x), delta_b);

    // Fragments are double-buffered in registers: while the MMAs of step kk run, the
    // ldmatrix of step kk+1 is in flight -- across k-tiles too: the last step of a tile
    // waits for the next stage and loads its first fragments before its own MMAs.
    // ldmatrix issue i fills destination values 8i..8i+7 = A registers a[i][0..3] (atom
    // mt = i) and B registers of atoms 2i, 2i+1 (partitions.hpp: the S2R destination TV
    // is the MMA's).
    static_assert(KK % 2 == 0, "fragment double-buffering alternates buffers by step parity");
    std::uint32_t a[2][MT][4], b[2][NT][2];
    auto load_frags = [&](int buf, int stage, int kk) {
      const char* sa = reinterpret_cast<const char*>(stage_a(stage));
      const char* sb = reinterpret_cast<const char*>(stage_b(stage));
#pragma unroll
      for (int i = 0; i < MT; ++i)
        LdsmA::copy(*reinterpret_cast<const uint128_t*>(sa + off_a(kk, i)), a[buf][i]);
#pragma unroll
      for (int i = 0; i < NT / 2; ++i) {
        std::uint32_t r[4];
        LdsmB::copy(*reinterpret_cast<const uint128_t*>(sb + off_b(kk, i)), r);
        b[buf][2 * i][0] = r[0]; b[buf][2 * i][1] = r[1];
        b[buf][2 * i + 1][0] = r[2]; b[buf][2 * i + 1][1] = r[3];
      }
    };

    arch::cp_async_wait<Stages - 2>();
    __syncthreads();  // tile 0 visible
    if constexpr (Trace::enabled) trace_tile0(p, stage_a(0), stage_b(0));
    load_frags(0, 0, 0);
    if constexpr (Trace::enabled) trace_fragments(p, a[0], b[0]);
    // Tile kt is read from stage s = kt % Stages; tile kt + Stages - 1 is written into the
    // stage tile kt - 1 was read from.
    // Full: the tile this k-tile loads is known to be whole (see below): no checks at all.
    auto k_tile = [&](int kt, int s, auto full) {
      const int read_next = s + 1 == Stages ? 0 : s + 1;   // stage of tile kt + 1
      const int write_stage = s == 0 ? Stages - 1 : s - 1;  // stage of tile kt + Stages - 1
#pragma unroll
      for (int kk = 0; kk < KK; ++kk) {
        if (kk == KK - 1) {
          // Tile kt+1 must have landed; after this barrier every warp is done reading
          // stage (kt-1)%Stages, which the copies issued at kk == 0 of tile kt+1 overwrite.
          arch::cp_async_wait<Stages - 2>();
          __syncthreads();
        }
        // Prefetch the next step's fragments (the next tile's first step when kk is last).
        load_frags((kk + 1) % 2, kk == KK - 1 ? read_next : s, (kk + 1) % KK);
        if (kk == 0) {
          if constexpr (decltype(full)::value) {
            load_a.template load_through<SmemA, true>(stage_a(write_stage), issue);
            load_b.template load_through<SmemB, true>(stage_b(write_stage), issue);
          } else if (kt + Stages - 1 < k_tiles) {
            load_a.template load_through<SmemA>(stage_a(write_stage), issue);
            load_b.template load_through<SmemB>(stage_b(write_stage), issue);
          }
          arch::cp_async_commit();
        }
#pragma unroll
        for (int mt = 0; mt < MT; ++mt)
#pragma unroll
          for (int nt = 0; nt < NT; ++nt) Mma::fma(acc[mt][nt], a[kk % 2][mt], b[kk % 2][nt], acc[mt][nt]);
      }
    };
    if constexpr (Vec) {
      // Unrolled by Stages so that every stage index is a constant: ldmatrix and cp.async
      // then address smem as a per-thread register plus an immediate.
      //
      // A CTA whose copies all lie inside A and B (every CTA but the last row and column of
      // tiles) loads whole tiles until the last partial one: those k-tiles run a body
      // without a branch, so the copies' address arithmetic can be scheduled between the
      // MMAs instead of in a block of its own while the warp's tensor pipe waits.
      using std::true_type, std::false_type;
      int kt0 = 0;
      // (The same for every thread, so the barriers inside stay uniform.)
      const bool inside = decltype(load_a)::tile_inside(p.m, tm) && decltype(load_b)::tile_inside(p.n, tn);
      const int whole = inside ? load_a.full_tiles_left() : 0;  // A and B share K
      // Tiles kt < kt_whole load tile kt + Stages - 1 < (Stages - 1) + whole: whole tiles.
      const int kt_whole = whole > 0 ? whole / Stages * Stages : 0;
      for (; kt0 < kt_whole; kt0 += Stages) {
#pragma unroll
        for (int s = 0; s < Stages; ++s) k_tile(kt0 + s, s, true_type{});
      }
      for (; kt0 < k_tiles; kt0 += Stages) {
#pragma unroll
        for (int s = 0; s < Stages; ++s) {
          if (kt0 + s >= k_tiles) break;
          k_tile(kt0 + s, s, false_type{});
        }
      }
    } else {
      // The element-copy path keeps a run-time stage: its copies are many (one per element)
      // and, unrolled Stages times, they no longer fit in registers beside the accumulators.
      int s = 0;
      for (int kt = 0; kt < k_tiles; ++kt) {
        k_tile(kt, s, std::false_type{});
        s = s + 1 == Stages ? 0 : s + 1;
      }
    }
    arch::cp_async_wait<0>();
    __syncthreads();  // smem is reused by the epilogue
  }

  // Trace hooks (trace_policy.cuh; instantiated only when Trace::enabled): the inputs hold their own coordinates (A(m,k) = m*BK + k
  // of tile 0, B likewise), so what landed in smem and what ldmatrix delivered can be
  // decoded.  Records: copy.gA->sA / copy.gB->sB for every element thread t copied
  // (read back at the smem address it wrote), copy.sA->rA / copy.sB->rB and mma.A / mma.B
  // for the fragment registers of k16 step 0 (ldmatrix's destination IS the MMA's operand).
  __device__ static void trace_tile0(const Problem& p, const std::uint16_t* sa, const std::uint16_t* sb) {
    using CA = typename Partition::G2S_A;
    using CB = typename Partition::G2S_B;
    const auto ca = CA::coords(threadIdx.x);
    const auto cb = CB::coords(threadIdx.x);
#pragma unroll 1
    for (int v = 0; v < decltype(ca)::size(); ++v) {
      const auto code = trace::decode(sa[SmemA::offset(ca(v))], BK);
      Trace::record(p.trace, trace::Map::g2s_a, threadIdx.x, v, code.row, code.col);
    }
#pragma unroll 1
    for (int v = 0; v < decltype(cb)::size(); ++v) {
      const auto code = trace::decode(sb[SmemB::offset(cb(v))], BK);
      Trace::record(p.trace, trace::Map::g2s_b, threadIdx.x, v, code.row, code.col);
    }
  }
  __device__ static void trace_fragments(const Problem& p, const std::uint32_t (&a)[MT][4], const std::uint32_t (&b)[NT][2]) {
#pragma unroll
    for (int mt = 0; mt < MT; ++mt)
#pragma unroll
      for (int j = 0; j < 4; ++j)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          const auto code = trace::decode(std::uint16_t(a[mt][j] >> (16 * h)), BK);
          const int v = h + 2 * j + 8 * mt;
          Trace::record(p.trace, trace::Map::s2r_a, threadIdx.x, v, code.row, code.col);
          Trace::record(p.trace, trace::Map::mma_a, threadIdx.x, v, code.row, code.col);
        }
#pragma unroll
    for (int nt = 0; nt < NT; ++nt)
#pragma unroll
      for (int j = 0; j < 2; ++j)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          const auto code = trace::decode(std::uint16_t(b[nt][j] >> (16 * h)), BK);
          const int v = h + 2 * j + 4 * nt;
          Trace::record(p.trace, trace::Map::s2r_b, threadIdx.x, v, code.row, code.col);
          Trace::record(p.trace, trace::Map::mma_b, threadIdx.x, v, code.row, code.col);
        }
  }

  // Tile coordinates of this thread's accumulators: the TiledMMA's C partition.
  __device__ static auto acc_coords() { return Partition::c_coords(threadIdx.x); }
};

}  // namespace tessera::kernels
