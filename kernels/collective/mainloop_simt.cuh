// Collective mainloop, SIMT FP32: gmem --cp.async 4 B (zero-filled residues)--> smem,
// Stages deep; smem --LDS.128--> registers; FFMA outer products.
//
// CTA tile 128 x 128 x 8, 256 threads as a 16 x 16 grid; thread (tm, tn) owns the 8 x 8
// outer product of rows {4tm..4tm+3, 64+4tm..64+4tm+3} and the same pattern of columns, so
// each k step is 4 LDS.128 (two for A, two for B) for 64 FFMA.
// Both operands are stored MN-major in smem (sX[k][mn], rows padded to 132 floats):
//   reads: a warp's 16 tm read 256 contiguous bytes of one k-row (2 wavefronts, the
//   minimum), the 2 tn of a warp read 2 float4 (broadcast);
//   writes of a K-major operand (transposed on the way): a warp covers 4 mn x 8 k, banks
//   (4k + mn) mod 32 with the 132-float row pitch are all distinct; MN-major operands write
//   32 consecutive floats of one row.
#pragma once

#include <cstdint>

#include "../arch/copy_zfill.cuh"
#include "../kernel/problem.cuh"
#include "tessera/kernels/simt_partition.hpp"
#include "simt_shape.cuh"
#include "tile_loader.hpp"
#include "../kernel/trace_policy.cuh"

namespace tessera::kernels {


// Smem operand tile: (mn, k) -> offset, MN-major rows of Pitch floats.
template <class S, int MN>
using SimtSmemLayout = Layout<tuple<C<MN>, C<S::BK>>, tuple<_1, C<S::Pitch>>>;

template <class Shape, bool AKMajor, bool BKMajor, class Trace_ = trace::NoTrace>
struct MainloopSimt {
  using Trace = Trace_;  // trace_policy.cuh
  using S = Shape;
  static constexpr int stage_floats = 2 * S::BK * S::Pitch;
  static constexpr int smem_bytes = S::Stages * stage_floats * 4;
  using Accum = float[S::TM][S::TN];  // acc[i][j] = C fragment value i + 8 j

  using Partition = SimtPartition<S::WarpGrid8x4, S::BK>;
  __device__ static void run(const Problem& p, const float* A, const float* B, std::int64_t tm,
                             std::int64_t tn, float* smem, Accum& acc) {
    // gmem -> smem: the G2S tiled copies (cp.async 4 B, zero-filled residues), addressed in
    // gmem (local_tile) and in the MN-major stage.
    using SmemA = SimtSmemLayout<S, S::BM>;
    using SmemB = SimtSmemLayout<S, S::BN>;
    TileLoader<float, typename Partition::template G2S<S::BM, AKMajor>, AKMajor> load_a(
        A, p.a.ld, p.m, p.k, tm, threadIdx.x);
    TileLoader<float, typename Partition::template G2S<S::BN, BKMajor>, BKMajor> load_b(
        B, p.b.ld, p.n, p.k, tn, threadIdx.x);
    auto smem_a = [](TileCoord c) { return SmemA{}(c.row, c.col); };
    auto smem_b = [](TileCoord c) { return SmemB{}(c.row, c.col); };
    auto issue = [](float* dst, const float* src, bool pred) { arch::cp_async_4_zfill(dst, src, pred); };
    auto stage_a = [&](int s) { return smem + s * stage_floats; };
    auto stage_b = [&](int s) { return smem + s * stage_floats + S::BK * S::Pitch; };
    const int k_tiles = int((p.k + S::BK - 1) / S::BK);
#pragma unroll
    for (int s = 0; s < S::Stages - 1; ++s) {
      if (s < k_tiles) {
        load_a.load(stage_a(s), smem_a, issue);
        load_b.load(stage_b(s), smem_b, issue);
      }
      arch::cp_async_commit();
    }
    // smem -> registers: the S2R tiled copies (128-bit atoms, destination TV = the MMA's):
    // read h moves values 4h..4h+3, whose source is 4 consecutive rows at src value 4h.
    const auto src_a = Partition::lds_a_src(threadIdx.x);
    const auto src_b = Partition::lds_b_src(threadIdx.x);
    const int a_row0 = src_a(0).row, a_row1 = src_a(4).row;
    const int b_col0 = src_b(0).row, b_col1 = src_b(4).row;
    for (int kt = 0; kt < k_tiles; ++kt) {
      arch::cp_async_wait<S::Stages - 2>();
      __syncthreads();
      if constexpr (Trace::enabled)
        if (kt == 0) trace_tile0(p, stage_a(0), stage_b(0));
      const int next = kt + S::Stages - 1;
      if (next < k_tiles) {
        load_a.load(stage_a(next % S::Stages), smem_a, issue);
        load_b.load(stage_b(next % S::Stages), smem_b, issue);
      }
      arch::cp_async_commit();
      const float* sa = stage_a(kt % S::Stages);
      const float* sb = stage_b(kt % S::Stages);
#pragma unroll
      for (int k = 0; k < S::BK; ++k) {
        float a[S::TM], b[S::TN];
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          const float4 va = *reinterpret_cast<const float4*>(sa + SmemA{}(h ? a_row1 : a_row0, k));
          const float4 vb = *reinterpret_cast<const float4*>(sb + SmemB{}(h ? b_col1 : b_col0, k));
          a[4 * h] = va.x; a[4 * h + 1] = va.y; a[4 * h + 2] = va.z; a[4 * h + 3] = va.w;
          b[4 * h] = vb.x; b[4 * h + 1] = vb.y; b[4 * h + 2] = vb.z; b[4 * h + 3] = vb.w;
        }
        if constexpr (Trace::enabled)
          if (kt == 0 && k == 0) trace_fragments(p, a, b);
#pragma unroll
        for (int i = 0; i < S::TM; ++i)
#pragma unroll
          for (int j = 0; j < S::TN; ++j) {
            float d[1];
            const float ai[1] = {a[i]}, bj[1] = {b[j]}, cij[1] = {acc[i][j]};
            UniversalFMA<float>::fma(d, ai, bj, cij);  // the atom's instruction: FFMA
            acc[i][j] = d[0];
          }
      }
    }
    arch::cp_async_wait<0>();
  }

  // Trace hooks (instantiated only when Trace::enabled). Inputs hold their coordinates (trace_policy.cuh): A(m, k) = m * BK + k as a float.
  __device__ static void trace_tile0(const Problem& p, const float* sa, const float* sb) {
    using CA = typename Partition::template G2S<S::BM, AKMajor>;
    using CB = typename Partition::template G2S<S::BN, BKMajor>;
    const auto ca = CA::coords(threadIdx.x);
    const auto cb = CB::coords(threadIdx.x);
#pragma unroll 1
    for (int v = 0; v < decltype(ca)::size(); ++v) {
      const TileCoord c = ca(v);
      const auto code = trace::decode(std::uint32_t(sa[SimtSmemLayout<S, S::BM>{}(c.row, c.col)]), S::BK);
      Trace::record(p.trace, trace::Map::g2s_a, threadIdx.x, v, code.row, code.col);
    }
#pragma unroll 1
    for (int v = 0; v < decltype(cb)::size(); ++v) {
      const TileCoord c = cb(v);
      const auto code = trace::decode(std::uint32_t(sb[SimtSmemLayout<S, S::BN>{}(c.row, c.col)]), S::BK);
      Trace::record(p.trace, trace::Map::g2s_b, threadIdx.x, v, code.row, code.col);
    }
  }
  __device__ static void trace_fragments(const Problem& p, const float (&a)[S::TM], const float (&b)[S::TN]) {
#pragma unroll
    for (int v = 0; v < S::TM; ++v) {
      const auto ca = trace::decode(std::uint32_t(a[v]), S::BK);
      const auto cb = trace::decode(std::uint32_t(b[v]), S::BK);
      Trace::record(p.trace, trace::Map::s2r_a, threadIdx.x, v, ca.row, ca.col);
      Trace::record(p.trace, trace::Map::mma_a, threadIdx.x, v, ca.row, ca.col);
      Trace::record(p.trace, trace::Map::s2r_b, threadIdx.x, v, cb.row, cb.col);
      Trace::record(p.trace, trace::Map::mma_b, threadIdx.x, v, cb.row, cb.col);
    }
  }
};

// Epilogue for f32: straight from registers; 4 consecutive values along D's contiguous mode
// go out as one 16-byte store where D allows vectors.
template <class Mainloop>
struct EpilogueSimt {
  using S = typename Mainloop::S;
  using Partition = typename Mainloop::Partition;
  // Straight from registers.  Values 4g..4g+3 of a thread are 4 consecutive rows (or
  // columns) -- the permutation of SimtPartition -- so where D is column-major (row-major)
  // and allows vectors, rows (columns) 4g..4g+3 go out as one 16-byte store.
  __device__ static void run(const Problem& p, const typename Mainloop::Accum& acc, float* D,
                             const float* C, std::int64_t m0, std::int64_t n0) {
    if (p.d.row) run_major<true>(p, acc, D, C, m0, n0);
    else run_major<false>(p, acc, D, C, m0, n0);
  }
  template <bool DRow>
  __device__ static void run_major(const Problem& p, const typename Mainloop::Accum& acc, float* D,
                                   const float* C, std::int64_t m0, std::int64_t n0) {
    auto matrix = [&](std::int64_t ld) {
      return make_layout(make_shape(p.m, p.n), make_stride(DRow ? ld : std::int64_t(1), DRow ? std::int64_t(1) : ld));
    };
    const auto d_layout = matrix(p.d.ld);
    const auto c_layout = matrix(p.c.ld);
    const bool use_c = p.beta != 0.0f;
    // acc[i][j] = C fragment value i + 8 j, at the thread's value 0 plus a constant (value_deltas).
    const TileCoord c0 = Partition::c_coords(threadIdx.x)(0);
    constexpr auto delta = Partition::c_deltas();
    auto c = [&](int v) { return TileCoord{c0.row + delta.d[v].row, c0.col + delta.d[v].col}; };
    // The coordinates the stores below use, so the verifier checks the deltas too.
    if constexpr (Mainloop::Trace::enabled)
      for (int v = 0; v < S::TM * S::TN; ++v)
        Mainloop::Trace::record(p.trace, trace::Map::mma_c, threadIdx.x, v, c(v).row, c(v).col);
#pragma unroll
    for (int i = 0; i < S::TM; ++i)
#pragma unroll
      for (int j = 0; j < S::TN; ++j) {
        // (i, j) = value i of the rows, j of the columns; a vector group runs along D's
        // contiguous mode: i for column-major D, j for row-major D.
        const int g = DRow ? j : i;
        if (g % 4 != 0) continue;  // handled with its group's first value
        const auto [m, n] = c(i + 8 * j);
        const std::int64_t gm = m0 + m, gn = n0 + n;
        const bool whole = DRow ? (gm < p.m && gn + 3 < p.n) : (gm + 3 < p.m && gn < p.n);
        if (p.d_vector_ok && whole) {
          float v[4];
#pragma unroll
          for (int e = 0; e < 4; ++e) v[e] = p.alpha * (DRow ? acc[i][j + e] : acc[i + e][j]);
          if (use_c) {
            const float4 c = *reinterpret_cast<const float4*>(C + c_layout(gm, gn));
            v[0] += p.beta * c.x; v[1] += p.beta * c.y; v[2] += p.beta * c.z; v[3] += p.beta * c.w;
          }
          *reinterpret_cast<float4*>(D + d_layout(gm, gn)) = float4{v[0], v[1], v[2], v[3]};
          continue;
        }
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          const auto [me, ne] = c(DRow ? i + 8 * (j + e) : i + e + 8 * j);
          const std::int64_t em = m0 + me, en = n0 + ne;
          if (em < p.m && en < p.n) {
            float v = p.alpha * (DRow ? acc[i][j + e] : acc[i + e][j]);
            if (use_c) v += p.beta * C[c_layout(em, en)];
            D[d_layout(em, en)] = v;
          }
        }
      }
  }
};

}  // namespace tessera::kernels
